"""A MIME part's body in the charset its headers declare: a mail's raw source as a mail tool or an IMAP client
prints it, `Content-Type: text/plain; charset="gb2312"` and `Content-Transfer-Encoding: base64` (or
quoted-printable), then the body. Chinese mail is written in GB2312/GBK as often as in UTF-8, Japanese in ISO-2022-JP
or Shift_JIS, Korean in EUC-KR: the body's bytes are no UTF-8, so the decoders that read base64 and `=XX` as UTF-8
read nothing there. A reader of the mail reads the body's bytes in the declared charset; so does this form.

A part counts where one header block declares both a charset other than UTF-8 (or ASCII, which the other forms read)
and a transfer encoding; its body runs from the blank line after the headers to the next boundary line (`--…`) or
the text's end, and must decode whole, in that charset, to printable text."""

from __future__ import annotations

import base64
import binascii
import codecs
import quopri
import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# the first letter a class: a case-insensitive literal gives the regex engine nothing to skip ahead to in C
_CHARSET = re.compile(r"[cC](?i:harset=\"?([\w.:-]+))")
_ENCODING = re.compile(r"(?im)^content-transfer-encoding:[ \t]*(base64|quoted-printable)[ \t]*\r?$")
_HEADERS_END = re.compile(r"\r?\n\r?\n")
_BOUNDARY = re.compile(r"^--", re.M)
#: charsets whose bytes the other forms read (as UTF-8)
_READ_ELSEWHERE = frozenset({"utf-8", "ascii"})


@register
class MimeBodies(Form):
    """No cue: the body a charset names lies past the header block, as many lines away as the headers run."""

    name = "mime_bodies"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _CHARSET.finditer(text):
            try:
                charset = codecs.lookup(m.group(1)).name
            except LookupError:
                continue
            ends = _HEADERS_END.search(text, m.end())
            if charset in _READ_ELSEWHERE or ends is None:
                continue
            block = text[text.rfind("\n\n", 0, m.start()) + 1:ends.start()]
            encoding = _ENCODING.search(block)
            start = ends.end()
            boundary = _BOUNDARY.search(text, start)
            end = boundary.start() if boundary else len(text)
            if encoding is not None and (decoded := _body(text[start:end], encoding.group(1).lower(), charset)):
                yield start, end, decoded


def _body(body: str, encoding: str, charset: str) -> str | None:
    """What a body says in its charset; None where it is no body of that encoding or no text in the charset."""
    try:
        raw = base64.b64decode("".join(body.split()), validate=True) if encoding == "base64" else \
            quopri.decodestring(body.encode("ascii"))
        decoded = raw.decode(charset)
    except (binascii.Error, ValueError):  # (UnicodeError is a ValueError)
        return None
    return decoded if decoded.strip() and all(ch.isprintable() or ch in "\r\n\t" for ch in decoded) else None
