"""Exposure: the weighted share of a task's sensitive units that reached the cloud (docs/design.md §1).

exposure = Σ(grade·weight) / Σ weight over the task's units, a unit's grade being the maximum over
its findings; AceBench's privacy score is 1 − exposure. Also the unweighted share of units leaked
(grade ≥ 0.7) and the same per dimension.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl

from ec2audit.detect.finding import MOSTLY
from ec2audit.units import Unit

if TYPE_CHECKING:
    from ec2audit.intercept.record import ProxyRecord

UNIT_SCHEMA = {"group": pl.String, "task_id": pl.String, "unit_id": pl.String, "entity_id": pl.String,
               "field": pl.String, "dimension": pl.String, "weight": pl.Float64, "grade": pl.Float64}


#: Exposure per dimension as the Parquet tables carry it (`episodes.parquet`, an audit's sessions table): a list of
#: {dimension, exposure}, a typed column polars and DuckDB explode and filter, not JSON text to parse.
BY_DIMENSION = pl.List(pl.Struct({"dimension": pl.String, "exposure": pl.Float64}))


def dimension_rows(by_dimension: dict[str, float]) -> list[dict]:
    """`{dimension: exposure}` as a `BY_DIMENSION` value, by dimension name."""
    return [{"dimension": d, "exposure": float(v)} for d, v in sorted(by_dimension.items())]


def dimension_map(value: list[dict] | str | None) -> dict[str, float]:
    """A `BY_DIMENSION` value as `{dimension: exposure}`; also the JSON object text that tables and episode
    records written before session 19 carry."""
    if isinstance(value, str):
        return {d: float(v) for d, v in json.loads(value or "{}").items()}
    return {r["dimension"]: r["exposure"] for r in value or []}


def leaked(grade: float) -> bool:
    """The one definition of a leaked unit, in every table and count: its best grade is ≥ 0.7."""
    return grade >= MOSTLY


def unit_table(units: list[Unit], grades_by_group: dict[str, dict[str, float]],
               tasks_by_group: dict[str, set[str]], found: dict[str, set[str]] | None = None) -> pl.DataFrame:
    """One row per (group, unit) of the group's tasks: the unit-level table exposure is built from. A group of
    `found` (it names no task of the units) has one row per value found in its calls instead (`one_per_value`),
    its task null: the units it is scored against are those, as `audit` scores a session matched to no task
    (docs/design.md §1)."""
    rows = []
    for group, tasks in tasks_by_group.items():
        if found and group in found:
            continue
        grades = grades_by_group.get(group, {})
        for u in units:
            if u.task_id in tasks:
                rows.append({"group": group, "task_id": u.task_id, "unit_id": u.id, "entity_id": u.entity_id,
                             "field": u.field, "dimension": u.kind, "weight": u.weight,
                             "grade": grades.get(u.id, 0.0)})
    canonical = one_per_value({u.id: u for u in units}) if found else {}
    for group, unit_ids in (found or {}).items():
        grades = grades_by_group.get(group, {})
        best: dict[str, float] = {}
        for unit_id in unit_ids | grades.keys():
            kept = canonical[unit_id].id
            best[kept] = max(best.get(kept, 0.0), grades.get(unit_id, 0.0))
        for unit_id in sorted(best):
            u = canonical[unit_id]
            rows.append({"group": group, "task_id": None, "unit_id": u.id, "entity_id": u.entity_id,
                         "field": u.field, "dimension": u.kind, "weight": u.weight, "grade": best[unit_id]})
    return pl.DataFrame(rows, schema=UNIT_SCHEMA)


def one_per_value(units: dict[str, Unit]) -> dict[str, Unit]:
    """Each unit id → the unit a session scored against the units found in its calls counts for its value: the
    first by id of the units of its dimension and value (a value two tasks hold, `t1`'s and `t2`'s, is one value
    sent, not two)."""
    first: dict[tuple[str, str], Unit] = {}
    for unit_id in sorted(units):
        first.setdefault((units[unit_id].kind, units[unit_id].value), units[unit_id])
    return {unit_id: first[(unit.kind, unit.value)] for unit_id, unit in units.items()}


def _aggregate(frame: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    return frame.group_by(keys, maintain_order=True).agg(
        units=pl.len(),
        leaked=(pl.col("grade") >= MOSTLY).sum(),
        exposure=(pl.col("grade") * pl.col("weight")).sum() / pl.col("weight").sum(),
        leaked_share=(pl.col("grade") >= MOSTLY).mean(),
    )


def exposure(table: pl.DataFrame) -> pl.DataFrame:
    """Exposure per (group, task)."""
    return _aggregate(table, ["group", "task_id"])


def exposure_by_dimension(table: pl.DataFrame) -> pl.DataFrame:
    """Exposure per (group, task, dimension)."""
    return _aggregate(table, ["group", "task_id", "dimension"])


def by_group(table: pl.DataFrame) -> dict[str, dict]:
    """Per group of a `unit_table`, over all its units: how many, how many leaked, its exposure and its exposure
    per dimension (`{dimension: exposure}`), as a sessions table carries them."""
    weighted = (pl.col("grade") * pl.col("weight")).sum() / pl.col("weight").sum()
    groups = {g: {"units": n, "leaked": leaked, "exposure": value, "exposure_by_dimension": {}}
              for g, n, leaked, value in table.group_by("group").agg(
                  pl.len(), leaked=(pl.col("grade") >= MOSTLY).sum(), exposure=weighted).iter_rows()}
    for g, dim, value in table.group_by("group", "dimension").agg(exposure=weighted).sort("dimension").iter_rows():
        groups[g]["exposure_by_dimension"][dim] = value
    return groups


def token_total(calls: Sequence[ProxyRecord], name: str) -> int | None:
    """The calls' tokens of `name` (`input_tokens`, `cached_tokens`, `output_tokens`), unknown (None) where a billed
    call counted none (a stream cut off), as the log audit sums them: never a 0 read as nothing sent; a call refused
    without usage (a 429) and a free one were billed nothing, so they count none."""
    counted = [r for r in calls if r.input_tokens is not None or r.output_tokens is not None or r.billed_usd == 0]
    return sum(getattr(r, name) or 0 for r in counted) if len(counted) == len(calls) else None
