"""The other log adapters: request logs, Claude Code, HAR, ec2audit's interceptor store; detection."""

import json
import os
import stat
import time
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from ec2audit.audit import FINDING_SCHEMA
from ec2audit.cli import main
from ec2audit.errors import InputError
from ec2audit.intercept.record import ProxyRecord
from ec2audit.intercept.store import RecordStore
from ec2audit.logs import FORMATS, detect_format, read_logs
from ec2audit.logs.classify import CLOUD, EDGE, Classifier

DATA = Path(__file__).parent / "data" / "logs"
UNITS = DATA / "units.jsonl"
SECRET = "sk-live-51HqLmX9vB4nR8tY3kW6pZ1cJ5dF0gAs7Ee"


def _audit(*paths, extra=()):
    result = CliRunner().invoke(main, ["audit", *map(str, paths), "--units", str(UNITS), "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _by_field(summary):
    return {r["unit_id"].rsplit("/", 1)[1]: r for r in summary["leaked"]}


@pytest.mark.parametrize(("path", "fmt"), [
    ("openclaw/3b9d6c1e-branch.jsonl", "openclaw-jsonl"),
    ("trajectory/5d2e8f10-traj.trajectory.jsonl", "openclaw-trajectory"),
    ("claude-code/0d7c2f5a-4b1e-4e8a-9c3d-2f6a1b8e7d90.jsonl", "claude-code"),
    ("requests/proxy-2026-11-04.jsonl", "openai-log"),
    ("har/devtools-export.har", "har"),
])
def test_formats_are_detected(path, fmt):
    assert detect_format(DATA / path) == fmt


def test_request_log_records_with_urls_usage_and_three_apis():
    summary = _audit(DATA / "requests")
    assert (summary["calls"], summary["cloud_calls"], summary["edge_calls"]) == (4, 3, 1)
    leaked = _by_field(summary)
    assert set(leaked) == {"name", "phone", "diagnosis"}  # the card only went to the local model
    assert (leaked["phone"]["first_call"], leaked["phone"]["origin"]) == ("req-7f2", "tool_result")
    assert leaked["diagnosis"]["provider"] == "anthropic"
    openai = next(p for p in summary["providers"] if p["provider"] == "openai")
    assert (openai["calls"], openai["input_tokens"], openai["cached_tokens"], openai["output_tokens"]) == (
        2, 2600, 1024, 160)
    assert openai["cost_usd"] > 0  # priced from the interceptor's table
    edge = next(p for p in summary["providers"] if p["side"] == EDGE)
    assert edge["model"] == "smollm2-135m"


def test_claude_code_one_call_per_response_and_tool_result_file():
    calls = list(read_logs([DATA / "claude-code"]))
    assert [c.id for c in calls] == ["msg_01A", "msg_01B"]  # msg_01A spans two lines
    summary = _audit(DATA / "claude-code")
    (row,) = summary["leaked"]
    assert row["unit_id"].endswith("stripe_key") and row["first_call"] == "msg_01B"
    assert (row["tool"], row["file"]) == ("Read", "/home/dev/acme-crm/.env")
    (provider,) = summary["providers"]
    assert (provider["input_tokens"], provider["cached_tokens"]) == (5412 + 5619, 5400)


def test_har_keeps_model_calls_only_and_reads_streamed_usage():
    summary = _audit(DATA / "har")
    assert summary["calls"] == 3  # the GET to the app API is not a model call
    leaked = _by_field(summary)
    # the card went to ollama on localhost; "Call Marguerite at …" gives the given name alone (a 0.3 fragment)
    assert set(leaked) == {"name", "phone", "diagnosis"}
    anthropic = next(p for p in summary["providers"] if p["provider"] == "anthropic")
    assert (anthropic["input_tokens"], anthropic["output_tokens"]) == (25, 33)


def test_interceptor_store_records_are_cloud_calls(tmp_path):
    store = RecordStore(tmp_path / "cloud.sqlite")
    body = {"model": "gpt-5.4", "messages": [{"role": "user", "content": "hi"},
                                             {"role": "tool", "tool_call_id": "c1", "content": f"KEY={SECRET}"}]}
    for i, episode in enumerate(("ep-a", "ep-b")):
        request = body if episode == "ep-b" else {**body, "messages": body["messages"][:1]}
        store.add(ProxyRecord(id=f"r{i}", episode=episode, ts=time.time(), api="openai-chat", model="gpt-5.4",
                              status=200, request=request,
                              response={"usage": {"prompt_tokens": 50, "completion_tokens": 5}},
                              input_tokens=50, cached_tokens=0, output_tokens=5, cost_usd=0.0002))
    store.close()
    assert detect_format(tmp_path / "cloud.sqlite") == "intercept-store"
    out = tmp_path / "findings.parquet"
    summary = _audit(tmp_path / "cloud.sqlite", extra=("--out", str(out)))
    assert [s["session"] for s in summary["sessions"]] == ["ep-a", "ep-b"]
    (row,) = summary["leaked"]
    assert row["session"] == "ep-b" and row["first_call"] == "r1"
    (provider,) = summary["providers"]
    assert provider["cost_usd"] == pytest.approx(0.0004)
    frame = pl.read_parquet(out)
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    assert set(FINDING_SCHEMA) <= set(frame.columns) and {"session", "step", "side", "tool"} <= set(frame.columns)
    assert frame["matched_text"].to_list() == [SECRET]  # the 0600 file keeps the evidence, the terminal masks it


def test_forced_format_and_unknown_format():
    with pytest.raises(InputError, match="unknown format"):
        list(read_logs([DATA / "har"], fmt="nope"))
    errors = []
    assert list(read_logs([DATA / "har" / "devtools-export.har"], fmt="openclaw-jsonl", on_error=errors.append)) == []
    assert errors and all("devtools-export.har" in str(e) for e in errors)
    assert set(FORMATS) >= {"openclaw-jsonl", "openclaw-sqlite", "openclaw-trajectory", "openai-log", "claude-code",
                            "har", "intercept-store"}


@pytest.mark.parametrize(("provider", "model", "url", "side"), [
    ("openai", "gpt-5.4", "https://api.openai.com/v1", CLOUD),
    ("ollama", "qwen2.5:7b", None, EDGE),
    ("gw", "m", "http://127.0.0.1:18765/e/ep1/v1", EDGE),
    ("vllm-lab", "llama", "http://10.1.2.3:8000/v1", EDGE),
    ("gw", "m", None, CLOUD),  # unknown provider, no URL: counted as cloud
])
def test_default_sides(provider, model, url, side):
    assert Classifier().side(provider, model, url) == side


def test_patterns_override_and_cloud_wins():
    classifier = Classifier(cloud=("*gpt*",), edge=("gw/*", "openai/*"))
    assert classifier.side("gw", "m") == EDGE
    assert classifier.side("openai", "gpt-5.4") == CLOUD
    assert Classifier(edge=("https://llm.corp.example*",)).side("x", "y", "https://llm.corp.example/v1") == EDGE


def test_the_same_log_twice_is_read_once(tmp_path):
    """Two copies of a request log (an export made twice): its 4 records carry ids, so b.jsonl's are the calls
    logged again — 4 calls, not 8; the copy's findings are not counted twice either."""
    for name in ("a.jsonl", "b.jsonl"):
        (tmp_path / name).write_bytes((DATA / "requests" / "proxy-2026-11-04.jsonl").read_bytes())
    out = tmp_path / "f.parquet"
    summary = _audit(tmp_path, extra=("--out", str(out)))
    assert summary["calls"] == 4 and len(summary["leaked"]) == 3
    assert [(c["read"], c["logged_again"]) for c in summary["coverage"]] == [(4, 4)]
    frame = pl.read_parquet(out)
    assert frame.height == summary["findings"] and frame["log_file"].str.ends_with("a.jsonl").all()


def test_worker_processes_give_the_same_audit():
    dirs = [DATA / d for d in ("openclaw", "claude-code", "requests", "har", "trajectory")]
    serial = CliRunner().invoke(main, ["audit", *map(str, dirs), "--units", str(UNITS), "--json"])
    parallel = CliRunner().invoke(main, ["audit", *map(str, dirs), "--units", str(UNITS), "--json", "--jobs", "2"])
    assert serial.exit_code == parallel.exit_code == 1  # the messy transcript's bad lines
    one, two = (json.loads(r.output[r.output.index("{\n"):]) for r in (serial, parallel))
    assert one["skipped"] == two["skipped"] and len(one["skipped"]) >= 5
    for key in ("calls", "cloud_calls", "findings", "sessions", "leaked", "providers", "timeline", "exposure"):
        assert one[key] == two[key], key


def test_carriers_name_the_file_or_command_that_brought_each_leak():
    openclaw = _by_field(_audit(DATA / "openclaw-carriers"))
    assert (openclaw["diagnosis"]["tool"], openclaw["diagnosis"]["file"]) == ("read", "/home/ana/clinic/intake.md")
    assert (openclaw["stripe_key"]["tool"], openclaw["stripe_key"]["command"]) == (
        "exec", "grep STRIPE /home/ana/clinic/.env")
    claude = _by_field(_audit(DATA / "claude-code-bash"))
    assert (claude["phone"]["tool"], claude["phone"]["command"]) == ("Bash", "grep -i on-call exports/crm.csv")
    assert claude["phone"]["first_call"] == "msg_02B"


def test_delivery_mirror_is_context_but_not_a_model_call():
    summary = _audit(DATA / "openclaw-carriers")
    assert summary["calls"] == 4  # read, exec, answer, invoice; the mirrored reply is no call
    assert {p["model"] for p in summary["providers"]} == {"gpt-5.4"}
    phone = _by_field(summary)["phone"]  # only in the mirror: first sent with the next real call
    assert (phone["step"], phone["origin"], phone["kind"]) == (4, "assistant", "assistant")


def test_a_live_stores_wal_and_shm_files_are_read_with_it_not_counted_as_logs(tmp_path):
    """An interceptor still running keeps its store's -wal and -shm beside it: the header counts one log."""
    store = RecordStore(tmp_path / "cloud.sqlite")
    store.add(ProxyRecord(id="r0", episode="ep-a", ts=time.time(), api="openai-chat", model="gpt-5.4", status=200,
                          request={"model": "gpt-5.4", "messages": [{"role": "user", "content": f"KEY={SECRET}"}]},
                          response={}, input_tokens=5, cached_tokens=0, output_tokens=1, cost_usd=0.0))
    try:
        assert {p.name for p in tmp_path.iterdir()} == {"cloud.sqlite", "cloud.sqlite-wal", "cloud.sqlite-shm"}
        summary = _audit(tmp_path / "cloud.sqlite")
        plain = CliRunner().invoke(main, ["audit", str(tmp_path / "cloud.sqlite"), "--units", str(UNITS)])
    finally:
        store.close()
    assert [(Path(f["file"]).name, f["read_with"] and Path(f["read_with"]).name) for f in summary["files"]] == [
        ("cloud.sqlite", None), ("cloud.sqlite-wal", "cloud.sqlite"), ("cloud.sqlite-shm", "cloud.sqlite")]
    assert summary["logs_read"] == 1
    assert "; 1 file read, 1 model call (1 cloud, 0 edge), 5 units" in " ".join(plain.output.split()), plain.output
