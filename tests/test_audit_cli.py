"""`ec2audit audit` end to end: files in, exposure and findings out, exit codes for bad input."""

import json
import os
import stat
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from ec2audit.audit import audit
from ec2audit.cli import main
from ec2audit.logs import audit as log_audit
from ec2audit.payloads import payload_from_record
from ec2audit.synth import make_payloads, make_units, write_jsonl
from ec2audit.units import make_unit, read_units, write_units

LOGS = Path(__file__).parent / "data" / "logs"
UNITS = [
    make_unit({"task_id": "t1", "entity_id": "P1", "field": "national_id", "value": "110105198803153418",
               "dimension": "government_id", "weight": 3.0}),
    make_unit({"task_id": "t1", "entity_id": "P1", "field": "phone", "value": "13922883366",
               "dimension": "contact", "weight": 1.5}),
    make_unit({"task_id": "t1", "entity_id": "P1", "field": "name", "value": "欧阳娜娜",
               "dimension": "person_name", "weight": 1.0}),
]
REQUEST = {"model": "gpt-5.4", "messages": [
    {"role": "system", "content": "You are an agent."},
    {"role": "tool", "tool_call_id": "c1", "content": "身份证 110105198803153418，手机 139****3366"}]}


@pytest.fixture
def files(tmp_path):
    write_units(UNITS, tmp_path / "units.jsonl")
    lines = [json.dumps({"id": "req-1", "task_id": "t1", "episode": "ep-1", "request": REQUEST}, ensure_ascii=False)]
    (tmp_path / "payloads.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def test_audit_writes_findings_and_weighted_exposure(files):
    out = files / "findings.parquet"
    result = CliRunner().invoke(main, ["audit", str(files / "payloads.jsonl"), "--units", str(files / "units.jsonl"),
                                       "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    (row,) = summary["exposure"]
    assert row["group"] == "ep-1" and row["units"] == 3 and row["leaked"] == 2
    assert row["exposure"] == pytest.approx((3.0 * 1.0 + 1.5 * 0.7) / 5.5)
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    findings = pl.read_parquet(out)
    by_field = {r["field"]: r for r in findings.iter_rows(named=True)}
    assert set(by_field) == {"national_id", "phone"}
    assert by_field["phone"]["matched_text"] == "139****3366" and by_field["phone"]["grade"] == 0.7
    text = REQUEST["messages"][1]["content"]
    assert text[by_field["national_id"]["start"]:by_field["national_id"]["end"]] == "110105198803153418"
    assert by_field["national_id"]["origin"] == "tool_result" and by_field["national_id"]["payload_id"] == "req-1"


def test_terminal_summary_masks_values(files):
    result = CliRunner().invoke(main, ["audit", str(files / "payloads.jsonl"), "--units", str(files / "units.jsonl")])
    assert result.exit_code == 0
    assert "0.736" in result.output and "ep-1" in result.output
    assert "110105198803153418" not in result.output


def test_bad_lines_are_skipped_reported_and_exit_1(files):
    with open(files / "payloads.jsonl", "a", encoding="utf-8") as f:
        f.write('{"id": "req-2", "request": {"messages": [\n')
    out = files / "f.jsonl"
    result = CliRunner().invoke(main, ["audit", str(files / "payloads.jsonl"), "--units", str(files / "units.jsonl"),
                                       "--out", str(out)])
    assert result.exit_code == 1
    assert "payloads.jsonl:2" in result.output
    assert len(out.read_text().splitlines()) == 2  # what was audited is still written


def test_bad_units_exit_2_naming_file_and_line(files):
    (files / "units.jsonl").write_text('{"task_id": "t1", "entity_id": "P1", "field": "x", "value": "v",'
                                       ' "dimension": "nope"}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["audit", str(files / "payloads.jsonl"), "--units", str(files / "units.jsonl")])
    assert result.exit_code == 2
    assert f"{files / 'units.jsonl'}:1: field 'dimension'" in result.output


def test_synthetic_leaks_are_all_found_at_their_grade():
    """Every value the generator put into a payload is found at least at the grade of its form."""
    units = make_units(200, 4, seed=11)
    records, truth = make_payloads(units, 150_000, seed=11)
    result = audit([payload_from_record(r, r["id"]) for r in records], units)
    found = {}
    for r in result.findings_frame().iter_rows(named=True):
        key = (r["payload_id"], r["unit_id"])
        found[key] = max(found.get(key, 0.0), r["grade"])
    missed = [leak for leak in truth if found.get((leak.payload_id, leak.unit_id), 0.0) < leak.grade]
    assert truth and not missed
    by_id = {u.id: u for u in units}
    expected = {(leak.payload_id, leak.unit_id) for leak in truth}
    extra = [k for k in found if k not in expected]
    # anything else found must be a value that really is in the payload (shared by two people)
    assert all(by_id[uid].value in {by_id[e].value for (p, e) in expected if p == pid} for pid, uid in extra)


def test_demo_generator_writes_inputs_the_cli_reads(tmp_path):
    units = make_units(20, 2, seed=1)
    records, _ = make_payloads(units, 20_000, seed=1)
    write_units(units, tmp_path / "u.jsonl")
    write_jsonl(records, tmp_path / "p.jsonl")
    result = CliRunner().invoke(main, ["audit", str(tmp_path / "p.jsonl"), "--units", str(tmp_path / "u.jsonl"),
                                       "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output)["payloads"] == len(records)


def _other_tasks(tmp_path):
    """The fixture's units plus two more tasks' units that no log mentions."""
    lines = (LOGS / "units.jsonl").read_text(encoding="utf-8").splitlines()
    others = [json.dumps({"task_id": t, "entity_id": "X", "field": f, "value": v, "dimension": d})
              for t in ("hr-7", "ops-9") for f, v, d in (("phone", f"+44 20 7946 0{len(t)}58", "contact"),
                                                           ("name", f"Oswin {t.upper()} Farquharson", "person_name"))]
    (tmp_path / "units.jsonl").write_text("\n".join(lines + others) + "\n", encoding="utf-8")
    return tmp_path / "units.jsonl"


def test_log_sessions_are_scored_against_the_units_in_their_own_calls(tmp_path):
    units = _other_tasks(tmp_path)
    result = CliRunner().invoke(main, ["audit", str(LOGS / "requests"), "--units", str(units), "--json"])
    assert result.exit_code == 0, result.output
    (session,) = json.loads(result.output)["sessions"]
    # name, phone, diagnosis went to the cloud and the card to the local model: 4 units in its calls
    assert (session["units"], session["leaked"], session["scored_against"]) == (4, 3, "units found in its own calls")
    weight = {u.field: u.weight for u in read_units(units) if u.task_id == "acme-billing"}
    grades = {r["unit_id"].rsplit("/", 1)[1]: r["grade"] for r in json.loads(result.output)["leaked"]}
    assert session["exposure"] == pytest.approx(sum(g * weight[f] for f, g in grades.items()) / sum(
        weight[f] for f in ("name", "phone", "diagnosis", "card")))
    plain = CliRunner().invoke(main, ["audit", str(LOGS / "requests"), "--units", str(units)])
    assert "scored against the units found in its own calls" in " ".join(plain.output.split())


def test_task_map_scores_a_session_against_its_task(tmp_path):
    units = _other_tasks(tmp_path)
    (tmp_path / "map.csv").write_text("session,task_id\ncrm-bot-42,acme-billing\n")
    result = CliRunner().invoke(main, ["audit", str(LOGS / "requests"), "--units", str(units), "--task-map",
                                       str(tmp_path / "map.csv"), "--json"])
    assert result.exit_code == 0, result.output
    (session,) = json.loads(result.output)["sessions"]
    assert (session["units"], session["leaked"], session["scored_against"]) == (5, 3, "task acme-billing")
    (tmp_path / "bad.csv").write_text("session,task_id\ncrm-bot-42\n")
    bad = CliRunner().invoke(main, ["audit", str(LOGS / "requests"), "--units", str(units), "--task-map",
                                    str(tmp_path / "bad.csv")])
    assert bad.exit_code == 2 and f"{tmp_path / 'bad.csv'}:2: expected 'session,task_id'" in bad.output


def test_log_table_is_readable_at_80_columns_and_values_only_on_request(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    args = ["audit", str(LOGS / "openclaw-carriers"), "--units", str(LOGS / "units.jsonl")]
    masked = CliRunner().invoke(main, args)
    assert masked.exit_code == 0, masked.output
    lines = masked.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    header = next(line for line in lines if "first call" in line)
    assert header.split() == ["unit", "dimension", "grade", "first", "call", "carrier", "evidence"]
    row = next(line for line in lines if "stripe" in line)
    assert "credential" in row and "1.0" in row and "#3" in row and "exec" in row
    assert "sk-live-51HqLmX9vB4nR8tY3kW6pZ1cJ5dF0gAs7Ee" not in masked.output
    shown = CliRunner().invoke(main, [*args, "--show-values", "--json"])
    summary = json.loads(shown.output)
    assert summary["values_shown"] is True
    assert "sk-live-51HqLmX9vB4nR8tY3kW6pZ1cJ5dF0gAs7Ee" in {r["evidence"] for r in summary["leaked"]}
    plain = CliRunner().invoke(main, [*args, "--show-values"])
    assert "values shown in clear text" in plain.output and "415-555-0142" in plain.output


def test_a_trace_rotated_over_two_files_is_numbered_and_attributed_in_time_order(tmp_path, monkeypatch):
    """Two rotated OpenTelemetry files of one trace, the older named traces-2.json (13:46:41–42: "hi",
    then the name) and the newer traces-1.json (13:46:47–49, the name again). By hand: the name was
    first sent by span b2 at 13:46:42, the session's call 2 of 5; the calls are numbered 1 to 5 once.
    (Read in name order, the audit said call #1 at 13:46:47, and the timeline had two step 1s.) With `--jobs 2`
    the times are read here, then (`PROBE_FILES` 1) by the workers, a file a task."""
    units = tmp_path / "units.jsonl"
    write_units([make_unit({"task_id": "t1", "entity_id": "C-1", "field": "name", "value": "Hildegard Okonkwo",
                            "dimension": "person_name"})], units)
    rotated = LOGS / "otel-rotated"
    for jobs, probe in (("1", 2_048), ("2", 2_048), ("2", 1)):
        monkeypatch.setattr(log_audit, "PROBE_FILES", probe)
        result = CliRunner().invoke(main, ["audit", str(rotated), "--units", str(units), "--json", "--jobs", jobs])
        assert result.exit_code == 0, result.output
        summary = json.loads(result.output)
        [leak] = summary["leaked"]
        assert (leak["first_call"], leak["step"], leak["timestamp"]) == ("b2", 2, "2026-11-04T13:46:42+00:00")
        assert [(t["step"], t["payload_id"], t["timestamp"][11:19]) for t in summary["timeline"]] == [
            (1, "b1", "13:46:41"), (2, "b2", "13:46:42"), (3, "a1", "13:46:47"), (4, "a2", "13:46:48"),
            (5, "a3", "13:46:49")]
        assert [Path(f["file"]).name for f in summary["files"]] == ["traces-2.json", "traces-1.json"]
    plain = CliRunner().invoke(main, ["audit", str(rotated), "--units", str(units)], env={"COLUMNS": "200"})
    assert plain.exit_code == 0, plain.output
    assert "#2 13:46:42" in plain.output and "#1 13:46:47" not in plain.output
    findings = tmp_path / "findings.parquet"
    out = CliRunner().invoke(main, ["audit", str(rotated), "--units", str(units), "--out", str(findings)])
    assert out.exit_code == 0, out.output
    assert pl.read_parquet(findings).select("payload_id", "step").rows() == [("b2", 2), ("a1", 3)]
