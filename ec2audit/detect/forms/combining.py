"""Accents written as combining marks (Unicode NFD): macOS file names and the tools that list them, text
copied out of PDFs, some databases' exports write "José" as `Jose` + U+0301. A reader sees the accented
letter; the tiers read the composed form (NFC) of each letter and its marks."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from ec2audit.detect.forms import Form, char_class, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import Replacement

CUE = "combining.cue"
#: the combining marks NFC composes with a letter before them: Latin, Greek and Cyrillic diacritics (and their
#: supplements and the half marks), and the kana voicing marks (`か` + U+3099 → `が`)
_MARKS = (*range(0x0300, 0x0370), *range(0x1AB0, 0x1B00), *range(0x1DC0, 0x1E00), *range(0x20D0, 0x2100),
          *range(0xFE20, 0xFE30), 0x3099, 0x309A)
_COMBINED = re.compile(r"[^\W\d_]" + char_class(_MARKS) + "+")


@register
class CombiningMarks(Form):
    name = "combining"

    def compile(self, index) -> None:
        """Cue: any of the marks, found by the automaton's pass (the text view keeps them)."""
        for c in _MARKS:
            index.add(normalize_text(chr(c)), CUE, -1)

    def wanted(self, matches) -> bool:
        return CUE in matches

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _COMBINED.finditer(text):
            composed = unicodedata.normalize("NFC", m.group())
            if composed != m.group():
                yield m.start(), m.end(), composed
