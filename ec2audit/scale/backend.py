"""The Ray back-end (`get_backend("ray")`): items done by a pool of Ray actors.

Each `_Worker` actor (one CPU) calls `start()` once and reuses its state for every item; the driver
keeps `IN_FLIGHT` items queued on each actor, so an actor never waits on the driver between items,
and yields the results in the order of the items, each with the node that did it. Only what `work`
returns crosses back to the driver, so a `work` that writes its bulk to shared storage keeps the
driver small. An actor that dies (its node did) is replaced and its items go to the pool again, at
most `MAX_RETRIES` times each, and a warning says so on stderr (a node lost is the operator's to know);
the actors are killed when the work ends, is stopped or fails.

Plain actors rather than Ray Data: Ray Data's import, its statistics and autoscaling actors and its
operator threads cost an audit of 64 MB seconds of CPU on the driver's and workers' cores (issue 35).
"""

from __future__ import annotations

import contextlib
import logging
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ec2audit.backends import Backend, Item, Result, State, register
from ec2audit.scale import cluster

#: Items queued on an actor at a time: the next is there when one ends.
IN_FLIGHT = 2
#: Times an item goes to another actor after the one doing it died.
MAX_RETRIES = 3

#: no handler of its own: Python's last-resort handler prints a warning's message on stderr
log = logging.getLogger(__name__)


class _Worker:
    """One Ray actor: `start()` once, then `work(state, item)` for every item it is given."""

    def __init__(self, job: tuple[Callable[[], Any], Callable[[Any, Any], Any]]):
        import ray

        start, self.work = job
        self.state = start()
        self.node = ray.get_runtime_context().get_node_id()

    def do(self, item: Any) -> tuple[Any, str]:
        return self.work(self.state, item), self.node


@register
class Ray(Backend):
    """Actors on the cluster at `address` ("" = `RAY_ADDRESS`, else a new local cluster), `workers`
    of them (default: one per CPU of the cluster)."""

    name = "ray"

    def __init__(self, address: str = "", workers: int | None = None):
        self.address, self.workers = address, workers

    def connected(self) -> contextlib.AbstractContextManager:
        """The cluster joined (a local one started) once for every `map` within; `map` alone joins it itself."""
        return cluster(self.address, self.workers)

    def map(self, start: Callable[[], State], work: Callable[[State, Item], Result],
            plan: Callable[[int], Sequence[Item]]) -> Iterator[tuple[Result, str]]:
        import ray

        with cluster(self.address, self.workers) as resources:
            cpus = max(1, int(resources.get("CPU", 1)))
            items = plan(min(self.workers or cpus, cpus))
            if not items:
                return
            actor: Any = ray.remote(num_cpus=1)(_Worker)
            job = ray.put((start, work))  # stored once, not sent once per actor
            pool = [actor.remote(job) for _ in range(min(self.workers or cpus, cpus, len(items)))]
            try:
                yield from _ordered(pool, items, lambda: actor.remote(job))
            finally:
                for each in pool:
                    ray.kill(each, no_restart=True)

    def episodes(self, config: Any, tasks: dict[str, Any], todo: list[Any], console: Any) -> bool:
        """One actor per OpenClaw slot of the cluster (`ec2audit.scale.run`)."""
        from ec2audit.scale.run import run_on_ray

        return run_on_ray(config, tasks, todo, console, self.address)


def _ordered(pool: list, items: Sequence[Any], replace: Callable[[], Any]) -> Iterator[tuple[Any, str]]:
    """`items` on the actors of `pool` (`IN_FLIGHT` each), results in the order of the items; a dead
    actor is swapped in `pool` for `replace()` (said once) and its items queued again."""
    import ray
    from ray.exceptions import RayActorError

    todo, done, tries = deque(range(len(items))), {}, [0] * len(items)
    running: dict[Any, tuple[int, Any]] = {}  # reference → (item, actor)
    load = {id(a): 0 for a in pool}
    following = 0
    while following < len(items):
        for each in pool:
            while todo and load[id(each)] < IN_FLIGHT:
                index = todo.popleft()
                running[each.do.remote(items[index])] = (index, each)
                load[id(each)] += 1
        (ready,), _ = ray.wait(list(running), num_returns=1)
        index, each = running.pop(ready)
        try:
            done[index] = ray.get(ready)
            load[id(each)] -= 1
        except RayActorError as exc:
            tries[index] += 1
            if tries[index] > MAX_RETRIES:
                raise
            todo.appendleft(index)
            where = next((i for i, a in enumerate(pool) if a is each), None)
            if where is not None:  # its other items fail too, and are queued again as they do
                pool[where] = fresh = replace()
                load[id(fresh)] = 0
                cause = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                log.warning("ray: an actor died (%s); its work runs again on another", cause)
        while following in done:
            yield done.pop(following)
            following += 1
