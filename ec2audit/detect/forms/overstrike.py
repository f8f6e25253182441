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
        """One replacement a run of struck characters (`s\\bsk\\bk`: `sk`), the characters shown: no other form
        reads a character and the backspace after it as a word's end (OCR read `vB\\bB8` as `v88`)."""
        if "\x08" not in text:
            return
        run: list[int] = []  # the struck characters' places, each at most one character after the last one shown
        for m in _STRUCK.finditer(text):
            if run and m.start() - 1 > run[-1] + 3:
                yield _shown(text, run)
                run = []
            run.append(m.start() - 1)
        if run:
            yield _shown(text, run)


def _shown(text: str, struck: list[int]) -> Replacement:
    """The run from its first struck character to the character shown over its last, read without the struck ones."""
    end = struck[-1] + 2
    end += end < len(text) and text[end] not in "\x08\n"
    hidden = {*struck, *(k + 1 for k in struck)}  # each struck character and its backspace
    return struck[0], end, "".join(text[k] for k in range(struck[0], end) if k not in hidden)
