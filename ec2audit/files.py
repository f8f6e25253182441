"""Files that hold payloads or leaked values are created private (0600) from the first byte."""

from __future__ import annotations

import json
import os
from pathlib import Path

import polars as pl

from ec2audit.errors import InputError


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


def read_table(path: Path) -> pl.DataFrame:
    """A table as `write_table` writes it (JSONL by its name, else Parquet); one that cannot be read is an
    InputError naming the file, and for JSONL the first line that is no JSON object, as the polars message
    names no line."""
    try:
        return pl.read_ndjson(path) if is_jsonl(path) else pl.read_parquet(path)
    except Exception as exc:  # polars raises several types for unreadable files
        bad = _bad_line(path) if is_jsonl(path) and path.is_file() else None
        raise InputError(bad[1] if bad else f"cannot read table: {exc}", file=str(path),
                         line=bad[0] if bad else None) from None


def _bad_line(path: Path) -> tuple[int, str] | None:
    """The first line of a JSONL file that is no JSON object, and why."""
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                value = json.loads(raw)
            except ValueError as exc:
                return number, f"not JSON ({exc})"
            if not isinstance(value, dict):
                return number, f"a JSON {type(value).__name__}, not an object (one row a line)"
    return None
