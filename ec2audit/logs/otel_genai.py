"""OpenTelemetry GenAI spans: OTLP JSON (one export or JSON Lines, as the file exporter and the
collector's file exporter write them) and the Python SDK's console exporter (one pretty-printed span
after another).

A span is a model call when its `gen_ai.operation.name` is a chat or completion (or, without one, it
names a model or provider), or when OpenInference marks it `LLM`. Its request is read from, in order:
`gen_ai.system_instructions` + `gen_ai.input.messages` (attributes, or the attributes of the
`gen_ai.client.inference.operation.details` event), the older per-message events
(`gen_ai.user.message` …, also as Pydantic AI's JSON attribute `events`) or `gen_ai.content.prompt`
event, the Vercel AI SDK's `ai.prompt.messages` (on its `ai.*.doGenerate` / `doStream` spans), the
older flattened `gen_ai.prompt.N.*` keys (OpenLLMetry), OpenInference's `llm.input_messages.N.*`, or
its `input.value`. A span that captured no content is a call with no text, not an error. Provider:
`gen_ai.provider.name`, else `gen_ai.system`, `llm.provider`, `llm.system`; `server.address` and
`server.port` give the side.

Instrumentations that capture content as log events (opentelemetry-instrumentation-openai-v2 and the
other GenAI instrumentations under the Events API: `gen_ai.user.message` … log records) write them beside
the spans, in the same file when one exporter serves both signals (the SDK's console exporters, the
collector's file exporter in both pipelines): each such record is read as an event of the span it names
(`spanId` / `span_id`). A GenAI record whose span is not in the file is named, never dropped silently.

Each call's `meta` also carries its span's `trace_id` and `span_id` (lowercase hex, `0x` dropped; None
when the file's id is not one), so an exported leak span joins the agent's trace under that call.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from ec2audit.console import plural
from ec2audit.intercept.usage import service_tier
from ec2audit.logs.base import OnError, make_payload, normalize_usage, open_log, outline
from ec2audit.logs.messages import normalize, sources
from ec2audit.payloads import Payload, detect_api, flatten, is_request_body

name = "otel-genai"
_CALL_OPERATIONS = frozenset({"chat", "text_completion", "generate_content", "completion", "responses"})
_NOT_CALLS = frozenset({"invoke_agent", "create_agent", "execute_tool", "embeddings"})
_OLD_EVENTS = {"gen_ai.system.message": "system", "gen_ai.user.message": "user",
               "gen_ai.assistant.message": "assistant", "gen_ai.tool.message": "tool"}
_INDEXED = re.compile(r"^(?:gen_ai\.prompt|llm\.input_messages)\.(\d+)\.(?:message\.)?(.+)$")


#: The keys of a span as the Python SDK's console exporter prints it, all of them.
_CONSOLE_SPAN = frozenset({"name", "context", "kind", "parent_id", "start_time", "end_time", "status", "attributes",
                           "events", "links", "resource"})


def sniff(path: Path, head: bytes) -> bool:
    """An OTLP export (traces or logs) or the SDK console exporter's spans, whatever the first spans
    are: a service's file often starts with HTTP or database spans, its model calls further on. A
    looser shape (`context` and `attributes`, a record's `span_id` and `body`) needs a GenAI or
    OpenInference attribute in the head."""
    if (b'"resourceSpans"' in head or b'"resourceLogs"' in head or b'"parent_id"' in head) and (
            {"resourceSpans", "resourceLogs"} & (keys := outline(head)) or _CONSOLE_SPAN <= keys):
        return True
    if b'"gen_ai.' not in head and b'"llm.' not in head and b"openinference" not in head:
        return False
    keys = outline(head)
    return {"context", "attributes"} <= keys or {"span_id", "body", "attributes"} <= keys


def _value(value):
    """An OTLP `AnyValue` as plain data."""
    if not isinstance(value, dict):
        return value
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        return int(value["intValue"])
    if "arrayValue" in value:
        return [_value(v) for v in (value["arrayValue"] or {}).get("values") or []]
    if "kvlistValue" in value:
        return _attributes((value["kvlistValue"] or {}).get("values") or [])
    return None


def _attributes(attributes) -> dict:
    if isinstance(attributes, dict):
        return attributes
    return {a["key"]: _value(a.get("value")) for a in attributes or [] if isinstance(a, dict) and "key" in a}


def _json(value):
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def _first(part: dict, *keys):
    return next((part[k] for k in keys if part.get(k) is not None), None)


def _from_parts(message: dict, parts: list) -> list[dict]:
    """A message of typed parts in the OpenAI shape: the semantic conventions' `parts` (`text`,
    `tool_call`, `tool_call_response`) or the Vercel AI SDK's `content` (`text`, `reasoning`,
    `tool-call` with `args` / `input`, `tool-result` with `result` / `output`)."""
    text, calls, results = [], [], []
    for part in parts:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind in ("tool_call", "tool-call"):
            calls.append({"id": _first(part, "id", "toolCallId"), "function": {
                "name": _first(part, "name", "toolName"), "arguments": _first(part, "arguments", "args", "input")}})
        elif kind in ("tool_call_response", "tool-result"):
            output = _first(part, "response", "result", "output")
            if kind == "tool-result" and isinstance(output, dict) and "value" in output:  # AI SDK 5
                output = output["value"]
            results.append({"role": "tool", "tool_call_id": _first(part, "id", "toolCallId"), "content": _text(output)})
        elif isinstance(_first(part, "content", "text"), str):
            text.append(_first(part, "content", "text"))
    out = [normalize({"role": message.get("role", "user"), "content": "\n".join(text) or None,
                      "tool_calls": calls})] if text or calls else []
    return out + [normalize(r) for r in results]


def _text(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _indexed(attrs: dict) -> list[dict]:
    """Messages from flattened `gen_ai.prompt.N.*` or `llm.input_messages.N.message.*` keys."""
    by_index: dict[int, dict] = {}
    for key, value in attrs.items():
        match = _INDEXED.match(key)
        if not match:
            continue
        message = by_index.setdefault(int(match[1]), {"tool_calls": {}})
        field = match[2]
        call = re.match(r"tool_calls\.(\d+)\.(?:tool_call\.)?(?:function\.)?(\w+)$", field)
        if call:
            message["tool_calls"].setdefault(call[1], {})[call[2]] = value
        elif field.startswith("contents.") and field.endswith(".text"):
            message["content"] = f"{message.get('content') or ''}{value}"
        elif field in ("role", "content", "tool_call_id", "name"):
            message[field] = value
    out = []
    for _, message in sorted(by_index.items()):
        calls = [{"id": c.get("id"), "name": c.get("name"), "arguments": c.get("arguments")}
                 for _, c in sorted(message.pop("tool_calls").items())]
        out.append(normalize({**message, "tool_calls": calls}))
    return out


def _messages(attrs: dict, events: list[dict]) -> list[dict]:
    details = next((_attributes(e.get("attributes")) for e in events
                    if e.get("name") == "gen_ai.client.inference.operation.details"), {})
    for source in (attrs, details):
        inputs = _json(source.get("gen_ai.input.messages"))
        if isinstance(inputs, list):
            system = _json(source.get("gen_ai.system_instructions"))
            out = [normalize({"role": "system", "content": "\n".join(
                p.get("content", "") for p in system if isinstance(p, dict)) if isinstance(system, list)
                else _text(system)})] if system else []
            for message in inputs:
                if isinstance(message, dict):
                    out += (_from_parts(message, message.get("parts") or []) if "parts" in message
                            else [normalize(message)])
            return out
    old = []
    for event in events:
        event_attrs = _attributes(event.get("attributes"))
        if event.get("name") in _OLD_EVENTS:
            body = _json(event_attrs.get("content", event_attrs.get("body", event.get("body"))))
            body = body if isinstance(body, dict) else {"content": body}
            old.append(normalize({"role": _OLD_EVENTS[event["name"]], **body}))
        elif event.get("name") == "gen_ai.content.prompt":
            prompt = _json(event_attrs.get("gen_ai.prompt"))
            old += [normalize(m) for m in prompt if isinstance(m, dict)] if isinstance(prompt, list) else []
    if old:
        return old
    ai_sdk = _json(attrs.get("ai.prompt.messages"))
    if isinstance(ai_sdk, list):
        return [m for message in ai_sdk if isinstance(message, dict) for m in (
            _from_parts(message, message["content"]) if isinstance(message.get("content"), list)
            else [normalize(message)])]
    return _indexed(attrs)


def _body(attrs: dict, events: list[dict]) -> dict:
    messages = _messages(attrs, events)
    if messages:
        return {"messages": messages}
    value = _json(attrs.get("input.value"))
    if is_request_body(value):
        return value
    return {"messages": [{"role": "user", "content": _text(value)}]} if value else {"messages": []}


def is_call(attrs: dict) -> bool:
    """Whether a span is a model call (also read by `phoenix_spans`)."""
    operation = attrs.get("gen_ai.operation.name")
    if operation:
        return operation in _CALL_OPERATIONS
    kind = attrs.get("openinference.span.kind")
    if kind:
        return str(kind).upper() == "LLM"
    return any(k in attrs for k in ("gen_ai.request.model", "gen_ai.provider.name", "gen_ai.system"))


def _time(span: dict) -> str | None:
    nanos = span.get("startTimeUnixNano")
    if nanos:
        return datetime.fromtimestamp(int(nanos) / 1e9, UTC).isoformat()
    return span.get("start_time")


def _spans(document) -> Iterator[dict]:
    """The spans of an OTLP export, or the one span the console exporter printed."""
    if not isinstance(document, dict):
        return
    if "resourceSpans" in document:
        for resource_spans in document.get("resourceSpans") or []:
            for scope in resource_spans.get("scopeSpans") or resource_spans.get("instrumentationLibrarySpans") or []:
                yield from (s for s in scope.get("spans") or [] if isinstance(s, dict))
    elif "context" in document:
        yield document


def _span_id(value) -> str:
    """A span id as OTLP JSON (hex) and the console exporter (`0x` + hex) write it, in one spelling."""
    return str(value or "").lower().removeprefix("0x")


def _hex_id(value, digits: int) -> str | None:
    """A trace id (32 hex digits) or span id (16) in one spelling (`_span_id`); None for what is no
    such id (a made-up `a1`, all zeros), which no exported span could name as its parent."""
    text = _span_id(value)
    return text if re.fullmatch(f"[0-9a-f]{{{digits}}}", text) and text.strip("0") else None


def _log_events(document) -> Iterator[tuple[str, dict]]:
    """The GenAI log records of an OTLP logs export, or the one record the console exporter printed,
    each as (its span's id, a span event)."""
    if not isinstance(document, dict):
        return
    if "resourceLogs" in document:
        records = [(r, True) for resource_logs in document.get("resourceLogs") or []
                   for scope in resource_logs.get("scopeLogs") or [] for r in scope.get("logRecords") or []
                   if isinstance(r, dict)]
    elif "span_id" in document and "body" in document and "context" not in document:
        records = [(document, False)]
    else:
        return
    for record, otlp in records:
        attrs = _attributes(record.get("attributes"))
        event = record.get("eventName") or record.get("event_name") or attrs.get("event.name")
        if isinstance(event, str) and event.startswith("gen_ai."):
            body = _value(record.get("body")) if otlp else record.get("body")
            yield (_span_id(record.get("spanId") or record.get("span_id")),
                   {"name": event, "attributes": attrs, "body": body})


def _logged_events(path: Path) -> dict[str, list[dict]]:
    """Every GenAI log record in the file, by the id of its span: a first pass, made only when the file
    holds log records at all (OTLP `resourceLogs` or the console exporter's `observed_timestamp`)."""
    import ijson

    markers = (b'"resourceLogs"', b'"observed_timestamp"')
    with path.open("rb") as handle:
        tail = b""
        while chunk := handle.read(1 << 20):
            if any(m in tail + chunk for m in markers):
                break
            tail = chunk[-32:]
        else:
            return {}
        handle.seek(0)
        events: dict[str, list[dict]] = {}
        try:
            for document in ijson.items(handle, "", multiple_values=True, use_float=True):
                for span_id, event in _log_events(document):
                    events.setdefault(span_id, []).append(event)
        except ijson.JSONError:
            pass  # the second pass names where the JSON breaks
    return events


def _events_attribute(attrs: dict) -> list[dict]:
    """Pydantic AI's events as one JSON span attribute `events` (its default `event_mode='attributes'`
    before the `gen_ai.input.messages` version): each a log event's body and attributes in one object,
    named by `event.name` or else by its `role`."""
    listed = _json(attrs.get("events"))
    if not isinstance(listed, list):
        return []
    return [{"name": e.get("event.name") or f"gen_ai.{e.get('role')}.message", "attributes": {}, "body": e}
            for e in listed if isinstance(e, dict) and (e.get("event.name") or e.get("role"))]


#: Prompt tokens read from and written to the provider's cache, part of the input tokens: the GenAI
#: conventions' attributes (current, then OpenLLMetry's older names), OpenInference's and the Vercel AI SDK's
#: (6 and later: its `gen_ai.usage.input_tokens` the whole prompt, `inputTokens.total`; not AI SDK 5's
#: `ai.usage.cachedInputTokens`, outside the input tokens of some of its providers, Anthropic's).
_CACHE = {"cached_tokens": ("gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_read_input_tokens",
                            "llm.token_count.prompt_details.cache_read", "ai.usage.inputTokenDetails.cacheReadTokens"),
          "cache_write_tokens": ("gen_ai.usage.cache_creation.input_tokens", "gen_ai.usage.cache_creation_input_tokens",
                                 "llm.token_count.prompt_details.cache_write",
                                 "ai.usage.inputTokenDetails.cacheWriteTokens")}


#: The Vercel AI SDK 5's providers whose `gen_ai.usage.input_tokens` leaves the cache out (Anthropic's
#: `input_tokens`, Bedrock Converse's `inputTokens`); its other providers' count it (OpenAI's, Google's).
_CACHE_OUTSIDE = ("anthropic", "amazon-bedrock")


#: Where the AI SDK 5's provider metadata holds the tokens written to the cache: Anthropic's, Bedrock's.
_CACHE_WRITTEN = (("anthropic", "cacheCreationInputTokens"), ("bedrock", "usage", "cacheWriteInputTokens"))


def _dig(value: object, keys: tuple[str, ...]) -> object:
    """`value[k1][k2]…`, or None where a level is no object."""
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _ai_sdk_5_cache(attrs: dict, usage: dict, cache: dict) -> None:
    """The Vercel AI SDK 5's cache reads (`ai.usage.cachedInputTokens`; AI SDK 6 names them apart,
    `inputTokenDetails`, read with `_CACHE`) into `cache`, and, where its provider leaves them out of the input
    tokens, into `usage`'s prompt with the tokens written to the cache (its provider metadata's: Anthropic's
    `anthropic.cacheCreationInputTokens`, Bedrock's `bedrock.usage.cacheWriteInputTokens`)."""
    read = attrs.get("ai.usage.cachedInputTokens")
    if not isinstance(read, int) or "ai.usage.inputTokenDetails.cacheReadTokens" in attrs or any(cache.values()):
        return
    cache["cached_tokens"] = read
    if str(attrs.get("gen_ai.system") or "").startswith(_CACHE_OUTSIDE):
        metadata = _json(attrs.get("ai.response.providerMetadata"))
        written = next((found for keys in _CACHE_WRITTEN if isinstance(found := _dig(metadata, keys), int)), 0)
        cache["cache_write_tokens"] = written
        usage["prompt_tokens"] = usage.get("prompt_tokens", 0) + read + cache["cache_write_tokens"]


#: The OpenAI service tier of a call, the one that served it, then the one asked: the conventions' attributes
#: (current, then their older `gen_ai.openai.*` names).
_TIERS = ("openai.response.service_tier", "gen_ai.openai.response.service_tier", "openai.request.service_tier",
          "gen_ai.openai.request.service_tier")


def span_payload(span: dict, path: Path, number: int, logged: dict[str, list[dict]]) -> Payload:
    """A model-call span's call (also of a Phoenix table's row, `phoenix_spans`); `logged`: its log records."""
    attrs = _attributes(span.get("attributes"))
    span_id = _span_id(span.get("spanId") or (span.get("context") or {}).get("span_id"))
    events = ([e for e in span.get("events") or [] if isinstance(e, dict)] + logged.pop(span_id, [])
              + _events_attribute(attrs))
    body = _body(attrs, events)
    api = detect_api(body)
    context = span.get("context") or {}
    trace = span.get("traceId") or context.get("trace_id")
    session = str(attrs.get("gen_ai.conversation.id") or attrs.get("session.id") or trace or "trace")
    host, port = attrs.get("server.address"), attrs.get("server.port")
    usage = {"prompt_tokens": attrs.get("gen_ai.usage.input_tokens", attrs.get(
                 "gen_ai.usage.prompt_tokens", attrs.get("llm.token_count.prompt"))),
             "completion_tokens": attrs.get("gen_ai.usage.output_tokens", attrs.get(
                 "gen_ai.usage.completion_tokens", attrs.get("llm.token_count.completion")))}
    usage = {k: v for k, v in usage.items() if isinstance(v, int)}
    cache = {key: next((attrs[n] for n in names if isinstance(attrs.get(n), int)), 0) for key, names in _CACHE.items()}
    if usage:
        _ai_sdk_5_cache(attrs, usage, cache)
    if usage and any(cache.values()):  # within the input tokens, as the conventions count them
        usage |= {"prompt_tokens": usage.get("prompt_tokens", 0), "prompt_tokens_details": cache}
    segments = flatten(body, api)
    payload = make_payload(
        pid=str(span.get("spanId") or context.get("span_id") or f"{path.name}:{number}"), segments=segments,
        session=session, step=number, api=api, line=number, path=path,
        provider=attrs.get("gen_ai.provider.name") or attrs.get("gen_ai.system") or attrs.get("llm.provider")
        or attrs.get("llm.system"),
        model=attrs.get("gen_ai.request.model") or attrs.get("gen_ai.response.model") or attrs.get("llm.model_name"),
        base_url=f"{host}:{port}" if host and port else host, timestamp=_time(span),
        usage=normalize_usage(usage, service_tier(*({"service_tier": attrs.get(n)} for n in _TIERS)))
        if usage else None,
        messages=sources(body["messages"]) if api == "openai-chat" else {})
    payload.meta |= {"trace_id": _hex_id(trace, 32), "span_id": _hex_id(span_id, 16)}
    if payload.meta["trace_id"] and payload.meta["span_id"]:  # a span exported twice is one call
        payload.meta["call_id"] = f"otel:{payload.meta['trace_id']}:{payload.meta['span_id']}"
    return payload


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    import ijson

    from ec2audit.errors import InputError

    number = 0
    steps: Counter = Counter()
    logged = _logged_events(path)
    with open_log(path) as handle:
        try:
            for document in ijson.items(handle, "", multiple_values=True, use_float=True):
                spans = list(_spans(document))
                for span in spans:  # the records of a span that is no model call (an agent's) are no call's
                    if not is_call(_attributes(span.get("attributes"))):
                        logged.pop(_span_id(span.get("spanId") or (span.get("context") or {}).get("span_id")), None)
                calls = [s for s in spans if is_call(_attributes(s.get("attributes")))]
                for span in sorted(calls, key=lambda s: str(_time(s) or "")):
                    number += 1
                    payload = span_payload(span, path, number, logged)
                    steps[payload.episode] += 1
                    payload.meta["step"] = steps[payload.episode]
                    yield payload
        except ijson.JSONError as exc:
            on_error(InputError(f"not valid JSON after {plural(number, 'call')}, rest skipped ({exc})", file=str(path)))
            return
    orphans = sum(map(len, logged.values()))
    if orphans:
        on_error(InputError(
            f"{plural(orphans, 'GenAI log record')} "
            f"({', '.join(sorted({e['name'] for es in logged.values() for e in es}))}) "
            f"belong to no span in this file, not read: export the spans to the same file "
            f"(one exporter for traces and logs)", file=str(path)))
