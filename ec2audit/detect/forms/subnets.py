"""The small network a host's IPv4 address lies in, written in CIDR (`10.42.17.0/24` for 10.42.17.203), said
of the host (its name within a few lines: "db-primary-03 lives somewhere in 10.42.17.0/24"): a fragment (0.3) —
a few hundred addresses at most, the host octet left out. A subnet in a listing that does not name the host
(a Terraform output of every network) says nothing of it; a /16 or wider names a whole site, not the host;
a network that does not hold the address is another one."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator

from ec2audit.detect.exact import bounded
from ec2audit.detect.finding import FRAGMENT, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import ScanView

KIND = "subnet"
_NAME_WINDOW = 80  # how far from the subnet the host's name may stand
_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
NARROWEST, WIDEST = 31, 24  # the prefix lengths read: a /24 holds 256 addresses


def subnet_forms(value: str) -> list[str]:
    """The CIDR networks from /24 to /31 that hold an IPv4 address value ("10.42.17.0/24", …)."""
    value = value.strip()
    if not _IPV4.fullmatch(value):
        return []
    try:
        address = ipaddress.IPv4Address(value)
    except ipaddress.AddressValueError:
        return []
    forms = []
    for length in range(WIDEST, NARROWEST + 1):
        network = ipaddress.IPv4Network((address, length), strict=False)
        if network.network_address != address:  # the address itself with a prefix is the address
            forms.append(str(network))
    return forms


@register
class Subnets(Form):
    name = "subnets"
    kinds = (KIND,)
    tier = "partial"

    def compile(self, index) -> None:
        self._names: dict[int, str] = {}
        for i, cu in enumerate(self.units):
            name = normalize_text(cu.unit.entity_name or "").strip()
            if len(name) >= 3 and (forms := subnet_forms(cu.unit.value)):
                self._names[i] = name
                for form in forms:
                    index.add(form, KIND, i)
        self.reach = self.bound(index, _NAME_WINDOW)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if bounded(text, start, end):
                span = view.view.to_original(start, end)
                near = text[max(0, start - _NAME_WINDOW):end + _NAME_WINDOW]
                for i in units:
                    if self._names[i] in near:
                        yield Hit(i, *span, "partial.subnet", FRAGMENT)
