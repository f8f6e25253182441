"""Bytes written as three-digit octal escapes: `printf '\\154\\145\\156\\141'`, bash's `$'…'` quoting and
`printf %q` in the C locale, `echo -e '\\0154'`, C and Python string literals, `od -b`'s and `strings`' escapes.
The views read such a run where it holds a UTF-8 lead byte (git's quoted paths); a run of ASCII written so is
the same text to a shell or a compiler, and to a reader of it: decoded as UTF-8 where it is that. Inside bash's
`$'…'` a single escape counts too (`$'lena\056hartmann'`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# two or more escapes in a row (`\\0` alone is a NUL in C, `\\1` a regex's back-reference), echo's `\\0nnn` too
_RUN = re.compile(r"\\0?[0-3][0-7]{2}(?:\\0?[0-3][0-7]{2})+")
_ESCAPE = re.compile(r"\\0?([0-3][0-7]{2})")
# bash's ANSI-C quoting: what it holds, up to the closing quote (`\\'` is a quote inside)
_ANSI_C = re.compile(r"\$'((?:[^'\\\n]|\\.)*)'")


@register
class OctalEscapes(Form):
    name = "octal_escapes"
    cue = r"\\0?[0-3][0-7]{2}\\|\$'"  # (a run, a quoted string: each on one line)
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\\" not in text:
            return
        runs = (_RUN.finditer(text), (m for m in _ANSI_C.finditer(text) if _ESCAPE.search(m.group(1))))
        for m in (m for found in runs for m in found):
            try:  # the escapes as bytes, and what is between them as UTF-8
                decoded = b"".join(bytes([int(part, 8)]) if i % 2 else part.encode()
                                   for i, part in enumerate(_ESCAPE.split(m.group(m.lastindex or 0))))
                plain = decoded.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if plain.isprintable():
                yield m.start(), m.end(), plain
