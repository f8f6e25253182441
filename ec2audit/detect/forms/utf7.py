"""Text in UTF-7 (RFC 2152): ASCII as itself, everything else as a `+`, the UTF-16 units in modified base64, and an
optional `-` (`Jos+AOk-`, `+ayeWM1ocWhw-`): older mail headers and archives; and IMAP's modified UTF-7 (RFC 3501
§ 5.1.3: `&` for `+`, `,` for `/`, the `-` required), a mailbox's name as `LIST` and `SELECT` write it
(`&ayeWM1ocWhw-`). A reader reads the characters; so do the tiers, where a shift sequence decodes (Python's strict
decoder: its padding bits zero) to characters past ASCII that print. `+86`, `C++`, `a+b` and `&amp;` are none."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

#: a shift sequence: `+`, three or more base64 characters (one UTF-16 unit), an optional `-`; or IMAP's
_SHIFT = re.compile(r"\+([A-Za-z0-9+/]{3,})-?|&([A-Za-z0-9+,]{3,})-")


def shifted(run: str) -> str | None:
    """The characters a shift sequence's base64 stands for, where they are past ASCII and print."""
    try:
        decoded = ("+" + run + "-").encode("ascii").decode("utf-7")
    except UnicodeDecodeError:
        return None
    return decoded if decoded and not decoded.isascii() and decoded.isprintable() else None


@register
class Utf7(Form):
    name = "utf7"
    cue = r"\+[A-Za-z0-9+/]{3}|&[A-Za-z0-9+,]{3}"  # (a sequence, on one line)
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "+" not in text and "&" not in text:
            return
        for m in _SHIFT.finditer(text):
            plain, imap = m.groups()
            decoded = shifted(plain if imap is None else imap.replace(",", "/"))
            if decoded is not None:
                yield m.start(), m.end(), decoded
