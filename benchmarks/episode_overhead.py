"""Episodes per hour of `ec2audit run` at --parallel 1 and 2, cold (before) and warm (after) start-up.

Every run uses the same task under edge-only with the scripted oracle stand-ins, so the figures are
the harness's own cost (OpenClaw start-up, sandbox, gateway, checker, audit), not a model's. Start-up
is the time from launching OpenClaw to its first model request. "cold" is OpenClaw's default (Node's
compile cache in the episode's fresh TMPDIR, launcher respawns); "warm" the shared compile cache
(warmed before timing starts) without respawns. Runs alternate cold/warm so load drifts hit both.
On a shared machine wall time follows the load, so the script also counts the CPU seconds of bare
one-reply turns (OpenClaw against a local endpoint that answers "done"; unsandboxed, so that its
processes are this process's children and their CPU time is counted).

    .venv/bin/python benchmarks/episode_overhead.py [--task office-hr-notice-101] [--episodes 3] [--turns 3]
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from rich.console import Console

from ec2audit.run.config import ModelSpec, RunConfig
from ec2audit.run.openclaw import done_endpoint, prepare, run_agent, warm_compile_cache
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


def bare_turns(turns: int, scratch: Path) -> dict[bool, list[tuple[float, float]]]:
    """(wall s, CPU s) of `turns` one-reply OpenClaw turns, cold and warm alternating."""
    empty = scratch / "empty"
    empty.mkdir()
    out: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    with done_endpoint() as url:
        for i in range(turns):
            for warm in (False, True):
                folder = scratch / f"turn-{i}-{warm}"
                prepare(folder, empty)
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                result = run_agent(folder, "Reply with the word done.", url, 120, None, warm=warm)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                out[warm].append((result.duration_s, cpu))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="office-hr-notice-101")
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--turns", type=int, default=3, help="Bare one-reply turns per start mode.")
    args = parser.parse_args()
    task = find_task(args.task)
    warm_compile_cache(probe())
    rows = {}
    with tempfile.TemporaryDirectory() as scratch:
        turns = bare_turns(args.turns, Path(scratch))
        for warm in (False, True):
            walls, cpus = zip(*turns[warm], strict=True)
            print(f"{'warm' if warm else 'cold'} bare one-reply turn: {sum(walls) / len(walls):.1f} s wall, "
                  f"{sum(cpus) / len(cpus):.2f} s CPU (mean of {len(walls)})", flush=True)
        for p in (1, 2) if args.episodes else ():  # --episodes 0: the bare turns only
            for warm in (False, True):
                r = measure(task, args.episodes, p, warm, Path(scratch) / f"p{p}-{warm}")
                rows[warm, p] = r
                print(f"{r['start']} parallel {p}: {r['episodes']} episodes ({r['ok']} ok) in {r['wall_s']:.1f} s = "
                      f"{r['per_hour']:.0f} episodes/h; mean episode {r['episode_s']:.1f} s, OpenClaw start-up "
                      f"{r['startup_s']:.1f} s ({100 * r['startup_share']:.0f}% of the episode)", flush=True)
    for p in (1, 2) if args.episodes else ():
        cold, warm = rows[False, p], rows[True, p]
        print(f"parallel {p}: warm / cold = {warm['per_hour'] / cold['per_hour']:.2f}x episodes per hour, "
              f"start-up {cold['startup_s']:.1f} s -> {warm['startup_s']:.1f} s")


if __name__ == "__main__":
    main()
