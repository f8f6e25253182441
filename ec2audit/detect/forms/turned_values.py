"""A value turned by a fixed rule a reader undoes at sight: written backwards (`rev notes.txt`, `s[::-1]`, a
"reverse the string" step in a script) or in ROT13 (`tr 'A-Za-z' 'N-ZA-Mn-za-m'`, `codecs.encode(s, "rot13")`,
puzzle-style "spoiler" text). A unit's form so turned (changed by it, and of at least `_LEAST` characters, 3 where
Han: shorter ones turned are other words and numbers) that stands alone in the text (`spaced_pieces.whole`: a Han
character runs on as a letter does) is the value. No view: each turned form is one more pattern of the shared
automaton, one kind per rule."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, is_cjk, mentions, register
from ec2audit.detect.forms.spaced_pieces import whole
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

_LEAST = 6
_LEAST_HAN = 3
#: kind → the rule that turns a form
TURNS: dict[str, Callable[[str], str]] = {
    "reversed_values": lambda form: form[::-1],
    "rot13": lambda form: codecs.encode(form, "rot13"),
}


def _turned(turn: Callable[[str], str]) -> Callable[[CompiledUnit], Iterator[str]]:
    def forms(cu: CompiledUnit) -> Iterator[str]:
        for form in cu.forms:
            if len(form) >= (_LEAST_HAN if any(map(is_cjk, form)) else _LEAST) and (turned := turn(form)) != form:
                yield turned
    return forms


@register
class TurnedValues(Form):
    name = "turned_values"
    kinds = tuple(TURNS)

    def compile(self, index: PatternIndex) -> None:
        self.compile_forms(index, {kind: _turned(turn) for kind, turn in TURNS.items()})

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        for kind in TURNS:
            yield from mentions(view, kind, decided, whole, f"forms.{kind}", LITERAL, 0.8)
