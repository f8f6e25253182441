"""A value written letter-spaced: `l e n a . h a r t m a n n @ e x a m p l e . o r g`, `J o s é   N ú ñ e z`
(a heading's emphasis, a transcript that spells a value out, a value passed through `sed 's/./& /g'`, text
extracted from a PDF with tracking). A run of single characters one space apart reads as a word; a wider gap
between two such runs as the space between words."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# three or more characters one space apart (five letters or digits in all), after a space (or the text's start)
# and before no letter (a value ends at a ";" as often as at a space); further runs after gaps of two or three
# spaces
_SPACED = re.compile(r"(?<!\S)\S(?: \S){2,}(?:  {1,2}\S(?: \S)+)*(?!\w)")
_GAP = re.compile(r" {2,3}")
_LEAST = 5


@register
class LetterSpacing(Form):
    name = "letter_spacing"
    #: what every run holds (`\S \S \S`), starting with a literal space: ordinary text has few, and the run is
    #: on one line (spaces only)
    cue = r" \S \S"
    cue_lines = 0
    #: a run of five characters holds two cue matches' ends: `a b c d e` three, `a b c  d e` one in each part
    cue_least = 2

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _runs(text):
            if sum(c.isalnum() for c in m.group()) >= _LEAST:  # (`x = a + b` is an expression)
                yield m.start(), m.end(), " ".join(word.replace(" ", "") for word in _GAP.split(m.group()))


_CUE = re.compile(LetterSpacing.cue)


def _runs(text: str) -> Iterator[re.Match]:
    """`_SPACED.finditer(text)`, tried only where it may start: a run holds the cue from its second character on,
    so it starts one character before a cue (the regex itself starts with a class, tried at every position)."""
    end, pos = 0, 0
    while cue := _CUE.search(text, pos):
        start, pos = cue.start() - 1, cue.start() + 1
        if start >= end and (m := _SPACED.match(text, start)):
            yield m
            end = pos = m.end()
