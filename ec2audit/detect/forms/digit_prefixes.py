"""The start of a grouped number cut short, with the value's own separators: `523-41-77` of the SSN 523-41-7786
("I can read 523-41-77 and then it's a blur"), `(503) 555-01` of a phone, `4929 1734 0061 38` of a card. Most of
the number (two thirds of its digits, six at least) in the value's own grouping: mostly there (0.7), as a masked
value showing as much is (`masked`). A prefix that goes on into other digits is another number."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.exact import bounded
from ec2audit.detect.finding import MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.views import ScanView

KIND = "digit_prefixes.prefix"
#: three groups or more (an area code in brackets one), apart by spaces or hyphens: the grouping is the value's shape.
#: (Dotted numbers are left out: a shorter IP address or version is another one, not one cut short.)
_GROUPED = re.compile(r"\+?\(?\d+\)?(?:[ \-]\(?\d+\)?){2,}")
_LEAST_DIGITS = 6
_GOES_ON = re.compile(r"[ \-./]?\d")
_CONTINUES = re.compile(r"\d[ \-./]?$")


def prefix_forms(cu: CompiledUnit) -> list[str]:
    """The value's starts cut after a digit that show two thirds of its digits or more (six at least), all but
    the whole: `523-41-77`, `523-41-778` of `523-41-7786`."""
    form = cu.forms[0]
    if cu.rules.fragment != "tail" or not _GROUPED.fullmatch(form):
        return []
    digits = sum(c.isdigit() for c in form)
    least = max(_LEAST_DIGITS, -(-2 * digits // 3))  # two thirds, rounded up
    cuts, seen = [], 0
    for k, c in enumerate(form[:-1]):
        seen += c.isdigit()
        if c.isdigit() and least <= seen < digits:
            cuts.append(form[:k + 1])
    return cuts


@register
class DigitPrefixes(Form):
    name = "digit_prefixes"
    kinds = (KIND,)
    tier = "partial"

    def compile(self, index) -> None:
        # context: a number's boundaries (`bounded`, 40 characters and 2) and a digit group after the match
        self.compile_forms(index, {KIND: prefix_forms}, context=42)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if bounded(text, start, end) and not _GOES_ON.match(text, end) \
                    and not _CONTINUES.search(text, max(0, start - 2), start):
                span = view.view.to_original(start, end)
                for i in units:
                    yield Hit(i, *span, "partial.prefix", MOSTLY)
