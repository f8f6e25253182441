"""Text as a byte dump shows it: `xxd`, `hexdump -C` (and `hd`), `od -c`, a debugger's or a packet tool's hex
view of a file or a buffer that holds the value. The bytes are there in hex or in octal, the value's characters
cut across lines and, outside ASCII, shown as dots. A reader of the dump reads the bytes; the tiers read the
text the bytes are (UTF-8), in place of the dump.

A run of dump lines counts where each line's offset is the bytes of the lines before it (the dump's own
check): a table of hex numbers is no dump."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement, decoded_text

# xxd (`00000010: 6e61 6d65  name`), hexdump -C (`00000010  6e 61 6d 65 …  |name|`), PowerShell's `Format-Hex`
# (`00000010   6E 61 6D 65 …   name`; PowerShell 7: a 16-digit offset) and Wireshark's hex dump (`0010   6e 61 …`):
# the offset in hex, then hex groups one to three spaces apart, then (after two or more spaces) the bytes as
# characters; the last line may be the offset alone (the length of what was dumped). A dump's first line may follow
# a label on its line (a tool's output after `notes.txt:`), not a letter or a digit; the lines after it start lines.
_HEX_LINE = re.compile(r"(?<![0-9A-Za-z])([0-9a-fA-F]{4,16}):?((?: {1,3}[0-9a-fA-F]{2}(?:[0-9a-fA-F]{2})*)*)"
                       r"(?: {2,}\|?.*)?$", re.M)
# od -c and -b, hexdump -c and -b: the offset (od's in octal, hexdump's and `od -Ax`'s in hex), then a cell four
# characters wide for each byte (a character, an escape, or the byte in octal)
_OD_LINE = re.compile(r"(?<![0-9A-Za-z])([0-9a-fA-F]{6,7})((?:   [^\s\\]|  \\[0abfnrtv\\]|    | [0-3][0-7]{2})*)$",
                      re.M)
# od's default (`od -x`, `-tx2`, `-tx4`) and hexdump's (and `-x`): the offset, then the bytes as 2- or 4-byte words
# in hex, as a little-endian machine holds them (`6870` is `ph`), one to four spaces apart, no characters after (the
# last line padded with spaces; xxd writes its groups of bytes in order, after a colon, the characters after them)
_WORD_LINE = re.compile(r"(?<![0-9A-Za-z])([0-9a-fA-F]{6,7})((?: {1,4}[0-9a-fA-F]{4})+|(?: {1,4}[0-9a-fA-F]{8})+) *$",
                        re.M)
_OD_ESCAPES = {"\\\\": 92, "\\0": 0, "\\a": 7, "\\b": 8, "\\f": 12, "\\n": 10, "\\r": 13, "\\t": 9, "\\v": 11}
_LEAST_BYTES = 8
_START = "0000"  # the first line's offset, in hex (4 to 16 digits) or octal (6 or 7)


@register
class ByteDumps(Form):
    name = "dumps"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if _START not in text:
            return
        for base in (8, 16):  # (a dump in the other base reads one line: its second offset is no sum)
            # (before xxd's: a dump of words is no xxd's)
            yield from _dumps(text, _WORD_LINE, base, lambda m: words(m.group(2)))
            yield from _dumps(text, _OD_LINE, base, lambda m: od_cells(m.group(2)))
        yield from _dumps(text, _HEX_LINE, 16, _hex_bytes)


def _hex_bytes(m: re.Match) -> bytes:
    return bytes.fromhex(m.group(2).replace(" ", ""))


def words(cells: str) -> bytes:
    """The bytes of a dump line's words, each little-endian in hex, blanks apart."""
    return b"".join(bytes.fromhex(word)[::-1] for word in cells.split())


def od_cells(cells: str) -> bytes:
    """The bytes of od's (or hexdump's) cells four characters wide: a character, an escape, an octal byte."""
    out = bytearray()
    for k in range(0, len(cells), 4):
        cell = cells[k:k + 4].strip()
        out += b" " if not cell else bytes([_OD_ESCAPES[cell]]) if cell in _OD_ESCAPES else \
            bytes([int(cell, 8)]) if len(cell) == 3 else cell.encode()
    return bytes(out)


def _dumps(text: str, line: re.Pattern, base: int, read) -> Iterator[Replacement]:
    """Each run of consecutive dump lines starting at offset 0, whose offsets add up, as the text it holds. A dump
    is looked for only where its first offset is (`0000000`, found in C): a log's other lines cost nothing."""
    pos = text.find(_START)
    while pos >= 0:
        m = line.match(text, pos)
        if m is None or _offset(m, base) != 0:
            pos = text.find(_START, pos + 1)
            continue
        start, end, raw = m.start(), m.end(), bytearray(read(m))
        while (m := line.match(text, end + 1)) is not None and _offset(m, base) == len(raw):
            raw += read(m)
            end = m.end()
        yield from dumped_text(start, end, raw)
        pos = text.find(_START, end)


def _offset(m: re.Match, base: int) -> int | None:
    """A dump line's offset in `base`, None where it is no number in it (a hex offset read as octal)."""
    try:
        return int(m.group(1), base)
    except ValueError:
        return None


def dumped_text(start: int, end: int, raw: bytearray) -> Iterator[Replacement]:
    """The dump at `start`:`end` as the text its bytes are (UTF-8, read again where it is escaped), if any."""
    if len(raw) < _LEAST_BYTES:
        return
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return
    inner = decoded_text(text)  # (what the bytes say may be encoded again: JSON text's escapes)
    yield start, end, text if inner is None else inner[0]
