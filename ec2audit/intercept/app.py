"""The interceptor's ASGI app: forwards OpenAI / Anthropic API calls to the cloud and records each one.

Every exchange is recorded: a request the proxy refuses (malformed, too large, blocked) with its
reason; a request it forwards first as a pending record committed before the first byte leaves, then
completed (response reassembled from the stream, usage, cost, inline audit findings) before the client
gets the response's last byte. Nothing the client saw completed is lost, and nothing forwarded goes
unrecorded. What an enforce mode does to an exchange lives in its policy (`policy.py`).

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
from ec2audit.intercept.policy import POLICIES, Exchange, Failure, json_bytes
from ec2audit.intercept.pricing import Pricing
from ec2audit.intercept.redact import Redactor
from ec2audit.intercept.shape import BadRequest, parse, validate
from ec2audit.intercept.sse import Assembler, Event, EventSplitter
from ec2audit.intercept.store import COMPLETE, PENDING, RecordStore
from ec2audit.intercept.usage import parse_usage
from ec2audit.units import Unit

log = logging.getLogger("ec2audit.intercept")

ENFORCE_MODES = tuple(POLICIES)
_APIS = {"/chat/completions": "openai-chat", "/responses": "openai-responses", "/messages": "anthropic-messages"}
#: Request headers never forwarded: hop-by-hop ones, our own, and ones the upstream client sets itself.
_DROP_REQUEST = frozenset({b"host", b"content-length", b"connection", b"keep-alive", b"transfer-encoding", b"te",
                           b"upgrade", b"proxy-authorization", b"proxy-connection", b"accept-encoding",
                           b"x-ec2-episode", b"cookie", b"content-type"})
#: Headers that carry the client's API key: OpenAI's, Anthropic's, Azure OpenAI's.
_KEY_HEADERS = ("authorization", "x-api-key", "api-key")
_DROP_RESPONSE = frozenset({b"content-length", b"content-encoding", b"transfer-encoding", b"connection",
                            b"keep-alive", b"server", b"date"})
_JSON_HEADERS = [(b"content-type", b"application/json")]
_NULL_USAGE = re.compile(rb',\s*"usage":\s*null')
_TERMINAL = frozenset({"message_stop", "response.completed", "response.incomplete", "response.failed"})
_CANCELLED = "client disconnected before the answer: upstream call cancelled"


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


def _error_body(api: str, kind: str, message: str, extra: dict | None = None) -> dict:
    """An error in the shape the client's SDK parses for this API."""
    if api == "anthropic-messages":
        return {"type": "error", "error": {"type": kind, "message": message, **(extra or {})}}
    return {"error": {"message": message, "type": kind, "code": kind, **(extra or {})}}


def _sse(name: str | None, data) -> bytes:
    head = f"event: {name}\n".encode() if name else b""
    return head + b"data: " + json_bytes(data) + b"\n\n"


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
    """The proxy's state: upstream client, store, pricing, detectors, placeholders and enforce policy."""

    def __init__(self, config: InterceptConfig):
        self.config = config
        self.store = config.store if isinstance(config.store, RecordStore) else RecordStore(config.store)
        self.pricing = Pricing(config.pricing, upstream=config.upstream)
        self.redactor = Redactor(build_cascade(config.units)) if config.units else None
        self.session: aiohttp.ClientSession | None = None
        self.upstream_proxy = _env_proxy(config.upstream)
        # one scanning thread: detectors are not promised to be thread-safe, and redaction's
        # per-episode placeholder numbering must not race
        self._scanner = ThreadPoolExecutor(1, thread_name_prefix="ec2audit-scan") if self.redactor else None
        self.policy = POLICIES[config.enforce](self.redactor, self._scanner, config.block_grade)

    @asynccontextmanager
    async def lifespan(self, app):
        interrupted = self.store.mark_interrupted()
        if interrupted:
            log.warning("%d record(s) left pending by a proxy that stopped are marked interrupted", interrupted)
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
        key = self.config.upstream_key
        if key:  # the client's key never leaves: each header that carried one carries ours instead
            sent = [k for k, _ in headers if k in _KEY_HEADERS]
            headers = [(k, v) for k, v in headers if k not in _KEY_HEADERS]
            if not sent:
                sent = ["x-api-key" if api == "anthropic-messages" else "authorization"]
            headers += [(k, f"Bearer {key}" if k == "authorization" else key) for k in dict.fromkeys(sent)]
        return headers

    async def _read_body(self, scope, receive) -> bytes:
        limit = self.config.max_body_bytes
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), b"")
        if declared.isdigit() and int(declared) > limit:
            raise Failure(413, f"request body of {declared.decode()} bytes is over the {limit}-byte limit",
                          "request_too_large")
        parts, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise Failure(499, "client disconnected while sending the request", "client_disconnect")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise Failure(413, f"request body is over the {limit}-byte limit", "request_too_large")
            parts.append(chunk)
            if not message.get("more_body"):
                return b"".join(parts)

    async def _commit(self, ex: Exchange, response: dict | None = None) -> None:
        """Complete the record (findings, usage, cost, latency) and commit it."""
        record = ex.record
        if ex.scan is not None:
            try:
                record["findings"] = await ex.scan
            except Exception:  # a detector bug must not cost the record
                log.exception("inline audit failed for record %s", record["id"])
                record["error"] = record["error"] or "inline audit failed"
        if response is not None:
            record["response"] = response
            usage = parse_usage(response.get("usage"))
            model = response.get("model") or record.get("model")
            if usage is not None:
                record.update(input_tokens=usage.input, cached_tokens=usage.cached, output_tokens=usage.output)
                record["cost_usd"] = self.pricing.price(model if isinstance(model, str) else None, usage)
        record["latency_ms"] = (time.perf_counter() - ex.t0) * 1000
        record["state"] = COMPLETE
        ex.committed = True
        try:
            (self.store.complete if ex.pending else self.store.add)(record)
        except Exception:  # the pending record stays; the failure is loud in the log
            log.exception("could not complete record %s", record["id"])

    # --- endpoints -------------------------------------------------------------------------------

    async def models(self, scope, receive, send) -> None:
        try:
            async with self.session.get(f"{self.config.upstream}/models", allow_redirects=False,
                                        headers=self._upstream_headers(scope, "openai-chat")) as upstream:
                content = await upstream.read()
        except TimeoutError:
            return await _answer(send, 504, _JSON_HEADERS,
                                 json_bytes(_error_body("openai-chat", "upstream_timeout", "upstream timed out")))
        except aiohttp.ClientError as exc:
            return await _answer(send, 502, _JSON_HEADERS, json_bytes(_error_body(
                "openai-chat", "upstream_unreachable", f"upstream unreachable ({type(exc).__name__})")))
        await _answer(send, upstream.status, _client_headers(upstream), content)

    async def proxy(self, scope, receive, send) -> None:
        path = scope["path"]
        tail = path[path.rindex("/v1/") + 3:]
        api = _APIS[tail]
        episode = scope["path_params"].get("episode") or next(
            (v.decode("latin-1") for k, v in scope["headers"] if k == b"x-ec2-episode"), None)
        record: dict = {"id": uuid.uuid4().hex, "episode": episode, "ts": time.time(), "api": api,
                        "path": "/v1" + tail, "status": None, "error": None, "findings": None, "redactions": 0}
        ex = Exchange(record, api, episode, time.perf_counter())
        try:
            raw = await self._read_body(scope, receive)
            try:
                body = parse(raw)
                validate(body, api)
            except BadRequest as exc:
                raise Failure(400, str(exc), "invalid_request_error") from None
            ex.body, ex.raw = body, raw
            record.update(request=body, model=body.get("model"), stream=bool(body.get("stream")))
            await self.policy.before_forward(ex)
            await self._forward_watched(scope, receive, send, ex)
        except Failure as failure:
            record.update(status=failure.status, error=failure.message)
            await self._commit(ex)
            if not ex.client_gone:
                await _answer(send, failure.status, _JSON_HEADERS,
                              json_bytes(_error_body(api, failure.kind, failure.message, failure.extra)))
        except Exception as exc:  # a proxy bug: loud in the log, still on record, the client told
            log.exception("proxy failed on record %s", record["id"])
            record.update(status=record["status"] or 500, error=f"proxy failed ({type(exc).__name__})")
            if not ex.committed:
                await self._commit(ex)
            if not ex.started and not ex.client_gone:
                await _answer(send, 500, _JSON_HEADERS,
                              json_bytes(_error_body(api, "proxy_error", record["error"])))

    async def _forward_watched(self, scope, receive, send, ex: Exchange) -> None:
        """Forward while watching the client: if it goes away before its answer is complete, the
        upstream call is cancelled (its connection closed) rather than left to run out its timeout.
        Two plain asyncio tasks, no task group or asyncio.wait: this runs on every exchange."""
        forward = asyncio.ensure_future(self._forward(scope, send, ex))
        watcher = asyncio.ensure_future(self._watch(receive, ex, forward))
        try:
            await forward  # cancelled by the watcher when the client leaves, or with this exchange
        except asyncio.CancelledError:
            if not (ex.client_gone and forward.cancelled()):
                raise  # this exchange is torn down (the server stops): not the client's doing
            if not ex.committed:
                raise Failure(499, _CANCELLED, "client_disconnect") from None
        finally:
            watcher.cancel()

    @staticmethod
    async def _watch(receive, ex: Exchange, forward: asyncio.Future) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        if not ex.answered:
            ex.client_gone = True
            forward.cancel()

    async def _forward(self, scope, send, ex: Exchange) -> None:
        record, body, api, raw = ex.record, ex.body, ex.api, ex.raw
        stream = bool(body.get("stream"))
        strip_usage = False
        if stream and api == "openai-chat" and not (body.get("stream_options") or {}).get("include_usage"):
            # usage only comes in a final chunk the client did not ask for: request it, hide it later
            options = {**(body.get("stream_options") or {}), "include_usage": True}
            raw, strip_usage = json_bytes({**body, "stream_options": options}), True
        headers = [*self._upstream_headers(scope, api), ("content-type", "application/json")]
        record["state"] = PENDING
        try:  # what cannot be recorded is not forwarded
            self.store.add(record)
            ex.pending = True
        except Exception:
            log.exception("could not record request %s", record["id"])
            raise Failure(500, "could not record the request: not forwarded", "proxy_error") from None
        try:  # a redirect is answered to the client as it came, never followed with the client's key
            upstream = await self.session.post(self.config.upstream + record["path"].removeprefix("/v1"),
                                               data=raw, headers=headers, allow_redirects=False)
        except TimeoutError:
            raise Failure(504, "upstream did not answer in time", "upstream_timeout") from None
        except aiohttp.ClientError as exc:
            raise Failure(502, f"upstream unreachable ({type(exc).__name__})", "upstream_unreachable") from None
        record["status"] = upstream.status
        if upstream.status < 400 and upstream.content_type == "text/event-stream":
            return await self._relay(upstream, send, ex, strip_usage)
        try:
            content = await upstream.read()
        except TimeoutError:
            raise Failure(504, "upstream timed out while answering", "upstream_timeout") from None
        except aiohttp.ClientError as exc:
            raise Failure(502, f"upstream broke off its answer ({type(exc).__name__})", "upstream_error") from None
        finally:
            upstream.release()
        try:
            response = json.loads(content)
        except (ValueError, RecursionError):
            response = None
        if upstream.status >= 400:
            record["error"] = f"upstream answered {upstream.status}"
        elif not isinstance(response, dict):
            record["error"] = "upstream answer is not a JSON object"
        else:
            rewritten = self.policy.on_response(ex, response)
            if rewritten is not None:
                content = json_bytes(rewritten)
        stored = response if isinstance(response, dict) else {"raw": content.decode("utf-8", "replace")[:10000]}
        await self._commit(ex, stored)
        ex.answered = True
        await _answer(send, upstream.status, _client_headers(upstream), content)

    async def _relay(self, upstream: aiohttp.ClientResponse, send, ex: Exchange, strip_usage: bool) -> None:
        """Relay an SSE stream event by event; commit the record just before the final event.

        The watcher in `_forward_watched` cancels the relay when the client goes away; the record is
        committed either way and names what went wrong."""
        splitter, assembler = EventSplitter(), Assembler(ex.api)
        record, errors = ex.record, ex.errors
        finished = False

        async def commit() -> None:
            if errors:
                record["error"] = "; ".join(dict.fromkeys(errors))
            await self._commit(ex, assembler.result())

        async def emit(piece: bytes) -> None:
            record.setdefault("first_byte_ms", (time.perf_counter() - ex.t0) * 1000)
            await send({"type": "http.response.body", "body": piece, "more_body": True})

        ex.started = True
        await send({"type": "http.response.start", "status": upstream.status, "headers": _client_headers(upstream)})
        try:
            async for chunk in upstream.content.iter_any():
                out: list[bytes] = []
                for event in splitter.feed(chunk):
                    terminal, data = event.data == "[DONE]", None
                    if not terminal:
                        try:
                            data = json.loads(event.data)
                        except (ValueError, RecursionError):  # dropped: the client's SDK would choke on it
                            errors.append("malformed SSE event from upstream (dropped)")
                            continue
                        assembler.add(data)
                        terminal = isinstance(data, dict) and data.get("type") in _TERMINAL
                        if strip_usage and isinstance(data, dict) and data.get("usage") and not data.get("choices"):
                            continue  # the usage chunk we asked for on the client's behalf
                    piece = self._client_event(ex, event, data, strip_usage)
                    if terminal:
                        finished = True
                        record.setdefault("first_byte_ms", (time.perf_counter() - ex.t0) * 1000)
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
        except anyio.get_cancelled_exc_class():  # the upstream call is closed below
            errors.append("client disconnected mid-stream: upstream call cancelled" if ex.client_gone
                          else "proxy stopped mid-stream: upstream call cancelled")
            raise
        except Exception as exc:
            errors.append(f"proxy failed mid-stream ({type(exc).__name__}: {exc})")
            raise
        finally:
            if finished:
                upstream.release()
            else:  # closing, not returning the connection, is what tells the upstream to stop
                upstream.close()
            if not ex.committed:
                with anyio.CancelScope(shield=True):
                    await commit()
        if not finished:  # tell the client's SDK the answer is incomplete (it raises on an error event)
            body = _error_body(ex.api, "upstream_error", "ec2audit: " + "; ".join(dict.fromkeys(errors)))
            await emit(_sse("error" if ex.api == "anthropic-messages" else None, body))
        ex.answered = True
        await send({"type": "http.response.body", "body": b""})

    def _client_event(self, ex: Exchange, event: Event, data, strip_usage: bool) -> bytes:
        if data is not None:
            if strip_usage and isinstance(data, dict) and "usage" in data and data["usage"] is None:
                data = {k: v for k, v in data.items() if k != "usage"}
            rewritten = self.policy.on_stream_event(ex, event.event, data)
            if rewritten is not None:
                return b"".join(_sse(name, payload) for name, payload in rewritten)
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
