"""Digits of other scripts: Arabic-Indic (`١٣٩`), Persian (`۱۳۹`), Devanagari (`१३९`), Bengali, Thai and the
rest of Unicode's decimal digits (category Nd), which NFKC leaves as they are. A phone number or an ID typed on
a phone set to Arabic, or printed by a system localised so, is the same number; written in ASCII digits, the
number tiers read it."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from ec2audit.detect.forms import Form, decimal_class, register
from ec2audit.detect.views import Replacement

# a decimal digit (Unicode category Nd, a category test the regex engine makes in C) that is no ASCII digit and
# no full-width one (NFKC's, read already)
_DIGIT_RUN = re.compile(r"[^\D0-9\uff10-\uff19]+")


@register
class ScriptDigits(Form):
    name = "digits"
    #: one such digit, as a class of the code points Python reads so (Vectorscan's Unicode tables may be older)
    cue = decimal_class(lambda ch: _DIGIT_RUN.fullmatch(ch) is not None)
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if text.isascii():
            return
        for m in _DIGIT_RUN.finditer(text):
            yield m.start(), m.end(), "".join(str(unicodedata.decimal(c)) for c in m.group())
