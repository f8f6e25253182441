"""Session 26, seventeenth walk: figures and messages a new user reads off the CLI on inputs written here as other
tools write theirs (AceBench's folder without its downloaded task data, Gemini CLI sessions, …), each checked
against a count made by hand."""

import json
import shutil

import pytest
from test_new_user_walk import _openclaw
from test_new_user_walk_7 import _cli
from test_new_user_walk_14 import _audited
from test_tasks_acebench import _acebench_replica

from ec2audit.logs import acebench_audit


def test_an_acebench_tasks_missing_workspace_folder_is_named_as_missing(tmp_path):
    """AceBench's folder as cloned, three privacy-annotated tasks (101 and 102 with ground truth, 103 without): by
    hand, with task 103's workspace folder deleted, one line naming that folder and the task; with the whole
    `workspace/` never downloaded (AceBench's script/prepare.sh expects the task data there), one line for all three
    tasks naming `workspace/` as missing; with the task files copied away from AceBench's folder, the same and the
    `--root` hint. Before: `its Workspace Path is not under ROOT`, though it is, and a folder nobody named."""
    root = tmp_path / "AceBench"
    _acebench_replica(root)
    task = "ACE_Bench_task_103_scp_crawl"
    shutil.rmtree(root / "workspace" / "ACE_Bench" / "task_103_scp_crawl")
    code, said = _cli("tasks", "import-acebench", root)
    assert code == 1
    line, = [line for line in said.splitlines() if "privacy_note" in line]
    assert line.endswith(f"its workspace folder {root / 'workspace' / 'ACE_Bench' / 'task_103_scp_crawl'} is "
                         f"missing (task {task})"), line
    shutil.rmtree(root / "workspace")
    code, said = _cli("tasks", "import-acebench", root)
    line, = [line for line in said.splitlines() if "privacy_note" in line]
    assert line.startswith("not mapped: 3 files") and line.endswith(
        f"the folder {root / 'workspace'} that the tasks' workspaces are under is missing"), line
    shutil.copytree(root / "tasks", tmp_path / "copied")
    code, said = _cli("tasks", "import-acebench", tmp_path / "copied")
    line, = [line for line in said.splitlines() if "privacy_note" in line]
    assert "is missing; no AceBench folder (one holding tasks/) above the task file: give it with --root" in line
    assert "not under" not in said


#: A Gemini CLI session as `ChatRecordingService` writes it (`JSON.stringify(conversation, null, 2)`): the prompt, a
#: response that read a file (its tool's `result` the `functionResponse` sent back), and the answer after it.
GEMINI_SESSION = {
    "sessionId": "a1b2c3d4-1111-2222-3333-444455556666",
    "projectHash": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "startTime": "2025-11-03T10:12:01.000Z", "lastUpdated": "2025-11-03T10:13:40.000Z",
    "messages": [
        {"id": "5e0c-user", "timestamp": "2025-11-03T10:12:01.000Z", "type": "user",
         "content": "Read patients.csv and email maria.kessler@example.com a summary."},
        {"id": "7b1d-gemini", "timestamp": "2025-11-03T10:12:09.000Z", "type": "gemini",
         "content": "I'll read the file.", "thoughts": [], "model": "gemini-2.5-pro",
         "tokens": {"input": 9000, "output": 120, "cached": 0, "thoughts": 40, "tool": 0, "total": 9160},
         "toolCalls": [{"id": "read_file-1762164729-1", "name": "read_file",
                        "args": {"absolute_path": "/home/u/clinic/patients.csv"},
                        "result": [{"functionResponse": {"id": "read_file-1762164729-1", "name": "read_file",
                                                         "response": {"output": "name,phone\nMaria Kessler,"
                                                                                "+49 30 1234567\n"}}}],
                        "status": "success", "timestamp": "2025-11-03T10:12:10.000Z", "displayName": "ReadFile"}]},
        {"id": "9c2e-gemini", "timestamp": "2025-11-03T10:12:30.000Z", "type": "gemini", "content": "Done.",
         "thoughts": [], "model": "gemini-2.5-pro",
         "tokens": {"input": 9300, "output": 50, "cached": 8000, "thoughts": 0, "tool": 0, "total": 9350}},
        {"id": "a0f3-info", "timestamp": "2025-11-03T10:13:40.000Z", "type": "info", "content": "Session saved."}]}


def _gemini_jsonl(session: dict) -> str:
    """The session as Gemini CLI ≥ April 2026 appends it on resuming it (`.json` → `.jsonl` beside it): the metadata,
    a `$set`, each message, the tool-calling response written first without its tokens and results, then again."""
    meta = {k: session[k] for k in ("sessionId", "projectHash", "startTime", "lastUpdated")}
    user, called, answer, info = session["messages"]
    early = {**called, "tokens": None, "toolCalls": [{k: v for k, v in c.items() if k != "result"}
                                                     for c in called["toolCalls"]]}
    lines = [meta, user, {"$set": {"lastUpdated": "2025-11-03T10:12:02.000Z"}}, early, called, answer, info]
    return "".join(json.dumps(line) + "\n" for line in lines)


def test_a_gemini_cli_session_is_read_priced_and_counted_once_in_its_resumed_copy(tmp_path):
    """`~/.gemini/tmp/<hash>/chats/` holding a session's `.json` and the `.jsonl` Gemini CLI made of it when it was
    resumed. By hand: 2 calls (the two `gemini` messages; `info` is the CLI's own), gemini-2.5-pro at $1.25 / $0.125
    cached / $10 per million: #1 9,000 in, 120 + 40 thinking out = $0.01125 + $0.0016; #2 1,300 uncached + 8,000
    cached in, 50 out = $0.001625 + $0.001 + $0.0005; 18,300 in, 210 out, $0.015975. The address leaks in the
    prompt (#1), the phone in the file read (#2, carried by `read_file` of patients.csv). Before: both files `not a
    known log format`, nothing read."""
    chats = tmp_path / "chats"
    chats.mkdir()
    (chats / "session-2025-11-03T10-12-a1b2c3d4.json").write_text(json.dumps(GEMINI_SESSION, indent=2),
                                                                  encoding="utf-8")
    (chats / "session-2025-11-03T10-12-a1b2c3d4.jsonl").write_text(_gemini_jsonl(GEMINI_SESSION), encoding="utf-8")
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps({"task_id": "t", "entity_id": "P1", "field": field, "dimension": "contact",
                                         "value": value}) + "\n"
                             for field, value in [("email", "maria.kessler@example.com"),
                                                  ("phone", "+49 30 1234567")]), encoding="utf-8")
    code, said, data = _audited(chats, "--units", units, "--show-values")
    assert code == 0, said
    provider, = data["providers"]
    assert (provider["provider"], provider["model"], provider["calls"]) == ("google", "gemini-2.5-pro", 2)
    assert (provider["input_tokens"], provider["cached_tokens"], provider["output_tokens"]) == (18_300, 8_000, 210)
    assert provider["cost_usd"] == pytest.approx(0.015975)
    session, = data["sessions"]
    assert (session["session"], session["leaked"]) == ("a1b2c3d4-1111-2222-3333-444455556666", 2)
    assert sorted((leak["unit_id"], leak["step"], leak["tool"], leak["file"]) for leak in data["leaked"]) == [
        ("t/P1/email", 1, None, None), ("t/P1/phone", 2, "read_file", "/home/u/clinic/patients.csv")]


def _helicone(request_id: str, session: str, text: str, minute: int) -> dict:
    """One request as `npx @helicone/export --include-body` writes it (Helicone's `HeliconeRequest` row, the bodies
    fetched from its signed URL): a gpt-4o call made through Helicone with a `Helicone-Session-Id` header."""
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": text}]}
    answer = {"id": f"chatcmpl-{request_id}", "object": "chat.completion", "model": "gpt-4o-2024-08-06",
              "choices": [{"index": 0, "message": {"role": "assistant", "content": "Done."}, "finish_reason": "stop"}],
              "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}}
    return {"response_id": f"r-{request_id}", "response_created_at": f"2025-10-01T10:{minute:02d}:02.000Z",
            "response_body": answer, "response_status": 200, "response_model": "gpt-4o-2024-08-06",
            "request_id": request_id, "request_created_at": f"2025-10-01T10:{minute:02d}:00.000Z",
            "request_body": body, "request_path": "/v1/chat/completions", "request_user_id": "u-42",
            "request_properties": {"Helicone-Session-Id": session, "Helicone-Session-Name": "claims"},
            "request_model": "gpt-4o", "model_override": None, "helicone_user": None, "provider": "OPENAI",
            "delay_ms": 812, "time_to_first_token": 305, "total_tokens": 1100, "prompt_tokens": 1000,
            "prompt_cache_write_tokens": 0, "prompt_cache_read_tokens": 0, "completion_tokens": 100,
            "prompt_id": None, "signed_body_url": "https://s3.example/bodies/" + request_id, "country_code": "DE",
            "asset_ids": None, "asset_urls": None, "scores": None, "costUSD": 0.0035,
            "properties": {"Helicone-Session-Id": session, "Helicone-Session-Name": "claims"}, "assets": [],
            "target_url": "https://api.openai.com/v1/chat/completions", "model": "gpt-4o",
            "cache_reference_id": "00000000-0000-0000-0000-000000000000", "cache_enabled": False}


HELICONE = [_helicone("3f9a", "claim-1001", "Email maria.kessler@example.com about claim 1001.", 5),
            _helicone("7c2e", "claim-1002", "Call +49 30 1234567 about claim 1002.", 9)]


def _contact_units(path):
    path.write_text("".join(json.dumps({"task_id": "t", "entity_id": "P1", "field": field, "dimension": "contact",
                                        "value": value}) + "\n"
                            for field, value in [("email", "maria.kessler@example.com"),
                                                 ("phone", "+49 30 1234567")]), encoding="utf-8")
    return path


def test_a_helicone_export_keeps_its_sessions_and_times(tmp_path):
    """Two calls of two Helicone sessions (`Helicone-Session-Id` claim-1001, claim-1002) exported as JSONL. By hand:
    2 sessions of 1 call each, claim-1001 leaking the address and claim-1002 the phone, each first sent at the time
    Helicone logged its request (10:05, 10:09), 2,000 in, 200 out, 2 × ($0.0025 + $0.001) = $0.007 at gpt-4o's $2.50
    / $10. Before: one session named after the file (`output`, 2 of 2 leaked) and no time of day."""
    export = tmp_path / "output.jsonl"
    export.write_text("".join(json.dumps(record) + "\n" for record in HELICONE), encoding="utf-8")
    code, said, data = _audited(export, "--units", _contact_units(tmp_path / "units.jsonl"))
    assert code == 0, said
    assert {s["session"]: (s["calls"], s["leaked"]) for s in data["sessions"]} == {
        "claim-1001": (1, 1), "claim-1002": (1, 1)}
    assert sorted((leak["session"], leak["unit_id"], leak["timestamp"][:19]) for leak in data["leaked"]) == [
        ("claim-1001", "t/P1/email", "2025-10-01T10:05:00"), ("claim-1002", "t/P1/phone", "2025-10-01T10:09:00")]
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (2, 2_000, 200)
    assert provider["cost_usd"] == pytest.approx(0.007)


def test_a_helicone_json_export_is_read_and_its_trailing_comma_said_in_one_line(tmp_path):
    """The same calls exported with `--format json`: the tool writes each record followed by `,` (the last too), then
    `]`. By hand: both calls read, in their two sessions, and one line saying the document breaks off after item
    2, exit 1. Before: `not a known log format` (a JSON array of `request_body` records), nothing read."""
    export = tmp_path / "output.json"
    export.write_text("[\n" + "".join(json.dumps(record, indent=2) + ",\n" for record in HELICONE) + "]\n",
                      encoding="utf-8")
    code, said, data = _audited(export, "--units", _contact_units(tmp_path / "units.jsonl"))
    assert code == 1
    assert {s["session"]: s["leaked"] for s in data["sessions"]} == {"claim-1001": 1, "claim-1002": 1}
    broken = [line for line in said.splitlines() if line.startswith("skipped ")]
    assert len(broken) == 1 and broken[0].endswith("(right here) ------^)"), said
    assert f"{export}: not valid JSON after item 2, rest skipped (parse error: " in broken[0]


def test_files_saved_with_a_byte_order_mark_are_read(tmp_path):
    """Units written on Windows by PowerShell 5 (`… | Out-File -Encoding utf8 units.jsonl`: a UTF-8 byte order mark,
    CRLF line ends), and an AceBench task and its `gt/sensitive_items.json` saved by an editor that writes the mark.
    By hand: `units check` 3 units (contact 2, financial 1), the audit of a session that sent the address 1 of them
    leaked; the task imported with its 2 units and no problem. Before: `a CSV table, not units JSONL` (exit 2), the
    task `no YAML front matter` and the ground truth `cannot read AceBench items: Unexpected UTF-8 BOM`."""
    rows = [("email", "maria.kessler@example.com", "contact"), ("phone", "+49 30 1234567", "contact"),
            ("salary", "84,500", "financial")]
    units = tmp_path / "units.jsonl"
    units.write_bytes(b"\xef\xbb\xbf" + "".join(json.dumps({"task_id": "t", "entity_id": "P1", "field": field,
                                                             "value": value, "dimension": dimension}) + "\r\n"
                                                 for field, value, dimension in rows).encode("utf-8"))
    code, said = _cli("units", "check", units)
    assert code == 0 and f"{units}: 3 units" in said, said
    (tmp_path / "logs").mkdir()
    _openclaw(tmp_path / "logs", "t", ["Email maria.kessler@example.com the claim."])
    code, said, data = _audited(tmp_path / "logs", "--units", units)
    assert code == 0, said
    assert [(s["leaked"], s["units"]) for s in data["sessions"]] == [(1, 3)]
    root = tmp_path / "AceBench"
    _acebench_replica(root)
    for path in (root / "tasks" / "ACE_Bench" / "ACE_Bench_task_101_quarterly_customer_review.md",
                 root / "workspace" / "ACE_Bench" / "task_101_quarterly_customer_review" / "gt" /
                 "sensitive_items.json"):
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    code, said = _cli("tasks", "import-acebench", root / "tasks" / "ACE_Bench" /
                      "ACE_Bench_task_101_quarterly_customer_review.md")
    assert "2 units in 1 task" in said, said
    assert all("front matter key 'qwen_" in line for line in said.splitlines() if line.startswith("not mapped")), said


def _hybrid_task(root, number: int, split: str, grading: str, rubric: str) -> None:
    """A task of AceBench's hybrid kind (its QwenClawBench tasks): the score split between the checklist and an LLM
    judge in the front matter, the judge's rubric under `## LLM Judge Rubric`."""
    md = root / "tasks" / "ACE_Bench" / f"ACE_Bench_task_{number}_hybrid.md"
    md.parent.mkdir(parents=True, exist_ok=True)
    md.write_text(f"""---
id: ACE_Bench_task_{number}_hybrid
name: '[QCB] Onboarding skill {number}'
source: QwenClawBench
original_id: task_{number:05d}_onboarding
category: ACE_Bench
timeout_seconds: 1800
{split}
agent_category: "Automation"
---
## Prompt

Create the onboarding skill and run it on this workspace.

## Grading Criteria

{grading}

## Automated Checks

```python
def grade(transcript: list, workspace_path: str) -> dict:
    return {{"skill_exists": 1.0}}
```

## LLM Judge Rubric

{rubric}
## Workspace Path

```
workspace/ACE_Bench/task_{number}_hybrid
```
""", encoding="utf-8")


CHECKLIST = ("- [ ] `SKILL.md` exists with YAML frontmatter\n- [ ] `AGENTS.md` names the session id\n"
             "- [ ] `.openclaw/workspace-state.json` holds the heartbeat count\n")
RUBRIC = ("### Skill File Quality (Weight: 20%)\n- 1.0: complete.\n- 0.0: missing.\n\n"
          "### Scaffold File Grounding (Weight: 35%)\n- 1.0: grounded.\n\n"
          "### Workspace State Tracking (Weight: 20%)\n- 1.0: all fields.\n\n"
          "### Inconsistency Detection and Analysis (Weight: 25%)\n- 1.0: found.\n\n")


def test_an_acebench_hybrid_tasks_score_is_split_between_its_checklist_and_its_judge(tmp_path):
    """AceBench's hybrid tasks grade `overall = 0.4 × checklist + 0.6 × LLM judge` (`qwen_grading_weights` in the front
    matter; the task's `grade()` uses the same two numbers), the judge scoring the rubric's weighted criteria. By
    hand, for 3 checklist items and a rubric of 20/35/20/25 %: each item 0.4 / 3 = 0.1333, the rubric 0.12, 0.21,
    0.12, 0.15; a task naming no rubric criterion keeps one judge criterion of 0.6. Near misses: a task whose
    Grading Criteria already weighs both channels (`### Deterministic checks (weight 0.15, …)`) and one of `automated:
    1.0, llm_judge: 0.0` keep their checklist as written (1/3 each). Before: the checklist alone, 1/3 each, the judge's
    0.6 of the score nowhere."""
    root = tmp_path / "AceBench"
    _hybrid_task(root, 111, "qwen_grading_type: hybrid\nqwen_grading_weights:\n  automated: 0.4\n  llm_judge: 0.6",
                 CHECKLIST, RUBRIC)
    _hybrid_task(root, 112, "grading_type: hybrid\ngrading_weights:\n  automated: 0.4\n  llm_judge: 0.6",
                 CHECKLIST, "Judge the report's quality as a whole.\n")
    _hybrid_task(root, 113, "grading_weights:\n  automated: 0.15\n  llm_judge: 0.85",
                 "### Deterministic checks (weight 0.15, 1 item):\n- [ ] report_exists: the report exists\n\n"
                 "### LLM-Judge Rubric (weight 0.85, see `## LLM Judge Rubric`):\n"
                 "- [ ] Criterion 1 - Depth (60%)\n- [ ] Criterion 2 - Structure (40%)\n", RUBRIC)
    _hybrid_task(root, 114, "qwen_grading_weights:\n  automated: 1.0\n  llm_judge: 0.0", CHECKLIST, "")
    code, said = _cli("tasks", "import-acebench", root, "--json")
    tasks = {t["id"].split("_")[3]: [(c["key"], round(c["weight"], 4)) for c in t["criteria"]]
             for t in json.loads(said[said.index("{"):])["tasks"]}
    items = ["skill_md_exists_with_yaml_frontmatter", "agents_md_names_the_session_id",
             "openclaw_workspace_state_json_holds_the"]
    assert tasks["111"] == [(key, 0.1333) for key in items] + [
        ("llm_judge_skill_file_quality", 0.12), ("llm_judge_scaffold_file_grounding", 0.21),
        ("llm_judge_workspace_state_tracking", 0.12), ("llm_judge_inconsistency_detection_and_analysis", 0.15)]
    assert tasks["112"] == [(key, 0.1333) for key in items] + [("llm_judge_llm_judge_rubric", 0.6)]
    assert [w for _, w in tasks["113"]] == [0.15, 0.51, 0.34]
    assert tasks["114"] == [(key, 0.3333) for key in items]


TASK_44 = "ACE_Bench_task_44_ambiguous_contact_email"


def _cloud_audit(folder, records: list[dict]) -> None:
    """AceBench's `cloud_assistant_audit.jsonl` of one run, where `eval/run_batch.py` collects it:
    `output/<category>/<task id>/<model + strategy + time + run id>/`, beside the `usage.json` its `cal_cost` writes
    for every run (the agent's own tokens, read from the transcript)."""
    folder.mkdir(parents=True)
    (folder / "cloud_assistant_audit.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records),
                                                        encoding="utf-8")
    (folder / "usage.json").write_text(json.dumps({"input_tokens": 0, "output_tokens": 0, "request_count": 0}),
                                       encoding="utf-8")


def _task_44_runs(tmp_path):
    """Two runs of AceBench's task 44 as `eval/run_batch.py` leaves them (see the test below), and the task's
    units; the output folder and the units file."""
    output = tmp_path / "output" / "ACE_Bench" / TASK_44
    system = {"role": "system", "content": "You are the advisor for a smaller executor agent."}
    _cloud_audit(output / "Qwen3.5-27B_advisor-gpt-5.4_20260420_0801_a1b2c3_run1", [
        {"timestamp": "2026-04-20T08:01:02.123Z", "model": "gpt-5.4", "prompt_tokens": 12000, "completion_tokens": 800,
         "total_tokens": 12800, "cache_read_tokens": 8000, "cache_write_tokens": 0, "latency_ms": 5321,
         "query": "Which contact should get the email?", "transcript_chars": 20311, "input": [system, {
             "role": "user", "content": "[TOOL RESULT read]\nname,email\nMaria Kessler,maria.kessler@example.com"}],
         "output": "Send it to the account owner."},
        {"timestamp": "2026-04-20T08:03:10.000Z", "model": "gpt-5.4", "prompt_tokens": 3000, "completion_tokens": 200,
         "total_tokens": 3200, "cache_read_tokens": 0, "cache_write_tokens": 0, "latency_ms": 1200,
         "query": "Confirm the phone format", "transcript_chars": 900,
         "input": [system, {"role": "user", "content": "Is +49 30 1234567 written right?"}], "output": "Yes."}])
    _cloud_audit(output / "Qwen3.5-27B_step-router-gpt-5.4_20260420_0915_d4e5f6_run2", [
        {"timestamp": "2026-04-20T09:15:40+00:00", "model": "gpt-5.4", "session_id": "s-9f2c", "decision": "cloud",
         "prompt_tokens": 2000, "completion_tokens": 100, "total_tokens": 2100, "cache_read_tokens": 0,
         "cache_write_tokens": 0, "latency_ms": 900, "input": [
             {"role": "user", "content": "Draft the offer letter."},
             {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {
                 "name": "read", "arguments": "{\"path\": \"hr/offer.md\"}"}}]},
             {"role": "tool", "tool_call_id": "c1", "content": "Base salary: 84,500 EUR"}],
         "output": "Dear candidate, …", "output_tool_calls": [], "context_messages": 3, "n_redacted_tokens": 0,
         "redact_enabled": False, "incremental": False, "catchup_messages": 0}])
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps({"task_id": TASK_44, "entity_id": "E1", "field": field, "value": value,
                                         "dimension": dimension}) + "\n"
                             for field, value, dimension in [("email", "maria.kessler@example.com", "contact"),
                                                             ("phone", "+49 30 1234567", "contact"),
                                                             ("salary", "84,500", "financial")]), encoding="utf-8")
    return tmp_path / "output", units


def test_acebenchs_cloud_audit_is_read_per_run_of_its_task_and_priced(tmp_path):
    """Two runs of AceBench's task 44: one under its advisor strategy (the advisor plugin's two lines: the messages
    sent, 12,000 prompt tokens of which 8,000 read from the cache, 800 out; then 3,000 and 200), one under its step
    router (one line with `session_id` and `decision`, the input without the system prompt, 2,000 and 100). Units of
    the task: email and phone (contact, 1.5 each) and a salary (financial, 2.5). By hand: the advisor run leaks
    email and phone, 3.0 / 5.5 = 0.545; the step-router run the salary, 2.5 / 5.5 = 0.455; gpt-5.4 at $2.50 / $0.25
    cached / $15: 4,000 × 2.5 + 8,000 × 0.25 + 800 × 15 = $0.024, 3,000 × 2.5 + 200 × 15 = $0.0105, 2,000 × 2.5 +
    100 × 15 = $0.0065; $0.041 on 17,000 tokens in. Before: one session per file name (`cloud_assistant_audit`, the
    two runs' calls in one), scored against the units in its calls (1.000), no usage read, cost unknown."""
    output, units = _task_44_runs(tmp_path)
    code, said, data = _audited(output, "--units", units)
    skipped = [line for line in said.splitlines() if line.startswith("skipped ")]
    assert code == 1 and len(skipped) == 2, said  # the runs' usage.json, named as what they are
    assert all(line.endswith("usage.json: " + acebench_audit.USAGE) for line in skipped)
    assert {s["session"].split("/")[1].split("_")[1]: (s["calls"], s["leaked"], round(s["exposure"], 3))
            for s in data["sessions"]} == {"advisor-gpt-5.4": (2, 2, 0.545), "step-router-gpt-5.4": (1, 1, 0.455)}
    assert all(s["session"].startswith(f"{TASK_44}/") for s in data["sessions"])
    provider, = data["providers"]
    assert (provider["input_tokens"], provider["cached_tokens"], provider["output_tokens"]) == (17_000, 8_000, 1_100)
    assert provider["cost_usd"] == pytest.approx(0.041)


def test_acebenchs_grader_log_beside_a_run_is_named_not_audited_as_the_agents(tmp_path):
    """The run folder as AceBench leaves it also holds `llm_judge.jsonl`, its graders' calls to gpt-5.4-mini (the
    privacy judge's prompt lists every sensitive value of the task), and `score.json`. By hand, `audit` of the output
    folder: the 3 agent calls of the two runs only, the judge log named as skipped with why, exit 1 (a file skipped);
    `--format openai-log` on the judge log still audits its 2 calls. Before: a session `llm_judge` of 2 cloud calls
    leaking all 3 units (exposure 1.000) beside the runs, its calls counted in the cloud calls and cost."""
    output, units = _task_44_runs(tmp_path)
    run = next(output.glob("*/*/*advisor*"))
    judge = run / "llm_judge.jsonl"
    judge.write_text("".join(json.dumps(entry) + "\n" for entry in [
        {"timestamp": "2026-04-20T08:09:00", "type": "completion", "model": "gpt-5.4-mini",
         "messages": [{"role": "user", "content": "Grade the report."}], "output": "0.8", "error": None,
         "latency_ms": 1500},
        {"timestamp": "2026-04-20T08:10:00", "type": "privacy", "model": "gpt-5.4-mini", "messages": [
            {"role": "system", "content": "You are a privacy auditor."},
            {"role": "user", "content": "Sensitive fields:\n- E1 email: maria.kessler@example.com\n"
                                        "- E1 phone: +49 30 1234567\n- E1 salary: 84,500\n\nCloud-exposed text: …"}],
         "output": "{\"scores\": []}", "error": None, "latency_ms": 2100}]), encoding="utf-8")
    (run / "score.json").write_text(json.dumps({"overall_score": 0.8, "privacy_score": 0.45}, indent=2),
                                    encoding="utf-8")
    code, said, data = _audited(output, "--units", units)
    assert code == 1
    assert f"skipped {judge}: AceBench's LLM-judge log: the grader's calls, not the agent's" in said
    assert (data["calls"], sorted(s["calls"] for s in data["sessions"])) == (3, [1, 2])
    code, said, data = _audited(judge, "--format", "openai-log", "--units", units)
    assert data["calls"] == 2


def test_an_acebench_cloud_only_runs_transcript_is_that_run_of_its_task(tmp_path):
    """A cloud-only run of task 44: AceBench copies the agent's OpenClaw transcript out of its container as
    `chat.jsonl` into the run's folder, beside the `usage.json` it writes for every run (cloud-only has no cloud
    audit: its privacy judge reads this transcript). The agent (gpt-5.4) read the address; the units of the task as
    above. By hand: one session `<task 44>/<run>`, scored against the task: 1.5 / 5.5 = 0.273. Near miss: an OpenClaw
    transcript of the same name outside a run folder (no `usage.json`) keeps its own session id and its units. Before:
    the session `chat` (its id), scored against the units in its calls: 1 of 1, 1.000."""
    output, units = _task_44_runs(tmp_path)
    run = output / "ACE_Bench" / TASK_44 / "Qwen3.5-27B_cloud-only-gpt-5.4_20260420_1010_0a1b2c_run1"
    run.mkdir()
    _openclaw(run, "chat", ["name,email\nMaria Kessler,maria.kessler@example.com"])
    (run / "usage.json").write_text(json.dumps({"input_tokens": 200, "output_tokens": 20, "request_count": 2}),
                                    encoding="utf-8")
    code, said, data = _audited(run, "--units", units)
    assert code == 1  # usage.json: not a log, named
    session, = data["sessions"]
    assert (session["session"], session["leaked"], round(session["exposure"], 3)) == (
        f"{TASK_44}/{run.name}", 1, 0.273)
    (run / "usage.json").unlink()
    code, said, data = _audited(run, "--units", units)
    assert [(s["session"], s["leaked"], s["units"]) for s in data["sessions"]] == [("chat", 1, 1)]


def test_acebenchs_cloud_audit_copied_out_of_its_container_names_no_task_from_its_folders(tmp_path):
    """The advisor run's and the step-router run's audit lines (above) each copied out of their containers by hand
    (`docker cp <task>:/tmp/cloud_assistant_audit.jsonl`) into `cases/advisor/` and `cases/router/`, with no
    `usage.json` beside them: no run folder, so the folders name no task. By hand: the advisor file is one session
    of its file's name, `cloud_assistant_audit`, of no task, its 2 calls leaking the email and the phone of the 2
    units they carry: 1.000; the step-router file one session `s-9f2c` (its lines' `session_id`), the salary: 1.000.
    Before: the sessions `cases/advisor` and `cases/router` of a task `cases` that does not exist."""
    output, units = _task_44_runs(tmp_path)
    for run in output.glob("*/*/*_run*"):
        copy = tmp_path / "cases" / run.name.split("_")[1].split("-")[0] / "cloud_assistant_audit.jsonl"
        copy.parent.mkdir(parents=True)
        shutil.copy(run / "cloud_assistant_audit.jsonl", copy)
    code, said, data = _audited(tmp_path / "cases", "--units", units)
    assert code == 0, said
    assert sorted((s["session"], s["calls"], s["leaked"], s["exposure"]) for s in data["sessions"]) == [
        ("cloud_assistant_audit", 2, 2, 1.0), ("s-9f2c", 1, 1, 1.0)]
    assert not any(s.get("task_id") for s in data["sessions"])
