"""Episodes per hour of `ec2audit run` at --parallel 1 and 2, and OpenClaw's start-up, per launch mode.

Every run uses the same task under edge-only with the scripted oracle stand-ins, so the figures are
the harness's own cost (OpenClaw start-up, sandbox, gateway, checker, audit), not a model's. Start-up
is the time from the episode's launch to its first model request. Launch modes (`--modes`):
"cold" is OpenClaw's default (one process per episode, Node's compile cache in the episode's fresh
TMPDIR, launcher respawns); "cache" one process per episode from the shared compile cache without
respawns (issue 21's first build: the "before" of warm workers); "worker" warm workers (one OpenClaw
per --parallel slot serving its episodes one after another; the "after"). Each (parallel, mode) run is
its own `ec2audit run`, so a worker's first episode pays for loading OpenClaw: start-up is given for
all episodes and for the later ones apart. Modes alternate within each --parallel so load drifts hit
all. On a shared machine wall time follows the load, so the script also
times bare one-reply turns (OpenClaw against a local endpoint that answers "done") in the episode
sandbox, or unsandboxed with --no-sandbox, and counts from Node's own compile-cache log
(`NODE_DEBUG_NATIVE=COMPILE_CACHE`) how many modules loaded their code from the cache (hits) and how
many were compiled (misses). Their CPU seconds are counted only unsandboxed: the sandbox's processes
are reaped inside bwrap's PID namespace and never reach this process's children's count.

    .venv/bin/python benchmarks/episode_overhead.py [--task office-hr-notice-101] [--episodes 3] [--turns 3]
        [--modes cache,worker] [--no-sandbox]

`--turns 0` skips the bare turns, `--episodes 0` the runs.

`--sandbox` measures the episode sandbox instead (issue 23): the start-up of `node -e 0` unconfined,
in the previous sandbox (whole host read-only, host network; rebuilt here as the baseline) and in the
episode sandbox (own root, private network with two endpoints relayed in, cgroup, rlimits), then
whole episodes with and without the sandbox.

    .venv/bin/python benchmarks/episode_overhead.py --sandbox [--launches 15] [--episodes 2]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from proctree import Sampled, descendants, own_cpu
from rich.console import Console

from ec2audit.run.config import ModelSpec, RunConfig
from ec2audit.run.openclaw import done_endpoint, node_binary, prepare, run_agent, warm_compile_cache
from ec2audit.run.sandbox import NODE, Sandbox, probe
from ec2audit.run.scheduler import run
from ec2audit.run.warm import SCRIPT, WarmWorker
from ec2audit.tasks import find_task

MODES = {"cold": {"warm_start": False, "warm_workers": False},
         "cache": {"warm_start": True, "warm_workers": False},
         "worker": {"warm_start": True, "warm_workers": True}}


def _s(value: float | None) -> str:
    return "?" if value is None else f"{value:.1f} s"


def _mean(values: list[float]) -> float | None:
    return statistics.mean(values) if values else None


def measure(task, episodes: int, parallel: int, out: Path, sandbox: Sandbox | None, mode: str = "cache") -> dict:
    config = RunConfig([task], ["edge-only"], out, runs=episodes, parallel=parallel,
                       edge=ModelSpec(url="oracle", params=135e6), cloud=ModelSpec(url="oracle"), sandbox=sandbox,
                       **MODES[mode])
    started, cpu = time.perf_counter(), _cpu_s()
    result = run(config, Console(stderr=True, quiet=True))
    wall, cpu = time.perf_counter() - started, _cpu_s() - cpu
    records = result.records
    startup = [r.openclaw_startup_s or 0.0 for r in records]
    later = [r.openclaw_startup_s or 0.0 for r in records if (r.worker_episode or 1) > 1]
    share = sum((r.openclaw_startup_s or 0) / r.duration_s for r in records) / len(records)
    return {"start": mode, "parallel": parallel, "episodes": len(records), "wall_s": wall,
            "per_hour": 3600 * len(records) / wall, "episode_s": _mean([r.duration_s for r in records]),
            "startup_s": _mean(startup), "startup_later_s": _mean(later),
            "startup_max_later_s": max(later, default=None),
            "startup_share": share, "ok": sum(r.status == "ok" for r in records), "load": os.getloadavg()[0],
            "cpu_s": cpu / len(records) if sandbox is None else None}


def _cpu_s() -> float:
    """CPU seconds of this process and its waited-for children: the whole run, harness and OpenClaw, when
    unsandboxed (sandboxed processes are reaped inside bwrap's PID namespace and are not counted)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def bare_turns(turns: int, scratch: Path, sandbox: Sandbox | None) -> dict[bool, list[dict]]:
    """Wall s, CPU s (unsandboxed only), compile-cache hits and misses of `turns` one-reply OpenClaw turns
    in `sandbox`, cold and warm alternating."""
    empty = scratch / "empty"
    empty.mkdir()
    out: dict[bool, list[dict]] = {False: [], True: []}
    with done_endpoint() as url:
        for i in range(turns):
            for warm in (False, True):
                folder = scratch / f"turn-{i}-{warm}"
                prepare(folder, empty)
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                result = run_agent(folder, "Reply with the word done.", url, 120, sandbox,
                                   {"NODE_DEBUG_NATIVE": "COMPILE_CACHE"}, warm=warm)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                log = (folder / "stderr.log").read_text(encoding="utf-8", errors="replace")
                out[warm].append({"wall": result.duration_s, "ok": result.exit_code == 0,
                                  "cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                                  if sandbox is None else None,
                                  "hits": log.count("was accepted, keeping"),
                                  "misses": log.count("was not initialized")})
    return out


def worker_turns(turns: int, scratch: Path, sandbox: Sandbox | None) -> list[dict]:
    """Per one-reply turn served by one warm worker (the first also loads OpenClaw): wall s, s from the
    request to the first model request ("before") and from the last model request to the reply ("after"),
    CPU s of the worker process (from its replies) and CPU s per thread name of the worker and every
    process below it (`ThreadCpu`: Node's main thread, the `WorkerThread`s of `worker_threads`, V8's
    helpers, child processes), which says where a warm turn's CPU goes."""
    empty, out, arrivals = scratch / "empty-w", [], []
    empty.mkdir()
    with done_endpoint(arrivals) as url:
        worker = WarmWorker(scratch / "worker", sandbox, url)
        try:
            for i in range(turns):
                folder, cpu = worker.root / f"turn-{i}", worker.cpu_s
                worker.root.mkdir(parents=True, exist_ok=True)
                prepare(folder, empty)
                arrivals.clear()
                started = time.monotonic()
                with ThreadCpu(lambda: worker.pid) as threads:
                    result = worker.run(folder, "Reply with the word done.", url, 120)
                ended = time.monotonic()
                out.append({"wall": ended - started, "ok": result.exit_code == 0, "cpu": worker.cpu_s - cpu,
                            "before": arrivals[0] - started if arrivals else None,
                            "after": ended - arrivals[-1] if arrivals else None,
                            "threads": threads.by_name, "started": threads.started, "load": os.getloadavg()[0]})
                os.replace(folder, scratch / f"worker-turn-{i}")
        finally:
            worker.close()
    return out


class ThreadCpu(Sampled):
    """CPU seconds per thread name (`/proc/PID/task/TID/comm`) of the warm worker's Node process (found
    below the launcher `pid()` by its script) and, as "child processes", of every process below it, while
    `with` runs, sampled every 50 ms: `by_name`, and `started`, the threads per name started meanwhile."""

    PERIOD_S = 0.05

    def __init__(self, pid):
        self._pid = pid

    def finish(self) -> None:
        totals: dict[str, float] = {}
        self.started: dict[str, int] = {}
        for key, (name, cpu) in self.last.items():
            totals[name] = totals.get(name, 0.0) + cpu - self.first.get(key, (name, 0.0))[1]
            self.started[name] = self.started.get(name, 0) + (key not in self.first)
        self.by_name = dict(sorted(totals.items(), key=lambda kv: -kv[1]))

    def sample(self) -> dict:
        launcher = self._pid()
        pid = next((p for p in [launcher, *descendants(launcher)] if _is_worker(p)), None) if launcher else None
        found = {}
        for process in [pid, *descendants(pid)] if pid else ():
            for task in Path(f"/proc/{process}/task").glob("*"):
                with contextlib.suppress(OSError, IndexError, ValueError):
                    started, cpu = own_cpu(task / "stat")
                    name = (task / "comm").read_text().strip() if process == pid else "child processes"
                    found[process, task.name, started] = (name, cpu)
        return found


def _is_worker(pid: int) -> bool:
    try:
        return SCRIPT.name.encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def host_wide_argv(command: list[str], episode: Path) -> list[str]:
    """The sandbox before issue 23 (the baseline): the whole host read-only, its network shared."""
    return ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--bind",
            str(episode), str(episode), "--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session",
            "--chdir", str(episode), "--", *command]


def launch_ms(kind: str, sandbox: Sandbox, episode: Path, services: list[str]) -> float:
    """Milliseconds from launching to the end of `node -e 0`, including the sandbox's set-up and teardown."""
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if kind == "episode sandbox":
            argv = stack.enter_context(sandbox.launch([f"{NODE}/bin/node", "-e", "0"], episode,
                                                      services=services)).argv
        else:
            node = [str(node_binary()), "-e", "0"]
            argv = host_wide_argv(node, episode) if kind == "host-wide sandbox (before)" else node
        subprocess.run(argv, check=True, capture_output=True)
    return 1000 * (time.perf_counter() - started)


def sandbox_startup(sandbox: Sandbox, launches: int) -> None:
    kinds = ("unconfined", "host-wide sandbox (before)", "episode sandbox")
    listeners = [socket.create_server(("127.0.0.1", 0)) for _ in range(2)]  # the gateway and a task service
    services = [f"http://127.0.0.1:{s.getsockname()[1]}/v1" for s in listeners]
    times: dict[str, list[float]] = {k: [] for k in kinds}
    with tempfile.TemporaryDirectory() as episode:
        for _ in range(launches):  # interleaved, so the machine's load drifts over all three alike
            for kind in kinds:
                times[kind].append(launch_ms(kind, sandbox, Path(episode), services))
    for listener in listeners:
        listener.close()
    median = {k: statistics.median(v) for k, v in times.items()}
    print(f"isolation: {sandbox.isolation()}")
    for kind in kinds:
        print(f"{kind}: median {median[kind]:.0f} ms, min {min(times[kind]):.0f} ms over {launches} launches "
              f"of `node -e 0`")
    before, after = median["host-wide sandbox (before)"], median["episode sandbox"]
    print(f"episode sandbox - before: {after - before:+.0f} ms per episode start "
          f"(ratio {after / before:.2f}x); - unconfined: {after - median['unconfined']:+.0f} ms")


def sandbox_episodes(task, launches: int, episodes: int) -> None:
    sandbox = probe()
    sandbox_startup(sandbox, launches)
    modes = {"unconfined": None, "episode sandbox": sandbox}
    rows: dict[str, list[dict]] = {name: [] for name in modes}
    with tempfile.TemporaryDirectory() as scratch:
        for i in range(episodes):  # alternated, so the machine's load drifts over both alike
            for name, mode in modes.items():
                rows[name].append(measure(task, 1, 1, Path(scratch) / f"{name}-{i}", mode, "cache"))
    for name, runs in rows.items():
        print(f"{name}: {len(runs)} episodes ({sum(r['ok'] for r in runs)} ok), mean episode "
              f"{statistics.mean(r['episode_s'] for r in runs):.1f} s, OpenClaw start-up "
              f"{statistics.mean(r['startup_s'] for r in runs):.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="office-hr-notice-101")
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--turns", type=int, default=3, help="Bare one-reply turns per start mode.")
    parser.add_argument("--modes", default="cache,worker",
                        help="Launch modes to compare, the first is the baseline: cold, cache, worker.")
    parser.add_argument("--no-sandbox", action="store_true", help="cold vs warm without the episode sandbox")
    parser.add_argument("--sandbox", action="store_true", help="measure the episode sandbox's start-up cost")
    parser.add_argument("--launches", type=int, default=15)
    args = parser.parse_args()
    task = find_task(args.task)
    if args.sandbox:
        sandbox_episodes(task, args.launches, args.episodes)
        return
    sandbox = None if args.no_sandbox else probe()
    modes = args.modes.split(",")
    warm_compile_cache(sandbox)
    rows = {}
    with tempfile.TemporaryDirectory() as scratch:
        if args.turns and {"cold", "cache"} & set(modes):
            turns = bare_turns(args.turns, Path(scratch), sandbox)
            for warm in (False, True):
                runs = turns[warm]
                cpu = f"{statistics.mean(r['cpu'] for r in runs):.2f} s CPU" if sandbox is None else "CPU not counted"
                print(f"{'warm' if warm else 'cold'} bare one-reply turn ({'un' if sandbox is None else ''}sandboxed, "
                      f"{sum(r['ok'] for r in runs)}/{len(runs)} ok): {statistics.mean(r['wall'] for r in runs):.1f} s "
                      f"wall, {cpu}, compile cache {statistics.mean(r['hits'] for r in runs):.0f} hits / "
                      f"{statistics.mean(r['misses'] for r in runs):.0f} misses (mean of {len(runs)})", flush=True)
        if args.turns and "worker" in modes:
            runs = worker_turns(args.turns + 1, Path(scratch), sandbox)
            for i, r in enumerate(runs):
                print(f"warm worker one-reply turn {i + 1} ({'un' if sandbox is None else ''}sandboxed, "
                      f"{'ok' if r['ok'] else 'FAILED'}{', loads OpenClaw' if i == 0 else ''}): "
                      f"{r['wall']:.1f} s wall ({_s(r['before'])} before the model request, {_s(r['after'])} "
                      f"after), {r['cpu']:.2f} s CPU of the worker; CPU by thread: "
                      + ", ".join(f"{name} {cpu:.2f} s ({r['started'][name]} started)"
                                  for name, cpu in r["threads"].items() if cpu >= 0.01)
                      + f"; load average {r['load']:.1f}", flush=True)
        for p in (1, 2) if args.episodes else ():
            for mode in modes:
                r = measure(task, args.episodes, p, Path(scratch) / f"p{p}-{mode}", sandbox, mode)
                rows[mode, p] = r
                later = "" if r["startup_later_s"] is None else (
                    f"; after a worker's first: mean {r['startup_later_s']:.1f} s, "
                    f"max {r['startup_max_later_s']:.1f} s")
                print(f"{mode} parallel {p}: {r['episodes']} episodes ({r['ok']} ok) in {r['wall_s']:.1f} s = "
                      f"{r['per_hour']:.0f} episodes/h; mean episode {r['episode_s']:.1f} s, start-up mean "
                      f"{r['startup_s']:.1f} s ({100 * r['startup_share']:.0f}% of the episode){later}; "
                      + ("" if r["cpu_s"] is None else f"{r['cpu_s']:.1f} CPU s per episode (run included); ")
                      + f"load average {r['load']:.1f}", flush=True)
    base = modes[0]
    for p in (1, 2) if args.episodes else ():
        for mode in modes[1:]:
            before, after = rows[base, p], rows[mode, p]
            cpu = ("" if after["cpu_s"] is None else
                   f", CPU per episode {before['cpu_s']:.1f} s -> {after['cpu_s']:.1f} s "
                   f"({before['cpu_s'] / after['cpu_s']:.2f}x fewer)")
            print(f"parallel {p}: {mode} / {base} = {after['per_hour'] / before['per_hour']:.2f}x episodes per hour, "
                  f"start-up {before['startup_s']:.1f} s -> {after['startup_s']:.1f} s{cpu}")


if __name__ == "__main__":
    main()
