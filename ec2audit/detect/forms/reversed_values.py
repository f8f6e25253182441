"""A value written backwards: `rev notes.txt` prints each line so, and `s[::-1]` or a "reverse the string" step
in a script does the same. A reader reads it back; so does this form, where a unit's form reversed (of at least
`_LEAST` characters, 3 where Han: shorter ones read backwards are other words and numbers) stands alone in the
text (`spaced_pieces.whole`: a Han character runs on as a letter does). No view: each reversed form is one more
pattern of the shared automaton."""

from __future__ import annotations

from collections.abc import Iterator

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, is_cjk, mentions, register
from ec2audit.detect.forms.spaced_pieces import whole
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "reversed_values"
_LEAST = 6
_LEAST_HAN = 3


def long_enough(form: str) -> bool:
    """Is `form` long enough to stand for its value when written another way (the shorter are other words)?"""
    return len(form) >= (_LEAST_HAN if any(map(is_cjk, form)) else _LEAST)


def reversed_forms(cu: CompiledUnit) -> Iterator[str]:
    for form in cu.forms:
        if long_enough(form) and form[::-1] != form:
            yield form[::-1]


@register
class ReversedValues(Form):
    name = KIND
    kinds = (KIND,)

    def compile(self, index: PatternIndex) -> None:
        self.compile_forms(index, {KIND: reversed_forms})

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        return mentions(view, KIND, decided, whole, "forms.reversed_values", LITERAL, 0.8)
