"""Digits grouped the Indian way (lakh and crore): the last three digits, then groups of two, `₹4,86,000` for
486000 and `1,39,22,88,33,66` for a phone, as Indian locales, Excel's `en-IN` number format and Indian banks'
statements write them. The groups read joined, as a number written `486,000` does; a run inside a longer list of
comma-separated numbers (a CSV row) is no number and stays."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_GROUPED = re.compile(r"(?<![0-9,])[0-9]{1,2}(?:,[0-9]{2})+,[0-9]{3}(?![0-9]|,[0-9])")


@register
class LakhGrouping(Form):
    name = "lakh"
    cue = r"[0-9],[0-9]{2},[0-9]{3}"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "," not in text:
            return
        for m in _GROUPED.finditer(text):
            yield m.start(), m.end(), m.group().replace(",", "")
