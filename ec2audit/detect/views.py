"""The views a text is read in: the text view, and the views derived from it where a reader recovers a
value trivially. Every view maps its offsets back to the original characters, so evidence points at
what the text really holds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from ec2audit.detect.normalize import TextView
from ec2audit.detect.patterns import Match


class ScanView(NamedTuple):
    """One view of a text and the shared automaton's matches in it, grouped by kind."""

    view: TextView
    matches: dict[str, list[Match]]


def views_of(text: str) -> Iterator[TextView]:
    """The text view first, then each derived view the text calls for."""
    yield TextView.of(text)
