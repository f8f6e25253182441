import json
import os
import stat

import pytest
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.errors import InputError
from ec2audit.units import make_unit, read_acebench, read_units, write_acebench, write_units

ZHANG = {"task_id": "office-001", "entity_id": "CTX-002", "entity_name": "张伟", "field": "national_id",
         "value": "110105198803153418", "dimension": "government_id", "weight": 3.0}


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_round_trip_keeps_every_field(tmp_path):
    units = [make_unit(ZHANG), make_unit({**ZHANG, "field": "phone", "value": "13922883366", "dimension": "contact",
                                          "aliases": ["139-2288-3366"], "description": "mobile",
                                          "source": {"file": "contacts.csv", "start": 10, "end": 21}})]
    write_units(units, tmp_path / "u.jsonl")
    assert read_units(tmp_path / "u.jsonl") == units
    assert units[1].id == "office-001/CTX-002/phone"


def test_missing_weight_takes_the_taxonomy_default():
    unit = make_unit({k: v for k, v in ZHANG.items() if k != "weight"})
    assert unit.weight == 3.0
    assert make_unit({**ZHANG, "dimension": "person_name", "weight": None} | {"weight": 1.0}).weight == 1.0


@pytest.mark.parametrize("line, field", [
    ('{"task_id": "t", "entity_id": "e", "field": "f", "dimension": "contact"}', "value"),
    ('{"task_id": "t", "entity_id": "e", "field": "f", "value": "  ", "dimension": "contact"}', "value"),
    ('{"task_id": "t", "entity_id": "e", "field": "f", "value": "x1", "dimension": "goverment_id"}', "dimension"),
    ('{"task_id": "t", "entity_id": "e", "field": "f", "value": "x1", "dimension": "contact", "weight": -1}',
     "weight"),
    ('{"task_id": "t", "entity_id": "e", "field": "f", "value": "x1", "dimension": "contact", "colour": 1}',
     "colour"),
])
def test_bad_unit_names_file_line_and_field(tmp_path, line, field):
    path = _write(tmp_path / "units.jsonl", [json.dumps(ZHANG), "", line])
    with pytest.raises(InputError) as err:
        read_units(path)
    assert err.value.file == str(path) and err.value.line == 3 and err.value.field == field
    assert f"{path}:3: field '{field}'" in str(err.value)


def test_invalid_json_and_duplicates_are_errors(tmp_path):
    with pytest.raises(InputError, match=r"units.jsonl:2: not valid JSON"):
        read_units(_write(tmp_path / "units.jsonl", [json.dumps(ZHANG), '{"task_id": ']))
    with pytest.raises(InputError, match=r"dup.jsonl:3: .*duplicate unit id 'office-001/CTX-002/national_id' "
                                         r"\(first on line 1\)"):
        read_units(_write(tmp_path / "dup.jsonl", [json.dumps(ZHANG), "# comment", json.dumps(ZHANG)]))


def test_acebench_round_trip_keeps_dimension_and_weight(tmp_path):
    units = [make_unit(ZHANG), make_unit({**ZHANG, "field": "salary", "value": "¥320,000", "dimension": "salary",
                                          "weight": 2.5}),
             make_unit({**ZHANG, "task_id": "devops-004", "entity_id": "SVC-1", "entity_name": "deploy bot",
                        "field": "api_key", "value": "sk-test-abcdefghijklmnop", "dimension": "credential"})]
    files = write_acebench(units, tmp_path / "ace")
    assert sorted(f.relative_to(tmp_path / "ace").as_posix() for f in files) == [
        "devops-004/gt/sensitive_items.json", "office-001/gt/sensitive_items.json"]
    doc = json.loads(files[0].read_text(encoding="utf-8"))
    assert doc["items"][0]["sensitive_fields"][1] == {"field": "salary", "value": "¥320,000",
                                                      "dimension": "salary", "weight": 2.5}
    back = read_acebench(tmp_path / "ace")
    assert sorted(back, key=lambda u: u.id) == sorted(units, key=lambda u: u.id)
    single = read_acebench(tmp_path / "ace" / "office-001" / "gt" / "sensitive_items.json")
    assert {u.task_id for u in single} == {"office-001"}


def test_acebench_bad_file_names_the_field(tmp_path):
    path = tmp_path / "t1" / "gt" / "sensitive_items.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"items": [{"entity_id": "E1", "sensitive_fields": [
        {"field": "phone", "value": "13922883366", "dimension": "contact", "weight": 1.5},
        {"field": "id", "value": "", "dimension": "contact", "weight": 1}]}]}), encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_acebench(path)
    assert err.value.field == "items[0].sensitive_fields[1].value"


def test_units_cli_converts_both_ways(tmp_path):
    write_units([make_unit(ZHANG)], tmp_path / "u.jsonl")
    runner = CliRunner()
    out = runner.invoke(main, ["units", "export-acebench", str(tmp_path / "u.jsonl"), "--out", str(tmp_path / "a")])
    assert out.exit_code == 0, out.output
    out = runner.invoke(main, ["units", "import-acebench", str(tmp_path / "a"), "--out", str(tmp_path / "b.jsonl")])
    assert out.exit_code == 0 and "1 unit from 1 task " in out.output
    assert read_units(tmp_path / "b.jsonl") == [make_unit(ZHANG)]
    # both files hold the unit's value: private, like every store of values
    exported = tmp_path / "a" / ZHANG["task_id"] / "gt" / "sensitive_items.json"
    assert stat.S_IMODE(exported.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "b.jsonl").stat().st_mode) == 0o600
    bad = _write(tmp_path / "bad.jsonl", ['{"task_id": "t"}'])
    out = runner.invoke(main, ["units", "check", str(bad)])
    assert out.exit_code == 2 and f"{bad}:1:" in out.output
    assert os.path.exists(tmp_path / "b.jsonl")
