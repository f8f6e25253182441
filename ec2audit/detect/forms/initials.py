"""A Latin name with one part cut to its initial — "emily r." and "sophie v." (the given name kept),
"e. rutherford", "rutherford, e." and "rutherford e" (a bank file's payee field), "e rutherford" (a card's
holder, a utility bill's "MS E RUTHERFORD"; not for an initial "a" or "i", English words) — standing as words
of their own: the name masked, 0.7 — unless the text names someone else with that initial and surname within
a few lines ("Sanne van der Meulen" beside "S VAN DER MEULEN", for Sophie)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.finding import MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register, standalone
from ec2audit.detect.forms.surnames import latin_surname
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

INITIAL = "initial"
_NAMESAKE_WINDOW = 400  # how far from the initialled name another person of that initial and surname is looked for


@register
class Initials(Form):
    name = "initials"
    kinds = (INITIAL,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        self._namesakes: dict[int, tuple[re.Pattern, str]] = {}
        for i, cu in enumerate(self.units):
            if cu.rules.fragment == "surname" and (patterns := _initial_patterns(cu)):
                for pattern in patterns:
                    index.add(pattern, INITIAL, i)
                given, surname = cu.forms[0].split()[0], latin_surname(cu.forms[0]) or ""
                self._namesakes[i] = re.compile(rf"(?<![^\W\d_])({re.escape(given[0])}[^\W\d_]+) {re.escape(surname)}"
                                                rf"(?![^\W\d_])"), given
        self.reach = self.bound(index, _NAMESAKE_WINDOW)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, INITIAL, decided):
            if standalone(text, start, end):
                for i in units:
                    namesake, given = self._namesakes[i]
                    around = text[max(0, start - _NAMESAKE_WINDOW):end + _NAMESAKE_WINDOW]
                    if all(m[1] == given for m in namesake.finditer(around)):
                        yield Hit(i, *view.view.to_original(start, end), "partial.masked", MOSTLY, 0.6)


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
