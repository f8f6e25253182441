"""Files that hold payloads or leaked values are created private (0600) from the first byte."""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl


def open_private(path: str | Path, mode: str = "w", **kwargs):
    """Open for writing, created with mode 0600 (an existing file is narrowed to 0600 too)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if "a" in mode else os.O_TRUNC)
    fd = os.open(path, flags, 0o600)
    os.fchmod(fd, 0o600)
    return os.fdopen(fd, mode, **kwargs)


def is_jsonl(path: Path) -> bool:
    """A table named `.jsonl` in any case (`FINDINGS.JSONL`) is JSON Lines; any other name is Parquet: one rule
    for every table written and read back."""
    return path.suffix.lower() == ".jsonl"


def write_table(frame: pl.DataFrame, path: str | Path) -> Path:
    """Write a table as Parquet, or JSONL when the name ends in .jsonl; private either way."""
    path = Path(path)
    if is_jsonl(path):
        with open_private(path, "w", encoding="utf-8") as out:
            frame.write_ndjson(out)
    else:
        with open_private(path, "wb") as out:
            frame.write_parquet(out)
    return path
