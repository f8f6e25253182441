"""Values said aloud or spelled out character by character (session 20's hand-written misses): each form reads
the spoken run as the value, and a different value spelled the same way is no hit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ec2audit.detect.cascade import Cascade
from ec2audit.detect.forms import spelled_out
from ec2audit.units import Unit


def _hits(value: str, text: str, dimension: str = "contact") -> list[tuple[str, float]]:
    """(text, grade) of each hit of one unit of `value` in `text` (a dimension's values are read their way: an
    ID's in its letters and digits alone)."""
    unit = Unit.model_validate({"task_id": "t", "entity_id": "e", "entity_name": "Someone", "field": "f",
                                "value": value, "dimension": dimension, "weight": 1.0})
    return [(text[hit.start:hit.end], hit.grade) for hit in Cascade([unit]).scan_text(text)]


EMAIL = "r.okafor@brightline-logistics.com"


@pytest.mark.parametrize("text", [
    "He spelled his email as 'r dot okafor at brightline hyphen logistics dot com' and hung up.",
    "Email: R DOT OKAFOR AT BRIGHTLINE DASH LOGISTICS DOT COM.",
    "write to r.okafor at brightline minus logistics period com please",
    "it's r dot okafor @ brightline hyphen logistics dot com",
])
def test_a_spoken_email_with_hyphen_words_is_the_address(text: str) -> None:
    hits = _hits(EMAIL, text)
    assert hits and hits[0][1] == 1.0
    assert hits[0][0].lower().startswith("r") and hits[0][0].lower().endswith("com")


@pytest.mark.parametrize("text", [
    "他的邮箱是r点okafor艾特brightline横杠logistics点com，别再用旧的了。",
    "邮箱：r.okafor 艾特 brightline-logistics.com",
    "邮箱 r 点 okafor @ brightline 中划线 logistics 点 com",
])
def test_an_address_said_in_chinese_is_the_address(text: str) -> None:
    hits = _hits(EMAIL, text)
    assert hits and hits[0][1] == 1.0


def test_another_address_said_in_chinese_is_no_hit() -> None:
    assert _hits(EMAIL, "他的邮箱是r点okafor艾特brightline横杠freight点com，别再用旧的了。") == []


def test_an_underscore_word_is_read_in_the_local_part() -> None:
    assert _hits("jane_doe@example.co.uk", "mail jane underscore doe at example dot co dot uk today")


@pytest.mark.parametrize("text", [
    "He spelled his email as 'r dot okafor at brightline hyphen freight dot com'.",  # another domain
    "He spelled his email as 't dot okafor at brightline hyphen logistics dot com'.",  # another name
    "r dot okafor at brightline hyphen logistics",  # no top-level domain: no address
    "a dash of salt at the table",
])
def test_another_spoken_address_is_no_hit(text: str) -> None:
    assert _hits(EMAIL, text) == []


NI_NUMBER = "NH 48 27 93 B"


@pytest.mark.parametrize("text", [
    "Owen Pritchard: \"Yeah, it's N for November, H for hotel, four eight, two seven, nine three, B for bravo.\"",
    "NI number: November Hotel four eight two seven nine three Bravo, thanks.",
    "that's N as in Nancy, H as in Harry, 4 8, 2 7, 9 3 and B as in Bob",
])
def test_a_value_spelled_with_phonetic_letters_is_the_value(text: str) -> None:
    hits = _hits(NI_NUMBER, text, "government_id")
    assert hits and hits[0][1] == 1.0


@pytest.mark.parametrize("text", [
    "Yeah, it's N for November, H for hotel, four eight, two seven, nine three, D for delta.",  # another letter
    "Yeah, it's N for November, H for hotel, four eight, two seven, nine four, B for bravo.",  # another digit
    "Yeah, it's N for Hotel, H for November, four eight, two seven, nine three, B for bravo.",  # no spelling
])
def test_another_phonetic_spelling_is_no_hit(text: str) -> None:
    assert _hits(NI_NUMBER, text, "government_id") == []


PASSWORD = "Tr0ub4dor&Mango!92"


@pytest.mark.parametrize("text", [
    "I read it out character by character: capital T, r, zero, u, b, four, d, o, r, ampersand, capital M, a, n, "
    "g, o, exclamation mark, nine, two.",
    "It is an uppercase T, lowercase r, 0, u, b, 4, d, o, r, ampersand, upper case M, a, n, g, o, exclamation "
    "point, 9, 2",
])
def test_a_secret_spelled_with_case_words_is_the_secret(text: str) -> None:
    hits = _hits(PASSWORD, text, "credential")
    assert hits and hits[0][1] == 1.0


@pytest.mark.parametrize("text", [
    "capital T, r, zero, u, b, four, d, o, r, ampersand, capital M, a, n, g, o, question mark, nine, two.",
    "capital T, r, zero, u, b, four, d, o, r, at sign, capital M, a, n, g, o, exclamation mark, nine, two.",
    "capital T, r, zero, u, b, four, d, o, r, ampersand, capital M, a, n, g, o, exclamation mark, nine, three.",
])
def test_another_spelled_secret_is_no_hit(text: str) -> None:
    assert _hits(PASSWORD, text, "credential") == []


IP = "192.168.31.108"


@pytest.mark.parametrize("text", [
    "电话里跟新来的会计说的：财务NAS地址是一九二点一六八点三一点一零八，用Finder连smb就行。",
    "内网地址：幺九二点幺六八点三幺点幺零八",
    "位址是一九二點一六八點三一點一零八。",
    "IP 是 一九二 点 一六八 点 三一 点 一零八 ，记一下",
    "NAS：一九二．一六八．三一．一零八",
    "财务NAS地址是192点168点31点108，用Finder连smb就行。",
    "the NAS is at one nine two dot one six eight dot three one dot one zero eight, ok",
    "the NAS is at one nine two point one six eight point three one point one zero eight",
    "NAS: 192 dot 168 dot 31 dot 108",
])
def test_digits_said_with_dots_are_the_number(text: str) -> None:
    hits = _hits(IP, text, "network")
    assert hits and hits[0][1] == 1.0


@pytest.mark.parametrize("text", [
    "财务NAS地址是一九二点一六八点三一点一零九，用Finder连smb就行。",
    "财务NAS地址是一九二点一六八点三二点一零八，用Finder连smb就行。",
    "财务NAS地址是192点168点31点109，用Finder连smb就行。",
    "the NAS is at one nine two dot one six eight dot three one dot one zero nine, ok",
])
def test_another_number_said_with_dots_is_no_hit(text: str) -> None:
    assert _hits(IP, text, "network") == []


ROOT_PASSWORD = "Hx#2026!qiuFeng"


@pytest.mark.parametrize("text", [
    "交接时口头说的那个：大写H，小写x，井号，2026，感叹号，然后qiuFeng，F大写。就是jump-bj-01的root密码。",
    "密码是大写的H、小写x、井号、2026、感叹号、qiu、大写F、eng",
])
def test_a_secret_spelled_in_chinese_is_the_secret(text: str) -> None:
    hits = _hits(ROOT_PASSWORD, text, "credential")
    assert hits and hits[0][1] == 1.0


@pytest.mark.parametrize("text", [
    "交接时口头说的那个：大写H，小写x，井号，2027，感叹号，然后qiuFeng，F大写。",
    "交接时口头说的那个：大写H，小写x，星号，2026，感叹号，然后qiuFeng，F大写。",
])
def test_another_secret_spelled_in_chinese_is_no_hit(text: str) -> None:
    assert _hits(ROOT_PASSWORD, text, "credential") == []


def test_digit_words_inside_a_number_said_as_a_number_are_no_spelling() -> None:
    text = "Firewall change for ten dot nine dot five dot one hundred and eighty-eight, please."
    assert _hits("9.5.1", text, "network") == []


_SPELLING_PIECES = ["capital", "T", "r", "zero", "dot", "point", "N for November", "alpha", "bravo", "ampersand", "a",
                    "9", "\n", "大写", "H", "井号", "，", "2026", "small", "x", "then", "hundred", "one", "two"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_SPELLING_PIECES), st.sampled_from([" ", ", ", ",", ""])),
                max_size=30).map(lambda items: "".join(piece + sep for piece, sep in items)))
def test_spellings_read_line_by_line_are_those_of_a_walk_over_the_whole_text(text):
    """The form walks items only on lines with two named words; a walk over every item of the text (the
    definition) finds the same runs."""
    form = object.__new__(spelled_out.SpelledOut)
    whole = []
    for spelling in (spelled_out._ENGLISH,) if text.isascii() else (spelled_out._ENGLISH, spelled_out._CHINESE):
        pos = 0
        while first := spelling.item.search(text, pos):
            pos, run = spelled_out._run(spelling, text, first)
            whole += [run] if run else []
    assert list(form.rewrite(text)) == whole


def test_a_long_s_in_a_case_word_or_a_symbol_name_reads_as_the_word_and_never_crashes():
    """The item pattern ignores case, so `ſmall` (long s) and `ſlash` match `small` and `slash`; the words are
    looked up case-folded (`.lower()` left `ſ`, a KeyError: a traceback in any audit of such a text)."""
    text = "read back: ſmall r, capital H, ſlash, 7, 4, 2"
    assert _hits("rH/742", text, "credential") == [("ſmall r, capital H, ſlash, 7, 4, 2", 1.0)]
