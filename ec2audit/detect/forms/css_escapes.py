"""Characters written as CSS escapes: a backslash, one to six hex digits of the code point, and one optional
whitespace character that ends the escape (CSS Syntax 3, § 4.3.7). A stylesheet's `content: "\\6b27\\9633"`, a
selector for an id that starts with a digit (`#\\31 3922…`, as `CSS.escape` and minifiers write it), a value
escaped by a sanitiser: a reader reads the characters; so do the tiers, each escape standing for its character
where it prints. An escape of three octal digits with no whitespace after it is `octal_escapes`' C escape, and a
one-digit escape needs its whitespace (a regex's `\\b` or `\\d` is no character)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_ESCAPE = re.compile(r"\\([0-9a-fA-F]{2,6}|[0-9a-fA-F](?=[ \t\n]))(\r\n|[ \t\n\f])?")
_OCTAL = re.compile(r"[0-3][0-7]{2}")
_MAX = 0x10FFFF


def character(digits: str) -> str | None:
    """The character a CSS escape's hex digits stand for, where it is one that prints."""
    code = int(digits, 16)
    if not 0x20 <= code <= _MAX or 0xD800 <= code < 0xE000:
        return None
    return chr(code) if chr(code).isprintable() else None


@register
class CssEscapes(Form):
    name = "css_escapes"
    cue = r"\\[0-9a-fA-F]{2}|\\[0-9a-fA-F][ \t\n]"  # (an escape, on one line but its ending line break)
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\\" not in text:
            return
        for m in _ESCAPE.finditer(text):
            digits, ending = m.groups()
            if ending is None and _OCTAL.fullmatch(digits):
                continue
            decoded = character(digits)
            if decoded is not None:
                yield m.start(), m.end(), decoded
