"""Exact tier: literal values, aliases, amount surface forms and romanised names (grade 1.0).

All patterns of a run sit in the shared automaton (`patterns.PatternIndex`) and, for phones, IDs
and card numbers, in a second automaton over the digit view — so cost grows with the payload's
length, not with units × payload.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ec2audit.detect.compiled import (
    CompiledUnit,
    given_name_syllables,
    han_given_name_chars,
    ipv4_groups,
    is_word_char,
)
from ec2audit.detect.digit_regions import DigitRegions, Regions
from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.normalize import (
    DIGIT_WORD_PAIRS,
    TextView,
    amount_forms,
    chinese_amounts,
    currency_next_to,
    normalize_text,
)
from ec2audit.detect.patterns import Match, PatternIndex
from ec2audit.detect.views import ScanView, WholeViewNeeded, WindowedView, kept

VALUE, AMOUNT, DIGITS, DIGIT_WORDS, PINYIN, ALNUM, ACCOUNT = (
    "value", "amount", "digits", "digit words", "pinyin", "alnum", "account")
_BANK_WINDOW = 80  # how far from an account number its bank may be named
_CONTEXT = 42  # characters a literal match reads on either side: number boundaries (`bounded`), context words
_DIGIT_RUN = 48  # characters around a digit word or a Chinese numeral that decide whether its run is a number
_ALNUM_SPREAD = 3  # an identifier in the text spans at most this many characters per alphanumeric one
_NUMERAL_RUN = 32  # the longest run of Chinese numerals read as an amount
_SPACED = re.compile(r"\d+(?: \d{3})+")  # an amount grouped with spaces, whose neighbours may be more of it:
_GROUP_BEFORE = re.compile(r"\d $")  # a group of a number written with spaces before it ...
_DECIMALS_AFTER = re.compile(r"[.,]\d")  # ... or its decimals after it


class ExactDetector:
    name = "exact"

    def __init__(self, units: list[CompiledUnit], index: PatternIndex):
        self.units = units
        self._banks: dict[int, BankAccount] = {}
        digits, alnum = PatternIndex(), PatternIndex()
        for i, cu in enumerate(units):
            for form in cu.forms:
                index.add(form, VALUE, i)
            if cu.amount is not None:
                for form in amount_forms(cu.amount, cu.currency):
                    if form not in cu.forms:
                        index.add(form, AMOUNT, i)
            for form in cu.digit_forms:
                digits.add(form, DIGITS, i)
            for form in cu.alnum_forms:
                alnum.add(form, ALNUM, i)
            if account := bank_account(cu.unit.value):
                digits.add(account.number, ACCOUNT, i)
                self._banks[i] = account
            for form in cu.romanized:
                index.add(form, PINYIN, i)
        self._digits = digits.build()
        self._alnum = alnum.build()
        self._has_alnum = any(cu.alnum_forms for cu in units)
        self._has_digits = any(cu.digit_forms for cu in units) or bool(self._banks)
        self._regions = DigitRegions([f for cu in units for f in cu.digit_forms],
                                     [account.number for account in self._banks.values()])
        # the longest stretch a hit and what decides it cover (`forms.Form.reach`): a number's digits spelled in
        # words and their separators (8 characters a digit; 4 written in digits), and the 5 words around that
        # make a run of them. An account's bank is named up to 80 digit-view characters away: where the text
        # view has one, the windows of its derived views hold it (`TextView.reached`); where only a derived
        # view has one out of its window's hold, that view is read whole
        self.reach = max(index.longest(VALUE, AMOUNT, PINYIN) + 2 * _CONTEXT,
                         8 * digits.longest(DIGITS) + 2 * _DIGIT_RUN,
                         _ALNUM_SPREAD * alnum.longest(ALNUM) + 4, _NUMERAL_RUN + 2 * 8)
        self._amounts: dict[int, list[int]] = {}
        for i, cu in enumerate(units):
            if cu.amount is not None:
                self._amounts.setdefault(cu.amount, []).append(i)
        if self._has_digits:  # where numbers spelled in English words may stand
            for pair in DIGIT_WORD_PAIRS:
                index.add(pair, DIGIT_WORDS, -1)

    def scan(self, scan_view: ScanView, hits: list[Hit], decided: set[int]) -> list[Hit]:
        """Literal hits; a unit already decided is found again (its other mentions are evidence too)."""
        view, matches = scan_view
        out = list(self._literal(view, matches.get(VALUE, []), "exact"))
        out += self._literal(view, matches.get(AMOUNT, []), "exact.amount")
        out += self._literal(view, matches.get(PINYIN, []), "exact.pinyin")
        if self._has_digits:
            out += self._scan_digits(view, [start for start, _, _ in matches.get(DIGIT_WORDS, ())])
        if self._amounts:
            out += self._scan_chinese_amounts(view)
        if self._has_alnum:  # identifiers found literally need no second look (in windows: the whole view's; an
            # IBAN's account number alone is a part of it: the whole IBAN, grouped, is still looked for)
            out += self._scan_alnum(view, decided | {h.unit_index for h in out
                                                     if h.detector != "exact.account" and kept(view, h.start, h.end)})
        return out

    def _literal(self, view: TextView, found: list[Match], detector: str) -> Iterator[Hit]:
        text, units = view.text, self.units
        for start, end, indices in found:
            alone = span = None  # worked out once per match, when a unit asks
            for i in indices:
                cu = units[i]
                hit_end = end
                if cu.rules.word_boundary:
                    if alone is None:
                        alone = bounded(text, start, end)
                    if not alone:
                        if not (cu.inflects and (hit_end := plural_end(text, start, end))):
                            continue
                if cu.han_name_of_two and end < len(text) and end - start == 2 and _continues_name(text[end]):
                    continue
                if cu.han_name and _APART.search(text, start, end) and _name_goes_on(view, end):
                    continue
                if cu.needs_context and not cu.has_context(view, start, end):
                    continue
                if cu.currency and (other := currency_next_to(text, start, end)) and other != cu.currency:
                    continue
                if detector == "exact.amount" and _SPACED.fullmatch(text, start, end) and (
                        _GROUP_BEFORE.search(text, max(0, start - 2), start) or _DECIMALS_AFTER.match(text, end)):
                    continue  # "250 000" in "1 250 000" or in "250 000,50": a part of a larger number
                if cu.rules.name == "credential":
                    o_start, o_end = view.to_original(start, hit_end)
                    if cu.case_differs(view.original[o_start:o_end]):
                        continue
                if hit_end != end:
                    yield Hit(i, *view.to_original(start, hit_end), detector, LITERAL)
                    continue
                if span is None:
                    span = view.to_original(start, end)
                yield Hit(i, *span, detector, LITERAL)

    def _scan_chinese_amounts(self, view: TextView) -> Iterator[Hit]:
        text = view.text
        for start, end, amount in chinese_amounts(text):
            if end - start > _NUMERAL_RUN:
                continue
            for i in self._amounts.get(amount, ()):
                currency = self.units[i].currency
                if not (currency and (other := currency_next_to(text, start, end)) and other != currency):
                    yield Hit(i, *view.to_original(start, end), "exact.amount", LITERAL)

    def _scan_digits(self, view: TextView, english: list[int]) -> list[Hit]:
        """Phone, ID and card numbers in the digit view; `english`: where digit words stand two in a row. The
        digit view is built over the regions where the units' numbers may stand (`digit_regions`), read as one
        text (each region starts and ends with a character no number crosses), or over the whole view."""
        regions = self._regions.regions(view.text, english)
        if regions is not None:
            found = self._digit_hits(view, english, Regions(view.text, regions))
            if found is not None:
                return found
        return self._digit_hits(view, english) or []

    def _digit_hits(self, view: TextView, english: list[int], regions: Regions | None = None) -> list[Hit] | None:
        """The hits of the digit view of `view`, or of its `regions` read as one text. None: an account whose
        bank its region cannot show as the whole view does (80 digit-view characters either side)."""
        if regions is None:
            digits, to_view = view.digits(english), None
        else:
            part = regions.text
            digits, to_view = TextView(part, part, part).digits(regions.inside(english)), regions.to_view
        found = self._digits.matches(digits.text, anchored=False)
        out = []
        for kind in (DIGITS, ACCOUNT):
            for d_start, d_end, indices in found.get(kind, ()):
                start, end = digits.to_numbers(d_start, d_end)
                if not _number_boundaries(digits.numbers, start, end):
                    if kind == ACCOUNT or not _after_calling_code(digits.numbers, start, end):
                        continue
                    indices = tuple(i for i in indices if self.units[i].rules.name == "contact")
                if kind == ACCOUNT:  # an IBAN follows from the account number and its bank, not from the number
                    lo, hi = max(0, d_start - _BANK_WINDOW), d_end + _BANK_WINDOW
                    b_start, b_end = digits.to_base(*digits.to_numbers(lo, min(hi, len(digits.text))))
                    if regions is not None:
                        if not regions.shows(b_start, b_end, lo == d_start - _BANK_WINDOW, hi <= len(digits.text)):
                            return None
                        b_start, b_end = regions.to_view(b_start, b_end)
                    read = view.to_original(b_start, b_end)
                    if not isinstance(view, WindowedView):
                        view.reached.append(read)
                    elif not view.holds(*read):
                        raise WholeViewNeeded  # the bank may be named outside the window
                    indices = tuple(i for i in indices if self._banks[i].named_in(
                        digits.text[lo:d_start] + " " + digits.text[d_end:hi]))
                s, e = digits.to_base(start, end)
                s, e = view.to_original(*(to_view(s, e) if to_view else (s, e)))
                for i in indices:
                    out.append(Hit(i, s, e, "exact.account" if kind == ACCOUNT else "exact.digits", LITERAL))
        return out

    def _scan_alnum(self, view: TextView, found_already: set[int]) -> Iterator[Hit]:
        """Identifiers with their separators changed or dropped; the match must start and end a word of
        the text view, and an IPv4 address must read as the same four numbers."""
        found = [m for m in self._alnum.matches(view.alnum(), anchored=False).get(ALNUM, ())
                 if not found_already.issuperset(m[2])]
        if not found:
            return
        text = view.text
        back = alnum_offsets(text, [o for a_start, a_end, _ in found for o in (a_start, a_end - 1)])
        for a_start, a_end, indices in found:
            start, end = back[a_start], back[a_end - 1] + 1
            if end - start > _ALNUM_SPREAD * (a_end - a_start) or _runs_on(text, start, end):
                continue
            groups = ipv4_groups(text[start:end])
            span = view.to_original(start, end)
            for i in indices:
                expected = ipv4_groups(self.units[i].forms[0])
                if (expected is None or groups == expected) and not self.units[i].case_differs(
                        view.original[span[0]:span[1]]):
                    yield Hit(i, *span, "exact.alnum", LITERAL)


_ALNUM_SEPARATORS = " -.:/_"  # what `TextView.alnum` deletes
_ALNUM_SEPARATOR_RUN = re.compile(r"[ \-.:/_]+")


def alnum_offsets(text: str, offsets: Iterable[int]) -> dict[int, int]:
    """The text view's offsets of alphanumeric-view `offsets` (`TextView.alnum` of `text`): the offset of the
    text's n-th character that is no separator, counted chunk by chunk in C from one offset to the next (a chunk
    of `n` characters holds at most `n` such), not by a map of every separator run of the text (the 8 MB
    payload: 0.47 s for 4,000 offsets; `TextView.alnum_map` gives the same offsets)."""
    out: dict[int, int] = {}
    at = kept = 0  # a text offset, and the characters before it that are no separator
    for target in sorted(set(offsets)):
        while kept < target:
            gap = target - kept
            chunk = text[at:at + gap]
            kept += gap - sum(map(chunk.count, _ALNUM_SEPARATORS))
            at += gap
        if run := _ALNUM_SEPARATOR_RUN.match(text, at):
            at = run.end()
        out[target] = at
    return out


class BankAccount(NamedTuple):
    """The domestic account number inside an IBAN, and the names of its bank (code, sort code, BIC, name)."""

    number: str
    bank: tuple[str, ...]

    def named_in(self, text: str) -> bool:
        return any(name in text for name in self.bank)


def bank_account(value: str) -> BankAccount | None:
    """The account inside an IBAN (schwifty reads each country's layout): "0327419586" with "rabo",
    "rabonl2u", "rabobank" for NL75 RABO 0327 4195 86; "98765432" with sort code "123456" for a GB IBAN."""
    compact = re.sub(r"[\s\-]", "", value)
    if not re.fullmatch(r"[A-Za-z]{2}\d{2}[A-Za-z0-9]{8,30}", compact):
        return None
    from schwifty import IBAN
    from schwifty.exceptions import SchwiftyException

    try:
        iban = IBAN(compact)
    except SchwiftyException:
        return None
    number = iban.account_code
    if not number.isdigit() or len(number) < 6:
        return None
    names = (iban.bank_code, iban.branch_code, str(iban.bic or ""), iban.bank_name or "")
    return BankAccount(number, tuple(dict.fromkeys(normalize_text(n) for n in names if len(n) >= 4)))


def _continues_name(ch: str) -> bool:
    return ch in han_given_name_chars()


_NEXT_WORD = re.compile(r"([ -])([a-z]+)")
_APART = re.compile(r"[ |,]")  # a name written apart: spaced out, romanised, in two cells


def _name_goes_on(view: TextView, end: int) -> bool:
    """Does a spaced or romanised name run on into a longer one? 张 伟 is not in 张 伟明 or 张 伟 明, nor
    Zhang Wei in Zhang Wei Ming, Zhang Weiming's "Zhang Wei-ming" or "Zhang Wei Mingde": given-name characters
    or syllables follow, after a space written in the name's case ("Zhang Wei he said" is 张伟)."""
    text = view.text
    if end >= len(text):
        return False
    if not text[end - 1].isascii():
        k = end + (text[end] == " ")
        return k < len(text) and _continues_name(text[k])
    if not (m := _NEXT_WORD.match(text, end)) or not _syllables(m.group(2)):
        return False
    if m.group(1) == "-":
        return True
    original = view.original
    word, last = view.to_original(*m.span(2))[0], view.to_original(end - 1, end)[0]
    while last > 0 and original[last - 1].isalpha():
        last -= 1
    return original[word].isupper() == original[last].isupper()


def _syllables(word: str) -> bool:
    """Is a word a run of given-name syllables ("mingde")?"""
    syllables, ends = given_name_syllables(), {0}
    for k in range(1, len(word) + 1):
        if any(word[j:k] in syllables for j in ends if k - j <= 6):
            ends.add(k)
    return len(word) in ends


_DIGIT = re.compile(r"\d")


def _glued(text: str, start: int, end: int, at: int) -> bool:
    """Does the character at `at`, next to the match `start:end`, continue it as a word? An underscore
    does not continue a match that holds a digit: identifiers are glued into snake_case names
    (`pay_DE89370400440532013000`, a tool name), as numbers are, which the digit view reads already
    (`lookup_13922883366`)."""
    ch = text[at]
    return is_word_char(ch) and not (ch == "_" and _DIGIT.search(text, start, end))


def _runs_on(text: str, start: int, end: int) -> bool:
    """Does an identifier continue on either side ("118.25.66.17" in "10.118.25.66.173", a MAC in a
    longer one)? Only into ASCII letters and digits."""
    if (start and _glued(text, start, end, start - 1)) or (end < len(text) and _glued(text, start, end, end)):
        return True
    return (start > 1 and text[start - 1] in ".:-" and _latin_alnum(text[start - 2])) or (
        end + 1 < len(text) and text[end] in ".:-" and _latin_alnum(text[end + 1]))


def _latin_alnum(ch: str) -> bool:
    """A character an identifier may run on with: not a Chinese label's ("信用代码：9144 0300 …")."""
    return ch.isascii() and ch.isalnum()


_NUMBER_BEFORE = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*[.,]$")
_NUMBER_AFTER = re.compile(r"[.,]\d+(?:[.,]\d+)*")
_NUMBER_TAIL, _NUMBER_HEAD = re.compile(r"[\d.,]*$"), re.compile(r"[\d.,]*")
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+")


_PLURAL = re.compile(r"e?s")


def plural_end(text: str, start: int, end: int) -> int:
    """Where an English plural of the word at `start:end` ends ("penicillins", "rashes"); 0 if none does
    ("penicillinase" is another word)."""
    m = _PLURAL.match(text, end)
    return m.end() if m and bounded(text, start, m.end()) else 0


def bounded(text: str, start: int, end: int) -> bool:
    """The match neither continues a word nor a number: "3,200" is not in "13,200" or "3,200.5", but a CSV
    cell is a value of its own: "118.25.66.173" in "R1,118.25.66.173," (`R1` is no number) or in
    "1,118.25.66.173" (no number reads "1,118.25.66.173")."""
    first, last = text[start], text[end - 1]
    if start and is_word_char(first) and _glued(text, start, end, start - 1):
        return False
    if end < len(text) and is_word_char(last) and _glued(text, start, end, end):
        return False
    if last.isdigit() and end + 1 < len(text) and text[end] in ".," and text[end + 1].isdigit():
        head = _NUMBER_TAIL.search(text, max(0, end - 40), end)
        after = _NUMBER_AFTER.match(text, end)
        if text[end] == "." or _GROUPED.fullmatch((head.group() if head else "") + (after.group() if after else "")):
            return False
    if first.isdigit() and start > 1 and text[start - 1] in ".," and text[start - 2].isdigit():
        before = _NUMBER_BEFORE.search(text, max(0, start - 40), start)
        tail = _NUMBER_HEAD.match(text, start, start + 40)
        digits_after = tail.group().rstrip(".,") if tail else ""
        if text[start - 1] == "." or (before and _GROUPED.fullmatch(before.group() + digits_after)):
            return False
    return True


#: Country calling codes a phone number is written after without its "+" (`19024187730`, `8613922883366`), or after
#: an international prefix (`0086…`, the US's `011…`): the codes of the countries the hand-written sets and the
#: suite's data name, and their neighbours (ITU-T E.164).
_CALLING_CODE = re.compile(r"(?:00|011)?(?:1|7|2[07]|3[0-469]|4[013-9]|5[1-8]|6[0-6]|8[1246]|9[0-58]|35[1-9]"
                           r"|37\d|38[0-9]|42[01]|85[2-6]|88[06]|96[0-8]|97[1-7])")


def _after_calling_code(text: str, start: int, end: int) -> bool:
    """Whether a number of nine digits or more is written right after a country calling code in one run of digits
    (`19024187730` for `(902) 418-7730`): the phone with its country code, not a longer number (a contact's
    value only: an account or an ID inside a longer run is another number)."""
    if end - start < 9 or text[start] == "0" or (end < len(text) and text[end].isdigit()):
        return False  # a national number's trunk 0 never follows a country code: "107700900461" is another number
    k = start
    while k > 0 and text[k - 1].isdigit():
        k -= 1
    return (k == 0 or not text[k - 1].isalnum()) and bool(_CALLING_CODE.fullmatch(text, k, start))


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
