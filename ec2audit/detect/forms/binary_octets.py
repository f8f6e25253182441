"""Bytes written as eight binary digits each, a space or a tab apart (Python's `' '.join(f'{b:08b}' for b in data)`,
a "text to binary" converter, a CTF write-up), `xxd -b`'s dump (six octets a line between the offset and the
character column, so a value runs on across lines), or with nothing between them (`basenc --base2msbf`, lines of
76 digits that cut octets): a reader who decodes them reads the text; so do the tiers, where a run of at least
`_LEAST` octets (on one line, or continued on the next; a dump's lines joined) is UTF-8 text that prints. A row of
flags or a bitmask is no such text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_LEAST = 4
_APART = r"(?:[ \t]+|[ \t]*\r?\n[ \t]*)"
_RUN = re.compile(rf"(?<![0-9A-Za-z])[01]{{8}}(?:{_APART}[01]{{8}}){{{_LEAST - 1},}}(?![0-9A-Za-z])")
#: digits with nothing between them, whole lines of them joined
_BITS = re.compile(rf"(?<![0-9A-Za-z])[01]{{{8 * _LEAST},}}(?:\r?\n[01]{{8,}})*(?![0-9A-Za-z])")
#: `xxd -b`'s lines: an offset, up to six octets, two spaces, the characters (the octets in group 1)
_DUMP_LINE = r"[0-9a-f]{8}: ((?:[01]{8} ){1,6}) *.{1,6}"
_DUMP = re.compile(rf"^{_DUMP_LINE}(?:\r?\n{_DUMP_LINE})+$", re.MULTILINE)
_OCTETS = re.compile(rf"^{_DUMP_LINE}$", re.MULTILINE)


def bytes_text(values: Iterable[int]) -> str | None:
    """The UTF-8 text of the bytes, where each is a byte and the text prints."""
    try:
        text = bytes(values).decode("utf-8")
    except (ValueError, UnicodeDecodeError):  # (a value past 255)
        return None
    return text if all(c.isprintable() or c in "\t\n\r" for c in text) else None


def octets_text(run: str) -> str | None:
    """The UTF-8 text the octets spell, where it prints."""
    bits = "".join(run.split())
    return None if len(bits) % 8 else bytes_text(int(bits[k:k + 8], 2) for k in range(0, len(bits), 8))


@register
class BinaryOctets(Form):
    name = "binary_octets"
    #: two octets on a line (a run's lines each hold two, or end it), or a line of bits' start
    cue = r"[01]{8}[ \t]+[01]{8}|[01]{32}"
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _DUMP.finditer(text):
            decoded = octets_text(" ".join(line.group(1) for line in _OCTETS.finditer(m.group())))
            if decoded is not None:
                yield m.start(), m.end(), decoded
        for m in (*_RUN.finditer(text), *_BITS.finditer(text)):
            decoded = octets_text(m.group())
            if decoded is not None:
                yield m.start(), m.end(), decoded
