"""The Ray back-end (`get_backend("ray")`): items done by a pool of Ray actors.

Ray Data hands each item to `map_batches` on a pool of `_Worker` actors, one CPU each, that call
`start()` once in `__init__` and reuse its state for every item; results come back in the order of
the items (`preserve_order`), each with the node that did it. Only what `work` returns crosses back
to the driver, so a `work` that writes its bulk to shared storage keeps the driver small.
"""

from __future__ import annotations

import logging
import pickle
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ec2audit.backends import Backend, Item, Result, State, register
from ec2audit.scale import cluster

#: Seconds to wait for the whole actor pool before working: every actor starts with the work.
POOL_START_S = 600


class _Worker:
    """One Ray actor: `start()` once, then `work(state, item)` for every item it is given."""

    def __init__(self, start: Callable[[], Any], work: Callable[[Any, Any], Any]):
        import ray

        self.state, self.work = start(), work
        self.node = ray.get_runtime_context().get_node_id()

    def __call__(self, batch: dict) -> dict:
        results = [pickle.dumps(self.work(self.state, pickle.loads(item))) for item in batch["item"]]
        return {"result": results, "node": [self.node] * len(results)}


@register
class Ray(Backend):
    """Actors on the cluster at `address` ("" = `RAY_ADDRESS`, else a new local cluster), `workers`
    of them (default: one per CPU of the cluster)."""

    name = "ray"

    def __init__(self, address: str = "", workers: int | None = None):
        self.address, self.workers = address, workers

    def map(self, start: Callable[[], State], work: Callable[[State, Item], Result],
            plan: Callable[[int], Sequence[Item]]) -> Iterator[tuple[Result, str]]:
        import ray
        import ray.data

        # its INFO lines and the note that its own progress bars are off would break ec2audit's (rich)
        logging.getLogger("ray.data").setLevel(logging.ERROR)
        with cluster(self.address, self.workers) as resources:
            cpus = max(1, int(resources.get("CPU", 1)))
            pool = min(self.workers or cpus, cpus)
            items = plan(pool)
            if not items:
                return
            context = ray.data.DataContext.get_current()
            context.enable_progress_bars = False  # ec2audit shows its own (rich)
            context.execution_options.preserve_order = True  # results in the order of the items
            context.wait_for_min_actors_s = POOL_START_S
            dataset = ray.data.from_items([{"item": pickle.dumps(i)} for i in items],
                                          override_num_blocks=len(items)).map_batches(
                _Worker, fn_constructor_args=(start, work), batch_size=1, num_cpus=1,
                compute=ray.data.ActorPoolStrategy(size=pool))
            for row in dataset.iter_rows():
                yield pickle.loads(row["result"]), row["node"]
