"""Claude Code session logs (`~/.claude/projects/<project>/<session>.jsonl`).

Lines are linked by `uuid`/`parentUuid`; assistant lines hold Anthropic Messages responses (one
response may span several lines sharing `message.id`), tool results come back as `user` lines with
`tool_result` blocks. Each distinct assistant `message.id` is one call whose request is every
message before it on its chain (the system prompt is not logged). An assistant line of model
`<synthetic>` is Claude Code's own (an API error, an interrupted turn), no model call. The lines of one
response repeat its usage as it stood when each was written: the output count grows, and the line with
the most output tokens (the last, of equals) gives the call's usage. A resumed or backgrounded session
goes on in a new file that copies the old one's lines: `message.id` names the response wherever it is
written (`meta.call_id`), so the audit counts each response once.

A subagent (the Task / Agent tool) writes its own transcript, its lines `isSidechain` under the parent's
`sessionId`: `<session>/subagents/agent-<id>.jsonl` beside the session's file (Claude Code ≥ 2.1.2), or
`agent-<id>.jsonl` in the project folder before. Its calls run while the parent waits on the tool, so a
session's file is read with its subagents' (`subagent_files`) and their calls taken in time order: a
value a subagent sent is first sent by the subagent's call, not by the parent's later one.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from ec2audit.logs.base import OnError, first_record, instant, make_payload, normalize_usage, read_jsonl
from ec2audit.payloads import Payload, flatten

name = "claude-code"
_SYNTHETIC = "<synthetic>"  # the model Claude Code logs its own assistant lines under
_FILE_KEYS = ("file_path", "path", "notebook_path")


def sniff(path: Path, head: bytes) -> bool:
    record = first_record(head)
    if record is not None and "parentUuid" in record and "sessionId" in record:
        return True
    return b'"parentUuid"' in head and b'"sessionId"' in head and b'"uuid"' in head


def _agent_session(path: Path) -> str | None:
    """The `sessionId` of a legacy subagent transcript (`agent-<id>.jsonl` in the project folder)."""
    if not (path.name.startswith("agent-") and path.suffix == ".jsonl"):
        return None
    try:
        with path.open("rb") as handle:
            record = first_record(handle.readline(1 << 20))
    except OSError:
        return None
    return str(record["sessionId"]) if record and record.get("sessionId") and record.get("isSidechain") else None


def session_file(path: Path) -> Path | None:
    """The session transcript a subagent's transcript is read with, when it is there; else None."""
    if path.parent.name == "subagents" and path.name.startswith("agent-") and path.suffix in (".jsonl", ".json"):
        owner = path.parent.parent.parent / f"{path.parent.parent.name}.jsonl"
    elif (session := _agent_session(path)) is not None:
        owner = path.with_name(f"{session}.jsonl")
    else:
        return None
    return owner if owner.is_file() and owner != path else None


def subagent_files(path: Path) -> list[Path]:
    """The transcripts of a session's subagents, in name order: both layouts."""
    if path.name.startswith("agent-") or path.suffix != ".jsonl":
        return []
    nested = sorted(path.with_suffix("").joinpath("subagents").glob("agent-*.jsonl"))
    legacy = sorted(p for p in path.parent.glob("agent-*.jsonl") if _agent_session(p) == path.stem)
    return [p for p in nested + legacy if p.is_file()]


def companions(path: Path) -> list[Path]:
    """What a session's transcript is read with: its subagents' transcripts and their `.meta.json`
    sidecars (the agent's type, not read)."""
    nested = path.with_suffix("").joinpath("subagents")
    return subagent_files(path) + sorted(p for p in nested.glob("agent-*.meta.json") if p.is_file())


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    """The calls of a session and of its subagents, in time order (a call without a time keeps its
    place after the call before it in its file), numbered in that order."""
    files = [_calls(path, on_error), *(_calls(p, on_error) for p in subagent_files(path))]
    for step, (_, _, payload) in enumerate(heapq.merge(*files, key=lambda item: item[:2]), start=1):
        payload.meta["step"] = step
        yield payload


_BEFORE_ALL = datetime.min.replace(tzinfo=UTC)


def _calls(path: Path, on_error: OnError) -> Iterator[tuple[datetime, int, Payload]]:
    """One file's calls with their time (the call before's when one has none) and place."""
    at = _BEFORE_ALL
    for place, payload in enumerate(_file_calls(path, on_error)):
        at = instant(payload.meta.get("timestamp")) or at
        yield at, place, payload


def _file_calls(path: Path, on_error: OnError) -> Iterator[Payload]:
    lines: dict[str, tuple[int, dict]] = {}
    order: list[str] = []
    tools: dict[str, tuple[str, dict]] = {}
    usage: dict[str, dict] = {}  # per response: the usage of its line with the most output tokens
    for number, record in read_jsonl(path, on_error):
        message = record.get("message")
        if record.get("type") not in ("user", "assistant") or not isinstance(message, dict) or not record.get("uuid"):
            continue
        uid = str(record["uuid"])
        lines[uid] = (number, record)
        order.append(uid)
        if message.get("id") and isinstance(message.get("usage"), dict):
            kept = usage.get(str(message["id"]))
            if kept is None or _output(message["usage"]) >= _output(kept):
                usage[str(message["id"])] = message["usage"]
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("id"):
                tools[str(block["id"])] = (str(block.get("name", "")), block.get("input") or {})
    step = 0
    called: set[str] = set()  # responses whose call is out: their other lines are that response's blocks
    for uid in order:
        number, record = lines[uid]
        message = record["message"]
        parent = lines.get(str(record.get("parentUuid")))
        if record["type"] != "assistant" or message.get("model") == _SYNTHETIC or str(message.get("id")) in called or (
                parent and parent[1]["type"] == "assistant" and parent[1]["message"].get("id") == message.get("id")):
            continue
        if message.get("id"):
            called.add(str(message["id"]))
        chain, cursor, seen = [], parent, set()
        while cursor and cursor[1]["uuid"] not in seen:
            seen.add(cursor[1]["uuid"])
            chain.append(cursor[1])
            cursor = lines.get(str(cursor[1].get("parentUuid")))
        chain.reverse()
        sources = {}
        for i, item in enumerate(chain, start=1):
            sources[i] = {"entry": item["uuid"], "line": lines[item["uuid"]][0]}
            for block in item["message"].get("content") if isinstance(item["message"].get("content"), list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result" and block.get("tool_use_id") in tools:
                    tool, args = tools[block["tool_use_id"]]
                    sources[i]["tool"] = tool
                    file = next((args[k] for k in _FILE_KEYS if isinstance(args.get(k), str)), None)
                    if file:
                        sources[i]["file"] = file
                    elif isinstance(args.get("command"), str):  # Bash
                        sources[i]["command"] = args["command"][:200]
        body = {"messages": [{"role": item["message"].get("role", item["type"]),
                              "content": item["message"].get("content")} for item in chain]}
        step += 1
        session = str(record.get("sessionId") or path.stem)
        payload = make_payload(
            pid=str(message.get("id") or f"{session}#{step}"), segments=flatten(body, "anthropic-messages"),
            session=session, step=step, api="anthropic-messages", provider="anthropic",
            model=message.get("model"), timestamp=record.get("timestamp"), path=path, line=number,
            usage=normalize_usage(usage.get(str(message.get("id")), message.get("usage"))), messages=sources)
        if message.get("id"):
            payload.meta["call_id"] = f"anthropic:{message['id']}"
        yield payload


def _output(usage: dict) -> int:
    count = usage.get("output_tokens")
    return count if isinstance(count, int) else -1
