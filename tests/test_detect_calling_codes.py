"""A phone number written after its country calling code without the "+" (session 29, after blind split 41).

A contact lookup prints `tel 19024187730` for `(902) 418-7730`, a Chinese export `8613922883366` or `0086…` for
`139 2288 3366`: the same phone, in one run of digits. The exact tier allowed only "+CC" before a number; it now also
reads a known calling code (with `00` or the US's `011` before it) at the start of the run, for contact values only:
an account or an ID inside a longer run of digits is another number, and so is a phone after digits that are no
calling code."""

from __future__ import annotations

import pytest
from test_detect_forms_s28 import _graded

_CA, _CN = "(902) 418-7730", "139 2288 3366"


@pytest.mark.parametrize(("value", "text"), [
    (_CA, "Chip lookup -> keeper: H. MORROW, tel 19024187730, province NS"),
    (_CA, "dialled 0019024187730 from the Frankfurt office"),
    (_CA, "callback=01119024187730"),
    (_CN, "联系电话：8613922883366（微信同号）"),
    (_CN, "msisdn 008613922883366 roaming"),
])
def test_a_phone_after_its_calling_code_in_one_run_of_digits_is_the_phone(value, text):
    assert _graded(value, "contact", text, "phone") == 1.0


@pytest.mark.parametrize(("value", "dimension", "text"), [
    (_CA, "contact", "order ref 29024187730 shipped"),          # 2 is no calling code
    (_CA, "contact", "parcel 1119024187730"),                    # 111: no code, a longer number
    (_CN, "contact", "单号 7713922883366"),                      # 77: no code
    (_CA, "contact", "ref A19024187730"),                       # inside a token
    ("6222 0202 0011 2233", "financial", "acct 866222020200112233"),  # an account in a longer run is another
])
def test_a_number_inside_a_longer_one_stays_no_hit(value, dimension, text):
    assert _graded(value, dimension, text, "phone" if dimension == "contact" else "bank_account") == 0
