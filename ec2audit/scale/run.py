"""`ec2audit run --ray`: each episode a Ray task on a node that has the OpenClaw runtime.

An episode asks for one CPU and one `openclaw` slot (the resource such nodes advertise). It is
self-contained: in a scratch folder of its node it opens its own stand-ins, interceptor store and
gateway (`open_episodes`, as a local run opens them once) and runs `run_episode`, sandbox and
workspace copy included. Its folder comes back to the driver packed, with its interceptor records
and the node's id; the driver unpacks it under `--out` (renamed into place last, so a folder there
is always whole) and adds the records to `cloud.sqlite` by id — `--out` is what a local run writes.

A node that dies takes its running episodes with it: Ray re-runs them (`MAX_RETRIES`) elsewhere.
Episode ids come from the spec, so a re-run lands in the same folder once, and resuming skips
folders with `record.json` as a local run does. API keys go as task arguments (held in memory by
Ray), never as runtime-env variables: Ray's runtime-env agent writes those to its log on the node.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import tarfile
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from ec2audit.errors import InputError
from ec2audit.files import open_private
from ec2audit.intercept.store import RecordStore
from ec2audit.run.config import RunConfig
from ec2audit.run.episodes import EpisodeSpec, episode_dir, finished_record, run_episode
from ec2audit.run.openclaw import warm_compile_cache
from ec2audit.run.record import EpisodeRecord
from ec2audit.run.scheduler import api_key, drive, open_episodes
from ec2audit.scale import OPENCLAW, cluster
from ec2audit.tasks import Task

#: Times Ray re-runs an episode whose node died (an episode that fails on its own is not re-run: it
#: ends with a status, as in a local run).
MAX_RETRIES = 3
#: Written into each episode folder by the driver: the node that ran it.
NODE_FILE = "ray_node.json"


@dataclass(frozen=True)
class Keys:
    """The edge and cloud API keys from the driver's environment; never shown in a repr or log."""

    edge: str | None
    cloud: str | None

    def __repr__(self) -> str:
        return "Keys(…)"


def episode_on_node(config: RunConfig, task: Task, spec: EpisodeSpec, keys: Keys) -> dict:
    """One episode in a scratch folder of this node: its folder (tar), interceptor records and node id."""
    import ray

    with tempfile.TemporaryDirectory(prefix="ec2audit-episode-") as scratch:
        with contextlib.ExitStack() as stack:
            ctx = open_episodes(config, Path(scratch), stack, keys.edge, keys.cloud)
            if config.warm_start:
                warm_compile_cache(config.sandbox)
            run_episode(ctx, task, spec)
            cloud = ctx.store.records(spec.episode_id)
        packed = io.BytesIO()
        with tarfile.open(fileobj=packed, mode="w:gz") as tar:
            tar.add(episode_dir(Path(scratch), spec), arcname=".", filter=_plain_files)
    return {"folder": packed.getvalue(), "cloud": cloud, "node": ray.get_runtime_context().get_node_id()}


def _plain_files(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    """Files, folders and links travel; sockets and FIFOs (the sandbox's relays) do not."""
    return info if info.isfile() or info.isdir() or info.issym() else None


def run_on_ray(config: RunConfig, tasks: dict[str, Task], todo: list[EpisodeSpec], address: str,
               console: Console) -> bool:
    """Run `todo` on the cluster at `address` ("" = `RAY_ADDRESS`, else a local cluster of
    `config.parallel` CPUs and OpenClaw slots); True when interrupted."""
    import ray

    out = Path(config.out)
    keys = Keys(api_key(config.edge.api_key_env), api_key(config.cloud.api_key_env))
    with cluster(address, config.parallel, openclaw=config.parallel) as resources:
        slots = int(resources.get(OPENCLAW, 0))
        if not slots:
            raise InputError(f"no node of the cluster advertises the '{OPENCLAW}' resource (start nodes that have "
                             f"OpenClaw with --resources '{{\"{OPENCLAW}\": N}}')", field="ray")
        console.print(f"ray: {int(resources.get('CPU', 0))} CPUs, {slots} OpenClaw slots", highlight=False)
        remote = ray.remote(episode_on_node).options(num_cpus=1, resources={OPENCLAW: 1}, max_retries=MAX_RETRIES,
                                                     retry_exceptions=False)
        shared = ray.put(config)
        refs: dict[str, ray.ObjectRef] = {}
        lock = threading.Lock()
        store = RecordStore(out / "cloud.sqlite")
        try:
            def one(spec: EpisodeSpec) -> EpisodeRecord:
                with lock:
                    refs[spec.episode_id] = ref = remote.remote(shared, tasks[spec.task_id], spec, keys)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:  # the episode's own error, said as locally
                    raise exc.cause if isinstance(exc.cause, Exception) else exc from None
                return land(out, spec, result, store)

            def stop() -> None:
                with lock:
                    for ref in refs.values():
                        ray.cancel(ref, force=True)

            return drive(one, todo, slots, console, out, stop)
        finally:
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
