"""The enforce modes as policies: what each does at the hooks an exchange passes through.

  before_forward   the parsed request, before anything leaves: audit it, refuse it, or rewrite it
  on_response      a whole (non-streamed) answer: None relays the upstream's bytes as they came
  on_stream_event  one decoded SSE event: None relays the event's bytes as they came

observe audits beside the upstream call and changes nothing; block awaits the verdict and refuses
with 403 (unit ids, never values); redact replaces unit values by placeholders and restores them in
the answer. The two enforcing modes fail closed: no verdict, nothing forwarded.
"""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import Executor
from dataclasses import dataclass, field

from ec2audit.intercept.redact import EpisodeMap, Redactor, StreamRestorer

log = logging.getLogger("ec2audit.intercept")


class Failure(Exception):
    """An exchange that ends with an error answer to the client (status, message)."""

    def __init__(self, status: int, message: str, kind: str = "proxy_error", extra: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.kind, self.extra = status, message, kind, extra or {}


def json_bytes(data) -> bytes:
    """Compact UTF-8 JSON; a lone surrogate (valid in JSON text, not in UTF-8) is sent as its escape."""
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:
        return json.dumps(data, separators=(",", ":")).encode()


@dataclass
class Exchange:
    """One request's way through the proxy: its record and what the hooks need to share."""

    record: dict
    api: str
    episode: str | None
    t0: float
    body: dict | None = None
    raw: bytes = b""  # the bytes forwarded upstream
    scan: asyncio.Future | None = None  # observe: the inline audit, running beside the upstream call
    emap: EpisodeMap | None = None  # redact: the placeholders this request may use
    restorer: StreamRestorer | None = None
    started: bool = False  # the client's response has begun (headers sent)
    answered: bool = False  # the client has been sent its whole answer
    client_gone: bool = False
    pending: bool = False  # written as pending before forwarding: completed, not re-inserted
    committed: bool = False
    errors: list[str] = field(default_factory=list)


class Observe:
    """Record, and audit inline when units are given; never change or stop anything."""

    def __init__(self, redactor: Redactor | None, scanner: Executor | None, block_grade: float):
        self.redactor, self.scanner, self.block_grade = redactor, scanner, block_grade

    def _on_scanner(self, fn, *args) -> asyncio.Future:
        # the scanning thread: other exchanges keep flowing while one body is scanned
        return asyncio.get_running_loop().run_in_executor(self.scanner, fn, *args)

    async def _verdict(self, ex: Exchange, fn, *args):
        """The scan an enforcing mode waits for; a detector failure refuses the request."""
        try:
            return await self._on_scanner(fn, *args)
        except Exception:
            log.exception("inline audit failed for record %s", ex.record["id"])
            raise Failure(500, "inline audit failed: request not forwarded", "audit_error") from None

    async def before_forward(self, ex: Exchange) -> None:
        if self.redactor is not None:
            ex.scan = self._on_scanner(self.redactor.findings, ex.body)

    def on_response(self, ex: Exchange, response: dict) -> dict | None:
        return None

    def on_stream_event(self, ex: Exchange, name: str | None, data) -> list[tuple[str | None, object]] | None:
        return None


class Block(Observe):
    """Refuse (403) a request in which any unit is found at `block_grade` or above."""

    async def before_forward(self, ex: Exchange) -> None:
        ex.record["findings"] = findings = await self._verdict(ex, self.redactor.findings, ex.body)
        blocked = sorted({f["unit_id"] for f in findings if f["grade"] >= self.block_grade})
        if blocked:
            raise Failure(403, f"blocked by ec2audit: the request contains {len(blocked)} sensitive "
                               f"unit(s): {', '.join(blocked)}", "sensitive_data_blocked", {"units": blocked})


class Redact(Observe):
    """Forward placeholders instead of unit values; put the values back into the answer."""

    async def before_forward(self, ex: Exchange) -> None:
        ex.emap = self.redactor.episode_map(ex.episode)
        body, ex.record["findings"], ex.record["redactions"] = await self._verdict(
            ex, self.redactor.redact, ex.body, ex.emap)
        if body is not ex.body:
            ex.body = ex.record["request"] = body  # the record holds what reached the cloud
            ex.raw = json_bytes(body)

    def on_response(self, ex: Exchange, response: dict) -> dict | None:
        return self.redactor.restore(response, ex.emap) if ex.emap.back else None

    def on_stream_event(self, ex: Exchange, name: str | None, data) -> list[tuple[str | None, object]] | None:
        if not ex.emap.back:
            return None
        if ex.restorer is None:
            ex.restorer = StreamRestorer(self.redactor, ex.api, ex.emap)
        return ex.restorer.rewrite(name, data)


POLICIES = {"observe": Observe, "redact": Redact, "block": Block}
