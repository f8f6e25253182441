"""Generated request logs of agent sessions for the back-end tests (local, process pool, Ray)."""

from __future__ import annotations

import json
from pathlib import Path

from ec2audit.synth import make_payloads, make_units
from ec2audit.units import write_units


def session_logs(root: Path, units: int, per_task: int, chars: int, seed: int) -> tuple[Path, Path]:
    """One JSONL file per session under `root/logs`, a broken line in the second and a note that is no
    log, so every back-end must read or name each file as skipped; returns (folder, units file)."""
    generated = make_units(units, per_task, seed=seed)
    write_units(generated, root / "units.jsonl")
    records, _ = make_payloads(generated, chars, seed=seed + 2)
    folder = root / "logs"
    folder.mkdir()
    sessions: dict[str, list[dict]] = {}
    for record in records:
        sessions.setdefault(record["episode"], []).append(record)
    for i, rows in enumerate(sessions.values()):
        with (folder / f"session{i:02d}.jsonl").open("w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
            if i == 1:
                out.write("{not json\n")
    (folder / "notes.txt").write_text("not a log\n")
    return folder, root / "units.jsonl"
