"""Session 31, twenty-third walk: figures a new user reads off `audit`, `report`, `intercept audit` and `annotate
prelabel`, on inputs written here as other tools write theirs, each checked against a count made by hand."""

import json

import polars as pl
import pytest
from test_new_user_walk_19 import _cli, _write_jsonl
from test_new_user_walk_20 import _UNITS

#: walk 20's units (t1: Maria's phone 1, SSN 3; t2: Wang's e-mail 1) and t1's e-mail (1), which nothing sends.
_T1_MAIL = {"task_id": "t1", "entity_id": "E1", "entity_name": "Maria Kessler", "field": "email",
            "value": "maria.kessler@kessler-law.com", "dimension": "contact", "weight": 1.0}


def _request(text: str, pad: int = 0, task: str | None = None) -> dict:
    """One line of a request log as a proxy or SDK hook writes it: session s1, a gpt-4o request (after a system
    prompt of `pad` characters, for a file big enough to be a part of its own under `--jobs`), its task if named."""
    messages = [{"role": "system", "content": "Be brief. " * (pad // 10)}] if pad else []
    return {"id": f"c{len(text)}", "episode": "s1", **({"task_id": task} if task else {}),
            "request": {"model": "gpt-4o", "messages": [*messages, {"role": "user", "content": text}]}}


_NAMING, _NOT_NAMING = "Call Maria at +1 415 555 0134", "Her SSN is 123-45-6789; Wang is wang.lei@corp-mail.cn"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_session_whose_task_one_file_names_is_scored_against_that_task(tmp_path, jobs):
    """Session s1 in two request logs: a.jsonl names its task (t1) and sends Maria's phone; b.jsonl names none and
    sends her SSN and t2's e-mail (Wang's). A session is one task's: s1 is scored against t1's units, phone 1, SSN 3,
    e-mail 1 (never sent). By hand: exposure (1 + 3) / (1 + 3 + 1) = 0.8, 2 of 3 units leaked, "task t1"; Wang's
    e-mail is no unit of t1, so it is neither leaked nor counted. The same in `audit` (one process, and two, each
    file a part), `report` on its `--out` (1 task, s1 under t1 with 2 leaks), and `intercept audit` of a store whose
    two records say the same. Before: the file naming none made s1 "units in its calls": 3 of 3 leaked, 1.0 (and
    1.25, over 2 units, with --jobs 2); with that fixed, `report` still put s1 under "(several)" tasks (2), Wang's
    e-mail among its leaks."""
    units = _write_jsonl(tmp_path / "units.jsonl", [*_UNITS, _T1_MAIL])
    pad = 70_000 if jobs > 1 else 0  # each file over the 64 KB a worker's batch is cut at
    (tmp_path / "logs").mkdir()
    _write_jsonl(tmp_path / "logs" / "a.jsonl", [_request(_NAMING, pad, "t1")])
    _write_jsonl(tmp_path / "logs" / "b.jsonl", [_request(_NOT_NAMING, pad + 10)])
    out = tmp_path / "f.parquet"
    code, output = _cli("audit", tmp_path / "logs", "--units", units, "--jobs", jobs, "--out", out, "--json")
    assert code == 0, output
    summary = json.loads(output)
    [session] = summary["sessions"]
    assert (session["units"], session["leaked"], session["exposure"], session["scored_against"]) == (
        3, 2, 0.8, "task t1")
    assert sorted(r["unit_id"] for r in summary["leaked"]) == ["t1/E1/phone", "t1/E1/ssn"]
    assert summary["one_task_sessions"] == ["s1"]  # said: its calls named its task in one file, none in the other
    code, output = _cli("report", out, "--json")
    assert code == 0, output
    report = json.loads(output)
    [group] = report["groups"]
    assert (group["exposure"], group["leaked_units"], report["strategies"][0]["tasks"]) == (0.8, 2, 1)
    [episode] = report["tasks"]["t1"]  # its drill-down under its task, Wang's e-mail none of its leaks
    assert sorted(leak["unit_id"] for leak in episode["leaks"]) == ["t1/E1/phone", "t1/E1/ssn"]


def test_intercept_audit_scores_an_episode_by_the_task_one_of_its_requests_names(tmp_path):
    """The same session through the proxy: r1 (`/e/s1/t/t1/v1`: task t1) sends Maria's phone, r2 (`/e/s1/v1`, no
    task) her SSN and Wang's e-mail. By hand, as above: 0.8 over t1's 3 units, 2 leaked. Before: 1.0, 3 of 3 over
    the units in its calls."""
    from ec2audit.intercept.record import ProxyRecord
    from ec2audit.intercept.store import RecordStore

    units = _write_jsonl(tmp_path / "units.jsonl", [*_UNITS, _T1_MAIL])
    store = RecordStore(tmp_path / "cloud.sqlite")
    for n, (task, text) in enumerate([("t1", _NAMING), (None, _NOT_NAMING)]):
        store.add(ProxyRecord(
            id=f"r{n + 1}", episode="s1", task_id=task, ts=1.7e9 + n, api="openai-chat", path="/v1/chat/completions",
            model="gpt-4o", status=200, error=None, request=_request(text)["request"],
            response={"choices": [{"message": {"role": "assistant", "content": "ok"}}]},
            input_tokens=100, output_tokens=10, cost_usd=0.00035))
    store.close()
    out = tmp_path / "io" / "findings.parquet"
    code, output = _cli("intercept", "audit", tmp_path / "cloud.sqlite", "--units", units, "--out", out)
    assert code == 0, output
    [session] = pl.read_parquet(tmp_path / "io" / "findings.sessions.parquet").to_dicts()
    assert (session["units"], session["leaked"], session["exposure"], session["scored_against"]) == (
        3, 2, 0.8, "task t1")


def test_prelabel_gives_each_value_of_a_one_line_chinese_tool_result_its_own_key(tmp_path):
    """Task `crm`'s workspace holds what a CRM tool returned, on one line each, as agents' tools write it:
    `lookup.txt` a blank-separated record (`姓名: 王晓燕 电话: 138… 住址: … 身份证: 110…`) and `api.txt` a compact JSON
    after a label (`工具返回：{"姓名":"陈建国","手机":"139…"}`); `session.jsonl` a transcript whose tool results are
    that JSON escaped in a string (赵敏) and a `姓名：孙立，电话：135…，住址：…` string. By hand, each value under its
    own key: 王晓燕/姓名, 13800138000/电话, 北京市朝阳区建国路88号/住址, 110105198803153414/身份证, 陈建国/姓名,
    13912345678/手机, 赵敏/姓名, 13611112222/手机, 杭州市西湖区文三路90号/住址, 孙立/姓名, 13522223333/电话,
    南京市鼓楼区中山路18号/住址; and `printout.txt`, a tool's columns (`name: Dana Reyes  phone: …  email: …`, two
    blanks apart): Dana Reyes/name, +1 415 555 0134/phone, dana.reyes@corp-mail.com/email: 15 units. Before: the
    blank-separated lines' values were all their first key's (the ID `姓名_4`, the e-mail `name_3`), the label's JSON
    was `工具返回`'s (its name and the ID not proposed at all), and the transcript's were `content`, `content_2`,
    `content_3`."""
    workspace = tmp_path / "crm"
    workspace.mkdir()
    (workspace / "lookup.txt").write_text(
        "姓名: 王晓燕 电话: 13800138000 住址: 北京市朝阳区建国路88号 身份证: 110105198803153414\n", encoding="utf-8")
    (workspace / "api.txt").write_text('工具返回：{"姓名":"陈建国","手机":"13912345678"}\n', encoding="utf-8")
    printed = "name: Dana Reyes  phone: +1 415 555 0134  email: dana.reyes@corp-mail.com\n"
    (workspace / "printout.txt").write_text(printed, encoding="utf-8")
    record = {"姓名": "赵敏", "手机": "13611112222", "住址": "杭州市西湖区文三路90号"}
    results = [json.dumps(record, ensure_ascii=False), "姓名：孙立，电话：13522223333，住址：南京市鼓楼区中山路18号"]
    _write_jsonl(workspace / "session.jsonl", [{"role": "tool", "content": r} for r in results])
    units_path = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", workspace, "--out", tmp_path / "ls.json", "--units", units_path,
                        "--no-presidio")
    assert code == 0, output
    units = [json.loads(line) for line in units_path.read_text(encoding="utf-8").splitlines()]
    assert sorted((u["value"], u["field"]) for u in units) == sorted([
        ("王晓燕", "姓名"), ("13800138000", "电话"), ("北京市朝阳区建国路88号", "住址"),
        ("110105198803153414", "身份证"), ("陈建国", "姓名"), ("13912345678", "手机"), ("赵敏", "姓名"),
        ("13611112222", "手机"), ("杭州市西湖区文三路90号", "住址"), ("孙立", "姓名"), ("13522223333", "电话"),
        ("南京市鼓楼区中山路18号", "住址"), ("Dana Reyes", "name"), ("+1 415 555 0134", "phone"),
        ("dana.reyes@corp-mail.com", "email")])


def test_an_audits_own_units_task_map_and_earlier_output_in_the_folder_audited_are_no_skipped_logs(tmp_path):
    """A new user keeps everything in one folder `work/`: the request log (session s1 of t1 sending Maria's phone),
    units.jsonl, map.csv, and runs `ec2audit audit work --units work/units.jsonl --task-map work/map.csv --out
    work/findings.parquet` twice. By hand: 1 log read, 1 call, exposure 1 / (1 + 3) = 0.25, exit 0 both times; the
    units file and the map (and, the second time, the first run's findings and sessions table) are named as what they
    are, not read. Before: each was "skipped …: not a known log format" (the Parquet files "binary data"), the run
    exited 1 as if a log had been passed over, and the second run said 4 files were skipped."""
    work = tmp_path / "work"
    work.mkdir()
    _write_jsonl(work / "log.jsonl", [_request("Call Maria at +1 415 555 0134", task="t1")])
    units = _write_jsonl(work / "units.jsonl", _UNITS)
    (work / "map.csv").write_text("session,task_id\ns1,t1\n", encoding="utf-8")
    for run in (1, 2):
        code, output = _cli("audit", work, "--units", units, "--task-map", work / "map.csv",
                            "--out", work / "findings.parquet")
        assert code == 0, output
        assert "skipped" not in output, output
        assert "not read " + str(work / "units.jsonl") + ": the units file (--units)" in output, output
        assert ("the findings --out writes" in output) == (run == 2), output
        [session] = pl.read_parquet(work / "findings.sessions.parquet").to_dicts()
        assert (session["calls"], session["exposure"]) == (1, 0.25)


def test_label_studios_json_min_and_csv_exports_are_named_with_the_export_to_use(tmp_path):
    """Label Studio's export dialog offers JSON, JSON-MIN and CSV; a new user picks JSON-MIN or CSV and gives it to
    `annotate from-labelstudio`. Each is one line naming the file (and the CSV's line 1), what it is and the export to
    take instead, exit 2. Before: JSON-MIN read "field '[0].data.text': a Label Studio task needs data.text" (it has
    its text, at the top), and the CSV "cannot read Label Studio JSON: Expecting value: line 1 column 1 (char 0)"."""
    text = "Maria Kessler, phone +1 415 555 0134."
    row = {"text": text, "id": 1, "label": [{"start": 21, "end": 36, "text": text[21:36], "labels": ["contact"]}],
           "annotator": 1, "annotation_id": 1, "created_at": "2026-12-01T09:00:00Z",
           "updated_at": "2026-12-01T09:00:00Z", "lead_time": 12.5}
    minimal = tmp_path / "project-1-at-2026-12-01-json-min.json"
    minimal.write_text(json.dumps([row]), encoding="utf-8")
    table = tmp_path / "project-1-at-2026-12-01.csv"
    table.write_text("annotation_id,annotator,created_at,id,label,lead_time,text,updated_at\n"
                     f'1,1,2026-12-01T09:00:00Z,1,"{json.dumps(row["label"])}",12.5,"{text}",2026-12-01T09:00:00Z\n',
                     encoding="utf-8")
    for export, where, kind in ((minimal, f"{minimal}: field '[0]'", "JSON-MIN export"),
                                (table, f"{table}:1", "CSV or TSV export")):
        code, output = _cli("annotate", "from-labelstudio", export, "--out", tmp_path / "units.jsonl")
        assert code == 2, output
        assert output.startswith(f"error: {where}: ") and kind in output and "export the project as JSON" in output
        assert len(output.strip().splitlines()) == 1, output


def test_acebenchs_privacy_judge_run_on_the_host_and_its_grader_files_are_named_not_audited(tmp_path):
    """An AceBench run folder (`output/office/office-001/run1/`) as `eval/run_batch.py` and `eval/privacy_rejudge.py`
    leave it: the advisor's `cloud_assistant_audit.jsonl` (one call, gpt-5.4, 100 prompt / 10 completion tokens,
    nothing sensitive), `usage.json`, `score.json`, `privacy_judge_deferred.json` (the task's values for the judge) and
    `llm_judge.jsonl` holding the one line the host-side privacy judge appends (`{"type": "privacy", "input": {model,
    messages}, "output", "error", "elapsed_ms"}`, its prompt listing Maria's phone and SSN). By hand: 1 call, 1
    session `office-001/run1` over the task's 2 units, exposure 0.0; the four grader files named as AceBench's.
    Before: `llm_judge` read as a second cloud call (a session of its own, 2 calls in all), and `score.json` and
    `privacy_judge_deferred.json` "not a known log format". What its skip reason promises holds: `--format openai-log`
    audits the judge's line, its request under `input`: both of the task's values in one call, the session (named
    for the file, no task of the units) scored against the units in its call, 2 of 2, exposure (1 + 3) / 4 = 1.0
    (before: "0 carried prompt content", nothing to score)."""
    run = tmp_path / "output" / "office" / "office-001" / "run1"
    run.mkdir(parents=True)
    _write_jsonl(run / "cloud_assistant_audit.jsonl", [{
        "timestamp": "2026-12-01T09:00:00", "model": "gpt-5.4", "output": "ok", "latency_ms": 900,
        "input": [{"role": "user", "content": "Summarise the HR notice for staff."}], "prompt_tokens": 100,
        "completion_tokens": 10, "total_tokens": 110, "cache_read_tokens": 0, "cache_write_tokens": 0}])
    (run / "usage.json").write_text(json.dumps({"input_tokens": 100, "output_tokens": 10}), encoding="utf-8")
    (run / "score.json").write_text(json.dumps({"overall_score": 0.8, "privacy_score": 1.0}), encoding="utf-8")
    values = "Maria Kessler: phone +1 415 555 0134, SSN 123-45-6789"
    (run / "privacy_judge_deferred.json").write_text(json.dumps({"entities": [values], "agent_text": "…"}),
                                                     encoding="utf-8")
    judged = {"model": "gpt-5.4", "max_tokens": 800, "messages": [{"role": "user", "content": values}]}
    _write_jsonl(run / "llm_judge.jsonl", [{"type": "privacy", "input": judged, "output": "{\"score\": 1.0}",
                                            "error": None, "elapsed_ms": 1200}])
    units = _write_jsonl(tmp_path / "units.jsonl", [{**u, "task_id": "office-001"} for u in _UNITS[:2]])
    code, output = _cli("audit", tmp_path / "output", "--units", units, "--json")
    summary = json.loads(output[output.index("\n{") + 1:])
    assert (summary["calls"], [(s["session"], s["units"], s["exposure"]) for s in summary["sessions"]]) == (
        1, [("office-001/run1", 2, 0.0)])
    named = {f["file"].rsplit("/", 1)[-1]: f["reason"] for f in summary["skipped_files"]}
    assert sorted(named) == ["llm_judge.jsonl", "privacy_judge_deferred.json", "score.json", "usage.json"], named
    assert all(reason.startswith("AceBench's ") for reason in named.values()), named
    assert "--format openai-log audits them" in named["llm_judge.jsonl"]
    code, output = _cli("audit", run / "llm_judge.jsonl", "--format", "openai-log", "--units", units, "--json")
    judge = json.loads(output[output.index("\n{") + 1:])
    assert (judge["calls"], [(s["units"], s["leaked"], s["exposure"]) for s in judge["sessions"]]) == (
        1, [(2, 2, 1.0)]), judge["sessions"]
