"""A Latin name with one part cut to its initial — "emily r." and "sophie v." (the given name kept),
"e. rutherford", "rutherford, e." and "rutherford e" (a bank file's payee field), "e rutherford" (a card's
holder, a utility bill's "MS E RUTHERFORD"; not for an initial "a" or "i", English words) — standing as words
of their own: the name masked, 0.7."""

from __future__ import annotations

from collections.abc import Iterator

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.finding import MOSTLY, Hit
from ec2audit.detect.forms import Form, mentions, register, standalone
from ec2audit.detect.forms.surnames import latin_surname
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

INITIAL = "initial"


@register
class Initials(Form):
    name = "initials"
    kinds = (INITIAL,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        for i, cu in enumerate(self.units):
            if cu.rules.fragment == "surname":
                for pattern in _initial_patterns(cu):
                    index.add(pattern, INITIAL, i)
        self.reach = self.bound(index, 1)  # word boundaries

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        return mentions(view, INITIAL, decided, standalone, "partial.masked", MOSTLY, 0.6)


def _initial_patterns(cu: CompiledUnit) -> list[str]:
    """A Latin name with one part cut to its initial (masked, 0.7): "emily r." and "sophie v." (the given
    name kept), "e. rutherford", "rutherford, e.", "rutherford e" (a bank file's payee field) and "e rutherford"."""
    name = cu.forms[0]
    surname = latin_surname(name)
    parts = name.split()
    if surname is None or len(parts[0]) < 3:
        return []
    given = parts[0]
    patterns = [f"{given} {surname[0]}.", f"{given[0]}. {surname}", f"{surname}, {given[0]}.", f"{surname} {given[0]}"]
    return patterns + ([f"{given[0]} {surname}"] if given[0] not in "ai" else [])
