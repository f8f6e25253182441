"""An IPv6 address is one number with many spellings: `ip addr`, `ss`, logs and every RFC 5952 writer print it
compressed and in lower case (`2001:db8::ff00:42:8329`), a config file or a spreadsheet may hold it in full
(`2001:0db8:0000:0000:0000:ff00:0042:8329`), Windows in upper case, a URL in brackets with a port. A reader reads
the address; so do the tiers: where the run has a unit whose value is an IPv6 address, a token in the text that
spells the same address another way reads as the unit's own spelling (the tiers' literal forms hold that one)."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# hex groups and colons with at least two colons, not inside a longer token (a MAC's or a time's colons parse as no
# address and are left); a `%zone` after it is the interface's and stays
_TOKEN = re.compile(r"(?<![\w:.])(?=[0-9A-Fa-f:]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]{2,39}"
                    r"(?:(?<=:)[0-9]{1,3}(?:\.[0-9]{1,3}){3})?(?![\w:])")


@register
class Ipv6Spellings(Form):
    name = "ipv6"
    cue = r"[0-9A-Fa-f]?:[0-9A-Fa-f]{0,4}:"

    def compile(self, index) -> None:
        self.spellings: dict[ipaddress.IPv6Address, str] = {}
        for compiled in self.units:
            value = compiled.unit.value.strip().strip("[]")
            try:
                self.spellings[ipaddress.IPv6Address(value)] = value
            except ValueError:
                continue

    def wanted(self, matches) -> bool:
        return bool(self.spellings)

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if not self.spellings or ":" not in text:
            return
        for m in _TOKEN.finditer(text):
            try:
                address = ipaddress.IPv6Address(m.group())
            except ValueError:
                continue
            spelling = self.spellings.get(address)
            if spelling is not None and spelling != m.group():
                yield m.start(), m.end(), spelling
