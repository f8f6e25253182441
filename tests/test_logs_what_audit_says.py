"""What `ec2audit audit` says about logs (issue 31 §4), each through the CLI on a log written the way
its framework writes it: local providers named in the model are edge, an OpenTelemetry audit never
says it saw no cloud call under its own table of cloud calls, Invariant/AgentDojo traces with their
metadata line, OpenClaw cron run logs, pydantic-ai cassettes and a README in a log folder."""

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from ec2audit.cli import main

DATA = Path(__file__).parent / "data" / "logs"
UNITS = DATA / "units.jsonl"


def _audit(*args, code=0):
    result = CliRunner().invoke(main, ["audit", *map(str, args)], env={"COLUMNS": "200"})
    assert result.exit_code == code, result.output
    return result.output


def _json(*args, code=0) -> dict:
    output = _audit(*args, "--json", code=code)
    return json.loads(output[output.index("{\n"):])


def test_a_local_provider_named_in_the_model_is_edge(tmp_path):
    """LiteLLM's `provider/model` names: `ollama/llama3` with no provider logged runs on the edge."""
    (tmp_path / "calls.jsonl").write_text("".join(json.dumps({"session_id": "s", "request": {
        "model": model, "messages": [{"role": "user", "content": "Marguerite Lindqvist, +1 415-555-0142"}]}}) + "\n"
        for model in ("ollama/llama3", "ollama_chat/qwen2.5:7b", "gpt-5.4")))
    summary = _json(tmp_path / "calls.jsonl", "--units", UNITS)
    assert (summary["calls"], summary["cloud_calls"], summary["edge_calls"]) == (3, 1, 2)
    assert {(p["side"], p["model"]) for p in summary["providers"]} == {
        ("edge", "ollama/llama3"), ("edge", "ollama_chat/qwen2.5:7b"), ("cloud", "gpt-5.4")}
    assert {r["model"] for r in summary["leaked"]} == {"gpt-5.4"}
    assert "?/ollama/llama3" not in _audit(tmp_path / "calls.jsonl", "--units", UNITS)


def _span(span_id: str, start: int) -> dict:
    attrs = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai",
             "gen_ai.request.model": "openai/gpt-oss-20b", "gen_ai.usage.input_tokens": 100,
             "gen_ai.usage.output_tokens": 10}
    return {"traceId": "7" * 32, "spanId": span_id, "name": "chat openai/gpt-oss-20b", "kind": 3,
            "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 10**9), "events": [], "status": {},
            "attributes": [{"key": k, "value": {"intValue": str(v)} if isinstance(v, int) else {"stringValue": v}}
                           for k, v in attrs.items()]}


def test_otel_cloud_calls_without_content_are_said_as_such_and_named_once(tmp_path):
    """Spans that captured no message content: discovery finds nothing to look for, and the audit says
    so, under a table of two cloud calls named 'openai/gpt-oss-20b'."""
    (tmp_path / "traces.json").write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": []},
        "scopeSpans": [{"scope": {"name": "opentelemetry.instrumentation.openai_v2"},
                        "spans": [_span("a1", 1793800000 * 10**9), _span("a2", 1793800002 * 10**9)]}]}]}))
    output = _audit(tmp_path / "traces.json", "--discover", "--no-presidio")
    assert "no cloud call in what was read" not in output
    assert "nothing to look for in their 2 cloud calls" in output
    assert "openai/openai/" not in output and "openai/gpt-oss-20b" in output
    summary = _json(tmp_path / "traces.json", "--discover", "--no-presidio")
    assert (summary["calls"], summary["cloud_calls"]) == (2, 2)


def test_invariant_traces_with_their_metadata_line(tmp_path):
    """Invariant Explorer's JSONL (AgentDojo runs are published in it): a first line `{"metadata": …}`,
    then one trace per line, a list of messages or `{messages, metadata}`."""
    (tmp_path / "agentdojo.jsonl").write_text("\n".join(json.dumps(line) for line in [
        {"metadata": {"description": "AgentDojo workspace suite", "model": "openai/gpt-4o-2024-05-13"}},
        [{"role": "user", "content": "Call Marguerite Lindqvist about the renewal."},
         {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "id": "c1", "function": {
             "name": "lookup_contact", "arguments": {"name": "Marguerite Lindqvist"}}}]},
         {"role": "tool", "tool_call_id": "c1", "content": "+1 415-555-0142"},
         {"role": "assistant", "content": "Her phone is on file."}],
        {"messages": [{"role": "user", "content": "She has type 2 diabetes, note it."},
                      {"role": "assistant", "content": "Noted."}], "metadata": {"id": "run-2"}},
    ]) + "\n")
    summary = _json(tmp_path / "agentdojo.jsonl", "--units", UNITS)
    assert summary["skipped"] == [] and summary["files"][0]["format"] == "json-messages"
    assert summary["calls"] == 3
    leaks = {(r["session"], r["unit_id"].rsplit("/", 1)[1]): r for r in summary["leaked"]}
    assert set(leaks) == {("agentdojo#2", "name"), ("agentdojo#2", "phone"), ("run-2", "diagnosis")}
    phone = leaks[("agentdojo#2", "phone")]
    assert (phone["step"], phone["tool"], phone["provider"], phone["model"]) == (
        2, "lookup_contact", "openai", "gpt-4o-2024-05-13")  # the dataset's model, from its metadata line


def test_openclaw_cron_run_logs_count_the_runs_whose_transcript_is_gone(tmp_path):
    """A state folder: one run's session transcript is still there (read from it, not counted twice),
    one was pruned (a call without text, its tokens counted), one script run reached no model."""
    state = tmp_path / "openclaw-state"
    sessions = state / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    shutil.copy(DATA / "openclaw" / "3b9d6c1e-branch.jsonl", sessions / "3b9d6c1e-branch.jsonl")
    transcript_calls = _json(sessions, "--units", UNITS)["calls"]
    (state / "cron" / "runs").mkdir(parents=True)
    (state / "cron" / "runs" / "job-7.jsonl").write_text("\n".join(json.dumps(e) for e in [
        {"ts": 1793800000000, "jobId": "job-7", "action": "finished", "status": "ok", "summary": "done",
         "sessionId": "3b9d6c1e-branch", "model": "claude-sonnet-4-5", "provider": "anthropic",
         "usage": {"input_tokens": 900, "output_tokens": 40}},
        {"ts": 1793886400000, "jobId": "job-7", "action": "finished", "status": "ok", "summary": "done",
         "sessionId": "5f00d1e5-pruned", "runAtMs": 1793886399000, "model": "claude-sonnet-4-5",
         "provider": "anthropic", "usage": {"input_tokens": 1200, "output_tokens": 60, "cache_read_tokens": 800}},
        {"ts": 1793972800000, "jobId": "job-7", "action": "finished", "status": "error", "error": "script failed"},
    ]) + "\n")
    summary = _json(state, "--units", UNITS)
    assert summary["skipped"] == []
    assert {Path(f["file"]).name: f["format"] for f in summary["files"]}["job-7.jsonl"] == "openclaw-cron-runs"
    assert summary["calls"] == transcript_calls + 1
    pruned = [s for s in summary["sessions"] if s["session"] == "5f00d1e5-pruned"]
    assert [(s["calls"], s["cloud_calls"]) for s in pruned] == [(1, 1)]
    timeline = [t for t in summary["timeline"] if t["session"] == "5f00d1e5-pruned"]
    assert [(t["timestamp"], t["model"]) for t in timeline] == [("2026-11-05T13:46:39+00:00", "claude-sonnet-4-5")]


PYDANTIC_AI_CASSETTE = """\
interactions:
- request:
    headers:
      content-type:
      - application/json
      host:
      - api.openai.com
    method: POST
    parsed_body:
      messages:
      - content: You draft CRM notes.
        role: system
      - content: Draft a follow-up for Marguerite Lindqvist.
        role: user
      model: gpt-4.1-mini
      n: 1
      stream: false
    uri: https://api.openai.com/v1/chat/completions
  response:
    headers:
      content-type:
      - application/json
    parsed_body:
      choices:
      - finish_reason: stop
        index: 0
        message:
          content: Done.
          role: assistant
      model: gpt-4.1-mini-2025-04-14
      object: chat.completion
      usage:
        completion_tokens: 15
        prompt_tokens: 50
        total_tokens: 65
    status:
      code: 200
      message: OK
version: 1
"""


def test_pydantic_ai_cassettes_with_parsed_bodies(tmp_path):
    """pydantic-ai's VCR serializer writes JSON bodies as YAML data under `parsed_body`."""
    (tmp_path / "test_crm_note.yaml").write_text(PYDANTIC_AI_CASSETTE)
    summary = _json(tmp_path / "test_crm_note.yaml", "--units", UNITS)
    assert summary["files"][0]["format"] == "vcr-cassette" and summary["calls"] == 1
    ((leak),) = summary["leaked"]
    assert (leak["unit_id"].rsplit("/", 1)[1], leak["provider"], leak["model"]) == ("name", "openai", "gpt-4.1-mini")
    ((provider),) = summary["providers"]
    assert (provider["input_tokens"], provider["output_tokens"]) == (50, 15)


def test_a_readme_in_a_log_folder_is_one_short_line(tmp_path):
    shutil.copy(DATA / "requests" / "proxy-2026-11-04.jsonl", tmp_path / "proxy.jsonl")
    (tmp_path / "README.md").write_text("# Proxy logs\nRotated daily.\n")
    (tmp_path / "notes.txt").write_text("kept for 30 days\n")
    output = _audit(tmp_path, "--units", UNITS, code=1)
    reasons = [line.split(": ", 1)[1] for line in output.splitlines() if line.startswith("skipped")]
    assert len(reasons) == 2 and all(len(reason) < 100 for reason in reasons)
    assert "openai-log" not in output.split("Exposure per session")[0]  # the formats are not listed per file
