"""Session 17, sixth walk: figures a new user reads off the CLI on paths no earlier walk took (a Label
Studio round trip with an edited label, …), each checked against a count made by hand."""

import json
from pathlib import Path

from click.testing import CliRunner

from ec2audit.cli import main

CLIENT = "Client: Dana Whitfield\nPhone: +1 415-555-0199\nSalary: $1,250,000\n"


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_unit_relabelled_in_label_studio_weighs_what_its_new_kind_weighs(tmp_path):
    """Three units exported to Label Studio; the annotator deletes the salary region and relabels the phone
    as a government ID. By hand: 2 units back, the phone `government_id` at the taxonomy's 3.0. Before: the
    weight of its old kind (contact, 1.5) came back with it from the task's data."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "client.txt").write_text(CLIENT, encoding="utf-8")
    units = tmp_path / "units.jsonl"
    spans = {"name": ("Dana Whitfield", "person_name"), "phone": ("+1 415-555-0199", "contact"),
             "salary": ("$1,250,000", "financial")}
    units.write_text("".join(json.dumps({
        "task_id": "ws", "entity_id": "P1", "field": field, "value": value, "dimension": dim,
        "source": {"file": "client.txt", "start": CLIENT.index(value), "end": CLIENT.index(value) + len(value)}}) + "\n"
        for field, (value, dim) in spans.items()))
    tasks = tmp_path / "ls.json"
    _cli("annotate", "to-labelstudio", str(units), "--workspace", str(ws), "--out", str(tasks))
    exported = json.loads(tasks.read_text(encoding="utf-8"))
    result = exported[0]["predictions"][0]["result"]
    region = {r["value"]["text"]: r["id"] for r in result if r["from_name"] == "label"}
    edited = []
    for item in json.loads(json.dumps(result)):
        if item["id"] == region["$1,250,000"]:
            continue  # the region deleted
        if item["id"] == region["+1 415-555-0199"] and item["from_name"] == "label":
            item["value"]["labels"] = ["government_id"]
        edited.append(item)
    exported[0].update(id=1, annotations=[{"id": 1, "completed_by": {"id": 1, "email": "ana@example.org"},
                                           "result": edited, "was_cancelled": False}])
    (tmp_path / "export.json").write_text(json.dumps(exported), encoding="utf-8")
    back = tmp_path / "back.jsonl"
    _cli("annotate", "from-labelstudio", str(tmp_path / "export.json"), "--out", str(back))
    assert sorted((u["field"], u["dimension"], u["weight"]) for u in _lines(back)) == [
        ("name", "person_name", 1.0), ("phone", "government_id", 3.0)]
