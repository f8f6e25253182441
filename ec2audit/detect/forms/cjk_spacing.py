"""Chinese text with a space between a Han character and a number (`田林东路 75 弄 21 号 604 室`, `2024 年 3 月`):
many writers and editors space Latin runs off Han text, and a value stored without the spaces (an address, a
date) then reads the same. The rewrite drops those spaces; a space between two numbers stays (`139 0112 7358`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_HAN = "\u4e00-\u9fff"
# the space first, so the engine skips ahead to spaces in C
_SPACE = re.compile(rf" (?:(?<=[{_HAN}] )(?=\d)|(?<=\d )(?=[{_HAN}]))")


@register
class CjkSpacing(Form):
    name = "cjk_spacing"
    cue = rf"[{_HAN}] [0-9]|[0-9] [{_HAN}]"  # the spaces themselves, on one line

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _SPACE.finditer(text):
            yield m.start(), m.end(), ""
