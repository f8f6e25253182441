"""Without a judge the semantic shortlist writes candidates for review, never leaks, unless a realistic
calibration validated a score from which it may grade alone."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

from click.testing import CliRunner
from test_judge_cli import small_set, write_inputs  # tests/ is on the path (pytest's prepend import mode)

from ec2audit.cli import main
from ec2audit.detect.calibrate import Settings, read_calibration, write_calibration
from ec2audit.detect.realistic import Pair, candidate_threshold, grade_threshold, read_cases
from ec2audit.detect.semantic import CANDIDATE

REALISTIC = Path(__file__).resolve().parents[1] / "judges" / "calibration" / "realistic-test"


def _audit(tmp_path, cal, *extra):
    units, payloads, _ = write_inputs(tmp_path)
    out = tmp_path / "findings.jsonl"
    result = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal), "--no-judge",
                                       "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return result.output, [json.loads(line) for line in out.read_text().splitlines()]


def test_without_a_judge_the_shortlist_writes_candidates_that_exposure_ignores(tmp_path):
    cal = write_calibration(tmp_path / "candidates.toml", Settings(window=192, threshold=0.5, shortlist=-1.0), {})
    output, rows = _audit(tmp_path, cal, "--json")
    summary = json.loads(output)
    [row] = rows
    assert (row["detector"], row["grade"]) == (CANDIDATE, 0.0)
    assert row["matched_text"] in "Patient note: manages her chronic blood-sugar condition with metformin."
    assert summary["candidates"] == 1 and summary["findings"] == 0 and summary["top_leaks"] == []
    assert [e["exposure"] for e in summary["exposure"]] == [0.0]
    [listed] = summary["needs_review"]
    assert (listed["unit_id"], listed["dimension"], listed["payload_id"]) == ("t1/E1/diagnosis", "health", "call-1")
    assert listed["evidence"] != row["matched_text"] and "*" in listed["evidence"]  # masked, as leaks are
    text, _ = _audit(tmp_path, cal)
    assert f"{listed['session']}: needs review, 1 candidate " in text  # listed, not only counted
    line = next(line for line in text.splitlines() if "t1/E1/diagnosis" in line)
    assert "health" in line and "call-1" in line and listed["evidence"] in line


def test_a_validated_grade_threshold_lets_the_tier_grade_alone(tmp_path):
    cal = write_calibration(tmp_path / "graded.toml", Settings(window=192, threshold=0.5, shortlist=-1.0,
                                                            grade_threshold=-1.0), {})
    assert read_calibration(cal).grade_threshold == -1.0
    output, [row] = _audit(tmp_path, cal, "--json")
    assert (row["detector"], row["grade"]) == ("semantic", 0.7)
    summary = json.loads(output)
    assert summary["candidates"] == 0 and summary["exposure"][0]["exposure"] > 0


def _pair(score, gold, graded=0.0):
    return Pair("c", "u", gold, "paraphrase" if gold else "distractor", "en", graded, score)


def test_grade_threshold_needs_precision_on_enough_pairs():
    clean = [_pair(1 - i / 100, 0.7) for i in range(30)] + [_pair(0.5 - i / 100, 0.0) for i in range(30)]
    assert grade_threshold(clean) == 0.48  # the lowest score with ≥ 90 % leaks at or above it: 30 of 33
    assert grade_threshold(clean[:10] + clean[30:]) is None  # too few leaks anywhere
    noisy = [_pair(1 - i / 100, 0.7 if i % 3 else 0.0) for i in range(60)]
    assert grade_threshold(noisy) is None


def test_the_candidate_threshold_keeps_the_recall_target_of_paraphrase_positives():
    hard = [_pair(0.01 * i, 0.7) for i in range(1, 11)]  # ten positives only the semantic tier sees
    negatives = [_pair(0.2, 0.0)] * 5
    assert candidate_threshold(hard + negatives) == 0.02  # 9 of 10 kept at 0.02 and above
    assert candidate_threshold(hard + negatives, recall=0.5) == 0.06
    lost = [Pair("c", "u", 0.7, "translation", "en", 0.0, None)] * 5  # no cue: lost at any threshold
    assert candidate_threshold(hard + lost) == 0.01
    assert candidate_threshold(negatives) is None


def test_the_hand_written_realistic_split_reads_and_labels_every_unit():
    units, cases = read_cases(REALISTIC)
    kinds = {k for c in cases for k in c.kinds.values()}
    assert {"paraphrase", "translation", "description", "topic_only", "distractor", "placeholder"} <= kinds
    assert all(90 <= len(c.text) <= 1500 for c in cases)  # Chinese says in 100 characters what English says in 300
    for c in cases:  # a literal value is labelled verbatim (the leaks-dev convention)
        for u in units:
            if u.task_id == c.task_id and u.value in c.text:
                assert c.kinds[u.id] == "verbatim", (c.id, u.id)


def test_a_case_that_misses_a_unit_is_a_clean_error(tmp_path):
    bad = tmp_path / "bad"
    shutil.copytree(REALISTIC, bad)
    lines = (bad / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[2])
    row["expected"].pop(next(iter(row["expected"])))
    lines[2] = json.dumps(row, ensure_ascii=False)
    (bad / "cases.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    set_dir = small_set(tmp_path, 4)
    shutil.copytree(bad, set_dir / "realistic-test")
    result = CliRunner().invoke(main, ["judge", "--calibrate", "--no-judge", "--set", str(set_dir),
                                       "--calibration", str(tmp_path / "c.toml"), "--report", str(tmp_path / "r.md")])
    assert result.exit_code == 2
    assert "realistic-test/cases.jsonl:3: field 'expected'" in result.output


def test_calibrate_reports_the_realistic_splits_per_kind(tmp_path):
    set_dir = small_set(tmp_path, 6)
    units, cases = read_cases(REALISTIC)
    for split, keep in (("dev", cases[::2]), ("test", cases[1::2])):
        path = set_dir / f"realistic-{split}"
        path.mkdir()
        shutil.copy(REALISTIC / "units.jsonl", path / "units.jsonl")
        source = (REALISTIC / "cases.jsonl").read_text(encoding="utf-8").splitlines()
        (path / "cases.jsonl").write_text("\n".join(source[i] for i, c in enumerate(cases) if c in keep) + "\n",
                                          encoding="utf-8")
    cal, report = tmp_path / "c.toml", tmp_path / "r.md"
    result = CliRunner().invoke(main, ["judge", "--calibrate", "--no-judge", "--set", str(set_dir),
                                       "--calibration", str(cal), "--report", str(report)])
    assert result.exit_code == 0, result.output
    data = json.loads(report.with_suffix(".json").read_text())
    test = data["realistic"]["test"]
    assert test["cases"] == len(cases[1::2]) and test["all"]["n"] == sum(len(c.expected) for c in cases[1::2])
    assert set(test["by_kind"]) >= {"placeholder", "distractor"}
    # too few dev pairs to validate grading: the tier writes candidates only, and the file says so;
    # the candidates' threshold keeps 90 % of the dev paraphrase/translation/description positives
    settings = tomllib.loads(cal.read_text())["semantic"]
    assert data["settings"]["grade_threshold"] is None and "grade_threshold" not in settings
    dev = data["realistic"]["dev"]
    assert settings["candidates"] == data["settings"]["candidate_threshold"] == dev["candidate_threshold"]
    assert test["candidate_threshold"] == dev["candidate_threshold"]
    text = report.read_text()
    assert "Realistic test split" in text
    assert "None" not in text and "the semantic tier never grades a leak alone" in text  # said in words


def test_a_bad_payload_line_is_named_and_exits_1_in_json_mode_too(tmp_path):
    units, payloads, _ = write_inputs(tmp_path)
    cal = write_calibration(tmp_path / "candidates.toml", Settings(window=192, threshold=0.5, shortlist=-1.0), {})
    with payloads.open("a", encoding="utf-8") as f:
        f.write('{"id": "call-2", "request": {"messages": [\n')
    out = tmp_path / "findings.jsonl"
    for extra in (["--json"], []):
        result = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal), "--no-judge",
                                           "--out", str(out), *extra])
        assert result.exit_code == 1, result.output  # done, but a line was skipped: never 0
        assert f"{payloads}:2" in result.output
        assert len(out.read_text().splitlines()) == 1  # what was read is still audited and written
    summary = json.loads(CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal),
                                                   "--no-judge", "--json"]).stdout)
    assert [line.startswith(f"{payloads}:2") for line in summary["skipped_lines"]] == [True]
