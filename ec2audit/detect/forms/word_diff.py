"""`git diff --word-diff` (and `git log -p --word-diff`, `wdiff`): a changed line written once, what went
`[-between these-]` and what came `{+between these+}`. With `--word-diff-regex=.` (characters) or a regex that
cuts inside words, a value changed in one character is cut around its change (`1392288336[-5-]{+6+}`,
`lena.hartman{+n+}@example.org`): neither side stands whole in the text. A reader reads each side; so do the
tiers: a line holding the markers reads as its old side and its new side, one line after the other."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

#: what a line lost and what it gained (neither spans a line break: git writes a change a line at a time)
_CHANGE = re.compile(r"\[-([^\n]*?)-\]|\{\+([^\n]*?)\+\}")
#: a line holding a marker (from its start: a regex tried at every offset of a long line reads it again each time)
_LINE = re.compile(r"^[^\n]*(?:\[-|\{\+)[^\n]*", re.M)


@register
class WordDiff(Form):
    name = "word_diff"
    cue = r"\[-|\{\+"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "[-" not in text and "{+" not in text:
            return
        for line in _LINE.finditer(text):
            old = _CHANGE.sub(lambda m: m.group(1) or "", line.group())
            new = _CHANGE.sub(lambda m: m.group(2) or "", line.group())
            if old != line.group():
                yield line.start(), line.end(), f"{old}\n{new}"
