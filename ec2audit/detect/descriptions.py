"""How a text describes a condition without naming it: evidence the local judge's learned grader weighs.

A description names a class the value belongs to rather than the value: a condition by its category ("an
autoimmune disease in which the immune system attacks the myelin" for multiple sclerosis, 乳房的恶性肿瘤 for
乳腺癌, "takes an SSRI antidepressant" for sertraline). Descriptions were the class of leak the local judge
found least (3 of 15 on splits 17/18 held out; benchmarks/RESULTS.md, issue 37). The reading is general: a
hand-written table of categories (`condition-categories.tsv`: the ICD-10 chapters, autoimmune disease and two
drug classes) with the words that put a condition in each and the words a text describing one uses — an organ,
a specialist, a class of drug — never a case. Whether the text is about this entity and this condition rather
than another of the same category stays the grader's to weigh, with the check's verdict and the clause scores.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from ec2audit import resources
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.value_checks import synonyms, translations
from ec2audit.units import Unit

CATEGORIES = resources.data("judges/local-judge/condition-categories.tsv")
_HAN = re.compile(r"[\u3400-\u9fff]")


def _words(cell: str) -> tuple[re.Pattern, ...]:
    """A table cell's words as patterns: a Latin word at a word's start, a Chinese one anywhere."""
    return tuple(re.compile(re.escape(w) if _HAN.search(w) else rf"\b{re.escape(w)}") for w in cell.split("|") if w)


@cache
def _categories() -> tuple[tuple[str, tuple[re.Pattern, ...], tuple[re.Pattern, ...]], ...]:
    """Per category of the table: its name, the words of a condition in it, the words of a text describing one."""
    rows = []
    for line in CATEGORIES.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, members, cues = line.split("\t")
            rows.append((name, _words(normalize_text(members)), _words(normalize_text(cues))))
    return tuple(rows)


def categories(unit: Unit) -> tuple[str, ...]:
    """The categories a health value is of, by its name, its aliases, their synonyms and translations."""
    return _categories_of((unit.value, *unit.aliases)) if unit.kind == "health" else ()


@lru_cache(maxsize=4096)
def _categories_of(names: tuple[str, ...]) -> tuple[str, ...]:
    """`categories` of a value and its aliases, read once per value (the grader asks for every candidate)."""
    folded = [normalize_text(n) for n in [*names, *(m for v in names for m in (*synonyms(v), *translations(v)))]]
    return tuple(name for name, members, _ in _categories() if any(m.search(n) for m in members for n in folded))


@cache
def _cues() -> dict[str, tuple[re.Pattern, ...]]:
    return {name: words for name, _, words in _categories()}


def category_cues(unit: Unit, text: str) -> int:
    """How many of the value's categories the text names a cue of (an organ, a specialist, a class of drug)."""
    found = categories(unit)
    if not found:
        return 0
    norm = normalize_text(text)
    return sum(any(c.search(norm) for c in _cues()[name]) for name in found)
