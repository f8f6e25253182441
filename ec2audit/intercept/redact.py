"""Redaction: unit values become typed, numbered placeholders (`[PHONE_001]`) on the way to the cloud
and are restored in the answer, so the agent works with real values while the cloud never sees them.

Placeholders are stable within an episode: the same surface form of a unit gets the same placeholder
in every request, and each placeholder restores exactly the text the agent sent. Positions come from
`Cascade.scan_text`, so whatever the audit would report is what gets replaced.

Detecting and placing are two steps: `detect` runs the detectors and returns plain data (`Detection`:
findings and the spans to replace), which a worker process can send back; `place` numbers the
placeholders in the episode's map, which lives in the proxy's process only (`lanes.py`).

An answer is restored only with the placeholders of its own request (`EpisodeMap.for_request`): a
client gets back only values it sent in that very request, so knowing an episode id and asking the
model to "repeat [PHONE_001]" restores nothing (docs/design.md, the interceptor's threat model).
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
import threading
from collections import defaultdict
from dataclasses import dataclass, field

from ec2audit.detect.cascade import Cascade
from ec2audit.detect.finding import LITERAL
from ec2audit.intercept.fields import Edit, apply_edits, pointer, replay, walk
from ec2audit.intercept.media import open_part
from ec2audit.units import Unit

PLACEHOLDER = re.compile(r"\[[A-Z][A-Z_]*_\d{3,6}\]")
_PARTIAL = re.compile(r"\[[A-Z_]*\d{0,6}")  # a possible placeholder cut off by a chunk boundary
_MAX_PLACEHOLDER = 48
#: Texts of a body scanned ahead in one batch at most (`Redactor._scan_ahead`): half the scan cache's size.
SCAN_AHEAD_TEXTS = 8192
#: Keys whose string values are JSON text (tool-call arguments): restored values are JSON-escaped.
_JSON_TEXT_KEYS = frozenset({"arguments", "partial_json"})


def _type_name(unit) -> str:
    name = re.sub(r"[^A-Z_]", "", unit.field.upper().replace("-", "_")).strip("_")
    return name or re.sub(r"[^A-Z_]", "", unit.dimension.upper()) or "VALUE"


@dataclass
class EpisodeMap:
    """One episode's placeholders; a request without an episode gets a map of its own. A request's map
    (`for_request`) numbers through its episode's and holds only the placeholders the request used."""

    forward: dict[tuple[int, str], str] = field(default_factory=dict)  # (unit index, surface) → placeholder
    back: dict[str, str] = field(default_factory=dict)  # placeholder → surface text
    counters: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    parent: EpisodeMap | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def placeholder(self, unit_index: int, type_name: str, surface: str) -> str:
        if self.parent is not None:
            token = self.parent.placeholder(unit_index, type_name, surface)
            self.back[token] = surface
            return token
        key = (unit_index, surface)
        with self._lock:  # two scanning lanes may number one episode at once
            if key not in self.forward:
                self.counters[type_name] += 1
                token = f"[{type_name}_{self.counters[type_name]:03d}]"
                self.forward[key], self.back[token] = token, surface
            return self.forward[key]

    def for_request(self) -> EpisodeMap:
        return EpisodeMap(parent=self)


#: A value outside the body the proxy forwards: ("header" | "query" | "path", name, value).
Field = tuple[str, str, str]
#: A span to replace: (start, end, unit index).
Span = tuple[int, int, int]


def _site_texts(body: dict, sites: dict[int, list[Span]]) -> list[tuple[int, str]]:
    """The texts of the given scanning sites of a body, as `walk` visits them."""
    texts: list[tuple[int, str]] = []
    site = 0

    def visit(path: tuple, text: str, literal_only: bool, cuts: tuple[int, ...]) -> list[Edit]:
        nonlocal site
        if site in sites:
            texts.append((site, text))
        site += 1
        return []

    if sites:
        walk(body, visit)
    return texts


@dataclass
class Detection:
    """What the detectors found in one request, as plain data: the findings, and the spans to replace
    per scanning site, numbered in `walk`'s visiting order (body) and in order (fields)."""

    rows: list[dict] = field(default_factory=list)
    body: dict[int, list[Span]] = field(default_factory=dict)
    fields: dict[int, list[Span]] = field(default_factory=dict)
    #: Files the body carries as base64 that no reader has (`media.py`: images, audio): {path, media_type, bytes};
    #: and the members of files read that their reader could not read (`member`: a picture's path in a `.docx`).
    unread: list[dict] = field(default_factory=list)
    #: The finding paths (`pdf:/messages/0/…`) of files that were read and hold findings: no placeholder can go
    #: into a file's bytes, so redaction cannot forward them.
    sealed: list[str] = field(default_factory=list)
    #: Spans to replace in the names of query parameters (`?lena@example.org`, a bare parameter), by field index.
    names: dict[int, list[Span]] = field(default_factory=dict)


def _union(spans: list[tuple[int, int, int, tuple]]) -> list[Span]:
    """`(start, end, unit, rank)` as spans to replace, sorted: overlapping ones become one, their union, so no
    character of any is forwarded; the highest-ranked names it (its unit gives the placeholder's type)."""
    out: list[Span] = []
    ranks: list[tuple] = []
    for start, end, unit, rank in sorted(spans):
        if out and start < out[-1][1]:
            first, last, named = out[-1]
            if rank > ranks[-1]:
                named, ranks[-1] = unit, rank
            out[-1] = (first, max(last, end), named)
        else:
            out.append((start, end, unit))
            ranks.append(rank)
    return out


@dataclass
class _Placed:
    """What the detectors' walk placed in one text so far (a join reads it as a piece): its scanning site, its
    length, its own spans (the list `Detection.body` holds for the site) and the stretches edits of joined texts
    cover in it, in its own offsets."""

    site: int
    size: int
    own: list[Span]
    joined: list[tuple[int, int]] = field(default_factory=list)


def _cover(spans: list[Span], pieces: list[_Placed], windows: list[tuple[int, int, int]],
           found: Detection) -> list[Span]:
    """A joined text's spans (`windows`: each piece's stretch of the joined text and where the piece's offset 0
    falls in it) grown over the pieces' own spans they overlap, which they replace (what of an own span lies
    beyond the joined text stays the piece's); less what an earlier join's edits cover in the pieces. Every
    character of every hit is replaced, once. The result is noted in the pieces."""
    ranked = [(s, e, u, (e - s, 1)) for s, e, u in spans]  # a joined span names what it grows over
    grown = True
    while grown:
        grown = False
        spans = _union(ranked)
        for piece, (lo, hi, origin) in zip(pieces, windows, strict=True):
            kept: list[Span] = []
            for s, e, u in piece.own:
                at, to = s + origin, e + origin  # in the joined text
                if not any(a < to and at < b for a, b, _ in spans):
                    kept.append((s, e, u))
                    continue
                ranked.append((max(at, lo), min(to, hi), u, (e - s, 0)))
                kept += [(s, lo - origin, u)] if at < lo else []
                kept += [(hi - origin, e, u)] if to > hi else []
                grown = True
            piece.own[:] = kept
            if not kept:
                found.body.pop(piece.site, None)
    for piece, (_, _, origin) in zip(pieces, windows, strict=True):
        for a, b in piece.joined:
            spans = [part for s, e, u in spans for part in ((s, min(e, a + origin), u), (max(s, b + origin), e, u))
                     if part[0] < part[1]]
    for piece, (lo, hi, origin) in zip(pieces, windows, strict=True):
        piece.joined += [(max(s, lo) - origin, min(e, hi) - origin) for s, e, _ in spans if s < hi and lo < e]
    return spans


def _placed_before(hit, pieces: list[_Placed], windows: list[tuple[int, int, int]]) -> bool:
    """Whether earlier joins' edits cover every character of a joined text's hit in the pieces (a run of three texts
    reads again what the join of two of them found, `fields._chains`): no new finding."""
    for piece, (lo, hi, origin) in zip(pieces, windows, strict=True):
        start, end = max(hit.start, lo) - origin, min(hit.end, hi) - origin
        if start < end and not any(a <= start and end <= b for a, b in piece.joined):
            return False
    return True


class Redactor:
    """Inline audit and redaction of whole request bodies (every field, see `fields`) and of the
    headers and query parameters forwarded with them."""

    def __init__(self, cascade: Cascade, episodes: dict[str, EpisodeMap] | None = None):
        self.cascade = cascade
        self._types = [_type_name(u) for u in cascade.units]
        self.episodes: dict[str, EpisodeMap] = episodes if episodes is not None else {}
        self._lock = threading.Lock()

    @classmethod
    def for_units(cls, units: list[Unit], enforcing: bool = True) -> Redactor:
        """The proxy's redactor. One that enforces (redact, block) keeps a value said inside a denial ("is not
        Dana Whitfield"), which an audit scores as no leak, since forwarding it still sends the value's words;
        one that observes scores as the audit does."""
        return cls(Cascade(units, denials=not enforcing))

    def episode_map(self, episode: str | None) -> EpisodeMap:
        """The episode's shared map; untagged requests never share one (a value of one client must not
        come back in another's answer)."""
        if not episode:
            return EpisodeMap()
        with self._lock:
            return self.episodes.setdefault(episode, EpisodeMap())

    # --- outbound --------------------------------------------------------------------------------

    def _hits(self, text: str, literal_only: bool, cuts: tuple[int, ...] = ()) -> list:
        hits = self.cascade.scan_text(text)
        if literal_only:
            hits = [h for h in hits if h.grade >= LITERAL]
        if cuts:  # text parts scanned as one: only what spans two parts is new
            hits = [h for h in hits if any(h.start < c < h.end for c in cuts)]
        return hits

    def _row(self, where: str, text: str, hit) -> dict:
        unit = self.cascade.units[hit.unit_index]
        return {"unit_id": unit.id, "dimension": unit.dimension, "path": where, "start": hit.start,
                "end": hit.end, "matched_text": text[hit.start:hit.end], "detector": hit.detector,
                "grade": hit.grade, "confidence": hit.confidence}

    @staticmethod
    def _spans(hits: list) -> list[Span]:
        """The spans replaced: longest hits first; a hit overlapping one already chosen is covered by
        it. The chosen spans are kept sorted, so each hit is checked against its two neighbours only (a
        10 MB body has thousands of hits)."""
        starts: list[int] = []
        chosen: list[Span] = []
        for hit in sorted(hits, key=lambda h: (-(h.end - h.start), -h.grade)):
            at = bisect.bisect_left(starts, hit.start)
            if (at == 0 or chosen[at - 1][1] <= hit.start) and (at == len(chosen) or hit.end <= chosen[at][0]):
                starts.insert(at, hit.start)
                chosen.insert(at, (hit.start, hit.end, hit.unit_index))
        return chosen

    def detect(self, body: dict, fields: list[Field] | tuple = ()) -> Detection:
        """Inline audit: every unit found anywhere in the body (by JSON path) and in `fields`
        (`header:<name>`, `query:<name>`, `path:path`), and the spans redaction replaces."""
        found = Detection()
        placed: dict[tuple, _Placed] = {}  # by path, what each text holds: what a join of it finds placed
        site = 0
        self._scan_ahead(body)

        def visit(path: tuple, text: str, literal_only: bool, cuts: tuple[int, ...]) -> list[Edit]:
            nonlocal site
            if not cuts and not literal_only:
                self._read_part(path, text, found)
            hits = self._hits(text, literal_only, cuts)
            if cuts and hits:  # each piece's stretch of the joined text (the first piece's tail, or all of it and
                # the comma after it: an array's numbers, `fields._read_spelled`) and its offset 0
                pieces = [placed[piece] for piece in path[-1]]
                bounds = (0, *cuts, len(text))
                windows = [(lo, hi, min(0, hi - piece.size) if k == 0 else lo)
                           for k, (piece, lo, hi) in enumerate(zip(pieces, bounds[:-1], bounds[1:], strict=True))]
                hits = [h for h in hits if not _placed_before(h, pieces, windows)]
            found.rows.extend(self._row(pointer(path), text, h) for h in hits)
            spans = self._spans(hits)
            if cuts and spans:
                spans = _cover(spans, pieces, windows, found)
            if spans:
                found.body[site] = spans
            if not cuts:
                placed[path] = _Placed(site, len(text), spans)
            site += 1
            return []

        walk(body, visit)
        for i, (kind, name, value) in enumerate(fields):
            hits = self._hits(value, False)
            found.rows.extend(self._row(f"{kind}:{name}", value, h) for h in hits)
            if hits:
                found.fields[i] = self._spans(hits)
        self._detect_names(fields, found)
        return found

    def _scan_ahead(self, body: dict) -> None:
        """Every text `walk` reads in the body scanned in one batch before the walk reads them one by one from the
        cache (`Cascade.scan_texts`: the forms' cues of all of them found in one pass, not a pass a text). A read
        costs ~70 µs however short the text: a tool call's array of 2,000 log lines is 2,000 texts alone and 1,999
        pairs read run together (`fields._join_chunks`). Only texts the cache can keep until the walk reads them."""
        texts: list[str] = []

        def read(path: tuple, text: str, literal_only: bool, cuts: tuple[int, ...]) -> list[Edit]:
            texts.append(text)
            return []

        walk(body, read)
        if 1 < len(texts) <= SCAN_AHEAD_TEXTS:
            self.cascade.scan_texts(texts)

    def _detect_names(self, fields: list[Field] | tuple, found: Detection) -> None:
        """Header and query parameter names are forwarded too (`?lena@example.org`, `X-Customer-13922883366`): all
        of a request's scanned as one text, a name a line (one scan, not one a header). A finding's path names the
        field by its index (`query-name:3`), never by the name it is in."""
        named = [(i, kind, name) for i, (kind, name, _) in enumerate(fields) if kind != "path"]
        text = "\n".join(name for _, _, name in named)
        if not text:
            return
        starts = list(itertools.accumulate((len(name) + 1 for _, _, name in named), initial=0))
        by_field: dict[int, list] = defaultdict(list)
        for hit in self._hits(text, False):
            k = bisect.bisect_right(starts, hit.start) - 1
            if hit.end > starts[k] + len(named[k][2]):
                continue  # across two names: no name holds it
            i, kind, name = named[k]
            hit = hit._replace(start=hit.start - starts[k], end=hit.end - starts[k])
            found.rows.append(self._row(f"{kind}-name:{i}", name, hit))
            by_field[i].append(hit)
        found.names.update({i: self._spans(hits) for i, hits in by_field.items() if fields[i][0] == "query"})

    def _read_part(self, path: tuple, text: str, found: Detection) -> None:
        """A file the string holds as base64: its text scanned where a reader has it, else noted as unread; so are the
        members inside it its reader could not read (an image in a `.docx`: its path in the file as `member`)."""
        part = open_part(text)
        if part is None:
            return
        where = pointer(path)
        if part.text is None:
            found.unread.append({"path": where, "media_type": part.media_type, "bytes": part.size})
            return
        found.unread.extend({"path": where, "member": member.path, "media_type": member.media_type,
                             "bytes": member.size} for member in part.unread)
        inside = f"{part.media_type.split('/')[1]}:{where}"
        hits = self._hits(part.text, False)
        found.rows.extend(self._row(inside, part.text, h) for h in hits)
        if hits:
            found.sealed.append(inside)

    def findings(self, body: dict, fields: list[Field] | tuple = ()) -> list[dict]:
        return self.detect(body, fields).rows

    def _edits(self, text: str, spans: list[Span], emap: EpisodeMap) -> list[Edit]:
        return [(s, e, emap.placeholder(u, self._types[u], text[s:e])) for s, e, u in spans]

    def place(self, body: dict, fields: list[Field], found: Detection,
              emap: EpisodeMap) -> tuple[dict, list[Field], int, dict[int, list[Edit]]]:
        """The body and fields with the detected spans replaced by the episode's placeholders, how many
        spans were replaced, and the body's edits by scanning site (for `fields.replay` elsewhere)."""
        placed = {site: self._edits(text, found.body[site], emap) for site, text in _site_texts(body, found.body)}

        def edited(text: str, spans: list[Span] | None) -> str:
            return text if spans is None else apply_edits(text, self._edits(text, spans, emap))

        new_fields = [(kind, edited(name, found.names.get(i)), edited(value, found.fields.get(i)))
                      for i, (kind, name, value) in enumerate(fields)]
        replaced = sum(map(len, found.body.values())) + sum(map(len, found.fields.values())) + \
            sum(map(len, found.names.values()))
        return replay(body, placed), new_fields, replaced, placed

    def redact(self, body: dict, emap: EpisodeMap) -> tuple[dict, list[dict], int]:
        """The body with every detected unit value replaced, its findings, and how many spans were replaced."""
        found = self.detect(body)
        new_body, _, replaced, _ = self.place(body, [], found, emap)
        return new_body, found.rows, replaced

    # --- inbound ---------------------------------------------------------------------------------

    @staticmethod
    def restore_text(text: str, emap: EpisodeMap, json_escaped: bool = False) -> str:
        back = emap.back
        if "[" not in text or not back:
            return text

        def value(match: re.Match) -> str:
            real = back.get(match.group(0))
            if real is None:
                return match.group(0)
            return json.dumps(real, ensure_ascii=False)[1:-1] if json_escaped else real

        return PLACEHOLDER.sub(value, text)

    def restore(self, value, emap: EpisodeMap, json_escaped: bool = False):
        """Placeholders in a whole response body replaced by the values they stand for."""
        if isinstance(value, str):
            return self.restore_text(value, emap, json_escaped)
        if isinstance(value, list):
            return [self.restore(v, emap, json_escaped) for v in value]
        if isinstance(value, dict):
            return {k: self.restore(v, emap, json_escaped or k in _JSON_TEXT_KEYS) for k, v in value.items()}
        return value


class StreamRestorer:
    """Restores placeholders in streamed text deltas, one channel (choice, tool call, block) at a time,
    for a dialect's stream shape (`Dialect.stream`; None: whole placeholders in each event's strings).

    A placeholder may be cut across two deltas; only a tail that could still become one is held back
    (at most a placeholder's length), and released with the channel's next delta or at its end.
    """

    def __init__(self, redactor: Redactor, shape: str | None, emap: EpisodeMap):
        self.redactor, self.emap = redactor, emap
        self._rewrite = _SHAPES.get(shape or "", StreamRestorer._whole)
        self.pending: dict[tuple, str] = {}
        self._delta_kinds: dict[int, str] = {}  # Anthropic block index → its delta type

    def feed(self, channel: tuple, text: str, json_escaped: bool = False) -> str:
        text = self.pending.pop(channel, "") + text
        cut = text.rfind("[")
        if cut >= 0 and len(text) - cut < _MAX_PLACEHOLDER and _PARTIAL.fullmatch(text, cut):
            text, self.pending[channel] = text[:cut], text[cut:]
        return self.redactor.restore_text(text, self.emap, json_escaped)

    def flush(self, channel: tuple) -> str:
        return self.pending.pop(channel, "")

    def channels(self, prefix: tuple) -> list[tuple]:
        return [c for c in self.pending if c[:len(prefix)] == prefix]

    def rewrite(self, name: str | None, data) -> list[tuple[str | None, object]]:
        """One upstream event's payload → the events the client gets (a held tail may add one)."""
        if not isinstance(data, dict):
            return [(name, data)]
        return self._rewrite(self, name, data)

    def _whole(self, name: str | None, data: dict) -> list[tuple[str | None, object]]:
        return [(name, self.redactor.restore(data, self.emap))]

    def _completions(self, name: str | None, chunk: dict) -> list[tuple[str | None, object]]:
        for choice in chunk.get("choices") or []:
            i = choice.get("index", 0)
            if isinstance(choice.get("text"), str):
                choice["text"] = self.feed(("x", i), choice["text"])
            if choice.get("finish_reason"):
                choice["text"] = (choice.get("text") or "") + self.flush(("x", i))
        return [(name, chunk)]

    def _chat(self, name: str | None, chunk: dict) -> list[tuple[str | None, object]]:
        for choice in chunk.get("choices") or []:
            i, delta = choice.get("index", 0), choice.get("delta") or {}
            if isinstance(delta.get("content"), str):
                delta["content"] = self.feed(("c", i), delta["content"])
            for call in delta.get("tool_calls") or []:
                fn = call.get("function") or {}
                if isinstance(fn.get("arguments"), str):
                    fn["arguments"] = self.feed(("t", i, call.get("index", 0)), fn["arguments"], True)
            if choice.get("finish_reason"):
                rest = self.flush(("c", i))
                if rest:
                    delta["content"] = (delta.get("content") or "") + rest
                for channel in self.channels(("t", i)):
                    delta.setdefault("tool_calls", []).append(
                        {"index": channel[2], "function": {"arguments": self.flush(channel)}})
                choice["delta"] = delta
        return [(name, chunk)]

    def _anthropic(self, name: str | None, data: dict) -> list[tuple[str | None, object]]:
        kind, index = data.get("type"), data.get("index", 0)
        if kind == "content_block_delta":
            delta = data.get("delta") or {}
            key = {"text_delta": "text", "input_json_delta": "partial_json"}.get(str(delta.get("type")))
            if key and isinstance(delta.get(key), str):
                self._delta_kinds[index] = delta["type"]
                delta[key] = self.feed(("a", index), delta[key], key == "partial_json")
            return [(name, data)]
        out: list[tuple[str | None, object]] = []
        if kind == "content_block_stop" and ("a", index) in self.pending:
            delta_kind = self._delta_kinds.get(index, "text_delta")
            key = "partial_json" if delta_kind == "input_json_delta" else "text"
            out.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                "delta": {"type": delta_kind, key: self.flush(("a", index))}}))
        return [*out, (name, self.redactor.restore(data, self.emap))]

    def _responses(self, name: str | None, data: dict) -> list[tuple[str | None, object]]:
        kind = str(data.get("type", ""))
        is_args = kind.startswith("response.function_call_arguments.")
        channel = ("r", data.get("item_id"), "args" if is_args else data.get("content_index", 0))
        if kind in ("response.output_text.delta", "response.function_call_arguments.delta"):
            data["delta"] = self.feed(channel, str(data.get("delta", "")), is_args)
            return [(name, data)]
        out: list[tuple[str | None, object]] = []
        if kind in ("response.output_text.done", "response.function_call_arguments.done") \
                and channel in self.pending:
            delta_kind = kind.replace(".done", ".delta")
            extra = {k: data[k] for k in ("item_id", "output_index", "content_index") if k in data}
            out.append((delta_kind if name else None,
                        {"type": delta_kind, **extra, "delta": self.flush(channel)}))
        return [*out, (name, self.redactor.restore(data, self.emap))]


    def _gemini(self, name: str | None, chunk: dict) -> list[tuple[str | None, object]]:
        for candidate in chunk.get("candidates") or []:
            i, parts = candidate.get("index", 0), (candidate.get("content") or {}).get("parts") or []
            texts = [p for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)]
            for part in texts:
                part["text"] = self.feed(("g", i), part["text"])
            rest = self.flush(("g", i)) if candidate.get("finishReason") else ""
            if rest and texts:
                texts[-1]["text"] += rest
            elif rest:
                content = candidate.setdefault("content", {"role": "model"})
                content["parts"] = [*parts, {"text": rest}]
            for part in parts:  # a function call's arguments come whole
                if isinstance(part, dict) and "text" not in part:
                    part.update(self.redactor.restore(part, self.emap))
        return [(name, chunk)]

    def _ollama(self, name: str | None, line: dict) -> list[tuple[str | None, object]]:
        """An Ollama NDJSON line: a chat's `message` content and thinking, a generate's `response` and `thinking`,
        each a channel; tool calls come whole (their arguments an object); the `done` line releases what is held."""
        message = line.get("message") if isinstance(line.get("message"), dict) else None
        texts = [(line, "response"), (line, "thinking")] + ([] if message is None else [
            (message, "content"), (message, "thinking")])
        for holder, key in texts:
            if isinstance(holder.get(key), str):
                holder[key] = self.feed(("o", holder is message, key), holder[key])
        if message is not None and message.get("tool_calls"):
            message["tool_calls"] = self.redactor.restore(message["tool_calls"], self.emap)
        if line.get("done") is True:
            for channel in self.channels(("o",)):
                _, in_message, key = channel
                holder = line.setdefault("message", {"role": "assistant"}) if in_message else line
                holder[key] = (holder.get(key) or "") + self.flush(channel)
        return [(name, line)]


#: Stream shape (`dialects.STREAM_SHAPES`) → how its events are restored.
_SHAPES = {"chat": StreamRestorer._chat, "completions": StreamRestorer._completions,
           "responses": StreamRestorer._responses, "anthropic": StreamRestorer._anthropic,
           "gemini": StreamRestorer._gemini, "ollama": StreamRestorer._ollama}
