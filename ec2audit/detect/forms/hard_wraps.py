"""A value cut by a hard wrap: a terminal, `fold -w`, a fixed-width log viewer or a diff's wrapped lines break
every line at one width, inside a word as often as not (`lena.hart` / `mann@example.org`, `José N` / `úñez`).
Where a line is one of three in a row as long and the break falls between two letters or digits, the break is no
word's end: the lines read joined there. Prose wrapped at words ends its lines where its words end, at widths
that differ from line to line; where three happen to be as long, their words read joined in the decoded view
only (the text view keeps the break), which joins no value that was not one. Lines that start alike (a log's
timestamps) are records, and lines aligned in columns (a receipt, a table) rows, each ending where it ends."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import accumulate

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_LEAST_WIDTH = 20
#: a line with a run of spaces is a row of a table or a receipt, aligned in columns: its width is the format's
_COLUMNS = "   "
#: lines that start alike are records of one format (a log's timestamps, a table's rows), not a wrap's pieces
_RECORD_HEAD = 4


@register
class HardWraps(Form):
    """A wrap is a line as long as its neighbours, which no regex finds; its cue is what a regex can: a break
    between two letters or digits (`str.isalnum`; on 8 MB of agent traffic, 27,000 of 245,000 breaks). The cue
    holds no line width: `[^\\n]{19}` before it made the one cue pass 0.07 s slower, more than it saved."""

    name = "hard_wraps"
    #: (`[^\W_]` is `str.isalnum` in Python's regex.) The cue ends on the line after the break; a wrap's
    #: decision reads the two lines either side of the line it breaks: three before the cue's line, one after
    cue = r"[^\W_]\r?\n[^\W_]"
    cue_lines = 3

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if text.count("\n") < 2:  # (three lines or more)
            return
        lines = text.split("\n")
        ends = list(accumulate(len(line) + 1 for line in lines))  # where each line's break is, plus one
        for k in _wraps([line.removesuffix("\r") for line in lines] if "\r" in text else lines):
            cut = ends[k] - 1 - lines[k].endswith("\r")
            yield cut, ends[k], ""


def _wraps(lines: Sequence[str]) -> Iterator[int]:
    """The lines (by index) whose break is a hard wrap's: the lengths of all the lines, then the few lines one of
    three in a row as long read closer. (A terminal wraps Chinese text by columns, two a character: `pdf_breaks`
    joins a wrap between Han characters.)"""
    lengths = [len(line) for line in lines]
    wide = [n for n in lengths if n >= _LEAST_WIDTH]
    if len(set(wide)) == len(wide):  # (no two wide lines as long: most texts)
        return
    for k in range(len(lines) - 1):
        if lengths[k] >= _LEAST_WIDTH and (lengths[k] in lengths[max(0, k - 2):k] or
                                           lengths[k] in lengths[k + 1:k + 3]) and wrapped(lines, k):
            yield k


def wrapped(lines: Sequence[str], k: int) -> bool:
    """Is the break after `lines[k]` a hard wrap's: inside a word, the line one of three in a row as long (a
    fourth of prose's lines are as long as the next by chance; three in a row, a few in a hundred), not a record
    starting as the next does?"""
    line, after = lines[k], lines[k + 1]
    if len(line) < _LEAST_WIDTH or not (line[-1:].isalnum() and after[:1].isalnum()) or \
            line[:_RECORD_HEAD] == after[:_RECORD_HEAD] or _COLUMNS in line or _COLUMNS in after:
        return False
    same = [0 <= j < len(lines) and len(lines[j]) == len(line) for j in range(k - 2, k + 3)]
    return (same[0] and same[1]) or (same[1] and same[3]) or (same[3] and same[4])
