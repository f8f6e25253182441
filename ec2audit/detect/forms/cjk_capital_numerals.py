"""Chinese capital numerals (大写数字: 壹 贰 叁 … 柒 … 拾 佰 仟), written where a number must not be altered: a
cheque, an invoice, and certificates and records that print a grade or a stage so (`柒级伤残`, `矽肺壹期` for
矽肺一期). A reader reads them as the common numerals; the tiers read them so too.

陆 (六) and 伍 (五) are also family names (陆先生, 伍佰): either alone is read as a numeral only before a measure word
(`陆级`, `伍万元`); in a run with another capital numeral (`伍拾`) always."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, char_class, register
from ec2audit.detect.views import Replacement

_CAPITALS = "壹贰貳叁參肆伍陆陸柒捌玖拾佰仟"
_COMMON = str.maketrans(_CAPITALS, "一二二三三四五六六七八九十百千")
_SURNAMES = frozenset("陆陸伍")
_RUN = re.compile(char_class(map(ord, _CAPITALS + "零〇万萬亿億")) + "+")
_MEASURE = re.compile(r"[级級期型度类類等元圆圓角分万萬亿億岁歲年月日个個号號]")


@register
class CjkCapitalNumerals(Form):
    name = "cjk_capital_numerals"
    cue = char_class(map(ord, _CAPITALS))
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _RUN.finditer(text):
            run = m.group()
            capitals = [c for c in run if c in _CAPITALS]
            if not capitals or (set(capitals) <= _SURNAMES and len(capitals) == 1
                                and not _MEASURE.match(text, m.end())):
                continue
            yield m.start(), m.end(), run.translate(_COMMON)
