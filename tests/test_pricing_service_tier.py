"""OpenAI's service tiers priced as billed: a call served at `flex` costs about half the standard rate, one at
`priority` about twice; a model with no price at the tier that served it is unknown, and says so. Each figure
worked out by hand from the pinned LiteLLM map's rates (USD per million tokens):
  gpt-5       default 1.25 in / 0.125 cached / 10 out;  flex 0.625 / 0.0625 / 5;  priority 2.50 / 0.25 / 20
  gpt-5-mini  priority 0.45 in / 3.60 out
  gpt-4o      default and priority only: no flex rate."""

import json
import signal

from click.testing import CliRunner
from pytest import approx

from ec2audit.cli import main
from ec2audit.intercept.store import read_records

_PROMPT = "Summarise the claim of Will Hartley."  # 36 characters: the stand-in counts 9 tokens, 10 in its echo
_USER_PRICES = """
[models."acme-ft-7b"]
input = 1.00
output = 3.00

[models."acme-ft-7b".service_tier.flex]
input = 0.40
output = 1.20
"""


def test_the_proxy_prices_each_call_at_the_tier_that_served_it(standin, tmp_path):
    """`intercept serve --pricing FILE` in front of the stand-in, which answers each call as served at the
    `service_tier` it asked for. By hand, 9 input and 10 output tokens each:
      gpt-5 at flex, plain JSON:       (9 × 0.625 + 10 × 5) / 1e6 = $0.000055625 (standard: $0.00011125)
      gpt-5-mini at priority, streamed: (9 × 0.45 + 10 × 3.60) / 1e6 = $0.00004005 (standard: $0.00002225)
      acme-ft-7b at flex, the user's table's flex rates: (9 × 0.40 + 10 × 1.20) / 1e6 = $0.0000156
      gpt-4o at flex: no flex rate, unknown and why (not the standard $0.000122), in the stop summary and in
    `audit` of the store. Before: every call at the standard rate."""
    import httpx
    from intercept_helpers import serve_cli

    _, upstream = standin
    prices, store, log = tmp_path / "prices.toml", tmp_path / "intercept.sqlite", tmp_path / "serve.log"
    prices.write_text(_USER_PRICES, encoding="utf-8")
    proc, url = serve_cli(upstream, store, log, "sk-upstream", "--pricing", str(prices))
    try:
        for model, tier, stream in (("gpt-5", "flex", False), ("gpt-5-mini", "priority", True),
                                    ("acme-ft-7b", "flex", False), ("gpt-4o", "flex", False)):
            httpx.post(f"{url}/v1/chat/completions", timeout=20, json={
                "model": model, "service_tier": tier, "stream": stream, "stream_options": {"include_usage": True},
                "messages": [{"role": "user", "content": _PROMPT}]}).raise_for_status()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, log.read_text()
    costs = {r.model: r.cost_usd for r in read_records(store)}
    assert costs == {"gpt-5": approx(55.625e-6, abs=1e-15), "gpt-5-mini": approx(40.05e-6, abs=1e-15),
                     "acme-ft-7b": approx(15.6e-6, abs=1e-15), "gpt-4o": None}
    said = log.read_text()
    assert "  gpt-5: 1 call, 9 input / 10 output tokens, USD 0.000056\n" in said
    assert "  gpt-5-mini: 1 call, 9 input / 10 output tokens, USD 0.000040\n" in said
    assert "  acme-ft-7b: 1 call, 9 input / 10 output tokens, USD 0.000016\n" in said
    assert "  gpt-4o: 1 call, 9 input / 10 output tokens, USD unknown: no price for the model at the flex tier\n" \
        in said
    audit = CliRunner().invoke(main, ["audit", str(store), "--discover", "--no-presidio"], env={"COLUMNS": "200"})
    lines = {line.split()[1]: line for line in audit.output.splitlines() if line.strip().startswith("cloud ")}
    assert lines["gpt-4o"].rstrip().endswith("unknown: no price for the model at the flex tier")  # `audit`'s words


def _call(rid: str, model: str, asked: str | None, served: str, prompt: int, cached: int, output: int) -> dict:
    """A call as an OpenAI SDK hook or a logging proxy writes it: the request (`asked`: its `service_tier`, None
    for none: the project's tier), and the answer with its `service_tier` (the tier that served it) and usage."""
    request = {"model": model, "messages": [{"role": "user", "content": "Hi"}]} | (
        {} if asked is None else {"service_tier": asked})
    return {"id": rid, "timestamp": "2026-12-06T10:00:00Z", "url": "https://api.openai.com/v1/chat/completions",
            "session_id": "s1", "request": request,
            "response": {"object": "chat.completion", "model": model, "service_tier": served, "usage": {
                "prompt_tokens": prompt, "completion_tokens": output, "total_tokens": prompt + output,
                "prompt_tokens_details": {"cached_tokens": cached}}}}


def _stream(model: str, served: str, prompt: int, output: int) -> str:
    """A streamed Chat answer as OpenAI sends it: each chunk names the tier that served it, the last the usage."""
    base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": model, "service_tier": served}
    chunks = [base | {"choices": [{"index": 0, "delta": {"content": "Hello"}}]},
              base | {"choices": [], "usage": {"prompt_tokens": prompt, "completion_tokens": output,
                                               "total_tokens": prompt + output}}]
    return "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"


def _stream_request(model: str) -> dict:
    """A streamed Chat request sent without a tier: served at its project's."""
    return {"model": model, "stream": True, "stream_options": {"include_usage": True},
            "messages": [{"role": "user", "content": "Hi"}]}


def test_the_proxy_prices_a_stream_at_the_tier_its_chunks_name(tmp_path):
    """A cloud whose project is set to priority (a scripted stand-in answering every stream as served at
    `priority`), and a client asking no tier. By hand, gpt-5-mini, 1,000 prompt and 100 output tokens:
    (1000 × 0.45 + 100 × 3.60) / 1e6 = $0.00081 (standard: $0.00045). Before: the standard rate (the tier
    the chunks named was dropped when the stream was put together)."""
    import httpx
    from intercept_helpers import running_proxy, wait_for_records
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from ec2audit.intercept.server import serve_in_thread

    async def answer(request: Request) -> Response:
        body = await request.json()
        return Response(_stream(body["model"], "priority", 1000, 100), media_type="text/event-stream")

    cloud, stop = serve_in_thread(Starlette(routes=[Route("/v1/chat/completions", answer, methods=["POST"])]))
    try:
        with running_proxy(cloud + "/v1", tmp_path / "s.sqlite") as (_, url, store):
            httpx.post(f"{url}/v1/chat/completions", json=_stream_request("gpt-5-mini"), timeout=20).raise_for_status()
            [record] = wait_for_records(store, 1)
    finally:
        stop()
    assert (record.input_tokens, record.output_tokens) == (1000, 100)
    assert record.cost_usd == approx(0.00081, abs=1e-15)


def _streamed_har(path, model: str, served: str, prompt: int, output: int) -> None:
    """A browser's HAR export of one streamed Chat call sent without a tier (`_stream`)."""
    path.write_text(json.dumps({"log": {"entries": [{
        "startedDateTime": "2026-12-06T10:00:05.000Z",
        "request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                    "postData": {"mimeType": "application/json", "text": json.dumps(_stream_request(model))}},
        "response": {"status": 200, "content": {"mimeType": "text/event-stream",
                                                "text": _stream(model, served, prompt, output)}}}]}}),
        encoding="utf-8")


def _otel_span(path, model: str, served: str, prompt: int, output: int) -> None:
    """One chat span as OpenTelemetry's OpenAI instrumentation exports it (OTLP JSON), with the tier that served
    the call in `openai.response.service_tier`."""
    attributes = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": model,
                  "server.address": "api.openai.com", "openai.response.service_tier": served,
                  "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [{"type": "text", "content": "Hi"}]}]),
                  "gen_ai.usage.input_tokens": prompt, "gen_ai.usage.output_tokens": output}
    span = {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b175", "name": f"chat {model}",
            "kind": 3, "startTimeUnixNano": "1793800001000000000", "endTimeUnixNano": "1793800001900000000",
            "attributes": [{"key": k, "value": {"intValue": str(v)} if isinstance(v, int) else {"stringValue": v}}
                           for k, v in attributes.items()]}
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [
        {"scope": {"name": "opentelemetry.instrumentation.openai_v2"}, "spans": [span]}]}]}), encoding="utf-8")


def _litellm_payload(path, model: str, asked: str, prompt: int, output: int) -> None:
    """LiteLLM's standard logging payload of a call it could not price (`response_cost` null, and why), the tier
    asked among the request's `model_parameters`, the answer logged without one."""
    path.write_text(json.dumps({
        "id": "chatcmpl-9", "call_type": "acompletion", "stream": False, "response_cost": None,
        "response_cost_failure_debug_info": {"error_message": "This model isn't mapped yet."}, "status": "success",
        "custom_llm_provider": "openai", "prompt_tokens": prompt, "completion_tokens": output,
        "total_tokens": prompt + output, "startTime": 1793900000.5, "endTime": 1793900001.7, "model": model,
        "api_base": "https://api.openai.com/v1", "metadata": {"requester_metadata": {"session_id": "s2"}},
        "messages": [{"role": "user", "content": "Hi"}], "model_parameters": {"service_tier": asked},
        "response": {"id": "chatcmpl-9", "object": "chat.completion", "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "Hello"}, "finish_reason": "stop"}]}}) + "\n",
        encoding="utf-8")


def test_the_log_audit_prices_each_call_at_the_tier_that_served_it(tmp_path):
    """`audit` of an OpenAI request log, a HAR export, an OpenTelemetry trace and a LiteLLM log. By hand, gpt-5:
      r1 flex, 1,000 prompt (400 cached), 200 out: (600 × 0.625 + 400 × 0.0625 + 200 × 5) / 1e6 = $0.0014
      r2 none asked, served at priority, 1,000 prompt, 100 out: (1000 × 2.50 + 100 × 20) / 1e6 = $0.0045
      r3 flex asked, served at default (the answer says which): (1000 × 1.25 + 100 × 10) / 1e6 = $0.00225
      the HAR's stream, none asked, served at priority, 1,000 prompt, 100 out: $0.0045
      the trace's span, served at flex, 1,000 prompt, 100 out: (1000 × 0.625 + 100 × 5) / 1e6 = $0.001125
      LiteLLM's call asked at flex, unpriced there, 1,000 prompt, 100 out: $0.001125
    the row $0.0149 (at the standard rate throughout: $0.01405); gpt-4o at flex has no rate: unknown, and the
    table says why. Before: $0.01405, and gpt-4o at its standard rate. Anthropic's `standard_only` is its standard
    rate: claude-sonnet-4-5, 100 in and 10 out at $3 / $15: $0.00045 (not unknown)."""
    calls = [_call("r1", "gpt-5", "flex", "flex", 1000, 400, 200),
             _call("r2", "gpt-5", None, "priority", 1000, 0, 100),
             _call("r3", "gpt-5", "flex", "default", 1000, 0, 100),
             _call("r4", "gpt-4o", "flex", "flex", 100, 0, 10),
             {"id": "r5", "url": "https://api.anthropic.com/v1/messages", "session_id": "s1",
              "request": {"model": "claude-sonnet-4-5", "max_tokens": 64, "service_tier": "standard_only",
                          "messages": [{"role": "user", "content": "Hi"}]},
              "response": {"type": "message", "usage": {"input_tokens": 100, "output_tokens": 10,
                                                        "service_tier": "standard"}}}]
    (tmp_path / "requests.jsonl").write_text("".join(json.dumps(c) + "\n" for c in calls), encoding="utf-8")
    _streamed_har(tmp_path / "browser.har", "gpt-5", "priority", 1000, 100)
    _otel_span(tmp_path / "traces.json", "gpt-5", "flex", 1000, 100)
    _litellm_payload(tmp_path / "standard_logging_payloads.jsonl", "gpt-5", "flex", 1000, 100)
    result = CliRunner().invoke(main, ["audit", str(tmp_path), "--discover", "--no-presidio", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    formats = {f["format"] for f in summary["files"]}
    assert (summary["calls"], formats) == (8, {"openai-log", "har", "otel-genai", "litellm"})
    rows = {r["model"]: r for r in summary["providers"]}
    assert abs(rows["gpt-5"]["cost_usd"] - 0.0149) < 1e-12
    assert (rows["gpt-4o"]["cost_usd"], rows["gpt-4o"]["unpriced_calls"]) == (None, 1)
    assert abs(rows["claude-sonnet-4-5"]["cost_usd"] - 0.00045) < 1e-12
    table = CliRunner().invoke(main, ["audit", str(tmp_path), "--discover", "--no-presidio"], env={"COLUMNS": "200"})
    lines = {line.split()[1]: line for line in table.output.splitlines() if line.strip().startswith("cloud ")}
    assert lines["openai/gpt-4o"].rstrip().endswith("unknown: no price for the model at the flex tier")
