"""Dates (of birth, of admission, of a hearing) in the forms people write them: `1987-03-08`, `03/08/1987`
(US), `08/03/1987` and `08.03.1987` (day first), `March 8, 1987`, `8 Mar 1987`, `8th of March 1987`,
`1987年3月8日`, with the year in two digits (`03/08/87`, `08.03.87`), in Han numerals (`一九八七年三月八日`), in the
Republic of China's years as Taiwan writes them
(`民國76年3月8日`, `民國七十六年三月八日`: 1987 is year 76) and in Japan's era years (`昭和62年3月8日`,
`S62.3.8`), with the month named in another European language (`8. März 1987`, `8 de marzo de 1987`,
`8 marca 1987`), and in ISO with a time after it (`1987-03-08T09:30`). A unit is a date when its value reads as
one without doubt (year first, a month name, Chinese, day-first with dots, or a slash date whose day is over 12);
every form of it then counts as the value (1.0). A date inside a longer number (an ID holding the birth date,
`19870308` in `330106198703081234`) is not one."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import ScanView

KIND = "date"
_MONTHS = {name.lower(): k for k, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): k for k, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_YEAR_FIRST = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})|(\d{4})年(\d{1,2})月(\d{1,2})[日号]?")
_DAY_FIRST = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")
_SLASHED = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_NAMED = re.compile(r"(?:(\d{1,2})(?:st|nd|rd|th)?(?: of)? ([a-z]+)\.?,? (\d{4}))"
                    r"|(?:([a-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4}))")


def parse_date(value: str) -> dt.date | None:
    """The date a whole value stands for, when it reads as one date only."""
    text = normalize_text(value).strip()
    try:
        if m := _YEAR_FIRST.fullmatch(text):
            y, mo, d = (m.group(1, 2, 3) if m.group(1) else m.group(4, 5, 6))
            return dt.date(int(y), int(mo), int(d))
        if m := _DAY_FIRST.fullmatch(text):
            return dt.date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
        if m := _SLASHED.fullmatch(text):
            a, b, y = map(int, m.groups())
            if (a > 12) == (b > 12):  # 03/08/1987: March or August, who can say
                return None
            return dt.date(y, b, a) if a > 12 else dt.date(y, a, b)
        if m := _NAMED.fullmatch(text):
            d, name, y = m.group(1, 2, 3) if m.group(1) else (m.group(5), m.group(4), m.group(6))
            return dt.date(int(y), _MONTHS[name], int(d)) if name in _MONTHS else None
    except ValueError:
        return None
    return None


def _ordinal(d: int) -> str:
    return f"{d}{'th' if 10 <= d % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(d % 10, 'th')}"


def date_forms(date: dt.date) -> list[str]:
    """The date's written forms, as the text view reads them (lower case)."""
    y, m, d = date.year, date.month, date.day
    mm, dd = f"{m:02d}", f"{d:02d}"
    month, mon = calendar.month_name[m].lower(), calendar.month_abbr[m].lower()
    forms = [f"{y}{sep}{a}{sep}{b}" for sep in "-/." for a, b in ((mm, dd), (m, d))]
    forms += [f"{y}{mm}{dd}", f"{y}年{m}月{d}日", f"{y}年{mm}月{dd}日", f"{y}年{m}月{d}号"]
    forms += _han_forms(y, m, d)
    forms += _foreign_forms(y, m, d)
    forms += [f"{a}{sep}{b}{sep}{y}" for sep in "/.-" for a, b in ((mm, dd), (m, d), (dd, mm), (d, m))]
    forms += _short_year_forms(y % 100, m, d)
    for name in dict.fromkeys((month, mon, "sept" if m == 9 else mon)):
        for day in (str(d), _ordinal(d)):
            forms += [f"{name} {day}, {y}", f"{name} {day} {y}", f"{day} {name} {y}", f"{day} of {name} {y}"]
        forms += [f"{name}. {d}, {y}", f"{d} {name}. {y}", f"{dd} {name} {y}", f"{d}-{name}-{y}", f"{dd}-{name}-{y}"]
    return list(dict.fromkeys(forms))


def _short_year_forms(yy: int, m: int, d: int) -> list[str]:
    """The date with its year in two digits, as forms and records write a date of birth (`03/14/79`, `14.03.79`,
    `3/14/79`): month and day padded with any separator, unpadded with slashes only (`1.2.85` is a version)."""
    mm, dd = f"{m:02d}", f"{d:02d}"
    padded = [f"{a}{sep}{b}{sep}{yy:02d}" for sep in "/.-" for a, b in ((mm, dd), (dd, mm))]
    return padded + [f"{a}/{b}/{yy:02d}" for a, b in ((m, d), (d, m))]


#: month names of the languages a translated record is written in, January first (lower case, as the text view)
_FOREIGN_MONTHS = {
    "de": "januar februar märz april mai juni juli august september oktober november dezember",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
    # Polish and Czech name the month of a date in the genitive ("24 grudnia 1987", "24. prosince 1987")
    "pl": "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia",
    "cs": "ledna února března dubna května června července srpna září října listopadu prosince",
    "sv": "januari februari mars april maj juni juli augusti september oktober november december",
    "tr": "ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık",
}


def _foreign_forms(y: int, m: int, d: int) -> list[str]:
    """The date with its month named in German, French, Spanish, Portuguese, Italian, Dutch, Polish, Czech, Swedish
    or Turkish, as each writes it: `24. dezember 1987`, `24 décembre 1987` (`1er`), `24 de diciembre de 1987`."""
    forms = []
    for language, months in _FOREIGN_MONTHS.items():
        name = months.split()[m - 1]
        forms += [f"{d} {name} {y}", f"{d:02d} {name} {y}"]
        if language in ("de", "cs"):
            forms += [f"{d}. {name} {y}", f"{d:02d}. {name} {y}"]
        elif language in ("es", "pt"):
            forms += [f"{d} de {name} de {y}", f"{d:02d} de {name} de {y}"]
        elif language == "fr" and d == 1:
            forms.append(f"1er {name} {y}")
    return forms


_HAN_DIGITS = "〇一二三四五六七八九"
_ROC_EPOCH = 1911  # year 1 of the Republic of China (民國) is 1912
#: Japan's eras since 1868, latest first: name, the letter forms abbreviate it by, first day
_ERAS = (("令和", "r", dt.date(2019, 5, 1)), ("平成", "h", dt.date(1989, 1, 8)), ("昭和", "s", dt.date(1926, 12, 25)),
         ("大正", "t", dt.date(1912, 7, 30)), ("明治", "m", dt.date(1868, 10, 23)))


def han_number(n: int) -> str:
    """1–199 in Han numerals as a date writes them: 十四, 二十, 七十九, 一百一十三."""
    hundreds, rest = divmod(n, 100)
    tens, units = divmod(rest, 10)
    out = _HAN_DIGITS[hundreds] + "百" if hundreds else ""
    if tens:
        out += ("" if tens == 1 and not hundreds else _HAN_DIGITS[tens]) + "十"
    elif hundreds and units:
        out += "零"
    return out + (_HAN_DIGITS[units] if units else "")


def _han_forms(y: int, m: int, d: int) -> list[str]:
    """The date in Han numerals (the year digit by digit, 〇 or 零 for zero), in the Republic of China's years
    (民国, as the text view folds 民國) and in its Japanese era's (平成2年, 平成元年, `H2.2.14`), in Arabic or Han
    numerals."""
    month_day = [f"{m}月{d}{day}" for day in "日号"] + [f"{han_number(m)}月{han_number(d)}{day}" for day in "日号"]
    years = ["".join(_HAN_DIGITS[int(c)] for c in str(y))]
    years.append(years[0].replace("〇", "零"))
    forms = [f"{year}年{md}" for year in dict.fromkeys(years) for md in month_day[2:]]
    if (roc := y - _ROC_EPOCH) > 0:
        forms += [f"民国{year}年{md}" for year in (str(roc), han_number(roc)) for md in month_day]
    era = next(((name, letter, y - first.year + 1) for name, letter, first in _ERAS
                if dt.date(y, m, d) >= first), None)
    if era is not None:
        name, letter, year = era
        written = [str(year), han_number(year)] + (["元"] if year == 1 else [])
        forms += [f"{name}{w}年{md}" for w in written for md in month_day]
        forms += [f"{letter}{a}.{b}.{c}" for a, b, c in ((year, m, d), (f"{year:02d}", f"{m:02d}", f"{d:02d}"))]
    return forms


_NUMBER_GLUE = "./-"


def date_bounded(text: str, start: int, end: int) -> bool:
    """Not inside a longer number or Latin word (Chinese runs on into a date: "生于1987年3月8日"); a time may follow
    an ISO date (`1987-03-08t09:30`)."""
    if start and (_in_number_or_word(text[start - 1]) or (text[start - 1] in _NUMBER_GLUE and start > 1
                                                and text[start - 2].isdigit())):
        return False
    if end < len(text):
        after = text[end]
        if after.isdigit() or (after in _NUMBER_GLUE and text[end + 1:end + 2].isdigit()):
            return False
        if after.isalpha() and after.isascii() and not (after == "t" and text[end + 1:end + 2].isdigit()):
            return False
    return True


def _in_number_or_word(ch: str) -> bool:
    return ch.isdigit() or ch in _HAN_DIGITS or ch in "十百零" or (ch.isalpha() and ch.isascii())


@register
class Dates(Form):
    name = "dates"
    kinds = (KIND,)

    def compile(self, index) -> None:
        for i, cu in enumerate(self.units):
            if (date := parse_date(cu.unit.value)) is not None:
                for form in date_forms(date):  # the value's own form too: the exact tier wants no time after it
                    index.add(form, KIND, i)
        self.reach = self.bound(index, 2)  # the characters right around the date

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if date_bounded(text, start, end):
                span = view.view.to_original(start, end)
                for i in units:
                    yield Hit(i, *span, "forms.date", LITERAL)
