"""Whole numbers in scientific notation, as spreadsheets and data tools print them: Excel's General format shows a
number too wide for its column as `4.86E+05` (a CSV or `.xlsx` export, a phone stored as a number:
`1.3922883366E+10`), pandas, R, C's `%g` and Python print `4.86e+05`. A reader reads the number: where the
mantissa times its power of ten is a whole number, the notation reads as its digits (`486000`). A mantissa with
more decimals than its exponent (`2.25E+01`) is no whole number and stays; so does an exponent without its `+`
(`1.5e-3`; Java's `1.3922883366E10`, whose mantissa holds the digits whenever the number ends in no zero): the `+`
is the literal that a text without one is passed over by."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

#: the least exponent read: a thousand and up (smaller whole numbers are no unit's value)
_LEAST_EXPONENT = 3
# a positive exponent of one or two digits after a digit and an `e` (the `+` first: the regex engine skips ahead to
# it in C), then its mantissa before it (one digit, its decimals), neither inside a longer token (`0x1e+5`,
# `v1.2e+10`, `1.2.3e+4`)
_EXPONENT = re.compile(r"\+(?<=[0-9][Ee]\+)([0-9]{1,2})(?!\w|\.[0-9])")
_MANTISSA = re.compile(r"[0-9](?:\.[0-9]{1,20})?\Z")
_LONGEST_MANTISSA = 22


@register
class ScientificNotation(Form):
    name = "scientific"
    cue = r"[0-9][Ee]\+[0-9]"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "+" not in text:
            return
        for m in _EXPONENT.finditer(text):
            mantissa = _MANTISSA.search(text, max(0, m.start() - 1 - _LONGEST_MANTISSA), m.start() - 1)
            exponent = int(m.group(1))
            if mantissa is None or exponent < _LEAST_EXPONENT or _inside_token(text, mantissa.start()):
                continue
            whole, _, decimals = mantissa.group().partition(".")
            if len(decimals) <= exponent:
                yield mantissa.start(), m.end(), whole + decimals + "0" * (exponent - len(decimals))


def _inside_token(text: str, start: int) -> bool:
    return start > 0 and (text[start - 1].isalnum() or text[start - 1] in "._")
