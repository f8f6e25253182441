"""Hand mutants of session 19 (benchmarks/RESULTS.md, "Session 19: hand mutants"): planted one at a time in the
modules changed in sessions 17-18, each survivor a behaviour no test held. Each test here kills one or more,
by what a user sees (CLI output, files, HTTP), its figures worked out by hand in the comments."""

from __future__ import annotations

import gzip
import json
import re
import zlib

import brotli
import httpx
import pytest
import zstandard
from click.testing import CliRunner
from intercept_helpers import UNITS, running_proxy
from test_audit_cli import UNITS as AUDIT_UNITS

from ec2audit.audit import audit_file
from ec2audit.cli import main
from ec2audit.intercept.pricing import price
from ec2audit.intercept.usage import Usage
from ec2audit.units import write_units


def _cli(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


# --- intercept/pricing.py: whose price list a logged call is looked up in ----------------------------------

def test_a_logged_call_is_priced_by_its_urls_provider_first_then_a_bare_name(tmp_path):
    """deepseek-v4-flash is filed in LiteLLM's map bare ($0.30 in, $1.20 out per million), under `dashscope/`
    ($0.20, $0.40) and under `fireworks_ai/` ($0.14, $0.28); each call 1,000 prompt and 100 output tokens.
    By hand: through DashScope 1,000·0.20 + 100·0.40 = 240 µ$ (its URL's list before the bare name); through
    Fireworks with the log naming the provider `deepseek` 1,000·0.14 + 100·0.28 = 168 µ$ (the URL's list before
    the provider's name); through a gateway naming the provider `deepseek` 1,000·0.30 + 100·1.20 = 420 µ$."""
    calls = [("https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions", None),
             ("https://api.fireworks.ai/inference/v1/chat/completions", "deepseek"),
             ("https://gateway.example.com/v1/chat/completions", "deepseek")]
    log = tmp_path / "calls.jsonl"
    log.write_text("".join(json.dumps({
        "url": url, "provider": provider, "session_id": f"s{i}", "timestamp": f"2026-11-04T10:0{i}:00Z",
        "request": {"model": "deepseek-v4-flash", "messages": [{"role": "user", "content": "Summarise the notes."}]},
        "response": {"model": "deepseek-v4-flash", "usage": {"prompt_tokens": 1000, "completion_tokens": 100}}}) + "\n"
        for i, (url, provider) in enumerate(calls)), encoding="utf-8")
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--json")
    assert code == 0, output
    data = json.loads(output[output.index("{\n"):])
    # one row per (provider the log names, model): the two `deepseek` calls 168 + 420 = 588 µ$
    rows = {p["provider"]: (p["calls"], round(p["cost_usd"] * 1e6, 6)) for p in data["providers"]}
    assert rows == {None: (1, 240.0), "deepseek": (2, 588.0)}


def test_a_calls_price_splits_its_prompt_into_cached_written_and_plain_tokens():
    """claude-sonnet-4-5 ($3 in, $0.30 cached, $3.75 written for 5 min, $6 written for 1 h, $15 out per million),
    10,000 prompt tokens of which 2,000 read from cache and 4,000 written (1,000 of them for an hour), 1,000 out.
    By hand: 4,000·3 + 2,000·0.30 + 3,000·3.75 + 1,000·6 + 1,000·15 = 44,850 µ$. A new dated snapshot
    (`-20260101`, in no price list yet) costs what its undated name does."""
    usage = Usage(10_000, 2_000, 1_000, 4_000, 1_000)
    assert price("claude-sonnet-4-5", usage) == pytest.approx(0.04485)
    assert price("claude-sonnet-4-5-20260101", usage) == pytest.approx(0.04485)


def test_a_prompt_of_exactly_a_tiers_threshold_is_priced_below_it():
    """gemini-2.5-pro costs $1.25 in and $10 out per million up to 200K prompt tokens, $2.50 and $15 above. By hand:
    200,000 in and 1,000 out is 200,000·1.25 + 1,000·10 = 260,000 µ$; one more prompt token is above the tier:
    200,001·2.50 + 1,000·15 = 515,002.5 µ$."""
    assert price("gemini-2.5-pro", {"prompt_tokens": 200_000, "completion_tokens": 1_000}) == pytest.approx(0.26)
    assert price("gemini-2.5-pro", {"prompt_tokens": 200_001, "completion_tokens": 1_000}) == pytest.approx(0.5150025)


# --- intercept/app.py: a request body's limit, counted on what it decodes to -------------------------------

LIMIT = 4096


def _body_of(size: int) -> bytes:
    """A chat body of exactly `size` bytes: spaces before its closing brace (JSON allows them)."""
    base = json.dumps({"model": "echo", "messages": [{"role": "user", "content": "hello"}]}).encode()
    return base[:-1] + b" " * (size - len(base)) + b"}"


ENCODE = {"identity": lambda b: b, "gzip": gzip.compress, "deflate": zlib.compress,
          "zstd": zstandard.ZstdCompressor().compress, "br": brotli.compress}


@pytest.mark.parametrize("encoding", sorted(ENCODE))
def test_a_body_of_exactly_the_limit_goes_out_and_one_byte_more_is_refused(standin, tmp_path, encoding):
    """`max_body_bytes` 4096: a body that decodes to 4,096 bytes is forwarded (200); 4,097 bytes is a 413
    on record, nothing forwarded, whichever Content-Encoding carried it (the limit counts decoded bytes)."""
    app, upstream = standin
    seen = len(app.state.requests)
    headers = {"content-type": "application/json"} | ({} if encoding == "identity" else {"content-encoding": encoding})
    with running_proxy(upstream, tmp_path / "s.sqlite", max_body_bytes=LIMIT) as (_, url, store):
        fits = httpx.post(f"{url}/v1/chat/completions", content=ENCODE[encoding](_body_of(LIMIT)), headers=headers,
                          timeout=20)
        over = httpx.post(f"{url}/v1/chat/completions", content=ENCODE[encoding](_body_of(LIMIT + 1)),
                          headers=headers, timeout=20)
        records = store.records()
    assert fits.status_code == 200, fits.text
    assert over.status_code == 413 and "4096-byte limit" in over.json()["error"]["message"]
    assert [r.status for r in records] == [200, 413]
    assert len(app.state.requests) == seen + 1  # only the body that fits went out


def test_a_chunked_body_past_the_limit_is_refused_without_a_length_to_read(standin, tmp_path):
    """A body sent chunked (no Content-Length to check first) is counted as it arrives: 4,097 bytes in
    three chunks is a 413 on record; 4,096 bytes in three chunks goes out."""
    app, upstream = standin
    seen = len(app.state.requests)

    def chunks(data: bytes):
        yield from (data[:1000], data[1000:3000], data[3000:])

    with running_proxy(upstream, tmp_path / "s.sqlite", max_body_bytes=LIMIT) as (_, url, store):
        fits = httpx.post(f"{url}/v1/chat/completions", content=chunks(_body_of(LIMIT)), timeout=20)
        over = httpx.post(f"{url}/v1/chat/completions", content=chunks(_body_of(LIMIT + 1)), timeout=20)
        records = store.records()
    assert fits.status_code == 200, fits.text
    assert over.status_code == 413 and "over the 4096-byte limit" in over.json()["error"]["message"]
    assert [r.status for r in records] == [200, 413] and len(app.state.requests) == seen + 1


def test_a_content_encoding_is_read_whatever_its_case(standin, tmp_path):
    """Content codings are case-insensitive (RFC 9110 §8.4.1): `GZIP` and `Br` bodies are decoded, audited and
    redacted like `gzip` and `br` ones: the phone number never reaches the upstream."""
    app, upstream = standin
    body = json.dumps({"model": "echo", "messages": [{"role": "user", "content": "call 13922883366"}]}).encode()
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, store):
        answers = [httpx.post(f"{url}/v1/chat/completions", content=encode(body), timeout=20,
                              headers={"content-encoding": name, "content-type": "application/json"})
                   for name, encode in (("GZIP", gzip.compress), ("Br", brotli.compress))]
    assert [a.status_code for a in answers] == [200, 200]
    sent = app.state.requests[seen:]
    assert len(sent) == 2 and all("13922883366" not in s["raw"].decode() for s in sent)


# --- units import-acebench: the task ids of AceBench's workspaces, from a relative path ----------------------

def _acebench_task(root, number: int, name: str, gt: str, fields: list[dict]) -> None:
    """A task file under AceBench's `tasks/` naming its workspace, and the workspace's ground truth at `gt`."""
    md = root / "tasks" / "ACE_Bench" / f"ACE_Bench_task_{number}_{name}.md"
    md.parent.mkdir(parents=True, exist_ok=True)
    md.write_text(f"---\nid: ACE_Bench_task_{number}_{name}\nname: Task {number}\ntimeout_seconds: 600\n"
                  "agent_category: Data Analysis\n---\n## Prompt\n\nReview the accounts.\n\n## Workspace Path\n\n"
                  f"```\nworkspace/ACE_Bench/task_{number}_{name}\n```\n", encoding="utf-8")
    items = root / "workspace" / "ACE_Bench" / f"task_{number}_{name}" / gt / "sensitive_items.json"
    items.parent.mkdir(parents=True, exist_ok=True)
    items.write_text(json.dumps({"items": [{"entity_id": "CUS-1", "name": "Zhao Lei", "sensitive_fields": fields}]}),
                     encoding="utf-8")


def test_units_imported_from_a_relative_path_carry_their_tasks_ids(tmp_path, monkeypatch):
    """`units import-acebench AceBench/workspace/ACE_Bench` typed in the folder above AceBench's: the task ids are
    the ones the task files give their workspaces, as from an absolute path. By hand: mobile of task
    ACE_Bench_task_101_review (its `gt/`), contract_value of ACE_Bench_task_102_crawl (its `gt/gt/`); with the
    folders' own names (task_101_review) no task, run or task map would match them."""
    root = tmp_path / "AceBench"
    _acebench_task(root, 101, "review", "gt", [{"field": "mobile", "value": "18621345678", "dimension": "phone"}])
    _acebench_task(root, 102, "crawl", "gt/gt", [{"field": "contract_value", "value": "1500000", "weight": 2.0}])
    monkeypatch.chdir(tmp_path)
    code, output = _cli("units", "import-acebench", "AceBench/workspace/ACE_Bench", "--out", "units.jsonl")
    assert code == 0, output
    units = [json.loads(line) for line in (tmp_path / "units.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted((u["task_id"], u["field"]) for u in units) == [
        ("ACE_Bench_task_101_review", "mobile"), ("ACE_Bench_task_102_crawl", "contract_value")]


def test_a_tasks_units_beside_its_workspace_folder_are_found(tmp_path):
    """A task whose `## Workspace Path` names the agent's files (`…/task_101_review/files`) and whose ground truth
    sits beside that folder (`…/task_101_review/gt/sensitive_items.json`): `tasks import-acebench` finds it. By
    hand: 1 unit (mobile) of task ACE_Bench_task_101_review."""
    root = tmp_path / "AceBench"
    md = root / "tasks" / "ACE_Bench" / "ACE_Bench_task_101_review.md"
    md.parent.mkdir(parents=True)
    md.write_text("---\nid: ACE_Bench_task_101_review\nname: Task 101\ntimeout_seconds: 600\n"
                  "agent_category: Data Analysis\n---\n## Prompt\n\nReview the accounts.\n\n## Grading Criteria\n\n"
                  "- [ ] report (1.0): the report is written\n\n## Workspace Path\n\n"
                  "```\nworkspace/ACE_Bench/task_101_review/files\n```\n", encoding="utf-8")
    task = root / "workspace" / "ACE_Bench" / "task_101_review"
    (task / "files").mkdir(parents=True)
    (task / "gt").mkdir()
    (task / "gt" / "sensitive_items.json").write_text(json.dumps({"items": [{"entity_id": "CUS-1", "sensitive_fields": [
        {"field": "mobile", "value": "18621345678", "dimension": "phone"}]}]}), encoding="utf-8")
    code, output = _cli("tasks", "import-acebench", root, "--out", tmp_path / "tasks")
    assert code == 0, output
    units = [json.loads(line) for line in (tmp_path / "tasks" / "units.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(u["task_id"], u["field"]) for u in units] == [("ACE_Bench_task_101_review", "mobile")]


# --- audit.py: a group's grade of a unit, over its payloads ---------------------------------------------------

PHONE_UNITS = AUDIT_UNITS  # a national ID (3.0), a phone (1.5), a name (1.0) of P1, task t1


def _chat(text: str) -> dict:
    return {"model": "gpt-5.4", "messages": [{"role": "user", "content": text}]}


def test_a_units_grade_in_a_session_is_its_best_not_its_last(tmp_path):
    """One session: the phone sent whole (1.0), then masked in a later call (`139****3366`, 0.7). Its grade is
    1.0, whatever came after. By hand, over the task's three units (weights 3 + 1.5 + 1 = 5.5): exposure
    1.5·1.0 / 5.5 = 0.2727 (not 1.5·0.7 / 5.5 = 0.1909), 1 unit leaked; 2 payloads of 14 characters each (`手机`,
    a space, 11 more), 28 read."""
    write_units(PHONE_UNITS, tmp_path / "units.jsonl")
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(
        {"id": f"req-{i}", "task_id": "t1", "episode": "ep-1", "request": _chat(text)}, ensure_ascii=False) + "\n"
        for i, text in enumerate(["手机 13922883366", "手机 139****3366"])), encoding="utf-8")
    code, output = _cli("audit", tmp_path / "p.jsonl", "--units", tmp_path / "units.jsonl", "--json")
    assert code == 0, output
    summary = json.loads(output)
    assert (summary["payloads"], summary["characters"]) == (2, 28)
    (row,) = summary["exposure"]
    assert (row["group"], row["units"], row["leaked"]) == ("ep-1", 3, 1)
    assert row["exposure"] == pytest.approx(1.5 / 5.5)
    # the library's audit of the same file (the README's `audit_file`) grades it the same
    result = audit_file(tmp_path / "p.jsonl", PHONE_UNITS)
    assert dict(result.exposure().select("group", "exposure").iter_rows()) == pytest.approx({"ep-1": 1.5 / 5.5})
    assert result.grades == {"ep-1": {"t1/P1/phone": 1.0}}


def test_the_library_audit_of_a_file_keeps_its_bad_lines_as_errors(tmp_path):
    """`audit_file` (the README's library call) over three lines, the second cut off: 2 payloads audited, the
    bad line kept in `errors` naming the file and line 2, not dropped unsaid."""
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"id": "r1", "task_id": "t1", "episode": "ep-1", "request": _chat("手机 13922883366")},
                               ensure_ascii=False) + "\n{truncated\n"
                    + json.dumps({"id": "r3", "task_id": "t1", "episode": "ep-1", "request": _chat("ok")}) + "\n",
                    encoding="utf-8")
    result = audit_file(path, PHONE_UNITS)
    assert result.payload_count == 2
    assert [(e.file, e.line) for e in result.errors] == [(str(path), 2)]


# --- intercept/fields.py: where a value read across text parts is replaced --------------------------------

def _redacted(standin, tmp_path, path: str, body: dict) -> tuple[httpx.Response, int, dict]:
    """`body` through a redacting proxy to the stand-in: the answer, the redactions recorded, the body sent on."""
    app, upstream = standin
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, store):
        answer = httpx.post(f"{url}{path}", timeout=20, json=body)
        [record] = store.records()
    [sent] = app.state.requests[seen:]
    return answer, record.redactions, sent["body"]


def test_a_value_starting_a_text_part_is_replaced_in_that_part(standin, tmp_path):
    """Three text parts `call ` + `1392288` + `3366 today`: the phone starts exactly where the second part does
    and runs into the third. Redacted, the placeholder is the second part and the third loses `3366`; the first
    part goes out as it was sent (`call `), not with the placeholder glued on."""
    parts = [{"type": "text", "text": t} for t in ("call ", "1392288", "3366 today")]
    answer, redactions, sent = _redacted(standin, tmp_path, "/v1/chat/completions",
                                         {"model": "echo", "messages": [{"role": "user", "content": parts}]})
    assert answer.status_code == 200 and redactions == 1
    texts = [p["text"] for p in sent["messages"][0]["content"]]
    assert texts[0] == "call " and re.fullmatch(r"\[PHONE_\d+\]", texts[1]) and texts[2] == " today"


def test_text_parts_with_json_text_between_are_not_read_as_one(standin, tmp_path):
    """Text parts `order 1392288`, a part of JSON text, `3366 units shipped`: the model reads the JSON between the
    two numbers, so they are two numbers, not the phone 13922883366: nothing is replaced, the body goes out as
    sent."""
    parts = [{"type": "text", "text": t} for t in ("order 1392288", '{"batch": 7}', "3366 units shipped")]
    answer, redactions, sent = _redacted(standin, tmp_path, "/v1/chat/completions",
                                         {"model": "echo", "messages": [{"role": "user", "content": parts}]})
    assert answer.status_code == 200 and redactions == 0
    assert sent["messages"][0]["content"] == parts


def test_two_tool_calls_in_a_row_are_two_texts(standin, tmp_path):
    """A Responses input with two `function_call` items one after the other, the first's argument ending
    `1392288`, the second's starting `3366`: two calls the model made, each with its own arguments, so not the
    phone 13922883366 cut in two: nothing is replaced, both calls go out as sent."""
    calls = [{"type": "function_call", "call_id": f"call_{i}", "name": "lookup", "arguments": json.dumps({"q": q})}
             for i, q in enumerate(["order 1392288", "3366 units"])]
    body = {"model": "echo", "input": [{"role": "user", "content": "Check the orders."}, *calls]}
    answer, redactions, sent = _redacted(standin, tmp_path, "/v1/responses", body)
    assert answer.status_code == 200 and redactions == 0
    assert sent["input"][1:] == calls


# --- report/summary.py: an audit's cloud cost when one session's is unknown ---------------------------------

def test_a_reports_usd_is_unknown_where_one_sessions_is_not_the_known_part(tmp_path):
    """Two sessions to the cloud, 100 prompt and 10 output tokens each: s1 to gpt-4o ($2.50 in, $10 out per million:
    100·2.50 + 10·10 = 350 µ$), s2 to a model no price list has (its USD unknown). The audit row's USD is unknown
    (null), not s1's 350 µ$ read as the whole; its calls (2) and tokens (200 in, 20 out) are known."""
    calls = [("s1", "gpt-4o"), ("s2", "acme-internal-llm-7")]
    log = tmp_path / "requests.jsonl"
    log.write_text("".join(json.dumps({
        "id": f"r{i}", "timestamp": f"2026-12-06T10:00:0{i}Z", "url": "https://api.openai.com/v1/chat/completions",
        "session_id": session, "request": {"model": model, "messages": [{"role": "user", "content": "Plan the day."}]},
        "response": {"usage": {"prompt_tokens": 100, "completion_tokens": 10}}}) + "\n"
        for i, (session, model) in enumerate(calls)), encoding="utf-8")
    write_units(PHONE_UNITS, tmp_path / "units.jsonl")
    out = tmp_path / "out"
    out.mkdir()
    code, output = _cli("audit", log, "--units", tmp_path / "units.jsonl", "--out", out / "findings.parquet")
    assert code == 0, output
    code, output = _cli("report", out, "--json")
    assert code == 0, output
    data = json.loads(output)
    [row] = data["strategies"]
    assert (row["cloud_calls"], row["cloud_input_tokens"], row["cloud_output_tokens"]) == (2, 200, 20)
    assert row["cloud_usd"] is None and row["usd_per_episode"] is None
    assert {g["label"]: g["cloud_usd"] for g in data["groups"]} == {"s1": pytest.approx(0.00035), "s2": None}
