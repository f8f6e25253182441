"""Characters written as escapes with braces: Rust's `escape_unicode` and `{:?}` of a char, JavaScript's and
Swift's `\\u{6b27}`, Perl's and Ruby's `\\x{6b27}`. The `\\uXXXX` form every decoded view reads has no braces;
these say the same code point in a text a Rust or Perl tool printed."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# any number of backslashes (JSON text escaped again doubles them), as escapes.py reads `\\n`
_BRACED = re.compile(r"\\+[ux]\{([0-9A-Fa-f]{1,6})\}")


@register
class BraceEscapes(Form):
    name = "brace_escapes"
    cue = r"\\[ux]\{"  # (an escape is one token, on one line)
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "{" not in text or "\\" not in text:
            return
        for m in _BRACED.finditer(text):
            code = int(m.group(1), 16)
            if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
                yield m.start(), m.end(), chr(code)
