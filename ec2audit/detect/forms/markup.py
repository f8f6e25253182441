"""Inline markup inside a value: a search tool's snippet (web search APIs, Elasticsearch's highlighter) wraps
the part of a value that matched the query in `<em>`, `<b>` or `<mark>`; a page a fetch tool read puts a word's
letters in `<span>`s. A reader of the rendered text sees the value whole; without the tags of inline (phrasing)
elements that only style the text, so do the tiers. Tags of elements that break the text (`<td>`, `<p>`, `<br>`,
`<li>`) stay: the cells of a row are two values, not one."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_PHRASING = ("a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins",
             "kbd", "mark", "nobr", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "tt", "u",
             "var", "wbr")
# an opening, closing or empty tag of a phrasing element whose attributes only style it: a tag with another
# (`<a href="tel:…">`, `title`, `data-*`) stays, or what the attribute holds would go unread inside an encoding
# (inside JSON text, as Go's encoder and others write it: `\u003c`, `\u003e` and `\"`, any number of backslashes).
# The opening tag's escape is written `\\*` after a literal backslash, not `\+`: a repeat first left the regex no
# first characters to skip ahead to in C (the 8 MB payload: 0.14 → 0.03 s a pass)
_OPEN, _CLOSE, _QUOTE = r"(?:<|\\\\*u003c)", r"(?:>|\\+u003e)", r"\\*\""
_STYLING = rf"(?:class|style|id|dir|lang)\s*=\s*(?:{_QUOTE}[^\"<>\\]*{_QUOTE}|'[^'<>]*'|[^\s\"'<>\\]+)"
_TAG = re.compile(rf"{_OPEN}/?(?:" + "|".join(sorted(_PHRASING, key=len, reverse=True))
                  + rf")(?:\s+{_STYLING})*\s*/?{_CLOSE}", re.I)


@register
class InlineMarkup(Form):
    """No cue: a tag's attributes may run across any number of lines."""

    name = "markup"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "<" not in text and "\\" not in text:
            return
        for m in _TAG.finditer(text):
            yield m.start(), m.end(), ""
