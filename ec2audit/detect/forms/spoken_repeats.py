"""Digits read out as a person says a phone number: "one three nine, double two, double eight, triple three"
(British and Commonwealth usage; a call's transcript, a voicemail's, a support chat's). Read as the digit words
they stand for ("two two"), the run is the English digit words the tiers read as digits."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.normalize import ENGLISH_DIGITS
from ec2audit.detect.views import Replacement

_TIMES = {"double": 2, "triple": 3}
_CUES = ("ouble", "riple", "OUBLE", "RIPLE")  # substring tests in C, not a lower-cased copy of the text
# "double" or "triple" and a digit word, in any case (the folded view is lower case, the text need not be); the
# words are literals the regex engine skips ahead to in C, and the word's start is checked on the match
_REPEAT = re.compile(r"(double|triple|Double|Triple|DOUBLE|TRIPLE)[ -](?i:(" + "|".join(ENGLISH_DIGITS) + r"))\b")


@register
class SpokenRepeats(Form):
    name = "spoken_repeats"
    cue = "|".join(_CUES)  # (a repeat is words on one line)
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if not any(cue in text for cue in _CUES):
            return
        for m in _REPEAT.finditer(text):
            if m.start() and text[m.start() - 1].isalnum():
                continue
            yield m.start(), m.end(), " ".join([m.group(2)] * _TIMES[m.group(1).lower()])
