"""Session 28's misses in the string tiers on other authors' hand-written splits (37, 38, and the older ones read
again), by class, each read as `Cascade([unit]).scan_text(text)` in phrasings of our own, with the near misses
(another test, the other flag, a neighbour's plate, another code) that must give no hit."""

from __future__ import annotations

import pytest
from test_detect_forms_s24 import _scan


def _graded(value: str, dimension: str, text: str, field: str = "f") -> float:
    """The highest grade any hit of the one unit has in `text` (0 for none)."""
    return max((grade for _, grade, _ in _scan(value, dimension, text, field)), default=0.0)


# -- 1. a lab result as its test's code and flag, or in words, either way round --------------------------------

_HBS = "hepatitis B surface antigen positive"


@pytest.mark.parametrize(("value", "text", "near_miss"), [
    (_HBS, '{"bed": 4, "HBsAg": "Pos", "collected": "2026-05-02"}', '{"HBsAg": "NEG"}'),  # the other flag
    (_HBS, "screen: HBsAg (+), refer to hepatology", "anti-HBs: POS (vaccinated)"),  # the antibody: another test
    (_HBS, "入院筛查：乙肝表面抗原（+），安排单独透析机", "HBeAg positive"),  # another antigen
    (_HBS, "pt is HBsAg-positive", "HBsAg not detected"),  # "detected" negated
    (_HBS, "positive for HBsAg on the booking bloods", "labs: - HBsAg - anti-HBc reactive"),  # a list's dash
    ("HBsAg POS", "her hep B surface antigen came back positive last week", "hep B surface antibody positive"),
    ("HIV-1/2 antibody non-reactive", "HIV Ab: negative (4th gen)", "HIV Ab: reactive"),
    ("HCV antibody negative", "anti-HCV negative at intake", "HIV negative, HCV Ab positive"),
    ("elevated PSA", "urology: PSA: H on the March panel", "PSA: L"),
    ("TSH high", "促甲状腺激素偏高，复查甲功", "促甲状腺激素偏低"),
    ("HbA1c high", "glycated haemoglobin is high, see diet plan", "HbA1c normal"),
    ("hemoglobin low", "Hgb L on the CBC", "glycated hemoglobin: L"),  # the HbA1c's name, not the hemoglobin's
    ("INR low", "his INR ↓ since the dose change", "his INR ↑ since the dose change"),
    ("C-reactive protein raised", "raised CRP, started antibiotics", "raised ALT, started antibiotics"),
])
def test_a_lab_result_as_code_and_flag_or_in_words_is_the_value(value, text, near_miss):
    assert (_graded(value, "health", text, "lab_result"), _graded(value, "health", near_miss, "lab_result")) == (1, 0)


# -- 2. most of a vehicle plate next to a word naming a plate --------------------------------------------------

@pytest.mark.parametrize(("value", "text", "near_miss"), [
    ("6TRJ244", "the doorbell cam got the plate as 6TRJ2, the rest was blurred",
     "visitor plate 6TRJ249 parked in bay 3"),  # a neighbour's plate starting the same
    ("6TRJ244", "plate reader: TRJ244 (first character unreadable)", "order 6TRJ2 shipped on Monday"),  # no plate
    ("浙A·3M7K2", "小区道闸记录：车牌A3M7K2，未登记", "车牌沪A3M7K2，外地车"),  # another province's plate
    ("浙A3M7K2", "车牌号 A·3M7K2 的白色轿车", "车牌号 A·3M7K29 的货车"),  # runs on into another
    ("6TRJ244", "plate 6TRJ2 on the trailer", "plate 6TRJ2-44B on the trailer"),
    ("沪A·7K3M9", "车牌 A·7K3M9，白色", "plate Su A·7K3M9"),  # another province romanised
])
def test_most_of_a_plate_near_a_plate_word_is_most_of_it(value, text, near_miss):
    """Five of seven characters (71 %) and six of seven (86 %) are over `PIECE_SHARE` (60 %): 0.7."""
    assert (_graded(value, "other", text, "vehicle_plate"), _graded(value, "other", near_miss, "vehicle_plate")) \
        == (0.7, 0)


def test_a_plate_is_a_unit_naming_a_vehicle_not_a_licence_number():
    """The same value and text: most of it for a vehicle's registration, no piece for a driver's licence number (a
    licence or a registration number alone is no plate)."""
    text = "the licence plate reader logged D12345 at 09:12"
    assert (_graded("D123456", "other", text, "vehicle_registration"),
            _graded("D123456", "other", text, "drivers_license")) == (0.7, 0)


# -- 3. the start or end of a short code (a PIN, a door code, a plate) next to words that say so -----------------

@pytest.mark.parametrize(("value", "text", "near_miss"), [
    ("604718", "门禁密码前三位是604，剩下的当面说", "门禁密码前三位是605"),
    ("604718", "gate code: first three digits 604, rest by phone", "room 604 is free"),  # no words say a piece
    ("604718", "the locker PIN ends in 718", "the locker PIN ends in 719"),
    ("83XK29", "verification code starts with 83X", "verification code starts with 83Y"),
])
def test_a_piece_of_a_short_code_with_context_words_is_a_fragment(value, text, near_miss):
    """Three of six characters (50 %) is within `PIECE_SHARE`: a fragment (0.3)."""
    assert (_graded(value, "credential", text, "door_code"), _graded(value, "credential", near_miss, "door_code")) \
        == (0.3, 0)


def test_a_plate_s_end_after_ends_in_is_a_fragment_and_a_four_digit_pin_has_no_piece():
    """Three of seven (43 %) is a fragment; three of four (75 %) is over the share, so a PIN has no piece."""
    assert (_graded("6TRJ244", "other", "registration ends in 244", "vehicle_plate"),
            _graded("4471", "credential", "the PIN ends in 471", "pin")) == (0.3, 0)


# -- 4. a secret's start written before 开头 with spaces around it; an end after "tail" -----------------------------

@pytest.mark.parametrize(("value", "dimension", "text", "near_miss"), [
    ("Rk9!mwQ2zLp4", "credential", "测试库密码是 Rk9! 开头的那个，去 vault 里找", "测试库密码是 Rk8! 开头的那个"),
    ("5528160", "government_id", "the badge number is worn, only the tail '...160' shows",
     "only the tail '...161' shows"),
])
def test_a_piece_before_kaitou_with_spaces_or_after_tail_is_a_fragment(value, dimension, text, near_miss):
    assert (_graded(value, dimension, text), _graded(value, dimension, near_miss)) == (0.3, 0)


# -- 5. a host's short name: its domain name's first label alone -------------------------------------------------

@pytest.mark.parametrize(("value", "text", "near_miss"), [
    ("redis-cache-7.svc.hallbrook.io", "timeout talking to redis-cache-7 on 6379", "redis-cache-8 is healthy"),
    ("redis-cache-7.svc.hallbrook.io", "ssh ops@redis-cache-7", "redis-cache-7.staging.example.org answered"),
    ("etl02.dc1.hallbrook.io", "cron on etl02 failed at 03:00", "cron on etl021 failed"),
])
def test_a_host_s_short_name_is_most_of_it(value, text, near_miss):
    """The first label is 0.7; a longer name or another number is no hit."""
    assert (_graded(value, "network", text), _graded(value, "network", near_miss)) == (0.7, 0)


# -- 6. a lab concentration per decilitre written per litre, and back -----------------------------------------------

@pytest.mark.parametrize(("value", "text", "near_miss"), [
    ("38 µg/dL", "blood lead (Hartley, K.): 380 ug/L, retest in 4 weeks", "blood lead: 3800 ug/L"),  # a hundredfold
    ("38 µg/dL", "2026-04-01,occhealth,PbB,380,µg/L,above action level", "2026-04-01,PbB,380,ng/L"),  # ng
    ("12.7 g/dL", "haemoglobin 127 g/L on admission", "haemoglobin 127 mg/L on admission"),
    ("127 g/L", "Hgb 12.7 g/dL", "Hgb 12.8 g/dL"),
])
def test_a_concentration_per_litre_is_the_value_per_decilitre(value, text, near_miss):
    """380 µg/L = 38 µg/dL (a litre is ten decilitres); 127 g/L = 12.7 g/dL."""
    assert (_graded(value, "health", text), _graded(value, "health", near_miss)) == (1, 0)
