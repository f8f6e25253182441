"""Bytes written as decimal numbers a blank apart: `od -An -tu1` (sixteen a line, each four columns wide), Python's
`print(*data)`, a "text to decimal" converter. A reader who decodes them reads the text; so do the tiers, where a
run of at least `_LEAST` numbers (on one line, or continued on the next) are bytes of UTF-8 text that prints. A row
of counts or scores is no such text: a number past 255, or a byte below 32 (a control character), or bytes no
UTF-8; a number written with a leading zero makes the run octal (`od -An -to1`: `dumps`'). (With commas between
them the numbers are `byte_lists`'.)"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.forms.binary_octets import bytes_text
from ec2audit.detect.views import Replacement

_LEAST = 6
_APART = r"(?:[ \t]+|[ \t]*\r?\n[ \t]*)"
#: numbers of up to three digits a blank apart, not inside a longer number, a decimal, a date or a list
_RUN = re.compile(rf"(?<![\w.,:/-])[0-9]{{1,3}}(?:{_APART}[0-9]{{1,3}}){{{_LEAST - 1},}}(?![\w.,:/-])")


@register
class DecimalBytes(Form):
    name = "decimal_bytes"
    #: four numbers a blank apart: every number of a run (six or more) is inside one, on whatever lines
    cue = r"[0-9]{1,3}[ \t]+[0-9]{1,3}[ \t]+[0-9]{1,3}[ \t]+[0-9]{1,3}"
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _RUN.finditer(text):
            numbers = m.group().split()
            if any(n[0] == "0" and len(n) > 1 for n in numbers):
                continue
            decoded = bytes_text(int(n) for n in numbers)
            if decoded is not None:
                yield m.start(), m.end(), decoded
