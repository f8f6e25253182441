"""Real OpenClaw writes the transcript; the SQLite adapter must rebuild exactly what it sent.

One headless `openclaw agent exec` turn against a scripted stand-in cloud API (not a model: it
answers the first request with a `read intake.md` tool call and the second with a short text) on
127.0.0.1. The file is over 1 KB, so OpenClaw stores its tool-result row zstd-compressed. OpenClaw
masks API-key-shaped tokens in tool results itself (`sk-liv…s7Ee`); a phone number it passes on.
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.routing import Route

from ec2audit.cli import main
from ec2audit.intercept.server import serve_in_thread
from ec2audit.logs import read_logs
from ec2audit.payloads import flatten
from ec2audit.run.openclaw import TRANSCRIPT, prepare, run_agent
from ec2audit.run.sse import sse_chunks

pytestmark = pytest.mark.openclaw

SECRET = "sk-live-51HqLmX9vB4nR8tY3kW6pZ1cJ5dF0gAs7Ee"
PHONE = "+1 415-555-0142"
REPLIES = [
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_notes", "type": "function", "function": {"name": "read", "arguments": '{"path": "intake.md"}'}}]},
    {"role": "assistant", "content": "The key is set; the billing URL is internal."},
]


def scripted_standin(received: list[dict]) -> Starlette:
    """Stand-in cloud API: the n-th request gets REPLIES[n] as an SSE stream, with usage."""
    async def chat(request: Request):
        body = await request.json()
        received.append(body)
        message = REPLIES[min(len(received), len(REPLIES)) - 1]
        usage = {"prompt_tokens": 2000 + len(received), "completion_tokens": 12, "total_tokens": 2012}
        return StreamingResponse(sse_chunks(message, usage, "scripted-standin"), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])


@pytest.fixture(scope="module")
def episode(tmp_path_factory):
    root = tmp_path_factory.mktemp("openclaw-real")
    workspace = root / "ws"
    workspace.mkdir()
    padding = "".join(f"- visit {i}: reviewed, no change\n" for i in range(40))
    (workspace / "intake.md").write_text(f"# Intake\nClient on-call phone: {PHONE}\n{padding}"
                                         f"Billing key: {SECRET}\n")
    units = [{"task_id": "real", "entity_id": "P1", "field": "phone", "value": PHONE, "dimension": "contact"},
             {"task_id": "real", "entity_id": "SYS", "field": "key", "value": SECRET, "dimension": "credential"}]
    (root / "units.jsonl").write_text("".join(json.dumps(u) + "\n" for u in units))
    received: list[dict] = []
    url, stop = serve_in_thread(scripted_standin(received))
    try:
        prepare(root / "ep", workspace)
        result = run_agent(root / "ep", "Summarise intake.md", url + "/v1", timeout=180, sandbox=None)
    finally:
        stop()
    assert result.exit_code == 0, result.stderr_tail
    return root, received


def test_rebuilt_requests_match_what_openclaw_sent(episode):
    root, received = episode
    store = root / "ep" / TRANSCRIPT
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT count(*) FROM transcript_events WHERE event_zstd IS NOT NULL").fetchone()[0] >= 1
    skipped = []
    calls = list(read_logs([root / "ep" / "state"], on_error=skipped.append))
    # the state folder's other databases and OpenClaw's empty lock files are named, not passed over
    reasons = {e.file.rsplit("/", 1)[1]: e.reason for e in skipped}
    assert reasons["openclaw.sqlite"].startswith("SQLite database without a table of model calls (tables: ")
    assert all(r.startswith(("SQLite database", "empty file")) for r in reasons.values()), reasons
    assert len(calls) == len(received) == 2
    for call, sent in zip(calls, received, strict=True):
        sent_texts = [s.text for s in flatten(sent)]
        # each rebuilt segment is in the real request (OpenClaw decorates the user turn with a time stamp)
        assert all(any(seg.text in text for text in sent_texts) for seg in call.segments)
        assert [s.origin for s in call.segments] == [s.origin for s in flatten(sent) if s.origin != "system"]
    assert PHONE not in json.dumps(received[0]) and PHONE in json.dumps(received[1])
    assert SECRET not in json.dumps(received) and "sk-liv…s7Ee" in json.dumps(received[1], ensure_ascii=False)


def test_audit_of_the_state_dir_attributes_the_phone_to_the_second_call(episode):
    root, _ = episode
    result = CliRunner().invoke(main, ["audit", str(root / "ep" / "state"), "--units", str(root / "units.jsonl"),
                                       "--json"])
    assert result.exit_code == 1, result.output  # OpenClaw's other databases are named as skipped
    summary = json.loads(result.output[result.output.index("{\n"):])
    assert summary["skipped_files"] and PHONE not in result.output
    rows = {r["unit_id"]: r for r in summary["leaked"]}
    assert rows.get("real/SYS/key", {"grade": 0.0})["grade"] < 1.0  # OpenClaw masked it: at most a fragment
    row = rows["real/P1/phone"]
    assert row["grade"] == 1.0
    assert (row["step"], row["origin"], row["tool"], row["file"]) == (2, "tool_result", "read", "intake.md")
    assert PHONE not in result.output
    (provider,) = summary["providers"]
    assert provider["calls"] == 2 and provider["input_tokens"] > 0
