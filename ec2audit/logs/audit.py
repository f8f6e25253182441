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
import json
import shutil
import tempfile
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import polars as pl

from ec2audit import metrics
from ec2audit.audit import COLUMN, FINDING_SCHEMA, AuditResult, audit
from ec2audit.backends import Backend, Local
from ec2audit.detect.cascade import Cascade, build_cascade
from ec2audit.detect.compiled import placeholder_spans
from ec2audit.detect.normalize import TextView
from ec2audit.errors import InputError
from ec2audit.files import open_private, write_table
from ec2audit.logs import LogFile, check_format, companions, find_logs, read_files, sniff_logs
from ec2audit.logs.base import BYTES_READ
from ec2audit.logs.classify import CLOUD, Classifier
from ec2audit.logs.discovered import cleaned, contained, log_identifiers, named, rejection
from ec2audit.payloads import Payload
from ec2audit.units import Unit

LOCAL_ORIGINS = ("user", "tool_result")
FOUND = "units found in its own calls"
LOCAL_SIDE = "values on its local side"
MESSAGE_INDEX, GROUP, UNIT, GRADE, SEGMENT, START = (
    COLUMN[c] for c in ("message_index", "group", "unit_id", "grade", "segment", "start"))
CALL_SCHEMA = {
    "call": pl.Int64, "payload_id": pl.String, "session": pl.String, "step": pl.Int64, "timestamp": pl.String,
    "provider": pl.String, "model": pl.String, "base_url": pl.String, "side": pl.String, "format": pl.String,
    "log_file": pl.String, "log_line": pl.Int64, "characters": pl.Int64, "input_tokens": pl.Int64,
    "cached_tokens": pl.Int64, "output_tokens": pl.Int64, "cost_usd": pl.Float64,
}
#: The call columns a finding row carries (`findings_frame`, `leaked`).
_CALL_COLUMNS = ("session", "step", "timestamp", "provider", "model", "base_url", "side", "format", "log_file",
                 "log_line")
#: One row per session read (`LogAudit.sessions_frame`); per-dimension exposure as a JSON object;
#: `calls_without_content`: calls that carried no prompt text (OpenTelemetry spans with content capture off).
SESSION_SCHEMA = {
    "session": pl.String(), "calls": pl.Int64(), "cloud_calls": pl.Int64(), "calls_without_content": pl.Int64(),
    "units": pl.Int64(),
    "leaked": pl.Int64(), "exposure": pl.Float64(), "exposure_by_dimension": pl.String(),
    "scored_against": pl.String(), "tasks": pl.List(pl.String),
}
#: One row per session (`dimension` null) and per (session, dimension): `LogAudit.exposure()`.
EXPOSURE_SCHEMA = {"group": pl.String, "dimension": pl.String, "units": pl.Int64, "leaked": pl.Int64,
                   "exposure": pl.Float64}
CARRIER_SCHEMA = {"call": pl.Int64, "entry": pl.String, "kind": pl.String, "tool": pl.String, "file": pl.String,
                  "command": pl.String}


@dataclass(frozen=True)
class Spilled:
    """Findings a worker wrote to Parquet (`LogAudit.spill`) instead of sending them back: the file,
    the number its calls start at in the whole audit, and its row count."""

    path: str
    first_call: int
    rows: int


@dataclass
class LogAudit:
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
    #: Findings written by workers, in call order (`spill`); `result.finding_rows` holds the others.
    spilled: list[Spilled] = field(default_factory=list)
    #: `leaked()`'s rows of the spilled findings (merged from every part's), in order of first finding.
    first_sent: list[dict] = field(default_factory=list)
    #: Removes the folder of `spilled` (`release`); run too when the audit is garbage-collected or at exit.
    cleanup: Callable[[], object] | None = field(default=None, repr=False)

    def release(self) -> None:
        """Remove the findings the workers wrote, once they are written out (`write_findings`)."""
        if self.cleanup:
            self.cleanup()

    def calls_frame(self) -> pl.DataFrame:
        return pl.DataFrame(self.calls, schema=CALL_SCHEMA)

    def findings_frame(self) -> pl.DataFrame:
        """Every finding (on the first cloud call that sent its text), with its call and carrier."""
        return self.findings_lazy().collect()

    def findings_lazy(self) -> pl.LazyFrame:
        """`findings_frame` as a lazy scan of the spilled parts (and of the rows held here): written
        out with `write_findings`, it never passes through the driver's memory whole."""
        return pl.concat(self._finding_parts())

    def _finding_parts(self) -> list[pl.LazyFrame]:
        parts = [pl.scan_parquet(s.path).with_columns(pl.col("call") + s.first_call) for s in self.spilled]
        if self.result.finding_rows or not parts:
            findings = pl.concat([self.result.findings_frame(),
                                  pl.DataFrame(self.carriers, schema=CARRIER_SCHEMA)], how="horizontal")
            calls = self.calls_frame().select("call", *_CALL_COLUMNS)
            parts.insert(0, findings.join(calls, on="call", how="left", maintain_order="left").lazy())
        return parts

    def finding_parts(self) -> Iterator[pl.DataFrame]:
        """The findings part by part (one per spilled file), each small enough to hold."""
        return (part.collect() for part in self._finding_parts())

    def finding_count(self) -> int:
        return len(self.result.finding_rows) + sum(s.rows for s in self.spilled)

    def write_findings(self, path: Path) -> None:
        """The findings as one table (Parquet, or JSONL for `.jsonl`), private, streamed from the parts."""
        with open_private(path, "wb"):
            pass  # created 0600 here; the sink writes into it
        findings = self.findings_lazy()
        if path.suffix == ".jsonl":
            findings.sink_ndjson(path)
        else:
            findings.sink_parquet(path)

    def spill(self, path: Path) -> None:
        """Write the findings to `path` (Parquet) and keep of them only their count and `leaked()`'s
        rows: what a worker sends back instead of every finding."""
        self.first_sent = self._first_sent()
        if self.result.finding_rows:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_table(self.findings_frame(), path)
            self.spilled = [Spilled(str(path), 0, len(self.result.finding_rows))]
        self.result.finding_rows, self.carriers = [], []

    def leaked(self) -> list[dict]:
        """One row per (session, unit): its best grade and the first call that sent it at that grade,
        with the columns of `findings_frame`."""
        return sorted(self._first_sent(), key=lambda r: (r["call"], r["segment"], r["start"]))

    def _first_sent(self) -> list[dict]:
        """`leaked()`'s rows in order of each (session, unit)'s first finding — found in one pass over
        the rows, not through a frame of every finding (which costs a large audit hundreds of MB)."""
        if not self.result.finding_rows:
            return self.first_sent
        best: dict[tuple[str, str], tuple] = {}
        for row, carrier in zip(self.result.finding_rows, self.carriers, strict=True):
            key = (row[GROUP], row[UNIT])
            rank = (-row[GRADE], carrier["call"], row[SEGMENT], row[START])
            if key not in best or rank < best[key][0]:
                best[key] = (rank, row, carrier)
        rows = []
        for _, row, carrier in best.values():
            call = self.calls[carrier["call"]]
            rows.append({**dict(zip(FINDING_SCHEMA, row, strict=True)), **carrier,
                         **{k: call[k] for k in _CALL_COLUMNS}})
        return rows

    def scored_against(self, session: str) -> str:
        """What a session's exposure is over, in words."""
        if self.mode == "discover":
            return LOCAL_SIDE
        if session in self.found_in_calls:
            return FOUND
        tasks = sorted(self.result.tasks.get(session, ()))
        return f"task {', '.join(tasks)}" if len(tasks) <= 3 else f"{len(tasks)} tasks"

    def exposure(self) -> pl.DataFrame:
        """Exposure per session (`dimension` null) and per (session, dimension): a polars DataFrame with
        columns `group`, `dimension`, `units`, `leaked`, `exposure` — the same type as
        `AuditResult.exposure()`, which `audit_file` and `ec2audit.judge` return."""
        return pl.DataFrame(self.exposure_rows(), schema=EXPOSURE_SCHEMA)

    def exposure_rows(self) -> list[dict]:
        """`exposure()` as rows, each over the units of the session's tasks (or those found in its
        calls) — summed per task rather than through a session × unit table, which a large log audited
        with a large units file would make huge."""
        counts: dict[tuple[str, str | None], int] = defaultdict(int)
        weights: dict[tuple[str, str | None], float] = defaultdict(float)
        for u in self.result.units:
            for key in ((u.task_id, None), (u.task_id, u.dimension)):
                counts[key] += 1
                weights[key] += u.weight
        units = {u.id: u for u in self.result.units}
        dimensions = sorted({u.dimension for u in self.result.units})
        rows = []
        for group, tasks in self.result.tasks.items():
            grades = self.result.grades.get(group, {})
            scope = [units[i] for i in self.found_in_calls.get(group, ())]
            for dimension in (None, *dimensions):
                if group in self.found_in_calls:
                    count = sum(1 for u in scope if dimension in (None, u.dimension))
                    weight = sum(u.weight for u in scope if dimension in (None, u.dimension))
                else:
                    count = sum(counts[(t, dimension)] for t in tasks)
                    weight = sum(weights[(t, dimension)] for t in tasks)
                if not count:
                    continue
                hit = [(g, units[uid]) for uid, g in grades.items() if dimension in (None, units[uid].dimension)]
                rows.append({"group": group, "dimension": dimension, "units": int(count),
                             "leaked": sum(1 for g, _ in hit if metrics.leaked(g)),
                             "exposure": sum(g * u.weight for g, u in hit) / weight})
        return rows

    def sessions(self) -> list[dict]:
        """Calls and exposure per session, overall and per dimension (units 0 and exposure null where
        no cloud call was audited): every session read, clean ones too."""
        exposure: dict[str, dict] = {}
        by_dimension: dict[str, dict[str, float]] = defaultdict(dict)
        for r in self.exposure_rows():
            if r["dimension"] is None:
                exposure[r["group"]] = r
            else:
                by_dimension[r["group"]][r["dimension"]] = r["exposure"]
        rows: dict[str, dict] = {}
        for c in self.calls:
            row = rows.setdefault(c["session"], {"session": c["session"], "calls": 0, "cloud_calls": 0,
                                                 "calls_without_content": 0})
            row["calls"] += 1
            row["cloud_calls"] += c["side"] == CLOUD
            row["calls_without_content"] += not c["characters"]
        for session, row in rows.items():
            found = exposure.get(session, {})
            row.update(units=found.get("units", 0), leaked=found.get("leaked", 0), exposure=found.get("exposure"),
                       exposure_by_dimension=by_dimension.get(session, {}),
                       scored_against=self.scored_against(session),
                       tasks=[] if session in self.found_in_calls else sorted(self.result.tasks.get(session, ())))
        return list(rows.values())

    def sessions_frame(self) -> pl.DataFrame:
        """`sessions()` as the table `audit --out` writes beside the findings (`sessions_path`), so
        `report` counts every audited session, not only those with findings."""
        rows = [{**r, "exposure_by_dimension": json.dumps(r["exposure_by_dimension"])} for r in self.sessions()]
        return pl.DataFrame(rows, schema=SESSION_SCHEMA)

    def providers(self) -> list[dict]:
        """Calls, tokens and cost per (side, provider, model); cost null when no call had a price."""
        return (self.calls_frame().group_by("side", "provider", "model", maintain_order=True).agg(
            calls=pl.len(), characters=pl.col("characters").sum(), input_tokens=pl.col("input_tokens").sum(),
            cached_tokens=pl.col("cached_tokens").sum(), output_tokens=pl.col("output_tokens").sum(),
            cost_usd=pl.when(pl.col("cost_usd").is_not_null().any()).then(pl.col("cost_usd").sum()))
            .sort("side", "provider", "model", nulls_last=True).to_dicts())

    def timeline(self, leaked: list[dict] | None = None) -> list[dict]:
        """Cloud calls in order with the units each sent for the first time (at their best grade);
        `leaked` as `leaked()` returned it, when already at hand."""
        first: dict[int, list[str]] = defaultdict(list)
        for row in self.leaked() if leaked is None else leaked:
            first[row["call"]].append(row["unit_id"])
        return [{"session": c["session"], "step": c["step"], "payload_id": c["payload_id"],
                 "timestamp": c["timestamp"], "provider": c["provider"], "model": c["model"],
                 "new_units": first.get(c["call"], [])} for c in self.calls if c["side"] == CLOUD]


def _file_rows(log: LogFile) -> list[dict]:
    """The files table's rows for one log: the file, and any file read as part of it."""
    return [{"file": str(log.path), "format": log.format, "encoding": log.encoding, "read_with": None}] + [
        {"file": str(p), "format": log.format, "encoding": None, "read_with": str(log.path)} for p in companions(log)]


def _call_row(index: int, payload: Payload, side: str) -> dict:
    meta = payload.meta
    usage = meta.get("usage") or {}
    cost = usage.get("cost_usd")
    if cost is None and side == CLOUD and usage:
        from ec2audit.intercept.pricing import price
        from ec2audit.intercept.usage import Usage

        cost = price(payload.model, Usage(usage.get("input_tokens") or 0, usage.get("cached_tokens") or 0,
                                          usage.get("output_tokens") or 0))
    source = meta.get("source") or {}
    return {"call": index, "payload_id": payload.id, "session": meta.get("session") or payload.episode,
            "step": meta.get("step"), "timestamp": None if meta.get("timestamp") is None else str(meta["timestamp"]),
            "provider": meta.get("provider"), "model": payload.model, "base_url": meta.get("base_url"),
            "side": side, "format": meta.get("format"), "log_file": source.get("file"), "log_line": source.get("line"),
            "characters": payload.size, "input_tokens": usage.get("input_tokens"),
            "cached_tokens": usage.get("cached_tokens"), "output_tokens": usage.get("output_tokens"),
            "cost_usd": cost}


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


def _rejection(unit: Unit, texts: dict[str, str]) -> str | None:
    """`discovered.rejection` of a candidate, told the text around it."""
    return rejection(unit, *_around(unit, texts))


def _around(unit: Unit, texts: dict[str, str], width: int = 80) -> tuple[str, str]:
    """The text before and after a candidate where it was found (empty when its source is unknown)."""
    text = texts.get(unit.source.file, "") if unit.source else ""
    if not text or unit.source is None:
        return "", ""
    start = text.find(unit.value, max(0, unit.source.start - len(unit.value)))
    start = unit.source.start if start < 0 else start
    return text[max(0, start - width):start], text[start + len(unit.value):start + len(unit.value) + width]


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
    mapping = {}
    for number, row in enumerate(rows, start=2):
        if len(row) < 2 or not row[0].strip() or not row[1].strip():
            raise InputError("expected 'session,task_id'", file=str(path), line=number)
        mapping[row[0].strip()] = row[1].strip()
    return mapping


@dataclass(frozen=True)
class Reading:
    """How files are read and calls scoped: what `audit_files` and its workers (processes or Ray
    actors) share."""

    fmt: str | None
    classifier: Classifier
    discover: bool
    task_map: dict[str, str]


class _Progress:
    """Bytes of log files read so far, out of all passes over all files, for `on_progress`."""

    def __init__(self, files: list[Path], passes: int, report: Callable[[int, int], None]):
        self.sizes = {p: p.stat().st_size if p.is_file() else 0 for p in files}
        self.total, self.report = sum(self.sizes.values()) * passes, report
        self.done = self.current = self.size = self.shown = 0

    def file(self, log: LogFile) -> None:
        self.done += self.size
        self.current, self.size = 0, self.sizes.get(log.path, 0)
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
               on_progress: Callable[[int, int], None] | None = None) -> LogAudit:
    """Audit the logs under `paths` against `units` (with their `cascade` if built), or against units
    discovered in them. A session is scored against the units of its task: from `task_map` (session →
    task id), its calls' task ids or its own name; a session matched to no task is scored against the
    units found in its own calls. `on_progress(bytes read, bytes in all)` follows the reading.

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
    walk_errors: list[InputError] = []
    found = find_logs(paths, walk_errors.append)
    progress = _Progress(found, 2 if discover else 1, on_progress) if on_progress else None
    token = BYTES_READ.set(progress.read if progress and backend.in_process else None)
    try:
        if discover:
            # bad files and lines are reported by the audit pass below
            units = discover_units(read_files(sniff_logs(found, fmt, lambda e: None), lambda e: None,
                                              progress.file if progress else None), use_presidio)
            if use_presidio:  # the audit needs it no more: spaCy's model would stay loaded under the audit's peak
                from ec2audit.annotate.prelabel import presidio_analyzer

                presidio_analyzer.cache_clear()
            _return_freed_memory()
        assert units is not None
        if backend.in_process:
            work = partial(audit_batch, reading=reading, units=units, spill=None, on_payload=on_payload,
                           on_file=progress.file if progress else None)
            log = _audit_on(backend, found, cascade, units, work, progress)
        else:
            folder = Path(tempfile.mkdtemp(prefix="ec2audit-findings-", dir=scratch))
            try:
                work = partial(audit_batch, reading=reading, units=units, spill=folder)
                log = _audit_on(backend, found, cascade, units, work, progress)
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
    return log


def _audit_on(backend: Backend, found: list, cascade: Cascade | None, units: list[Unit],
              work: Callable[[Cascade, tuple[int, list]], LogAudit], progress: _Progress | None) -> LogAudit:
    """`work` over `batches` of `found` on `backend` (the whole of `found` in one when it is
    `in_process`, where progress is told file by file), merged in file order."""
    sizes = [] if backend.in_process else file_sizes(found)
    batch_bytes: list[int] = []

    def plan(workers: int) -> list[tuple[int, list]]:
        if backend.in_process:
            return [(0, found)]
        cut = [b for b in batches(list(range(len(found))), sizes, workers) if b]
        batch_bytes[:] = [sum(sizes[i] for i in b) for b in cut]
        return [(number, [found[i] for i in b]) for number, b in enumerate(cut)]

    def parts() -> Iterator[LogAudit]:
        for index, (part, where) in enumerate(backend.map(partial(_cascade, cascade, units), work, plan)):
            for spilled in part.spilled:
                if not Path(spilled.path).exists():
                    raise InputError(f"findings written where this machine cannot read them ({where}): give "
                                     "a folder every node shares", file=spilled.path)
            part.nodes = {f["file"]: where for f in part.files if f["read_with"] is None}
            if progress and not backend.in_process:
                progress.advance(batch_bytes[index])
            yield part

    return merge_parts(parts(), units)


def _cascade(cascade: Cascade | None, units: list[Unit]) -> Cascade:
    """What a worker reuses for every batch: the caller's cascade, or one built for `units`."""
    return cascade or build_cascade(units)


def audit_batch(cascade: Cascade, batch: tuple[int, list], reading: Reading, units: list[Unit], spill: Path | None,
                on_payload: Callable[[Payload], None] | None = None,
                on_file: Callable[[LogFile], None] | None = None) -> LogAudit:
    """One numbered batch of files audited by a worker, for `merge_parts`; with `spill` (a folder),
    its findings written there rather than sent back (`LogAudit.spill`)."""
    index, found = batch
    part = audit_files(found, reading, units, cascade, on_payload, on_file)
    if spill is not None:
        part.spill(spill / f"part-{index:06d}.parquet")
    part.result.units = []  # the driver has them: not sent back with every batch
    return part


def audit_files(found: list, reading: Reading, units: list[Unit], cascade: Cascade,
                on_payload: Callable[[Payload], None] | None = None,
                on_file: Callable[[LogFile], None] | None = None) -> LogAudit:
    """Audit files in order: paths are sniffed here; `LogFile`s and `InputError`s (files sniffed
    already) are read or reported as they are."""
    tasks = {u.task_id for u in units}
    log = LogAudit("", AuditResult(units))
    edge_sent: dict[str, set[str]] = defaultdict(set)

    def cloud_payloads() -> Iterator[Payload]:
        files = _sniffed(found, reading.fmt, log.errors.append)

        def started(f: LogFile) -> None:
            log.files.extend(_file_rows(f))
            if on_file:
                on_file(f)

        for payload in read_files(files, log.errors.append, on_file=started):
            side = reading.classifier.side(payload.meta.get("provider"), payload.model, payload.meta.get("base_url"))
            log.calls.append(_call_row(len(log.calls), payload, side))
            session = payload.episode or payload.task_id or "all"  # the group `audit` scores it in
            if reading.discover:
                payload.task_id = session
                if session not in tasks:
                    continue
            elif session in reading.task_map:
                payload.task_id = reading.task_map[session]
            elif payload.task_id not in tasks and session in tasks:
                payload.task_id = session
            if payload.task_id not in tasks:
                found_units = log.found_in_calls.setdefault(session, set())
                if side != CLOUD:
                    found_units |= _units_in(payload, cascade, edge_sent[session])
            if side == CLOUD:
                yield payload

    def carry(payload: Payload) -> None:
        messages = payload.meta.get("messages") or {}
        call = len(log.calls) - 1  # this payload's row, appended just before it was scanned
        carriers: dict[int, dict] = {}  # one per message: a message's findings share their carrier
        for row in log.result.finding_rows[len(log.carriers):]:
            index = row[MESSAGE_INDEX]
            if index not in carriers:
                source = messages.get(index) or {}
                carriers[index] = {"call": call, **{k: None if source.get(k) is None else str(source[k])
                                                    for k in CARRIER_SCHEMA if k != "call"}}
            log.carriers.append(carriers[index])
        if on_payload:
            on_payload(payload)

    audit(cloud_payloads(), units, cascade, carry, first_only=True, result=log.result)
    for session, found_units in log.found_in_calls.items():
        found_units |= set(log.result.grades.get(session, ()))
    return log


def _sniffed(found: list, fmt: str | None, on_error: Callable[[InputError], None]) -> Iterator[LogFile]:
    """Paths sniffed; what was sniffed elsewhere as it is: a `LogFile` read, an `InputError` reported
    (in its place, so errors come in file order wherever files were sniffed)."""
    for item in found:
        if isinstance(item, LogFile):
            yield item
        elif isinstance(item, InputError):
            on_error(item)
        else:
            yield from sniff_logs([item], fmt, on_error)


def _units_in(payload: Payload, cascade: Cascade, sent: set[str]) -> set[str]:
    """Units found in a call not audited as cloud (its texts not seen before in the session)."""
    kept = []
    for seg in payload.segments:
        if seg.text not in sent:
            sent.add(seg.text)
            kept.append(seg)
    return {f.unit_id for f in cascade.scan(Payload(payload.id, kept))} if kept else set()


def file_sizes(found: list[Path]) -> list[int]:
    """Each file's size in bytes to cut batches by; 0 for one gone since it was listed (its reader names why)."""
    sizes = []
    for path in found:
        try:
            sizes.append(path.stat().st_size)
        except OSError:
            sizes.append(0)
    return sizes


def batches(found: list, sizes: list[int], workers: int) -> list[list]:
    """Contiguous batches of about equal size in bytes, 16 per worker, so none waits long on another's last."""
    target = sum(sizes) / (workers * 16) or 1
    out: list[list] = [[]]
    filled = 0.0
    for item, size in zip(found, sizes, strict=True):
        if filled >= target:
            out.append([])
            filled = 0.0
        out[-1].append(item)
        filled += size
    return out


def merge_parts(parts: Iterable[LogAudit], units: list[Unit]) -> LogAudit:
    """One audit from parts over consecutive batches of files, in their order: calls renumbered,
    best grades and first-sent rows kept — the same rows as one audit of all the files, when no
    session spans two batches."""
    merged = LogAudit("", AuditResult(units))
    result = merged.result
    first_sent: dict[tuple[str, str], dict] = {}  # in order of first finding, as `leaked()` keeps them
    for part in parts:
        offset = len(merged.calls)
        merged.calls += _renumbered(part.calls, offset)
        merged.carriers += _renumbered(part.carriers, offset)
        result.finding_rows += part.result.finding_rows
        merged.spilled += [replace(s, first_call=s.first_call + offset) for s in part.spilled]
        for row in _renumbered(part.first_sent, offset):
            key = (row["group"], row["unit_id"])
            if key not in first_sent or _rank(row) < _rank(first_sent[key]):
                first_sent[key] = row
        result.payload_count += part.result.payload_count
        result.chars += part.result.chars
        for group, grades in part.result.grades.items():
            best = result.grades.setdefault(group, {})
            for unit_id, grade in grades.items():
                best[unit_id] = max(best.get(unit_id, 0.0), grade)
        for group, tasks in part.result.tasks.items():
            result.tasks.setdefault(group, set()).update(tasks)
        merged.files += part.files
        merged.errors += part.errors
        merged.nodes |= part.nodes
        for session, found_units in part.found_in_calls.items():
            merged.found_in_calls.setdefault(session, set()).update(found_units)
    merged.first_sent = list(first_sent.values())
    return merged


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
