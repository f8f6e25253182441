"""Issue 31 §7: what a user reads, through the CLI, on inputs that make a broken product fail — which call
a transcript's reply belongs to, a file whose reader crashed, and the exit status after a bad line."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.logs.audit import audit_logs
from ec2audit.units import read_units

DATA = Path(__file__).parent / "data" / "logs"
UNITS = DATA / "units.jsonl"


def _audit(*args) -> tuple[int, dict]:
    result = CliRunner().invoke(main, ["audit", *map(str, args), "--json"])
    return result.exit_code, json.loads(result.stdout)


# --- (a) a reply belongs to the call that produced it ----------------------------------------------------

def _openclaw(path: Path) -> Path:
    """An OpenClaw transcript of three model calls, each reply with its own time and tokens. The model's
    first reply names the client (from its memory) before any tool read her file, which holds her phone;
    the user names her condition after the second reply."""
    def entry(n: int, message: dict, parent: str | None) -> dict:
        return {"type": "message", "id": f"m{n}", "parentId": parent,
                "timestamp": f"2026-11-05T10:0{n}:00.000Z", "message": message}

    def reply(content: list, tokens: int) -> dict:
        return {"role": "assistant", "content": content, "api": "openai-responses", "provider": "openai",
                "model": "gpt-5.4", "usage": {"input": tokens, "output": tokens // 100, "cacheRead": 0,
                                              "cacheWrite": 0, "totalTokens": tokens + tokens // 100}}

    messages = [
        {"role": "user", "content": "Follow up on my client's renewal."},
        reply([{"type": "text", "text": "You mean Marguerite Lindqvist? I will read her file."},
               {"type": "toolCall", "id": "r1", "name": "read", "arguments": {"file_path": "/crm/client.md"}}], 1000),
        {"role": "toolResult", "toolCallId": "r1", "toolName": "read",
         "content": [{"type": "text", "text": "Phone: +1 415-555-0142\n"}], "isError": False},
        reply([{"type": "text", "text": "Her file is read."}], 2000),
        {"role": "user", "content": "Draft the message; mind her type 2 diabetes."},
        reply([{"type": "text", "text": "Drafted."}], 3000),
    ]
    lines = [{"type": "session", "version": 4, "id": "reply-owner", "timestamp": "2026-11-05T10:00:00.000Z"},
             {"type": "model_change", "id": "m0", "parentId": None, "timestamp": "2026-11-05T10:00:00.000Z",
              "provider": "openai", "modelId": "gpt-5.4"}]
    parent = "m0"
    for n, message in enumerate(messages, start=1):
        lines.append(entry(n, message, parent))
        parent = f"m{n}"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _conversation(path: Path) -> Path:
    """The same conversation as a plain JSON message list (tau-bench, AgentDojo, SWE-agent … come to this)."""
    path.write_text(json.dumps({"metadata": {"model": "openai/gpt-5.4"}, "id": "reply-owner", "messages": [
        {"role": "user", "content": "Follow up on my client's renewal."},
        {"role": "assistant", "content": "You mean Marguerite Lindqvist? I will read her file.",
         "timestamp": "2026-11-05T10:02:00Z", "usage": {"prompt_tokens": 1000, "completion_tokens": 10},
         "tool_calls": [{"id": "r1", "type": "function",
                         "function": {"name": "read", "arguments": "{\"file_path\": \"/crm/client.md\"}"}}]},
        {"role": "tool", "tool_call_id": "r1", "content": "Phone: +1 415-555-0142\n"},
        {"role": "assistant", "content": "Her file is read.", "timestamp": "2026-11-05T10:04:00Z",
         "usage": {"prompt_tokens": 2000, "completion_tokens": 20}},
        {"role": "user", "content": "Draft the message; mind her type 2 diabetes."},
        {"role": "assistant", "content": "Drafted.", "timestamp": "2026-11-05T10:06:00Z",
         "usage": {"prompt_tokens": 3000, "completion_tokens": 30}}]}))
    return path


@pytest.mark.parametrize("write", [_openclaw, _conversation], ids=["openclaw-jsonl", "json-messages"])
def test_a_reply_belongs_to_the_call_that_produced_it(tmp_path, write):
    """Call k's request is what came before its reply, and its time and tokens are its reply's: the name
    the first reply said is first *sent* by call 2 (the request after it), with the phone read before
    call 2; the condition the user gave after reply 2 by call 3 — each with the time and tokens of the
    reply that call produced."""
    log = write(tmp_path / "reply-owner.json")
    code, summary = _audit(log, "--units", UNITS)
    assert code == 0, summary
    leaks = {r["unit_id"].rsplit("/", 1)[1]: r for r in summary["leaked"]}
    assert {f: (r["step"], r["origin"], r["timestamp"][:16]) for f, r in leaks.items()} == {
        "name": (2, "assistant", "2026-11-05T10:04"), "phone": (2, "tool_result", "2026-11-05T10:04"),
        "diagnosis": (3, "user", "2026-11-05T10:06")}
    assert [(t["step"], t["timestamp"][:16], sorted(u.rsplit("/", 1)[1] for u in t["new_units"]))
            for t in summary["timeline"]] == [(1, "2026-11-05T10:02", []), (2, "2026-11-05T10:04", ["name", "phone"]),
                                              (3, "2026-11-05T10:06", ["diagnosis"])]
    calls = audit_logs([log], read_units(UNITS)).calls
    assert [(c["step"], c["input_tokens"]) for c in calls] == [(1, 1000), (2, 2000), (3, 3000)]


# --- (b) a file whose reader crashed is named ----------------------------------------------------------

def _folder_with_a_crashing_file(tmp_path: Path) -> Path:
    """A good request log and an OpenTelemetry export whose exporter wrote a message's `parts` as a number
    (the reader stops on it with a TypeError)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(DATA / "requests" / "proxy-2026-11-04.jsonl", folder / "proxy.jsonl")
    broken = {"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "t1", "spanId": "s1", "attributes": [
        {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
        {"key": "gen_ai.input.messages", "value": {"stringValue": json.dumps([{"role": "user", "parts": 5}])}}]}]}]}]}
    (folder / "traces.json").write_text(json.dumps(broken))
    return folder


@pytest.mark.parametrize("extra", [[], ["--jobs", "2"], ["--discover", "--no-presidio"]],
                         ids=["serial", "workers", "discover"])
def test_a_file_whose_reader_crashed_is_named_and_the_rest_is_audited(tmp_path, extra):
    folder = _folder_with_a_crashing_file(tmp_path)
    units = [] if "--discover" in extra else ["--units", UNITS]
    code, summary = _audit(folder, *units, *extra)
    assert code == 1
    crashed = [s for s in summary["skipped"] if "traces.json" in s]
    assert len(crashed) == 1 and "reading stopped" in crashed[0] and "TypeError" in crashed[0]
    assert summary["calls"] >= 3 and {s["session"] for s in summary["sessions"]} >= {"crm-bot-42"}
    plain = CliRunner().invoke(main, ["audit", str(folder), *map(str, units), *extra])
    assert plain.exit_code == 1 and f"{folder / 'traces.json'}: otel-genai: reading stopped" in plain.output


# --- (c) a bad line makes the exit status 1, in every output mode ----------------------------------------

@pytest.mark.parametrize("mode", [[], ["--json"], ["--json", "--out", "findings.parquet"]],
                         ids=["tables", "json", "json-out"])
def test_a_bad_input_line_exits_1_and_keeps_what_was_read(tmp_path, mode):
    lines = (DATA / "requests" / "proxy-2026-11-04.jsonl").read_text().splitlines()
    (tmp_path / "proxy.jsonl").write_text("\n".join([lines[0], lines[1][: len(lines[1]) // 2], *lines[2:]]) + "\n")
    args = [a if a != "findings.parquet" else str(tmp_path / a) for a in mode]
    result = CliRunner().invoke(main, ["audit", str(tmp_path / "proxy.jsonl"), "--units", str(UNITS), *args])
    assert result.exit_code == 1, result.output
    assert f"{tmp_path / 'proxy.jsonl'}:2: not valid JSON" in result.stderr
    if "--json" in mode:
        summary = json.loads(result.stdout)
        assert summary["calls"] == len(lines) - 1 and any("proxy.jsonl:2" in s for s in summary["skipped"])
    if "--out" in mode:
        assert (tmp_path / "findings.parquet").stat().st_size > 0 and (tmp_path / "findings.sessions.parquet").exists()
