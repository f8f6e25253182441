"""`make test` runs on pytest-xdist workers with the groups `tests/conftest.py` gives (a heavy marker's, else the
module's): the groups must reach xdist's scheduler, or each worker starts its own servers and module fixtures.
Under pytest 9.2 and xdist 3.8 they silently did not (pytest-dev/pytest-xdist#1386)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = ["tests/test_judge_llm.py", "tests/test_logs_walk.py"]  # 8 + 7 tests, a second or two each


def test_a_modules_tests_run_on_one_worker_under_make_tests_options():
    """Two modules on two workers, as `make test` runs them (its PARALLEL options): each of their 15 tests (8 + 7:
    seven functions each, one of test_judge_llm's parametrized twice; `pytest --co`) is reported with its module as
    its group, and each module's tests ran on one worker."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}  # this run may be a worker
    parallel = re.search(r"^PARALLEL := -n \d+ (.*)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert parallel, "the Makefile names no PARALLEL options"
    done = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-n", "2",
                           *parallel[1].split(), *MODULES], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    grouped = re.findall(r"^\[(gw\d)\] \[ *\d+%\] PASSED (\S+?)@(\S+)", done.stdout, re.MULTILINE)
    assert len(grouped) == 15, done.stdout[-3000:]  # every test of the two modules, each with its group
    workers: dict[str, set[str]] = defaultdict(set)
    for worker, test, group in grouped:
        assert test.split("::")[0] == group, test
        workers[group].add(worker)
    assert set(workers) == set(MODULES) and all(len(w) == 1 for w in workers.values()), dict(workers)
