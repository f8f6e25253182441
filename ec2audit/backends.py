"""Execution back-ends: where a list of work items is done — in this process, in worker processes, or
on a Ray cluster — as a registry. The audit (`ec2audit.logs.audit.audit_logs`) takes one as a
parameter and never learns where its batches ran; a new back-end is one `@register`ed class.

A back-end is told three things: `start()`, called once per worker to build what every item it does
reuses (the audit's cascade: automaton, views, calibration); `work(state, item)`, the item's result;
and `plan(workers)`, the items cut for that many workers (known only once a cluster is joined).
Results come back in the order of the items, each with where it ran. Outside `Local`, `start`, `work`
and the items cross a process boundary: module-level functions and `functools.partial`s of them.

Benchmark episodes (`ec2audit.run.scheduler.run(backend=)`) are long-lived slots rather than items:
a back-end that runs them itself says so with `episodes`, else the run drives them in this process.

Ray's back-end lives in `ec2audit.scale.backend` (Ray is an optional extra) and registers itself
when `get_backend("ray")` first imports it; nothing here imports Ray or `ec2audit.scale`.
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any, ClassVar, TypeVar

State = TypeVar("State")
Item = TypeVar("Item")
Result = TypeVar("Result")


class Backend:
    name: ClassVar[str]
    #: Items done in the caller's process: callbacks reach the caller and results are not copied.
    in_process: ClassVar[bool] = False

    def map(self, start: Callable[[], State], work: Callable[[State, Item], Result],
            plan: Callable[[int], Sequence[Item]]) -> Iterator[tuple[Result, str]]:
        """`work(state, item)` for every item of `plan(workers)`, in their order, each with where it ran."""
        raise NotImplementedError

    def connected(self) -> contextlib.AbstractContextManager:
        """Held around the several `map`s of one command: a back-end that joins a cluster joins it once."""
        return contextlib.nullcontext()

    def episodes(self, config: Any, tasks: dict[str, Any], todo: list[Any], console: Any) -> bool | None:
        """Run the episodes `todo` of a run's `config` (a `RunConfig`; tasks by id) where this back-end
        runs work, writing them under its `out` as a local run does: True when interrupted. None: not
        here — the run drives them in this process (`--parallel` slots)."""
        return None


#: name → back-end class
BACKENDS: dict[str, type[Backend]] = {}
#: back-ends whose module is imported when first asked for (an optional extra's)
_ELSEWHERE = {"ray": "ec2audit.scale.backend"}


def register(cls: type[Backend]) -> type[Backend]:
    BACKENDS[cls.name] = cls
    return cls


def get_backend(name: str, **options: Any) -> Backend:
    """The back-end `name`, made with `options` (`workers`; Ray's `address`)."""
    if name not in BACKENDS and name in _ELSEWHERE:
        importlib.import_module(_ELSEWHERE[name])
    try:
        return BACKENDS[name](**options)
    except KeyError:
        raise ValueError(f"unknown back-end {name!r} (known: {', '.join([*BACKENDS, *_ELSEWHERE])})") from None


@register
class Local(Backend):
    """Every item here, one after another."""

    name, in_process = "local", True

    def map(self, start: Callable[[], State], work: Callable[[State, Item], Result],
            plan: Callable[[int], Sequence[Item]]) -> Iterator[tuple[Result, str]]:
        state = start()
        for item in plan(1):
            yield work(state, item), "local"


#: A worker process's state, built by `_start_worker` (a process pool hands its workers nothing else).
_WORKER_STATE: list = []


def _start_worker(start: Callable[[], Any]) -> None:
    _WORKER_STATE[:] = [start()]


def _work_in_worker(work: Callable[[Any, Item], Result], item: Item) -> tuple[Result, str]:
    return work(_WORKER_STATE[0], item), f"process {os.getpid()}"


@register
class Processes(Backend):
    """A pool of `workers` processes on this machine, each building its own state.

    Workers start from a fork server (a clean process), not as forks of this one: a fork copies the
    thread pools of polars (which workers write their results with) in a state that can deadlock the
    copy once this process has used them."""

    name = "processes"

    def __init__(self, workers: int):
        self.workers = workers

    def map(self, start: Callable[[], State], work: Callable[[State, Item], Result],
            plan: Callable[[int], Sequence[Item]]) -> Iterator[tuple[Result, str]]:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        with _stopped_by_sigterm(), ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context(method),
                                                        initializer=_start_worker, initargs=(start,)) as pool:
            yield from pool.map(partial(_work_in_worker, work), plan(self.workers))


@contextlib.contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """While a pool runs, SIGTERM (`timeout`, a job scheduler, `kill`) stops it as Ctrl-C does: raised as
    KeyboardInterrupt, the pool is shut down after the items running. Ended outright, the process left its
    fork server and workers running for ever. A SIGTERM again while the pool shuts down is ignored (raised there, it
    left the process hung with its workers). Only where nothing else handles SIGTERM, in the main thread."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: another raised inside the pool's shutdown hung it
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
