"""ec2audit's own interceptor store (`cloud.sqlite`, `ec2audit.intercept.store.RecordStore`).

Every record is one exchange that went through the interceptor to the cloud: its request body,
episode, task (`/e/<episode>/t/<task>`, `X-EC2-Task`), time, model and the token counts and cost the
interceptor already worked out. A request the interceptor refused (`--enforce block`) is read as no call
(`BLOCKED`): its episode is scored all the same.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from ec2audit.console import plural
from ec2audit.errors import InputError
from ec2audit.intercept.record import ProxyRecord
from ec2audit.intercept.usage import service_tier
from ec2audit.logs.base import BLOCKED, UNREAD_BODY, OnError
from ec2audit.logs.openai_log import to_payload
from ec2audit.logs.openclaw_sqlite import SQLITE_MAGIC, tables
from ec2audit.payloads import Payload

name = "intercept-store"


def unread_reason(record: ProxyRecord, reason: str) -> str:
    """Why a record's request body could not be read: `reason` (what the reader said), or what the store holds in
    its place (text that is no JSON object, or nothing), the reader's words being about a body it never saw."""
    if isinstance(record.request, str):
        return (f"stored as {plural(len(record.request), 'character')} of text, not a JSON object: truncated, "
                "compressed or encoded?")
    return reason if isinstance(record.request, dict) else "none on record"


#: what reading a stored body of the wrong shape raises (`"messages": 5`), besides the readers' own `InputError`
UNREADABLE = (InputError, TypeError, AttributeError, ValueError)


def why_unread(exc: Exception) -> str:
    """What a reader raised on a body, as the reason to name: its own words, or the error a wrong shape gave."""
    return exc.reason if isinstance(exc, InputError) else f"{type(exc).__name__}: {exc}"


def blocked_unread(record: ProxyRecord, reason: str, path: Path, line: int | None = None) -> InputError:
    """What `intercept audit` and `audit` say of a blocked request whose body they cannot read (a body the store
    kept truncated or encoded): the units it held are unknown, so an episode that names no task, scored over the
    units found in its calls, has a denominator that is only a lower bound (docs/design.md §1)."""
    return InputError(f"blocked record {record.id} of {record.episode or record.task_id or '?'}: request body not "
                      f"read ({unread_reason(record, reason)}): the units it held are unknown, so an episode that "
                      "names no task counts at least the units found in its other calls (its exposure at most the "
                      "figure shown)",
                      file=str(path), line=line, field="request")


def sniff(path: Path, head: bytes) -> bool:
    if not head.startswith(SQLITE_MAGIC):
        return False
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            if "records" not in tables(path):
                return False
            columns = {r[1] for r in db.execute("PRAGMA table_info(records)")}
    except sqlite3.Error:
        return False
    return {"episode", "request", "response"} <= columns


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    from ec2audit.intercept.store import read_records

    records = read_records(path)  # read-only: a log audit never changes its input
    steps: Counter = Counter()
    for number, record in enumerate(records, start=1):
        if not record.model_call:  # a model listing (GET /v1/models): no call, no prompt, not a step
            continue
        ts = record.ts
        # read as the API the proxy served it as (a Gemini body has neither `messages` nor `input`)
        data = {"id": record.id, "episode": record.episode, "task_id": record.task_id, "api": record.api,
                "request": record.request,
                "response": record.response or {}, "model": record.model,
                "timestamp": datetime.fromtimestamp(ts, UTC).isoformat() if isinstance(ts, int | float) else None}
        if not record.forwarded:  # blocked by the proxy: no call, though it keeps its step number and its episode
            session = str(record.episode or record.task_id or path.stem)  # is scored
            steps[session] += 1
            try:  # its texts: what an episode that names no task found in its calls, unsent (docs/design.md §1)
                segments = to_payload(data, f"{path.name}#{number}", path, number, Counter()).segments
            except UNREADABLE as exc:
                on_error(blocked_unread(record, why_unread(exc), path, number))
                segments = None
            yield Payload(f"{path.name}#{number}", segments or [], model=record.model, task_id=record.task_id,
                          episode=session, meta={"session": session, "format": name, BLOCKED: True,
                                                 UNREAD_BODY: segments is None})
            continue
        try:
            payload = to_payload(data, f"{path.name}#{number}", path, number, steps)
        except UNREADABLE as exc:
            on_error(InputError(f"record {record.id}: request body not read ({unread_reason(record, why_unread(exc))})",
                                file=str(path), line=number, field="request"))
            continue
        if record.input_tokens is not None or record.billed_usd == 0:  # priced by the proxy, with its --pricing:
            # a null cost is unknown there too (no price, or a stream cut off before the usage of all its output),
            # not to be priced again; an error answered without usage (a 429, a 503) was not billed
            payload.meta["usage"] = {"input_tokens": record.input_tokens or 0,
                                     "cached_tokens": record.cached_tokens or 0,
                                     "output_tokens": record.output_tokens or 0, "cost_usd": record.billed_usd,
                                     "priced": True, "service_tier": service_tier(record.response, record.request)}
        yield payload
