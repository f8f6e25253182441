"""Bytes printed as numbers in a log line or a console: Java's `Arrays.toString(bytes)` (signed: `[-26, -84, -89]`
for 欧), Python's `list(b"…")`, a C array of hex bytes (`0x6c, 0x65, …`), Node's `console.log` of a Buffer
(`<Buffer 6c 65 6e 61 …>`). A reader that decodes them reads the text; so do the tiers, where a list of at least
`_LEAST_BYTES` numbers reads as UTF-8 text with no control character in it but line breaks and tabs (a list of
counts, ports or scores reads as no such text and stays). A list goes on past a line's end after a comma, as
`xxd -i` prints a file's bytes twelve a line (a value cut across two lines). (A JSON array of numbers,
`JSON.stringify` of a Buffer, the proxy reads as such a list: `intercept/fields.py`'s `_spelling`.)"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_LEAST_BYTES = 6
_BYTE = r"(?:0[xX][0-9a-fA-F]{1,2}|-?[0-9]{1,3})"
#: what parts two numbers: a comma, blanks, at most one line break (and the next line's indent)
_COMMA = r",[ \t]*(?:\r?\n[ \t]*)?"
#: numbers separated by commas, not inside a longer number or word (`1.5, 2`, `v1, 2`)
_LIST = re.compile(rf"(?<![\w.-]){_BYTE}(?:{_COMMA}{_BYTE}){{{_LEAST_BYTES - 1},}}(?![\w.])")
#: a comma between two numbers (the comma first: the regex engine skips ahead to it in C): a text without one holds
#: no list
_PAIR = re.compile(r",(?<=[0-9a-fA-F],)[ \t]*(?:\r?\n[ \t]*)?-?[0-9]")
#: Node's inspection of a Buffer: its first 50 bytes in hex, and how many more there are
_BUFFER = re.compile(r"<Buffer((?: [0-9a-f]{2})+)(?: \.\.\. [0-9]+ more bytes?)?>")


def _text(numbers: list[str]) -> str | None:
    """The UTF-8 text the numbers spell, or None where one is no byte or the text holds a control character."""
    values = [int(n, 16) if n[:2] in ("0x", "0X") else int(n) for n in numbers]
    if not all(-128 <= v <= 255 for v in values):
        return None
    try:
        text = bytes(v % 256 for v in values).decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if all(c.isprintable() or c in "\t\n\r" for c in text) else None


@register
class ByteLists(Form):
    name = "byte_lists"
    cue = rf"{_BYTE}{_COMMA}{_BYTE}{_COMMA}{_BYTE},|<Buffer "
    #: three numbers of a list (a cue) may stand a line each: its first number two lines before the cue ends
    cue_lines = 2

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if _PAIR.search(text):
            for m in _LIST.finditer(text):
                decoded = _text(re.split(_COMMA, m.group()))
                if decoded is not None:
                    yield m.start(), m.end(), decoded
        if "<Buffer " in text:
            for m in _BUFFER.finditer(text):
                decoded = _text(["0x" + h for h in m.group(1).split()])
                if decoded is not None:
                    yield m.start(), m.end(), decoded
