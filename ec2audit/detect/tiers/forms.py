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
    """One string tier of registered forms: each confirms its own matches, where it reads any."""

    def __init__(self, name: str, forms: list[Form]):
        self.name = name
        self.forms = [f for f in forms if type(f).confirm is not Form.confirm]  # the forms that confirm hits

    def scan(self, scan_view: ScanView, hits: list[Hit], decided: set[int]) -> list[Hit]:
        matches = scan_view.matches
        return [hit for form in self.forms if form.reads(matches) for hit in form.confirm(scan_view, decided)]


def _build(name: str) -> Callable[[Sources], FormsTier]:
    return lambda sources: FormsTier(name, [form for form in sources.forms if form.tier == name])


for _name, _order in (("partial", 20), ("forms", 30)):
    register(TierSpec(_name, _order, _build(_name)))
