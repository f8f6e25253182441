"""One Aho-Corasick automaton for every text-view pattern of a run.

Values and aliases, amount surface forms, surname fragments, context words and fuzzy-match grams
all live in one automaton, so a segment's normalised text is read once whatever the number of
units. Each pattern carries the kinds it serves and their unit indices.

The engine is a `matchers.Matcher` (Vectorscan where its wheel is installed, else `ahocorasick_rs`):
it returns every match of a text in one call, overlapping ones included, with character offsets.
"""

from __future__ import annotations

from collections import defaultdict

from ec2audit.detect.matchers import Matcher, matcher_class

Match = tuple[int, int, tuple[int, ...]]


class PatternIndex:
    def __init__(self, matcher: str | None = None):
        """`matcher`: the name of a registered matcher (default: `matchers.matcher_class`'s choice)."""
        self._matcher_class = matcher_class(matcher)
        self._entries: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
        self._automaton: Matcher | None = None
        self._groups: list[tuple[tuple[str, tuple[int, ...]], ...]] = []
        self._longest: dict[str, int] = defaultdict(int)  # kind → its longest pattern

    def add(self, key: str, kind: str, unit_index: int) -> None:
        if key:
            self._entries[key][kind].append(unit_index)
            self._longest[kind] = max(self._longest[kind], len(key))

    def longest(self, *kinds: str) -> int:
        """The length of the longest pattern of these kinds (a form's reach starts from it)."""
        return max((self._longest.get(kind, 0) for kind in kinds), default=0)

    def build(self) -> PatternIndex:
        if self._entries:
            keys = list(self._entries)
            self._groups = [tuple((kind, tuple(dict.fromkeys(units))) for kind, units in self._entries[key].items())
                            for key in keys]
            self._automaton = self._matcher_class(keys)
        return self

    def matches(self, text: str, anchored: bool = True) -> dict[str, list[Match]]:
        """Every occurrence, overlapping ones included, grouped by kind: (start, end, unit indices).

        `anchored` texts are read with one leading space so patterns anchored on a word start also
        match at position 0; offsets are those of `text` (an anchored match starting at the added
        space starts at 0).
        """
        out: dict[str, list[Match]] = defaultdict(list)
        if self._automaton is not None:
            groups = self._groups
            found = self._automaton.find(" " + text if anchored else text)
            for key, start, end in found:
                if anchored:
                    start, end = (start - 1 if start else 0), end - 1
                for kind, units in groups[key]:
                    out[kind].append((start, end, units))
        return out
