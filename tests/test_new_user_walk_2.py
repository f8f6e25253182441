"""Session 14, second walk: token and dollar figures of `intercept serve`, `run` and `tasks`, read off the
CLI on inputs shaped like the real APIs' and checked against a count made by hand."""

import json
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from intercept_helpers import running_proxy, wait_for_records
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from ec2audit.cli import main
from ec2audit.intercept.server import serve_in_thread
from ec2audit.run.episodes import RECORD, EpisodeSpec
from ec2audit.run.record import EpisodeRecord
from ec2audit.run.scheduler import write_results
from ec2audit.units import read_units

# Anthropic's prompt-caching answer (a 188,086-token document written to the cache) as its API and the
# gateways in front of it stream it: message_start carries the input counts, message_delta the output.
CACHE_WRITE = {"input_tokens": 21, "cache_creation_input_tokens": 188086, "cache_read_input_tokens": 0,
               "output_tokens": 393}
DELTA_NULLS = {"input_tokens": None, "cache_creation_input_tokens": None, "cache_read_input_tokens": None,
               "output_tokens": 393}  # MessageDeltaUsage's optional fields, sent as null by gateways


def _sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


async def _messages(request: Request):
    """A stand-in for Anthropic's Messages API (not a model): the cache-write answer, streamed."""
    body = await request.json()
    user = body.get("metadata", {}).get("user_id")
    usage = {**CACHE_WRITE, "output_tokens": 1}
    if user == "hour":  # the document cached with `"ttl": "1h"`
        usage["cache_creation"] = {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 188086}
    message = {"id": "msg_01", "type": "message", "role": "assistant", "model": body["model"], "content": [],
               "stop_reason": None, "stop_sequence": None, "usage": usage}
    delta = DELTA_NULLS if user == "gateway" else {"output_tokens": 393}

    def events():
        yield _sse("message_start", {"type": "message_start", "message": message})
        yield _sse("content_block_start", {"type": "content_block_start", "index": 0,
                                           "content_block": {"type": "text", "text": ""}})
        yield _sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                           "delta": {"type": "text_delta", "text": "Summary."}})
        yield _sse("content_block_stop", {"type": "content_block_stop", "index": 0})
        yield _sse("message_delta", {"type": "message_delta", "usage": delta,
                                     "delta": {"stop_reason": "end_turn", "stop_sequence": None}})
        yield _sse("message_stop", {"type": "message_stop"})
    return StreamingResponse(events(), media_type="text/event-stream")


async def _chat(request: Request):
    """A stand-in for OpenAI Chat Completions (not a model): a 429 for model `busy`, else an answer."""
    body = await request.json()
    if body["model"] == "busy":
        return JSONResponse({"error": {"message": "Rate limit reached", "type": "requests"}}, status_code=429)
    usage = {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100,
             "prompt_tokens_details": {"cached_tokens": 800}}
    if body["model"].startswith("gemini"):  # a thinking answer as any-llm#1290 logged it: 382 thought tokens
        usage = {"prompt_tokens": 20, "completion_tokens": 151, "total_tokens": 553,
                 "completion_tokens_details": {"reasoning_tokens": 382}}
    return JSONResponse({"id": "c1", "object": "chat.completion", "model": body["model"], "usage": usage,
                         "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"},
                                      "finish_reason": "stop"}]})


async def _completions(request: Request):
    """A stand-in for OpenAI's legacy Completions API (not a model): a stream that carries usage in a
    last chunk only when `stream_options.include_usage` asks for it, as OpenAI's does."""
    body = await request.json()
    head = {"id": "cmpl-1", "object": "text_completion", "model": body["model"]}

    def events():
        yield f"data: {json.dumps({**head, 'choices': [{'index': 0, 'text': 'ok', 'finish_reason': 'stop'}]})}\n\n"
        if (body.get("stream_options") or {}).get("include_usage"):
            usage = {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}
            yield f"data: {json.dumps({**head, 'choices': [], 'usage': usage})}\n\n"
        yield "data: [DONE]\n\n"
    return StreamingResponse(events(), media_type="text/event-stream")


@pytest.fixture
def cloud():
    app = Starlette(routes=[Route("/v1/messages", _messages, methods=["POST"]),
                            Route("/v1/chat/completions", _chat, methods=["POST"]),
                            Route("/v1/completions", _completions, methods=["POST"])])
    url, stop = serve_in_thread(app)
    yield url + "/v1"
    stop()


def _export(store: Path, tmp_path: Path) -> list[dict]:
    out = tmp_path / "records.jsonl"
    result = CliRunner().invoke(main, ["intercept", "export", str(store), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_a_gateways_null_cache_counts_in_message_delta_keep_message_starts(cloud, tmp_path):
    store = tmp_path / "cloud.sqlite"
    ask = {"model": "claude-sonnet-4-5-20250929", "max_tokens": 500, "stream": True,
           "messages": [{"role": "user", "content": "Summarise the contract."}]}
    with running_proxy(cloud, store) as (_, url, proxy_store):
        for user in ("direct", "gateway"):
            with httpx.stream("POST", f"{url}/v1/messages", json={**ask, "metadata": {"user_id": user}}) as r:
                assert r.status_code == 200
                r.read()
        wait_for_records(proxy_store, 2)
    direct, gateway = _export(store, tmp_path)
    # by hand, Claude Sonnet 4.5 at $3 input, $3.75 cache write, $15 output per million (under 200K):
    # 21·3 + 188,086·3.75 + 393·15 = 63 + 705,322.5 + 5,895 = 711,280.5 µ$
    for record in (direct, gateway):
        assert (record["input_tokens"], record["cached_tokens"], record["output_tokens"]) == (188107, 0, 393)
        assert record["cost_usd"] == pytest.approx(0.7112805)


def test_a_one_hour_cache_write_is_priced_at_the_one_hour_rate(cloud, tmp_path):
    store = tmp_path / "cloud.sqlite"
    with running_proxy(cloud, store) as (_, url, proxy_store):
        ask = {"model": "claude-sonnet-4-5-20250929", "max_tokens": 500, "stream": True,
               "metadata": {"user_id": "hour"}, "messages": [{"role": "user", "content": "Summarise the contract."}]}
        with httpx.stream("POST", f"{url}/v1/messages", json=ask) as r:
            assert r.status_code == 200
            r.read()
        wait_for_records(proxy_store, 1)
    [record] = _export(store, tmp_path)
    # by hand, with the 1-hour write at $6 per million (2× input): 21·3 + 188,086·6 + 393·15 = 1,134,474 µ$
    assert record["input_tokens"] == 188107 and record["cost_usd"] == pytest.approx(1.134474)


@pytest.mark.openclaw
def test_a_rate_limited_cloud_call_costs_nothing_not_an_unknown_amount(cloud, tmp_path):
    """OpenClaw's first cloud call is answered 429 (the episode ends as model_error): the call was not
    billed, so the episode, summary.json and the report say $0, not that the cost is unknown."""
    out = tmp_path / "run"
    tasks = Path(__file__).resolve().parents[1] / "tasks"
    result = CliRunner().invoke(main, ["run", "--edge", "oracle", "--cloud", cloud, "--cloud-model", "busy",
                                       "--strategy", "cloud-only", "--tasks", "office-board-pack-1801",
                                       "--tasks-root", str(tasks), "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 1, result.output  # a model error
    episode = json.loads((out / "episodes.jsonl").read_text().splitlines()[0])
    assert (episode["status"], episode["cloud_calls"], episode["cloud_usd"]) == ("model_error", 1, 0.0)
    # no --edge-params, but cloud-only made no edge call: 0 edge FLOPs, not unknown
    assert episode["edge_calls"] == 0 and episode["edge_flops"] == 0.0
    summary = json.loads((out / "summary.json").read_text())["cloud-only"]
    assert (summary["cloud_usd"], summary["edge_flops"]) == (0.0, 0.0)
    report = CliRunner().invoke(main, ["report", str(out), "--json"])
    assert report.exit_code == 0, report.output
    assert [(row["cloud_usd"], row["edge_flops"]) for row in json.loads(report.stdout)["strategies"]] == [(0.0, 0.0)]


def _episode(task: str, strategy: str, run: int, completion: float, cloud_calls: int, usd: float | None,
             edge_flops: float | None) -> EpisodeRecord:
    return EpisodeRecord(
        episode_id=f"{task}.{strategy}.r{run}", task_id=task, scenario="office", strategy=strategy, variant=strategy,
        router=None, cloud_context=None, edge_model="http://127.0.0.1:8080/v1", cloud_model="gpt-5.4", run_index=run,
        status="ok", completion=completion, criteria="{}", passed=completion >= 0.7, cloud_calls=cloud_calls,
        cloud_input_tokens=1000 * cloud_calls, cloud_cached_tokens=800 * cloud_calls,
        cloud_output_tokens=100 * cloud_calls, cloud_usd=usd, edge_calls=0 if cloud_calls else 4,
        edge_input_tokens=0 if cloud_calls else 3000, edge_output_tokens=0 if cloud_calls else 200,
        edge_flops=edge_flops, exposure=0.0, exposure_by_dimension="{}", leaked_units="[]", routes="[]", asks=0,
        exit_code=0, error=None, duration_s=1.0, openclaw_s=1.0, openclaw_startup_s=None, isolation="{}")


def test_run_figures_per_strategy_match_a_count_by_hand(tmp_path):
    """Two tasks × two runs of edge-only (an edge model of unknown size: no --edge-params) and
    cloud-only (each call 1,000 prompt tokens, 800 cached, 100 out: $0.0022 at gpt-5.4's prices)."""
    out = tmp_path / "run"
    plan = [("edge-only", "A", 0, 1.0), ("edge-only", "A", 1, 0.5), ("edge-only", "B", 0, 0.8),
            ("edge-only", "B", 1, 0.9), ("cloud-only", "A", 0, 0.6), ("cloud-only", "A", 1, 0.9),
            ("cloud-only", "B", 0, 0.7), ("cloud-only", "B", 1, 0.2)]
    specs = []
    for strategy, task, run, completion in plan:
        calls = 0 if strategy == "edge-only" else 2
        record = _episode(task, strategy, run, completion, calls, 0.0022 * calls, None)
        folder = out / "episodes" / record.episode_id
        folder.mkdir(parents=True)
        (folder / RECORD).write_text(json.dumps(record.to_dict()))
        specs.append(EpisodeSpec(task, strategy, run))
    write_results(out, specs)  # what `ec2audit run` writes once its episodes are done
    report = CliRunner().invoke(main, ["report", str(out), "--json"])
    assert report.exit_code == 0, report.output
    rows = {r["strategy"]: r for r in json.loads(report.stdout)["strategies"]}
    summary = json.loads((out / "summary.json").read_text())
    # by hand: edge-only passes A once (1.0; 0.5 fails) and B twice; cloud-only passes A once and B once
    edge, cloud = rows["edge-only"], rows["cloud-only"]
    assert (edge["completion"], edge["pass_hat_k"], edge["pass_at_k"]) == pytest.approx((0.8, 0.5, 1.0))
    assert (cloud["completion"], cloud["pass_hat_k"], cloud["pass_at_k"]) == pytest.approx((0.6, 0.0, 1.0))
    assert (cloud["cloud_calls"], cloud["cloud_input_tokens"], cloud["cloud_cached_tokens"],
            cloud["cloud_output_tokens"]) == (8, 8000, 6400, 800)
    assert cloud["cloud_usd"] == pytest.approx(0.0176) and cloud["usd_per_episode"] == pytest.approx(0.0044)
    # the edge model's size is unknown: its FLOPs are unknown, in the report as in summary.json, never 0
    assert edge["edge_flops"] is None and summary["edge-only"]["edge_flops"] is None
    for strategy, row in rows.items():
        assert summary[strategy]["pass_hat_k"] == row["pass_hat_k"]
        assert summary[strategy]["completion_mean"] == pytest.approx(row["completion"])


def test_acebench_fields_without_a_weight_weigh_one_as_in_acebenchs_privacy_score(tmp_path):
    """AceBench's privacy_audit.py reads `sf.get("weight", 1.0)`: a field without a weight weighs 1.0,
    whatever its dimension. The leaked national ID is then 1 of 3 weight: AceBench's privacy 1 − 1/3."""
    items = tmp_path / "workspace" / "task_7_payroll" / "gt" / "sensitive_items.json"
    items.parent.mkdir(parents=True)
    items.write_text(json.dumps({"items": [{"entity_id": "E1", "name": "Ryan Hall", "sensitive_fields": [
        {"field": "national_id", "value": "078-05-1120", "dimension": "government_id"},
        {"field": "phone", "value": "415-555-0199", "dimension": "contact"},
        {"field": "salary", "value": "7,200 per month"}]}]}))
    units = tmp_path / "units.jsonl"
    result = CliRunner().invoke(main, ["units", "import-acebench", str(tmp_path / "workspace"), "--out", str(units)])
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["weight"] for line in units.read_text().splitlines()] == [1.0, 1.0, 1.0]
    log = tmp_path / "requests.jsonl"
    log.write_text(json.dumps({"session_id": "s1", "task_id": "task_7_payroll", "request": {
        "model": "gpt-5.4", "messages": [{"role": "user", "content": "Payroll check for SSN 078-05-1120."}]}}) + "\n")
    audited = CliRunner().invoke(main, ["audit", str(log), "--units", str(units), "--json"])
    assert audited.exit_code == 0, audited.output
    [session] = json.loads(audited.stdout)["sessions"]
    assert session["exposure"] == pytest.approx(1 / 3)


def test_units_check_sums_the_weight_of_each_tasks_dimension(tmp_path):
    """Salary (2.5) and bonus (1.0) are both `financial`: the task's financial weight is 3.5, not the last
    unit's 1.0."""
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps(u) + "\n" for u in [
        {"task_id": "payroll", "entity_id": "E1", "field": "salary", "value": "7,200", "dimension": "financial",
         "weight": 2.5},
        {"task_id": "payroll", "entity_id": "E1", "field": "bonus", "value": "1,100", "dimension": "financial",
         "weight": 1.0},
        {"task_id": "payroll", "entity_id": "E1", "field": "phone", "value": "415-555-0199", "dimension": "contact"}]))
    result = CliRunner().invoke(main, ["units", "check", str(units)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[2].strip(): [c.strip() for c in line.split("│")[3:5]]
            for line in result.output.splitlines() if line.startswith("│")}
    assert rows == {"financial": ["2", "3.5"], "contact": ["1", "1.5"]}  # contact: the taxonomy's 1.5


def test_export_to_a_file_whose_suffix_names_no_format_is_refused_not_written_as_parquet(cloud, tmp_path):
    store = tmp_path / "cloud.sqlite"
    with running_proxy(cloud, store) as (_, url, proxy_store):
        assert httpx.post(f"{url}/v1/chat/completions", json={
            "model": "gpt-5.4", "messages": [{"role": "user", "content": "hi"}]}).status_code == 200
        wait_for_records(proxy_store, 1)
    result = CliRunner().invoke(main, ["intercept", "export", str(store), "--out", str(tmp_path / "records.csv")])
    assert result.exit_code == 2 and not (tmp_path / "records.csv").exists()
    assert result.output.strip().splitlines()[-1] == (
        f"error: {tmp_path / 'records.csv'}: cannot tell the export format from the suffix '.csv': name the file "
        ".parquet or .jsonl, or give --format")
    [record] = _export(store, tmp_path)
    # by hand at gpt-5.4's $2.50 / $0.25 cached / $15 per million: 200·2.5 + 800·0.25 + 100·15 = 2,200 µ$
    assert (record["input_tokens"], record["cached_tokens"], record["output_tokens"]) == (1000, 800, 100)
    assert record["cost_usd"] == pytest.approx(0.0022)


def test_a_request_the_proxy_blocked_exposed_nothing(tmp_path):
    """Under `--enforce block` the request carrying the phone number is refused with a 403 and kept on
    record; no cloud saw it, so the store's audit finds 0 of 1 unit exposed, not 1."""
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps({"task_id": "t1", "entity_id": "P1", "field": "phone", "value": "+1 415-555-0199",
                                 "dimension": "contact"}) + "\n")
    store = tmp_path / "cloud.sqlite"
    app = Starlette(routes=[Route("/v1/chat/completions", _chat, methods=["POST"])])
    upstream, stop = serve_in_thread(app)
    try:
        with running_proxy(upstream + "/v1", store, units=read_units(units), enforce="block") as (_, url, proxy_store):
            for text in ("Call Dana on +1 415-555-0199.", "What is on today's agenda?"):
                answer = httpx.post(f"{url}/v1/chat/completions", headers={"X-EC2-Task": "t1"}, json={
                    "model": "gpt-5.4", "messages": [{"role": "user", "content": text}]})
                assert answer.status_code == (403 if "415" in text else 200)
            wait_for_records(proxy_store, 2)
    finally:
        stop()
    result = CliRunner().invoke(main, ["intercept", "audit", str(store), "--units", str(units), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["payloads"] == 1 and [(e["units"], e["leaked"], e["exposure"]) for e in summary["exposure"]] == [
        (1, 0, 0.0)]
    assert "1 record blocked by the proxy, never sent to the cloud: scored as sending nothing" in result.stderr
    logged = CliRunner().invoke(main, ["audit", str(store), "--units", str(units), "--json"])
    assert logged.exit_code == 0, logged.output
    [session] = json.loads(logged.stdout)["sessions"]
    assert (session["cloud_calls"], session["exposure"]) == (1, 0.0)


def test_a_streamed_legacy_completion_is_counted_though_the_client_did_not_ask_for_usage(cloud, tmp_path):
    store = tmp_path / "cloud.sqlite"
    with running_proxy(cloud, store) as (_, url, proxy_store):
        with httpx.stream("POST", f"{url}/v1/completions", json={
                "model": "gpt-3.5-turbo-instruct", "prompt": "Say ok.", "stream": True}) as r:
            chunks = [json.loads(line[6:]) for line in r.iter_lines() if line.startswith("data: {")]
        wait_for_records(proxy_store, 1)
    assert not any("usage" in c for c in chunks)  # the usage chunk asked for on the client's behalf is hidden
    [record] = _export(store, tmp_path)
    # by hand at LiteLLM's $1.50 in / $2 out per million: 1,000·1.5 + 100·2 = 1,700 µ$
    assert (record["input_tokens"], record["output_tokens"]) == (1000, 100)
    assert record["cost_usd"] == pytest.approx(0.0017)


def test_thought_tokens_left_out_of_completion_tokens_are_billed_as_output(cloud, tmp_path):
    """Gemini through an OpenAI-compatible endpoint: 20 prompt + 151 answer + 382 thought tokens = 553 in
    total, with completion_tokens 151."""
    store = tmp_path / "cloud.sqlite"
    with running_proxy(cloud, store) as (_, url, proxy_store):
        assert httpx.post(f"{url}/v1/chat/completions", json={
            "model": "gemini-2.5-flash", "messages": [{"role": "user", "content": "What is 15% of 240?"}]}
        ).status_code == 200
        wait_for_records(proxy_store, 1)
    [record] = _export(store, tmp_path)
    # by hand at LiteLLM's gemini-2.5-flash $0.30 in / $2.50 out per million: 20·0.3 + 533·2.5 = 1,338.5 µ$
    assert (record["input_tokens"], record["output_tokens"]) == (20, 533)
    assert record["cost_usd"] == pytest.approx(0.0013385)


@pytest.mark.parametrize(("weight", "shown"), [("true", "true"), ("Infinity", "Infinity")])
def test_a_weight_that_is_no_finite_number_is_a_one_line_error(tmp_path, weight, shown):
    """`true` read as weight 1, and `Infinity` (which JSON readers take) as a weight that makes every
    exposure of its task NaN."""
    units = tmp_path / "units.jsonl"
    units.write_text('{"task_id": "t1", "entity_id": "P1", "field": "phone", "value": "415-555-0199", '
                     f'"dimension": "contact", "weight": {weight}}}\n')
    result = CliRunner().invoke(main, ["units", "check", str(units)])
    assert result.exit_code == 2
    assert result.output.strip() == (f"error: {units}:1: field 'weight': Value error, must be a finite number, "
                                     f"not {shown}")


@pytest.mark.parametrize("upstream", ["notaurl", "api.openai.com/v1", "ftp://example.com/v1", "https:///v1"])
def test_serve_refuses_an_upstream_that_is_no_http_url_before_it_starts(tmp_path, upstream):
    """A mistyped --upstream used to start a proxy that answered every call 502; it is one line and exit 2,
    and no store is created."""
    store = tmp_path / "cloud.sqlite"
    result = CliRunner().invoke(main, ["intercept", "serve", "--upstream", upstream, "--store", str(store)])
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[-1].startswith("error: ")
    assert "is not an http(s) URL" in result.output and "Traceback" not in result.output
    assert not store.exists()


def test_a_model_listing_on_record_is_no_call_and_no_skipped_record(tmp_path):
    """A client that lists the models (GET /v1/models, recorded like every cloud-bound request) and then
    calls one: the store's audit, the log audit of the store and the run figures count 1 call, and neither
    audit says a record was skipped for want of a body (both exited 1 on such a store)."""
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps({"task_id": "t1", "entity_id": "P1", "field": "phone", "value": "+1 415-555-0199",
                                 "dimension": "contact"}) + "\n")
    store = tmp_path / "cloud.sqlite"
    app = Starlette(routes=[Route("/v1/chat/completions", _chat, methods=["POST"]),
                            Route("/v1/models", lambda _: JSONResponse({"object": "list", "data": []}))])
    upstream, stop = serve_in_thread(app)
    try:
        with running_proxy(upstream + "/v1", store) as (_, url, proxy_store):
            assert httpx.get(f"{url}/e/ep1/t/t1/v1/models").status_code == 200
            assert httpx.post(f"{url}/e/ep1/t/t1/v1/chat/completions", json={
                "model": "gpt-5.4", "messages": [{"role": "user", "content": "Call Dana on +1 415-555-0199."}]
            }).status_code == 200
            records = wait_for_records(proxy_store, 2)
            assert [r.model_call for r in proxy_store.records()] == [False, True], records
    finally:
        stop()
    result = CliRunner().invoke(main, ["intercept", "audit", str(store), "--units", str(units), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["payloads"] == 1 and "skipped" not in result.stderr
    logged = CliRunner().invoke(main, ["audit", str(store), "--units", str(units), "--json"])
    assert logged.exit_code == 0, logged.output
    summary = json.loads(logged.stdout)
    assert (summary["calls"], summary["cloud_calls"], summary["skipped"]) == (1, 1, [])
    [session] = summary["sessions"]
    assert (session["cloud_calls"], session["exposure"]) == (1, 1.0)
