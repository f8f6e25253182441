"""Arize Phoenix's spans table: what `px.Client().get_spans_dataframe()` (and `query_spans`) return, saved by
pandas as JSON Lines (`df.to_json(path, orient="records", lines=True)`), a JSON array (`orient="records"`) or
Parquet (`df.to_parquet(path)`).

A row is one span with its columns flattened: `context.span_id`, `context.trace_id`, `name`, `span_kind`,
`start_time`, `events` and one `attributes.<key>` column per OpenInference attribute, whose lists of messages
are kept whole (`attributes.llm.input_messages`: `[{"message.role": …, "message.content": …}, …]`). Each row is
read as the OpenTelemetry span it was (`otel_genai`): the same model-call test (`openinference.span.kind`
LLM), messages, session (`session.id`, else the trace), model and token counts.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from ec2audit.console import plural
from ec2audit.errors import InputError
from ec2audit.logs import otel_genai
from ec2audit.logs.base import OnError, open_log
from ec2audit.payloads import Payload

name = "phoenix-spans"
PARQUET_MAGIC = b"PAR1"
_SPAN_ID = "context.span_id"
_ATTRIBUTES = "attributes."


def sniff(path: Path, head: bytes) -> bool:
    if head.startswith(PARQUET_MAGIC):
        import polars as pl

        try:
            return _SPAN_ID in pl.read_parquet_schema(path)
        except Exception:  # polars raises several types for a file that is no readable Parquet
            return False
    return f'"{_SPAN_ID}"'.encode() in head and f'"{_ATTRIBUTES}'.encode() in head


def _flat(key: str, value, out: dict) -> None:
    """OpenInference's flat attribute keys (`llm.input_messages.0.message.role`) from the table's nested values."""
    if isinstance(value, dict):
        for k, v in value.items():
            _flat(f"{key}.{k}", v, out)
    elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
        for i, v in enumerate(value):
            _flat(f"{key}.{i}", v, out)
    elif value is not None:
        out[key] = value


def _start(value) -> str | None:
    """A row's `start_time` as pandas writes it: epoch milliseconds in JSON, a datetime in Parquet."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value / 1000, UTC).isoformat()
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    return value if isinstance(value, str) else None


def _span(row: dict) -> dict:
    """A table row as the OpenTelemetry span `otel_genai` reads."""
    attributes: dict = {}
    for column, value in row.items():
        if column.startswith(_ATTRIBUTES):
            _flat(column.removeprefix(_ATTRIBUTES), json.loads(value) if column.endswith("_messages")
                  and isinstance(value, str) else value, attributes)
    events = row.get("events")
    return {"name": row.get("name"), "context": {"span_id": row.get(_SPAN_ID), "trace_id": row.get("context.trace_id")},
            "start_time": _start(row.get("start_time")), "attributes": attributes,
            "events": events if isinstance(events, list) else []}


def _rows(path: Path, on_error: OnError) -> Iterator[dict]:
    with path.open("rb") as handle:
        parquet = handle.read(len(PARQUET_MAGIC)) == PARQUET_MAGIC
    if parquet:
        import polars as pl

        yield from pl.read_parquet(path).iter_rows(named=True)
        return
    import ijson

    count = 0
    with open_log(path) as handle:
        try:
            for document in ijson.items(handle, "", multiple_values=True, use_float=True):
                for row in document if isinstance(document, list) else [document]:
                    if isinstance(row, dict):
                        count += 1
                        yield row
        except ijson.JSONError as exc:
            on_error(InputError(f"not valid JSON after {plural(count, 'span')}, rest skipped ({exc})", file=str(path)))


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    spans = [_span(row) for row in _rows(path, on_error)]
    calls = sorted((s for s in spans if otel_genai.is_call(s["attributes"])), key=lambda s: str(s["start_time"] or ""))
    steps: Counter = Counter()
    for number, span in enumerate(calls, start=1):
        payload = otel_genai.span_payload(span, path, number, {})
        steps[payload.episode] += 1
        payload.meta["step"] = steps[payload.episode]
        yield payload
