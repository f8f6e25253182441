"""Every value a request body carries to the cloud, by JSON path: what the inline audit scans and
what redaction replaces.

Everything the upstream receives is payload: message text, tool arguments and results, but also
`user`, `metadata`, tool descriptions and parameter schemas, object keys and numbers. Only where the
three APIs put protocol tokens (a message's `role`, a tool call's `id`, a block's `type`, the `model`)
is a value taken as structure, and even there a unit's literal value counts: protocol positions are
held to literal hits only, so a partial look-alike never rewrites a model or tool name, while a
phone number used as a tool-call id is still caught. Strings that are JSON text (tool arguments)
are walked inside, so values escaped as `\\u5f20` are found too. An array that spells a text (bytes as
numbers, `JSON.stringify` of a Buffer; characters one a string) is also read as that text (`_read_spelled`); an
array of token ids where OpenAI's embeddings and completions take one for a text is read as that text alone
(`tokens.py`, `_read_tokens`).
The text parts of one content list (`[{"type": "text", "text": "call 1392288"}, {"type": "text", "text":
"3366"}]`) are read by the model as one text, so they are also scanned as one, across any other part between them
(an image): a value split across parts is found. So are two texts of one message that sit in different lists (a
`tool_result`'s last text and the text part after it), and the last text of a message with the first of the next
where both come from the same side of the conversation (a tool result cut in two, two user turns) and the cut
falls inside a word (`_join_messages`), three or more in a row where the texts between are short; a value is never
joined across an assistant turn or a line break. An array of strings is read run together the same way, a text cut
into chunks (`_join_chunks`: a base64 file's lines, a phone's groups).

The scanning sites a body has, and the order `walk` visits them in, depend on the body alone (never on
what was replaced), so detection and replacement can run as two walks, even in two processes: the
detectors' walk numbers the sites, the placing walk replays the numbers (`redact.Detection`).
"""

from __future__ import annotations

import bisect
import decimal
import itertools
import json
from collections.abc import Callable

from ec2audit.intercept import tokens

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

#: Lists of strings whose items are texts apart, each its own text to the model (a batch of embeddings inputs or
#: moderations, of legacy prompts; stop sequences): not read run together as a text's chunks (`_chunked`).
_APART = frozenset(tuple(p.split(".")) for p in ("input", "prompt", "stop", "stop_sequences",
                                                 "generationConfig.stopSequences"))

#: Where OpenAI's embeddings and legacy completions take a text as an array of token ids, or a batch of such arrays.
_TOKEN_ARRAYS = frozenset({("input",), ("input", "*"), ("prompt",), ("prompt", "*")})

#: Content part types whose `text` the model reads run together with the next part's (a part without a type is
#: Gemini's and Bedrock's text part: `{"text": …}` in `parts`, `system`, a `toolResult`'s or a document's content);
#: a Responses reasoning item's summary and content are lists of them too.
_TEXT_PARTS = frozenset({"text", "input_text", "output_text", "summary_text", "reasoning_text"})

#: visit(path, text, literal_only, cuts) → edits `(start, end, replacement)`, sorted and disjoint (empty:
#: keep the text). `cuts` is empty for one string; for texts scanned as one text (their original texts,
#: joined: the first one's last `JOIN_REACH` characters, the texts between whole, the last one's first
#: `JOIN_REACH`) it holds the offsets where one piece ends and the next begins, and the path is `(pieces,)`,
#: the tuple of the pieces' own paths (`pointer` names the first): each piece alone was visited before, and an
#: edit of the joined text must span a cut and leave the pieces' own edits alone.
Edit = tuple[int, int, str]
#: Characters on either side of a cut that a joined scan reads: a value cut in two lies within them, and two long
#: tool results are not scanned twice whole (40 results of 2,000 characters: 2.4× the audit's CPU, read whole).
JOIN_REACH = 200
Visitor = Callable[[tuple, str, bool, tuple[int, ...]], list[Edit]]


#: The longest a number's exact decimal writing is read as (`number_text`): `1e308` is read as it stands
_NUMBER_REACH = 40


class Number(float):
    """A JSON number with a fraction or an exponent, keeping the text it was written as: what reaches the upstream
    where the body is forwarded as it came. `110105198803153418.0` is an 18-digit id there; the float it parses to,
    `1.1010519880315342e+17`, is not."""

    __slots__ = ("text",)
    text: str

    def __new__(cls, text: str) -> Number:
        number = super().__new__(cls, text)
        number.text = text
        return number

    def __reduce__(self):  # (a body parsed in a worker process comes back whole)
        return Number, (self.text,)


def number_text(value: int | float) -> str:
    """A number as the walk reads it: an integer's digits; a `Number`'s exact decimal value written out
    (`1.3922883366e10` → `13922883366`, `110105198803153418.0` as it stands) where that is at most `_NUMBER_REACH`
    characters, else as written; any other float as Python writes it."""
    if isinstance(value, Number):
        number = decimal.Decimal(value.text)
        if not number.is_finite() or abs(number.adjusted()) > _NUMBER_REACH:  # (`1e999999999` written out: 1 GB)
            return value.text
        exact = format(number, "f")
        return exact if len(exact) <= _NUMBER_REACH else value.text
    return str(value)


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
        parsed = json.loads(text, parse_float=Number)
    except (ValueError, RecursionError):
        return None
    if isinstance(parsed, str) or (isinstance(parsed, dict | list) and not too_deep(parsed)):
        return parsed
    return None


def walk(value, visit: Visitor, path: tuple = ()):
    """`value` with every string, key and number offered to `visit`; containers are rebuilt only where
    something was replaced (so an untouched body is returned as is). Numbers (read as written: `number_text`) and
    keys are held to literal hits; a replaced number becomes its placeholder string."""
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
        text = number_text(value)
        edits = visit(path, text, True, ())
        return apply_edits(text, edits) if edits else value
    if isinstance(value, list):
        reading = tokens.token_text(value) if _shape(path) in _TOKEN_ARRAYS else None
        if reading is not None:  # one text, its ids no numbers of their own
            edits = visit(path, reading[0], False, ())
            return _read_tokens(value, reading, edits) if edits else value
        items, changed = [], False
        for i, item in enumerate(value):
            new = walk(item, visit, (*path, i))
            changed |= new is not item
            items.append(new)
        spelling = _spelling(value)
        if spelling is not None:  # (numbers or characters: no parts or messages to join)
            spelled = _read_spelled(items, spelling, visit, path)
            return spelled if spelled is not None else items if changed else value
        if _chunked(value, path):  # (strings: no parts or messages either)
            joined = _join_chunks(value, items, visit, path)
            return joined if joined is not None else items if changed else value
        grouped = _join_text_parts(value, items, visit, path)
        grouped = _join_messages(value, items if grouped is None else grouped, visit, path) or grouped
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


def _spelling(value: list) -> tuple[list[str], str] | None:
    """The texts of an array's elements and what joins them where the array spells a text, else None: numbers
    (`JSON.stringify` of a Node Buffer, `{"data": [108, 101, …]}`, read as `108,101,…`, which the forms read as the
    text those bytes are: `detect/forms/byte_lists.py`) or one-character strings (`[...text]`, `list(text)`, run
    together). Offered element by element only, no text would hold the value."""
    if len(value) < 2:
        return None
    if all(isinstance(v, str) and len(v) == 1 for v in value):
        return list(value), ""
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return [number_text(v) for v in value], ","
    return None


def _read_spelled(items: list, spelling: tuple[list[str], str], visit: Visitor, path: tuple) -> list | None:
    """An array that spells a text (`_spelling`) scanned as that text, its elements the pieces (a number held to
    literal hits, as alone). An edit replaces every element it covers, in whole, by one element, its replacement
    (`[108, 101, …]` becomes `["[NAME_001]"]`; `["L", "e", "n", "a", " "]`, `["[NAME_001]", " "]`), so no byte or
    character of the value is forwarded; the others stay as they are. `items` (the elements with their own edits)
    with that done, or None when nothing was."""
    texts, joint = spelling
    starts = list(itertools.accumulate((len(t) + len(joint) for t in texts[:-1]), initial=0))
    ends = [start + len(t) for start, t in zip(starts, texts, strict=True)]
    pieces = tuple((*path, k) for k in range(len(texts)))
    literal_only = joint == "," or is_protocol(pieces[0])
    edits = visit((pieces,), joint.join(texts), literal_only, tuple(starts[1:]))
    if not edits:
        return None
    out: list = []
    at = 0
    for start, end, replacement in edits:
        first, last = bisect.bisect_right(ends, start), bisect.bisect_left(starts, end) - 1
        out += items[at:first]
        out.append(replacement)
        at = max(at, last + 1)
    return out + items[at:]


def _read_tokens(ids: list[int], reading: tuple[str, list[int]], edits: list[Edit]) -> list[int]:
    """A token array (`tokens.token_text`: its text and where each id's text starts) with `edits` made to its text:
    the ids an edit touches, widened to whole characters (a Chinese character may be two ids), are replaced by the
    ids of their text with the edit made (`… 13, 16, 19 …` → the ids of ` at [PHONE_001]`); the others stay."""
    text, starts = reading
    whole = tokens.encoding().decode_single_token_bytes

    def continues(k: int) -> bool:  # the id's bytes start inside a character an earlier id began
        return 0 < k < len(ids) and 0x80 <= whole(ids[k])[0] < 0xC0

    out: list[int] = []
    at = 0
    for start, end, replacement in edits:
        first, last = bisect.bisect_right(starts, start) - 1, bisect.bisect_left(starts, end)
        while continues(first):
            first -= 1
        while continues(last):
            last += 1
        stop = starts[last] if last < len(ids) else len(text)
        out += ids[at:first] + tokens.encode(text[starts[first]:start] + replacement + text[end:stop])
        at = last
    return out + ids[at:]


def _chunked(value: list, path: tuple) -> bool:
    """Whether an array may hold a text cut into chunks: two or more strings, none JSON text (walked inside), not in
    a protocol position (an `include` list) nor a list read apart (`_APART`). A tool writes a value so as often as
    not: a base64 file as its 76-character lines, a phone as `["+86 139", "2288 3366"]`, a CSV row's cells."""
    return len(value) >= 2 and not is_protocol((*path, 0)) and _shape(path) not in _APART \
        and all(isinstance(v, str) and _json_text(v) is None for v in value)


def _chains(sizes: list[int], links: list[tuple[int, int]]) -> list[list[int]]:
    """The texts read as one: each of `links` (pairs of neighbouring texts, by index, in reading order; `sizes`: the
    texts' lengths), then, where pairs run on (one's second text the next one's first, no longer than `JOIN_REACH`),
    the run of three or more: a value cut across three texts is read whole. The pairs stay, read first: a run's
    ends are not its pairs' ends (`DE89…000` then `call`), and a hit the run finds again is no new finding
    (`redact`)."""
    chains: list[list[int]] = []
    for a, b in links:
        if chains and chains[-1][-1] == a and sizes[a] <= JOIN_REACH:
            chains[-1].append(b)
        else:
            chains.append([a, b])
    return [[a, b] for a, b in links] + [chain for chain in chains if len(chain) > 2]


def _join_chunks(items: list, out: list, visit: Visitor, path: tuple) -> list | None:
    """An array of chunks (`_chunked`) scanned as the text they make run together, through every chunk up to
    `JOIN_REACH` characters long (`_chains`); placed as a join of text parts is (`_join_pieces`), so the array
    keeps its length: the placeholder ends the chunk where the value starts, the chunks it covers are emptied."""
    result = None
    for chain in _chains([len(t) for t in items], [(k - 1, k) for k in range(1, len(items))]):
        result = _join_pieces(items, out if result is None else result, [(k,) for k in chain], visit, path) or result
    return result


def _is_text_part(item) -> bool:
    """A prose part: a text part whose text is not JSON text (that is walked inside, and re-encoded
    when something in it is replaced, so it is no prose to run together with its neighbours)."""
    return isinstance(item, dict) and item.get("type", "text") in _TEXT_PARTS and isinstance(item.get("text"), str) \
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
        elif isinstance(item, dict) and (item.get("type") in _TEXT_PARTS or "type" not in item and "text" in item):
            # a text part of JSON text: read in between
            runs.append(run)
            run = []
    result = None
    for parts in (*runs, run):
        if len(parts) >= 2:
            result = _join_run(items, out if result is None else result, tuple(parts), visit, path) or result
    return result


def _join_run(items: list, out: list, run: tuple[int, ...], visit: Visitor, path: tuple) -> list | None:
    """One run of parts (their indices) scanned as one text."""
    return _join_pieces(items, out, [(k, "text") for k in run], visit, path)


def _join_pieces(items: list, out: list, pieces: list[tuple], visit: Visitor, path: tuple) -> list | None:
    """Texts inside `items` (each at a path relative to the list) scanned as one text. A joined edit reaches a
    cut, and every other edit of the pieces lies before it or after it (one it overlapped, it replaces: the
    detectors' walk dropped it, `redact.Redactor.detect`), so it is placed by distances they do not move: the
    placeholder ends the piece where the edit starts (the others lie before: measured from its end), the pieces
    it covers are emptied, the piece where it ends loses its head (the others lie after: measured from its
    start). An edit within one piece (what an earlier join's edit left of it) ends the first piece or starts
    another."""
    texts = [_at(items, piece) for piece in pieces]
    texts[0], texts[-1] = texts[0][-JOIN_REACH:], texts[-1][:JOIN_REACH]
    offsets = [0]
    for text in texts:
        offsets.append(offsets[-1] + len(text))
    result = None
    for start, end, replacement in visit((tuple((*path, *piece) for piece in pieces),), "".join(texts), False,
                                         tuple(offsets[1:-1])):
        first, last = bisect.bisect_right(offsets, start) - 1, bisect.bisect_left(offsets, end) - 1
        result = result if result is not None else list(out)
        for n in range(first, last + 1):
            text = _at(result, pieces[n])
            # the first piece's stretch is its tail, and an edit that runs on past a piece lies after its others
            to = len(text) - offsets[n + 1] if n == 0 or end > offsets[n + 1] else -offsets[n]
            head = text[:start + to] + replacement if n == first else ""
            tail = text[end + to:] if n == last else ""
            result = _put(result, pieces[n], head + tail)
    return result


def _at(value, rel: tuple):
    """The value at `rel`, inside JSON text on the way too (a tool call's arguments)."""
    for key in rel:
        value = (json.loads(value) if isinstance(value, str) else value)[key]
    return value


def _put(value, rel: tuple, text: str):
    """`value` with the string at `rel` replaced, the containers on the way copied (JSON text re-encoded, as
    `walk` re-encodes it)."""
    if not rel:
        return text
    if isinstance(value, str):
        return json.dumps(_put(json.loads(value), rel, text), ensure_ascii=False)
    copy = list(value) if isinstance(value, list) else dict(value)
    copy[rel[0]] = _put(value[rel[0]], rel[1:], text)
    return copy


#: The side of the conversation a message's role is on: what the client supplies (user turns and tool results,
#: which Anthropic sends as user turns), what the model wrote, the instructions; and Responses' items without a
#: role, by type (a tool definition's `type` "function" is no message).
_SIDES = {"user": "input", "tool": "input", "function": "input", "assistant": "model", "model": "model",
          "system": "system", "developer": "system"}
_ITEM_SIDES = {"function_call_output": "input", "function_call": "model"}


def _side(item) -> str | None:
    if not isinstance(item, dict):
        return None
    return _SIDES.get(str(item["role"])) if "role" in item else _ITEM_SIDES.get(str(item.get("type")))


def _prose(value, rel: tuple = ()) -> list[tuple]:
    """The paths (relative to `value`) of the prose a message, or a content part, carries, in reading order:
    a string content or output, text parts (typed or not: Gemini's and Bedrock's have no type), a tool
    result's content, and last the first string of the message's first tool call's arguments (what the model
    wrote next: `_call`). Other JSON text is walked inside and re-encoded, so it is no prose."""
    if isinstance(value, str):
        return [rel] if _json_text(value) is None else []
    if not isinstance(value, dict):
        return []
    if isinstance(value.get("text"), str) and value.get("type", "text") in _TEXT_PARTS:
        return _prose(value["text"], (*rel, "text"))
    found = []
    for key in ("content", "output", "parts"):
        inner = value.get(key)
        if isinstance(inner, list):
            for k, part in enumerate(inner):
                found += _prose(part, (*rel, key, k))
        else:
            found += _prose(inner, (*rel, key))
    return found + _call(value, rel)


def _call(message: dict, rel: tuple) -> list[tuple]:
    """The path of the first string in the arguments of a message's first tool call (Chat's `tool_calls`,
    Anthropic's `tool_use` part, a Responses `function_call` item), if any."""
    calls, content = message.get("tool_calls"), message.get("content")
    if isinstance(calls, list) and calls and isinstance(calls[0], dict) and isinstance(calls[0].get("function"), dict):
        at: tuple = ("tool_calls", 0, "function", "arguments")
    elif message.get("type") == "function_call":
        at = ("arguments",)
    elif isinstance(content, list):
        at = next((("content", k, "input") for k, part in enumerate(content)
                   if isinstance(part, dict) and part.get("type") == "tool_use"), ())
    else:
        return []
    try:
        arguments = _at(message, at) if at else None
    except (KeyError, IndexError, TypeError, ValueError):
        return []
    if isinstance(arguments, str):
        parsed = _json_text(arguments)
        return [(*rel, *at)] if parsed is None else [(*rel, *at, *leaf) for leaf in _first_string(parsed)]
    return [(*rel, *at, *leaf) for leaf in _first_string(arguments)]


def _first_string(value, rel: tuple = ()) -> list[tuple]:
    """The path of the first string of a JSON value that is no JSON text itself ([] if none)."""
    if isinstance(value, str):
        return [rel] if _json_text(value) is None else []
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        found = _first_string(child, (*rel, key))
        if found:
            return found
    return []


def _siblings(items: list, a: tuple, b: tuple) -> bool:
    """Two text parts of one content list: `_join_text_parts` reads those."""
    return a[:-2] == b[:-2] and _is_text_part(_at(items, a[:-1])) and _is_text_part(_at(items, b[:-1]))


def _inside_value(tail: str, head: str) -> bool:
    """Whether a value may run on from one message's end into the next's start: the cut falls inside a word,
    or at one space between letters (a name's parts). A line break, or a space beside a digit (two numbers
    one after the other), ends what a message said."""
    if not tail or not head:
        return False
    before, after = tail[-1], head[0]
    if before == " " and not after.isspace():
        return tail[-2:-1].isalpha() and after.isalpha()
    if after == " " and not before.isspace():
        return before.isalpha() and head[1:2].isalpha()
    return not before.isspace() and not after.isspace()


def _join_messages(items: list, out: list, visit: Visitor, path: tuple) -> list | None:
    """A list of messages: neighbouring texts a value may be cut across scanned as one, in chains (`_chains`: a
    value cut across three messages is read whole).
    Within a message, texts in different lists (a tool result's last line, the text part after it; texts of
    one list are `_join_text_parts`'; an assistant's text and its tool call's first argument). Across
    messages, the last text of one and the first of the next, where both are on the same side (`_SIDES`: a
    tool result cut in two, a tool result and the user turn after it; not two tool calls); a value is not
    joined across what the model said in between. Either way only where the cut may fall inside a value
    (`_inside_value`)."""
    if not items or _side(items[0]) is None:
        return None
    texts: list[tuple] = []  # the prose paths in reading order, and which neighbours join
    links: list[tuple[int, int]] = []
    last: tuple | None = None
    for i, item in enumerate(items):
        prose = [(i, *rel) for rel in _prose(item)]
        if last is not None and prose and _side(items[last[0]]) == _side(item) is not None and last[0] == i - 1 \
                and not items[last[0]].get("type") == item.get("type") == "function_call":  # (two calls)
            if _inside_value(_at(items, last), _at(items, prose[0])):
                links.append((len(texts) - 1, len(texts)))
        links += [(len(texts) + k, len(texts) + k + 1) for k, (a, b) in enumerate(zip(prose, prose[1:], strict=False))
                  if not _siblings(items, a, b) and _inside_value(_at(items, a), _at(items, b))]
        texts += prose
        last = prose[-1] if prose else None
    result = None
    for chain in _chains([len(_at(items, t)) for t in texts], links):
        result = _join_pieces(items, out if result is None else result, [texts[k] for k in chain], visit, path) \
            or result
    return result


def pointer(path: tuple) -> str:
    """A path as a JSON Pointer (RFC 6901): `/messages/0/content`; texts read as one are named by the
    first."""
    if path and isinstance(path[-1], tuple):
        return pointer(path[-1][0])
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1")
                   for p in path)
