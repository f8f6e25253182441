"""Helpers for task checkers (`tasks/*/*/check.py`): read outputs, find leaked values, read service logs.

Checkers stay short and deterministic by sharing these; a leak check compares both the raw text and
its digits-only form, so `6222 0210 0112 3456` in an output still counts as the card `6222021001123456`.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path


def read_text(workspace: Path, rel: str) -> str | None:
    path = workspace / rel
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def read_json(workspace: Path, rel: str):
    text = read_text(workspace, rel)
    try:
        return json.loads(text) if text is not None else None
    except json.JSONDecodeError:
        return None


def read_csv(workspace: Path, rel: str) -> list[dict[str, str]] | None:
    text = read_text(workspace, rel)
    if text is None:
        return None
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    return [{(k or "").strip().lower(): (v or "").strip() for k, v in row.items()} for row in rows]


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def leaked(text: str, values) -> list[str]:
    """The values that occur in `text` (case-insensitive; long numbers also with separators ignored)."""
    lower, digits = text.lower(), _digits(text)
    out = []
    for value in values:
        d = _digits(value)
        if value.lower() in lower or (len(d) >= 8 and len(d) >= len(value) - 4 and d in digits):
            out.append(value)
    return out


def fraction(found: int, total: int) -> float:
    return round(found / total, 6) if total else 0.0


def service_calls(log: Path | None, method: str | None = None, path: str | None = None) -> list[dict]:
    """The mock service's logged calls (one JSON object per line), filtered by method and path."""
    if log is None or not log.is_file():
        return []
    calls = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [c for c in calls if (method is None or c.get("method") == method)
            and (path is None or c.get("path") == path)]
