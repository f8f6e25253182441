"""Hand mutants of session 26 (benchmarks/hand_mutants.py; RESULTS.md, "Hand mutants in the code changed in session
25"): planted one at a time in the code session 25 changed, each survivor a behaviour no test held. Each test here
kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files, HTTP) or,
where the CLI cannot reach it, by what the library function gives."""

from __future__ import annotations

import pytest
from test_detect_forms_s24 import _scan
from test_intercept_forms_walk_3 import RECORD, UNIT_IDS, UNITS
from test_intercept_forms_walk_13 import leaks
from test_intercept_forms_walk_14 import TEXT, _session

from ec2audit.detect import learned_grader
from ec2audit.units import make_unit

__all__ = ["UNITS"]  # the units the `proxy` fixture guards (walk 3's record)

_LANE = "上海市浦东新区张杨路1288弄7号602室"


@pytest.mark.parametrize(("value", "text"), [
    ("multiple sclerosis, relapsing-remitting", "dx: MS, relapsing-remitting"),
    ("atopic dermatitis flare", "AD flare on both arms"),
    ("acute kidney injury, stage 2", "AK injury, stage 2"),
])
def test_two_words_as_their_initials_are_too_many_things_to_be_the_value(value, text):
    """Two initials ("MS", "AD") name many things: only a run of three to five words is read as an acronym (EA1)."""
    assert [h for h in _scan(value, "health", text, "diagnosis") if h[0] == "forms.acronym"] == []


def test_a_variant_of_a_value_naming_no_gene_is_the_value():
    """A value that names no gene symbol needs none beside its change: the change is the value (1.0), not most of
    it as where the value's gene goes unnamed (EV5)."""
    assert _scan("heterozygous c.5946delT", "health", "lab: c.5946del confirmed by Sanger", "genetic_finding") == [
        ("forms.variant", 1.0, "c.5946del")]


def test_an_address_form_filled_line_by_line_is_read_from_its_flat():
    """The flat's number is where the parts are looked for from (the rarest part): a form whose lane line comes
    first and whose building number comes over 160 characters after it, within them of the flat, is the value
    (EAT2: looked for from the lane, the building number fell outside)."""
    text = ("Address line 1: Lane 1288 Zhangyang Road\nDistrict: Pudong New Area\nCity: Shanghai\nPostcode: 200120\n"
            "Address line 2: Room 602\nDelivery notes: leave it with the concierge at the north gate, call ahead\n"
            "Building: No. 7\n")
    assert [(h[0], h[1]) for h in _scan(_LANE, "location", text, "home_address")] == [
        ("forms.address_translation", 1.0)]


def test_a_resumable_upload_in_three_chunks_is_audited_and_forwarded_whole(proxy):
    """A file over 16 MiB goes in three chunks or more: each chunk before the last is held after the ones before it
    (EP13: held alone, the third chunk's offset named bytes the proxy no longer held, and the upload was refused).
    By hand: the phone cut across the second and third chunks is found; redact forwards the file once, at offset
    0, with no value; block forwards none of it."""
    mode, app, client, store = proxy
    content = TEXT.encode()
    second, third = content.index(RECORD["phone"].encode()) - 7, content.index(RECORD["phone"].encode()) + 5
    session = _session(client, "three-chunks-start", {"file": {"display_name": "crm-export.txt"}})
    path = session[len(f"{client.base_url}".rstrip("/") + "/e/three-chunks-start"):]
    seen = len(app.state.requests)
    answers = [client.post(f"/e/three-chunks{path}", content=content[start:end], headers={
        "x-goog-upload-command": command, "x-goog-upload-offset": str(start)})
        for start, end, command in ((0, second, "upload"), (second, third, "upload"),
                                    (third, len(content), "upload, finalize"))]
    assert [a.headers.get("x-goog-upload-status") for a in answers[:2]] == ["active", "active"]
    assert answers[2].status_code == (403 if mode == "block" else 200), answers[2].text
    sent, [record] = app.state.requests[seen:], store.records("three-chunks")
    assert {f["unit_id"] for f in record.findings} == UNIT_IDS
    if mode == "block":
        assert sent == []
        return
    [whole] = sent
    assert leaks(whole) == [] and "[PHONE_" in whole["body"]["file"]
    assert whole["headers"]["x-goog-upload-offset"] == "0"


@pytest.mark.parametrize(("value", "text", "found"), [
    ("2014-03-08", "出生日期：民國一百零三年三月八日", "民國一百零三年三月八日"),  # 103: a hundred, no tens, units
    ("2021-03-08", "出生日期：民國一百一十年三月八日", "民國一百一十年三月八日"),
    ("1987-12-01", "née le 1er décembre 1987 à Lagos", "1er décembre 1987"),
    ("1987-12-24", "née le 1er décembre 1987 à Lagos", None),  # the 1st is another day than the 24th
])
def test_a_roc_year_past_a_hundred_and_a_french_first_of_the_month_read_as_written(value, text, found):
    """The Republic of China's year 103 (2014) is 一百零三, a zero between its hundred and its units (EDT6); French
    writes the first of a month `1er`, and only the first (EDT3: every date's day read as 1er)."""
    assert _scan(value, "other", text, "date_of_birth") == ([] if found is None else [("forms.date", 1.0, found)])


_TARGET = make_unit({"task_id": "t", "entity_id": "x", "entity_name": "Project Lantern", "field": "target",
                     "value": "Brightwell Dental Labs", "dimension": "business"})


def test_a_health_result_negative_a_few_words_on_finds_nothing():
    """"testing for BRCA1/2 was negative": the panel's word and `negative` up to 20 characters apart (EG1)."""
    gene = make_unit({"task_id": "t", "entity_id": "d", "entity_name": "Biobank donor BB-00931", "field": "finding",
                      "value": "BRCA2 pathogenic variant c.5946delT", "dimension": "health"})
    assert learned_grader.withheld(gene, "Donor BB-00931: germline testing for BRCA1/2 was negative.") == \
        "nothing found"


@pytest.mark.parametrize(("unit", "text", "why"), [
    (_TARGET, "Write a one-page template for our 2025 acquisition memos: overview, rationale, risks.", "no evidence"),
    (_TARGET, "Project Lantern: the board meets Thursday to sign.", ""),  # the entity named
    (make_unit({"task_id": "t", "entity_id": "h", "entity_name": "Dario Fenn", "field": "hr_status",
                "value": "placed on a performance improvement plan", "dimension": "other"}),
     "HR wants the PIP paperwork template tidied before Monday.", ""),  # the value's initials
])
def test_a_number_of_a_value_without_one_is_no_evidence_and_an_entity_or_initials_are(unit, text, why):
    """A number counts as the value's own evidence only for a value holding one (EG6: a year in a template's
    request was); the entity named (EG13) or the value's initials (EG7, "PIP") are its evidence."""
    assert learned_grader.withheld(unit, text) == why


def test_a_list_that_never_names_the_entity_is_no_other_persons_row():
    """A list of others' findings that names no row of the entity is no "another instance" (EG9): it may be the
    value itself, read with the rest of the evidence."""
    sprain = make_unit({"task_id": "t", "entity_id": "P-7", "entity_name": "Halina Wrobel", "field": "diagnosis",
                        "value": "grade II sprain of the left anterior talofibular ligament", "dimension": "health"})
    roster = ("Clinic list, Tuesday:\n09:30  M. Novak — grade II sprain, left ATFL\n10:00  T. Okafor — post-op "
              "week 4\n10:30  J. Berg — review")
    assert learned_grader.withheld(sprain, roster) == ""
