"""Text built from character codes in SQL: `CHAR(49)||CHAR(51)` (SQLite, Oracle's `CHR(…)||CHR(…)`),
`CONCAT(CHAR(49),CHAR(51))` and MySQL's `CHAR(49,51,56)`, SQL Server's `CHAR(49)+CHAR(51)` and `NCHAR(…)`: a query
log, an ORM's debug output, an injection payload a scanner found. A reader of the query reads the string; so do
the tiers, where a run of such calls spells text that prints: their codes as UTF-8 bytes where all are bytes and
decode so (MySQL's and SQL Server's `CHAR`), else as code points (`CHR`, `NCHAR`, SQLite's `CHAR`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_CALL = r"(?:N?CHAR|CHR)\([ \t]*[0-9]{1,7}(?:[ \t]*,[ \t]*[0-9]{1,7})*(?:[ \t]+USING[ \t]+\w+)?[ \t]*\)"
#: calls joined by `||`, `+`, `,` (inside `CONCAT(…)`) or `&` (Access), blanks and at most one line break around it
_RUN = re.compile(rf"{_CALL}(?:[ \t]*(?:\r?\n[ \t]*)?(?:\|\||[+,&])[ \t]*(?:\r?\n[ \t]*)?{_CALL})*", re.IGNORECASE)
_USING = re.compile(r"[ \t]+USING[ \t]+\w+", re.IGNORECASE)
_LEAST = 3  # codes: fewer spell no value


def spelled(codes: list[int]) -> str | None:
    """The text the codes spell (see the module's docstring), where it prints."""
    if len(codes) < _LEAST or max(codes) > 0x10FFFF or any(0xD800 <= c < 0xE000 for c in codes):
        return None
    try:
        text = bytes(codes).decode("utf-8") if max(codes) < 0x100 else "".join(map(chr, codes))
    except UnicodeDecodeError:
        text = "".join(map(chr, codes))  # Latin-1 code points, no UTF-8
    return text if all(c.isprintable() or c in "\t\n\r" for c in text) else None


@register
class SqlChars(Form):
    name = "sql_chars"
    cue = r"[cC][hH][aA]?[rR]\(\s*[0-9]"  # (a call, on one line; a run's calls each hold one)
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _RUN.finditer(text):
            decoded = spelled([int(c) for c in re.findall(r"[0-9]+", _USING.sub("", m.group()))])
            if decoded is not None:
                yield m.start(), m.end(), decoded
