"""What every command prints through `ec2audit.console`: full-width lines into a pipe, counted nouns,
progress lines where no terminal shows a bar."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console

from ec2audit.console import RunProgress, plural

ROOT = Path(__file__).resolve().parents[1]


def test_piped_output_is_not_cut_at_80_columns(tmp_path):
    """A real process with stdout and stderr both pipes (as `ec2audit … | grep` or CI sees it)."""
    long_task = "ACE_Bench_task_101_quarterly_customer_review_with_a_long_name"
    units = tmp_path / "u.jsonl"
    units.write_text("".join(json.dumps({"task_id": long_task, "entity_id": f"E{i}", "field": "phone",
                                         "value": f"1390000000{i}", "dimension": "contact"}) + "\n"
                             for i in range(3)), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-c", "from ec2audit.cli import main; main()", "units", "check",
                           str(units)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if "contact" in line)
    assert long_task in row and "…" not in done.stdout
    assert f"{units}: 3 units" in done.stdout  # the title is not wrapped either


def test_plural():
    assert [plural(n, "file") for n in (0, 1, 2)] == ["0 files", "1 file", "2 files"]
    assert plural(1, "entity", "entities") == "1 entity" and plural(3, "entity", "entities") == "3 entities"


def test_progress_prints_lines_where_there_is_no_terminal():
    """The stage and count are set before the ticker starts, and the test waits for its second line: set inside,
    a loaded machine that paused this thread for 50 ms had a line say `embedding` or `judging: 0/10`, and one
    that paused the ticker missed a second line in a fixed 0.3 s."""
    out = io.StringIO()
    console = Console(file=out, width=200)  # a file: no terminal, no bar
    calls = iter(range(100))
    progress = RunProgress(console, every=0.05, detail=lambda: f"{next(calls)} judge calls")
    progress.stage("embedding")
    progress.stage("judging", 10)
    progress.advance(3)
    with progress:
        deadline = time.monotonic() + 30  # bounds only how long a failing test hangs
        while out.getvalue().count("\n") < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    lines = out.getvalue().splitlines()
    assert len(lines) >= 2 and all(line.startswith("judging: 3/10 (30 %), ") for line in lines)
    assert "judge calls" in lines[0] and "in this stage" in lines[0]
    quiet = io.StringIO()
    with RunProgress(Console(file=quiet), every=5) as progress:  # a short run adds nothing
        progress.stage("judging", 2)
        progress.advance(2)
    assert quiet.getvalue() == ""
