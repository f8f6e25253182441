"""Episodes per hour of `ec2audit run` at --parallel 1 (baseline) and 2, and OpenClaw's start-up share.

Both runs use the same task under edge-only with the scripted oracle stand-ins, so the figures are
the harness's own cost (OpenClaw start-up, sandbox, gateway, checker, audit), not a model's. The
start-up share is the time from launching OpenClaw to its first model request, over the episode.

    .venv/bin/python benchmarks/episode_overhead.py [--task office-hr-notice-101] [--episodes 3]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rich.console import Console

from ec2audit.run.sandbox import probe
from ec2audit.run.scheduler import ModelSpec, RunConfig, run
from ec2audit.tasks import find_task


def measure(task, episodes: int, parallel: int, out: Path) -> dict:
    config = RunConfig([task], ["edge-only"], out, runs=episodes, parallel=parallel,
                       edge=ModelSpec(url="oracle", params=135e6), cloud=ModelSpec(url="oracle"), sandbox=probe())
    started = time.perf_counter()
    result = run(config, Console(stderr=True, quiet=True))
    wall = time.perf_counter() - started
    records = result.records
    share = sum(r["openclaw_startup_s"] / r["duration_s"] for r in records) / len(records)
    return {"parallel": parallel, "episodes": len(records), "wall_s": wall, "per_hour": 3600 * len(records) / wall,
            "episode_s": sum(r["duration_s"] for r in records) / len(records),
            "startup_s": sum(r["openclaw_startup_s"] for r in records) / len(records), "startup_share": share,
            "ok": sum(r["status"] == "ok" for r in records)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="office-hr-notice-101")
    parser.add_argument("--episodes", type=int, default=3)
    args = parser.parse_args()
    task = find_task(args.task)
    with tempfile.TemporaryDirectory() as scratch:
        rows = [measure(task, args.episodes, p, Path(scratch) / f"p{p}") for p in (1, 2)]
    for r in rows:
        print(f"parallel {r['parallel']}: {r['episodes']} episodes ({r['ok']} ok) in {r['wall_s']:.1f} s = "
              f"{r['per_hour']:.0f} episodes/h; mean episode {r['episode_s']:.1f} s, OpenClaw start-up "
              f"{r['startup_s']:.1f} s ({100 * r['startup_share']:.0f}% of the episode)")
    print(f"ratio parallel 2 / parallel 1: {rows[1]['per_hour'] / rows[0]['per_hour']:.2f}x episodes per hour")


if __name__ == "__main__":
    main()
