"""What a detector reports: where a unit's value (or a recognisable part of it) was found."""

from __future__ import annotations

from typing import NamedTuple

#: AceBench's judge scale (docs/design.md §1).
LITERAL, MOSTLY, FRAGMENT = 1.0, 0.7, 0.3


class Hit(NamedTuple):
    """A match inside one segment's text; offsets point into the segment's original characters.

    Named tuples, not dataclasses: an audit creates one per match, and a frozen dataclass costs
    several times as much to build."""

    unit_index: int
    start: int
    end: int
    detector: str
    grade: float
    confidence: float = 1.0


class Finding(NamedTuple):
    unit_id: str
    payload_id: str
    segment: int
    start: int
    end: int
    matched_text: str
    detector: str
    grade: float
    confidence: float
