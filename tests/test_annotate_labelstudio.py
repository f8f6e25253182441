"""Round trips through a real Label Studio 1.23.2 server (one per test session, from the template copy).

Annotators work as people do: the admin with the token `serve` generated, a second annotator who signs
up through the web form and copies their own API token; both create annotations through the REST API.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from types import SimpleNamespace

import httpx
import pytest
from click.testing import CliRunner
from label_studio_sdk import LabelStudio

from ec2audit.annotate import server
from ec2audit.cli import main
from ec2audit.units import read_units

pytestmark = pytest.mark.labelstudio

EN_NOTE = ("Meeting notes 😀 from Dana Whitfield: her SSN is 219-09-9999 and she was diagnosed with type 2 "
           "diabetes. Reach her at dana.w@example.com; the staging DB is 10.20.30.40 (password: Tr0ub4dor&3x).\n")
ZH_RECORDS = json.dumps([
    {"id": "C-001", "姓名": "张伟", "手机": "13922883366", "备注": "确诊重度抑郁症，住址北京市朝阳区建国路88号"},
    {"id": "C-002", "姓名": "李颖", "手机": "13800138000", "备注": "无"},
], ensure_ascii=False, indent=1)


@pytest.fixture(scope="session")
def labelstudio(tmp_path_factory):
    """`ec2audit annotate serve` as a user runs it; stopped (with its Label Studio) at session end."""
    data = tmp_path_factory.mktemp("labelstudio") / "data"
    port = server.free_port()
    proc = subprocess.Popen([sys.executable, "-c", "from ec2audit.cli import main; main()", "annotate", "serve",
                             "--data-dir", str(data), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    banner = proc.stdout.readline()
    try:
        assert f"at http://127.0.0.1:{port}" in banner, banner + proc.stdout.read()
        creds = server.load_credentials(data)
        yield SimpleNamespace(url=creds["url"], token=creds["token"], data_dir=data)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{port}/api/version", timeout=5)


@pytest.fixture(scope="session")
def workspace(tmp_path_factory):
    ws = tmp_path_factory.mktemp("tasks") / "task-crm" / "workspace"
    ws.mkdir(parents=True)
    (ws / "notes.txt").write_text(EN_NOTE, encoding="utf-8")
    (ws / "customers.json").write_text(ZH_RECORDS, encoding="utf-8")
    return ws


def _cli(args, token, **env):
    result = CliRunner().invoke(main, args, env={"LABEL_STUDIO_API_KEY": token, **env}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _js(text: str, i: int) -> int:
    """UTF-16 offset as a browser counts it."""
    return len(text[:i].encode("utf-16-le")) // 2


def _region(text: str, value: str, label: str, entity: str, field: str, n: int) -> list[dict]:
    start = text.index(value)
    where = {"start": _js(text, start), "end": _js(text, start + len(value))}
    rid = f"r{n}"
    return [
        {"id": rid, "from_name": "label", "to_name": "text", "type": "labels",
         "value": {**where, "text": value, "labels": [label]}},
        {"id": rid, "from_name": "entity", "to_name": "text", "type": "textarea", "value": {**where, "text": [entity]}},
        {"id": rid, "from_name": "field", "to_name": "text", "type": "textarea", "value": {**where, "text": [field]}},
    ]


def _annotate(ls: LabelStudio, task, marks) -> None:
    result = [item for n, m in enumerate(marks) for item in _region(task.data["text"], *m, n)]
    ls.annotations.create(id=task.id, result=result, lead_time=12.5)


def _tasks_by_file(ls, project_id):
    return {t.data["file"]: t for t in ls.tasks.list(project=project_id, fields="all")}


def _project_id(ls, title):
    return next(p.id for p in ls.projects.list(title=title) if p.title == title)


def _signup(url: str, email: str, password: str) -> str:
    """A second annotator signs up in the browser form and copies their token from the account page."""
    with httpx.Client(base_url=url, follow_redirects=True, timeout=30) as web:
        web.get("/user/signup/")
        page = web.post("/user/signup/", data={"email": email, "password": password,
                                               "csrfmiddlewaretoken": web.cookies.get("csrftoken")},
                        headers={"Referer": f"{url}/user/signup/"})
        assert page.status_code == 200
        return web.get("/api/current-user/token").json()["token"]


def _key(u):
    return (u.task_id, u.entity_id, u.field, u.value, u.dimension, u.source.file, u.source.start, u.source.end)


def test_push_annotate_pull_en_and_zh(labelstudio, workspace, tmp_path):
    tasks_file = tmp_path / "ls-tasks.json"
    _cli(["annotate", "prelabel", str(workspace), "--out", str(tasks_file), "--no-presidio"], labelstudio.token)
    out = _cli(["annotate", "push", str(tasks_file), "--url", labelstudio.url, "--project", "CRM round trip"],
               labelstudio.token)
    assert "2 tasks imported, 0 already there" in out
    again = _cli(["annotate", "push", str(tasks_file), "--url", labelstudio.url, "--project", "CRM round trip"],
                 labelstudio.token)
    assert "0 tasks imported, 2 already there" in again

    ls = LabelStudio(base_url=labelstudio.url, api_key=labelstudio.token)
    pid = _project_id(ls, "CRM round trip")
    tasks = _tasks_by_file(ls, pid)
    assert sorted(tasks) == ["customers.json", "notes.txt"]
    assert tasks["notes.txt"].predictions, "pre-labels arrive as predictions"
    en = [("Dana Whitfield", "person_name", "dana", "name"), ("219-09-9999", "government_id", "dana", "ssn"),
          ("type 2 diabetes", "health", "dana", "diagnosis"), ("dana.w@example.com", "contact", "dana", "email"),
          ("10.20.30.40", "network", "staging", "db_host")]
    zh = [("张伟", "person_name", "C-001", "姓名"), ("13922883366", "contact", "C-001", "手机"),
          ("重度抑郁症", "health", "C-001", "diagnosis"), ("北京市朝阳区建国路88号", "location", "C-001", "address"),
          ("13800138000", "contact", "C-002", "手机")]
    _annotate(ls, tasks["notes.txt"], en)
    _annotate(ls, tasks["customers.json"], zh)

    units_file = tmp_path / "units.jsonl"
    _cli(["annotate", "pull", "--url", labelstudio.url, "--project", "CRM round trip", "--out", str(units_file),
          "--export", str(tmp_path / "export.json")], labelstudio.token)
    units = read_units(units_file)
    texts = {"notes.txt": EN_NOTE, "customers.json": ZH_RECORDS}
    expected = {("task-crm", entity, field, value, dim, file, texts[file].index(value),
                 texts[file].index(value) + len(value))
                for file, marks in (("notes.txt", en), ("customers.json", zh)) for value, dim, entity, field in marks}
    assert {_key(u) for u in units} == expected
    for u in units:  # offsets are Python characters into the file, past the emoji too
        assert texts[u.source.file][u.source.start:u.source.end] == u.value
    assert {u.entity_name for u in units if u.entity_id == "C-001"} == {"张伟"}

    offline = tmp_path / "offline.jsonl"
    _cli(["annotate", "from-labelstudio", str(tmp_path / "export.json"), "--out", str(offline)], labelstudio.token)
    assert {_key(u) for u in read_units(offline)} == expected


def test_accepted_predictions_give_the_prelabel_units(labelstudio, workspace, tmp_path):
    tasks_file, auto_units = tmp_path / "tasks.json", tmp_path / "auto.jsonl"
    _cli(["annotate", "prelabel", str(workspace), "--out", str(tasks_file), "--units", str(auto_units),
          "--no-presidio"], labelstudio.token)
    _cli(["annotate", "push", str(tasks_file), "--url", labelstudio.url, "--project", "Accept all"], labelstudio.token)
    ls = LabelStudio(base_url=labelstudio.url, api_key=labelstudio.token)
    for task in _tasks_by_file(ls, _project_id(ls, "Accept all")).values():
        ls.annotations.create(id=task.id, result=task.predictions[0].result)
    pulled = tmp_path / "pulled.jsonl"
    _cli(["annotate", "pull", "--url", labelstudio.url, "--project", "Accept all", "--out", str(pulled)],
         labelstudio.token)
    assert {_key(u) for u in read_units(pulled)} == {_key(u) for u in read_units(auto_units)}


def test_two_annotators_agreement_and_merge(labelstudio, workspace, tmp_path):
    tasks_file = tmp_path / "tasks.json"
    _cli(["annotate", "prelabel", str(workspace / "notes.txt"), "--task-id", "task-crm", "--out", str(tasks_file),
          "--no-presidio"], labelstudio.token)
    _cli(["annotate", "push", str(tasks_file), "--url", labelstudio.url, "--project", "Two annotators"],
         labelstudio.token)
    second = _signup(labelstudio.url, "reviewer@example.com", "rev-Secret-2024")
    admin = LabelStudio(base_url=labelstudio.url, api_key=labelstudio.token)
    reviewer = LabelStudio(base_url=labelstudio.url, api_key=second)
    task = _tasks_by_file(admin, _project_id(admin, "Two annotators"))["notes.txt"]
    shared = [("219-09-9999", "government_id", "dana", "ssn"), ("type 2 diabetes", "health", "dana", "diagnosis")]
    _annotate(admin, task, [*shared, ("Dana Whitfield", "person_name", "dana", "name")])
    _annotate(reviewer, task, [*shared, ("Tr0ub4dor&3x", "credential", "staging", "db_password")])

    report, units_file = tmp_path / "agreement.json", tmp_path / "units.jsonl"
    out = _cli(["annotate", "pull", "--url", labelstudio.url, "--project", "Two annotators", "--out", str(units_file),
                "--report", str(report)], labelstudio.token)
    assert "Agreement between annotators" in out
    pair = json.loads(report.read_text())["pairs"][0]
    assert sorted(pair["annotators"]) == ["admin@ec2audit.local", "reviewer@example.com"]
    assert (pair["spans_a"], pair["spans_b"], pair["shared"]) == (3, 3, 2)
    assert pair["span_f1"] == pytest.approx(2 * 2 / 6, abs=1e-3)
    assert 0 < pair["kappa"] < 1
    assert {u.value for u in read_units(units_file)} == {"219-09-9999", "type 2 diabetes"}  # majority of two

    _cli(["annotate", "pull", "--url", labelstudio.url, "--project", "Two annotators", "--out", str(units_file),
          "--merge", "reviewer", "--reviewer", "reviewer@example.com"], labelstudio.token)
    assert {u.value for u in read_units(units_file)} == {"219-09-9999", "type 2 diabetes", "Tr0ub4dor&3x"}


def test_serve_keeps_credentials_private(labelstudio):
    creds = labelstudio.data_dir / server.CREDENTIALS_FILE
    assert oct(creds.stat().st_mode & 0o777) == "0o600"
    assert labelstudio.token not in (labelstudio.data_dir / "ec2audit-server.log").read_text()
    version = httpx.get(f"{labelstudio.url}/api/version", timeout=10).json()
    assert version["release"] == server.LABEL_STUDIO_VERSION


def test_push_without_token_is_an_input_error(labelstudio, tmp_path):
    tasks_file = tmp_path / "t.json"
    tasks_file.write_text("[]")
    result = CliRunner().invoke(main, ["annotate", "push", str(tasks_file), "--url", labelstudio.url,
                                       "--project", "nothing"], env={"LABEL_STUDIO_API_KEY": ""})
    assert result.exit_code == 2 and "LABEL_STUDIO_API_KEY" in result.output
