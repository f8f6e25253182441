"""An IPv4 address written as its 32 bits in hex, as kernel traces, packet filters and `/proc/net/tcp` print it:
`src=0a2a0776` or `0x0A2A0776` (network byte order) and `76072A0A:1538` (the little-endian word `/proc/net/tcp`,
`/proc/net/udp` and netstat's raw dumps show) for `10.42.7.118`. Eight hex digits standing alone are the address
(1.0); inside a longer hex run (a hash, a UUID) they are not."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, mentions, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "hex_ips"
_IPV4 = re.compile(r"(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})")


def hex_forms(value: str) -> list[str]:
    """The address's 32 bits as eight hex digits, in network and in little-endian byte order (lower case, as the
    text view reads them); none for a value that is no IPv4 address."""
    m = _IPV4.fullmatch(normalize_text(value).strip())
    if m is None or any(int(octet) > 255 for octet in m.groups()):
        return []
    octets = [f"{int(octet):02x}" for octet in m.groups()]
    return list(dict.fromkeys(["".join(octets), "".join(reversed(octets))]))


@register
class HexIps(Form):
    name = "hex_ips"
    kinds = (KIND,)

    def compile(self, index: PatternIndex) -> None:
        self.compile_forms(index, {KIND: lambda cu: hex_forms(cu.unit.value)}, context=2)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        return mentions(view, KIND, decided, _alone, "forms.hex_ip", LITERAL, 0.9)


def _alone(text: str, start: int, end: int) -> bool:
    """Not inside a longer run of letters or digits; a `0x` before it is the hex's prefix."""
    before = text[max(0, start - 2):start]
    return (not start or not text[start - 1].isalnum() or before == "0x") and not text[end:end + 1].isalnum()
