"""`ec2audit judge`: calibration run and audit through the CLI, judge endpoint over real HTTP."""

from __future__ import annotations

import json
import re
import socket
import tomllib
from pathlib import Path

from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.detect.calibrate import RECALL_TARGET, WINDOWS, Settings, write_calibration

SET = Path(__file__).resolve().parents[1] / "judges" / "calibration"


def small_set(tmp_path: Path, n: int = 14, realistic: int = 0) -> Path:
    """`n` examples of each synthetic split and, with `realistic`, the first that many realistic test cases."""
    out = tmp_path / "set"
    out.mkdir()
    for split in ("dev", "test"):
        lines = (SET / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
        (out / f"{split}.jsonl").write_text("\n".join(lines[::len(lines) // n][:n]) + "\n", encoding="utf-8")
    if realistic:
        (out / "realistic-test").mkdir()
        cases = (SET / "realistic-test" / "cases.jsonl").read_text(encoding="utf-8").splitlines()[:realistic]
        (out / "realistic-test" / "cases.jsonl").write_text("\n".join(cases) + "\n", encoding="utf-8")
        (out / "realistic-test" / "units.jsonl").write_bytes((SET / "realistic-test" / "units.jsonl").read_bytes())
    return out


def test_calibrate_writes_settings_and_report(scripted_judge, tmp_path):
    """How a user measures a cloud or self-hosted judge: `judge --calibrate --judge-url URL` on the shipped
    set, a report to share (F1 with intervals on the synthetic test split and on realistic agent traffic,
    tokens, cost); a rerun costs nothing. The judge is a stand-in that grades nothing it was not told to."""
    cal, report = tmp_path / "calibration.toml", tmp_path / "report.md"
    result = CliRunner().invoke(main, [
        "judge", "--calibrate", "--set", str(small_set(tmp_path, realistic=3)), "--judge-url", scripted_judge.url,
        "--judge-model", "frontier-standin", "--calibration", str(cal), "--report", str(report),
        "--cache", str(tmp_path / "c.sqlite")])
    assert result.exit_code == 0, result.output
    settings = tomllib.loads(cal.read_text())
    assert settings["semantic"]["window"] in WINDOWS and settings["judge"]["window"] in WINDOWS
    assert settings["judge"]["recall_target"] == RECALL_TARGET and settings["judge"]["per_unit"] == 1
    data = json.loads(report.with_suffix(".json").read_text())
    assert set(data["test"]["tiers"]) == {"exact+partial", "semantic", "judge", "cascade"}
    assert data["test"]["tiers"]["judge"]["n"] == 14 and "f1_ci" in data["test"]["tiers"]["cascade"]
    assert data["judge_usage"]["calls"] == len(scripted_judge.requests) > 0
    assert "| cascade |" in report.read_text()
    realistic = data["realistic_judged"]  # every (case, unit) pair of the 3 realistic cases, judged
    units = sum(1 for _ in (tmp_path / "set" / "realistic-test" / "units.jsonl").open())
    assert realistic["cases"] == 3 and 3 <= realistic["all"]["n"] <= 3 * units and "f1_ci" in realistic["f1_all"]
    shown = report.read_text()
    assert "## Realistic test split, judged by `frontier-standin`" in shown and "## Judge cost" in shown
    assert any("T1:" in r["messages"][1]["content"] and "<<<" in r["messages"][1]["content"]
               for r in scripted_judge.requests)
    # a rerun is answered from the cache
    again = CliRunner().invoke(main, [
        "judge", "--calibrate", "--set", str(tmp_path / "set"), "--judge-url", scripted_judge.url,
        "--judge-model", "frontier-standin", "--calibration", str(cal), "--report", str(report),
        "--cache", str(tmp_path / "c.sqlite"), "--json"])
    assert again.exit_code == 0 and json.loads(again.output)["judge_usage"]["calls"] == 0


def write_inputs(tmp_path: Path) -> tuple[Path, Path, Path]:
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps({"task_id": "t1", "entity_id": "E1", "field": "diagnosis",
                                 "value": "type 2 diabetes", "dimension": "health"}) + "\n")
    payloads = tmp_path / "payloads.jsonl"
    body = {"id": "call-1", "task_id": "t1", "request": {"model": "gpt", "messages": [
        {"role": "user", "content": "Patient note: manages her chronic blood-sugar condition with metformin."}]}}
    payloads.write_text(json.dumps(body) + "\n")
    cal = write_calibration(tmp_path / "cal.toml", Settings(window=192, threshold=0.5, shortlist=-1.0), {})
    return units, payloads, cal


def test_audit_reports_judge_findings(scripted_judge, tmp_path):
    units, payloads, cal = write_inputs(tmp_path)
    scripted_judge.script("blood-sugar", json.dumps(
        {"verdicts": [{"item": 1, "grade": 0.7, "evidence": "chronic blood-sugar condition"}]}))
    out = tmp_path / "findings.jsonl"
    result = CliRunner().invoke(main, [
        "judge", str(units), str(payloads), "--calibration", str(cal), "--judge-url", scripted_judge.url,
        "--judge-model", "m", "--cache", str(tmp_path / "c.sqlite"), "--json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["judge"]["calls"] == 1
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["payload_id"], r["detector"], r["matched_text"]) for r in rows] == [
        ("call-1", "judge", "chronic blood-sugar condition")]


def test_unreachable_judge_is_a_clean_error(tmp_path):
    units, payloads, cal = write_inputs(tmp_path)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = CliRunner().invoke(main, [
        "judge", str(units), str(payloads), "--calibration", str(cal), "--judge-url",
        f"http://127.0.0.1:{port}/v1", "--judge-model", "m", "--cache", str(tmp_path / "c.sqlite")])
    assert result.exit_code == 2 and "judge unavailable" in result.output


def test_judge_url_needs_a_model(tmp_path):
    units, payloads, cal = write_inputs(tmp_path)
    result = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--judge-url", "http://127.0.0.1:9/v1"])
    assert result.exit_code == 2 and "--judge-model" in result.output


def test_calibrate_without_a_judge_tunes_the_semantic_tier_and_the_judges_shortlist(tmp_path):
    set_dir, runs = small_set(tmp_path), {}
    for target in (0.6, 0.95):
        cal = tmp_path / f"calibration-{target}.toml"
        result = CliRunner().invoke(main, ["judge", "--calibrate", "--no-judge", "--set", str(set_dir),
                                           "--recall-target", str(target), "--calibration", str(cal),
                                           "--report", str(tmp_path / f"r-{target}.md")])
        assert result.exit_code == 0, result.output
        report = json.loads((tmp_path / f"r-{target}.json").read_text())
        runs[target] = tomllib.loads(cal.read_text()), report["dev"]["judge_shortlist_by_window"]
        assert set(report["test"]["tiers"]) == {"exact+partial", "semantic", "cascade"}
        # no judge and no realistic split to validate grading: the cascade grades what the string tiers do
        tiers = report["test"]["tiers"]
        assert {k: v for k, v in tiers["cascade"].items() if k != "n"} == {
            k: v for k, v in tiers["exact+partial"].items() if k != "n"}
    for settings, by_window in runs.values():  # the window that sends the judge the fewest characters
        chosen = min(by_window, key=lambda w: (by_window[w]["chars_to_judge"], int(w)))
        assert settings["judge"]["window"] == int(chosen)
        assert settings["judge"]["shortlist"] == by_window[chosen]["threshold"]
    (_, loose), (_, strict) = runs[0.95], runs[0.6]
    assert all(loose[w]["threshold"] <= strict[w]["threshold"] for w in loose)  # more recall, wider shortlist
    assert sum(w["chars_to_judge"] for w in loose.values()) > sum(w["chars_to_judge"] for w in strict.values())


def test_per_unit_judges_each_unit_in_its_best_window_only(scripted_judge, tmp_path):
    units, _, _ = write_inputs(tmp_path)
    cal = write_calibration(tmp_path / "cal.toml", Settings(window=384, threshold=0.5, shortlist=-1.0,
                                                            judge_window=192, per_unit=1), {})
    payloads = tmp_path / "two.jsonl"
    body = {"id": "call-2", "task_id": "t1", "request": {"model": "gpt", "messages": [
        {"role": "user", "content": "Patient note: manages her chronic blood-sugar condition with metformin."},
        {"role": "assistant", "content": "Noted. The clinic's parking lot reopens on Monday."}]}}
    payloads.write_text(json.dumps(body) + "\n")
    args = ["judge", str(units), str(payloads), "--calibration", str(cal), "--judge-url", scripted_judge.url,
            "--judge-model", "m", "--json"]
    assert CliRunner().invoke(main, args + ["--cache", str(tmp_path / "a.sqlite"), "--per-unit", "0"]).exit_code == 0
    every = [len(re.findall(r"^\d+\. \[", r["messages"][1]["content"], flags=re.MULTILINE))
             for r in scripted_judge.requests]
    scripted_judge.requests.clear()
    result = CliRunner().invoke(main, args + ["--cache", str(tmp_path / "b.sqlite")])  # the calibration's 1
    assert result.exit_code == 0, result.output
    [call] = scripted_judge.requests
    assert sum(every) == 2 and call["messages"][1]["content"].count("TEXT T") == 1
    assert "blood-sugar" in call["messages"][1]["content"]  # the unit's best window, not the parking lot


def test_the_judge_sees_windows_of_the_calibrated_shortlist_size(scripted_judge, tmp_path):
    units, _, _ = write_inputs(tmp_path)
    filler = "The quarterly facilities report lists repairs, parking changes and cafeteria menus. " * 8
    note = filler + "Patient note: manages her chronic blood-sugar condition with metformin. " + filler
    payloads = tmp_path / "long.jsonl"
    payloads.write_text(json.dumps({"id": "call-3", "task_id": "t1", "request": {
        "model": "gpt", "messages": [{"role": "user", "content": note}]}}) + "\n")
    sizes = {}
    for judge_window in (96, 384):
        cal = write_calibration(tmp_path / f"cal-{judge_window}.toml", Settings(
            window=192, threshold=0.5, shortlist=-1.0, judge_window=judge_window, per_unit=1), {})
        scripted_judge.requests.clear()
        result = CliRunner().invoke(main, [
            "judge", str(units), str(payloads), "--calibration", str(cal), "--judge-url", scripted_judge.url,
            "--judge-model", "m", "--json", "--cache", str(tmp_path / f"{judge_window}.sqlite")])
        assert result.exit_code == 0, result.output
        [call] = scripted_judge.requests
        [text] = re.findall(r"TEXT T1:\n<<<\n(.*?)\n>>>", call["messages"][1]["content"], flags=re.DOTALL)
        assert text in note
        sizes[judge_window] = len(text)
    assert sizes[96] <= 96 * 1.5 < 384 < sizes[384] <= 384 * 1.5  # a window plus a quarter on each side
