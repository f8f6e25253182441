"""A byte dump with no offsets: `od -An` (`-x`, `-tx2`, `-tx4`, `-c`, `-tx1z`), what a script prints when it wants
the bytes alone. Each line is sixteen bytes: as 2- or 4-byte words in hex, little-endian as `od -x`'s are (`6870` is
`ph`; the last word padded with NULs), as cells four characters wide (a character, an escape, an octal
byte), or as hex bytes with the characters between `>` and `<` after them; the last line may hold fewer. With no
offsets to add up (`dumps`' check), a run of one kind's lines is read where every line but the last is whole and its
bytes are text that prints (UTF-8, no control characters but line breaks and tabs): a table of hex numbers is no
such text."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.forms.dumps import dumped_text, od_cells, words
from ec2audit.detect.views import Replacement

_CELL = r"(?:   [^\s]|  \\[0abfnrtv\\]| [0-3][0-7]{2}|    )"
#: kind → one line of it (the cells in group 1), read as its bytes: `-x`/`-tx2` (eight words of four digits), `-tx4`
#: (four of eight), `-c` (sixteen cells), `-tx1z` (sixteen bytes, then their characters); fewer on the last line
_KINDS: dict[str, tuple[re.Pattern, Callable[[str], bytes]]] = {
    "words": (re.compile(r"^((?: [0-9a-f]{4}){1,8})[ \t]*\r?$", re.M), words),
    "long words": (re.compile(r"^((?: [0-9a-f]{8}){1,4})[ \t]*\r?$", re.M), words),
    "characters": (re.compile(rf"^(?=.*\S)({_CELL}{{1,16}})\r?$", re.M), od_cells),  # (a line of blanks is none)
    "bytes": (re.compile(r"^((?: [0-9a-f]{2}){1,16}) +>[^\n]{0,16}<\r?$", re.M),
              lambda cells: bytes.fromhex(cells.replace(" ", ""))),
}
_WHOLE_LINE = 16  # bytes


def _prints(raw: bytes) -> bool:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return all(c.isprintable() or c in "\t\r\n" for c in text)


@register
class BareDumps(Form):
    name = "bare_dumps"
    #: four words of a line, two long words, a whole line of cells, eight bytes (every whole line holds them; a last
    #: line of fewer holds under 8 bytes, or sits next to a whole line)
    cue = rf"( [0-9a-f]{{4}}){{4}}|( [0-9a-f]{{8}}){{2}}|{_CELL}{{16}}|( [0-9a-f]{{2}}){{8}}"
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for line, read in _KINDS.values():
            end = -1
            for m in line.finditer(text):
                if m.start() <= end:  # (a line of the run read already)
                    continue
                start, end, raw = m.start(), m.end(), read(m.group(1))
                while len(raw) % _WHOLE_LINE == 0 and (n := line.match(text, end + 1)) is not None:
                    raw += read(n.group(1))
                    end = n.end()
                raw = raw.rstrip(b"\x00")  # (od pads the last word with NULs)
                if _prints(raw):
                    yield from dumped_text(start, end, bytearray(raw))
