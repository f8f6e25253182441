"""Session 22, eleventh walk: figures a new user reads off `audit`, `report`, `annotate`, `discover` and `judge` on
inputs written here as other tools write theirs (Bedrock Converse logs with their service tier, …), each checked
against a count made by hand."""

import json
from pathlib import Path

from test_new_user_walk_7 import _cli


def _bedrock_log(path: Path, model: str, tier: str) -> None:
    """One Bedrock Converse call as a request log keeps it: the model in the URL (its `:` escaped), the request's
    and the response's `serviceTier` as Converse writes them (`{"type": …}`), 10,000 tokens in and 2,000 out."""
    url = f"https://bedrock-runtime.us-west-2.amazonaws.com/model/{model.replace(':', '%3A')}/converse"
    request = {"messages": [{"role": "user", "content": [{"text": "Email maria.kessler@example.com the summary."}]}],
               "inferenceConfig": {"maxTokens": 500}, "serviceTier": {"type": tier}}
    response = {"output": {"message": {"role": "assistant", "content": [{"text": "Sent."}]}}, "stopReason": "end_turn",
                "usage": {"inputTokens": 10000, "outputTokens": 2000, "totalTokens": 12000},
                "metrics": {"latencyMs": 912}, "serviceTier": {"type": tier}}
    path.write_text(json.dumps({"url": url, "session_id": "b1", "request": request, "response": response}) + "\n",
                    encoding="utf-8")


def _units(path: Path) -> Path:
    path.write_text(json.dumps({"task_id": "t", "entity_id": "E1", "field": "email", "dimension": "contact",
                                "value": "maria.kessler@example.com"}) + "\n", encoding="utf-8")
    return path


def test_a_bedrock_call_served_at_flex_is_priced_at_the_flex_rates(tmp_path):
    """Bedrock's flex tier (`serviceTier: {"type": "flex"}`) of gpt-oss-120b: LiteLLM's map prices it at $0.075 /
    $0.30 per million (standard $0.15 / $0.60). By hand: 10,000 × 0.075e-6 + 2,000 × 0.30e-6 = $0.00135. Before:
    the tier was read only from OpenAI's `service_tier`: $0.0027 at the standard rates."""
    log = tmp_path / "bedrock.jsonl"
    _bedrock_log(log, "openai.gpt-oss-120b-1:0", "flex")
    code, output = _cli("audit", log, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    provider, = json.loads(output[output.index("{\n"):])["providers"]
    assert provider["cost_usd"] == 0.00135


def test_report_names_the_tier_a_logged_calls_cost_is_unknown_at(tmp_path):
    """A Bedrock call served at `priority` of Claude 3.5 Sonnet, which no price table prices at that tier: `audit`'s
    provider table says `unknown: no price for the model at the priority tier`, and `report` on that audit's output
    says the same in its Cost table. Before: `report` said `unknown: no price for the model`, as if Sonnet had
    none at all (the sessions table did not keep the tier)."""
    log = tmp_path / "bedrock.jsonl"
    _bedrock_log(log, "anthropic.claude-3-5-sonnet-20240620-v1:0", "priority")
    out = tmp_path / "audit" / "findings.jsonl"
    code, output = _cli("audit", log, "--units", _units(tmp_path / "units.jsonl"), "--out", out)
    assert code == 0, output
    why = "unknown: no price for the model at the priority tier"
    assert why in output
    code, output = _cli("report", out, "--out", tmp_path / "report.html")
    assert code == 0, output
    assert why in " ".join(output.split())
    assert why in (tmp_path / "report.html").read_text(encoding="utf-8")
