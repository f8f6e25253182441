"""Text written as its UTF-8 bytes in hex, one separator between bytes: `od -An -tx1` (sixteen a line, each after a
space), Go's `fmt.Printf("% x", b)`, Python's `bytes.hex(" ")` and `bytes.hex(":")`, a byte each after `0x`
(`0x6E 0x61 …`). A reader who decodes them reads the text; so do the tiers, where at least eight bytes read as UTF-8
text that prints (a MAC address is six bytes; a fingerprint's `AB:CD:…` and random bytes read as no such text, and
stay). A run goes on across line breaks, as od prints it. (Bytes with a comma between are `byte_lists`'; a dump
with its offsets, `dumps`'; hex digits with nothing between, `hex_strings`'.)"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.forms.hex_strings import hex_text
from ec2audit.detect.views import Replacement

_LEAST_BYTES = 8
_BYTE = r"(?:0[xX])?[0-9a-fA-F]{2}"
_APART = r"(?:[ :]|[ \t]*\r?\n[ \t]*)"  # a space or a colon, or a line break and the next line's indent
#: bytes one separator apart, not inside a longer number or word
_RUN = re.compile(rf"(?<![\w:.]){_BYTE}(?:{_APART}{_BYTE}){{{_LEAST_BYTES - 1},}}(?![\w:])")
_DIGITS = re.compile(r"[0-9a-fA-F]{2}(?![0-9a-fA-F])")


@register
class SpacedHex(Form):
    name = "spaced_hex"
    #: three bytes one separator apart: every byte of a run (eight or more) is inside one, on whatever lines
    cue = f"{_BYTE}{_APART}{_BYTE}{_APART}{_BYTE}"
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _RUN.finditer(text):
            decoded = hex_text("".join(_DIGITS.findall(m.group())))
            if decoded is not None:
                yield m.start(), m.end(), decoded
