"""The interceptor's ASGI app: forwards OpenAI / Anthropic API calls to the cloud and records each one.

Every exchange is stored (request as sent, response reassembled from the stream, usage, cost, inline
audit findings) and committed before the client gets the response's last byte, so nothing the
client saw completed is lost. Streams are relayed event by event; with redaction on, placeholders
in the answer are swapped back for the real values on the way through.

The proxy is a hop on every model call of an agent, so its own work per exchange is kept small
(benchmarks/proxy_overhead.py): Starlette only routes, the endpoints speak raw ASGI (no Request or
Response objects), and the upstream leg uses aiohttp, whose C HTTP parser costs a third of httpx's
pure-Python stack per request. The inline audit runs on its own thread while the upstream works.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import anyio
from starlette.applications import Starlette
from starlette.routing import Route

from ec2audit.detect.cascade import build_cascade
from ec2audit.detect.finding import MOSTLY
from ec2audit.errors import InputError
from ec2audit.intercept.pricing import Pricing
from ec2audit.intercept.redact import Redactor, StreamRestorer
from ec2audit.intercept.sse import Assembler, Event, EventSplitter
from ec2audit.intercept.store import RecordStore
from ec2audit.intercept.usage import parse_usage
from ec2audit.payloads import payload_from_record
from ec2audit.units import Unit

log = logging.getLogger("ec2audit.intercept")

ENFORCE_MODES = ("observe", "redact", "block")
_APIS = {"/chat/completions": "openai-chat", "/responses": "openai-responses", "/messages": "anthropic-messages"}
#: Request headers never forwarded: hop-by-hop ones, our own, and ones the upstream client sets itself.
_DROP_REQUEST = frozenset({b"host", b"content-length", b"connection", b"keep-alive", b"transfer-encoding", b"te",
                           b"upgrade", b"proxy-authorization", b"proxy-connection", b"accept-encoding",
                           b"x-ec2-episode", b"cookie", b"content-type"})
_DROP_RESPONSE = frozenset({b"content-length", b"content-encoding", b"transfer-encoding", b"connection",
                            b"keep-alive", b"server", b"date"})
_JSON_HEADERS = [(b"content-type", b"application/json")]
_NULL_USAGE = re.compile(rb',\s*"usage":\s*null')
_TERMINAL = frozenset({"message_stop", "response.completed", "response.incomplete", "response.failed"})


@dataclass
class InterceptConfig:
    """`upstream` is the cloud API's base URL including `/v1` (e.g. https://api.openai.com/v1)."""

    upstream: str
    store: str | Path | RecordStore
    upstream_key: str | None = field(default=None, repr=False)  # replaces the client's key; never stored
    units: list[Unit] = field(default_factory=list)
    enforce: str = "observe"
    block_grade: float = MOSTLY  # block when a unit is found at this grade or above
    pricing: str | Path | None = None
    connect_timeout: float = 10.0
    read_timeout: float = 300.0
    max_body_bytes: int = 32 * 2**20

    def __post_init__(self):
        if self.enforce not in ENFORCE_MODES:
            raise InputError(f"must be one of {', '.join(ENFORCE_MODES)}", field="enforce")
        if self.enforce != "observe" and not self.units:
            raise InputError(f"--enforce {self.enforce} needs units to look for", field="units")
        self.upstream = self.upstream.rstrip("/")


class _Failure(Exception):
    """An exchange that ends with an error answer to the client (status, message)."""

    def __init__(self, status: int, message: str, kind: str = "proxy_error", extra: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.kind, self.extra = status, message, kind, extra or {}


def _error_body(api: str, kind: str, message: str, extra: dict | None = None) -> dict:
    """An error in the shape the client's SDK parses for this API."""
    if api == "anthropic-messages":
        return {"type": "error", "error": {"type": kind, "message": message, **(extra or {})}}
    return {"error": {"message": message, "type": kind, "code": kind, **(extra or {})}}


def _json(data) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _sse(name: str | None, data) -> bytes:
    head = f"event: {name}\n".encode() if name else b""
    return head + b"data: " + _json(data) + b"\n\n"


async def _answer(send, status: int, headers: list[tuple[bytes, bytes]], content: bytes) -> None:
    """A whole response to the ASGI client."""
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, (b"content-length", b"%d" % len(content))]})
    await send({"type": "http.response.body", "body": content})


def _client_headers(upstream: aiohttp.ClientResponse) -> list[tuple[bytes, bytes]]:
    return [(k, v) for k, v in upstream.raw_headers if k.lower() not in _DROP_RESPONSE]


def _env_proxy(url: str) -> str | None:
    """The proxy the environment (HTTPS_PROXY, NO_PROXY, ...) names for the upstream, looked up once:
    aiohttp's own `trust_env` would look it up, and .netrc, on a thread for every request."""
    target = urllib.parse.urlsplit(url)
    if not target.hostname or urllib.request.proxy_bypass(target.hostname):
        return None
    return urllib.request.getproxies().get(target.scheme)


class _Endpoint:
    """An interceptor method as a raw ASGI endpoint: Starlette routes to it without wrapping it in
    Request/Response objects."""

    def __init__(self, method):
        self.method = method

    async def __call__(self, scope, receive, send) -> None:
        await self.method(scope, receive, send)


class Interceptor:
    """The proxy's state: upstream client, store, pricing, detectors and per-episode placeholders."""

    def __init__(self, config: InterceptConfig):
        self.config = config
        self.store = config.store if isinstance(config.store, RecordStore) else RecordStore(config.store)
        self.pricing = Pricing(config.pricing)
        self.cascade = build_cascade(config.units) if config.units else None
        self.units = {u.id: u for u in config.units}
        self.redactor = Redactor(self.cascade) if self.cascade and config.enforce == "redact" else None
        self.session: aiohttp.ClientSession | None = None
        self.upstream_proxy = _env_proxy(config.upstream)
        # one scanning thread: detectors are not promised to be thread-safe, and redaction's
        # per-episode placeholder numbering must not race
        self._scanner = ThreadPoolExecutor(1, thread_name_prefix="ec2audit-scan") if self.cascade else None

    @asynccontextmanager
    async def lifespan(self, app):
        # no cookie jar (one agent's cookies must not reach another's requests), no redirects (see
        # _forward), no decompression (the stream is read as it comes)
        timeout = aiohttp.ClientTimeout(connect=self.config.connect_timeout, sock_read=self.config.read_timeout)
        async with aiohttp.ClientSession(timeout=timeout, connector=aiohttp.TCPConnector(limit=0),
                                         cookie_jar=aiohttp.DummyCookieJar(), auto_decompress=False,
                                         proxy=self.upstream_proxy) as session:
            self.session = session
            yield
        if self._scanner is not None:
            self._scanner.shutdown(wait=True)

    # --- helpers ---------------------------------------------------------------------------------

    def _upstream_headers(self, scope, api: str) -> list[tuple[str, str]]:
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"] if k not in _DROP_REQUEST]
        headers.append(("accept-encoding", "identity"))  # the proxy reads the stream: no compression
        if self.config.upstream_key:
            headers = [(k, v) for k, v in headers if k not in ("authorization", "x-api-key")]
            if api == "anthropic-messages":
                headers.append(("x-api-key", self.config.upstream_key))
            else:
                headers.append(("authorization", f"Bearer {self.config.upstream_key}"))
        return headers

    async def _read_body(self, scope, receive) -> bytes:
        limit = self.config.max_body_bytes
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), b"")
        if declared.isdigit() and int(declared) > limit:
            raise _Failure(413, f"request body of {declared.decode()} bytes is over the {limit}-byte limit",
                           "request_too_large")
        parts, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Failure(499, "client disconnected while sending the request", "client_disconnect")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise _Failure(413, f"request body is over the {limit}-byte limit", "request_too_large")
            parts.append(chunk)
            if not message.get("more_body"):
                return b"".join(parts)

    @staticmethod
    def _parse_body(raw: bytes) -> dict:
        try:
            body = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise _Failure(400, f"request body is not UTF-8 ({exc.reason} at byte {exc.start})",
                           "invalid_request_error") from None
        except json.JSONDecodeError as exc:
            raise _Failure(400, f"request body is not valid JSON ({exc.msg} at line {exc.lineno} "
                                f"column {exc.colno})", "invalid_request_error") from None
        if not isinstance(body, dict):
            raise _Failure(400, "request body must be a JSON object", "invalid_request_error")
        return body

    def _scan(self, body: dict, record_id: str, episode: str | None) -> list[dict]:
        """Inline audit of one request by the deterministic tiers (exact + partial)."""
        try:
            payload = payload_from_record({"id": record_id, "episode": episode, "request": body}, record_id)
        except InputError:
            return []
        rows = []
        for f in self.cascade.scan(payload):
            segment = payload.segments[f.segment]
            rows.append({"unit_id": f.unit_id, "dimension": self.units[f.unit_id].dimension,
                         "segment": f.segment, "message_index": segment.message_index,
                         "origin": segment.origin, "start": f.start, "end": f.end,
                         "matched_text": f.matched_text, "detector": f.detector, "grade": f.grade,
                         "confidence": f.confidence})
        return rows

    async def _commit(self, record: dict, t0: float, scan: asyncio.Future | None = None,
                      response: dict | None = None) -> None:
        """Complete the record (findings, usage, cost, latency) and commit it."""
        if scan is not None:
            try:
                record["findings"] = await scan
            except Exception:  # a detector bug must not cost the record
                log.exception("inline audit failed for record %s", record["id"])
                record["error"] = record["error"] or "inline audit failed"
        if response is not None:
            record["response"] = response
            usage = parse_usage(response.get("usage"))
            model = response.get("model") or record.get("model")
            if usage is not None:
                record.update(input_tokens=usage.input, cached_tokens=usage.cached, output_tokens=usage.output)
                record["cost_usd"] = self.pricing.price(model, usage)
        record["latency_ms"] = (time.perf_counter() - t0) * 1000
        try:
            self.store.add(record)
        except Exception:  # the client still gets its answer; the failure is loud in the log
            log.exception("could not store record %s", record["id"])

    # --- endpoints -------------------------------------------------------------------------------

    async def models(self, scope, receive, send) -> None:
        try:
            async with self.session.get(f"{self.config.upstream}/models", allow_redirects=False,
                                        headers=self._upstream_headers(scope, "openai-chat")) as upstream:
                content = await upstream.read()
        except TimeoutError:
            return await _answer(send, 504, _JSON_HEADERS,
                                 _json(_error_body("openai-chat", "upstream_timeout", "upstream timed out")))
        except aiohttp.ClientError as exc:
            return await _answer(send, 502, _JSON_HEADERS, _json(_error_body(
                "openai-chat", "upstream_unreachable", f"upstream unreachable ({type(exc).__name__})")))
        await _answer(send, upstream.status, _client_headers(upstream), content)

    async def proxy(self, scope, receive, send) -> None:
        t0 = time.perf_counter()
        path = scope["path"]
        tail = path[path.rindex("/v1/") + 3:]
        api = _APIS[tail]
        episode = scope["path_params"].get("episode") or next(
            (v.decode("latin-1") for k, v in scope["headers"] if k == b"x-ec2-episode"), None)
        record: dict = {"id": uuid.uuid4().hex, "episode": episode, "ts": time.time(), "api": api,
                        "path": "/v1" + tail, "status": None, "error": None, "findings": None, "redactions": 0}
        scan = None
        try:
            raw = await self._read_body(scope, receive)
            body = self._parse_body(raw)
            record.update(request=body, model=body.get("model"), stream=bool(body.get("stream")))
            if self.cascade is not None:  # on the scanning thread, so other exchanges keep flowing
                scan = asyncio.get_running_loop().run_in_executor(self._scanner, self._scan, body,
                                                                  record["id"], episode)
                if self.config.enforce != "observe":  # the verdict decides what may leave: fail closed
                    pending, scan = scan, None
                    try:
                        record["findings"] = await pending
                    except Exception:
                        log.exception("inline audit failed for record %s", record["id"])
                        raise _Failure(500, "inline audit failed: request not forwarded", "audit_error") from None
            if self.config.enforce == "block":
                blocked = sorted({f["unit_id"] for f in record["findings"] if f["grade"] >= self.config.block_grade})
                if blocked:
                    raise _Failure(403, f"blocked by ec2audit: the request contains {len(blocked)} sensitive "
                                        f"unit(s): {', '.join(blocked)}", "sensitive_data_blocked",
                                   {"units": blocked})
            if self.redactor is not None:
                body, record["redactions"] = await asyncio.get_running_loop().run_in_executor(
                    self._scanner, self.redactor.redact, body, episode)
                record["request"] = body
                raw = json.dumps(body, ensure_ascii=False).encode()
            await self._forward(scope, receive, send, record, api, episode, body, raw, t0, scan)
        except _Failure as failure:
            record.update(status=failure.status, error=failure.message)
            await self._commit(record, t0, scan)
            await _answer(send, failure.status, _JSON_HEADERS,
                          _json(_error_body(api, failure.kind, failure.message, failure.extra)))

    async def _forward(self, scope, receive, send, record: dict, api: str, episode: str | None, body: dict,
                       raw: bytes, t0: float, scan) -> None:
        stream = bool(body.get("stream"))
        strip_usage = False
        if stream and api == "openai-chat" and not (body.get("stream_options") or {}).get("include_usage"):
            # usage only comes in a final chunk the client did not ask for: request it, hide it later
            options = {**(body.get("stream_options") or {}), "include_usage": True}
            raw, strip_usage = json.dumps({**body, "stream_options": options}, ensure_ascii=False).encode(), True
        headers = [*self._upstream_headers(scope, api), ("content-type", "application/json")]
        try:  # a redirect is answered to the client as it came, never followed with the client's key
            upstream = await self.session.post(self.config.upstream + record["path"].removeprefix("/v1"),
                                               data=raw, headers=headers, allow_redirects=False)
        except TimeoutError:
            raise _Failure(504, "upstream did not answer in time", "upstream_timeout") from None
        except aiohttp.ClientError as exc:
            raise _Failure(502, f"upstream unreachable ({type(exc).__name__})", "upstream_unreachable") from None
        record["status"] = upstream.status
        if upstream.status < 400 and upstream.content_type == "text/event-stream":
            return await self._relay(upstream, receive, send, record, api, episode, strip_usage, t0, scan)
        try:
            content = await upstream.read()
        except TimeoutError:
            raise _Failure(504, "upstream timed out while answering", "upstream_timeout") from None
        except aiohttp.ClientError as exc:
            raise _Failure(502, f"upstream broke off its answer ({type(exc).__name__})", "upstream_error") from None
        finally:
            upstream.release()
        try:
            response = json.loads(content)
        except (json.JSONDecodeError, UnicodeDecodeError):
            response = None
        if upstream.status >= 400:
            record["error"] = f"upstream answered {upstream.status}"
        elif not isinstance(response, dict):
            record["error"] = "upstream answer is not a JSON object"
        elif self.redactor is not None and self.redactor.active(episode):
            content = json.dumps(self.redactor.restore(response, episode), ensure_ascii=False).encode()
        stored = response if isinstance(response, dict) else {"raw": content.decode("utf-8", "replace")[:10000]}
        await self._commit(record, t0, scan, stored)
        await _answer(send, upstream.status, _client_headers(upstream), content)

    async def _relay(self, upstream: aiohttp.ClientResponse, receive, send, record: dict, api: str,
                     episode: str | None, strip_usage: bool, t0: float, scan) -> None:
        """Relay an SSE stream event by event; commit the record just before the final event.

        A watcher waits for the client to go away and then cancels the relay (as Starlette's
        StreamingResponse does); the record is committed either way and names what went wrong."""
        splitter, assembler = EventSplitter(), Assembler(api)
        restorer = StreamRestorer(self.redactor, api, episode) \
            if self.redactor is not None and self.redactor.active(episode) else None
        committed, finished = False, False
        errors: list[str] = []

        async def commit() -> None:
            nonlocal committed
            if errors:
                record["error"] = "; ".join(dict.fromkeys(errors))
            committed = True
            await self._commit(record, t0, scan, assembler.result())

        async def emit(piece: bytes) -> None:
            record.setdefault("first_byte_ms", (time.perf_counter() - t0) * 1000)
            await send({"type": "http.response.body", "body": piece, "more_body": True})

        async def relay() -> None:
            nonlocal finished
            try:
                async for chunk in upstream.content.iter_any():
                    out: list[bytes] = []
                    for event in splitter.feed(chunk):
                        terminal, data = event.data == "[DONE]", None
                        if not terminal:
                            try:
                                data = json.loads(event.data)
                            except json.JSONDecodeError:  # dropped: the client's SDK would choke on it
                                errors.append("malformed SSE event from upstream (dropped)")
                                continue
                            assembler.add(data)
                            terminal = isinstance(data, dict) and data.get("type") in _TERMINAL
                            if strip_usage and isinstance(data, dict) and data.get("usage") and not data.get("choices"):
                                continue  # the usage chunk we asked for on the client's behalf
                        piece = self._client_event(event, data, strip_usage, restorer)
                        if terminal:
                            finished = True
                            record.setdefault("first_byte_ms", (time.perf_counter() - t0) * 1000)
                            if out:
                                await emit(b"".join(out))
                                out = []
                            await commit()
                        out.append(piece)
                    if out:
                        await emit(b"".join(out))
                if splitter.rest().strip():
                    errors.append("upstream stream ended inside an event")
                if not finished:
                    errors.append("upstream closed the stream before its end marker")
            except TimeoutError:
                errors.append("upstream timed out mid-stream")
            except aiohttp.ClientError as exc:
                errors.append(f"upstream connection broke mid-stream ({type(exc).__name__})")
            except anyio.get_cancelled_exc_class():  # the client went away
                errors.append("client disconnected mid-stream")
                raise
            except Exception as exc:
                errors.append(f"proxy failed mid-stream ({type(exc).__name__}: {exc})")
                raise
            finally:
                upstream.release()
                if not committed:
                    with anyio.CancelScope(shield=True):
                        await commit()
            if not finished:  # tell the client's SDK the answer is incomplete (it raises on an error event)
                body = _error_body(api, "upstream_error", "ec2audit: " + "; ".join(dict.fromkeys(errors)))
                await emit(_sse("error" if api == "anthropic-messages" else None, body))
            await send({"type": "http.response.body", "body": b""})

        async def watch(scope: anyio.CancelScope) -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            scope.cancel()

        await send({"type": "http.response.start", "status": upstream.status, "headers": _client_headers(upstream)})
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(watch, tasks.cancel_scope)
            await relay()
            tasks.cancel_scope.cancel()

    @staticmethod
    def _client_event(event: Event, data, strip_usage: bool, restorer: StreamRestorer | None) -> bytes:
        if restorer is not None and data is not None:
            return b"".join(_sse(name, payload) for name, payload in restorer.rewrite(event.event, data))
        if strip_usage:
            return _NULL_USAGE.sub(b"", event.raw)
        return event.raw


def create_app(config: InterceptConfig) -> Starlette:
    """The interceptor as a Starlette app; serve it with uvicorn (`server.serve_in_thread` in-process)."""
    interceptor = Interceptor(config)
    proxy, models = _Endpoint(interceptor.proxy), _Endpoint(interceptor.models)
    routes = []
    for prefix in ("", "/e/{episode}"):
        routes += [Route(f"{prefix}/v1{tail}", proxy, methods=["POST"]) for tail in _APIS]
        routes.append(Route(f"{prefix}/v1/models", models, methods=["GET"]))
    app = Starlette(routes=routes, lifespan=interceptor.lifespan)
    app.state.interceptor = interceptor
    return app
