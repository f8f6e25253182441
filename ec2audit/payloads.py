"""Payloads: what the edge side sends to the cloud in one request, flattened into text segments.

Request bodies of the OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini
generateContent and Bedrock Converse APIs all become `(message_index, role, origin, text)` segments,
tool-call arguments and tool results included, so every detector reads one shape whatever the API.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ec2audit.errors import InputError

ORIGINS = ("system", "user", "assistant", "tool_call_args", "tool_result")


@dataclass(frozen=True, slots=True)
class Segment:
    message_index: int
    role: str
    origin: str
    text: str


@dataclass
class Payload:
    id: str
    segments: list[Segment]
    api: str = "openai-chat"
    model: str | None = None
    task_id: str | None = None
    episode: str | None = None
    meta: dict = field(default_factory=dict)

    @property
    def size(self) -> int:
        return sum(len(s.text) for s in self.segments)


def _json_text(value) -> str:
    """Tool arguments as the model reads them; JSON escapes (\\u5f20) decoded so values show."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (json.JSONDecodeError, ValueError):
            return value
        if isinstance(value, str):
            return value
    return json.dumps(value, ensure_ascii=False)


def _content_texts(content) -> Iterator[str]:
    """Text of string or list content (text / input_text / output_text parts; images skipped), and of
    content holding `parts` (ChatGPT's web app: `{"content_type": "text", "parts": ["…"]}`)."""
    if content is None:
        return
    if isinstance(content, str):
        yield content
        return
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        yield json.dumps(content, ensure_ascii=False)
        return
    for part in content:
        if isinstance(part, str):
            yield part
        elif isinstance(part, dict):
            if isinstance(part.get("text"), str):
                yield part["text"]
            elif isinstance(part.get("parts"), list):
                yield from _content_texts(part["parts"])
            elif part.get("type") in ("document", "search_result"):
                yield from _attached_texts(part)
            elif part.get("type") == "refusal" and isinstance(part.get("refusal"), str):
                yield part["refusal"]


def _attached_texts(block: dict) -> Iterator[str]:
    """What an Anthropic `document` (a text or content source; a PDF's base64 is no text) or
    `search_result` block hands the model: its title, context and text."""
    for key in ("title", "context"):
        if isinstance(block.get(key), str):
            yield block[key]
    source = block.get("source")
    if isinstance(source, dict) and source.get("type") == "text" and isinstance(source.get("data"), str):
        yield source["data"]
    elif isinstance(source, dict) and source.get("type") == "content":
        yield from _content_texts(source.get("content"))
    yield from _content_texts(block.get("content") if block.get("type") == "search_result" else None)


def _openai_chat(body: dict) -> Iterator[Segment]:
    for i, msg in enumerate(body.get("messages") or []):
        if not isinstance(msg, dict):
            continue
        author: dict = msg["author"] if isinstance(msg.get("author"), dict) else {}  # ChatGPT's web app
        role = str(msg.get("role") or author.get("role") or "user")
        origin = {"system": "system", "developer": "system", "assistant": "assistant",
                  "tool": "tool_result", "function": "tool_result"}.get(role, "user")
        for text in _content_texts(msg.get("content")):
            yield Segment(i, role, origin, text)
        for call in msg.get("tool_calls") or []:
            fn = (call or {}).get("function") or {}
            if "arguments" in fn:
                yield Segment(i, role, "tool_call_args", _json_text(fn["arguments"]))
        if isinstance(msg.get("function_call"), dict) and "arguments" in msg["function_call"]:
            yield Segment(i, role, "tool_call_args", _json_text(msg["function_call"]["arguments"]))


def _openai_responses(body: dict) -> Iterator[Segment]:
    if isinstance(body.get("instructions"), str):
        yield Segment(0, "system", "system", body["instructions"])
    items = body.get("input")
    if isinstance(items, str):
        yield Segment(1, "user", "user", items)
        return
    for i, item in enumerate(items or [], start=1):
        if not isinstance(item, dict):
            continue
        kind = item.get("type", "message")
        if kind == "function_call":
            yield Segment(i, "assistant", "tool_call_args", _json_text(item.get("arguments", "")))
        elif kind in ("function_call_output", "custom_tool_call_output", "computer_call_output"):
            for text in _content_texts(item.get("output")):
                yield Segment(i, "tool", "tool_result", text)
        elif kind == "custom_tool_call":
            yield Segment(i, "assistant", "tool_call_args", str(item.get("input", "")))
        elif kind == "message" or "role" in item:
            role = str(item.get("role", "user"))
            origin = {"system": "system", "developer": "system", "assistant": "assistant"}.get(role, "user")
            for text in _content_texts(item.get("content")):
                yield Segment(i, role, origin, text)


def _anthropic(body: dict) -> Iterator[Segment]:
    for text in _content_texts(body.get("system")):
        yield Segment(0, "system", "system", text)
    for i, msg in enumerate(body.get("messages") or [], start=1):
        if not isinstance(msg, dict):
            continue
        role = str(msg.get("role", "user"))
        content = msg.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        for block in blocks:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "text":
                yield Segment(i, role, "assistant" if role == "assistant" else "user", str(block.get("text", "")))
            elif kind in ("tool_use", "server_tool_use"):
                yield Segment(i, role, "tool_call_args", _json_text(block.get("input", {})))
            elif kind == "tool_result":
                for text in _content_texts(block.get("content")):
                    yield Segment(i, role, "tool_result", text)
            elif kind in ("document", "search_result"):
                for text in _attached_texts(block):
                    yield Segment(i, role, "user", text)
            elif kind == "thinking" and isinstance(block.get("thinking"), str):
                yield Segment(i, role, "assistant", block["thinking"])


def _gemini(body: dict) -> Iterator[Segment]:
    """Gemini's `generateContent` body: `systemInstruction` (or `system_instruction`) and `contents` of
    `parts` — text, a model's `functionCall` arguments, a `functionResponse` (the tool's result)."""
    system = body.get("systemInstruction") or body.get("system_instruction")
    for part in system.get("parts") or [] if isinstance(system, dict) else []:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            yield Segment(0, "system", "system", part["text"])
    for i, content in enumerate(body.get("contents") or [], start=1):
        if not isinstance(content, dict):
            continue
        role = str(content.get("role") or "user")
        for part in content.get("parts") or []:
            if not isinstance(part, dict):
                continue
            call, result = part.get("functionCall") or part.get("function_call"), \
                part.get("functionResponse") or part.get("function_response")
            if isinstance(part.get("text"), str):
                yield Segment(i, role, "assistant" if role == "model" else "user", part["text"])
            elif isinstance(call, dict):
                yield Segment(i, role, "tool_call_args", _json_text(call.get("args", {})))
            elif isinstance(result, dict):
                yield Segment(i, role, "tool_result", _json_text(result.get("response", {})))


def _converse_texts(blocks) -> Iterator[str]:
    """Texts of Bedrock Converse content blocks (`{"text"}`, `{"json"}` in a tool result)."""
    for block in blocks if isinstance(blocks, list) else []:
        if isinstance(block, dict) and isinstance(block.get("text"), str):
            yield block["text"]
        elif isinstance(block, dict) and "json" in block:
            yield _json_text(block["json"])


def _converse(body: dict) -> Iterator[Segment]:
    """Bedrock's Converse body: `system` and each message's `content` as blocks keyed by kind, no `type`:
    `{"text"}`, `{"toolUse": {"input"}}` (the model's call), `{"toolResult": {"content"}}` (the tool's output)."""
    for text in _converse_texts(body.get("system")):
        yield Segment(0, "system", "system", text)
    for i, msg in enumerate(body.get("messages") or [], start=1):
        if not isinstance(msg, dict):
            continue
        role = str(msg.get("role", "user"))
        blocks: list = msg["content"] if isinstance(msg.get("content"), list) else []
        for block in blocks:
            if not isinstance(block, dict):
                continue
            if isinstance(block.get("text"), str):
                yield Segment(i, role, "assistant" if role == "assistant" else "user", block["text"])
            elif isinstance(block.get("toolUse"), dict):
                yield Segment(i, role, "tool_call_args", _json_text(block["toolUse"].get("input", {})))
            elif isinstance(block.get("toolResult"), dict):
                for text in _converse_texts(block["toolResult"].get("content")):
                    yield Segment(i, role, "tool_result", text)


def _is_converse(body: dict) -> bool:
    """Converse's blocks carry no `type` (`{"text": …}`, `{"toolUse": …}`), OpenAI's and Anthropic's always do."""
    blocks = [b for m in body.get("messages") or [] if isinstance(m, dict) and isinstance(m.get("content"), list)
              for b in m["content"] if isinstance(b, dict)]
    return "inferenceConfig" in body or bool(blocks) and not any("type" in b for b in blocks)


def _prompts(value) -> Iterator[str]:
    """Strings of a `prompt` / `input` that is a string or a list of them (token arrays carry no text)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, str):
                yield item
            elif isinstance(item, dict):  # a moderation input part: {"type": "text", "text": ...}
                yield from _content_texts([item])


def _openai_completions(body: dict) -> Iterator[Segment]:
    for key in ("prompt", "suffix"):
        for text in _prompts(body.get(key)):
            yield Segment(0, "user", "user", text)


def _openai_embeddings(body: dict) -> Iterator[Segment]:
    for text in _prompts(body.get("input")):
        yield Segment(0, "user", "user", text)


def _strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def _generic(body: dict) -> Iterator[Segment]:
    """A body of an endpoint no reader knows: every string in it, as the user's."""
    for text in _strings(body):
        yield Segment(0, "user", "user", text)


def detect_api(body: dict) -> str:
    """Which API a request body belongs to, from its shape."""
    if "input" in body and "messages" not in body:
        return "openai-responses"
    if _gemini_contents(body):
        return "gemini"
    if _is_converse(body):
        return "bedrock-converse"
    if "system" in body or "anthropic_version" in body:
        return "anthropic-messages"
    for msg in body.get("messages") or []:
        content = msg.get("content") if isinstance(msg, dict) else None
        if isinstance(content, list) and any(
                isinstance(b, dict) and b.get("type") in ("tool_use", "tool_result") for b in content):
            return "anthropic-messages"
    return "openai-chat"


_FLATTENERS = {"openai-chat": _openai_chat, "openai-responses": _openai_responses,
               "anthropic-messages": _anthropic, "openai-completions": _openai_completions,
               "openai-embeddings": _openai_embeddings, "gemini": _gemini,
               "bedrock-converse": _converse, "generic": _generic,
               "ollama": _generic, "cohere": _generic, "gemini-files": _generic}  # the proxy's other roots' APIs


def flatten(body: dict, api: str | None = None) -> list[Segment]:
    """Segments of one request body; empty texts are dropped."""
    api = api or detect_api(body)
    return [s for s in _FLATTENERS[api](body) if s.text]


def _gemini_contents(body: dict) -> bool:
    """Gemini's `contents`: a list of `{role?, parts}` (a document's `contents` string is no request)."""
    contents = body.get("contents") if "messages" not in body else None
    return isinstance(contents, list) and bool(contents) and all(
        isinstance(c, dict) and isinstance(c.get("parts"), list) for c in contents)


def is_request_body(data) -> bool:
    return isinstance(data, dict) and ("messages" in data or "input" in data or _gemini_contents(data))


def payload_from_record(record: dict, default_id: str) -> Payload:
    """A payload from a request body, or from a record `{id?, task_id?, episode?, api?, headers?,
    request|body|input}`; a record naming its API (the interceptor's) is read as that API, its recorded
    request headers as the user's text; a log line wrapping its request under `input` (AceBench's host-side judge:
    `{type, input: {model, messages}, output}`) is read as that request."""
    body = record
    for key in ("request", "body", "input"):
        if is_request_body(record.get(key)) or (record.get("api") in _FLATTENERS and isinstance(record.get(key), dict)):
            body = record[key]
            break
    api = record.get("api") if body is not record and record.get("api") in _FLATTENERS else None
    if api is None and not is_request_body(body):
        raise InputError("no request body: expected 'messages', 'input' or 'contents', or a 'request'/'body' object",
                         field="request")
    meta: dict = body["metadata"] if isinstance(body.get("metadata"), dict) else {}
    pid = record.get("id") or meta.get("id") or record.get("episode_step") or default_id
    api = api or detect_api(body)
    segments = flatten(body, api)
    headers = record.get("headers") if body is not record else None
    if isinstance(headers, list):
        segments += [Segment(0, "header", "user", f"{h[0]}: {h[1]}") for h in headers
                     if isinstance(h, list) and len(h) == 2 and all(isinstance(x, str) for x in h)]
    return Payload(
        id=str(pid), segments=segments, api=api, model=body.get("model") or record.get("model"),
        task_id=record.get("task_id") or meta.get("task_id"),
        episode=record.get("episode") or meta.get("episode"),
    )


def iter_payloads(path: str | Path, on_error: Callable[[InputError], None] | None = None) -> Iterator[Payload]:
    """Payloads from a JSONL file; a bad line is reported to `on_error` (or raised) and skipped."""
    path = Path(path)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise InputError(f"cannot read payloads: {exc}", file=str(path)) from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                try:
                    record = json.loads(raw)
                except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                    raise InputError(f"not valid JSON ({exc})") from None
                if not isinstance(record, dict):
                    raise InputError("expected a JSON object")
                yield payload_from_record(record, f"{path.name}:{number}")
            except InputError as exc:
                error = InputError(exc.reason, file=str(path), line=number, field=exc.field)
                if on_error is None:
                    raise error from None
                on_error(error)
