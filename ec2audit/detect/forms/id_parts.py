"""A Chinese resident ID number (身份证, GB 11643) given in its parts: its region code (the first six digits) and the
holder's birth date (digits 7–14) said apart, next to a word naming an ID, in any of a date's forms
("身份证是1966年5月3日出生那一段，前面是330106", "ID region 330106, DOB 03/05/1966"): together they are a piece of
the number, as the authors grade its start or end (0.3). The birth date alone is anyone's date of birth (another
unit's, or a stranger's born that day), and the region code inside a longer number is another ID from the same
district (a spouse's): neither is a piece. (A region named as its place, 杭州西湖区 for 330106, needs the GB/T 2260
table, which is not shipped: only its digits are read.)"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from ec2audit.detect.finding import FRAGMENT, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.forms.dates import date_bounded, date_forms
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "id_parts.birth"
_RESIDENT_ID = re.compile(r"(\d{6})(\d{4})(\d{2})(\d{2})\d{3}[\dx]")
_PARTS_WINDOW = 60  # characters between the birth date and the region code in one sentence or row
#: the rest of a whole ID number after its region code, in any separators (`~`, `\,`, `·`): another person's ID
#: from the same district born the same day (the exact tier finds this one's), not this one's parts
_REST_OF_ID = r"[^\w\n]{1,3}\d{8}[^\w\n]{0,3}\d{3}[\dx]"
#: what says the two are an ID's (an order number and a date are not)
_ID_WORDS = re.compile(r"身份证|证件|身份号|户籍|户口|行政区划|区划码|地区码|\bid\b|identity|\bresident\b|\bregion")


def id_parts(value: str) -> tuple[str, dt.date] | None:
    """(region code, birth date) of a value that is an 18-character resident ID number (separators allowed)."""
    m = _RESIDENT_ID.fullmatch(re.sub(r"[\s-]", "", normalize_text(value)))
    if m is None:
        return None
    try:
        return m.group(1), dt.date(int(m.group(2)), int(m.group(3)), int(m.group(4)))
    except ValueError:
        return None


@register
class IdParts(Form):
    name = "id_parts"
    kinds = (KIND,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        self._regions: dict[int, re.Pattern] = {}
        for i, cu in enumerate(self.units):
            parts = id_parts(cu.unit.value) if cu.rules.name == "government_id" else None
            if parts is not None:
                self._regions[i] = re.compile(rf"(?<![\d.-]){parts[0]}(?![\d.-]|[\s-]?\d)(?!{_REST_OF_ID})")
                for form in date_forms(parts[1]):
                    index.add(form, KIND, i)
        self.reach = self.bound(index, _PARTS_WINDOW + 8)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if not date_bounded(text, start, end):
                continue
            lo, hi = max(0, start - _PARTS_WINDOW), end + _PARTS_WINDOW
            if not _ID_WORDS.search(text, lo, hi):
                continue
            for i in units:
                region = self._regions[i].search(text, lo, hi)
                if region is not None:
                    span = view.view.to_original(min(start, region.start()), max(end, region.end()))
                    yield Hit(i, *span, "partial.fragment", FRAGMENT, 0.6)
