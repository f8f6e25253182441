"""Apply a task's oracle (OpenClaw tool calls) in a fresh copy of its workspace, with no model.

This is how the suite proves every task is solvable and every checker is right: the oracle must score
1.0 and the do-nothing agent 0. The executor keeps OpenClaw's rules that matter for realism: paths are
workspace-relative, a file is read before it is edited or overwritten, `edit` needs each `oldText`
exactly once, and `exec` runs a POSIX shell command in the workspace with a timeout. A task's mock
service (`service.py`) runs on a free 127.0.0.1 port; `{service_url}` in the instruction and in tool
arguments becomes its URL, and `EC2_SERVICE_URL` carries it to commands.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.tasks import CheckResult, Task, load_module, unit_problems


class OracleError(Exception):
    """An oracle step could not be applied (the oracle, not the checker, is wrong)."""


@dataclass
class StepResult:
    tool: str
    output: str


@contextlib.contextmanager
def serve_service(service_py: Path, log_path: Path) -> Iterator[str]:
    """Run a task's `create_app(log_path)` under uvicorn on a free loopback port; yields its URL."""
    import uvicorn

    module = load_module(f"ec2audit_service_{service_py.parent.name}", service_py)
    app = module.create_app(str(log_path))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise OracleError(f"{service_py}: service did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)
        sock.close()


def substitute(value, url: str | None):
    """Oracle arguments with `{service_url}` filled in (the task's mock service, started per episode)."""
    if url is None:
        return value
    if isinstance(value, str):
        return value.replace("{service_url}", url)
    if isinstance(value, list):
        return [substitute(v, url) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, url) for k, v in value.items()}
    return value


def _inside(workspace: Path, path: str) -> Path:
    target = (workspace / path).resolve()
    if not target.is_relative_to(workspace.resolve()):
        raise OracleError(f"path {path!r} leaves the workspace")
    return target


def apply_steps(steps: list[dict], workspace: Path, service_url: str | None = None,
                exec_timeout: float = 60) -> list[StepResult]:
    """Apply tool calls in order; raises OracleError at the first step a real agent would see fail."""
    seen: set[Path] = set()
    results = []
    env = dict(os.environ, **({"EC2_SERVICE_URL": service_url} if service_url else {}))
    for i, step in enumerate(steps):
        tool, args = step["tool"], substitute(step["arguments"], service_url)
        where = f"step {i} ({tool})"
        if tool == "exec":
            cwd = _inside(workspace, args.get("workdir", "."))
            try:
                proc = subprocess.run(["/bin/sh", "-c", args["command"]], cwd=cwd, env=env, capture_output=True,
                                      text=True, timeout=exec_timeout)
            except subprocess.TimeoutExpired:
                raise OracleError(f"{where}: timed out after {exec_timeout:g}s") from None
            if proc.returncode != 0:
                raise OracleError(f"{where}: exit {proc.returncode}: {proc.stderr.strip()[-500:]}")
            results.append(StepResult(tool, proc.stdout))
            continue
        target = _inside(workspace, args["path"])
        if tool == "read":
            if not target.is_file():
                raise OracleError(f"{where}: no file {args['path']}")
            lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
            start = max(int(args.get("offset", 1)) - 1, 0)
            limit = args.get("limit")
            results.append(StepResult(tool, "".join(lines[start:start + limit if limit else None])))
            seen.add(target)
        elif tool == "write":
            if target.exists() and target not in seen:
                raise OracleError(f"{where}: overwrites {args['path']} without reading it first")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(args["content"], encoding="utf-8")
            seen.add(target)
            results.append(StepResult(tool, f"wrote {args['path']}"))
        elif tool == "edit":
            if target not in seen:
                raise OracleError(f"{where}: edits {args['path']} without reading it first")
            text = target.read_text(encoding="utf-8")
            for edit in args["edits"]:
                count = text.count(edit["oldText"])
                if count != 1:
                    raise OracleError(f"{where}: oldText occurs {count} times in {args['path']}")
                text = text.replace(edit["oldText"], edit["newText"])
            target.write_text(text, encoding="utf-8")
            results.append(StepResult(tool, f"edited {args['path']}"))
    return results


@dataclass
class Validation:
    """One task's self-check: oracle → 1.0, do-nothing → 0, every unit at its span."""

    task_id: str
    oracle: CheckResult | None = None
    empty: CheckResult | None = None
    unit_problems: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return (self.error is None and not self.unit_problems and self.oracle is not None
                and self.oracle.completion == 1.0 and self.empty is not None and self.empty.completion == 0.0)


def run_episode(task: Task, steps: list[dict], scratch: Path) -> CheckResult:
    """Copy the workspace into `scratch`, start the service if any, apply `steps`, score the result."""
    if task.workspace is None:
        raise InputError("the task has no workspace folder", file=task.id)
    workspace = scratch / "workspace"
    shutil.copytree(task.workspace, workspace)
    log = scratch / "service.jsonl"
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(serve_service(task.service, log)) if task.service else None
        apply_steps(steps, workspace, url)
    return task.check(workspace, log if task.service else None)


def validate_task(task: Task) -> Validation:
    result = Validation(task.id, unit_problems=unit_problems(task))
    try:
        with tempfile.TemporaryDirectory(prefix=f"ec2-{task.id}-") as tmp:
            if task.oracle is None:
                raise InputError("the task has no oracle steps", file=task.id)
            result.oracle = run_episode(task, task.oracle["steps"], Path(tmp) / "oracle")
            result.empty = run_episode(task, [], Path(tmp) / "empty")
    except Exception as exc:  # any failure is this task's problem, reported in the table
        result.error = f"{type(exc).__name__}: {exc}"
    return result
