"""Invisible characters inside a value: zero-width spaces and joiners, soft hyphens, word joiners, byte
order marks — every format character (Unicode category Cf) a renderer shows as nothing. A reader sees
the value; without them, so do the tiers."""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterator
from functools import cache

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement


@cache
def _format_characters() -> re.Pattern:
    chars = "".join(chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf")
    return re.compile(f"[{re.escape(chars)}]+")


@register
class InvisibleCharacters(Form):
    name = "invisible"

    def compile(self, index) -> None:
        _format_characters()  # built with the automaton, not on the first text

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if text.isascii():
            return
        for m in _format_characters().finditer(text):
            yield m.start(), m.end(), ""
