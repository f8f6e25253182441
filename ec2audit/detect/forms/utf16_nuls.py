"""UTF-16 text read as if it were UTF-8 or Latin-1: Windows PowerShell's `>` and `Out-File` write UTF-16LE, and a
tool that reads such a file as bytes of text shows each ASCII character followed by a NUL (`l\\0e\\0n\\0a\\0`; in a
big-endian file, after one). A reader that decodes the file reads the text; so do the tiers, where at least
`_LEAST_CHARACTERS` printable ASCII characters in a row each sit beside a NUL."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_LEAST_CHARACTERS = 4
_PAIRS = re.compile(rf"(?:[ -~]\x00){{{_LEAST_CHARACTERS},}}|(?:\x00[ -~]){{{_LEAST_CHARACTERS},}}")


@register
class Utf16Nuls(Form):
    name = "utf16_nuls"
    cue = r"\x00"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\x00" not in text:
            return
        for m in _PAIRS.finditer(text):
            yield m.start(), m.end(), m.group().replace("\x00", "")
