"""Findings as OpenTelemetry spans over OTLP/HTTP, so they show in the trace store a user already runs
(Arize Phoenix, Langfuse, Jaeger, an OpenTelemetry Collector) next to the agent's own spans.

A root span `ec2audit audit` with the audit's counts, and one span per (session, unit) at its best grade
on the first call that sent it, timed at that call when the log says when. When that call is an
OpenTelemetry log's model-call span (its trace and span id in the call row), the leak span is that
span's child in the agent's own trace, so a trace UI shows it under the call that sent the unit; else it
is the root's child, in the export's own trace. Each leak span carries the GenAI semantic-convention
attributes of that call (`gen_ai.operation.name`, `gen_ai.provider.name` and the older `gen_ai.system`,
`gen_ai.request.model`, `gen_ai.conversation.id`, `server.address`) and `ec2audit.leak.*`: unit,
dimension, grade, position (message index and role), call, session, step, origin, detector, value. The
value is masked to its form (`###-####`, as the proxy stores it) unless `keep_evidence`: a trace store
is read by more people than the logs' owner. A leaked unit (grade ≥ 0.7, `metrics.leaked`) sets the
span's status to ERROR, so trace UIs flag it; `openinference.span.kind` EVALUATOR files it under
evaluations in Phoenix.

The exporter is built from the endpoint given, and honours the standard `OTEL_EXPORTER_OTLP_TRACES_*`
variables for headers (Langfuse's Basic auth), timeout and certificates; nothing is sent otherwise.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from ec2audit import __version__, metrics
from ec2audit.detect.semantic import CANDIDATE
from ec2audit.errors import InputError
from ec2audit.extras import require_extra
from ec2audit.intercept.dialects import get_dialect
from ec2audit.intercept.record import ProxyRecord

TRACES_PATH = "/v1/traces"
#: Spans per OTLP request: a large audit is sent in several, each far below a receiver's size limit.
BATCH = 512


@dataclass(frozen=True)
class LeakSpan:
    """One (session, unit) that reached a cloud call, with that call: what one exported span says."""

    session: str
    unit_id: str
    dimension: str
    grade: float
    call: str  # the payload id: a request's id, or the span id of an OpenTelemetry log's call
    value: str  # the matched text as found; masked on export unless asked
    detector: str | None = None
    step: int | None = None
    message_index: int | None = None
    role: str | None = None
    origin: str | None = None
    provider: str | None = None
    model: str | None = None
    server: str | None = None
    operation: str = "chat"
    timestamp: float | None = None  # seconds since the epoch
    trace_id: str | None = None  # the call's span in an OpenTelemetry log (hex), the leak span's parent
    parent_span_id: str | None = None

    @property
    def position(self) -> str:
        """Where in the request: `messages[3] tool` (`messages[?]` when the index is unknown)."""
        index = "?" if self.message_index is None else self.message_index
        return f"messages[{index}]" + (f" {self.role}" if self.role else "")


def _seconds(timestamp: str | None) -> float | None:
    if not timestamp:
        return None
    try:
        return datetime.fromisoformat(timestamp).timestamp()
    except ValueError:
        return None


def from_log_audit(rows: list[dict]) -> list[LeakSpan]:
    """`LogAudit.leaked()`'s rows (the first cloud call that sent each unit of a session) as spans;
    semantic candidates, which no judge graded, are no finding to flag."""
    return [LeakSpan(session=r["group"], unit_id=r["unit_id"], dimension=r["dimension"], grade=r["grade"],
                     call=r["payload_id"], value=r["matched_text"], detector=r["detector"], step=r["step"],
                     message_index=r["message_index"], role=r["role"], origin=r["origin"], provider=r["provider"],
                     model=r["model"], server=r["base_url"], timestamp=_seconds(r["timestamp"]),
                     trace_id=r["trace_id"], parent_span_id=r["span_id"])
            for r in rows if r["detector"] != CANDIDATE]


def from_store_audit(findings: list[dict], records: dict[str, ProxyRecord]) -> list[LeakSpan]:
    """An interceptor store's findings (`AuditResult.findings_frame()` rows, in record order) as spans:
    per (episode, unit) its best grade on the first record that sent it; `records` by id give the
    model, API and time."""
    best: dict[tuple[str, str], dict] = {}
    for row in findings:
        if row["detector"] == CANDIDATE:
            continue
        key = (row["group"], row["unit_id"])
        if key not in best or row["grade"] > best[key]["grade"]:
            best[key] = row
    spans = []
    for row in best.values():
        record = records.get(row["payload_id"])
        dialect = get_dialect(record.api if record else None)  # its provider and GenAI operation
        spans.append(LeakSpan(
            session=row["group"], unit_id=row["unit_id"], dimension=row["dimension"], grade=row["grade"],
            call=row["payload_id"], value=row["matched_text"], detector=row["detector"],
            message_index=row["message_index"], role=row["role"], origin=row["origin"],
            provider=dialect.provider, model=record.model if record else None,
            operation=dialect.operation,
            timestamp=record.ts if record else None))
    return spans


def traces_url(endpoint: str) -> str:
    """The OTLP/HTTP traces URL of `endpoint`: its base (`http://127.0.0.1:6006`, Langfuse's
    `…/api/public/otel`) with `/v1/traces` added, or that URL itself."""
    parts = urlsplit(endpoint)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InputError("expected an http:// or https:// URL", field="--otlp-endpoint")
    base = endpoint.rstrip("/")
    return base if base.endswith(TRACES_PATH) else base + TRACES_PATH


def _attributes(leak: LeakSpan, keep_evidence: bool) -> dict:
    from ec2audit.intercept.app import mask_evidence

    attributes = {
        "gen_ai.operation.name": leak.operation, "gen_ai.provider.name": leak.provider,
        "gen_ai.system": leak.provider, "gen_ai.request.model": leak.model,
        "gen_ai.conversation.id": leak.session, "server.address": leak.server,
        "openinference.span.kind": "EVALUATOR",
        "ec2audit.leak.unit": leak.unit_id, "ec2audit.leak.dimension": leak.dimension,
        "ec2audit.leak.grade": float(leak.grade), "ec2audit.leak.leaked": metrics.leaked(leak.grade),
        "ec2audit.leak.position": leak.position, "ec2audit.leak.message_index": leak.message_index,
        "ec2audit.leak.role": leak.role, "ec2audit.leak.origin": leak.origin, "ec2audit.leak.call": leak.call,
        "ec2audit.leak.session": leak.session, "ec2audit.leak.step": leak.step,
        "ec2audit.leak.detector": leak.detector,
        "ec2audit.leak.value": leak.value if keep_evidence else mask_evidence(leak.value),
        "ec2audit.leak.value_masked": not keep_evidence,
    }
    return {k: v for k, v in attributes.items() if v is not None}


def _nanos(seconds: float | None, default: int) -> int:
    return default if seconds is None else int(seconds * 1e9)


class _Failures(logging.Handler):
    """What the exporter logged while sending: its last error is the reason an export failed."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _quiet(name: str) -> Iterator[_Failures]:
    """The exporter's log (warnings with retries, errors) collected instead of printed."""
    logger, failures = logging.getLogger(name), _Failures()
    propagate = logger.propagate
    logger.addHandler(failures)
    logger.propagate = False
    try:
        yield failures
    finally:
        logger.removeHandler(failures)
        logger.propagate = propagate


def _reason(messages: list[str]) -> str:
    """The exporter's log cut to one reason: `Connection refused`, `HTTP 404 (Not Found)`."""
    text = " ".join(messages)
    errno = re.findall(r"\[Errno -?\d+\] ([^'\")\]]+)", text)
    if errno:
        return errno[-1].strip()
    status = re.findall(r"batch code: (\d+), reason: ([^\n]*)", text)
    if status:
        return f"HTTP {status[-1][0]} ({status[-1][1].strip()})"
    return messages[-1] if messages else "no answer"


def export(leaks: Sequence[LeakSpan], endpoint: str, *, keep_evidence: bool = False,
           counts: dict[str, int] | None = None) -> int:
    """Send `leaks` as spans to the OTLP/HTTP `endpoint` (`traces_url`); the number of spans sent
    (the root included). An endpoint that does not take them is one InputError with the reason."""
    require_extra("otel")
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import (
        NonRecordingSpan,
        SpanContext,
        SpanKind,
        Status,
        StatusCode,
        TraceFlags,
        set_span_in_context,
    )

    url = traces_url(endpoint)
    memory = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "ec2audit", "service.version": __version__}))
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracer = provider.get_tracer("ec2audit", __version__)
    now = time.time_ns()
    starts = [_nanos(leak.timestamp, now) for leak in leaks]
    leaked = sum(1 for leak in leaks if metrics.leaked(leak.grade))
    root = tracer.start_span("ec2audit audit", kind=SpanKind.INTERNAL, start_time=min([now, *starts]), attributes={
        **{f"ec2audit.audit.{k}": v for k, v in (counts or {}).items()},
        "ec2audit.audit.units_reached": len(leaks), "ec2audit.audit.units_leaked": leaked,
        "openinference.span.kind": "CHAIN"})
    under_root = set_span_in_context(root)
    for leak, start in zip(leaks, starts, strict=True):
        name = f"leak {leak.dimension}: {leak.operation} {leak.model or '?'}"
        context = under_root if not (leak.trace_id and leak.parent_span_id) else set_span_in_context(
            NonRecordingSpan(SpanContext(int(leak.trace_id, 16), int(leak.parent_span_id, 16), is_remote=True,
                                         trace_flags=TraceFlags(TraceFlags.SAMPLED))))
        span = tracer.start_span(name, context=context, kind=SpanKind.INTERNAL, start_time=start,
                                 attributes=_attributes(leak, keep_evidence))
        if metrics.leaked(leak.grade):
            span.set_status(Status(StatusCode.ERROR, "a sensitive unit reached a cloud model"))
        span.end(end_time=start)
    root.end(end_time=max([now, *starts]))
    spans = memory.get_finished_spans()
    exporter = OTLPSpanExporter(endpoint=url)
    try:
        with _quiet("opentelemetry.exporter.otlp.proto.http.trace_exporter") as failures:
            for first in range(0, len(spans), BATCH):
                if exporter.export(spans[first:first + BATCH]) is not SpanExportResult.SUCCESS:
                    raise InputError(f"spans not exported to {url}: {_reason(failures.messages)}",
                                     field="--otlp-endpoint")
    finally:
        exporter.shutdown()
        provider.shutdown()
    return len(spans)
