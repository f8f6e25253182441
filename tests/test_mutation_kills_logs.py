"""The log audit's attribution on a hand-made request log: which call first sent each unit, what each
session's exposure is over (its task's units, or those found in its own calls), the per-provider
totals and the timeline; in one process and in worker processes. Figures worked out in the comments."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from ec2audit.backends import get_backend
from ec2audit.errors import InputError
from ec2audit.logs.audit import FOUND, audit_logs, read_task_map
from ec2audit.units import make_unit

NAME = make_unit({"task_id": "t1", "entity_id": "P1", "field": "name", "value": "Marguerite Lindqvist",
                  "dimension": "person_name", "weight": 1.0})
PHONE = make_unit({"task_id": "t1", "entity_id": "P1", "field": "phone", "value": "+1 415-555-0142",
                   "dimension": "contact", "weight": 2.0})
DIAGNOSIS = make_unit({"task_id": "t1", "entity_id": "P1", "field": "diagnosis", "value": "type 2 diabetes",
                       "dimension": "health", "weight": 3.0})
UNITS = [NAME, PHONE, DIAGNOSIS]
CLOUD, EDGE = "https://api.openai.com/v1/chat/completions", "http://127.0.0.1:8080/v1/chat/completions"


def call(i: int, url: str, session: str, *texts: str, usage: dict | None = None) -> str:
    record = {"id": f"r{i}", "timestamp": f"2026-11-04T08:00:0{i}Z", "url": url, "session_id": session,
              "request": {"model": "gpt-5.4" if url == CLOUD else "smollm2",
                          "messages": [{"role": "user", "content": t} for t in texts]}}
    if usage:
        record["response"] = {"usage": usage}
    return json.dumps(record) + "\n"


# s1 (mapped to task t1): r1 sends the name to the cloud; r2 the diagnosis to the edge only; r3 resends the
# name (context) and adds the phone.  s2 (no task): r4 gives the edge the phone, r5 the cloud the diagnosis.
S1 = [call(1, CLOUD, "s1", "Follow up with Marguerite Lindqvist.", usage={"prompt_tokens": 100,
                                                                         "completion_tokens": 10}),
      call(2, EDGE, "s1", "Her diagnosis: type 2 diabetes."),
      call(3, CLOUD, "s1", "Follow up with Marguerite Lindqvist.", "Call +1 415-555-0142.")]
S2 = [call(4, EDGE, "s2", "Phone +1 415-555-0142"), call(5, CLOUD, "s2", "Diagnosis: type 2 diabetes")]


def logs(folder: Path, split: bool = False) -> Path:
    folder.mkdir()
    if split:  # one session per file, as worker processes need
        (folder / "a.jsonl").write_text("".join(S1))
        (folder / "b.jsonl").write_text("".join(S2))
    else:
        (folder / "log.jsonl").write_text("".join(S1 + S2))
    return folder


def test_each_unit_is_attributed_to_the_first_cloud_call_that_sent_it(tmp_path):
    log = audit_logs([logs(tmp_path / "logs")], UNITS, task_map={"s1": "t1"})
    leaked = [(r["session"], r["unit_id"], r["call"], r["step"], r["log_line"], r["grade"]) for r in log.leaked()]
    assert leaked == [("s1", NAME.id, 0, 1, 1, 1.0), ("s1", PHONE.id, 2, 3, 3, 1.0),
                      ("s2", DIAGNOSIS.id, 4, 2, 5, 1.0)]  # the diagnosis sent to s1's edge is no leak
    assert [(t["payload_id"], t["new_units"]) for t in log.timeline()] == [
        ("r1", [NAME.id]), ("r3", [PHONE.id]), ("r5", [DIAGNOSIS.id])]
    assert [c["side"] for c in log.calls] == ["cloud", "edge", "cloud", "edge", "cloud"]
    assert [c["base_url"] for c in log.calls] == [CLOUD, EDGE, CLOUD, EDGE, CLOUD]  # the address each was sent to
    assert [(t["session"], t["model"]) for t in log.timeline()] == [("s1", "gpt-5.4"), ("s1", "gpt-5.4"),
                                                                     ("s2", "gpt-5.4")]


def test_exposure_is_over_the_task_or_over_what_the_session_itself_handled(tmp_path):
    log = audit_logs([logs(tmp_path / "logs")], UNITS, task_map={"s1": "t1"})
    rows = {(r["group"], r["dimension"]): (r["units"], r["leaked"], r["exposure"]) for r in log.exposure_rows()}
    # s1 over t1's three units (weights 1 + 2 + 3): name and phone leaked → (1 + 2) / 6
    # s2 over the units found in its own calls: the phone (edge) and the diagnosis (cloud) → 3 / (2 + 3)
    assert rows == {("s1", None): (3, 2, 0.5), ("s1", "contact"): (1, 1, 1.0), ("s1", "health"): (1, 0, 0.0),
                    ("s1", "person_name"): (1, 1, 1.0), ("s2", None): (2, 1, 0.6), ("s2", "contact"): (1, 0, 0.0),
                    ("s2", "health"): (1, 1, 1.0)}
    sessions = {s["session"]: s for s in log.sessions()}
    assert sessions["s1"] == {"session": "s1", "calls": 3, "cloud_calls": 2, "calls_without_content": 0, "units": 3,
                              "leaked": 2, "exposure": 0.5, "scored_against": "task t1", "tasks": ["t1"],
                              "exposure_by_dimension": {"contact": 1.0, "health": 0.0, "person_name": 1.0}}
    assert (sessions["s2"]["calls"], sessions["s2"]["cloud_calls"], sessions["s2"]["scored_against"]) == (2, 1, FOUND)
    # without the map, s1 matches no task either: it too is scored against what it handled (name, diagnosis
    # at the edge, phone): all three, two leaked
    unmapped = {r["group"]: r for r in audit_logs([tmp_path / "logs"], UNITS).exposure_rows() if r["dimension"] is None}
    assert (unmapped["s1"]["units"], unmapped["s1"]["leaked"]) == (3, 2)


def test_a_session_named_as_its_task_is_scored_against_it(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "log.jsonl").write_text("".join(S1).replace('"s1"', '"t1"'))
    log = audit_logs([folder], UNITS)
    assert log.scored_against("t1") == "task t1"
    log.result.tasks["t1"] |= {"t3", "t2"}  # a session over several tasks names up to three …
    assert log.scored_against("t1") == "task t1, t2, t3"
    log.result.tasks["t1"].add("t4")  # … and counts more
    assert log.scored_against("t1") == "4 tasks"


def test_providers_add_up_calls_characters_tokens_and_price_cloud_calls(tmp_path):
    log = audit_logs([logs(tmp_path / "logs")], UNITS, task_map={"s1": "t1"})
    cloud, edge = log.providers()
    # cloud: r1 (36 characters), r3 (36 + 21), r5 (26); only r1 reported usage, so the totals are unknown
    assert (cloud["side"], cloud["provider"], cloud["calls"], cloud["characters"]) == ("cloud", "openai", 3, 119)
    assert (cloud["input_tokens"], cloud["output_tokens"]) == (None, None)  # not r1's 100 / 10 read as the whole
    assert (cloud["cost_usd"], cloud["unpriced_calls"]) == (None, 2)
    priced = log.calls_frame().filter(pl.col("side") == "cloud")["cost_usd"].to_list()
    assert priced[0] > 0 and priced[1:] == [None, None]  # r1 priced from its usage
    assert (edge["side"], edge["calls"], edge["characters"], edge["cost_usd"]) == ("edge", 2, 31 + 21, None)


def test_progress_counts_the_bytes_of_every_file(tmp_path):
    folder = logs(tmp_path / "logs")
    size = (folder / "log.jsonl").stat().st_size
    seen = []
    audit_logs([folder], UNITS, on_progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, size) and seen[-1] == (size, size) and all(t == size for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_worker_processes_give_the_same_attribution(tmp_path):
    folder = logs(tmp_path / "logs", split=True)
    serial = audit_logs([folder], UNITS, task_map={"s1": "t1"})
    parallel = audit_logs([folder], UNITS, task_map={"s1": "t1"}, backend=get_backend("processes", workers=2))
    for name in ("leaked", "exposure_rows", "sessions", "timeline", "providers"):
        assert getattr(parallel, name)() == getattr(serial, name)(), name
    assert parallel.findings_frame().equals(serial.findings_frame())
    # the units found in an unmapped session's calls: their sums (the unit ids stay in the workers' Parquet)
    groups = {r["group"]: r for r in parallel.groups_lazy().collect().to_dicts()}  # the workers' groups tables
    assert [g for g, r in groups.items() if r["found"]] == list(serial.found_in_calls) == ["s2"]
    assert groups["s2"]["scope"] == list(serial.scope["s2"])
    assert serial.scope["s2"][0] == len(serial.found_in_calls["s2"]) > 0
    assert parallel.files_frame().height == 2  # scope [0]: all dimensions


def test_units_or_discovery_but_not_both(tmp_path):
    with pytest.raises(InputError, match="either units or discover"):
        audit_logs([tmp_path], UNITS, discover=True)
    with pytest.raises(InputError, match="either units or discover"):
        audit_logs([tmp_path])


def test_task_maps_from_json_or_csv_and_their_errors_named(tmp_path):
    path = tmp_path / "map"
    path.write_text('{"s1": "t1", "s2": "t2"}')
    assert read_task_map(path) == {"s1": "t1", "s2": "t2"}
    path.write_text("\ufeffsession,task_id\n s1 , t1 \ns2,t2\n")
    assert read_task_map(path) == {"s1": "t1", "s2": "t2"}
    for text, line, field in (('{"s1": ', 1, None), ('{"s1": ""}', None, "s1"), ('{"s1": 3}', None, "s1"),
                              ("name,task\ns1,t1\n", 1, None), ("session,task_id\ns1,t1\ns2\n", 3, None),
                              ("session,task_id\ns1, \n", 2, None)):
        path.write_text(text)
        with pytest.raises(InputError) as err:
            read_task_map(path)
        assert (err.value.file, err.value.line, err.value.field) == (str(path), line, field), text
    # the error says what is wrong with the value
    path.write_text('{"s1": ""}')
    with pytest.raises(InputError, match="task id must be a non-empty string"):
        read_task_map(path)


def test_a_unit_leaked_at_a_lower_grade_first_is_attributed_to_the_call_that_sent_it_at_its_best(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    # s3: r1 sends the phone masked (7 of its 11 digits shown: 0.7), r2 whole (1.0); s4 sends nothing
    (folder / "log.jsonl").write_text(call(1, CLOUD, "s3", "Call +1 415-555-01**.") +
                                      call(2, CLOUD, "s3", "Call +1 415-555-0142.") +
                                      call(3, CLOUD, "s4", "Nothing to see here."))
    log = audit_logs([folder], UNITS, task_map={"s3": "t1", "s4": "t1"})
    assert [(r["session"], r["unit_id"], r["payload_id"], r["grade"]) for r in log.leaked()] == [
        ("s3", PHONE.id, "r2", 1.0)]
    # s4 leaked none of t1's three units (weights 1 + 2 + 3): exposure 0
    rows = {r["group"]: (r["units"], r["leaked"], r["exposure"]) for r in log.exposure_rows() if r["dimension"] is None}
    assert rows == {"s3": (3, 1, 2 / 6), "s4": (3, 0, 0.0)}


def test_a_cloud_calls_price_counts_cached_input_tokens_at_their_own_rate(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    usage = {"prompt_tokens": 1000, "completion_tokens": 100, "prompt_tokens_details": {"cached_tokens": 800}}
    (folder / "log.jsonl").write_text(call(1, CLOUD, "s1", "hello", usage=usage))
    [cloud] = audit_logs([folder], UNITS).providers()
    # gpt-5.4 (pricing.toml): 200 uncached × $2.50 + 800 cached × $0.25 + 100 out × $15.00 per million = $0.0022
    assert (cloud["input_tokens"], cloud["cached_tokens"], cloud["output_tokens"]) == (1000, 800, 100)
    assert cloud["cost_usd"] == pytest.approx(0.0022)


def test_discovery_reads_the_logs_twice_and_finds_what_the_local_side_holds(tmp_path):
    folder = logs(tmp_path / "logs")
    size = (folder / "log.jsonl").stat().st_size
    seen = []
    log = audit_logs([folder], discover=True, use_presidio=False, on_progress=lambda done, total: seen.append(
        (done, total)))
    assert log.mode == "discover" and "+1 415-555-0142" in {u.value for u in log.result.units}
    # two passes over the file (discovery, then the audit): the first ends at `size`, the second reads to 2·size
    assert (size, 2 * size) in seen and seen[-2] == (2 * size, 2 * size)
