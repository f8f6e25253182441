"""What a detector reports: where a unit's value (or a recognisable part of it) was found."""

from __future__ import annotations

from dataclasses import dataclass

#: AceBench's judge scale (DESIGN.md §1).
LITERAL, MOSTLY, FRAGMENT = 1.0, 0.7, 0.3


@dataclass(frozen=True, slots=True)
class Hit:
    """A match inside one segment's text; offsets point into the segment's original characters."""

    unit_index: int
    start: int
    end: int
    detector: str
    grade: float
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class Finding:
    unit_id: str
    payload_id: str
    segment: int
    start: int
    end: int
    matched_text: str
    detector: str
    grade: float
    confidence: float
