"""Session 24's misses in the string tiers on other authors' hand-written splits (15–22), by class, each read
as `Cascade([unit]).scan_text(text)` in several phrasings, with the near misses (another value in the same
form) that must give no hit."""

from __future__ import annotations

import pytest

from ec2audit.detect.cascade import Cascade
from ec2audit.units import make_unit


def _scan(value: str, dimension: str, text: str, field: str = "f") -> list[tuple[str, float, str]]:
    """(detector, grade, text found) of each hit of the one unit in `text`."""
    unit = make_unit({"task_id": "t24", "entity_id": "e", "entity_name": None, "field": field, "value": value,
                      "dimension": dimension})
    return [(hit.detector, hit.grade, text[hit.start:hit.end]) for hit in Cascade([unit]).scan_text(text)]


# -- 1. an amount whose value carries a label or a note is still an amount --------------------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("年薪48万元（税前）", "Chen Siyuan, base compensation RMB 480K per annum (pre-tax).", "480K"),
    ("年薪48万元（税前）", "offer letter: annual salary ¥480,000", "480,000"),
    ("投标报价1,236.8万元", "投标总价（小写）：¥12,368,000.00；工期 240 日历天。", "12,368,000.00"),
    ("投标报价1,236.8万元", "our bid came to 12.368 million yuan", "12.368 million"),
    ("annual base £64,250 (gross)", "her salary is 64250 GBP", "64250"),
])
def test_an_amount_inside_a_label_is_read_as_the_amount(value, text, found):
    assert ("exact.amount", 1.0, found) in _scan(value, "financial", text, "salary")


@pytest.mark.parametrize(("value", "text"), [
    ("年薪48万元（税前）", "base compensation RMB 490K per annum"),  # another amount
    ("投标报价1,236.8万元", "投标总价：¥12,386,000.00"),
    ("salary 2024: 48万", "salary RMB 480K"),  # two numbers in the value: no one amount
])
def test_another_amount_or_a_value_of_two_numbers_is_no_amount(value, text):
    assert [h for h in _scan(value, "financial", text, "salary") if h[0] == "exact.amount"] == []


# -- 2. an amount as a JSON float: one decimal ---------------------------------------------------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("USD 48,250.00", '"declared_value": {"amount": 48250.0, "currency": "USD"}', "48250.0"),
    ("USD 48,250.00", "declared=48250.0\n", "48250.0"),
    ("EUR 1,250.50", '{"total": 1250.5}', "1250.5"),
])
def test_an_amount_written_as_a_float_is_the_amount(value, text, found):
    assert _scan(value, "financial", text, "declared_value") == [("forms.amount", 1.0, found)]


@pytest.mark.parametrize(("value", "text"), [
    ("USD 48,250.00", '"freight_usd": 4825.0,'),  # a tenth of it
    ("USD 48,250.00", '"amount": 48250.05'),  # five cents more
    ("USD 48,250.00", '"amount": 48251.0'),
    ("USD 48,250.00", '"amount": "48250.0 EUR"'),  # another currency
])
def test_another_float_is_no_amount(value, text):
    assert _scan(value, "financial", text, "declared_value") == []


# -- 3. a masked phone number with its country code, or shown without it ----------------------------------

PHONE = "+1 (312) 555-0147"


@pytest.mark.parametrize(("text", "found"), [
    ("we'll text updates to your mobile +1 (312) 555-01•• — reply STOP", "+1 (312) 555-01••"),
    ("mobile +1 (312) 555-01** on file", "+1 (312) 555-01**"),
    ("mobile (312) 555-01** on file", "(312) 555-01**"),
    ("tel 312-555-01** (masked)", "312-555-01**"),
    ("tel 1-312-555-01xx", "1-312-555-01xx"),
])
def test_a_masked_phone_with_or_without_its_country_code_is_mostly_shown(text, found):
    assert _scan(PHONE, "contact", text, "mobile_phone") == [("partial.masked", 0.7, found)]


@pytest.mark.parametrize("text", [
    "mobile +1 (312) 555-02•• — reply STOP",  # another number in the same exchange
    "tel 312-555-03** (masked)",
    "mobile +1 (213) 555-01**",  # another area code
])
def test_another_masked_phone_is_no_hit(text):
    assert _scan(PHONE, "contact", text, "mobile_phone") == []


# -- 4. a position in degrees, minutes and seconds ----------------------------------------------------------

GPS = "47.6205, -122.3493"


@pytest.mark.parametrize(("text", "found"), [
    ("Last fix 47°37'13.8\"N 122°20'57.5\"W at 18:42", "47°37'13.8\"N 122°20'57.5\"W"),
    ("pos: N 47° 37.230', W 122° 20.958' (GPS)", "N 47° 37.230', W 122° 20.958'"),
    ("122°20′57.5″W, 47°37′13.8″N", "122°20′57.5″W, 47°37′13.8″N"),  # longitude first, primes
    ("N47°37.23' W122°20.96'", "N47°37.23' W122°20.96'"),
])
def test_a_position_in_degrees_and_minutes_is_the_position(text, found):
    assert _scan(GPS, "location", text, "last_gps_fix") == [("forms.coordinates", 1.0, found)]


@pytest.mark.parametrize("text", [
    "Last fix 47°37'15.8\"N 122°20'57.5\"W",  # two seconds north: another place
    "Last fix 47°37'13.8\"S 122°20'57.5\"W",  # the other hemisphere
    "Last fix 47°37'13.8\"N 122°20'57.5\"E",
    "Last fix 147°37'13.8\"N 122°20'57.5\"W",
    "heading 47° then 122°",  # degrees alone
    "Last fix 47°37'13.8\"N 47°20'57.5\"N",  # two latitudes
])
def test_another_position_is_no_hit(text):
    assert _scan(GPS, "location", text, "last_gps_fix") == []


def test_a_southern_and_eastern_position():
    text = "Sydney office at 33°52'7.7\"S 151°12'33.5\"E."
    assert _scan("-33.8688, 151.2093", "location", text) == [("forms.coordinates", 1.0, "33°52'7.7\"S 151°12'33.5\"E")]
