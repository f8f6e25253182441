"""Batch API files (OpenAI, Anthropic, Gemini, Bedrock, Vertex AI). OpenAI's: the input file a user uploads
(`{"custom_id", "method", "url", "body"}` lines, each body a request as the `url` endpoint takes it) and the output
and error files the batch leaves (`{"id", "custom_id", "response": {"status_code", "request_id", "body"}, "error"}`
lines, in any order); Groq's and Together's batch files have the same lines. Anthropic's Message Batches the same
roles: its requests one per line (`{"custom_id", "params"}`, a Messages request) and its results file
(`{"custom_id", "result": {"type": "succeeded", "message"}}`; `errored`, `canceled`, `expired` are not billed).
Gemini's Batch Mode the same, by `key`: `{"key", "request"}` lines and `{"key", "response"}` (a
`GenerateContentResponse`) or `{"key", "error"}`. Vertex AI's batch prediction writes each output line whole
(`{"status", "processed_time", "request", "response"}`), and so does Bedrock's batch inference (`{"recordId",
"modelInput", "modelOutput"}`, or `error`), in `NAME.jsonl.out` beside its input `NAME.jsonl` (read with it).

A batch's calls are read from its input file: each line is a request sent, answered by the lines of the output and
error files beside it (in the same folder, or in another folder of the files audited: `FOLDERS`; an output saved
under its batch's id alone, `batch_abc123`, too; each gzipped or not) with its `custom_id`, billed at the Batch
API's rates (the `batch` service tier: LiteLLM's `*_batches` prices; a model without them costs `unknown`, never the
standard rate). An output file belongs to the input file whose `custom_id`s include all of its own (one in its own
folder first); its lines are read with that input's requests, not again. An output file without its input (or whose
ids two input files hold: each batch numbers its lines `request-1`…) is read on its own, and named with why: its
answers are calls whose request was not logged (their usage counts; no text is scanned: the audit says they carried
no prompt content). An input file no output or error file answers is named too. A request answered by no line (a
batch not finished, expired) is a call without usage; one answered by an error (`response` null, or a status ≥ 400)
cost nothing.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import nullcontext
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO, cast

from ec2audit.errors import InputError
from ec2audit.logs import openai_log
from ec2audit.logs.base import (
    LINE_RANGE,
    MAX_LINE_BYTES,
    READING,
    OnError,
    first_record,
    json_object,
    read_jsonl,
)
from ec2audit.logs.encoding import GZIP, uncompressed_name, utf8_copy
from ec2audit.payloads import Payload

name = "batch-api"
#: The service tier of a call made through a batch (`pricing`: LiteLLM's `_batches` keys).
BATCH_TIER = "batch"


#: Where Anthropic's Message Batches and Gemini's Batch Mode send each request (their lines name no endpoint).
_ANTHROPIC_MESSAGES = "https://api.anthropic.com/v1/messages"
_GEMINI = "https://generativelanguage.googleapis.com/v1beta/models"


def _line_id(record: dict) -> str | None:
    """A line's id in its batch: OpenAI's and Anthropic's `custom_id`, Gemini's `key`."""
    found = record.get("custom_id", record.get("key"))
    return None if found is None else str(found)


def _is_input(record: dict | None) -> bool:
    return isinstance(record, dict) and _line_id(record) is not None and (
        (isinstance(record.get("body"), dict) and "url" in record) or isinstance(record.get("params"), dict)
        or ("key" in record and "response" not in record and "contents" in json_object(record.get("request"))))


def _is_output(record: dict | None) -> bool:
    return isinstance(record, dict) and _line_id(record) is not None and "request" not in record and (
        ("response" in record and ("error" in record or "key" in record)) or isinstance(record.get("result"), dict)
        or ("key" in record and "error" in record))


def _is_whole(record: dict | None) -> bool:
    """A line holding its request and its answer: Bedrock's batch inference output (`recordId`, `modelInput`,
    `modelOutput`, or its input alone), Vertex AI's batch prediction output (`request`, `response`, `status`,
    `processed_time`)."""
    return isinstance(record, dict) and (
        ("recordId" in record and isinstance(record.get("modelInput"), dict))
        or (isinstance(record.get("request"), dict) and "processed_time" in record))


def sniff(path: Path, head: bytes) -> bool:
    record = first_record(head)
    return _is_input(record) or _is_output(record) or _is_whole(record)


def _compressed(path: Path) -> bool:
    return path.suffix.lower() == ".gz"


def _opened(path: Path) -> BinaryIO:
    """A batch file's lines, decompressed where it is gzipped (`NAME.jsonl.gz`)."""
    return cast(BinaryIO, gzip.open(path, "rb")) if _compressed(path) else path.open("rb")


def _kind(path: Path) -> str | None:
    """`input` or `output` for a batch file, by its first line; None for any other file."""
    try:
        with _opened(path) as handle:  # a batch's first line: one request, whole
            record = first_record(handle.readline(MAX_LINE_BYTES))
    except (OSError, EOFError):
        return None
    return "input" if _is_input(record) else "output" if _is_output(record) else None


def _ids(path: Path) -> frozenset[str]:
    ids = set()
    with _opened(path) as handle:
        for raw in handle:
            try:
                record = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                continue
            if isinstance(record, dict) and (line_id := _line_id(record)) is not None:
                ids.add(line_id)
    return frozenset(ids)


#: The folders of the files an audit lists: batch files in any of them pair with each other (a batch's input file
#: in one folder, its output and error files in another, all pointed at); None: each file's own folder only.
FOLDERS: ContextVar[frozenset[str] | None] = ContextVar("batch_folders", default=None)


@lru_cache(maxsize=8)
def _owners(_listing: tuple[tuple[str, float], ...]) -> dict[Path, tuple[Path, ...]]:
    """Each batch output file of the listing → the input files holding all of its ids (those in its own folder
    when one there does): it answers the one, if only one. `_listing` (paths and modification times) keys the
    cache."""
    kinds = {p: k for file, _ in _listing if (k := _kind(p := Path(file))) is not None}
    inputs = {p: _ids(p) for p, k in kinds.items() if k == "input"}
    owners: dict[Path, tuple[Path, ...]] = {}
    for path in (p for p, k in kinds.items() if k == "output"):
        ids = _ids(path)
        holders = tuple(p for p, held in inputs.items() if ids <= held)
        owners[path] = tuple(p for p in holders if p.parent == path.parent) or holders
    return owners


#: The names a batch file has: JSON Lines, or none (an output saved under its batch's or file's id, `batch_abc123`);
#: gzipped or not.
_SUFFIXES = (".jsonl", ".ndjson", "")


def _pairing(path: Path) -> dict[Path, tuple[Path, ...]]:
    """`_owners` of the files beside `path` and in the folders `FOLDERS` names, sniffed by their first line."""
    listing = []
    for folder in sorted({str(path.parent), *(FOLDERS.get() or ())}):
        try:
            entries = sorted(Path(folder).iterdir())
        except OSError:
            continue
        for entry in entries:
            suffix = uncompressed_name(entry).suffix.lower()  # `BATCHINPUT.JSONL.GZ` too
            if suffix in _SUFFIXES and not entry.name.startswith(".") and entry.is_file():
                listing.append((str(entry), entry.stat().st_mtime))
    return _owners(tuple(listing))


def _answers(outputs: list[Path], on_error: OnError) -> dict[str, list[dict]]:
    """The output lines of `outputs`, by `custom_id`: read whole, as `read_jsonl` reads any log (a line range set
    for the input file being read is no range of its output files)."""
    found: dict[str, list[dict]] = defaultdict(list)
    whole = LINE_RANGE.set(None)
    try:
        for output in outputs:
            with utf8_copy(output, GZIP) if _compressed(output) else nullcontext(output) as text:
                def relay(error: InputError, text: Path = text, output: Path = output) -> None:
                    on_error(error if error.file != str(text) else InputError(
                        error.reason, file=str(output), line=error.line, field=error.field))

                for _, record in read_jsonl(text, relay):
                    if (line_id := _line_id(record)) is not None:
                        found[line_id].append(record)
    finally:
        LINE_RANGE.reset(whole)
    return found


def _call(request: dict, answer: dict | None, path: Path, line: int, steps: Counter) -> Payload:
    """One batch call as the request log reads it: the request, and the answer's body (an error line: the error,
    at its status) as its response, at the batch tier."""
    url: str | None
    if "params" in request:
        body, url = request.get("params"), _ANTHROPIC_MESSAGES
    elif "key" in request:
        body, url = request.get("request"), _GEMINI
    else:
        body, url = request.get("body"), request.get("url")
    record: dict = {"body": body, "url": url, "id": _line_id(request)}
    if answer is not None and isinstance(answer.get("result"), dict):  # Anthropic's: billed only if it succeeded
        result = answer["result"]
        record["response"] = json_object(result.get("message")) if result.get("type") == "succeeded" else {
            "error": result.get("error") or result.get("type")}
    elif answer is not None:
        response = json_object(answer.get("response"))
        found = response if "key" in answer else json_object(response.get("body"))  # Gemini's: the answer itself
        record["response"] = found or ({"error": answer.get("error")} if answer.get("error") else {})
        if isinstance(response.get("status_code"), int):
            record["status_code"] = response["status_code"]
    payload = openai_log.to_payload(record, f"{path.name}:{line}", path, line, steps)
    usage = payload.meta["usage"]
    if usage is not None and not usage.get("priced"):
        usage["service_tier"] = BATCH_TIER
    return payload


def _whole(path: Path, on_error: OnError) -> Iterator[Payload]:
    """A file of lines each holding its request and answer (`_is_whole`); a Bedrock input file whose output
    (`NAME.jsonl.out`) is beside it is read there."""
    steps: Counter = Counter()
    for number, line in read_jsonl(path, on_error):
        if "recordId" in line:
            answered = "modelOutput" in line or "error" in line
            if not answered and path.with_name(path.name + ".out").is_file():
                return
            request = {"custom_id": line.get("recordId"), "body": line.get("modelInput"), "url": None}
            answer = {"response": {"body": line.get("modelOutput")}, "error": line.get("error")} if answered else None
        else:  # Vertex AI's: `status` is empty, or the error; the model `gemini-2.5-flash@default`
            response = json_object(line.get("response"))
            if isinstance(version := response.get("modelVersion"), str):
                response = {**response, "modelVersion": version.removesuffix("@default")}
            request = {"custom_id": number, "body": line.get("request"), "url": None}
            answer = {"response": {"body": response}, "error": line.get("status") or None}
        try:
            yield _call(request, answer, path, number, steps)
        except InputError as exc:
            on_error(InputError(exc.reason, file=str(path), line=number, field=exc.field))


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    with path.open("rb") as handle:
        if _is_whole(first_record(handle.readline(MAX_LINE_BYTES))):
            yield from _whole(path, on_error)
            return
    original = READING.get() or path  # `path` may be its decompressed copy
    owners = _pairing(original)
    steps: Counter = Counter()
    if original in owners:  # an output file
        if len(owners[original]) == 1:
            return  # read with its input file's requests
        for number, answer in read_jsonl(path, on_error):
            body = json_object(json_object(answer.get("response")).get("body")) or json_object(
                json_object(answer.get("result")).get("message"))
            model = body.get("model")
            unlogged: dict = {"custom_id": _line_id(answer), "body": {"model": model, "messages": []}}
            yield _call(unlogged, answer, path, number, steps)
        holders = owners[original]
        why = (f"{len(holders)} input files hold its ids ({', '.join(map(str, holders))})" if holders
               else "no input file audited holds its ids")
        on_error(InputError(f"batch output read without its requests: {why}; its calls are counted, no text read",
                            file=str(path)))
        return
    outputs = sorted(p for p, held in owners.items() if held == (original,))
    answers = _answers(outputs, on_error)
    count = 0
    for number, request in read_jsonl(path, on_error):
        count += 1
        replies: list[dict | None] = [*answers.get(_line_id(request) or "", [])] or [None]
        for reply in replies:
            try:
                yield _call(request, reply, path, number, steps)
            except InputError as exc:
                on_error(InputError(exc.reason, file=str(path), line=number, field=exc.field))
                break
    if count and not outputs:
        on_error(InputError("batch input without its output file: no output or error file audited answers it "
                            "(a batch not finished, or its results not downloaded): its calls have no usage",
                            file=str(path)))
