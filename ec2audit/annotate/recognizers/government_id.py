"""Government IDs by shape and context where Presidio's checks are too strict for pre-labels:
US SSN-shaped numbers (Presidio drops never-issued areas such as 666; a group of zeros, `000-00-0000`, is a
form's example everywhere), UK National Insurance numbers, and passport numbers next to the word passport.
"""

from __future__ import annotations

from ec2audit.annotate.recognizers.base import PatternRecognizer


def _ssn_ok(value: str) -> bool:
    """No group all zeros: the SSA never issues one, and forms show `000-00-0000` as the example."""
    return not any(set(group) == {"0"} for group in value.split("-"))


RECOGNIZERS = [
    PatternRecognizer("ssn-shape", "US_SSN", "government_id", (
        (r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])", 0.55),
    ), validate=_ssn_ok),
    PatternRecognizer("uk-nino", "UK_NINO", "government_id", (
        (r"(?<![\w])[A-Z]{2}(?: \d{2} \d{2} \d{2} |\d{6})[A-D](?![\w])", 0.65),
    )),
    PatternRecognizer("passport", "PASSPORT", "government_id", (
        (r"(?i:passport)(?:\s*(?:no\.?|number|#|nr\.?))?\s*[:：#]?\s*(?P<value>(?=[A-Z0-9]*\d)[A-Z0-9]{6,9})(?![\w])",
         0.7),
        (r"护照(?:号码?)?\s*[:：]?\s*(?P<value>(?=[A-Z0-9]*\d)[A-Z0-9]{6,9})(?![\w])", 0.7),
        # "the passport number on the form is YB284716"
        (r"(?i:passport)(?:\s*(?:no\.?|number|#|nr\.?))?[^\n.;:\d]{1,30}?\b(?i:is|was|reads)\s+"
         r"(?P<value>(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6,9})(?![\w])", 0.6),
    )),
]
