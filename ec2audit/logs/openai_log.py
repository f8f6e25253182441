"""Request logs as proxies and SDK hooks write them: JSONL of OpenAI Chat Completions, OpenAI
Responses or Anthropic Messages request bodies, or records `{request|body|request_body,
response|response_body, url|base_url, provider, model, timestamp, episode|session_id, task_id}`; a Helicone export
(`npx @helicone/export`: `request_body`, `response_body`, `target_url`, `request_created_at`) keeps each call's
session in its properties (`Helicone-Session-Id`).

Each line is one call. The response (when logged) gives usage; the URL and provider give the side.
A line equal to an earlier line of the file that has the same id (request and response alike: a record
written twice, a retried write) logs that call again and is no call; a line that reuses an earlier id
with another request or answer (providers reuse ids; a retry answered again) is a call of its own,
marked `id_reused` (docs/design.md, Log audit). Each keyed record's `call_id` names it (id and record,
not the file: a copy in another file, as overlapping exports write, is the same call) and its `logged_id`
its id in its file (an id is reused within a file), the same in every worker: a copy in another part is
found there (`base.LOGGED_BEFORE`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

from ec2audit.errors import InputError
from ec2audit.intercept.dialects import model_in_path
from ec2audit.intercept.record import free_path
from ec2audit.intercept.usage import service_tier, usage_object
from ec2audit.logs.base import (
    LOGGED_BEFORE,
    PASSED_OVER,
    OnError,
    first_record,
    logged_key,
    make_payload,
    normalize_usage,
    read_jsonl,
)
from ec2audit.payloads import Payload, is_request_body, payload_from_record

name = "openai-log"

_PROVIDER_HOSTS = {"openai.com": "openai", "chatgpt.com": "openai", "anthropic.com": "anthropic",
                   "googleapis.com": "google", "openrouter.ai": "openrouter", "mistral.ai": "mistral",
                   "deepseek.com": "deepseek", "azure.com": "azure", "groq.com": "groq", "together.xyz": "together"}


def provider_from_url(url: str | None) -> str | None:
    """A provider name from a well-known API host (Bedrock's runtime in any region:
    `bedrock-runtime.us-east-1.amazonaws.com`); None for anything else."""
    host = (urlsplit(url).hostname or "") if url else ""
    if host.startswith(("bedrock-runtime.", "bedrock-runtime-fips.")) and host.endswith(".amazonaws.com"):
        return "bedrock"
    return next((p for suffix, p in _PROVIDER_HOSTS.items() if host == suffix or host.endswith("." + suffix)), None)


#: The key `response_data` sets on a stream that broke off before its end: its usage does not count the output
#: the provider made (and bills) before it stopped, so its cost is unknown, as the interceptor records such a call.
CUT_OFF = "stream_cut_off"
#: The events that end a stream: Anthropic's, OpenAI Responses'.
_END_EVENTS = frozenset({"message_stop", "response.completed", "response.incomplete", "response.failed"})


def _ends(event: object) -> bool:
    """Whether a stream's event is (or carries) its end: an end event, a stop reason (Anthropic's `message_delta`),
    a choice's `finish_reason` or a Gemini candidate's `finishReason`."""
    if not isinstance(event, dict):
        return False
    delta = event.get("delta")
    if event.get("type") in _END_EVENTS or (isinstance(delta, dict) and delta.get("stop_reason")):
        return True
    choices = event.get("choices") or event.get("candidates") or []
    return isinstance(choices, list) and any(
        isinstance(c, dict) and (c.get("finish_reason") or c.get("finishReason")) for c in choices)


def response_data(text: str) -> dict:
    """A response body as data: its JSON, or for a stream — SSE events, or the JSON array of chunks Gemini
    streams without `alt=sse` — its model and the usage fields merged over its events (streams send usage
    in pieces), marked `CUT_OFF` where no event (nor OpenAI's `[DONE]`) ended it."""
    ended = False
    try:
        data = json.loads(text)
        if not isinstance(data, list):
            return data if isinstance(data, dict) else {}
        events = data
    except json.JSONDecodeError:
        events = []
        for line in text.splitlines():
            if line.startswith("data:"):
                ended |= line[5:].strip() == "[DONE]"
                try:
                    events.append(json.loads(line[5:]))
                except json.JSONDecodeError:
                    continue
    found: dict = {"usage": {}}
    if events and not (ended or any(map(_ends, events))):
        found[CUT_OFF] = True
    for event in events:
        if isinstance(event, dict):
            inner = event.get("message") or event.get("response") or {}
            found["model"] = event.get("model") or inner.get("model") or event.get("modelVersion") \
                or found.get("model")
            found["service_tier"] = event.get("service_tier") or inner.get("service_tier") \
                or found.get("service_tier")
            usage = event.get("usage") or inner.get("usage") or event.get("usageMetadata")
            if isinstance(usage, dict):  # a gateway's null in message_delta leaves message_start's count
                found["usage"].update({k: v for k, v in usage.items() if v is not None})
    return found


def _record(data: dict) -> dict:
    if "request_body" in data and "request" not in data:
        data = {**data, "request": data["request_body"]}
    return data


def _is_record(data: dict | None) -> bool:
    if not data:
        return False
    return is_request_body(data) or any(is_request_body(data.get(k)) for k in ("request", "body", "request_body"))


def sniff(path: Path, head: bytes) -> bool:
    record = first_record(head)
    if record is not None:
        return _is_record(record)
    return path.suffix in (".jsonl", ".ndjson") and (b'"messages"' in head or b'"request"' in head)


def to_payload(data: dict, default_id: str, path: Path, line: int | None, steps: Counter) -> Payload:
    """One logged call (body or record) as a payload with its provenance."""
    record = _record(data)
    payload = payload_from_record(record, default_id)
    body: dict = next((record[k] for k in ("request", "body") if is_request_body(record.get(k))), record)
    meta = given if isinstance(given := body.get("metadata"), dict) else {}
    logged: dict | str = next((record[k] for k in ("response", "response_body")
                               if isinstance(record.get(k), dict | str)), {})
    response: dict = response_data(logged) if isinstance(logged, str) else logged  # a stream logged as its text
    url = record.get("url") or record.get("base_url") or record.get("endpoint") or record.get("target_url")
    session = str(payload.episode or record.get("session_id") or meta.get("session_id") or _tagged_session(record)
                  or payload.task_id or path.stem)
    steps[session] += 1
    out = make_payload(
        pid=payload.id, segments=payload.segments, session=session, step=steps[session], api=payload.api,
        provider=record.get("provider") or provider_from_url(url),
        model=payload.model or response.get("model") or response.get("modelVersion")
        or (model_in_path(urlsplit(url).path) if isinstance(url, str) else None), base_url=url,
        timestamp=record.get("timestamp") or record.get("ts") or record.get("created_at")
        or record.get("request_created_at"),
        path=path, line=line, usage=normalize_usage(
            usage_object(response) or record.get("usage"),
            # the tier that served it: the response's (or the record's, as a gateway logged it), else the one asked
            service_tier(response, record, body)) or _unbilled(
            record, response, url), task_id=payload.task_id)
    if isinstance(record.get("cost_usd"), int | float) and out.meta["usage"] is not None:
        out.meta["usage"]["cost_usd"] = float(record["cost_usd"])
    elif response.get(CUT_OFF) and out.meta["usage"] is not None:  # tokens as far as it went; no cost
        out.meta["usage"] |= {"cost_usd": None, "priced": True}
    return out


#: The property a gateway's export keeps a request's session in: Helicone's `Helicone-Session-Id` header.
_SESSION_PROPERTY = "helicone-session-id"


def _tagged_session(record: dict) -> str | None:
    """The session a gateway tagged the call with in its export's properties (Helicone's `request_properties`,
    `properties`), whatever the header's case."""
    for key in ("request_properties", "properties"):
        tags = record.get(key)
        found = next((v for k, v in tags.items() if k.lower() == _SESSION_PROPERTY and v), None) \
            if isinstance(tags, dict) else None
        if found is not None:
            return str(found)
    return None


def _unbilled(record: dict, response: dict, url) -> dict | None:
    """The usage of a call the provider does not bill, logged without usage: one answered with an error (a
    429, a 503: OpenAI's, Anthropic's and Gemini's `{"error": …}`) or one to a free endpoint (a token count,
    a moderation): a cost of $0 rather than an unpriced call."""
    status = next((record[k] for k in ("status_code", "status") if isinstance(record.get(k), int)), None)
    refused = (status is not None and status >= 400) or (bool(response.get("error")) and not response.get("choices"))
    if not (refused or (isinstance(url, str) and free_path(url))):
        return None
    return {"input_tokens": 0, "cached_tokens": 0, "output_tokens": 0, "cost_usd": 0.0, "priced": True}


def _logged_id(data: dict) -> str | None:
    """The id a record was logged under (its own, or its request's `metadata.id`), None without one."""
    body: dict = next((data[k] for k in ("request", "body", "request_body") if isinstance(data.get(k), dict)), data)
    meta = given if isinstance(given := body.get("metadata"), dict) else {}
    found = data.get("id") or meta.get("id")
    return None if found is None else str(found)


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    """The file's calls (of its `LINE_RANGE`): a record logged again (in this part, or in a part before it:
    `LOGGED_BEFORE`) is passed over; one reusing an id logged before is marked `id_reused`."""
    steps: Counter = Counter()
    # the ids read and the key of each record read: a record's key holds its id, so "logged under this id before"
    # is "in `records`" (two flat sets: a set per id held ~250 B a call, ~1.5 MB per 6,000 calls of a dense log)
    ids_read: set[str] = set()
    records: set[str] = set()
    passed_over, before = PASSED_OVER.get(), LOGGED_BEFORE.get()
    for number, data in read_jsonl(path, on_error):
        key = _logged_id(data)
        ids = call = ""
        if key is not None:  # the id within its file; the call wherever it was logged
            ids = logged_key(name, str(path), key)
            call = logged_key(name, key, json.dumps(data, sort_keys=True, default=str))
            if call in records or call in before:
                if passed_over:
                    passed_over(name, "logged_again")
                continue
        try:
            payload = to_payload(data, f"{path.name}:{number}", path, number, steps)
        except InputError as exc:
            on_error(InputError(exc.reason, file=str(path), line=number, field=exc.field))
            continue
        if key is not None:
            payload.meta |= {"call_id": call, "logged_id": ids, "id_reused": key in ids_read or ids in before}
            ids_read.add(key)
            records.add(call)
        yield payload
