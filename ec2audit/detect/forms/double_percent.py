"""Percent-encoding applied twice: a URL carried inside another URL's query (`?next=…`, a redirect, a tracking
link) or encoded again by a client or a log writer has its `%` written `%25` (`lena.hartmann%2540example.org`,
`%25E6%25AC%25A7`). The decoded view undoes one round, token by token, and a `%25` alone reads as `%`; a reader
that decodes the URL twice reads the text: so do the tiers, where a run of `%25hh` escapes reads as the UTF-8 text
its bytes spell."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_RUN = re.compile(r"(?:%25[0-9A-Fa-f]{2})+")


@register
class DoublePercent(Form):
    name = "double_percent"
    cue = r"%25[0-9A-Fa-f]{2}"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "%25" not in text:
            return
        for m in _RUN.finditer(text):
            try:
                yield m.start(), m.end(), bytes.fromhex(m.group().replace("%25", "")).decode("utf-8")
            except UnicodeDecodeError:
                continue
