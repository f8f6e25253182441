"""Session 23, twelfth walk: figures a new user reads off `audit`, `report` and `intercept` on inputs written here
as other tools write theirs (OpenAI Batch API files, OpenRouter's usage accounting through the proxy, …), each
checked against a count made by hand."""

import json
from pathlib import Path

import pytest
from test_new_user_walk_7 import _cli
from test_new_user_walk_11 import _units


def _lines(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _batch_request(custom_id: str, model: str, text: str) -> dict:
    """One line of a Batch API input file, as OpenAI's guide writes it."""
    return {"custom_id": custom_id, "method": "POST", "url": "/v1/chat/completions",
            "body": {"model": model, "messages": [{"role": "system", "content": "You are a helpful assistant."},
                                                  {"role": "user", "content": text}], "max_tokens": 1000}}


def _batch_answer(custom_id: str, model: str, prompt: int, completion: int) -> dict:
    """One line of a batch's output file, as OpenAI writes it (`response.body` a whole Chat Completion)."""
    return {"id": f"batch_req_{custom_id}", "custom_id": custom_id, "error": None, "response": {
        "status_code": 200, "request_id": f"req_{custom_id}", "body": {
            "id": f"chatcmpl-{custom_id}", "object": "chat.completion", "created": 1711652795, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "Done."}, "logprobs": None,
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
            "system_fingerprint": "fp_3ba"}}}


def test_a_batch_input_and_its_output_files_are_one_batchs_calls_at_the_batch_rates(tmp_path):
    """A Batch API job of gpt-4o-mini as its user downloads it: the input file (3 requests, the leak in
    `request-1`), the output file (answers to `request-2` then `request-1`, out of order as batches write them)
    and the error file (`request-3` failed: `response` null). By hand at LiteLLM's batch prices ($0.075 / $0.30
    per million, half the standard $0.15 / $0.60): request-1 1,000,000 in, 200,000 out = $0.075 + $0.06; request-2
    22 in, 2 out = $0.00000165 + $0.0000006; request-3 nothing billed: 3 calls, 1,000,022 in, 200,002 out,
    $0.13500225. Before: the output and error files were `not a known log format` and the input's 2 calls…
    3 calls had `unknown: no usage logged`."""
    folder = tmp_path / "batch_abc123"
    folder.mkdir()
    model = "gpt-4o-mini"
    _lines(folder / "batchinput.jsonl", [
        _batch_request("request-1", model, "Draft a reply to maria.kessler@example.com about her claim."),
        _batch_request("request-2", model, "Hello world!"), _batch_request("request-3", model, "Hello again.")])
    _lines(folder / "batch_abc123_output.jsonl", [_batch_answer("request-2", "gpt-4o-mini-2024-07-18", 22, 2),
                                                   _batch_answer("request-1", "gpt-4o-mini-2024-07-18", 10**6,
                                                                 200_000)])
    _lines(folder / "batch_abc123_error.jsonl", [{"id": "batch_req_3", "custom_id": "request-3", "response": None,
                                                  "error": {"code": "invalid_request", "message": "Bad request."}}])
    code, output = _cli("audit", folder, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    data = json.loads(output[output.index("{\n"):])
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (3, 1_000_022, 200_002)
    assert provider["cost_usd"] == pytest.approx(0.13500225)
    session, = data["sessions"]
    assert session["leaked"] == 1


def test_a_batch_output_line_cut_short_is_named_and_the_other_answers_kept(tmp_path):
    """An output file with a line cut short and a line that is no JSON object (an answer wrapped in a list): each
    is named with its file and line (before, the list was dropped unsaid), exit 1, and the first answer still
    counts: 2 calls, request-2's 22 in / 2 out and request-1's uncounted (it has no answer), so the tokens and the cost
    are unknown, not 22 / 2 and $0 (walk 19)."""
    folder = tmp_path / "batch_cut"
    folder.mkdir()
    _lines(folder / "batchinput.jsonl", [_batch_request("request-1", "gpt-4o-mini", "Hello world!"),
                                         _batch_request("request-2", "gpt-4o-mini", "Hello again.")])
    output = folder / "batch_cut_output.jsonl"
    _lines(output, [_batch_answer("request-2", "gpt-4o-mini-2024-07-18", 22, 2)])
    with output.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(_batch_answer("request-1", "gpt-4o-mini-2024-07-18", 10, 1))[:40] + "\n")
        handle.write(json.dumps([_batch_answer("request-1", "gpt-4o-mini-2024-07-18", 10, 1)]) + "\n")
    code, said = _cli("audit", folder, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 1 and f"{output}:2: not valid JSON" in said and f"{output}:3: expected a JSON object" in said, said
    data = json.loads(said[said.index("{\n"):])
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (2, None, None)
    assert provider["cost_usd"] is None and provider["unpriced_calls"] == 1


def test_a_batch_of_a_model_without_batch_prices_costs_unknown_not_the_standard_rate(tmp_path):
    """gpt-3.5-turbo through the Batch API: LiteLLM's map has no batch price for it, so its cost is `unknown: no
    price for the model at the batch tier`, not the standard $0.0007 (1,000 × $0.5 + 100 × $1.5 per million)."""
    _lines(tmp_path / "input.jsonl", [_batch_request("r1", "gpt-3.5-turbo", "Email maria.kessler@example.com")])
    _lines(tmp_path / "output.jsonl", [_batch_answer("r1", "gpt-3.5-turbo-0125", 1000, 100)])
    code, output = _cli("audit", tmp_path / "input.jsonl", tmp_path / "output.jsonl",
                        "--units", _units(tmp_path / "units.jsonl"))
    assert code == 0, output
    assert "unknown: no price for the model at the batch tier" in " ".join(output.split())


def test_the_cost_openrouter_states_is_the_cost_the_proxy_records(standin, tmp_path):
    """`intercept serve` in front of the stand-in, two Chat calls asking OpenRouter's usage accounting (`usage:
    {"include": true}`), one whole and one streamed (its cost in the last event, as OpenRouter sends it): each
    record's cost is the `usage.cost` the answer stated, whatever gpt-4o-mini's list price ($0.15 / $0.60 per
    million) would make of its tokens; the same rule as the log audit (walk 11). Before: the list price."""
    import httpx
    from intercept_helpers import running_proxy

    _, upstream = standin
    request = {"model": "openai/gpt-4o-mini", "usage": {"include": True},
               "messages": [{"role": "user", "content": "Summarise the claim of Will Hartley, please."}]}
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store), \
            httpx.Client(base_url=url, timeout=30) as client:
        whole = client.post("/v1/chat/completions", json=request).json()["usage"]
        events = [json.loads(line[5:]) for line in client.post("/v1/chat/completions", json={
            **request, "stream": True}).text.splitlines() if line.startswith("data: {")]
        streamed = next(e["usage"] for e in events if e.get("usage"))
        records = sorted(store.records(), key=lambda r: r.ts)
    listed = (whole["prompt_tokens"] * 0.15 + whole["completion_tokens"] * 0.60) / 1e6
    assert whole["cost"] != pytest.approx(listed)  # the bill is not the list price: the test tells them apart
    assert [r.cost_usd for r in records] == [pytest.approx(whole["cost"]), pytest.approx(streamed["cost"])]


def test_an_anthropic_message_batchs_results_are_its_requests_calls_at_claudes_batch_rates(tmp_path):
    """Anthropic's Message Batches: the requests one per line (`{"custom_id", "params"}`) and the results file as
    the API streams it (`result.type` `succeeded` with its message, or `errored`, which is not billed). By hand at
    LiteLLM's batch prices of claude-sonnet-4-5 ($1.50 in, $0.15 cache read, $7.50 out per million, half the
    standard): 2,000 × 1.5 + 10,000 × 0.15 + 500 × 7.5 = $0.00825 for the first; $0 for the errored one; 2 calls,
    12,000 tokens in. Before: neither file was a known log format."""
    params = {"model": "claude-sonnet-4-5-20250929", "max_tokens": 1024}
    folder = tmp_path / "batch"
    folder.mkdir()
    _lines(folder / "requests.jsonl", [
        {"custom_id": "claim-1", "params": {**params, "messages": [
            {"role": "user", "content": "Summarise the claim of maria.kessler@example.com."}]}},
        {"custom_id": "claim-2", "params": {**params, "messages": [{"role": "user", "content": "Hello, world"}]}}])
    message = {"id": "msg_014VwiXbi91y3JMjcpyGBHX5", "type": "message", "role": "assistant",
               "model": "claude-sonnet-4-5-20250929", "content": [{"type": "text", "text": "The claim is…"}],
               "stop_reason": "end_turn", "stop_sequence": None,
               "usage": {"input_tokens": 2000, "cache_read_input_tokens": 10000, "cache_creation_input_tokens": 0,
                         "output_tokens": 500}}
    _lines(folder / "msgbatch_013Zva2CMHLNnXjNJJKqJ2EF_results.jsonl", [
        {"custom_id": "claim-2", "result": {"type": "errored", "error": {"type": "error", "error": {
            "type": "invalid_request_error", "message": "max_tokens: Field required"}}}},
        {"custom_id": "claim-1", "result": {"type": "succeeded", "message": message}}])
    code, output = _cli("audit", folder, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    data = json.loads(output[output.index("{\n"):])
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["cost_usd"]) == (2, 12_000, pytest.approx(0.00825))
    assert [s["leaked"] for s in data["sessions"]] == [1]


def _har(path: Path, entries: list[tuple[dict, str]]) -> Path:
    """A HAR as a browser's or mitmproxy's export writes it: each (request body, streamed answer's text) a POST to
    Anthropic's Messages API."""
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "mitmproxy", "version": "11.0"},
                                        "entries": [{
        "startedDateTime": f"2026-03-0{n}T10:00:00.000Z", "time": 900,
        "request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "httpVersion": "HTTP/1.1",
                    "headers": [], "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
        "response": {"status": 200, "statusText": "OK", "headers": [],
                     "content": {"mimeType": "text/event-stream", "text": text}}}
        for n, (body, text) in enumerate(entries, start=1)]}}), encoding="utf-8")
    return path


def _anthropic_stream(output: int, ended: bool) -> str:
    """An Anthropic Messages stream of claude-sonnet-4-5 (1,000 tokens in): `message_start` counts 1 output token,
    `message_delta` the final count; a stream cut short stops after a text delta."""
    def event(kind: str, data: dict) -> str:
        return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"

    text = event("message_start", {"message": {
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929", "content": [],
        "stop_reason": None, "usage": {"input_tokens": 1000, "output_tokens": 1}}}) + event(
        "content_block_start", {"index": 0, "content_block": {"type": "text", "text": ""}}) + event(
        "content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": "The claim"}})
    if ended:
        text += event("content_block_stop", {"index": 0}) + event(
            "message_delta", {"delta": {"stop_reason": "end_turn", "stop_sequence": None},
                              "usage": {"output_tokens": output}}) + event("message_stop", {})
    return text


def test_a_stream_cut_short_in_a_har_has_an_unknown_cost_not_its_first_events_price(tmp_path):
    """A HAR of two Claude calls streamed: one whole (1,000 in, 400 out: 1,000 × $3 + 400 × $15 per million =
    $0.009), one the user stopped after its first words (`message_start` counted 1 output token; the provider bills
    what it made before it stopped). By hand: the session's cost is unknown, `unknown: 1 of 2 unpriced`, its
    tokens 2,000 in as logged. Before: $0.009 + $0.003015 = $0.012015, as if the cut call had made one token."""
    body = {"model": "claude-sonnet-4-5-20250929", "max_tokens": 1024, "stream": True,
            "messages": [{"role": "user", "content": "Summarise the claim of maria.kessler@example.com."}]}
    har = _har(tmp_path / "claude.har", [(body, _anthropic_stream(400, ended=True)),
                                          (body, _anthropic_stream(0, ended=False))])
    code, output = _cli("audit", har, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    provider, = json.loads(output[output.index("{\n"):])["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["cost_usd"]) == (2, 2000, None)
    assert provider["unpriced_calls"] == 1
    code, output = _cli("audit", har, "--units", tmp_path / "units.jsonl")
    assert "unknown: 1 of 2 unpriced" in " ".join(output.split())


def test_a_cline_tasks_calls_carry_the_tokens_and_cost_its_ui_messages_logged(tmp_path):
    """A Cline task folder as the extension leaves it: `api_conversation_history.json` (two requests, the leak in
    the task), `ui_messages.json` (each request's `api_req_started`: 3 in + 12,000 written to the cache, 120 out,
    $0.046809; then 4 in + 300 written + 12,000 read, 80 out, $0.005937, Claude Sonnet 4's rates: 3 × 3 + 120 × 15
    + 12,000 × 3.75 and 4 × 3 + 80 × 15 + 300 × 3.75 + 12,000 × 0.3, per million) and `task_metadata.json` (the
    model). By hand: 2 calls of claude-sonnet-4-20250514, 24,307 tokens in, 200 out, $0.052746, the task's id as
    the session, every file read. Before: `ui_messages.json` and `task_metadata.json` were `not a known log
    format` (exit 1), the calls `unknown: no usage logged` under `?/?`, the session `api_conversation_history`."""
    task = tmp_path / "saoudrizwan.claude-dev" / "tasks" / "1733412345678"
    task.mkdir(parents=True)
    (task / "api_conversation_history.json").write_text(json.dumps([
        {"role": "user", "content": [
            {"type": "text", "text": "<task>\nEmail maria.kessler@example.com the claim summary\n</task>"},
            {"type": "text", "text": "<environment_details>\n# VSCode Visible Files\nclaim.md\n"
                                     "</environment_details>"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "<thinking>I should read the file.</thinking>\n\n"
                                                                     "<read_file>\n<path>claim.md</path>\n</read_file>"}]},
        {"role": "user", "content": [{"type": "text", "text": "[read_file for 'claim.md'] Result:"},
                                     {"type": "text", "text": "Claim 4411, filed 2024-11-02."}]},
        {"role": "assistant", "content": [{"type": "text", "text": "<attempt_completion>\n<result>Sent.</result>\n"
                                                                     "</attempt_completion>"}]}]), encoding="utf-8")

    def started(ts: int, tokens_in: int, out: int, writes: int, reads: int, cost: float) -> dict:
        return {"ts": ts, "type": "say", "say": "api_req_started", "text": json.dumps({
            "request": "<task>…</task>", "tokensIn": tokens_in, "tokensOut": out, "cacheWrites": writes,
            "cacheReads": reads, "cost": cost})}

    said = {"type": "say", "say": "text", "text": "Email maria.kessler@example.com the claim summary"}
    tool = {"type": "say", "say": "tool", "text": json.dumps({"tool": "readFile", "path": "claim.md"})}
    (task / "ui_messages.json").write_text(json.dumps([
        {"ts": 1733412345678, **said}, started(1733412345700, 3, 120, 12000, 0, 0.046809),
        {"ts": 1733412347000, **tool},
        started(1733412349000, 4, 80, 300, 12000, 0.005937),
        {"ts": 1733412351000, "type": "say", "say": "completion_result", "text": "Sent."}]), encoding="utf-8")
    (task / "task_metadata.json").write_text(json.dumps({"files_in_context": [], "model_usage": [
        {"ts": 1733412345690, "model_id": "claude-sonnet-4-20250514", "model_provider_id": "anthropic",
         "mode": "act"}]}), encoding="utf-8")
    code, output = _cli("audit", tmp_path / "saoudrizwan.claude-dev", "--units", _units(tmp_path / "units.jsonl"),
                        "--json")
    assert code == 0, output
    data = json.loads(output[output.index("{\n"):])
    provider, = data["providers"]
    assert (provider["model"], provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (
        "claude-sonnet-4-20250514", 2, 24_307, 200)
    assert provider["cost_usd"] == pytest.approx(0.052746)
    assert [(s["session"], s["leaked"]) for s in data["sessions"]] == [("1733412345678", 1)]


def test_an_ollama_calls_tokens_are_its_prompt_and_eval_counts(tmp_path):
    """A request log of an agent that asks a local Ollama (`/api/chat`, its native answer: the counts beside the
    message, `prompt_eval_count` 26 and `eval_count` 282, as Ollama's API docs show them) before a cloud model. By
    hand: the edge row has 26 tokens in and 282 out. Before: 0 and 0 (its counts were read from `usage` only)."""
    log = tmp_path / "requests.jsonl"
    _lines(log, [{"url": "http://localhost:11434/api/chat", "session_id": "o1", "request": {
        "model": "llama3.1:8b", "stream": False,
        "messages": [{"role": "user", "content": "Email maria.kessler@example.com"}]}, "response": {
        "model": "llama3.1:8b", "created_at": "2024-07-22T20:33:28.123Z", "done": True, "done_reason": "stop",
        "message": {"role": "assistant", "content": "Sure."}, "total_duration": 4883583458,
        "load_duration": 1334875, "prompt_eval_count": 26, "prompt_eval_duration": 342546000, "eval_count": 282,
        "eval_duration": 4535599000}}])
    code, output = _cli("audit", log, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    edge, = [p for p in json.loads(output[output.index("{\n"):])["providers"] if p["side"] == "edge"]
    assert (edge["model"], edge["input_tokens"], edge["output_tokens"]) == ("llama3.1:8b", 26, 282)


def test_a_bedrock_batch_inference_output_is_read_whole_and_its_input_beside_it_not_again(tmp_path):
    """Bedrock batch inference as its job leaves it in S3, downloaded: the input `claims.jsonl` (`{"recordId",
    "modelInput"}` lines, Claude's Messages body) and the output `claims.jsonl.out` (each line the input with its
    `modelOutput`, or its `error`). By hand at LiteLLM's batch prices of claude-sonnet-4-5 ($1.50 / $7.50 per
    million): 2,000 × 1.5 + 300 × 7.5 = $0.00525 for CALL01, $0 for CALL02 (not billed): 2 calls, not 4, 2,000
    tokens in. Before: neither file was a known log format."""
    def line(record_id: str, text: str) -> dict:
        return {"recordId": record_id, "modelInput": {"anthropic_version": "bedrock-2023-05-31", "max_tokens": 1024,
                                                      "messages": [{"role": "user", "content": text}]}}

    folder = tmp_path / "job-0a1b2c3d"
    folder.mkdir()
    sent = [line("CALL01", "Summarise the claim of maria.kessler@example.com."), line("CALL02", "Hello")]
    _lines(folder / "claims.jsonl", sent)
    _lines(folder / "claims.jsonl.out", [
        {**sent[0], "modelOutput": {"id": "msg_bdrk_01", "type": "message", "role": "assistant",
                                    "model": "claude-sonnet-4-5-20250929", "content": [{"type": "text", "text": "…"}],
                                    "stop_reason": "end_turn", "stop_sequence": None,
                                    "usage": {"input_tokens": 2000, "output_tokens": 300}}},
        {**sent[1], "error": {"errorCode": 400, "errorMessage": "Malformed input request"}}])
    code, output = _cli("audit", folder, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    data = json.loads(output[output.index("{\n"):])
    calls = sum(p["calls"] for p in data["providers"])
    tokens = sum(p["input_tokens"] or 0 for p in data["providers"])
    costs = [p["cost_usd"] for p in data["providers"]]
    assert (calls, tokens) == (2, 2000)
    assert sum(costs) == pytest.approx(0.00525)
    assert [s["leaked"] for s in data["sessions"]] == [1]


def test_gemini_batch_mode_and_vertex_batch_prediction_outputs_are_priced_at_geminis_batch_rates(tmp_path):
    """Gemini's Batch Mode as its docs show it (`{"key", "request"}` lines in, `{"key", "response"}` out) and a
    Vertex AI batch prediction's output (each line `status`, `processed_time`, `request`, `response`; the model
    `gemini-2.5-flash@default`). By hand at LiteLLM's batch prices of gemini-2.5-flash ($0.15 in, $1.25 out per
    million, half the standard): Batch Mode 10,000 in, 1,000 + 1,000 thought tokens out = $0.0015 + $0.0025 =
    $0.004; Vertex 29,180 in, 36 out = $0.004377 + $0.000045 = $0.004422. Before: Batch Mode's files were not a
    known log format; Vertex's was priced at the standard rates, $0.008844."""
    gemini, vertex = tmp_path / "gemini", tmp_path / "vertex"
    gemini.mkdir()
    vertex.mkdir()
    _lines(gemini / "batch_requests.jsonl", [{"key": "request-1", "request": {
        "contents": [{"parts": [{"text": "Summarise the claim of maria.kessler@example.com."}]}],
        "generation_config": {"temperature": 0.7}}}])
    _lines(gemini / "batch_results.jsonl", [{"key": "request-1", "response": {
        "candidates": [{"content": {"parts": [{"text": "The claim…"}], "role": "model"}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 10000, "candidatesTokenCount": 1000, "thoughtsTokenCount": 1000,
                          "totalTokenCount": 12000}, "modelVersion": "gemini-2.5-flash", "responseId": "b1"}}])
    _lines(vertex / "predictions.jsonl", [{
        "status": "", "processed_time": "2024-11-01T18:13:16.826+00:00",
        "request": {"contents": [{"role": "user", "parts": [{"text": "Is maria.kessler@example.com on file?"}]}]},
        "response": {"candidates": [{"content": {"parts": [{"text": "Yes."}], "role": "model"},
                                     "finishReason": "STOP", "avgLogprobs": -0.578}],
                     "modelVersion": "gemini-2.5-flash@default",
                     "usageMetadata": {"candidatesTokenCount": 36, "promptTokenCount": 29180,
                                       "totalTokenCount": 29216}}}])
    units = _units(tmp_path / "units.jsonl")
    for folder, usd in ((gemini, 0.004), (vertex, 0.004422)):
        code, output = _cli("audit", folder, "--units", units, "--json")
        assert code == 0, output
        data = json.loads(output[output.index("{\n"):])
        provider, = data["providers"]
        assert (provider["calls"], provider["cost_usd"]) == (1, pytest.approx(usd))
        assert [s["leaked"] for s in data["sessions"]] == [1]


def test_langfuses_reasoning_tokens_are_output_tokens(tmp_path):
    """A Langfuse observations export of an o3 generation as its OpenAI integration ingests the usage: `output`
    200 and `output_reasoning_tokens` 800, disjoint buckets (Langfuse's SDKs subtract each detail from `output`),
    `total` 2,000; self-hosted without a price for it (`calculatedTotalCost` 0). By hand: 1,000 in, 1,000 out,
    1,000 × $2 + 1,000 × $8 per million = $0.01. Before: 200 out, $0.0036."""
    export = tmp_path / "observations.json"
    export.write_text(json.dumps([{
        "id": "obs-1", "traceId": "tr-1", "type": "GENERATION", "name": "OpenAI-generation",
        "startTime": "2026-11-09T09:00:01.000Z", "endTime": "2026-11-09T09:00:09.000Z", "model": "o3",
        "input": [{"role": "user", "content": "Email maria.kessler@example.com the plan."}],
        "output": {"role": "assistant", "content": "Done."},
        "usageDetails": {"input": 1000, "output": 200, "output_reasoning_tokens": 800, "total": 2000},
        "costDetails": {}, "calculatedTotalCost": 0}], indent=1), encoding="utf-8")
    code, output = _cli("audit", export, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    provider, = json.loads(output[output.index("{\n"):])["providers"]
    assert (provider["input_tokens"], provider["output_tokens"]) == (1000, 1000)
    assert provider["cost_usd"] == pytest.approx(0.01)


def test_a_stream_a_request_log_keeps_as_its_text_is_read_for_its_usage(tmp_path):
    """A gateway's request log that keeps a streamed answer as the text it relayed (`response_body`: the SSE
    events of an OpenAI Chat stream asked with `include_usage`, its last chunk the usage: 1,000 in, 100 out). By
    hand at gpt-4o-mini's $0.15 / $0.60 per million: $0.00021. Before: the text was passed over, `unknown: no
    usage logged`."""
    chunk = {"id": "chatcmpl-9", "object": "chat.completion.chunk", "created": 1733412345, "model": "gpt-4o-mini"}
    events = [{**chunk, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Done."},
                                     "finish_reason": None}], "usage": None},
              {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": None},
              {**chunk, "choices": [], "usage": {"prompt_tokens": 1000, "completion_tokens": 100,
                                                 "total_tokens": 1100}}]
    log = _lines(tmp_path / "gateway.jsonl", [{
        "url": "https://api.openai.com/v1/chat/completions", "session_id": "s1", "status_code": 200,
        "request_body": {"model": "gpt-4o-mini", "stream": True, "stream_options": {"include_usage": True},
                         "messages": [{"role": "user", "content": "Email maria.kessler@example.com"}]},
        "response_body": "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"}])
    code, output = _cli("audit", log, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    provider, = json.loads(output[output.index("{\n"):])["providers"]
    assert (provider["input_tokens"], provider["output_tokens"]) == (1000, 100)
    assert provider["cost_usd"] == pytest.approx(0.00021)
