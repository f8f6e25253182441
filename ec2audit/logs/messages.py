"""A conversation logged as a list of chat messages → one model call per assistant message.

Agent frameworks that log a transcript rather than requests (tau-bench, SWE-agent, mini-swe-agent,
AgentDojo, Invariant, OpenHands, plain message lists) all come down to this: the request behind an
assistant message is every message before it. Messages are brought into the OpenAI Chat shape first
(tool calls written as `{function, args}` or `{name, arguments|input}`, content parts whose text is
under `content`), so one flattener reads them all; each message's provenance names the tool, file or
command that produced it, from the arguments of the call it answers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from ec2audit.logs.base import make_payload, normalize_usage
from ec2audit.payloads import Payload, detect_api, flatten

FILE_ARGS = ("file_path", "path", "filePath", "filename", "file", "notebook_path", "absolute_path")
COMMAND_ARGS = ("command", "cmd", "code", "bash")
_ROLES = {"human": "user", "ai": "assistant", "model": "assistant", "bot": "assistant", "observation": "tool",
          "function": "tool", "ipython": "tool", "environment": "tool", "developer": "system"}


def _arguments(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _tool_call(call) -> dict | None:
    """A tool call in the OpenAI shape, whatever shape it was logged in."""
    if not isinstance(call, dict):
        return None
    fn = call.get("function")
    if isinstance(fn, dict):
        name, args = fn.get("name"), fn.get("arguments", fn.get("args"))
    else:
        name = fn if isinstance(fn, str) else call.get("name") or call.get("tool")
        args = call.get("arguments", call.get("args", call.get("input", call.get("parameters"))))
    return {"id": str(call.get("id") or call.get("tool_call_id") or ""), "type": "function",
            "function": {"name": str(name or ""), "arguments": _arguments(args if args is not None else {})}}


def _content(content):
    if isinstance(content, list):
        return [{"type": "text", "text": p["content"]} if isinstance(p, dict) and isinstance(p.get("content"), str)
                and not isinstance(p.get("text"), str) else p for p in content]
    if content is None or isinstance(content, str):
        return content
    return json.dumps(content, ensure_ascii=False)


def normalize(message: dict) -> dict:
    """One logged message in the OpenAI Chat shape (Anthropic-shaped content is kept as it is)."""
    role = str(message.get("role") or message.get("type") or "user").lower()
    out = {"role": _ROLES.get(role, role), "content": _content(message.get("content"))}
    calls = [c for c in map(_tool_call, message.get("tool_calls") or []) if c]
    if calls:
        out["tool_calls"] = calls
    if message.get("tool_call_id"):
        out["tool_call_id"] = str(message["tool_call_id"])
    elif isinstance(message.get("tool_call"), dict) and message["tool_call"].get("id"):
        out["tool_call_id"] = str(message["tool_call"]["id"])
    if isinstance(message.get("name"), str):
        out["name"] = message["name"]
    return out


def carrier(tool: str | None, args: dict) -> dict:
    """Provenance of a tool's output: the tool and the file it read or the command it ran."""
    source: dict = {"tool": tool} if tool else {}
    file = next((args[k] for k in FILE_ARGS if isinstance(args.get(k), str)), None)
    command = next((args[k] for k in COMMAND_ARGS if isinstance(args.get(k), str)), None)
    if file:
        source["file"] = file
    elif command:
        source["command"] = command[:200]
    return source


def sources(messages: list[dict], offset: int = 0) -> dict[int, dict]:
    """Provenance of each OpenAI-shaped message by its segments' `message_index`."""
    calls: dict[str, tuple[str, dict]] = {}
    found: dict[int, dict] = {}
    for i, message in enumerate(messages):
        source = {"entry": f"message {i + 1}", "kind": message["role"]}
        for call in message.get("tool_calls") or []:
            try:
                args = json.loads(call["function"]["arguments"])
            except (json.JSONDecodeError, TypeError):
                args = {}
            calls[call["id"]] = (call["function"]["name"], args if isinstance(args, dict) else {})
        if message["role"] == "tool":
            tool, args = calls.get(message.get("tool_call_id", ""), (message.get("name"), {}))
            source.update(carrier(tool, args))
        found[i + offset] = source
    return found


def conversation_calls(messages: list, *, session: str, path: Path, line: int | None, provider: str | None,
                       model: str | None, timestamp: str | None = None, pid: str | None = None,
                       system: str | None = None, base_url: str | None = None) -> Iterator[Payload]:
    """One payload per assistant message of `messages`, its request every message before it; the
    assistant message's own `usage` (or `extra.response.usage`) gives its tokens."""
    logged = [m for m in messages if isinstance(m, dict)]
    normal = [normalize(m) for m in logged]
    if system:
        normal.insert(0, {"role": "system", "content": system})
        logged.insert(0, {})
    body = {"messages": normal}
    api = detect_api(body)
    offset = 1 if api == "anthropic-messages" else 0  # the Anthropic flattener numbers messages from 1
    if api == "anthropic-messages" and normal and normal[0]["role"] == "system":
        body = {"system": normal[0]["content"], "messages": normal[1:]}
        offset = 0
    segments = flatten(body, api)
    provenance = sources(normal, offset)
    step = 0
    for k, message in enumerate(normal):
        if message["role"] != "assistant" or k == 0:
            continue
        step += 1
        extra = given if isinstance(given := logged[k].get("extra"), dict) else {}
        response = given if isinstance(given := extra.get("response"), dict) else {}
        usage = logged[k].get("usage") or response.get("usage")
        yield make_payload(
            pid=f"{pid or session}#{step}", segments=[s for s in segments if s.message_index < k + offset],
            session=session, step=step, api=api, provider=provider, model=logged[k].get("model") or model,
            timestamp=str(logged[k].get("timestamp") or timestamp or "") or None, path=path, line=line,
            usage=normalize_usage(usage), base_url=base_url, messages=provenance)


def provider_of(model: str | None) -> tuple[str | None, str | None]:
    """`provider/model` names (LiteLLM, Inspect, mini-swe-agent) split; a bare model has no provider."""
    if model and "/" in model:
        provider, _, name = model.partition("/")
        return provider, name
    return None, model
