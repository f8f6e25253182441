"""Digits grouped with underscores: a number literal in Python, Rust, Java, C#, Kotlin or JavaScript
(`486_000`, `139_2288_3366`), a phone or an ID in an identifier or a file name a tool wrote. `_` is a word
character, so the groups read as one word and no number tier sees them; the digits joined are the number."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# two or more groups of digits, one `_` apart, not inside a longer run of digits
_GROUPED = re.compile(r"(?<![0-9])[0-9]+(?:_[0-9]+)+(?![0-9])")


@register
class DigitSeparators(Form):
    name = "digit_separators"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "_" not in text:
            return
        for m in _GROUPED.finditer(text):
            yield m.start(), m.end(), m.group().replace("_", "")
