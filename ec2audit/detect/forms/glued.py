"""Numbers glued to what stands before them in tool output: a label with no space (`tel13900112233`,
`ssn666124410`), or a messaging identifier that carries the phone with its country code and no "+"
(`8613900112233@s.whatsapp.net`, `wa.me/8613900112233`). The rewrite puts back the space or the "+",
so the digit view reads the number as one of its own — and a number glued to any other word (an order
or reference number, `ORD13900112233`) stays inside it."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, any_case, register
from ec2audit.detect.views import Replacement, ascii_runs

_WORD_BEFORE = re.compile(r"(?<![A-Za-z])[A-Za-z]+$")
_LONGEST_LABEL = 16
# The end of (?:wa\.me/|whatsapp:|tel:|sms:)(?=\d{8,15}(?!\d)), found from its last character (":" or "/"), which
# the regex engine skips ahead to in C: 8 MB 0.11 → 0.02 s
_LINK = re.compile(r"[:/](?:(?<=wa\.me/)|(?<=whatsapp:)|(?<=tel:)|(?<=sms:))(?=\d{8,15}(?!\d))", re.IGNORECASE)
_JID = re.compile(r"\d{8,15}(?=@(?:s\.whatsapp\.net|c\.us)\b)", re.IGNORECASE)
_CHAT_AT = re.compile(r"@(?:s\.whatsapp\.net|c\.us)\b", re.IGNORECASE)  # what follows a `_JID`, from its "@"
_LONGEST_JID = 15
_SCHEMES = ("wa.me/", "whatsapp:", "tel:", "sms:")
_CHAT_DOMAINS = ("@s.whatsapp.net", "@c.us")
# one of them in any case `_LINK` and `_CHAT_AT` read (Unicode folds "ſ" to "s"): a stretch holds one where it
# holds a link or an address
_SCHEME_CUE = re.compile(r"[:/](?:(?<=wa\.me/)|(?<=whatsapp:)|(?<=tel:)|(?<=sms:))", re.IGNORECASE)
_DOMAIN_CUE = re.compile(r"@(?:s\.whatsapp\.net|c\.us)", re.IGNORECASE)
CUE = "glued.cue"


@register
class GluedNumbers(Form):
    name = "glued"
    #: an ASCII letter glued to six digits, a scheme, a chat domain (in any case `re.IGNORECASE` reads): each
    #: change is decided on its own line
    cue = "|".join(("[A-Za-z][0-9]{6}", *map(any_case, (*_SCHEMES, *_CHAT_DOMAINS))))
    cue_lines = 0

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
            for start, _ in ascii_runs(text, "0123456789", 6):
                if not start or not text[start - 1].isalpha():
                    continue
                word = _WORD_BEFORE.search(text, max(0, start - _LONGEST_LABEL), start)
                if word and word.group().lower() in self._labels:
                    yield start, start, " "
        if _SCHEME_CUE.search(text):  # a URI scheme in any case
            for m in _LINK.finditer(text):
                yield m.end(), m.end(), "+"
        if _DOMAIN_CUE.search(text):  # a chat domain in any case
            for start in _jids(text):
                if not start or not (text[start - 1].isalnum() or text[start - 1] in "_+"):
                    yield start, start, "+"


def _jids(text: str) -> Iterator[int]:
    """Where each `_JID` match starts: the regex is tried only just before each chat domain's "@"."""
    floor = 0
    for at in _CHAT_AT.finditer(text):
        m = _JID.search(text, max(floor, at.start() - _LONGEST_JID), at.end())
        if m and m.end() == at.start():
            floor = m.end()
            yield m.start()
