"""Text a terminal prints over itself: `man` and `nroff` output (`git help`, `ls --help` piped through `col -b`
not yet) makes bold by printing a character, a backspace and the character again (`J\\bJo\\bo`) and an underline
by `_\\b` before each letter; a progress line is rewritten after a carriage return. A terminal shows the last
character written at each place: without the backspace and what it struck over, the value reads whole."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# a backspace after the character it strikes over (the backspace first: a literal the regex engine searches for
# in C; the character is looked behind at)
_STRUCK = re.compile(r"\x08(?<=[^\x08\n]\x08)")


@register
class Overstrike(Form):
    name = "overstrike"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\x08" not in text:
            return
        for m in _STRUCK.finditer(text):
            yield m.start() - 1, m.end(), ""
