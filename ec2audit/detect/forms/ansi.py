"""Terminal output kept with its colours: `grep --color=always`, `ls --color`, a test runner's or a linter's
report, `git diff --color` pasted from a shell tool. The ANSI escape sequences (CSI `ESC [ … m` for colours,
`ESC [ K` for erase-to-end-of-line) are no characters a terminal shows: grep puts them around the part of a line
that matched, inside a value. A reader sees the value whole; without them, so do the tiers. An OSC (`ESC ] … BEL`:
a hyperlink, a window title) reads as what it holds, apart from the text around it."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# what an OSC holds (a hyperlink's URL, a window title) stays readable, apart: the escape around it goes
_OSC_TEXT = re.compile(r"^\x1b\](?:8;[^;\x07\x1b]*;)?|(?:\x07|\x1b\\)$")
# ECMA-48: CSI (ESC [ parameters, intermediates, a final byte); OSC (ESC ] … ended by BEL or ESC \); the rest,
# ESC, intermediates, a final byte (`ESC ( B` selects a character set, `ESC 7` saves the cursor)
_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[ -/]*[0-~])")


@register
class AnsiEscapes(Form):
    name = "ansi"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\x1b" not in text:
            return
        for m in _ESCAPE.finditer(text):
            yield m.start(), m.end(), _OSC_TEXT.sub(" ", m.group()) if m.group().startswith("\x1b]") else ""
