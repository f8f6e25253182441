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

_DIGIT_RUN = re.compile(r"[0-9]{6,}")
_WORD_BEFORE = re.compile(r"(?<![A-Za-z])[A-Za-z]+$")
_LONGEST_LABEL = 16
# (?:wa\.me/|whatsapp:|tel:|sms:)(?=\d{8,15}(?!\d)), written to start with a character class (the letters
# case-insensitive matching reads as w, t and s) so the regex engine skips ahead in C: 1 MB 0.034 → 0.013 s
_LINK = re.compile(r"[wWtTsS\u017f](?:(?<=w)a\.me/|(?<=w)hatsapp:|(?<=t)el:|(?<=s)ms:)(?=\d{8,15}(?!\d))",
                   re.IGNORECASE)
_JID = re.compile(r"\d{8,15}(?=@(?:s\.whatsapp\.net|c\.us)\b)", re.IGNORECASE)
_SCHEMES = ("wa.me/", "whatsapp:", "tel:", "sms:")
_CHAT_DOMAINS = ("@s.whatsapp.net", "@c.us")
CUE = "glued.cue"


@register
class GluedNumbers(Form):
    name = "glued"

    def compile(self, index) -> None:
        """The labels of the run's numbers: their field names and the context words of their kind."""
        labels: set[str] = set()
        for cu in self.units:
            if cu.digit_forms:
                labels.update(w for w in (cu.unit.field.lower(), *cu.rules.context) if w.isascii() and w.isalpha())
        self._labels = frozenset(labels)
        glued = (label + digit for label in labels for digit in "0123456789")  # "tel1": a label a digit follows
        for cue in (*glued, *_SCHEMES, *_CHAT_DOMAINS):  # what the text view must hold for a rewrite
            index.add(cue, CUE, -1)

    def wanted(self, matches) -> bool:
        return CUE in matches

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if self._labels:  # a run of six or more digits is found in C; the word glued to it is checked here
            for m in _DIGIT_RUN.finditer(text):
                if not m.start() or not text[m.start() - 1].isalpha():
                    continue
                word = _WORD_BEFORE.search(text, max(0, m.start() - _LONGEST_LABEL), m.start())
                if word and word.group().lower() in self._labels:
                    yield m.start(), m.start(), " "
        lower = text.lower()  # URI schemes and domains in any case
        if any(scheme in lower for scheme in _SCHEMES):
            for m in _LINK.finditer(text):
                yield m.end(), m.end(), "+"
        if any(domain in lower for domain in _CHAT_DOMAINS):
            for m in _JID.finditer(text):
                if not m.start() or not (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_+"):
                    yield m.start(), m.start(), "+"
