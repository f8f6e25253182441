"""PowerShell's `Format-List` (`Get-ADUser … | fl`, `Get-Mailbox | Format-List *`): each property a line, its name
padded so the colons align (`EmailAddress : …`), a value longer than the console cut at the console's width and
run on under the value's column. Outside the cultures PowerShell wraps at words (en, fr, de, it, pt, es: a Chinese
or Japanese console), the cut falls at a character, inside a word as often as not (`lena.hartmann@exam` /
`ple.org`). A reader reads the value's lines joined; so do the tiers, where every line but its last is as wide as
the others (a console's width, `_LEAST_WIDTH` cells or more, a CJK character two): the break and the indent go.
A value wrapped at words has lines of differing widths, and stays."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_LEAST_WIDTH = 40
#: a property's line (its name, padded, " : ") and the lines indented under it
_WRAPPED = re.compile(r"^[^\s:][^\n]*? : [^\n]*(?:\n {4,}[^ \n][^\n]*)+", re.M)


def _cells(line: str) -> int:
    """A line's width on a console: a wide character (CJK) takes two cells."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


@register
class FormatList(Form):
    name = "format_list"
    cue = r"\n    +[^ \n]"  # a line run on under a value (the property's line is the one before)
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if " : " not in text:
            return
        for m in _WRAPPED.finditer(text):
            lines = m.group().split("\n")
            indent = lines[0].index(" : ") + 3
            value = [lines[0]]
            for line in lines[1:]:
                if len(line) - len(line.lstrip(" ")) != indent:
                    break
                value.append(line)
            widths = {_cells(line.removesuffix("\r")) for line in value[:-1]}
            if len(value) < 2 or len(widths) != 1 or widths.pop() < _LEAST_WIDTH:
                continue
            at = m.start()
            for line in value[:-1]:  # (a line's "\r" goes with its break)
                yield at + len(line.removesuffix("\r")), at + len(line) + 1 + indent, ""
                at += len(line) + 1
