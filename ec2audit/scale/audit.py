"""`ec2audit audit --ray`: log files audited by Ray actors, merged on the driver into a local run's rows.

The driver lists the files and cuts them into contiguous batches of about equal bytes (`batches`);
Ray Data hands each batch to `map_batches` on a pool of `Auditor` actors that built the cascade once
in `__init__` (automaton, views, calibration) and reuse it for every batch. A batch is sniffed and
audited by `audit_part`, as a `--jobs` worker does it (the local rules: every file read or named as
skipped, in file order), so sniffing is spread over the cluster, not a serial pass on the driver
(0.18 ms a file: ~2 h for the tens of millions of files of a TB of logs). Parts come back in file
order and `merge_parts` renumbers their calls, so the findings are the same rows as a local run's.

First-sent attribution needs a session's calls in order: a file (with the rotated parts read with it)
is never split, so a session kept within one file is kept within one task — the `--jobs` contract.
"""

from __future__ import annotations

import json
import logging
import pickle
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import polars as pl

from ec2audit.detect.cascade import build_cascade
from ec2audit.files import open_private, write_table
from ec2audit.logs.audit import LogAudit, Reading, audit_part, batches, file_sizes, merge_parts
from ec2audit.scale import cluster
from ec2audit.units import Unit

#: A partition folder for rows whose value is null (Hive's name, which Arrow and polars read back).
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"
#: Seconds to wait for the whole actor pool before auditing: every actor starts with the work.
POOL_START_S = 600


class Auditor:
    """One Ray actor: the cascade is built once here, then every batch it is given reuses it."""

    def __init__(self, reading: Reading, units: list[Unit]):
        import ray

        self.reading, self.units = reading, units
        self.cascade = build_cascade(units)
        self.node = ray.get_runtime_context().get_node_id()

    def __call__(self, batch: dict) -> dict:
        parts = [pickle.dumps(audit_part(pickle.loads(files), self.reading, self.units, self.cascade))
                 for files in batch["files"]]
        return {"bytes": batch["bytes"], "part": parts, "node": [self.node] * len(parts)}


def audit_on_ray(found: list[Path], reading: Reading, units: list[Unit], address: str, workers: int | None,
                 on_bytes: Callable[[int], None] | None = None) -> LogAudit:
    """Audit `found` on the Ray cluster at `address` with `workers` actors (default: one per CPU of
    the cluster); `on_bytes(n)` as each batch of n bytes is merged. `LogAudit.nodes` says which node
    audited each file."""
    import ray
    import ray.data

    # its INFO lines and the note that its own progress bars are off would break ec2audit's (rich)
    logging.getLogger("ray.data").setLevel(logging.ERROR)
    if not found:
        return merge_parts([], units)
    sizes = file_sizes(found)
    with cluster(address, workers) as resources:
        pool = min(workers or int(resources.get("CPU", 1)), max(1, int(resources.get("CPU", 1))))
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False  # ec2audit shows its own (rich)
        context.execution_options.preserve_order = True  # parts merge in file order
        context.wait_for_min_actors_s = POOL_START_S
        chunks = [c for c in batches(list(range(len(found))), sizes, pool) if c]
        rows = [{"bytes": sum(sizes[i] for i in c), "files": pickle.dumps([found[i] for i in c])} for c in chunks]
        dataset = ray.data.from_items(rows, override_num_blocks=max(1, len(rows))).map_batches(
            Auditor, fn_constructor_args=(reading, units), batch_size=1, num_cpus=1,
            compute=ray.data.ActorPoolStrategy(size=pool))
        nodes: dict[str, str] = {}

        def parts():
            for row in dataset.iter_rows():
                part: LogAudit = pickle.loads(row["part"])
                nodes.update((f["file"], row["node"]) for f in part.files if f["read_with"] is None)
                if on_bytes:
                    on_bytes(row["bytes"])
                yield part

        log = merge_parts(parts(), units)
    log.nodes = nodes
    return log


def write_audit(log: LogAudit, summary: dict, out: Path) -> Path:
    """A Ray audit's results under the folder `out`: `findings/` (Parquet, partitioned by dimension),
    `exposure.parquet`, `summary.json` (what `--json` prints) and `nodes.json` (the node that audited
    each file); every file private (0600)."""
    out.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_partitioned(log.findings_frame(), out / "findings", "dimension")
    write_table(pl.DataFrame(log.exposure(), schema={"group": pl.String, "dimension": pl.String,
                                                     "units": pl.Int64, "leaked": pl.Int64,
                                                     "exposure": pl.Float64}), out / "exposure.parquet")
    for name, data in (("summary.json", summary), ("nodes.json", log.nodes)):
        with open_private(out / name, "w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False, indent=1)
    return out


def write_partitioned(frame: pl.DataFrame, folder: Path, column: str) -> None:
    """Hive-style partitions (`folder/column=value/part-0.parquet`, the column left out of the
    files), which polars, Arrow, DuckDB and Spark read back as one table."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    for (value,), part in frame.partition_by(column, as_dict=True, maintain_order=True).items():
        name = NULL_PARTITION if value is None else quote(str(value), safe="")
        write_table(part.drop(column), folder / f"{column}={name}" / "part-0.parquet")
