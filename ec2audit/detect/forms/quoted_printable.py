"""Quoted-printable (RFC 2045): a mail body as a mail tool prints its raw source. Lines are cut at 76
characters by a soft line break (`=` at a line's end), inside a value as often as not, and every byte
outside printable ASCII is written `=XX` (`=E6=AC=A7` for 欧; `=3D` for "=" itself). A reader of the body
joins the lines and reads the bytes as UTF-8 (or, where the text declares a Latin-1 charset, as ISO-8859-1
letters where they are no UTF-8).

A run of `=XX` counts where its bytes are UTF-8 holding a character outside ASCII, or where it is one of the
ASCII characters an encoder must write so, where it must (`=3D` for "=", `=2E` for a "." that starts a line,
`=20` and `=09` for white space that ends one), or anywhere in a text that declares itself quoted-printable (a
`Content-Transfer-Encoding` header): `key=DEAD` or `salary=48` in a log line stays what it is, and so does a
logfmt `peer=2001:db8::1` (no space that ends a line: read as one, it hid the address from the forms that
read one)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# a soft line break: "=" at the end of a line, after a character of the line (not a space: an "=" that ends a
# statement or an assignment's line stands alone, `x =`)
_SOFT_BREAK = re.compile(r"=(?<=[^\s=]=)\r?\n")
# a run of `=XX`, soft breaks inside it (a character's bytes cut by one)
_OCTETS = re.compile(r"=[0-9A-F]{2}(?:(?:=\r?\n)?=[0-9A-F]{2})*")
_ESCAPED_ASCII = frozenset("=. \t")
#: what may follow a run of white space an encoder had to write: a line's end, a soft break, the text's end
_LINE_END = re.compile(r"=?\r?\n|\Z")
_DECLARED = re.compile(r"[cC](?i:ontent-transfer-encoding:[ \t]*quoted-printable)")
# a body's declared charset that is ISO-8859-1 or a superset of its letters (`key=CAFE` elsewhere stays); its
# first letter a class, as a case-insensitive literal gives the regex engine nothing to skip ahead to in C (no
# other character matches "c" ignoring case; 8 MB: 0.052 → 0.027 s)
_LATIN1_CHARSET = re.compile(r"[cC](?i:harset=\"?(?:iso-?8859-(?:1|15)|latin-?1|windows-1252|cp1252)\b)")


def decode_octets(run: str, latin1: bool = False) -> str | None:
    """What a run of `=XX` says: UTF-8, or else, in a text that declares a Latin-1 charset (`latin1`), ISO-8859-1
    where the bytes are letters (an older client's body: `Jos=E9`); None where it is no text."""
    raw = bytes.fromhex(_SOFT_BREAK.sub("", run).replace("=", ""))
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        decoded = raw.decode("latin-1")  # (not ASCII: a byte of 128 or more is what UTF-8 refused)
        return decoded if latin1 and all(c.isalpha() or c in _ESCAPED_ASCII for c in decoded) else None
    return decoded if (not decoded.isascii() and decoded.isprintable()) or set(decoded) <= _ESCAPED_ASCII else None


@register
class QuotedPrintable(Form):
    """No cue: whether Latin-1 bytes read as letters depends on a charset declared anywhere in the text."""

    name = "quoted_printable"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "=" not in text:
            return
        for m in _SOFT_BREAK.finditer(text):
            yield m.start(), m.end(), ""
        latin1 = _LATIN1_CHARSET.search(text) is not None
        declared: bool | None = None  # searched for once a run needs it (8 MB of code: 0.027 s)
        for m in _OCTETS.finditer(text):
            decoded = decode_octets(m.group(), latin1)
            if decoded is None or _where_written(text, m, decoded):
                if decoded is not None:
                    yield m.start(), m.end(), decoded
                continue
            if declared is None:
                declared = _DECLARED.search(text) is not None
            if declared:
                yield m.start(), m.end(), decoded


def _where_written(text: str, m: re.Match, decoded: str) -> bool:
    """Whether a run of `=XX` stands where an encoder writes it: any text outside ASCII, or "=" (`=3D`); white
    space only where it ends a line, a "." only where it starts one."""
    if not decoded.isascii():
        return True
    written = decoded.rstrip(" \t")
    if written != decoded and _LINE_END.match(text, m.end()) is None:
        return False
    if written.startswith(".") and (m.start() == 0 or text[m.start() - 1] == "\n"):
        written = written[1:]
    return set(written) <= {"="}
