"""Internal infrastructure: private IPv4 addresses (RFC 1918, CGNAT), MAC addresses, internal host names.

Public addresses are Presidio's IP recognizer's job; what leaks a company's layout is the private
range and names under internal zones (`db01.prod.internal`, `*.svc.cluster.local`, `*.corp`, a company's own
`*.internal.acme-corp.net`).
"""

from __future__ import annotations

import ipaddress
import re

from ec2audit.annotate.recognizers.base import PatternRecognizer

_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_INTERNAL_ZONES = r"(?:internal|intranet|corp|lan|local|localdomain|private|home\.arpa|svc|cluster\.local)"
#: An internal zone of a company's own domain (`db.internal.acme-corp.net`, `git.corp.example.co.uk`): the word
#: alone is a label of the domain's, never its name (`internal.net` is a company's).
_INTERNAL_SUBZONES = r"(?:internal|intranet|corp)(?:\.[a-z0-9-]+)+\.[a-z]{2,}"
#: A host name under an internal zone.
INTERNAL_HOST = re.compile(rf"(?<![\w.-])(?:[a-z0-9](?:[a-z0-9-]{{0,61}}[a-z0-9])?\.)+"
                           rf"(?:{_INTERNAL_SUBZONES}|{_INTERNAL_ZONES})(?![\w.-]*\w)")


def _private_ip(value: str) -> bool:
    address = value.split("/")[0]
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return (ip.is_private and not ip.is_loopback and not ip.is_unspecified and not ip.is_link_local) \
        or ip in _CGNAT


RECOGNIZERS = [
    PatternRecognizer("private-ip", "PRIVATE_IP", "network", (
        (r"(?<![\d.])(?:10|172|192|100)(?:\.\d{1,3}){3}(?:/\d{1,2})?(?![\d]|\.\d)", 0.85),
    ), validate=_private_ip),
    PatternRecognizer("mac-address", "MAC_ADDRESS", "network", (
        (r"(?<![\w:-])[0-9A-Fa-f]{2}(?:([:-])[0-9A-Fa-f]{2})(?:\1[0-9A-Fa-f]{2}){4}(?![\w:-])", 0.8),
        (r"(?<![\w.])[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}(?![\w.])", 0.7),
    )),
    PatternRecognizer("internal-host", "INTERNAL_HOST", "network", (
        (INTERNAL_HOST.pattern, 0.75),
    )),
]
