"""Exact tier: every unit of a run in one Aho-Corasick automaton per view, grade 1.0.

Cost grows with the payload's length, not with units × payload: one pass over the text view, one
over the digit view, one regex pass for amounts.
"""

from __future__ import annotations

from collections.abc import Iterator

import ahocorasick

from ec2audit.detect.compiled import CompiledUnit, is_word_char
from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.normalize import TextView, find_amounts


def _automaton(entries: dict[str, list[int]]) -> ahocorasick.Automaton | None:
    if not entries:
        return None
    automaton = ahocorasick.Automaton()
    for key, indices in entries.items():
        automaton.add_word(key, (len(key), tuple(indices)))
    automaton.make_automaton()
    return automaton


class ExactDetector:
    name = "exact"

    def __init__(self, units: list[CompiledUnit]):
        self.units = units
        text, digits, amounts = {}, {}, {}
        for i, cu in enumerate(units):
            for form in cu.forms:
                text.setdefault(form, []).append(i)
            for form in cu.digit_forms:
                digits.setdefault(form, []).append(i)
            if cu.amount is not None:
                amounts.setdefault(cu.amount, []).append(i)
        self._text = _automaton(text)
        self._digits = _automaton(digits)
        self._amounts = amounts

    def scan(self, view: TextView) -> Iterator[Hit]:
        if self._text is not None:
            yield from self._scan_text(view)
        if self._digits is not None:
            yield from self._scan_digits(view)
        if self._amounts:
            for start, end, key in find_amounts(view):
                for i in self._amounts.get(key, ()):
                    s, e = view.to_original(start, end)
                    yield Hit(i, s, e, "exact.amount", LITERAL)

    def _scan_text(self, view: TextView) -> Iterator[Hit]:
        text = view.text
        for last, (length, indices) in self._text.iter(text):
            start, end = last + 1 - length, last + 1
            left_ok = start == 0 or not (is_word_char(text[start - 1]) and is_word_char(text[start]))
            right_ok = end == len(text) or not (is_word_char(text[end]) and is_word_char(text[end - 1]))
            for i in indices:
                cu = self.units[i]
                if cu.rules.word_boundary and not (left_ok and right_ok):
                    continue
                if cu.needs_context and not cu.has_context(view, start, end):
                    continue
                s, e = view.to_original(start, end)
                yield Hit(i, s, e, "exact", LITERAL)

    def _scan_digits(self, view: TextView) -> Iterator[Hit]:
        digits = view.digits()
        base = view.text
        for last, (length, indices) in self._digits.iter(digits.text):
            start, end = digits.to_base(last + 1 - length, last + 1)
            if not _number_boundaries(base, start, end):
                continue
            s, e = view.to_original(start, end)
            for i in indices:
                yield Hit(i, s, e, "exact.digits", LITERAL)


def _number_boundaries(text: str, start: int, end: int) -> bool:
    """A digit match must not continue a longer number; a leading "+CC" country code is allowed."""
    if end < len(text) and text[end].isdigit():
        return False
    if start == 0 or not text[start - 1].isdigit():
        return not (start > 0 and text[start - 1].isalpha() and text[start - 1].isascii())
    k = start
    while k > 0 and text[k - 1].isdigit():
        k -= 1
    return start - k <= 3 and k > 0 and text[k - 1] == "+"
