"""Claude Code session logs (`~/.claude/projects/<project>/<session>.jsonl`).

Lines are linked by `uuid`/`parentUuid`; assistant lines hold Anthropic Messages responses (one
response may span several lines sharing `message.id`), tool results come back as `user` lines with
`tool_result` blocks. Each distinct assistant `message.id` is one call whose request is every
message before it on its chain (the system prompt is not logged). An assistant line of model
`<synthetic>` is Claude Code's own (an API error, an interrupted turn), no model call.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ec2audit.logs.base import OnError, first_record, make_payload, normalize_usage, read_jsonl
from ec2audit.payloads import Payload, flatten

name = "claude-code"
_SYNTHETIC = "<synthetic>"  # the model Claude Code logs its own assistant lines under
_FILE_KEYS = ("file_path", "path", "notebook_path")


def sniff(path: Path, head: bytes) -> bool:
    record = first_record(head)
    if record is not None and "parentUuid" in record and "sessionId" in record:
        return True
    return b'"parentUuid"' in head and b'"sessionId"' in head and b'"uuid"' in head


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    lines: dict[str, tuple[int, dict]] = {}
    order: list[str] = []
    tools: dict[str, tuple[str, dict]] = {}
    for number, record in read_jsonl(path, on_error):
        message = record.get("message")
        if record.get("type") not in ("user", "assistant") or not isinstance(message, dict) or not record.get("uuid"):
            continue
        uid = str(record["uuid"])
        lines[uid] = (number, record)
        order.append(uid)
        for block in message.get("content") if isinstance(message.get("content"), list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("id"):
                tools[str(block["id"])] = (str(block.get("name", "")), block.get("input") or {})
    step = 0
    for uid in order:
        number, record = lines[uid]
        message = record["message"]
        parent = lines.get(str(record.get("parentUuid")))
        if record["type"] != "assistant" or message.get("model") == _SYNTHETIC or (
                parent and parent[1]["type"] == "assistant" and parent[1]["message"].get("id") == message.get("id")):
            continue
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
        yield make_payload(
            pid=str(message.get("id") or f"{session}#{step}"), segments=flatten(body, "anthropic-messages"),
            session=session, step=step, api="anthropic-messages", provider="anthropic",
            model=message.get("model"), timestamp=record.get("timestamp"), path=path, line=number,
            usage=normalize_usage(message.get("usage")), messages=sources)
