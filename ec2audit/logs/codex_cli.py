"""Codex CLI session rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`).

Each line is `{timestamp, type, payload}`: `session_meta` (the session's id and model provider: `--oss`'s
built-in `oss` is Ollama on this machine, named so),
`turn_context` (the turn's model), `response_item`s (the conversation: messages, function, custom and shell
tool calls, their outputs, reasoning) and `event_msg`s, of which only `token_count` is read: each model
response's usage (`info.last_token_usage`; its `output_tokens` hold the reasoning's). The request is not
logged: a model response (the assistant items in a row) is one call whose request is every item before it,
and the `token_count` after it (before or after its tools' outputs) gives its tokens. The other events repeat
the items (`user_message`, `agent_message`) and are passed over.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs.base import OnError, first_record, read_jsonl
from ec2audit.logs.messages import conversation_calls
from ec2audit.payloads import Payload

name = "codex-cli"
_TYPES = {"session_meta", "response_item", "turn_context", "event_msg", "compacted"}
_CALLS = {"function_call", "custom_tool_call", "local_shell_call"}
_OUTPUTS = {"function_call_output", "custom_tool_call_output", "local_shell_call_output"}
#: Codex's built-in providers named for what serves them: `oss` (`codex --oss`) is Ollama on localhost:11434.
_BUILT_IN = {"oss": "ollama"}


def sniff(path: Path, head: bytes) -> bool:
    record = first_record(head)
    return record is not None and record.get("type") in _TYPES and isinstance(record.get("payload"), dict)


def _text(content) -> str:
    if isinstance(content, list):
        return "\n".join(str(c.get("text") or "") for c in content if isinstance(c, dict))
    return content if isinstance(content, str) else json.dumps(content)


def _usage(info) -> dict | None:
    """`last_token_usage` in the Responses API's shape (cached input inside the input)."""
    last = info.get("last_token_usage") if isinstance(info, dict) else None
    if not isinstance(last, dict):
        return None
    return {"input_tokens": last.get("input_tokens") or 0, "output_tokens": last.get("output_tokens") or 0,
            "input_tokens_details": {"cached_tokens": last.get("cached_input_tokens") or 0}}


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    session, provider, model = path.stem.removeprefix("rollout-"), "openai", None
    messages: list[dict] = []
    for number, record in read_jsonl(path, on_error):
        kind, item = record.get("type"), record.get("payload")
        if not isinstance(item, dict):
            on_error(InputError("no payload object", file=str(path), line=number, field="payload"))
            continue
        if kind == "session_meta":
            session, provider = str(item.get("id") or session), str(item.get("model_provider") or provider)
            provider = _BUILT_IN.get(provider, provider)
        elif kind == "turn_context":
            model = item.get("model") or model
        elif kind == "event_msg" and item.get("type") == "token_count":
            # after its response, before or after the outputs of the tools it called
            usage, last = _usage(item.get("info")), next((m for m in reversed(messages) if m["role"] == "assistant"),
                                                          None)
            if usage and last is not None and "usage" not in last:
                last["usage"] = usage
        elif kind == "response_item":
            _add(messages, item, record.get("timestamp"), model)
    yield from conversation_calls(messages, session=session, path=path, line=None, provider=provider, model=model)


def _add(messages: list[dict], item: dict, timestamp, model: str | None) -> None:
    """One response item into the OpenAI Chat shape: a response's items in a row are one assistant message."""
    kind, role = item.get("type"), item.get("role")
    if kind in _CALLS or (kind == "message" and role == "assistant"):
        last = messages[-1] if messages else None
        if last is None or last["role"] != "assistant" or "usage" in last:
            last = {"role": "assistant", "content": "", "timestamp": timestamp, "model": model}
            messages.append(last)
        if kind == "message":
            last["content"] = "\n".join(t for t in (last["content"], _text(item.get("content"))) if t)
        else:
            arguments = item.get("arguments", item.get("input", item.get("action")))
            last.setdefault("tool_calls", []).append({
                "id": str(item.get("call_id") or item.get("id") or ""), "type": "function",
                "function": {"name": str(item.get("name") or kind),
                             "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments)}})
    elif kind in _OUTPUTS:
        messages.append({"role": "tool", "tool_call_id": str(item.get("call_id") or ""),
                         "content": _text(item.get("output"))})
    elif kind == "message":
        messages.append({"role": "system" if role == "developer" else "user", "content": _text(item.get("content"))})
