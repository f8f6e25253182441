"""A Latin name with one part cut to its initial — "emily r." and "sophie v." (the given name kept),
"e. rutherford", "rutherford, e." and "rutherford e" (a bank file's payee field), "e rutherford" (a card's
holder, a utility bill's "MS E RUTHERFORD"; not for an initial "a" or "i", English words) — standing as words
of their own: the name masked, 0.7 — unless the text names someone else with that initial and surname within
a few lines ("Sanne van der Meulen" beside "S VAN DER MEULEN", for Sophie).
A name written as its initials alone is a fragment (0.3) where a word says they are initials ("the initials
'T.W.'") or where a hyphenated family name makes them three ("T. V.-L."): two letters alone are anyone's."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.finding import FRAGMENT, MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, mentions, register, standalone
from ec2audit.detect.forms.surnames import latin_surname
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

INITIAL, INITIALS_ONLY = "initial", "initials_only"
_NAMESAKE_WINDOW = 400  # how far from the initialled name another person of that initial and surname is looked for


@register
class Initials(Form):
    name = "initials"
    kinds = (INITIAL, INITIALS_ONLY)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        self._namesakes: dict[int, tuple[re.Pattern, str]] = {}
        for i, cu in enumerate(self.units):
            if cu.rules.fragment == "surname" and (patterns := _initial_patterns(cu)):
                for pattern in patterns:
                    index.add(pattern, INITIAL, i)
                given, surname = cu.forms[0].split()[0], latin_surname(cu.forms[0]) or ""
                for pattern in _initials_only(cu.forms[0]):
                    index.add(pattern, INITIALS_ONLY, i)
                self._namesakes[i] = re.compile(rf"(?<![^\W\d_])({re.escape(given[0])}[^\W\d_]+) {re.escape(surname)}"
                                                rf"(?![^\W\d_])"), given
        self.reach = self.bound(index, _NAMESAKE_WINDOW)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, INITIAL, decided):
            if standalone(text, start, end):
                for i in units:
                    namesake, given = self._namesakes[i]
                    around = text[max(0, start - _NAMESAKE_WINDOW):end + _NAMESAKE_WINDOW]
                    if all(m[1] == given for m in namesake.finditer(around)):
                        yield Hit(i, *view.view.to_original(start, end), "partial.masked", MOSTLY, 0.6)
        yield from mentions(view, INITIALS_ONLY, decided, _initials_stand_alone, "partial.fragment", FRAGMENT, 0.5)


def _initial_patterns(cu: CompiledUnit) -> list[str]:
    """A Latin name with one part cut to its initial (masked, 0.7): "emily r." and "sophie v." (the given
    name kept), "e. rutherford", "rutherford, e.", "rutherford e" (a bank file's payee field) and "e rutherford"."""
    name = cu.forms[0]
    surname = latin_surname(name)
    parts = name.split()
    if surname is None or len(parts[0]) < 3:
        return []
    given = parts[0]
    patterns = [f"{given} {surname[0]}.", f"{given[0]}. {surname}", f"{surname}, {given[0]}.", f"{surname} {given[0]}"]
    return patterns + ([f"{given[0]} {surname}"] if given[0] not in "ai" else [])


_INITIALS_WORDS = ("initials", "initials:", "initialled", "initialed")  # words that say initials follow
_INITIAL_BEFORE, _INITIAL_AFTER = re.compile(r"[^\W\d_]\. ?$"), re.compile(r" ?[^\W\d_]\.")


def _initials_only(name: str) -> list[str]:
    """The initials of every part of a Latin name ("t.w.", "t. w."; "t. v.-l." for Teodora Vasquez-Lindqvist, and
    a hyphenated part's initials as people write them: "v-l.", "v.l.", "v-l"), after a word naming them, or alone
    when a hyphenated part makes them three."""
    parts = name.split()
    if len(parts) < 2 or not all(p.replace("-", "").isascii() and p.replace("-", "").isalpha() for p in parts):
        return []
    forms = [sep.join(letters) for letters in itertools.product(*map(_part_initials, parts)) for sep in ("", " ")]
    patterns = [f"{word} {q}{form}" for word in _INITIALS_WORDS for q in ("", "'", '"') for form in forms]
    return patterns + [form for form in forms if "-" in form]  # ("b.h.s." alone is any three words' initials)


def _part_initials(part: str) -> list[str]:
    """The ways one part of a name is written as its initials: "b." for Beatrix; "h.-s.", "h-s.", "h.s.", "h-s" for
    Holloway-Sands."""
    letters = [piece[0] for piece in part.split("-") if piece]
    if len(letters) == 1:
        return [f"{letters[0]}."]
    return [".-".join(letters) + ".", "-".join(letters) + ".", ".".join(letters) + ".", "-".join(letters)]


def _initials_stand_alone(text: str, start: int, end: int) -> bool:
    """Not inside a longer run of initials ("t.w.h.", "a. t. v.-l.") or a word."""
    return standalone(text, start, end) and not _INITIAL_AFTER.match(text, end) \
        and not _INITIAL_BEFORE.search(text, max(0, start - 3), start)
