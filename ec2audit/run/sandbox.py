"""Filesystem sandbox for episodes: OpenClaw's `exec` tool runs as the caller, so we confine it.

bubblewrap (Debian package `bubblewrap`) mounts the whole filesystem read-only and only the episode
folder (and a private /tmp) writable; the network namespace is shared, so the gateway and task
services on 127.0.0.1 stay reachable. When no sandbox can be made the caller must refuse, unless
the user said `--no-sandbox`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

FIX = "install bubblewrap (`apt-get install bubblewrap`, or `make setup` as root)"


class SandboxUnavailable(RuntimeError):
    """No sandbox on this machine; the message says why and how to fix it."""


@dataclass(frozen=True)
class Sandbox:
    bwrap: str

    def wrap(self, command: list[str], writable: Path, binds: dict[str, Path] | None = None) -> list[str]:
        """`command` run with everything read-only except `writable`, a private empty /tmp (tools
        that hard-code /tmp paths cannot meet other episodes there) and `binds` (mount point → folder,
        e.g. to keep a log written under /tmp)."""
        writable = str(Path(writable).resolve())
        extra = [a for dst, src in (binds or {}).items() for a in ("--bind", str(Path(src).resolve()), dst)]
        keep = [a for path in _kept_under_tmp() for a in ("--ro-bind", path, path)]
        return [self.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", *keep,
                "--bind", writable, writable, *extra, "--unshare-pid", "--unshare-ipc", "--die-with-parent",
                "--new-session", "--chdir", writable, "--", *command]


def _kept_under_tmp() -> list[str]:
    """What must stay visible (read-only) under the private /tmp: a checkout, virtual environment
    or HOME that happens to live in /tmp (CI clones often do) holds OpenClaw, Python and Node."""
    tmp = Path("/tmp").resolve()
    wanted = {Path(__file__).resolve().parents[2], Path(sys.prefix).resolve(), Path.home().resolve()}
    inside = sorted(str(p) for p in wanted if p != tmp and p.is_relative_to(tmp) and p.exists())
    return [p for p in inside if not any(p != q and Path(p).is_relative_to(q) for q in inside)]


def probe() -> Sandbox:
    """A working sandbox, or SandboxUnavailable saying why (missing binary, no user namespaces …)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable(f"bubblewrap (bwrap) is not installed: {FIX}")
    sandbox = Sandbox(bwrap)
    try:
        done = subprocess.run(sandbox.wrap(["true"], Path("/tmp")), capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxUnavailable(f"bwrap cannot start: {exc}") from None
    if done.returncode != 0:
        raise SandboxUnavailable(f"bwrap cannot create a sandbox here ({done.stderr.strip() or done.returncode}); "
                                 "user namespaces may be disabled: run as root or enable them")
    return sandbox
