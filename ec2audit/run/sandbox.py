"""Episode sandbox: OpenClaw's `exec` tool runs commands a model chose, so an episode sees its own folder
and the agent runtime, nothing else of the host.

bubblewrap (Debian package `bubblewrap`) builds the episode's world from an empty root: read-write the
episode folder (at `/episode`); read-only the system (`/usr` and its `/bin`, `/lib*` links), a minimal
`/etc` (resolver, certificates, a passwd entry whose home is the episode's), the Node runtime, the
OpenClaw package and the folders a task declares; a private `/tmp`. No `/root`, `/home`, `/work`,
`/srv`, checkout, other episodes, run folders or stores. Its network namespace is empty: the endpoints
an episode may reach (the strategy gateway, the task's mock service) are relayed through Unix sockets
bound into the sandbox and shown inside on the same 127.0.0.1 ports, so their URLs do not change.
It runs in its own PID, IPC and UTS namespaces with no capabilities and no new privileges, under a
CPU-time rlimit and, where the machine lets us create one, in a cgroup capping its processes and memory;
everything in it is killed with the episode. `probe()` finds what this machine supports; what it lacks
is said (doctor, the start of a run, every episode record), never dropped silently. When no sandbox can
be made at all the caller must refuse, unless the user said `--no-sandbox`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urlsplit

FIX = "install bubblewrap (`apt-get install bubblewrap`, or `make setup` as root)"
EPISODE = "/episode"  # where the episode folder is, inside
NODE = "/opt/ec2audit/node"  # the Node runtime, inside (the relay and OpenClaw run on it)
RUN = "/run/ec2audit"  # the episode's sockets, relay script and passwd entry, inside
PATH = f"{NODE}/bin:/usr/local/bin:/usr/bin:/bin"
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = ("resolv.conf", "hosts", "host.conf", "nsswitch.conf", "gai.conf", "ssl/certs", "ssl/openssl.cnf",
       "ca-certificates", "ca-certificates.conf", "alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d",
       "localtime", "timezone", "mime.types")
RELAY = Path(__file__).with_name("sandbox_relay.mjs")
CONTROLLERS = ("pids", "memory")


class SandboxUnavailable(RuntimeError):
    """No sandbox on this machine; the message says why and how to fix it."""


@dataclass(frozen=True)
class Limits:
    """Per episode: CPU seconds per process (RLIMIT_CPU), processes+threads and memory of the whole
    episode (a cgroup). Without a pids cgroup the process cap falls back to RLIMIT_NPROC, which the
    kernel does not apply to root; memory has no fallback (RLIMIT_AS breaks Node's address-space
    reservations)."""

    cpu_s: int = 1800
    processes: int = 256
    memory_mb: int = 4096


@dataclass
class Launch:
    """A sandboxed command ready to start: `argv`, and what isolation it gets (for the episode record)."""

    argv: list[str]
    isolation: dict


@dataclass(frozen=True)
class Sandbox:
    bwrap: str
    version: str = "?"
    private_network: bool = True
    cgroups: dict[str, Path] = field(default_factory=dict)  # controller → cgroup folder episodes go under
    prlimit: str | None = None
    limits: Limits = Limits()
    gaps: tuple[str, ...] = ()  # what this machine lacks, each with its reason

    @property
    def process_cap(self) -> str | None:
        if "pids" in self.cgroups:
            return "cgroup"
        return "rlimit" if self.prlimit and os.geteuid() != 0 else None

    def isolation(self) -> dict:
        """What every episode in this sandbox gets (None: not available on this machine)."""
        return {"sandbox": f"bubblewrap {self.version}", "filesystem": "episode", "pid": "private",
                "network": "private" if self.private_network else "host",
                "no_new_privileges": True, "capabilities": "none",
                "cpu_s": self.limits.cpu_s if self.prlimit else None,
                "processes": self.limits.processes if self.process_cap else None,
                "memory_mb": self.limits.memory_mb if "memory" in self.cgroups else None}

    def features(self) -> list[tuple[str, bool, str]]:
        """(feature, supported, detail) for `ec2audit doctor`."""
        iso = self.isolation()
        gap = {g.split(":")[0]: g for g in self.gaps}
        return [
            ("filesystem: episode folder + runtime only", True, f"bubblewrap {self.version} ({self.bwrap})"),
            ("network: own namespace, gateway and services relayed", self.private_network,
             "--unshare-net" if self.private_network else gap.get("network", "")),
            ("processes: own PID namespace, no new privileges, no capabilities", True, "bubblewrap"),
            ("limit: CPU time per process", iso["cpu_s"] is not None,
             f"RLIMIT_CPU {self.limits.cpu_s} s ({self.prlimit})" if self.prlimit else gap.get("cpu", "")),
            ("limit: processes per episode", iso["processes"] is not None,
             f"{self.limits.processes} via {self.process_cap}" + (f" ({self.cgroups['pids']})" if
                                                                  self.process_cap == "cgroup" else "")
             if iso["processes"] else gap.get("processes", "")),
            ("limit: memory per episode", iso["memory_mb"] is not None,
             f"{self.limits.memory_mb} MiB via cgroup ({self.cgroups['memory']})" if iso["memory_mb"]
             else gap.get("memory", "")),
        ]

    @contextlib.contextmanager
    def launch(self, command: list[str], episode_dir: Path, mounts: dict[str, Path] | None = None,
               binds: dict[str, Path] | None = None, services: Sequence[str] = (),
               slots: dict[int, Callable[[], int | None]] | None = None,
               read_only_root: bool = False) -> Iterator[Launch]:
        """`command` (with paths as seen inside) confined to `episode_dir`, mounted read-write at `/episode`.

        `mounts` (path inside → host folder) are read-only extras (Node at NODE, OpenClaw, a task's tools);
        `binds` read-write ones (e.g. a log written under /tmp); `services` the loopback URLs the episode may
        reach. `slots` are 127.0.0.1 ports inside whose host port is asked per connection (None: refused), for
        a warm worker whose episodes each bring their own service; `read_only_root` leaves only the episode
        folder, /tmp and /dev writable (a warm worker wipes those between its episodes). On exit every process
        of the episode is killed and its relays and cgroup are removed."""
        from ec2audit.run.openclaw import node_binary

        episode = Path(episode_dir).resolve()
        with contextlib.ExitStack() as stack:
            scratch = Path(tempfile.mkdtemp(prefix="ec2sb-"))  # short: Unix socket paths are capped at 108 bytes
            stack.callback(shutil.rmtree, scratch, True)
            run = scratch / "run"
            run.mkdir()
            _write_identity(run)
            ro = dict(mounts or {})
            if (services or slots) and self.private_network:
                ro.setdefault(NODE, node_binary().resolve().parents[1])  # the relay runs on Node
                ports = [*(_loopback_port(url) for url in services), *(slots or {})]
                routes = {port: run / f"{port}.sock" for port in ports}
                stack.enter_context(_host_relays(routes, slots or {}))
                shutil.copy(RELAY, run / "relay.mjs")
                inside = {str(port): f"{RUN}/{sock.name}" for port, sock in routes.items()}
                command = [f"{NODE}/bin/node", f"{RUN}/relay.mjs", json.dumps(inside), *command]
            options = [*_filesystem(run, episode, ro, binds or {}), *(["--remount-ro", "/"] if read_only_root else []),
                       "--unshare-pid", "--unshare-ipc",
                       "--unshare-uts", "--hostname", "episode", "--unshare-cgroup-try",
                       *(["--unshare-net"] if self.private_network else []), "--cap-drop", "ALL",
                       "--die-with-parent", "--new-session", "--chdir", EPISODE, "--setenv", "PATH", PATH]
            # Options reach bwrap through a file descriptor, so the host paths in them do not show in the
            # sandbox's /proc/1/cmdline; the file stays outside the sandbox.
            (scratch / "options").write_bytes(b"".join(o.encode() + b"\0" for o in options))
            argv = [self.bwrap, "--args", "3", "--", *command]
            if self.prlimit:
                nproc = [f"--nproc={self.limits.processes}"] if self.process_cap == "rlimit" else []
                argv = [self.prlimit, f"--cpu={self.limits.cpu_s}", *nproc, "--", *argv]
            joins = ""
            if self.cgroups:
                folders = stack.enter_context(_episode_cgroup(self.cgroups, self.limits))
                joins = "".join(f"echo $$ > {shlex.quote(str(f / 'cgroup.procs'))} && " for f in folders)
            argv = ["/bin/sh", "-c", f'{joins}exec "$@" 3< {shlex.quote(str(scratch / "options"))}', "sh", *argv]
            yield Launch(argv, self.isolation())


def _loopback_port(url: str) -> int:
    parts = urlsplit(url)
    if parts.hostname not in ("127.0.0.1", "localhost") or parts.port is None:
        raise ValueError(f"a sandboxed episode can only be given 127.0.0.1:PORT endpoints, not {url!r}")
    return parts.port


def _write_identity(run: Path) -> None:
    """passwd/group with one entry (the caller's ids), home the episode's: tools that look the user up work."""
    uid, gid = os.getuid(), os.getgid()
    name = "root" if uid == 0 else "agent"
    (run / "passwd").write_text(f"{name}:x:{uid}:{gid}:{name}:{EPISODE}/home:/bin/sh\n")
    (run / "group").write_text(f"{'root' if gid == 0 else 'agent'}:x:{gid}:\n")


def _filesystem(run: Path, episode: Path, mounts: dict[str, Path], binds: dict[str, Path]) -> list[str]:
    args = []
    for path in SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    args += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--dir", "/etc"]
    for name in ETC:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    args += ["--ro-bind", str(run / "passwd"), "/etc/passwd", "--ro-bind", str(run / "group"), "/etc/group",
             "--ro-bind", str(run), RUN]
    for inside, host in mounts.items():
        args += ["--ro-bind", str(Path(host).resolve()), inside]
    args += ["--bind", str(episode), EPISODE]
    for inside, host in binds.items():
        args += ["--bind", str(Path(host).resolve()), inside]
    return args


@contextlib.contextmanager
def _host_relays(routes: dict[int, Path], slots: dict[int, Callable[[], int | None]]) -> Iterator[None]:
    """Unix socket `routes[port]` → 127.0.0.1:port on the host (for a slot: the port it names at the time
    of the connection), for as long as the episode runs."""
    loop = asyncio.new_event_loop()

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
            if writer.can_write_eof():
                writer.write_eof()

    def relay_to(port: int):
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            target = slots[port]() if port in slots else port
            try:
                if target is None:
                    raise ConnectionRefusedError
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target)
            except OSError:
                writer.close()
                return
            try:
                await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
            finally:
                up_writer.close()
                writer.close()
        return handle

    async def start():
        return [await asyncio.start_unix_server(relay_to(port), path=str(sock)) for port, sock in routes.items()]

    async def stop(servers):
        for server in servers:
            server.close()
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            task.cancel()

    servers = loop.run_until_complete(start())
    thread = threading.Thread(target=loop.run_forever, name="sandbox-relay", daemon=True)
    thread.start()
    try:
        yield
    finally:
        asyncio.run_coroutine_threadsafe(stop(servers), loop).result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()


def cgroup_parents() -> dict[str, Path]:
    """controller → this process's own cgroup folder in the hierarchy holding it (v2 preferred, then v1)."""
    own = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        own[controllers] = path
    found: dict[str, Path] = {}
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        fields, (fstype, _source, options) = left.split(), right.split()[:3]
        root, mountpoint = fields[3], Path(fields[4])
        if fstype == "cgroup2" and "" in own:
            folder = mountpoint / os.path.relpath(own[""], root)
            with contextlib.suppress(OSError):
                for controller in set((folder / "cgroup.subtree_control").read_text().split()) & set(CONTROLLERS):
                    found[controller] = folder
        elif fstype == "cgroup":
            for controller in set(options.split(",")) & set(CONTROLLERS) - set(found):
                key = next((k for k in own if controller in k.split(",")), None)
                if key is not None:
                    found[controller] = mountpoint / os.path.relpath(own[key], root)
    return found


@contextlib.contextmanager
def _episode_cgroup(parents: dict[str, Path], limits: Limits) -> Iterator[list[Path]]:
    """A fresh child cgroup under each parent, capped; yields the folders to join; kills and removes them."""
    name = f"ec2audit-{uuid.uuid4().hex[:12]}"
    folders = list(dict.fromkeys(parent / name for parent in parents.values()))
    try:
        for folder in folders:
            folder.mkdir()
        for controller, parent in parents.items():
            folder = parent / name
            if controller == "pids":
                (folder / "pids.max").write_text(str(limits.processes))
            elif (folder / "memory.max").exists():  # cgroup v2
                (folder / "memory.max").write_text(str(limits.memory_mb << 20))
                if (folder / "memory.swap.max").exists():
                    (folder / "memory.swap.max").write_text("0")
            else:
                (folder / "memory.limit_in_bytes").write_text(str(limits.memory_mb << 20))
        yield folders
    finally:
        for folder in folders:
            _remove_cgroup(folder)


def _remove_cgroup(folder: Path) -> None:
    """Kill what is left in `folder` (forks racing the kill included), then remove it."""
    if not folder.is_dir():
        return
    with contextlib.suppress(OSError):
        (folder / "cgroup.kill").write_text("1")  # cgroup v2: the kernel does it atomically
    for _ in range(1000):  # up to ~10 s
        try:
            pids = [int(p) for p in (folder / "cgroup.procs").read_text().split()]
        except OSError:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if not pids:
            with contextlib.suppress(OSError):
                folder.rmdir()
                return
        time.sleep(0.01)


def _cgroups_that_work(limits: Limits) -> tuple[dict[str, Path], list[str]]:
    """The cgroup parents where an episode cgroup can really be made (tried), and why the others cannot."""
    try:
        parents = cgroup_parents()
    except OSError as exc:
        parents, unreadable = {}, f"cannot read this process's cgroups: {exc}"
    else:
        unreadable = "no cgroup hierarchy with that controller is mounted for this process"
    usable, why = {}, {}
    for controller in CONTROLLERS:
        parent = parents.get(controller)
        if parent is None:
            why[controller] = unreadable
            continue
        try:
            with _episode_cgroup({controller: parent}, limits):
                usable[controller] = parent
        except OSError as exc:
            why[controller] = f"cannot create a cgroup under {parent}: {exc.strerror or exc}"
    gaps = []
    if "pids" in why:
        fallback = "RLIMIT_NPROC is used instead" if os.geteuid() != 0 else "RLIMIT_NPROC does not apply to root"
        gaps.append(f"processes: no pids cgroup ({why['pids']}); {fallback}")
    if "memory" in why:
        gaps.append(f"memory: no memory cgroup ({why['memory']}); no per-episode memory limit")
    return usable, gaps


def probe(limits: Limits = Limits()) -> Sandbox:
    """The tightest sandbox this machine supports, or SandboxUnavailable saying why (missing binary,
    no user namespaces …). What it could not get is listed in `gaps`, each with its reason."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable(f"bubblewrap (bwrap) is not installed: {FIX}")
    try:
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=20).stdout.split()
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxUnavailable(f"bwrap cannot start: {exc}") from None
    sandbox = Sandbox(bwrap, version[-1] if version else "?", private_network=False, limits=limits)
    problem = _try(sandbox)
    if problem:
        raise SandboxUnavailable(f"bwrap cannot create a sandbox here ({problem}); "
                                 "user namespaces may be disabled: run as root or enable them")
    gaps = []
    problem = _try(replace(sandbox, private_network=True))
    if problem:
        gaps.append(f"network: --unshare-net fails ({problem}); episodes share the host's network")
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        gaps.append("cpu: prlimit (util-linux) is not installed; no CPU-time or RLIMIT_NPROC limit")
    cgroups, missing = _cgroups_that_work(limits)
    return replace(sandbox, private_network=not problem, cgroups=cgroups, prlimit=prlimit,
                   gaps=(*gaps, *missing))


def _try(sandbox: Sandbox) -> str | None:
    """None if `true` runs in `sandbox`, else what went wrong."""
    with tempfile.TemporaryDirectory(prefix="ec2sb-probe-") as episode:
        try:
            with sandbox.launch(["true"], Path(episode)) as launch:
                done = subprocess.run(launch.argv, capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return str(exc)
    return None if done.returncode == 0 else (done.stderr.strip() or f"exit {done.returncode}")
