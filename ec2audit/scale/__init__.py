"""Ray clusters for `audit --ray` and `run --ray`: join one (its address, or `RAY_ADDRESS`) or start a
local one. Ray is an optional extra (`pip install 'ec2audit[ray]'`), imported only here and in the
modules that use a cluster."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from collections.abc import Iterator

from ec2audit.errors import InputError

#: A local cluster's object store: parts of audits and episode folders pass through it, one at a time
#: per worker; Ray's default (30 % of memory) would reserve GBs on a shared machine.
OBJECT_STORE_BYTES = 200 * 1024 * 1024
#: The custom resource a node advertises when it has the OpenClaw runtime (`ray start --resources
#: '{"openclaw": N}'`); every episode asks for one.
OPENCLAW = "openclaw"


@contextlib.contextmanager
def cluster(address: str, cpus: int | None = None, openclaw: int = 0) -> Iterator[dict[str, float]]:
    """Connected to the cluster at `address` ("" = `RAY_ADDRESS`, else a new local cluster with `cpus`
    CPUs advertising `openclaw` OpenClaw slots); yields its resources, disconnects (and stops a local
    cluster) on leaving. A caller already connected (`ray.init`) keeps its connection. A cluster that
    cannot be reached is one line, never a traceback."""
    try:
        import ray
    except ImportError:
        raise InputError("Ray is not installed: pip install 'ec2audit[ray]'", field="ray") from None
    if ray.is_initialized():
        yield ray.cluster_resources()
        return
    address = address or os.environ.get("RAY_ADDRESS", "")
    _check_reachable(address)
    options: dict = {"log_to_driver": False, "logging_level": logging.WARNING, "configure_logging": True}
    try:
        if address:
            ray.init(address=address, **options)
        else:
            ray.init(num_cpus=cpus or os.cpu_count(), resources={OPENCLAW: openclaw} if openclaw else None,
                     object_store_memory=OBJECT_STORE_BYTES, include_dashboard=False, **options)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"cannot join the Ray cluster at {address or 'a new local cluster'}: {message}",
                         field="ray") from None
    try:
        yield ray.cluster_resources()
    finally:
        ray.shutdown()


def _check_reachable(address: str) -> None:
    """A `HOST:PORT` nobody listens on is said at once (Ray itself retries for minutes)."""
    host, _, port = address.rpartition(":")
    if "://" in address or not host or not port.isdigit():
        return  # `auto`, `ray://…` (Ray Client) and other forms are Ray's to resolve
    try:
        socket.create_connection((host, int(port)), timeout=10).close()
    except OSError as exc:
        raise InputError(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}", field="ray") from None
