"""A value spelled out character by character, as one reads it over the phone: letters in the phonetic alphabet
(`November Hotel`, `N for November`, `B as in bravo`), letters with their case said (`capital T, r, zero`),
digits as words, symbols by name (`ampersand`, `exclamation mark`). Read as the characters it names
(`NH482793B`, `Tr0ub4dor&Mango!92`), the run is the value the tiers read.

A run is six or more such items in a row, separated by commas or spaces, of which two at least are no digit
or bare letter (a phonetic word, a letter with its case or its word, a symbol's name): a list of single letters
or a number read out is no spelling (the digit view reads the number)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ec2audit.detect.forms import Form, any_case, register
from ec2audit.detect.normalize import ENGLISH_DIGITS
from ec2audit.detect.views import Replacement

_PHONETIC = {word: word[0].upper() for word in (
    "alpha", "alfa", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "juliett",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor",
    "whiskey", "whisky", "x-ray", "xray", "yankee", "zulu")}
_SYMBOLS = {
    "ampersand": "&", "exclamation mark": "!", "exclamation point": "!", "at sign": "@", "at symbol": "@",
    "hash": "#", "hash sign": "#", "pound sign": "#", "number sign": "#", "dollar sign": "$", "percent sign": "%",
    "caret": "^", "asterisk": "*", "underscore": "_", "hyphen": "-", "dash": "-", "plus sign": "+",
    "equals sign": "=", "equal sign": "=", "full stop": ".", "period": ".", "slash": "/", "forward slash": "/",
    "backslash": "\\", "question mark": "?", "tilde": "~", "colon": ":", "semicolon": ";"}
_NAMED = {**_PHONETIC, **_SYMBOLS, **ENGLISH_DIGITS}
_UPPER = ("capital", "uppercase", "upper case", "upper-case", "big")
_LOWER = ("small", "lowercase", "lower case", "lower-case", "little")
_CASES = {word: str.upper for word in _UPPER} | {word: str.lower for word in _LOWER}


_GAP = r"[ \t]+"  # between the words of an item (a run is on one line)


def _words(words: Iterable[str]) -> str:
    """Alternatives of `words`, longest first, a space in one matching any."""
    return "|".join(re.escape(w).replace(r"\ ", _GAP) for w in sorted(words, key=len, reverse=True))


# one item, whole (not the end of a word: `it's`): the letter after a case word, a letter and its word, a named
# character, digits, a bare letter; `double`/`triple` before it repeats it
_ITEM = re.compile(rf"(?<![\w'\u2019-])(?:(?P<times>double|triple){_GAP})?"
                   rf"(?:(?P<case>{_words(_CASES)}){_GAP}(?P<cased>[a-z])"
                   rf"|(?P<letter>[a-z]){_GAP}(?:for|as{_GAP}in){_GAP}(?P<name>[a-z]+(?:-[a-z]+)?)"
                   rf"|(?P<named>{_words(_NAMED)})|(?P<digits>\d+)|(?P<bare>[a-z]))(?![\w-])", re.IGNORECASE)
_SEPARATOR = re.compile(r"[ \t]*[,;][ \t]*(?:(?:and|then)[ \t]+)?|[ \t]+(?:(?:and|then)[ \t]+)?", re.IGNORECASE)
_MIN_ITEMS, _MIN_NAMED = 6, 2
_TIMES = {"double": 2, "triple": 3}
# a line worth reading: a word of a phonetic letter, a case word, a symbol's name (its longest word), or a letter
# and its word; a run names two such items
_CUE = "|".join([*(any_case(max(w.split(), key=len)) for w in sorted({*_PHONETIC, *_CASES, *_SYMBOLS})),
                 r"(?:^|[^A-Za-z])[A-Za-z][ \t]+(?:[fF][oO][rR]|[aA][sS][ \t]+[iI][nN])[ \t]+[A-Za-z]"])


class _Item(NamedTuple):
    chars: str  # the characters it names
    named: bool  # named unmistakably: no digit, no bare letter
    bare: bool  # a letter alone, read as one only between commas (not the article in "is a capital T")


def _item(m: re.Match[str]) -> _Item | None:
    """What one item names; None for a letter whose word starts with another letter."""
    times = _TIMES.get((m.group("times") or "").lower(), 1)
    if m.group("case"):
        return _Item(_CASES[re.sub(r"\s+", " ", m.group("case").lower())](m.group("cased")) * times, True, False)
    if m.group("letter"):
        same = m.group("name")[0].lower() == m.group("letter").lower()
        return _Item(m.group("letter").upper() * times, True, False) if same else None
    if m.group("named"):
        word = re.sub(r"\s+", " ", m.group("named").lower())
        return _Item(_NAMED[word] * times, word not in ENGLISH_DIGITS, False)
    return _Item((m.group("digits") or m.group("bare")) * times, False, m.group("bare") is not None)


@register
class SpelledOut(Form):
    name = "spelled_out"
    cue = _CUE
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        pos = 0
        while first := _ITEM.search(text, pos):
            run = self._run(text, first)
            pos = max(run[1], first.end()) if run else first.end()
            if run:
                yield run

    @staticmethod
    def _run(text: str, first: re.Match[str]) -> Replacement | None:
        """The spelled run from `first` on, or None where it is no spelling."""
        items: list[_Item] = []
        start = end = first.start()
        m: re.Match[str] | None = first
        spaced = False  # the separator before `m` is whitespace alone
        while m and (item := _item(m)):
            if spaced and (item.bare or items[-1].bare):
                if len(items) > 1 or item.bare:
                    break
                items, start = [], m.start()  # a bare letter (an article) before the run
            items.append(item)
            end = m.end()
            separator = _SEPARATOR.match(text, end)
            spaced = separator is not None and not separator.group().strip()
            m = _ITEM.match(text, separator.end()) if separator else None
        if len(items) < _MIN_ITEMS or sum(item.named for item in items) < _MIN_NAMED:
            return None
        return start, end, "".join(item.chars for item in items)
