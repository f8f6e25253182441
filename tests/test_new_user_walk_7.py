"""Session 18, seventh walk: figures a new user reads off `units`, `report`, `judge`, `run` and `audit` on
inputs written here as users write theirs (AceBench's two ground-truth places, audits of several formats,
…), each checked against a count made by hand."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ec2audit.cli import main


def _cli(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def _items(path: Path, name: str, fields: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"items": [{"entity_id": "CUS-1", "name": name, "sensitive_fields": fields}]}),
                    encoding="utf-8")


def test_units_of_acebenchs_gt_gt_folders_belong_to_their_tasks(tmp_path):
    """AceBench's workspaces keep ground truth at `gt/sensitive_items.json` or `gt/gt/…` (its checks try both).
    Two tasks of the second kind, the same entity in each. By hand: 3 units of 3 tasks named by their folders.
    Before: both `gt/gt` files were task `gt`, and the import stopped on a duplicate unit id."""
    ws = tmp_path / "workspace" / "ACE_Bench"
    _items(ws / "task_101_review" / "gt" / "sensitive_items.json", "Zhao Lei",
           [{"field": "mobile", "value": "18621345678", "dimension": "phone", "weight": 1.5}])
    _items(ws / "task_102_review" / "gt" / "gt" / "sensitive_items.json", "Acme",
           [{"field": "contract_value", "value": 1500000, "weight": 2.0}])
    _items(ws / "task_103_crawl" / "gt" / "gt" / "sensitive_items.json", "Beta",
           [{"field": "contract_value", "value": "900000", "weight": 2.0}])
    out = tmp_path / "units.jsonl"
    code, output = _cli("units", "import-acebench", tmp_path / "workspace", "--out", out)
    assert code == 0, output
    assert "3 units from 3 tasks" in output
    units = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted((u["task_id"], u["value"]) for u in units) == [
        ("task_101_review", "18621345678"), ("task_102_review", "1500000"), ("task_103_crawl", "900000")]


def _run(out: Path, plan: list[tuple[str, str, float, float]]) -> Path:
    """A run folder as `ec2audit run` leaves it: one episode a (strategy, task, completion, exposure), the
    cloud-only ones two calls at $0.0022 each."""
    from test_new_user_walk_2 import _episode

    from ec2audit.run.episodes import RECORD, EpisodeSpec
    from ec2audit.run.scheduler import write_results

    specs = []
    for strategy, task, completion, exposure in plan:
        calls = 0 if strategy == "edge-only" else 2
        record = _episode(task, strategy, 0, completion, calls, 0.0022 * calls, None).to_dict()
        record.update(exposure=exposure, exposure_by_dimension=json.dumps({"contact": exposure}))
        folder = out / "episodes" / record["episode_id"]
        folder.mkdir(parents=True)
        (folder / RECORD).write_text(json.dumps(record))
        specs.append(EpisodeSpec(task, strategy, 0))
    write_results(out, specs)
    return out


def test_two_runs_written_under_one_folder_name_stay_two_in_every_table(tmp_path):
    """`report runs/a/out runs/b/out`: the same two strategies in each. By hand: a's edge-only completes
    (1.0 + 0.5)/2 = 75.0%, b's (0.2 + 0.7)/2 = 45.0%; b's cloud-only exposure (0.25 + 0.75)/2 = 0.500. Before:
    both rows were `edge-only [out]` in the JSON, plain `edge-only` in the terminal (rich read `[out]` as
    markup) and in every episode of the drilldown, so no row said which run it was."""
    a = _run(tmp_path / "a" / "out", [("edge-only", "A", 1.0, 0.0), ("cloud-only", "A", 0.6, 1.0),
                                      ("edge-only", "B", 0.5, 0.0), ("cloud-only", "B", 0.9, 0.5)])
    b = _run(tmp_path / "b" / "out", [("edge-only", "A", 0.2, 0.0), ("cloud-only", "A", 0.8, 0.25),
                                      ("edge-only", "B", 0.7, 0.0), ("cloud-only", "B", 0.9, 0.75)])
    code, output = _cli("report", a, b, "--out", tmp_path / "r.html")
    assert code == 0, output
    assert "│ edge-only [a/out]  │        2 │      0 │      75.0% │" in output  # none failed
    assert "│ edge-only [b/out]  │        2 │      0 │      45.0% │" in output
    code, output = _cli("report", a, b, "--json")
    data = json.loads(output)
    rows = {r["label"]: r for r in data["strategies"]}
    assert sorted(rows) == ["cloud-only [a/out]", "cloud-only [b/out]", "edge-only [a/out]", "edge-only [b/out]"]
    assert rows["cloud-only [b/out]"]["exposure"] == 0.5
    assert sorted(e["label"] for e in data["tasks"]["A"]) == sorted(rows)
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert html.count("edge-only [b/out]") >= 3  # table, plots and the drilldown's episodes


GEMINI = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash"


def test_gemini_calls_in_a_request_log_and_a_har_are_read_and_priced(tmp_path):
    """Gemini's `generateContent` bodies (`contents` of `parts`, the model named in the URL, usage in
    `usageMetadata`): a request log's call (10,000 prompt tokens, 4,000 of them cached, 500 out and 300 of
    thoughts) and a HAR's streamed call (2,000 in, 100 out) whose tool result holds the phone. By hand at
    LiteLLM's gemini-2.5-flash prices ($0.30 in, $0.03 cached, $2.50 out per million): 6,000·0.3 + 4,000·0.03 +
    800·2.5 = 3,920 µ$ and 2,000·0.3 + 100·2.5 = 850 µ$: 2 calls, 12,000 in, 900 out, $0.00477. Before: both
    files skipped (not a known format; the HAR's entry no model call), exit 1, 0 calls."""
    logs = tmp_path / "logs"
    logs.mkdir()
    request = {"systemInstruction": {"parts": [{"text": "You are a billing assistant."}]},
               "contents": [{"role": "user", "parts": [{"text": "Email maria.kessler@example.com the invoice."}]}]}
    (logs / "gemini.jsonl").write_text(json.dumps({
        "url": f"{GEMINI}:generateContent", "timestamp": "2026-11-04T10:00:00Z", "session_id": "g1",
        "request": request, "response": {
            "candidates": [{"content": {"role": "model", "parts": [{"text": "Done."}]}}],
            "modelVersion": "gemini-2.5-flash",
            "usageMetadata": {"promptTokenCount": 10000, "cachedContentTokenCount": 4000, "candidatesTokenCount": 500,
                              "thoughtsTokenCount": 300, "totalTokenCount": 10800}}}) + "\n", encoding="utf-8")
    turn = {"contents": [
        {"role": "user", "parts": [{"text": "Who is our contact at Acme?"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "crm_lookup", "args": {"company": "Acme"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "crm_lookup", "response": {
            "contact": "Maria Kessler", "phone": "+1 415 555 0142"}}}]}]}
    chunks = [{"candidates": [{"content": {"role": "model", "parts": [{"text": "Maria"}]}}],
               "usageMetadata": {"promptTokenCount": 2000, "candidatesTokenCount": 40},
               "modelVersion": "gemini-2.5-flash"},
              {"candidates": [{"content": {"role": "model", "parts": [{"text": " Kessler."}]}, "finishReason": "STOP"}],
               "usageMetadata": {"promptTokenCount": 2000, "candidatesTokenCount": 100, "totalTokenCount": 2100}}]
    stream = "".join(f"data: {json.dumps(c)}\r\n\r\n" for c in chunks)
    entry = {"startedDateTime": "2026-11-04T10:05:00Z",
             "request": {"method": "POST", "url": f"{GEMINI}:streamGenerateContent?alt=sse",
                         "postData": {"mimeType": "application/json", "text": json.dumps(turn)}},
             "response": {"status": 200, "content": {"mimeType": "text/event-stream", "text": stream}}}
    (logs / "studio.har").write_text(json.dumps({"log": {"version": "1.2", "entries": [entry]}}), encoding="utf-8")
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps(u) + "\n" for u in [
        {"task_id": "t", "entity_id": "E1", "field": "phone", "value": "+1 415 555 0142", "dimension": "contact"},
        {"task_id": "t", "entity_id": "E1", "field": "email", "value": "maria.kessler@example.com",
         "dimension": "contact"}]), encoding="utf-8")
    code, output = _cli("audit", logs, "--units", units, "--json", "--out", tmp_path / "findings.jsonl")
    assert code == 0, output
    data = json.loads(output[output.index("{\n"):])
    assert [(p["provider"], p["model"], p["calls"], p["input_tokens"], p["cached_tokens"], p["output_tokens"])
            for p in data["providers"]] == [("google", "gemini-2.5-flash", 2, 12000, 4000, 900)]
    assert abs(data["providers"][0]["cost_usd"] - 0.00477) < 1e-9
    findings = [json.loads(line) for line in (tmp_path / "findings.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {(f["unit_id"], f["origin"]) for f in findings} == {("t/E1/email", "user"), ("t/E1/phone", "tool_result")}


def test_a_candidate_windows_masked_evidence_shows_no_other_value_in_clear(tmp_path):
    """`judge UNITS PAYLOADS` with no judge lists the shortlisted window of the paraphrased salary for review,
    evidence masked. The window ends with the phone, a unit of its own. By hand: the phone is one exact
    finding (exposure 1.5 of 5.5 = 0.273) and appears nowhere in clear: the window is shown as its form. Before:
    the window kept its first and last fifth in clear, `… +1 415 555 0142.` at its end."""
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps(u) + "\n" for u in [
        {"task_id": "t", "entity_id": "E1", "field": "phone", "value": "+1 415 555 0142", "dimension": "contact"},
        {"task_id": "t", "entity_id": "E1", "field": "email", "value": "maria.kessler@example.com",
         "dimension": "contact"},
        {"task_id": "t", "entity_id": "E1", "field": "salary", "value": "185000", "dimension": "financial"}]),
        encoding="utf-8")
    payloads = tmp_path / "payloads.jsonl"
    text = "Maria earns a bit over 180k a year; write her a raise letter. Her number is +1 415 555 0142."
    request = {"model": "gpt-4o", "messages": [{"role": "user", "content": text}]}
    payloads.write_text(json.dumps({"id": "p1", "task_id": "t", "episode": "e1", "request": request}) + "\n",
                        encoding="utf-8")
    code, output = _cli("judge", units, payloads)
    assert code == 0, output
    assert "│ e1           │ t    │     3 │           1 │    0.273 │" in output
    assert "needs review: 1 candidate" in output
    assert "415 555" not in output and "0142" not in output


def test_units_imported_from_acebenchs_workspaces_carry_their_tasks_ids(tmp_path):
    """AceBench names a task `ACE_Bench_task_101_review` and its workspace `workspace/ACE_Bench/task_101_review`
    (its `## Workspace Path`). `units import-acebench` over the workspaces, or over AceBench's folder, gives
    units of the ids `tasks import-acebench` gives the tasks. By hand: 2 units of task ACE_Bench_task_101_review,
    1 of ACE_Bench_task_102_crawl (its `gt/gt` file). Before: tasks `task_101_review` and `task_102_crawl`,
    which no task, run or task map has, so every session was scored against no unit of its task."""
    root = tmp_path / "AceBench"
    for number, name, gt, fields in (
            (101, "review", "gt", [{"field": "mobile", "value": "18621345678", "dimension": "phone", "weight": 1.5},
                                   {"field": "salary", "value": "38000", "dimension": "salary", "weight": 2.5}]),
            (102, "crawl", "gt/gt", [{"field": "contract_value", "value": "1500000", "weight": 2.0}])):
        md = root / "tasks" / "ACE_Bench" / f"ACE_Bench_task_{number}_{name}.md"
        md.parent.mkdir(parents=True, exist_ok=True)
        md.write_text(f"---\nid: ACE_Bench_task_{number}_{name}\nname: Task {number}\ntimeout_seconds: 600\n"
                      "privacy_note: Salaries stay local.\nagent_category: Data Analysis\n---\n## Prompt\n\n"
                      "Review the accounts.\n\n## Grading Criteria\n\n- [ ] report (1.0): the report is written\n\n"
                      f"## Workspace Path\n\n```\nworkspace/ACE_Bench/task_{number}_{name}\n```\n", encoding="utf-8")
        _items(root / "workspace" / "ACE_Bench" / f"task_{number}_{name}" / gt / "sensitive_items.json",
               "Zhao Lei", fields)
    tasks_out = tmp_path / "tasks"
    code, output = _cli("tasks", "import-acebench", root, "--out", tasks_out)
    assert code == 0, output
    task_units = sorted((u["task_id"], u["field"]) for u in map(
        json.loads, (tasks_out / "units.jsonl").read_text(encoding="utf-8").splitlines()))
    assert task_units == [("ACE_Bench_task_101_review", "mobile"), ("ACE_Bench_task_101_review", "salary"),
                          ("ACE_Bench_task_102_crawl", "contract_value")]
    for source in (root / "workspace" / "ACE_Bench", root):
        out = tmp_path / "units.jsonl"
        code, output = _cli("units", "import-acebench", source, "--out", out)
        assert code == 0, output
        assert "3 units from 2 tasks" in output
        units = map(json.loads, out.read_text(encoding="utf-8").splitlines())
        assert sorted((u["task_id"], u["field"]) for u in units) == task_units


def test_a_unit_in_two_acebench_files_is_named_with_both_files(tmp_path):
    """The same task's file copied into a second folder: the import stops on the second file, naming the
    first. Before: `DIR:2: … (first on line 1)`, lines of a folder, which has none."""
    first, second = tmp_path / "a" / "gt" / "sensitive_items.json", tmp_path / "b" / "sensitive_items.json"
    for path in (first, second):
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps({"task_id": "T1", "items": [{"entity_id": "E1", "name": "Li", "sensitive_fields": [
            {"field": "phone", "value": "13800001111", "dimension": "phone"}]}]}), encoding="utf-8")
    result = CliRunner().invoke(main, ["units", "import-acebench", str(tmp_path), "--out", str(tmp_path / "u.jsonl")])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {second}: duplicate unit id 'T1/E1/phone' (first in {first})"
    assert not (tmp_path / "u.jsonl").exists()


def test_a_logged_call_is_priced_under_its_providers_name(tmp_path):
    """Calls to Mistral, xAI and Moonshot whose models LiteLLM's price map files only under the provider's
    prefix (`mistral/codestral-latest`), each 1,000 prompt and 100 output tokens. By hand: codestral-latest
    1,000·0.30 + 100·0.90 = 390 µ$, grok-4.3 1,000·1.25 + 100·2.50 = 1,500 µ$, kimi-k2.5 1,000·0.60 + 100·3.00
    = 900 µ$. Before: all three unknown (the proxy prices them by its upstream; the log audit looked up the bare
    name only)."""
    calls = [("https://api.mistral.ai/v1/chat/completions", None, "codestral-latest"),
             ("https://api.x.ai/v1/chat/completions", None, "grok-4.3"),
             ("https://gateway.example.com/v1/chat/completions", "moonshot", "kimi-k2.5")]
    log = tmp_path / "calls.jsonl"
    log.write_text("".join(json.dumps({
        "url": url, "provider": provider, "session_id": "s", "timestamp": f"2026-11-04T10:0{i}:00Z",
        "request": {"model": model, "messages": [{"role": "user", "content": "Summarise the release notes."}]},
        "response": {"model": model, "usage": {"prompt_tokens": 1000, "completion_tokens": 100}}}) + "\n"
        for i, (url, provider, model) in enumerate(calls)), encoding="utf-8")
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--json")
    assert code == 0, output
    data = json.loads(output[output.index("{\n"):])
    costs = {p["model"]: p["cost_usd"] for p in data["providers"]}
    assert costs == pytest.approx({"codestral-latest": 0.00039, "grok-4.3": 0.0015, "kimi-k2.5": 0.0009})


def test_a_tables_columns_say_what_its_values_are_in_discovery(tmp_path):
    """`audit --discover` over an agent that read a patients table. By hand, 9 values: per row the patient, the
    date of birth and the diagnosis, the `patient`, `dob` and `diagnosis` columns saying what each is. Before: 4
    (Aiko Tanaka: no known given name; `Asthma`, its header more than 80 characters above it: one medical word
    with no health word around it; the dates: date-shaped), so the third row was never looked for in any call."""
    table = ("id,patient,dob,diagnosis\n17,Henrik Olsen,1978-02-14,Type 2 diabetes\n"
             "18,Maria Kessler,1985-06-01,Essential hypertension\n19,Aiko Tanaka,1990-09-30,Asthma\n")
    messages = [{"role": "user", "content": "Summarise the patients export."},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "read", "arguments": '{"path": "p.csv"}'}}]},
                {"role": "tool", "tool_call_id": "c1", "content": table}]
    log = tmp_path / "clinic.jsonl"
    log.write_text(json.dumps({"url": "https://api.openai.com/v1/chat/completions", "session_id": "s",
                               "request": {"model": "gpt-4o", "messages": messages},
                               "response": {"usage": {"prompt_tokens": 300, "completion_tokens": 20}}}) + "\n")
    out = tmp_path / "findings.jsonl"
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--json", "--out", out)
    assert code == 0, output
    findings = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted((f["entity_id"], f["dimension"], f["matched_text"]) for f in findings) == [
        ("17", "health", "Type 2 diabetes"), ("17", "other", "1978-02-14"), ("17", "person_name", "Henrik Olsen"),
        ("18", "health", "Essential hypertension"), ("18", "other", "1985-06-01"),
        ("18", "person_name", "Maria Kessler"),
        ("19", "health", "Asthma"), ("19", "other", "1990-09-30"), ("19", "person_name", "Aiko Tanaka")]


def test_a_bedrock_converse_call_in_a_request_log_is_read_whole(tmp_path):
    """A logged Bedrock Converse call (`system` a list, content blocks without `type`: `{"text"}`, `{"toolUse"}`,
    `{"toolResult"}`): the e-mail in the user's text, the phone in the tool's result; 1,000 in and 100 out at
    Claude 3.5 Sonnet's $3 / $15 per million = $0.0045. By hand: both units leaked, exposure 1.0 over 2 units.
    Before: read as Anthropic Messages (it has `system`), whose blocks need a `type`: only the system prompt was
    read, no leak found."""
    body = {"system": [{"text": "Be brief."}], "inferenceConfig": {"maxTokens": 200}, "messages": [
        {"role": "user", "content": [{"text": "Look up Maria and email maria.kessler@example.com."}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "crm", "input": {"q": "Maria"}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [
            {"json": {"name": "Maria Kessler", "phone": "+1 415 555 0142"}}]}}]}]}
    url = ("https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0"
           "/converse")
    log = tmp_path / "bedrock.jsonl"
    log.write_text(json.dumps({"url": url, "session_id": "b1", "request": body, "response": {
        "output": {"message": {"role": "assistant", "content": [{"text": "Sent."}]}},
        "usage": {"inputTokens": 1000, "outputTokens": 100, "totalTokens": 1100}}}) + "\n", encoding="utf-8")
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps(u) + "\n" for u in [
        {"task_id": "t", "entity_id": "E1", "field": "phone", "value": "+1 415 555 0142", "dimension": "contact"},
        {"task_id": "t", "entity_id": "E1", "field": "email", "value": "maria.kessler@example.com",
         "dimension": "contact"}]), encoding="utf-8")
    out = tmp_path / "findings.jsonl"
    code, output = _cli("audit", log, "--units", units, "--json", "--out", out)
    assert code == 0, output
    data = json.loads(output[output.index("{\n"):])
    assert [(s["session"], s["units"], s["leaked"], s["exposure"]) for s in data["sessions"]] == [("b1", 2, 2, 1.0)]
    assert data["providers"][0]["cost_usd"] == pytest.approx(0.0045)
    findings = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {(f["unit_id"], f["origin"]) for f in findings} == {("t/E1/email", "user"), ("t/E1/phone", "tool_result")}


def test_report_on_a_log_audit_shows_each_leak_in_its_logged_text(tmp_path):
    """`report` on `audit --out` of a request log: the findings name the log they came from, so the evidence is
    cut from the logged call with its text around it, the values masked. By hand: the e-mail's context is
    `Email … the salary …`. Before: `no payloads found (give --payloads)` — an audit of logs writes no payloads
    file — and every leak shown without its context."""
    log = tmp_path / "anthropic.jsonl"
    log.write_text(json.dumps({
        "url": "https://api.anthropic.com/v1/messages", "session_id": "a1", "request": {
            "model": "claude-sonnet-4-5", "max_tokens": 500,
            "messages": [{"role": "user", "content": "Email maria.kessler@example.com the salary 185000."}]},
        "response": {"usage": {"input_tokens": 100, "output_tokens": 20}}}) + "\n", encoding="utf-8")
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps(u) + "\n" for u in [
        {"task_id": "t", "entity_id": "E1", "field": "email", "value": "maria.kessler@example.com",
         "dimension": "contact"},
        {"task_id": "t", "entity_id": "E1", "field": "salary", "value": "185000", "dimension": "financial"}]),
        encoding="utf-8")
    findings = tmp_path / "out" / "findings.parquet"
    findings.parent.mkdir()
    code, output = _cli("audit", log, "--units", units, "--out", findings)
    assert code == 0, output
    code, output = _cli("report", findings, "--out", tmp_path / "r.html")
    assert code == 0, output
    assert "no payloads found" not in output
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Email <mark" in html and "</mark> the salary <mark" in html
    assert "maria.kessler@example.com" not in html and "185000" not in html

    # the log moved away since the audit: said, by name, not silently shown without context
    log.rename(tmp_path / "moved.jsonl")
    code, output = _cli("report", findings, "--out", tmp_path / "r2.html")
    assert code == 0, output
    assert "anthropic.jsonl: not there any more" in " ".join(output.split())
    assert "Email <mark" not in (tmp_path / "r2.html").read_text(encoding="utf-8")


def test_an_unpriced_model_in_a_log_audit_is_said_without_an_option_audit_lacks(tmp_path, caplog):
    """A call to a model no price table knows, made cloud by `--cloud`: its cost is unknown, and the warning
    says where prices were looked for. Before: `(add it to a --pricing file)`, an option of `intercept serve`
    that `audit` does not take (`audit --pricing` is a usage error)."""
    log = tmp_path / "calls.jsonl"
    log.write_text(json.dumps({
        "url": "http://10.0.0.5:8000/v1/chat/completions", "session_id": "s",
        "request": {"model": "acme-llm-9", "messages": [{"role": "user", "content": "Hello"}]},
        "response": {"usage": {"prompt_tokens": 10, "completion_tokens": 2}}}) + "\n", encoding="utf-8")
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--cloud", "http://10.0.0.5*")
    assert code == 0, output
    assert "unknown: no price for the model" in output
    assert "no price for model 'acme-llm-9' in ec2audit's pricing.toml and LiteLLM's price map" in caplog.text
    assert "--pricing" not in output + caplog.text


def test_a_gemini_stream_recorded_as_a_json_array_is_priced(tmp_path):
    """A VCR cassette of Gemini's `streamGenerateContent` without `alt=sse`: the answer is one JSON array of
    chunks, the last with the whole usage (3,000 prompt tokens, 200 out, 100 of thoughts). By hand at
    gemini-2.5-flash's $0.30 / $2.50 per million: 3,000·0.3 + 300·2.5 = 1,650 µ$. Before: the array was no
    answer (only an object or SSE events were): 0 tokens read, no cost."""
    import yaml

    chunks = [{"candidates": [{"content": {"role": "model", "parts": [{"text": "Done"}]}}],
               "usageMetadata": {"promptTokenCount": 3000, "candidatesTokenCount": 50},
               "modelVersion": "gemini-2.5-flash"},
              {"candidates": [{"content": {"role": "model", "parts": [{"text": "."}]}, "finishReason": "STOP"}],
               "usageMetadata": {"promptTokenCount": 3000, "candidatesTokenCount": 200, "thoughtsTokenCount": 100}}]
    request = {"contents": [{"role": "user", "parts": [{"text": "Summarise the quarter."}]}]}
    cassette = {"version": 1, "interactions": [{
        "request": {"method": "POST", "uri": f"{GEMINI}:streamGenerateContent", "body": json.dumps(request),
                    "headers": {"x-goog-api-key": ["AIza-not-a-key"]}},
        "response": {"status": {"code": 200, "message": "OK"}, "headers": {"content-type": ["application/json"]},
                     "body": {"string": json.dumps(chunks)}}}]}
    path = tmp_path / "test_summary.yaml"
    path.write_text(yaml.safe_dump(cassette), encoding="utf-8")
    code, output = _cli("audit", path, "--discover", "--no-presidio", "--json")
    assert code == 0, output
    data = json.loads(output[output.index("{\n"):])
    assert [(p["model"], p["input_tokens"], p["output_tokens"]) for p in data["providers"]] == [
        ("gemini-2.5-flash", 3000, 300)]
    assert data["providers"][0]["cost_usd"] == pytest.approx(0.00165)
