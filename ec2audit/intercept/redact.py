"""Redaction: unit values become typed, numbered placeholders (`[PHONE_001]`) on the way to the cloud
and are restored in the answer, so the agent works with real values while the cloud never sees them.

Placeholders are stable within an episode: the same surface form of a unit gets the same placeholder
in every request, and each placeholder restores exactly the text the agent sent. Positions come from
`Cascade.scan_text`, so whatever the audit would report is what gets replaced.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field

from ec2audit.detect.cascade import Cascade
from ec2audit.detect.finding import LITERAL
from ec2audit.intercept.fields import pointer, walk

PLACEHOLDER = re.compile(r"\[[A-Z][A-Z_]*_\d{3,6}\]")
_PARTIAL = re.compile(r"\[[A-Z_]*\d{0,6}")  # a possible placeholder cut off by a chunk boundary
_MAX_PLACEHOLDER = 48
#: Keys whose string values are JSON text (tool-call arguments): restored values are JSON-escaped.
_JSON_TEXT_KEYS = frozenset({"arguments", "partial_json"})


def _type_name(unit) -> str:
    name = re.sub(r"[^A-Z_]", "", unit.field.upper().replace("-", "_")).strip("_")
    return name or re.sub(r"[^A-Z_]", "", unit.dimension.upper()) or "VALUE"


@dataclass
class EpisodeMap:
    """One episode's placeholders; a request without an episode gets a map of its own."""

    forward: dict[tuple[int, str], str] = field(default_factory=dict)  # (unit index, surface) → placeholder
    back: dict[str, str] = field(default_factory=dict)  # placeholder → surface text
    counters: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def placeholder(self, unit_index: int, type_name: str, surface: str) -> str:
        key = (unit_index, surface)
        if key not in self.forward:
            self.counters[type_name] += 1
            token = f"[{type_name}_{self.counters[type_name]:03d}]"
            self.forward[key], self.back[token] = token, surface
        return self.forward[key]


class Redactor:
    """Inline audit and redaction of whole request bodies (every field, see `fields`)."""

    def __init__(self, cascade: Cascade):
        self.cascade = cascade
        self._types = [_type_name(u) for u in cascade.units]
        self.episodes: dict[str, EpisodeMap] = defaultdict(EpisodeMap)

    def episode_map(self, episode: str | None) -> EpisodeMap:
        """The episode's shared map; untagged requests never share one (a value of one client must not
        come back in another's answer)."""
        return self.episodes[episode] if episode else EpisodeMap()

    # --- outbound --------------------------------------------------------------------------------

    def _hits(self, text: str, literal_only: bool) -> list:
        hits = self.cascade.scan_text(text)
        return [h for h in hits if h.grade >= LITERAL] if literal_only else hits

    def _row(self, path: tuple, text: str, hit) -> dict:
        unit = self.cascade.units[hit.unit_index]
        return {"unit_id": unit.id, "dimension": unit.dimension, "path": pointer(path), "start": hit.start,
                "end": hit.end, "matched_text": text[hit.start:hit.end], "detector": hit.detector,
                "grade": hit.grade, "confidence": hit.confidence}

    def findings(self, body: dict) -> list[dict]:
        """Inline audit: every unit found anywhere in the body, by JSON path."""
        rows: list[dict] = []

        def visit(path: tuple, text: str, literal_only: bool) -> None:
            rows.extend(self._row(path, text, h) for h in self._hits(text, literal_only))

        walk(body, visit)
        return rows

    def redact(self, body: dict, emap: EpisodeMap) -> tuple[dict, list[dict], int]:
        """The body with every detected unit value replaced, its findings, and how many spans were replaced."""
        rows: list[dict] = []
        replaced = 0

        def visit(path: tuple, text: str, literal_only: bool) -> str | None:
            nonlocal replaced
            hits = self._hits(text, literal_only)
            if not hits:
                return None
            rows.extend(self._row(path, text, h) for h in hits)
            chosen: list = []  # longest first; a hit overlapping a chosen one is already covered
            for hit in sorted(hits, key=lambda h: (-(h.end - h.start), -h.grade)):
                if all(hit.end <= c.start or hit.start >= c.end for c in chosen):
                    chosen.append(hit)
            for hit in sorted(chosen, key=lambda h: -h.start):
                token = emap.placeholder(hit.unit_index, self._types[hit.unit_index], text[hit.start:hit.end])
                text = text[:hit.start] + token + text[hit.end:]
            replaced += len(chosen)
            return text

        return walk(body, visit), rows, replaced

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
    """Restores placeholders in streamed text deltas, one channel (choice, tool call, block) at a time.

    A placeholder may be cut across two deltas; only a tail that could still become one is held back
    (at most a placeholder's length), and released with the channel's next delta or at its end.
    """

    def __init__(self, redactor: Redactor, api: str, emap: EpisodeMap):
        self.redactor, self.api, self.emap = redactor, api, emap
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
        if self.api == "openai-chat":
            return [(name, self._chat(data))]
        if self.api == "anthropic-messages":
            return self._anthropic(name, data)
        return self._responses(name, data)

    def _chat(self, chunk: dict) -> dict:
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
        return chunk

    def _anthropic(self, name: str | None, data: dict) -> list[tuple[str | None, object]]:
        kind, index = data.get("type"), data.get("index", 0)
        if kind == "content_block_delta":
            delta = data.get("delta") or {}
            key = {"text_delta": "text", "input_json_delta": "partial_json"}.get(delta.get("type"))
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
