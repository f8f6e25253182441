"""Every value a request body carries to the cloud, by JSON path: what the inline audit scans and
what redaction replaces.

Everything the upstream receives is payload: message text, tool arguments and results, but also
`user`, `metadata`, tool descriptions and parameter schemas, object keys and numbers. Only where the
three APIs put protocol tokens (a message's `role`, a tool call's `id`, a block's `type`, the `model`)
is a value taken as structure, and even there a unit's literal value counts: protocol positions are
held to literal hits only, so a partial look-alike never rewrites a model or tool name, while a
phone number used as a tool-call id is still caught. Strings that are JSON text (tool arguments)
are walked inside, so values escaped as `\\u5f20` are found too.
"""

from __future__ import annotations

import json
from collections.abc import Callable

#: Deepest nesting walked (request bodies are validated to this depth; JSON text inside strings
#: nested deeper is scanned as plain text).
MAX_DEPTH = 64

#: Paths (keys, `*` for any list index) where the three APIs put protocol tokens.
_PROTOCOL = frozenset(tuple(p.split(".")) for p in (
    "model", "service_tier", "reasoning_effort", "tool_choice", "tool_choice.type", "tool_choice.name",
    "tool_choice.function.name", "response_format.type", "text.format.type", "reasoning.effort",
    "reasoning.summary", "include.*", "truncation", "previous_response_id", "anthropic_version", "thinking.type",
    "messages.*.role", "messages.*.tool_call_id", "messages.*.tool_calls.*.id", "messages.*.tool_calls.*.type",
    "messages.*.tool_calls.*.function.name", "messages.*.content.*.type", "messages.*.content.*.id",
    "messages.*.content.*.name", "messages.*.content.*.tool_use_id", "messages.*.content.*.cache_control.type",
    "messages.*.content.*.source.type", "messages.*.content.*.source.media_type",
    "messages.*.content.*.image_url.detail", "input.*.type", "input.*.role", "input.*.id", "input.*.call_id",
    "input.*.name", "input.*.status", "input.*.content.*.type", "input.*.content.*.detail",
    "system.*.type", "system.*.cache_control.type", "tools.*.type", "tools.*.name",
    "tools.*.function.name", "tools.*.cache_control.type",
))

#: visit(path, text, literal_only) → the replacement text, or None to keep the value.
Visitor = Callable[[tuple, str, bool], "str | None"]


def _shape(path: tuple) -> tuple:
    return tuple("*" if isinstance(p, int) else p for p in path)


def is_protocol(path: tuple) -> bool:
    return _shape(path) in _PROTOCOL


def too_deep(value, limit: int = MAX_DEPTH) -> bool:
    """Whether a decoded JSON value nests containers deeper than `limit` (recursion stops there)."""
    if limit <= 0:
        return True
    for item in (value.values() if isinstance(value, dict) else value):
        if isinstance(item, dict | list) and too_deep(item, limit - 1):
            return True
    return False


def _json_text(text: str):
    """The object, array or string a string holds as JSON text (`"\\u5f20"` is 张), else None."""
    if text[:1] not in '{["':
        return None
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(parsed, str) or (isinstance(parsed, dict | list) and not too_deep(parsed)):
        return parsed
    return None


def walk(value, visit: Visitor, path: tuple = ()):
    """`value` with every string, key and number offered to `visit`; containers are rebuilt only where
    something was replaced (so an untouched body is returned as is). Numbers and keys are held to
    literal hits; a replaced number becomes its placeholder string."""
    if isinstance(value, str):
        inner = _json_text(value) if len(path) < 3 * MAX_DEPTH else None  # JSON text in JSON text in…: bounded
        if inner is not None:  # JSON text: walk inside, re-encode only if something changed
            new = walk(inner, visit, path)
            return value if new is inner else json.dumps(new, ensure_ascii=False)
        new = visit(path, value, is_protocol(path))
        return value if new is None else new
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        new = visit(path, str(value), True)
        return value if new is None else new
    if isinstance(value, list):
        out, changed = [], False
        for i, item in enumerate(value):
            new = walk(item, visit, (*path, i))
            changed |= new is not item
            out.append(new)
        return out if changed else value
    if isinstance(value, dict):
        out, changed = {}, False
        for key, item in value.items():
            new_key = visit((*path, key), key, True) or key
            new = walk(item, visit, (*path, key))
            changed |= new is not item or new_key is not key
            out[new_key] = new
        return out if changed else value
    return value


def pointer(path: tuple) -> str:
    """A path as a JSON Pointer (RFC 6901): `/messages/0/content`."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)
