"""Gemini CLI sessions (`~/.gemini/tmp/<project hash>/chats/session-<time>-<id>.json` or `.jsonl`; a subagent's
`chats/<parent session>/<id>.jsonl`).

A `.json` session is one document `{sessionId, projectHash, startTime, lastUpdated, messages}`; a `.jsonl` one (Gemini
CLI since April 2026) is its metadata line, then each message as it was written, a message written again under its id
(its tokens or its tools' results added) replacing the earlier line in place, `{"$set": …}` metadata updates and
`{"$rewindTo": id}` rewinds. A `gemini` message is one model response: its text, the tools it called
(`toolCalls`, each with the `result` parts sent back to the model in the next request) and its usage (`tokens`:
Gemini's usage metadata, renamed); a `user` message is the prompt as sent (`content`, the `@file` contents
inlined). The request is not logged: a response's request is every message before it, its tools' results
after its calls (the system prompt is not logged). `info`, `error` and `warning` messages are the CLI's own.
A rewind is read as nothing: the messages it takes back were sent by the calls that followed them. Resuming a
`.json` session copies it into a `.jsonl` beside it: each response counts once wherever it is written
(`meta.call_id`, its message id).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from ec2audit.logs.base import OnError, first_record, load_json, outline, read_jsonl
from ec2audit.logs.messages import conversation_calls
from ec2audit.payloads import Payload

name = "gemini-cli"
#: `tokens` → Gemini's usage metadata (`promptTokenCount` holds the cached tokens; thoughts are billed as output,
#: tool-use prompts as input)
_USAGE = {"input": "promptTokenCount", "output": "candidatesTokenCount", "cached": "cachedContentTokenCount",
          "thoughts": "thoughtsTokenCount", "tool": "toolUsePromptTokenCount", "total": "totalTokenCount"}


def sniff(path: Path, head: bytes) -> bool:
    record = first_record(head)
    if record is not None and "sessionId" in record and "projectHash" in record:
        return True  # the JSONL metadata line, or a whole session on one line
    keys = outline(head)
    return {"sessionId", "projectHash", "messages.item.type"} <= keys


def _text(parts) -> str:
    """A `PartListUnion` as text: a string, a part or a list of them (`text`, a `functionResponse`'s response)."""
    if isinstance(parts, str):
        return parts
    if isinstance(parts, dict):
        parts = [parts]
    texts = []
    for part in parts if isinstance(parts, list) else []:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
            response = part["functionResponse"].get("response")
            output = response.get("output") if isinstance(response, dict) else None
            texts.append(output if isinstance(output, str) else json.dumps(response, ensure_ascii=False))
        elif part is not None:
            texts.append(json.dumps(part, ensure_ascii=False))
    return "\n".join(t for t in texts if t)


def _messages(records: list[dict]) -> list[dict]:
    """The session's messages in the OpenAI Chat shape: a response's tool results follow it as `tool` messages."""
    out: list[dict] = []
    for record in records:
        kind = record.get("type")
        if kind == "user":
            out.append({"role": "user", "content": _text(record.get("content"))})
        elif kind == "gemini":
            calls = [c for c in record.get("toolCalls") or [] if isinstance(c, dict)]
            tokens = record.get("tokens")
            out.append({"role": "assistant", "content": _text(record.get("content")), "model": record.get("model"),
                        "timestamp": record.get("timestamp"), "id": record.get("id"),
                        "usage": {_USAGE[k]: v for k, v in tokens.items() if k in _USAGE}
                        if isinstance(tokens, dict) else None,
                        "tool_calls": [{"id": str(c.get("id") or ""), "name": c.get("name"),
                                        "arguments": c.get("args") or {}} for c in calls]})
            out += [{"role": "tool", "tool_call_id": str(c.get("id") or ""), "name": c.get("name"),
                     "content": _text(c.get("result"))} for c in calls if c.get("result") is not None]
    return out


def _records(path: Path, on_error: OnError) -> tuple[str, list[dict]]:
    """The session id and its messages, each as last written (in the place it was first written)."""
    if path.suffix != ".jsonl":
        document = load_json(path, on_error)
        messages = document.get("messages") if isinstance(document, dict) else None
        if not isinstance(messages, list):
            return path.stem, []
        return str(document.get("sessionId") or path.stem), [m for m in messages if isinstance(m, dict)]
    session, messages = path.stem, {}
    for _, record in read_jsonl(path, on_error):
        if isinstance(record.get("id"), str):
            messages[record["id"]] = record
        elif "sessionId" in record and "projectHash" in record:
            session = str(record["sessionId"])
    return session, list(messages.values())


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    session, records = _records(path, on_error)
    messages = _messages(records)
    responses = iter([m for m in messages[1:] if m["role"] == "assistant"])  # as `conversation_calls` numbers them
    for payload in conversation_calls(messages, session=session, path=path, line=None, provider="google",
                                      model=None):
        response = next(responses)["id"]
        if isinstance(response, str) and response:
            payload.meta["call_id"] = f"gemini-cli:{response}"
        yield payload
