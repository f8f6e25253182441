"""Episodes per hour of `ec2audit run` at --parallel 1 and 2, cold (before) and warm (after) start-up.

Every run uses the same task under edge-only with the scripted oracle stand-ins, so the figures are
the harness's own cost (OpenClaw start-up, sandbox, gateway, checker, audit), not a model's. Start-up
is the time from launching OpenClaw to its first model request. "cold" is OpenClaw's default (Node's
compile cache in the episode's fresh TMPDIR, launcher respawns); "warm" the shared compile cache
(warmed before timing starts) without respawns. Runs alternate cold/warm so load drifts hit both.

    .venv/bin/python benchmarks/episode_overhead.py [--task office-hr-notice-101] [--episodes 3]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rich.console import Console

from ec2audit.run.config import ModelSpec, RunConfig
from ec2audit.run.openclaw import warm_compile_cache
from ec2audit.run.sandbox import probe
from ec2audit.run.scheduler import run
from ec2audit.tasks import find_task


def measure(task, episodes: int, parallel: int, warm: bool, out: Path) -> dict:
    config = RunConfig([task], ["edge-only"], out, runs=episodes, parallel=parallel,
                       edge=ModelSpec(url="oracle", params=135e6), cloud=ModelSpec(url="oracle"), sandbox=probe(),
                       warm_start=warm)
    started = time.perf_counter()
    result = run(config, Console(stderr=True, quiet=True))
    wall = time.perf_counter() - started
    records = result.records
    share = sum((r.openclaw_startup_s or 0) / r.duration_s for r in records) / len(records)
    return {"start": "warm" if warm else "cold", "parallel": parallel, "episodes": len(records), "wall_s": wall,
            "per_hour": 3600 * len(records) / wall, "episode_s": sum(r.duration_s for r in records) / len(records),
            "startup_s": sum(r.openclaw_startup_s or 0 for r in records) / len(records), "startup_share": share,
            "ok": sum(r.status == "ok" for r in records)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="office-hr-notice-101")
    parser.add_argument("--episodes", type=int, default=3)
    args = parser.parse_args()
    task = find_task(args.task)
    warm_compile_cache(probe())
    rows = {}
    with tempfile.TemporaryDirectory() as scratch:
        for p in (1, 2):
            for warm in (False, True):
                r = measure(task, args.episodes, p, warm, Path(scratch) / f"p{p}-{warm}")
                rows[warm, p] = r
                print(f"{r['start']} parallel {p}: {r['episodes']} episodes ({r['ok']} ok) in {r['wall_s']:.1f} s = "
                      f"{r['per_hour']:.0f} episodes/h; mean episode {r['episode_s']:.1f} s, OpenClaw start-up "
                      f"{r['startup_s']:.1f} s ({100 * r['startup_share']:.0f}% of the episode)", flush=True)
    for p in (1, 2):
        cold, warm = rows[False, p], rows[True, p]
        print(f"parallel {p}: warm / cold = {warm['per_hour'] / cold['per_hour']:.2f}x episodes per hour, "
              f"start-up {cold['startup_s']:.1f} s -> {warm['startup_s']:.1f} s")


if __name__ == "__main__":
    main()
