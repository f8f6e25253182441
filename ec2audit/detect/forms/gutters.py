"""A gutter in front of each line of a value wrapped across lines: the line numbers `cat -n`, `nl`, `grep -n`
(with its file name, `-` on context lines), `less -N` or an editor's view put there (`     3\\t…`, `c.txt:3:…`,
` 3 | …`), and the `+`/`-`/` ` markers of a unified diff's hunk. A reader reads past the gutter, and so do the
tiers: each gutter goes. Where the lines are a value wrapped at a width (`fold -w`, a PEM file, a diff of wrapped
JSON: two lines as wide, a token running on across the break), the lines without their gutters go in as one
rewrite instead, which the decoded view reads again with the other forms (the wrap joined, the base64 decoded);
only there does a hit's span cover the block.

Line numbers count only where two or more lines in a row carry them, each one more than the line before: a
number at a line's start is otherwise part of what the line says."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.forms.hard_wraps import wrapped
from ec2audit.detect.views import Replacement

# an optional file name (grep -n over files: a "." or "/" in it), the number, and what ends the gutter: a tab, ":"
# or "-" (grep; not a "-" before a digit, a date's),
# " | " or " │ " (editors, bat), or the single space after a right-aligned number (less -N); a "|" right after
# the number is a table's column
_NUMBERED = re.compile(r"^(?:[^\s:]*[./][^\s:]*[:-])?[ \t]*(\d{1,7})"
                       r"(?:\t|:|-(?!\d)|[ \t]+[|│] ?|(?<=[ \t]\d) |(?<=\d\d) )", re.M)
# a line after the first that starts as `_NUMBERED` does (a number, alone or after a file name): searched for in C
# by its "\\n" (text whose lines start otherwise is not read further)
_NUMBERED_CUE = r"\n[ \t]*\d|\n[^\s:]*[./][^\s:]*[:-][ \t]*\d"
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@.*$", re.M)
_HUNK_LINE = re.compile(r"[-+ ][^\n]*")


@register
class Gutters(Form):
    name = "gutters"
    #: each line of a numbered run after its first, a hunk's header and each line of a hunk (one line before a
    #: run's second line: its first; one after a run's or a hunk's last: what ends it)
    cue = f"{_NUMBERED_CUE}|@@ -|\\n[-+ ]"
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\n" not in text:
            return
        if _CUE.search(text):
            yield from _numbered(text)
        if "@@ -" in text:
            yield from _diff_markers(text)


_CUE = re.compile(_NUMBERED_CUE)


def _numbered(text: str) -> Iterator[Replacement]:
    run: list[tuple[int, int]] = []  # (line start, gutter end) of each line in a row
    number = -2
    for m in _NUMBERED.finditer(text):
        if run and int(m.group(1)) == number + 1 and m.start() == _line_end(text, run[-1][1]) + 1:
            run.append(m.span())
        else:
            yield from _without(text, run)
            run = [m.span()]
        number = int(m.group(1))
    yield from _without(text, run)


def _diff_markers(text: str) -> Iterator[Replacement]:
    """The first character of each line of a hunk, up to the first line that is no hunk line."""
    for hunk in _HUNK.finditer(text):
        run, pos = [], hunk.end() + 1
        while pos < len(text):
            line = _HUNK_LINE.match(text, pos)
            if line is None or text.startswith("--- ", pos) and text.startswith("+++ ", line.end() + 1):
                break
            run.append((pos, pos + 1))
            pos = line.end() + 1
        yield from _without(text, run, 1)


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def _without(text: str, gutters: list[tuple[int, int]], least: int = 2) -> Iterator[Replacement]:
    """The lines of `least` or more `gutters` (line start, gutter end) without them: each gutter gone, or the
    lines as one rewrite where they are a value wrapped at a width."""
    if len(gutters) < least:
        return
    lines = [text[end:_line_end(text, end)].removesuffix("\r") for _, end in gutters]
    if any(wrapped(lines, k) for k in range(len(lines) - 1)):
        yield gutters[0][0], _line_end(text, gutters[-1][1]), "\n".join(lines)
    else:
        yield from ((start, end, "") for start, end in gutters)
