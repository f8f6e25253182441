"""Session 24, fourteenth walk: figures a new user reads off `audit` and `intercept serve` on inputs written here
as other tools write theirs (OpenAI Batch API files downloaded into two folders, Cline task folders, the proxy run
from a script, Vercel AI SDK spans, Together and Fireworks request logs, Codex `--oss` rollouts, Langfuse API
pages, Inspect evals of a local model), each checked against a count made by hand."""

import json
import os
import signal
import threading

import pytest
from test_logs_otel_coverage import _span
from test_new_user_walk import _openclaw
from test_new_user_walk_7 import _cli
from test_new_user_walk_9 import _codex_line, _token_count
from test_new_user_walk_11 import _units
from test_new_user_walk_12 import _batch_answer, _batch_request, _lines


def _audited(*args) -> tuple[int, str, dict]:
    code, output = _cli("audit", *args, "--json")
    return code, output, json.loads(output[output.index("{\n"):])


def _audited_spans(tmp_path, *spans: dict) -> tuple[int, str, dict]:
    """`audit --json` of an OTLP JSON trace holding the Vercel AI SDK's `ai` spans, against walk 11's units."""
    trace = tmp_path / "traces.json"
    trace.write_text(json.dumps({"resourceSpans": [{"resource": {}, "scopeSpans": [
        {"scope": {"name": "ai"}, "spans": list(spans)}]}]}), encoding="utf-8")
    return _audited(trace, "--units", _units(tmp_path / "units.jsonl"))


def test_a_batchs_input_and_output_in_two_folders_are_paired_and_a_lone_output_is_named(tmp_path):
    """A Batch API job of gpt-4o-mini: its input file uploaded from `requests/`, its output downloaded with the
    OpenAI SDK into `results/` under the batch's id alone (`batch_abc123`, no suffix). By hand at the batch
    prices ($0.075 / $0.30 per million): request-1 1,000,000 in, 200,000 out = $0.075 + $0.06; request-2 22 in,
    2 out = $0.00000165 + $0.0000006: 2 calls, 1,000,022 in, 200,002 out, $0.13500225, the leak in request-1
    scored, exit 0. Audited alone, the output is named (its input not among the files audited) and its calls
    still counted. Before: the output was read as an input file (each line `no request body`) and the input's
    calls had no usage."""
    (tmp_path / "requests").mkdir()
    (tmp_path / "results").mkdir()
    _lines(tmp_path / "requests" / "batchinput.jsonl", [
        _batch_request("request-1", "gpt-4o-mini", "Draft a reply to maria.kessler@example.com about her claim."),
        _batch_request("request-2", "gpt-4o-mini", "Hello world!")])
    output = _lines(tmp_path / "results" / "batch_abc123", [
        _batch_answer("request-2", "gpt-4o-mini-2024-07-18", 22, 2),
        _batch_answer("request-1", "gpt-4o-mini-2024-07-18", 10**6, 200_000)])
    units = _units(tmp_path / "units.jsonl")
    code, said, data = _audited(tmp_path / "requests", tmp_path / "results", "--units", units)
    assert code == 0, said
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (2, 1_000_022, 200_002)
    assert provider["cost_usd"] == pytest.approx(0.13500225)
    assert [s["leaked"] for s in data["sessions"]] == [1]
    code, said, data = _audited(output, "--units", units)
    assert code == 1 and f"{output}: batch output read without its requests: no input file audited holds" in said
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (2, 1_000_022, 200_002)


def _cline_task(root, served: list[tuple[str, str]], requests: list[dict], model_info: bool = False) -> None:
    """A Cline task folder as the extension writes it: one request and answer a `requests` item (its
    `api_req_started` the item as Cline's `updateApiReqMsg` writes it), each served by the `served` item (provider,
    model) of its place, recorded in the metadata's `model_usage` when it starts serving (Plan, then Act); with
    `model_info`, named on each message too, as later Cline does (its `model_usage` then left with the last)."""
    task = root / "saoudrizwan.claude-dev" / "tasks" / "1733412345678"
    task.mkdir(parents=True)
    history, ui, used = [], [], []
    for n, (info, (provider, model)) in enumerate(zip(requests, served, strict=True)):
        history += [{"role": "user", "content": [{"type": "text", "text": "<task>\nEmail maria.kessler@example.com "
                                                                          "the claim summary\n</task>" if not n else
                                                  "[read_file for 'claim.md'] Result: Claim 4411."}]},
                    {"role": "assistant", "content": [{"type": "text", "text": f"<read_file>\n<path>claim.md</path>"
                                                                               f"\n</read_file> {n}"}]}]
        ts = 1733412345700 + 60_000 * n
        if not used or (used[-1]["model_provider_id"], used[-1]["model_id"]) != (provider, model):
            used.append({"ts": ts - 10, "model_id": model, "model_provider_id": provider,
                         "mode": "plan" if not used else "act"})
        ui.append({"ts": ts, "type": "say", "say": "api_req_started",
                   "text": json.dumps({"request": "<task>…</task>", **info}),
                   **({"modelInfo": {"modelId": model, "providerId": provider, "mode": used[-1]["mode"]}}
                      if model_info else {})})
    (task / "api_conversation_history.json").write_text(json.dumps(history), encoding="utf-8")
    (task / "ui_messages.json").write_text(json.dumps(ui), encoding="utf-8")
    (task / "task_metadata.json").write_text(json.dumps({"files_in_context": [], "model_usage": used[-1:] if model_info
                                                         else used}), encoding="utf-8")


def test_a_cline_task_on_an_openai_compatible_provider_counts_its_cached_tokens_once(tmp_path):
    """Cline's `openai` provider (an OpenAI-compatible base URL) writes `tokensIn` as the API's `prompt_tokens`,
    its cached tokens in it, and `cacheReads` as `prompt_tokens_details.cached_tokens` (cline/cline
    `src/core/api/providers/openai.ts`); its cost is Anthropic's formula on those, billing the cache twice. Two
    requests of gpt-4.1 ($2 in, $0.50 cached, $8 out per million): 12,000 in, 100 out (Cline's cost $0.0248);
    then 12,500 in of which 11,904 cached, 200 out (Cline's $0.032552). By hand: 24,500 tokens in;
    12,000 × 2 + 100 × 8 = $0.0248, then 596 × 2 + 11,904 × 0.5 + 200 × 8 = $0.008744: $0.033544. Before: 36,404
    tokens in (the cache counted twice) and Cline's $0.057352."""
    _cline_task(tmp_path, [("openai", "gpt-4.1")] * 2, [
        {"tokensIn": 12_000, "tokensOut": 100, "cacheWrites": 0, "cacheReads": 0, "cost": 0.0248},
        {"tokensIn": 12_500, "tokensOut": 200, "cacheWrites": 0, "cacheReads": 11_904, "cost": 0.032552}])
    code, said, data = _audited(tmp_path / "saoudrizwan.claude-dev", "--units", _units(tmp_path / "units.jsonl"))
    assert code == 0, said
    provider, = data["providers"]
    assert (provider["model"], provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (
        "gpt-4.1", 2, 24_500, 300)
    assert provider["cost_usd"] == pytest.approx(0.033544)


def test_intercept_serve_run_in_process_gives_the_callers_signal_handlers_back(tmp_path):
    """`intercept serve` run from a Python script (click's `main`, in this process), stopped by a SIGTERM once it
    has taken the signals: it says it stopped, 0 calls recorded (none was sent), and SIGINT and SIGTERM are the
    script's own handlers again. Before: the proxy's stop stayed installed, so the script's Ctrl-C did nothing."""
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    returned = threading.Event()

    def stop() -> None:  # the proxy has taken SIGTERM once its handler is no longer the script's
        while not returned.wait(0.01):
            if signal.getsignal(signal.SIGTERM) != before[signal.SIGTERM]:
                os.kill(os.getpid(), signal.SIGTERM)
                return

    stopper = threading.Thread(target=stop)
    stopper.start()
    store = tmp_path / "intercept.sqlite"
    try:
        code, said = _cli("intercept", "serve", "--upstream", "http://127.0.0.1:9/v1", "--port", "0",
                          "--store", store)
        after = {signum: signal.getsignal(signum) for signum in before}
    finally:
        returned.set()
        stopper.join()
        for signum, handler in before.items():
            signal.signal(signum, handler)
    assert code == 0 and f"stopped: 0 calls recorded in {store} by this run" in said, said
    assert after == before


def test_a_vercel_ai_sdk_calls_cache_is_priced_at_the_cache_rates(tmp_path):
    """The Vercel AI SDK 6's `ai.generateText.doGenerate` span of claude-sonnet-4-5 as its OTLP exporter writes
    it: `gen_ai.usage.input_tokens` 12,000, the whole prompt (`inputTokens.total`), of which
    `ai.usage.inputTokenDetails.cacheReadTokens` 10,000 and `cacheWriteTokens` 1,000; 500 out. By hand at
    Claude Sonnet 4.5's $3 in, $0.30 cache read, $3.75 cache write, $15 out per million: 1,000 × 3 + 10,000 ×
    0.3 + 1,000 × 3.75 + 500 × 15 = $0.01725, 12,000 tokens in. Before: all 12,000 at $3, $0.0435."""
    span = _span("c1", 1, "ai.generateText.doGenerate", {
        "operation.name": "ai.generateText.doGenerate", "ai.operationId": "ai.generateText.doGenerate",
        "ai.model.provider": "anthropic.messages", "ai.model.id": "claude-sonnet-4-5",
        "gen_ai.system": "anthropic.messages", "gen_ai.request.model": "claude-sonnet-4-5",
        "ai.prompt.messages": json.dumps([{"role": "user", "content": [
            {"type": "text", "text": "Email maria.kessler@example.com the claim summary."}]}]),
        "ai.usage.inputTokens": 12_000, "ai.usage.inputTokenDetails.noCacheTokens": 1_000,
        "ai.usage.inputTokenDetails.cacheReadTokens": 10_000, "ai.usage.inputTokenDetails.cacheWriteTokens": 1_000,
        "ai.usage.outputTokens": 500, "ai.usage.cachedInputTokens": 10_000,
        "gen_ai.usage.input_tokens": 12_000, "gen_ai.usage.output_tokens": 500})
    code, said, data = _audited_spans(tmp_path, span)
    assert code == 0, said
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (1, 12_000, 500)
    assert provider["cost_usd"] == pytest.approx(0.01725)


def test_an_audit_against_an_empty_units_file_says_nothing_was_looked_for(tmp_path):
    """A units file left empty (the export that wrote it found nothing) and an OpenClaw session of 2 cloud calls
    whose tool result holds a card number: nothing was looked for in the 2 calls, and the audit says so. Before: it
    said no sensitive value was found on the local side of the sessions, as `--discover` says of clean logs."""
    log = _openclaw(tmp_path, "s1", ["Card 4111 1111 1111 1111 on file."])
    empty = tmp_path / "units.jsonl"
    empty.write_text("", encoding="utf-8")
    code, said = _cli("audit", log, "--units", empty)
    assert code == 0 and "no leak was looked for: the units file holds no unit (its 2 cloud calls not audited)" in (
        " ".join(said.split())), said


def test_a_together_or_fireworks_model_named_with_its_organisation_is_priced_under_its_provider(tmp_path):
    """Calls to Together and Fireworks logged as their OpenAI-compatible APIs answer, the model named as they name
    it (`meta-llama/Llama-3.3-70B-Instruct-Turbo`, `accounts/fireworks/models/deepseek-v3`), which LiteLLM's map files
    under the provider's prefix (`together_ai/meta-llama/…`). By hand: Llama 3.3 70B Turbo (10,000 + 500) × $1.04
    per million = $0.01092; DeepSeek V3 on Fireworks (1,000 + 100) × $0.90 = $0.00099. Before: both unknown (the
    prefix was tried only before a name without a slash)."""
    calls = [("https://api.together.xyz/v1/chat/completions", "meta-llama/Llama-3.3-70B-Instruct-Turbo", 10_000, 500),
             ("https://api.fireworks.ai/inference/v1/chat/completions", "accounts/fireworks/models/deepseek-v3",
              1_000, 100)]
    log = tmp_path / "calls.jsonl"
    _lines(log, [{"url": url, "session_id": "s", "timestamp": f"2026-11-04T10:0{i}:00Z",
                  "request": {"model": model, "messages": [{"role": "user", "content": "Summarise the notes."}]},
                  "response": {"model": model, "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                                                         "total_tokens": prompt + completion}}}
                 for i, (url, model, prompt, completion) in enumerate(calls)])
    code, said, data = _audited(log, "--units", _units(tmp_path / "units.jsonl"))
    assert code == 0, said
    assert {p["model"]: p["cost_usd"] for p in data["providers"]} == pytest.approx({
        "meta-llama/Llama-3.3-70B-Instruct-Turbo": 0.01092, "accounts/fireworks/models/deepseek-v3": 0.00099})


def test_a_codex_oss_session_stays_on_the_device(tmp_path):
    """`codex --oss` (Codex's built-in `oss` provider: gpt-oss on Ollama at localhost:11434, as its rollout's
    `session_meta.model_provider` names it) reading a file with a claimant's phone number. By hand: 2 calls, both
    edge, 0 cloud; the session scored all the same, exposure 0.0 (nothing reached a cloud model). Before: both
    cloud calls, the number leaked, exposure 1.0."""
    day = tmp_path / "sessions" / "2025" / "12" / "08"
    day.mkdir(parents=True)
    (day / "rollout-2025-12-08T00-37-46-019a2d7b.jsonl").write_text("\n".join([
        _codex_line("37:46.317", "session_meta", {"id": "019a2d7b", "timestamp": "2025-12-08T00:37:46.308Z",
                                                  "cwd": "/home/dev/claims", "originator": "codex_cli_rs",
                                                  "cli_version": "0.36.0", "model_provider": "oss"}),
        _codex_line("37:46.318", "turn_context", {"cwd": "/home/dev/claims", "model": "gpt-oss:20b"}),
        _codex_line("37:46.320", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Summarise notes.md"}]}),
        _codex_line("37:48.100", "response_item", {"type": "function_call", "name": "shell", "call_id": "call_1",
                                                   "arguments": json.dumps({"command": ["cat", "notes.md"]})}),
        _codex_line("37:48.150", "event_msg", _token_count((900, 0, 30), (900, 0, 30))),
        _codex_line("37:48.200", "response_item", {"type": "function_call_output", "call_id": "call_1",
                                                   "output": "Call Dana Whitfield on +1 415-555-0199."}),
        _codex_line("37:50.100", "response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Call the claimant."}]}),
        _codex_line("37:50.150", "event_msg", _token_count((1000, 0, 20), (1900, 0, 50)))]) + "\n",
        encoding="utf-8")
    units = _lines(tmp_path / "units.jsonl", [{"task_id": "claims", "entity_id": "C1", "field": "phone",
                                               "value": "+1 415-555-0199", "dimension": "contact"}])
    code, said, data = _audited(tmp_path / "sessions", "--units", units)
    assert code == 0, said
    assert (data["calls"], data["cloud_calls"], data["edge_calls"]) == (2, 0, 2)
    assert [(s["leaked"], s["exposure"]) for s in data["sessions"]] == [(0, 0.0)]


def test_a_cline_task_on_ollama_stays_on_the_device(tmp_path):
    """A Cline task run on its `ollama` provider (`task_metadata.json`'s `model_provider_id`), the task naming a
    claimant's address. By hand: 2 calls, both edge; the session scored, nothing leaked, exposure 0.0. Before:
    the provider was not read, so both were cloud calls and the address leaked (exposure 1.0)."""
    _cline_task(tmp_path, [("ollama", "qwen2.5-coder:32b")] * 2, [
        {"tokensIn": 2_000, "tokensOut": 100, "cacheWrites": 0, "cacheReads": 0, "cost": 0},
        {"tokensIn": 2_400, "tokensOut": 80, "cacheWrites": 0, "cacheReads": 0, "cost": 0}])
    code, said, data = _audited(tmp_path / "saoudrizwan.claude-dev", "--units", _units(tmp_path / "units.jsonl"))
    assert code == 0, said
    assert (data["calls"], data["cloud_calls"], data["edge_calls"]) == (2, 0, 2)
    assert [(s["leaked"], s["exposure"]) for s in data["sessions"]] == [(0, 0.0)]


def test_a_langfuse_generation_of_langchains_ollama_model_stays_on_the_device(tmp_path):
    """A LangChain app's observations as Langfuse's public API pages them (`GET /api/public/observations` saved
    whole: `{"data": [...], "meta": {...}}`): a `ChatOllama` generation (the metadata Langfuse's LangChain handler
    records names `ls_provider: ollama`) that read the claimant's address, then a gpt-4o generation that did not.
    By hand: 2 calls, 1 edge and 1 cloud; nothing reached the cloud, exposure 0.0. Before: the page was `not a
    known log format`, and, its `data` read, the Ollama call was a cloud call that leaked the address (1.0)."""
    def generation(oid: str, model: str, metadata: dict, text: str) -> dict:
        return {"id": oid, "traceId": "tr-7", "type": "GENERATION", "name": model,
                "startTime": f"2026-11-09T09:00:0{oid[-1]}.000Z", "model": model, "metadata": metadata,
                "input": [{"role": "user", "content": text}],
                "usageDetails": {"input": 120, "output": 20, "total": 140}}

    export = tmp_path / "observations.json"
    export.write_text(json.dumps({"data": [
        generation("obs-1", "llama3.1:8b", {"ls_provider": "ollama", "ls_model_name": "llama3.1:8b",
                                            "ls_model_type": "chat", "ls_temperature": 0.0},
                   "Email maria.kessler@example.com the claim summary."),
        generation("obs-2", "gpt-4o", {"ls_provider": "openai", "ls_model_name": "gpt-4o", "ls_model_type": "chat"},
                   "Write a polite summary of a claim.")], "meta": {"page": 1, "totalItems": 2}}), encoding="utf-8")
    code, said, data = _audited(export, "--units", _units(tmp_path / "units.jsonl"))
    assert code == 0, said
    assert (data["calls"], data["cloud_calls"], data["edge_calls"]) == (2, 1, 1)
    assert [(s["leaked"], s["exposure"]) for s in data["sessions"]] == [(0, 0.0)]


def test_an_inspect_eval_of_a_transformers_model_on_the_machine_is_edge(tmp_path):
    """An Inspect AI eval log (`.json`) of `hf/meta-llama/Llama-3.2-1B-Instruct`: Inspect's `hf` provider runs the
    model with Transformers in its own process (its Hugging Face API provider is `hf-inference-providers`). Its
    one model call read a claimant's address. By hand: 1 call, edge; nothing reached a cloud model, exposure 0.0.
    Before: a cloud call that leaked the address (exposure 1.0)."""
    model = "hf/meta-llama/Llama-3.2-1B-Instruct"
    event = {"event": "model", "uuid": "ev-1", "timestamp": "2026-11-10T12:00:01+00:00", "model": model,
             "input": [{"role": "user", "content": "Email maria.kessler@example.com the claim summary."}],
             "output": {"model": "meta-llama/Llama-3.2-1B-Instruct", "choices": [],
                        "usage": {"input_tokens": 40, "output_tokens": 12, "total_tokens": 52}}}
    log = tmp_path / "2026-11-10T12-00-00+00-00_claims.json"
    log.write_text(json.dumps({"version": 2, "status": "success", "eval": {
        "task": "claims", "model": model, "created": "2026-11-10T12:00:00+00:00"},
        "samples": [{"id": 1, "epoch": 1, "input": "Summarise the claim.", "events": [event]}]}), encoding="utf-8")
    code, said, data = _audited(log, "--units", _units(tmp_path / "units.jsonl"))
    assert code == 0, said
    assert (data["calls"], data["cloud_calls"], data["edge_calls"]) == (1, 0, 1)
    assert [(s["leaked"], s["exposure"]) for s in data["sessions"]] == [(0, 0.0)]


def test_vercel_ai_sdk_5_cache_reads_are_priced_as_each_provider_counts_them(tmp_path):
    """AI SDK 5's `ai.generateText.doGenerate` spans name the cache reads `ai.usage.cachedInputTokens` only, inside
    `gen_ai.usage.input_tokens` for OpenAI (its `prompt_tokens`) but outside for Anthropic (its `input_tokens`; the
    tokens written to the cache in `ai.response.providerMetadata`). By hand: gpt-4o 10,000 in of which 8,000 read,
    200 out: 2,000 × 2.5 + 8,000 × 1.25 + 200 × 10 = $0.017; claude-sonnet-4-5 500 + 10,000 read + 1,500
    written = 12,000 in, 300 out: 500 × 3 + 10,000 × 0.3 + 1,500 × 3.75 + 300 × 15 = $0.014625. Before: $0.027
    (the reads at the input rate) and $0.006 on 500 tokens in (the cache not counted)."""
    def span(span_id: str, system: str, model: str, tokens_in: int, read: int, out: int, metadata: dict) -> dict:
        return _span(span_id, int(span_id[-1]), "ai.generateText.doGenerate", {
            "operation.name": "ai.generateText.doGenerate", "ai.model.provider": system, "ai.model.id": model,
            "gen_ai.system": system, "gen_ai.request.model": model,
            "ai.prompt.messages": json.dumps([{"role": "user", "content": [{"type": "text", "text": "Summarise."}]}]),
            "ai.usage.promptTokens": tokens_in, "ai.usage.completionTokens": out, "ai.usage.cachedInputTokens": read,
            "ai.response.providerMetadata": json.dumps(metadata),
            "gen_ai.usage.input_tokens": tokens_in, "gen_ai.usage.output_tokens": out})

    code, said, data = _audited_spans(
        tmp_path, span("d1", "openai.chat", "gpt-4o", 10_000, 8_000, 200, {"openai": {"cachedPromptTokens": 8_000}}),
        span("d2", "anthropic.messages", "claude-sonnet-4-5", 500, 10_000, 300,
             {"anthropic": {"cacheCreationInputTokens": 1_500}}))
    assert code == 0, said
    assert {p["model"]: (p["input_tokens"], p["cached_tokens"], p["cost_usd"]) for p in data["providers"]} == {
        "gpt-4o": (10_000, 8_000, pytest.approx(0.017)), "claude-sonnet-4-5": (12_000, 10_000, pytest.approx(0.014625))}


@pytest.mark.parametrize("model_info", [False, True], ids=["model_usage", "modelInfo"])
def test_a_cline_task_planned_on_claude_and_acted_on_ollama_has_one_call_on_each(tmp_path, model_info):
    """Cline with a Plan model and an Act model of their own: the task's first request planned on Claude Sonnet 4.5
    (`anthropic`), its second acted on Ollama's qwen2.5-coder (`model_usage` records each when it starts serving;
    later Cline names them on each message, `modelInfo`).
    By hand: 1 cloud call of claude-sonnet-4-5, 3 + 12,000 written to the cache in, 120 out, Cline's $0.046809
    (3 × 3 + 12,000 × 3.75 + 120 × 15 per million); 1 edge call; the address in the task reached the cloud at call
    #1, exposure 1.0. Before: both calls were the last model's, on Ollama: no cloud call, exposure 0.0."""
    _cline_task(tmp_path, [("anthropic", "claude-sonnet-4-5"), ("ollama", "qwen2.5-coder:32b")], [
        {"tokensIn": 3, "tokensOut": 120, "cacheWrites": 12_000, "cacheReads": 0, "cost": 0.046809},
        {"tokensIn": 2_400, "tokensOut": 80, "cacheWrites": 0, "cacheReads": 0, "cost": 0}], model_info)
    code, said, data = _audited(tmp_path / "saoudrizwan.claude-dev", "--units", _units(tmp_path / "units.jsonl"))
    assert code == 0, said
    assert [(p["side"], p["model"], p["calls"], p["input_tokens"]) for p in data["providers"]] == [
        ("cloud", "claude-sonnet-4-5", 1, 12_003), ("edge", "qwen2.5-coder:32b", 1, 2_400)]
    assert data["providers"][0]["cost_usd"] == pytest.approx(0.046809)
    assert [(s["leaked"], s["exposure"]) for s in data["sessions"]] == [(1, 1.0)]
    assert [leak["step"] for leak in data["leaked"]] == [1]
