"""Values broken by PDF text extraction: a word hyphenated at a line end (`Kess-\\nler`), an e-mail address
broken before or after its "@" (`maria.kes\\nsler@example.com`, `maria@exam\\nple.com`), Chinese running
text wrapped at a fixed width (`安贞西\\n里四区`, `文三路90\\n号`). The rewrite joins the pieces; a number broken by
a line needs none (the digit view reads across white space)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, decimal_class, register
from ec2audit.detect.views import Replacement

# each starts with a literal character, so the regex engine skips ahead to it in C; what stands before the
# line break is checked on the few matches
_HYPHENATED = re.compile(r"-\r?\n(?=[^\W\d_A-Z])")
_BEFORE_AT = re.compile(r"\n(?=[\w.+-]+@[\w-]+\.[\w-])")
_IN_DOMAIN = re.compile(r"@[\w-]+(?:\.[\w-]+)*(\.?)(\r?\n)(\.?)[\w-]+(?:\.[\w-]+)*")
_HAN_WRAP = re.compile(r"\n(?=[\u4e00-\u9fff0-9])")
_LETTER = re.compile(r"[^\W\d_]")
_HANDLE_CHAR = re.compile(r"[\w.+-]")
# a line ending in a number (an ID, a phone) before an address's line: a list's two lines, no address cut
_NUMBER_BEFORE = re.compile(r"(?<![\w.+-])\d+$")
_WRAP_WIDTH, _WIDTH_SLACK = 12, 2


@register
class PdfBreaks(Form):
    name = "pdf_breaks"
    #: a hyphen before a break; a handle, or a domain's start, after one; a domain before one; a break after a Han
    #: character or a digit (`str.isdigit`) before a Han character. Each change is a break, decided by its own
    #: line, the one before and the one after (the cue ends on the line after the break)
    cue = (r"-\r?\n|\n[^\s@]+@|@[^\s@]*\r?\n|[\u4e00-\u9fff]\r?\n[\u4e00-\u9fff0-9]"
           f"|{decimal_class(str.isdigit)}\r?\n[\u4e00-\u9fff]")
    cue_lines = 2

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\n" not in text:
            return
        if "-\n" in text or "-\r\n" in text:
            for m in _HYPHENATED.finditer(text):
                if m.start() and _LETTER.match(text[m.start() - 1]):
                    yield m.start(), m.end(), ""
        if "@" in text:
            for m in _BEFORE_AT.finditer(text):
                start = m.start() - (text[m.start() - 1:m.start()] == "\r")
                if start and _HANDLE_CHAR.match(text[start - 1]) and \
                        not _NUMBER_BEFORE.search(text, max(0, start - 40), start):
                    yield start, m.end(), ""
            for m in _IN_DOMAIN.finditer(text):
                head = text[m.start():m.start(2)]
                if m.group(1) or m.group(3) or "." not in head:  # the part before the break is no domain yet
                    yield m.start(2), m.end(2), ""
        if not text.isascii():
            for m in _HAN_WRAP.finditer(text):
                start = m.start() - (text[m.start() - 1:m.start()] == "\r")
                before, after = text[start - 1:start], text[m.end()]
                if (_is_han(before) or (before.isdigit() and _is_han(after))) and _wrapped(text, start):
                    yield start, m.end(), ""


def _wrapped(text: str, end: int) -> bool:
    """Is the line ending at `end` one of a fixed-width wrap: at least `_WRAP_WIDTH` long, and as long as
    the line before or after it (give or take `_WIDTH_SLACK`)? Lines of prose end where their author ended
    them, at any length."""
    start = text.rfind("\n", 0, end) + 1
    width = end - start
    if width < _WRAP_WIDTH:
        return False
    before = text.rfind("\n", 0, max(0, start - 1)) + 1 if start else None
    after = text.find("\n", end + 1)
    widths = [start - 1 - before] if before is not None else []
    widths.append((len(text) if after < 0 else after) - end - 1)
    return any(abs(w - width) <= _WIDTH_SLACK for w in widths)


def _is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"
