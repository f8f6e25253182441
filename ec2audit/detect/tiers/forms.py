"""The graded tiers of registered forms (`detect.forms`), after the literal one: `partial` (AceBench's
scale below a literal match: masked values, fragments in context, a name's parts, near-verbatim
variants), then `forms` (the value written another way). Each runs the forms that name it (`Form.tier`)."""

from __future__ import annotations

from collections.abc import Callable

from ec2audit.detect.finding import Hit
from ec2audit.detect.forms import Form
from ec2audit.detect.tiers import Sources, TierSpec, register
from ec2audit.detect.views import ScanView


class FormsTier:
    """One string tier of registered forms: each confirms its own matches, where it reads any. A form
    that reads its kinds (`Form.reads` as is) is asked by one set test, not a call per view."""

    def __init__(self, name: str, forms: list[Form]):
        self.name = name
        self.forms = [f for f in forms if type(f).confirm is not Form.confirm]  # the forms that confirm hits
        self._kinds = [frozenset(f.kinds) if type(f).reads is Form.reads else None for f in self.forms]
        reaches = [f.reach for f in self.forms]
        self.reach: int | None = max((r for r in reaches if r is not None), default=0) if None not in reaches else None

    def scan(self, scan_view: ScanView, hits: list[Hit], decided: set[int]) -> list[Hit]:
        matches = scan_view.matches
        found: list[Hit] = []
        for form, kinds in zip(self.forms, self._kinds, strict=True):
            if form.reads(matches) if kinds is None else not kinds.isdisjoint(matches):
                found += form.confirm(scan_view, decided)
        return found


def _build(name: str) -> Callable[[Sources], FormsTier]:
    return lambda sources: FormsTier(name, [form for form in sources.forms if form.tier == name])


for _name, _order in (("partial", 20), ("forms", 30)):
    register(TierSpec(_name, _order, _build(_name)))
