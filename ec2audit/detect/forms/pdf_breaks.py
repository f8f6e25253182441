"""Values broken by PDF text extraction: a word hyphenated at a line end (`Kess-\\nler`), an e-mail address
broken before or after its "@" (`maria.kes\\nsler@example.com`, `maria@exam\\nple.com`), Chinese running
text wrapped at a fixed width (`安贞西\\n里四区`, `文三路90\\n号`). The rewrite joins the pieces; a number broken by a line
needs none (the digit view reads across white space)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_HYPHENATED = re.compile(r"(?<=[^\W\d_])-[ \t]*\r?\n[ \t]*(?=[^\W\d_A-Z])")
_BEFORE_AT = re.compile(r"(?<=[\w.+-])[ \t]*\r?\n[ \t]*(?=[\w.+-]+@[\w-]+\.[\w-])")
_IN_DOMAIN = re.compile(r"@[\w-]+(?:\.[\w-]+)*(\.?)([ \t]*\r?\n[ \t]*)(\.?)[\w-]+(?:\.[\w-]+)*")
_HAN_WRAP = re.compile(r"(?:(?<=[\u4e00-\u9fff])[ \t]*\r?\n[ \t]*(?=[\u4e00-\u9fff\d])"
                       r"|(?<=\d)[ \t]*\r?\n[ \t]*(?=[\u4e00-\u9fff]))")
_WRAP_WIDTH = 12  # a Chinese line at least this long that ends mid-text was wrapped, not ended


@register
class PdfBreaks(Form):
    name = "pdf_breaks"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\n" not in text:
            return
        if "-" in text:
            for m in _HYPHENATED.finditer(text):
                yield m.start(), m.end(), ""
        if "@" in text:
            for m in _BEFORE_AT.finditer(text):
                yield m.start(), m.end(), ""
            for m in _IN_DOMAIN.finditer(text):
                head = text[m.start():m.start(2)]
                if m.group(1) or m.group(3) or "." not in head:  # the part before the break is no domain yet
                    yield m.start(2), m.end(2), ""
        if not text.isascii():
            for m in _HAN_WRAP.finditer(text):
                line_start = text.rfind("\n", 0, m.start()) + 1
                if m.start() - line_start >= _WRAP_WIDTH:
                    yield m.start(), m.end(), ""
