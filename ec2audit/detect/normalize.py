"""Canonical views of text, with a way back to the original characters.

All matching happens on normalised views: NFKC (full-width → half-width), case folding and
whitespace collapsing for text; digits only for phone, ID and card numbers; a number for amounts.
Units and payloads go through the same functions, so both sides always agree.

Speed matters (this is the audit hot path), so views are built with C-level string operations and
the map back to original offsets is computed only when a match needs it.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

_OTHER_WS = re.compile(r"[^\S ]")
_MULTI_SPACE = re.compile(r" {2,}")
# Separators people put inside phone, ID and card numbers: "139-2288-3366", "6222 0000 1234" — 1 to 3
# of them between two digits. Written to start with a character class rather than a lookbehind, so
# the regex engine can skip ahead to candidate characters (2× faster on our payloads).
_DIGIT_SEP = re.compile(r"[ \-./()](?<=\d[ \-./()])[ \-./()]{0,2}(?=\d)")

_fold_cache: dict[int, str] = {}


def _fold_char(code: int) -> str:
    """NFKC + case fold of one character; every whitespace becomes a plain space."""
    folded = _fold_cache.get(code)
    if folded is None:
        ch = chr(code)
        folded = " " if ch.isspace() else unicodedata.normalize("NFKC", ch).casefold()
        _fold_cache[code] = folded
    return folded


def fold(text: str) -> str:
    """NFKC, case folding and whitespace → space, character by character."""
    if text.isascii():
        text = text.lower()
        return _OTHER_WS.sub(" ", text) if not text.isprintable() else text
    if unicodedata.is_normalized("NFKC", text):  # then per-character NFKC changes nothing
        folded = text.casefold()
        return folded if folded.isprintable() else _OTHER_WS.sub(" ", folded)
    table = {code: _fold_char(code) for code in map(ord, set(text))}
    return text.translate(table)


def normalize_text(text: str) -> str:
    """The text view: fold, then collapse whitespace runs to one space."""
    return TextView.of(text).text


class _Breakpoints:
    """Piecewise-linear map from positions in a derived string to positions in its source."""

    def __init__(self, points: list[tuple[int, int]]):
        self.derived = [d for d, _ in points]
        self.source = [s for _, s in points]

    def __call__(self, i: int) -> int:
        k = bisect.bisect_right(self.derived, i) - 1
        if k < 0:
            return i
        return self.source[k] + (i - self.derived[k])


def _removal_map(source: str, pattern: re.Pattern, replacement_len: int) -> _Breakpoints:
    """Map for `pattern.sub(<replacement_len chars>, source)` back to `source`."""
    spans = [m.span() for m in pattern.finditer(source)]
    shifts = itertools.accumulate(end - start - replacement_len for start, end in spans)
    return _Breakpoints([(end - shift, end) for (_, end), shift in zip(spans, shifts, strict=True)])


def _fold_map(text: str) -> _Breakpoints:
    """Map from `fold(text)` back to `text`: only characters that fold to ≠ 1 char move offsets."""
    points, pos = [], 0
    for i, ch in enumerate(text):
        n = len(_fold_char(ord(ch))) if not ch.isascii() else 1
        pos += n
        if n != 1:
            points.append((pos, i + 1))
    return _Breakpoints(points)


@dataclass
class TextView:
    """A normalised text plus a lazily built map back to the original string."""

    original: str
    text: str
    folded: str = field(default="", repr=False)  # before whitespace collapsing
    _maps: tuple[_Breakpoints, _Breakpoints | None] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, original: str) -> TextView:
        folded = fold(original)
        return cls(original, _MULTI_SPACE.sub(" ", folded) if "  " in folded else folded, folded)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Original offsets of a span of the normalised text (built on first use: matches are rare)."""
        if self._maps is None:
            folded = self.folded or fold(self.original)
            fold_map = _fold_map(self.original) if len(folded) != len(self.original) else None
            self._maps = (_removal_map(folded, _MULTI_SPACE, 1), fold_map)
        ws_map, fold_map = self._maps
        s, e = ws_map(start), ws_map(end - 1) + 1
        if fold_map:
            s, e = fold_map(s), fold_map(e - 1) + 1
        return s, min(e, len(self.original))

    def digits(self) -> DigitView:
        return DigitView(self, _DIGIT_SEP.sub("", self.text))


@dataclass
class DigitView:
    """The text view with separators between digits removed: "139-2288-3366" → "13922883366"."""

    base: TextView
    text: str
    _map: _Breakpoints | None = field(default=None, repr=False)

    def to_base(self, start: int, end: int) -> tuple[int, int]:
        if self._map is None:
            self._map = _removal_map(self.base.text, _DIGIT_SEP, 0)
        return self._map(start), self._map(end - 1) + 1


# --- amounts ----------------------------------------------------------------------------------

_MULTIPLIERS = {
    "k": 10**3, "thousand": 10**3, "千": 10**3, "m": 10**6, "mn": 10**6, "mm": 10**6, "million": 10**6,
    "百万": 10**6, "千万": 10**7, "b": 10**9, "bn": 10**9, "billion": 10**9, "万": 10**4, "亿": 10**8,
}
_CURRENCY = r"(?:[¥$€£]|rmb|cny|usd|eur|gbp|us\$)"
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_WORD_MULT = r"thousand|million|billion|百万|千万|万|亿|千"
AMOUNT = re.compile(
    rf"(?P<cur>{_CURRENCY})\s?(?P<n1>{_NUMBER})\s?(?P<m1>{_WORD_MULT}|mn|mm|bn|k|m|b)?(?![a-z])"
    rf"|(?<![\d.,])(?P<n2>{_NUMBER})\s?(?P<m2>{_WORD_MULT})"
    rf"|(?<![\d.,])(?P<n3>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?)(?![\d,])"
)


def amount_key(number: str, multiplier: str | None = None) -> int | None:
    """An amount in hundredths, so `¥3.2M`, `3,200,000`, `320万` and `3.2 million` compare equal."""
    try:
        value = Decimal(number.replace(",", ""))
    except InvalidOperation:
        return None
    value *= _MULTIPLIERS.get(multiplier or "", 1)
    return int((value * 100).to_integral_value())


def parse_amount(text: str) -> int | None:
    """The amount a whole value stands for (e.g. a salary unit), or None when it is not one."""
    norm = normalize_text(text).strip().removesuffix("元").removesuffix("块").strip()
    m = AMOUNT.fullmatch(norm)
    if m:
        number = m["n1"] or m["n2"] or m["n3"]
        return amount_key(number, m["m1"] or m["m2"])
    if re.fullmatch(r"\d+(?:\.\d+)?", norm):
        return amount_key(norm)
    return None


def _plain(value: Decimal) -> str | None:
    """A number as people write it: no exponent, no trailing zeros, at most 3 decimals."""
    text = format(value.normalize(), "f")
    if "." in text and len(text.split(".")[1]) > 3:
        return None
    return text


_SCALED_FORMS = (
    (10**4, ("{}万", "{} 万", "{}万元")), (10**8, ("{}亿", "{} 亿", "{}亿元")),
    (10**3, ("{}k", "{} thousand")), (10**6, ("{}m", "{}mn", "{} million", "{}million", "{} mio")),
    (10**9, ("{}bn", "{} billion", "{}b")),
)


def amount_forms(key: int) -> list[str]:
    """The normalised surface forms of an amount (in hundredths), for matching them literally.

    `3200000` becomes "3,200,000", "3200000", "320万", "3.2m", "3.2 million", "3200k", … — so amounts
    are found by the same automaton as every other value instead of parsing every number in the text.
    """
    value = Decimal(key) / 100
    whole = value == value.to_integral_value()
    forms = {f"{int(value):,}", str(int(value))} if whole else {f"{value:,.2f}", f"{value:.2f}"}
    if whole:
        forms.add(f"{int(value):,}.00")
    for scale, templates in _SCALED_FORMS:
        scaled = _plain(value / scale)
        if scaled is not None and Decimal(scaled) >= Decimal("0.01"):
            forms.update(t.format(scaled) for t in templates)
    return sorted(forms)
