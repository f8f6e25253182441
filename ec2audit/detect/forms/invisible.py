"""Invisible characters inside a value: zero-width spaces and joiners, soft hyphens, word joiners, byte
order marks, bidirectional marks — every format character (Unicode category Cf) of the Basic Multilingual
Plane, which a renderer shows as nothing. A reader sees the value; without them, so do the tiers. (The
few astral ones — tag characters, Egyptian format controls — would make the search 4× slower on every
non-ASCII text.)"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import cache

from ec2audit.detect.forms import Form, char_class, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import Replacement

CUE = "invisible.cue"


@cache
def _format_characters() -> tuple[int, ...]:
    """The code points of category Cf in the Basic Multilingual Plane (a pass over 65,536 of them: once)."""
    return tuple(c for c in range(0x10000) if unicodedata.category(chr(c)) == "Cf")


@cache
def _format_run() -> re.Pattern:
    """A run of format characters: the class written twice (`[c][c]*`, not `[c]+`), as a pattern that starts
    with a repeat has no first characters the regex engine skips ahead to in C (8 MB: 0.073 → 0.018 s)."""
    characters = char_class(_format_characters())
    return re.compile(characters + characters + "*")


@register
class InvisibleCharacters(Form):
    name = "invisible"

    def compile(self, index) -> None:
        """Cue: any format character, found by the automaton's pass (the text view keeps them)."""
        for c in _format_characters():
            index.add(normalize_text(chr(c)), CUE, -1)

    def wanted(self, matches) -> bool:
        return CUE in matches

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _format_run().finditer(text):
            yield m.start(), m.end(), ""
