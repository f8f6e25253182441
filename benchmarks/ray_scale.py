"""Ray against local parallelism at 1 and 2 workers: log audits and benchmark episodes, side by side.

Audit: ≈ `--mb` MB of OpenClaw transcripts, a file per session (`log_audit.generate`: Faker units,
cumulative contexts), audited with `audit_logs` by 1 and 2 local worker processes (`--jobs`) and by
1 and 2 Ray actors (`--ray`), the findings checked equal. Episodes: `--episodes` episodes of one task
(cloud-only, scripted oracle stand-ins, sandboxed unless `--no-sandbox`) by `run` with `--parallel` 1
and 2 and with `--ray` on a cluster of 1 and 2 OpenClaw slots, warm OpenClaw workers on both sides (the
default: one per `--parallel` slot locally, one per Ray actor). Ray runs on a local cluster started before timing (what
`--ray ADDRESS` joins), one per worker count; joining it is timed. Reported: wall seconds, Ray's
overhead over local at equal workers (goal ≤ 15 %) and scaling efficiency 1 → 2 workers,
T1 / (2 · T2) (goal ≥ 0.85), with the load average — on a shared machine wall time follows the load —
and CPU seconds of the whole process tree (this process and every process below it: Ray's GCS,
raylet and workers, OpenClaw, sandboxed or not; `TreeCpu`), which the load decides much less.

    .venv/bin/python benchmarks/ray_scale.py [--mb 60] [--episodes 2] [--task data-clinic-stats-1001]
        [--only audit|episodes] [--no-sandbox] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from log_audit import generate
from proctree import TreeCpu
from rich.console import Console

from ec2audit.backends import get_backend
from ec2audit.logs.audit import audit_logs
from ec2audit.run.config import ModelSpec, RunConfig
from ec2audit.run.sandbox import probe
from ec2audit.run.scheduler import run
from ec2audit.scale import OBJECT_STORE_BYTES, OPENCLAW
from ec2audit.synth import make_units
from ec2audit.tasks import find_task

WORKERS = (1, 2)
REPO = Path(__file__).resolve().parents[1]


def on_ray_cluster(workers: int, call, *args, **kwargs):
    """`call(...)` with this process connected to a fresh local cluster of `workers` CPUs and OpenClaw slots."""
    import ray

    ray.init(num_cpus=workers, resources={OPENCLAW: workers}, object_store_memory=OBJECT_STORE_BYTES,
             include_dashboard=False, log_to_driver=False)
    try:
        return call(*args, **kwargs)
    finally:
        ray.shutdown()


def timed(call, *args, **kwargs) -> tuple[tuple[float, float, float], object]:
    """(wall s, CPU s of the process tree, load average at the end) of `call(...)`, and its result."""
    started = time.perf_counter()
    with TreeCpu() as cpu:
        result = call(*args, **kwargs)
    return (time.perf_counter() - started, cpu.cpu_s, os.getloadavg()[0]), result


Run = tuple[float, float, float]  # wall s, CPU s, load average at the end
Times = dict[tuple[str, int], list[Run]]  # (engine, workers) → one Run per repeat


def audits(root: Path, units, repeat: int) -> Times:
    times: Times = defaultdict(list)
    rows = {}
    for _ in range(repeat):
        for workers in WORKERS:
            took, log = timed(audit_logs, [root], units,
                              backend=get_backend("processes", workers=workers) if workers > 1 else None)
            times["local", workers].append(took)
            rows["local", workers] = log.findings_frame().rows()
            took, log = on_ray_cluster(workers, timed, audit_logs, [root], units,
                                       backend=get_backend("ray", workers=workers))
            times["ray", workers].append(took)
            rows["ray", workers] = log.findings_frame().rows()
    first = next(iter(rows.values()))
    print(f"audit findings equal in every configuration: {all(r == first for r in rows.values())} "
          f"({len(first)} findings)")
    return times


def episodes(task_id: str, count: int, scratch: Path, sandboxed: bool, repeat: int) -> Times:
    task = find_task(task_id, REPO / "tasks")  # absolute: Ray workers have their own cwd
    sandbox = probe() if sandboxed else None
    console = Console(stderr=True, quiet=True)
    times: Times = defaultdict(list)
    for attempt in range(repeat):
        for workers in WORKERS:
            for engine in ("local", "ray"):
                config = RunConfig([task], ["cloud-only"], scratch / f"{engine}-{workers}-{attempt}", runs=count,
                                   parallel=workers, edge=ModelSpec(url="oracle", params=135e6),
                                   cloud=ModelSpec(url="oracle"), sandbox=sandbox, max_model_calls=3)
                if engine == "local":
                    took, result = timed(run, config, console)
                else:
                    took, result = on_ray_cluster(workers, timed, run, config, console, get_backend("ray"))
                times[engine, workers].append(took)
                assert len(result.records) == count and all(r.status == "ok" for r in result.records)
    return times


def median(runs: list[Run]) -> Run:
    """The run with the median wall time (the lower middle one of an even count)."""
    return sorted(runs)[(len(runs) - 1) // 2]


def report(name: str, unit: float, label: str, runs: Times) -> None:
    times = {key: median(value) for key, value in runs.items()}
    walls = {key: " / ".join(f"{r[0]:.1f}" for r in value) for key, value in runs.items()}
    print(f"\n{name}; the median of {len(next(iter(runs.values())))} runs each, alternating (all walls: "
          + "; ".join(f"{engine} {w}: {walls[engine, w]} s" for w in WORKERS for engine in ("local", "ray")) + ")")
    print(f"| workers | local s | Ray s | Ray overhead | local {label} | Ray {label} | local CPU s | Ray CPU s "
          "| Ray CPU overhead | load (local / Ray) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for w in WORKERS:
        (local, local_cpu, local_load), (ray, ray_cpu, ray_load) = times["local", w], times["ray", w]
        print(f"| {w} | {local:.1f} | {ray:.1f} | {ray / local - 1:+.0%} | {unit / local:.2f} | {unit / ray:.2f} "
              f"| {local_cpu:.1f} | {ray_cpu:.1f} | {ray_cpu / local_cpu - 1:+.0%} "
              f"| {local_load:.1f} / {ray_load:.1f} |")
    for engine in ("local", "ray"):
        print(f"scaling efficiency 1 → 2 workers, {engine}: {times[engine, 1][0] / (2 * times[engine, 2][0]):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=60.0)
    parser.add_argument("--units", type=int, default=3385)
    parser.add_argument("--episodes", type=int, default=2)
    parser.add_argument("--task", default="data-clinic-stats-1001")
    parser.add_argument("--only", choices=("audit", "episodes"), help="one side of the benchmark")
    parser.add_argument("--no-sandbox", action="store_true", help="episodes unsandboxed")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each configuration, alternating; the median is reported")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    scratch = Path(tempfile.mkdtemp(prefix="ec2audit-raybench-"))
    try:
        if args.only != "episodes":
            units = make_units(args.units, 100, seed=0)
            # transcripts only: `generate` puts its first 20 MB in one request log, and a file is the unit of work
            generate(scratch / "logs", units, args.mb + 20)
            shutil.rmtree(scratch / "logs" / "proxy")
            files = sorted((scratch / "logs").rglob("*.jsonl"))
            size = sum(p.stat().st_size for p in files)
            report(f"audit of {size / 1e6:.1f} MB in {len(files)} files, {len(units)} units", size / 1e6, "MB/s",
                   audits(scratch / "logs", units, args.repeat))
            (fixed, _, _), _ = on_ray_cluster(1, timed, audit_logs, files[:1], units, backend=get_backend("ray"))
            print(f"Ray's fixed cost: one {files[0].stat().st_size / 1e3:.0f} kB file on Ray {fixed:.1f} s "
                  f"(joining, import ray, the actors' start and cascade)")
            print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        if args.only != "audit":
            how = "unsandboxed" if args.no_sandbox else "sandboxed"
            report(f"{args.episodes} episodes of {args.task} (cloud-only, oracle stand-ins, {how})",
                   args.episodes * 3600, "episodes/h",
                   episodes(args.task, args.episodes, scratch, not args.no_sandbox, args.repeat))
        print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
