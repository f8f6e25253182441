"""Session 18, seventh walk: figures a new user reads off `units`, `report`, `judge`, `run` and `audit` on
inputs written here as users write theirs (AceBench's two ground-truth places, audits of several formats,
…), each checked against a count made by hand."""

import json
from pathlib import Path

from click.testing import CliRunner

from ec2audit.cli import main


def _cli(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def _items(path: Path, name: str, fields: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"items": [{"entity_id": "CUS-1", "name": name, "sensitive_fields": fields}]}),
                    encoding="utf-8")


def test_units_of_acebenchs_gt_gt_folders_belong_to_their_tasks(tmp_path):
    """AceBench's workspaces keep ground truth at `gt/sensitive_items.json` or `gt/gt/…` (its checks try both).
    Two tasks of the second kind, the same entity in each. By hand: 3 units of 3 tasks named by their folders.
    Before: both `gt/gt` files were task `gt`, and the import stopped on a duplicate unit id."""
    ws = tmp_path / "workspace" / "ACE_Bench"
    _items(ws / "task_101_review" / "gt" / "sensitive_items.json", "Zhao Lei",
           [{"field": "mobile", "value": "18621345678", "dimension": "phone", "weight": 1.5}])
    _items(ws / "task_102_review" / "gt" / "gt" / "sensitive_items.json", "Acme",
           [{"field": "contract_value", "value": 1500000, "weight": 2.0}])
    _items(ws / "task_103_crawl" / "gt" / "gt" / "sensitive_items.json", "Beta",
           [{"field": "contract_value", "value": "900000", "weight": 2.0}])
    out = tmp_path / "units.jsonl"
    code, output = _cli("units", "import-acebench", tmp_path / "workspace", "--out", out)
    assert code == 0, output
    assert "3 units from 3 tasks" in output
    units = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted((u["task_id"], u["value"]) for u in units) == [
        ("task_101_review", "18621345678"), ("task_102_review", "1500000"), ("task_103_crawl", "900000")]
