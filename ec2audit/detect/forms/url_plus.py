"""A link whose path or query writes a name's spaces as `+` and its other letters percent-encoded: Google Maps'
`/maps/place/Jos%C3%A9+N%C3%BA%C3%B1ez`, a search page's `?q=Jos%C3%A9+N%C3%BA%C3%B1ez`, a site's slug
`/people/José+Núñez`, what `quote_plus` makes of a name. Words of letters and encoded bytes joined by `+`, after a `/`
or an `=`, read as `unquote_plus` reads them; the decoders read a `+` only between plain letters after an `=`
(`views._plus_spaces`), and their percent-decoding keeps a `+` between two encoded words (`José+Núñez`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote_plus

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_WORD = r"(?:[^\W\d_]|%[0-9A-Fa-f]{2})+"
# the `/` or `=`, which the regex engine skips ahead to in C, then words joined by `+`, the last one whole
_SEGMENT = re.compile(rf"[/=]({_WORD}(?:\+{_WORD})+)(?![\w%+])")


@register
class UrlPlus(Form):
    name = "url_plus"
    cue = r"[/=][^\s/=+]*\+"  # (a segment, on one line)
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "+" not in text:
            return
        for m in _SEGMENT.finditer(text):
            try:
                words = unquote_plus(m.group(1), errors="strict")
            except UnicodeDecodeError:
                continue
            if "%" in m.group(1) or "=" != text[m.start()]:  # (plain letters after `=`: the decoders' already)
                if all(c.isalpha() or c == " " for c in words):
                    yield m.start(1), m.end(1), words
