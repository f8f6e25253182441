"""Shares of a whole written as a ratio: a value that splits 100 % (`主播35%、公司65%`, `talent 35%, agency 65%`,
`40% equity / 60% debt`) is in a text that writes the same shares in the same order as `35/65`, `35:65`, `35-65`,
`35比65` or `35%/65%` (a deal sheet's `revenue share 35/65 (talent/agency)`): the same finding (1.0). Other
shares, or the same in the other order, are another split; a ratio that goes on (`35/65/10`) or is part of a
longer number or a date is another thing."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.exact import bounded
from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.views import ScanView

KIND = "ratios.split"
_PERCENT = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d+)?) ?%")
_SEPARATORS = ("/", ":", "-", " / ", " : ", " - ", "比", " 比 ", "对", "：")
_GOES_ON = re.compile(r"[/:\-]\d")  # a third share, a date's year
_CONTINUES = re.compile(r"\d[/:\-]")  # a share before the ratio, a date's day


def ratio_forms(value: str) -> list[str]:
    """The value's shares as a ratio, in their order, with and without their percent signs: `35/65`, `35%/65%`…
    for a value whose two or more percentages add up to 100."""
    shares = _PERCENT.findall(value)
    if len(shares) < 2 or abs(sum(float(s) for s in shares) - 100) > 0.01:
        return []
    return [sep.join(f"{s}{sign}" for s in shares) for sep in _SEPARATORS for sign in ("", "%")]


@register
class Ratios(Form):
    name = "ratios"
    kinds = (KIND,)

    def compile(self, index) -> None:
        # context: a number's boundaries (`bounded`, 40 characters and 2) and a share after the ratio
        self.compile_forms(index, {KIND: lambda cu: ratio_forms(cu.forms[0])}, context=42)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if bounded(text, start, end) and not _GOES_ON.match(text, end) \
                    and not _CONTINUES.match(text, max(0, start - 2), start):
                span = view.view.to_original(start, end)
                for i in units:
                    yield Hit(i, *span, "forms.ratio", LITERAL)
