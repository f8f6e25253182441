"""Amounts in locale formats the exact tier's forms (`amount_forms`) leave out: a decimal comma without
grouping (`12480,50 EUR`), thousands grouped with dots and no cents (`2.315.000` — only from a million up:
`74.500` reads as 74.5 elsewhere), with spaces or apostrophes (`1 250,00 €`, `2 315 000`, `CHF 1'250.00`),
a grouped figure before 万/亿 (`3,280万`), and a JSON float's one decimal (`48250.0`).
The number must stand alone and, where a currency is written next to it, be in the value's currency."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from ec2audit.detect.exact import bounded
from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.normalize import currency_next_to
from ec2audit.detect.views import ScanView

KIND = "amount.locale"


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
    kinds = (KIND,)

    def compile(self, index) -> None:
        for i, cu in enumerate(self.units):
            if cu.amount is not None:
                for form in locale_forms(cu.amount):
                    index.add(form, KIND, i)
        self.reach = self.bound(index, 42)  # number boundaries (`bounded`): 40 characters and 2

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if not bounded(text, start, end):
                continue
            other = currency_next_to(text, start, end)
            for i in units:
                currency = self.units[i].currency
                if not (currency and other and other != currency):
                    yield Hit(i, *view.view.to_original(start, end), "forms.amount", LITERAL)
