"""Session 15, fourth walk: figures a new user reads off the CLI on paths no earlier walk took (`report`
over an audit's output, LiteLLM's own cache, …), each checked against a count made by hand."""

import json

from click.testing import CliRunner

from ec2audit.cli import main


def _run(*args: str) -> dict:
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _openai_record(rid: str, session: str, model: str, usage: dict) -> dict:
    return {"id": rid, "timestamp": f"2026-11-10T10:00:0{rid[-1]}Z", "url": "https://api.openai.com/v1/chat/completions",
            "session_id": session, "request": {"model": model, "messages": [
                {"role": "user", "content": f"Update Dana Whitfield's phone to +1 415-555-019{rid[-1]}."}]},
            "response": {"usage": usage}}


def test_report_on_an_audit_output_shows_the_audits_cloud_calls_tokens_and_usd(tmp_path):
    """`report` over an `audit --out` folder shows what the audit counted. Session s1: two gpt-4o calls,
    1,000 input (400 of them read from the cache in the second) and 100 output tokens each; by hand at
    $2.50 / $1.25 / $10 per million: 3,500 + (600·2.5 + 400·1.25 + 100·10 = 3,000) = 6,500 µ$. Session s2:
    one call of a model with no price: its USD, and so the audit's, unknown. Before: every cloud figure null."""
    log = tmp_path / "requests.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in (
        _openai_record("r1", "s1", "gpt-4o", {"prompt_tokens": 1000, "completion_tokens": 100}),
        _openai_record("r2", "s1", "gpt-4o", {"prompt_tokens": 1000, "completion_tokens": 100,
                                              "prompt_tokens_details": {"cached_tokens": 400}}),
        _openai_record("r3", "s2", "acme-unpriced-7", {"prompt_tokens": 50, "completion_tokens": 5}))))
    out = tmp_path / "out"
    out.mkdir()
    audited = _run("audit", str(log), "--discover", "--no-presidio", "--out", str(out / "findings.parquet"))
    report = _run("report", str(out))
    figures = ("cloud_calls", "cloud_input_tokens", "cloud_cached_tokens", "cloud_output_tokens")
    groups = {g["label"]: g for g in report["groups"]}
    assert [groups["s1"][k] for k in figures] == [2, 2000, 400, 200]
    assert abs(groups["s1"]["cloud_usd"] - 0.0065) < 1e-12
    assert [groups["s2"][k] for k in figures] + [groups["s2"]["cloud_usd"]] == [1, 50, 0, 5, None]
    (row,) = report["strategies"]
    assert [row[k] for k in figures] + [row["cloud_usd"], row["usd_per_episode"]] == [3, 2050, 400, 205, None, None]
    providers = audited["providers"]  # the audit's own figures, per model
    assert audited["cloud_calls"] == row["cloud_calls"]
    assert [sum(p[k] for p in providers) for k in ("input_tokens", "cached_tokens", "output_tokens")] == [
        2050, 400, 205]
    assert {p["model"]: p["cost_usd"] for p in providers}["acme-unpriced-7"] is None
