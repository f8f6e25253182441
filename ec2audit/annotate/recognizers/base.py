"""A recognizer is data: a few regular expressions, a score, and an optional validator.

Kept free of Presidio so the same recognizers run alone (fast, no spaCy) and next to Presidio.
A pattern with a group named `value` reports only that group (e.g. the value of `password: ...`).
A candidate the validator refuses loses its last `trim` piece, again and again, before it is given up:
a pattern cannot tell a value's last group from the next token (`BE68 5390 0754 7034 CODE`).
A recognizer with `bound` asks it where a candidate really starts and ends, from the text around it, before
validating: a Chinese name's last character is where word segmentation says the name's word ends (`李娜确诊` is
李娜 + 确诊), its first where a word before it does not run on into it (`班主任李娜` is 班主任 + 李娜, not 任李娜).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Match:
    start: int
    end: int
    entity: str
    dimension: str
    score: float
    recognizer: str


@dataclass(frozen=True)
class PatternRecognizer:
    name: str
    entity: str
    dimension: str
    patterns: tuple[tuple[str, float], ...]
    validate: Callable[[str], bool] | None = None
    flags: int = 0
    trim: str | None = None  # a candidate's trailing piece (anchored with `$`) to drop when it fails validation
    bound: Callable[[str, int, int], tuple[int, int]] | None = None  # (text, start, end) → the candidate's span
    _compiled: tuple[tuple[re.Pattern, float], ...] = field(init=False, repr=False, compare=False)
    _trim: re.Pattern | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        compiled = tuple((re.compile(p, self.flags), score) for p, score in self.patterns)
        object.__setattr__(self, "_compiled", compiled)
        object.__setattr__(self, "_trim", re.compile(self.trim, self.flags) if self.trim else None)

    def analyze(self, text: str) -> list[Match]:
        found = []
        for pattern, score in self._compiled:
            for m in pattern.finditer(text):
                group = "value" if "value" in pattern.groupindex else 0
                start, end = m.span(group)
                if self.bound:
                    start, end = self.bound(text, start, end)
                while self.validate and start < end and not self.validate(text[start:end]):
                    cut = self._trim.search(text, start, end) if self._trim else None
                    end = cut.start() if cut else start
                if start == end:
                    continue
                found.append(Match(start, end, self.entity, self.dimension, score, self.name))
        return found


def digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def luhn_ok(number: str) -> bool:
    """Luhn checksum over the digits (bank and credit cards)."""
    total = 0
    for i, ch in enumerate(reversed(digits(number))):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0
