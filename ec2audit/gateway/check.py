"""`gateway-check`: which sensitive values a gateway lets reach the model provider, position by position.

A recording upstream (the scripted stand-in cloud API, `ec2audit.intercept.standin`) listens on
127.0.0.1; the gateway under test is configured to forward to it. Every registered position
(`positions.POSITIONS`) is sent through the gateway once per wire API and stream flag, and what the
upstream received for that request decides the cell:

  leaked    a value reached the upstream in a form the model can read (as sent, or decoded from
            percent-, \\u- or base64 encoding, or inside JSON text)
  redacted  the request reached the upstream at that position (its marker did) without the values
  dropped   the request reached the upstream, but the gateway does not forward that position at all
  blocked   the gateway refused the request (4xx) and forwards the same request without the values
  error     anything else (the gateway failed, or refuses this request shape anyway)

The decoding is this module's own, not ec2audit's detectors, so a form the detectors miss cannot
also be missed by the check.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import re
import socket
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import httpx

from ec2audit.errors import InputError
from ec2audit.gateway.positions import ANTHROPIC, API_PATHS, APIS, POSITIONS, Position, Probe, user_request
from ec2audit.units import Unit, make_unit

VERDICTS = ("leaked", "redacted", "dropped", "blocked", "error")
#: Probe units for a gateway without units of its own: export them with `--export-units` and
#: configure the gateway with that file. Fictitious people; each value in a form PII detectors know.
PROBE_UNITS = [make_unit({"task_id": "gateway-check", "entity_id": "P1", "dimension": dim, "field": name,
                          "value": value})
               for name, dim, value in (
                   ("name", "person_name", "Margaret Okonkwo"),
                   ("name_zh", "person_name", "欧阳娜娜"),
                   ("email", "contact", "margaret.okonkwo@northwind-health.com"),
                   ("phone", "contact", "13922883366"),
                   ("national_id", "government_id", "110105198803153418"))]
#: What stands in for the values in the control request that tells `blocked` from `error`.
CONTROL_VALUES = ["nothing to see here"]
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{8,}={0,2}")
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


@dataclass
class Cell:
    position: str
    api: str
    stream: bool
    verdict: str
    status: int | None = None
    leaked: list[str] = field(default_factory=list)  # unit ids
    note: str = ""


@dataclass
class Matrix:
    gateway: str
    units: list[str]
    cells: list[Cell]

    @property
    def leaked(self) -> bool:
        return any(c.verdict == "leaked" for c in self.cells)

    def cell(self, position: str, api: str, stream: bool) -> Cell | None:
        return next((c for c in self.cells if (c.position, c.api, c.stream) == (position, api, stream)), None)

    def counts(self) -> dict[str, int]:
        return {v: sum(c.verdict == v for c in self.cells) for v in VERDICTS}

    def to_dict(self) -> dict:
        return {"gateway": self.gateway, "units": self.units, "counts": self.counts(),
                "cells": [asdict(c) for c in self.cells]}


# --- what the upstream could read ----------------------------------------------------------------

def _strings(value, out: list[str], depth: int = 0) -> None:
    """Every string and key of a JSON value, JSON text inside strings walked too."""
    if depth > 64:
        return
    if isinstance(value, str):
        out.append(value)
        if value[:1] in "[{\"":
            try:
                _strings(json.loads(value), out, depth + 1)
            except (ValueError, RecursionError):
                pass
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append(str(key))
            _strings(item, out, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out, depth + 1)
    elif value is not None:
        out.append(str(value))


def _decodings(text: str) -> list[str]:
    """The text as a model could read it after undoing percent-, \\u- and base64 encoding."""
    out = []
    if "%" in text or "+" in text:
        out.append(urllib.parse.unquote_plus(text))
    if "\\u" in text:
        out.append(_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text))
    for token in _BASE64.findall(text):
        try:
            raw = base64.b64decode(token + "=" * (-len(token) % 4), altchars=b"-_" if "-" in token or "_" in token
                                   else None, validate=True)
            out.append(raw.decode())
        except (binascii.Error, ValueError):
            pass
    return out


def readable(requests: list[dict]) -> str:
    """Everything the upstream received in these requests (bodies and headers), decoded."""
    strings: list[str] = []
    for request in requests:
        _strings(request.get("body"), strings)
        strings += [f"{k}: {v}" for k, v in (request.get("headers") or {}).items()]
    return "\n".join([*strings, *(d for s in strings for d in _decodings(s))])


# --- the check -----------------------------------------------------------------------------------

@dataclass
class Target:
    """The gateway under test: base URL (with /v1), its key, the model name to ask for per API."""

    url: str
    key: str = field(default="sk-ec2audit-gateway-check", repr=False)
    models: dict[str, str] = field(default_factory=dict)
    timeout: float = 60.0

    def model(self, api: str) -> str:
        return self.models.get(api) or self.models.get("*") or "echo"


def _headers(api: str, key: str) -> dict[str, str]:
    if api == ANTHROPIC:
        return {"x-api-key": key, "anthropic-version": "2023-06-01"}
    return {"authorization": f"Bearer {key}"}


class Upstream:
    """The recording upstream: the stand-in cloud API served on 127.0.0.1:port in this process."""

    def __init__(self, port: int):
        from ec2audit.intercept.server import serve_in_thread
        from ec2audit.intercept.standin import create_app

        try:  # taken? say so in one line before uvicorn would log it
            with socket.socket() as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
                probe.bind(("127.0.0.1", port))
        except OSError as exc:
            raise InputError(f"cannot listen on 127.0.0.1:{port} ({exc.strerror})", field="--upstream-port") from None
        self.app = create_app()
        self.url, self._stop = serve_in_thread(self.app, port=port, timeout=30)

    @property
    def requests(self) -> list[dict]:
        return self.app.state.requests

    def stop(self) -> None:
        self._stop()


class GatewayCheck:
    def __init__(self, target: Target, upstream: Upstream, units: list[Unit],
                 progress: Callable[[Cell], None] | None = None):
        self.target, self.upstream, self.units, self.progress = target, upstream, units, progress
        self.client = httpx.Client(timeout=target.timeout, trust_env=False)
        self._cells = itertools.count(1)

    def _send(self, api: str, stream: bool, probe: Probe) -> tuple[int | None, list[dict], str]:
        """Send one request; (status or None, what the upstream received meanwhile, error note)."""
        body = {"model": self.target.model(api), **probe.body, "stream": stream}
        headers = {**_headers(api, self.target.key), **probe.headers}
        seen = len(self.upstream.requests)
        try:
            response = self.client.post(self.target.url + API_PATHS[api], json=body, headers=headers)
            status, note = response.status_code, "" if response.status_code < 400 else response.text[:300]
        except httpx.HTTPError as exc:
            status, note = None, f"{type(exc).__name__}: {exc}"
        time.sleep(0.01)  # a gateway that answers before its upstream call ends (logging-only modes)
        return status, self.upstream.requests[seen:], note

    def run_cell(self, pos: Position, api: str, stream: bool) -> Cell | None:
        units = [u for u in self.units if u.value.isascii()] if pos.ascii_only else self.units
        marker = f"zq{next(self._cells):04d}x"  # one per cell: no PII detector takes it for a value
        probe = pos.build(api, [u.value for u in units], marker) if units else None
        if probe is None:
            return None
        cell = Cell(pos.name, api, stream, "error")
        cell.status, received, cell.note = self._send(api, stream, probe)
        seen = readable(received)
        cell.leaked = [u.id for u, needle in zip(units, pos.needles([u.value for u in units]), strict=True)
                       if all(piece in seen for piece in needle)]
        if cell.leaked:
            cell.verdict = "leaked"
        elif received:
            cell.verdict = "redacted" if marker in seen else "dropped"
        elif cell.status is not None and 400 <= cell.status < 500:
            control = pos.build(api, CONTROL_VALUES, marker + "c")
            status, received, _ = self._send(api, stream, control) if control else (None, [], "")
            if received and status is not None and status < 400:
                cell.verdict = "blocked"
            else:
                cell.note = f"the gateway refuses this request without the values too ({status}): " + cell.note
        return cell

    def run(self, positions: list[str] | None = None, apis: tuple[str, ...] = APIS,
            streams: tuple[bool, ...] = (False, True)) -> Matrix:
        chosen = [POSITIONS[p] for p in positions] if positions else list(POSITIONS.values())
        self._preflight(apis)
        cells = []
        for pos in chosen:
            for api in apis:
                for stream in streams:
                    cell = self.run_cell(pos, api, stream)
                    if cell is not None:
                        cells.append(cell)
                        if self.progress:
                            self.progress(cell)
        return Matrix(self.target.url, [u.id for u in self.units], cells)

    def _preflight(self, apis: tuple[str, ...]) -> None:
        """One plain request per API; none reaching the upstream is a setup error, not a matrix."""
        notes = []
        for api in apis:
            status, received, note = self._send(api, False, user_request(api, "Hello."))
            if status is None and not received:
                raise InputError(f"cannot reach the gateway at {self.target.url} ({note})", field="GATEWAY_URL")
            if received:
                return
            notes.append(f"{api}: {status} {note}".strip())
        raise InputError(f"no request reached the upstream on {self.upstream.url}: is the gateway's upstream "
                         f"{self.upstream.url}/v1? ({'; '.join(notes)[:400]})", field="GATEWAY_URL")

    def close(self) -> None:
        self.client.close()


def check_gateway(target: Target, upstream_port: int, units: list[Unit] | None = None,
                  positions: list[str] | None = None, apis: tuple[str, ...] = APIS,
                  streams: tuple[bool, ...] = (False, True),
                  progress: Callable[[Cell], None] | None = None) -> Matrix:
    """Run the position matrix through the gateway at `target` with a recording upstream on
    127.0.0.1:`upstream_port` (the gateway must forward there); `units` default to `PROBE_UNITS`."""
    unknown = [p for p in positions or () if p not in POSITIONS]
    if unknown:
        raise InputError(f"unknown position(s) {', '.join(unknown)} (known: {', '.join(POSITIONS)})",
                         field="--position")
    upstream = Upstream(upstream_port)
    check = GatewayCheck(target, upstream, list(units or PROBE_UNITS), progress)
    try:
        return check.run(positions, apis, streams)
    finally:
        check.close()
        upstream.stop()
