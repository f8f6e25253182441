"""One Aho-Corasick automaton for every text-view pattern of a run.

Values and aliases, amount surface forms, surname fragments, context words and fuzzy-match grams
all live in one automaton, so a segment's normalised text is read once whatever the number of
units. Each pattern carries the kinds it serves and their unit indices.
"""

from __future__ import annotations

from collections import defaultdict

import ahocorasick

Match = tuple[int, int, tuple[int, ...]]


class PatternIndex:
    def __init__(self):
        self._entries: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
        self._automaton: ahocorasick.Automaton | None = None

    def add(self, key: str, kind: str, unit_index: int) -> None:
        if key:
            self._entries[key][kind].append(unit_index)

    def build(self) -> PatternIndex:
        if self._entries:
            self._automaton = ahocorasick.Automaton()
            for key, kinds in self._entries.items():
                groups = tuple((kind, tuple(dict.fromkeys(units))) for kind, units in kinds.items())
                self._automaton.add_word(key, (len(key), groups))
            self._automaton.make_automaton()
        return self

    def matches(self, text: str) -> dict[str, list[Match]]:
        """Every occurrence, overlapping ones included, grouped by kind: (start, end, unit indices).

        The text is read with one leading space so patterns anchored on a word start also match at
        position 0; offsets are those of `text` (an anchored match starts at its anchor, ≥ -1 → 0).
        """
        out: dict[str, list[Match]] = defaultdict(list)
        if self._automaton is not None:
            for last, (length, groups) in self._automaton.iter(" " + text):
                start, end = max(0, last - length), last
                for kind, units in groups:
                    out[kind].append((start, end, units))
        return out
