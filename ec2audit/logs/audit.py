"""Audit agent logs: which sensitive units reached a cloud call, first sent when and by which message.

Calls are read by the adapters, sorted into cloud and edge (`classify`), and only cloud calls are
scanned. Context is cumulative, so each distinct segment is scanned once per session and a leak is
attributed to the first cloud call that sent it (`ec2audit.audit.audit(first_only=True)`), together
with the message that carried it (entry, tool, file). Units come from an annotated file, or with
`discover` from the pre-labelling recognizers run over each session's local side (user inputs and
tool results, i.e. files read and commands run).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from ec2audit.audit import COLUMN, AuditResult, audit
from ec2audit.detect.cascade import Cascade, build_cascade
from ec2audit.detect.compiled import placeholder_spans
from ec2audit.detect.finding import MOSTLY
from ec2audit.detect.normalize import TextView
from ec2audit.errors import InputError
from ec2audit.logs import check_format, find_logs, read_files, sniff_logs
from ec2audit.logs.classify import CLOUD, Classifier
from ec2audit.payloads import Payload
from ec2audit.units import Unit

LOCAL_ORIGINS = ("user", "tool_result")
MESSAGE_INDEX = COLUMN["message_index"]
CALL_SCHEMA = {
    "call": pl.Int64, "payload_id": pl.String, "session": pl.String, "step": pl.Int64, "timestamp": pl.String,
    "provider": pl.String, "model": pl.String, "base_url": pl.String, "side": pl.String, "format": pl.String,
    "log_file": pl.String, "log_line": pl.Int64, "characters": pl.Int64, "input_tokens": pl.Int64,
    "cached_tokens": pl.Int64, "output_tokens": pl.Int64, "cost_usd": pl.Float64,
}
CARRIER_SCHEMA = {"call": pl.Int64, "entry": pl.String, "kind": pl.String, "tool": pl.String, "file": pl.String,
                  "command": pl.String}


@dataclass
class LogAudit:
    mode: str
    result: AuditResult
    calls: list[dict] = field(default_factory=list)
    carriers: list[dict] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    errors: list[InputError] = field(default_factory=list)

    def calls_frame(self) -> pl.DataFrame:
        return pl.DataFrame(self.calls, schema=CALL_SCHEMA)

    def findings_frame(self) -> pl.DataFrame:
        """Every finding (on the first cloud call that sent its text), with its call and carrier."""
        findings = pl.concat([self.result.findings_frame(),
                              pl.DataFrame(self.carriers, schema=CARRIER_SCHEMA)], how="horizontal")
        calls = self.calls_frame().drop("payload_id", "characters", "input_tokens", "cached_tokens", "output_tokens",
                                        "cost_usd")
        return findings.join(calls, on="call", how="left", maintain_order="left")

    def leaked(self) -> list[dict]:
        """One row per (session, unit): its best grade and the first call that sent it at that grade."""
        frame = self.findings_frame()
        if frame.is_empty():
            return []
        best = frame.group_by("group", "unit_id").agg(pl.col("grade").max().alias("best"))
        rows = (frame.join(best, on=["group", "unit_id"]).filter(pl.col("grade") == pl.col("best"))
                .sort("call", "segment", "start").unique(["group", "unit_id"], keep="first", maintain_order=True))
        return rows.to_dicts()

    def exposure(self) -> list[dict]:
        """Exposure per session and per (session, dimension), each over the units of the session's
        tasks — summed per task rather than through a session × unit table, which a large log
        audited with a large units file would make huge."""
        totals: dict[tuple[str, str | None], list[float]] = defaultdict(lambda: [0, 0.0])
        for u in self.result.units:
            for key in ((u.task_id, None), (u.task_id, u.dimension)):
                totals[key][0] += 1
                totals[key][1] += u.weight
        units = {u.id: u for u in self.result.units}
        dimensions = sorted({u.dimension for u in self.result.units})
        rows = []
        for group, tasks in self.result.tasks.items():
            grades = self.result.grades.get(group, {})
            for dimension in (None, *dimensions):
                count = sum(totals[(t, dimension)][0] for t in tasks)
                weight = sum(totals[(t, dimension)][1] for t in tasks)
                if not count:
                    continue
                hit = [(g, units[uid]) for uid, g in grades.items() if dimension in (None, units[uid].dimension)]
                rows.append({"group": group, "dimension": dimension, "units": int(count),
                             "leaked": sum(1 for g, _ in hit if g >= MOSTLY),
                             "exposure": sum(g * u.weight for g, u in hit) / weight})
        return rows

    def sessions(self) -> list[dict]:
        """Calls and exposure per session (units 0 and exposure null where no cloud call was audited)."""
        exposure = {r["group"]: r for r in self.exposure() if r["dimension"] is None}
        rows: dict[str, dict] = {}
        for c in self.calls:
            row = rows.setdefault(c["session"], {"session": c["session"], "calls": 0, "cloud_calls": 0})
            row["calls"] += 1
            row["cloud_calls"] += c["side"] == CLOUD
        for session, row in rows.items():
            found = exposure.get(session, {})
            row.update(units=found.get("units", 0), leaked=found.get("leaked", 0), exposure=found.get("exposure"))
        return list(rows.values())

    def providers(self) -> list[dict]:
        """Calls, tokens and cost per (side, provider, model); cost null when no call had a price."""
        return (self.calls_frame().group_by("side", "provider", "model", maintain_order=True).agg(
            calls=pl.len(), characters=pl.col("characters").sum(), input_tokens=pl.col("input_tokens").sum(),
            cached_tokens=pl.col("cached_tokens").sum(), output_tokens=pl.col("output_tokens").sum(),
            cost_usd=pl.when(pl.col("cost_usd").is_not_null().any()).then(pl.col("cost_usd").sum()))
            .sort("side", "provider", "model", nulls_last=True).to_dicts())

    def timeline(self) -> list[dict]:
        """Cloud calls in order with the units each sent for the first time (at their best grade)."""
        first: dict[int, list[str]] = defaultdict(list)
        for row in self.leaked():
            first[row["call"]].append(row["unit_id"])
        return [{"session": c["session"], "step": c["step"], "payload_id": c["payload_id"],
                 "timestamp": c["timestamp"], "provider": c["provider"], "model": c["model"],
                 "new_units": first.get(c["call"], [])} for c in self.calls if c["side"] == CLOUD]


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


def discover_units(payloads: Iterable[Payload], use_presidio: bool = True) -> list[Unit]:
    """Candidate units per session from the pre-labelling recognizers over its local side: user
    inputs and tool results (files read, command output), each distinct text once."""
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
        units += [u for u in prelabel_texts([(tid, text) for text, tid in by_text.items()], session,
                                            use_presidio=use_presidio) if not _placeholder(u.value)]
    return units


def _placeholder(value: str) -> bool:
    """A redaction placeholder (`[API_KEY_001]`) is protection, never a candidate unit."""
    view = TextView.of(value.strip())
    return any(s == 0 and e == len(view.text) for s, e in placeholder_spans(view))


def audit_logs(paths: list[str | Path], units: list[Unit] | None = None, *, discover: bool = False,
               fmt: str | None = None, classifier: Classifier | None = None, use_presidio: bool = True,
               on_payload: Callable[[Payload], None] | None = None, cascade: Cascade | None = None,
               jobs: int = 1) -> LogAudit:
    """Audit the logs under `paths` against `units` (with their `cascade` if built), or against units
    discovered in them. With `jobs` > 1, files are audited in that many worker processes (`on_payload`
    is then not called); a session must not span two files then."""
    if (units is None) == (not discover):
        raise InputError("give either units or discover=True", field="units")
    check_format(fmt)
    classifier = classifier or Classifier()
    found = find_logs(paths)
    if discover:
        # bad files and lines are reported by the audit pass below
        units = discover_units(read_files(sniff_logs(found, fmt, lambda e: None), lambda e: None), use_presidio)
    if jobs > 1 and len(found) > 1:
        log = _parallel(found, fmt, units, cascade, classifier, discover, jobs)
    else:
        log = _audit_files(found, fmt, units, cascade or build_cascade(units), classifier, discover, on_payload)
    log.mode = "discover" if discover else "units"
    return log


def _audit_files(found: list[tuple[Path, bool]], fmt: str | None, units: list[Unit], cascade: Cascade,
                 classifier: Classifier, discover: bool, on_payload: Callable[[Payload], None] | None) -> LogAudit:
    sessions_with_units = {u.task_id for u in units}
    log = LogAudit("", AuditResult(units))

    def cloud_payloads() -> Iterator[Payload]:
        files = sniff_logs(found, fmt, log.errors.append)
        for payload in read_files(files, log.errors.append, on_file=lambda p, f: log.files.__setitem__(str(p), f)):
            side = classifier.side(payload.meta.get("provider"), payload.model, payload.meta.get("base_url"))
            log.calls.append(_call_row(len(log.calls), payload, side))
            if discover:
                payload.task_id = payload.episode
                if payload.episode not in sessions_with_units:
                    continue
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
    return log


_WORKER: dict = {}


def _start_worker(fmt: str | None, units: list[Unit], classifier: Classifier, discover: bool,
                  cascade: Cascade | None) -> None:
    _WORKER.update(fmt=fmt, units=units, cascade=cascade or build_cascade(units), classifier=classifier,
                   discover=discover)


def _work(found: list[tuple[Path, bool]]) -> LogAudit:
    w = _WORKER
    part = _audit_files(found, w["fmt"], w["units"], w["cascade"], w["classifier"], w["discover"], None)
    part.result.units = []  # the parent has them: not sent back with every batch
    return part


def _parallel(found: list[tuple[Path, bool]], fmt: str | None, units: list[Unit], cascade: Cascade | None,
              classifier: Classifier, discover: bool, jobs: int) -> LogAudit:
    """Contiguous batches of about equal size (16 per worker, so none waits long on another's last
    batch), each sniffed, read and scanned in a worker, merged in file order.

    On Linux workers are forked: they start with the detectors already built here, where a spawned
    worker would spend ≈ 0.6 s CPU importing and rebuilding them. They never touch a lock a parent
    thread might hold (no console, no logging), so a forked copy is safe."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    forked = sys.platform == "linux"
    context = multiprocessing.get_context("fork" if forked else "spawn")
    sizes = [p.stat().st_size for p, _ in found]
    target = sum(sizes) / (jobs * 16) or 1
    batches: list[list[tuple[Path, bool]]] = [[]]
    filled = 0.0
    for item, size in zip(found, sizes, strict=True):
        if filled >= target:
            batches.append([])
            filled = 0.0
        batches[-1].append(item)
        filled += size
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                             initargs=(fmt, units, classifier, discover,
                                       (cascade or build_cascade(units)) if forked else None)) as pool:
        parts = list(pool.map(_work, batches))
    merged = LogAudit("", AuditResult(units))
    result = merged.result
    for part in parts:
        offset = len(merged.calls)
        merged.calls += _renumbered(part.calls, offset)
        merged.carriers += _renumbered(part.carriers, offset)
        result.finding_rows += part.result.finding_rows
        result.payload_count += part.result.payload_count
        result.chars += part.result.chars
        for group, grades in part.result.grades.items():
            best = result.grades.setdefault(group, {})
            for unit_id, grade in grades.items():
                best[unit_id] = max(best.get(unit_id, 0.0), grade)
        for group, tasks in part.result.tasks.items():
            result.tasks.setdefault(group, set()).update(tasks)
        merged.files.update(part.files)
        merged.errors += part.errors
    return merged


def _renumbered(rows: list[dict], offset: int) -> list[dict]:
    """`rows` with their call numbers moved by `offset`; rows shared in the input stay shared (a
    message's findings share one carrier row), so merging does not copy a row per finding."""
    if not offset:
        return rows
    moved: dict[int, dict] = {}
    return [moved.get(id(r)) or moved.setdefault(id(r), {**r, "call": r["call"] + offset}) for r in rows]
