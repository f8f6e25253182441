"""Where a request can carry a sensitive value: the registry of probe positions `gateway-check` sends
through a gateway, one request per position, wire API and stream flag.

A position builds the request body (and headers) of one wire API that carries the probe's values at
that position; an API without such a place is left out (its cell reads n/a). Each request also carries
a harmless marker in the same place, so a cell can tell "the gateway forwarded this position without
the values" (redacted) from "the gateway does not forward this position at all" (dropped). Positions
are the protocol's places (every role, content parts, tool calls current and in history, tool results
and definitions, Responses items and instructions, Anthropic system blocks, tool_use, tool_result and
documents, metadata, headers) and the odd forms of a value in user text (escaped, JSON in a string,
URL and base64 encodings, split across two parts). A new position is one function registered with
`@position`.
"""

from __future__ import annotations

import base64
import json
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field

CHAT, RESPONSES, ANTHROPIC = "openai-chat", "openai-responses", "anthropic-messages"
APIS = (CHAT, RESPONSES, ANTHROPIC)
#: Each API's path under the gateway's base URL (which ends in /v1).
API_PATHS = {CHAT: "/chat/completions", RESPONSES: "/responses", ANTHROPIC: "/messages"}
TOOL = "lookup_customer"


@dataclass
class Probe:
    """One request: its body (without model and stream) and extra headers."""

    body: dict
    headers: dict[str, str] = field(default_factory=dict)


#: build(api, values, marker) → the request, or None where the API has no such place.
Builder = Callable[[str, list[str], str], "Probe | None"]
#: needles(values) → per value, the pieces that all reaching the upstream make it leaked.
Needles = Callable[[list[str]], list[tuple[str, ...]]]


def _whole(values: list[str]) -> list[tuple[str, ...]]:
    return [(v,) for v in values]


@dataclass(frozen=True)
class Position:
    name: str
    about: str
    build: Builder
    needles: Needles = _whole
    ascii_only: bool = False  # an HTTP header carries Latin-1 only: non-ASCII values are left out


POSITIONS: dict[str, Position] = {}


def position(name: str, about: str, *, needles: Needles = _whole, ascii_only: bool = False):
    def register(build: Builder) -> Builder:
        POSITIONS[name] = Position(name, about, build, needles, ascii_only)
        return build
    return register


def text(values: list[str], marker: str) -> str:
    """The values as an agent would pass them on: a line of a customer record."""
    return f"Customer record {marker}: " + "; ".join(values)


# --- request skeletons -------------------------------------------------------------------------

ASK = "Summarise the customer record."


def _chat(*messages: dict, **extra) -> Probe:
    return Probe({"messages": [*messages, {"role": "user", "content": ASK}], **extra})


def _responses(*items: dict, **extra) -> Probe:
    return Probe({"input": [*items, {"role": "user", "content": [{"type": "input_text", "text": ASK}]}], **extra})


def _anthropic(*messages: dict, **extra) -> Probe:
    return Probe({"max_tokens": 256, "messages": [*messages, {"role": "user", "content": ASK}], **extra})


def _arguments(values: list[str], marker: str) -> dict:
    return {"record": marker, "values": values}


def _tool_turn(api: str, values: list[str], marker: str) -> list[dict]:
    """A tool call carrying the values and its result: the assistant turn before the last user ask.
    Arguments are JSON text as SDKs write it (`json.dumps`: non-ASCII as \\u escapes)."""
    args = _arguments(values, marker)
    if api == CHAT:
        return [{"role": "user", "content": "Look the customer up."},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": TOOL, "arguments": json.dumps(args)}}]},
                {"role": "tool", "tool_call_id": "call_1", "content": "found"}]
    if api == RESPONSES:
        return [{"role": "user", "content": [{"type": "input_text", "text": "Look the customer up."}]},
                {"type": "function_call", "call_id": "call_1", "name": TOOL, "arguments": json.dumps(args)},
                {"type": "function_call_output", "call_id": "call_1", "output": "found"}]
    return [{"role": "user", "content": "Look the customer up."},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": TOOL, "input": args}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "found"}]}]


def _history(api: str) -> list[dict]:
    """One more exchange after the tool turn: the tool call is then history, not the current turn."""
    if api == RESPONSES:
        return [{"role": "assistant", "content": [{"type": "output_text", "text": "Found them."}]},
                {"role": "user", "content": [{"type": "input_text", "text": "Thanks."}]},
                {"role": "assistant", "content": [{"type": "output_text", "text": "You are welcome."}]}]
    return [{"role": "assistant", "content": "Found them."}, {"role": "user", "content": "Thanks."},
            {"role": "assistant", "content": "You are welcome."}]


def _tools(api: str, description: str = "Look a customer up.", schema_note: str = "what to look for") -> list[dict]:
    params = {"type": "object", "properties": {"query": {"type": "string", "description": schema_note}}}
    if api == CHAT:
        return [{"type": "function", "function": {"name": TOOL, "description": description, "parameters": params}}]
    if api == RESPONSES:
        return [{"type": "function", "name": TOOL, "description": description, "parameters": params}]
    return [{"name": TOOL, "description": description, "input_schema": params}]


def _user(api: str, content) -> dict:
    """A user message whose content is `content` (a string, or a list of text strings as parts)."""
    if isinstance(content, str):
        return {"role": "user", "content": content}
    kind = {CHAT: "text", RESPONSES: "input_text", ANTHROPIC: "text"}[api]
    return {"role": "user", "content": [{"type": kind, "text": part} for part in content]}


def user_request(api: str, content) -> Probe:
    """A request whose last-but-one message is the user's `content` (a string, or text parts)."""
    return {CHAT: _chat, RESPONSES: _responses, ANTHROPIC: _anthropic}[api](_user(api, content))


# --- roles and content -------------------------------------------------------------------------

@position("system", "system prompt (Anthropic: top-level system string)")
def _system(api, values, marker):
    t = text(values, marker)
    if api == ANTHROPIC:
        return _anthropic(system=t)
    return _chat({"role": "system", "content": t}) if api == CHAT else _responses({"role": "system", "content": t})


@position("system.blocks", "system prompt as content blocks")
def _system_blocks(api, values, marker):
    t = text(values, marker)
    if api == ANTHROPIC:
        return _anthropic(system=[{"type": "text", "text": t}])
    if api == CHAT:
        return _chat({"role": "system", "content": [{"type": "text", "text": t}]})
    return _responses({"role": "system", "content": [{"type": "input_text", "text": t}]})


@position("developer", "developer message")
def _developer(api, values, marker):
    t = text(values, marker)
    if api == CHAT:
        return _chat({"role": "developer", "content": t})
    if api == RESPONSES:
        return _responses({"role": "developer", "content": [{"type": "input_text", "text": t}]})
    return None


@position("instructions", "Responses instructions")
def _instructions(api, values, marker):
    return _responses(instructions=text(values, marker)) if api == RESPONSES else None


@position("user", "user message, string content")
def _user_string(api, values, marker):
    return user_request(api, text(values, marker))


@position("user.parts", "user message, text content part")
def _user_parts(api, values, marker):
    return user_request(api, [text(values, marker)])


@position("user.name", "Chat message `name` field")
def _user_name(api, values, marker):
    if api != CHAT:
        return None
    return _chat({"role": "user", "name": f"{marker}-" + "-".join(values), "content": "Hello."})


@position("input.string", "Responses input as one string")
def _input_string(api, values, marker):
    return Probe({"input": text(values, marker)}) if api == RESPONSES else None


@position("assistant", "assistant message in history")
def _assistant(api, values, marker):
    t = text(values, marker)
    if api == RESPONSES:
        return _responses({"role": "user", "content": [{"type": "input_text", "text": "Who is it?"}]},
                          {"role": "assistant", "content": [{"type": "output_text", "text": t}]})
    build = _chat if api == CHAT else _anthropic
    return build({"role": "user", "content": "Who is it?"}, {"role": "assistant", "content": t})


# --- tools -------------------------------------------------------------------------------------

@position("tool_call.current", "tool-call arguments of the turn being answered (Anthropic: tool_use.input)")
def _tool_call_current(api, values, marker):
    turn = _tool_turn(api, values, marker)
    if api == RESPONSES:
        return Probe({"input": turn, "tools": _tools(api)})
    return Probe({"messages": turn, "tools": _tools(api), **({"max_tokens": 256} if api == ANTHROPIC else {})})


@position("tool_call.history", "tool-call arguments in an earlier turn")
def _tool_call_history(api, values, marker):
    items = [*_tool_turn(api, values, marker), *_history(api)]
    build = {CHAT: _chat, RESPONSES: _responses, ANTHROPIC: _anthropic}[api]
    return build(*items, tools=_tools(api))


def _tool_result(api: str, content) -> list[dict]:
    calls: dict[str, list[dict]] = {CHAT: [{"role": "user", "content": "Look the customer up."},
                   {"role": "assistant", "content": None, "tool_calls": [
                       {"id": "call_1", "type": "function", "function": {"name": TOOL, "arguments": "{}"}}]}],
            RESPONSES: [{"type": "function_call", "call_id": "call_1", "name": TOOL, "arguments": "{}"}],
            ANTHROPIC: [{"role": "user", "content": "Look the customer up."},
                        {"role": "assistant", "content": [
                            {"type": "tool_use", "id": "toolu_1", "name": TOOL, "input": {}}]}]}
    call = calls[api]
    if api == CHAT:
        parts = content if isinstance(content, str) else [{"type": "text", "text": c} for c in content]
        return [*call, {"role": "tool", "tool_call_id": "call_1", "content": parts}]
    if api == RESPONSES:
        output = content if isinstance(content, str) else [{"type": "input_text", "text": c} for c in content]
        return [*call, {"type": "function_call_output", "call_id": "call_1", "output": output}]
    block = content if isinstance(content, str) else [{"type": "text", "text": c} for c in content]
    return [*call, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": block}]}]


@position("tool_result", "tool result, string content")
def _tool_result_string(api, values, marker):
    items = _tool_result(api, text(values, marker))
    return Probe({"input": items} if api == RESPONSES else
                 {"messages": items, **({"max_tokens": 256} if api == ANTHROPIC else {})})


@position("tool_result.blocks", "tool result as content parts (Anthropic: tool_result blocks)")
def _tool_result_blocks(api, values, marker):
    items = _tool_result(api, [text(values, marker)])
    return Probe({"input": items} if api == RESPONSES else
                 {"messages": items, **({"max_tokens": 256} if api == ANTHROPIC else {})})


@position("tool.description", "tool definition: description")
def _tool_description(api, values, marker):
    build = {CHAT: _chat, RESPONSES: _responses, ANTHROPIC: _anthropic}[api]
    return build(tools=_tools(api, description=text(values, marker)))


@position("tool.schema", "tool definition: a parameter's description in the JSON schema")
def _tool_schema(api, values, marker):
    build = {CHAT: _chat, RESPONSES: _responses, ANTHROPIC: _anthropic}[api]
    return build(tools=_tools(api, schema_note=text(values, marker)))


# --- documents, metadata, headers --------------------------------------------------------------

@position("document", "attached document (Anthropic document block; OpenAI file part as a data URL)")
def _document(api, values, marker):
    t = text(values, marker)  # OpenAI's file is base64: the marker is also in its name, readable as sent
    if api == ANTHROPIC:
        return _anthropic({"role": "user", "content": [
            {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": t}},
            {"type": "text", "text": "Here is the record."}]})
    data = "data:text/plain;base64," + base64.b64encode(t.encode()).decode()
    if api == CHAT:
        return _chat({"role": "user", "content": [
            {"type": "file", "file": {"filename": f"record-{marker}.txt", "file_data": data}},
            {"type": "text", "text": "Here is the record."}]})
    return _responses({"role": "user", "content": [
        {"type": "input_file", "filename": f"record-{marker}.txt", "file_data": data},
        {"type": "input_text", "text": "Here is the record."}]})


@position("metadata", "request metadata (Anthropic: metadata.user_id)")
def _metadata(api, values, marker):
    t = text(values, marker)
    if api == ANTHROPIC:
        return _anthropic(metadata={"user_id": t})
    build = _chat if api == CHAT else _responses
    return build(metadata={"customer": t})


@position("user_id", "end-user id field (`user`; Anthropic: none)")
def _user_id(api, values, marker):
    if api == ANTHROPIC:
        return None
    build = _chat if api == CHAT else _responses
    return build(user=f"{marker}-" + "-".join(values))


@position("header", "custom HTTP request header", ascii_only=True)
def _header(api, values, marker):
    probe = user_request(api, "Hello.")
    probe.headers["x-customer-note"] = text(values, marker)
    return probe


# --- odd forms of a value in user text ---------------------------------------------------------

def _escape(value: str) -> str:
    return "".join(f"\\u{ord(c):04x}" for c in value)


@position("form.escaped", "values written as \\uXXXX escapes in plain text")
def _escaped(api, values, marker):
    return user_request(api, text([_escape(v) for v in values], marker))


@position("form.json_string", "a JSON document inside a string (non-ASCII as \\u escapes)")
def _json_string(api, values, marker):
    return user_request(api, json.dumps({"customer": {"record": marker, "values": values}}))


@position("form.url", "values percent-encoded in a URL query")
def _url(api, values, marker):
    query = urllib.parse.urlencode({"record": marker, **{f"v{i}": v for i, v in enumerate(values)}})
    return user_request(api, f"Open https://crm.example.com/customers?{query}")


@position("form.base64", "values base64-encoded in text")
def _base64(api, values, marker):
    encoded = [base64.b64encode(v.encode()).decode() for v in values]
    return user_request(api, f"Customer record {marker} (base64): " + " ".join(encoded))


def _halves(value: str) -> tuple[str, str]:
    cut = max(len(value) // 2, 1)
    return value[:cut], value[cut:]


def _split_needles(values: list[str]) -> list[tuple[str, ...]]:
    return [_halves(v) for v in values]


@position("form.split", "each value split across two content parts", needles=_split_needles)
def _split(api, values, marker):
    parts, head = [], f"Customer record {marker}: "
    for value in values:  # the parts joined read as the whole record: each cut falls inside a value
        first, second = _halves(value)
        parts.append(head + first)
        head = second + "; "
    parts.append(head.removesuffix("; "))
    return user_request(api, parts)
