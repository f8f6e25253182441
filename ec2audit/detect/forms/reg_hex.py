"""A Windows registry export's values written as bytes (`reg export`, regedit's File → Export, a `.reg` file an
agent reads back): `"Path"=hex(2):25,00,55,00,…` (REG_EXPAND_SZ), `hex(7):` (REG_MULTI_SZ: strings apart by a NUL,
the list ended by two), `hex:` (REG_BINARY), two hex digits a byte, comma-separated, a line continued with `\\` and
an indent. A string value is UTF-16LE: read as its text, a multi-string's strings one a line; a REG_BINARY (or
`hex(N):` of another type) as UTF-8 where that is text that prints, else as UTF-16LE."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

#: a comma between two bytes, or a comma, `\\`, the line's end and the next line's indent
_NEXT = r",(?:\\\r?\n[ \t]*)?"
_VALUE = re.compile(rf"hex(?:\(([0-9a-fA-F]{{1,8}})\))?:((?:[0-9a-fA-F]{{2}}{_NEXT})*[0-9a-fA-F]{{2}})(?![0-9a-zA-Z])")
_BYTE = re.compile(r"[0-9a-fA-F]{2}")
_UTF16_TYPES = frozenset({"1", "2", "7"})  # REG_SZ, REG_EXPAND_SZ, REG_MULTI_SZ


def _text(raw: bytes, kind: str | None) -> str | None:
    """The text a value's bytes hold, NULs as line ends (a multi-string's strings), or None for no printable text."""
    codecs = ("utf-16-le",) if kind is not None and kind.lstrip("0") in _UTF16_TYPES else ("utf-8", "utf-16-le")
    for codec in codecs:
        try:
            text = raw.decode(codec).rstrip("\x00").replace("\x00", "\n")
        except UnicodeDecodeError:
            continue
        if text.strip() and all(c.isprintable() or c in "\t\r\n" for c in text):
            return text
    return None


@register
class RegHex(Form):
    name = "reg_hex"
    #: a value's start, and each line a value is continued on (the lines of one value meet, however many)
    cue = r"hex(\([0-9a-fA-F]{1,8}\))?:[0-9a-fA-F]{2}|,\\\r?\n[ \t]*[0-9a-fA-F]{2}"
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "hex" not in text:
            return
        for m in _VALUE.finditer(text):
            decoded = _text(bytes(int(b, 16) for b in _BYTE.findall(m.group(2))), m.group(1))
            if decoded is not None:
                yield m.start(), m.end(), decoded
