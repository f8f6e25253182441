"""Session 16, fifth walk: `annotate prelabel` on a small workspace written as users write theirs (CSV,
JSON, Markdown, Chinese text), `report`, `intercept` and `judge --calibrate`, each figure checked against a
count made by hand."""

import json
from pathlib import Path

from click.testing import CliRunner

from ec2audit.cli import main


def _prelabel(tmp_path: Path, files: dict[str, str]) -> list[dict]:
    """The units `annotate prelabel --no-presidio --units` proposes for a workspace of `files`."""
    ws = tmp_path / "ws"
    ws.mkdir()
    for name, text in files.items():
        (ws / name).write_text(text, encoding="utf-8")
    units = tmp_path / "auto.jsonl"
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(ws), "--no-presidio", "--units", str(units),
                                       "--out", str(tmp_path / "ls.json")])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]


def _values(units: list[dict]) -> list[tuple[str, str]]:
    return sorted((u["dimension"], u["value"]) for u in units)


def test_a_card_followed_by_its_expiry_is_still_a_card(tmp_path):
    """`Card 4532 0151 1283 0366 12/27`: the card pattern's optional 1-3 digit tail took the expiry month,
    the 18 digits failed Luhn and the whole card was dropped. By hand: one financial unit, the 16 digits."""
    units = _prelabel(tmp_path, {"order.txt": "Card 4532 0151 1283 0366 12/27, billed monthly.\n"})
    assert _values(units) == [("financial", "4532 0151 1283 0366")]
