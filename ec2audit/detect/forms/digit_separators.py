"""Digits grouped with underscores: a number literal in Python, Rust, Java, C#, Kotlin or JavaScript
(`486_000`, `139_2288_3366`), a phone or an ID in an identifier or a file name a tool wrote. `_` is a word
character, so the groups read as one word and no number tier sees them; the digits joined are the number."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# an `_` between two digits (a literal the regex engine searches for in C; a pattern starting with the digits was
# tried at every digit, 4 MB of JSON 0.19 s), then the groups around it
_JOINING = re.compile(r"_(?<=[0-9]_)(?=[0-9])")
_GROUPED = re.compile(r"[0-9]+(?:_[0-9]+)+")


@register
class DigitSeparators(Form):
    name = "digit_separators"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "_" not in text:
            return
        done = 0
        for cue in _JOINING.finditer(text):
            if cue.start() < done:
                continue
            start = cue.start() - 1
            while start and text[start - 1].isascii() and text[start - 1].isdigit():
                start -= 1
            m = _GROUPED.match(text, start)
            if m:
                done = m.end()
                yield m.start(), m.end(), m.group().replace("_", "")
