"""Session 17, sixth walk: figures a new user reads off the CLI on paths no earlier walk took (a Label
Studio round trip with an edited label, …), each checked against a count made by hand."""

import asyncio
import json
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from intercept_helpers import running_proxy, standin_server, wait_for_records
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from ec2audit.cli import main
from ec2audit.intercept.server import serve_in_thread

CLIENT = "Client: Dana Whitfield\nPhone: +1 415-555-0199\nSalary: $1,250,000\n"


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_unit_relabelled_in_label_studio_weighs_what_its_new_kind_weighs(tmp_path):
    """Three units exported to Label Studio; the annotator deletes the salary region and relabels the phone
    as a government ID. By hand: 2 units back, the phone `government_id` at the taxonomy's 3.0. Before: the
    weight of its old kind (contact, 1.5) came back with it from the task's data."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "client.txt").write_text(CLIENT, encoding="utf-8")
    units = tmp_path / "units.jsonl"
    spans = {"name": ("Dana Whitfield", "person_name"), "phone": ("+1 415-555-0199", "contact"),
             "salary": ("$1,250,000", "financial")}
    units.write_text("".join(json.dumps({
        "task_id": "ws", "entity_id": "P1", "field": field, "value": value, "dimension": dim,
        "source": {"file": "client.txt", "start": CLIENT.index(value), "end": CLIENT.index(value) + len(value)}}) + "\n"
        for field, (value, dim) in spans.items()))
    tasks = tmp_path / "ls.json"
    _cli("annotate", "to-labelstudio", str(units), "--workspace", str(ws), "--out", str(tasks))
    exported = json.loads(tasks.read_text(encoding="utf-8"))
    result = exported[0]["predictions"][0]["result"]
    region = {r["value"]["text"]: r["id"] for r in result if r["from_name"] == "label"}
    edited = []
    for item in json.loads(json.dumps(result)):
        if item["id"] == region["$1,250,000"]:
            continue  # the region deleted
        if item["id"] == region["+1 415-555-0199"] and item["from_name"] == "label":
            item["value"]["labels"] = ["government_id"]
        edited.append(item)
    exported[0].update(id=1, annotations=[{"id": 1, "completed_by": {"id": 1, "email": "ana@example.org"},
                                           "result": edited, "was_cancelled": False}])
    (tmp_path / "export.json").write_text(json.dumps(exported), encoding="utf-8")
    back = tmp_path / "back.jsonl"
    _cli("annotate", "from-labelstudio", str(tmp_path / "export.json"), "--out", str(back))
    assert sorted((u["field"], u["dimension"], u["weight"]) for u in _lines(back)) == [
        ("name", "person_name", 1.0), ("phone", "government_id", 3.0)]


def _openai_record(rid: str, session: str, url: str, model: str, text: str) -> dict:
    return {"id": rid, "timestamp": f"2026-11-03T10:00:0{rid[-1]}Z", "url": url, "session_id": session,
            "request": {"model": model, "messages": [{"role": "user", "content": text}]},
            "response": {"usage": {"prompt_tokens": 1000, "completion_tokens": 100}}}


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_session_that_called_no_cloud_model_scores_0_against_its_task_in_audit_and_report(tmp_path):
    """Three sessions of task t1: s1 sends the name and phone to gpt-4o, s2 sends them only to a local
    ollama, s3 sends the name to gpt-4o. By hand (weights 1, 1.5, 2.5): s1 2.5/5, s3 1/5, s2 0/5 = 0.0: its
    task's units all stayed on the device (session 18: it was null, "nothing: no cloud call", and left out of
    the means). Before session 17: s2 was "scored against" `task ` (no task named) and `report` filed it under
    "(units found in its calls)" though the task map names its task."""
    units = _write_jsonl(tmp_path / "units.jsonl", [
        {"task_id": "t1", "entity_id": "P1", "field": "name", "value": "Dana Whitfield", "dimension": "person_name"},
        {"task_id": "t1", "entity_id": "P1", "field": "phone", "value": "+1 415-555-0199", "dimension": "contact"},
        {"task_id": "t1", "entity_id": "P1", "field": "salary", "value": "$1,250,000", "dimension": "financial"}])
    cloud, local = "https://api.openai.com/v1/chat/completions", "http://localhost:11434/v1/chat/completions"
    log = _write_jsonl(tmp_path / "requests.jsonl", [
        _openai_record("r1", "s1", cloud, "gpt-4o", "Call Dana Whitfield at +1 415-555-0199"),
        _openai_record("r2", "s2", local, "llama3", "Call Dana Whitfield at +1 415-555-0199"),
        _openai_record("r3", "s3", cloud, "gpt-4o", "Dana Whitfield")])
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({"s1": "t1", "s2": "t1", "s3": "t1"}))
    out = tmp_path / "out"
    out.mkdir()
    audited = json.loads(_cli("audit", str(log), "--units", str(units), "--task-map", str(task_map), "--json",
                              "--out", str(out / "findings.parquet")))
    sessions = {s["session"]: (s["cloud_calls"], s["exposure"], s["scored_against"]) for s in audited["sessions"]}
    assert sessions == {"s1": (1, 2.5 / 5, "task t1"), "s2": (0, 0.0, "task t1"),
                        "s3": (1, 1 / 5, "task t1")}
    report = json.loads(_cli("report", str(out), "--json"))
    tasks = {task: sorted(e["episode_id"] for e in episodes) for task, episodes in report["tasks"].items()}
    assert tasks == {"t1": ["s1", "s2", "s3"]}
    # a session that did call the cloud, with nothing sensitive on its local side, is no session without one
    quiet = _write_jsonl(tmp_path / "quiet.jsonl", [_openai_record("r4", "s4", cloud, "gpt-4o", "Hello there")])
    (row,) = json.loads(_cli("audit", str(quiet), "--discover", "--no-presidio", "--json"))["sessions"]
    assert (row["cloud_calls"], row["exposure"], row["scored_against"]) == (1, None,
                                                                            "nothing: no units to score against")


def test_report_on_the_folder_an_audit_wrote_under_its_own_name_reads_it(tmp_path):
    """`audit --out out/audit-nov.parquet`, then `report out` as the README's `report RUN_DIR…` suggests.
    By hand: 2 sessions, 2 cloud calls, 2,000 input tokens. Before: `out` was "not a run directory nor a
    findings table" unless the findings were named findings.parquet."""
    units = _write_jsonl(tmp_path / "units.jsonl", [
        {"task_id": "t1", "entity_id": "P1", "field": "name", "value": "Dana Whitfield", "dimension": "person_name"}])
    cloud = "https://api.openai.com/v1/chat/completions"
    log = _write_jsonl(tmp_path / "requests.jsonl", [_openai_record("r1", "t1", cloud, "gpt-4o", "Dana Whitfield"),
                                                      _openai_record("r2", "s2", cloud, "gpt-4o", "Hello")])
    out = tmp_path / "out"
    out.mkdir()
    _cli("audit", str(log), "--units", str(units), "--out", str(out / "audit-nov.parquet"))
    row = json.loads(_cli("report", str(out), "--json"))["strategies"][0]
    assert (row["label"], row["episodes"], row["cloud_calls"], row["cloud_input_tokens"]) == (
        "audit: audit-nov.parquet", 2, 2, 2000)


def _sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


async def _slow_messages(request: Request):
    """A stand-in for Anthropic's Messages API (not a model): 1,000 input tokens, then 200 words streamed
    20 ms apart, then the usage of the 200 output tokens, as Anthropic streams them."""
    body = await request.json()
    message = {"id": "msg_01", "type": "message", "role": "assistant", "model": body["model"], "content": [],
               "usage": {"input_tokens": 1000, "output_tokens": 1}}

    async def events():
        yield _sse("message_start", {"type": "message_start", "message": message})
        yield _sse("content_block_start", {"type": "content_block_start", "index": 0,
                                           "content_block": {"type": "text", "text": ""}})
        for _ in range(200):
            yield _sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                               "delta": {"type": "text_delta", "text": "word "}})
            await asyncio.sleep(0.02)
        yield _sse("content_block_stop", {"type": "content_block_stop", "index": 0})
        yield _sse("message_delta", {"type": "message_delta", "usage": {"output_tokens": 200},
                                     "delta": {"stop_reason": "end_turn", "stop_sequence": None}})
        yield _sse("message_stop", {"type": "message_stop"})
    return StreamingResponse(events(), media_type="text/event-stream")


@pytest.fixture
def slow_anthropic():
    url, stop = serve_in_thread(Starlette(routes=[Route("/v1/messages", _slow_messages, methods=["POST"])]))
    yield url + "/v1"
    stop()


def test_a_stream_the_client_left_has_no_known_cost(slow_anthropic, tmp_path):
    """Two streamed claude-sonnet-4-5 calls through `intercept`; the client reads the second only to its tenth
    line and hangs up. By hand: the first costs 1,000 · $3 + 200 · $15 per million = $0.006; the second's
    output (what Anthropic made before the cancel) was never counted, so its cost is unknown and the
    provider row has no total. Before: the second cost $0.003015 (its 1,000 input tokens and message_start's
    placeholder output token) and the row read $0.009015 as the whole."""
    body = {"model": "claude-sonnet-4-5", "max_tokens": 500, "stream": True,
            "messages": [{"role": "user", "content": "Summarise the notes."}]}

    def calls(store: Path, whole: bool) -> list:
        with running_proxy(slow_anthropic, store) as (_, url, records), \
                httpx.Client(base_url=url, timeout=30) as client:
            if whole:
                assert client.post("/v1/messages", json=body).status_code == 200
            with client.stream("POST", "/v1/messages", json=body) as answer:
                for n, _ in enumerate(answer.iter_lines()):
                    if n == 10:
                        break
            return wait_for_records(records, 1 + whole)

    both, cut = tmp_path / "both.sqlite", tmp_path / "cut.sqlite"
    assert sorted((r.output_tokens, r.cost_usd) for r in calls(both, True)) == [(1, None), (200, pytest.approx(0.006))]
    audited = json.loads(_cli("audit", str(both), "--discover", "--no-presidio", "--json"))
    (row,) = audited["providers"]
    assert (row["calls"], row["cost_usd"], row["unpriced_calls"]) == (2, None, 1)
    calls(cut, False)
    shown = _cli("audit", str(cut), "--discover", "--no-presidio")
    assert "unknown: answer cut off" in shown and "no price" not in shown  # the model has one


def test_a_unit_two_sessions_leaked_is_one_leaked_unit_of_the_task(tmp_path):
    """Task t1 has two units (a name, a phone); s1 sends the phone, s2 the phone and the name. By hand: the
    task's heading in the HTML report says 2 leaked units (each session's line its own: 1 and 2). Before: 3
    leaked units, more than the task has."""
    units = _write_jsonl(tmp_path / "units.jsonl", [
        {"task_id": "t1", "entity_id": "P1", "field": "name", "value": "Dana Whitfield", "dimension": "person_name"},
        {"task_id": "t1", "entity_id": "P1", "field": "phone", "value": "+1 415-555-0199", "dimension": "contact"}])
    cloud = "https://api.openai.com/v1/chat/completions"
    log = _write_jsonl(tmp_path / "requests.jsonl", [
        _openai_record("r1", "s1", cloud, "gpt-4o", "Call +1 415-555-0199"),
        _openai_record("r2", "s2", cloud, "gpt-4o", "Call +1 415-555-0199, ask for Dana Whitfield")])
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({"s1": "t1", "s2": "t1"}))
    out = tmp_path / "out"
    out.mkdir()
    _cli("audit", str(log), "--units", str(units), "--task-map", str(task_map), "--out", str(out / "findings.parquet"))
    _cli("report", str(out), "--out", str(out / "report.html"))
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "t1 — 2 episodes, 2 leaked units, highest exposure 1.000" in page
    assert "exposure 0.600 · 1 leaked unit" in page and "exposure 1.000 · 2 leaked units" in page


def _busy_then_ok(statuses: list[int]):
    """A stand-in for OpenAI Chat Completions (not a model): the error `statuses` in turn, then answers of
    1,000 prompt and 100 completion tokens, as a provider answers a client that retries."""
    errors = iter(statuses)

    async def chat(request: Request):
        body = await request.json()
        status = next(errors, 200)
        if status != 200:
            return JSONResponse({"error": {"message": "try again", "type": "requests"}}, status_code=status)
        return JSONResponse({"id": "c1", "object": "chat.completion", "model": body["model"],
                             "usage": {"prompt_tokens": 1000, "completion_tokens": 100},
                             "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"},
                                          "finish_reason": "stop"}]})
    return chat


def test_a_store_of_a_retried_call_costs_what_was_billed(tmp_path):
    """A client retries through `intercept`: 429, 503, then 200. By hand: 3 cloud calls (each reached the
    provider), the refused two not billed, the answer 1,000 · $2.50 + 100 · $10 per million = $0.0035, in
    `audit cloud.sqlite` as in the proxy's records. Before: the audit said the cost was unknown, 2 of 3
    calls unpriced."""
    chat = _busy_then_ok([429, 503])
    url, stop = serve_in_thread(Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])]))
    store = tmp_path / "cloud.sqlite"
    try:
        with running_proxy(url + "/v1", store) as (_, proxy, records), httpx.Client(base_url=proxy) as client:
            body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Summarise the notes."}]}
            assert [client.post("/v1/chat/completions", json=body).status_code for _ in range(3)] == [429, 503, 200]
            assert sorted(r.billed_usd for r in wait_for_records(records, 3)) == [0, 0, pytest.approx(0.0035)]
    finally:
        stop()
    (row,) = json.loads(_cli("audit", str(store), "--discover", "--no-presidio", "--json"))["providers"]
    assert (row["calls"], row["input_tokens"], row["output_tokens"], row["unpriced_calls"]) == (3, 1000, 100, 0)
    assert row["cost_usd"] == pytest.approx(0.0035)


def _har_entry(at: str, status: int, answer: dict, url: str = "https://api.openai.com/v1/chat/completions",
               model: str = "gpt-4o") -> dict:
    body = {"model": model, "messages": [{"role": "user", "content": "Summarise the notes."}]}
    return {"startedDateTime": at, "time": 300,
            "request": {"method": "POST", "url": url, "headers": [],
                        "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
            "response": {"status": status, "content": {"mimeType": "application/json", "text": json.dumps(answer)}}}


def test_a_logged_call_the_provider_refused_costs_nothing(tmp_path):
    """A browser's HAR and a request log of one retried call each: a 429 (OpenAI's error body, no usage),
    then the answer (1,000 prompt, 100 completion tokens). By hand: 2 calls, $0 + $0.0035 = $0.0035 in each.
    Before: the cost was unknown, 1 of 2 calls unpriced, as if the 429 had a price nobody knew."""
    refused = {"error": {"message": "Rate limit reached for gpt-4o", "type": "requests",
                         "code": "rate_limit_exceeded"}}
    answer = {"id": "c1", "object": "chat.completion", "model": "gpt-4o",
              "usage": {"prompt_tokens": 1000, "completion_tokens": 100},
              "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}]}
    har = tmp_path / "session.har"
    har.write_text(json.dumps({"log": {"version": "1.2", "entries": [
        _har_entry("2026-11-05T10:00:00.000Z", 429, refused), _har_entry("2026-11-05T10:00:02.000Z", 200, answer)]}}))
    request = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Summarise the notes."}]}
    log = _write_jsonl(tmp_path / "requests.jsonl", [
        {"id": "a", "timestamp": "2026-11-05T10:00:00Z", "url": "https://api.openai.com/v1/chat/completions",
         "session_id": "s1", "status_code": 429, "request": request, "response": refused},
        {"id": "b", "timestamp": "2026-11-05T10:00:02Z", "url": "https://api.openai.com/v1/chat/completions",
         "session_id": "s1", "status_code": 200, "request": request, "response": answer}])
    for path in (har, log):
        (row,) = json.loads(_cli("audit", str(path), "--discover", "--no-presidio", "--json"))["providers"]
        assert (row["calls"], row["input_tokens"], row["unpriced_calls"]) == (2, 1000, 0), path.name
        assert row["cost_usd"] == pytest.approx(0.0035)
    # a Responses answer carries `"error": null` when all went well: logged without usage, its cost is unknown
    fine = _write_jsonl(tmp_path / "responses.jsonl", [{
        "id": "c", "timestamp": "2026-11-05T10:00:04Z", "url": "https://api.openai.com/v1/responses",
        "request": {"model": "gpt-4o", "input": "Summarise the notes."},
        "response": {"id": "resp_1", "object": "response", "status": "completed", "error": None, "output": []}}])
    (row,) = json.loads(_cli("audit", str(fine), "--discover", "--no-presidio", "--json"))["providers"]
    assert (row["calls"], row["unpriced_calls"], row["cost_usd"]) == (1, 1, None)


def test_units_in_another_tools_format_are_named_with_the_command_that_converts_them(tmp_path):
    """`audit --units` given the files people hold units in before they have ours: Label Studio's export,
    AceBench's sensitive_items.json (written by `units export-acebench`), a CSV. By hand: exit 2 and one line
    naming what the file is and the converting command. Before: "not valid JSON" of valid JSON, and "a unit
    must be a JSON object" of a Label Studio export written on one line."""
    units = _write_jsonl(tmp_path / "units.jsonl", [
        {"task_id": "t1", "entity_id": "P1", "field": "name", "value": "Dana Whitfield", "dimension": "person_name"}])
    _cli("units", "export-acebench", str(units), "--out", str(tmp_path / "ace"))
    acebench = tmp_path / "ace" / "t1" / "gt" / "sensitive_items.json"
    label_studio = tmp_path / "export.json"
    label_studio.write_text(json.dumps([{"id": 1, "data": {"text": CLIENT}, "annotations": []}]))
    table = tmp_path / "units.csv"
    table.write_text("task_id,entity_id,field,value,dimension\nt1,P1,name,Dana Whitfield,person_name\n")
    log = _write_jsonl(tmp_path / "requests.jsonl", [_openai_record(
        "r1", "s1", "https://api.openai.com/v1/chat/completions", "gpt-4o", "Dana Whitfield")])
    said = {}
    for path in (acebench, label_studio, table):
        result = CliRunner().invoke(main, ["audit", str(log), "--units", str(path)])
        assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
        said[path.name] = result.output
    assert f"ec2audit units import-acebench {acebench} --out units.jsonl" in said["sensitive_items.json"]
    assert f"ec2audit annotate from-labelstudio {label_studio} --out units.jsonl" in said["export.json"]
    assert "a CSV table, not units JSONL" in said["units.csv"]


def test_a_dimension_spelled_by_its_alias_is_one_dimension_in_every_figure(tmp_path):
    """Units as AceBench files name their kinds: a condition under `medical`, an allergy under `health`, a phone
    under `phone`, an e-mail under `contact`; the call sends the condition and the phone. By hand: health
    2 units, 1 leaked, 2/4 = 0.5; contact 2 units, 1 leaked, 1.5/3 = 0.5; `units check` two rows. Before: four
    dimensions, health and contact 0.0 beside medical and phone 1.0."""
    units = _write_jsonl(tmp_path / "units.jsonl", [
        {"task_id": "t1", "entity_id": "P1", "field": "condition", "value": "type 2 diabetes", "dimension": "medical"},
        {"task_id": "t1", "entity_id": "P1", "field": "allergy", "value": "penicillin allergy", "dimension": "health"},
        {"task_id": "t1", "entity_id": "P1", "field": "phone", "value": "+1 415-555-0199", "dimension": "phone"},
        {"task_id": "t1", "entity_id": "P2", "field": "email", "value": "omar.haddad@example.org",
         "dimension": "contact"}])
    log = _write_jsonl(tmp_path / "requests.jsonl", [_openai_record(
        "r1", "t1", "https://api.openai.com/v1/chat/completions", "gpt-4o",
        "Patient has type 2 diabetes, call +1 415-555-0199")])
    audited = json.loads(_cli("audit", str(log), "--units", str(units), "--json"))
    assert [(r["dimension"], r["units"], r["leaked"], r["exposure"]) for r in audited["by_dimension"]] == [
        ("contact", 2, 1, 0.5), ("health", 2, 1, 0.5)]
    rows = [line.split("│")[1:5] for line in _cli("units", "check", str(units)).splitlines() if "│ t1" in line]
    assert [[cell.strip() for cell in row] for row in rows] == [["t1", "contact", "2", "3"], ["t1", "health", "2", "4"]]


async def _count_tokens(request: Request):
    """A stand-in for Anthropic's token counting (not a model): the count, no usage, as Anthropic answers."""
    return JSONResponse({"input_tokens": 2095})


async def _moderation(request: Request):
    """A stand-in for OpenAI's moderations (not a model): a result and no usage, as OpenAI answers."""
    return JSONResponse({"id": "modr-1", "model": "omni-moderation-latest",
                         "results": [{"flagged": False, "categories": {}, "category_scores": {}}]})


async def _message(request: Request):
    """A stand-in for Anthropic's Messages API (not a model): 2,095 input and 10 output tokens."""
    body = await request.json()
    return JSONResponse({"id": "msg_01", "type": "message", "role": "assistant", "model": body["model"],
                         "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn",
                         "usage": {"input_tokens": 2095, "output_tokens": 10}})


def test_a_token_count_through_the_proxy_is_free(tmp_path):
    """Claude Code asks `count_tokens` before it sends a message; both go through `intercept`. By hand: the
    count is free (it still sent the prompt: 2 cloud calls), the message 2,095 · $3 + 10 · $15 per million =
    $0.006435. Before: the count's cost was unknown, so the audit's was ("unknown: 1 of 2 unpriced"). A
    moderation (free too) costs $0."""
    url, stop = serve_in_thread(Starlette(routes=[
        Route("/v1/messages/count_tokens", _count_tokens, methods=["POST"]),
        Route("/v1/messages", _message, methods=["POST"]), Route("/v1/moderations", _moderation, methods=["POST"])]))
    store = tmp_path / "cloud.sqlite"
    body = {"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": "Summarise the notes."}]}
    try:
        with running_proxy(url + "/v1", store) as (_, proxy, records), httpx.Client(base_url=proxy) as client:
            assert client.post("/v1/messages/count_tokens", json=body).json() == {"input_tokens": 2095}
            assert client.post("/v1/messages", json={**body, "max_tokens": 100}).status_code == 200
            assert client.post("/v1/moderations", json={"input": "Summarise the notes."}).status_code == 200
            wait_for_records(records, 3)
    finally:
        stop()
    rows = json.loads(_cli("audit", str(store), "--discover", "--no-presidio", "--json"))["providers"]
    costs = {row["model"]: (row["calls"], row["unpriced_calls"], row["cost_usd"]) for row in rows}
    assert costs == {"claude-sonnet-4-5": (2, 0, pytest.approx(0.006435)), "omni-moderation-latest": (1, 0, 0.0)}


def test_a_logged_token_count_is_free(tmp_path):
    """A HAR of Claude Code's traffic: `count_tokens` (answered with the count alone), then the message
    (2,095 input, 10 output tokens). By hand: 2 calls, $0 + $0.006435. Before: unknown, 1 of 2 unpriced."""
    message = {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
               "content": [{"type": "text", "text": "ok"}], "usage": {"input_tokens": 2095, "output_tokens": 10}}
    har = tmp_path / "claude.har"
    har.write_text(json.dumps({"log": {"version": "1.2", "entries": [
        _har_entry("2026-11-05T10:00:00.000Z", 200, {"input_tokens": 2095},
                   "https://api.anthropic.com/v1/messages/count_tokens", "claude-sonnet-4-5"),
        _har_entry("2026-11-05T10:00:01.000Z", 200, message, "https://api.anthropic.com/v1/messages",
                   "claude-sonnet-4-5")]}}))
    (row,) = json.loads(_cli("audit", str(har), "--discover", "--no-presidio", "--json"))["providers"]
    assert (row["calls"], row["unpriced_calls"]) == (2, 0)
    assert row["cost_usd"] == pytest.approx(0.006435)


def test_a_swe_agent_trajectory_costs_what_its_run_says(tmp_path):
    """A SWE-agent 1.x trajectory of three steps on gpt-4o; SWE-agent logs usage per run only
    (`info.model_stats`: 3 API calls, 12,400 tokens sent, 310 received, $0.0341). By hand: 3 calls,
    12,400 input and 310 output tokens, $0.0341 (also 12,400 · $2.50 + 310 · $10 per million). Before: 0 input
    and 0 output tokens and "unknown: no usage logged", though the docstring said model_stats was read."""
    system = {"role": "system", "content": "SETTING: You are an autonomous programmer.",
              "message_type": "system_prompt"}
    task = {"role": "user", "content": "The billing sync fails; fix it.", "message_type": "observation"}
    steps, query = [], [system, task]
    for n, action in enumerate(("ls", "cat sync.py", "submit"), start=1):
        steps.append({"action": action, "observation": f"output {n}", "response": action, "thought": "",
                      "query": list(query)})
        query += [{"role": "assistant", "content": action, "message_type": "action"},
                  {"role": "user", "content": f"output {n}", "message_type": "observation"}]
    trajectory = tmp_path / "acme__billing-7.traj"
    trajectory.write_text(json.dumps({
        "trajectory": steps, "history": query,
        "info": {"swe_agent_version": "1.1.0", "exit_status": "submitted",
                 "model_stats": {"instance_cost": 0.0341, "tokens_sent": 12400, "tokens_received": 310,
                                 "api_calls": 3}},
        "replay_config": json.dumps({"agent": {"model": {"name": "gpt-4o"}}})}))
    (row,) = json.loads(_cli("audit", str(trajectory), "--discover", "--no-presidio", "--json"))["providers"]
    assert (row["calls"], row["input_tokens"], row["output_tokens"], row["unpriced_calls"]) == (3, 12400, 310, 0)
    assert row["cost_usd"] == pytest.approx(0.0341)


def test_a_run_on_a_cloud_model_without_a_price_says_its_cost_is_unknown(tmp_path):
    """`run` of one cloud-only episode against the scripted stand-in cloud (not a model) under a model name
    no price list has. By hand: its cost is unknown, in the progress line and the closing table. Before:
    "cloud $0.0000" while it ran and "-" in the table, read as nothing spent."""
    tasks = Path(__file__).resolve().parents[1] / "tasks"
    cloud = standin_server()
    _, url = next(cloud)
    try:
        result = CliRunner().invoke(main, [
            "run", "--edge", "oracle", "--cloud", url, "--cloud-model", "acme-unpriced-7", "--strategy", "cloud-only",
            "--tasks", "office-board-pack-1801", "--tasks-root", str(tasks), "--max-model-calls", "2",
            "--out", str(tmp_path / "run")], catch_exceptions=False)
    finally:
        next(cloud, None)
    episode = json.loads((tmp_path / "run" / "episodes.jsonl").read_text().splitlines()[0])
    assert episode["cloud_calls"] > 0 and episode["cloud_usd"] is None, result.output
    assert "cloud unknown (1 episode unpriced)" in result.output
    row = next(line for line in result.output.splitlines() if line.startswith("│ cloud-only"))
    # the table says how much is unknown in the progress line's words (walk 9)
    assert [cell.strip() for cell in row.split("│")][6] == "unknown (1 episode unpriced)"


def test_a_condition_in_a_file_name_is_code_not_someones_health(tmp_path):
    """`git ls-files` of a clinic's code base goes to the cloud, with a ticket that names a patient's
    condition. By hand: one health value, the ticket's `diabetes` (exposure 1.0 over 1 unit); `diabetes.py`,
    `asthma_risk.py` and `docs/hypertension/` are file names. Before: 3 units, the file names' too (the path
    `patient.py` gave them a health context), 2 of them leaked."""
    listing = ("src/models/patient.py\nsrc/models/diabetes.py\nsrc/scoring/asthma_risk.py\n"
               "docs/hypertension/README.md\nTicket #88: the patient in bed 4 has diabetes.")
    request = {"model": "gpt-4o", "messages": [
        {"role": "user", "content": "Where is the risk scoring?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "t1", "type": "function", "function": {
            "name": "exec", "arguments": json.dumps({"cmd": "git ls-files; cat TICKET"})}}]},
        {"role": "tool", "tool_call_id": "t1", "content": listing}]}
    log = _write_jsonl(tmp_path / "requests.jsonl", [{
        "id": "r1", "timestamp": "2026-11-03T10:00:01Z", "url": "https://api.openai.com/v1/chat/completions",
        "session_id": "dev", "request": request, "response": {"usage": {"prompt_tokens": 10, "completion_tokens": 1}}}])
    audited = json.loads(_cli("audit", str(log), "--discover", "--no-presidio", "--json", "--show-values"))
    (session,) = audited["sessions"]
    assert (session["units"], session["leaked"], session["exposure"]) == (1, 1, 1.0)
    assert [(r["dimension"], r["evidence"]) for r in audited["leaked"]] == [("health", "diabetes")]


async def _gemini_stream(request: Request):
    """A stand-in for Gemini's `streamGenerateContent?alt=sse` (not a model): two chunks, the last with the
    whole usage, then the connection closes: Gemini's SSE has no end marker."""
    def chunk(text: str, usage: dict, finish: dict) -> str:
        return "data: " + json.dumps({"candidates": [{"content": {"parts": [{"text": text}], "role": "model"},
                                                      **finish}], "usageMetadata": usage,
                                      "modelVersion": "gemini-2.5-flash"}) + "\r\n\r\n"

    async def events():
        yield chunk("Hel", {"promptTokenCount": 100, "totalTokenCount": 100}, {})
        yield chunk("lo", {"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120},
                    {"finishReason": "STOP"})
    return StreamingResponse(events(), media_type="text/event-stream")


def test_a_gemini_stream_through_the_proxy_ends_whole_and_is_priced(tmp_path):
    """A Gemini stream through `intercept`. By hand: the client gets Gemini's two chunks and nothing else;
    the record has no error and costs 100 · $0.30 + 20 · $2.50 per million = $0.00008 (gemini-2.5-flash).
    Before: every Gemini stream ended with an `upstream_error` event the proxy added ("upstream closed the
    stream before its end marker"), which the client's SDK raises on."""
    url, stop = serve_in_thread(Starlette(routes=[
        Route("/v1/models/gemini-2.5-flash:streamGenerateContent", _gemini_stream, methods=["POST"])]))
    try:
        with running_proxy(url + "/v1", tmp_path / "cloud.sqlite") as (_, proxy, records), \
                httpx.Client(base_url=proxy) as client:
            answer = client.post("/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
                                 json={"contents": [{"role": "user", "parts": [{"text": "Say hello."}]}]})
            (record,) = wait_for_records(records, 1)
    finally:
        stop()
    events = [json.loads(line[5:]) for line in answer.text.splitlines() if line.startswith("data:")]
    assert [e["candidates"][0]["content"]["parts"][0]["text"] for e in events] == ["Hel", "lo"]
    assert (record.error, record.input_tokens, record.output_tokens) == (None, 100, 20)
    assert record.cost_usd == pytest.approx(0.00008)


def test_a_task_map_that_maps_a_session_to_two_tasks_is_refused(tmp_path):
    """A CSV task map exported from a spreadsheet where s1 was entered twice, for t1 and for t2. By hand: which
    task s1 ran is not known, so exit 2 and one line naming both lines. Before: the last line won silently
    (s1 scored against t2's units). A session named twice for the same task is no conflict."""
    units = _write_jsonl(tmp_path / "units.jsonl", [
        {"task_id": "t1", "entity_id": "P1", "field": "name", "value": "Dana Whitfield", "dimension": "person_name"},
        {"task_id": "t2", "entity_id": "P2", "field": "name", "value": "Omar Haddad", "dimension": "person_name"}])
    log = _write_jsonl(tmp_path / "requests.jsonl", [_openai_record(
        "r1", "s1", "https://api.openai.com/v1/chat/completions", "gpt-4o", "Dana Whitfield")])
    task_map = tmp_path / "map.csv"
    task_map.write_text("session,task_id\ns1,t1\ns1,t1\ns1,t2\n")
    result = CliRunner().invoke(main, ["audit", str(log), "--units", str(units), "--task-map", str(task_map)])
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {task_map}:4: session 's1' is mapped to 't1' on line 2 and to 't2' here"
    task_map.write_text("session,task_id\ns1,t1\ns1,t1\n")
    (session,) = json.loads(_cli("audit", str(log), "--units", str(units), "--task-map", str(task_map),
                                 "--json"))["sessions"]
    assert (session["scored_against"], session["exposure"]) == ("task t1", 1.0)


def test_a_chinese_developers_bug_or_virus_scan_is_no_health_context(tmp_path):
    """`git diff --stat` beside a Chinese note that the script has an old fault (老毛病) and a slow virus scan
    (病毒扫描), then a patient's note. By hand: one health value, `2型糖尿病` (the patient's). Before: `deletions`
    too, as 病 inside 毛病 and 病毒 read as talk of health."""
    stat = "3 files changed, 10 insertions(+), 7 deletions(-)\n这个脚本有个老毛病，病毒扫描也慢。"
    note = "患者确诊2型糖尿病，正在服用二甲双胍。"
    request = {"model": "gpt-4o", "messages": [
        {"role": "user", "content": "看看改了什么"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "t1", "type": "function", "function": {
            "name": "exec", "arguments": json.dumps({"cmd": "git diff --stat"})}}]},
        {"role": "tool", "tool_call_id": "t1", "content": stat}, {"role": "user", "content": note}]}
    log = _write_jsonl(tmp_path / "requests.jsonl", [{
        "id": "r1", "timestamp": "2026-11-03T10:00:01Z", "url": "https://api.openai.com/v1/chat/completions",
        "session_id": "dev", "request": request, "response": {"usage": {"prompt_tokens": 10, "completion_tokens": 1}}}])
    audited = json.loads(_cli("audit", str(log), "--discover", "--no-presidio", "--json", "--show-values"))
    assert [r["evidence"] for r in audited["leaked"] if r["dimension"] == "health"] == ["2型糖尿病"]
