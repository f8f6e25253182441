"""`benchmarks/device/judge_gpu.sh`, the prepared GPU run, on its CPU path: the same steps against the
project's real llama.cpp server with SmolLM2, results under $OUT."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_judge_cli import small_set  # tests/ is on the path (pytest's prepend import mode)

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "device" / "judge_gpu.sh"
SMALLEST_TASK = "data-clinic-stats-1001"  # two oracle steps, no mock service


@pytest.mark.model_server  # its CPU path starts the real llama.cpp server with SmolLM2
def test_the_device_script_runs_calibration_and_judge_cost_on_its_cpu_path(tmp_path):
    out = tmp_path / "out"
    env = {**os.environ, "OUT": str(out), "JUDGE_GPU_MODE": "cpu", "PYTHON": sys.executable,
           "JUDGE_GPU_SET": str(small_set(tmp_path, 1)),  # SmolLM2 on 2 shared cores: seconds per call
           # the smallest annotated task: every step of judge_cost.py on one task's traffic, not on 126
           "JUDGE_GPU_COST_ARGS": f"--limit 4 --per-task 1 --no-sweep --windows 96 --tasks {SMALLEST_TASK}"}
    done = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=1800)
    log = out / "judge_gpu.log"
    assert done.returncode == 0, done.stderr[-2000:] + (log.read_text()[-3000:] if log.exists() else "")
    assert (out / "status.txt").read_text().strip() == "ok"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["mode"] == "cpu" and summary["judge_model"].startswith("SmolLM2")
    assert set(summary["test_f1"]) == {"exact+partial", "semantic", "judge", "cascade"}
    assert summary["judge_usage"]["calls"] > 0  # the judge was really asked, over HTTP
    assert "[semantic]" in (out / "calibration.toml").read_text()
    assert "| cascade |" in (out / "calibration-report.md").read_text()
    cost = (out / "judge_cost.txt").read_text()  # judge_cost.py's JSON report, then its headline
    assert '"seconds"' in cost and "cascade/AceBench judge tokens" in cost
    assert json.loads(cost[:cost.rindex("}") + 1])["tasks"] == 1


def test_the_device_script_fails_in_one_line_without_a_gpu_or_with_a_wrong_mode(tmp_path):
    env = {**os.environ, "OUT": str(tmp_path / "o"), "JUDGE_GPU_MODE": "tpu", "PYTHON": sys.executable}
    done = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "JUDGE_GPU_MODE must be gpu or cpu" in (tmp_path / "o" / "status.txt").read_text()


def test_judge_cost_refuses_a_task_it_does_not_have_before_any_work():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "judge_cost.py"), "--tasks",
                           f"{SMALLEST_TASK},no-such-task"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stderr.splitlines()[-1].endswith("--tasks: no task with units named "
                                                                           "no-such-task")
    assert "embedding" not in done.stderr
