"""The task checkers' case handling, through the oracle's own episodes: what a checker compares without
regard to case (required items, leaked values, a log's step name, CSV headers) and what it must compare
exactly (an error code). A checker whose case handling changes fails here, whichever way it changes."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from ec2audit.oracle import run_episode
from ec2audit.taskcheck import leaked, read_csv
from ec2audit.tasks import find_task, load_suite

ROOT = Path(__file__).resolve().parents[1] / "tasks"


def _expected(task) -> dict:
    """The checker's EXPECTED table, as `tasks/build.py` filled it in."""
    spec = importlib.util.spec_from_file_location(f"expected_{task.id.replace('-', '_')}", task.dir / "check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.EXPECTED


def _deliverable_tasks() -> list[str]:
    """One task per report-style family whose deliverables the oracle writes as files."""
    chosen: dict[str, str] = {}
    for task in load_suite(ROOT):
        expected = _expected(task)
        written = {s["arguments"]["path"] for s in task.oracle["steps"] if s["tool"] == "write"}
        if "required" in expected and set(expected["outputs"]) <= written and task.family not in chosen:
            if any(any(c.isalpha() for c in v) for v in expected["forbidden"]):
                chosen[task.family] = task.id
    return sorted(chosen.values())


DELIVERABLES = _deliverable_tasks()


def _rewritten(task, change, outputs: tuple[str, ...] = ()) -> list[dict]:
    """The oracle's steps with `change(path, content)` applied to what it writes to the deliverables."""
    outputs = set(outputs or _expected(task)["outputs"])
    steps = json.loads(json.dumps(task.oracle["steps"]))
    for step in steps:
        if step["tool"] == "write" and step["arguments"]["path"] in outputs:
            step["arguments"]["content"] = change(step["arguments"]["path"], step["arguments"]["content"])
    return steps


def test_there_are_report_families_to_check():
    assert len(DELIVERABLES) >= 5, DELIVERABLES


@pytest.mark.parametrize("task_id", DELIVERABLES)
def test_a_deliverable_in_other_letter_case_scores_as_the_oracles(task_id, tmp_path):
    task = find_task(task_id, ROOT)
    result = run_episode(task, _rewritten(task, lambda _, text: text.swapcase()), tmp_path)
    assert result.completion == 1.0, result.criteria  # required items match whatever their case


@pytest.mark.parametrize("task_id", DELIVERABLES)
def test_a_sensitive_value_in_other_letter_case_is_still_a_leak(task_id, tmp_path):
    task = find_task(task_id, ROOT)
    expected = _expected(task)
    value = next(v for v in expected["forbidden"] if any(c.isalpha() for c in v))
    first = expected["outputs"][0]
    steps = _rewritten(task, lambda path, text: text + f"\n{value.swapcase()}\n" if path == first else text)
    result = run_episode(task, steps, tmp_path)
    assert result.criteria["required"] == 1.0 and result.criteria["no_sensitive"] is False, value


def test_a_deploy_diagnosis_names_the_step_in_any_case_but_the_error_code_exactly(tmp_path):
    task = find_task("security-deploy-log-301", ROOT)
    expected = _expected(task)
    step, code = expected["step"], expected["code"]
    assert any(c.isalpha() for c in step) and any(c.isalpha() for c in code)

    def shout_step(_, text: str) -> str:
        at = text.lower().index(step.lower())
        return text[:at] + step.upper() + text[at + len(step):]

    diagnosis = ("diagnosis.md",)
    assert run_episode(task, _rewritten(task, shout_step, diagnosis), tmp_path / "a").completion == 1.0
    lowered = run_episode(task, _rewritten(task, lambda _, text: text.replace(code, code.swapcase()), diagnosis),
                          tmp_path / "b")
    assert lowered.criteria["error_code"] is False  # `e42` is not the code `E42`


def test_leaked_ignores_case_and_separators_of_long_numbers():
    text = "Reach ANN LEE at ann.lee@EXAMPLE.com, card 6222 0210 0112 3456, ref ab12"
    assert leaked(text, ["Ann Lee", "ann.lee@example.com", "6222021001123456", "AB12", "Bo Chen"]) == [
        "Ann Lee", "ann.lee@example.com", "6222021001123456", "AB12"]
    assert leaked("order 12 34", ["1234"]) == []  # a short number is not matched across separators


def test_read_csv_headers_match_whatever_their_case_and_spacing(tmp_path):
    (tmp_path / "out.csv").write_text("\ufeff Name ,EMAIL\nAnn Lee , ann@example.com\n", encoding="utf-8")
    assert read_csv(tmp_path, "out.csv") == [{"name": "Ann Lee", "email": "ann@example.com"}]
