"""Numbers glued to what stands before them in tool output: a label with no space (`tel13900112233`,
`ssn666124410`), or a messaging identifier that carries the phone with its country code and no "+"
(`8613900112233@s.whatsapp.net`, `wa.me/8613900112233`). The rewrite puts back the space or the "+",
so the digit view reads the number as one of its own — and a number glued to any other word (an order
or reference number, `ORD13900112233`) stays inside it."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_LINK = re.compile(r"(?:wa\.me/|whatsapp:|tel:|sms:)(?=\d{8,15}(?!\d))", re.IGNORECASE)
_JID = re.compile(r"(?<![\w+])(?=\d{8,15}@(?:s\.whatsapp\.net|c\.us)\b)", re.IGNORECASE)


@register
class GluedNumbers(Form):
    name = "glued"

    def compile(self, index) -> None:
        """The labels of the run's numbers: their field names and the context words of their kind."""
        labels = set()
        for cu in self.units:
            if cu.digit_forms:
                labels.update(w for w in (cu.unit.field.lower(), *cu.rules.context) if w.isascii() and w.isalpha())
        pattern = "|".join(sorted(map(re.escape, labels), key=len, reverse=True))
        self._label = re.compile(rf"(?<![a-z])(?:{pattern})(?=\d{{6}})", re.IGNORECASE) if labels else None

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if self._label is not None:
            for m in self._label.finditer(text):
                yield m.end(), m.end(), " "
        if "@" in text or ":" in text or "/" in text:
            for m in _LINK.finditer(text):
                yield m.end(), m.end(), "+"
            for m in _JID.finditer(text):
                yield m.start(), m.start(), "+"
