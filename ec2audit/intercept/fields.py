"""Every value a request body carries to the cloud, by JSON path: what the inline audit scans and
what redaction replaces.

Everything the upstream receives is payload: message text, tool arguments and results, but also
`user`, `metadata`, tool descriptions and parameter schemas, object keys and numbers. Only where the
three APIs put protocol tokens (a message's `role`, a tool call's `id`, a block's `type`, the `model`)
is a value taken as structure, and even there a unit's literal value counts: protocol positions are
held to literal hits only, so a partial look-alike never rewrites a model or tool name, while a
phone number used as a tool-call id is still caught. Strings that are JSON text (tool arguments)
are walked inside, so values escaped as `\\u5f20` are found too. Adjacent text parts of one
content list (`[{"type": "text", "text": "call 1392288"}, {"type": "text", "text": "3366"}]`) are
read by the model as one text, so they are also scanned as one: a value split across parts is found.
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

#: Content part types whose `text` the model reads run together with the next part's.
_TEXT_PARTS = frozenset({"text", "input_text", "output_text"})

#: visit(path, text, literal_only, cuts) → edits `(start, end, replacement)`, sorted and disjoint (empty:
#: keep the text). `cuts` is empty for one string; for text parts scanned as one text it holds the
#: offsets where one part ends and the next begins, and only hits spanning a cut are wanted (each
#: part alone was visited before).
Edit = tuple[int, int, str]
Visitor = Callable[[tuple, str, bool, tuple[int, ...]], list[Edit]]


def apply_edits(text: str, edits: list[Edit]) -> str:
    """The text with each `(start, end, replacement)` made; one pass, however many edits."""
    pieces: list[str] = []
    at = 0
    for start, end, replacement in edits:
        pieces += (text[at:start], replacement)
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


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
        edits = visit(path, value, is_protocol(path), ())
        return apply_edits(value, edits) if edits else value
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        edits = visit(path, str(value), True, ())
        return apply_edits(str(value), edits) if edits else value
    if isinstance(value, list):
        out, changed = [], False
        for i, item in enumerate(value):
            new = walk(item, visit, (*path, i))
            changed |= new is not item
            out.append(new)
        grouped = _join_text_parts(out, visit, path)
        return grouped if grouped is not None else out if changed else value
    if isinstance(value, dict):
        out, changed = {}, False
        for key, item in value.items():
            key_edits = visit((*path, key), key, True, ())
            new_key = apply_edits(key, key_edits) if key_edits else key
            new = walk(item, visit, (*path, key))
            changed |= new is not item or new_key is not key
            out[new_key] = new
        return out if changed else value
    return value


def _is_text_part(item) -> bool:
    return isinstance(item, dict) and item.get("type") in _TEXT_PARTS and isinstance(item.get("text"), str)


def _join_text_parts(items: list, visit: Visitor, path: tuple) -> list | None:
    """Each run of adjacent text parts scanned as one text for values split across parts; the list with
    those values replaced (the replacement in the part where the value starts, the rest of the value cut
    from the parts it spans), or None when nothing was replaced."""
    out, changed, i = items, False, 0
    while i < len(out):
        j = i
        while j < len(out) and _is_text_part(out[j]):
            j += 1
        if j - i >= 2:
            texts = [out[k]["text"] for k in range(i, j)]
            offsets = [0]
            for text in texts:
                offsets.append(offsets[-1] + len(text))
            edits = visit((*path, i, "text"), "".join(texts), False, tuple(offsets[1:-1]))
            if edits:
                if not changed:
                    out, changed = list(out), True
                for k in range(i, j):
                    lo, hi = offsets[k - i], offsets[k - i + 1]
                    part_edits = [(max(s, lo) - lo, min(e, hi) - lo, r if lo <= s < hi else "")
                                  for s, e, r in edits if s < hi and e > lo]
                    if part_edits:
                        out[k] = {**out[k], "text": apply_edits(out[k]["text"], part_edits)}
        i = max(j, i + 1)
    return out if changed else None


def pointer(path: tuple) -> str:
    """A path as a JSON Pointer (RFC 6901): `/messages/0/content`."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)
