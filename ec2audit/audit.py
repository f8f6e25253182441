"""Audit payloads against sensitive units: the library call behind `ec2audit audit`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from ec2audit import metrics
from ec2audit.detect.cascade import Cascade, build_cascade, text_digest
from ec2audit.errors import InputError
from ec2audit.payloads import Payload, iter_payloads
from ec2audit.units import Unit

FINDING_SCHEMA = {
    "group": pl.String, "task_id": pl.String, "unit_id": pl.String, "entity_id": pl.String,
    "field": pl.String, "dimension": pl.String, "weight": pl.Float64, "payload_id": pl.String,
    "segment": pl.Int64, "message_index": pl.Int64, "role": pl.String, "origin": pl.String,
    "start": pl.Int64, "end": pl.Int64, "matched_text": pl.String, "detector": pl.String,
    "grade": pl.Float64, "confidence": pl.Float64,
}

#: Position of each FINDING_SCHEMA column in a finding row.
COLUMN = {name: i for i, name in enumerate(FINDING_SCHEMA)}


@dataclass
class AuditResult:
    """`finding_rows` are tuples in FINDING_SCHEMA order (`COLUMN` names the positions): an audit
    builds hundreds of thousands of them, and tuples cost a quarter of dicts to build and to send
    between processes."""

    units: list[Unit]
    finding_rows: list[tuple] = field(default_factory=list)
    payload_count: int = 0
    chars: int = 0
    errors: list[InputError] = field(default_factory=list)
    grades: dict[str, dict[str, float]] = field(default_factory=dict)
    tasks: dict[str, set[str]] = field(default_factory=dict)
    #: per group that names no task of the units: the units found in its calls, the ones it is scored against
    found: dict[str, set[str]] = field(default_factory=dict)
    #: per such group: the blocked records whose body could not be read, so that its units are a lower bound
    unread: dict[str, list[str]] = field(default_factory=dict)
    unit_tasks: set[str] = field(init=False, repr=False, compare=False)  # the units' tasks (`score`)

    def __post_init__(self) -> None:
        self.unit_tasks = {u.task_id for u in self.units}

    def score(self, payload: Payload, found: Iterable[str] = ()) -> str:
        """Score `payload`'s group against its task's units, whether or not the payload reached the cloud, and
        return the group; a group that names no task of the units is scored against the units found in its calls:
        those it sent (`audit` adds them) and `found`, those of a call that stayed on the device. What a group is
        scored against is its exposure's denominator: a group whose calls all stayed on the device (edge calls,
        requests the proxy blocked) scores 0.0 over those units, not "nothing"; only a group scored against no
        unit has no exposure (docs/design.md §1)."""
        group = group_of(payload)
        named = self.tasks.setdefault(group, set())
        if payload.task_id in self.unit_tasks:
            named.add(payload.task_id)
        else:
            self.found.setdefault(group, set()).update(found)
        return group

    def settle(self) -> None:
        """A group is one session of one task: where some of its calls name a task of the units (one file of the
        session names it, another does not), the whole group is scored against that task's units, its calls that
        name none too; only a group none of whose calls names one is scored against the units found in them."""
        for group in [g for g in self.found if self.tasks.get(g)]:
            del self.found[group]
            self.unread.pop(group, None)

    def findings_frame(self) -> pl.DataFrame:
        return pl.DataFrame(self.finding_rows, schema=FINDING_SCHEMA, orient="row")

    def unit_frame(self) -> pl.DataFrame:
        return metrics.unit_table(self.units, self.grades, self.tasks, self.found)

    def exposure(self) -> pl.DataFrame:
        return metrics.exposure(self.unit_frame())

    def exposure_by_dimension(self) -> pl.DataFrame:
        return metrics.exposure_by_dimension(self.unit_frame())


def audit(payloads: Iterable[Payload], units: list[Unit], cascade: Cascade | None = None,
          on_payload: Callable[[Payload], None] | None = None, *, first_only: bool = False,
          result: AuditResult | None = None) -> AuditResult:
    """Scan every payload; exposure is grouped per episode (or per task when payloads name no episode),
    each group over its tasks' units (`AuditResult.score`; a group `result` scored already keeps its tasks).

    With `first_only`, a segment text already sent in the same group is not scanned again, so every
    finding names the first payload that carried its text — the cumulative-context view of a log.
    Findings accumulate into `result` when given, so `on_payload` can read each payload's rows.
    """
    cascade = cascade or build_cascade(units)
    unit_columns = {u.id: (u.task_id, u.id, u.entity_id, u.field, u.dimension, u.weight) for u in units}
    result = result if result is not None else AuditResult(units)
    grades: dict[str, dict[str, float]] = defaultdict(dict)
    sent: dict[str, set[bytes]] = defaultdict(set)  # per group, the digests of the texts sent: not the texts
    rows = result.finding_rows
    same: tuple[dict, ...] = ({}, {}, {}, {}, {}, {})  # per column of f[3:]: one object for equal values
    for payload in payloads:
        group = result.score(payload)
        kept = list(enumerate(payload.segments))
        if first_only:
            seen, fresh = sent[group], []
            for k, seg in kept:  # a text twice in one payload: its first place only
                if (key := text_digest(seg.text)) not in seen:
                    seen.add(key)
                    fresh.append((k, seg))
            kept = fresh
        for f in cascade.scan(Payload(payload.id, [seg for _, seg in kept], task_id=payload.task_id)):
            k, seg = kept[f.segment]
            # f[3:]: start, end, matched_text, detector, grade, confidence (tuple slicing: the hot loop)
            rows.append((group, *unit_columns[f.unit_id], f.payload_id, k, seg.message_index, seg.role, seg.origin,
                         *_shared(f[3:], same)))
            if f.grade > grades[group].get(f.unit_id, 0.0):
                grades[group][f.unit_id] = f.grade
        result.payload_count += 1
        result.chars += payload.size
        if on_payload:
            on_payload(payload)
    result.grades = dict(grades)
    result.settle()
    return result


def group_of(payload: Payload) -> str:
    """The group a payload is scored in: its episode (a log's session), else its task."""
    return payload.episode or payload.task_id or "all"


#: Distinct values a column of `_shared` remembers before it starts again.
_SHARED_SIZE = 1 << 16


def _shared(values: tuple, same: tuple[dict, ...]) -> tuple:
    """`values` with each one replaced by the first equal value its column saw: the rows of a dense audit
    repeat few matched texts, offsets and grades (28,709 findings, 815 texts, 47 grades and confidences),
    and a string, int or float per row is 28-90 bytes of the rows the audit holds to its end (RESULTS.md,
    issue 34). A column per dict: 1 and 1.0 are equal keys, and a row keeps each value's type."""
    out = []
    for value, seen in zip(values, same, strict=True):
        if len(seen) >= _SHARED_SIZE:
            seen.clear()
        out.append(seen.setdefault(value, value))
    return tuple(out)


def audit_file(payloads_path: str | Path, units: list[Unit],
               on_payload: Callable[[Payload], None] | None = None) -> AuditResult:
    """Audit a JSONL file of request bodies or records; bad lines are kept in `errors`, not fatal."""
    errors: list[InputError] = []
    result = audit(iter_payloads(payloads_path, errors.append), units, on_payload=on_payload)
    result.errors = errors
    return result
