"""`keyed_fields` finds a record's fields from each separator back (`_fields`), not by trying its field regex at every
letter: the claim is that it finds exactly the fields the regex's own scan (`_FIELD.finditer`) finds, on the edges
of what a field is (a key of 41 characters and longer, quotes, blanks before the separator, separators inside values,
fields run together) and on random texts of those pieces."""

from __future__ import annotations

import random

import pytest

from ec2audit.detect.forms import keyed_fields

EDGES = [
    '{"nino_prefix":"JT","nino_digits":"482791","nino_suffix":"B"}',
    "dob_day=14&dob_month=3&dob_year=1987",
    "k" * 41 + ": v, '" + "q" * 41 + "': w",  # the longest key, bare and quoted
    "k" * 42 + ": v, " + "m" * 60 + "=w",  # longer: the regex's field starts inside the word
    "'dob_day'   \t = 14;\t\"dob_month\"\t:\t'3'",  # quotes, blanks either side of the separator
    "x" + " " * 60 + ": far, y" + "\t" * 44 + "= also",  # more blanks than a key's longest
    "a:\nb: c",  # a separator with no field, then a field
    '"time":"10:40","note":"a=b","url": http://h:8080/a',  # separators inside values
    "key=" + "v" * 45 + "city=Leeds town=York",  # a bare value cut at 40 characters, a key right after it
    "--city=London --postcode=LS1 4AP a::b a:=b == := :",  # command-line flags, separators side by side
    '"line1":"12 Rose St",\n"city":"福州市","district":"鼓楼区"\n"": x, \'\': y, "a\': z',
]

PIECES = ["a", "Zz", "1", "_", ".", "-", ":", "=", " ", "\t", '"', "'", ",", ";", "&", "\n", "{", "}", "[", "]",
          "city", "k" * 41, "k" * 39, ": ", '="v"', "'w'"]


def found(text: str, fields) -> list[tuple[tuple[int, int], tuple]]:
    return [(m.span(), m.groups()) for m in fields(text)]


@pytest.mark.parametrize("text", EDGES)
def test_fields_from_the_separators_are_the_regexs_own(text):
    assert found(text, keyed_fields._fields) == found(text, keyed_fields._FIELD.finditer)


def test_fields_of_random_texts_are_the_regexs_own():
    rnd = random.Random(31)
    for _ in range(1000):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(1, 60)))
        assert found(text, keyed_fields._fields) == found(text, keyed_fields._FIELD.finditer), text
