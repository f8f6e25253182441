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


def _litellm_record(rid: str, model: str, provider: str, api_base: str, at: float, content: str, **fields) -> dict:
    """A `StandardLoggingPayload` as LiteLLM's callbacks write it (the fields the audit reads)."""
    return {"id": rid, "trace_id": f"t-{rid}", "call_type": "acompletion", "stream": False, "status": "success",
            "custom_llm_provider": provider, "model": model, "api_base": api_base, "startTime": at,
            "metadata": {"requester_metadata": {"session_id": "crm-1"}, **fields.pop("metadata", {})},
            "messages": [{"role": "user", "content": content}], **fields}


def test_a_call_litellm_answered_from_its_own_cache_is_no_cloud_call_and_is_said(tmp_path):
    """The same question asked twice through LiteLLM with its cache on: the second record has `cache_hit: true`,
    the usage of the cached answer and no cost; no provider saw it. By hand: 1 cloud call, 1,000 input and 100
    output tokens of gpt-4o, $0.0035, and 1 call answered from the cache, said. Before: 2 cloud calls,
    2,000 input tokens."""
    ask = "Update Dana Whitfield's phone to +1 415-555-0199."
    tokens = {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}
    log = tmp_path / "standard_logging_payloads.jsonl"
    log.write_text("".join(json.dumps(_litellm_record(rid, "gpt-4o", "openai", "https://api.openai.com/v1", at, ask,
                                                      cache_hit=hit, response_cost=cost, **tokens)) + "\n"
                           for rid, at, hit, cost in (("c1", 1793900000.5, None, 0.0035),
                                                      ("c2", 1793900060.5, True, 0.0))))
    out = _run("audit", str(log), "--discover", "--no-presidio")
    (row,) = out["providers"]
    assert (out["calls"], out["cloud_calls"], row["input_tokens"], row["output_tokens"]) == (1, 1, 1000, 100)
    assert abs(row["cost_usd"] - 0.0035) < 1e-12
    (coverage,) = out["coverage"]
    assert (coverage["format"], coverage["read"], coverage["cache_hits"]) == ("litellm", 1, 1)
    said = CliRunner().invoke(main, ["audit", str(log), "--discover", "--no-presidio"]).output
    assert "litellm: 1 call answered from the gateway's own cache" in " ".join(said.split())


def test_litellm_cache_reads_and_writes_are_read_into_the_token_figures(tmp_path):
    """LiteLLM logs the call's whole usage in `metadata.usage_object`. gpt-4o: 5,000 prompt tokens, 4,000 of them
    read from the cache (`prompt_tokens_details.cached_tokens`). Claude Sonnet 4.5 behind a deployment LiteLLM
    could not price: 9,010 prompt tokens holding 8,000 read (`cache_read_input_tokens`) and 1,000 written
    (`cache_creation_input_tokens`); by hand 10·3 + 8,000·0.30 + 1,000·3.75 + 50·15 = 6,930 µ$. Before: no
    cached tokens, and Claude's 9,010 all at the input rate: 27,780 µ$."""
    gpt = {"prompt_tokens": 5000, "completion_tokens": 100, "total_tokens": 5100,
           "prompt_tokens_details": {"cached_tokens": 4000}}
    claude = {"prompt_tokens": 9010, "completion_tokens": 50, "total_tokens": 9060, "prompt_tokens_details": None,
              "cache_read_input_tokens": 8000, "cache_creation_input_tokens": 1000}
    records = [
        _litellm_record("u1", "gpt-4o", "openai", "https://api.openai.com/v1", 1793900000.5, "Summarise the ticket.",
                        response_cost=0.0085, metadata={"usage_object": gpt},
                        **{k: gpt[k] for k in ("prompt_tokens", "completion_tokens", "total_tokens")}),
        _litellm_record("u2", "claude-sonnet-4-5", "anthropic", "https://api.anthropic.com", 1793900001.5,
                        "Summarise the policy.", response_cost=0.0, metadata={"usage_object": claude},
                        response_cost_failure_debug_info={"error_message": "This model isn't mapped yet.",
                                                          "model": "eu-sonnet"},
                        **{k: claude[k] for k in ("prompt_tokens", "completion_tokens", "total_tokens")})]
    log = tmp_path / "standard_logging_payloads.json"
    log.write_text(json.dumps(records, indent=1))
    out = _run("audit", str(log), "--discover", "--no-presidio")
    rows = {p["model"]: (p["input_tokens"], p["cached_tokens"], p["output_tokens"], round(p["cost_usd"] * 1e6, 6))
            for p in out["providers"]}
    assert rows == {"gpt-4o": (5000, 4000, 100, 8500.0), "claude-sonnet-4-5": (9010, 8000, 50, 6930.0)}
