"""A diagnosis written as its ICD-10 code: "ICD-10 C45.0" for "malignant pleural mesothelioma, epithelioid type",
"dx F33.1" for "major depressive disorder, recurrent, moderate". The code of a health value is the ICD-10-CM diagnosis
(from the pinned `simple-icd-10-cm`'s tabular list) whose description's words (two or more, small words left out) all
stand in the value, as written or as their adjective ("Mesothelioma of pleura": mesothelioma, pleural), the most of
them where several fit. The code alone is read for the condition, as `acronyms` reads its initials: where its sentence
calls it a diagnosis's ("ICD-10", "dx", "diagnosis", 诊断) and names the entity (a word of its name or its record's
id) and nobody by their relation to it; the value (1.0) where the description says all the value says, most of it
(0.7) where the value says more."""

from __future__ import annotations

import html
import re
from collections import defaultdict
from collections.abc import Iterator
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from ec2audit.detect.compiled import cached_table
from ec2audit.detect.finding import LITERAL, MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register, standalone
from ec2audit.detect.forms.acronyms import entity_words, names_entity, relation_named, sentence_around
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import ScanView

KIND = "icd_code"
#: a diagnosis of the disease chapters (A00–Q99: not injuries, external causes nor encounters) with a subcategory
_DIAG = re.compile(r"<name>([A-Q]\d\d\.[0-9A-Z]{1,4})</name>\s*<desc>([^<]*)</desc>")
_WORD = re.compile(r"[a-z]+")
_SMALL = frozenset({"of", "and", "the", "with", "without", "in", "or", "to", "due", "by", "for", "on", "at", "as",
                    "unspecified", "other", "specified", "site", "sites", "part", "type", "not", "elsewhere",
                    "classified", "initial", "encounter"})
#: a word saying a code is a diagnosis's: "ICD-10", "dx", "diagnosis", 诊断
_CODE_NAMED = re.compile(r"\bicd|\bdx\b|diagnos|诊断", re.IGNORECASE)
_KEY = 3  # letters of a word that index it: the shortest content word's, so a word and its adjective share them


def _content(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _SMALL and len(w) >= 3]


def _read() -> list[str]:
    """"code word word…" of every such ICD-10-CM diagnosis (`C45.0`) whose description holds two content words or more,
    from the package's data files (its own import parses the whole classification: seconds)."""
    spec = find_spec("simple_icd_10_cm")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("simple_icd_10_cm (a pinned dependency) is not installed")
    [tabular] = sorted((Path(spec.submodule_search_locations[0]) / "data").glob("icd10c-tabular-*.xml"))
    rows = ((m[1], _content(html.unescape(m[2]))) for m in _DIAG.finditer(tabular.read_text(encoding="utf-8")))
    return [" ".join([code, *words]) for code, words in rows if len(words) >= 2]


@cache
def _table() -> dict[str, list[list[str]]]:
    """The diagnoses ([code, content words…]) by their first word's first letters: a diagnosis fits a value only
    where each of its words does, its first among them (0.05 s from the cache)."""
    rows = cached_table("icd10cm", _read, lambda t: isinstance(t, list) and all(isinstance(r, str) for r in t))
    index: dict[str, list[list[str]]] = defaultdict(list)
    for row in rows:
        parts = row.split()
        index[parts[1][:_KEY]].append(parts)
    return index


def _fits(word: str, words: list[str]) -> bool:
    """Does the value hold `word`, as written or with an ending added or changed (pleura: pleural)?"""
    stem = word[:-1] if len(word) > 5 else word
    return any(w.startswith(stem) for w in words)


def icd_codes(value: str) -> dict[str, bool]:
    """The codes (lower case) of the diagnoses whose description's words all stand in the value, the most specific
    (most words) only, → whether the description says all the value says."""
    words = _content(normalize_text(value))
    if not words or not value.isascii():
        return {}
    index = _table()
    rows = (row for key in {w[:_KEY] for w in words} for row in index.get(key, ()))
    fits = [row for row in rows if all(_fits(w, words) for w in row[1:])]
    most = max((len(row) for row in fits), default=0)
    return {row[0].lower(): all(_fits(w, row[1:]) for w in words) for row in fits if len(row) == most}


@register
class IcdCodes(Form):
    name = "icd_codes"
    kinds = (KIND,)

    def compile(self, index) -> None:
        self._codes = [icd_codes(cu.unit.value) if cu.rules.name == "health" else {} for cu in self.units]
        self._names = [entity_words(cu) if codes else ([], None) for cu, codes in zip(self.units, self._codes,
                                                                                      strict=True)]
        for i, codes in enumerate(self._codes):
            for code in codes:
                index.add(code, KIND, i)
        self.reach = self.bound(index, 160)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text, original = view.view.text, view.view.original
        for start, end, units in matched(view, KIND, decided):
            if not standalone(text, start, end):
                continue
            span = view.view.to_original(start, end)
            sentence = sentence_around(original, *span)
            if relation_named(sentence) or not _CODE_NAMED.search(sentence):
                continue
            for i in units:
                if names_entity(sentence, *self._names[i]):
                    yield Hit(i, *span, "forms.icd_code", LITERAL if self._codes[i][text[start:end]] else MOSTLY)

