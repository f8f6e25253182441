"""What every log adapter shares: the adapter protocol, tolerant JSONL reading, usage and payloads.

An adapter turns one log file into the `Payload`s of the model calls it records. Each payload's
`meta` carries `provider`, `model`, `base_url`, `timestamp`, `session`, `step`, `usage`
(input/cached/output tokens, `cost_usd`), `source` (file and line) and `messages`: for each
`message_index`, where that message came from (`entry`, `tool`, `file`), so a leak can be traced to
the tool result or file that carried it. Bad input is reported through `on_error` and skipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

from ec2audit.errors import InputError
from ec2audit.payloads import Payload, Segment

OnError = Callable[[InputError], None]

#: Longest JSONL line read; longer lines are reported and skipped, not loaded.
MAX_LINE_BYTES = 64 * 1024 * 1024
_CONFLICT = (b"<<<<<<< ", b"=======", b">>>>>>> ", b"||||||| ")


class Adapter(Protocol):
    """One log format: `sniff` says whether a file is in it, `read` yields its model calls."""

    name: str

    def sniff(self, path: Path, head: bytes) -> bool: ...

    def read(self, path: Path, on_error: OnError) -> Iterator[Payload]: ...


def read_jsonl(path: Path, on_error: OnError) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each JSON object line; conflict markers, truncated or non-object
    lines and over-long lines are reported with their line number and skipped."""
    with path.open("rb") as handle:
        number = 0
        while True:
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):
                    raw = handle.readline(MAX_LINE_BYTES)
                on_error(InputError(f"line longer than {MAX_LINE_BYTES >> 20} MiB, skipped",
                                    file=str(path), line=number))
                continue
            if not raw.strip():
                continue
            if raw.startswith(_CONFLICT):
                on_error(InputError("merge-conflict marker", file=str(path), line=number))
                continue
            try:
                record = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                on_error(InputError(f"not valid JSON, truncated? ({exc})", file=str(path), line=number))
                continue
            if not isinstance(record, dict):
                on_error(InputError("expected a JSON object", file=str(path), line=number))
                continue
            yield number, record


def first_record(head: bytes) -> dict | None:
    """The first JSON object line of a file's head (for sniffing), passing over conflict markers and
    broken lines so a log whose first line is damaged is still recognised; None if there is none."""
    lines = head.splitlines()
    for raw in (lines[:-1] if len(lines) > 1 else lines)[:50]:
        if raw.strip() and not raw.startswith(_CONFLICT):
            try:
                record = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                continue
            return record if isinstance(record, dict) else None
    return None


def normalize_usage(usage) -> dict | None:
    """Token counts in one shape, prompt tokens including cached ones (docs/design.md §1 Cost): the API
    shapes via the interceptor's parser, plus OpenClaw's (`input`, `cacheRead`, `cost.total`)."""
    from ec2audit.intercept.usage import Usage, parse_usage

    if not isinstance(usage, dict):
        return None
    cost = None
    if "input" in usage or "output" in usage:
        numbers = {k: v if isinstance(v, int) and v >= 0 else 0 for k, v in usage.items()}
        parsed = Usage(numbers.get("input", 0) + numbers.get("cacheRead", 0) + numbers.get("cacheWrite", 0),
                       numbers.get("cacheRead", 0), numbers.get("output", 0), numbers.get("cacheWrite", 0))
        total = (usage.get("cost") or {}).get("total") if isinstance(usage.get("cost"), dict) else None
        cost = float(total) if isinstance(total, int | float) and total > 0 else None  # 0 = no price set
    else:
        parsed = parse_usage(usage)
        if parsed is None:
            return None
    return {"input_tokens": parsed.input, "cached_tokens": parsed.cached, "output_tokens": parsed.output,
            "cost_usd": cost}


def make_payload(*, pid: str, segments: list[Segment], session: str, step: int, api: str,
                 provider: str | None, model: str | None, timestamp: str | None, path: Path, line: int | None,
                 usage: dict | None = None, base_url: str | None = None, messages: dict | None = None,
                 task_id: str | None = None) -> Payload:
    """A payload of one logged model call, its provenance in `meta` (see the module docstring)."""
    return Payload(id=pid, segments=segments, api=api, model=model, task_id=task_id, episode=session, meta={
        "provider": provider, "model": model, "base_url": base_url, "timestamp": timestamp, "session": session,
        "step": step, "usage": usage, "source": {"file": str(path), "line": line}, "messages": messages or {}})
