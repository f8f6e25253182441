"""Amounts in locale formats the exact tier's forms (`amount_forms`) leave out: a decimal comma without
grouping (`12480,50 EUR`), thousands grouped with dots and no cents (`2.315.000` — only from a million up:
`74.500` reads as 74.5 elsewhere), with spaces or apostrophes (`1 250,00 €`, `2 315 000`, `CHF 1'250.00`),
a grouped figure before 万/亿 (`3,280万`), a JSON float's one decimal (`48250.0`), and the amount in minor units where
the text says so (`125000p` for £1,250.00, `"amount_cents": 125000`, `12500000分`).
The number must stand alone and, where a currency is written next to it, be in the value's currency."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal

from ec2audit.detect.exact import bounded
from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.normalize import currency_next_to
from ec2audit.detect.views import ScanView

KIND, MINOR = "amount.locale", "amount.minor"
#: a minor unit's names after a number, by the currency it divides
_MINOR_NAMES = {"gbp": r"p|pence", "cny": r"分", **dict.fromkeys(("usd", "eur", "cad", "aud", "nzd", "sgd", "hkd"),
                                                                 r"c|¢|cents?")}
_MINOR_AFTER = {currency: re.compile(rf" ?(?:{names})(?![a-z])") for currency, names in _MINOR_NAMES.items()}
#: a field's name saying its number is in minor units ("amount_pence: ", "amountMinor=", "price_in_cents": )
_MINOR_KEY = re.compile(r"(?:pence|cents|minor)[^0-9a-z]{0,3}$")


def minor_end(text: str, start: int, end: int, currency: str | None) -> int | None:
    """Where the number at `start:end` of the text view ends with the name of `currency`'s minor unit after it
    ("125000p"), or `end` where a field's name before it says so; None where the text does not say it is in minor
    units."""
    after = _MINOR_AFTER.get(currency or "")
    named = after.match(text, end) if after else None
    return named.end() if named else end if currency and _MINOR_KEY.search(text, max(0, start - 8), start) else None


def locale_forms(key: int) -> list[str]:
    """The forms of an amount (in hundredths) in other locales' grouping, as the text view reads them."""
    value = Decimal(key) / 100
    whole = value == value.to_integral_value()
    grouped = f"{value:,.2f}"  # "1,250.00"
    integer = grouped.split(".")[0]
    forms = [grouped.replace(",", " ").replace(".", ","), grouped.replace(",", "'"), f"{value:.2f}".replace(".", ",")]
    if value * 10 == (value * 10).to_integral_value():  # a float as JSON writes it: "48250.0", "1250.5"
        forms.append(f"{value:.1f}")
    if whole:
        forms += [integer.replace(",", "'"), integer.replace(",", "’")]
        if integer.count(",") >= 2:  # a million and up: dots can only group thousands
            forms += [integer.replace(",", "."), integer.replace(",", " ")]
    for scale, unit in ((10**4, "万"), (10**8, "亿")):
        scaled = value / scale
        if scaled >= 1000 and scaled == scaled.to_integral_value():
            forms += [f"{int(scaled):,}{unit}", f"{int(scaled):,} {unit}"]
    return [f for f in dict.fromkeys(forms) if "," in f or "." in f or " " in f or "'" in f or "’" in f]


@register
class LocaleAmounts(Form):
    name = "amounts"

    kinds = (KIND, MINOR)

    def compile(self, index) -> None:
        for i, cu in enumerate(self.units):
            if cu.amount is not None:
                for form in locale_forms(cu.amount):
                    index.add(form, KIND, i)
                index.add(str(cu.amount), MINOR, i)
        self.reach = self.bound(index, 42)  # number boundaries (`bounded`): 40 characters and 2

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        for i, start, end in priced(view, decided, self.kinds, MINOR, lambda i: self.units[i].currency, minor_end):
            yield Hit(i, *view.view.to_original(start, end), "forms.amount", LITERAL)


def priced(view: ScanView, decided: set[int], kinds: Sequence[str], minor: str, currency: Callable[[int], str | None],
           minor_stop: Callable[[str, int, int, str | None], int | None]) -> Iterator[tuple[int, int, int]]:
    """(unit, start, end) of each match of `kinds` that stands as its unit's amount: a whole number (`bounded`; a
    match of the `minor` kind read to where `minor_stop` says its minor unit ends, or none where nothing says so), no
    other currency than the unit's (`currency`) beside it."""
    text = view.view.text
    for kind in kinds:
        for start, end, units in matched(view, kind, decided):
            other = currency_next_to(text, start, end)
            for i in units:
                unit_currency = currency(i)
                stop = minor_stop(text, start, end, unit_currency) if kind == minor else end
                if stop is not None and bounded(text, start, stop) and not (
                        unit_currency and other and other != unit_currency):
                    yield i, start, end
