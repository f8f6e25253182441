"""Streamed answers: split a byte stream into events as they arrive, and rebuild the full response.

Most APIs stream server-sent events; Ollama's native API streams NDJSON, one JSON object a line
(`application/x-ndjson`), each line an event here (`LineSplitter`). A splitter holds back only an event's
incomplete tail, so the proxy forwards each event the moment its last byte arrives. The assembler turns the events
of each API it knows (OpenAI Chat, Completions and Responses, Anthropic Messages, Gemini, Ollama) into the body the
non-streaming endpoint would have answered, for the record store and for usage.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

_BOUNDARY = re.compile(rb"\r\n\r\n|\n\n|\r\r")


@dataclass(slots=True)
class Event:
    raw: bytes  # the event's bytes including its terminating blank line, as received
    event: str | None
    data: str | None  # None: no data line (a `: keep-alive` comment, a `retry:`), relayed as it came


def parse_event(raw: bytes) -> Event:
    name, data = None, []
    for line in raw.decode("utf-8", "replace").splitlines():
        if line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif line.startswith("event:"):
            name = line[6:].strip()
    return Event(raw, name, "\n".join(data) if data else None)


class EventSplitter:
    """Feed bytes, get the complete events so far; `rest()` is an unterminated tail at stream end."""

    def __init__(self):
        self._buffer = b""

    def feed(self, chunk: bytes) -> list[Event]:
        self._buffer += chunk
        events, start = [], 0
        for match in _BOUNDARY.finditer(self._buffer):
            raw = self._buffer[start:match.end()]
            start = match.end()
            if raw.strip():
                events.append(parse_event(raw))
        self._buffer = self._buffer[start:]
        return events

    def rest(self) -> bytes:
        rest, self._buffer = self._buffer, b""
        return rest


class LineSplitter(EventSplitter):
    """An NDJSON stream's events: a line each, its text the event's data (a blank line has none)."""

    def feed(self, chunk: bytes) -> list[Event]:
        self._buffer += chunk
        *lines, self._buffer = self._buffer.split(b"\n")
        return [Event(line + b"\n", None, line.decode("utf-8", "replace").strip() or None) for line in lines]


#: Stream shapes whose API sends no end-of-stream marker (an unknown one's, Gemini's): the stream's clean
#: close ends the answer; a connection broken mid-stream is still an error.
ENDS_AT_CLOSE = frozenset({None, "gemini"})


def stream_error(data) -> str | None:
    """The message of an error the upstream sends as a stream's event: OpenAI's and Gemini's `{"error": {…}}`,
    Ollama's `{"error": "…"}` line, Anthropic's `error` event, the Responses API's `error` event and the error of its
    `response.failed`; None for any other event (a `null` error included)."""
    if not isinstance(data, dict):
        return None
    error = data.get("error")
    if error is None and data.get("type") == "error":
        error = data
    if error is None and isinstance(data.get("response"), dict):
        error = data["response"].get("error")
    if isinstance(error, dict):
        error = error.get("message") or json.dumps(error, ensure_ascii=False)
    return error[:300] if isinstance(error, str) and error else None


def _text_add(target: dict, key: str, piece) -> None:
    if isinstance(piece, str):
        target[key] = (target.get(key) or "") + piece


@dataclass
class Assembler:
    """Rebuilds the response body from parsed event payloads of one stream shape (`Dialect.stream`;
    None: a stream no assembler knows, recorded as its last event's payload)."""

    shape: str | None
    response: dict = field(default_factory=dict)
    usage: dict | None = None
    done: bool = False  # the API's own end-of-stream marker was seen
    _choices: dict[int, dict] = field(default_factory=dict)
    _blocks: dict[int, dict] = field(default_factory=dict)

    def add(self, data) -> None:
        """One event's decoded `data`."""
        if isinstance(data, dict):
            _ADD.get(self.shape or "", Assembler._last)(self, data)

    def _last(self, data: dict) -> None:
        self.response = data

    def _head(self, chunk: dict) -> None:
        for key in ("id", "model", "created", "system_fingerprint", "service_tier"):
            if key in chunk:
                self.response.setdefault(key, chunk[key])
        if isinstance(chunk.get("usage"), dict):
            self.usage = chunk["usage"]

    def _chat(self, chunk: dict) -> None:
        self._head(chunk)
        for choice in chunk.get("choices") or []:
            slot = self._choices.setdefault(choice.get("index", 0), {"message": {"role": "assistant"}})
            delta, message = choice.get("delta") or {}, slot["message"]
            _text_add(message, "content", delta.get("content"))
            _text_add(message, "reasoning_content", delta.get("reasoning_content"))
            for call in delta.get("tool_calls") or []:
                calls = message.setdefault("tool_calls", [])
                index = call.get("index", len(calls))
                while len(calls) <= index:
                    calls.append({"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
                target, fn = calls[index], call.get("function") or {}
                if call.get("id"):
                    target["id"] = call["id"]
                _text_add(target["function"], "name", fn.get("name"))
                _text_add(target["function"], "arguments", fn.get("arguments"))
            if choice.get("finish_reason"):
                slot["finish_reason"] = choice["finish_reason"]

    def _completions(self, chunk: dict) -> None:
        self._head(chunk)
        for choice in chunk.get("choices") or []:
            slot = self._choices.setdefault(choice.get("index", 0), {"text": ""})
            _text_add(slot, "text", choice.get("text"))
            if choice.get("finish_reason"):
                slot["finish_reason"] = choice["finish_reason"]

    def _anthropic(self, data: dict) -> None:
        kind = data.get("type")
        if kind == "message_start" and isinstance(data.get("message"), dict):
            self.response = dict(data["message"])
            self.usage = dict(self.response.get("usage") or {})
        elif kind == "content_block_start":
            self._blocks[data.get("index", len(self._blocks))] = dict(data.get("content_block") or {})
        elif kind == "content_block_delta":
            block, delta = self._blocks.setdefault(data.get("index", 0), {}), data.get("delta") or {}
            for key, target in (("text", "text"), ("partial_json", "_json"), ("thinking", "thinking")):
                _text_add(block, target, delta.get(key))
        elif kind == "message_delta":
            self.response.update(data.get("delta") or {})
            # cumulative counts; a field sent as null (gateways do) keeps message_start's count
            later = {k: v for k, v in (data.get("usage") or {}).items() if v is not None}
            self.usage = {**(self.usage or {}), **later}
        elif kind == "message_stop":
            self.done = True

    def _responses(self, data: dict) -> None:
        if data.get("type") in ("response.completed", "response.incomplete", "response.failed"):
            self.response = data.get("response") or {}
            self.usage = self.response.get("usage")
            self.done = True

    def _gemini(self, chunk: dict) -> None:
        """A `GenerateContentResponse` chunk: each candidate's text parts appended, its other parts (function
        calls) kept; the usage is the last chunk's (Gemini's counts are running totals)."""
        for key in ("responseId", "modelVersion", "createTime"):
            if key in chunk:
                self.response.setdefault(key, chunk[key])
        if isinstance(chunk.get("usageMetadata"), dict):
            self.usage = chunk["usageMetadata"]
        for candidate in chunk.get("candidates") or []:
            slot = self._choices.setdefault(candidate.get("index", 0), {"content": {"role": "model", "parts": []}})
            parts = slot["content"]["parts"]
            for part in (candidate.get("content") or {}).get("parts") or []:
                if isinstance(part.get("text"), str) and parts and set(parts[-1]) == set(part) == {"text"}:
                    parts[-1]["text"] += part["text"]
                else:
                    parts.append(dict(part))
            slot.update({k: v for k, v in candidate.items() if k not in ("content", "index")})

    def _ollama(self, line: dict) -> None:
        """An Ollama NDJSON line: a chat's `message` text and thinking appended, its tool calls kept, a generate's
        `response` and `thinking` appended; the `done` line brings the counts (`prompt_eval_count`, `eval_count`)."""
        message = line.get("message")
        if isinstance(message, dict):
            whole = self.response.setdefault("message", {"role": message.get("role", "assistant")})
            _text_add(whole, "content", message.get("content"))
            _text_add(whole, "thinking", message.get("thinking"))
            if isinstance(message.get("tool_calls"), list):
                whole.setdefault("tool_calls", []).extend(message["tool_calls"])
        _text_add(self.response, "response", line.get("response"))
        _text_add(self.response, "thinking", line.get("thinking"))
        self.response.update({k: v for k, v in line.items() if k not in ("message", "response", "thinking")})
        self.done = line.get("done") is True

    def result(self) -> dict:
        """The reassembled body (partial when the stream broke off)."""
        if self.shape in ("chat", "completions"):
            body = {**self.response, "object": "chat.completion" if self.shape == "chat" else "text_completion",
                    "choices": [{"index": i, **c} for i, c in sorted(self._choices.items())]}
            if self.usage is not None:
                body["usage"] = self.usage
            return body
        if self.shape == "anthropic":
            blocks = []
            for _, block in sorted(self._blocks.items()):
                block = dict(block)
                if "_json" in block:
                    raw = block.pop("_json")
                    try:
                        block["input"] = json.loads(raw) if raw else {}
                    except json.JSONDecodeError:
                        block["input"] = raw
                blocks.append(block)
            return {**self.response, "content": blocks, "usage": self.usage}
        if self.shape == "gemini":
            body = {"candidates": [{"index": i, **c} for i, c in sorted(self._choices.items())], **self.response}
            return body | ({"usageMetadata": self.usage} if self.usage is not None else {})
        return self.response


#: Stream shape (`dialects.STREAM_SHAPES`) → how its events are assembled.
_ADD = {"chat": Assembler._chat, "completions": Assembler._completions, "anthropic": Assembler._anthropic,
        "responses": Assembler._responses, "gemini": Assembler._gemini, "ollama": Assembler._ollama}
