"""Chinese text with a number spaced off the Han characters on both sides (`田林东路 75 弄 21 号 604 室`,
`2024 年 3 月`): many writers and editors space Latin runs off Han text, and a value stored without the spaces
(an address, a date) then reads the same; a value stored spaced is read without them too (`despaced`). The
rewrite drops those two spaces; a number after a label alone (`手机 139 0112 7358`) stays as it is: the digit view
reads it already, and such labels are everywhere (a derived view for each would cost the scan a tenth more)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_HAN = "\u4e00-\u9fff"
_SPACED = re.compile(rf" (?<=[{_HAN}] )(\d+) (?=[{_HAN}])")  # the space first: the engine skips ahead in C


def despaced(text: str) -> str:
    """`text` with its numbers spaced off Han on both sides written without the spaces, as the rewrite reads them: a
    value stored spaced (`文三路 259 号 6 幢`) is compared with the text so."""
    return _SPACED.sub(r"\1", text)


@register
class CjkSpacing(Form):
    name = "cjk_spacing"
    cue = rf"[{_HAN}] [0-9]+ [{_HAN}]"  # the spaced number itself, on one line

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _SPACED.finditer(text):  # each space dropped on its own: the number keeps its offsets
            yield m.start(), m.start() + 1, ""
            yield m.end() - 1, m.end(), ""
