"""A health value with a run of its words written as their initials, the rest kept as it stands: "major
depressive disorder, recurrent, moderate" as "MDD, recurrent, moderate", "chronic kidney disease stage 3" as
"CKD stage 3", "recurrent major depressive disorder" as "recurrent MDD": the value (1.0). The initials alone
("GAD", "MDD") name many things (a GAD-7 score is a questionnaire's); with the rest of the value they are read
for what they stand for."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, matched, register, standalone
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import ScanView

KIND = "acronym"
_WORD = re.compile(r"[^\W\d_]+")
_SHORTEST, _LONGEST = 3, 5  # words an acronym stands for (two initials, "MS", "AD", are too many things)
_REST = 4  # letters the words kept must hold at least


def acronym_forms(value: str) -> list[str]:
    """The value with each run of 3–5 of its words as their initials, where the words kept hold 4 letters or more,
    as the text view reads it (lower case); with and without the commas."""
    norm = normalize_text(value).strip()
    words = list(_WORD.finditer(norm))
    if not norm.isascii():
        return []
    forms = []
    for a in range(len(words)):
        for b in range(a + _SHORTEST, min(len(words), a + _LONGEST) + 1):
            run = words[a:b]
            if any(norm[x.end():y.start()].strip() for x, y in zip(run, run[1:], strict=False)):
                continue  # the run's words stand next to each other, nothing but spaces between
            before, after = norm[:run[0].start()], norm[run[-1].end():]
            if sum(map(len, _WORD.findall(before + after))) < _REST:
                continue
            form = before + "".join(w[0][0] for w in run) + after
            forms += [form, re.sub(r"\s*,\s*", " ", form)]
    return list(dict.fromkeys(forms))


@register
class Acronyms(Form):
    name = "acronyms"
    kinds = (KIND,)

    def compile(self, index) -> None:
        self.compile_forms(index, {KIND: lambda cu: acronym_forms(cu.unit.value) if cu.rules.name == "health" else []})

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if standalone(text, start, end):
                span = view.view.to_original(start, end)
                for i in units:
                    yield Hit(i, *span, "forms.acronym", LITERAL)
