"""Session 31's classes of string-tier misses on other authors' hand-written splits (43, 44), each read as
`Cascade([unit]).scan_text(text)` in phrasings of our own, with the near misses that must stay as they are: an
instalment plan's terms (the instalment in major or minor units with its count) and an amount in minor units; a
plate's last or first three characters said to be one end of it; a mask showing only an ID's letters; a start or an
end showing more than 60 % of a secret ("the first half is …"); the given name of an accented Latin name; a health
value in clinical shorthand; a Chinese address stored spaced; a record said of a relative the text names; and one
`ec2audit audit` run over a log."""

from __future__ import annotations

import pytest
from test_detect_forms_s30 import audit_of_one

from ec2audit.detect.cascade import Cascade
from ec2audit.units import make_unit


def _graded(value: str, dimension: str, text: str, field: str = "f", description: str | None = None) -> float:
    """The highest grade any hit of the one unit has in `text` (0 for none)."""
    unit = make_unit({"task_id": "t31", "entity_id": "e", "field": field, "value": value, "dimension": dimension,
                      "description": description})
    return max((hit.grade for hit in Cascade([unit]).scan_text(text)), default=0.0)


def _entity_graded(value: str, dimension: str, text: str, entity_name: str) -> float:
    """The highest grade the one unit, of a named entity, has in `text`."""
    unit = make_unit({"task_id": "t31", "entity_id": "e", "entity_name": entity_name, "field": "record",
                      "value": value, "dimension": dimension})
    return max((hit.grade for hit in Cascade([unit]).scan_text(text)), default=0.0)


# -- 1. an instalment plan's terms; an amount in minor units ---------------------------------------------------

_PLAN, _PLAN_ZH = "USD 2,940 course fee in 12 monthly payments of USD 245.00", "分18期，每期1,366.50元"


@pytest.mark.parametrize(("value", "text", "near_miss"), [
    (_PLAN, '{"object":"subscription_schedule","unit_amount":24500,"currency":"usd","iterations":12}',
     '{"unit_amount":24500,"currency":"eur","iterations":12}'),  # another currency
    (_PLAN, "Direct debit set up: 12 x $245.00, first one on the 3rd", "Direct debit set up: $245.00, first one on "
     "2027-04-12"),  # no count: the 12 is a date's
    (_PLAN, "billing: 24500c every month, 12 months", "billing: 24500 every month, 12 months"),  # no minor unit said
    (_PLAN_ZH, "提醒客户：每期 1366.50 元，一共 18 期，别逾期",
     "提醒客户：每期 1366.50 元，一共 24 期"),  # another count
])
def test_an_instalment_with_its_count_is_the_plan(value, text, near_miss):
    """The instalment (major units, or minor units where a unit's name, a field's name or the record's currency says
    so) with the plan's count near it: the whole plan, 1.0 (the fee is their product). Without the count, in
    another currency, or a bare number of cents with nothing saying so: nothing."""
    assert (_graded(value, "financial", text, "payment_plan"), _graded(value, "financial", near_miss,
                                                                        "payment_plan")) == (1.0, 0)


@pytest.mark.parametrize(("value", "text", "near_miss"), [
    ("£3,180", "Refund queued: 318000p to the card on file", "Refund queued: 318000 to the card on file"),
    ("$3,180", '{"refund": {"amount_cents": 318000}}', '{"refund": {"amount": 318000, "pence": 1}}'),
    ("3180元", "退款 318000分 已原路返回", "退款 318000 已原路返回"),
])
def test_an_amount_in_minor_units_said_so_is_the_amount(value, text, near_miss):
    """£3,180 is 318,000 pence: with the minor unit's name after it or a field's name before it, the amount (1.0);
    the bare number: nothing."""
    assert (_graded(value, "financial", text, "refund"), _graded(value, "financial", near_miss, "refund")) == (1.0, 0)


# -- 2. a plate's last (or first) three characters -------------------------------------------------------------

_PLATE = "LK21 MZP"


@pytest.mark.parametrize(("text", "near_miss"), [
    ("the doorbell camera got the tail of his reg, ..MZP, nothing else", "the doorbell camera got the reg, "
     "..MZPQ, nothing else"),  # runs on: another plate
    ("Plate ended in MZP according to the witness", "Plate ended in MPZ according to the witness"),
    ("reg started LK2** - the rest under a bike rack", "reg LK2 - the rest under a bike rack"),  # which end unsaid
    ("witness saw the car's plate: …MZP", "the MZP group parked near the plate shop"),  # no end said
])
def test_a_plates_end_said_to_be_one_is_a_fragment(text, near_miss):
    """Three characters, less than 60 % of the plate's six, said to be its end or start by a word or by an ellipsis
    or a mask on the hidden side, next to a word naming a plate: a fragment (0.3); another plate's, or a piece whose
    end nothing says: nothing."""
    assert (_graded(_PLATE, "other", text, "vehicle_registration"),
            _graded(_PLATE, "other", near_miss, "vehicle_registration")) == (0.3, 0)


# -- 3. a mask showing only an ID's letters ---------------------------------------------------------------------

@pytest.mark.parametrize(("text", "near_miss"), [
    ("HMRC match OK for NI number PW ** ** ** D", "HMRC match OK for NI number PW ** ** ** C"),  # another suffix
    ("ni=PW******D", "ni=PW****D"),  # four hidden: not the six digits it has
])
def test_a_mask_showing_all_of_an_ids_letters_is_a_fragment(text, near_miss):
    """PW 31 86 52 D has three letters and six digits: a mask hiding the six and showing the three narrows it to
    its letters, a fragment (0.3); other letters, or a mask of another length, nothing."""
    assert (_graded("PW 31 86 52 D", "government_id", text, "ni_number"),
            _graded("PW 31 86 52 D", "government_id", near_miss, "ni_number")) == (0.3, 0)


# -- 4. a start or an end showing most of a secret ---------------------------------------------------------------

_SECRET = "Tq7$vine42Kp"


@pytest.mark.parametrize(("text", "grade", "near_miss"), [
    ("she read out the first half of the password: Tq7$vine, then the line dropped", 0.7,
     "she read out the first half of the password: Tq7$vane"),  # another secret
    ("管理员密码后半段是vine42Kp，前面的记不清了", 0.7, "管理员密码后半段是vine42Kq"),
])
def test_a_piece_showing_most_of_a_secret_is_most_of_it(text, grade, near_miss):
    """8 of the password's 12 characters (67 % > 60 %) after "first half"/"后半段": most of it (0.7) (up to 60 %, a
    fragment, as before); pieces the secret does not start or end with: nothing."""
    assert (_graded(_SECRET, "credential", text, "password"), _graded(_SECRET, "credential", near_miss,
                                                                       "password")) == (grade, 0)


# -- 5. the given name of a name with an accented family name ---------------------------------------------------

@pytest.mark.parametrize(("value", "text", "near_miss"), [
    ("Siobhan Ó Dálaigh", "Known on the ward as 'Birdie'; she gave her first name as Siobhan.",
     "Siobhan Kelly from the pharmacy rang about the order."),  # another family name: another Siobhan
    ("Renee Łukasiewicz", "Caller (alias 'RL') said her first name is Renee.", "Renee Adler called back."),
])
def test_the_given_name_of_an_accented_latin_name_is_a_fragment(value, text, near_miss):
    """Accented letters are Latin: the given name alone is a fragment (0.3), as for names in ASCII; before
    another family name it is someone else's. (An accented given name, `José`, is not read alone: session 31's
    fresh-clone check found its namesakes in markup forms read as it.)"""
    assert (_graded(value, "person_name", text, "legal_name"), _graded(value, "person_name", near_miss,
                                                                        "legal_name")) == (0.3, 0)


# -- 6. a health value in clinical shorthand where the entity is named ------------------------------------------

@pytest.mark.parametrize(("value", "text", "grade", "near_miss"), [
    ("right tibia fracture, history of severe eczema", "Ward 7 | Haldane-Oduya, Corin | Rt tibia fx; hx sev eczema",
     1.0, "Ward 7 | Haldane-Oduya, Corin | Lt tibia fx, cast on"),  # the other leg
    ("right tibia fracture, history of severe eczema", "Corin, bed 7: Rt tibia fx, cast on", 0.7,
     "Ward 7 teaching round: Rt tibia fx, cast on"),  # nobody named: a case, not his
    ("Class III malocclusion, 6 mm overbite", "Haldane-Oduya - Cl III, OB 6 mm, review in 3/12", 0.7,
     "Haldane-Oduya's brother - Cl III, OB 6 mm"),  # a relative's; "malocclusion" unsaid: one part of two
])
def test_a_health_value_in_clinical_shorthand_where_the_entity_is_named(value, text, grade, near_miss):
    """Each part found where all its words stand, as themselves or their standard abbreviations (Rt, fx, hx, sev,
    OB; "of" left out): both parts, the value (1.0); one, most of it (0.7). Another side, nobody named, or a
    relative named: nothing."""
    assert (_entity_graded(value, "health", text, "Corin Haldane-Oduya"),
            _entity_graded(value, "health", near_miss, "Corin Haldane-Oduya")) == (grade, 0)


# -- 7. a Chinese address stored with its numbers spaced off the Han characters ---------------------------------

_SPACED = "南京市鼓楼区中山北路 218 号 3 栋 2 单元 701 室"


@pytest.mark.parametrize(("text", "grade", "near_miss"), [
    ("包裹送到鼓楼区中山北路218号3栋2单元701室，放门卫", 1.0, "包裹送到鼓楼区中山北路218号3栋2单元702室"),  # next door
    ("上门地址：中山北路218号三栋二单元", 0.7, "上门地址：中山北路281号三栋二单元"),  # the building; another number
])
def test_an_address_stored_spaced_reads_as_the_text_writes_it(text, grade, near_miss):
    """The value's numbers spaced off Han (`中山北路 218 号`) read as the text writes them, without the spaces (as
    `cjk_spacing` reads a spaced text): the whole address without its city (1.0), its building (0.7); another
    flat, another street number: nothing."""
    assert (_graded(_SPACED, "location", text, "home_address"),
            _graded(_SPACED, "location", near_miss, "home_address")) == (grade, 0)


# -- 8. a record said of a relative the text names ------------------------------------------------------------

@pytest.mark.parametrize(("value", "dimension", "name", "relatives", "own"), [
    ("coeliac disease", "health", "Tamsin Okoye",
     "Screening note: Tamsin's twin sister Nneka Okoye has coeliac disease, confirmed by biopsy.",
     "Screening note: Tamsin's twin sister Nneka came along; Tamsin has coeliac disease."),  # herself, named again
    ("coeliac disease", "health", "Tamsin Okoye",
     "Tamsin Okoye (5B) - no allergies. Femi Okoye (3A, her cousin) - coeliac disease.",
     "Her cousin drove her in; she has coeliac disease."),  # the relative unnamed: whose is unsaid
    ("2019年因盗窃被判处有期徒刑一年", "other", "郑立伟",
     "郑立伟的弟弟郑立军2019年因盗窃被判处有期徒刑一年，郑立伟本人没有前科。",
     "郑立伟的弟弟说他2019年因盗窃被判处有期徒刑一年。"),  # what the brother said: no name after the word
    ("2019年因盗窃被判处有期徒刑一年", "other", "郑立伟",
     "核实结果：2019年因盗窃被判处有期徒刑一年的是郑立伟的堂哥郑立新，与申请人无关。",
     "核实结果：2019年因盗窃被判处有期徒刑一年是郑立伟的堂哥郑立新举报的。"),  # the cousin did something else
])
def test_a_record_said_of_a_named_relative_is_the_relatives(value, dimension, name, relatives, own):
    """A relation word with the relative's name (after it, or before a bracket saying "her cousin") and the record
    next in the same sentence, nothing naming the entity between: the relative's record, no leak of the entity's
    (0). The entity named again, the relative unnamed, or the relative doing something else: the record stands (the
    value itself, 1.0)."""
    assert (_entity_graded(value, dimension, relatives, name), _entity_graded(value, dimension, own, name)) == (0, 1.0)


# -- the plan through `ec2audit audit`, as a user runs it ----------------------------------------------------------

def test_audit_reads_a_payment_webhooks_instalment_and_count_as_the_plan(tmp_path):
    """A payment API's webhook in a tool result carries the instalment in minor units and the count: the audit
    reports the plan's unit."""
    unit = {"task_id": "t31", "entity_id": "PT-7", "field": "payment_plan", "value": _PLAN, "dimension": "financial"}
    output = audit_of_one(tmp_path, unit, '{"type":"mandate.created","amount":24500,"currency":"USD","count":12}',
                          "tool")
    assert "t31/PT-7/payment_plan" in output
