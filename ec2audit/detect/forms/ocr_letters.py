"""OCR confusions inside words of scanned documents, the mirror of `ocr`'s: `0` for O, `1` for I, `5` for S, `8`
for B in a word in capitals (`OFORI-RASMUSSEN, C0RNEL1US`, `JUN1PER`, `5ARAH`). A word of four or more capitals
and such digits, no other digit, its capitals three or more and over two thirds of it, is read as its letters;
`B2B`, `COVID19`, `A320`, `MP3`, `B0158` and a code mixing other digits stay as they are."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_LETTERS = str.maketrans("0158", "OISB")
#: a word of capitals and OCR letters (no other digit), bounded by no letter or digit on either side
_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Z0158]{4,}(?![A-Za-z0-9])")


@register
class OcrLetters(Form):
    name = "ocr_letters"
    cue = r"[A-Z][0158][A-Z]|[A-Z]{2}[0158]|[0158][A-Z]{2}"  # a confused digit inside capitals or at a word's edge
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _WORD.finditer(text):
            word = m.group()
            letters = sum(c.isalpha() for c in word)
            if letters >= 3 and 0 < len(word) - letters < letters / 2:
                yield m.start(), m.end(), word.translate(_LETTERS)
