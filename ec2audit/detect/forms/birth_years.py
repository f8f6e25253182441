"""The year of a date of birth after words that say it is one (`born 2008`, `b. 1987`, `year of birth: 1987`,
`1987年出生`, `生于1987年`): a fragment (0.3), as a person's age is. Only for a unit whose field names a birth; a year
that a month or a day follows (`born 2008-03-01`, `1987年3月`) is a whole date, this one or another."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import FRAGMENT, Hit
from ec2audit.detect.forms import Form, mentions, register
from ec2audit.detect.forms.dates import parse_date
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "birth_years.year"
_BIRTH_FIELD = re.compile(r"birth|\bdob\b|born|出生|生日")
_MORE_DATE = re.compile(r"\d|[-/.]\s?\d|年?\d{1,2}月|\s?年\s?\d")


def birth_year_forms(year: int) -> list[str]:
    """The year after (or, in Chinese, before) the words for a birth."""
    forms = [f"{w} {year}" for w in ("born", "born in", "b.", "year of birth", "year of birth:", "birth year",
                                     "birth year:", "yob", "yob:")]
    return forms + [f"{year}年生", f"{year}年出生", f"生于{year}年", f"出生于{year}年", f"出生年份:{year}",
                    f"出生年份 {year}"]


@register
class BirthYears(Form):
    name = "birth_years"
    kinds = (KIND,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        for i, cu in enumerate(self.units):
            field = cu.unit.field.lower().replace("_", " ")
            if _BIRTH_FIELD.search(field) and (date := parse_date(cu.unit.value)) is not None:
                for form in birth_year_forms(date.year):
                    index.add(form, KIND, i)
        self.reach = self.bound(index, 4)  # the characters right around the year

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        return mentions(view, KIND, decided, _year_alone, "partial.fragment", FRAGMENT, 0.6)


def _year_alone(text: str, start: int, end: int) -> bool:
    """Not inside a word (`unborn`) nor a number, and no month or day after the year."""
    return not ((start and text[start - 1].isascii() and text[start - 1].isalnum()) or _MORE_DATE.match(text, end))
