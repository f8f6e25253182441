"""Python's repr of UTF-16 or UTF-32 bytes: `print('José'.encode('utf-16'))` shows `b'\\xff\\xfeJ\\x00o\\x00…'`, a
script that reads a Windows file in binary mode logs its bytes so, and `.encode('utf-16-le')` or `'utf-32'` the
same without or with another mark. The escapes and the characters between them are read apart, and a NUL escape
is no text, so the tiers saw nothing; a reader of the literal reads the text. The literal is read whole
(`ast.literal_eval`: its escapes as Python reads them) and stands for its text where its bytes are UTF-32 or
UTF-16 that prints: after a byte order mark, or without one where the zero bytes fall as ASCII text's do (UTF-8
bytes stay `views`' `\\x` runs' to read)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement, utf16_text

#: a bytes literal as repr writes it: one line, `'` or `"` around it, escapes inside
_LITERAL = re.compile(r"""b(?<!\wb)(?:'(?:[^'\\\r\n]|\\.)*'|"(?:[^"\\\r\n]|\\.)*")""")
_UTF32_MARKS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")
_LEAST = 8  # bytes: two UTF-32 code units, four UTF-16 ones


def _utf32_text(raw: bytes) -> str | None:
    """UTF-32 after its mark, or little- or big-endian without one where every unit's two high bytes are zero (the
    Basic Multilingual Plane: every text here)."""
    if len(raw) % 4:
        return None
    codec = "utf-32" if raw[:4] in _UTF32_MARKS else "utf-32-le" if not raw[2::4].strip(b"\x00") + raw[3::4].strip(
        b"\x00") else "utf-32-be" if not raw[0::4].strip(b"\x00") + raw[1::4].strip(b"\x00") else None
    if codec is None:
        return None
    try:
        return raw.decode(codec)
    except UnicodeDecodeError:
        return None


def _wide_text(raw: bytes) -> str | None:
    """The text of UTF-32 or UTF-16 bytes (`views.utf16_text`: after a mark or little-endian; big-endian where
    every other byte from the first is zero), where it prints."""
    if len(raw) < _LEAST:
        return None
    text = _utf32_text(raw)
    if text is None and raw[:2] not in (b"\xff\xfe", b"\xfe\xff") and len(raw) % 2 == 0 and \
            raw[0::2].count(0) * 2 >= len(raw) // 2 and raw[1::2].count(0) * 2 < len(raw) // 2:
        raw = b"\xfe\xff" + raw  # big-endian: marked, for utf16_text
    text = text if text is not None else utf16_text(raw)
    return text if text is not None and all(c.isprintable() or c in "\t\r\n" for c in text) else None


@register
class WideBytes(Form):
    name = "wide_bytes"
    #: a bytes literal's opening (its first escape may come late: UTF-16 of Han characters is mostly ASCII bytes)
    cue = r"""b['"]"""

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "b'" not in text and 'b"' not in text:
            return
        for m in _LITERAL.finditer(text):
            try:
                raw = ast.literal_eval(m.group())
            except (ValueError, SyntaxError):
                continue
            decoded = _wide_text(raw) if isinstance(raw, bytes) else None
            if decoded is not None:
                yield m.start(), m.end(), decoded
