"""Hand mutants of session 24 (benchmarks/hand_mutants.py; RESULTS.md, "Hand mutants in the code changed in session
23"): planted one at a time in the code session 23 changed, each survivor a behaviour no test held. Each test here
kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files, HTTP) or,
where the CLI cannot reach it, by what the library function gives."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from test_detect_forms_walk_5 import _read
from test_mutation_kills_s23 import _audit_json
from test_new_user_walk import TASK, UNITS, _openclaw
from test_new_user_walk_7 import _cli
from test_new_user_walk_11 import _units
from test_new_user_walk_12 import _batch_answer, _batch_request, _lines

MINI = "gpt-4o-mini"


def _batch(folder: Path, inputs: dict[str, list[str]], outputs: dict[str, list[str]]) -> Path:
    """A folder of batch files: each input file's requests and each output file's answers (gpt-4o-mini, 1,000 in
    and 100 out each), by `custom_id`."""
    folder.mkdir()
    for name, ids in inputs.items():
        _lines(folder / name, [_batch_request(i, MINI, f"Email maria.kessler@example.com ({i})") for i in ids])
    for name, ids in outputs.items():
        _lines(folder / name, [_batch_answer(i, MINI, 1000, 100) for i in ids])
    return folder


def _calls(data: dict) -> tuple[int, int, int | None]:
    """(calls, of them unpriced, input tokens) over the audit's providers; the tokens unknown (None) where a call
    of a row logged no usage (an unanswered request), as the audit says them since walk 19."""
    providers = data["providers"]
    tokens = [p["input_tokens"] for p in providers]
    return (sum(p["calls"] for p in providers), sum(p["unpriced_calls"] for p in providers),
            None if None in tokens else sum(tokens))


_UNANSWERED = "batch input without its output file"


@pytest.mark.parametrize(("inputs", "outputs", "expected", "named"), [
    # two batches both numbered r1, r2 and an output file whose ids both hold: read on its own (2 answers whose
    # request was not logged), the 4 requests unanswered (YB4), each file named with why
    ({"a.jsonl": ["r1", "r2"], "b.jsonl": ["r1", "r2"]}, {"out.jsonl": ["r1", "r2"]}, (6, 4, None),
     {"a.jsonl": _UNANSWERED, "b.jsonl": _UNANSWERED,
      "out.jsonl": "batch output read without its requests: 2 input files hold its ids"}),
    # an output whose ids only one input holds all of, though another holds some: that input's answers (YB3)
    ({"a.jsonl": ["r1", "r2", "r3"], "b.jsonl": ["r1", "r2"]}, {"out.jsonl": ["r1", "r2", "r3"]}, (5, 2, None),
     {"b.jsonl": _UNANSWERED}),
    # an output file named .ndjson answers the input beside it (YB5)
    ({"a.jsonl": ["r1"]}, {"out.ndjson": ["r1"]}, (1, 0, 1000), {}),
])
def test_a_batch_output_answers_the_one_input_holding_all_of_its_ids(tmp_path, inputs, outputs, expected, named):
    """By hand, each answer 1,000 tokens in: the calls, the unpriced among them and the tokens in; the files read
    without their partner named, each with why (exit 1), and no other."""
    folder = _batch(tmp_path / "batch", inputs, outputs)
    code, said = _cli("audit", folder, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == (1 if named else 0) and said.count("skipped ") == len(named), said
    assert all(f"{folder / name}: {why}" in said for name, why in named.items()), said
    assert _calls(json.loads(said[said.index("{\n"):])) == expected


def test_a_batch_request_that_expired_was_cancelled_or_failed_cost_nothing(tmp_path):
    """Batch lines that were not billed, as each API writes them: Anthropic's `expired` and `canceled` results
    (YB7), an OpenAI output line whose answer is a 500 without a body (YB9), a Vertex AI line whose `status` is the
    error and whose `response` is empty (YB13). By hand: every call costs $0 and none is unpriced."""
    anthropic = tmp_path / "anthropic"
    anthropic.mkdir()
    _lines(anthropic / "requests.jsonl", [{"custom_id": i, "params": {
        "model": "claude-sonnet-4-5-20250929", "max_tokens": 1024,
        "messages": [{"role": "user", "content": "Email maria.kessler@example.com"}]}} for i in ("c1", "c2")])
    _lines(anthropic / "results.jsonl", [{"custom_id": "c1", "result": {"type": "expired"}},
                                         {"custom_id": "c2", "result": {"type": "canceled"}}])
    openai = _batch(tmp_path / "openai", {"in.jsonl": ["r1"]}, {})
    _lines(openai / "out.jsonl", [{"id": "batch_req_1", "custom_id": "r1", "error": None,
                                   "response": {"status_code": 500, "request_id": "req_1", "body": {}}}])
    vertex = tmp_path / "vertex"
    vertex.mkdir()
    _lines(vertex / "predictions.jsonl", [{
        "status": "Bad Request: 400 Unable to submit request because it has an empty text parameter.",
        "processed_time": "2024-11-01T18:13:16.826+00:00", "response": {},
        "request": {"contents": [{"role": "user", "parts": [{"text": "Is maria.kessler@example.com on file?"}]}]}}])
    for folder, calls in ((anthropic, 2), (openai, 1), (vertex, 1)):
        data = _audit_json(folder, tmp_path)
        assert _calls(data) == (calls, 0, 0), folder
        assert [p["cost_usd"] for p in data["providers"]] == [0.0], folder


def test_a_batch_inputs_line_range_is_no_range_of_its_output(tmp_path):
    """The second line of a batch input read alone (`LINE_RANGE`, as a worker reads a part of a large file): its
    request's answer is the output file's first line, read whole (YB6)."""
    from ec2audit.logs import batch_api
    from ec2audit.logs.base import LINE_RANGE

    folder = _batch(tmp_path / "batch", {"in.jsonl": ["r1", "r2"]}, {"out.jsonl": ["r2", "r1"]})
    first = len((folder / "in.jsonl").read_bytes().splitlines(keepends=True)[0])
    errors: list = []
    token = LINE_RANGE.set((first, -1, 2))
    try:
        (call,) = batch_api.read(folder / "in.jsonl", errors.append)
    finally:
        LINE_RANGE.reset(token)
    assert errors == [] and call.meta["usage"]["input_tokens"] == 1000


def test_a_log_beside_a_batch_is_no_answer_file_of_it(tmp_path):
    """A request log beside a batch's files, one of its lines cut short: it is named once, by the log's own
    reader, not read again as the batch's answers (YB16); the batch's call keeps its answer."""
    folder = _batch(tmp_path / "batch", {"in.jsonl": ["r1"]}, {"out.jsonl": ["r1"]})
    log = folder / "requests.jsonl"
    record = {"url": "https://api.openai.com/v1/chat/completions", "session_id": "s1",
              "request": {"model": MINI, "messages": [{"role": "user", "content": "Hello"}]},
              "response": {"model": MINI, "usage": {"prompt_tokens": 10, "completion_tokens": 1}}}
    log.write_text(json.dumps(record) + "\n" + json.dumps(record)[:30] + "\n", encoding="utf-8")
    code, said = _cli("audit", folder, "--units", _units(tmp_path / "units.jsonl"))
    assert code == 1 and said.count(f"{log}:2: not valid JSON") == 1, said


def test_a_cline_task_names_its_last_model_and_tells_cache_reads_from_writes(tmp_path):
    """A Cline task whose user switched model (`model_usage`: Claude 3.7 Sonnet, then Claude Sonnet 4) and whose
    request read 2,000 tokens from the cache and wrote 100. By hand: the call is the last model's (YC6), 2,103
    tokens in, 2,000 of them cached (YC4), Cline's $0.01."""
    task = tmp_path / "tasks" / "1733412345678"
    task.mkdir(parents=True)
    (task / "api_conversation_history.json").write_text(json.dumps([
        {"role": "user", "content": [{"type": "text", "text": "<task>\nEmail maria.kessler@example.com\n</task>"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Sent."}]}]), encoding="utf-8")
    (task / "ui_messages.json").write_text(json.dumps([{"ts": 1, "type": "say", "say": "api_req_started",
                                                        "text": json.dumps({"tokensIn": 3, "tokensOut": 10,
                                                                            "cacheWrites": 100, "cacheReads": 2000,
                                                                            "cost": 0.01})}]), encoding="utf-8")
    (task / "task_metadata.json").write_text(json.dumps({"model_usage": [
        {"ts": 0, "model_id": "claude-3-7-sonnet-20250219"}, {"ts": 1, "model_id": "claude-sonnet-4-20250514"}]}),
        encoding="utf-8")
    (provider,) = _audit_json(tmp_path / "tasks", tmp_path)["providers"]
    assert (provider["model"], provider["input_tokens"], provider["cached_tokens"]) == (
        "claude-sonnet-4-20250514", 2103, 2000)
    assert provider["cost_usd"] == pytest.approx(0.01)


def test_an_ollama_embedding_counts_its_prompt_tokens(tmp_path):
    """Ollama's `/api/embed` answers with `prompt_eval_count` alone (no `eval_count`: it generates nothing), as its
    API docs show it. By hand: the edge row has 8 tokens in, 0 out (YO2)."""
    log = _lines(tmp_path / "requests.jsonl", [{"url": "http://localhost:11434/api/embed", "session_id": "o1",
                                                "request": {"model": "all-minilm",
                                                            "input": "maria.kessler@example.com"},
                                                "response": {"model": "all-minilm", "embeddings": [[0.01, -0.02]],
                                                             "total_duration": 14143917, "load_duration": 1019500,
                                                             "prompt_eval_count": 8}}])
    edge, = [p for p in _audit_json(log, tmp_path)["providers"] if p["side"] == "edge"]
    assert (edge["model"], edge["input_tokens"], edge["output_tokens"]) == ("all-minilm", 8, 0)


@pytest.mark.parametrize(("details", "tokens"), [
    # gpt-4o-audio's audio prompt, a bucket of its own beside `input` (YF4)
    ({"input": 1000, "input_audio_tokens": 200, "output": 50}, (1200, 0, 50)),
    # the OpenAI integration's cached prompt tokens: read apart, once (YF3)
    ({"input": 1000, "input_cached_tokens": 4000, "output": 50}, (5000, 4000, 50)),
    # Gemini's per-modality split of the same counts: not added again (YF2)
    ({"input": 1000, "input_modality_text": 1000, "output": 50, "output_modality_text": 50}, (1000, 0, 50)),
])
def test_langfuses_usage_buckets_are_each_counted_once(tmp_path, details, tokens):
    """A Langfuse observations export of one generation with the given `usageDetails`. By hand: (tokens in, of
    them cached, tokens out)."""
    export = tmp_path / "observations.json"
    export.write_text(json.dumps([{
        "id": "obs-1", "traceId": "tr-1", "type": "GENERATION", "startTime": "2026-11-09T09:00:01.000Z",
        "model": "gpt-4o", "input": [{"role": "user", "content": "Email maria.kessler@example.com the plan."}],
        "output": {"role": "assistant", "content": "Done."}, "usageDetails": details}]), encoding="utf-8")
    (provider,) = _audit_json(export, tmp_path)["providers"]
    assert (provider["input_tokens"], provider["cached_tokens"], provider["output_tokens"]) == tokens


def _sse(events: list[dict], done: bool = False) -> str:
    return "".join(f"data: {json.dumps(e)}\n\n" for e in events) + ("data: [DONE]\n\n" if done else "")


_GEMINI_CHUNK: dict = {
    "candidates": [{"content": {"parts": [{"text": "Yes."}], "role": "model"}}],
    "usageMetadata": {"promptTokenCount": 1000, "candidatesTokenCount": 100, "totalTokenCount": 1100},
    "modelVersion": "gemini-2.5-flash"}
_OPENAI_CHUNK = {"id": "chatcmpl-9", "object": "chat.completion.chunk", "model": "gpt-4o-mini",
                 "choices": [{"index": 0, "delta": {"content": "Done."}, "finish_reason": None}],
                 "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}}


@pytest.mark.parametrize(("url", "text"), [
    # Anthropic's stream whose `message_delta` names its stop reason, the `message_stop` after it not kept (YH4)
    ("https://api.anthropic.com/v1/messages", "message_stop"),
    # Gemini's stream, its last chunk's candidate naming its `finishReason` (YH5)
    ("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
     _sse([_GEMINI_CHUNK, {**_GEMINI_CHUNK, "candidates": [{**_GEMINI_CHUNK["candidates"][0],
                                                             "finishReason": "STOP"}]}])),
    # an OpenAI-compatible stream whose chunks name no finish reason, ended by `[DONE]` (YH1)
    ("https://api.openai.com/v1/chat/completions", _sse([_OPENAI_CHUNK], done=True)),
])
def test_a_stream_that_ended_is_priced_whichever_way_it_says_so(tmp_path, url, text):
    """A gateway's request log keeping each streamed answer as its text (1,000 tokens in). By hand: the call is
    priced, none unpriced; only a stream that no event ends is `cost unknown: answer cut off`."""
    from test_new_user_walk_12 import _anthropic_stream

    if text == "message_stop":
        stop = 'event: message_stop\ndata: {"type": "message_stop"}\n\n'
        text = _anthropic_stream(400, ended=True).removesuffix(stop)
        assert "message_stop" not in text
    model = "claude-sonnet-4-5-20250929" if "anthropic" in url else "gemini-2.5-flash" if "gemini" in url else MINI
    log = _lines(tmp_path / "gateway.jsonl", [{
        "url": url, "session_id": "s1", "status_code": 200,
        "request_body": {"model": model, "stream": True,
                         "messages": [{"role": "user", "content": "Email maria.kessler@example.com"}]},
        "response_body": text}])
    (provider,) = _audit_json(log, tmp_path)["providers"]
    assert (provider["input_tokens"], provider["unpriced_calls"]) == (1000, 0)
    assert provider["cost_usd"] > 0


def test_an_answer_logged_as_empty_text_beside_its_usage_is_priced(tmp_path):
    """A gateway's log keeping the answer's text (empty here) and the call's usage beside it: no stream, so nothing
    was cut off, and the usage prices it (YH2). By hand at gpt-4o-mini's $0.15 / $0.60 per million: $0.00021."""
    log = _lines(tmp_path / "gateway.jsonl", [{
        "url": "https://api.openai.com/v1/chat/completions", "session_id": "s1", "status_code": 200,
        "request_body": {"model": MINI, "messages": [{"role": "user", "content": "Email maria.kessler@example.com"}]},
        "response_body": "", "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}}])
    (provider,) = _audit_json(log, tmp_path)["providers"]
    assert provider["cost_usd"] == pytest.approx(0.00021)


def test_report_names_the_first_call_of_a_units_best_grade_not_a_later_one_as_good(tmp_path):
    """A session that sends the name whole at call #2 and whole again at #4. By hand, as `audit` prints it: first
    leaked at call #2, grade 1.0 (YR2: a later call of the same grade is no first leak)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    _openclaw(logs, "s1", ["Maria Kessler asked about her claim.", "The weather.", "Maria Kessler again."])
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps({"task_id": "t", "entity_id": "E1", "field": "name", "dimension": "person_name",
                                 "value": "Maria Kessler"}) + "\n", encoding="utf-8")
    (tmp_path / "map.json").write_text('{"s1": "t"}', encoding="utf-8")
    out = tmp_path / "out" / "findings.parquet"
    code, output = _cli("audit", logs, "--units", units, "--task-map", tmp_path / "map.json", "--out", out)
    assert code == 0, output
    code, output = _cli("report", out.parent, "--json")
    assert code == 0, output
    (episode,) = json.loads(output)["tasks"]["t"]
    assert [(leak["grade"], leak["step"]) for leak in episode["leaks"]] == [(1.0, 2)]


def test_intercept_audits_sessions_table_counts_what_went_to_the_cloud_and_what_it_cost(standin, tmp_path):
    """`intercept serve` blocking the task's units in front of the stand-in: ep1 asks one question (forwarded) and
    sends the card (blocked), ep2 asks a model no price list knows, ep3 asks once under each of the three tasks the
    units hold. By hand, the sessions table `intercept audit --out` writes beside its findings: ep1 1 call, to the
    cloud, its blocked request no call, as `audit STORE` counts it (walk 22; YI3 counts it: 2, 2); ep2's cost
    unknown, not $0 (YI2); ep3 scored against each of the three tasks by name (YI6)."""
    import httpx
    import polars as pl
    from intercept_helpers import running_proxy

    from ec2audit.logs.audit import sessions_path
    from ec2audit.units import read_units

    _, upstream = standin
    units = tmp_path / "units.jsonl"
    others = [{**UNITS[0], "task_id": task} for task in ("hr", "travel")]
    units.write_text("".join(json.dumps(u) + "\n" for u in [*UNITS, *others]), encoding="utf-8")
    question = [{"role": "user", "content": "What is 2+2?"}]
    with running_proxy(upstream, tmp_path / "cloud.sqlite", units=read_units(units), enforce="block") as (_, url, _), \
            httpx.Client(timeout=30) as client:
        for path, model, messages in (
                (f"e/ep1/t/{TASK}", "gpt-4o", question),
                (f"e/ep1/t/{TASK}", "gpt-4o", [{"role": "user", "content": "Her card is 4111 1111 1111 1111"}]),
                (f"e/ep2/t/{TASK}", "mystery-model-7", question),
                *((f"e/ep3/t/{task}", "gpt-4o", question) for task in (TASK, "hr", "travel"))):
            client.post(f"{url}/{path}/v1/chat/completions", json={"model": model, "messages": messages})
    out = tmp_path / "out" / "findings.parquet"
    code, output = _cli("intercept", "audit", tmp_path / "cloud.sqlite", "--units", units, "--out", out)
    assert code == 0, output
    rows = {r["session"]: r for r in pl.read_parquet(sessions_path(out)).to_dicts()}
    assert {s: (r["calls"], r["cloud_calls"], r["cloud_unpriced_calls"]) for s, r in rows.items()} == {
        "ep1": (1, 1, 0), "ep2": (1, 1, 1), "ep3": (3, 3, 0)}
    assert rows["ep1"]["cloud_usd"] > 0 and rows["ep2"]["cloud_usd"] is None
    assert rows["ep3"]["scored_against"] == "task billing, hr, travel"


def test_an_acebench_items_text_ends_at_a_blank_line_or_a_heading_and_its_weight_may_be_a_percentage(tmp_path):
    """Grading Criteria with a weight written after the item as a percentage, a note after a blank line and a note
    under a heading. By hand: the first item weighs 0.4 of its subsection, half of the whole (0.2), and reads
    without its weight (YA1); neither note is part of the item before it (YA7, YA9: the blank line ends it; YA8:
    so does the heading)."""
    from test_new_user_walk_13 import _acebench_md, _imported

    task = _imported(_acebench_md(tmp_path, "ACE_Bench_task_40_contact_reply", "回复张伟。", """\
- [ ] search: searched the contacts — weight 40%
- [ ] reply: replied to the user

Notes: the checker reads the final answer only.
- [ ] tone: kept a polite tone
### Privacy
Reviewed by hand.
- [ ] no_echo: no key echoed
"""))
    assert [c["description"] for c in task["criteria"]] == [
        "searched the contacts", "replied to the user", "kept a polite tone", "no key echoed"]
    assert task["criteria"][0]["weight"] == pytest.approx(0.4 / 2)


def test_a_stripe_keys_placeholder_is_no_credential_and_a_surname_column_completes_a_name(tmp_path):
    """A workspace with a README's Stripe placeholder (`sk_live_` and lower-case x's, as docs write it) and a CSV
    of `given_name`, `surname` and `mrn`, one of `name`. By hand: no credential (YK3: the placeholder is no random
    key); the rows are Amelia Hart's and Jonas Weber's (YW2), Will Hartley's (YW4); each medical record number is
    a health unit (YL1)."""
    from test_new_user_walk_5 import _prelabel

    found = _prelabel(tmp_path, {
        "README.md": "Set STRIPE_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxxxxxx in your .env first.\n",
        "people.csv": "id,given_name,surname,mrn\nP-1,Amelia,Hart,00482913\nP-2,Jonas,Weber,00517734\n",
        "clients.csv": "id,name,phone\nC-1,Will Hartley,(415) 555-0187\n"})
    assert [u["value"] for u in found if u["dimension"] == "credential"] == []
    assert {u["entity_id"]: u["entity_name"] for u in found} == {
        "P-1": "Amelia Hart", "P-2": "Jonas Weber", "C-1": "Will Hartley"}
    assert sorted((u["value"], u["dimension"]) for u in found if u["field"] == "mrn") == [
        ("00482913", "health"), ("00517734", "health")]


def test_a_unit_sent_mostly_is_a_leak_in_its_groups_count(tmp_path):
    """`metrics.by_group`, whose counts `intercept audit --out` writes in its sessions table: the phone sent masked
    (`+1 415-***-0199`, grade `MOSTLY`) is leaked, the name sent in fragments is not (YM1). By hand: 4 units, 1
    leaked, exposure (1.5 × 0.7 + 1.0 × 0.3) / 8."""
    from ec2audit import metrics
    from ec2audit.detect.finding import FRAGMENT, MOSTLY
    from ec2audit.units import read_units

    units = read_units(_lines(tmp_path / "units.jsonl", UNITS))
    grades = {u.field: u.id for u in units}
    table = metrics.unit_table(units, {"ep1": {grades["phone"]: MOSTLY, grades["name"]: FRAGMENT}}, {"ep1": {TASK}})
    scored = metrics.by_group(table)["ep1"]
    assert (scored["units"], scored["leaked"]) == (4, 1)
    assert scored["exposure"] == pytest.approx((1.5 * 0.7 + 1.0 * 0.3) / 8)


@pytest.mark.parametrize(("text", "read"), [
    ("https://www.google.com/search?q=Jos%C3%A9+N%C3%BA%C3%B1ez&hl=en",  # after an `=` (YU6)
     "https://www.google.com/search?q=José Núñez&hl=en"),
    ("https://example.org/people/José+Núñez", "https://example.org/people/José Núñez"),  # plain letters, `/` (YU3)
    ("https://example.org/tags/caf%C3%A9+%E2%82%AC", None),  # a word that decodes to no letter (YU4)
    ("https://example.org/r/Jos%C3%A9+N%C3%BA%C3%B1ez_2", None),  # the last word not whole (YU2)
])
def test_a_links_plus_joined_words_are_read_as_a_name_only_where_they_are_one(text, read):
    """The `url_plus` form's reading of a link: its `+`-joined words as `unquote_plus` reads them, or the link as it
    stands (None)."""
    from ec2audit.detect.forms.url_plus import UrlPlus

    assert _read(UrlPlus, text) == (read or text)


def test_utf16_text_is_read_by_its_byte_order_mark_or_where_its_holder_says_it_is_text():
    """`views.utf16_text`: a file after either byte order mark, big-endian too (YV4, YV6), the mark not part of its
    text; a short value of four characters (YV7); a Chinese name in SQL Server's `0x` hex, no ASCII at all, read
    where the `0x` says it is text (YV2), and the same bytes unmarked left alone."""
    from ec2audit.detect.forms.hex_strings import hex_text
    from ec2audit.detect.views import utf16_text

    assert utf16_text(b"\xfe\xff" + "Maria Kessler".encode("utf-16-be")) == "Maria Kessler"
    assert utf16_text(b"\xff\xfe" + "Maria Kessler".encode("utf-16-le")) == "Maria Kessler"
    assert utf16_text("Hart".encode("utf-16-le")) == "Hart"
    name = "王小明先生".encode("utf-16-le").hex().upper()
    assert (hex_text(name, prefixed=True), hex_text(name)) == ("王小明先生", None)


def test_a_powershell_encoded_command_is_read_without_any_other_hint_of_base64(tmp_path):
    """A process list's PowerShell command line (`-EncodedCommand`, the script as base64 of its UTF-16LE) with no
    padding and no other word that hints at base64: `audit` reads the script and finds the name it writes (YV5)."""
    script = "Set-Content C:\\crm\\P1.txt 'Maria Kessler, claim 44110'"
    assert len(script) % 3 == 0  # its UTF-16LE a multiple of 3 bytes: base64 without `=`
    encoded = base64.b64encode(script.encode("utf-16-le")).decode()
    log = _openclaw(tmp_path, "ps", [f"PID 4412 powershell.exe -NoProfile -EncodedCommand {encoded}"])
    units = _lines(tmp_path / "units.jsonl", [{"task_id": "t", "entity_id": "E1", "field": "name",
                                               "dimension": "person_name", "value": "Maria Kessler"}])
    code, output = _cli("audit", log, "--units", units, "--json", "--show-values")
    assert code == 0, output
    assert [leak["grade"] for leak in json.loads(output[output.index("{\n"):])["leaked"]] == [1.0]


def test_a_cached_table_is_kept_fresh_built_again_for_other_code_and_survives_a_cache_it_cannot_write(
        tmp_path, monkeypatch):
    """`compiled.cached_table`: a table read from the cache is marked recently used (YE4: the cache keeps its newest
    files); another version of the code builds it again (YE3); a cache folder that cannot be made costs the build,
    nothing else (YE5)."""
    import os

    from ec2audit.detect import compiled

    monkeypatch.setenv("EC2AUDIT_HOME", str(tmp_path / "home"))
    built: list[int] = []

    def table() -> list[int]:
        built.append(1)
        return [1, 2, 3]

    def valid(found: object) -> bool:
        return isinstance(found, list)

    assert compiled.cached_table("probe", table, valid) == [1, 2, 3]
    (path,) = (tmp_path / "home" / "cache" / "tables").glob("probe-*.json")
    os.utime(path, (1_000_000, 1_000_000))
    assert compiled.cached_table("probe", table, valid) == [1, 2, 3] and len(built) == 1
    assert path.stat().st_mtime > 1_000_000
    monkeypatch.setattr(compiled, "_code_version", lambda: "another version")
    assert compiled.cached_table("probe", table, valid) == [1, 2, 3] and len(built) == 2
    monkeypatch.setenv("EC2AUDIT_HOME", str(tmp_path / "other"))
    (tmp_path / "other" / "cache").mkdir(parents=True)
    (tmp_path / "other" / "cache" / "tables").write_text("a file where the folder goes", encoding="utf-8")
    assert compiled.cached_table("probe", table, valid) == [1, 2, 3] and len(built) == 3


def test_a_normal_result_or_a_denial_finds_nothing_and_a_decimal_is_stated_only_as_written():
    """Learned grader v4's features: a result within normal range, alone, and a denial in Chinese, alone, find
    nothing about a health value (YG5, YG6); an HbA1c of 7.4% is not stated by a text that says 7.0% (YG7: the
    value's numbers compared to six places, not rounded to whole ones)."""
    from test_judge_descriptions import unit

    from ec2audit.detect import learned_grader

    diabetes = unit("type 2 diabetes, HbA1c 7.4%", "health")
    assert learned_grader.finds_nothing(diabetes, "Fasting glucose within normal range at the last visit.")
    assert learned_grader.finds_nothing(diabetes, "患者否认糖尿病。")
    assert learned_grader.states_numbers(diabetes, "Her HbA1c was 7.4% and she has type 2 diabetes.")
    assert not learned_grader.states_numbers(diabetes, "Her HbA1c was 7.0% and she has type 2 diabetes.")
