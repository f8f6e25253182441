"""The literal tier, first: every value's own forms, aliases, amounts, romanised names, and numbers and
identifiers in the digit and alnum views (`detect.exact`). Its hits of units found literally already
stand (each mention is evidence), and a value counts inside a placeholder too."""

from ec2audit.detect.exact import ExactDetector
from ec2audit.detect.tiers import TierSpec, register

register(TierSpec("exact", 10, lambda sources: ExactDetector(sources.units, sources.index),
                  refinds=True, placeholders=False))
