"""A value cut off where a log line or a table truncates it: `secret=hx_sec_4Tz9Qm2VbL7wR1c... (truncated)`,
`key=Kd8s2LqW9vZr4Tn7Xb1Mc6… (len=32)`. What stands before the ellipsis is the value's start, written out: more
than half of its own characters (past a vendor's published key prefix) is most of it (0.7), less a fragment (0.3),
as a mask showing as much is graded (`masked`).

A value that reads as one token with a digit (a key, a token, an account, an ID), or a number written in groups, is
read so on its ellipsis. Prose (a diagnosis, an address) is read only where the cut is said: inside a word on an
ellipsis, or before a word that says so (`value="malignant pleural mesothelioma, epith" (truncated at 38 chars)`,
已截断): prose cut off with "..." on a word's end is a sentence left unfinished, not a value cut. A number is read
as written and without its separators (a card `6222 0202 0011 2233 445` cut to `622202020011…`). The automaton
reports each form's first characters (`_HEAD`, past the vendor prefix); the form follows it from there and confirms
where the text stops agreeing with it on an ellipsis or the words saying it was cut."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.compiled import compact_form
from ec2audit.detect.finding import FRAGMENT, MOSTLY, Hit
from ec2audit.detect.forms import Form, is_cjk, matched, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "truncated.head"
_HEAD = 8  # characters of a value the cue holds past its vendor prefix; a cut piece shows at least these
_SHORTEST = 12  # a value shorter than this cut at eight characters is most of it, and reads as a mask does
_ELLIPSIS = "..."  # the text view writes "…" as three dots (NFKC)
_TOKEN_CHAR = re.compile(r"[0-9a-z_+/-]")
_GROUPED = re.compile(r"\d+(?:[ .-]\d+)+")
_PROSE_SHORTEST = 16  # prose shorter than this cut short is a word or two, which any text may hold
#: the cut said after the characters shown: a closing quote, then a bracket or a word that says the value was cut
#: or that OCR could read no further (`disord[illegible]`, `每周[字迹模糊]`)
_CUT_SAID = re.compile(r"(?:\.\.\.)?[\"'`]?\s{0,2}[(\[<{]?\s*(?:truncated|cut off|clipped|trimmed|已?截断|已截取|省略"
                       r"|illegible|unreadable|smudged|torn|cropped|(?:字迹)?(?:模糊|不清)|看不清|无法辨认)")


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
        self._prose = [_prose_form(cu.unit.value) for cu in self.units]
        for i, (cu, forms) in enumerate(zip(self.units, self._forms, strict=True)):
            for form in forms:
                index.add(form[:len(cu.public_prefix) + _HEAD], KIND, i)
            if prose := self._prose[i]:
                index.add(prose[:_HEAD], KIND, i)
        # a hit runs from the cue to the ellipsis after the longest form
        self.reach = max([len(f) for forms in self._forms for f in forms] + [len(p) for p in self._prose if p],
                         default=0) + 40  # the ellipsis, or the words that say the value was cut

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
                        yield self._hit(view, i, start, shown, (shown - prefix) / (len(form) - prefix))
                prose = self._prose[i]
                if prose and (shown := _agreed(text, start, prose)) < len(prose) and _cut_said(text, start + shown,
                                                                                                prose, shown):
                    yield self._hit(view, i, start, shown, shown / len(prose))

    @staticmethod
    def _hit(view: ScanView, i: int, start: int, shown: int, share: float) -> Hit:
        """The characters shown: most of the value past half of it, a fragment below."""
        return Hit(i, *view.view.to_original(start, start + shown), "partial.masked",
                   MOSTLY if share > 0.5 else FRAGMENT, 0.6)


def _prose_form(value: str) -> str | None:
    """A value of several words as the text view writes it, where it is long enough to be cut."""
    value = normalize_text(value).strip()
    return value if len(value) >= _PROSE_SHORTEST and (" " in value or is_cjk(value[0])) else None


def _cut_said(text: str, at: int, prose: str, shown: int) -> bool:
    """Whether the prose shown up to `at` is said to be cut there: twelve characters or more, then words saying so,
    or an ellipsis inside one of its words."""
    if shown < 12:
        return False
    if _CUT_SAID.match(text, at):
        return True
    return text.startswith(_ELLIPSIS, at) and prose[shown - 1].isalnum() and prose[shown].isalnum()


def _agreed(text: str, start: int, value: str) -> int:
    """How many characters of `value` the text at `start` writes out before it differs."""
    k = 0
    while k < len(value) and start + k < len(text) and text[start + k] == value[k]:
        k += 1
    return k
