"""A value broken by a line continuation: a backslash at a line's end, as a shell command, a Dockerfile, a
Makefile, C macros or a Python string pasted from a tool call write it (`-e PHONE="139228\\<newline>83366"`).
The shell, make and the compiler read the lines joined; so does a reader, and so do the tiers. Where the
backslash ends a word (no space before it) the next line's indentation goes too: the word goes on there."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# starts with the backslash, a literal the regex engine searches for in C
_CONTINUATION = re.compile(r"\\\r?\n[ \t]*")


@register
class LineContinuations(Form):
    name = "continuations"
    cue = r"\\\r?\n"  # (the next line's indent goes with it)
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\\\n" not in text and "\\\r\n" not in text:
            return
        for m in _CONTINUATION.finditer(text):
            start = m.start()
            if start and not text[start - 1].isspace() and text[start - 1] != "\\":  # (`\\\\` is an escaped one)
                yield start, m.end(), ""
