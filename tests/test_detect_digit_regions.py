"""The exact tier's digit view read over the regions where a unit's number may stand finds what the whole
digit view finds: numbers written with separators, in Chinese numerals or English digit words, after a
country code, inside longer numbers, and accounts whose bank is named near or far (`detect.digit_regions`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ec2audit.detect import digit_regions
from ec2audit.detect.cascade import build_cascade
from ec2audit.detect.exact import DIGIT_WORDS
from ec2audit.detect.normalize import ENGLISH_DIGITS, TextView
from ec2audit.units import read_units

UNITS = Path(__file__).parent / "data" / "leaks-handwritten" / "units.jsonl"
_WORDS = {digit: word for word, digit in ENGLISH_DIGITS.items() if word != "oh"}
_NUMERALS = str.maketrans("0123456789", "零一二三四五六七八九")


@pytest.fixture(scope="module")
def cascade():
    return build_cascade(read_units(UNITS))


def _exact(cascade):
    return next(tier.tier for tier in cascade.tiers if tier.name == "exact")


def _numbers(cascade) -> list[str]:
    exact = _exact(cascade)
    return [f for cu in exact.units for f in cu.digit_forms] + [b.number for b in exact._banks.values()]


def _banks(cascade) -> list[str]:
    return [name for bank in _exact(cascade)._banks.values() for name in bank.bank]


@st.composite
def _written(draw, numbers: list[str]) -> str:
    """A number as a text may hold it: separators between its digits, Chinese numerals or English words."""
    number = draw(st.sampled_from(numbers))
    way = draw(st.sampled_from(["separators", "numerals", "words", "plain"]))
    if way == "numerals":
        return number.translate(_NUMERALS)
    if way == "words":
        separator = draw(st.sampled_from([" ", ",", ", ", "-", " - "]))
        return separator.join(_WORDS.get(d, d) for d in number)
    if way == "plain":
        return number
    gaps = draw(st.lists(st.sampled_from(["", " ", "-", ".", "/", "(", ")", "  ", " - ", "    "]),
                         min_size=len(number), max_size=len(number)))
    return "".join(d + g for d, g in zip(number, gaps, strict=True)).rstrip()


def _texts(numbers: list[str], banks: list[str]) -> st.SearchStrategy[str]:
    filler = st.sampled_from(["call", " ", ", ", ":", '"', "\0", "张", "é", "+", "+86 ", "x", "7", "42", "-", ".",
                              "iban", "(", "国", "one", "nine two", "一二", "account no. ", "a" * 90, "1 " * 50,
                              "word " * 30])
    piece = st.one_of(_written(numbers), st.sampled_from(banks), filler)
    return st.lists(piece, min_size=1, max_size=40).map("".join)


@pytest.fixture(scope="module")
def every_text_by_regions():
    """Short texts read by their regions too (the regions' claim holds for any length)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(digit_regions, "SHORT", 0)
        yield


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_the_regions_find_what_the_whole_digit_view_finds(cascade, every_text_by_regions, data):
    exact = _exact(cascade)
    text = data.draw(_texts(_numbers(cascade), _banks(cascade)))
    view, whole = TextView.of(text), TextView.of(text)
    english = [start for start, _, _ in cascade.index.matches(view.text).get(DIGIT_WORDS, ())]
    assert exact._regions.regions(view.text, english) is not None
    assert exact._scan_digits(view, english) == exact._digit_hits(whole, english)
    assert view.reached == whole.reached


def test_the_regions_leave_out_text_without_numbers(cascade):
    """The point of the regions: a text whose numbers are few is read around them, not whole."""
    exact = _exact(cascade)
    number = _numbers(cascade)[0]
    text = "word: " * 2000 + f"phone {number[:3]}-{number[3:7]}-{number[7:]}." + " ok: " * 2000
    view = TextView.of(text)
    regions = exact._regions.regions(view.text, [])
    assert regions is not None and sum(hi - lo for lo, hi in regions) < 40
    hits = exact._scan_digits(view, [])
    assert [text[h.start:h.end] for h in hits] == [f"{number[:3]}-{number[3:7]}-{number[7:]}"]


def test_an_account_whose_bank_lies_beyond_its_region_is_read_in_the_whole_view(cascade):
    """A run of digits and separators packs many characters into few digit-view ones: the bank, 70 digit-view
    characters before the account, stands 280 characters before it, before the safe character the region is
    cut at. The digit view is then read whole, and the bank is found."""
    exact = _exact(cascade)
    account = next(b for b in exact._banks.values())
    bank = min(account.bank, key=len)
    text = "x: " * 1400 + f"{bank}:" + "1 - " * 70 + f": {account.number} ok" + ": y" * 1400
    view, whole = TextView.of(text), TextView.of(text)
    regions = exact._regions.regions(view.text, [])
    assert regions is not None and all(text.find(bank) < lo for lo, _ in regions if lo)
    hits = exact._scan_digits(view, [])
    assert [h.detector for h in hits if text[h.start:h.end] == account.number] == ["exact.account"]
    assert hits == exact._digit_hits(whole, [])


def test_without_vectorscan_the_whole_digit_view_is_read_with_the_same_hits(cascade, monkeypatch):
    exact = _exact(cascade)
    numbers = _numbers(cascade)
    text = " note: ".join(f"call {n[:3]} {n[3:]}; id {n}7; {n.translate(_NUMERALS)}" for n in numbers) * 20
    view = TextView.of(text)
    with_regions = exact._scan_digits(view, [])
    monkeypatch.setitem(sys.modules, "hyperscan", None)  # the wheel missing: its import fails
    fallback = digit_regions.DigitRegions(numbers, [])
    assert fallback.regions(view.text, []) is None
    monkeypatch.setattr(exact, "_regions", fallback)
    assert exact._scan_digits(TextView.of(text), []) == with_regions and len(with_regions) > len(numbers)


def test_a_run_with_more_numbers_than_are_compiled_reads_the_whole_digit_view():
    """Vectorscan compiles these regexes slowly (seconds for hundreds): past the bound, no database is built."""
    numbers = [f"139{k:08d}" for k in range(digit_regions.MOST_NUMBERS + 1)]
    assert digit_regions.DigitRegions(numbers, []).regions("call 13900000001 " * 300, []) is None
    assert digit_regions.DigitRegions(numbers[:3], []).regions("call 13900000001 " * 300, []) is not None


def test_the_numerals_and_separators_are_those_the_digit_view_reads():
    """`digit_regions` spells out what `normalize` reads as a digit and a separator: the two must not drift."""
    from ec2audit.detect.normalize import _CJK_DIGIT_RUN, _CJK_DIGITS, _DIGIT_SEP, DIGIT_SEPARATOR

    assert {chr(code): chr(digit) for code, digit in _CJK_DIGITS.items()} == \
        {numeral: digit for digit, numerals in digit_regions._NUMERALS.items() for numeral in numerals}
    # between two digits as `_DIGIT_SEP` reads them; between two numerals also a comma, as the numerals' run does
    assert _DIGIT_SEP.pattern.startswith(f"({DIGIT_SEPARATOR}") and digit_regions._SEPARATORS.startswith(
        f"(?:{DIGIT_SEPARATOR}{{0,3}}|") and digit_regions._SEPARATORS in _CJK_DIGIT_RUN.pattern
