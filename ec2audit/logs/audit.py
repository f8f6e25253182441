"""Audit agent logs: which sensitive units reached a cloud call, first sent when and by which message.

Calls are read by the adapters, sorted into cloud and edge (`classify`), and only cloud calls are
scanned. Context is cumulative, so each distinct segment is scanned once per session and a leak is
attributed to the first cloud call that sent it (`ec2audit.audit.audit(first_only=True)`), together
with the message that carried it (entry, tool, file). Units come from an annotated file, or with
`discover` from the pre-labelling recognizers run over each session's local side (user inputs and
tool results, i.e. files read and commands run).
"""

from __future__ import annotations

import ctypes
import gc
import hashlib
import json
import os
import shutil
import tempfile
import weakref
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import polars as pl
from polars.io.plugins import register_io_source

from ec2audit import metrics
from ec2audit.audit import COLUMN, FINDING_SCHEMA, AuditResult, audit, group_of
from ec2audit.backends import Backend, Local
from ec2audit.console import plural
from ec2audit.detect.cascade import Cascade, build_cascade
from ec2audit.detect.compiled import placeholder_spans
from ec2audit.detect.normalize import TextView
from ec2audit.errors import InputError
from ec2audit.files import is_jsonl, open_private, write_table
from ec2audit.intercept.usage import DEFAULT_TIER
from ec2audit.logs import (
    LogFile,
    OwnFiles,
    batch_api,
    check_format,
    companions,
    detect,
    find_logs,
    read_files,
    sniff_logs,
)
from ec2audit.logs.base import BLOCKED, BYTES_READ, LINE_RANGE, LOGGED_BEFORE, PASSED_OVER, UNREAD_BODY, instant
from ec2audit.logs.classify import CLOUD, Classifier
from ec2audit.logs.discovered import cleaned, contained, log_identifiers, named, rejection
from ec2audit.logs.listing import Listing
from ec2audit.payloads import Payload
from ec2audit.units import Unit

LOCAL_ORIGINS = ("user", "tool_result")
FOUND = "units found in its own calls"
#: How `FOUND` is marked where blocked requests of the session could not be read (`found_scope`).
AT_LEAST = " (a lower bound:"
LOCAL_SIDE = "values on its local side"
#: What a session with no exposure is scored against: no unit (its task has none; matched to no task, its
#: calls held none; `--discover`, no value on its local side). Left out of every mean, and counted.
NOTHING = "nothing: no units to score against"


def found_scope(unread: int) -> str:
    """`FOUND`, or where `unread` blocked requests of the session could not be read (their units unknown), `FOUND`
    marked as a lower bound, so that `report` says so of its exposure too."""
    return FOUND if not unread else f"{FOUND}{AT_LEAST} {plural(unread, 'blocked request')} not read)"


MESSAGE_INDEX, GROUP, UNIT, GRADE, SEGMENT, START = (
    COLUMN[c] for c in ("message_index", "group", "unit_id", "grade", "segment", "start"))
CALL_SCHEMA = {
    "call": pl.Int64, "payload_id": pl.String, "session": pl.String, "step": pl.Int64, "timestamp": pl.String,
    "provider": pl.String, "model": pl.String, "base_url": pl.String, "side": pl.String, "format": pl.String,
    "log_file": pl.String, "log_line": pl.Int64, "characters": pl.Int64, "input_tokens": pl.Int64,
    "cached_tokens": pl.Int64, "output_tokens": pl.Int64, "cost_usd": pl.Float64, "service_tier": pl.String,
    "trace_id": pl.String, "span_id": pl.String,
}
#: The call columns a finding row carries (`findings_frame`, `leaked`); `trace_id` and `span_id` (hex)
#: name an OpenTelemetry log's model-call span, which an exported leak span is a child of.
_CALL_COLUMNS = ("session", "step", "timestamp", "provider", "model", "base_url", "side", "format", "log_file",
                 "log_line", "trace_id", "span_id")
#: One row per session read (`LogAudit.sessions_frame`); per-dimension exposure a list of {dimension, exposure};
#: `calls_without_content`: calls that carried no prompt text (OpenTelemetry spans with content capture off);
#: its cloud calls' tokens and USD as `providers()` sums them (the tokens null unless each call logged its usage,
#: the USD unless each had a price).
SESSION_SCHEMA = {
    "session": pl.String(), "calls": pl.Int64(), "cloud_calls": pl.Int64(), "calls_without_content": pl.Int64(),
    "units": pl.Int64(),
    "leaked": pl.Int64(), "exposure": pl.Float64(), "exposure_by_dimension": metrics.BY_DIMENSION,
    "scored_against": pl.String(), "tasks": pl.List(pl.String), "cloud_input_tokens": pl.Int64(),
    "cloud_cached_tokens": pl.Int64(), "cloud_output_tokens": pl.Int64(), "cloud_usd": pl.Float64(),
    "cloud_unpriced_calls": pl.Int64(), "cloud_calls_without_usage": pl.Int64(),
    "cloud_calls_without_price": pl.Int64(), "cloud_unpriced_tier": pl.String(),
}
#: The cloud usage columns of `SESSION_SCHEMA`, which `sessions()` does not give: tokens, USD, and why a USD is
#: null (`report.unknown_cost`): its calls without a cost, those that logged no usage, those whose model has no price.
CLOUD_USAGE = ("cloud_input_tokens", "cloud_cached_tokens", "cloud_output_tokens", "cloud_usd",
               "cloud_unpriced_calls", "cloud_calls_without_usage", "cloud_calls_without_price")
#: The service tier (`flex`, `priority`) of a session's cloud call that logged usage and got no cost, served at
#: another tier than the default: the tier `report`'s unknown USD names, as `audit`'s provider table does.
UNPRICED_TIER = "cloud_unpriced_tier"
#: What the audit counts per format read (`LogAudit.format_calls`, `report.coverage`): its calls, those that
#: carried no prompt text, the records passed over (`base.PASSED_OVER`) or reusing an earlier call's id, and
#: the requests a proxy refused (`base.BLOCKED`).
FORMAT_COUNTS = ("read", "without_content", "logged_again", "reused_ids", "cache_hits", "blocked")
#: One row per session (`dimension` null) and per (session, dimension): `LogAudit.exposure()`.
EXPOSURE_SCHEMA = {"group": pl.String, "dimension": pl.String, "units": pl.Int64, "leaked": pl.Int64,
                   "exposure": pl.Float64}
CARRIER_SCHEMA = {"call": pl.Int64, "entry": pl.String, "kind": pl.String, "tool": pl.String, "file": pl.String,
                  "command": pl.String}
#: A finding row with its carrier and call (`findings_frame`); `leaked()`'s rows have the same columns.
FINDINGS_SCHEMA = {**FINDING_SCHEMA, **CARRIER_SCHEMA, **{k: CALL_SCHEMA[k] for k in _CALL_COLUMNS}}
#: Per session, two numbers per dimension in `_dimensions` order (None, all, first): over the units it
#: leaked, leaked count and Σ grade × weight (`exposed`); over those it is scored against, count and Σ
#: weight (`scope`). Doubles in an array: a few hundred bytes a session, not a dict of tuples' kilobyte.
Exposed = dict[str, array]
#: What a worker writes per session and per file beside its findings (`LogAudit.spill`), so the driver
#: holds nothing per session or file: calls per session (`session-calls`, keyed as `sessions()`), per
#: group what it is scored against and its sums (`groups`: `tasks` the key of its task set in
#: `task-sets`, a few distinct sets shared by many groups, null where the group was scored against
#: nothing (`--discover`: no value on its local side), `found` where scored against the units found in
#: its calls, `exposed` and `scope` as in `Exposed`), the files read (`files`), and the `call_id` of
#: each call it read that has one (`keys`: `key`, what a copy in another part has too: the `call_id`
#: itself, and in a second row the call's `logged_id` where it has one, so an id reused in another part
#: of its file is found too).
PART_SCHEMAS = {
    "session-calls": pl.Schema({"session": pl.String, "calls": pl.Int64, "cloud_calls": pl.Int64,
                                "calls_without_content": pl.Int64, "cloud_calls_without_content": pl.Int64}),
    "task-sets": pl.Schema({"tasks": pl.Int64(), "names": pl.List(pl.String)}),
    "groups": pl.Schema({"group": pl.String(), "tasks": pl.Int64(), "found": pl.Boolean(),
                         "exposed": pl.List(pl.Float64), "scope": pl.List(pl.Float64)}),
    "files": pl.Schema({"file": pl.String, "format": pl.String, "encoding": pl.String, "read_with": pl.String}),
    "keys": pl.Schema({"key": pl.String, "call": pl.String}),
}
#: The `Spilled` field that counts each table's rows.
_PART_ROWS = {"session-calls": "sessions", "task-sets": "task_sets", "groups": "groups", "files": "files",
              "keys": "keys"}


#: Formats whose every line is a whole call, so a large file of them can be audited in line-aligned
#: byte ranges by several workers (`Range`); the others build a call from the lines before it.
SPLITTABLE = frozenset({"openai-log"})
#: Bytes of logs in a batch: small files are batched up to it, a larger file of a `SPLITTABLE` format
#: is cut into ranges of it; less when that would leave a worker fewer than 16 batches, never less
#: than MIN_BLOCK_BYTES (each batch costs a task and a Parquet file per table). A worker's memory
#: follows its block: 289 MB with 2 MB blocks, 361 MB with 8 MB, 419 MB with 20 MB (RESULTS.md).
BLOCK_BYTES, MIN_BLOCK_BYTES = 8 << 20, 64 << 10


@dataclass(frozen=True)
class Range:
    """Lines of a large JSONL file, from byte `start` (line number `line`) to byte `end`, audited as
    a file of its own: a batch of its own, read by `read_jsonl` under `LINE_RANGE`."""

    path: Path
    start: int
    end: int
    line: int


@dataclass(frozen=True)
class Spilled:
    """What a worker wrote to Parquet (`LogAudit.spill`) instead of sending it back: its `calls`,
    `findings` and `first-sent` rows (`path(table)`, each written when it has rows), the number its
    calls start at in the whole audit, and the row counts."""

    prefix: str
    first_call: int
    calls: int
    rows: int
    first_sent: int
    #: (session, unit id) rows of the units found in the calls of its sessions matched to no task.
    found: int = 0
    #: The number its first-sent rows start at in the order of first finding over the whole audit.
    first_found: int = 0
    #: Per session, its calls read in the parts before this one: its steps go on from there.
    steps: dict[str, int] = field(default_factory=dict)
    #: Rows of its `PART_SCHEMAS` tables; `files` 0 also where its file was listed by the part before.
    sessions: int = 0
    task_sets: int = 0
    groups: int = 0
    files: int = 0
    keys: int = 0
    #: Its last file read (a `Range` part's file is listed once), and where it was audited (`LogAudit.node_rows`).
    last_file: str | None = None
    node: str | None = None
    #: Written by a serial audit as it goes (`LogAudit.spill_held`): its calls numbered for the whole audit
    #: already (`first_call` 0), its findings as they are written out, no session shared with another part.
    serial: bool = False

    def path(self, table: str) -> str:
        return f"{self.prefix}.{table}.parquet"

    def scan(self, table: str) -> pl.LazyFrame:
        """One of its tables, its calls numbered for the whole audit."""
        return scan_parts([(0, self)], table)

    def rows_of(self, table: str) -> int:
        """How many rows it wrote of `table` (0: no file)."""
        return getattr(self, _PART_ROWS.get(table, _ROWS.get(table, "")))


#: The `Spilled` field that counts the rows of each table that is not one of `PART_SCHEMAS`.
_ROWS = {"calls": "calls", "sent": "calls", "findings": "rows", "first-sent": "first_sent", "found": "found"}


def scan_parts(parts: list[tuple[int, Spilled]], table: str, index: bool = False) -> pl.LazyFrame:
    """One of the tables of `parts` ((index in the audit's `spilled`, part), each with rows of it), in their
    order, as one multi-file scan, each part's calls numbered for the whole audit (`Spilled.scan`), and its
    index as `_PART` if `index`. One scan, not a concatenation of a scan per part: polars runs a reader with
    its buffers per scan at once, which took the summary's queries +200 to +270 MB at 1,225 parts (10 GB of
    logs), the multi-file scan +4 to +8 MB (RESULTS.md, issue 35, the 10 GB audit's end)."""
    paths = [s.path(table) for _, s in parts]
    numbers = {_FILE: paths, _PART: [at for at, _ in parts], "_calls_before": [s.first_call for _, s in parts],
               "_found_before": [s.first_found for _, s in parts]}
    frame = (pl.scan_parquet(paths, include_file_paths=_FILE, glob=False)  # a join, which streams (`replace_strict`
             .join(pl.LazyFrame(numbers), on=_FILE, how="left", maintain_order="left"))  # of 1,225 paths: 1.4 GB)
    if table not in ("sent", "found", *PART_SCHEMAS):
        frame = frame.with_columns(pl.col("call") + pl.col("_calls_before"))
        if table == "first-sent":
            frame = frame.with_columns(pl.col(_ORDER) + pl.col("_found_before"))
        steps = [(path, session, before) for path, (_, s) in zip(paths, parts, strict=True)
                 for session, before in s.steps.items()]
        if steps:  # a session's calls in the parts before (`_span`)
            before = pl.LazyFrame(steps, schema={_FILE: pl.String, "session": pl.String, "_before": pl.Int64},
                                  orient="row")
            frame = (frame.join(before, on=[_FILE, "session"], how="left", maintain_order="left")
                     .with_columns(pl.col("step") + pl.col("_before").fill_null(0)).drop("_before"))
    frame = frame.drop("_calls_before", "_found_before")
    if not index:
        frame = frame.drop(_PART)
    return frame.drop(_FILE)


@dataclass
class LogAudit:
    """An audit's results. Run here (`Local`) it holds its calls, findings and first-sent rows; merged
    from workers (`merge_parts`) it holds counts and per-session sums, and reads those rows back from
    the Parquet the workers wrote (`spilled`) with polars lazy scans, so its memory does not grow with
    the findings or the calls."""

    mode: str
    result: AuditResult
    calls: list[dict] = field(default_factory=list)
    carriers: list[dict] = field(default_factory=list)
    files: list[dict] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)
    #: Sessions matched to no task (by `task_map`, their calls' task ids or their name): each is
    #: scored against the units found in its own calls, cloud or edge — these unit ids.
    found_in_calls: dict[str, set[str]] = field(default_factory=dict)
    #: Where each file read was audited (a back-end's word: a Ray node id, a process).
    nodes: dict[str, str] = field(default_factory=dict)
    #: Calls, findings and first-sent rows written by workers, in call order (`spill`).
    spilled: list[Spilled] = field(default_factory=list)
    #: `leaked()`'s rows held here (not spilled), in order of each (session, unit)'s first finding.
    first_sent: list[dict] = field(default_factory=list)
    #: Per session: [calls, cloud calls, calls without prompt text, cloud calls without] (`sessions()`),
    #: in order of its first call.
    session_calls: dict[str | None, list[int]] = field(default_factory=dict)
    #: Per log format, its `FORMAT_COUNTS` (the coverage `audit` reports).
    format_calls: dict[str, list[int]] = field(default_factory=dict)
    #: Per session the sums its exposure is made of (`exposure_rows()`).
    exposed: Exposed = field(default_factory=dict)
    #: Per session of `found_in_calls`: what it is scored against, as (units, Σ weight) per dimension.
    scope: Exposed = field(default_factory=dict)
    #: Sessions more than one part saw (`merge_parts`): their first-sent rows are merged when read,
    #: and a finding on a text an earlier part sent in the session is dropped (`_finding_parts`).
    spanning: set[str] = field(default_factory=set)
    #: Of those, the ones whose calls name a task: their tasks (`AuditResult.settle`): a unit of another task
    #: that one of their calls naming none sent is not theirs (`_of_its_task`).
    named: dict[str, set[str]] = field(default_factory=dict)
    #: Sessions some calls of which named their task and others none: scored against that task (`settle`), said.
    settled: list[str] = field(default_factory=list)
    #: Groups several parts saw: the union of their tasks (null where none scored it), `found`,
    #: and the first part's sums; the task sets of those unions (`task_names`).
    shared_groups: pl.DataFrame | None = field(default=None, repr=False)
    task_unions: dict[int, list[str]] = field(default_factory=dict, repr=False)
    #: Sessions several parts' `session-calls` have (`_span`), by `group`: their calls summed, the first
    #: part that has them (`_PART`) and their group's row; their session row is made from it there.
    shared_sessions: pl.DataFrame | None = field(default=None, repr=False)
    #: The command's own files found under the paths audited (`OwnFiles`), not read: (file, what it is).
    own_files: list[tuple[str, str]] = field(default_factory=list)
    #: A worker's: the file this part read a `Range` of.
    split: str | None = None
    #: A worker's: (session, hash of the text) for each text its cloud calls sent first in the
    #: session, and the hash of each finding's text (`_text_hash`), when it spills.
    sent: list[tuple[str, int]] = field(default_factory=list, repr=False)
    text_hashes: list[int] = field(default_factory=list, repr=False)
    #: A worker's: (`call_id`, `call_id`) of each call it read that has a `call_id`, and (`logged_id`,
    #: `call_id`) where it has a `logged_id` too, when it spills.
    keys: list[tuple[str, str]] = field(default_factory=list, repr=False)
    #: Removes the folder of `spilled` (`release`); run too when the audit is garbage-collected or at exit.
    cleanup: Callable[[], object] | None = field(default=None, repr=False)

    def release(self) -> None:
        """Remove what the workers wrote, once it is written out (`write_findings`)."""
        if self.cleanup:
            self.cleanup()

    def call_count(self) -> int:
        return len(self.calls) + sum(s.calls for s in self.spilled)

    def first_sent_count(self) -> int:
        return len(self.first_sent) + sum(s.first_sent for s in self.spilled)

    def calls_lazy(self) -> pl.LazyFrame:
        """Every call, those held here and those the workers wrote."""
        return pl.concat([pl.LazyFrame(self.calls, schema=CALL_SCHEMA), *self._scans("calls")])

    def calls_frame(self) -> pl.DataFrame:
        return self.calls_lazy().collect()

    def findings_frame(self) -> pl.DataFrame:
        """Every finding (on the first cloud call that sent its text), with its call and carrier."""
        return self.findings_lazy().collect()

    def findings_lazy(self) -> pl.LazyFrame:
        """`findings_frame` as a lazy scan of the spilled parts (and of the rows held here): written
        out with `write_findings`, it never passes through the driver's memory whole."""
        return pl.concat(self._finding_parts(whole=True))

    def _finding_parts(self, whole: bool = False) -> list[pl.LazyFrame]:
        """The findings of each part (`whole`: of all, in one scan, `scan_parts`), and of those held here. A
        serial audit's parts (`Spilled.serial`) are read as written, one file at a time when `whole`
        (`_serial_findings`): the multi-file scan joined with the parts' call numbers took its end +98 MB at
        64 MB of logs, +1.9 MB per MB (RESULTS.md, issue 34, sessions 27 and 28)."""
        held = [(at, s) for at, s in enumerate(self.spilled) if s.rows]
        if self._serial():
            if whole:
                return [_streamed(self._serial_findings, FINDINGS_SCHEMA)]
            parts = [pl.scan_parquet(s.path("findings")) for _, s in held]
        else:
            parts = ([scan_parts(held, "findings", index=True)] if whole else
                     [scan_parts([part], "findings", index=True) for part in held])
            if self.spanning:  # a text is scanned once per session, as locally: by the first part that sent it
                first = self._first_senders().lazy().rename({_PART: "_sent_by"})
                parts = [part.join(first, on=["group", _HASH], how="left", maintain_order="left")
                         .filter(pl.col("_sent_by").is_null() | (pl.col("_sent_by") == pl.col(_PART)))
                         .drop("_sent_by") for part in parts]
            parts = [part.drop(_HASH, _PART) for part in parts]
        if self.result.finding_rows or not parts:
            parts.insert(0, _streamed(self._held_findings, FINDINGS_SCHEMA))
        return parts

    def _serial(self) -> bool:
        """Its findings are those held here and a serial audit's parts (`Spilled.serial`), read as written."""
        return all(s.serial for s in self.spilled if s.rows)

    def _serial_findings(self) -> Iterator[pl.DataFrame]:
        """`_serial`'s findings frame by frame: those held here, then each part's, one file read at a time."""
        if self.result.finding_rows or not any(s.rows for s in self.spilled):
            yield from self._held_findings()
        yield from (pl.read_parquet(s.path("findings")) for s in self.spilled if s.rows)

    def _held_findings(self) -> Iterator[pl.DataFrame]:
        """The findings held here with their carrier and call (held here too), `HELD_ROWS` rows at a time: the
        frame of every row and its join with the calls cost the 64 MB dense audit +135 MB on top of the rows it
        holds, at its end (`write_findings`; RESULTS.md, issue 34, session 26)."""
        rows, carriers = self.result.finding_rows, self.carriers
        calls = pl.DataFrame(self.calls, schema=CALL_SCHEMA).select("call", *_CALL_COLUMNS)
        for at in range(0, max(len(rows), 1), HELD_ROWS):
            findings = pl.concat([pl.DataFrame(rows[at:at + HELD_ROWS], schema=FINDING_SCHEMA, orient="row"),
                                  pl.DataFrame(carriers[at:at + HELD_ROWS], schema=CARRIER_SCHEMA)], how="horizontal")
            yield findings.join(calls, on="call", how="left", maintain_order="left")

    def finding_parts(self) -> Iterator[pl.DataFrame]:
        """The findings part by part (one per spilled file), each small enough to hold."""
        return (part.collect() for part in self._finding_parts())

    def _first_senders(self) -> pl.DataFrame:
        """For each text a `spanning` session sent: the first part (index in `spilled`) that sent it."""
        return (pl.concat(self._scans("sent", index=True)).filter(pl.col("group").is_in(sorted(self.spanning)))
                .group_by("group", _HASH).agg(pl.col(_PART).min()).collect(engine="streaming"))

    def finding_count(self) -> int:
        if self.spanning:
            return self.findings_lazy().select(pl.len()).collect(engine="streaming").item()
        return len(self.result.finding_rows) + sum(s.rows for s in self.spilled)

    def write_findings(self, path: Path, backend: Backend | None = None) -> None:
        """The findings as one table (Parquet, or JSONL for `.jsonl`), private, streamed from the parts; by
        a worker of `backend` where it has workers outside this process: polars' streaming sink peaks
        ≈ 50 MB above where it starts at 644 MB of logs, 25 MB at 66 MB (RESULTS.md, issue 35, eighth
        pass), which the driver then never holds. The worker reads the parts where the driver would. A serial
        audit's JSONL is written frame by frame (`_serial_findings`), with no sink: polars' sink over the same
        frames took +36 MB at 16 MB of logs (RESULTS.md, issue 34, session 28)."""
        if backend is None or backend.in_process:
            if self._serial() and is_jsonl(path):
                with open_private(path, "wb") as out:
                    for frame in self._serial_findings():
                        frame.write_ndjson(out)
            else:
                _sink(self.findings_lazy(), path)
            return
        item = (replace(self, cleanup=None), str(path))  # the driver removes the parts (`release`)
        for _ in backend.map(_no_state, _write_findings, lambda workers: [item]):
            pass

    def spill(self, prefix: Path) -> None:
        """Write the calls, findings and first-sent rows to Parquet at `prefix` (`Spilled`) and keep
        only their counts: what a worker sends back instead of rows."""
        prefix.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        found = [(session, unit) for session, units in self.found_in_calls.items() for unit in sorted(units)]
        held = {table: self._held(table) for table in PART_SCHEMAS}
        spilled = Spilled(str(prefix), 0, len(self.calls), len(self.result.finding_rows), len(self.first_sent),
                          len(found), sessions=held["session-calls"].height, task_sets=held["task-sets"].height,
                          groups=held["groups"].height, keys=held["keys"].height,
                          files=held["files"].height, last_file=self.files[-1]["file"] if self.files else None)
        for table, rows, frame in (
                ("calls", spilled.calls, self.calls_frame),
                ("sent", spilled.calls,
                 lambda: pl.DataFrame(self.sent, schema={"group": pl.String, _HASH: pl.Int64}, orient="row")),
                ("findings", spilled.rows,
                 lambda: self.findings_frame().with_columns(pl.Series(_HASH, self.text_hashes, pl.Int64))),
                ("first-sent", spilled.first_sent, self._first_sent_frame),
                ("found", spilled.found,
                 lambda: pl.DataFrame(found, schema={"group": pl.String, "unit_id": pl.String}, orient="row"))):
            if rows:
                write_table(frame(), Path(spilled.path(table)))
        for table, held_frame in held.items():
            if held_frame.height:
                write_table(held_frame, Path(spilled.path(table)))
        self.spilled = [spilled]
        self.calls, self.carriers, self.first_sent, self.result.finding_rows = [], [], [], []
        self.sent, self.text_hashes, self.files, self.session_calls, self.keys = [], [], [], {}, []
        self.found_in_calls, self.exposed, self.scope, self.result.tasks = {}, {}, {}, {}
        self.result.grades = {}  # per (session, unit): `exposed` has their sums

    def spill_held(self, prefix: Path) -> None:
        """Write the calls and findings held here to Parquet at `prefix` as one more part (`Spilled.serial`: its
        calls numbered for the whole audit, so its findings are written out as they are) and let go of them. A
        serial audit does so every `SPILL_ROWS`, so what it holds does not grow with the log: it held ~2 MB per
        MB of a dense log to its end, 400 MB at ~90 MB (RESULTS.md, issue 34, sessions 26 and 27)."""
        part = Spilled(str(prefix), 0, len(self.calls), len(self.result.finding_rows), 0, serial=True)
        if part.calls:
            write_table(pl.DataFrame(self.calls, schema=CALL_SCHEMA), Path(part.path("calls")))
        if part.rows:
            _sink(_streamed(self._held_findings, FINDINGS_SCHEMA), Path(part.path("findings")))
        self.spilled.append(part)
        self.calls.clear()  # in place: `audit` appends to the same list of rows
        self.carriers.clear()
        self.result.finding_rows.clear()

    def _held(self, table: str) -> pl.DataFrame:
        """One of `PART_SCHEMAS`' tables of what this audit holds (an audit run here, a part before `spill`)."""
        schema = PART_SCHEMAS[table]
        if table == "session-calls":
            return pl.DataFrame([[k, *v] for k, v in self.session_calls.items()], schema=schema, orient="row")
        if table == "files":
            return pl.DataFrame(self.files, schema=schema)
        if table == "keys":
            return pl.DataFrame(self.keys, schema=schema, orient="row")
        tasks = self.result.tasks
        if table == "task-sets":
            sets = {_task_key(t): sorted(t) for t in {id(t): t for t in tasks.values()}.values()}
            return pl.DataFrame(list(sets.items()), schema=schema, orient="row")
        groups = [*tasks, *(g for g in self.found_in_calls if g not in tasks)]
        return pl.DataFrame([(g, _task_key(tasks[g]) if g in tasks else None, g in self.found_in_calls,
                              _listed(self.exposed.get(g)), _listed(self.scope.get(g))) for g in groups],
                            schema=schema, orient="row")

    def _tables(self, table: str) -> pl.LazyFrame:
        """One of `PART_SCHEMAS`' tables over the whole audit: held here, then the parts', in order."""
        return pl.concat([self._held(table).lazy(), *self._scans(table)])

    def _scans(self, table: str, index: bool = False) -> list[pl.LazyFrame]:
        """`table` of every part that has rows of it, as one scan (`scan_parts`); none where no part has."""
        parts = [(at, s) for at, s in enumerate(self.spilled) if s.rows_of(table)]
        return [scan_parts(parts, table, index)] if parts else []

    def _part_tables(self, table: str) -> Iterator[tuple[int, pl.LazyFrame]]:
        """One of `PART_SCHEMAS`' tables part by part, with the part's index in `spilled` (-1: what is held
        here, always given, empty or not)."""
        yield -1, self._held(table).lazy()
        yield from ((at, s.scan(table)) for at, s in enumerate(self.spilled) if s.rows_of(table))

    def _part_table(self, at: int, table: str) -> pl.LazyFrame:
        """Part `at`'s `table` (one of `PART_SCHEMAS`, or its calls; `_part_tables`' index), made when read: a
        scan once read keeps its file's metadata (≈ 33 kB a part: +40 MB over 1,225 parts held at once)."""
        if at < 0:
            return self._held_calls() if table == "calls" else self._held(table).lazy()
        part = self.spilled[at]
        return part.scan(table) if part.rows_of(table) else pl.LazyFrame(schema=PART_SCHEMAS.get(table, CALL_SCHEMA))

    def _held_calls(self) -> pl.LazyFrame:
        """The calls of the sessions held here: those held, and those `spill_held` wrote (`Spilled.serial`)."""
        written = [(at, s) for at, s in enumerate(self.spilled) if s.calls and s.serial]
        held = pl.LazyFrame(self.calls, schema=CALL_SCHEMA)
        return pl.concat([held, scan_parts(written, "calls")]) if written else held

    def session_totals(self) -> tuple[int, int, int, int, int]:
        """Sessions read, and their calls, cloud calls and those of each without prompt text: summed over
        the parts' rows (a session several parts have counted once), not grouped by session."""
        shared = [] if self.shared_sessions is None else self.shared_sessions["group"].to_list()
        repeats = pl.col("session").fill_null("").is_in(shared).sum() - len(shared)
        row = (self._tables("session-calls").select((pl.len() - repeats).cast(pl.Int64), pl.exclude("session").sum())
               .collect(engine="streaming").row(0))
        return row[0], row[1], row[2], row[3], row[4]

    def _groups_by_part(self) -> Iterator[pl.LazyFrame]:
        """Per group (in order of first call), part by part: `has_tasks` (it was scored: a call of it was read), its
        tasks, `found`, and the sums of the part that saw it. A group several parts saw comes once, in
        the first, with the row of `shared_groups` (its sums made again from its merged rows where both
        parts had some: `exposed`, `scope` here). Part by part, not a group-by over every part: the
        driver's memory follows a part, not the audit's sessions (1.3 GB at 378,156 sessions as a whole)."""
        for at, groups in self._part_tables("groups"):
            yield _first_in(at, groups, self.shared_groups).with_columns(has_tasks=pl.col("tasks").is_not_null())

    def groups_lazy(self) -> pl.LazyFrame:
        """Every group's row (`_groups_by_part`) as one table."""
        return pl.concat(self._groups_by_part())

    def _sessions_by_part(self) -> Iterator[tuple[int, pl.LazyFrame]]:
        """Calls per session (`PART_SCHEMAS`, in order of each one's first call) with its group's row (a call
        of no session is in no group), part by part, with the part's index (`_part_tables`): a session several
        parts have comes once, in the first, with the row of `shared_sessions`."""
        for at, calls in self._part_tables("session-calls"):
            rows = calls.with_columns(group=pl.col("session").fill_null("")).join(
                self._part_table(at, "groups"), on="group", how="left", maintain_order="left")
            yield at, _first_in(at, rows, self.shared_sessions).with_columns(has_tasks=pl.col("tasks").is_not_null())

    def task_names(self) -> dict[int, list[str]]:
        """Each task set of the audit by its key (`groups_lazy`'s `tasks`): the task ids, sorted."""
        return dict(self._tables("task-sets").unique("tasks").collect().iter_rows()) | self.task_unions

    def files_frame(self) -> pl.DataFrame:
        """Every file read (`file`, `format`, `encoding`, and `read_with`: the log it was read as part of)."""
        return self.files_lazy().collect()

    def files_lazy(self) -> pl.LazyFrame:
        return self._tables("files")

    def node_rows(self) -> Iterator[tuple[str, str]]:
        """Where each log read was audited (file, node), a part's files at a time."""
        schema = {"file": pl.String, "node": pl.String}
        parts = [pl.DataFrame(list(self.nodes.items()), schema=schema, orient="row").lazy(),
                 *(s.scan("files").filter(pl.col("read_with").is_null()).select("file", node=pl.lit(s.node, pl.String))
                   for s in self.spilled if s.files)]
        for chunk in self._rows(parts):
            yield from ((r["file"], r["node"]) for r in chunk)

    def _first_sent_frame(self) -> pl.DataFrame:
        """The first-sent rows held here, numbered in order of first finding (`_ORDER`), in `leaked()`'s
        order: so are a worker's written, and the parts' together are in that order too."""
        return (pl.DataFrame(self.first_sent, schema=FINDINGS_SCHEMA).with_row_index(_ORDER)
                .with_columns(pl.col(_ORDER).cast(pl.Int64)).sort("call", "segment", "start", _ORDER))

    def leaked(self) -> list[dict]:
        """One row per (session, unit): its best grade and the first call that sent it at that grade,
        with the columns of `findings_frame`, in call order."""
        return self.leaked_lazy().collect().to_dicts()

    def leaked_lazy(self) -> pl.LazyFrame:
        """`leaked()` as a lazy scan of the first-sent rows: each worker's are final for a session only
        it saw; a session several saw (`spanning`) keeps, per unit, the best grade first sent."""
        rows = self.first_sent_lazy()
        if self.spanning:  # ties (a call, segment and start) in order of first finding, as locally
            shared = pl.col("group").is_in(sorted(self.spanning))
            best = _best(rows.filter(shared))
            if self.named:
                pairs = pl.LazyFrame([(g, t) for g, tasks in self.named.items() for t in sorted(tasks)],
                                     schema={"group": pl.String, "task_id": pl.String}, orient="row")
                best = pl.concat([best.filter(~pl.col("group").is_in(sorted(self.named))),
                                  best.join(pairs, on=["group", "task_id"], how="semi")])
            rows = pl.concat([rows.filter(~shared), best]).sort("call", "segment", "start", _ORDER)
        return rows.drop(_ORDER)

    def first_sent_lazy(self) -> pl.LazyFrame:
        """Every part's first-sent rows, in call order, numbered (`_ORDER`) in order of first finding."""
        return pl.concat([self._first_sent_frame().lazy(), *self._scans("first-sent")])

    def scored_against(self, group: str) -> str:
        """What a group's exposure is over, in words."""
        row = self.groups_lazy().filter(pl.col("group") == group).collect()
        key = row["tasks"][0] if row.height else None
        return self._scored(group, bool(row["found"].any()), [] if key is None else self.task_names()[key])

    def _scored(self, group: str, found: bool | None, tasks: list[str]) -> str:
        if self.mode == "discover":
            return LOCAL_SIDE
        if found:
            return found_scope(len(self.result.unread.get(group, ())))
        return f"task {', '.join(tasks)}" if len(tasks) <= 3 else f"{len(tasks)} tasks"

    def exposure(self) -> pl.DataFrame:
        """Exposure per session (`dimension` null) and per (session, dimension): a polars DataFrame with
        columns `group`, `dimension`, `units`, `leaked`, `exposure` — the same type as
        `AuditResult.exposure()`, which `audit_file` and `ec2audit.judge` return."""
        return self.exposure_lazy().collect()

    def exposure_lazy(self) -> pl.LazyFrame:
        """`exposure()` made a part's groups at a time as it is read (`write_exposure` never holds it whole)."""
        def batches() -> Iterator[pl.DataFrame]:
            names = self.task_names()
            for chunk in self._rows(g.filter("has_tasks") for g in self._groups_by_part()):
                yield pl.DataFrame(self._exposure(chunk, names), schema=EXPOSURE_SCHEMA)
        return _streamed(batches, EXPOSURE_SCHEMA)

    def write_exposure(self, path: Path) -> None:
        _sink(self.exposure_lazy(), path)

    def exposure_rows(self, limit: int | None = None) -> list[dict]:
        """`exposure()` as rows (of the first `limit` groups only, when given)."""
        names = self.task_names()
        return [r for chunk in self._rows((g.filter("has_tasks") for g in self._groups_by_part()), limit)
                for r in self._exposure(chunk, names)]

    def _exposure(self, groups: list[dict], names: dict[int, list[str]]) -> list[dict]:
        """The exposure rows of `groups_lazy` rows, each over the units of the group's tasks (or those
        found in its calls) — summed per task rather than through a session × unit table, which a large
        log audited with a large units file would make huge; the leaked side from the sums (`Exposed`)."""
        counts: dict[tuple[str, str | None], int] = defaultdict(int)
        weights: dict[tuple[str, str | None], float] = defaultdict(float)
        for u in self.result.units:
            for key in ((u.task_id, None), (u.task_id, u.kind)):
                counts[key] += 1
                weights[key] += u.weight
        dimensions = _dimensions(self.result.units)
        none = array("d", bytes(16 * len(dimensions)))
        per_set: dict[tuple[int, str | None], tuple[int, float]] = {}  # a few sets shared by many groups
        rows = []
        for g in groups:
            group, key = g["group"], g["tasks"]
            exposed = self.exposed.get(group, none) if group in self.spanning else g["exposed"] or none
            scope = self.scope.get(group) or g["scope"] or none
            for dimension, at in dimensions.items():
                if g["found"]:
                    count, weight = int(scope[2 * at]), scope[2 * at + 1]
                else:
                    if (key, dimension) not in per_set:
                        per_set[(key, dimension)] = (sum(counts[(t, dimension)] for t in names[key]),
                                                     sum(weights[(t, dimension)] for t in names[key]))
                    count, weight = per_set[(key, dimension)]
                if not count:
                    continue
                rows.append({"group": group, "dimension": dimension, "units": int(count),
                             "leaked": int(exposed[2 * at]), "exposure": exposed[2 * at + 1] / weight})
        return rows

    def sessions(self, limit: int | None = None) -> list[dict]:
        """Calls and exposure per session (the first `limit` only, when given), overall and per dimension:
        every session read, clean ones too. A session whose calls all stayed on the device has exposure 0.0
        over the units it is scored against; units 0, exposure null and `NOTHING` only where there are none."""
        names = self.task_names()
        return [r for chunk in self._rows((rows for _, rows in self._sessions_by_part()), limit)
                for r in self._session_rows(chunk, names)]

    def _session_rows(self, rows: list[dict], names: dict[int, list[str]]) -> list[dict]:
        """`sessions()`' rows of `_sessions_by_part` rows."""
        exposure: dict[str, dict] = {}
        by_dimension: dict[str, dict[str, float]] = defaultdict(dict)
        for r in self._exposure([r for r in rows if r["has_tasks"]], names):
            if r["dimension"] is None:
                exposure[r["group"]] = r
            else:
                by_dimension[r["group"]][r["dimension"]] = r["exposure"]
        return [{"session": r["session"], "calls": r["calls"], "cloud_calls": r["cloud_calls"],
                 "calls_without_content": r["calls_without_content"],
                 "units": exposure.get(r["group"], {}).get("units", 0),
                 "leaked": exposure.get(r["group"], {}).get("leaked", 0),
                 "exposure": exposure.get(r["group"], {}).get("exposure"),
                 "exposure_by_dimension": by_dimension.get(r["group"], {}),
                 "scored_against": self._scored(r["group"], r["found"], names.get(r["tasks"], []))
                 if r["group"] in exposure else NOTHING,
                 "tasks": [] if r["found"] else names.get(r["tasks"], [])} for r in rows]

    @staticmethod
    def _rows(frames: Iterable[pl.LazyFrame], limit: int | None = None, size: int = 2_000) -> Iterator[list[dict]]:
        """The rows of `frames` (a part's each, small enough to hold) as Python rows, `size` at a time,
        the first `limit` only when given."""
        for frame in frames:
            if limit is not None and limit <= 0:
                return
            collected = (frame if limit is None else frame.head(limit)).collect()
            limit = None if limit is None else limit - collected.height
            yield from (chunk.to_dicts() for chunk in collected.iter_slices(size))

    def sessions_frame(self) -> pl.DataFrame:
        """`sessions()` as the table `audit --out` writes beside the findings (`sessions_path`), so
        `report` counts every audited session, not only those with findings, and its cloud calls' cost."""
        return self.sessions_lazy().collect()

    def sessions_lazy(self) -> pl.LazyFrame:
        """`sessions_frame()` made a part's sessions at a time as it is read (`write_sessions` never holds it
        whole: a session's row has its task list, 100 tasks at the sizes measured), each with its cloud usage
        summed over its part's calls (a session several parts have, over theirs): not grouped over every call,
        a table of every session (+128 MB at 379,000 sessions; RESULTS.md, issue 35, session 18)."""
        schema = {k: v for k, v in SESSION_SCHEMA.items() if k not in (*CLOUD_USAGE, UNPRICED_TIER)}
        usage_schema = {**schema, **{k: SESSION_SCHEMA[k] for k in (*CLOUD_USAGE, UNPRICED_TIER)}}

        def batches() -> Iterator[pl.DataFrame]:
            names = self.task_names()
            shared = [] if self.shared_sessions is None else self.shared_sessions["group"].to_list()
            spanning = pl.col("session").fill_null("").is_in(shared)
            no_price = self._models_without_price()
            across = _usage(self.calls_lazy().filter(spanning), no_price) if shared else None
            for at, rows in self._sessions_by_part():
                calls = self._part_table(at, "calls")
                usage = (_usage(calls, no_price) if across is None
                         else pl.concat([_usage(calls.filter(~spanning), no_price), across])
                         ).collect(engine="streaming")
                for chunk in self._rows([rows]):
                    frame = pl.DataFrame([{**r, "exposure_by_dimension": metrics.dimension_rows(
                        r["exposure_by_dimension"])} for r in self._session_rows(chunk, names)], schema=schema)
                    yield (frame.join(usage, on="session", how="left", nulls_equal=True, maintain_order="left")
                           .cast(pl.Schema(usage_schema)))
        none = pl.col("cloud_calls") == 0  # no cloud call: nothing spent, known
        return (_streamed(batches, usage_schema)
                .with_columns(pl.when(none).then(0).otherwise(pl.col(c)).alias(c)
                              for c in CLOUD_USAGE if c != "cloud_usd")
                .with_columns(cloud_usd=pl.when(none).then(0.0).otherwise("cloud_usd"))
                .select(list(SESSION_SCHEMA)).cast(pl.Schema(SESSION_SCHEMA)))

    def _models_without_price(self) -> list[str]:
        """The models of cloud calls that logged usage and got no cost, which no price table knows at the service
        tier that served them (`_price_key`: the others' answers were cut off): what `report` says of a session's
        unknown USD, as `audit` does of a provider's."""
        from ec2audit.intercept.pricing import Pricing

        unpriced = (self.calls_lazy().filter((pl.col("side") == CLOUD) & pl.col("cost_usd").is_null() & _USAGE
                                             & pl.col("model").is_not_null())
                    .select("model", _TIER).unique().collect(engine="streaming").rows())
        if not unpriced:
            return []
        pricing = Pricing()
        return [_price_key(m, t) for m, t in unpriced if not pricing.priced(m, t)]

    def write_sessions(self, path: Path) -> None:
        """The sessions table (Parquet, or JSONL for `.jsonl`), private, streamed a part at a time."""
        _sink(self.sessions_lazy(), path, SESSION_ROW_GROUP)

    def exposure_counts(self) -> tuple[int, int]:
        """How many rows `exposure()` has per session and per (session, dimension), counted as it is made."""
        per_session, by_dimension = (self.exposure_lazy().select(session=pl.col("dimension").is_null().sum(),
                                                                 dimension=pl.col("dimension").is_not_null().sum())
                                     .collect(engine="streaming").row(0))
        return per_session, by_dimension

    def providers(self) -> list[dict]:
        """Calls, tokens and cost per (side, provider, model). The cost is null unless every call of the row
        had a price, and the tokens unless every call logged its usage (`_token_sum`): a sum over the priced calls
        alone would read as the whole cost; `unpriced_calls` says
        how many had none (no usage logged, or a model without a price), `calls_without_usage` how many of
        those logged no usage, `unpriced_tier` the service tier (`flex`, `priority`) of one that logged usage
        and was served at another tier than the default, which the reason names. A provider is one row however its
        logs spell it (OpenLLMetry writes `Anthropic`, the APIs' hosts `anthropic`)."""
        return (self.calls_lazy().with_columns(pl.col("provider").str.to_lowercase())
                .group_by("side", "provider", "model", maintain_order=True).agg(
            calls=pl.len(), characters=pl.col("characters").sum(), input_tokens=_token_sum("input_tokens"),
            cached_tokens=_token_sum("cached_tokens"), output_tokens=_token_sum("output_tokens"),
            cost_usd=_usd_sum(),
            unpriced_calls=pl.col("cost_usd").is_null().sum(),
            calls_without_usage=(pl.col("input_tokens").is_null() & pl.col("output_tokens").is_null()).sum(),
            unpriced_tier=pl.col("service_tier").filter(
                pl.col("cost_usd").is_null() & _USAGE & (pl.col("service_tier") != DEFAULT_TIER)).first())
            .sort("side", "provider", "model", nulls_last=True).collect(engine="streaming").to_dicts())

    def timeline(self, limit: int | None = None) -> list[dict]:
        """Cloud calls in order (the first `limit`) with the units each sent for the first time (at
        their best grade)."""
        cloud = self.calls_lazy().filter(pl.col("side") == CLOUD)
        calls = (cloud if limit is None else cloud.head(limit)).collect(engine="streaming")
        if not calls.height:
            return []
        new = (self.leaked_lazy().filter(pl.col("call") <= calls["call"].max())
               .group_by("call", maintain_order=True).agg("unit_id").collect(engine="streaming"))
        first = dict(zip(new["call"].to_list(), new["unit_id"].to_list(), strict=True))
        return [{"session": c["session"], "step": c["step"], "payload_id": c["payload_id"],
                 "timestamp": c["timestamp"], "provider": c["provider"], "model": c["model"],
                 "new_units": first.get(c["call"], [])} for c in calls.iter_rows(named=True)]


#: The column that keeps first-sent rows in the order they were found (`leaked_lazy`).
_ORDER = "_first_found"
#: Columns of what workers write: a text's hash (`_text_hash`), a part's index in `spilled`; a row's file in a
#: scan of several parts' (`scan_parts`).
_HASH, _PART, _FILE = "text_hash", "_part", "_file"


def _usd_sum() -> pl.Expr:
    """The calls' `cost_usd` summed, null unless each has one. Summed exactly (decimals of 18 places), so the
    figure is the same whatever order the rows come in: a query's threads add the parts' rows as they come."""
    return pl.when(pl.col("cost_usd").is_not_null().all()).then(
        pl.col("cost_usd").cast(pl.Decimal(38, 18)).sum().cast(pl.Float64))


#: A call that logged its usage (a token count in or out).
_USAGE = pl.col("input_tokens").is_not_null() | pl.col("output_tokens").is_not_null()


def _token_sum(column: str) -> pl.Expr:
    """The calls' tokens of `column` summed, null unless each call logged its usage: a call without usage (a
    stream cut off, a log that keeps no usage) sent tokens nobody counted, so the sum of the others is not the
    whole, as `_usd_sum` never reads the priced part as the whole cost (a call that logged usage without a
    cache count cached none)."""
    return pl.when(_USAGE.all()).then(pl.col(column).sum())
#: The service tier of a call, the default where none was logged.
_TIER = pl.col("service_tier").fill_null(DEFAULT_TIER)


def _price_key(model: str, tier: str) -> str:
    """A model at a service tier, as `_usage` matches calls to the models without a price at theirs."""
    return f"{model}\x00{tier}"


def _usage(calls: pl.LazyFrame, no_price: list[str]) -> pl.LazyFrame:
    """Per session, its cloud calls' tokens and USD (`CLOUD_USAGE`), as `providers()` sums them, and its calls
    without a cost: all, those without usage, those of a model at a tier in `no_price` (`_price_key`), and the
    tier of one served at another than the default (`UNPRICED_TIER`)."""
    unpriced = pl.col("cost_usd").is_null()
    return calls.filter(pl.col("side") == CLOUD).group_by("session").agg(
        cloud_input_tokens=_token_sum("input_tokens"), cloud_cached_tokens=_token_sum("cached_tokens"),
        cloud_output_tokens=_token_sum("output_tokens"), cloud_usd=_usd_sum(),
        cloud_unpriced_calls=unpriced.sum(), cloud_calls_without_usage=(~_USAGE).sum(),
        cloud_calls_without_price=(unpriced & _USAGE & pl.concat_str("model", pl.lit("\x00"), _TIER)
                                   .is_in(no_price)).sum(),
        cloud_unpriced_tier=_TIER.filter(unpriced & _USAGE & (_TIER != DEFAULT_TIER)).first())


def _text_hash(text: str) -> int:
    """The same 64 bits for a text in every process (Python's `hash` is salted per process)."""
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


def _best(rows: pl.LazyFrame) -> pl.LazyFrame:
    """Per (session, unit) the row with the best grade, first sent (the same call cannot hold two of a
    unit's rows from different parts), in the order of the unit's first finding."""
    return (rows.with_columns(pl.col(_ORDER).min().over("group", "unit_id"))
            .sort("grade", "call", "segment", "start", descending=[True, False, False, False])
            .unique(["group", "unit_id"], keep="first", maintain_order=True))


def _dimensions(units: Iterable[Unit]) -> dict[str | None, int]:
    """Where each dimension's two numbers are in an `Exposed` array: None (all) first, then by name."""
    return {d: i for i, d in enumerate((None, *sorted({u.kind for u in units})))}


def _exposed(rows: Iterable[tuple[str, str, float]], units: dict[str, Unit],
             found: Collection[str] = ()) -> Exposed:
    """`LogAudit.exposed` from (session, unit id, best grade) rows, in order of each unit's first
    finding: the same order, so the same sums, wherever the rows were found. A session of `found` (scored
    against the units found in its calls) counts each value once (`metrics.one_per_value`)."""
    dimensions = _dimensions(units.values())
    canonical = metrics.one_per_value(units) if found else {}
    counted: set[tuple[str, str]] = set()
    sums: Exposed = {}
    for group, unit_id, grade in rows:
        if grade <= 0:
            continue
        unit = units[unit_id]
        if group in found:
            unit = canonical[unit_id]
            if (group, unit.id) in counted:
                continue
            counted.add((group, unit.id))
        if group not in sums:
            sums[group] = array("d", bytes(16 * len(dimensions)))
        for at in (0, dimensions[unit.kind]):
            sums[group][2 * at] += metrics.leaked(grade)
            sums[group][2 * at + 1] += grade * unit.weight
    return sums


def _of_its_task(group: str, unit: Unit, tasks: dict[str, set[str]]) -> bool:
    """Whether `unit` counts in `group`'s exposure: it is of a task the group names, or the group names none. A
    call naming no task is scanned for every unit, and its session may name its task in another file
    (`AuditResult.settle`): another task's value it sent is outside what the session is scored against."""
    named = tasks.get(group)
    return not named or unit.task_id in named


def _scope(found: dict[str, set[str]], units: dict[str, Unit]) -> Exposed:
    """`LogAudit.scope` from the units found in each session's calls."""
    dimensions = _dimensions(units.values())
    canonical = metrics.one_per_value(units)
    sums: Exposed = {}
    for group, unit_ids in found.items():
        sums[group] = array("d", bytes(16 * len(dimensions)))
        for _, unit in sorted({canonical[i].id: canonical[i] for i in unit_ids}.items()):
            for at in (0, dimensions[unit.kind]):
                sums[group][2 * at] += 1
                sums[group][2 * at + 1] += unit.weight
    return sums


def _task_key(tasks: Iterable[str]) -> int:
    """A task set's key in `task-sets`: the same in every process."""
    return _text_hash("\n".join(sorted(tasks)))


def _listed(sums: array | None) -> list[float] | None:
    return None if sums is None else list(sums)


#: Rows per row group of a streamed Parquet table: polars' own default (512² rows) buffers a whole
#: row group before writing it, i.e. every finding of an audit of up to ~100 MB of logs.
SINK_ROW_GROUP = 20_000
#: Finding rows an audit run here makes into one frame at a time when its findings are read (`_held_findings`).
HELD_ROWS = 20_000
#: Calls or finding rows a serial audit holds before it writes them to its folder (`LogAudit.spill_held`).
SPILL_ROWS = 20_000
#: The sessions table's: a session's row holds its task list (100 tasks in the corpora measured), and a
#: 20,000-row group of them took the driver +121 MB to write at 24,000 sessions, 1,000 rows +15 MB.
SESSION_ROW_GROUP = 1_000


def _streamed(batches: Callable[[], Iterator[pl.DataFrame]], schema: dict) -> pl.LazyFrame:
    """A table of `schema` whose batches `batches()` makes each time it is read: sunk (`_sink`), it is never
    whole in memory. What polars asks of a source is done here: the predicate, the row limit, the columns."""
    def source(columns: list[str] | None, predicate: pl.Expr | None, n_rows: int | None,
               _batch_size: int | None) -> Iterator[pl.DataFrame]:
        for batch in batches():
            if predicate is not None:
                batch = batch.filter(predicate)
            if n_rows is not None:
                batch = batch.head(n_rows)
                n_rows -= batch.height
            yield batch if columns is None else batch.select(columns)
            if n_rows == 0:
                return
    return register_io_source(source, schema=schema)


def _first_in(at: int, frame: pl.LazyFrame, shared: pl.DataFrame | None) -> pl.LazyFrame:
    """Part `at`'s rows of `frame` (keyed by `group`), less those of `shared`'s groups first in another part;
    those first in this one with `shared`'s merged row."""
    if shared is None or not shared.height:
        return frame
    return (frame.join(shared.lazy().select("group", _PART), on="group", how="left", maintain_order="left")
            .filter(pl.col(_PART).is_null() | (pl.col(_PART) == at)).drop(_PART)
            .update(shared.lazy().drop(_PART), on="group", include_nulls=True))


def _sink(frame: pl.LazyFrame, path: Path, row_group: int = SINK_ROW_GROUP) -> None:
    """`frame` streamed to `path` (Parquet, or JSONL for `.jsonl`), created private (0600) first."""
    with open_private(path, "wb"):
        pass  # created 0600 here; the sink writes into it
    if is_jsonl(path):
        frame.sink_ndjson(path)
    else:
        frame.sink_parquet(path, row_group_size=row_group)


def _no_state() -> None:
    return None


def _write_findings(_state: None, item: tuple[LogAudit, str]) -> None:
    """`LogAudit.write_findings` in a back-end's worker."""
    log, path = item
    log.write_findings(Path(path))


def _file_rows(log: LogFile) -> list[dict]:
    """The files table's rows for one log: the file, and any file read as part of it."""
    return [{"file": str(log.path), "format": log.format, "encoding": log.encoding, "read_with": None}] + [
        {"file": str(p), "format": log.format, "encoding": None, "read_with": str(log.path)} for p in companions(log)]


def _absolute(file: str | None) -> str | None:
    """A log file's path as `report` finds it again from any folder (it reads a finding's call there)."""
    return None if file is None else str(Path(file).absolute())


def _call_row(index: int, payload: Payload, side: str) -> dict:
    meta = payload.meta
    usage = meta.get("usage") or {}
    cost = usage.get("cost_usd")
    if cost is None and side == CLOUD and usage and not usage.get("priced"):  # `priced`: None is the reader's word
        from ec2audit.intercept.pricing import price, provider_prefix
        from ec2audit.intercept.usage import Usage

        cost = price(payload.model, Usage(usage.get("input_tokens") or 0, usage.get("cached_tokens") or 0,
                                          usage.get("output_tokens") or 0, usage.get("cache_write_tokens") or 0,
                                          usage.get("cache_write_1h_tokens") or 0, usage.get("web_searches") or 0,
                                          usage.get("service_tier") or DEFAULT_TIER),
                     provider_prefix(meta.get("base_url"), meta.get("provider")))
    source = meta.get("source") or {}
    return {"call": index, "payload_id": payload.id, "session": meta.get("session") or payload.episode,
            "step": meta.get("step"), "timestamp": None if meta.get("timestamp") is None else str(meta["timestamp"]),
            "provider": meta.get("provider"), "model": payload.model, "base_url": meta.get("base_url"),
            "side": side, "format": meta.get("format"), "log_file": _absolute(source.get("file")),
            "log_line": source.get("line"), "characters": payload.size, "input_tokens": usage.get("input_tokens"),
            "cached_tokens": usage.get("cached_tokens"), "output_tokens": usage.get("output_tokens"),
            "cost_usd": cost, "service_tier": usage.get("service_tier"), "trace_id": meta.get("trace_id"),
            "span_id": meta.get("span_id")}


def discover_units(payloads: Iterable[Payload], use_presidio: bool = True, keep_all: bool = False) -> list[Unit]:
    """Candidate units per session from the pre-labelling recognizers over its local side: user
    inputs and tool results (files read, command output), each distinct text once; only those worth
    reading (`discovered.rejection`, unless `keep_all`), after the identifiers logs carry (chat
    senders, handles and ids, dates of birth, OS user names: `discovered.log_identifiers`)."""
    from ec2audit.annotate.prelabel import prelabel_texts

    texts: dict[str, dict[str, str]] = defaultdict(dict)
    for payload in payloads:
        session = payload.episode or payload.id
        messages = payload.meta.get("messages") or {}
        for seg in payload.segments:
            if seg.origin in LOCAL_ORIGINS and seg.text not in texts[session]:
                file = (messages.get(seg.message_index) or {}).get("file")  # its suffix picks a CSV/JSON reader
                texts[session][seg.text] = file or f"{payload.id}:{seg.message_index}"
    units: list[Unit] = []
    for session, by_text in texts.items():
        pairs = [(tid, text) for text, tid in by_text.items()]
        found = [u for u in prelabel_texts(pairs, session, use_presidio=use_presidio) if not _placeholder(u.value)]
        if not keep_all:
            rejected = partial(_rejection, texts={tid: text for tid, text in pairs})
            candidates = list(map(cleaned, found))
            candidates += [inner for u in candidates if rejected(u) for inner in map(cleaned, contained(u))]
            identifiers = log_identifiers(pairs, session)  # they say best what a value is (`chat_id`, not `phone`)
            known = {u.value for u in identifiers}
            found = identifiers + named(list({u.value: u for u in candidates
                                              if u.value not in known and rejected(u) is None}.values()))
        units += found
    return units


def _rejection(unit: Unit, texts: dict[str, str], places: int = 20) -> str | None:
    """`discovered.rejection` of a candidate, told the text around it: kept when one of the places its text holds
    it (the first `places`) is worth reading, as `diabetes` is in a ticket below `models/diabetes.py`. A value is
    one candidate however many texts hold it, found first in one: a condition, which its context alone makes
    someone's, is also judged at its places in the session's other texts (notes read after a `git diff --stat`
    that names `patients/diabetes_form.py`); other values, judged mostly by their own form, are not searched for
    in every text (thousands of candidates over megabytes)."""
    why = None
    for before, after in _around(unit, texts, places):
        why = rejection(unit, before, after)
        if why is None:
            return None
    return why


def _around(unit: Unit, texts: dict[str, str], places: int, width: int = 80) -> Iterator[tuple[str, str]]:
    """The text before and after a candidate where it was found, then at its next places in that text and, for a
    condition, in the session's other texts (one empty pair when its source is unknown)."""
    own = texts.get(unit.source.file, "") if unit.source else ""
    if not own or unit.source is None:
        yield "", ""
        return
    others = [text for tid, text in texts.items() if tid != unit.source.file] if unit.dimension == "health" else []
    for text in [own, *others]:
        if text is own:
            start = text.find(unit.value, max(0, unit.source.start - len(unit.value)))
            start = unit.source.start if start < 0 else start
        else:
            start = text.find(unit.value)
        while start >= 0 and places > 0:
            places -= 1
            yield text[max(0, start - width):start], text[start + len(unit.value):start + len(unit.value) + width]
            start = text.find(unit.value, start + len(unit.value))


def _return_freed_memory() -> None:
    """Hand the heap freed so far back to the system. glibc keeps it for reuse, so each phase's peak
    (discovery, the audit with its cascade, the report) landed on top of the last: with Presidio on
    5 MB of logs 319 MB at peak, 285 MB with this and Presidio unloaded after discovery.
    Without glibc's `malloc_trim` (macOS, musl) nothing is done."""
    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _placeholder(value: str) -> bool:
    """A redaction placeholder (`[API_KEY_001]`) is protection, never a candidate unit."""
    view = TextView.of(value.strip())
    return any(s == 0 and e == len(view.text) for s, e in placeholder_spans(view))


def sessions_path(findings_path: Path) -> Path:
    """Where `audit --out FILE` writes its sessions table: `FILE.sessions.parquet` (or `.jsonl`);
    beside a partitioned findings folder (`--ray`), `FOLDER.sessions.parquet`."""
    return findings_path.with_name(f"{findings_path.stem}.sessions{findings_path.suffix or '.parquet'}")


def read_task_map(path: Path) -> dict[str, str]:
    """Session → task id, from a JSON object or a CSV file with columns `session,task_id`."""
    import csv

    text = path.read_text(encoding="utf-8-sig")
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON ({exc.msg})", file=str(path), line=exc.lineno) from None
        bad = next((k for k, v in data.items() if not isinstance(v, str) or not v), None)
        if bad is not None:
            raise InputError("task id must be a non-empty string", file=str(path), field=bad)
        return data
    rows = csv.reader(text.splitlines())
    header = [h.strip() for h in next(rows, [])]
    if header[:2] != ["session", "task_id"]:
        raise InputError("expected a JSON object or CSV columns 'session,task_id'", file=str(path), line=1)
    mapping: dict[str, str] = {}
    lines: dict[str, int] = {}
    for number, row in enumerate(rows, start=2):
        if len(row) < 2 or not row[0].strip() or not row[1].strip():
            raise InputError("expected 'session,task_id'", file=str(path), line=number)
        session, task = row[0].strip(), row[1].strip()
        if mapping.get(session, task) != task:  # which task ran it would be the last line's, silently
            raise InputError(f"session '{session}' is mapped to '{mapping[session]}' on line {lines[session]} and "
                             f"to '{task}' here", file=str(path), line=number)
        mapping[session] = task
        lines.setdefault(session, number)
    return mapping


@dataclass(frozen=True)
class Reading:
    """How files are read and calls scoped: what `audit_files` and its workers (processes or Ray
    actors) share."""

    fmt: str | None
    classifier: Classifier
    discover: bool
    task_map: dict[str, str]
    #: the folders of the files listed, where a batch's files pair (`batch_api.FOLDERS`)
    folders: frozenset[str] = frozenset()


class _Progress:
    """Bytes of log files read so far, out of all passes over all files, for `on_progress`."""

    def __init__(self, files: Iterable[str], sizes: array, passes: int, report: Callable[[int, int], None]):
        """`files` (each of `sizes`) are told one by one (`file`) where read here; [] where read elsewhere."""
        self.sizes = dict(zip(files, sizes, strict=True)) if files else {}
        self.total, self.report = sum(sizes) * passes, report
        self.done = self.current = self.size = self.shown = 0

    def file(self, log: LogFile) -> None:
        self.done += self.size
        self.current, self.size = 0, self.sizes.get(str(log.path), 0)
        self._show()

    def read(self, count: int) -> None:
        self.current = min(self.size, self.current + count)
        if self.current - self.shown >= 1 << 20 or self.current == self.size:
            self._show()

    def _show(self) -> None:
        self.shown = self.current
        self.report(self.done + self.current, self.total)

    def advance(self, count: int) -> None:
        """Files read elsewhere (by Ray actors): `count` bytes more done."""
        self.done += self.size + count
        self.current = self.size = 0
        self._show()

    def finish(self) -> None:
        self.report(self.total, self.total)


def audit_logs(paths: list[str | Path], units: list[Unit] | None = None, *, discover: bool = False,
               fmt: str | None = None, classifier: Classifier | None = None, use_presidio: bool = True,
               on_payload: Callable[[Payload], None] | None = None, cascade: Cascade | None = None,
               backend: Backend | None = None, scratch: Path | None = None, task_map: dict[str, str] | None = None,
               on_progress: Callable[[int, int], None] | None = None, own: OwnFiles | None = None) -> LogAudit:
    """Audit the logs under `paths` against `units` (with their `cascade` if built), or against units
    discovered in them. A session is scored against the units of its task: from `task_map` (session →
    task id), its calls' task ids or its own name; a session matched to no task is scored against the
    units found in its own calls. A session whose calls all stayed on the device is scored all the same:
    exposure 0.0. `on_progress(bytes read, bytes in all)` follows the reading. The command's `own` files under
    `paths` are no logs (`LogAudit.own_files`).

    `backend` (`ec2audit.backends`; default: `Local`, here) says where files are audited. Outside
    this process, files are cut into `batches`; each worker writes its batch's findings to Parquet in
    a private folder under `scratch` (default: the system's temporary folder; on a cluster of several
    machines, storage every node shares), removed with the result, and sends back only its calls,
    counts and per-session partial results; `on_payload` is then not called. A session must not span
    two batches then."""
    if (units is None) == (not discover):
        raise InputError("give either units or discover=True", field="units")
    check_format(fmt)
    backend = backend or Local()
    reading = Reading(fmt, classifier or Classifier(), discover, task_map or {})
    with backend.connected():  # a back-end that joins a cluster joins it once: for the time-order probe and the audit
        walk_errors: list[InputError] = []
        # held as one `Listing` (a `str` a file cost the driver ≈ 0.3 kB for the whole audit), a `Path` where opened
        found = in_time_order(find_logs(paths, walk_errors.append, own), fmt, backend)
        reading = replace(reading, folders=frozenset(map(os.path.dirname, found)))
        sizes = file_sizes(found) if on_progress or not backend.in_process else array("q")  # each file's stat once
        progress = (_Progress(found if backend.in_process else [], sizes, 2 if discover else 1, on_progress)
                    if on_progress else None)
        token = BYTES_READ.set(progress.read if progress and backend.in_process else None)
        try:
            if discover:
                # bad files and lines are reported by the audit pass below
                units = discover_units(read_files(sniff_logs(map(Path, found), fmt, lambda e: None), lambda e: None,
                                                  progress.file if progress else None), use_presidio)
                if use_presidio:  # the audit needs it no more: spaCy's model would stay loaded under the audit's peak
                    from ec2audit.annotate.prelabel import presidio_analyzer

                    presidio_analyzer.cache_clear()
                _return_freed_memory()
            assert units is not None
            listed = [found, sizes]  # let go of once the batches are cut (`_audit_on`)
            del found, sizes
            folder = Path(tempfile.mkdtemp(prefix="ec2audit-findings-", dir=scratch))
            try:
                if backend.in_process:  # its calls and findings written there past `SPILL_ROWS`
                    work = partial(audit_batch, reading=reading, units=units, spill=None, held=folder,
                                   on_payload=on_payload, on_file=progress.file if progress else None)
                else:
                    work = partial(audit_batch, reading=reading, units=units, spill=folder)
                log = _audit_on(backend, listed, cascade, units, work, progress, fmt)
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            log.cleanup = weakref.finalize(log, shutil.rmtree, folder, ignore_errors=True)
        finally:
            BYTES_READ.reset(token)
    _return_freed_memory()  # the cascade is gone; the report is built next
    if progress:
        progress.finish()
    log.mode = "discover" if discover else "units"
    log.errors[:0] = walk_errors
    log.own_files = own.passed if own else []
    return log


def _audit_on(backend: Backend, listed: list, cascade: Cascade | None, units: list[Unit],
              work: Callable[[Cascade, Batch], LogAudit], progress: _Progress | None,
              fmt: str | None) -> LogAudit:
    """`work` over `blocks` of the files `listed` ([`Listing`, their sizes], emptied once the batches are
    cut: the driver holds them packed) on `backend` (the whole listing in one when it is `in_process`, where
    progress is told file by file), merged in file order. A batch that read a call a batch before it read
    too (`_logged_before`) is audited again told those calls: its copies are passed over as a serial
    audit passes them over."""
    batch_bytes: list[int] = []
    batches: list[Batch] = []

    def plan(workers: int) -> list[Batch]:
        found, sizes = listed
        listed.clear()
        if backend.in_process:
            return [(0, found, frozenset())]
        cut = blocks(found, sizes, workers, fmt)
        batch_bytes[:] = [size for _, size in cut]
        batches[:] = [(number, items, frozenset()) for number, (items, _) in enumerate(cut)]
        return batches

    def placed(part: LogAudit, where: str) -> LogAudit:
        for spilled in part.spilled:
            if spilled.calls and not Path(spilled.path("calls")).exists():
                raise InputError(f"results written where this machine cannot read them ({where}): give "
                                 "a folder every node shares", file=spilled.path("calls"))
        part.nodes = {f["file"]: where for f in part.files if f["read_with"] is None}
        part.spilled = [replace(s, node=str(where)) for s in part.spilled]
        return part

    def parts() -> Iterator[LogAudit]:
        for index, (part, where) in enumerate(backend.map(partial(_cascade, cascade, units), work, plan)):
            if progress and not backend.in_process:
                progress.advance(batch_bytes[index])
            yield placed(part, where)

    if backend.in_process:
        return merge_parts(parts(), units)
    done = list(parts())  # counts only: what each part read is in its Parquet
    again = _logged_before([s for part in done for s in part.spilled])
    if again:
        redo = [(number, items, frozenset(again[number])) for number, items, _ in batches if number in again]
        for (number, _, _), (part, where) in zip(
                redo, backend.map(partial(_cascade, cascade, units), work, lambda workers: redo), strict=True):
            done[number] = placed(part, where)
    return merge_parts(done, units)


def _logged_before(spilled: list[Spilled]) -> dict[int, set[str]]:
    """Per part (its index in `spilled`, one per batch), the keys of the calls parts before it read too
    (`PART_SCHEMAS["keys"]`): their `call_id`s, and the `logged_id`s it reuses. Picked as sessions spanning
    parts are (`_shared_rows`): the driver holds the keys' 64-bit hashes (8 bytes a call logged with a key)
    and the rows of those on several parts only; nothing where fewer than two parts have keys."""
    if sum(s.keys > 0 for s in spilled) < 2:
        return {}
    holder = LogAudit("", AuditResult([]), spilled=spilled)
    rows = _shared_rows(_batches(holder, "keys", pl.col("key")))
    found: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for key, call, part in rows.sort(_PART).select("group", "call", _PART).iter_rows():
        found[key].append((part, call))
    again: dict[int, set[str]] = defaultdict(set)
    for key, calls in found.items():
        for part, _ in calls:
            earlier = {call for at, call in calls if at < part}
            if earlier:
                again[part] |= {key, *earlier}
    return again


def _cascade(cascade: Cascade | None, units: list[Unit]) -> Cascade:
    """What a worker reuses for every batch: the caller's cascade, or one built for `units`."""
    return cascade or build_cascade(units)


#: A batch of files: its number, its files (paths or `Range`s), and the `call_id`s and `logged_id`s batches
#: before it read (`_logged_before`: calls logged again there, ids reused).
Batch = tuple[int, Iterable, frozenset[str]]


def audit_batch(cascade: Cascade, batch: Batch, reading: Reading, units: list[Unit], spill: Path | None,
                on_payload: Callable[[Payload], None] | None = None,
                on_file: Callable[[LogFile], None] | None = None, held: Path | None = None) -> LogAudit:
    """One numbered batch of files audited by a worker, for `merge_parts`; with `spill` (a folder),
    its findings written there rather than sent back (`LogAudit.spill`); with `held` (a serial audit's
    folder), its calls and findings written there as it goes (`audit_files`)."""
    index, found, logged = batch
    token = LOGGED_BEFORE.set(logged)
    try:
        part = audit_files(found, reading, units, cascade, on_payload, on_file, hashes=spill is not None, held=held)
    finally:
        LOGGED_BEFORE.reset(token)
    if spill is not None:
        part.spill(spill / f"part-{index:06d}")
    part.result.units = []  # the driver has them: not sent back with every batch
    return part


def audit_files(found: Iterable, reading: Reading, units: list[Unit], cascade: Cascade,
                on_payload: Callable[[Payload], None] | None = None,
                on_file: Callable[[LogFile], None] | None = None, hashes: bool = False,
                held: Path | None = None) -> LogAudit:
    """Audit files in order: paths (`str`) are sniffed here; `LogFile`s and `InputError`s (files sniffed
    already) are read or reported as they are; a `Range`, its lines only. With `hashes`, what
    `merge_parts` needs to drop findings on texts another part sent first (`LogAudit.sent`). With `held` (a
    folder), the calls and findings are written there as parts (`LogAudit.spill_held`) whenever `SPILL_ROWS`
    of either are held, and the rest at the end once one part is: then every one is read from there."""
    tasks = {u.task_id for u in units}
    log = LogAudit("", AuditResult(units))
    best: dict[tuple[str, str], tuple] = {}  # per (session, unit): its first-sent row so far (`_fold_first`)

    def spill_held() -> None:
        assert held is not None
        _fold_first(best, log)
        log.spill_held(held / f"held-{len(log.spilled):06d}")
    edge_sent: dict[str, set[str]] = defaultdict(set)
    known: dict[str, dict[str, int]] = defaultdict(dict)  # per session: hash of each text sent

    # a session's calls are numbered once across its files: a file's steps go on from the calls before it
    before: Counter = Counter()
    in_file: Counter = Counter()
    dropped: Counter = Counter()  # per session, the calls of this file its reader numbered but logged before
    called: set[str] = set()  # the `call_id`s read
    logged = LOGGED_BEFORE.get()  # those read by the parts before this one

    def passed_over(fmt: str, why: str) -> None:
        log.format_calls.setdefault(fmt, [0] * len(FORMAT_COUNTS))[FORMAT_COUNTS.index(why)] += 1

    def scoped(payload: Payload, side: str) -> bool:
        """Set the task `payload` is scored against (`--task-map`, its calls' task id, its session's name;
        under `--discover` its session), adding to the units found in its session's calls where it has none;
        False where there is nothing to score it against (`--discover`: no value on its session's local side)."""
        session = group_of(payload)
        if reading.discover:
            payload.task_id = session
            return session in tasks
        if session in reading.task_map:
            payload.task_id = reading.task_map[session]
        elif payload.task_id not in tasks and session in tasks:
            payload.task_id = session
        if payload.task_id not in tasks:
            found_units = log.found_in_calls.setdefault(session, set())
            if side != CLOUD:
                found_units |= _units_in(payload, cascade, edge_sent[session])
        return True

    def cloud_payloads() -> Iterator[Payload]:
        def started(f: LogFile) -> None:
            before.update(in_file)
            in_file.clear()
            dropped.clear()
            log.files.extend(_file_rows(f))
            if on_file:
                on_file(f)

        for payload in _read(found, reading, log, started):
            if held and max(len(log.calls), len(log.result.finding_rows)) >= SPILL_ROWS:  # the calls before are done
                spill_held()
            call_id = payload.meta.get("call_id")
            key = payload.meta.get("session") or payload.episode
            if payload.meta.get(BLOCKED):  # no call: its session is listed and scored, with nothing sent
                passed_over(payload.meta.get("format") or "?", "blocked")
                in_file[key] += 1  # it keeps its step number
                log.session_calls.setdefault(key, [0, 0, 0, 0])
                if scoped(payload, BLOCKED):
                    group = log.result.score(payload)
                    if payload.meta.get(UNREAD_BODY) and group in log.found_in_calls:  # its units a lower bound
                        log.result.unread.setdefault(group, []).append(payload.id)
                continue
            if call_id is not None:
                # a copy of a call read before, here or by a part before this one (a resumed session's file,
                # a span sent twice)
                if call_id in called or call_id in logged:
                    passed_over(payload.meta.get("format") or "?", "logged_again")
                    dropped[key] += 1
                    continue
                called.add(call_id)
                if hashes:  # found where several parts hold the call, or (openai-log) its id in its file
                    log.keys.append((call_id, call_id))
                    if payload.meta.get("logged_id") is not None:
                        log.keys.append((payload.meta["logged_id"], call_id))
            if payload.meta.get("step") is not None:  # the session's calls before it, less the copies passed over
                payload.meta["step"] += before[key] - dropped[key]
            in_file[key] += 1
            side = reading.classifier.side(payload.meta.get("provider"), payload.model, payload.meta.get("base_url"))
            call = _call_row(log.call_count(), payload, side)
            log.calls.append(call)
            empty = not call["characters"]
            counts = log.session_calls.setdefault(call["session"], [0, 0, 0, 0])
            counts[0] += 1
            counts[1] += side == CLOUD
            counts[2] += empty
            counts[3] += empty and side == CLOUD
            read = log.format_calls.setdefault(call["format"] or "?", [0] * len(FORMAT_COUNTS))
            read[0] += 1
            read[1] += empty
            read[3] += bool(payload.meta.get("id_reused"))
            if not scoped(payload, side):
                continue
            if side != CLOUD:  # kept on the device: its session is scored all the same (0.0 if all its calls are)
                log.result.score(payload)
                continue
            if hashes:
                texts = known[group_of(payload)]
                for seg in payload.segments:
                    if seg.text not in texts:
                        texts[seg.text] = _text_hash(seg.text)
                        log.sent.append((group_of(payload), texts[seg.text]))
            yield payload

    def carry(payload: Payload) -> None:
        messages = payload.meta.get("messages") or {}
        call = log.call_count() - 1  # this payload's row, appended just before it was scanned
        carriers: dict[int, dict] = {}  # one per message: a message's findings share their carrier
        for row in log.result.finding_rows[len(log.carriers):]:
            index = row[MESSAGE_INDEX]
            if index not in carriers:
                source = messages.get(index) or {}
                carriers[index] = {"call": call, **{k: None if source.get(k) is None else str(source[k])
                                                    for k in CARRIER_SCHEMA if k != "call"}}
            log.carriers.append(carriers[index])
        if hashes:
            texts = known[group_of(payload)]
            log.text_hashes += [texts[payload.segments[row[SEGMENT]].text]
                                for row in log.result.finding_rows[len(log.text_hashes):]]
        if on_payload:
            on_payload(payload)

    token = PASSED_OVER.set(passed_over)
    try:
        audit(cloud_payloads(), units, cascade, carry, first_only=True, result=log.result)
    finally:
        PASSED_OVER.reset(token)
    for session in [s for s in log.found_in_calls if s not in log.result.found]:  # a call of it named its task
        del log.found_in_calls[session]
        log.settled.append(session)
    for session, found_units in log.found_in_calls.items():
        found_units |= set(log.result.grades.get(session, ()))
    log.scope = _scope(log.found_in_calls, {u.id: u for u in units})
    if log.spilled and log.calls:  # every call and finding in parts, in order
        spill_held()
    _fold_first(best, log)
    by_id = {u.id: u for u in units}
    log.first_sent = [r for r in _first_sent(best) if _of_its_task(r["group"], by_id[r["unit_id"]], log.result.tasks)]
    log.exposed = _exposed(((r["group"], r["unit_id"], r["grade"]) for r in log.first_sent),
                           by_id, log.found_in_calls.keys())
    return log


def _fold_first(best: dict[tuple[str, str], tuple], log: LogAudit) -> None:
    """The finding rows `log` holds folded into `best`: per (session, unit), in order of its first finding, the
    rank, row, carrier and call of its best (`_rank`) — in one pass over the rows held, not through a frame of
    every finding (which costs a large audit hundreds of MB), and before a serial audit lets go of them."""
    first = log.call_count() - len(log.calls)
    for row, carrier in zip(log.result.finding_rows, log.carriers, strict=True):
        key = (row[GROUP], row[UNIT])
        rank = (-row[GRADE], carrier["call"], row[SEGMENT], row[START])
        if key not in best or rank < best[key][0]:
            best[key] = (rank, row, carrier, log.calls[carrier["call"] - first])


def _first_sent(best: dict[tuple[str, str], tuple]) -> list[dict]:
    """`leaked()`'s rows from `_fold_first`'s, in order of each (session, unit)'s first finding."""
    return [{**dict(zip(FINDING_SCHEMA, row, strict=True)), **carrier, **{k: call[k] for k in _CALL_COLUMNS}}
            for _, row, carrier, call in best.values()]


def _read(found: Iterable, reading: Reading, log: LogAudit, on_file: Callable[[LogFile], None]) -> Iterator[Payload]:
    """The payloads of `found`, item by item: a `Range` read from its first line to its end; a batch's files
    paired across `reading.folders`."""
    folders = batch_api.FOLDERS.set(reading.folders or None)
    try:
        for item in found:
            if not isinstance(item, Range):
                yield from read_files(_sniffed([item], reading.fmt, log.errors.append), log.errors.append, on_file)
                continue
            log.split = str(item.path)
            token = LINE_RANGE.set((item.start, item.end, item.line))
            try:
                yield from read_files(sniff_logs([item.path], reading.fmt, log.errors.append), log.errors.append,
                                      on_file)
            finally:
                LINE_RANGE.reset(token)
    finally:
        batch_api.FOLDERS.reset(folders)


def _sniffed(found: list, fmt: str | None, on_error: Callable[[InputError], None]) -> Iterator[LogFile]:
    """Paths sniffed; what was sniffed elsewhere as it is: a `LogFile` read, an `InputError` reported
    (in its place, so errors come in file order wherever files were sniffed)."""
    for item in found:
        if isinstance(item, LogFile):
            yield item
        elif isinstance(item, InputError):
            on_error(item)
        else:
            yield from sniff_logs([Path(item)], fmt, on_error)


def _units_in(payload: Payload, cascade: Cascade, sent: set[str]) -> set[str]:
    """Units found in a call not audited as cloud (its texts not seen before in the session)."""
    kept = []
    for seg in payload.segments:
        if seg.text not in sent:
            sent.add(seg.text)
            kept.append(seg)
    return {f.unit_id for f in cascade.scan(Payload(payload.id, kept))} if kept else set()


def in_time_order(found: Listing, fmt: str | None, backend: Backend | None = None) -> Listing:
    """`found` with the files whose first call has a time in the order of that time (in the places
    such files have in `found`; the others keep theirs): rotated logs of one session are read
    oldest first, whatever their names, so its calls are numbered and first sent in time order.
    The times are held as microseconds in an array, not a `datetime` a file; with `backend`'s workers
    outside this process and `PROBE_FILES` files or more, read by them (≈ 1 ms a file, serial here:
    minutes at 10 GB), `PROBE_FILES` files a task."""
    if len(found) < 2:
        return found  # nothing to order: a single large JSON document is not parsed twice
    if backend is None or backend.in_process or len(found) < PROBE_FILES:
        chunks: Iterable[array] = [_first_times(None, (found, fmt))]
    else:
        packed = [(Listing((found[at] for at in range(start, min(start + PROBE_FILES, len(found)))), packed=True), fmt)
                  for start in range(0, len(found), PROBE_FILES)]
        chunks = (times for times, _ in backend.map(_no_state, _first_times, lambda workers: packed))
    timed, times = array("q"), array("q")  # the places of the files with a time, and their times
    at = 0
    for chunk in chunks:
        for time in chunk:
            if time != _NO_TIME:
                timed.append(at)
                times.append(time)
            at += 1
    if all(times[at] <= times[at + 1] for at in range(len(times) - 1)):
        return found  # in time order already: nothing moves, and no list of places nor a second listing is made
    ordered = sorted(range(len(timed)), key=times.__getitem__)  # stable: equal times keep their places' order
    del times
    source = array("q", range(len(found)))
    for place, at in zip(timed, ordered, strict=True):
        source[place] = timed[at]
    return Listing(found[at] for at in source)


#: Files whose first call's time a worker reads in one task (`in_time_order`).
PROBE_FILES = 2_048
_EPOCH, _MICROSECOND, _NO_TIME = datetime(1970, 1, 1, tzinfo=UTC), timedelta(microseconds=1), -(1 << 63)


def _first_times(_state: None, item: tuple[Iterable[str], str | None]) -> array:
    """The time of each file's first call (`_first_time`) in µs since 1970, `_NO_TIME` where it has none."""
    found, fmt = item
    times = array("q")
    for path in found:
        time = _first_time(path, fmt)
        times.append(_NO_TIME if time is None else (time - _EPOCH) // _MICROSECOND)
    return times


def _first_time(path: str, fmt: str | None) -> datetime | None:
    """The time of a file's first call (its reader's first; an OpenTelemetry document's spans come
    sorted by start), or None when it has none or cannot be read (the audit names why)."""
    def ignore(error: InputError) -> None:
        pass

    for payload in read_files(sniff_logs([Path(path)], fmt, ignore), ignore):
        return instant(payload.meta.get("timestamp"))
    return None


def file_sizes(found: Listing) -> array:
    """Each file's size in bytes to cut batches by; 0 for one gone since it was listed (its reader names why)."""
    sizes = array("q")
    for path in found:
        try:
            sizes.append(os.stat(path).st_size)
        except OSError:
            sizes.append(0)
    return sizes


def blocks(found: Listing, sizes: array, workers: int, fmt: str | None) -> list[tuple[Listing | list[Range], int]]:
    """Contiguous batches of about a block each (`BLOCK_BYTES`), each with its bytes: small files together
    (a packed `Listing`), a larger file of a `SPLITTABLE` format cut into ranges, each a batch."""
    block = max(MIN_BLOCK_BYTES, min(BLOCK_BYTES, sum(sizes) // (workers * 16)))
    out: list[tuple[Listing | list[Range], int]] = []
    paths: list[str] = []
    filled = 0
    for path, size in zip(found, sizes, strict=True):
        ranges = line_ranges(Path(path), block, fmt) if size > block else []
        if paths and (ranges or filled >= block):
            out.append((Listing(paths, packed=True), filled))
            paths, filled = [], 0
        if ranges:
            out += [([r], r.end - r.start) for r in ranges]
            continue
        paths.append(path)
        filled += size
    if paths:
        out.append((Listing(paths, packed=True), filled))
    return out


#: Bytes read at a time when cutting a file into ranges.
_CHUNK = 16 << 20


def line_ranges(path: Path, block: int, fmt: str | None) -> list[Range]:
    """`path` cut into `Range`s of about `block` bytes at line starts, when it is UTF-8 text in a
    `SPLITTABLE` format and longer than one block; else none. One pass over the file, counting lines."""
    try:
        log = detect(path, fmt)
        if not isinstance(log, LogFile) or log.format not in SPLITTABLE or log.encoding:
            return []
        cuts, lines, offset, want = [(0, 1)], 0, 0, block  # (byte, line number) where each range starts
        with path.open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                at = 0
                while want < offset + len(chunk):
                    newline = chunk.find(b"\n", max(at, want - offset))
                    if newline < 0:
                        break  # the line goes on in the next chunk
                    lines += chunk.count(b"\n", at, newline + 1)
                    at = newline + 1
                    cuts.append((offset + at, lines + 1))
                    want = offset + at + block
                lines += chunk.count(b"\n", at)
                offset += len(chunk)
    except OSError:
        return []  # its reader names why
    if cuts[-1][0] >= offset:
        cuts.pop()  # the last cut at the end of the file
    ends = [start for start, _ in cuts[1:]] + [offset]
    if len(cuts) < 2:
        return []
    return [Range(path, start, end, line) for (start, line), end in zip(cuts, ends, strict=True)]


def _add_counts(into: dict[Any, list[int]], part: dict[Any, list[int]]) -> None:
    """A part's counters per key added to the merged ones, column by column."""
    for key, counts in part.items():
        total = into.setdefault(key, [0] * len(counts))
        for at, n in enumerate(counts):
            total[at] += n


def merge_parts(parts: Iterable[LogAudit], units: list[Unit]) -> LogAudit:
    """One audit from parts over consecutive batches of files, in their order: calls renumbered,
    counts and per-session sums added — the same results as one audit of all the files. A session
    two parts saw (`spanning`) has its sums made again from its merged first-sent rows."""
    merged = LogAudit("", AuditResult(units))
    result = merged.result
    found_spanning: set[str] = set()  # sessions of `found_in_calls` more than one part saw
    interned: dict[frozenset[str], set[str]] = {}  # sessions' task sets: a run of many sessions has few
    last_file = None
    for part in parts:
        if part.split and last_file == part.split:
            part.files = []  # listed with its first range
            part.spilled = [replace(s, files=0) for s in part.spilled]
        last_file = next((s.last_file for s in part.spilled if s.last_file),
                         part.files[-1]["file"] if part.files else last_file)
        offset, found_offset = merged.call_count(), merged.first_sent_count()
        merged.calls += _renumbered(part.calls, offset)
        merged.carriers += _renumbered(part.carriers, offset)
        merged.first_sent += _renumbered(part.first_sent, offset)
        result.finding_rows += part.result.finding_rows
        merged.spilled += [replace(s, first_call=s.first_call + offset, first_found=s.first_found + found_offset)
                           for s in part.spilled]
        result.payload_count += part.result.payload_count
        result.chars += part.result.chars
        for group, grades in part.result.grades.items():
            best = result.grades.setdefault(group, {})
            for unit_id, grade in grades.items():
                best[unit_id] = max(best.get(unit_id, 0.0), grade)
        merged.spanning |= part.result.tasks.keys() & result.tasks.keys()
        for group, tasks in part.result.tasks.items():  # one set object per distinct set: never changed after
            known = result.tasks.get(group)
            tasks = tasks if known is None else known | tasks
            result.tasks[group] = interned.setdefault(frozenset(tasks), tasks)
        for group, sums in part.exposed.items():
            merged.exposed.setdefault(group, sums)
        _add_counts(merged.session_calls, part.session_calls)
        _add_counts(merged.format_calls, part.format_calls)
        merged.files += part.files
        merged.errors += part.errors
        merged.nodes |= part.nodes
        found_spanning |= part.found_in_calls.keys() & merged.found_in_calls.keys()
        for session, found_units in part.found_in_calls.items():  # a worker's are one empty set: kept shared
            known = merged.found_in_calls.get(session)
            merged.found_in_calls[session] = found_units if known is None else known | found_units
        for session, sums in part.scope.items():
            merged.scope.setdefault(session, sums)
        for session, ids in part.result.unread.items():
            result.unread.setdefault(session, []).extend(ids)
        merged.settled += part.settled
    found_spanning |= _span(merged)
    named = {g: t for g, t in result.tasks.items() if t}  # the tasks a session's calls name, in every part
    if merged.shared_groups is not None:
        named |= {g: set(merged.task_unions[k]) for g, k in merged.shared_groups.select("group", "tasks").iter_rows()
                  if merged.task_unions.get(k)}
    for group in [g for g in merged.found_in_calls if g in named]:  # `AuditResult.settle` over the parts
        del merged.found_in_calls[group]
        merged.scope.pop(group, None)
        merged.settled.append(group)
    found_spanning -= named.keys()
    merged.named = {g: named[g] for g in merged.spanning if g in named}
    if merged.spanning:
        by_id = {u.id: u for u in units}
        rows = merged.first_sent_lazy().filter(pl.col("group").is_in(sorted(merged.spanning)))
        spanning = _best(rows).sort(_ORDER).select("group", "unit_id", "grade").collect(engine="streaming")
        for group in merged.spanning:
            merged.exposed.pop(group, None)
        merged.exposed |= _exposed((r for r in spanning.iter_rows() if _of_its_task(r[0], by_id[r[1]], named)),
                                   by_id, merged.found_in_calls.keys())
    if found_spanning:  # the units found in a session's calls: those found in any part
        union = {group: set(merged.found_in_calls.get(group, ())) for group in found_spanning}
        for found in (s.scan("found") for s in merged.spilled if s.found):
            pairs = found.filter(pl.col("group").is_in(sorted(found_spanning))).collect(engine="streaming")
            for group, unit_id in pairs.iter_rows():
                union[group].add(unit_id)
        merged.scope |= _scope(union, {u.id: u for u in units})
    return merged


def _span(merged: LogAudit) -> set[str]:
    """What the parts' tables say of sessions several parts saw: where each part's steps go on from
    (calls in the parts before it), the groups whose first-sent rows and sums are merged (`spanning`),
    their merged rows (`shared_groups`, `shared_sessions`) and the groups whose found units are
    (returned; their sums go in `scope`). Only those are held here (`_shared_rows`)."""
    session_parts = _batches(merged, "session-calls", pl.col("session").fill_null(""))
    calls = _shared_rows(session_parts)
    steps = (calls.filter(pl.col("session").is_not_null())
             .with_columns(before=pl.col("calls").cum_sum().over("session") - pl.col("calls"))
             .filter(pl.col("before") > 0))
    by_part: dict[int, dict[str, int]] = defaultdict(dict)
    for session, before, part in steps.select("session", "before", _PART).iter_rows():
        by_part[part][session] = before
    merged.spilled = [replace(s, steps=by_part[i]) if i in by_part else s for i, s in enumerate(merged.spilled)]
    group_parts = _batches(merged, "groups", pl.col("group"))
    shared = (_shared_rows(group_parts).lazy().group_by("group", maintain_order=True)
              .agg(with_tasks=pl.col("tasks").is_not_null().sum(), found_in=pl.col("found").sum(),
                   tasks=pl.col("tasks").drop_nulls(), found=pl.col("found").any(),
                   exposed=pl.col("exposed").drop_nulls().first(), scope=pl.col("scope").drop_nulls().first(),
                   _part=pl.col(_PART).first())
              .collect())
    merged.spanning |= set(shared.filter(pl.col("with_tasks") > 1)["group"].to_list())
    sets = merged.task_names() if shared.height else {}
    union = [sorted({t for key in keys for t in sets[key]}) if keys else None for keys in shared["tasks"].to_list()]
    merged.task_unions = {_task_key(tasks): tasks for tasks in union if tasks is not None}
    named = pl.Series("named", [bool(t) for t in union], pl.Boolean)  # a part's calls named its task (`settle`)
    merged.settled += [g for g in shared.filter(pl.col("found") & named)["group"].to_list() if g not in merged.settled]
    merged.shared_groups = shared.select("group", "found", "exposed", "scope", _PART).with_columns(
        pl.Series("tasks", [None if t is None else _task_key(t) for t in union], pl.Int64),
        found=shared["found"] & ~named)
    if calls.height:  # a session's row: its calls summed, in its first part, with its group's row
        names = calls["group"].unique().implode()
        rows = (pl.concat([b.filter(pl.col("group").is_in(names)).collect() for b in group_parts]).lazy()
                .unique("group", keep="first", maintain_order=True)
                .drop(_PART).update(merged.shared_groups.lazy().drop(_PART), on="group", include_nulls=True))
        merged.shared_sessions = (calls.lazy().group_by("group", maintain_order=True)
                                  .agg(pl.exclude("session", "group", _PART).sum(), pl.col(_PART).first())
                                  .join(rows, on="group", how="left", maintain_order="left").collect())
    return set(shared.filter((pl.col("found_in") > 1) & ~named)["group"].to_list())


#: Parts' tables read in one polars query at most, as one multi-file scan (`scan_parts`): a concatenation of
#: a scan per part (64 a query) took the merge +130 MB at 1,225 parts (10 GB of logs), a reader with its
#: buffers per scan at once (RESULTS.md, issue 35, session 18).
_SCANS = 256


def _batches(merged: LogAudit, table: str, key: pl.Expr) -> list[pl.LazyFrame]:
    """A `PART_SCHEMAS` table of every part, each row with its `group` (`key`) and its part's index (`_PART`),
    `_SCANS` parts a frame."""
    parts = [(i, s) for i, s in enumerate(merged.spilled) if s.rows_of(table)]
    return [scan_parts(parts[at:at + _SCANS], table, index=True).with_columns(key.alias("group"))
            .select(pl.exclude(_PART), _PART) for at in range(0, len(parts), _SCANS)] or [
        pl.LazyFrame(schema=PART_SCHEMAS[table]).with_columns(key.alias("group"), pl.lit(None, pl.Int64).alias(_PART))]


def _shared_rows(batches: list[pl.LazyFrame]) -> pl.DataFrame:
    """The rows of the groups on more than one row of `batches` (a part has a group once): picked by their
    keys' 64-bit hashes, sorted (8 bytes a session, not a group-by's table of every key), then checked by
    the key itself, so a collision picks a row that is then left out."""
    hashes = pl.concat([b.select(pl.col("group").hash()).collect() for b in batches]).to_series().sort()
    repeated = hashes.filter(hashes == hashes.shift(1)).unique().implode()
    rows = pl.concat([b.filter(pl.col("group").hash().is_in(repeated)).collect() for b in batches])
    return rows.filter(pl.len().over("group") > 1)


def _rank(row: dict) -> tuple:
    """Which of two findings of a unit in a session `leaked()` keeps: the best grade, then the first sent."""
    return -row["grade"], row["call"], row["segment"], row["start"]


def _renumbered(rows: list[dict], offset: int) -> list[dict]:
    """`rows` with their call numbers moved by `offset`; rows shared in the input stay shared (a
    message's findings share one carrier row), so merging does not copy a row per finding."""
    if not offset:
        return rows
    moved: dict[int, dict] = {}
    return [moved.get(id(r)) or moved.setdefault(id(r), {**r, "call": r["call"] + offset}) for r in rows]
