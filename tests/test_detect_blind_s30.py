"""Classes the string tiers missed on blind splits 43/44 (session 30, after measuring them once), in new wording.

- A name with a particle written surname first (`Ní Bhraonáin, Caoimhe`, `VAN DER BERG,ANNA`): the reorder check
  took the cluster of the name's long words only and left the particle out. Written without its accents too
  (`NI BHRAONAIN,CAOIMHE`): the unaccented form put the accents back only in the name's own order.
- An HKID's check character written without its brackets (`K6382047` for `K638204(7)`).
- A Chinese plate with the middle dot after its province and letter (`粤B·D73K92`, the way plates are printed), or
  with its province's full name in pinyin (`GUANGDONG B D73K92`: a judge's miss, the string tiers' class).
- A long account number given alone, its bank's branch named in English or not at all (most of the value: 0.7).
- Prose cut where OCR could read no further (`disord[illegible]`, `[字迹模糊]`).
- A password spelled out in Chinese with its digits read out in numerals (`井号，二零二六`: a judge's miss on 44)."""

from __future__ import annotations

import pytest
from test_detect_forms_s28 import _graded

_IRISH, _DUTCH = "Saoirse Ní Dhomhnaill", "Anna van der Berg"


@pytest.mark.parametrize(("value", "text"), [
    (_IRISH, "attendee: Ní Dhomhnaill, Saoirse (table 4)"),
    (_IRISH, "PASSENGER NI DHOMHNAILL,SAOIRSE MS"),
    (_IRISH, "export: ni dhomhnaill, saoirse; 1988"),
    (_DUTCH, "Naam: van der Berg, Anna"),
    (_DUTCH, "VAN DER BERG,ANNA;1979-03-02"),
])
def test_a_name_with_its_particle_surname_first_is_the_name(value, text):
    assert _graded(value, "person_name", text, "full_name") == 1.0


@pytest.mark.parametrize(("value", "text"), [
    (_IRISH, "attendee: Ní Dhomhnaill, Máire"),           # a sister: another given name
    (_IRISH, "PASSENGER NI DHOMHNAILL,MAIRE MS"),
    (_DUTCH, "Naam: van der Berg, Pieter"),
])
def test_a_relative_with_the_surname_and_another_given_name_is_not_the_name(value, text):
    assert _graded(value, "person_name", text, "full_name") < 1.0


@pytest.mark.parametrize(("value", "text", "grade"), [
    ("R512093(A)", "kyc.doc_number=R512093A status=verified", 1.0),
    ("R512093(A)", "doc R512093A", 1.0),
    ("R512093(A)", "doc R512093B", 0.0),                  # another check character: another card
    ("R512093(A)", "doc R5120934A", 0.0),                 # a longer number
])
def test_an_id_with_its_check_character_unbracketed(value, text, grade):
    assert _graded(value, "government_id", text, "hkid") == grade


@pytest.mark.parametrize(("value", "text", "grade"), [
    ("浙AD3F7M2", "入场记录：车牌 浙A·D3F7M2（新能源），临停", 1.0),
    ("浙AK3721", "车辆 浙A·K3721 已离场", 1.0),
    ("浙AD3F7M2", "车辆 浙A·D3F7M3 已离场", 0.0),            # one character off
    ("浙AD3F7M2", "车辆 浙B·D3F7M2 已离场", 0.0),            # another city's letter
])
def test_a_chinese_plate_with_its_middle_dot(value, text, grade):
    assert _graded(value, "government_id", text, "车牌号") == grade


@pytest.mark.parametrize(("text", "grade"), [
    ("gate log: ZHEJIANG A D3F7M2 exited 18:02", 1.0),     # the province's full name in pinyin
    ("Zhejiang A-D3F7M2", 1.0),
    ("gate log: JIANGXI A D3F7M2 exited 18:02", 0.0),      # another province: another plate
])
def test_a_chinese_plate_with_its_province_written_out(text, grade):
    assert _graded("浙AD3F7M2", "government_id", text, "车牌号") == grade


_CORPORATE = "中国建设银行杭州滨江支行 330501987654321012"


@pytest.mark.parametrize(("text", "grade"), [
    ("| Hangzhou Binjiang Sub-branch, CCB | 330501987654321012 |", 0.7),  # the branch in English: the account
    ("settlement acct 330501987654321012", 0.7),
    ("开户行 中国建设银行杭州滨江支行，账号 330501987654321012", 1.0),  # both: the value
    ("settlement acct 330501987654321013", 0.0),           # another account
    ("ref 93305019876543210125", 0.0),                     # inside a longer number
])
def test_a_long_account_number_alone_is_most_of_the_account(text, grade):
    assert _graded(_CORPORATE, "financial", text, "对公账户") == grade


@pytest.mark.parametrize(("value", "text", "grade"), [
    ("chronic obstructive pulmonary disease, on home oxygen",
     "scan p3: history: Chronic obstructive pulmonary dis[illegible]", 0.7),
    ("慢性阻塞性肺疾病急性加重期，长期家庭氧疗", "病史：慢性阻塞性肺疾病急性加重期，长[字迹模糊]", 0.7),
])
def test_prose_cut_where_ocr_could_read_no_further(value, text, grade):
    assert _graded(value, "health", text, "diagnosis") == grade


def test_prose_read_whole_with_an_unreadable_word_after_it_is_not_cut_short():
    """A value shown to its end is read by the exact tier (1.0), not as cut; a text breaking off before any of it
    is shown says nothing."""
    value = "chronic obstructive pulmonary disease, on home oxygen"
    assert _graded(value, "health", f"history: {value} [illegible] since 2019", "diagnosis") == 1.0
    assert _graded(value, "health", "history: [illegible] since 2019", "diagnosis") == 0.0


@pytest.mark.parametrize(("text", "grade"), [
    ("客服记录：用户念的密码是大写K，小写w，井号，幺九八三，然后小写t、r，最后一个5", 1.0),  # digits in numerals
    ("客服记录：用户念的密码是大写K，小写w，井号，幺九八四，然后小写t、r，最后一个5", 0.0),  # one digit off
])
def test_a_password_spelled_out_in_chinese_with_its_digits_read_out(text, grade):
    assert _graded("Kw#1983tr5", "credential", text, "password") == grade
