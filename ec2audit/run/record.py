"""The episode record: one row of `episodes.parquet` (docs/design.md, Run results), typed.

`EPISODE_SCHEMA` is derived from the dataclass's fields, as `FINDING_SCHEMA` is for findings, so the
table, `record.json` and every reader (summaries, the CLI table, the report) agree on names and
types. Exposure per dimension is a typed list of {dimension, exposure} (`metrics.BY_DIMENSION`); the other
nested values (criteria, leaked units, routes, isolation) are JSON text.
"""

from __future__ import annotations

import typing
from dataclasses import asdict, dataclass, fields
from typing import Any

import polars as pl

from ec2audit import metrics

PASS_AT = 0.7
#: statuses of an episode that ran as asked (the rest are failures): `budget` stopped after its
#: --max-model-calls, which is no failure of the agent or of a model
FINISHED = ("ok", "budget")
#: one-line explanation of each failure status
FAILURES = {"timeout": "OpenClaw hit its deadline", "model_error": "a model endpoint failed",
            "crash": "OpenClaw exited without a result"}


@dataclass
class EpisodeRecord:
    episode_id: str
    task_id: str
    scenario: str
    strategy: str
    variant: str  # the strategy as results group it: router or cloud context included
    router: str | None
    cloud_context: str | None  # only for strategies where the edge asks the cloud
    edge_model: str
    cloud_model: str
    run_index: int
    status: str  # ok, budget, timeout, model_error, crash
    completion: float
    criteria: str  # JSON: criterion → score (or checker_error)
    passed: bool
    cloud_calls: int
    cloud_input_tokens: int | None  # None when a call sent counted none (a stream cut off): unknown, never 0
    cloud_cached_tokens: int | None
    cloud_output_tokens: int | None
    cloud_usd: float | None  # None when a call had no price
    edge_calls: int
    edge_input_tokens: int
    edge_output_tokens: int
    edge_flops: float | None
    exposure: float | None  # None for a task without units
    exposure_by_dimension: list  # [{dimension, exposure}] by dimension; a record.json written before: JSON text
    leaked_units: str  # JSON list
    routes: str  # JSON list of sides, one per request
    asks: int
    exit_code: int | None
    error: str | None
    duration_s: float
    openclaw_s: float
    openclaw_startup_s: float | None  # launch → first model request
    isolation: str  # JSON: what the episode's sandbox gave it (`{"sandbox": "none"}` under --no-sandbox)
    launch: str | None = None  # per-episode (its own OpenClaw process) or warm-worker (docs/design.md §6)
    worker_episode: int | None = None  # warm-worker: the how-manieth episode of its worker's OpenClaw process

    def __post_init__(self) -> None:
        if not isinstance(self.exposure_by_dimension, list):  # a record.json of a run before session 19
            self.exposure_by_dimension = metrics.dimension_rows(metrics.dimension_map(self.exposure_by_dimension))

    @property
    def finished(self) -> bool:
        return self.status in FINISHED

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EpisodeRecord:
        values: dict[str, Any] = {f.name: data.get(f.name) for f in fields(cls)}
        return cls(**values)

    def to_dict(self) -> dict:
        return asdict(self)


_POLARS: dict[type, pl.DataType | type[pl.DataType]] = {str: pl.String, int: pl.Int64, float: pl.Float64,
                                                         bool: pl.Boolean, list: metrics.BY_DIMENSION}


def _column_type(hint) -> pl.DataType | type[pl.DataType]:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    return _POLARS[args[0] if args else hint]


EPISODE_SCHEMA = {name: _column_type(hint) for name, hint in typing.get_type_hints(EpisodeRecord).items()}


def episode_frame(records: list[EpisodeRecord]) -> pl.DataFrame:
    return pl.DataFrame([r.to_dict() for r in records], schema=EPISODE_SCHEMA)
