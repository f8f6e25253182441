"""Tool output carried as escaped text: a literal backslash-n where a line broke (`stdout:\\n13900112233`,
`name:\\nAnn Lee`), with any number of backslashes (JSON text escaped twice). Read as the white space it
stands for, the value is a word of its own again."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# \\+[nrt], written to start with the backslash itself so the regex engine searches for it in C: 8 MB 0.056 → 0.005 s
_ESCAPED_SPACE = re.compile(r"\\[\\]*[nrt]")


@register
class EscapedWhitespace(Form):
    name = "escapes"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\\" not in text:
            return
        for m in _ESCAPED_SPACE.finditer(text):
            yield m.start(), m.end(), "\n"
