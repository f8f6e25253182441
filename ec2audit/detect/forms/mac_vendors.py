"""The vendor half of a MAC address on its own ("3c:52:82", written with colons or hyphens): a fragment
(0.3); not when more groups follow or come before — that is a whole address, the unit's or another
device's."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import FRAGMENT, Hit
from ec2audit.detect.forms import Form, mentions, register, standalone
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

VENDOR = "vendor"
_MAC = re.compile(r"[0-9a-f]{2}(?:([:-])[0-9a-f]{2})(?:\1[0-9a-f]{2}){4}")
_MAC_GROUP = re.compile(r"[0-9a-f]{2}")
_MORE_GROUPS = re.compile(r"[:\-.][0-9a-z*•●#]")
_MORE_GROUPS_BEFORE = re.compile(r"[0-9a-z][:\-.]$")


@register
class MacVendors(Form):
    name = "mac_vendors"
    kinds = (VENDOR,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        for i, cu in enumerate(self.units):
            if _MAC.fullmatch(cu.forms[0]):
                for sep in ":-":
                    index.add(sep.join(_MAC_GROUP.findall(cu.forms[0])[:3]), VENDOR, i)
        self.reach = self.bound(index, 4)  # the groups right around the half

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        return mentions(view, VENDOR, decided, _vendor_half, "partial.fragment", FRAGMENT, 0.4)


def _vendor_half(text: str, start: int, end: int) -> bool:
    """The vendor half of a MAC address on its own ("3c:52:82"); not when more groups follow or come before:
    that is a whole address, the unit's or another device's."""
    return standalone(text, start, end) and not (
        _MORE_GROUPS.match(text, end) or _MORE_GROUPS_BEFORE.search(text, max(0, start - 3), start))
