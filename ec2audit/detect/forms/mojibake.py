"""Mojibake: UTF-8 text decoded as Windows-1252 or Latin-1 by a tool that assumed a legacy encoding (a CSV export
opened as ANSI, a mail body without its charset, a log read by a script that guessed): `José Núñez` shows as
`JosÃ© NÃºÃ±ez`, `欧阳` as `æ¬§é˜³`. Each character then stands for one byte, so the bytes come back exactly: a run
that spells valid UTF-8 multi-byte sequences reads as what they encode, and again where the text was mis-decoded
twice (`JosÃƒÂ©`). Text that only holds accented letters (`São`, `Ærø`) spells no such sequence and stays."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement


def _bytes_of() -> dict[str, int]:
    """Character → the byte it stands for: Windows-1252's table, and Latin-1's for the five bytes 1252 leaves
    undefined and the C1 controls a Latin-1 decoder gives (the two decoders agree on the rest)."""
    table = {chr(b): b for b in range(0x80, 0x100)}
    for b in range(0x80, 0xA0):
        try:
            table[bytes([b]).decode("cp1252")] = b
        except UnicodeDecodeError:
            pass
    return table


_BYTE = _bytes_of()


def _escaped(chars) -> str:
    return "".join(f"\\u{ord(c):04x}" for c in sorted(chars))


#: a character standing for a continuation byte (0x80-0xBF), written as escapes (a cue is Vectorscan's syntax too)
_CONT = "[" + _escaped(c for c, b in _BYTE.items() if b < 0xC0) + "]"
#: a UTF-8 multi-byte sequence spelled in those characters (its lead byte first: the regex engine skips to it in C)
_SEQUENCES = re.compile(f"(?:[\\u00c2-\\u00df]{_CONT}|[\\u00e0-\\u00ef]{_CONT}{{2}}|[\\u00f0-\\u00f4]{_CONT}{{3}})+")
_DEPTH = 3  # decodings undone one over another: a text mis-decoded twice is common (a CSV opened and saved again)


def _undone(text: str, depth: int = _DEPTH) -> str:
    """Each run of sequences in `text` decoded as UTF-8 (a run holding an invalid one, an overlong form or a
    surrogate, stays), `depth` times over."""
    def decode(m: re.Match) -> str:
        try:
            return bytes(_BYTE[c] for c in m.group()).decode("utf-8")
        except UnicodeDecodeError:
            return m.group()

    for _ in range(depth):
        decoded = _SEQUENCES.sub(decode, text)
        if decoded == text:
            break
        text = decoded
    return text


@register
class Mojibake(Form):
    name = "mojibake"
    cue = f"[\\u00c2-\\u00f4]{_CONT}"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _SEQUENCES.finditer(text):
            decoded = _undone(m.group())
            if decoded != m.group():
                yield m.start(), m.end(), decoded
