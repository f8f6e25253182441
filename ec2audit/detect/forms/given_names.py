"""The given name alone identifies in a task's context: "emily" for Emily Rutherford, "子墨" for 周子墨 (two
characters after a one-character surname), a fragment (0.3) — not a common word ("will"), not inside a
handle (`emily.r@…`), not before another family name (`Emily Brown` is another Emily), not after a common
Chinese surname (李子墨 is another 子墨)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.compiled import COMMON_WORDS, HAN_NAME, CompiledUnit, han_surname_chars
from ec2audit.detect.finding import FRAGMENT, Hit
from ec2audit.detect.forms import HANDLE_NEXT, Form, register, standalone
from ec2audit.detect.forms.surnames import SURNAME_PARTICLES, han_surname, latin_surname
from ec2audit.detect.normalize import TextView
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

GIVEN = "given"
_NEXT_WORD = re.compile(r" ([^\W\d_]+)")


@register
class GivenNames(Form):
    name = "given_names"
    kinds = (GIVEN,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        for i, cu in enumerate(self.units):
            if cu.rules.fragment == "surname" and (given := given_name(cu)):
                index.add(given, GIVEN, i)
        self.reach = self.bound(index, 10)  # a handle's next character, the next word's first letter or particle

    def confirm(self, scan_view: ScanView, decided: set[int]) -> Iterator[Hit]:
        view = scan_view.view
        text, original = view.text, view.original
        for start, end, indices in scan_view.matches.get(GIVEN, ()):
            if decided.issuperset(indices):  # every unit of the match found literally already
                continue
            if text[start].isascii():
                if not standalone(text, start, end) or HANDLE_NEXT.match(text, end):
                    continue
                _, e = TextView.to_original(view, start, end)  # in the view's own text, decoded or not
                following = _NEXT_WORD.match(original, e)
                if following and (following.group(1)[0].isupper() or following.group(1) in SURNAME_PARTICLES):
                    continue
            elif start and text[start - 1] in han_surname_chars():
                continue
            for i in indices:
                if i not in decided:
                    yield Hit(i, *view.to_original(start, end), "partial.fragment", FRAGMENT, 0.4)


def given_name(cu: CompiledUnit) -> str | None:
    """The given name alone identifies in a task's context: "emily" for Emily Rutherford, "子墨" for 周子墨
    (two characters after a one-character surname); not a common word ("will")."""
    name = cu.forms[0]
    if HAN_NAME.fullmatch(name):
        given = name[len(han_surname(name)):]
        return given if len(given) == 2 else None
    parts = name.split()
    if latin_surname(name) is None or len(parts[0]) < 3 or parts[0] in COMMON_WORDS or not parts[0].isascii() \
            or not parts[0].isalpha():
        return None  # (an accented given name, `José`: the namesake check reads the next word one space on, and
    return parts[0]  # its namesakes in markup forms and split lines, walks 3–11's near misses, are past it)
