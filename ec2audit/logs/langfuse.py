"""Langfuse exports: observations (the observations table or the public API's
`/api/public/observations` answer, its `data` list or the whole page, `{"data", "meta"}`) and traces with their
observations nested, as JSON, JSON Lines or CSV.

Every `GENERATION` observation is one call: its `input` is the request (a message list, a
`{messages}` body or a prompt string), `model` and `usage`/`usageDetails` (or `promptTokens`; `input`
there counts the prompt tokens not read from or written to the cache, which have keys of their own, and `output`
the output tokens not in another `output_*` key, `output_reasoning_tokens`: each key a bucket of its own),
`calculatedTotalCost`/`costDetails.total`. The provider is a `provider/model` name's, else the one LangChain
names in the metadata its Langfuse handler records (`ls_provider`: `ollama` is edge). Calls are grouped by the
trace's `sessionId` when the trace is in the export, else by `traceId`. Spans and events are not model calls. An
observation in two exports (the observations table and its trace's, or one export downloaded twice) is one call,
logged again (`base.record_key`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs.base import OnError, csv_header, json_field, outline, read_records, record_key
from ec2audit.logs.messages import provider_of
from ec2audit.logs.openai_log import to_payload
from ec2audit.payloads import Payload, is_request_body

name = "langfuse"


def sniff(path: Path, head: bytes) -> bool:
    columns = csv_header(head) or {k.removeprefix("data.").removeprefix("item.") for k in outline(head)}
    observation = {"traceId", "type", "startTime"} <= columns
    trace = {"observations", "sessionId"} <= columns or "observations.item.traceId" in columns
    return observation or trace


def _request(value, model) -> dict:
    value = json_field(value)
    if is_request_body(value):
        return value
    if isinstance(value, list):
        return {"model": model, "messages": value}
    if isinstance(value, dict) and isinstance(value.get("prompt"), str):
        value = value["prompt"]
    text = value if isinstance(value, str) else ("" if value is None else str(value))
    return {"model": model, "messages": [{"role": "user", "content": text}] if text else []}


def _number(value) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


#: `usageDetails` keys of prompt tokens read from and written to the provider's cache: Langfuse prices
#: each key apart, and its `input` is the rest (Anthropic's keys; its OpenAI integration's `input_cached_tokens`).
_CACHE_READ = ("cache_read_input_tokens", "input_cached_tokens", "input_cache_read")
_CACHE_WRITE = ("cache_creation_input_tokens", "input_cache_creation")


def _bucket(usage: dict, kind: str) -> float:
    """The tokens of `usageDetails`' other `input_*` / `output_*` keys (`input_audio_tokens`,
    `output_reasoning_tokens`, LangChain's `output_reasoning`): Langfuse's keys are disjoint buckets, each left out
    of `input` / `output` (its SDKs subtract each detail), so each is part of the prompt or the output. The cache's
    keys are read apart; `*_modality_*` keys split a count again and are not added."""
    return sum(_number(value) or 0 for key, value in usage.items() if key.startswith(f"{kind}_")
               and key not in _CACHE_READ + _CACHE_WRITE and "_modality_" not in key)


def _usage(observation: dict) -> dict | None:
    """Token counts in Anthropic's shape, whose `input_tokens` also leaves the cached ones out."""
    usage = json_field(observation.get("usageDetails")) or json_field(observation.get("usage")) or {}
    usage = usage if isinstance(usage, dict) else {}
    prompt = _number(usage.get("input", observation.get("promptTokens")))
    completion = _number(usage.get("output", observation.get("completionTokens")))
    if prompt is None and completion is None:
        return None
    return {"input_tokens": int((prompt or 0) + _bucket(usage, "input")),
            "output_tokens": int((completion or 0) + _bucket(usage, "output")),
            "cache_read_input_tokens": int(sum(_number(usage.get(k)) or 0 for k in _CACHE_READ)),
            "cache_creation_input_tokens": int(sum(_number(usage.get(k)) or 0 for k in _CACHE_WRITE))}


def _observations(record: dict, sessions: dict[str, str]) -> Iterator[dict]:
    page = record.get("data")
    if isinstance(page, list) and "traceId" not in record:  # a page of the public API: its `data`
        for item in page:
            if isinstance(item, dict):
                yield from _observations(item, sessions)
        return
    nested = json_field(record.get("observations"))
    if isinstance(nested, list) and "traceId" not in record:  # a trace with its observations
        if record.get("sessionId") and record.get("id"):
            sessions[str(record["id"])] = str(record["sessionId"])
        yield from (o for o in nested if isinstance(o, dict))
    else:
        yield record


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    steps: Counter = Counter()
    sessions: dict[str, str] = {}
    for number, record in read_records(path, on_error):
        for observation in _observations(record, sessions):
            if str(observation.get("type", "")).upper() != "GENERATION":
                continue
            model = observation.get("model") or None
            metadata = json_field(observation.get("metadata"))
            provider = provider_of(model)[0] or (metadata.get("ls_provider") if isinstance(metadata, dict) else None)
            cost = json_field(observation.get("costDetails"))
            trace = str(observation.get("traceId") or path.stem)
            data = {"id": observation.get("id"), "request": _request(observation.get("input"), model),
                    "provider": provider, "model": model, "timestamp": observation.get("startTime"),
                    "session_id": sessions.get(trace, trace), "usage": _usage(observation),
                    "cost_usd": _number(observation.get("calculatedTotalCost")) or _number(
                        cost.get("total") if isinstance(cost, dict) else None)}
            try:
                payload = to_payload(data, f"{path.name}:{number}", path, number, steps)
            except InputError as exc:
                on_error(InputError(exc.reason, file=str(path), line=number, field=exc.field))
                continue
            if key := record_key(name, data):  # the observation in another export (alone, in its trace): logged again
                payload.meta["call_id"] = key
            yield payload
