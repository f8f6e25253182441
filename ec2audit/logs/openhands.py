"""OpenHands event streams: a conversation's `events/<n>.json` files (one event each), a trajectory
export (a JSON array of events) and evaluation output (`output.jsonl`: one instance per line, its
events in `history`, the model in `metadata.llm_config`).

Events become the messages OpenHands' conversation memory sends: the `system` action's prompt, user
`message` actions, agent actions as assistant tool calls (arguments from `args`), observations as
tool results. Agent actions sharing a `tool_call_metadata.model_response.id` came from one model
response: they are one call, and so is an agent `message` with no tool call. Usage comes from the
response; an agent's last `message` has none, and its call's tokens are what the running totals OpenHands
keeps on its actions (`llm_metrics.accumulated_token_usage`) grew by since the call before. The model comes
from the response or from `llm_config`, whose `base_url` gives the side.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache
from itertools import chain
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs.base import (
    OnError,
    broken_json,
    json_object,
    json_values,
    make_payload,
    normalize_usage,
    outline,
)
from ec2audit.logs.messages import carrier, provider_of
from ec2audit.payloads import Payload, Segment

name = "openhands"
_EVENT_FILE = re.compile(r"^(\d+)\.json$")
_SILENT_ACTIONS = frozenset({"change_agent_state", "null", "recall", "condensation", "condensation_request"})
_SILENT_OBSERVATIONS = frozenset({"agent_state_changed", "null", "user_rejected"})
_BOOKKEEPING = frozenset({"thought", "is_input", "blocking", "hidden", "confirmation_state", "security_risk",
                          "wait_for_response", "image_urls", "file_urls", "impl_source", "translated_ipython_code"})


def _is_event(keys: frozenset[str], prefix: str) -> bool:
    return f"{prefix}source" in keys and bool({f"{prefix}action", f"{prefix}observation"} & keys)


def sniff(path: Path, head: bytes) -> bool:
    keys = outline(head)
    return _is_event(keys, "") or _is_event(keys, "item.") or _is_event(keys, "history.item.")


@lru_cache(maxsize=64)
def _event_files(folder: Path) -> tuple[Path, ...]:
    """A conversation's event files in order (`events/0.json`, `1.json`, …)."""
    found = [(int(m[1]), p) for p in folder.iterdir() if (m := _EVENT_FILE.match(p.name)) and p.is_file()]
    return tuple(p for _, p in sorted(found))


def first_event_file(path: Path) -> Path | None:
    """For one event file of an OpenHands `events/` folder, the folder's first: the one read for all."""
    if path.parent.name != "events" or not _EVENT_FILE.match(path.name):
        return None
    files = _event_files(path.parent)
    return files[0] if files and _is_stream(files[0]) else None


@lru_cache(maxsize=64)
def _is_stream(first: Path) -> bool:
    with first.open("rb") as handle:
        return sniff(first, handle.read(64 * 1024))


def event_files(first: Path) -> tuple[Path, ...]:
    """The event files read together with `first` (when it is a folder's first event file)."""
    return _event_files(first.parent)[1:] if first_event_file(first) == first else ()


def _event_text(event: dict) -> str:
    args = json_object(event.get("args"))
    for value in (args.get("content"), event.get("content"), args.get("thought"), event.get("message")):
        if isinstance(value, str) and value:
            return value
    return ""


class _Conversation:
    """Messages of one event stream so far; each model response's call is everything before it."""

    def __init__(self, session: str, path: Path, model: str | None, base_url: str | None):
        self.session, self.path, self.base_url = session, path, base_url
        self.provider, self.model = provider_of(model)
        self.segments: list[Segment] = []
        self.sources: dict[int, dict] = {}
        self.tools: dict[str, dict] = {}
        self.responses: set[str] = set()
        self.step = 0
        self.totals: dict[str, int] | None = {}  # `accumulated_token_usage` as of the call before; None: unknown

    def _add(self, role: str, origin: str, text: str, source: dict) -> None:
        index = len(self.sources)
        self.sources[index] = source
        if text:
            self.segments.append(Segment(index, role, origin, text))

    def event(self, event: dict, line: int | None) -> Iterator[Payload]:
        kind = event.get("action") or event.get("observation")
        source = {"entry": f"event {event.get('id')}", "kind": kind}
        args = json_object(event.get("args"))
        metadata = json_object(event.get("tool_call_metadata"))
        if "action" in event:
            if kind in _SILENT_ACTIONS:
                return
            if kind == "system":
                self._add("system", "system", _event_text(event), source)
            elif event.get("source") == "user":
                self._add("user", "user", _event_text(event), source)
            else:
                response = json_object(metadata.get("model_response"))
                response_id = str(response.get("id") or f"event {event.get('id')}")
                if response_id not in self.responses:
                    self.responses.add(response_id)
                    yield self._call(event, response, line)
                tool_args = {k: v for k, v in args.items() if k not in _BOOKKEEPING}
                if metadata.get("tool_call_id"):
                    self.tools[str(metadata["tool_call_id"])] = carrier(metadata.get("function_name") or kind, args)
                if args.get("thought"):
                    self._add("assistant", "assistant", str(args["thought"]), source)
                if kind == "message":
                    self._add("assistant", "assistant", _event_text(event), source)
                else:
                    self._add("assistant", "tool_call_args", json.dumps(tool_args, ensure_ascii=False), source)
        elif kind not in _SILENT_OBSERVATIONS:
            tool = self.tools.get(str(metadata.get("tool_call_id")), {})
            extras = json_object(event.get("extras"))
            self._add("tool", "tool_result", _event_text(event),
                      {**source, **(tool or carrier(str(kind), extras))})

    def _grown(self, event: dict) -> dict | None:
        """The tokens the running totals on `event` grew by since the last call's, in OpenAI's usage shape
        (OpenHands' `prompt_tokens` include the cache's reads and writes, as LiteLLM counts them)."""
        metrics = json_object(event.get("llm_metrics"))
        totals = metrics.get("accumulated_token_usage")
        if not isinstance(totals, dict):
            self.totals = None  # a call without totals: the next one's growth would count it too
            return None
        keys = ("prompt_tokens", "completion_tokens", "cache_read_tokens", "cache_write_tokens")
        now = {k: v if isinstance(v := totals.get(k), int) else 0 for k in keys}
        before, self.totals = self.totals, now
        if before is None:
            return None
        grown = {k: now[k] - before.get(k, 0) for k in keys}
        if grown["prompt_tokens"] <= 0 or min(grown.values()) < 0:  # nothing new, or totals started over
            return None
        return {"prompt_tokens": grown["prompt_tokens"], "completion_tokens": grown["completion_tokens"],
                "prompt_tokens_details": {"cached_tokens": grown["cache_read_tokens"]},
                "cache_creation_input_tokens": grown["cache_write_tokens"]}

    def _call(self, event: dict, response: dict, line: int | None) -> Payload:
        self.step += 1
        if response.get("model"):  # a later call without a response (a plain message) keeps the last model
            provider, self.model = provider_of(response["model"])
            self.provider = provider or self.provider
        grown = self._grown(event)
        return make_payload(
            pid=str(response.get("id") or f"{self.session}#{self.step}"), segments=list(self.segments),
            session=self.session, step=self.step, api="openai-chat", provider=self.provider,
            model=self.model, timestamp=event.get("timestamp"), path=self.path, line=line,
            usage=normalize_usage(response.get("usage") or grown), base_url=self.base_url, messages=dict(self.sources))


def _stream(events, session: str, path: Path, model: str | None = None, base_url: str | None = None,
            line: int | None = None) -> Iterator[Payload]:
    conversation = _Conversation(session, path, model, base_url)
    for number, event in enumerate(events, start=1):
        if isinstance(event, dict):
            yield from conversation.event(event, line or number)


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    import ijson

    first = first_event_file(path)
    if first is not None:
        events = (json.loads(p.read_bytes()) for p in _event_files(path.parent))
        yield from _stream(events, path.parent.parent.name, path)
        return
    number = 0
    try:
        values = json_values(path)
        for number, value in enumerate(values, start=1):
            if isinstance(value, dict) and isinstance(value.get("history"), list):  # evaluation output
                llm = ((value.get("metadata") or {}).get("llm_config") or {}) if isinstance(
                    value.get("metadata"), dict) else {}
                yield from _stream(value["history"], str(value.get("instance_id") or f"{path.stem}#{number}"), path,
                                   llm.get("model"), llm.get("base_url"), number)
            elif isinstance(value, dict):  # a trajectory export: the rest of the array is its events
                yield from _stream(chain([value], values), path.stem, path)
                return
            else:
                on_error(InputError("not an OpenHands event or instance, skipped", file=str(path), line=number))
    except ijson.JSONError as exc:
        on_error(broken_json(path, number, exc))
