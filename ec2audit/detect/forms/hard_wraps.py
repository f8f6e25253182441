"""A value cut by a hard wrap: a terminal, `fold -w`, a fixed-width log viewer or a diff's wrapped lines break
every line at one width, inside a word as often as not (`lena.hart` / `mann@example.org`, `José N` / `úñez`).
Where a line is one of three in a row as wide (in characters, or in a terminal's columns, where a Chinese
character takes two) and the break falls between two letters or digits, the break is no word's end: the lines
read joined there. Prose wrapped at words ends its lines where its words end, at widths that differ
from line to line; where three happen to be as wide, their words read joined in the decoded view only (the text
view keeps the break), which joins no value that was not one. Lines that start alike (a log's timestamps) are
records, each ending where it ends."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# a line break before a letter or a digit (one before it is checked on the match), found in C by its "\\n"
_INSIDE_WORD = re.compile(r"\n(?=[^\W_])")
_LEAST_WIDTH = 20
#: lines that start alike are records of one format (a log's timestamps, a table's rows), not a wrap's pieces
_RECORD_HEAD = 4


@register
class HardWraps(Form):
    name = "hard_wraps"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\n" not in text:
            return
        ascii_only = text.isascii()  # (then a line's width is its length)
        for m in _INSIDE_WORD.finditer(text):
            cut = m.start() - (text[m.start() - 1:m.start()] == "\r")
            start = text.rfind("\n", 0, cut) + 1
            if cut - start < _LEAST_WIDTH or not text[cut - 1].isalnum():  # (most breaks: checked before the widths)
                continue
            if text.startswith(text[start:start + _RECORD_HEAD], m.end()):  # (most breaks: the cheap checks first)
                continue
            width, end = cut - start, text.find("\n", m.end())
            if ascii_only and width != (len(text) if end < 0 else end) - m.end() and \
                    width != start - 1 - text.rfind("\n", 0, max(start - 1, 0)) - 1:  # (lengths: "\r" aside)
                continue
            line, after, before = text[start:cut], _lines_after(text, m.end()), _lines_before(text, start)
            if wrapped([*before, line, *after], len(before)):
                yield cut, m.end(), ""


def wrapped(lines: Sequence[str], k: int) -> bool:
    """Is the break after `lines[k]` a hard wrap's: inside a word, the line one of three in a row as wide (a
    fourth of prose's lines are as wide as the next by chance; three in a row, a few in a hundred), not a record
    starting as the next does?"""
    line, after = lines[k], lines[k + 1]
    if len(line) < _LEAST_WIDTH or not (line[-1:].isalnum() and after[:1].isalnum()) or \
            line[:_RECORD_HEAD] == after[:_RECORD_HEAD]:
        return False
    same = [0 <= j < len(lines) and same_width(line, lines[j]) for j in range(k - 2, k + 3)]
    return (same[0] and same[1]) or (same[1] and same[3]) or (same[3] and same[4])


def _lines_before(text: str, start: int, count: int = 2) -> list[str]:
    """Up to `count` lines before the line starting at `start`, in order."""
    out: list[str] = []
    while start and len(out) < count:
        begin = text.rfind("\n", 0, start - 1) + 1
        out.insert(0, text[begin:start - 1].removesuffix("\r"))
        start = begin
    return out


def _lines_after(text: str, start: int, count: int = 2) -> list[str]:
    """The line starting at `start` and up to `count` - 1 more."""
    out: list[str] = []
    while start <= len(text) and len(out) < count:
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        out.append(text[start:end].removesuffix("\r"))
        start = end + 1
    return out


def same_width(line: str, other: str) -> bool:
    """As wide in characters, or in a terminal's columns (where the two differ: a line outside ASCII)."""
    return len(line) == len(other) or (
        not (line.isascii() and other.isascii()) and len(other) // 2 <= len(line) <= 2 * len(other)
        and _columns(line) == _columns(other))


def _columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
