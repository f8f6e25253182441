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
from ec2audit.detect.views import Replacement, utf16_text

# even runs of hex digits after `\x`, `\\x` or `0x`, and runs of 16 or more with the lines after them; each starts
# with a class, which the regex engine skips ahead to in C (a look-behind first is tried at every position)
_PREFIXED = re.compile(r"[\\0]\\?x((?:[0-9a-fA-F]{2}){4,})(?![0-9a-zA-Z])")
_RUN = re.compile(r"[0-9a-fA-F]{16,}(?:\r?\n[0-9a-fA-F]+)*")
_DIGITS = re.compile(r"[0-9a-fA-F]+")
_XXD_LINE = 60  # digits a line of `xxd -p`
_LAYOUT = re.compile(r"[\t\r\n]")  # a file's lines and tabs are text too


def hex_text(digits: str, prefixed: bool = False) -> str | None:
    """The text hex digits spell, where their bytes are UTF-8 that prints, or UTF-16 text (SQL Server's `0x…` of an
    `nvarchar` cast to `varbinary`: `0x4A006F00…`, without a byte order mark, read as `prefixed` by its `0x`); else
    None."""
    try:
        raw = bytes.fromhex(digits)  # (fromhex passes over the line breaks)
    except ValueError:
        return None
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return utf16_text(raw, prefixed)
    if _LAYOUT.sub("", decoded).isprintable() and not decoded.isspace():
        return decoded
    return utf16_text(raw, prefixed)


@register
class HexStrings(Form):
    name = "hex_strings"
    #: a run of 16 digits, a line of hex digits alone (a run's lines after its first: each is a cue, so the
    #: stretches of one run meet and are one, and no line inside a run starts another in a stretch) and a
    #: prefixed run's start; a run's last line may only start with digits: the line after a cued one
    cue = r"[0-9a-fA-F]{16}|\n[0-9a-fA-F]+\r?\n|[\\0]\\?x[0-9a-fA-F]{8}"
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "x" in text:
            for m in _PREFIXED.finditer(text):
                decoded = hex_text(m.group(1), prefixed=True)
                if decoded is not None:
                    yield m.start(), m.end(), decoded
        for m in _RUN.finditer(text):
            start = m.start()
            if start and (text[start - 1].isalnum() or text[start - 1] in "\\_"):
                continue
            lines = [line.span() for line in _DIGITS.finditer(text, start, m.end())]
            short = next((k for k, (a, b) in enumerate(lines) if b - a != _XXD_LINE), len(lines) - 1)
            end = lines[short][1]  # (the lines after a short one are no part of the run)
            if (end < len(text) and (text[end].isalnum() or text[end] == "_")) \
                    or sum(b - a for a, b in lines[:short + 1]) % 2:
                continue
            decoded = hex_text(text[start:end])
            if decoded is not None:
                yield start, end, decoded
