"""A domain name outside ASCII in its ASCII form: an e-mail address or a link whose domain is an IDN (`bücher.de`)
as DNS, a mail server's log, `dig`, a browser's address bar copied, or Python's `idna` codec write it
(`j.mueller@xn--bcher-kva.de`). Each `xn--` label is Punycode of the label a reader of the address sees; read as
that label, the address is the unit's."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# an ACE label (RFC 5891): a whole label, not ending in a hyphen; starting with a class the regex engine skips ahead
# to in C (the look-behind after it)
_LABEL = re.compile(r"[xX](?<![A-Za-z0-9-][xX])[nN]--([A-Za-z0-9-]{0,58}[A-Za-z0-9])(?![A-Za-z0-9-])")


@register
class Punycode(Form):
    name = "punycode"
    cue = "[xX][nN]--"  # (a label, on one line)
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "xn--" not in text and "XN--" not in text and "Xn--" not in text and "xN--" not in text:
            return
        for m in _LABEL.finditer(text):
            try:
                label = m.group(1).lower().encode("ascii").decode("punycode")
            except UnicodeError:
                continue
            if label.isprintable() and not label.isascii():
                yield m.start(), m.end(), label
