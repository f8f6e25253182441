"""A value cut into pieces one space apart on one line: the shell's `echo 138 0013 8000`, Go's
`fmt.Println("lena.hart", "mann@example.org")` and Python's `print(…)` of several arguments print them so, and
C's and Python's adjacent literals one space apart (`("138" "0013" "8000")`) are one string to the program. A
reader reads the whole value; so does this form, but only where a run of whole pieces joins into exactly one of
a unit's forms: the run starts and ends at a piece's ends (no letter or digit of the line runs on into it), so a
table row of numbers whose digits merely hold the value across its cells (`51 3922 8833 667`) is no hit, while the
value's own pieces next to other numbers (`12 139 2288 3366 7`) are, and a Han character runs on as a letter does
(`欧阳 娜娜娜` is another name).

A joint is any run of horizontal whitespace (spaces, tabs: `printf '%s\t%s'`, column-aligned output, `138  0013`),
alone or between a closing and an opening quote. The joints are dropped from the view's text with `str.replace`
(C loops: tabs become spaces, runs of spaces one, then the joints go), the value's forms looked for in what is
left with this form's own automaton; only a form found there that a joint cut is read again, with the joints'
places (rare, so never paid for on plain text). A table row's cells are pieces too, so the run must join into
exactly the value, standing alone at both ends: `51  3922  8833  667` holds the value's digits across its cells
and is no hit.
Values shorter than `_LEAST` characters (4 where Han, an age, a blood type) stay apart: a row of small numbers
would hold them everywhere."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, is_cjk, register
from ec2audit.detect.normalize import TextView
from ec2audit.detect.patterns import Match, PatternIndex
from ec2audit.detect.views import ScanView

#: what joins two pieces once its blanks are one space, longest first (the order `_squeezed` drops them in):
#: literals JSON-escaped inside JSON text, literals, a space
_JOINTS = ('\\" \\"', '" "', "' '", " ")
_BLANK = 16  # spaces and tabs of the longest blank a joint holds (a column's padding)
#: a joint in the text itself: the same, its blank a run of spaces and tabs
_JOINT = re.compile("|".join(re.escape(j).replace("\\ ", f"[ \t]{{1,{_BLANK}}}") for j in _JOINTS))
_LEAST = 6  # characters of the shortest value read from pieces (`_LEAST_HAN` where it holds a Han character)
_LEAST_HAN = 4
_LINE_BREAK = re.compile(r"[\r\n]")  # in the original: pieces on two lines stay apart


def _squeezed(text: str) -> str:
    """`text` without its joints."""
    if "\t" in text:
        text = text.replace("\t", " ")
    while "  " in text:
        text = text.replace("  ", " ")
    for joint in _JOINTS:
        if joint in text:
            text = text.replace(joint, "")
    return text


@register
class SpacedPieces(Form):
    name = "spaced_pieces"

    def compile(self, index: PatternIndex) -> None:
        """Each unit's forms without their spaces, in an automaton of this form's own (read on the squeezed text,
        not the view's)."""
        self._index = PatternIndex()
        for i, cu in enumerate(self.units):
            for form in cu.forms:
                whole = form.replace(" ", "")
                if len(whole) >= (_LEAST_HAN if any(map(is_cjk, whole)) else _LEAST):
                    self._index.add(whole, "whole", i)
        self._index.build()
        # the pieces of the longest value, the longest joint after each character, and a character either side
        self.reach = self._index.longest("whole") * (len(_JOINTS[0]) + _BLANK) + 2

    def reads(self, matches: dict[str, list[Match]]) -> bool:
        return True  # no cue a literal could hold: `confirm` squeezes the text itself

    def confirm(self, scan_view: ScanView, decided: set[int]) -> Iterator[Hit]:
        view = scan_view.view
        text = view.text
        if " " not in text or len(decided) == len(self.units):
            return
        if not any(not decided.issuperset(units)
                   for _, _, units in self._index.matches(_squeezed(text), anchored=False).get("whole", ())):
            return
        kept, squeezed = _kept(text)
        for start, end, units in self._index.matches(squeezed, anchored=False).get("whole", ()):
            left = [i for i in units if i not in decided]
            if not left:
                continue
            first, last = kept[start], kept[end - 1]  # text offsets of the run's first and last characters
            if last - first + 1 == end - start or not whole(text, first, last + 1):
                continue  # no joint inside (the exact tier's to read), or a piece that runs on
            span = TextView.to_original(view, first, last + 1)
            if _LINE_BREAK.search(view.original[slice(*span)]):
                continue
            for i in left:
                if not self.units[i].case_differs(_squeezed(view.original[slice(*span)])):
                    yield Hit(i, *view.to_original(first, last + 1), "forms.spaced_pieces", LITERAL, 0.9)


def _kept(text: str) -> tuple[list[int], str]:
    """The text offset of each character left once the joints go, and the text so left (`_JOINT` reads the joints
    longest first at each place, as `_squeezed` drops them)."""
    kept: list[int] = []
    last = 0
    for m in _JOINT.finditer(text):
        kept.extend(range(last, m.start()))
        last = m.end()
    kept.extend(range(last, len(text)))
    return kept, "".join(text[k] for k in kept)


def whole(text: str, start: int, end: int) -> bool:
    """Does `text[start:end]` stand alone: no letter or digit (a Han character one too: `欧阳 娜娜娜` holds another
    name) runs on into either end? (`forms.standalone` reads Latin words only.)"""
    return not ((start and text[start - 1].isalnum() and text[start].isalnum())
                or (end < len(text) and text[end].isalnum() and text[end - 1].isalnum()))
