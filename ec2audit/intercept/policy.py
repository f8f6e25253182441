"""The enforce modes as policies: what each does at the hooks an exchange passes through.

  before_forward   the parsed request, before anything leaves: audit it, refuse it, or rewrite it
  on_response      a whole (non-streamed) answer: None relays the upstream's bytes as they came
  on_stream_event  one decoded SSE event: None relays the event's bytes as they came

observe audits beside the upstream call and changes nothing; block awaits the verdict and refuses
with 403 (unit ids, never values); redact replaces unit values by placeholders and restores them in
the answer. The two enforcing modes fail closed: no verdict, nothing forwarded. What is audited is
the body and every header and query parameter forwarded with it (key headers aside), and what is
forwarded is exactly what was audited.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TypeVar

from ec2audit.intercept.dialects import Dialect
from ec2audit.intercept.form_data import Form
from ec2audit.intercept.lanes import ScanLanes
from ec2audit.intercept.record import BLOCKED, ProxyRecord
from ec2audit.intercept.redact import Detection, EpisodeMap, Field, Redactor, StreamRestorer
from ec2audit.intercept.shape import json_bytes

log = logging.getLogger("ec2audit.intercept")
T = TypeVar("T")


class Failure(Exception):
    """An exchange that ends with an error answer to the client (status, message)."""

    def __init__(self, status: int, message: str, kind: str = "proxy_error", extra: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.kind, self.extra = status, message, kind, extra or {}


@dataclass
class Exchange:
    """One request's way through the proxy: its record and what the hooks need to share."""

    record: ProxyRecord
    dialect: Dialect
    episode: str | None
    t0: float
    body: dict = field(default_factory=dict)  # the parsed request (empty until parsed)
    raw: bytes = b""  # the bytes forwarded upstream (a form's: the JSON of the object audited; `form_data.py`)
    form: Form | None = None  # a multipart body: written back from `body` when forwarded
    fields: list[Field] = field(default_factory=list)  # headers and query parameters forwarded (no keys)
    scan: asyncio.Future | None = None  # observe: the inline audit, running beside the upstream call
    path_stream: str | None = None  # the stream shape its path names (Gemini's `:streamGenerateContent`)
    root: str = "/v1"  # the root its path is under (`dialects.ROOTS`)
    proxy_url: str = ""  # the proxy's URL as the client reached it (an upload session's URL is pointed back at it)
    upload_part: tuple[str, bytes, bytes] | None = None  # an Uploads API part: (upload id, its start, its end)
    emap: EpisodeMap | None = None  # redact: the placeholders this request used (all it may restore)
    restorer: StreamRestorer | None = None
    started: bool = False  # the client's response has begun (headers sent)
    answered: bool = False  # the client has been sent its whole answer
    client_gone: bool = False
    pending: bool = False  # written as pending before forwarding: completed, not re-inserted
    committed: bool = False
    errors: list[str] = field(default_factory=list)

    @property
    def api(self) -> str:
        return self.dialect.name

    @property
    def stream(self) -> str | None:
        """The shape of its streamed answer (`sse`, `redact`): the path's, else its dialect's."""
        return self.path_stream or self.dialect.stream

    def first_byte(self) -> None:
        """The time to the client's first byte, taken once."""
        if self.record.first_byte_ms is None:
            self.record.first_byte_ms = (time.perf_counter() - self.t0) * 1000


class Observe:
    """Record, and audit inline when units are given; never change or stop anything. `refuse_unread`: the
    enforcing modes refuse a request carrying a file the guard cannot read (an image, audio; `media.py`)."""

    def __init__(self, lanes: ScanLanes, block_grade: float, refuse_unread: bool = False):
        self.lanes, self.block_grade, self.refuse_unread = lanes, block_grade, refuse_unread

    async def _detection(self, ex: Exchange) -> Detection:
        found = await self.lanes.detect(ex.raw, ex.body, ex.fields)
        ex.record.unread = found.unread or None
        return found

    async def _findings(self, ex: Exchange) -> list[dict]:
        return (await self._detection(ex)).rows

    def _refusal(self, found: Detection) -> Failure | None:
        """The refusal of a request carrying files no detector could read inside, where the policy asks for it."""
        if not (self.refuse_unread and found.unread):
            return None
        parts = ", ".join(f"{p['media_type']} at {p['path']}" for p in found.unread)
        return Failure(403, f"{BLOCKED}: the request carries {len(found.unread)} part(s) the guard cannot read: "
                            f"{parts}", "unread_part_blocked", {"unread": found.unread})

    async def _verdict(self, ex: Exchange, work: Awaitable[T]) -> T:
        """The scan an enforcing mode waits for; a detector failure refuses the request."""
        try:
            return await work
        except Exception:
            log.exception("inline audit failed for record %s", ex.record.id)
            raise Failure(500, "inline audit failed: request not forwarded", "audit_error") from None

    async def before_forward(self, ex: Exchange) -> None:
        if self.lanes.redactor is not None:  # beside the upstream call: other exchanges keep flowing
            ex.scan = asyncio.ensure_future(self._findings(ex))

    def on_response(self, ex: Exchange, response: dict) -> dict | None:
        return None

    def on_stream_event(self, ex: Exchange, name: str | None, data) -> list[tuple[str | None, object]] | None:
        return None


class Block(Observe):
    """Refuse (403) a request in which any unit is found at `block_grade` or above."""

    async def before_forward(self, ex: Exchange) -> None:
        found = await self._verdict(ex, self._detection(ex))
        ex.record.findings = found.rows
        blocked = sorted({f["unit_id"] for f in found.rows if f["grade"] >= self.block_grade})
        if blocked:
            raise Failure(403, f"{BLOCKED}: the request contains {len(blocked)} sensitive "
                               f"unit(s): {', '.join(blocked)}", "sensitive_data_blocked", {"units": blocked})
        refusal = self._refusal(found)
        if refusal is not None:
            raise refusal


class Redact(Observe):
    """Forward placeholders instead of unit values; put the values back into the answer. The
    detectors may run in another process; the placeholders are numbered here (`lanes.py`)."""

    def __init__(self, lanes: ScanLanes, block_grade: float, refuse_unread: bool = False):
        super().__init__(lanes, block_grade, refuse_unread)
        if lanes.redactor is None:
            raise ValueError("redact needs units to look for")
        self.redactor: Redactor = lanes.redactor

    async def before_forward(self, ex: Exchange) -> None:
        emap = ex.emap = self.redactor.episode_map(ex.episode).for_request()
        body, fields, raw, redactor = ex.body, ex.fields, ex.raw, self.redactor

        async def work():
            found = await self._detection(ex)
            if self._refusal(found) is not None:
                return found, None

            def place():
                new_body, new_fields, count, placed = redactor.place(body, fields, found, emap)
                apart = new_body is not body and self.lanes.encodes_apart(len(raw))
                out = raw if new_body is body else None if apart else json_bytes(new_body)
                return new_body, new_fields, count, placed, out

            new_body, new_fields, count, placed, out = await self.lanes.run(len(raw), place)
            if out is None:  # a large body is encoded where it was scanned: 0.1 s that holds the lock here
                out = await self.lanes.encode(raw, placed)
            return found, (new_body, new_fields, count, out)

        found, redacted = await self._verdict(ex, work())
        ex.record.findings = found.rows
        refusal = self._refusal(found)
        if refusal is not None:
            raise refusal
        assert redacted is not None  # placed where nothing was refused
        new_body, ex.fields, ex.record.redactions, ex.raw = redacted
        if new_body is not body:
            ex.body = ex.record.request = new_body  # the record holds what reached the cloud

    def _refusal(self, found: Detection) -> Failure | None:
        """A file read as text (a PDF) or a header's name that holds a unit at `block_grade` cannot carry a
        placeholder (a name's `[`, `]` are no header token): refused, never forwarded with the value nor dropped
        unsaid; then, as every enforcing mode, files no detector could read."""
        grave = [f for f in found.rows if f["grade"] >= self.block_grade]
        inside = [f for f in grave if f["path"] in found.sealed]
        named = [f for f in grave if f["path"].startswith("header-name:")]
        if inside:
            units = sorted({f["unit_id"] for f in inside})
            files = ", ".join(sorted({f["path"] for f in inside}))
            return Failure(403, f"{BLOCKED}: a file the request carries ({files}) contains {len(units)} sensitive "
                                f"unit(s): {', '.join(units)}; redact cannot rewrite a file's bytes",
                           "sensitive_data_blocked", {"units": units})
        if named:
            units = sorted({f["unit_id"] for f in named})
            return Failure(403, f"{BLOCKED}: a header name holds {len(units)} sensitive unit(s): {', '.join(units)}; "
                                "a placeholder is no valid header name", "sensitive_data_blocked", {"units": units})
        return super()._refusal(found)

    def on_response(self, ex: Exchange, response: dict) -> dict | None:
        return self.redactor.restore(response, ex.emap) if ex.emap is not None and ex.emap.back else None

    def on_stream_event(self, ex: Exchange, name: str | None, data) -> list[tuple[str | None, object]] | None:
        if ex.emap is None or not ex.emap.back:
            return None
        if ex.restorer is None:
            ex.restorer = StreamRestorer(self.redactor, ex.stream, ex.emap)
        return ex.restorer.rewrite(name, data)


POLICIES = {"observe": Observe, "redact": Redact, "block": Block}
