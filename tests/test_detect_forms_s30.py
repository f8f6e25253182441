"""Session 30's classes of string-tier errors on other authors' hand-written splits (41, 42, and 2–40 read again), each
read as `Cascade([unit]).scan_text(text)` in phrasings of our own, with the near misses that must stay as they are: a
value given as one record's keyed fields (and pieces of two records, or another person's date); a condition's
initials alone or its ICD-10 code where the entity is named (and a sibling's, a namesake's, a topic's, a
questionnaire's, another code, a room's number); an amount denied as an offer (and the same amount stated as fact
beside the denial); and one `ec2audit audit` run over a log."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.detect.cascade import Cascade
from ec2audit.units import make_unit


def _graded(value: str, dimension: str, text: str, field: str = "f", entity_name: str | None = None,
            entity_id: str = "e") -> float:
    """The highest grade any hit of the one unit has in `text` (0 for none)."""
    unit = make_unit({"task_id": "t30", "entity_id": entity_id, "entity_name": entity_name, "field": field,
                      "value": value, "dimension": dimension})
    return max((hit.grade for hit in Cascade([unit]).scan_text(text)), default=0.0)


# -- 1. a value given as one record's keyed fields --------------------------------------------------------------

_NI, _DOB, _CARD = "NY512738D", "1979-11-02", "4539 1488 0343 6467"
_ADDRESS_EN, _ADDRESS_ZH = "14 Marlow Street, Bristol BS3 4QT", "成都市武侯区科华北路62号3栋502室"


@pytest.mark.parametrize(("value", "dimension", "field", "text", "grade", "near_miss"), [
    (_NI, "government_id", "ni", '{"claimant":"C-99","ni_prefix":"NY","ni_digits":"512738","ni_suffix":"D"}', 1.0,
     '[{"ni_prefix":"NY","seq":1},{"ni_digits":"512738"},{"ni_suffix":"D"}]'),  # three records' pieces
    (_NI, "government_id", "ni", "ninoLetters: NY\nninoNumber: 512738\nninoSuffix: D\nstatus: open", 1.0,
     '{"ni_prefix":"NY","claim_days":3,"ni_digits":"512738","ni_note":"D"}'),  # a field between; a note no piece
    (_DOB, "other", "date_of_birth", "GET /lookup?dobDay=2&dobMonth=11&dobYear=1979&src=kiosk", 1.0,
     "GET /lookup?dobDay=2&dobMonth=11&dobYear=1980"),  # another year
    (_DOB, "other", "date_of_birth", '{"birth_day": "02", "birth_month": "Nov", "birth_year": "1979"}', 1.0,
     '{"visit_day": 2, "visit_month": 11}, {"dob_year": 1979}'),  # two records, two stems
    (_CARD, "financial", "card", '{"pan_first6": "453914", "pan_last4": "6467", "brand": "visa"}', 0.7,
     '{"pan_first6": "453914", "pan_last4": "6476"}'),  # another card of the bank
    (_ADDRESS_EN, "location", "address", '{"street":"14 Marlow Street","town":"Bristol","postcode":"BS3 4QT"}', 1.0,
     "street: 16 Marlow Street\ncity: Bristol\npostcode: BS3 4QT"),  # the house next door (the postcode's piece)
    (_ADDRESS_ZH, "location", "address",
     '{"city":"成都市","district":"武侯区","road":"科华北路62号","building":"3栋","room":"502室"}', 1.0, None),
])
def test_a_records_keyed_fields_joined_in_field_order_are_the_value(value, dimension, field, text, grade, near_miss):
    """The pieces joined as their keys say (NI letters, digits and suffix run together; a date's day, month and year
    as one date; a card's first six and last four as a mask shows them, 10 of 16 digits: more than half, 0.7; an
    address's parts apart by spaces, a Chinese one's by nothing) are the value at the grade the joined form has. Pieces
    of other records, another key between them, or other values join to nothing of the unit's (the neighbour's street
    keeps the postcode's piece, 0.3, as before)."""
    assert _graded(value, dimension, text, field) == grade
    if near_miss is not None:
        assert _graded(value, dimension, near_miss, field) == (0.3 if value == _ADDRESS_EN else 0)


# -- 2. a condition's initials alone, where the text names the entity -------------------------------------------

_COPD, _HIE = "chronic obstructive pulmonary disease", "hypoxic ischaemic encephalopathy; phenobarbital 20 mg/kg"


@pytest.mark.parametrize(("value", "text", "grade", "near_miss"), [
    (_COPD, "Bed 6, Achebe-Lind B., 71M: COPD, on 2 L O2 overnight", 1.0,  # the whole value
     "Bartholomew Achebe-Lind's brother also has COPD, seen in the same clinic"),  # a relative's
    (_COPD, "Handover - Bartholomew is breathless again, known COPD.", 1.0,  # his given name
     "Bed 9, Bartholomew Okoro: COPD exacerbation"),  # a namesake: another family name
    (_HIE, '{"baby":"nn-3021","problems":["HIE"],"cooling":true}', 0.7,  # the record's id; one of two parts
     "The HIE cooling protocol was updated in March."),  # nobody named: a topic
    (_COPD, "Pt NN-3021 - COPD GOLD 3, home O2", 1.0,
     "Achebe-Lind: copd nurse visit booked"),  # not written as initials
    ("generalized anxiety disorder", "Achebe-Lind, dx GAD, weekly CBT", 1.0,
     "Achebe-Lind's GAD-7 today was 4"),  # a questionnaire
])
def test_a_conditions_initials_where_the_entity_is_named_are_the_value(value, text, grade, near_miss):
    """All of the value's words as initials 1.0; the initials of one part of two, 0.7 (most of it); someone else's,
    nobody's, lower case or a questionnaire's initials: nothing."""
    name, entity = "Bartholomew Achebe-Lind", "NN-3021"
    assert _graded(value, "health", text, "dx", name, entity) == grade
    assert _graded(value, "health", near_miss, "dx", name, entity) == 0


@pytest.mark.parametrize(("value", "text", "grade", "near_miss"), [
    ("major depressive disorder, recurrent, moderate", "Claim 7781, Achebe-Lind B.: dx F33.1, 12 sessions approved",
     1.0, "Achebe-Lind's wife is also under dx F33.1 with us"),  # a relative's code
    ("malignant pleural mesothelioma, epithelioid type", "ICD-10 C45.0 on file for NN-3021", 0.7,  # the type unsaid
     "ICD-10 C45.1 on file for NN-3021"),  # the peritoneum's: another diagnosis
    ("malignant pleural mesothelioma, epithelioid type", "Bartholomew: diagnosis coded C45.0 at the MDT", 0.7,
     "Room C45.0 booked for Bartholomew Achebe-Lind"),  # no diagnosis's code: a room
])
def test_a_diagnosis_as_its_icd10_code_where_the_entity_is_named_is_the_value(value, text, grade, near_miss):
    """The ICD-10-CM code whose description's words all stand in the value (F33.1 "Major depressive disorder,
    recurrent, moderate": all of it, 1.0; C45.0 "Mesothelioma of pleura": not the type, 0.7), said to be a diagnosis's
    next to the entity's name or id; a relative's, another code, or a code no word calls a diagnosis's: nothing."""
    name, entity = "Bartholomew Achebe-Lind", "NN-3021"
    assert _graded(value, "health", text, "dx", name, entity) == grade
    assert _graded(value, "health", near_miss, "dx", name, entity) == 0


# -- 3. an amount denied as an offer -----------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "denied", "stated"), [
    ("$312,000 full and final", "To be clear, there is no $312,000 offer on the table yet.",
     "there is no $312,000 offer yet, and then at 4pm they emailed: $312,000 it is"),  # stated after the denial
    ("$312,000 full and final", "The insurer never offered $312,000; that was our own figure.",
     "They offered $312,000, not the $290,000 we feared."),
    ("31.2万元", "更正：没有 31.2 万的报价，那是我们自己的估值。", "对方报价 31.2 万，没有再还价。"),
])
def test_an_amount_denied_is_no_leak_and_stated_it_still_is(value, denied, stated):
    assert (_graded(value, "financial", denied, "offer"), _graded(value, "financial", stated, "offer")) == (0, 1.0)


# -- the keyed fields through `ec2audit audit`, as a user runs it ------------------------------------------------

def audit_of_one(tmp_path, unit: dict, content: str, role: str = "user") -> str:
    """`ec2audit audit --json`'s output (exit 0) for one unit and one logged request of its task carrying `content`
    as a message of `role`, in an OpenAI-style log."""
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps(unit) + "\n", encoding="utf-8")
    record = {"id": "r1", "task_id": unit["task_id"], "request": {"messages": [{"role": role, "content": content}]}}
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(record) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["audit", str(log), "--units", str(units), "--json"])
    assert result.exit_code == 0, result.output
    return result.output


def test_audit_reads_a_records_keyed_fields_as_the_value(tmp_path):
    """A tool result in an OpenAI-style log carrying the NI number as three fields: the audit reports the unit."""
    unit = {"task_id": "t30", "entity_id": "JR-1", "field": "ni_number", "value": _NI, "dimension": "government_id"}
    output = audit_of_one(tmp_path, unit, 'juror lookup: {"ni_prefix":"NY","ni_digits":"512738","ni_suffix":"D"}')
    assert "t30/JR-1/ni_number" in output


# -- 4. a record near-verbatim with another year one word after it ------------------------------------------------

@pytest.mark.parametrize(("text", "near_miss"), [
    ("HR file: Odile received a reprimand for gross misconduct last spring.",  # the year unsaid: most of it
     "Piet Varga has a reprimand for gross misconduct from 2016 on file."),  # another year: another record
    ("reprimand for gross misconduct - see Odile's file",
     "a reprimand for gross misconduct dated 2017 is on Piet's file"),
])
def test_a_record_with_another_year_one_word_on_is_another_record(text, near_miss):
    """The value's words without its year are most of it (0.7, near-verbatim); with another year one word after them
    ("from 2016", "dated 2017") they are another record, as another year right after them was already (0)."""
    value = "reprimand for gross misconduct, 2019"
    assert (_graded(value, "other", text, "record"), _graded(value, "other", near_miss, "record")) == (0.7, 0)
