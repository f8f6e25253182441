"""Where a text view may hold a unit's digit number: the exact tier's digit view is then built there only.

The digit view (`normalize.TextView.digits`) rewrites a whole text: separators between digits dropped, Chinese
numerals and English digit words read as digits. On the 8 MB payload that is a regex split into 167,000 pieces
and a map back over them, for some 7,000 numbers a unit has. Instead, every unit's number is compiled into one
Vectorscan database, as a regex over the text view that reads it as the digit view would (each digit or its
Chinese numeral, up to three separators between two), and the digit view is built over the regions around
what it reports, and around each place English digit words start.

A region is cut only at a *safe* character: one that no number, separator run, Chinese numeral run or
English digit-word run holds (not a digit, letter, separator, comma, 、 or numeral). A number and everything its
decision reads but the bank of an account (the character before and after it, the digits and "+" before it)
lie inside its run of unsafe characters; a region spans the runs it touches and includes the safe character at
either end, so the digit view of a region is the whole view's digit view of those characters, letter for
letter. An account's bank is named up to 80 digit-view characters away: its region starts and ends
`ACCOUNT_MARGIN` characters further, and where that still holds fewer, the exact tier reads the whole view.
Where the `hyperscan` wheel is missing, a run has more than `MOST_NUMBERS` numbers (their compile would take
seconds), or a text has a lone surrogate (no UTF-8), the whole view is read: the same hits either way
(tests/test_detect_digit_regions.py).
"""

from __future__ import annotations

import bisect
import itertools
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ec2audit.detect.matchers import characters_at
from ec2audit.detect.normalize import CJK_GROUP_SEPARATOR, CJK_NUMERALS

if TYPE_CHECKING:
    import hyperscan

#: texts shorter than this are read whole (the fixed costs of a Vectorscan scan outweigh the digit view's)
SHORT = 4096
#: the most numbers compiled: Vectorscan compiles these regexes in ~7 ms each at 60 and ~20 ms each at 500 (once per
#: unit set, then cached); a run with more units' numbers reads the whole digit view, as before
MOST_NUMBERS = 100
#: characters either side of an account number a region holds (its bank: 80 digit-view characters away)
ACCOUNT_MARGIN = 240
#: Chinese numerals the digit view reads as digits, by digit (`normalize.CJK_NUMERALS`: runs of six or more)
_NUMERALS = {digit: "".join(n for n, d in CJK_NUMERALS.items() if d == digit) for digit in "0123456789"}
#: as `normalize._DIGIT_SEP` reads them, up to three between two digits, or a comma between two numerals' groups
_SEPARATORS = CJK_GROUP_SEPARATOR
# a character no digit-view rewrite reads as part of a longer run (see the module's docstring); "+" too, and
# every space, to be safe
_SAFE = re.compile(rf"[^\d\sa-z,、+\-./(){''.join(_NUMERALS.values())}]")
_LAST_SAFE = re.compile(rf"(?s:.*){_SAFE.pattern}")  # greedy: ends after the last safe character
Region = tuple[int, int]


def number_pattern(number: str) -> str:
    """The Vectorscan regex of a digit-view number over the text view: "139" → `[1一幺][ \\-./()]{0,3}[3三]…`;
    a resident ID's final "x" follows its last digit directly."""
    parts = []
    for k, ch in enumerate(number):
        if k and ch != "x":
            parts.append(_SEPARATORS)
        numerals = "".join(rf"\x{{{ord(n):x}}}" for n in _NUMERALS.get(ch, ""))
        parts.append(f"[{ch}{numerals}]" if numerals else re.escape(ch))
    return "".join(parts)


class DigitRegions:
    """The regions of a text view the digit view must read to find `numbers` (and `accounts`, the numbers
    whose bank is read around them). The database is compiled for the first text long enough to read by
    regions: a run that scans only short texts (the interceptor's chat turns) never compiles it."""

    def __init__(self, numbers: Iterable[str], accounts: Iterable[str]):
        self._accounts = sorted(set(accounts))
        self._patterns = sorted(set(numbers) - set(self._accounts)) + self._accounts
        self._first_account = len(self._patterns) - len(self._accounts)
        self._database: hyperscan.Database | None = None
        self._compiled = not self._patterns or len(self._patterns) > MOST_NUMBERS  # True: nothing (more) to compile
        self._compiling = threading.Lock()
        self._local = threading.local()  # scratch space is per thread

    def _compile(self) -> None:
        with self._compiling:
            if self._compiled:
                return
            try:
                import hyperscan

                from ec2audit.detect.matchers import vectorscan_database
            except ImportError:
                self._compiled = True
                return
            encoded = [number_pattern(p).encode() for p in self._patterns]
            self._database, self._local.scratch = vectorscan_database(encoded, hyperscan.HS_FLAG_UTF8)
            self._new_scratch: Callable[[], hyperscan.Scratch] = lambda: hyperscan.Scratch(self._database)
            self._compiled = True

    def regions(self, text: str, english: Sequence[int]) -> list[Region] | None:
        """Sorted disjoint regions of `text` holding every number (`english`: where digit words start); None:
        read the whole text (short, no Vectorscan, no UTF-8)."""
        if len(text) < SHORT:
            return None
        if not self._compiled:
            self._compile()
        if self._database is None:
            return None
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (JSON "\\ud83d")
            return None
        ends: list[tuple[int, bool]] = []  # (byte end, an account's)
        first_account = self._first_account

        def on_match(pattern: int, _start: int, end: int, _flags: int, _context: object) -> None:
            ends.append((end, pattern >= first_account))

        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = self._new_scratch()
        self._database.scan(data, match_event_handler=on_match, scratch=scratch)
        if len(data) == len(text):
            chars = None
        else:
            chars = characters_at(data, {end for end, _ in ends})
        spans = [(end - 1 - ACCOUNT_MARGIN, end + ACCOUNT_MARGIN) if account else (end - 1, end)
                 for end, account in ((e if chars is None else chars[e], a) for e, a in ends)]
        spans += [(start, start + 1) for start in english]
        return _cut(text, spans)


def _cut(text: str, spans: list[Region]) -> list[Region]:
    """`spans` widened to safe characters on either side (each kept), merged where they meet."""
    out: list[Region] = []
    n = len(text)
    for lo, hi in sorted(spans):
        lo, hi = max(0, lo), min(n, hi)
        if out and hi <= out[-1][1]:
            continue
        lo = _safe_at_or_before(text, lo)
        after = _SAFE.search(text, max(lo, hi - 1))
        hi = after.end() if after else n
        if out and lo < out[-1][1]:
            out[-1] = (out[-1][0], max(hi, out[-1][1]))
        else:
            out.append((lo, hi))
    return out


def _safe_at_or_before(text: str, pos: int) -> int:
    """The offset of the last safe character at or before `pos`, else 0 (one regex call per 64 characters)."""
    hi = pos + 1
    while hi > 0:
        lo = max(0, hi - 64)
        if found := _LAST_SAFE.match(text, lo, hi):
            return found.end() - 1
        hi = lo
    return 0


class Regions:
    """Regions of a text read as one text (`text`), with the way back to the text's offsets."""

    def __init__(self, text: str, regions: list[Region]):
        self.regions = regions
        self.starts = list(itertools.accumulate((hi - lo for lo, hi in regions[:-1]), initial=0))
        self.text = "".join(text[lo:hi] for lo, hi in regions)
        self._length = len(text)

    def inside(self, offsets: Iterable[int]) -> list[int]:
        """The offsets of the text that lie in a region, as offsets of `text`."""
        out = []
        los = [lo for lo, _ in self.regions]
        for offset in offsets:
            k = bisect.bisect_right(los, offset) - 1
            if k >= 0 and offset < self.regions[k][1]:
                out.append(self.starts[k] + offset - self.regions[k][0])
        return out

    def to_view(self, start: int, end: int) -> tuple[int, int]:
        """The text's offsets of a span of `text` inside one region."""
        k = bisect.bisect_right(self.starts, start) - 1
        shift = self.regions[k][0] - self.starts[k]
        return start + shift, end + shift

    def shows(self, start: int, end: int, whole_start: bool, whole_end: bool) -> bool:
        """Does a span of `text` read as the text's would: inside one region, and, where the reading stopped at
        the joined text's start (not `whole_start`) or end (not `whole_end`), the text's too?"""
        k = bisect.bisect_right(self.starts, start) - 1
        lo, hi = self.regions[k]
        return end <= self.starts[k] + hi - lo and (whole_start or lo == 0) and (whole_end or hi == self._length)
