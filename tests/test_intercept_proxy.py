"""The interceptor with real clients (the openai SDK, httpx for Anthropic's API) over loopback HTTP,
in front of the scripted stand-in cloud API: relaying, records, usage, cost, redaction and blocking."""

import json
import logging

import httpx
import openai
import pytest
from click.testing import CliRunner
from intercept_helpers import SECRET_TEXT, UNITS, enforcing_client, running_proxy, wait_for_records

from ec2audit.cli import main
from ec2audit.intercept.redact import PLACEHOLDER


def _client(url: str, episode: str | None = "ep-a", **kwargs) -> openai.OpenAI:
    base = f"{url}/e/{episode}/v1" if episode else f"{url}/v1"
    return openai.OpenAI(base_url=base, api_key="sk-test-client-key", max_retries=0, **kwargs)


def test_chat_non_streaming_is_relayed_and_recorded(standin, tmp_path):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        messages = [{"role": "user", "content": "hello there"}]
        answer = _client(url, episode="v1-a").chat.completions.create(model="echo", messages=messages)
        [record] = store.records()
    assert record.episode == "v1-a" and record.status == 200 and record.error is None
    assert record.request == {"model": "echo", "messages": messages}
    assert record.response["choices"][0]["message"]["content"] == answer.choices[0].message.content
    assert (record.input_tokens, record.output_tokens) == (answer.usage.prompt_tokens,
                                                                  answer.usage.completion_tokens)
    assert record.latency_ms > 0 and record.stream is False


def test_chat_stream_relays_chunks_and_hides_usage_it_asked_for(standin, tmp_path):
    app, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        chunks = list(_client(url).chat.completions.create(
            model="echo", messages=[{"role": "user", "content": "stream me a reply"}], stream=True))
        asked = app.state.requests[-1]["body"]
        with_usage = list(_client(url).chat.completions.create(
            model="echo", messages=[{"role": "user", "content": "again"}], stream=True,
            stream_options={"include_usage": True}))
        first, second = store.records()
    assert asked["stream_options"] == {"include_usage": True}  # requested upstream on the client's behalf
    assert len(chunks) > 3 and all(c.choices and c.usage is None for c in chunks)
    streamed = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert first.response["choices"][0]["message"]["content"] == streamed
    assert first.input_tokens > 0 and first.output_tokens > 0 and first.first_byte_ms > 0
    assert first.request.get("stream_options") is None  # the record holds the client's body
    assert with_usage[-1].usage.completion_tokens == second.output_tokens


def test_responses_api_stream_and_plain(standin, tmp_path):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        client = _client(url, episode="ep-r")
        events = list(client.responses.create(model="echo", input="what is new", stream=True))
        plain = client.responses.create(model="echo", input="and now")
        streamed, whole = store.records(episode="ep-r")
    text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert streamed.response["output"][0]["content"][0]["text"] == text
    assert streamed.input_tokens == events[-1].response.usage.input_tokens
    assert whole.output_tokens == plain.usage.output_tokens and whole.api == "openai-responses"


def _anthropic_stream(url: str, body: dict, headers: dict | None = None) -> tuple[list[dict], str]:
    events, text = [], ""
    with httpx.stream("POST", f"{url}/v1/messages", json=body, timeout=10,
                      headers={"x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01", **(headers or {})}
                      ) as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
    for e in events:
        delta = e.get("delta") or {}
        text += delta.get("text") or delta.get("partial_json") or ""
    return events, text


def test_anthropic_messages_stream_with_episode_header(standin, tmp_path):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        body = {"model": "echo", "max_tokens": 100, "stream": True, "system": "be brief",
                "messages": [{"role": "user", "content": "hi from claude's client"}]}
        events, text = _anthropic_stream(url, body, {"X-EC2-Episode": "ep-h"})
        [record] = store.records(episode="ep-h")
    assert record.api == "anthropic-messages" and record.response["content"][0]["text"] == text
    start, delta = events[0]["message"]["usage"], events[-2]["usage"]
    assert record.input_tokens == start["input_tokens"] and record.output_tokens == delta["output_tokens"]


def test_models_are_forwarded(standin, tmp_path):
    _, upstream = standin
    direct = httpx.get(f"{upstream}/models").json()
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, _store):
        listed = [m.id for m in _client(url, episode=None).models.list()]
    assert listed == [m["id"] for m in direct["data"]]


def test_cost_from_price_table_and_null_for_unknown_models(standin, tmp_path, caplog):
    _, upstream = standin
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."echo"]\ninput = 2.0\ncached_input = 0.5\noutput = 8.0\n')
    with running_proxy(upstream, tmp_path / "s.sqlite", pricing=prices) as (_, url, store):
        client = _client(url)
        client.chat.completions.create(model="echo", messages=[{"role": "user", "content": "price this"}])
        with caplog.at_level(logging.WARNING, logger="ec2audit.intercept"):
            client.chat.completions.create(model="no-such-model", messages=[{"role": "user", "content": "x"}])
        priced, unknown = store.records()
    expected = (priced.input_tokens * 2.0 + priced.output_tokens * 8.0) / 1e6
    assert priced.cost_usd == pytest.approx(expected)
    assert unknown.cost_usd is None and unknown.input_tokens > 0
    assert "no price for model 'no-such-model'" in caplog.text


def test_gemini_and_bedrock_converse_answers_are_counted_and_priced(standin, tmp_path):
    """Gemini names its usage `usageMetadata` (thoughts billed as output, cached content inside the prompt)
    and Converse counts cache reads apart from `inputTokens`; both name the model in the path, not the body.
    Before, both were recorded with no tokens and no cost."""
    _, upstream = standin
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."gemini-2.5-flash"]\ninput = 0.3\ncached_input = 0.075\noutput = 2.5\n'
                      '[models."anthropic.claude-3-5-sonnet-20240620-v1:0"]\ninput = 3.0\ncached_input = 0.3\n'
                      'output = 15.0\n')
    with running_proxy(upstream, tmp_path / "s.sqlite", pricing=prices) as (_, url, store), \
            httpx.Client(base_url=url, timeout=30) as client:
        gemini = client.post("/v1/models/gemini-2.5-flash:generateContent",
                             json={"contents": [{"role": "user", "parts": [{"text": "price this " * 40}]}]}).json()
        converse = client.post("/v1/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse",
                               json={"messages": [{"role": "user", "content": [{"text": "price this " * 40}]}]}).json()
        first, second = store.records()
    meta = gemini["usageMetadata"]
    assert (first.model, first.input_tokens, first.cached_tokens, first.output_tokens) == (
        "gemini-2.5-flash", meta["promptTokenCount"], meta["cachedContentTokenCount"],
        meta["candidatesTokenCount"] + meta["thoughtsTokenCount"])
    fresh = meta["promptTokenCount"] - meta["cachedContentTokenCount"]
    assert first.cost_usd == pytest.approx((fresh * 0.3 + meta["cachedContentTokenCount"] * 0.075
                                            + first.output_tokens * 2.5) / 1e6)
    usage = converse["usage"]
    assert (second.model, second.input_tokens, second.cached_tokens, second.output_tokens) == (
        "anthropic.claude-3-5-sonnet-20240620-v1:0", usage["inputTokens"] + usage["cacheReadInputTokens"],
        usage["cacheReadInputTokens"], usage["outputTokens"])
    assert second.cost_usd == pytest.approx((usage["inputTokens"] * 3.0 + usage["cacheReadInputTokens"] * 0.3
                                             + usage["outputTokens"] * 15.0) / 1e6)


def _gemini_stream(client: httpx.Client, sse: bool, text: str) -> list[dict]:
    """Gemini's streamGenerateContent through the proxy, as its SDK reads it: the chunks the client got."""
    body = {"contents": [{"role": "user", "parts": [{"text": text}]}]}
    path = "/v1/models/gemini-2.5-flash:streamGenerateContent" + ("?alt=sse" if sse else "")
    with client.stream("POST", path, json=body) as response:
        assert response.status_code == 200
        if not sse:
            return json.loads(response.read())
        return [json.loads(line[6:]) for line in response.iter_lines() if line.startswith("data: ")]


@pytest.mark.parametrize("sse", [True, False], ids=["sse", "json-array"])
def test_gemini_streamed_answers_are_relayed_whole_counted_and_priced(standin, tmp_path, sse):
    """Gemini streams by path (`:streamGenerateContent`), with no end marker, as SSE (`alt=sse`) or one JSON
    array. Before: the SSE stream was recorded as an error ("closed before its end marker") with an OpenAI
    error event added at its end for the client's SDK to choke on, and its text as the last chunk's only;
    the array was recorded as "not a JSON object", with no tokens and no cost."""
    _, upstream = standin
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."gemini-2.5-flash"]\ninput = 0.3\ncached_input = 0.075\noutput = 2.5\n')
    with running_proxy(upstream, tmp_path / "s.sqlite", pricing=prices) as (_, url, store), \
            httpx.Client(base_url=url, timeout=30) as client:
        chunks = _gemini_stream(client, sse, "summarise the quarterly numbers, please")
        [record] = wait_for_records(store, 1)
    assert all("error" not in c and c["candidates"] for c in chunks) and len(chunks) > 3
    text = "".join(p["text"] for c in chunks for p in c["candidates"][0]["content"]["parts"])
    meta = chunks[-1]["usageMetadata"]  # Gemini's counts run: the last chunk's are the answer's
    assert record.error is None and record.stream is True and record.model == "gemini-2.5-flash"
    assert record.response["candidates"][0]["content"]["parts"] == [{"text": text}]
    assert (record.input_tokens, record.cached_tokens, record.output_tokens) == (
        meta["promptTokenCount"], meta["cachedContentTokenCount"],
        meta["candidatesTokenCount"] + meta["thoughtsTokenCount"])
    fresh = meta["promptTokenCount"] - meta["cachedContentTokenCount"]
    assert record.cost_usd == pytest.approx((fresh * 0.3 + meta["cachedContentTokenCount"] * 0.075
                                             + record.output_tokens * 2.5) / 1e6)


def test_a_store_of_gemini_calls_is_audited_by_the_log_audit(standin, tmp_path):
    """`ec2audit audit cloud.sqlite` on what the proxy recorded of Gemini calls (observe mode). Before: each record
    was skipped, "no request body: expected 'messages' or 'input'" (the store's reader guessed the API from the
    body's shape, not the one the proxy served it as): 0 calls, nothing leaked. By hand: two calls, the cost
    the proxy priced each at, the phone and the ID sent in the first."""
    _, upstream = standin
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."gemini-2.5-flash"]\ninput = 0.3\ncached_input = 0.075\noutput = 2.5\n')
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps({"task_id": u.task_id, "entity_id": u.entity_id, "field": u.field,
                                         "value": u.value, "dimension": u.dimension}) + "\n" for u in UNITS))
    with running_proxy(upstream, tmp_path / "cloud.sqlite", pricing=prices) as (_, url, store), \
            httpx.Client(base_url=url, timeout=30) as client:
        _gemini_stream(client, True, SECRET_TEXT)
        client.post("/e/ep-g/v1/models/gemini-2.5-flash:generateContent",
                    json={"contents": [{"role": "user", "parts": [{"text": "what is new today?"}]}]})
        records = wait_for_records(store, 2)
    result = CliRunner().invoke(main, ["audit", str(tmp_path / "cloud.sqlite"), "--units", str(units), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    [provider] = summary["providers"]
    assert (summary["calls"], provider["model"], provider["calls"]) == (2, "gemini-2.5-flash", 2)
    assert provider["cost_usd"] == pytest.approx(sum(r.cost_usd for r in records)) and provider["cost_usd"] > 0
    leaked = {u["unit_id"] for u in summary["leaked"]}
    assert leaked >= {"t1/P1/phone", "t1/P1/national_id"}


@pytest.mark.parametrize("sse", [True, False], ids=["sse", "json-array"])
def test_gemini_streamed_text_is_restored_across_chunks(standin, tmp_path, sse):
    """Redaction: the echo of a redacted value comes back in 3-character chunks, so its placeholder is cut
    across them; the client gets the real values back whole, the cloud never saw them."""
    app, upstream = standin
    with enforcing_client(upstream, tmp_path, UNITS, "redact") as (client, _store):
        chunks = _gemini_stream(client, sse, SECRET_TEXT)
    text = "".join(p["text"] for c in chunks for p in c["candidates"][0]["content"]["parts"])
    assert SECRET_TEXT in text and not PLACEHOLDER.search(text)
    assert _leaks(app.state.requests[-1]["body"]) == []


# --- redaction and blocking ---------------------------------------------------------------------

def _leaks(body) -> list[str]:
    text = json.dumps(body, ensure_ascii=False)
    return [u.value for u in UNITS if u.value in text] + (["phone digits"] if "2288-3366" in text else [])


def _tool_args(url: str, api: str, stream: bool, episode: str) -> str:
    """The `send` tool call's arguments as the client receives them, through each API."""
    client = _client(url, episode=episode)
    if api == "chat":
        messages = [{"role": "user", "content": SECRET_TEXT}]
        if not stream:
            answer = client.chat.completions.create(model="tool-echo", messages=messages)
            return answer.choices[0].message.tool_calls[0].function.arguments
        chunks = client.chat.completions.create(model="tool-echo", messages=messages, stream=True)
        return "".join(tc.function.arguments or "" for c in chunks if c.choices
                       for tc in c.choices[0].delta.tool_calls or [])
    if api == "responses":
        events = client.responses.create(model="tool-echo", input=SECRET_TEXT, stream=True)
        return "".join(e.delta for e in events if e.type == "response.function_call_arguments.delta")
    body = {"model": "tool-echo", "max_tokens": 100, "stream": True,
            "messages": [{"role": "user", "content": SECRET_TEXT}]}
    return _anthropic_stream(f"{url}/e/{episode}", body)[1]


@pytest.mark.parametrize("api,stream", [("chat", True), ("chat", False), ("responses", True), ("anthropic", True)])
def test_redaction_round_trip_in_tool_call_arguments(standin, tmp_path, api, stream):
    app, upstream = standin
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, store):
        first = _tool_args(url, api, stream, episode=f"ep-{api}")
        second = _tool_args(url, api, stream, episode=f"ep-{api}")
        records = store.records()
    sent = [r["body"] for r in app.state.requests[seen:]]
    assert _leaks(sent) == []  # the cloud saw none of the values…
    placeholders = [sorted(set(PLACEHOLDER.findall(json.dumps(b, ensure_ascii=False)))) for b in sent]
    assert len(placeholders[0]) == 3 and placeholders[0] == placeholders[1]  # …stable within the episode
    assert json.loads(first) == {"text": SECRET_TEXT} == json.loads(second)  # …and the agent got them back
    assert all(r.redactions == 3 and {f["unit_id"] for f in r.findings} == {u.id for u in UNITS}
               for r in records)
    assert _leaks([r.request for r in records]) == []  # the record holds what reached the cloud


def test_block_refuses_with_unit_ids_not_values(standin, tmp_path):
    app, upstream = standin
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="block") as (_, url, store):
        client = _client(url)
        with pytest.raises(openai.PermissionDeniedError) as refused:
            client.chat.completions.create(model="echo", messages=[{"role": "user", "content": SECRET_TEXT}])
        client.chat.completions.create(model="echo", messages=[{"role": "user", "content": "nothing private"}])
        blocked, passed = store.records()
    message = refused.value.message
    assert all(u.id in message for u in UNITS) and _leaks(refused.value.body) == []
    assert len(app.state.requests) == seen + 1 and _leaks(app.state.requests[-1]["body"]) == []
    assert blocked.status == 403 and "t1/P1/phone" in blocked.error and len(blocked.findings) >= 3
    assert passed.status == 200 and passed.findings == []


@pytest.mark.parametrize("keep", [False, True])
def test_observe_mode_stores_inline_findings_evidence_masked_unless_kept(standin, tmp_path, keep):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, keep_evidence=keep) as (_, url, store):
        list(_client(url).chat.completions.create(
            model="echo", messages=[{"role": "user", "content": SECRET_TEXT}], stream=True))
        [record] = store.records()
    found = {f["unit_id"]: f for f in record.findings}
    assert set(found) == {u.id for u in UNITS}
    assert found["t1/P1/phone"]["matched_text"] == ("139-2288-3366" if keep else "###-####-####")
    assert record.redactions == 0 and "139-2288-3366" in record.request["messages"][0]["content"]


def test_redaction_restores_streamed_text(standin, tmp_path):
    app, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, _store):
        chunks = list(_client(url).chat.completions.create(
            model="echo", messages=[{"role": "user", "content": SECRET_TEXT}], stream=True))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert SECRET_TEXT in text and not PLACEHOLDER.search(text)
    assert _leaks(app.state.requests[-1]["body"]) == []


def test_price_table_tiers_and_usage_shapes():
    from ec2audit.intercept.pricing import price

    small = {"prompt_tokens": 100_000, "completion_tokens": 1_000, "prompt_tokens_details": {"cached_tokens": 40_000}}
    assert price("gpt-5.4", small) == pytest.approx((60_000 * 2.5 + 40_000 * 0.25 + 1_000 * 15) / 1e6)
    large = {"input_tokens": 300_000, "output_tokens": 2_000, "input_tokens_details": {"cached_tokens": 0},
             "total_tokens": 302_000}  # Responses API shape, above the 272K tier
    assert price("openai/gpt-5.4-2026-03-05", large) == pytest.approx((300_000 * 5.0 + 2_000 * 22.5) / 1e6)
    anthropic = {"input_tokens": 10, "cache_read_input_tokens": 1_000, "output_tokens": 5}
    assert price("gpt-5.4", anthropic) == pytest.approx((10 * 2.5 + 1_000 * 0.25 + 5 * 15) / 1e6)
    assert price("unpriced-model", small) is None


def test_upstream_is_reached_through_the_environment_proxy(standin, tmp_path, monkeypatch):
    """HTTP(S)_PROXY / NO_PROXY apply to the upstream leg as they would for any client on the host."""
    app, upstream = standin
    monkeypatch.setenv("HTTP_PROXY", upstream.removesuffix("/v1"))  # the stand-in answers proxied requests too
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")  # the agent's own leg to the interceptor is direct
    for name in ("http_proxy", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    seen = len(app.state.requests)
    with running_proxy("http://cloud.invalid/v1", tmp_path / "s.sqlite") as (_, url, store):
        answer = _client(url).chat.completions.create(model="echo", messages=[{"role": "user", "content": "via"}])
        [record] = store.records()
    assert answer.choices[0].message.content == record.response["choices"][0]["message"]["content"]
    assert len(app.state.requests) == seen + 1 and app.state.requests[-1]["headers"]["host"] == "cloud.invalid"


def test_untagged_requests_never_share_placeholders(standin, tmp_path):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, store):
        client = _client(url, episode=None)
        client.chat.completions.create(model="echo", messages=[{"role": "user", "content": SECRET_TEXT}])
        placeholder = sorted(PLACEHOLDER.findall(json.dumps(store.records()[0].request, ensure_ascii=False)))[0]
        other = client.chat.completions.create(model="echo", messages=[{"role": "user",
                                                                       "content": f"repeat {placeholder}"}])
    assert other.choices[0].message.content == f"echo: repeat {placeholder}"  # not another client's value


def test_every_field_is_inspected_in_block_mode(standin, tmp_path):
    """`user`, `metadata`, tool descriptions and schemas, and values under protocol-looking keys inside
    tool arguments are all payload."""
    app, upstream = standin
    seen = len(app.state.requests)
    bodies = [
        {"user": "13922883366"}, {"metadata": {"note": "欧阳娜娜"}},
        {"tools": [{"type": "function", "function": {"name": "send", "description": "call 139-2288-3366"}}]},
        {"tools": [{"type": "function", "function": {"name": "send", "parameters": {
            "type": "object", "properties": {"id": {"default": "110105198803153418"}}}}}]},
        {"messages": [{"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "send", "arguments": json.dumps({"id": "110105198803153418", "role": "欧阳娜娜"})}}]}]},
    ]
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="block") as (_, url, store):
        client = _client(url)
        for extra in bodies:
            with pytest.raises(openai.PermissionDeniedError):
                client.chat.completions.create(**{"model": "echo", "messages": [{"role": "user", "content": "hi"}],
                                                  **extra})
        records = store.records()
    assert len(app.state.requests) == seen and [r.status for r in records] == [403] * len(bodies)
    assert all(f["path"] for r in records for f in r.findings)


def test_prices_of_the_major_providers_from_litellm_and_null_for_unknown():
    from ec2audit.intercept.pricing import Pricing
    from ec2audit.intercept.usage import Usage

    million = Usage(input=1_000_000, output=1_000_000)
    pricing = Pricing()
    assert pricing.price("claude-sonnet-4-5", million) == pytest.approx(3.0 + 15.0)  # Anthropic's list price
    assert pricing.price("claude-sonnet-4-5-20250929", million) == pytest.approx(18.0)
    assert pricing.price("gpt-4.1", million) == pytest.approx(2.0 + 8.0)
    assert pricing.price("gemini-2.5-pro", million) == pytest.approx(2.5 + 15.0)  # its tier above 200K prompt
    assert pricing.price("deepseek-chat", million) is not None
    assert Pricing(upstream="https://dashscope-intl.aliyuncs.com/compatible-mode/v1").price("qwen-max", million)
    assert pricing.price("qwen-max", million) is None  # a bare name is looked up at its maker only
    assert pricing.price("gpt-5.4", million) == pytest.approx(5.0 + 22.5)  # the packaged AceBench table first
    assert pricing.price("claude-sonnet-9", million) is None and pricing.price("gpt-5.4-turbo", million) is None
