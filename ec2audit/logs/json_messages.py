"""Plain JSON conversations: a request body, a list of messages, a list of such lists (Invariant
datasets), transcripts wrapped in records (`{"messages": [...], "metadata": {...}}`, one per file or
one per line; Invariant's first line `{"metadata": …}` describes the dataset and gives its traces
defaults) and AgentDojo task results (`suite_name`, `pipeline_name`, `messages`).

A request body (it names a `model`, or is a list of bodies or `{request}` / `{request_body}` records) is one call each,
read as request logs are. A conversation is one call per assistant message, its request everything
before it; a list of messages without any assistant message is the one request it holds. Documents
are streamed item by item, so a large array costs one item of memory at a time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs.base import OnError, broken_json, json_values, outline
from ec2audit.logs.messages import conversation_calls, provider_of
from ec2audit.logs.openai_log import to_payload
from ec2audit.payloads import Payload, is_request_body

name = "json-messages"
_REQUEST_KEYS = ("model", "max_tokens", "max_completion_tokens", "temperature", "tools", "stream")
#: Where a logged record keeps its request body (`request_body`: a gateway's export, Helicone's)
_RECORD_KEYS = ("request", "body", "request_body")


def _is_message(item) -> bool:
    return isinstance(item, dict) and isinstance(item.get("role"), str) and "messages" not in item


def _is_request(item) -> bool:
    return isinstance(item, dict) and (any(is_request_body(item.get(k)) for k in _RECORD_KEYS) or (
        is_request_body(item) and any(k in item for k in _REQUEST_KEYS)))


def _is_transcript(item) -> bool:
    return isinstance(item, dict) and isinstance(item.get("messages"), list) and not _is_request(item)


def sniff(path: Path, head: bytes) -> bool:
    start = head.lstrip()[:1]
    keys = outline(head)
    if start == b"[":
        return bool({"item.role", "item.item.role", "item.messages", *(f"item.{k}" for k in _RECORD_KEYS)} & keys)
    traces = "messages.item.role" in keys or "metadata" in keys and "item.role" in keys  # Invariant's metadata line
    return start == b"{" and (traces or "input" in keys and "model" in keys) and not (
        {"request", "body", "traj", "trajectory", "history", "samples", "eval"} & keys)


def _is_dataset_metadata(item) -> bool:
    """Invariant's first line `{"metadata": {...}}`: what the dataset is, defaults for its traces."""
    return isinstance(item, dict) and set(item) == {"metadata"} and isinstance(item["metadata"], dict)


def _conversation(messages: list, record: dict, session: str, path: Path, line: int | None) -> Iterator[Payload]:
    metadata = record["metadata"] if isinstance(record.get("metadata"), dict) else {}
    provider, model = provider_of(record.get("pipeline_name") or metadata.get("model") or record.get("model"))
    if not any(_is_message(m) and m["role"] in ("assistant", "ai", "model") for m in messages):
        messages = [*messages, {"role": "assistant", "content": ""}]  # the request it holds, as one call
    yield from conversation_calls(messages, session=session, path=path, line=line, provider=provider, model=model,
                                  timestamp=record.get("timestamp"))


def _session(record: dict, path: Path, index: int) -> str:
    metadata = record["metadata"] if isinstance(record.get("metadata"), dict) else {}
    named = record.get("session_id") or record.get("id") or metadata.get("session_id") or metadata.get("id")
    if record.get("user_task_id"):  # AgentDojo: suite, user task and injection task make the run
        named = "/".join(str(record[k]) for k in ("suite_name", "user_task_id", "injection_task_id") if record.get(k))
    return str(named or (path.stem if index == 1 else f"{path.stem}#{index}"))


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    import ijson

    steps: Counter = Counter()
    messages: list = []
    dataset: dict = {"metadata": {}}
    index = 0
    try:
        for index, item in enumerate(json_values(path), start=1):
            if index == 1 and isinstance(item, dict) and _is_dataset_metadata(item):
                dataset = item
            elif _is_message(item):
                messages.append(item)  # a top-level list of messages: one conversation
            elif isinstance(item, list):
                yield from _conversation(item, dataset, f"{path.stem}#{index}", path, index)
            elif isinstance(item, dict) and (_is_request(item) or is_request_body(item) and not _is_transcript(item)):
                try:
                    yield to_payload(item, f"{path.name}#{index}", path, index, steps)
                except InputError as exc:
                    on_error(InputError(exc.reason, file=str(path), line=index, field=exc.field))
            elif isinstance(item, dict) and _is_transcript(item):
                metadata = {**dataset["metadata"], **(item.get("metadata") or {})}
                yield from _conversation(item["messages"], {**item, "metadata": metadata},
                                         _session(item, path, index), path, index)
            else:
                on_error(InputError("item is neither a message, a conversation nor a request, skipped",
                                    file=str(path), line=index))
    except ijson.JSONError as exc:
        on_error(broken_json(path, index, exc))
    if messages:
        yield from _conversation(messages, {}, path.stem, path, None)
