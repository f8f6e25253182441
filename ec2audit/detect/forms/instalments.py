"""An instalment plan's terms, its instalment with its count, for a value that states a plan ("GBP 4,260 fee in 24
monthly instalments of GBP 177.50", "分24期，每期177.50元"): "24 × £177.50", "£177.50 a month, 24 months",
`{"amount":17750,"currency":"GBP","interval_unit":"monthly","count":24}` (the instalment in minor units, as payment
APIs send it), "每期177.50元，共24期". The terms are the whole plan (1.0: the fee is their product). An instalment
without its count nearby, or in another currency, is only a number: nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, register
from ec2audit.detect.forms.amounts import minor_end, priced
from ec2audit.detect.normalize import AMOUNT, amount_forms, amount_key, currency_of, normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

MAJOR, MINOR = "instalments.amount", "instalments.minor"
#: a plan in a value: its count, then the instalment ("24 monthly instalments of", "分24期，每期")
_PLAN = re.compile(r"(?<![\d.,])(\d{1,3}) (?:(?:weekly|monthly|quarterly|yearly|annual) )?"
                   r"(?:instal?l?ments?|payments?|repayments?) of |分 ?(\d{1,3}) ?期[,，、 ]*每期 ?")
_WINDOW = 80  # characters on either side of the instalment that its count stands within


def plan_of(value: str) -> tuple[int, int] | None:
    """(count, instalment in hundredths) of a plan the value states, or None."""
    norm = normalize_text(value)
    plan = _PLAN.search(norm)
    amount = AMOUNT.match(norm, plan.end()) if plan else None
    if plan is None or amount is None:
        return None
    key = amount_key(amount["n1"] or amount["n2"] or amount["n3"], amount["m1"] or amount["m2"])
    return (int(plan[1] or plan[2]), key) if key else None


@register
class Instalments(Form):
    name = "instalments"
    kinds = (MAJOR, MINOR)

    def compile(self, index: PatternIndex) -> None:
        """The instalment of every unit whose value states a plan, as amounts write it and in minor units."""
        self._plans: dict[int, tuple[int, int]] = {}
        self._currency: dict[int, str | None] = {}
        for i, cu in enumerate(self.units):
            if plan := plan_of(cu.unit.value):
                self._plans[i], self._currency[i] = plan, currency_of(cu.unit.value)
                for form in amount_forms(plan[1]):
                    index.add(form, MAJOR, i)
                index.add(str(plan[1]), MINOR, i)
        self.reach = self.bound(index, _WINDOW)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        for i, start, end in priced(view, decided, self.kinds, MINOR, self._currency.__getitem__, _minor_stop):
            if _count_near(view.view.text, start, end, self._plans[i][0]):
                yield Hit(i, *view.view.to_original(start, end), "forms.instalments", LITERAL, 0.8)


def _minor_stop(text: str, start: int, end: int, currency: str | None) -> int | None:
    """`minor_end`, or `end` where the record around the number names the plan's currency (a payment API's
    `"amount":17750,"currency":"GBP"`)."""
    stop = minor_end(text, start, end, currency)
    named = currency and currency_of(text[max(0, start - _WINDOW):end + _WINDOW]) == currency
    return stop if stop is not None else end if named else None


def _count_near(text: str, start: int, end: int, count: int) -> bool:
    """Does the plan's count stand as a number of its own within `_WINDOW` of the instalment (not a date's or a
    time's part)?"""
    lo = max(0, start - _WINDOW)
    pattern = re.compile(rf"(?<![\d.,])(?<!\d[:/-]){count}(?!\d|[:/.,-]\d)")
    return any(not start <= m.start() < end for m in pattern.finditer(text, lo, end + _WINDOW))
