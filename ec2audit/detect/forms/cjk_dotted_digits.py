"""Numbers with dots read out in Chinese digit by digit, 点 for the dot: an IP address said over the phone
(`一九二点一六八点三一点一零八`, 192.168.31.108), a version, a decimal. The digit view reads runs of Chinese
digits with ASCII separators only, and drops them; read as digits and dots, the run is the value as written."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, char_class, register
from ec2audit.detect.views import Replacement

_DIGITS = str.maketrans("〇零一二三四五六七八九幺点點．", "001234567891...")
_CJK_DIGIT = char_class(map(ord, "〇零一二三四五六七八九幺"))
_DIGIT = char_class(map(ord, "〇零一二三四五六七八九幺0123456789"))  # (ASCII digits too: `192点168`)
_CJK_DOT = "[点點．]"
# 点, or a dot written (the digit view drops it); a space either side, as a transcript may set the digits apart
_DOT = " ?[点點．.] ?"
# from a run's first digit, each run read whole (a long run of digits without a dot is tried once: linear time)
_DOTTED = re.compile(rf"(?<!{_DIGIT}){_DIGIT}++(?:{_DOT}{_DIGIT}++)+")
_MIN_DIGITS = 5  # fewer is a time or a small decimal said as words (三点一刻, 一点一), not a value read out


@register
class CjkDottedDigits(Form):
    name = "cjk_dotted_digits"
    # what the rewrite changes: a Chinese dot, a Chinese digit in a group before a dot or after one (`一一一1.1`),
    # a space beside a dot (`10 . 38 . 12 . 207`); a number is on one line
    cue = (f"{_DIGIT} ?{_CJK_DOT} ?{_DIGIT}|{_CJK_DIGIT}{_DIGIT}* ?\\. ?{_DIGIT}|{_DIGIT} ?\\. ?{_DIGIT}*{_CJK_DIGIT}"
           f"|{_DIGIT} [点點．.]|[点點．.] {_DIGIT}")
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if text.isascii():
            return
        for m in _DOTTED.finditer(text):
            number = m.group().replace(" ", "").translate(_DIGITS)
            if number != m.group() and sum(c.isdigit() for c in number) >= _MIN_DIGITS and not _line(text, m).isascii():
                yield m.start(), m.end(), number


def _line(text: str, m: re.Match) -> str:
    """The line a number stands on: spaced ASCII digits are read as one number on a line of Chinese text (the
    line, not the whole text: the cue's stretch is the line)."""
    return text[text.rfind("\n", 0, m.start()) + 1:len(text) if (end := text.find("\n", m.end())) < 0 else end]
