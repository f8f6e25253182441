"""OpenClaw's SQLite transcript store (`<state>/agents/<agent>/agent/openclaw-agent.sqlite`).

Table `transcript_events(session_id, seq, event_json, event_zstd, …)` holds the same events as the
JSONL transcripts, one row each, in `seq` order; rows of 1 KB and more are zstd-compressed into
`event_zstd` (docs/design.md §4). Each session becomes a `Transcript`; a row that cannot be decoded is
reported as `FILE:SEQ` and skipped.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs.base import OnError
from ec2audit.logs.openclaw_jsonl import Transcript
from ec2audit.payloads import Payload

name = "openclaw-sqlite"
SQLITE_MAGIC = b"SQLite format 3\x00"


def tables(path: Path) -> set[str]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def sniff(path: Path, head: bytes) -> bool:
    if not head.startswith(SQLITE_MAGIC):
        return False
    try:
        return "transcript_events" in tables(path)
    except sqlite3.Error:
        return False


def _decode(text, blob, decompressor) -> dict:
    if text is None:
        if blob is None:
            raise ValueError("row has neither event_json nor event_zstd")
        text = decompressor.decompress(blob).decode("utf-8")
    event = json.loads(text)
    if not isinstance(event, dict):
        raise ValueError("event is not a JSON object")
    return event


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    import zstandard

    decompressor = zstandard.ZstdDecompressor()
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        rows = db.execute("SELECT session_id, seq, event_json, event_zstd FROM transcript_events "
                          "ORDER BY session_id, seq")
    except sqlite3.Error as exc:
        on_error(InputError(f"cannot read transcript_events: {exc}", file=str(path)))
        return
    transcript: Transcript | None = None
    try:
        for session, seq, text, blob in rows:
            if transcript is None or transcript.session != session:
                if transcript is not None:
                    yield from transcript.payloads()
                transcript = Transcript(path, on_error, session=str(session))
            try:
                event = _decode(text, blob, decompressor)
            except (ValueError, UnicodeDecodeError, zstandard.ZstdError) as exc:
                on_error(InputError(f"session {session}: undecodable event ({exc})", file=str(path), line=seq))
                continue
            transcript.add(event, seq)
    except sqlite3.Error as exc:
        on_error(InputError(f"reading stopped: {exc}", file=str(path)))
    finally:
        db.close()
    if transcript is not None:
        yield from transcript.payloads()
