"""Text written as the hex of its UTF-8 bytes: psql's output of a `bytea` column (`\\x3133393232…`), a
`0x…` literal in SQL or a debugger, Python's `bytes.hex()` and `xxd -p` in a log (`6c656e612e…`; `xxd -p` writes
60 digits a line, and its lines are read as one run). A reader who decodes it reads the value; so do the tiers,
where the bytes are UTF-8 text that prints (hashes, ids and addresses are no text: random bytes almost never
decode so). A run with no `\\x` or `0x` before it must be 16 digits or more (the hex of a phone number is digits
only; a shorter number is read as what it is)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# even runs of hex digits, whole (no hex digit or letter around them), after a prefix or bare
_PREFIXED = re.compile(r"(?:\\\\?x|0x)((?:[0-9a-fA-F]{2}){4,})(?![0-9a-zA-Z])")
_BARE = re.compile(r"(?<![0-9a-zA-Z\\])((?:[0-9a-fA-F]{60}\r?\n)+(?:[0-9a-fA-F]{2})+|(?:[0-9a-fA-F]{2}){8,})"
                   r"(?![0-9a-zA-Z])")  # `xxd -p` writes 60 digits a line
_LAYOUT = re.compile(r"[\t\r\n]")  # a file's lines and tabs are text too


def hex_text(digits: str) -> str | None:
    """The text hex digits spell, where their bytes are UTF-8 that prints; else None."""
    try:
        decoded = bytes.fromhex(digits).decode("utf-8")  # (fromhex passes over the line breaks)
    except (UnicodeDecodeError, ValueError):
        return None
    return decoded if _LAYOUT.sub("", decoded).isprintable() and not decoded.isspace() else None


@register
class HexStrings(Form):
    name = "hex_strings"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "x" in text:
            for m in _PREFIXED.finditer(text):
                decoded = hex_text(m.group(1))
                if decoded is not None:
                    yield m.start(), m.end(), decoded
        for m in _BARE.finditer(text):
            decoded = hex_text(m.group(1))
            if decoded is not None:
                yield m.start(), m.end(), decoded
