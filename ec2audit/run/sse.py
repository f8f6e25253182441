"""OpenAI chat-completions wire format: one assistant message as a JSON body or as SSE chunks.

OpenClaw always asks with `stream: true` and `stream_options.include_usage`, so everything we serve
to it (the gateway, the oracle stand-in) speaks SSE; upstream calls are made without streaming and
read back with `message_of`.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator


def completion_json(message: dict, usage: dict, model: str, created: int | None = None) -> dict:
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return {"id": f"chatcmpl-{uuid.uuid4().hex[:16]}", "object": "chat.completion",
            "created": created or int(time.time()), "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage}


def sse_chunks(message: dict, usage: dict, model: str) -> Iterator[bytes]:
    """The message as a content chunk and/or one chunk per tool call, a finish chunk, then usage."""
    base = {"id": f"chatcmpl-{uuid.uuid4().hex[:16]}", "object": "chat.completion.chunk",
            "created": int(time.time()), "model": model}

    def event(choices: list, **extra) -> bytes:
        return b"data: " + json.dumps({**base, "choices": choices, **extra}, ensure_ascii=False).encode() + b"\n\n"

    if message.get("content"):
        yield event([{"index": 0, "delta": {"role": "assistant", "content": message["content"]},
                      "finish_reason": None}])
    for i, call in enumerate(message.get("tool_calls") or []):
        yield event([{"index": 0, "delta": {"role": "assistant", "tool_calls": [{"index": i, **call}]},
                      "finish_reason": None}])
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    yield event([{"index": 0, "delta": {}, "finish_reason": finish}])
    yield event([], usage=usage)
    yield b"data: [DONE]\n\n"


def message_of(response: dict) -> dict:
    """The assistant message of a non-streamed completion (empty content when there is none)."""
    choices = response.get("choices") or [{}]
    message = dict(choices[0].get("message") or {})
    message.setdefault("role", "assistant")
    return message


def usage_of(response: dict) -> tuple[int, int, int]:
    """(input, cached input, output) tokens of a completion's `usage`."""
    usage = response.get("usage") or {}
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0
    return int(usage.get("prompt_tokens") or 0), int(cached), int(usage.get("completion_tokens") or 0)
