"""A value cut off where a log line or a table truncates it: `secret=hx_sec_4Tz9Qm2VbL7wR1c... (truncated)`,
`key=Kd8s2LqW9vZr4Tn7Xb1Mc6… (len=32)`. What stands before the ellipsis is the value's start, written out: more
than half of its own characters (past a vendor's published key prefix) is most of it (0.7), less a fragment (0.3),
as a mask showing as much is graded (`masked`).

Only a value that reads as one token with a digit (a key, a token, an account, an ID), or a number written in groups,
is read so: prose cut off with "..." ends on words. A number is read as written and without its separators (a card
`6222 0202 0011 2233 445` cut to `622202020011…`). The automaton reports each form's first characters (`_HEAD`, past
the vendor prefix); the form follows it from there and confirms where the text stops agreeing with it on an
ellipsis."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.compiled import compact_form
from ec2audit.detect.finding import FRAGMENT, MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "truncated.head"
_HEAD = 8  # characters of a value the cue holds past its vendor prefix; a cut piece shows at least these
_SHORTEST = 12  # a value shorter than this cut at eight characters is most of it, and reads as a mask does
_ELLIPSIS = "..."  # the text view writes "…" as three dots (NFKC)
_TOKEN_CHAR = re.compile(r"[0-9a-z_+/-]")
_GROUPED = re.compile(r"\d+(?:[ .-]\d+)+")


def cut_forms(value: str) -> list[str]:
    """The forms of a value a log may cut: as written where it is one token or a number in groups, and without its
    separators; each with a digit and long enough to be cut short of most of it."""
    value = normalize_text(value).strip()
    forms = [value, compact_form(value)] if _GROUPED.fullmatch(value) else [value]
    return [f for f in dict.fromkeys(forms) if len(f) >= _SHORTEST and not any(c.isspace() for c in f)
            and any(c.isdigit() for c in f)]


@register
class TruncatedValues(Form):
    name = "truncated"
    kinds = (KIND,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        self._forms = [cut_forms(cu.unit.value) for cu in self.units]
        for i, (cu, forms) in enumerate(zip(self.units, self._forms, strict=True)):
            for form in forms:
                index.add(form[:len(cu.public_prefix) + _HEAD], KIND, i)
        # a hit runs from the cue to the ellipsis after the longest form
        self.reach = max([len(f) for forms in self._forms for f in forms], default=0) + len(_ELLIPSIS) + 2

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, _, units in matched(view, KIND, decided):
            if start and _TOKEN_CHAR.match(text[start - 1]):
                continue  # inside a longer token: another value's
            for i in units:
                for form in self._forms[i]:
                    shown = _agreed(text, start, form)
                    if shown < len(form) and text.startswith(_ELLIPSIS, start + shown):
                        prefix = len(self.units[i].public_prefix)
                        share = (shown - prefix) / (len(form) - prefix)
                        yield Hit(i, *view.view.to_original(start, start + shown), "partial.masked",
                                  MOSTLY if share > 0.5 else FRAGMENT, 0.6)


def _agreed(text: str, start: int, value: str) -> int:
    """How many characters of `value` the text at `start` writes out before it differs."""
    k = 0
    while k < len(value) and start + k < len(text) and text[start + k] == value[k]:
        k += 1
    return k
