"""`ec2audit run --ray`: episodes served by Ray actors, one per OpenClaw slot of the cluster.

A slot (`Slot`, an actor holding one CPU and one `openclaw` resource, which nodes with the OpenClaw
runtime advertise) opens once, in a scratch folder of its node, what a local run's episodes share
(`open_episodes`: stand-ins, interceptor store, gateway) and, with warm workers (the default), one
long-lived OpenClaw worker; then it runs the episodes it is given with `run_episode`, one at a time,
as a local `--parallel` slot does. Each episode's folder comes back to the driver packed, with its
interceptor records and the node's id; the driver unpacks it under `--out` (renamed into place last,
so a folder there is always whole) and adds the records to `cloud.sqlite` by id — `--out` is what a
local run writes. The actors end, their OpenClaw workers with them, when the run ends or is stopped.

A node that dies takes its actors with it: the driver drops them and hands their unfinished episodes
to the actors left (`Slots.run`, at most `MAX_RETRIES` times an episode). Episode ids come from the
spec, so a re-run lands in the same folder once, and resuming skips folders with `record.json` as a
local run does. API keys go as actor arguments (held in memory by Ray), never as runtime-env
variables: Ray's runtime-env agent writes those to its log on the node.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import queue
import shutil
import tarfile
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from ec2audit.errors import InputError
from ec2audit.files import open_private
from ec2audit.intercept.store import RecordStore
from ec2audit.run.config import RunConfig
from ec2audit.run.episodes import EpisodeSpec, episode_dir, finished_record, run_episode
from ec2audit.run.openclaw import Cancelled, warm_compile_cache
from ec2audit.run.record import EpisodeRecord
from ec2audit.run.scheduler import api_key, drive, open_episodes
from ec2audit.scale import OPENCLAW, cluster
from ec2audit.tasks import Task

#: Times an episode is handed to another actor after its actor died (an episode that fails on its own
#: is not re-run: it ends with a status, as in a local run).
MAX_RETRIES = 3
#: Written into each episode folder by the driver: the node that ran it.
NODE_FILE = "ray_node.json"
#: How long the actors get to end their OpenClaw workers when the run ends, before they are killed.
CLOSE_S = 30


@dataclass(frozen=True)
class Keys:
    """The edge and cloud API keys from the driver's environment; never shown in a repr or log."""

    edge: str | None
    cloud: str | None

    def __repr__(self) -> str:
        return "Keys(…)"


class Slot:
    """One OpenClaw slot of a node (a Ray actor): what its episodes share, opened once in a scratch folder."""

    def __init__(self, config: RunConfig, keys: Keys):
        self._scratch = Path(tempfile.mkdtemp(prefix="ec2audit-slot-"))
        self._lock = threading.Lock()  # one episode at a time; `close` waits for it
        self._stack = contextlib.ExitStack()
        self._stack.callback(shutil.rmtree, self._scratch, True)
        try:
            self._ctx = open_episodes(config, self._scratch, self._stack, keys.edge, keys.cloud)
            if config.warm_start or config.warm_workers:
                warm_compile_cache(config.sandbox)
        except BaseException:
            self._stack.close()
            raise

    def run(self, task: Task, spec: EpisodeSpec) -> dict:
        """One episode: its folder (tar), interceptor records and this node's id."""
        import ray

        with self._lock:
            run_episode(self._ctx, task, spec)
            folder = episode_dir(self._scratch, spec)
            packed = io.BytesIO()
            with tarfile.open(fileobj=packed, mode="w:gz") as tar:
                tar.add(folder, arcname=".", filter=_plain_files)
            shutil.rmtree(folder)
            return {"folder": packed.getvalue(), "cloud": self._ctx.store.records(spec.episode_id),
                    "node": ray.get_runtime_context().get_node_id()}

    def cancel(self) -> None:
        """Stop the running episode (as Ctrl-C does locally) and any later one."""
        self._ctx.cancel.set()

    def close(self) -> None:
        """End the OpenClaw worker and the servers, remove the scratch folder."""
        with self._lock:
            self._stack.close()


def _plain_files(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    """Files, folders and links travel; sockets and FIFOs (the sandbox's relays) do not."""
    return info if info.isfile() or info.isdir() or info.issym() else None


class Slots:
    """The run's actors, one per OpenClaw slot of the cluster; an episode takes a free one. An actor that
    died (its node did) is dropped, and its episode goes to the next free one."""

    def __init__(self, config: RunConfig, keys: Keys, count: int, console: Console):
        import ray

        # max_concurrency 2: `cancel` reaches an actor while it runs an episode (`run` holds its lock)
        remote = ray.remote(Slot).options(num_cpus=1, resources={OPENCLAW: 1}, max_concurrency=2)
        shared = ray.put(config)
        self._all: list[Any] = [remote.remote(shared, keys) for _ in range(count)]  # ActorHandle[Slot]
        self._free: queue.Queue = queue.Queue()
        for actor in self._all:
            self._free.put(actor)
        self._live, self._lock, self._died, self._console = count, threading.Lock(), "", console
        self._cancelled = threading.Event()

    def run(self, task: Task, spec: EpisodeSpec) -> dict:
        """`Slot.run` on a free actor; on another one if that actor dies first."""
        import ray

        for _ in range(MAX_RETRIES + 1):
            actor = self._take()
            try:
                result = ray.get(actor.run.remote(task, spec))
            except ray.exceptions.RayTaskError as exc:  # the episode's own error, said as locally
                self._free.put(actor)
                raise exc.cause if isinstance(exc.cause, Exception) else exc from None
            except (ray.exceptions.RayActorError, ray.exceptions.ObjectLostError) as exc:
                self._drop(actor, exc)
                self._console.print(f"[yellow]ray:[/] the actor running {spec.episode_id} died ({escape(self._died)}); "
                                    "it runs again on another", highlight=False, soft_wrap=True)
                continue
            self._free.put(actor)
            return result
        raise RuntimeError(f"{spec.episode_id}: the actor running it died {MAX_RETRIES + 1} times ({self._died})")

    def _take(self):
        while True:
            if self._cancelled.is_set():
                raise Cancelled("the run was interrupted")
            with self._lock:
                if not self._live:
                    raise RuntimeError(f"every OpenClaw slot's actor has died; the last: {self._died}")
            with contextlib.suppress(queue.Empty):
                return self._free.get(timeout=0.5)

    def _drop(self, actor, exc: Exception) -> None:
        import ray

        with self._lock:
            self._live -= 1
            self._died = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        with contextlib.suppress(Exception):
            ray.kill(actor, no_restart=True)

    def cancel(self) -> None:
        """Ctrl-C: every actor stops its episode; no new one starts."""
        self._cancelled.set()
        for actor in self._all:
            actor.cancel.remote()

    def close(self) -> None:
        """End the actors: each closes its OpenClaw worker and servers (`CLOSE_S` at most), then is killed."""
        import ray

        closing = [actor.close.remote() for actor in self._all]
        if closing:
            ray.wait(closing, num_returns=len(closing), timeout=CLOSE_S)
        for actor in self._all:
            with contextlib.suppress(Exception):
                ray.kill(actor, no_restart=True)


def run_on_ray(config: RunConfig, tasks: dict[str, Task], todo: list[EpisodeSpec], console: Console,
               address: str = "") -> bool:
    """Run `todo` on the cluster at `address` ("" = `RAY_ADDRESS`, else a local cluster of
    `config.parallel` CPUs and OpenClaw slots); True when interrupted."""
    out = Path(config.out)
    keys = Keys(api_key(config.edge.api_key_env), api_key(config.cloud.api_key_env))
    with cluster(address, config.parallel, openclaw=config.parallel) as resources:
        count = int(resources.get(OPENCLAW, 0))
        if not count:
            raise InputError(f"no node of the cluster advertises the '{OPENCLAW}' resource (start nodes that have "
                             f"OpenClaw with --resources '{{\"{OPENCLAW}\": N}}')", field="ray")
        console.print(f"ray: {int(resources.get('CPU', 0))} CPUs, {count} OpenClaw slots", highlight=False)
        count = min(count, len(todo))  # an actor per slot, but no more than there are episodes
        store = RecordStore(out / "cloud.sqlite")
        slots = Slots(config, keys, count, console)
        try:
            return drive(lambda spec: land(out, spec, slots.run(tasks[spec.task_id], spec), store), todo, count,
                         console, out, slots.cancel)
        finally:
            slots.close()
            store.close()


def land(out: Path, spec: EpisodeSpec, result: dict, store: RecordStore) -> EpisodeRecord:
    """Put an episode that came back from a node under `out`: its records into the run's store (by id,
    so a record twice is one row), its folder unpacked beside the target and renamed into place."""
    target = episode_dir(out, spec)
    incoming = target.with_name(f".{target.name}.incoming")
    shutil.rmtree(incoming, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(result["folder"]), mode="r:gz") as tar:
        tar.extractall(incoming, filter="tar")  # a folder this run packed: its links are its own
    with open_private(incoming / NODE_FILE, "w", encoding="utf-8") as handle:
        json.dump({"node": result["node"]}, handle)
    for record in result["cloud"]:
        store.add(record)
    shutil.rmtree(target, ignore_errors=True)  # an unfinished folder of an earlier, interrupted run
    os.replace(incoming, target)
    record = finished_record(out, spec)
    if record is None:
        raise RuntimeError(f"{spec.episode_id}: the node sent back a folder without its record")
    return record
