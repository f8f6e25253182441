"""One exposure rule for sessions that sent nothing to the cloud (session 18): a session scored against a task
with units whose units all stayed on the device (no cloud call, only clean calls, every request blocked by the
proxy) has exposure 0.0, as an edge-only episode of `run` always had; exposure is null only where a session is
scored against no unit at all. `audit`, `intercept audit`, a run's episode audit and `report` give the same
figures for the same sessions, and the means count the clean sessions and say how many were left out."""

import json
from pathlib import Path

import httpx
import polars as pl
import pytest
from click.testing import CliRunner
from intercept_helpers import running_proxy, wait_for_records

from ec2audit.cli import main
from ec2audit.intercept.server import serve_in_thread
from ec2audit.intercept.standin import create_app as create_standin
from ec2audit.logs import audit as log_audit
from ec2audit.run.episodes import RECORD, EpisodeSpec, audit_episode
from ec2audit.run.record import EpisodeRecord
from ec2audit.run.scheduler import write_results
from ec2audit.tasks import Task
from ec2audit.units import read_units

NOTHING = "nothing: no units to score against"
#: Task t1's four units, weights given: 1 + 1 + 2 + 4 = 8.
UNITS = [
    {"task_id": "t1", "entity_id": "P1", "field": "name", "value": "Dana Whitfield", "dimension": "person_name",
     "weight": 1.0},
    {"task_id": "t1", "entity_id": "P1", "field": "phone", "value": "+1 415-555-0199", "dimension": "contact",
     "weight": 1.0},
    {"task_id": "t1", "entity_id": "P1", "field": "salary", "value": "$1,250,000", "dimension": "financial",
     "weight": 2.0},
    {"task_id": "t1", "entity_id": "P1", "field": "ssn", "value": "078-05-1120", "dimension": "government_id",
     "weight": 4.0},
]
CLOUD = "https://api.openai.com/v1/chat/completions"
LOCAL = "http://localhost:11434/v1/chat/completions"


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": "220"})
    assert result.exit_code == 0, result.output
    return result.output


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _call(rid: str, session: str, url: str, model: str, text: str) -> dict:
    return {"id": rid, "timestamp": f"2026-12-06T10:00:0{rid[-1]}Z", "url": url, "session_id": session,
            "request": {"model": model, "messages": [{"role": "user", "content": text}]},
            "response": {"usage": {"prompt_tokens": 100, "completion_tokens": 10}}}


@pytest.fixture
def audited(tmp_path):
    """A log of four sessions; the task map names three of them, all task t1:
    s1 sends the name and the salary to gpt-4o: (1 + 2) / 8 = 0.375, 2 of 4 units leaked;
    s2 asks gpt-4o something with no unit in it: 0 / 8 = 0.0;
    s3 sends every unit, but only to a local ollama (no cloud call): 0 / 8 = 0.0;
    s4 (not in the map) asks gpt-4o "Hello there": matched no task, no unit in its calls: nothing to score
    against, exposure null."""
    units = _write_jsonl(tmp_path / "units.jsonl", UNITS)
    log = _write_jsonl(tmp_path / "requests.jsonl", [
        _call("r1", "s1", CLOUD, "gpt-4o", "Dana Whitfield earns $1,250,000 a year."),
        _call("r2", "s2", CLOUD, "gpt-4o", "What is on today's agenda?"),
        _call("r3", "s3", LOCAL, "llama3", "Dana Whitfield, +1 415-555-0199, $1,250,000, SSN 078-05-1120"),
        _call("r4", "s4", CLOUD, "gpt-4o", "Hello there")])
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({"s1": "t1", "s2": "t1", "s3": "t1"}))
    out = tmp_path / "out"
    out.mkdir()
    summary = json.loads(_cli("audit", str(log), "--units", str(units), "--task-map", str(task_map), "--json",
                              "--out", str(out / "findings.parquet")))
    return summary, out


def test_audit_scores_a_mapped_session_with_no_cloud_call_0_not_null(audited):
    """Before: s3 was (0 cloud calls, null, "nothing: no cloud call") though its task has four units."""
    summary, out = audited
    sessions = {s["session"]: (s["cloud_calls"], s["units"], s["leaked"], s["exposure"], s["scored_against"])
                for s in summary["sessions"]}
    assert sessions == {"s1": (1, 4, 2, 0.375, "task t1"), "s2": (1, 4, 0, 0.0, "task t1"),
                        "s3": (0, 4, 0, 0.0, "task t1"), "s4": (1, 0, 0, None, NOTHING)}
    by_dimension = {s["session"]: s["exposure_by_dimension"] for s in summary["sessions"]}
    assert by_dimension["s3"] == {"contact": 0.0, "financial": 0.0, "government_id": 0.0, "person_name": 0.0}
    # the exposure table has a row per scored session: s3 too, s4 not
    assert {r["group"]: r["exposure"] for r in summary["exposure"]} == {"s1": 0.375, "s2": 0.0, "s3": 0.0}
    # the sessions table written beside the findings says the same
    table = pl.read_parquet(out / "findings.sessions.parquet")
    assert dict(table.select("session", "exposure").iter_rows()) == {"s1": 0.375, "s2": 0.0, "s3": 0.0, "s4": None}
    assert dict(table.select("session", "scored_against").iter_rows())["s4"] == NOTHING


def test_report_means_count_clean_sessions_and_say_how_many_were_left_out(audited, tmp_path):
    """The audit row's exposure is the mean over the three scored sessions: (0.375 + 0 + 0) / 3 = 0.125 (before:
    (0.375 + 0) / 2 = 0.1875, s3 dropped, though its 4 sessions were counted). Per dimension, s1 leaked the
    name (person_name 1.0) and the salary (financial 1.0): each (1 + 0 + 0) / 3; contact and government_id 0."""
    _, out = audited
    data = json.loads(_cli("report", str(out), "--json"))
    [row] = data["strategies"]
    assert (row["episodes"], row["exposure"]) == (4, pytest.approx(0.125))
    assert row["by_dimension"] == pytest.approx({"contact": 0.0, "financial": 1 / 3, "government_id": 0.0,
                                                 "person_name": 1 / 3})
    assert ("findings.parquet: 1 of 4 sessions left out of the exposure means: nothing to score against "
            "(no units in its task, or none in its calls)") in data["notes"]
    tasks = {task: sorted(e["episode_id"] for e in eps) for task, eps in data["tasks"].items()}
    assert tasks == {"t1": ["s1", "s2", "s3"], "(nothing to score against)": ["s4"]}
    assert {g["label"]: g["exposure"] for g in data["groups"]} == {"s1": 0.375, "s2": 0.0, "s3": 0.0, "s4": None}
    page = tmp_path / "report.html"
    _cli("report", str(out), "--out", str(page))
    html = page.read_text(encoding="utf-8")
    assert "0.125" in html and "1 of 4 sessions left out of the exposure means" in html


def test_a_pool_of_workers_scores_a_session_whose_calls_all_stayed_local_across_parts_0(tmp_path, monkeypatch):
    """s1 sends the name and the salary to gpt-4o, s3 only talks to a local ollama, in calls cut into
    different workers' parts (blocks of 16 kB, each call ≈ 18 kB); s2 asks gpt-4o something with no unit in it.
    By hand, as one audit: s1 (1 + 2) / 8 = 0.375, s2 0.0, s3 0.0 (before: null); `--jobs 2` says the same."""
    monkeypatch.setattr(log_audit, "MIN_BLOCK_BYTES", 16 << 10)
    monkeypatch.setattr(log_audit, "BLOCK_BYTES", 16 << 10)
    units = _write_jsonl(tmp_path / "units.jsonl", UNITS)
    pad = " Notes: the weekly sync moved to Thursday." * 400
    logs = tmp_path / "logs"
    logs.mkdir()
    _write_jsonl(logs / "a.jsonl", [_call("r1", "s1", CLOUD, "gpt-4o", "Dana Whitfield earns $1,250,000." + pad),
                                    _call("r2", "s3", LOCAL, "llama3", "Dana Whitfield, +1 415-555-0199." + pad)])
    _write_jsonl(logs / "b.jsonl", [_call("r3", "s3", LOCAL, "llama3", "SSN 078-05-1120, $1,250,000." + pad),
                                    _call("r4", "s2", CLOUD, "gpt-4o", "What is on today's agenda?" + pad)])
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({"s1": "t1", "s2": "t1", "s3": "t1"}))
    expected = {"s1": 0.375, "s2": 0.0, "s3": 0.0}
    for jobs in ("1", "2"):
        summary = json.loads(_cli("audit", str(logs), "--units", str(units), "--task-map", str(task_map), "--json",
                                  "--jobs", jobs))
        assert {s["session"]: s["exposure"] for s in summary["sessions"]} == expected, jobs
        assert {r["group"]: r["exposure"] for r in summary["exposure"]} == expected, jobs


def _episode_url(url: str, episode: str) -> str:
    return f"{url}/e/{episode}/t/t1/v1/chat/completions"


@pytest.fixture
def blocked_store(tmp_path):
    """A real proxy in front of the scripted stand-in cloud (not a model), blocking the phone number only
    (`--enforce block` over that one unit), three episodes of task t1:
    e1 sends the name: forwarded, 1 / 8 = 0.125;
    e2 sends the phone number twice: both requests blocked, nothing reached the cloud: 0 / 8 = 0.0;
    e3 asks something with no unit in it: forwarded, 0.0."""
    units = _write_jsonl(tmp_path / "units.jsonl", UNITS)
    phone = [u for u in read_units(units) if u.field == "phone"]
    store = tmp_path / "cloud.sqlite"
    upstream, stop = serve_in_thread(create_standin())
    try:
        with running_proxy(upstream + "/v1", store, units=phone, enforce="block") as (_, url, proxy_store):
            for episode, text, status in (("e1", "Write to Dana Whitfield.", 200),
                                          ("e2", "Call +1 415-555-0199.", 403),
                                          ("e2", "Text +1 415-555-0199 again.", 403),
                                          ("e3", "What is on today's agenda?", 200)):
                answer = httpx.post(_episode_url(url, episode), json={
                    "model": "gpt-5.4", "messages": [{"role": "user", "content": text}]})
                assert answer.status_code == status, answer.text
            records = wait_for_records(proxy_store, 4)
    finally:
        stop()
    return store, units, records


def test_intercept_audit_scores_a_fully_blocked_episode_0_as_audit_and_run_do(blocked_store):
    """The same store three ways. Before: `intercept audit` and `audit` left e2 out altogether (no row, so
    no exposure), while a run's episode audit scored it 0.0."""
    store, units, records = blocked_store
    expected = {"e1": 0.125, "e2": 0.0, "e3": 0.0}
    intercepted = json.loads(CliRunner().invoke(
        main, ["intercept", "audit", str(store), "--units", str(units), "--json"]).stdout)
    assert {r["group"]: r["exposure"] for r in intercepted["exposure"]} == expected
    logged = json.loads(_cli("audit", str(store), "--units", str(units), "--json"))
    assert {s["session"]: s["exposure"] for s in logged["sessions"]} == expected
    assert {s["session"]: (s["calls"], s["cloud_calls"]) for s in logged["sessions"]} == {
        "e1": (1, 1), "e2": (0, 0), "e3": (1, 1)}
    [coverage] = logged["coverage"]
    assert coverage["blocked"] == 2
    task = Task(id="t1", scenario="s", title="t", language="en", instruction="", timeout=1, privacy_note=None,
                criteria=[], units=read_units(units))
    ran = {eid: audit_episode(task, eid, [r for r in records if r.episode == eid])[1] for eid in expected}
    assert ran == expected


def _episode(task: str, exposure: float | None, cloud_calls: int) -> EpisodeRecord:
    return EpisodeRecord(
        episode_id=f"{task}.cloud-only.r0", task_id=task, scenario="office", strategy="cloud-only",
        variant="cloud-only", router=None, cloud_context=None, edge_model="http://127.0.0.1:8080/v1",
        cloud_model="gpt-5.4", run_index=0, status="ok", completion=1.0, criteria="{}", passed=True,
        cloud_calls=cloud_calls, cloud_input_tokens=0, cloud_cached_tokens=0, cloud_output_tokens=0, cloud_usd=0.0,
        edge_calls=0, edge_input_tokens=0, edge_output_tokens=0, edge_flops=0.0, exposure=exposure,
        exposure_by_dimension="{}", leaked_units="[]", routes="[]", asks=0, exit_code=0, error=None, duration_s=1.0,
        openclaw_s=1.0, openclaw_startup_s=None, isolation="{}")


def test_a_runs_summary_and_report_mean_the_same_episodes_and_say_how_many_were_left_out(tmp_path):
    """Three episodes of one strategy: A leaked 0.5, B made no cloud call (0.0: its units stayed on the device),
    C's task has no units (null). By hand: the mean over A and B, (0.5 + 0) / 2 = 0.25, in summary.json and in
    `report`, both saying 1 episode was left out (before: neither said it)."""
    out = tmp_path / "run"
    specs = []
    for task, exposure, calls in (("A", 0.5, 2), ("B", 0.0, 0), ("C", None, 1)):
        record = _episode(task, exposure, calls)
        folder = out / "episodes" / record.episode_id
        folder.mkdir(parents=True)
        (folder / RECORD).write_text(json.dumps(record.to_dict()))
        specs.append(EpisodeSpec(task, "cloud-only", 0))
    write_results(out, specs)
    summary = json.loads((out / "summary.json").read_text())["cloud-only"]
    assert (summary["exposure_mean"], summary["exposure_left_out"]) == (0.25, 1)
    data = json.loads(_cli("report", str(out), "--json"))
    assert [r["exposure"] for r in data["strategies"]] == [0.25]
    assert ("run: 1 of 3 episodes left out of the exposure means: nothing to score against (no units in its task, "
            "or none in its calls)") in data["notes"]
