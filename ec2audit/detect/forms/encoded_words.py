"""RFC 2047 encoded words: a mail's Subject, From or attachment name as a mail tool or an IMAP client prints
its raw headers, `=?utf-8?q?=E6=AC=A7=E9=98=B3?=` or `=?UTF-8?B?5qyn6Ziz?=`. A mailer cuts a long header into
words of at most 75 characters, folded onto lines of their own, so a value runs across two words; the white
space between adjacent words is no part of the text (RFC 2047 §6.2). Each word reads as what it encodes, and
the space between two words as nothing."""

from __future__ import annotations

import base64
import binascii
import quopri
import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# =?charset(*language)?encoding?text?=
_WORD = re.compile(r"=\?([A-Za-z0-9!#$%&'+^_`{}~-]+)(?:\*[A-Za-z0-9-]+)?\?([QqBb])\?([!->@-~]*)\?=")


def decode_word(charset: str, encoding: str, payload: str) -> str | None:
    """What one encoded word says; None where it is no word of a known charset."""
    try:
        if encoding in "Bb":
            raw = base64.b64decode(payload + "=" * (-len(payload) % 4), validate=True)
        else:
            raw = quopri.decodestring(payload.encode("ascii"), header=True)
        return raw.decode(charset)
    except (binascii.Error, ValueError, LookupError):  # (UnicodeDecodeError is a ValueError)
        return None


@register
class EncodedWords(Form):
    """No cue: the white space joining two encoded words may span any number of lines."""

    name = "encoded_words"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "=?" not in text:
            return
        after = -1  # the end of the word before, where it decoded
        for m in _WORD.finditer(text):
            decoded = decode_word(*m.groups())
            if decoded is None:
                after = -1
                continue
            if after >= 0 and m.start() > after and text[after:m.start()].isspace():
                yield after, m.start(), ""
            yield m.start(), m.end(), decoded
            after = m.end()
