"""What every log adapter shares: the adapter protocol, tolerant JSONL reading, usage and payloads.

An adapter turns one log file into the `Payload`s of the model calls it records. Each payload's
`meta` carries `provider`, `model`, `base_url`, `timestamp`, `session`, `step`, `usage`
(input/cached/output tokens, `cost_usd`), `source` (file and line) and `messages`: for each
`message_index`, where that message came from (`entry`, `tool`, `file`), so a leak can be traced to
the tool result or file that carried it. An adapter whose log names each call by an id that stays
the same in every file that copies the call (a provider's response id, a span's trace and span ids)
sets `call_id`: the audit reads a call once. Bad input is reported through `on_error` and skipped.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from ec2audit.errors import InputError
from ec2audit.payloads import Payload, Segment

OnError = Callable[[InputError], None]

#: Longest JSONL line read; longer lines are reported and skipped, not loaded.
MAX_LINE_BYTES = 64 * 1024 * 1024
_CONFLICT = (b"<<<<<<< ", b"=======", b">>>>>>> ", b"||||||| ")


#: Told how many bytes of a log file were just read (for a progress bar); set by the audit.
BYTES_READ: ContextVar[Callable[[int], None] | None] = ContextVar("bytes_read", default=None)
#: The part of a JSONL file `read_jsonl` reads, when the audit splits a large file between workers:
#: (first byte, end byte, number of the line at the first byte), both bytes at line starts.
LINE_RANGE: ContextVar[tuple[int, int, int] | None] = ContextVar("line_range", default=None)
#: Told the format of each record that is no call of its own (it yields no payload) and why: `logged_again`
#: (it logs again a call an earlier line of its file logged) or `cache_hits` (a gateway answered it from
#: its own cache: no provider saw it). The audit counts them, so no record is passed over unsaid.
PASSED_OVER: ContextVar[Callable[[str, str], None] | None] = ContextVar("passed_over", default=None)
#: The `Payload.meta` key of a request a proxy refused (`--enforce block`): no call (no provider saw it, no
#: text of it is scanned), yielded for its session, which is scored all the same (0.0 if all its were refused).
BLOCKED = "blocked"
#: Set beside `BLOCKED` where the refused request's body could not be read: the units it held are unknown, so a
#: session scored against the units found in its calls counts a lower bound of them (`logs.audit.found_scope`).
UNREAD_BODY = "unread_body"
#: The `call_id`s (and `logged_id`s) of calls logged in the parts of the audit before this one, when the audit
#: splits its files between workers: such a call is logged again, such an id reused (`logs.audit._logged_before`).
LOGGED_BEFORE: ContextVar[frozenset[str]] = ContextVar("logged_before", default=frozenset())
#: The file an adapter reads, when it is given a UTF-8 copy (a gzipped or UTF-16 log): an adapter that pairs a
#: file with others beside it (`batch_api`) looks beside this one.
READING: ContextVar[Path | None] = ContextVar("reading", default=None)


def logged_key(kind: str, *fields: str) -> str:
    """A key naming a logged record (`call_id`, `logged_id`) the same in every process (Python's `hash`
    is salted per process): `kind:` and 128 bits of BLAKE2b over `fields`."""
    digest = hashlib.blake2b("\n".join(fields).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    return f"{kind}:{digest}"


def record_key(kind: str, data: dict) -> str | None:
    """A logged call's `call_id` from what was read of its record (`openai_log.to_payload`'s `data`): its id with
    its request, model, usage and cost, the same in every export of it whatever the layout (JSON or CSV, an
    observation alone or nested in its trace, whose session it may name), so a copy is the call logged again, never a
    second call; None without an id."""
    if data.get("id") is None:
        return None
    kept = {k: data.get(k) for k in ("request", "model", "usage", "cost_usd")}
    return logged_key(kind, str(data["id"]), json.dumps(kept, sort_keys=True, default=str))


class _Counted:
    """A binary file that reports what is read from it to `BYTES_READ`."""

    def __init__(self, handle, report: Callable[[int], None]):
        self._handle, self._report = handle, report

    def read(self, size: int = -1) -> bytes:
        data = self._handle.read(size)
        self._report(len(data))
        return data

    def readline(self, size: int = -1) -> bytes:
        data = self._handle.readline(size)
        self._report(len(data))
        return data

    def readinto(self, buffer) -> int:  # ijson's C parser reads this way
        count = self._handle.readinto(buffer)
        self._report(count or 0)
        return count

    def __getattr__(self, name):
        return getattr(self._handle, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self._handle.close()


def open_log(path: Path):
    """`path` opened for binary reading; what is read is counted when an audit shows progress."""
    handle = path.open("rb")
    report = BYTES_READ.get()
    return _Counted(handle, report) if report else handle


class Adapter(Protocol):
    """One log format: `sniff` says whether a file is in it, `read` yields its model calls."""

    name: str

    def sniff(self, path: Path, head: bytes) -> bool: ...

    def read(self, path: Path, on_error: OnError) -> Iterator[Payload]: ...


def read_jsonl(path: Path, on_error: OnError) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each JSON object line; conflict markers, truncated or non-object
    lines and over-long lines are reported with their line number and skipped. Only the lines of
    `LINE_RANGE`, when it is set."""
    start, end, first = LINE_RANGE.get() or (0, -1, 1)
    with open_log(path) as handle:
        handle.seek(start)
        number, at = first - 1, start
        while end < 0 or at < end:
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            at += len(raw)
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):
                    raw = handle.readline(MAX_LINE_BYTES)
                    at += len(raw)
                on_error(InputError(f"line longer than {MAX_LINE_BYTES >> 20} MiB, skipped",
                                    file=str(path), line=number))
                continue
            if not raw.strip():
                continue
            if raw.startswith(_CONFLICT):
                on_error(InputError("merge-conflict marker", file=str(path), line=number))
                continue
            try:
                record = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                on_error(InputError(f"not valid JSON, truncated? ({exc})", file=str(path), line=number))
                continue
            if not isinstance(record, dict):
                on_error(InputError("expected a JSON object", file=str(path), line=number))
                continue
            yield number, record


def first_record(head: bytes) -> dict | None:
    """The first JSON object line of a file's head (for sniffing), passing over conflict markers and
    broken lines so a log whose first line is damaged is still recognised; None if there is none."""
    lines = head.splitlines()
    for raw in (lines[:-1] if len(lines) > 1 else lines)[:50]:
        if raw.strip() and not raw.startswith(_CONFLICT):
            try:
                record = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                continue
            return record if isinstance(record, dict) else None
    return None


@lru_cache(maxsize=2)
def outline(head: bytes) -> frozenset[str]:
    """The key paths (`samples.item.events`, ijson's prefixes) in the head of a JSON document or of
    JSON Lines, as far as the head goes: what sniffers of whole-document formats look for, since
    a document's keys can come in any order and its head is cut anywhere."""
    import ijson

    paths: set[str] = set()
    try:
        for prefix, event, value in ijson.parse(head, multiple_values=True):
            if event == "map_key":
                paths.add(f"{prefix}.{value}" if prefix else value)
                if len(paths) > 4096:
                    break
    except (ijson.JSONError, UnicodeDecodeError):
        pass
    return frozenset(paths)


def json_values(path: Path) -> Iterator[object]:
    """The items of a top-level array (streamed: one item in memory at a time), or else each
    top-level value (JSON Lines of objects or of arrays, concatenated objects, one object). A
    syntax error is raised as `ijson.JSONError` once the values before it are out."""
    import ijson

    with open_log(path) as handle:
        first_line = handle.readline(1 << 20).strip().removeprefix(b"\xef\xbb\xbf")
        more = bool(handle.read(4096).strip())  # one line holding an array is an array, however long
        handle.seek(0)
        try:
            lines_of_values = more and first_line.startswith(b"[") and isinstance(json.loads(first_line), list)
        except (json.JSONDecodeError, UnicodeDecodeError):
            lines_of_values = False
        array = first_line.startswith(b"[") and not lines_of_values
        yield from ijson.items(handle, "item" if array else "", multiple_values=True, use_float=True)


def read_records(path: Path, on_error: OnError) -> Iterator[tuple[int, dict]]:
    """(number, record) of an export: a CSV table (JSON-valued cells stay strings), a JSON array,
    JSON Lines or one object; numbers are CSV lines or item positions. Non-objects are reported."""
    import ijson

    if path.suffix.lower() in (".csv", ".tsv"):
        import csv

        csv.field_size_limit(MAX_LINE_BYTES)
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle, delimiter="\t" if path.suffix.lower() == ".tsv" else ",")
            for row in reader:
                yield reader.line_num, row
        return
    number = 0
    try:
        for number, value in enumerate(json_values(path), start=1):
            if isinstance(value, dict):
                yield number, value
            else:
                on_error(InputError("expected a JSON object", file=str(path), line=number))
    except ijson.JSONError as exc:
        on_error(broken_json(path, number, exc))


def broken_json(path: Path, number: int, exc: Exception) -> InputError:
    """A JSON document that breaks off after item `number`, in one line: the parser's message shows the text at
    the error over several lines."""
    return InputError(f"not valid JSON after item {number}, rest skipped ({' '.join(str(exc).split())})",
                      file=str(path))


def json_object(value: object) -> dict:
    """`value` where it is a JSON object, else an empty one (a field an older, partial or other log lacks)."""
    return value if isinstance(value, dict) else {}


def json_field(value):
    """A field that may hold JSON as text (CSV exports, string-typed columns) as data."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def csv_header(head: bytes) -> set[str]:
    """Column names of a CSV head (empty when the head is not a CSV table)."""
    import csv

    line = head.split(b"\n", 1)[0].removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
    if "," not in line or line.lstrip()[:1] in ("{", "["):
        return set()
    return {c.strip() for c in next(csv.reader([line]), [])}


def load_json(path: Path, on_error: OnError):
    """A whole JSON document; None (reported) when it is not valid JSON."""
    try:
        with open_log(path) as handle:
            return json.load(handle)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        on_error(InputError(f"not valid JSON, truncated? ({exc})", file=str(path),
                            line=getattr(exc, "lineno", None)))
        return None


def normalize_usage(usage, tier: str | None = None) -> dict | None:
    """Token counts in one shape, prompt tokens including cached ones and those written to the cache (priced
    apart: Anthropic's cache writes cost 1.25× input; docs/design.md §1 Cost): the API shapes via the
    interceptor's parser, plus OpenClaw's (`input`, `cacheRead`, `cacheWrite`, `cost.total`), with the cost the usage
    states (`billed_cost`) where it does; `tier`: the service
    tier that served the call (`intercept.usage.service_tier`), None where the log does not say."""
    from ec2audit.intercept.usage import Usage, billed_cost, parse_usage

    if not isinstance(usage, dict):
        return None
    cost = None
    if "input" in usage or "output" in usage:
        numbers = {k: v if isinstance(v, int) and v >= 0 else 0 for k, v in usage.items()}
        cached, written = numbers.get("cacheRead", 0), numbers.get("cacheWrite", 0)
        parsed: Usage | None = Usage(numbers.get("input", 0) + cached + written, cached, numbers.get("output", 0),
                                     written)
        total = (usage.get("cost") or {}).get("total") if isinstance(usage.get("cost"), dict) else None
        cost = float(total) if isinstance(total, int | float) and total > 0 else None  # 0 = no price set
    else:
        parsed = parse_usage(usage)
        cost = billed_cost(usage)
    if parsed is None:
        return None
    return {"input_tokens": parsed.input, "cached_tokens": parsed.cached, "output_tokens": parsed.output,
            "cache_write_tokens": parsed.cache_write, "cache_write_1h_tokens": parsed.cache_write_1h,
            "web_searches": parsed.web_searches, "cost_usd": cost, "service_tier": tier}


def instant(value: object) -> datetime | None:
    """A call's timestamp as an aware UTC datetime: ISO 8601 text (no offset: UTC) or Unix time in
    seconds, milliseconds, microseconds or nanoseconds (told apart by size); else None."""
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return _iso(value)
        value = number
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    seconds = float(value)
    if not math.isfinite(seconds):
        return None
    while abs(seconds) >= 1e11:  # ms, µs, ns since 1970 (1e11 s is the year 5138)
        seconds /= 1000
    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, OSError, ValueError):
        return None


def _iso(text: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def iso_time(value: object) -> str | None:
    """A logged time as text: ISO 8601 kept as written, Unix time (a number, or digits as text) as ISO
    8601 UTC, so every table and the terminal show a time of day whatever the log wrote."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and _iso(value) is not None:
        return value
    moment = instant(value)
    if moment is None:
        return str(value)
    return moment.isoformat().replace("+00:00", "Z")


def make_payload(*, pid: str, segments: list[Segment], session: str, step: int, api: str,
                 provider: str | None, model: str | None, timestamp: object, path: Path, line: int | None,
                 usage: dict | None = None, base_url: str | None = None, messages: dict | None = None,
                 task_id: str | None = None) -> Payload:
    """A payload of one logged model call, its provenance in `meta` (see the module docstring)."""
    return Payload(id=pid, segments=segments, api=api, model=model, task_id=task_id, episode=session, meta={
        "provider": provider, "model": model, "base_url": base_url, "timestamp": iso_time(timestamp),
        "session": session, "step": step, "usage": usage, "source": {"file": str(path), "line": line},
        "messages": messages or {}})
