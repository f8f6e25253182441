"""What a request body must be for the proxy to forward it: strict JSON, an object, no deeper than the
inline audit walks, and with the fields the proxy and the audit read in the types the API defines.

Malformed client input is the client's error: a one-line reason the proxy answers with 400 and
records, never a traceback. A body that passes here is one every reader of the store can flatten.
"""

from __future__ import annotations

import json

from ec2audit.intercept.fields import MAX_DEPTH, too_deep
from ec2audit.payloads import detect_api, flatten


class BadRequest(ValueError):
    """A request body the proxy refuses (400); the message names the field."""


def _reject_constant(name: str):
    raise BadRequest(f"request body is not valid JSON ({name} is not a JSON value)")


def parse(raw: bytes) -> dict:
    """The decoded body, or BadRequest naming what is wrong with it."""
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except UnicodeDecodeError as exc:
        raise BadRequest(f"request body is not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise BadRequest(f"request body is not valid JSON ({exc.msg} at line {exc.lineno} "
                         f"column {exc.colno})") from None
    except RecursionError:
        raise BadRequest(f"request body is nested deeper than {MAX_DEPTH} levels") from None
    if not isinstance(body, dict):
        raise BadRequest("request body must be a JSON object")
    if too_deep(body):
        raise BadRequest(f"request body is nested deeper than {MAX_DEPTH} levels")
    return body


_TYPES = {str: "a string", bool: "true or false", dict: "an object", list: "an array"}


def _expect(value, types: tuple, where: str) -> None:
    if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
        names = " or ".join(_TYPES.get(t, "null") for t in types)
        raise BadRequest(f"field {where} must be {names}, not {type(value).__name__}")


def _optional(body: dict, key: str, types: tuple, where: str | None = None) -> None:
    if key in body and body[key] is not None:
        _expect(body[key], types, where or key)


def _messages(body: dict) -> None:
    _expect(body.get("messages"), (list,), "messages")
    for i, message in enumerate(body["messages"]):
        where = f"messages[{i}]"
        _expect(message, (dict,), where)
        _optional(message, "role", (str,), f"{where}.role")
        _optional(message, "content", (str, list), f"{where}.content")
        _optional(message, "tool_calls", (list,), f"{where}.tool_calls")
        _optional(message, "function_call", (dict,), f"{where}.function_call")
        for k, call in enumerate(message.get("tool_calls") or []):
            _expect(call, (dict,), f"{where}.tool_calls[{k}]")
            _optional(call, "function", (dict,), f"{where}.tool_calls[{k}].function")


def validate(body: dict, api: str) -> None:
    """BadRequest when a field the proxy or the audit reads has the wrong type for `api`."""
    _optional(body, "model", (str,))
    _optional(body, "stream", (bool,))
    _optional(body, "stream_options", (dict,))
    _optional(body.get("stream_options") or {}, "include_usage", (bool,), "stream_options.include_usage")
    if api == "openai-responses":
        _expect(body.get("input"), (str, list), "input")
        _optional(body, "instructions", (str,))
        for i, item in enumerate(body["input"] if isinstance(body["input"], list) else []):
            _expect(item, (dict,), f"input[{i}]")
            _optional(item, "role", (str,), f"input[{i}].role")
            _optional(item, "type", (str,), f"input[{i}].type")
    else:
        _messages(body)
        if api == "anthropic-messages":
            _optional(body, "system", (str, list))
    try:  # the audit's reader must take whatever is forwarded (`intercept audit` re-reads the store)
        flatten(body, api)
        detected = detect_api(body)  # a reader that guesses the API from the body's shape
        if detected != api:
            flatten(body, detected)
    except (TypeError, AttributeError, ValueError) as exc:
        raise BadRequest(f"request body does not fit the {api} API ({type(exc).__name__}: {exc})") from None
