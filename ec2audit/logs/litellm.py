"""LiteLLM logs: `StandardLoggingPayload` records (what custom callbacks and the S3/GCS bucket
loggers write, as JSON, JSON Lines or a JSON array) and the proxy's spend logs
(`LiteLLM_SpendLogs` rows, exported as JSON or CSV).

Each record is one call: `messages` (a message list, a prompt string, or — in spend logs, where
prompts are often not stored — the body in `proxy_server_request`), `model`,
`custom_llm_provider` and `api_base` (the side), the usage as LiteLLM logged it whole
(`metadata.usage_object`, else the response's: cache reads and writes with it) and `response_cost` /
`spend` (not when `response_cost_failure_debug_info` says LiteLLM could not price the call: its 0 is no
price, and the call is priced as any other).
A record whose request was not stored is a call with no text, not an error. A record LiteLLM answered
from its own cache (`cache_hit`) reached no provider: no call, counted apart (`base.PASSED_OVER`). A record's
`call_id` is its id and what was read of it, so the same call in two exports (a callback's JSONL and a bucket's
JSON, a spend log as JSON and as CSV) is one call, the copy logged again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.intercept.usage import service_tier
from ec2audit.logs.base import PASSED_OVER, OnError, csv_header, json_field, outline, read_records, record_key
from ec2audit.logs.openai_log import to_payload
from ec2audit.payloads import Payload, is_request_body

name = "litellm"
_MARKERS = {"call_type"}
_EITHER = {"response_cost", "spend"}


def sniff(path: Path, head: bytes) -> bool:
    columns = csv_header(head) or {k.removeprefix("item.") for k in outline(head)}
    return _MARKERS <= columns and bool(_EITHER & columns) and bool({"messages", "proxy_server_request"} & columns)


def _time(value) -> str | None:
    if isinstance(value, int | float) or (isinstance(value, str) and value.replace(".", "", 1).isdigit()):
        return datetime.fromtimestamp(float(value), UTC).isoformat()
    return value or None


def _number(value) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def _request(record: dict) -> dict:
    messages = json_field(record.get("messages"))
    if isinstance(messages, str) and messages.strip():
        messages = [{"role": "user", "content": messages}]
    if isinstance(messages, list) and messages:
        return {"model": record.get("model"), "messages": messages}
    server = json_field(record.get("proxy_server_request"))
    body = server.get("body") if isinstance(server, dict) and isinstance(server.get("body"), dict) else server
    return body if isinstance(body, dict) and is_request_body(body) else {"model": record.get("model"), "messages": []}


def _usage(record: dict, metadata: dict) -> dict | None:
    """The usage object LiteLLM logged (the standard payload's and the spend log's `metadata.usage_object`,
    else the logged response's), which has the cache reads and writes; else the record's token counts."""
    response = json_field(record.get("response"))
    for usage in (metadata.get("usage_object"), response.get("usage") if isinstance(response, dict) else None):
        usage = json_field(usage)
        if isinstance(usage, dict) and "prompt_tokens" in usage:
            return usage
    tokens = {k: int(n) for k in ("prompt_tokens", "completion_tokens") if (n := _number(record.get(k))) is not None}
    return tokens or None


def _served(record: dict) -> str | None:
    """The service tier of the call (priced at it where LiteLLM gave no cost): the one the logged response says
    served it, else the one asked (`model_parameters`, the request's optional parameters)."""
    asked = json_field(record.get("model_parameters"))
    return service_tier(json_field(record.get("response")), asked if isinstance(asked, dict) else None)


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    steps: Counter = Counter()
    passed_over = PASSED_OVER.get()
    for number, record in read_records(path, on_error):
        if record.get("cache_hit") in (True, "True", "true"):  # the spend log writes `str(cache_hit)`
            if passed_over:
                passed_over(name, "cache_hits")
            continue
        logged = json_field(record.get("metadata"))
        metadata: dict = logged if isinstance(logged, dict) else {}
        requester = given if isinstance(given := metadata.get("requester_metadata"), dict) else {}
        data = {"id": record.get("id") or record.get("request_id"), "request": _request(record),
                "provider": record.get("custom_llm_provider") or None, "url": record.get("api_base") or None,
                "model": record.get("model"), "timestamp": _time(record.get("startTime")),
                "session_id": record.get("session_id") or metadata.get("session_id") or requester.get("session_id")
                or record.get("trace_id") or record.get("end_user") or path.stem,
                "usage": _usage(record, metadata), "service_tier": _served(record),
                "cost_usd": None if json_field(record.get("response_cost_failure_debug_info"))
                else _number(record.get("response_cost", record.get("spend")))}
        try:
            payload = to_payload(data, f"{path.name}:{number}", path, number, steps)
        except InputError as exc:
            on_error(InputError(exc.reason, file=str(path), line=number, field=exc.field))
            continue
        if key := record_key(name, data):  # as read, not as written: a CSV row and its JSON record are one call
            payload.meta["call_id"] = key
        yield payload
