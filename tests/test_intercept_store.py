"""The interceptor's store as users handle it (issue 31 §5): `serve` stopped by SIGTERM leaves every record
in the store file itself; `audit` and `export` only read a store, say so when it holds no records, and
score an episode against the task its requests named."""

import hashlib
import json
import shutil
import signal
import sqlite3

import httpx
from click.testing import CliRunner
from intercept_helpers import UNITS, running_proxy, serve_cli

from ec2audit.cli import main
from ec2audit.intercept.store import RecordStore
from ec2audit.units import make_unit, write_units


def test_sigterm_checkpoints_so_the_store_file_alone_holds_every_record(standin, tmp_path):
    _, upstream = standin
    store = tmp_path / "s.sqlite"
    proc, url = serve_cli(upstream, store, tmp_path / "serve.log", "sk-upstream")
    try:
        for n in range(3):
            answer = httpx.post(f"{url}/v1/chat/completions", timeout=20,
                                json={"model": "echo", "messages": [{"role": "user", "content": f"hi {n}"}]})
            assert answer.status_code == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
    assert code == 0, (tmp_path / "serve.log").read_text()  # a clean stop: uvicorn's re-raised SIGTERM is handled
    copy = tmp_path / "copy" / "s.sqlite"  # what `docker cp` or a backup of the one file gets
    copy.parent.mkdir()
    shutil.copy(store, copy)
    with sqlite3.connect(f"file:{copy}?mode=ro", uri=True) as db:
        requests = [json.loads(r[0]) for r in db.execute("SELECT request FROM records ORDER BY seq")]
    assert [r["messages"][0]["content"] for r in requests] == ["hi 0", "hi 1", "hi 2"]


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_audit_and_export_never_change_the_store_they_read(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:  # a store from before `task_id` and `headers`
        db.execute("CREATE TABLE records (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, episode TEXT, "
                   "ts REAL NOT NULL, state TEXT, api TEXT, path TEXT, model TEXT, stream INTEGER, status INTEGER, "
                   "error TEXT, latency_ms REAL, first_byte_ms REAL, input_tokens INTEGER, cached_tokens INTEGER, "
                   "output_tokens INTEGER, cost_usd REAL, redactions INTEGER, request TEXT, response TEXT, "
                   "findings TEXT)")
        db.execute("INSERT INTO records (id, episode, ts, api, request) VALUES ('r1', 'e1', 1.0, 'openai-chat', ?)",
                   (json.dumps({"model": "m", "messages": [{"role": "user", "content": "call 13922883366 \ud800"}]}),))
    units = tmp_path / "units.jsonl"
    write_units(UNITS, units)
    before = _digest(path)
    audited = CliRunner().invoke(main, ["intercept", "audit", str(path), "--units", str(units), "--json"])
    exported = CliRunner().invoke(main, ["intercept", "export", str(path), "--out", str(tmp_path / "r.jsonl")])
    assert audited.exit_code == 0, audited.output
    assert json.loads(audited.stdout)["findings"] == 1  # the surrogate read as U+FFFD, no crash
    assert exported.exit_code == 0 and "1 record" in exported.output
    assert _digest(path) == before
    assert {r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(records)")} >= {"state"}
    assert "task_id" not in {r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(records)")}


def test_a_store_without_records_is_an_error_not_a_clean_audit(tmp_path):
    empty = tmp_path / "empty.sqlite"
    RecordStore(empty).close()
    units = tmp_path / "units.jsonl"
    write_units(UNITS, units)
    result = CliRunner().invoke(main, ["intercept", "audit", str(empty), "--units", str(units)])
    assert result.exit_code == 1 and "holds no records" in result.stderr
    assert "no sensitive unit" not in result.output
    exported = CliRunner().invoke(main, ["intercept", "export", str(empty), "--out", str(tmp_path / "r.parquet")])
    assert exported.exit_code != 0 and "holds no records" in exported.output
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database\n")
    bad = CliRunner().invoke(main, ["intercept", "audit", str(text), "--units", str(units)])
    assert bad.exit_code == 2 and "Traceback" not in bad.output and str(text) in bad.output


def test_an_episode_is_scored_only_against_the_task_it_names(standin, tmp_path):
    _, upstream = standin
    units = [make_unit({"task_id": "t1", "entity_id": "A", "field": "phone", "value": "13922883366",
                        "dimension": "contact"}),
             make_unit({"task_id": "t2", "entity_id": "B", "field": "email", "value": "bo.lind@example.org",
                        "dimension": "contact"})]
    text = "call 13922883366 or mail bo.lind@example.org"
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, _store):
        for prefix, headers in (("/e/ep-a/t/t1", {}), ("", {"x-ec2-episode": "ep-b", "x-ec2-task": "t2"})):
            httpx.post(f"{url}{prefix}/v1/chat/completions", headers=headers, timeout=20,
                       json={"model": "echo", "messages": [{"role": "user", "content": text}]})
    path = tmp_path / "units.jsonl"
    write_units(units, path)
    findings = tmp_path / "f.jsonl"
    result = CliRunner().invoke(main, ["intercept", "audit", str(tmp_path / "s.sqlite"), "--units", str(path),
                                       "--json", "--out", str(findings)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in findings.read_text().splitlines()]
    assert sorted({(r["group"], r["unit_id"]) for r in rows}) == [("ep-a", "t1/A/phone"), ("ep-b", "t2/B/email")]
    exposure = {(r["group"], r["task_id"]): r["units"] for r in json.loads(result.stdout)["exposure"]}
    assert exposure == {("ep-a", "t1"): 1, ("ep-b", "t2"): 1}


# --- the typed record (issue 32, design): stores and exports keep their format -----------------------

_TODAY_SCHEMA = """CREATE TABLE records (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, episode TEXT, task_id TEXT,
    ts REAL NOT NULL, state TEXT, api TEXT, path TEXT, model TEXT, stream INTEGER, status INTEGER, error TEXT,
    latency_ms REAL, first_byte_ms REAL, input_tokens INTEGER, cached_tokens INTEGER, output_tokens INTEGER,
    cost_usd REAL, redactions INTEGER, headers TEXT, request TEXT, response TEXT, findings TEXT)"""
_ROWS = [  # as the proxy wrote them while records were dicts: every column, JSON columns as JSON text
    {"id": "r1", "episode": "ep-1", "task_id": "t1", "ts": 1700000000.5, "state": "complete", "api": "openai-chat",
     "path": "/v1/chat/completions?key=%5Bmasked%5D", "model": "gpt-x", "stream": 1, "status": 200, "error": None,
     "latency_ms": 12.5, "first_byte_ms": 3.25, "input_tokens": 10, "cached_tokens": 2, "output_tokens": 5,
     "cost_usd": 0.0001, "redactions": 1, "headers": [["x-note", "为 [NAME_001]"], ["authorization", "[masked]"]],
     "request": {"model": "gpt-x", "stream": True, "messages": [{"role": "user", "content": "call [PHONE_001]"}]},
     "response": {"choices": [{"message": {"role": "assistant", "content": "ok"}}]},
     "findings": [{"unit_id": "t1/P1/phone", "dimension": "contact", "path": "/messages/0/content", "start": 5,
                   "end": 16, "matched_text": "###########", "detector": "literal", "grade": 1.0, "confidence": 1.0}]},
    {"id": "r2", "episode": None, "task_id": None, "ts": 1700000001.0, "state": "interrupted", "api": "generic",
     "path": "/v1/other", "model": None, "stream": 0, "status": None, "error": "interrupted: the proxy stopped",
     "latency_ms": None, "first_byte_ms": None, "input_tokens": None, "cached_tokens": None, "output_tokens": None,
     "cost_usd": None, "redactions": 0, "headers": None, "request": {"input": "x"}, "response": None,
     "findings": None},
]
_JSON = ("headers", "request", "response", "findings")


def _old_store(path):
    with sqlite3.connect(path) as db:
        db.execute(_TODAY_SCHEMA)
        for row in _ROWS:
            values = {k: json.dumps(v, ensure_ascii=False) if k in _JSON and v is not None else v
                      for k, v in row.items()}
            db.execute(f"INSERT INTO records ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})",
                       list(values.values()))
    return path


def _table(path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute(f"SELECT {', '.join(_ROWS[0])} FROM records ORDER BY seq").fetchall()


def test_a_store_of_dict_records_reads_typed_and_round_trips_unchanged(tmp_path):
    from ec2audit.intercept.record import ProxyRecord
    from ec2audit.intercept.store import export_records, read_records

    old = _old_store(tmp_path / "old.sqlite")
    records = read_records(old)
    assert all(isinstance(r, ProxyRecord) for r in records)
    first, second = records
    assert (first.status, first.stream, first.headers[0][1], first.findings[0]["matched_text"]) == \
        (200, True, "为 [NAME_001]", "###########")
    assert (second.stream, second.state, second.response, second.redactions) == (False, "interrupted", None, 0)
    # (a column added since, `unread`, reads as None)
    assert [r.to_row() for r in records] == [{**row, "stream": bool(row["stream"]), "unread": None} for row in _ROWS]

    # written again through the store: the same rows, and the same JSONL export, byte for byte
    new = RecordStore(tmp_path / "new.sqlite")
    for record in records:
        new.add(record)
    new.close()
    assert _table(tmp_path / "new.sqlite") == _table(old)
    export_records(old, tmp_path / "old.jsonl")
    export_records(tmp_path / "new.sqlite", tmp_path / "new.jsonl")
    assert (tmp_path / "new.jsonl").read_bytes() == (tmp_path / "old.jsonl").read_bytes()
    lines = [json.loads(line) for line in (tmp_path / "old.jsonl").read_text().splitlines()]
    assert lines == [{**{k: json.dumps(v, ensure_ascii=False) if k in _JSON and v is not None else
                         bool(v) if k == "stream" else v for k, v in row.items()}, "unread": None} for row in _ROWS]
    assert list(lines[0]) == [*_ROWS[0], "unread"]  # the export's keys, in their order
