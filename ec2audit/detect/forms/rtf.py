"""RTF's character escapes: a document a tool read as source (a `.rtf` file's text, a rich-text clipboard, an
e-mail's `text/rtf` part) writes a non-ASCII character as `\\'hh`, a byte of the document's ANSI code page, or as
`\\uN?`, its UTF-16 code unit as a signed decimal followed by a fallback for readers without Unicode (`?`, or that
character's bytes as `\\'hh` escapes): `Jos\\'e9 N\\'fa\\'f1ez`, `\\u27431?\\u-27085?`. Each run of escapes reads as
its text: code units decoded as UTF-16 (a pair is one character), bytes as Windows-1252, the Western code page
Word writes where it writes bytes (a `\\ansicpg` far above is not read: the rewrite reads the lines around each
escape)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_HEX = r"\\'[0-9a-fA-F]{2}"
#: `\uN`, its delimiting space, and its fallback (`?`, or a character's one or two bytes in the code page)
#: (never zero-padded: `\u00e9` is JSON's escape, read by the decoded view)
_UNIT = rf"u(-?[1-9][0-9]{{0,4}}) ?(?:\?|(?:{_HEX}){{1,2}})?"
_UNICODE = re.compile(rf"\\{_UNIT}")
_RUN = re.compile(rf"\\(?:{_UNIT}|'[0-9a-fA-F]{{2}})(?:\\(?:{_UNIT}|'[0-9a-fA-F]{{2}}))*")


def _text(run: str) -> str | None:
    """What a run of escapes says; None where it says nothing readable (a code unit past 16 bits)."""
    out, at = [], 0
    for m in _UNICODE.finditer(run):
        out.append(_code_page(run[at:m.start()]))
        unit = int(m.group(1))
        if not -32768 <= unit <= 65535:
            return None
        out.append((unit % 65536).to_bytes(2, "little"))
        at = m.end()
    out.append(_code_page(run[at:]))
    units = b"".join(out)
    return units.decode("utf-16-le", "replace")


def _code_page(escapes: str) -> bytes:
    """`\\'hh` escapes as UTF-16 code units of their Windows-1252 characters."""
    raw = bytes(int(escapes[k + 2:k + 4], 16) for k in range(0, len(escapes), 4))
    return raw.decode("cp1252", "replace").encode("utf-16-le")


@register
class RtfEscapes(Form):
    name = "rtf"
    cue = r"\\(?:'[0-9a-fA-F]{2}|u-?[0-9])"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\\" not in text:
            return
        for m in _RUN.finditer(text):
            decoded = _text(m.group())
            if decoded is not None:
                yield m.start(), m.end(), decoded
