"""Letters replaced by look-alikes from another script: Cyrillic `а`, Greek `ο` inside a Latin name, e-mail
or key ("Ann Lее", "аnn.lee77@example.org"). Each such character is read as its Unicode TR39 prototype
(the confusables table of `confusable_homoglyphs`, Unicode's own data), but only inside a token that
also holds Latin letters or digits: a word wholly in Cyrillic or Greek is that script's word."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import cache

from ec2audit.detect.forms import Form, char_class, register
from ec2audit.detect.views import Replacement

# a token of a space-separated script: Latin, Greek, Cyrillic, Armenian… letters, digits and handle signs
_TOKEN_CHAR = r"[0-9A-Za-z\u00c0-\u058f\u10a0-\u10ff\u13a0-\u13ff\u1e00-\u1fff.@+_-]"
_TOKEN_BEFORE = re.compile(f"{_TOKEN_CHAR}*$")
_TOKEN_AFTER = re.compile(f"{_TOKEN_CHAR}*")
_LONGEST_TOKEN = 64
_ASCII_ALNUM = re.compile(r"[0-9A-Za-z]")


def _prototype(ch: str, candidates: list[str]) -> str | None:
    """The ASCII letter or digit `ch` is confusable with; where several are, the one its Unicode name
    spells ("CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I" → "i"), else one of its case."""
    ascii_ = [c for c in candidates if c.isascii() and c.isalnum()]
    if not ascii_:
        return None
    spelled = unicodedata.name(ch, "").rsplit(" ", 1)[-1]
    named = [c for c in ascii_ if c.upper() == spelled]
    same_case = [c for c in ascii_ if c.isalpha() and c.islower() == ch.islower()]
    return (named or same_case or ascii_)[0]


@cache
def _skeleton() -> tuple[dict[int, str], re.Pattern]:
    """Non-ASCII letters and digits → their ASCII prototype, and a pattern of those characters. Characters that
    NFKC folds to ASCII already (full-width, mathematical letters) and CJK are left to the text view; astral
    look-alikes (Warang Citi, Deseret…) too: one in the class makes every search 30× slower."""
    from confusable_homoglyphs.utils import load

    table: dict[int, str] = {}
    for ch, homoglyphs in load("confusables.json").items():
        if len(ch) != 1 or ch.isascii() or ord(ch) > 0xFFFF or not unicodedata.category(ch).startswith(("L", "N")):
            continue
        if unicodedata.normalize("NFKC", ch).isascii() or "\u2e80" <= ch <= "\ufaff":
            continue
        if prototype := _prototype(ch, [h["c"] for h in homoglyphs]):
            table[ord(ch)] = prototype
    return table, re.compile(char_class(table))


@register
class Confusables(Form):
    name = "confusables"

    def compile(self, index) -> None:
        _skeleton()  # read with the automaton, not on the first text

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if text.isascii():
            return
        table, confusable = _skeleton()
        last = 0
        for m in confusable.finditer(text):  # the characters are found in C; their tokens are grown here
            if m.start() < last:
                continue
            before = _TOKEN_BEFORE.search(text, max(0, m.start() - _LONGEST_TOKEN), m.start())
            after = _TOKEN_AFTER.match(text, m.end())
            start, last = (before.start() if before else m.start()), (after.end() if after else m.end())
            word = text[start:last]
            if _ASCII_ALNUM.search(word):
                yield start, last, word.translate(table)
