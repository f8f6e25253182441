"""OpenClaw session transcripts (`~/.openclaw/agents/<agent>/sessions/<id>.jsonl`, docs/design.md §4).

Entries form a tree through `id`/`parentId`; every assistant `message` is one model call, and its
request is what OpenClaw's context builder puts before it on its branch: the system prompt (from a
sibling `<id>.trajectory.jsonl` when there is one), user and tool-result messages, earlier assistant
turns, hidden `custom_message` blocks and `branch_summary` texts; after a `compaction`, its summary
plus the entries it kept. The same events stored in SQLite are read by `openclaw_sqlite`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ec2audit.console import plural
from ec2audit.errors import InputError
from ec2audit.logs import acebench_audit
from ec2audit.logs.base import OnError, first_record, make_payload, normalize_usage, read_jsonl
from ec2audit.payloads import Payload, Segment

name = "openclaw-jsonl"

#: Entry types that never enter the model context (they still link the tree: a `custom` entry
#: is often the parent of the next message).
_SILENT = frozenset({"session", "model_change", "thinking_level_change", "custom", "label", "session_info"})
_CONTEXT = frozenset({"message", "custom_message", "compaction", "branch_summary"})
_FILE_TOOLS = frozenset({"read", "write", "edit", "apply_patch"})
_FILE_ARGS = ("path", "file_path", "filePath", "file")
#: Assistant messages OpenClaw writes into a transcript itself (a reply mirrored to a channel, a
#: gateway-injected turn): they enter later contexts but were never a model call.
TRANSCRIPT_ONLY = frozenset({("openclaw", "delivery-mirror"), ("openclaw", "gateway-injected")})


def model_call(message: dict) -> bool:
    """Whether an assistant message is the answer to a model call."""
    return message.get("role") == "assistant" and (message.get("provider"), message.get("model")) not in TRANSCRIPT_ONLY


def _text(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _blocks(content) -> list:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return content if isinstance(content, list) else []


def message_parts(message: dict) -> tuple[list[tuple[str, str, str]], int]:
    """(role, origin, text) parts of one agent message as the model reads it, and its image count.
    Thinking blocks are the model's own output and are not sent back, so they are left out."""
    role = message.get("role")
    parts: list[tuple[str, str, str]] = []
    images = 0
    if role == "bashExecution":
        text = "\n".join(_text(message[k]) for k in ("command", "output") if message.get(k))
        return ([("user", "user", text)] if text else []), 0
    if role in ("compactionSummary", "branchSummary") and isinstance(message.get("summary"), str):
        return [("user", "user", message["summary"])], 0
    origin = {"assistant": "assistant", "toolResult": "tool_result"}.get(str(role), "user")
    out_role = {"assistant": "assistant", "toolResult": "tool"}.get(str(role), "user")
    for block in _blocks(message.get("content")):
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            parts.append((out_role, origin, block["text"]))
        elif kind == "toolCall":
            parts.append(("assistant", "tool_call_args", _text(block.get("arguments", {}))))
        elif kind == "image":
            images += 1
    return parts, images


@dataclass
class _Entry:
    id: str
    parent: str | None
    line: int
    kind: str | None
    data: dict
    parts: list[tuple[str, str, str]] = field(default_factory=list)
    source: dict = field(default_factory=dict)


class Transcript:
    """Collects one session's entries, then yields one payload per assistant message."""

    def __init__(self, path: Path, on_error: OnError, session: str | None = None):
        self.path, self.on_error, self.session = path, on_error, session
        self.entries: dict[str, _Entry] = {}
        self.order: list[_Entry] = []
        self.tool_calls: dict[str, tuple[str, dict]] = {}
        self._last: str | None = None
        self._segments: dict[tuple[str, int], list[Segment]] = {}

    def _error(self, message: str, line: int) -> None:
        self.on_error(InputError(message, file=str(self.path), line=line))

    def add(self, entry: dict, line: int) -> None:
        kind = entry.get("type")
        if kind == "session":
            self.session = self.session or (str(entry["id"]) if entry.get("id") else None)
            return
        if kind not in _SILENT | _CONTEXT:
            self._error(f"unknown entry type {kind!r}, ignored", line)
        eid = str(entry.get("id") or f"line{line}")
        parent = entry.get("parentId", self._last) if "id" in entry else self._last
        item = _Entry(eid, str(parent) if parent else None, line, kind, entry,
                      source={"entry": eid, "line": line, "kind": kind})
        if kind == "message":
            message = entry.get("message")
            if not isinstance(message, dict):
                self._error("message entry without a 'message' object", line)
                message = {}
            item.parts, images = message_parts(message)
            item.source["kind"] = message.get("role")
            if message.get("role") == "bashExecution" and isinstance(message.get("command"), str):
                item.source["command"] = message["command"][:200]
            if images:
                self._error(f"{plural(images, 'image block')} not audited", line)
            for block in _blocks(message.get("content")):
                if isinstance(block, dict) and block.get("type") == "toolCall" and block.get("id"):
                    args = given if isinstance(given := block.get("arguments"), dict) else {}
                    self.tool_calls[str(block["id"])] = (str(block.get("name", "")), args)
            if message.get("role") == "toolResult":
                item.source["tool_call"] = message.get("toolCallId")
                item.source["tool"] = message.get("toolName")
        elif kind == "custom_message":
            parts, images = message_parts({"role": "user", "content": entry.get("content")})
            item.parts = [("user", "user", t) for _, _, t in parts]
            item.source["kind"] = f"custom_message {entry.get('customType') or ''}".strip()
            if images:
                self._error(f"{plural(images, 'image block')} not audited", line)
        elif kind in _CONTEXT and isinstance(entry.get("summary"), str):
            item.parts = [("user", "user", entry["summary"])]
        self.entries[eid] = item
        self.order.append(item)
        self._last = eid

    def _path(self, start: str | None) -> list[_Entry]:
        path, seen = [], set()
        while start and start in self.entries and start not in seen:
            seen.add(start)
            path.append(self.entries[start])
            start = self.entries[start].parent
        path.reverse()
        return path

    def _context(self, path: list[_Entry]) -> list[_Entry]:
        """The entries whose messages enter the model context at the end of `path`."""
        cut = max((i for i, e in enumerate(path) if e.kind == "compaction"), default=None)
        if cut is None:
            return [e for e in path if e.parts]
        keep_from = path[cut].data.get("firstKeptEntryId")
        ids = [e.id for e in path[:cut]]
        start = ids.index(keep_from) if keep_from in ids else cut
        return [path[cut]] + [e for e in path[start:cut] + path[cut + 1:] if e.parts]

    def _message_segments(self, entry: _Entry, index: int) -> list[Segment]:
        key = (entry.id, index)
        if key not in self._segments:
            self._segments[key] = [Segment(index, r, o, t) for r, o, t in entry.parts if t]
        return self._segments[key]

    def _source(self, entry: _Entry) -> dict:
        call = entry.source.get("tool_call")
        if call and call in self.tool_calls and "file" not in entry.source:
            tool, args = self.tool_calls[call]
            entry.source["tool"] = entry.source.get("tool") or tool
            file = next((args[k] for k in _FILE_ARGS if isinstance(args.get(k), str)), None)
            if tool in _FILE_TOOLS and file:
                entry.source["file"] = file
            elif isinstance(args.get("command"), str):
                entry.source["command"] = args["command"][:200]
        return entry.source

    def payloads(self, system_prompt: str | None = None, task_id: str | None = None) -> Iterator[Payload]:
        session = self.session or self.path.stem
        step = 0
        system = [Segment(0, "system", "system", system_prompt)] if system_prompt else []
        for entry in self.order:
            message = entry.data.get("message") if entry.kind == "message" else None
            if not isinstance(message, dict) or not model_call(message):
                continue
            step += 1
            context = self._context(self._path(entry.parent))
            offset = len(system)
            segments = list(system)
            sources = {0: {"entry": "system-prompt"}} if system else {}
            for i, item in enumerate(context, start=offset):
                segments += self._message_segments(item, i)
                sources[i] = self._source(item)
            yield make_payload(
                pid=f"{session}#{step}", segments=segments, session=session, step=step,
                api=str(message.get("api") or "openclaw"), provider=message.get("provider"),
                model=message.get("model"), timestamp=entry.data.get("timestamp"), path=self.path,
                line=entry.line, usage=normalize_usage(message.get("usage")), messages=sources, task_id=task_id)


def trajectory_path(path: Path) -> Path:
    return path.with_name(path.name[: -len(".jsonl")] + ".trajectory.jsonl")


def _system_prompt(path: Path) -> str | None:
    """The system prompt OpenClaw compiled for this session, from its trajectory trace if present."""
    traj = trajectory_path(path)
    if not traj.is_file():
        return None
    for _, event in read_jsonl(traj, lambda error: None):
        prompt = (event.get("data") or {}).get("systemPrompt") if isinstance(event.get("data"), dict) else None
        if isinstance(prompt, str) and prompt:
            return prompt
    return None


def sniff(path: Path, head: bytes) -> bool:
    if path.name.endswith(".trajectory.jsonl"):
        return False
    record = first_record(head)
    return record is not None and (record.get("type") == "session" or (
        record.get("type") in _CONTEXT | _SILENT and "parentId" in record))


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    """A transcript AceBench collected from a run (`chat.jsonl` in its output folder) is that run's session, of the
    task its folder names, as the run's cloud audit beside it is (`acebench_audit`)."""
    run = acebench_audit.run_of(path) if path.name == "chat.jsonl" else None
    transcript = Transcript(path, on_error, "/".join(run) if run else None)
    for number, entry in read_jsonl(path, on_error):
        transcript.add(entry, number)
    yield from transcript.payloads(_system_prompt(path), task_id=run[0] if run else None)
