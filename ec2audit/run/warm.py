"""Warm OpenClaw workers: one long-lived OpenClaw process, in one sandbox, per scheduler thread, that runs
the thread's episodes one after another (docs/design.md §6, Episode lifecycle).

A fresh `agent exec` process spends most of an episode's start-up loading OpenClaw (~10 s of CPU); a
worker loads it once. Each episode still gets everything of its own: a folder with a fresh workspace
copy, config, state dir (sessions, transcript, memory), HOME and TMPDIR, prepared in the worker's folder
(`/episode/<episode id>` inside) and moved to the run's `episodes/` once its turn ended, so the next
episode never sees it. After every turn the worker kills every other process in its sandbox and hands
OpenClaw's log over to the episode. The gateway is relayed into the sandbox once; a task's mock service
is reached through one fixed port inside (`SERVICE_PORT`) relayed to the current episode's service.

What an episode shares with the others of its worker: the OpenClaw process (its module cache and
whatever OpenClaw keeps in memory between `agent exec` calls, which it scopes per call: environment,
config snapshot, runtime paths, state lock), and the sandbox's limits (processes and memory per worker;
CPU time per process, so a worker is replaced before it has used half). A worker is replaced after a
timeout, a cancel, a model error or a crash, and when an episode needs other read-only folders.
`--no-warm-workers` gives every episode its own OpenClaw process and sandbox, as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

from ec2audit.run import sandbox as sb
from ec2audit.run.openclaw import (
    CACHE_INSIDE,
    COMPILE_CACHE,
    MODULES_INSIDE,
    NODE_FLAGS,
    UNSANDBOXED,
    AgentResult,
    Cancelled,
    OpenClawMissing,
    agent_result,
    episode_env,
    node_binary,
    openclaw_entry,
    startup_env,
    write_inputs,
)
from ec2audit.run.sandbox import Sandbox

SCRIPT = Path(__file__).with_name("openclaw_worker.mjs")
SCRIPT_INSIDE = "/opt/ec2audit/openclaw_worker.mjs"
SERVICE_PORT = 18080  # the task service's port inside a worker's sandbox (its network namespace is private)
REPLY = "\0ec2audit-reply "
READY_S = 300  # loading OpenClaw on a loaded machine


def openclaw_module(prefix: str, export: str) -> str:
    """`FILE#NAME`: the file of OpenClaw's bundle (`dist/<prefix>-<hash>.mjs`) that exports `export`, and
    the name it is exported under (the bundle shortens names: `flushLogger as n`)."""
    dist = openclaw_entry().parent / "dist"
    for path in sorted(dist.glob(f"{prefix}-*.mjs")):
        names = re.search(r"^export \{(.*)\};\s*$", path.read_text(encoding="utf-8", errors="replace"), re.M)
        for item in names.group(1).split(",") if names else ():
            local, _, exported = item.strip().partition(" as ")
            if local == export:
                return f"{path.name}#{exported or local}"
    raise OpenClawMissing(f"OpenClaw's bundle in {dist} has no {prefix}-*.mjs exporting {export}: "
                          "this OpenClaw version is not the one ec2audit pins (runner/package.json)")


class WarmWorker:
    """One OpenClaw process serving episodes one at a time, in `sandbox` (or unsandboxed)."""

    def __init__(self, root: Path, sandbox: Sandbox | None, gateway_url: str, read_only: Sequence[str] = ()):
        self.root, self.sandbox, self.gateway_url = Path(root).resolve(), sandbox, gateway_url
        self.read_only = tuple(read_only)
        self.episodes = 0  # served by the current process
        self.service_port: int | None = None  # the current episode's service, for the relay slot
        self._stack: contextlib.ExitStack | None = None
        self._process: subprocess.Popen | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._isolation: dict = dict(UNSANDBOXED)
        self.cpu_s = 0.0  # CPU seconds of the worker process so far (all its threads), from its last reply

    @property
    def pid(self) -> int | None:
        """The process id of the worker's launcher (Node itself, or the sandbox that runs it); None when stopped."""
        return None if self._process is None else self._process.pid

    def _start(self, cancel: threading.Event | None) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        modules = [openclaw_module("agent-exec", "agentExecCommand"), openclaw_module("logger-", "flushLogger"),
                   openclaw_module("openclaw-state-db-cache", "closeOpenClawStateDatabaseAsync")]
        dist = f"{MODULES_INSIDE}/openclaw/dist" if self.sandbox else str(openclaw_entry().parent / "dist")
        stack = contextlib.ExitStack()
        if self.sandbox is None:
            command = [str(node_binary()), *NODE_FLAGS, str(SCRIPT), *(f"{dist}/{m}" for m in modules)]
            argv, self._isolation = command, dict(UNSANDBOXED)
            path = f"{node_binary().parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"
            cache = str(COMPILE_CACHE.resolve())
        else:
            command = [f"{sb.NODE}/bin/node", *NODE_FLAGS, SCRIPT_INSIDE, *(f"{dist}/{m}" for m in modules)]
            COMPILE_CACHE.mkdir(parents=True, exist_ok=True)
            mounts = {sb.NODE: node_binary().resolve().parents[1], MODULES_INSIDE: openclaw_entry().parents[1],
                      SCRIPT_INSIDE: SCRIPT, CACHE_INSIDE: COMPILE_CACHE,
                      **{p: Path(p) for p in self.read_only}}
            slots = {SERVICE_PORT: lambda: self.service_port}
            launch = stack.enter_context(self.sandbox.launch(command, self.root, mounts, {}, [self.gateway_url],
                                                             slots, read_only_root=True))
            argv, self._isolation, path, cache = launch.argv, launch.isolation, sb.PATH, CACHE_INSIDE
        env = {"PATH": path, "LANG": "C.UTF-8", "NO_COLOR": "1", **startup_env(cache),
               "EC2AUDIT_WORKER_SANDBOXED": "1" if self.sandbox else "0"}
        log = stack.enter_context(open(self.root.parent / f"{self.root.name}.log", "ab"))
        try:
            self._process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                             env=env, cwd=self.root, start_new_session=True)
        except BaseException:
            stack.close()
            raise
        self._stack, self._lines, self.episodes, self.cpu_s = stack, queue.Queue(), 0, 0.0
        threading.Thread(target=self._read, args=(self._process, self._lines), daemon=True).start()
        if self._wait("ready", time.monotonic() + READY_S, cancel, None) is None:
            self.close()
            raise RuntimeError(f"the warm OpenClaw worker did not start (log: {self.root.parent / self.root.name}.log)")

    @staticmethod
    def _read(process: subprocess.Popen, lines: queue.Queue) -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            line = raw.decode("utf-8", "replace")
            if line.startswith(REPLY):
                lines.put(line[len(REPLY):])
        lines.put(None)  # the worker exited

    def _wait(self, request_id: str, deadline: float, cancel: threading.Event | None,
              stop: Callable[[], bool] | None) -> dict | None:
        """The worker's reply to `request_id`; None if it exited, hit `deadline` or `stop()`; Cancelled on
        `cancel`. Other lines are ignored: a turn's tools could write to the worker's stdout, not the id."""
        while True:
            if cancel is not None and cancel.is_set():
                self.close()
                raise Cancelled(str(self.root))
            if time.monotonic() > deadline or (stop is not None and stop()):
                return None
            try:
                line = self._lines.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                return None
            with contextlib.suppress(json.JSONDecodeError, AttributeError):
                reply = json.loads(line)
                if reply.get("id") == request_id:
                    return reply

    def run(self, folder: Path, instruction: str, base_url: str, timeout: int, env: dict[str, str] | None = None,
            cancel: threading.Event | None = None, stop: Callable[[], bool] | None = None,
            service_port: int | None = None, read_only: Sequence[str] = ()) -> AgentResult:
        """One `agent exec` turn in `folder` (prepared in this worker's root). Like `run_agent`, a hung turn
        is stopped `timeout + 30` s in; a turn that did not end by itself also ends this worker."""
        folder = Path(folder).resolve()
        if folder.parent != self.root:
            raise ValueError(f"{folder} is not a folder of the worker at {self.root}")
        if tuple(read_only) != self.read_only or (self.cpu_s > self.sandbox.limits.cpu_s / 2 if self.sandbox
                                                  else False):
            self.close()
            self.read_only = tuple(read_only)
        if self._process is None:
            self._start(cancel)
        assert self._process is not None and self._process.stdin is not None
        where = Path(sb.EPISODE) / folder.name if self.sandbox else folder
        options = write_inputs(folder, where, instruction, base_url, timeout)
        (folder / "logs").mkdir(exist_ok=True)
        request_id = uuid.uuid4().hex
        request = {"id": request_id, "args": {**options, "json": True},
                   "env": {**episode_env(where), **(env or {})}, "cwd": str(where),
                   "stdout": str(where / "stdout.json"), "stderr": str(where / "stderr.log"),
                   "logs": str(where / "logs")}
        self.service_port, self.episodes = service_port, self.episodes + 1
        started = time.monotonic()
        try:
            self._process.stdin.write((json.dumps(request) + "\n").encode())
            self._process.stdin.flush()
            reply = self._wait(request_id, started + timeout + 30, cancel, stop)
        except (BrokenPipeError, ConnectionResetError):
            reply = None
        finally:
            self.service_port = None
        duration = time.monotonic() - started
        if reply is None:  # hung, stopped, or the worker died: nothing of it may reach the next episode
            self.close()
            result = agent_result(folder, None, duration > timeout, duration, timeout, self._isolation)
        else:
            self.cpu_s = reply["cpu_s"]
            result = agent_result(folder, reply["exit_code"], False, duration, timeout, self._isolation)
        result.worker_episode = self.episodes
        return result

    def close(self, wait_s: float = 0) -> None:
        """Stop the worker: every process of its sandbox is killed, its relays and cgroup removed. With
        `wait_s` it may first end by itself (its input closed), so its CPU time counts as a child's."""
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                if wait_s and process.stdin is not None:
                    process.stdin.close()
                    process.wait(wait_s)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        stack, self._stack = self._stack, None
        if stack is not None:
            stack.close()


class WorkerPool:
    """Warm workers for a run's scheduler threads: an episode takes one, runs, and gives it back. Episodes
    move out of a worker into `episodes` once their turn ended."""

    def __init__(self, root: Path, episodes: Path, size: int, sandbox: Sandbox | None, gateway_url: str):
        self.episodes = Path(episodes)
        self._free: queue.Queue[WarmWorker] = queue.Queue()
        self._all = [WarmWorker(Path(root) / f"w{i}", sandbox, gateway_url) for i in range(max(1, size))]
        for worker in self._all:
            if worker.root.is_dir():  # unfinished episodes of an interrupted run: redone, and never shown
                shutil.rmtree(worker.root)
            self._free.put(worker)

    @contextlib.contextmanager
    def worker(self):
        worker = self._free.get()
        try:
            yield worker
        finally:
            self._free.put(worker)

    def close(self) -> None:
        for worker in self._all:
            worker.close(wait_s=10)
            hand_over_late_files(worker.root, self.episodes)


def hand_over_late_files(root: Path, episodes: Path) -> None:
    """Once its worker has ended, what OpenClaw wrote at an episode's old path after the episode moved out
    (its exit handlers and timers reopen a state folder or database by path) joins that episode's folder
    under `after-turn/`, and the folders left empty go. A folder of no moved-out episode stays, to be seen."""
    for left in sorted(root.iterdir()) if root.is_dir() else ():
        moved = episodes / left.name
        if left.is_dir() and (moved / "workspace").is_dir():
            for path in sorted(p for p in left.rglob("*") if not p.is_dir()):
                target = moved / "after-turn" / path.relative_to(left)
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(path, target)
    for folder, _, _ in os.walk(root, topdown=False):  # a folder's subfolders first
        if Path(folder) != Path(root):
            with contextlib.suppress(OSError):  # not empty: holds a file
                os.rmdir(folder)
