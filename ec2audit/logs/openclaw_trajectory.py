"""OpenClaw trajectory traces (`<session>.trajectory.jsonl`, `traceSchema: openclaw-trajectory`).

A run's `context.compiled` event (or `prompt.submitted` when there is none) holds the request as
OpenClaw compiled it: system prompt, prior messages and the new prompt. The run's model calls are
that request, then — when `model.completed` carries a `messagesSnapshot` — one more call per further
assistant message, each sending everything before it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ec2audit.logs.base import OnError, first_record, make_payload, normalize_usage, read_jsonl
from ec2audit.logs.openclaw_jsonl import message_parts, model_call
from ec2audit.payloads import Payload, Segment

name = "openclaw-trajectory"
_REQUEST_EVENTS = ("context.compiled", "prompt.submitted")


def sniff(path: Path, head: bytes) -> bool:
    record = first_record(head)
    if record is not None:
        return record.get("traceSchema") == "openclaw-trajectory"
    return b'"traceSchema":"openclaw-trajectory"' in head


def _segments(system: str | None, messages: list) -> tuple[list[Segment], dict]:
    segments = [Segment(0, "system", "system", system)] if system else []
    sources: dict[int, dict] = {0: {"entry": "system-prompt"}} if system else {}
    for i, message in enumerate(messages, start=1):
        if isinstance(message, dict):
            segments += [Segment(i, r, o, t) for r, o, t in message_parts(message)[0] if t]
            sources[i] = {"entry": f"message {i}", "tool": message.get("toolName")}
    return segments, sources


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    runs: dict[str, dict] = {}
    for number, event in read_jsonl(path, on_error):
        data = event.get("data") if isinstance(event.get("data"), dict) else {}
        run = runs.setdefault(str(event.get("runId") or event.get("traceId") or "run"), {"event": None})
        if event.get("type") in _REQUEST_EVENTS and (
                run["event"] is None or event["type"] == "context.compiled"):
            run.update(event=event, data=data, line=number)
        elif event.get("type") == "model.completed":
            run["completed"] = data
    step = 0
    for run in runs.values():
        event = run["event"]
        if event is None:
            continue
        data = run["data"]
        history = [m for m in data.get("messages") or [] if isinstance(m, dict)]
        if isinstance(data.get("prompt"), str) and data["prompt"]:
            history = history + [{"role": "user", "content": data["prompt"]}]
        snapshot = (run.get("completed") or {}).get("messagesSnapshot")
        calls: list[tuple[list, dict | None]] = [(history, None)]
        if isinstance(snapshot, list):
            replies = [i for i, m in enumerate(snapshot) if isinstance(m, dict) and model_call(m)
                       and i >= len(history)]
            calls = [(snapshot[:i], snapshot[i]) for i in replies] or calls
        session = str(event.get("sessionId") or event.get("traceId") or path.stem)
        for messages, reply in calls:
            step += 1
            segments, sources = _segments(data.get("systemPrompt"), messages)
            usage = (reply or {}).get("usage") if reply else (run.get("completed") or {}).get("usage")
            yield make_payload(
                pid=f"{session}#{step}", segments=segments, session=session, step=step,
                api=str(event.get("modelApi") or "openclaw"), provider=(reply or {}).get("provider")
                or event.get("provider"), model=(reply or {}).get("model") or event.get("modelId"),
                timestamp=event.get("ts"), path=path, line=run["line"], usage=normalize_usage(usage),
                messages=sources)
