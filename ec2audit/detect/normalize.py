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
import operator
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cache, lru_cache
from typing import Self

_OTHER_WS = re.compile(r"[^\S ]")
# Two literal spaces first: the regex engine then searches for that prefix in C, 7× faster than
# `( {2,})`, which enters the matcher at every single space.
_MULTI_SPACE = re.compile(r"(   *)")
# Separators people put inside phone, ID and card numbers: "139-2288-3366", "6222 0000 1234" — 1 to 3
# of them between two digits. Written to start with a character class rather than a lookbehind, so
# the regex engine can skip ahead to candidate characters (2× faster on our payloads).
DIGIT_SEPARATOR = r"[ \-./()]"  # one separator between two digits (`digit_regions` reads numbers with it too)
_DIGIT_SEP = re.compile(rf"({DIGIT_SEPARATOR}(?<=\d{DIGIT_SEPARATOR}){DIGIT_SEPARATOR}{{0,2}}(?=\d))")
# Separators inside identifiers (IBANs, MACs, passport and licence numbers, spaced-out IPs).
_ALNUM_SEPARATORS = b" -.:/_"  # as bytes: `TextView.alnum` deletes them from the UTF-8 bytes
_ALNUM_SEP = re.compile(r"([ \-.:/_]+)")
# Phone and ID numbers spelled digit by digit in Chinese numerals ("四一五二七五四零六八"): in the digit
# view, runs of six or more (separators as between digits allowed, and a comma between groups read out,
# "六二二二，零二一二，…" or 、, as the English run allows: `CJK_GROUP_SEPARATOR`) become ASCII digits, one character
# for one (a comma a space), so offsets stay put. Starting with the character class lets the regex engine skip ahead.
CJK_NUMERALS = dict(zip("〇零一二三四五六七八九幺", "001234567891", strict=True))  # numeral → the digit it reads as
CJK_GROUP_SEPARATOR = rf"(?:{DIGIT_SEPARATOR}{{0,3}}|[,、] ?)"  # what may stand between two numerals of a run
_CJK_DIGIT_RUN = re.compile(rf"[{''.join(CJK_NUMERALS)}](?:{CJK_GROUP_SEPARATOR}[{''.join(CJK_NUMERALS)}]){{5,}}")
_CJK_DIGITS = str.maketrans("".join(CJK_NUMERALS), "".join(CJK_NUMERALS.values()))
#: a run's numerals as digits, its commas as spaces
_CJK_RUN_READ = str.maketrans("".join(CJK_NUMERALS) + ",、", "".join(CJK_NUMERALS.values()) + "  ")
# The English twin ("four one five two seven five four zero six eight"): runs of six or more digit
# words become digits. Words are longer than digits, so this one keeps a map back to the text. The
# regex costs 11-15 ns a character, so it is only tried where the automaton saw two digit words in a row
# (`DIGIT_WORD_PAIRS`): every run starts with such a pair.
ENGLISH_DIGITS = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
                  "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_DIGIT_WORD_SEPARATORS = (" ", ",", ", ", "-", " - ")
_WORDS = "|".join(ENGLISH_DIGITS)
_DIGIT_WORD = re.compile(rf"{_WORDS}|x")  # a Chinese resident ID may end in X
_SEPARATOR = "|".join(map(re.escape, sorted(_DIGIT_WORD_SEPARATORS, key=len, reverse=True)))
_ENGLISH_DIGIT_RUN = re.compile(rf"\b(?:{_WORDS})(?:(?:{_SEPARATOR})(?:{_WORDS})){{5,}}(?:(?:{_SEPARATOR})x)?\b")
#: Two digit words in a row, as they stand in the text view: where an English digit run may start.
DIGIT_WORD_PAIRS = tuple(a + sep + b for a in ENGLISH_DIGITS for sep in _DIGIT_WORD_SEPARATORS for b in ENGLISH_DIGITS)


class _FoldTable(dict):
    """Code point → NFKC + case fold of that one character (every whitespace → a plain space).

    `str.translate` reads it directly; a character is worked out the first time it is seen.
    """

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        folded = self[code] = " " if ch.isspace() else unicodedata.normalize("NFKC", ch).casefold()
        return folded


_FOLD = _FoldTable()
_ASCII_SPACES = tuple(c for c in map(chr, range(128)) if c.isspace() and c != " ")


def _class_of(codes: list[int]) -> str:
    """A regex character class body for sorted code points, consecutive ones as ranges."""
    ranges: list[list[int]] = []
    for c in codes:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "".join(re.escape(chr(a)) + (f"-{re.escape(chr(b))}" if b > a else "") for a, b in ranges)


_BMP = [c for c in range(0x10000) if not 0xD800 <= c < 0xE000]


@cache
def _changed_by_fold() -> re.Pattern:
    """Runs of non-ASCII characters that folding changes (each such BMP character, and every astral one); the
    ASCII ones are folded before, all at once (`_fold_ascii`).

    Most characters of Chinese text fold to themselves; translating only these runs is 1.5× faster than
    translating every character (the ASCII ones in the runs too: the 8 MB payload 0.32 → 0.21 s; its class
    written twice, 0.36 → 0.26 s in another run; ASCII folded apart, 96,002 runs, not 193,724: 0.24 → 0.13 s)."""
    changed = f"[{_class_of([c for c in _BMP if c > 127 and _FOLD[c] != chr(c)])}\U00010000-\U0010ffff]"
    return re.compile(changed + changed + "*")  # a class first, not a repeat: the engine skips ahead in C


#: the fold of each ASCII character as a byte (every whitespace → a space), for `bytes.translate`
_ASCII_FOLD = bytes(c if c > 127 else ord(" ") if chr(c).isspace() else ord(chr(c).casefold()) for c in range(256))


def _fold_ascii(text: str) -> str:
    """`text` with its ASCII characters folded and the others as they are, in C: over its UTF-8 bytes, where
    no byte of a non-ASCII character is an ASCII one (a lone surrogate, JSON's "\\ud83d", passes through)."""
    return text.encode("utf-8", "surrogatepass").translate(_ASCII_FOLD).decode("utf-8", "surrogatepass")


@cache
def _resized_by_fold() -> re.Pattern:
    """Each character that folds to other than one character ("…" → "...", "ß" → "ss"), and every astral
    one: the only characters that move offsets between a text and its folded view."""
    return re.compile(f"[{_class_of([c for c in _BMP if len(_FOLD[c]) != 1])}\U00010000-\U0010ffff]")


def prepare_folding() -> None:
    """Build the tables of characters folding changes (0.03 s) before the first text that needs them."""
    _changed_by_fold()
    _resized_by_fold()


def _fold_run(match: re.Match) -> str:
    return match.group().translate(_FOLD)


def fold(text: str) -> str:
    """NFKC, case folding and whitespace → space, character by character."""
    if not (text.isascii() or unicodedata.is_normalized("NFKC", text)):
        return _changed_by_fold().sub(_fold_run, _fold_ascii(text))
    folded = text.casefold()  # in NFKC-normalised text, per-character NFKC changes nothing
    if folded.isprintable():
        return folded
    if not folded.isascii():
        return _OTHER_WS.sub(" ", folded)
    for space in _ASCII_SPACES:  # str.replace is a C loop: 4× faster than the regex on ASCII text
        if space in folded:
            folded = folded.replace(space, " ")
    return folded


def normalize_text(text: str) -> str:
    """The text view: fold, then collapse whitespace runs to one space."""
    return TextView.of(text).text


class _Breakpoints:
    """Piecewise-linear map from positions in a derived string to positions in its source."""

    def __init__(self, derived: list[int], source: list[int]):
        self.derived, self.source = derived, source

    def __call__(self, i: int) -> int:
        k = bisect.bisect_right(self.derived, i) - 1
        if k < 0:
            return i
        return self.source[k] + (i - self.derived[k])

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The source span of a derived span (the hot path of every hit: one call, not two)."""
        derived, source = self.derived, self.source
        k = bisect.bisect_right(derived, start) - 1
        s = start if k < 0 else source[k] + (start - derived[k])
        k = bisect.bisect_right(derived, end - 1, max(k, 0)) - 1
        return s, (end if k < 0 else source[k] + (end - 1 - derived[k]) + 1)


def _collapse(source: str, pattern: re.Pattern, replacement: str) -> tuple[str, _Breakpoints]:
    """`pattern.sub(replacement, source)` and the map back to `source`, from one regex pass.

    `pattern` has one group around the whole match, so `split` returns text and separators in turn.
    """
    parts = pattern.split(source)
    lengths = list(map(len, parts))
    source_ends = list(itertools.accumulate(lengths))[1::2]  # where each separator ends in `source`
    shifts = itertools.accumulate(n - len(replacement) for n in lengths[1::2])
    return replacement.join(parts[::2]), _Breakpoints(list(map(operator.sub, source_ends, shifts)), source_ends)


def _fold_map(text: str) -> _Breakpoints:
    """Map from `fold(text)` back to `text`: only characters that fold to ≠ 1 char move offsets, found by
    one regex pass (a loop over every character took 0.09 s a megabyte, for every view)."""
    derived, source, shift = [], [], 0
    for m in _resized_by_fold().finditer(text):
        n = len(_FOLD[ord(m.group())])
        if n != 1:  # not an astral character that folds to one
            shift += n - 1
            derived.append(m.end() + shift)
            source.append(m.end())
    return _Breakpoints(derived, source)


@dataclass
class TextView:
    """A normalised text plus a map back to the original string."""

    original: str
    text: str
    folded: str = field(repr=False)  # before whitespace collapsing
    _ws_map: _Breakpoints | None = field(default=None, repr=False)
    _fold_map: _Breakpoints | None = field(default=None, repr=False)
    #: spans of the original a tier read further than its reach (an account's bank named 80 digits away):
    #: windows of views derived from this text hold them whole
    reached: list[tuple[int, int]] = field(default_factory=list, repr=False)

    @classmethod
    def of(cls, original: str) -> Self:
        folded = fold(original)
        if "  " not in folded:
            return cls(original, folded, folded)
        text, ws_map = _collapse(folded, _MULTI_SPACE, " ")
        return cls(original, text, folded, ws_map)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Original offsets of a span of the normalised text."""
        s, e = (start, end) if self._ws_map is None else self._ws_map.span(start, end)
        if len(self.folded) != len(self.original):  # built on first use: such characters are rare
            if self._fold_map is None:
                self._fold_map = _fold_map(self.original)
            s, e = self._fold_map.span(s, e)
        return s, min(e, len(self.original))

    def alnum(self) -> str:
        """The alphanumeric view: every separator removed ("gb82 west 1234" → "gb82west1234", "a4-5e-60"
        → "a45e60"). Matches are checked for word boundaries in the text view, so words running
        together here do no harm; `alnum_map` leads back to the text view."""
        # the separators' bytes deleted from the UTF-8 bytes, in C (no byte of a non-ASCII character is an ASCII
        # one): one pass, not one `str.replace` a separator (8 MB: 0.098 → 0.045 s; a regex split is 10× slower)
        raw = self.text.encode("utf-8", "surrogatepass")
        return raw.translate(None, _ALNUM_SEPARATORS).decode("utf-8", "surrogatepass")

    def alnum_map(self) -> _Breakpoints:
        """Map from the alphanumeric view back to the text view (built only when something matched)."""
        return _collapse(self.text, _ALNUM_SEP, "")[1]

    def digits(self, english: Iterable[int] = ()) -> DigitView:
        """The digit view; numbers spelled in English digit words are read where they start at one of the
        offsets `english` (where the automaton saw `DIGIT_WORD_PAIRS` in this view)."""
        numbers = self.text if self.text.isascii() else \
            _CJK_DIGIT_RUN.sub(lambda m: m.group().translate(_CJK_RUN_READ), self.text)
        starts = sorted(set(english))
        numbers, spelled = _spell_english(numbers, starts) if starts else (numbers, None)
        return DigitView(self, numbers, *_collapse(numbers, _DIGIT_SEP, ""), spelled)


def _runs_at(pattern: re.Pattern, text: str, starts: list[int]) -> Iterator[re.Match]:
    """`pattern.finditer(text)` when every match starts at one of the sorted offsets `starts`."""
    end = 0
    for start in starts:
        if start >= end and (run := pattern.match(text, start)):
            end = run.end()
            yield run


def _spell_english(text: str, starts: list[int]) -> tuple[str, _Breakpoints | None]:
    """English digit runs (each starting at one of `starts`) as digits, separators dropped ("four one-five
    …" → "415…"), and the map from each digit back to the start of its word."""
    parts, derived, source, last, length = [], [], [], 0, 0
    for run in _runs_at(_ENGLISH_DIGIT_RUN, text, starts):
        parts.append(text[last:run.start()])
        length += run.start() - last
        for word in _DIGIT_WORD.finditer(text, run.start(), run.end()):
            parts.append(ENGLISH_DIGITS.get(word.group(), word.group()))
            derived.append(length)
            source.append(word.start())
            length += 1
        last = run.end()
        derived.append(length)
        source.append(last)
    if not parts:
        return text, None
    parts.append(text[last:])
    return "".join(parts), _Breakpoints(derived, source)


@dataclass
class DigitView:
    """The text view with separators between digits removed ("139-2288-3366" → "13922883366") and
    numbers spelled digit by digit as digits ("一三九二二八八三三六六", "one three nine …")."""

    base: TextView
    numbers: str  # the base view's text with spelled numbers as digits
    text: str
    _map: _Breakpoints = field(repr=False)  # text → numbers
    _spelled: _Breakpoints | None = field(default=None, repr=False)  # numbers → base, when English runs moved it

    def to_numbers(self, start: int, end: int) -> tuple[int, int]:
        return self._map(start), self._map(end - 1) + 1

    def to_base(self, start: int, end: int) -> tuple[int, int]:
        """Base-view offsets of a span of `numbers`; a spelled digit ends where its word ends."""
        if self._spelled is None:
            return start, end
        last = self._spelled(end - 1)
        word = _DIGIT_WORD.match(self.base.text, last)
        return self._spelled(start), word.end() if word else last + 1


# --- amounts ----------------------------------------------------------------------------------

_MULTIPLIERS = {
    "k": 10**3, "thousand": 10**3, "千": 10**3, "m": 10**6, "mn": 10**6, "mm": 10**6, "million": 10**6,
    "百万": 10**6, "千万": 10**7, "b": 10**9, "bn": 10**9, "billion": 10**9, "万": 10**4, "亿": 10**8,
}
_CURRENCY = r"(?:[¥$€£]|rmb|cny|usd|eur|gbp|hkd|us\$|hk\$)"
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


# Currency markers, as the text view reads them (NFKC folds ￥ to ¥), longest first within a currency so
# "hk$" and "港元" are not read as "$" and "元".
_CURRENCIES = {
    "hkd": ("港元", "港币", "hk$", "hkd"), "usd": ("美元", "us$", "usd", "dollars", "dollar", "$"),
    "cny": ("人民币", "元", "块", "¥", "rmb", "cny", "yuan"), "gbp": ("英镑", "£", "gbp", "pounds", "pound"),
    "eur": ("欧元", "€", "eur", "euros", "euro"),
    "jpy": ("日元", "jpy"), "brl": ("r$", "brl"), "inr": ("₹", "inr"), "aud": ("a$", "aud"), "cad": ("c$", "cad"),
    "chf": ("chf",), "sgd": ("s$", "sgd"), "krw": ("₩", "krw"), "mxn": ("mxn",), "nzd": ("nzd",),
}
_MARKERS = sorted(((m, c) for c, ms in _CURRENCIES.items() for m in ms), key=lambda mc: -len(mc[0]))
_MARKER_CURRENCY = dict(_MARKERS)
_MARKER_ALTERNATIVES = "|".join(re.escape(m) for m, _ in _MARKERS)
_MARKER_BEFORE = re.compile(rf"({_MARKER_ALTERNATIVES}) ?$")
_MARKER_AFTER = re.compile(rf" ?({_MARKER_ALTERNATIVES})")
_CURRENCY_WORDS = re.compile(r"^(?:人民币|rmb|cny)\s*"
                             r"|\s*(?:元|块|人民币|rmb|cny|yuan|usd|dollars?|gbp|pounds?|eur|euros?)$")


def currency_of(value: str) -> str | None:
    """The currency a value is written in ("£64,250" → "gbp", "52万元" → "cny"), or None."""
    norm = normalize_text(value)
    return next((c for m, c in _MARKERS if m in norm), None)


def currency_next_to(text: str, start: int, end: int) -> str | None:
    """The currency written right before or right after a number in the text view, or None."""
    m = _MARKER_BEFORE.search(text, max(0, start - 6), start) or _MARKER_AFTER.match(text, end, end + 6)
    return _MARKER_CURRENCY[m.group(1)] if m else None


def parse_amount(text: str) -> int | None:
    """The amount a whole value stands for (e.g. a salary unit), or None when it is not one."""
    norm = _CURRENCY_WORDS.sub("", normalize_text(text).strip()).strip()
    m = AMOUNT.fullmatch(norm)
    if m:
        number = m["n1"] or m["n2"] or m["n3"]
        return amount_key(number, m["m1"] or m["m2"])
    if re.fullmatch(r"\d+(?:\.\d+)?", norm):
        return amount_key(norm)
    # one amount inside a label and a note ("年薪48万元（税前）", "投标报价1,236.8万元"): nothing else holds a digit
    found = [m for m in AMOUNT.finditer(norm) if m["n2"] or m["n3"] or m["cur"]]
    if len(found) == 1 and not any(c.isdigit() for c in norm[:found[0].start()] + norm[found[0].end():]):
        m = found[0]
        return amount_key(m["n1"] or m["n2"] or m["n3"], m["m1"] or m["m2"])
    # ... or a plain number with its currency after it ("税前月薪28500元", "每飞行小时 235 美元")
    whole = normalize_text(text)
    found = list(_NUMBER_THEN_CURRENCY.finditer(whole))
    if len(found) == 1 and sum(c.isdigit() for c in whole) == len(found[0][1].replace(".", "")):
        return amount_key(found[0][1])
    return None


_NUMBER_THEN_CURRENCY = re.compile(r"(?<![\d.,])(\d+(?:\.\d+)?) ?(?:元|美元|欧元|英镑|日元|港元|块)")


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


#: The characters of an amount in Chinese numerals, plain and financial (大写) forms.
CHINESE_NUMERALS = "零〇一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟萬億"
# [numerals]{3,} written to start with a class, not a repeat, so the engine skips ahead in C (8 MB 0.083 → 0.021 s)
_CHINESE_NUMERAL_RUN = re.compile(f"[{CHINESE_NUMERALS}][{CHINESE_NUMERALS}]{{2,}}")


def chinese_amounts(text: str) -> Iterator[tuple[int, int, int]]:
    """Amounts written in Chinese numerals ("叁拾陆万捌仟元整", "三十六万八千"): (start, end, amount in
    hundredths), read by cn2an."""
    if text.isascii():
        return
    for m in _CHINESE_NUMERAL_RUN.finditer(text):
        if (amount := _amount_of(m.group())) is not None:
            yield m.start(), m.end(), amount


@lru_cache(maxsize=4096)
def _amount_of(run: str) -> int | None:
    """A run of Chinese numerals read by cn2an, in hundredths (None: no number), once per distinct run: the
    same amounts recur through a log (the 8 MB payload: 787 runs of 20 amounts, 0.3 → 0.07 s)."""
    import cn2an  # 0.3 s to import: only for texts that hold such a run

    try:
        return int(round(cn2an.cn2an(run, "normal") * 100))
    except (ValueError, KeyError, IndexError):
        return None


_EUROPEAN = str.maketrans(",.", ".,")


#: a currency's names in the languages a translated record is written in, after a number grouped the European way
_FOREIGN_NAMES = {"usd": ("dólares", "dolares", "dollars", "dollari", "dolarów", "dollar", "usd"),
                  "eur": ("euros", "euro", "eur", "€"),
                  "gbp": ("libras", "livres", "pfund", "pounds", "sterlina", "gbp"),
                  "cny": ("yuanes", "yuans", "yuan", "元", "cny", "rmb")}
#: ... and the symbols before it that name one currency only ("$" is also the peso's, and ends "R$")
_FOREIGN_SYMBOLS = {"usd": ("us$",), "eur": ("€",), "gbp": ("£",)}


def amount_forms(key: int, currency: str | None = None) -> list[str]:
    """The normalised surface forms of an amount (in hundredths), for matching them literally.

    `3200000` becomes "3,200,000", "3200000", "3 200 000", "320万", "3.2m", "3.2 million", "3200k", … — so amounts
    are found by the same automaton as every other value instead of parsing every number in the text. With its
    `currency`, also grouped with full stops as most of Europe and Latin America write it, which only the currency
    beside it tells from a decimal: "92.400 dólares", "US$ 92.400".
    """
    value = Decimal(key) / 100
    whole = value == value.to_integral_value()
    forms = {f"{int(value):,}", str(int(value))} if whole else {f"{value:,.2f}", f"{value:.2f}"}
    if whole:
        forms.update({f"{int(value):,}.00", f"{int(value)}.00"})
        if value >= 1000:
            spaced = f"{int(value):,}".replace(",", " ")  # as French, Polish, Swedish … group it
            forms.update({spaced, f"{spaced},00"})
            dotted = f"{int(value):,}".translate(_EUROPEAN)
            forms.update(f"{dotted} {name}" for name in _FOREIGN_NAMES.get(currency or "", ()))
            forms.update(f"{symbol}{space}{dotted}" for symbol in _FOREIGN_SYMBOLS.get(currency or "", ())
                         for space in ("", " "))
    # the European way, with the cents (without them "74.500" reads as 74.5 elsewhere): "74.500,00"
    forms.add(f"{value:,.2f}".translate(_EUROPEAN))
    for scale, templates in _SCALED_FORMS:
        scaled = _plain(value / scale)
        if scaled is not None and Decimal(scaled) >= Decimal("0.01"):
            forms.update(t.format(scaled) for t in templates)
    return sorted(forms)
