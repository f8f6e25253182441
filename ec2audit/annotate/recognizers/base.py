"""A recognizer is data: a few regular expressions, a score, and an optional validator.

Kept free of Presidio so the same recognizers run alone (fast, no spaCy) and next to Presidio.
A pattern with a group named `value` reports only that group (e.g. the value of `password: ...`).
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
    _compiled: tuple[tuple[re.Pattern, float], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        compiled = tuple((re.compile(p, self.flags), score) for p, score in self.patterns)
        object.__setattr__(self, "_compiled", compiled)

    def analyze(self, text: str) -> list[Match]:
        found = []
        for pattern, score in self._compiled:
            for m in pattern.finditer(text):
                group = "value" if "value" in pattern.groupindex else 0
                start, end = m.span(group)
                if start == end or (self.validate and not self.validate(text[start:end])):
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
