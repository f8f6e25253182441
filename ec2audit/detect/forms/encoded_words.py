"""RFC 2047 encoded words: a mail's Subject, From or attachment name as a mail tool or an IMAP client prints
its raw headers, `=?utf-8?q?=E6=AC=A7=E9=98=B3?=` or `=?UTF-8?B?5qyn6Ziz?=`. A mailer cuts a long header into
words of at most 75 characters, folded onto lines of their own, so a value runs across two words; the white
space between adjacent words is no part of the text (RFC 2047 §6.2). Each word reads as what it encodes, and
the space between two words as nothing. A word should hold whole characters, yet mailers cut a character's bytes
across two words too (`=?UTF-8?B?5qyn6Q==?= =?UTF-8?B?mLPlqJzlqJw=?=` is 欧阳娜娜, 阳 in both), and readers (Python's
`email.header`, mail clients) join adjacent words' bytes of one charset before decoding them: so does this form,
reading words together until their bytes are text."""

from __future__ import annotations

import base64
import binascii
import codecs
import quopri
import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# =?charset(*language)?encoding?text?=
_WORD = re.compile(r"=\?([A-Za-z0-9!#$%&'+^_`{}~-]+)(?:\*[A-Za-z0-9-]+)?\?([QqBb])\?([!->@-~]*)\?=")


def decode_word(charset: str, encoding: str, payload: str) -> str | None:
    """What one encoded word says; None where it is no word of a known charset."""
    raw = word_bytes(charset, encoding, payload)
    return _text(raw, charset) if raw is not None else None


def word_bytes(charset: str, encoding: str, payload: str) -> bytes | None:
    """The bytes one encoded word holds; None where it is no word (bad base64, a charset Python does not know)."""
    try:
        codecs.lookup(charset)
        if encoding in "Bb":
            return base64.b64decode(payload + "=" * (-len(payload) % 4), validate=True)
        return quopri.decodestring(payload.encode("ascii"), header=True)
    except (binascii.Error, ValueError, LookupError):
        return None


def _text(raw: bytes, charset: str) -> str | None:
    try:
        return raw.decode(charset)
    except UnicodeDecodeError:
        return None


@register
class EncodedWords(Form):
    """No cue: the white space joining two encoded words may span any number of lines."""

    name = "encoded_words"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "=?" not in text:
            return
        after = -1  # the end of the word before, where it was one
        held: tuple[int, str, bytes] | None = None  # words whose bytes are no text yet: (start, charset, bytes)
        for m in _WORD.finditer(text):
            charset = m.group(1).lower()
            raw = word_bytes(charset, m.group(2), m.group(3))
            adjacent = after >= 0 and m.start() > after and text[after:m.start()].isspace()
            if raw is None or not adjacent or held is not None and held[1] != charset:
                held = None  # (bytes no later word completes: read as no text, as before)
            if raw is None:
                after = -1
                continue
            start, raw = (held[0], held[2] + raw) if held is not None else (m.start(), raw)
            decoded = _text(raw, charset)
            if decoded is None:
                held = (start, charset, raw)
            else:
                if held is None and adjacent:
                    yield after, m.start(), ""
                yield start, m.end(), decoded
                held = None
            after = m.end()
