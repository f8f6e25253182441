"""Loading tasks: malformed task files fail with the file and the key named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.errors import InputError
from ec2audit.tasks import load_suite, load_task, unit_problems

ROOT = Path(__file__).resolve().parents[1] / "tasks"
SOURCE = ROOT / "office" / "office-hr-notice-101"


@pytest.fixture
def task_dir(tmp_path) -> Path:
    dst = tmp_path / "office" / SOURCE.name
    shutil.copytree(SOURCE, dst)
    return dst


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(("file", "old", "new", "field", "message"), [
    ("task.toml", 'scenario = "office"', 'scenario = "gaming"', "scenario", "unknown scenario"),
    ("task.toml", 'id = "office-hr-notice-101"', 'id = "other"', "id", "differs from the folder"),
    ("task.toml", 'language = "en"', 'language = "fr"', "language", "must be one of"),
    ("task.toml", "timeout = 240", 'timeout = "soon"', "timeout", "not a int"),
    ("task.toml", "weight = 0.1", "weight = 0.2", "criteria", "sum to 1.1"),
    ("task.toml", "weight = 0.1", "weight = -0.1", "criteria[0].weight", "positive"),
    ("task.toml", 'key = "notice_written"', 'key = "end_dates"', "criteria", "duplicate criterion"),
    ("task.toml", 'title = "', 'titel = "', "title", "missing"),
    ("oracle.json", '"tool": "write"', '"tool": "browse"', "steps[1].tool", "unknown tool"),
    ("oracle.json", '"path": "staff.csv"', '"path": "/etc/passwd"', "steps[0].arguments.path", "relative"),
    ("oracle.json", '"final"', '"closing"', "final", "missing final"),
    ("units.jsonl", '"task_id": "office-hr-notice-101"', '"task_id": "elsewhere"', "task_id", "is not"),
])
def test_malformed_files_name_file_and_key(task_dir, file, old, new, field, message):
    _edit(task_dir / file, old, new)
    with pytest.raises(InputError) as err:
        load_task(task_dir)
    assert err.value.file.endswith(file)
    assert err.value.field == field
    assert message in err.value.reason


def test_bad_toml_and_missing_parts(task_dir):
    (task_dir / "task.toml").write_text("id = ", encoding="utf-8")
    with pytest.raises(InputError, match=r"task\.toml.*cannot read"):
        load_task(task_dir)
    shutil.copy(SOURCE / "task.toml", task_dir / "task.toml")
    (task_dir / "check.py").unlink()
    with pytest.raises(InputError, match="missing check.py"):
        load_task(task_dir)


def test_units_and_privacy_note_go_together(task_dir):
    (task_dir / "units.jsonl").unlink()
    with pytest.raises(InputError) as err:
        load_task(task_dir)
    assert err.value.field == "privacy_note"


def test_unit_span_drift_is_reported(task_dir):
    units = task_dir / "units.jsonl"
    rows = [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]
    rows[0]["source"]["start"] += 1
    units.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    problems = unit_problems(load_task(task_dir))
    assert len(problems) == 1 and problems[0].startswith(f"{rows[0]['task_id']}/{rows[0]['entity_id']}/")


def test_checker_must_return_every_criterion(task_dir):
    _edit(task_dir / "check.py", '"no_sensitive": bool(listed)', '"extra": bool(listed)')
    task = load_task(task_dir)
    (task.workspace / "notice.md").write_text("E1010", encoding="utf-8")
    with pytest.raises(InputError, match="check\\(\\) returned keys"):
        task.check(task.workspace)


def test_suite_errors_reach_the_cli(tmp_path, task_dir):
    misfiled = tmp_path / "data" / SOURCE.name
    shutil.move(task_dir, misfiled)
    with pytest.raises(InputError, match="filed under 'data/'"):
        load_suite(tmp_path)
    result = CliRunner().invoke(main, ["tasks", "list", "--root", str(tmp_path)])
    assert result.exit_code == 2
    assert "error:" in result.output and "field 'scenario'" in result.output
