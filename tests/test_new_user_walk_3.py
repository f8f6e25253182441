"""Session 15, third walk: figures a new user reads off the CLI on paths no earlier walk took (a request
id logged twice, Claude Code's subagents, …), each checked against a count made by hand."""

import json

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
    $2.50 / $10 per million = $0.0075 + $0.003 = $0.0105; the phone is first sent by call #2 at 10:00:05.
    Before: 4 calls, 4,000 tokens, $0.014, the phone at #3."""
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
    (leak,) = out["leaked"]
    assert (leak["first_call"], leak["step"], leak["timestamp"]) == ("req-2", 2, "2026-11-03T10:00:05Z")
    (cover,) = out["coverage"]
    assert (cover["read"], cover["logged_again"], cover["reused_ids"]) == (3, 1, 1)
    table = CliRunner().invoke(main, ["audit", str(log), "--discover", "--no-presidio"], env={"COLUMNS": "200"})
    assert "1 line logged a call an earlier line logged" in table.output
    assert "1 call reused an earlier call's id" in table.output
