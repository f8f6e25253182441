"""Driver peak RSS of `ec2audit audit --json --out` on generated corpora of `--mb` and `--times` × as
much: each audit is the CLI run in a fresh process of its own, which reports its own peak
(`RUSAGE_SELF`: worker processes and Ray actors not counted), with its wall time, the CPU time of
its whole process tree (`proctree.TreeCpu`) and the findings count; the last line is the ratio of
the two peaks (flat: within ±15 %). A corpus (`log_audit.generate`: OpenClaw transcripts, a file
per session, as `ray_scale.py` makes them) is written to `CORPUS-<mb>` by a process of its own
when that folder is missing, so an older checkout can be measured on the same files (run it with
PYTHONPATH pointing there).

    nice .venv/bin/python benchmarks/driver_memory.py --corpus /tmp/dm --mb 64 --times 10 --jobs 2 [--ray]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from proctree import Sampled, TreeCpu, descendants


def generate(corpus: Path, mb: float) -> None:
    from log_audit import generate as write_logs

    from ec2audit.synth import make_units
    from ec2audit.units import write_units

    units = make_units(3385, 100, seed=0)  # as ray_scale.py: transcripts only, a file per session
    write_logs(corpus / "logs", units, mb + 20, truth_kept=False)  # its first 20 MB are one request log, left out
    shutil.rmtree(corpus / "logs" / "proxy")
    write_units(units, corpus / "units.jsonl")


class WorkerPeak(Sampled):
    """The largest peak RSS (`VmHWM`) of any process below this one while `with` runs (`peak_mb`): a
    worker process or Ray actor, whose memory is what a node needs per worker."""

    @staticmethod
    def sample() -> dict[int, int]:
        found = {}
        for pid in descendants(os.getpid()):
            with contextlib.suppress(OSError, ValueError, StopIteration):
                lines = Path(f"/proc/{pid}/status").read_text().splitlines()
                found[pid] = int(next(line for line in lines if line.startswith("VmHWM")).split()[1])
        return found

    def finish(self) -> None:
        self.peak_mb = max(self.last.values(), default=0) / 1024


def measure(corpus: Path, jobs: int, ray: bool) -> dict:
    """One audit in this process: its figures, as the line this process prints."""
    from click.testing import CliRunner

    from ec2audit.cli import main as cli

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / ("ray" if ray else "findings.parquet")
        command = ["audit", str(corpus / "logs"), "--units", str(corpus / "units.jsonl"), "--json",
                   "--jobs", str(jobs), "--out", str(out)] + (["--ray"] if ray else [])
        start, cpu = time.perf_counter(), time.process_time()
        with TreeCpu() as tree, WorkerPeak() as workers:
            result = CliRunner().invoke(cli, command, catch_exceptions=False)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        driver_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # before this script's own counting
    summary = json.loads(result.stdout)
    files, size = _files_and_bytes(corpus / "logs")
    return {"mb": size / 1e6, "files": files, "findings": summary["findings"], "calls": summary["calls"],
            "json_bytes": len(result.stdout), "wall_s": wall, "driver_cpu_s": cpu, "cpu_s": tree.cpu_s,
            "worker_peak_mb": workers.peak_mb, "driver_peak_mb": driver_peak, "exit": result.exit_code}


def _files_and_bytes(folder: Path) -> tuple[int, int]:
    """Files under `folder` and their bytes, a folder at a time (`Path.rglob` keeps every path it yielded in a
    set: +186 MB over 10 GB's 378,156 files, which the driver's peak counted until session 18)."""
    files = size = 0
    for root, _, names in os.walk(folder):
        for name in names:
            files += 1
            size += os.stat(os.path.join(root, name)).st_size
    return files, size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, required=True, help="prefix: corpora are CORPUS-<mb>")
    parser.add_argument("--mb", type=float, default=64)
    parser.add_argument("--times", type=float, default=10, help="the second corpus is this many times larger")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ray", action="store_true", help="a new local Ray cluster of --jobs CPUs")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)  # a child: measure this corpus
    parser.add_argument("--generate", type=Path, help=argparse.SUPPRESS)  # a child: write this corpus
    args = parser.parse_args()
    if args.generate:
        return generate(args.generate, args.mb)
    if args.one:
        print(json.dumps(measure(args.one, args.jobs, args.ray)))
        return None
    rows = []
    for mb in (args.mb, args.mb * args.times):
        corpus = Path(f"{args.corpus}-{mb:g}")
        if not corpus.exists():
            subprocess.run([sys.executable, __file__, "--corpus", str(corpus), "--generate", str(corpus),
                            "--mb", str(mb)], check=True)
        line = subprocess.run([sys.executable, __file__, "--corpus", str(corpus), "--one", str(corpus),
                               "--jobs", str(args.jobs)] + (["--ray"] if args.ray else []),
                              check=True, capture_output=True, text=True)
        row = json.loads(line.stdout.splitlines()[-1])
        rows.append(row)
        print(f"{'ray' if args.ray else 'processes'} x{args.jobs}: {row['mb']:.0f} MB in {row['files']} files, "
              f"{row['findings']} findings, {row['calls']} calls, --json {row['json_bytes'] / 1e6:.1f} MB; "
              f"wall {row['wall_s']:.1f} s, CPU {row['cpu_s']:.1f} s (driver {row['driver_cpu_s']:.1f} s); "
              f"driver peak RSS {row['driver_peak_mb']:.0f} MB, largest process under it "
              f"{row['worker_peak_mb']:.0f} MB (exit {row['exit']})",
              flush=True)
    small, large = rows
    print(f"findings ×{large['findings'] / small['findings']:.1f}: driver peak RSS ×"
          f"{large['driver_peak_mb'] / small['driver_peak_mb']:.2f} ({small['driver_peak_mb']:.0f} → "
          f"{large['driver_peak_mb']:.0f} MB)")
    return None


if __name__ == "__main__":
    main()
