"""What polars frees in a process that imported ec2audit goes back to the system at once (`ec2audit.heap`):
a 640 MB frame dropped leaves the process's resident memory where it was before; a user's own allocator
options are kept (then the pages stay, as polars' default keeps them for 10 s)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: A fresh process: its resident memory (MB) before, while holding, and after dropping a polars frame.
CHILD = """
from pathlib import Path

import ec2audit
import polars as pl

def resident() -> int:
    status = Path("/proc/self/status").read_text().splitlines()
    return int(next(line for line in status if line.startswith("VmRSS")).split()[1]) // 1024

before = resident()
frame = pl.DataFrame({"x": pl.int_range(0, 40_000_000, eager=True)}).with_columns(y=pl.col("x") * 2)
held = resident()
del frame
print(before, held, resident())
"""


def resident_mb(**env: str) -> tuple[int, int, int]:
    child = {k: v for k, v in os.environ.items() if k != "_RJEM_MALLOC_CONF"} | {"PYTHONPATH": str(ROOT)} | env
    done = subprocess.run([sys.executable, "-c", CHILD], env=child, capture_output=True, text=True, timeout=120,
                          check=True)
    before, held, after = map(int, done.stdout.split())
    return before, held, after


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads resident memory from Linux's /proc")
def test_polars_frees_go_back_to_the_system_and_a_users_options_are_kept():
    before, held, after = resident_mb()
    assert held - before > 500  # the frame: 2 × 40 M int64
    assert after - before < 50, (before, held, after)
    before, held, after = resident_mb(_RJEM_MALLOC_CONF="dirty_decay_ms:10000")
    assert after - before > 500, (before, held, after)
