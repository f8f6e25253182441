"""Digits of other scripts: Arabic-Indic (`١٣٩`), Persian (`۱۳۹`), Devanagari (`१३९`), Bengali, Thai and the
rest of Unicode's decimal digits (category Nd), which NFKC leaves as they are. A phone number or an ID typed on
a phone set to Arabic, or printed by a system localised so, is the same number; written in ASCII digits, the
number tiers read it."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import cache

from ec2audit.detect.forms import Form, char_class, register
from ec2audit.detect.views import Replacement


@cache
def _digit_run() -> re.Pattern:
    """Runs of decimal digits outside ASCII (of the Basic Multilingual Plane: astral ones would slow the search
    on every non-ASCII text, as invisible.py finds). Full-width digits are NFKC's, read already."""
    codes = (c for c in range(0x80, 0x10000) if unicodedata.category(chr(c)) == "Nd" and not 0xFF10 <= c <= 0xFF19)
    return re.compile(char_class(codes) + "+")


@register
class ScriptDigits(Form):
    name = "digits"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if text.isascii():
            return
        for m in _digit_run().finditer(text):
            yield m.start(), m.end(), "".join(str(unicodedata.decimal(c)) for c in m.group())
