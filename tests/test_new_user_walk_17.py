"""Session 26, seventeenth walk: figures and messages a new user reads off the CLI on inputs written here as other
tools write theirs (AceBench's folder without its downloaded task data, Gemini CLI sessions, …), each checked
against a count made by hand."""

import json
import shutil

import pytest
from test_new_user_walk_7 import _cli
from test_new_user_walk_14 import _audited
from test_tasks_acebench import _acebench_replica


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
