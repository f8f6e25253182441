"""The character column of `hexdump -C` (and `hexdump -C | cut -c62-`, or a dump's right-hand side copied alone):
a line of sixteen bytes shown between `|` and `|`, a byte that does not print as `.`, the last line shorter. A
value the dump cut at a line's end is read in two; a reader reads the column as one text, and so do the tiers:
a run of two or more such lines, every one but the last sixteen characters wide, is read joined (the characters a
`.` stands for are gone either way)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_WIDTH = 16
#: a run of column lines: whole ones, then one of up to sixteen (the run's last)
_RUN = re.compile(r"^\|[ -~]{16}\|\r?\n(?:\|[ -~]{16}\|\r?\n)*\|[ -~]{1,16}\|\r?$", re.M)


@register
class AsciiColumns(Form):
    name = "ascii_columns"
    #: one whole line of the column (a run's lines are next to one another: `cue_lines` reaches the last)
    cue = r"\|[ -~]{16}\|"
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "|" not in text:
            return
        for m in _RUN.finditer(text):
            yield m.start(), m.end(), "".join(line.rstrip("\r")[1:-1] for line in m.group().split("\n"))
