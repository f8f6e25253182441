"""What a request body must be for the proxy to forward it: strict JSON, an object, no deeper than the
inline audit walks, and with the fields the proxy and the audit read in the types the API defines.

Malformed client input is the client's error: a one-line reason the proxy answers with 400 and
records, never a traceback. A body that passes here is one every reader of the store can flatten.
"""

from __future__ import annotations

import json
import math
import re
import sys

from ec2audit.intercept.fields import MAX_DEPTH, Number, pointer, too_deep
from ec2audit.payloads import detect_api, flatten


class BadRequest(ValueError):
    """A request body the proxy refuses (400); the message names the field."""


def _reject_constant(name: str):
    raise BadRequest(f"request body is not valid JSON ({name} is not a JSON value)")


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    """An object whose keys are unique: with a repeated key, readers disagree on which value counts
    (Python's takes the last, others the first), so the audited body and the one the upstream reads
    could differ."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        key = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise BadRequest(f"request body repeats the key {json.dumps(key, ensure_ascii=False)} in one object: "
                         "refused, since the upstream may read the other value")
    return obj


_INT_DIGITS = sys.get_int_max_str_digits() or 4300


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > _INT_DIGITS:
        raise BadRequest(f"request body holds an integer of {len(text.lstrip('-'))} digits "
                         f"(more than {_INT_DIGITS}): refused")
    return int(text)


def _float(text: str) -> float:
    value = Number(text)  # (read as written: `fields.number_text`)
    if not math.isfinite(value):
        raise BadRequest(f"request body holds the number {text[:40]}, too large for a 64-bit float: refused")
    return value


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(value, path: tuple = ()) -> tuple | None:
    """The path of the first key or string holding a lone UTF-16 surrogate, else None."""
    if isinstance(value, str):
        return path if _LONE_SURROGATE.search(value) else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(key, str) and _LONE_SURROGATE.search(key):
            return (*path, key)
        found = _lone_surrogate(item, (*path, key))
        if found is not None:
            return found
    return None


def parse(raw: bytes) -> dict:
    """The decoded body, or BadRequest naming what is wrong with it.

    Refused besides malformed JSON: a key repeated in one object, an integer Python cannot read, a
    float beyond 64 bits, and a lone UTF-16 surrogate (`"\\ud800"`, what a client cutting a string
    inside an emoji sends): it is no Unicode text, so no detector, store or terminal can take it."""
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant, object_pairs_hook=_unique_keys,
                          parse_int=_integer, parse_float=_float)
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
    if _SURROGATE_ESCAPE.search(raw):  # a valid pair decodes to one character: only a lone one is left
        where = _lone_surrogate(body)
        if where is not None:
            raise BadRequest(f"request body holds a lone UTF-16 surrogate (not Unicode text) at "
                             f"{pointer(where) or '/'}: refused")
    return body


def json_bytes(data) -> bytes:
    """A body as the proxy sends it: compact UTF-8 JSON; a lone surrogate (valid in JSON text, not in
    UTF-8) is sent as its escape."""
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:
        return json.dumps(data, separators=(",", ":")).encode()


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


#: what a Responses request may answer instead of an `input` of its own: a stored prompt (its `variables`), an
#: earlier response or a conversation
_CONTINUED = frozenset({"prompt", "previous_response_id", "conversation"})


def validate(body: dict, api: str) -> None:
    """BadRequest when a field the proxy or the audit reads has the wrong type for `api`."""
    _optional(body, "model", (str,))
    _optional(body, "stream", (bool,))
    _optional(body, "stream_options", (dict,))
    _optional(body.get("stream_options") or {}, "include_usage", (bool,), "stream_options.include_usage")
    if api == "openai-responses":
        if "input" in body or not _CONTINUED.intersection(body):  # no `input`: a stored prompt, an earlier turn
            _expect(body.get("input"), (str, list), "input")
        _optional(body, "instructions", (str,))
        for i, item in enumerate(body["input"] if isinstance(body.get("input"), list) else []):
            _expect(item, (dict,), f"input[{i}]")
            _optional(item, "role", (str,), f"input[{i}].role")
            _optional(item, "type", (str,), f"input[{i}].type")
    elif api in ("openai-chat", "anthropic-messages"):
        _messages(body)
        if api == "anthropic-messages":
            _optional(body, "system", (str, list))
    elif api == "openai-completions":
        _optional(body, "prompt", (str, list))
    elif api == "openai-embeddings":
        _expect(body.get("input"), (str, list), "input")
    try:  # the audit's reader must take whatever is forwarded (`intercept audit` re-reads the store)
        flatten(body, api)
        detected = detect_api(body)  # a reader that guesses the API from the body's shape
        if detected != api:
            flatten(body, detected)
    except (TypeError, AttributeError, ValueError) as exc:
        raise BadRequest(f"request body does not fit the {api} API ({type(exc).__name__}: {exc})") from None
