"""Every value a request body carries to the cloud, by JSON path: what the inline audit scans and
what redaction replaces.

Everything the upstream receives is payload: message text, tool arguments and results, but also
`user`, `metadata`, tool descriptions and parameter schemas, object keys and numbers. Only where the
three APIs put protocol tokens (a message's `role`, a tool call's `id`, a block's `type`, the `model`)
is a value taken as structure, and even there a unit's literal value counts: protocol positions are
held to literal hits only, so a partial look-alike never rewrites a model or tool name, while a
phone number used as a tool-call id is still caught. Strings that are JSON text (tool arguments)
are walked inside, so values escaped as `\\u5f20` are found too. The text parts of one content list
(`[{"type": "text", "text": "call 1392288"}, {"type": "text", "text": "3366"}]`) are read by the model as
one text, so they are also scanned as one, across any other part between them (an image): a value split
across parts is found.

The scanning sites a body has, and the order `walk` visits them in, depend on the body alone (never on
what was replaced), so detection and replacement can run as two walks, even in two processes: the
detectors' walk numbers the sites, the placing walk replays the numbers (`redact.Detection`).
"""

from __future__ import annotations

import bisect
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
#: keep the text). `cuts` is empty for one string; for text parts scanned as one text (their original
#: texts, joined) it holds the offsets where one part ends and the next begins, and the path's last index is
#: the tuple of the parts' indices (`pointer` names the first): each part alone was visited before, and an
#: edit of the joined text must span a cut and leave the parts' own edits alone.
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
        items, changed = [], False
        for i, item in enumerate(value):
            new = walk(item, visit, (*path, i))
            changed |= new is not item
            items.append(new)
        grouped = _join_text_parts(value, items, visit, path)
        return grouped if grouped is not None else items if changed else value
    if isinstance(value, dict):
        obj, changed = {}, False
        for key, item in value.items():
            key_edits = visit((*path, key), key, True, ())
            new_key = apply_edits(key, key_edits) if key_edits else key
            new = walk(item, visit, (*path, key))
            changed |= new is not item or new_key is not key
            obj[new_key] = new
        return obj if changed else value
    return value


def replay(value, edits: dict[int, list[Edit]]):
    """`value` with `edits` made, by scanning site in `walk`'s visiting order: what a walk elsewhere (in
    another process) decided, applied to the same body."""
    site = 0

    def visit(path: tuple, text: str, literal_only: bool, cuts: tuple[int, ...]) -> list[Edit]:
        nonlocal site
        made = edits.get(site, [])
        site += 1
        return made

    return walk(value, visit) if edits else value


def _is_text_part(item) -> bool:
    """A prose part: a text part whose text is not JSON text (that is walked inside, and re-encoded
    when something in it is replaced, so it is no prose to run together with its neighbours)."""
    return isinstance(item, dict) and item.get("type") in _TEXT_PARTS and isinstance(item.get("text"), str) \
        and _json_text(item["text"]) is None


def _join_text_parts(items: list, out: list, visit: Visitor, path: tuple) -> list | None:
    """The prose parts of `items` scanned as one text for values split across parts, two or more at a time:
    parts that are no text parts between them are passed over (the model reads on past an image), a text part
    of JSON text ends a run. `out` (the parts with their own edits) with those values replaced, or None when
    nothing was."""
    runs, run = [], []
    for k, item in enumerate(items):
        if _is_text_part(item):
            run.append(k)
        elif isinstance(item, dict) and item.get("type") in _TEXT_PARTS:  # JSON text, read in between
            runs.append(run)
            run = []
    result = None
    for parts in (*runs, run):
        if len(parts) >= 2:
            result = _join_run(items, out if result is None else result, tuple(parts), visit, path) or result
    return result


def _join_run(items: list, out: list, run: tuple[int, ...], visit: Visitor, path: tuple) -> list | None:
    """One run of parts (their indices) scanned as one text. A joined edit spans a cut and overlaps none of the
    parts' own edits, so it is placed by distances from the ends of the parts it touches, which their own
    edits do not move: the placeholder ends the part where the value starts, the parts it covers are emptied,
    the part where it ends loses its head."""
    offsets = [0]
    for k in run:
        offsets.append(offsets[-1] + len(items[k]["text"]))
    result = None
    for start, end, replacement in visit((*path, run, "text"), "".join(items[k]["text"] for k in run),
                                         False, tuple(offsets[1:-1])):
        first, last = bisect.bisect_right(offsets, start) - 1, bisect.bisect_left(offsets, end) - 1
        result = result if result is not None else list(out)
        for n in range(first, last + 1):
            part = result[run[n]]
            text, hi = part["text"], offsets[n + 1]
            head = text[:len(text) - (hi - start)] + replacement if n == first else ""
            tail = text[len(text) - (hi - end):] if n == last else ""
            result[run[n]] = {**part, "text": head + tail}
    return result


def pointer(path: tuple) -> str:
    """A path as a JSON Pointer (RFC 6901): `/messages/0/content`; text parts read as one are named by
    the first."""
    return "".join("/" + str(p[0] if isinstance(p, tuple) else p).replace("~", "~0").replace("/", "~1")
                   for p in path)
