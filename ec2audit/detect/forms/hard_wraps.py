"""A value cut by a hard wrap: a terminal, `fold -w`, a fixed-width log viewer or a diff's wrapped lines break
every line at one width, inside a word as often as not (`lena.hart` / `mann@example.org`, `José N` / `úñez`).
Where a line is as wide as the line before or after it (in characters, or in a terminal's columns, where a
Chinese character takes two) and the break falls between two letters or digits, the break is no word's end:
the lines read joined there. Prose wrapped at words ends its lines where its words end, at widths that differ
from line to line; where two happen to be as wide, their words read joined in the decoded view only (the text
view keeps the break), which joins no value that was not one."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# a line break before a letter or a digit (one after it is checked on the match), found in C by its "\\n"
_INSIDE_WORD = re.compile(r"\r?\n(?=[^\W_])")
_LEAST_WIDTH = 20


@register
class HardWraps(Form):
    name = "hard_wraps"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\n" not in text:
            return
        for m in _INSIDE_WORD.finditer(text):
            line = _line_before(text, m.start())
            if len(line) < _LEAST_WIDTH or not line[-1].isalnum():  # (most breaks: checked before the lines' widths)
                continue
            start = m.start() - len(line)
            if wrapped(line, _line_before(text, start - 1) if start else None, _line_after(text, m.end())):
                yield m.start(), m.end(), ""


def wrapped(line: str, before: str | None, after: str) -> bool:
    """Is the break between `line` and the line `after` it (`before` it: None at the text's start) a hard wrap's,
    inside a word?"""
    return len(line) >= _LEAST_WIDTH and line[-1:].isalnum() and after[:1].isalnum() and (
        (before is not None and same_width(line, before)) or same_width(line, after))


def _line_before(text: str, end: int) -> str:
    """The line ending at `end` (a "\\r" before it left out)."""
    return text[text.rfind("\n", 0, end) + 1:end].removesuffix("\r")


def _line_after(text: str, start: int) -> str:
    end = text.find("\n", start)
    return text[start:len(text) if end < 0 else end].removesuffix("\r")


def same_width(line: str, other: str) -> bool:
    """As wide in characters, or in a terminal's columns."""
    return len(line) == len(other) or _columns(line) == _columns(other)


def _columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
