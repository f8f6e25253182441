"""A call logged twice is counted once whatever the workers: its two copies in different files or in
different line ranges of one request log, audited serially, by the process pool (`--jobs 2`) and on Ray,
give the same figures row for row — those counted by hand below."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.logs import audit as log_audit

#: ~17 kB of text with no unit in it: every line or file is larger than a 16 kB block, so each request-log
#: line is a line range of its own and each other file a batch of its own (`small_blocks`).
PAD = " Ticket history: no change." * 650
OPENAI = "https://api.openai.com/v1/chat/completions"
SYSTEM = {"role": "system", "content": "You are a support agent."}


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Blocks of 16 kB, as tests/test_backends.py cuts its corpus (the driver plans the batches)."""
    monkeypatch.setattr(log_audit, "MIN_BLOCK_BYTES", 16 << 10)
    monkeypatch.setattr(log_audit, "BLOCK_BYTES", 16 << 10)


def _request(rid: str, session: str, at: str, texts: list[str], tokens: int) -> dict:
    return {"id": rid, "timestamp": f"2026-11-05T{at}Z", "url": OPENAI, "session_id": session,
            "request": {"model": "gpt-4o", "messages": [SYSTEM, *({"role": "user", "content": t} for t in texts)]},
            "response": {"usage": {"prompt_tokens": tokens, "completion_tokens": tokens // 10}}}


def _claude(session: str, calls: list[tuple[str, str, int]]) -> str:
    """A Claude Code transcript: per call a user line and the response `message.id` answering it."""
    out, parent = [], None
    for k, (mid, text, tokens) in enumerate(calls):
        out.append({"uuid": f"u{k}", "parentUuid": parent, "type": "user", "sessionId": session,
                    "timestamp": f"2026-11-05T10:0{k}:00.000Z", "message": {"role": "user", "content": text}})
        out.append({"uuid": f"a{k}", "parentUuid": f"u{k}", "type": "assistant", "sessionId": session,
                    "timestamp": f"2026-11-05T10:0{k}:05.000Z",
                    "message": {"id": mid, "role": "assistant", "model": "claude-sonnet-4-5-20250929",
                                "content": [{"type": "text", "text": "ok"}],
                                "usage": {"input_tokens": tokens, "output_tokens": tokens // 10}}})
        parent = f"a{k}"
    return "".join(json.dumps(x) + "\n" for x in out)


def _span(span_id: str, minute: int, text: str, tokens: tuple[int, int]) -> dict:
    attributes = {"gen_ai.system": "Anthropic", "gen_ai.request.model": "claude-sonnet-4-5",
                  "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": text,
                  "gen_ai.usage.prompt_tokens": tokens[0], "gen_ai.usage.completion_tokens": tokens[1],
                  "session.id": "intake-7"}
    start = 1793872800 + 60 * minute  # 2026-11-05T11:00Z
    return {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": span_id, "name": "anthropic.chat",
            "startTimeUnixNano": str(start * 10**9), "endTimeUnixNano": str((start + 1) * 10**9),
            "attributes": [{"key": k, "value": {"intValue": str(v)} if isinstance(v, int) else {"stringValue": v}}
                           for k, v in attributes.items()]}


def _spans(*spans: dict) -> str:
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}) + "\n"


def duplicated_logs(root: Path) -> tuple[Path, Path, Path]:
    """Calls logged twice, each copy in another part: a request log whose line 5 repeats line 3 and whose
    line 6 reuses line 3's id with another request, and the next export of that log repeating its last line;
    a resumed Claude Code session (B copies A's two
    responses); an OpenTelemetry span exported to two files. Returns (logs, units, task map)."""
    logs = root / "logs"
    (logs / "project").mkdir(parents=True)
    ask, phone = "Customer Dana Whitfield wants a refund." + PAD, "Her phone is +1 415-555-0199"
    client = "Client Marguerite Lindqvist asks for her file." + PAD
    lines = [_request("req-1", "s1", "09:00:00", [ask], 1000),
             _request("req-2", "s2", "09:00:01", [client], 1000),
             _request("req-3", "s1", "09:00:02", [ask, phone], 2000),
             _request("req-4", "s2", "09:00:03", [client, "Nothing more."], 2000)]
    lines += [lines[2],  # line 5: line 3 written again
              _request("req-3", "s1", "09:00:06", [ask, phone, "Thanks."], 3000),  # the id reused
              _request("req-5", "s1", "09:00:07", [ask, phone, "Thanks.", "Mail dana.whitfield@example.org"], 4000)]
    (logs / "proxy.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    # the proxy's next export overlaps this one: it starts again with req-5
    rotated = [lines[6], _request("req-6", "s2", "09:00:08", [client, "Nothing more.", "Closing."], 1000)]
    (logs / "proxy2.jsonl").write_text("".join(json.dumps(line) + "\n" for line in rotated), encoding="utf-8")
    first = [("msg_1", "Omar Haddad asked for his invoice." + PAD, 1000), ("msg_2", "His phone: +1 212-555-0147", 2000)]
    (logs / "project" / "aaaa0000-0000-4000-8000-000000000001.jsonl").write_text(
        _claude("aaaa0000-0000-4000-8000-000000000001", first), encoding="utf-8")
    (logs / "project" / "bbbb0000-0000-4000-8000-000000000002.jsonl").write_text(
        _claude("bbbb0000-0000-4000-8000-000000000002", [*first, ("msg_3", "Done.", 3000)]), encoding="utf-8")
    intake = _span("b7ad6b7169203331", 0, "Intake: client Marguerite Lindqvist, diabetes." + PAD, (25, 33))
    (logs / "traces-1.jsonl").write_text(_spans(intake), encoding="utf-8")
    (logs / "traces-2.jsonl").write_text(
        _spans(intake, _span("c8be7c827a314442", 5, "Follow-up: Marguerite Lindqvist is fine.", (50, 40))),
        encoding="utf-8")
    units = [("t1", "Dana Whitfield", "person_name", 1.0), ("t1", "+1 415-555-0199", "contact", 1.5),
             ("t1", "dana.whitfield@example.org", "contact", 1.5), ("t2", "Omar Haddad", "person_name", 1.0),
             ("t2", "+1 212-555-0147", "contact", 1.5), ("t3", "Marguerite Lindqvist", "person_name", 1.0)]
    (root / "units.jsonl").write_text("".join(json.dumps(
        {"task_id": task, "entity_id": f"E{i}", "field": dimension, "value": value, "dimension": dimension,
         "weight": weight}) + "\n" for i, (task, value, dimension, weight) in enumerate(units)), encoding="utf-8")
    (root / "tasks.json").write_text(json.dumps({
        "s1": "t1", "s2": "t3", "intake-7": "t3", "aaaa0000-0000-4000-8000-000000000001": "t2",
        "bbbb0000-0000-4000-8000-000000000002": "t2"}), encoding="utf-8")
    return logs, root / "units.jsonl", root / "tasks.json"


def audited(root: Path, out: Path, *options: str) -> tuple[dict, pl.DataFrame, pl.DataFrame]:
    """`audit` of `duplicated_logs(root)`: its JSON summary, findings and sessions tables (with `--ray`,
    written to a folder: its findings in Hive partitions, read back sorted by every column)."""
    logs, units, tasks = root / "logs", root / "units.jsonl", root / "tasks.json"
    out.mkdir()
    findings = out / ("ray" if "--ray" in options else "findings.parquet")
    result = CliRunner().invoke(main, ["audit", str(logs), "--units", str(units), "--task-map", str(tasks), "--json",
                                       "--out", str(findings), *options])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    if "--ray" in options:
        frame = pl.read_parquet(findings / "findings" / "**" / "*.parquet", hive_partitioning=True)
        columns = pl.read_parquet_schema(next((findings / "findings").rglob("*.parquet")))
        sessions = findings / "findings.sessions.parquet"
        frame = frame.select(*columns, "dimension")
        frame = frame.sort(frame.columns)
        return summary, frame, pl.read_parquet(sessions)
    return summary, pl.read_parquet(findings), pl.read_parquet(out / "findings.sessions.parquet")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("dedup")
    duplicated_logs(root)
    return root


@pytest.fixture(scope="module")
def serial(corpus, tmp_path_factory) -> tuple[dict, pl.DataFrame, pl.DataFrame]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(log_audit, "MIN_BLOCK_BYTES", 16 << 10)
        patch.setattr(log_audit, "BLOCK_BYTES", 16 << 10)
        return audited(corpus, tmp_path_factory.mktemp("serial") / "out")


def test_a_call_logged_twice_is_counted_once_as_counted_by_hand(serial):
    """By hand. Request log: 7 lines, line 5 a copy of line 3 (logged again), line 6 reusing line 3's id (a
    call); the next export: req-5 again (logged again, in another file) and req-6 (1,000 and 100 tokens):
    7 calls, 14,000 input and 1,400 output tokens, gpt-4o at $2.50 / $10 per million = $0.049.
    Claude Code: msg_1, msg_2 in A, B copying both and adding msg_3: 3 calls, 6,000 and 600 tokens at
    $3 / $15 = $0.027. Spans: one exported to both files: 2 calls, 75 and 73 tokens = $0.00132.
    12 calls in 5 sessions; each session's steps 1, 2, … over its own calls: B's msg_3 is its step 1, the
    follow-up span step 2 (before: 3 and 3, the copies numbered); B's units (Omar Haddad, his phone) first
    sent by msg_3, its only call."""
    summary, findings, sessions = serial
    assert summary["calls"] == summary["cloud_calls"] == 12
    rows = {(p["model"], p["calls"], p["input_tokens"], p["output_tokens"]): round(p["cost_usd"], 6)
            for p in summary["providers"]}
    assert rows == {("gpt-4o", 7, 14000, 1400): 0.049, ("claude-sonnet-4-5-20250929", 3, 6000, 600): 0.027,
                    ("claude-sonnet-4-5", 2, 75, 73): 0.00132}
    cover = {c["format"]: (c["read"], c["logged_again"], c["reused_ids"]) for c in summary["coverage"]}
    assert cover == {"openai-log": (7, 2, 1), "claude-code": (3, 2, 0), "otel-genai": (2, 1, 0)}
    steps = [(t["session"], t["payload_id"], t["step"]) for t in summary["timeline"]]
    assert [(p, n) for s, p, n in steps if s == "s1"] == [("req-1", 1), ("req-3", 2), ("req-3", 3), ("req-5", 4)]
    assert [(p, n) for s, p, n in steps if s == "s2"] == [("req-2", 1), ("req-4", 2), ("req-6", 3)]
    b = "bbbb0000-0000-4000-8000-000000000002"
    assert [(p, n) for s, p, n in steps if s in (b, "intake-7")] == [
        ("b7ad6b7169203331", 1), ("c8be7c827a314442", 2), ("msg_3", 1)]
    assert sessions.height == 5 and sessions["calls"].sum() == 12
    assert [(r["unit_id"], r["payload_id"]) for r in findings.iter_rows(named=True) if r["session"] == b] == [
        ("t2/E3/person_name", "msg_3"), ("t2/E4/contact", "msg_3")]


@pytest.mark.parametrize("options", [("--jobs", "2"), pytest.param(("--jobs", "2", "--ray"), marks=pytest.mark.ray)],
                         ids=["jobs-2", "ray"])
def test_the_workers_count_it_once_as_the_serial_audit_does(corpus, serial, tmp_path, monkeypatch, options):
    """Summary, findings and sessions tables row for row: the copies fell to different workers (on Ray, a new
    local cluster of two CPUs)."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    ours = audited(corpus, tmp_path / "out", *options)
    expected = serial[1]
    if "--ray" in options:
        expected = expected.select(ours[1].columns).sort(ours[1].columns)
    assert ours[0] == serial[0]
    assert ours[1].equals(expected) and ours[1].height == 11  # findings: req-6 sends none first
    assert ours[2].equals(serial[2])
