"""OpenClaw transcripts (JSONL, SQLite with zstd rows, trajectory traces) through `ec2audit audit`."""

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
import zstandard
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.logs import detect_format, read_logs
from ec2audit.logs.audit import audit_logs
from ec2audit.logs.classify import Classifier
from ec2audit.units import read_units

DATA = Path(__file__).parent / "data" / "logs"
BRANCH = DATA / "openclaw" / "3b9d6c1e-branch.jsonl"
REDACTED = DATA / "openclaw" / "7e41a0d2-redacted.jsonl"
MESSY = DATA / "openclaw" / "c0ffee00-messy.jsonl"
SECRET = "sk-live-51HqLmX9vB4nR8tY3kW6pZ1cJ5dF0gAs7Ee"
UNITS = read_units(DATA / "units.jsonl")


def _cli(*args):
    return CliRunner().invoke(main, ["audit", *map(str, args)])


def _leaked(summary, session):
    return {r["unit_id"].rsplit("/", 1)[1]: r for r in summary["leaked"] if r["session"] == session}


def test_each_assistant_message_is_a_call_with_its_branch_as_context():
    calls = list(read_logs([BRANCH]))
    assert [c.meta["step"] for c in calls] == [1, 2, 3, 4, 5]
    texts = [" ".join(s.text for s in c.segments) for c in calls]
    # the hidden custom_message is in every request; the .env result only on its own branch
    assert all("+1 415-555-0142" in t for t in texts[:4])
    assert SECRET not in texts[0] and SECRET in texts[1]
    assert SECRET not in texts[2] and "Never mind the billing sync" in texts[2]
    # after the compaction: its summary and the kept entries from firstKeptEntryId on, nothing before
    assert "card 4539 1488 0343 6467" in texts[4] and "type 2 diabetes" in texts[4]
    assert "Never mind the billing sync" not in texts[4] and "+1 415-555-0142" not in texts[4]
    assert calls[3].meta["provider"] == "ollama" and calls[1].meta["usage"]["cost_usd"] == pytest.approx(0.0123)
    assert "Read the env file first." not in texts[2]  # thinking is not sent back


def test_secret_in_tool_result_is_first_sent_on_the_next_turn():
    result = _cli(BRANCH, "--units", DATA / "units.jsonl", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["mode"] == "units" and summary["cloud_calls"] == 4 and summary["edge_calls"] == 1
    leaked = _leaked(summary, "3b9d6c1e-branch")
    key = leaked["stripe_key"]
    assert (key["step"], key["origin"], key["tool"], key["file"]) == (2, "tool_result", "read", ".env")
    assert SECRET not in result.output and key["evidence"].startswith("sk-live-") and "*" in key["evidence"]
    # the phone came in the hidden workspace block, before any tool ran
    assert leaked["phone"]["step"] == 1 and leaked["phone"]["kind"] == "custom_message workspace-context"
    # the diagnosis was read at step 3 but only the edge model saw it until step 5 (after compaction)
    assert leaked["diagnosis"]["step"] == 5 and leaked["diagnosis"]["file"] == "docs/intake-notes.md"
    assert leaked["card"]["step"] == 5 and leaked["card"]["kind"] == "compaction"
    steps = {t["step"]: t["new_units"] for t in summary["timeline"]}
    assert set(steps) == {1, 2, 3, 5} and steps[3] == [] and "acme-billing/SYS-1/stripe_key" in steps[2]
    (session,) = summary["sessions"]
    assert session["leaked"] == 5 and session["exposure"] == pytest.approx(1.0)


def test_placeholder_protected_the_secret(tmp_path):
    # scored against the units found in its calls, the protected key is not among them; against its
    # task (a mapping), it counts as a unit the session kept
    found = json.loads(_cli(REDACTED, "--units", DATA / "units.jsonl", "--json").output)
    (session,) = found["sessions"]
    assert (session["units"], session["exposure"], session["scored_against"]) == (
        4, 1.0, "units found in its own calls")
    (tmp_path / "map.json").write_text('{"7e41a0d2-redacted": "acme-billing"}')
    summary = json.loads(_cli(REDACTED, "--units", DATA / "units.jsonl", "--task-map", tmp_path / "map.json",
                              "--json").output)
    leaked = _leaked(summary, "7e41a0d2-redacted")
    assert "stripe_key" not in leaked and set(leaked) == {"name", "phone", "diagnosis", "card"}
    (session,) = summary["sessions"]
    assert session["units"] == 5 and session["exposure"] < 1.0 and session["scored_against"] == "task acme-billing"


def test_edge_and_cloud_patterns_override_defaults():
    everything_edge = audit_logs([BRANCH], UNITS, classifier=Classifier(edge=("anthropic/*",)))
    assert everything_edge.leaked() == [] and {c["side"] for c in everything_edge.calls} == {"edge"}
    result = _cli(BRANCH, "--units", DATA / "units.jsonl", "--cloud", "ollama/*", "--json")
    summary = json.loads(result.output)
    assert summary["cloud_calls"] == 5
    assert _leaked(summary, "3b9d6c1e-branch")["diagnosis"]["step"] == 4  # the ollama call now counts


def test_messy_transcript_reports_each_bad_line_and_goes_on(tmp_path):
    shutil.copy(MESSY, tmp_path)
    shutil.copy(BRANCH, tmp_path)
    (tmp_path / "notes.jsonl").write_text("just some text\n")
    result = _cli(tmp_path, "--units", DATA / "units.jsonl", "--json")
    assert result.exit_code == 1
    summary = json.loads(result.output[result.output.index("{\n"):])
    messy = str(tmp_path / MESSY.name)
    for line, why in ((6, "not valid JSON"), (7, "merge-conflict marker"), (14, "unknown entry type"),
                      (15, "1 image block not audited")):
        assert any(s.startswith(f"{messy}:{line}: {why}") for s in summary["skipped"])
        assert f"{messy}:{line}: {why}" in result.output  # also said on stderr, one line each
    assert f"{tmp_path / 'notes.jsonl'}: not a known log format" in "".join(summary["skipped"])
    assert {f["format"] for f in summary["files"]} == {"openclaw-jsonl"}
    leaked = _leaked(summary, "c0ffee00-messy")
    assert leaked["stripe_key"]["step"] == 2  # lines after the bad ones were still read
    assert {s["session"] for s in summary["sessions"]} == {"c0ffee00-messy", "3b9d6c1e-branch"}


def test_system_prompt_comes_from_the_sibling_trajectory(tmp_path):
    shutil.copy(BRANCH, tmp_path)
    trace = {"traceSchema": "openclaw-trajectory", "schemaVersion": 1, "type": "context.compiled",
             "sessionId": "3b9d6c1e-branch", "runId": "r1",
             "data": {"systemPrompt": "You are OpenClaw. Escalations go to Marguerite Lindqvist.", "messages": []}}
    (tmp_path / "3b9d6c1e-branch.trajectory.jsonl").write_text(json.dumps(trace) + "\n")
    (first, *_) = read_logs([tmp_path])
    assert first.segments[0].origin == "system" and "Escalations" in first.segments[0].text
    log = audit_logs([tmp_path], UNITS)
    assert len({c["log_file"] for c in log.calls}) == 1  # the trace is not audited a second time
    assert {r["unit_id"]: r["origin"] for r in log.leaked()}["acme-billing/P-001/name"] == "system"


def _sqlite_store(path: Path, transcript: Path, bad_seq: int | None = None) -> int:
    """An OpenClaw agent store holding `transcript`'s events, rows of 1 KB and more zstd-compressed."""
    compressor = zstandard.ZstdCompressor()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT,"
               " created_at INTEGER NOT NULL, event_zstd BLOB, event_utf8_bytes INTEGER, navigation_json TEXT,"
               " PRIMARY KEY (session_id, seq))")
    compressed = 0
    lines = transcript.read_text().splitlines()
    session = json.loads(lines[0])["id"]
    for seq, line in enumerate(lines):
        data = line.encode()
        if len(data) >= 1024:
            blob = compressor.compress(data) if seq != bad_seq else b"\x28\xb5\x2f\xfd broken"
            db.execute("INSERT INTO transcript_events VALUES (?, ?, NULL, 0, ?, ?, '{}')",
                       (session, seq, blob, len(data)))
            compressed += 1
        else:
            db.execute("INSERT INTO transcript_events VALUES (?, ?, ?, 0, NULL, ?, NULL)",
                       (session, seq, line, len(data)))
    db.commit()
    db.close()
    return compressed


def _padded(tmp_path: Path) -> tuple[Path, int]:
    """The branch transcript with its .env tool result (line 7) grown past 1 KB."""
    big = tmp_path / "big.jsonl"
    lines = BRANCH.read_text().splitlines()
    env = json.loads(lines[6])
    env["message"]["content"][0]["text"] += "# padding\n" * 200
    lines[6] = json.dumps(env)
    big.write_text("\n".join(lines) + "\n")
    return big, 6


def test_sqlite_store_with_compressed_rows_reads_like_the_jsonl(tmp_path):
    big, _ = _padded(tmp_path)
    store = tmp_path / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    store.parent.mkdir(parents=True)
    assert _sqlite_store(store, big) >= 1
    assert detect_format(store) == "openclaw-sqlite"
    summary = json.loads(_cli(tmp_path / "agents", "--units", DATA / "units.jsonl", "--json").output)
    key = _leaked(summary, "3b9d6c1e-branch")["stripe_key"]
    assert (key["step"], key["tool"], key["file"]) == (2, "read", ".env")
    assert summary["cloud_calls"] == 4


def test_sqlite_undecodable_row_is_reported_by_sequence(tmp_path):
    store = tmp_path / "openclaw-agent.sqlite"
    big, seq = _padded(tmp_path)
    _sqlite_store(store, big, bad_seq=seq)
    result = _cli(store, "--units", DATA / "units.jsonl", "--json")
    assert result.exit_code == 1
    assert f"{store}:{seq}: session 3b9d6c1e-branch: undecodable event" in result.output
    summary = json.loads(result.output[result.output.index("{\n"):])
    assert "stripe_key" not in _leaked(summary, "3b9d6c1e-branch")  # it was only in the broken row
    assert summary["cloud_calls"] == 4


def test_trajectory_trace_gives_system_prompt_and_one_call_per_reply():
    (path,) = (DATA / "trajectory").iterdir()
    calls = list(read_logs([path]))
    assert [c.meta["step"] for c in calls] == [1, 2]
    assert all(c.segments[0].origin == "system" for c in calls)
    assert SECRET not in " ".join(s.text for s in calls[0].segments)
    log = audit_logs([path], UNITS)
    (row,) = log.leaked()
    assert (row["step"], row["origin"], row["tool"]) == (2, "tool_result", "read")
    (provider,) = log.providers()
    assert provider["input_tokens"] == 4280 and provider["cost_usd"] == pytest.approx(0.0113)


def test_damaged_first_line_and_broken_files_do_not_stop_the_walk(tmp_path):
    lines = BRANCH.read_text().splitlines()
    damaged = '{"type": "session", "version": 4, "id": "dam\n' + "\n".join(lines[1:]) + "\n"
    (tmp_path / "damaged.jsonl").write_text(damaged)
    (tmp_path / "export.har").write_text('{"log": {"entries": [{"request": ')
    result = _cli(tmp_path, "--units", DATA / "units.jsonl", "--json")
    assert result.exit_code == 1
    summary = json.loads(result.output[result.output.index("{\n"):])
    assert f"{tmp_path / 'damaged.jsonl'}:1: not valid JSON" in "\n".join(summary["skipped"])
    assert f"{tmp_path / 'export.har'}: not a HAR document" in "\n".join(summary["skipped"])
    (session,) = summary["sessions"]  # the damaged header only cost the session id: named after the file
    assert session["session"] == "damaged" and session["leaked"] == 5
