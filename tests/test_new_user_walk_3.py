"""Session 15, third walk: figures a new user reads off the CLI on paths no earlier walk took (a request
id logged twice, Claude Code's subagents, …), each checked against a count made by hand."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ec2audit.cli import main


def _run(*args: str) -> dict:
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _openai_record(rid: str, at: str, messages: list) -> dict:
    return {"id": rid, "timestamp": at, "url": "https://api.openai.com/v1/chat/completions", "session_id": "s1",
            "request": {"model": "gpt-4o", "messages": [{"role": "system", "content": "You are a support agent."},
                                                        *messages]},
            "response": {"usage": {"prompt_tokens": 1000, "completion_tokens": 100}}}


def test_a_request_logged_twice_is_one_call_and_a_reused_id_is_said(tmp_path):
    """Four lines: req-1 written twice alike (one call logged twice), req-2 twice with two requests (the
    provider reused its id: two calls). By hand: 3 calls, 3,000 input and 300 output tokens, gpt-4o at
    $2.50 / $10 per million = $0.0075 + $0.003 = $0.0105; the customer's name is first sent by call #1 at
    10:00:00, the phone by call #2 at 10:00:05. Before: 4 calls, 4,000 tokens, $0.014, the phone at #3."""
    ask = {"role": "user", "content": "Customer Dana Whitfield wants a refund."}
    phone = {"role": "user", "content": "Her phone is +1 415-555-0199"}
    lines = [_openai_record("req-1", "2026-11-03T10:00:00Z", [ask]),
             _openai_record("req-1", "2026-11-03T10:00:00Z", [ask]),
             _openai_record("req-2", "2026-11-03T10:00:05Z", [ask, phone]),
             _openai_record("req-2", "2026-11-03T10:00:09Z", [ask, {"role": "user", "content": "Thanks."}])]
    log = tmp_path / "proxy.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = _run("audit", str(log), "--discover", "--no-presidio")
    assert (out["calls"], out["cloud_calls"]) == (3, 3)
    (row,) = out["providers"]
    assert (row["calls"], row["input_tokens"], row["output_tokens"]) == (3, 3000, 300)
    assert abs(row["cost_usd"] - 0.0105) < 1e-9
    assert [(leak["dimension"], leak["first_call"], leak["step"], leak["timestamp"]) for leak in out["leaked"]] == [
        ("person_name", "req-1", 1, "2026-11-03T10:00:00Z"), ("contact", "req-2", 2, "2026-11-03T10:00:05Z")]
    (cover,) = out["coverage"]
    assert (cover["read"], cover["logged_again"], cover["reused_ids"]) == (3, 1, 1)
    table = CliRunner().invoke(main, ["audit", str(log), "--discover", "--no-presidio"], env={"COLUMNS": "200"})
    assert "1 record repeated a call read before" in table.output
    assert "1 call reused an earlier call's id" in table.output


SESSION = "9f1e2d3c-0000-4000-8000-000000000002"
KEY = "sk-proj-Zx81kLmQ0pRt7Yu3Wv5Nb2Hc9Df4Gj6Ka1Sd"


def _claude_code_with_subagent(project: Path, nested: bool) -> Path:
    """A Claude Code session whose Task tool ran a subagent (10:00:06–10:00:20) that read `.env` and sent it at
    10:00:20; the parent got the key back in the Task result and sent it at 10:03:05. The subagent's transcript
    lies in `<session>/subagents/` (Claude Code ≥ 2.1.2, with its `.meta.json`) or beside the session (before)."""
    def line(uid, parent, kind, message, time, side=False):
        return {"isSidechain": side, "userType": "external", "cwd": "/home/ana/proj", "sessionId": SESSION,
                "version": "2.1.5", **({"agentId": "a1b2c3"} if side else {}), "parentUuid": parent, "type": kind,
                "message": message, "uuid": uid, "timestamp": f"2026-11-05T10:{time}.000Z"}

    def reply(mid, content, tokens):
        return {"id": mid, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
                "content": content, "usage": {"input_tokens": tokens, "output_tokens": tokens // 10}}

    task = {"type": "tool_use", "id": "toolu_T", "name": "Task",
            "input": {"description": "inspect config", "prompt": "Read .env and report"}}
    parent = [line("p1", None, "user", {"role": "user", "content": "Check why the deploy fails"}, "00:00"),
              line("p2", "p1", "assistant", reply("msg_p1", [task], 1000), "00:05"),
              line("p3", "p2", "user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_T",
                                                                    "content": f"The .env holds {KEY}"}]}, "03:00"),
              line("p4", "p3", "assistant", reply("msg_p2", [{"type": "text", "text": "It is set."}], 2000), "03:05")]
    read = {"type": "tool_use", "id": "toolu_R", "name": "Read", "input": {"file_path": "/home/ana/proj/.env"}}
    sub = [line("s1", None, "user", {"role": "user", "content": "Read .env and report"}, "00:06", True),
           line("s2", "s1", "assistant", reply("msg_s1", [read], 300), "00:10", True),
           line("s3", "s2", "user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_R",
                                                                 "content": f"OPENAI_API_KEY={KEY}"}]}, "00:11", True),
           line("s4", "s3", "assistant", reply("msg_s2", [{"type": "text", "text": "Found it."}], 500), "00:20", True)]
    project.mkdir()
    (project / f"{SESSION}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in parent))
    folder = project / SESSION / "subagents" if nested else project
    folder.mkdir(parents=True, exist_ok=True)
    agent = folder / "agent-a1b2c3.jsonl"
    agent.write_text("".join(json.dumps(x) + "\n" for x in sub))
    if nested:
        (folder / "agent-a1b2c3.meta.json").write_text(json.dumps({"agentType": "general-purpose", "spawnDepth": 1}))
    return agent


@pytest.mark.parametrize("nested", [True, False])
def test_a_subagents_calls_are_the_sessions_in_time_order(tmp_path, nested):
    """By hand, the session's calls by time: msg_p1 10:00:05, msg_s1 10:00:10, msg_s2 10:00:20 (the key, read
    by the subagent's Read of .env), msg_p2 10:03:05. Before: the subagent's file was read after the whole
    session's, so the key was first sent by msg_p2 (#2, 10:03:05, carried by the Task result), and the
    subagent's `.meta.json` was skipped as no log (exit 1)."""
    project = tmp_path / "-home-ana-proj"
    agent = _claude_code_with_subagent(project, nested)
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps({"task_id": "deploy", "entity_id": "SYS", "field": "openai_key", "value": KEY,
                                 "dimension": "credential"}) + "\n")
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({SESSION: "deploy"}))
    for paths in ([project], [project / f"{SESSION}.jsonl", agent]):  # the folder, or both files named
        out = _run("audit", *map(str, paths), "--units", str(units), "--task-map", str(task_map))
        assert (out["calls"], out["skipped"]) == (4, [])
        assert [(t["payload_id"], t["step"]) for t in out["timeline"]] == [
            ("msg_p1", 1), ("msg_s1", 2), ("msg_s2", 3), ("msg_p2", 4)]
        (leak,) = out["leaked"]
        assert (leak["first_call"], leak["step"], leak["timestamp"], leak["tool"], leak["file"]) == (
            "msg_s2", 3, "2026-11-05T10:00:20.000Z", "Read", "/home/ana/proj/.env")
        assert [s["calls"] for s in out["sessions"]] == [4]
    alone = _run("audit", str(agent), "--units", str(units), "--task-map", str(task_map))  # named alone: read alone
    assert [(t["payload_id"], t["step"]) for t in alone["timeline"]] == [("msg_s1", 1), ("msg_s2", 2)]


def test_a_claude_code_response_over_several_lines_costs_its_last_lines_output(tmp_path):
    """Claude Code writes one line per content block of a response, each with the usage as it stood: output 1,
    1, then 159 on the last (ccusage#901). By hand, Claude Sonnet 4.5 at $3 input, $0.30 cache read, $3.75 cache
    write, $15 output per million: 2·3 + 15,030·0.30 + 8,655·3.75 + 159·15 = 39,356.25 µ$; before, the first
    line's 1 output token: 36,986.25 µ$ ($0.0370 instead of $0.0394)."""
    def line(uid, parent, kind, message, second):
        return {"isSidechain": False, "userType": "external", "sessionId": SESSION, "parentUuid": parent,
                "type": kind, "message": message, "uuid": uid, "timestamp": f"2026-11-05T10:00:{second:02d}.000Z",
                "requestId": "req_011"}

    def block(content, output):
        return {"id": "msg_011", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
                "content": [content], "usage": {"input_tokens": 2, "cache_read_input_tokens": 15030,
                                                "cache_creation_input_tokens": 8655, "output_tokens": output}}

    lines = [line("u1", None, "user", {"role": "user", "content": "Read the config"}, 0),
             line("a1", "u1", "assistant", block({"type": "thinking", "thinking": "", "signature": "x"}, 1), 3),
             line("a2", "a1", "assistant", block({"type": "text", "text": "Reading it."}, 1), 4),
             line("a3", "a2", "assistant", block({"type": "tool_use", "id": "toolu_1", "name": "Read",
                                                  "input": {"file_path": "/etc/app.toml"}}, 159), 6)]
    log = tmp_path / f"{SESSION}.jsonl"
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = _run("audit", str(log), "--discover", "--no-presidio")
    (row,) = out["providers"]
    assert (row["calls"], row["input_tokens"], row["output_tokens"]) == (1, 23687, 159)
    assert abs(row["cost_usd"] - 0.03935625) < 1e-9


def test_a_resumed_claude_code_session_that_copies_the_old_ones_calls_counts_them_once(tmp_path):
    """`claude --resume` (or a session sent to the background) goes on in a new file that copies the old one's
    lines, their `message.id`s too (anthropics/claude-code#36583). Session A made msg_1 (1,000 input tokens)
    and msg_2 (2,000); B copies both and adds msg_3 (3,000). By hand: 3 calls, 6,000 input tokens, 600 output;
    before, 5 calls and 9,000 input tokens (msg_1 and msg_2 twice)."""
    def lines(session: str, calls: list[tuple[str, int]]) -> str:
        out, parent = [], None
        for k, (mid, tokens) in enumerate(calls):
            ask = {"uuid": f"u{k}", "parentUuid": parent, "type": "user", "sessionId": session,
                   "timestamp": f"2026-11-05T10:0{k}:00.000Z", "message": {"role": "user", "content": f"step {k}"}}
            answer = {"uuid": f"a{k}", "parentUuid": f"u{k}", "type": "assistant", "sessionId": session,
                      "timestamp": f"2026-11-05T10:0{k}:05.000Z",
                      "message": {"id": mid, "role": "assistant", "model": "claude-sonnet-4-5-20250929",
                                  "content": [{"type": "text", "text": "ok"}],
                                  "usage": {"input_tokens": tokens, "output_tokens": tokens // 10}}}
            out += [ask, answer]
            parent = f"a{k}"
        return "".join(json.dumps(x) + "\n" for x in out)

    project = tmp_path / "-home-ana-proj"
    project.mkdir()
    (project / "aaaa0000-0000-4000-8000-000000000001.jsonl").write_text(
        lines("aaaa0000-0000-4000-8000-000000000001", [("msg_1", 1000), ("msg_2", 2000)]))
    (project / "bbbb0000-0000-4000-8000-000000000002.jsonl").write_text(
        lines("bbbb0000-0000-4000-8000-000000000002", [("msg_1", 1000), ("msg_2", 2000), ("msg_3", 3000)]))
    out = _run("audit", str(project), "--discover", "--no-presidio")
    (row,) = out["providers"]
    assert (out["calls"], row["calls"], row["input_tokens"], row["output_tokens"]) == (3, 3, 6000, 600)
    (cover,) = out["coverage"]
    assert (cover["read"], cover["logged_again"]) == (3, 2)
    assert sorted(t["payload_id"] for t in out["timeline"]) == ["msg_1", "msg_2", "msg_3"]


def test_a_provider_is_one_row_however_its_logs_spell_it(tmp_path):
    """OpenLLMetry's spans name the provider `Anthropic` (traces-old-conventions: one claude-sonnet-4-5 call,
    25 input and 33 output tokens), a proxy's log of api.anthropic.com `anthropic` (10 and 40). By hand one
    row: 2 calls, 35 and 73 tokens, 25·3 + 33·15 + 10·3 + 40·15 = 1,200 µ$. Before: two rows of one call."""
    log = tmp_path / "anthropic.jsonl"
    log.write_text(json.dumps({
        "id": "msg-1", "timestamp": "2026-11-07T09:00:00Z", "url": "https://api.anthropic.com/v1/messages",
        "session_id": "a1", "request": {"model": "claude-sonnet-4-5", "max_tokens": 64,
                                        "messages": [{"role": "user", "content": "Hello"}]},
        "response": {"usage": {"input_tokens": 10, "output_tokens": 40}}}) + "\n")
    spans = Path(__file__).parent / "data" / "logs" / "otel" / "traces-old-conventions.jsonl"
    out = _run("audit", str(spans), str(log), "--discover", "--no-presidio")
    rows = [p for p in out["providers"] if (p["provider"] or "").lower() == "anthropic"
            and p["model"] == "claude-sonnet-4-5"]
    assert [(p["provider"], p["calls"], p["input_tokens"], p["output_tokens"]) for p in rows] == [
        ("anthropic", 2, 35, 73)]
    assert abs(rows[0]["cost_usd"] - 0.0012) < 1e-9


def test_a_litellm_call_it_could_not_price_is_priced_not_free(tmp_path):
    """LiteLLM logs `response_cost: 0.0` with `response_cost_failure_debug_info` when its map has no price for
    the deployment's name (here `azure-eu-gpt4o`, whose `model` is gpt-4o). By hand, 1,000 input and 100
    output tokens of gpt-4o at $2.50 / $10 per million: $0.0035, not the $0.0000 read before."""
    record = {"id": "chatcmpl-9", "trace_id": "t-9", "call_type": "acompletion", "stream": False,
              "response_cost": 0.0, "response_cost_failure_debug_info": {
                  "error_message": "This model isn't mapped yet. model=azure-eu-gpt4o", "model": "azure-eu-gpt4o"},
              "status": "success", "custom_llm_provider": "openai", "prompt_tokens": 1000, "completion_tokens": 100,
              "total_tokens": 1100, "startTime": 1793900000.5, "model": "gpt-4o",
              "api_base": "https://api.openai.com/v1", "metadata": {"requester_metadata": {"session_id": "crm-9"}},
              "messages": [{"role": "user", "content": "Update Dana Whitfield's phone to +1 415-555-0199."}]}
    log = tmp_path / "standard_logging_payloads.jsonl"
    log.write_text(json.dumps(record) + "\n")
    out = _run("audit", str(log), "--discover", "--no-presidio")
    (row,) = out["providers"]
    assert (row["calls"], row["input_tokens"], row["output_tokens"]) == (1, 1000, 100)
    assert abs(row["cost_usd"] - 0.0035) < 1e-9


def test_langfuse_cached_tokens_are_prompt_tokens_priced_at_the_cache_rate(tmp_path):
    """Langfuse's `usageDetails.input` counts only the prompt tokens not read from the cache; those read are
    `cache_read_input_tokens` (Anthropic) or `input_cached_tokens` (its OpenAI integration), priced apart
    (langfuse#10592). By hand, Claude Sonnet 4.5: 86 + 17,817 = 17,903 prompt tokens, 86·3 + 17,817·0.30 +
    120·15 = 7,403.1 µ$; gpt-4o: 1,000 + 4,000 = 5,000, 1,000·2.5 + 4,000·1.25 + 100·10 = 8,500 µ$. Before:
    86 and 1,000 prompt tokens, 2,058 and 3,500 µ$."""
    def observation(oid: str, model: str, details: dict) -> dict:
        return {"id": oid, "traceId": "tr-1", "type": "GENERATION", "name": "chat",
                "startTime": f"2026-11-09T09:00:0{oid[-1]}.000Z", "model": model,
                "input": [{"role": "user", "content": "Summarise the ticket."}], "usageDetails": details}

    export = tmp_path / "observations.json"
    export.write_text(json.dumps([
        observation("obs-1", "claude-sonnet-4-5", {"input": 86, "cache_read_input_tokens": 17817, "output": 120,
                                                   "total": 18023}),
        observation("obs-2", "gpt-4o", {"input": 1000, "input_cached_tokens": 4000, "output": 100, "total": 5100})],
        indent=1))
    out = _run("audit", str(export), "--discover", "--no-presidio")
    rows = {p["model"]: (p["input_tokens"], p["cached_tokens"], round(p["cost_usd"] * 1e6, 6))
            for p in out["providers"]}
    assert rows == {"claude-sonnet-4-5": (17903, 17817, 7403.1), "gpt-4o": (5000, 4000, 8500.0)}


def test_an_export_written_as_one_line_array_is_read_as_its_items(tmp_path):
    """A Langfuse export saved compactly (`json.dumps(observations)`: one line holding the array) has two calls,
    as the same export indented has. Before: the line was taken as one value of JSON Lines, no object, and the
    export was skipped (exit 1, 0 calls)."""
    observations = [{"id": f"obs-{k}", "traceId": "tr-1", "type": "GENERATION", "startTime": f"2026-11-09T09:00:0{k}Z",
                     "model": "gpt-4o", "input": [{"role": "user", "content": f"Question {k}"}],
                     "usageDetails": {"input": 10, "output": 1}} for k in (1, 2)]
    for name, text in (("compact.json", json.dumps(observations)),
                       ("indented.json", json.dumps(observations, indent=2))):
        export = tmp_path / name
        export.write_text(text)
        out = _run("audit", str(export), "--discover", "--no-presidio")
        assert (out["calls"], out["skipped"]) == (2, [])


def test_claude_behind_litellm_bills_its_cache_writes_at_the_write_rate(tmp_path):
    """LiteLLM answers for Claude in OpenAI's shape: `prompt_tokens` 1,125 holds the 1,104 written to the cache
    (`prompt_tokens_details.cache_creation_tokens`, also `cache_creation_input_tokens`), as its Anthropic
    transformation adds them. By hand, Claude Sonnet 4.5: 21·3 + 1,104·3.75 + 9·15 = 4,338 µ$; before, all
    1,125 at the input rate: 3,510 µ$."""
    usage = {"prompt_tokens": 1125, "completion_tokens": 9, "total_tokens": 1134,
             "prompt_tokens_details": {"cached_tokens": 0, "cache_creation_tokens": 1104, "text_tokens": 21},
             "cache_creation_input_tokens": 1104, "cache_read_input_tokens": 0}
    log = tmp_path / "proxy.jsonl"
    log.write_text(json.dumps({
        "id": "chatcmpl-7", "timestamp": "2026-11-07T09:00:00Z", "url": "http://127.0.0.1:4000/v1/chat/completions",
        "provider": "anthropic", "session_id": "g1",
        "request": {"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": "Summarise the policy."}]},
        "response": {"id": "chatcmpl-7", "model": "claude-sonnet-4-5", "usage": usage}}) + "\n")
    out = _run("audit", str(log), "--discover", "--no-presidio", "--cloud", "anthropic")
    (row,) = out["providers"]
    assert (row["input_tokens"], row["output_tokens"]) == (1125, 9)
    assert abs(row["cost_usd"] - 0.004338) < 1e-9


def test_cached_input_tokens_of_an_opentelemetry_span_are_priced_at_the_cache_rates(tmp_path):
    """The GenAI conventions count cached tokens within `gen_ai.usage.input_tokens` and name them
    `gen_ai.usage.cache_read.input_tokens` / `cache_creation.input_tokens`. By hand, Claude Sonnet 4.5 with
    10,000 input tokens of which 8,000 read from the cache and 1,000 written: 1,000·3 + 8,000·0.30 +
    1,000·3.75 + 200·15 = 12,150 µ$; before, all 10,000 at the input rate: 33,000 µ$."""
    def attribute(key: str, value) -> dict:
        kind = "intValue" if isinstance(value, int) else "stringValue"
        return {"key": key, "value": {kind: str(value) if kind == "intValue" else value}}

    attributes = [attribute(k, v) for k, v in (
        ("gen_ai.operation.name", "chat"), ("gen_ai.provider.name", "anthropic"),
        ("gen_ai.request.model", "claude-sonnet-4-5"), ("gen_ai.usage.input_tokens", 10000),
        ("gen_ai.usage.cache_read.input_tokens", 8000), ("gen_ai.usage.cache_creation.input_tokens", 1000),
        ("gen_ai.usage.output_tokens", 200),
        ("gen_ai.input.messages", json.dumps([{"role": "user", "parts": [{"type": "text", "content": "Hi"}]}])))]
    span = {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b175", "name": "chat claude",
            "kind": 3, "startTimeUnixNano": "1793800001000000000", "endTimeUnixNano": "1793800001900000000",
            "attributes": attributes}
    trace = tmp_path / "traces.json"
    trace.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [
        {"scope": {"name": "opentelemetry.instrumentation.anthropic"}, "spans": [span]}]}]}))
    out = _run("audit", str(trace), "--discover", "--no-presidio")
    (row,) = out["providers"]
    assert (row["input_tokens"], row["cached_tokens"], row["output_tokens"]) == (10000, 8000, 200)
    assert abs(row["cost_usd"] - 0.01215) < 1e-9


def test_inspect_cache_tokens_are_input_at_the_cache_rates_not_output(tmp_path):
    """Inspect's `ModelUsage` leaves the cache out of `input_tokens` (`input_tokens_cache_read` / `_write`; its
    `total_tokens` holds them). By hand, Claude Sonnet 4.5 with 10 fresh, 50,000 read and 2,000 written input
    tokens and 100 output: 10·3 + 50,000·0.30 + 2,000·3.75 + 100·15 = 24,030 µ$. Before, the 52,000 cache
    tokens were read as output (total − input): 10 input, 52,100 output, 781,530 µ$."""
    usage = {"input_tokens": 10, "output_tokens": 100, "total_tokens": 52110, "input_tokens_cache_read": 50000,
             "input_tokens_cache_write": 2000}
    event = {"event": "model", "uuid": "ev-1", "timestamp": "2026-11-10T12:00:01+00:00",
             "model": "anthropic/claude-sonnet-4-5", "input": [{"role": "user", "content": "Look up the account."}],
             "output": {"model": "claude-sonnet-4-5", "usage": usage, "choices": []}}
    log = {"version": 2, "status": "success",
           "eval": {"task": "crm-lookup", "model": "anthropic/claude-sonnet-4-5",
                    "created": "2026-11-10T12:00:00+00:00"},
           "samples": [{"id": 1, "epoch": 1, "input": "Look up the account.", "events": [event]}]}
    path = tmp_path / "2026-11-10T12-00-00+00-00_crm-lookup.json"
    path.write_text(json.dumps(log, indent=1))
    out = _run("audit", str(path), "--discover", "--no-presidio")
    (row,) = out["providers"]
    assert (row["input_tokens"], row["cached_tokens"], row["output_tokens"]) == (52010, 50000, 100)
    assert abs(row["cost_usd"] - 0.02403) < 1e-9


def test_anthropic_usage_with_a_gateways_total_keeps_the_cache_out_of_the_output(tmp_path):
    """Anthropic's usage as a gateway logs it, `total_tokens` added (10 + 5,000 read + 40 = 5,050). By hand,
    Claude Sonnet 4.5: 10·3 + 5,000·0.30 + 40·15 = 2,130 µ$. Before, read as a Responses usage: 10 input and
    5,040 output tokens (total − input), 75,630 µ$."""
    log = tmp_path / "anthropic.jsonl"
    log.write_text(json.dumps({
        "id": "msg-1", "timestamp": "2026-11-07T09:00:00Z", "url": "https://api.anthropic.com/v1/messages",
        "session_id": "a1", "request": {"model": "claude-sonnet-4-5", "max_tokens": 64,
                                        "messages": [{"role": "user", "content": "Hello"}]},
        "response": {"usage": {"input_tokens": 10, "cache_read_input_tokens": 5000, "cache_creation_input_tokens": 0,
                               "output_tokens": 40, "total_tokens": 5050}}}) + "\n")
    out = _run("audit", str(log), "--discover", "--no-presidio")
    (row,) = out["providers"]
    assert (row["input_tokens"], row["cached_tokens"], row["output_tokens"]) == (5010, 5000, 40)
    assert abs(row["cost_usd"] - 0.00213) < 1e-9


def test_a_streamed_answer_in_a_har_keeps_message_starts_counts_over_a_gateways_nulls(tmp_path):
    """A browser HAR of a Claude call through a gateway that streams message_delta's usage with nulls for the
    counts message_start gave (21 input, 188,086 written to the cache). By hand, Claude Sonnet 4.5:
    21·3 + 188,086·3.75 + 393·15 = 711,280.5 µ$, as the proxy counts it; before, the nulls wiped the input:
    0 input tokens, 5,895 µ$."""
    start = {"type": "message_start", "message": {"id": "msg_01", "type": "message", "role": "assistant",
                                                  "model": "claude-sonnet-4-5", "content": [], "usage": {
                                                      "input_tokens": 21, "cache_creation_input_tokens": 188086,
                                                      "cache_read_input_tokens": 0, "output_tokens": 1}}}
    delta = {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
             "usage": {"input_tokens": None, "cache_creation_input_tokens": None, "cache_read_input_tokens": None,
                       "output_tokens": 393}}
    stream = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in (start, delta))
    body = {"model": "claude-sonnet-4-5", "max_tokens": 500, "stream": True,
            "messages": [{"role": "user", "content": "Summarise the contract."}]}
    entry = {"startedDateTime": "2026-11-07T09:00:00.000Z", "time": 900,
             "request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "headers": [],
                         "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
             "response": {"status": 200, "headers": [], "content": {"mimeType": "text/event-stream", "text": stream}}}
    har = tmp_path / "session.har"
    har.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "WebInspector"}, "entries": [entry]}}))
    out = _run("audit", str(har), "--discover", "--no-presidio")
    (row,) = out["providers"]
    assert (row["input_tokens"], row["output_tokens"]) == (188107, 393)
    assert abs(row["cost_usd"] - 0.7112805) < 1e-9


def test_a_task_map_naming_a_task_without_units_is_said_not_hidden(tmp_path):
    """Sessions A and B mapped to task t, C to `zz`, a task the units file has no units of (a typo): C is scored
    against the units found in its own calls (t's phone: exposure 1.0), and the audit now says why, naming the
    map and the task. Before, it said only "give --task-map", which the user had given."""
    calls = [("A", "Call Dana Whitfield please"), ("B", "Nothing here"), ("C", "Call +1 415-555-0199 now")]
    log = tmp_path / "proxy.jsonl"
    log.write_text("".join(json.dumps(
        {"id": f"r{k}", "url": "https://api.openai.com/v1/chat/completions", "session_id": session,
         "request": {"model": "gpt-4o", "messages": [{"role": "user", "content": text}]}}) + "\n"
        for k, (session, text) in enumerate(calls)))
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps({"task_id": "t", "entity_id": "P1", "field": field, "value": value,
                                         "dimension": dimension}) + "\n" for field, value, dimension in (
        ("name", "Dana Whitfield", "person_name"), ("phone", "+1 415-555-0199", "contact"))))
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({"A": "t", "B": "t", "C": "zz"}))
    result = CliRunner().invoke(main, ["audit", str(log), "--units", str(units), "--task-map", str(task_map)],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert f"{task_map}: 1 task without units in {units} (zz)" in result.output
    assert "give --task-map" not in result.output


def test_a_span_exported_twice_is_one_call(tmp_path):
    """An OTLP exporter that re-sends a batch after a timeout puts the same spans (same trace and span ids) in
    the collector's file twice; here the collector rotated between them. By hand, otlp-genai-current.json
    holds 3 model-call spans: 2 of gpt-5.4 (3,000 input, 90 output tokens) and 1 of a local qwen2.5:7b, whose span
    names no token counts (unknown since walk 19, not 0). Before: 6 calls, 6,000 input tokens."""
    spans = (Path(__file__).parent / "data" / "logs" / "otel" / "otlp-genai-current.json").read_text()
    for name in ("traces-1.json", "traces-2.json"):
        (tmp_path / name).write_text(spans)
    out = _run("audit", str(tmp_path), "--discover", "--no-presidio")
    assert out["calls"] == 3
    assert [(p["model"], p["calls"], p["input_tokens"], p["output_tokens"]) for p in out["providers"]] == [
        ("gpt-5.4", 2, 3000, 90), ("qwen2.5:7b", 1, None, None)]
    (cover,) = out["coverage"]
    assert (cover["read"], cover["logged_again"]) == (3, 3)


def test_a_cheap_call_is_not_shown_as_free(tmp_path):
    """One gpt-4o-mini call of 10 input and 1 output tokens: 10·0.15 + 1·0.60 = 2.1 µ$ by hand. The table
    showed it as 0.0000, a free call; now 0.0000021."""
    log = tmp_path / "proxy.jsonl"
    log.write_text(json.dumps({
        "id": "r1", "timestamp": "2026-11-03T10:00:00Z", "url": "https://api.openai.com/v1/chat/completions",
        "session_id": "s1", "request": {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hi"}]},
        "response": {"usage": {"prompt_tokens": 10, "completion_tokens": 1}}}) + "\n")
    (row,) = _run("audit", str(log), "--discover", "--no-presidio")["providers"]
    assert abs(row["cost_usd"] - 0.0000021) < 1e-12
    table = CliRunner().invoke(main, ["audit", str(log), "--discover", "--no-presidio"], env={"COLUMNS": "200"})
    assert "0.0000021" in table.output and "0.0000 " not in table.output
