"""A health value in clinical shorthand, where the text names the entity: "Class II division 1 malocclusion, 9 mm
overjet" as "Cl II div 1 malocclusion; OJ 9mm", "left femur fracture" as "Lt femur fx", "history of moderate asthma"
as "hx mod asthma". Each part of the value (apart by "," or ";") is found where all of its words stand, in any order,
each as itself or one of its standard abbreviations (`ABBREVIATIONS`; small words, "of", left out), within a short
stretch around one of them written abbreviated; a part without an abbreviation written is left to the other forms.
All of the value's parts: the value (1.0); some: most of it (0.7), as `acronyms` grades a part. The line they stand
in must name the entity (a word of its name, or its record's id) and nobody by their relation to it: "Lt femur fx"
names nobody. (A side as one letter, "L", "R", is any initial's.)"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register, standalone
from ec2audit.detect.forms.acronyms import SMALL_WORDS, entity_words, names_entity, relation_named
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "clinical_shorthand"
#: a word of a health value → its standard clinical abbreviations, as the text view reads them (lower case)
ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "class": ("cl",), "division": ("div",), "overjet": ("oj",), "overbite": ("ob",), "left": ("lt",),
    "right": ("rt",), "bilateral": ("bilat",), "fracture": ("fx",), "history": ("hx",), "diagnosis": ("dx",),
    "treatment": ("tx",), "moderate": ("mod",), "severe": ("sev",), "positive": ("pos",), "negative": ("neg",),
    "hypertension": ("htn",), "millimetres": ("mm",), "millimeters": ("mm",), "millimetre": ("mm",),
    "millimeter": ("mm",), "centimetres": ("cm",), "centimeters": ("cm",), "weeks": ("wks", "wk"),
    "months": ("mos", "mo"), "years": ("yrs", "yr"), "kilograms": ("kg",), "grade": ("gr",),
}
_TOKEN = re.compile(r"[a-z]+|\d+(?:\.\d+)?")
_STRETCH = 40  # characters either side of an abbreviation that its part's other words stand within
_LINE = 160  # characters either side of a part that the line naming the entity is read within


def shorthand_parts(value: str) -> list[list[tuple[str, ...]]]:
    """The value's parts, each as its words with the abbreviations each may be written as (word first); only for a
    value in Latin letters with an abbreviable word."""
    norm = normalize_text(value)
    if not norm.isascii() or not any(w in ABBREVIATIONS for w in _TOKEN.findall(norm)):
        return []
    parts = [[(w, *ABBREVIATIONS.get(w, ())) for w in _TOKEN.findall(part) if w not in SMALL_WORDS]
             for part in re.split(r"[;,]", norm)]
    return [part for part in parts if part]


@register
class ClinicalShorthand(Form):
    name = "clinical_shorthand"
    kinds = (KIND,)

    def compile(self, index: PatternIndex) -> None:
        self._parts = {i: parts for i, cu in enumerate(self.units)
                       if cu.rules.name == "health" and (parts := shorthand_parts(cu.unit.value))}
        self._names = {i: entity_words(self.units[i]) for i in self._parts}
        for i, parts in self._parts.items():
            for abbreviation in {a for part in parts for word in part for a in word[1:]}:
                index.add(abbreviation, KIND, i)
        self.reach = self.bound(index, _STRETCH + _LINE)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text, original = view.view.text, view.view.original
        found: dict[int, dict[int, list[tuple[int, int]]]] = {}  # unit → part → its abbreviations' spans
        for start, end, units in matched(view, KIND, decided):
            if not standalone(text, start, end):
                continue
            lo, hi = max(0, start - _STRETCH), end + _STRETCH
            words = set(_TOKEN.findall(text[lo:hi]))
            written = text[start:end]
            for i in units:
                for k, part in enumerate(self._parts.get(i, ())):
                    if any(written in word[1:] for word in part) and all(set(word) & words for word in part):
                        found.setdefault(i, {}).setdefault(k, []).append((start, end))
        for i, parts in found.items():
            spans = [span for spans in parts.values() for span in spans]
            span = view.view.to_original(min(s for s, _ in spans), max(e for _, e in spans))
            line = _line_around(original, *span)
            if i not in decided and not relation_named(line) and names_entity(line, *self._names[i]):
                yield Hit(i, *span, "forms.shorthand", LITERAL if len(parts) == len(self._parts[i]) else MOSTLY)


def _line_around(text: str, start: int, end: int) -> str:
    """The line around text[start:end], at most `_LINE` characters either side."""
    lo = text.rfind("\n", max(0, start - _LINE), start) + 1 or max(0, start - _LINE)
    hi = text.find("\n", end, end + _LINE)
    return text[lo:hi if hi >= 0 else end + _LINE]
