"""A value in ROT13: `tr 'A-Za-z' 'N-ZA-Mn-za-m'`, Python's `codecs.encode(s, "rot13")` and puzzle-style
"spoiler" text turn each ASCII letter thirteen places. A reader turns it back; so does this form, where a unit's
form so turned (changed, and long enough: `reversed_values.long_enough`) stands alone in the text
(`spaced_pieces.whole`). No view: each turned form is one more pattern of the shared automaton."""

from __future__ import annotations

import codecs
from collections.abc import Iterator

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, mentions, register
from ec2audit.detect.forms.reversed_values import long_enough
from ec2audit.detect.forms.spaced_pieces import whole
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "rot13"


def rot13_forms(cu: CompiledUnit) -> Iterator[str]:
    for form in cu.forms:
        turned = codecs.encode(form, "rot13")
        if long_enough(form) and turned != form:
            yield turned


@register
class Rot13(Form):
    name = KIND
    kinds = (KIND,)

    def compile(self, index: PatternIndex) -> None:
        self.compile_forms(index, {KIND: rot13_forms})

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        return mentions(view, KIND, decided, whole, "forms.rot13", LITERAL, 0.8)
