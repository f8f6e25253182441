"""OpenClaw cron run logs (`~/.openclaw/cron/runs/<jobId>.jsonl`): one `finished` entry per run of a
scheduled job, with the `model` and `provider` it ran on, its token `usage` and its `sessionId`.

A run log keeps no text sent to the model: the run's calls, with their text, are in its session's
transcript (`agents/<agent>/sessions/<sessionId>.jsonl`). When that transcript is still there it is
read and audited itself, so the run is not counted again here; once OpenClaw has pruned it
(`cron.sessionRetention`), the run log is the only record left, and each such run is one call
without text: it counts in the calls and tokens per provider, and there is nothing to scan.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from ec2audit.logs.base import OnError, first_record, make_payload, normalize_usage, read_jsonl
from ec2audit.payloads import Payload

name = "openclaw-cron-runs"


def sniff(path: Path, head: bytes) -> bool:
    record = first_record(head) or {}
    return record.get("action") == "finished" and "jobId" in record and "ts" in record


def _transcript_kept(path: Path, session_id: str) -> bool:
    """Whether the run's session transcript is in the same OpenClaw state folder (`<state>/cron/runs/…`)."""
    state = path.parent.parent.parent
    return any((state / "agents").glob(f"*/sessions/{session_id}.jsonl"))


def _time(entry: dict) -> str | None:
    ms = entry.get("runAtMs") or entry.get("ts")
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat() if isinstance(ms, int | float) else None


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    step = 0
    for number, entry in read_jsonl(path, on_error):
        if entry.get("action") != "finished" or not (entry.get("model") or entry.get("usage")):
            continue  # a run that reached no model (a script job, a run stopped before its turn)
        session_id = entry.get("sessionId")
        if isinstance(session_id, str) and _transcript_kept(path, session_id):
            continue  # audited from its transcript
        usage = entry.get("usage") if isinstance(entry.get("usage"), dict) else {}
        step += 1
        yield make_payload(
            pid=str(entry.get("runId") or f"{path.name}:{number}"), segments=[],
            session=str(session_id or f"cron {entry.get('jobId')}"), step=step, api="openclaw",
            provider=entry.get("provider"), model=entry.get("model"), timestamp=_time(entry), path=path, line=number,
            usage=normalize_usage({"input": usage.get("input_tokens"), "output": usage.get("output_tokens"),
                                   "cacheRead": usage.get("cache_read_tokens"),
                                   "cacheWrite": usage.get("cache_write_tokens")}) if usage else None)
