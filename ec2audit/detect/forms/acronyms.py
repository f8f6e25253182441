"""A health value with a run of its words written as their initials, the rest kept as it stands: "major
depressive disorder, recurrent, moderate" as "MDD, recurrent, moderate", "chronic kidney disease stage 3" as
"CKD stage 3", "recurrent major depressive disorder" as "recurrent MDD": the value (1.0). The initials alone
("GAD", "MDD") name many things (a GAD-7 score is a questionnaire's); with the rest of the value they are read
for what they stand for.

The initials alone, in capitals, are read for the condition where the sentence around them names the unit's entity
(a word of its name or its record's id: "FC-2291 … dx: FASD", "Rafael Ortega, 58M, AML") and nobody else by their
relation to it (a sibling, a cousin, a colleague: their condition): the value where they stand for all of its words
(1.0, "ESRD" for "end-stage renal disease"), most of it where they stand for a part ("FASD" for "foetal alcohol
spectrum disorder; melatonin 3 mg at night", 0.7). A questionnaire named by them ("GAD-7") is no condition."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.finding import LITERAL, MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register, standalone
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import ScanView

KIND = "acronym"
ALONE = "acronym.alone"
_WORD = re.compile(r"[^\W\d_]+")
_SHORTEST, _LONGEST = 3, 5  # words an acronym stands for (two initials, "MS", "AD", are too many things)
_REST = 4  # letters the words kept must hold at least
SMALL_WORDS = frozenset({"of", "and", "the", "with", "in", "from", "on", "to", "a", "an"})
_SENTENCE = 160  # characters either side of the initials their sentence is read within
_SENTENCE_END = re.compile(r"(?<!\bMr)(?<!\bMs)(?<!\bDr)(?<!\bMrs)[.!?。！？](?:\s|$)|\n")  # "Ms. Quintero" goes on
#: someone named by their relation to another: the condition there is theirs
_RELATION = re.compile(r"\b(?:sibling|sister|brother|half-sister|half-brother|mother|father|mum|mom|dad|parent|cousin"
                       r"|aunt|uncle|wife|husband|partner|son|daughter|colleague|friend|neighbou?r|roommate)s?\b")


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


def initials_alone(value: str) -> dict[str, bool]:
    """The initials (lower case) of each run of 3–5 of the value's words within one of its parts (apart by ";", ","
    or brackets), small words left out or kept, → whether they stand for all of the value's words."""
    parts = re.split(r"[;,()（）；]", normalize_text(value))
    if not value.isascii():
        return {}
    every = [w for w in _WORD.findall(normalize_text(value)) if w not in SMALL_WORDS]
    out: dict[str, bool] = {}
    for part in parts:
        words = _WORD.findall(part)
        for kept in (words, [w for w in words if w not in SMALL_WORDS]):
            for a in range(len(kept)):
                for b in range(a + _SHORTEST, min(len(kept), a + _LONGEST) + 1):
                    whole = [w for w in kept[a:b] if w not in SMALL_WORDS] == every
                    initials = "".join(w[0] for w in kept[a:b])
                    out[initials] = out.get(initials, False) or whole
    return out


_TOKEN = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def entity_words(cu: CompiledUnit) -> tuple[list[str], str | None]:
    """The words of the unit's entity's name (lower case; its given name first) and its record's id, where it holds
    digits."""
    words = [w.lower() for w in _TOKEN.findall(cu.unit.entity_name or "")]
    entity = cu.unit.entity_id.lower()
    return words, entity if len(entity) >= 3 and any(c.isdigit() for c in entity) else None


def names_entity(sentence: str, words: list[str], entity: str | None) -> bool:
    """Does the sentence name the entity: its record's id, or a word of its name (3 letters or more) that is not a
    namesake's (its given name before another family name: "Marisol Echeverria" for Marisol Etxeberria-Grant)?"""
    if entity is not None and re.search(rf"(?<![\w-]){re.escape(entity)}(?![\w-])", sentence, re.IGNORECASE):
        return True
    tokens = list(_TOKEN.finditer(sentence))
    for k, token in enumerate(tokens):
        word = re.sub(r"['’]s$", "", token.group().lower())  # "Marguerite's PSC"
        if len(word) < 3 or word not in words:
            continue
        after = tokens[k + 1].group() if k + 1 < len(tokens) else ""
        if not (word == words[0] and len(words) > 1 and after[:1].isupper() and not after.isupper()
                and after.lower() not in words):
            return True
    return False


def relation_named(sentence: str) -> bool:
    """Does the sentence name someone by their relation to another (a sibling, a colleague)?"""
    return _RELATION.search(sentence.lower()) is not None


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence (or line) around text[start:end]."""
    left = text[max(0, start - _SENTENCE):start]
    cut = [m.end() for m in _SENTENCE_END.finditer(left)]
    right = text[end:end + _SENTENCE]
    stop = _SENTENCE_END.search(right)
    return left[cut[-1] if cut else 0:] + text[start:end] + right[:stop.start() if stop else len(right)]


@register
class Acronyms(Form):
    name = "acronyms"
    kinds = (KIND, ALONE)

    def compile(self, index) -> None:
        health = [cu.rules.name == "health" for cu in self.units]
        self._alone = [initials_alone(cu.unit.value) if ok else {} for cu, ok in zip(self.units, health, strict=True)]
        self._names = [entity_words(cu) if ok else ([], None) for cu, ok in zip(self.units, health, strict=True)]
        for i, alone in enumerate(self._alone):
            for initials in alone:
                index.add(initials, ALONE, i)
        self.compile_forms(index, {KIND: lambda cu: acronym_forms(cu.unit.value) if cu.rules.name == "health" else []},
                           context=_SENTENCE)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if standalone(text, start, end):
                span = view.view.to_original(start, end)
                for i in units:
                    yield Hit(i, *span, "forms.acronym", LITERAL)
        original = view.view.original
        for start, end, units in matched(view, ALONE, decided):
            span = view.view.to_original(start, end)
            if not (standalone(text, start, end) and original[slice(*span)].isupper()
                    and not re.match(r"-?\d", text[end:end + 2])):
                continue
            sentence = sentence_around(original, *span)
            if relation_named(sentence):
                continue
            for i in units:
                if names_entity(sentence, *self._names[i]):
                    yield Hit(i, *span, "forms.acronym", LITERAL if self._alone[i][text[start:end]] else MOSTLY)
