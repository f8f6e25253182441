"""Exposure (`metrics`) and the report's summary (`report.summary`) on run and audit folders made by hand
here, small enough that every figure is worked out in the comments: what `ec2audit report` shows."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from ec2audit import metrics
from ec2audit.audit import FINDING_SCHEMA
from ec2audit.errors import InputError
from ec2audit.files import write_table
from ec2audit.intercept.record import ProxyRecord
from ec2audit.intercept.store import RecordStore
from ec2audit.payloads import Payload, Segment
from ec2audit.report.summary import Evidence, _evidence, load, mask
from ec2audit.units import make_unit, write_units

SALARY = make_unit({"task_id": "t1", "entity_id": "E1", "field": "salary", "value": "205,000",
                    "dimension": "financial", "weight": 2.0})
DIAGNOSIS = make_unit({"task_id": "t1", "entity_id": "E1", "field": "diagnosis", "value": "asthma",
                       "dimension": "health", "weight": 1.0})
PHONE = make_unit({"task_id": "t2", "entity_id": "E2", "field": "phone", "value": "555-0100",
                   "dimension": "contact", "weight": 1.0})
UNITS = [SALARY, DIAGNOSIS, PHONE]
TEXT = "Ana earns 205,000 a year; call 555-0100."  # 205,000 at 10..17, 555-0100 at 31..39


# --- metrics ------------------------------------------------------------------------------------------

def test_unit_table_has_one_row_per_unit_of_each_groups_tasks():
    table = metrics.unit_table(UNITS, {"g": {SALARY.id: 1.0, PHONE.id: 0.3}}, {"g": {"t1"}, "h": {"t1", "t2"}})
    assert table.select("group", "unit_id", "entity_id", "field", "dimension", "weight", "grade").rows() == [
        ("g", SALARY.id, "E1", "salary", "financial", 2.0, 1.0),
        ("g", DIAGNOSIS.id, "E1", "diagnosis", "health", 1.0, 0.0),  # not found: grade 0
        ("h", SALARY.id, "E1", "salary", "financial", 2.0, 0.0),  # h has no grades at all
        ("h", DIAGNOSIS.id, "E1", "diagnosis", "health", 1.0, 0.0),
        ("h", PHONE.id, "E2", "phone", "contact", 1.0, 0.0),
    ]  # g's phone grade is not g's: t2 is not one of g's tasks
    assert table["task_id"].to_list() == ["t1", "t1", "t1", "t1", "t2"]


def test_exposure_is_weighted_and_leaked_counts_from_grade_0_7():
    table = metrics.unit_table(UNITS, {"g": {SALARY.id: 0.7, DIAGNOSIS.id: 0.3, PHONE.id: 1.0}},
                               {"g": {"t1", "t2"}})
    # g/t1: (0.7·2 + 0.3·1) / 3 = 1.7/3; leaked: salary (0.7 counts) → 1 of 2
    # g/t2: 1.0·1 / 1 = 1; leaked 1 of 1
    rows = {r["task_id"]: r for r in metrics.exposure(table).to_dicts()}
    assert rows["t1"]["exposure"] == pytest.approx(1.7 / 3) and rows["t2"]["exposure"] == 1.0
    assert (rows["t1"]["units"], rows["t1"]["leaked"], rows["t1"]["leaked_share"]) == (2, 1, 0.5)
    assert (rows["t2"]["units"], rows["t2"]["leaked"], rows["t2"]["leaked_share"]) == (1, 1, 1.0)
    by_dim = {(r["task_id"], r["dimension"]): r for r in metrics.exposure_by_dimension(table).to_dicts()}
    assert by_dim[("t1", "financial")]["exposure"] == 0.7 and by_dim[("t1", "financial")]["leaked"] == 1
    assert by_dim[("t1", "health")]["exposure"] == 0.3 and by_dim[("t1", "health")]["leaked"] == 0
    assert list(by_dim) == [("t1", "financial"), ("t1", "health"), ("t2", "contact")]  # in the table's order


# --- a run folder ---------------------------------------------------------------------------------------

def leak(unit, grade: float, payload: str = "p1", start: int | None = None, end: int | None = None,
         step: int = 0) -> dict:
    return {"unit_id": unit.id, "dimension": unit.dimension, "grade": grade, "payload_id": payload,
            "origin": "user", "message_index": 0, "detector": "exact", "start": start, "end": end,
            "matched_text": unit.value, "first_call": step}


def episode(eid, task, strategy, run, status, completion, passed, calls, tokens, usd, flops, exposure, dims,
            leaks, router=None, edge="edge-a", cloud="cloud-x (scripted stand-in)") -> dict:
    return {"episode_id": eid, "task_id": task, "strategy": strategy, "run_index": run, "status": status,
            "completion": completion, "passed": passed, "cloud_calls": calls, "cloud_input_tokens": tokens[0],
            "cloud_cached_tokens": tokens[1], "cloud_output_tokens": tokens[2], "cloud_usd": usd,
            "edge_flops": flops, "exposure": exposure, "exposure_by_dimension": json.dumps(dims),
            "leaked_units": json.dumps(leaks), "edge_model": edge, "cloud_model": cloud, "router": router,
            "cloud_context": None}


def write_run(folder: Path, edge: str = "edge-a", cloud: str = "cloud-x (scripted stand-in)") -> Path:
    folder.mkdir(parents=True)
    rows = [
        episode("t1/cloud-only/0", "t1", "cloud-only", 0, "ok", 1.0, True, 2, (100, 10, 5), 0.5, 1e9, 0.5,
                {"financial": 0.8, "health": 0.2},
                [leak(DIAGNOSIS, 0.3, step=1), leak(SALARY, 1.0, "p1", 10, 17)], edge=edge, cloud=cloud),
        episode("t1/cloud-only/1", "t1", "cloud-only", 1, "timeout", 0.5, False, 1, (50, 0, 4), 0.25, 2e9, 0.25,
                {"financial": 0.4, "health": 0.0}, [leak(SALARY, 0.7, "p9")], edge=edge, cloud=cloud),
        episode("t2/cloud-only/0", "t2", "cloud-only", 0, "budget", 0.8, True, 0, (0, 0, 0), 0.0, 3e9, 0.0,
                {"contact": 0.0}, [], edge=edge, cloud=cloud),
        episode("t2/cloud-only/1", "t2", "cloud-only", 1, "ok", 0.6, True, 0, (0, 0, 0), 0.0, 4e9, 0.1,
                {"contact": 0.1}, [], edge=edge, cloud=cloud),
        episode("t1/query-router/0", "t1", "query-router", 0, "ok", 0.9, True, 1, (10, 0, 1), None, 5e8, 0.3,
                {"financial": 0.3}, [leak(SALARY, 0.7, "p5")], router="fixed:cloud", edge=edge, cloud=cloud),
    ]
    write_table(pl.DataFrame(rows), folder / "episodes.parquet")
    finding = {"group": "t1/cloud-only/0", "task_id": "t1", "entity_id": "E1", "weight": 1.0, "payload_id": "p1",
               "segment": 0, "message_index": 0, "role": "user", "origin": "user", "detector": "exact",
               "confidence": 1.0}
    findings = [dict(finding, unit_id=SALARY.id, field="salary", dimension="financial", start=10, end=17,
                     matched_text="205,000", grade=1.0),
                dict(finding, unit_id=PHONE.id, field="phone", dimension="contact", start=31, end=39,
                     matched_text="555-0100", grade=1.0)]
    write_table(pl.DataFrame(findings, schema=FINDING_SCHEMA), folder / "findings.parquet")
    store = RecordStore(folder / "cloud.sqlite")
    store.add(ProxyRecord(id="p1", episode="t1/cloud-only/0", ts=0.0, api="openai-chat", model="cloud-x",
                          request={"model": "cloud-x", "messages": [{"role": "user", "content": TEXT}]}, status=200))
    store.close()
    return folder


def test_run_rows_hold_the_means_sums_and_pass_rates_of_their_episodes(tmp_path):
    summary = load([write_run(tmp_path / "run")])
    cloud, routed = summary.rows
    # cloud-only: 4 episodes of 2 tasks; the timeout is the one failure
    assert (cloud.label, cloud.strategy, cloud.episodes, cloud.tasks, cloud.k, cloud.failed) == (
        "cloud-only", "cloud-only", 4, 2, 2, 1)
    assert cloud.completion == pytest.approx((1.0 + 0.5 + 0.8 + 0.6) / 4)
    assert (cloud.pass_hat_k, cloud.pass_at_k) == (0.5, 1.0)  # t1 passed once of twice, t2 twice
    assert (cloud.cloud_calls, cloud.cloud_input_tokens, cloud.cloud_cached_tokens, cloud.cloud_output_tokens) == (
        3, 150, 10, 9)
    assert cloud.cloud_usd == 0.75 and cloud.usd_per_episode == 0.75 / 4 and cloud.edge_flops == 1e10
    assert cloud.exposure == pytest.approx((0.5 + 0.25 + 0.0 + 0.1) / 4)
    assert cloud.leaked_units == 2  # salary at 1.0 and at 0.7; the diagnosis at 0.3 is no leak
    assert cloud.by_dimension == pytest.approx({"contact": 0.05, "financial": 0.6, "health": 0.1})
    assert list(cloud.by_dimension) == ["contact", "financial", "health"]
    # an unknown price makes the USD unknown, not 0
    assert (routed.label, routed.router, routed.cloud_usd, routed.usd_per_episode) == (
        "query-router/fixed:cloud", "fixed:cloud", None, None)
    assert (routed.episodes, routed.k, routed.pass_hat_k, routed.leaked_units) == (1, 1, 1.0, 1)
    assert summary.dimensions == ["contact", "financial", "health"] and summary.has_completion



def test_a_run_from_before_a_setting_reads_it_as_unknown(tmp_path):
    run = write_run(tmp_path / "run")
    frame = pl.read_parquet(run / "episodes.parquet")
    write_table(frame.drop("cloud_context", "edge_model"), run / "episodes.parquet")
    cloud, routed = load([run]).rows
    assert [(r.cloud_context, r.edge_model) for r in (cloud, routed)] == [(None, None), (None, None)]
    assert (cloud.label, routed.label) == ("cloud-only", "query-router/fixed:cloud")

def test_the_drilldown_names_the_first_step_and_masks_the_evidence_around_it(tmp_path):
    summary = load([write_run(tmp_path / "run")])
    first, second, routed = summary.tasks["t1"]
    assert [e.episode_id for e in summary.tasks["t2"]] == ["t2/cloud-only/0", "t2/cloud-only/1"]
    assert (first.episode_id, second.episode_id, routed.episode_id) == (
        "t1/cloud-only/0", "t1/cloud-only/1", "t1/query-router/0")
    assert (first.label, first.completion, first.status, first.exposure) == ("cloud-only", 1.0, "ok", 0.5)
    assert routed.label == "query-router/fixed:cloud"
    salary, diagnosis = first.leaks  # highest grade first
    assert (salary.unit_id, salary.grade, salary.step, salary.payload_id, salary.dimension) == (
        SALARY.id, 1.0, 0, "p1", "financial")
    assert (diagnosis.unit_id, diagnosis.step, diagnosis.evidence) == (DIAGNOSIS.id, 1, None)  # no span
    assert salary.shown == "2*****0"
    # the payload text around it, from cloud.sqlite; the phone (another finding there) masked as "other"
    assert salary.evidence.pieces == [("Ana earns ", "text"), ("2*****0", "hit"), (" a year; call ", "text"),
                                      ("5******0", "other"), (".", "text")]
    assert not salary.evidence.truncated_left and not salary.evidence.truncated_right
    assert second.leaks[0].evidence is None  # its payload is not in the store
    clear = load([write_run(tmp_path / "clear")], show_values=True).tasks["t1"][0].leaks[0]
    assert clear.shown == "205,000" and [p for p, _ in clear.evidence.pieces] == [
        "Ana earns ", "205,000", " a year; call ", "555-0100", "."]
    data = summary.to_dict()
    assert "evidence" not in data["tasks"]["t1"][0]["leaks"][0] and "tasks" not in summary.to_dict(drilldown=False)
    assert data["strategies"][0]["leaked_units"] == 2 and data["values_shown"] is False


def test_runs_that_differ_in_a_model_are_labelled_by_it(tmp_path):
    a = write_run(tmp_path / "a")
    b = write_run(tmp_path / "b", edge="edge-b")
    c = write_run(tmp_path / "c", cloud="cloud-y")
    labels = [r.label for r in load([a, b]).rows]
    assert labels == ["cloud-only @ edge-a", "query-router/fixed:cloud @ edge-a",
                      "cloud-only @ edge-b", "query-router/fixed:cloud @ edge-b"]
    assert [r.label for r in load([a, c]).rows][::2] == ["cloud-only → cloud-x", "cloud-only → cloud-y"]
    # two runs of the same configuration: labels are told apart by their source folder (one folder
    # named twice is one run)
    twin = write_run(tmp_path / "twin")
    assert [r.label for r in load([a, twin]).rows] == ["cloud-only [a]", "query-router/fixed:cloud [a]",
                                                      "cloud-only [twin]", "query-router/fixed:cloud [twin]"]
    assert len(load([a, a]).rows) == 2


def test_a_run_without_the_store_says_evidence_has_no_context(tmp_path):
    run = write_run(tmp_path / "run")
    (run / "cloud.sqlite").unlink()
    summary = load([run])
    assert summary.notes == ["run: no cloud.sqlite, evidence without context"]
    assert summary.tasks["t1"][0].leaks[0].evidence is None


def test_bad_runs_are_named(tmp_path):
    run = write_run(tmp_path / "run")
    frame = pl.read_parquet(run / "episodes.parquet")
    write_table(frame.drop("leaked_units"), run / "episodes.parquet")
    with pytest.raises(InputError) as err:
        load([run])
    assert err.value.field == "leaked_units" and err.value.file == str(run / "episodes.parquet")
    write_table(frame.head(0), run / "episodes.parquet")
    with pytest.raises(InputError, match="no finished episode"):
        load([run])
    with pytest.raises(InputError, match="not a run directory"):
        load([tmp_path / "nothing-here"])


# --- an audit output ------------------------------------------------------------------------------------

NO_SESSIONS = ("findings.parquet: no findings.sessions.parquet beside it: only the sessions with findings are "
               "counted (write findings with `ec2audit audit --out`)")


def write_audit(folder: Path, with_units: bool = True, with_payloads: bool = True) -> Path:
    folder.mkdir(parents=True)
    base = {"task_id": "t1", "entity_id": "E1", "segment": 0, "message_index": 0, "role": "user",
            "origin": "user", "detector": "exact", "confidence": 1.0}
    salary = dict(base, unit_id=SALARY.id, field="salary", dimension="financial", weight=2.0)
    diagnosis = dict(base, unit_id=DIAGNOSIS.id, field="diagnosis", dimension="health", weight=1.0)
    rows = [dict(salary, group="g1", payload_id="q1", start=10, end=17, matched_text="205,000", grade=1.0),
            dict(diagnosis, group="g1", payload_id="q1", start=0, end=3, matched_text="Ana", grade=0.3),
            dict(salary, group="g1", payload_id="q2", start=10, end=17, matched_text="205,000", grade=0.7),
            dict(salary, group="g2", payload_id="q3", start=10, end=13, matched_text="205", grade=0.3)]
    write_table(pl.DataFrame(rows, schema=FINDING_SCHEMA), folder / "findings.parquet")
    if with_units:
        write_units(UNITS, folder / "units.jsonl")
    if with_payloads:
        (folder / "payloads.jsonl").write_text("".join(
            json.dumps({"id": pid, "request": {"model": "m", "messages": [{"role": "user", "content": TEXT}]}}) + "\n"
            for pid in ("q1", "q2", "q3")))
    return folder


def test_audit_output_exposure_per_group_and_its_mean(tmp_path):
    summary = load([write_audit(tmp_path / "audit")])
    [row] = summary.rows
    g1, g2 = summary.groups
    # g1: salary's best 1.0 (weight 2), diagnosis 0.3 (weight 1) → (2 + 0.3) / 3; g2: salary 0.3 → 0.6 / 3
    assert (g1.label, g1.exposure, g1.leaked_units, g1.tasks) == ("g1", pytest.approx(2.3 / 3), 1, 1)
    assert (g2.label, g2.exposure, g2.leaked_units) == ("g2", pytest.approx(0.2), 0)
    assert [(g.strategy, g.episodes) for g in (g1, g2)] == [("audit", 1), ("audit", 1)]  # a group is one episode
    assert g1.by_dimension == pytest.approx({"financial": 1.0, "health": 0.3})
    assert g2.by_dimension == pytest.approx({"financial": 0.3, "health": 0.0})
    assert (row.label, row.strategy, row.episodes, row.tasks, row.leaked_units) == (
        "audit: findings.parquet", "audit", 2, 1, 1)
    assert row.exposure == pytest.approx((2.3 / 3 + 0.2) / 2)
    assert row.by_dimension == pytest.approx({"financial": 0.65, "health": 0.15})
    assert row.completion is None and not summary.has_completion
    assert summary.notes == [NO_SESSIONS]
    first, second = summary.tasks["t1"]
    assert (first.episode_id, first.exposure, second.episode_id) == ("g1", pytest.approx(2.3 / 3), "g2")
    salary, diagnosis = first.leaks
    # the first payload that carried the salary at its best grade in g1 (q1's 1.0; q2's 0.7 is later); these findings
    # have no `step` column, so no call number is made up
    assert (salary.grade, salary.step, salary.payload_id, diagnosis.grade) == (1.0, None, "q1", 0.3)
    # q1's text around it: the diagnosis finding there ("Ana", 0..3) masked too; the phone is no finding here
    assert salary.evidence.pieces == [("***", "other"), (" earns ", "text"), ("2*****0", "hit"),
                                      (" a year; call 555-0100.", "text")]
    assert (salary.origin, salary.message_index, salary.detector, salary.shown) == ("user", 0, "exact", "2*****0")
    # asked to show values: the hit and the other finding as they were sent
    [shown] = load([tmp_path / "audit"], show_values=True).tasks["t1"][0].leaks[:1]
    assert shown.shown == "205,000" and shown.evidence.pieces == [
        ("Ana", "other"), (" earns ", "text"), ("205,000", "hit"), (" a year; call 555-0100.", "text")]


def test_audit_output_without_units_or_payloads_says_what_is_missing(tmp_path):
    summary = load([write_audit(tmp_path / "audit", with_units=False, with_payloads=False)])
    assert summary.rows[0].exposure is None
    assert summary.notes == [NO_SESSIONS, "findings.parquet: no units found (give --units): exposure not computed",
                             "findings.parquet: no payloads found (give --payloads: the payloads file, or the "
                             "interceptor's store `intercept audit` read): evidence without context"]
    assert summary.tasks["t1"][0].leaks[0].evidence is None


# --- masking -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "shown"), [("", ""), ("abcd", "****"), ("abcde", "a***e"),
                                              ("abcdefghij", "ab******ij"), ("205,000", "2*****0")])
def test_mask_keeps_a_fifth_at_each_end(value, shown):
    assert mask(value) == shown


def test_an_empty_unit_table_keeps_its_columns_and_exposure_keeps_the_tables_order():
    empty = metrics.unit_table(UNITS, {}, {})
    assert empty.schema == metrics.UNIT_SCHEMA and metrics.exposure(empty).is_empty()
    # forty tasks listed in reverse: the exposure rows come in the table's order, not in a hash order
    units = [make_unit({"task_id": f"t{n:02d}", "entity_id": "E", "field": "f", "value": f"v{n}",
                        "dimension": "contact", "weight": 1.0}) for n in reversed(range(40))]
    table = metrics.unit_table(units, {}, {"g": {u.task_id for u in units}})
    assert metrics.exposure(table)["task_id"].to_list() == [u.task_id for u in units]
    assert metrics.exposure_by_dimension(table)["task_id"].to_list() == [u.task_id for u in units]


def test_inputs_by_file_by_option_and_as_jsonl(tmp_path):
    audit = write_audit(tmp_path / "audit", with_units=False, with_payloads=False)
    write_audit(tmp_path / "elsewhere")
    by_file = load([audit / "findings.parquet"], units_path=tmp_path / "elsewhere" / "units.jsonl",
                   payloads_path=tmp_path / "elsewhere" / "payloads.jsonl")
    assert by_file.rows[0].exposure == pytest.approx((2.3 / 3 + 0.2) / 2) and by_file.notes == [NO_SESSIONS]
    assert by_file.tasks["t1"][0].leaks[0].evidence is not None
    run = write_run(tmp_path / "run")
    pl.read_parquet(run / "episodes.parquet").write_ndjson(run / "episodes.jsonl")
    (run / "episodes.parquet").unlink()
    assert [r.label for r in load([run]).rows] == ["cloud-only", "query-router/fixed:cloud"]
    (run / "episodes.jsonl").write_text("{not json\n")
    with pytest.raises(InputError, match="not JSON") as err:
        load([run])
    assert (err.value.file, err.value.line) == (str(run / "episodes.jsonl"), 1)


def test_evidence_masks_the_hit_and_other_values_and_is_none_for_a_segment_the_payload_lacks():
    payload = Payload("p1", [Segment(0, "user", "user", TEXT)])
    # 205,000 (7 characters) and 555-0100 (8) keep their first and last character
    assert _evidence(payload, 0, 10, 17, [(31, 39)], False) == Evidence(
        [("Ana earns ", "text"), ("2*****0", "hit"), (" a year; call ", "text"), ("5******0", "other"), (".", "text")])
    assert _evidence(payload, 0, 10, 17, [], True).pieces[1] == ("205,000", "hit")
    assert _evidence(payload, 1, 10, 17, [], False) is None  # the finding names segment 1: there is none
    assert _evidence(payload, 0, 35, 45, [], False) is None  # a span past the text's end
    # a finding overlapping the hit is the hit's text; one inside another finding adds nothing, and every
    # finding after it is still masked
    text = "Ana earns 205,000 a year; call 555-0100 or 555-0199."
    payload = Payload("p1", [Segment(0, "user", "user", text)])
    assert _evidence(payload, 0, 10, 17, [(10, 17), (15, 20), (31, 39), (33, 36), (43, 51)], False).pieces == [
        ("Ana earns ", "text"), ("2*****0", "hit"), (" a year; call ", "text"), ("5******0", "other"),
        (" or ", "text"), ("5******9", "other"), (".", "text")]


def test_evidence_says_when_text_is_cut_on_either_side():
    # 160 characters are shown on each side: a hit at 161 leaves one character out on the left
    text = "a" * 161 + "205,000" + "b" * 160
    payload = Payload("p1", [Segment(0, "user", "user", text)])
    left, right = _evidence(payload, 0, 161, 168, [], False), _evidence(payload, 0, 160, 167, [], False)
    assert (left.truncated_left, left.truncated_right) == (True, False)
    assert (right.truncated_left, right.truncated_right) == (False, True)  # 160 + 7 + 160 of 328: one left out
