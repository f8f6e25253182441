"""The reviewer loop on a real Label Studio: candidates pushed, graded by a person, pulled as findings
and calibration examples."""

from __future__ import annotations

import json

from click.testing import CliRunner
from label_studio_sdk import LabelStudio
from test_judge_cli import write_inputs  # tests/ is on the path (pytest's prepend import mode)

from ec2audit.cli import main
from ec2audit.detect.calibrate import Settings, read_split, write_calibration
from ec2audit.review import HUMAN, LABEL_CONFIG


def _cli(args, token):
    result = CliRunner().invoke(main, args, env={"LABEL_STUDIO_API_KEY": token})
    assert result.exit_code == 0, result.output
    return result.output


def _candidates(tmp_path):
    units, payloads, _ = write_inputs(tmp_path)
    cal = write_calibration(tmp_path / "candidates.toml", Settings(window=192, threshold=0.5, shortlist=-1.0), {})
    out = tmp_path / "candidates.jsonl"
    result = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal), "--no-judge",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    return units, out


def test_review_round_trip_on_a_real_label_studio(labelstudio, tmp_path):
    units, candidates = _candidates(tmp_path)
    [candidate] = [json.loads(line) for line in candidates.read_text().splitlines()]
    push = ["judge", "review", "push", str(candidates), "--units", str(units), "--url", labelstudio.url,
            "--project", "Review candidates"]
    assert "1 candidate to review, 0 already there" in _cli(push, labelstudio.token)
    assert "0 candidates to review, 1 already there" in _cli(push, labelstudio.token)

    ls = LabelStudio(base_url=labelstudio.url, api_key=labelstudio.token)
    project = next(p for p in ls.projects.list(title="Review candidates") if p.title == "Review candidates")
    assert project.label_config.strip() == LABEL_CONFIG.strip()
    [task] = list(ls.tasks.list(project=project.id, fields="all"))
    assert task.data["window"] == candidate["matched_text"]
    assert "type 2 diabetes" in task.data["unit_view"] and "health" in task.data["unit_view"]

    pull = ["judge", "review", "pull", "--url", labelstudio.url, "--project", "Review candidates",
            "--out", str(tmp_path / "human.jsonl"), "--split", str(tmp_path / "reviewed.jsonl")]
    assert "0 reviewed (0 leaked), 1 not reviewed yet" in _cli(pull, labelstudio.token)

    # the reviewer reads the window and answers "mostly" (a description that pins the condition down)
    ls.annotations.create(id=task.id, result=[{"from_name": "verdict", "to_name": "text", "type": "choices",
                                               "value": {"choices": ["mostly"]}}])
    assert "1 reviewed (1 leaked), 0 not reviewed yet" in _cli(pull, labelstudio.token)
    [finding] = [json.loads(line) for line in (tmp_path / "human.jsonl").read_text().splitlines()]
    assert (finding["detector"], finding["grade"]) == (HUMAN, 0.7)
    assert {k: finding[k] for k in ("unit_id", "payload_id", "start", "end", "matched_text")} == {
        k: candidate[k] for k in ("unit_id", "payload_id", "start", "end", "matched_text")}
    [example] = read_split(tmp_path / "reviewed.jsonl")  # a calibration split `judge --calibrate` reads
    assert (example.unit.value, example.text, example.grade, example.kind) == (
        "type 2 diabetes", candidate["matched_text"], 0.7, "reviewed")
    assert oct((tmp_path / "reviewed.jsonl").stat().st_mode & 0o777) == "0o600"
    again = _cli(pull, labelstudio.token)  # a second pull appends nothing twice
    assert "0 new examples appended" in again and len(read_split(tmp_path / "reviewed.jsonl")) == 1


def test_review_errors_are_one_line(labelstudio, tmp_path):
    units, candidates = _candidates(tmp_path)
    other = tmp_path / "other-units.jsonl"
    other.write_text(json.dumps({"task_id": "t9", "entity_id": "E9", "field": "name", "value": "Ann Lee",
                                 "dimension": "person_name"}) + "\n")
    token = {"LABEL_STUDIO_API_KEY": labelstudio.token}
    result = CliRunner().invoke(main, ["judge", "review", "push", str(candidates), "--units", str(other), "--url",
                                       labelstudio.url, "--project", "x"], env=token)
    assert result.exit_code == 2 and "which the units file lacks" in result.output
    result = CliRunner().invoke(main, ["judge", "review", "push", str(candidates), "--units", str(units), "--url",
                                       "http://127.0.0.1:9", "--project", "x"], env={"LABEL_STUDIO_API_KEY": "t"})
    assert result.exit_code == 2 and "Label Studio at http://127.0.0.1:9: cannot connect" in result.output
    assert "Traceback" not in result.output
