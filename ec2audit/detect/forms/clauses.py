"""A value of several clauses said clause by clause, where the text names the entity: a diagnosis and what came
with it (`海洛因依赖综合征，合并丙型肝炎（抗-HCV阳性）` as "诊断：1. 海洛因依赖综合征；2. 丙型肝炎（抗-HCV阳性…"), a
fee and its plan (`手术费38,600元，分24期` as "手术费38,600元 分期：24期"), a condition and its treatment
(`melatonin 3 mg at night` of `foetal alcohol spectrum disorder; melatonin 3 mg at night`).
The value's clauses are its pieces apart by a comma or a semicolon (a leading `合并`, "with" or "and" left out; an
enumeration comma stays inside its phrase, `第三、四肋骨`); one of substance said as written is part of the value
(`_LEAST_HAN` Han characters, or a number with its words in `_LEAST` characters: "手术费38,600元"; an English
clause of words alone, "pregnant", "full and final", is said of too many things and in too many negations):
all of them, the value (1.0); some, most of it (0.7), as `clinical_shorthand` grades its parts. The record around
them (`_AROUND` lines before and their own) must name the entity (a word of its name, its Chinese name or its
record's id) and nobody by their relation to it: a clause in a topic's text, or of a relative, is no leak."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, MOSTLY, Hit
from ec2audit.detect.forms import Form, is_cjk, matched, register, standalone
from ec2audit.detect.forms.acronyms import entity_words, names_entity, relation_named
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "clauses"
_SPLIT = re.compile(r"\s*(?:(?<!\d),|,(?!\d)|[;，；])\s*")  # (not a number's thousands comma: `38,600`)
_LEADING = re.compile(r"^(?:合并|伴有?|并发|with|and|plus)\s*", re.IGNORECASE)
_LEAST = 10  # characters of a clause of substance holding a number
_LEAST_HAN = 5  # Han characters of one of words
_AROUND = 3  # lines before a clause's own that its record may name the entity in
_REACH = 300  # characters before a clause that those lines are read within
_DIMENSIONS = frozenset({"health", "financial", "other"})


def clauses(value: str) -> list[str]:
    """The clauses of a value of two or more, as the text view reads them; [] for a value of one."""
    parts = [_LEADING.sub("", p) for p in _SPLIT.split(normalize_text(value)) if p]
    return parts if len(parts) >= 2 else []


def _substantial(clause: str) -> bool:
    if sum(map(is_cjk, clause)) >= _LEAST_HAN:
        return True
    return len(clause) >= _LEAST and any(c.isdigit() for c in clause) and any(c.isalpha() for c in clause)


@register
class Clauses(Form):
    name = "clauses"
    kinds = (KIND,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        self._clauses: dict[int, list[str]] = {}
        for i, cu in enumerate(self.units):
            if cu.unit.dimension in _DIMENSIONS and (parts := clauses(cu.unit.value)):
                self._clauses[i] = parts
                for clause in parts:
                    if _substantial(clause):
                        index.add(clause, KIND, i)
        self._names = {i: (entity_words(self.units[i]), self.units[i].unit.entity_name or "") for i in self._clauses}
        self.reach = self.bound(index, _REACH)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text, original = view.view.text, view.view.original
        found: dict[int, dict[str, tuple[int, int]]] = {}  # unit → clause → its first span
        for start, end, units in matched(view, KIND, decided):
            if not standalone(text, start, end):
                continue
            for i in units:
                found.setdefault(i, {}).setdefault(text[start:end], (start, end))
        for i, said in found.items():
            spans = list(said.values())
            span = view.view.to_original(min(s for s, _ in spans), max(e for _, e in spans))
            record = _record_around(original, *span)
            if _names(record, *self._names[i]) and not relation_named(record):
                whole = len(said) == len(self._clauses[i])
                yield Hit(i, *span, "forms.clauses", LITERAL if whole else MOSTLY)


def _names(record: str, words: tuple[list[str], str | None], name: str) -> bool:
    """Does the record name the entity: its Chinese name written in it, or a word of its name or its id?"""
    return (len(name) >= 2 and any(map(is_cjk, name)) and name in record) or names_entity(record, *words)


def _record_around(text: str, start: int, end: int) -> str:
    """The clause's line and up to `_AROUND` lines before it (a record's fields stand on lines of their own)."""
    lo = start
    for _ in range(_AROUND + 1):
        lo = text.rfind("\n", max(0, start - _REACH), max(0, lo - 1)) if lo > 0 else -1
        if lo < 0:
            lo = max(0, start - _REACH)
            break
    hi = text.find("\n", end)
    return text[lo:hi if hi >= 0 else len(text)]
