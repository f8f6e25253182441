"""`ec2audit audit --ray --out FOLDER`: an audit's results as a folder other tools read as tables.

The findings come from the Parquet parts the workers wrote (`LogAudit.finding_parts`, one part at a
time, its calls renumbered for the whole audit), so writing them never holds every finding at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

import polars as pl

from ec2audit.files import open_private, write_table
from ec2audit.logs.audit import LogAudit, sessions_path

#: A partition folder for rows whose value is null (Hive's name, which Arrow and polars read back).
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"


def write_audit(log: LogAudit, summary: dict, out: Path) -> Path:
    """An audit's results under the folder `out`: `findings/` (Parquet, partitioned by dimension),
    `findings.sessions.parquet` (every session read, as beside a findings file), `exposure.parquet`,
    `summary.json` (what `--json` prints) and `nodes.json` (where each file was audited); every file
    private (0600)."""
    out.mkdir(parents=True, exist_ok=True, mode=0o700)
    for number, part in enumerate(log.finding_parts()):
        write_partitioned(part, out / "findings", "dimension", f"part-{number:06d}.parquet")
    (out / "findings").mkdir(exist_ok=True, mode=0o700)  # there even when nothing was found
    log.write_sessions(sessions_path(out / "findings"))
    log.write_exposure(out / "exposure.parquet")
    with open_private(out / "summary.json", "w", encoding="utf-8") as handle:
        json.dump(summary, handle, ensure_ascii=False, indent=1)
    with open_private(out / "nodes.json", "w", encoding="utf-8") as handle:
        write_object(log.node_rows(), handle)
    return out


def write_object(pairs: Iterable[tuple[str, str]], handle: TextIO) -> None:
    """`json.dump(dict(pairs), handle, ensure_ascii=False, indent=1)` for distinct keys, a pair at a time:
    a file's node each, 378,156 of them at 10 GB."""
    start = "{\n "
    for key, value in pairs:
        handle.write(f"{start}{json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}")
        start = ",\n "
    handle.write("{}" if start == "{\n " else "\n}")


def write_partitioned(frame: pl.DataFrame, folder: Path, column: str, name: str) -> None:
    """Hive-style partitions (`folder/column=value/name`, the column left out of the files), which
    polars, Arrow, DuckDB and Spark read back as one table."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    for (value,), part in frame.partition_by(column, as_dict=True, maintain_order=True).items():
        partition = NULL_PARTITION if value is None else quote(str(value), safe="")
        (folder / f"{column}={partition}").mkdir(exist_ok=True, mode=0o700)
        write_table(part.drop(column), folder / f"{column}={partition}" / name)
