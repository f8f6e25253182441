"""Base64 wrapped at a fixed width: a MIME part's body (76 columns), PEM (64), `base64` on the command line
(76), `openssl base64` (64). Each line alone decodes to bytes cut anywhere (a UTF-8 character, a value, across
two lines); the lines joined are the token, and what it decodes to is read as any decoded token is."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement, base64_text, decoded_text

# one or more full lines (40 characters or more), then a last line, padded; that the full lines are of one width,
# a multiple of four, and the last no longer, is checked on the match
_WRAPPED = re.compile(r"^[A-Za-z0-9+/]{40,}\r?\n(?:[A-Za-z0-9+/]{40,}\r?\n)*[A-Za-z0-9+/]+={0,2}$", re.M)


@register
class WrappedBase64(Form):
    name = "base64_lines"
    #: a full line: each line of a block but its last holds one (one line after the last: the block's last)
    cue = "[A-Za-z0-9+/]{40}"
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\n" not in text:
            return
        for m in _WRAPPED.finditer(text):
            lines = m.group().split("\n")
            width = len(lines[0].rstrip("\r"))
            if width % 4 or any(len(s.rstrip("\r")) != width for s in lines[:-1]) or len(lines[-1]) > width:
                continue
            decoded = base64_text("".join(s.rstrip("\r") for s in lines))
            if decoded:
                inner = decoded_text(decoded)
                yield m.start(), m.end(), decoded if inner is None else inner[0]
