"""The interceptor's ASGI app: forwards OpenAI / Anthropic API calls to the cloud and records each one.

Every exchange is recorded: a request the proxy refuses (malformed, too large, blocked) with its
reason; a request it forwards first as a pending record committed before the first byte leaves, then
completed (response reassembled from the stream, usage, cost, inline audit findings) before the client
gets the response's last byte. Nothing the client saw completed is lost, and nothing forwarded goes
unrecorded (a resumable upload's chunks before its last are held, not forwarded: recorded as the file,
whole, or as their drop where the upload was abandoned: `uploads.py`). What an enforce mode does to an exchange
lives in its policy (`policy.py`).

The proxy is a hop on every model call of an agent, so its own work per exchange is kept small
(benchmarks/proxy_overhead.py): Starlette only routes, the endpoints speak raw ASGI (no Request or
Response objects), and the upstream leg uses aiohttp, whose C HTTP parser costs a third of httpx's
pure-Python stack per request. The inline audit runs off the event loop, in scanning lanes by body
size (`lanes.py`; a large body's detectors in a worker process), while the upstream works.

What reaches the upstream is exactly what was audited: the body as parsed (a body two readers could
read differently — a repeated key, a lone surrogate, a number past what a parser takes — is refused
with a recorded 400, a compressed one is decoded first, a multipart or URL-encoded form is rebuilt from the
object it was read as: `form_data.py`), every client header but the hop-by-hop ones and the proxy's own
`X-EC2-*`, the URL path under its root (`/v1`, `/api`…) and the query string. Key headers
(`dialects.KEY_HEADERS`) are forwarded but never scanned, and recorded masked.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
import time
import urllib.parse
import urllib.request
import uuid
import zlib
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import anyio
import brotli
import yarl
import zstandard
from starlette.applications import Starlette
from starlette.routing import Route

from ec2audit.detect.finding import MOSTLY
from ec2audit.errors import InputError
from ec2audit.intercept import seams
from ec2audit.intercept.dialects import (
    DIALECTS,
    KEY_HEADERS,
    KEY_PARAMS,
    ROOTS,
    Dialect,
    dialect_of,
    model_in_path,
    stream_in_path,
)
from ec2audit.intercept.form_data import MEDIA_TYPES, Form, read_file_body, read_form
from ec2audit.intercept.lanes import LARGE_LANES, ScanLanes
from ec2audit.intercept.policy import POLICIES, Exchange, Failure, json_bytes
from ec2audit.intercept.pricing import Pricing
from ec2audit.intercept.record import BLOCKED, COMPLETE, MODEL_LIST_PATH, PENDING, ProxyRecord
from ec2audit.intercept.redact import Field, Redactor
from ec2audit.intercept.shape import BadRequest, parse, validate
from ec2audit.intercept.sse import ENDS_AT_CLOSE, Assembler, Event, EventSplitter, LineSplitter, stream_error
from ec2audit.intercept.store import RecordStore
from ec2audit.intercept.uploads import Held, HeldUploads
from ec2audit.intercept.usage import billed_cost, response_usage
from ec2audit.units import Unit

log = logging.getLogger("ec2audit.intercept")

ENFORCE_MODES = tuple(POLICIES)
#: Client headers never forwarded: hop-by-hop ones (RFC 9110 §7.6.1; also any the client's
#: `Connection` names), and those the proxy sets itself. The proxy's own `X-EC2-*` never leave either.
_HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer",
                         "upgrade", "proxy-authorization", "proxy-authenticate"})
_SET_BY_PROXY = frozenset({"host", "content-length", "content-type", "content-encoding", "accept-encoding",
                           "cookie"})
_OWN_PREFIX = "x-ec2-"
MASKED = "[masked]"
_DROP_RESPONSE = frozenset({b"content-length", b"content-encoding", b"transfer-encoding", b"connection",
                            b"keep-alive", b"server", b"date"})
_JSON_HEADERS = [(b"content-type", b"application/json")]
#: Gemini's resumable upload sends the file as the body itself, with this header naming the command `upload`
_UPLOAD_COMMAND = b"x-goog-upload-command"
#: Response headers naming the URL the client sends its next request to: Gemini's resumable upload session, where
#: the file's bytes go (and, in the answer to an upload, `Location`, where Google's other upload APIs name it).
#: Pointed back at the proxy, or the file would go to the upstream unguarded.
_NEXT_URL = frozenset({b"x-goog-upload-url"})
_UPLOAD_NEXT_URL = _NEXT_URL | {b"location"}
#: Redirects a client follows to their `Location`: a 307 or 308 with the same body again (RFC 9110 15.4.8-9), a 301,
#: 302 or 303 with a GET and no body, but every header the client set (httpx, so the OpenAI SDK, drops only
#: `Authorization` on another origin, `Cookie` and the body's own): unredacted, past the guard, unless pointed at it
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
#: A request header that makes a request part of an upload (its answer's `Location` names where the file goes)
_UPLOAD_HEADERS = frozenset({"x-goog-upload-protocol", _UPLOAD_COMMAND.decode()})
_UPLOAD_OFFSET = "x-goog-upload-offset"
#: The answer to a resumable upload's chunk the proxy holds (Google's to a chunk before the last)
_HELD_CHUNK = [(b"x-goog-upload-status", b"active")]
#: OpenAI's Uploads API: a file sent in parts (`/uploads/{id}/parts`, each a form with its bytes in `data`), then
#: `/uploads/{id}/complete` (or `cancel`)
_UPLOAD_PART = re.compile(r"/uploads/([^/]+)/(parts|complete|cancel)/?$")
#: The end of an Uploads API part kept to audit with the next part's start: the longest unit value, this many times
#: over (a value written spaced, escaped or in hex is longer), at most `_SEAM_CAP` bytes
_SEAM_TIMES, _SEAM_CAP = 4, 4096
_NULL_USAGE = re.compile(rb',\s*"usage":\s*null')
_CANCELLED = "client disconnected before the answer: upstream call cancelled"
_EVIDENCE = re.compile(r"\w")


def _asks_usage(body: dict) -> bool:
    """Whether a streamed Chat request asks for its usage: OpenAI's `stream_options.include_usage`, or OpenRouter's
    usage accounting (`usage: {"include": true}`, which streams usage and cost in a last event); one that does not
    is sent asking for it, and that event is kept from its client."""
    options, accounting = body.get("stream_options"), body.get("usage")
    return (isinstance(options, dict) and bool(options.get("include_usage"))) or (
        isinstance(accounting, dict) and accounting.get("include") is True)


def mask_evidence(text: str) -> str:
    """A matched value with its form kept and its characters hidden: `139-2288-3366` → `###-####-####`."""
    return _EVIDENCE.sub(lambda m: "#" if m.group(0).isdigit() else "*", text)


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
    keep_evidence: bool = False  # store findings' matched text as it was (else masked: `###-####`)
    large_lane: str = "process"  # where large bodies' detectors run (`lanes.py`): "process" or "thread"
    refuse_unread: bool = False  # block/redact refuse a request carrying a file no detector reads (`media.py`)
    held_upload_s: float = 1800.0  # a resumable upload's chunks are dropped this long after its latest (`uploads.py`)
    held_upload_bytes: int = 128 * 2**20  # all uploads' chunks held at once, at most (the oldest dropped first)

    def __post_init__(self):
        if self.enforce not in ENFORCE_MODES:
            raise InputError(f"must be one of {', '.join(ENFORCE_MODES)}", field="enforce")
        if self.enforce != "observe" and not self.units:
            raise InputError(f"--enforce {self.enforce} needs units to look for", field="units")
        if self.large_lane not in LARGE_LANES:
            raise InputError(f"must be one of {', '.join(LARGE_LANES)}", field="large_lane")
        self.upstream = self.upstream.rstrip("/")
        url = urllib.parse.urlsplit(self.upstream)
        if url.scheme not in ("http", "https") or not url.hostname:  # else every call would be a 502 later
            raise InputError(f"{self.upstream!r} is not an http(s) URL, e.g. https://api.openai.com/v1",
                             field="upstream")


def _assembled(response, stream: str | None) -> dict | None:
    """An answer as the record keeps it: a JSON object as it is, a stream answered as one JSON array of its
    chunks (Gemini's without `alt=sse`) assembled as its events would be; None for anything else."""
    if isinstance(response, dict):
        return response
    if stream is None or not isinstance(response, list) or not all(isinstance(c, dict) for c in response):
        return None
    assembler = Assembler(stream)
    for chunk in response:
        assembler.add(chunk)
    return assembler.result()


def _sse(name: str | None, data) -> bytes:
    head = f"event: {name}\n".encode() if name else b""
    return head + b"data: " + json_bytes(data) + b"\n\n"


def _ndjson(name: str | None, data) -> bytes:
    """One line of an NDJSON stream (Ollama's), which names no events."""
    return json_bytes(data) + b"\n"


#: A streamed answer's media type → how its bytes split into events, and how an event the proxy rewrites is written
_STREAMED = {"text/event-stream": (EventSplitter, _sse), "application/x-ndjson": (LineSplitter, _ndjson)}


async def _answer(send, status: int, headers: list[tuple[bytes, bytes]], content: bytes) -> None:
    """A whole response to the ASGI client."""
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, (b"content-length", b"%d" % len(content))]})
    await send({"type": "http.response.body", "body": content})


def _text(value: bytes) -> str:
    """A header value as text: UTF-8 (what aiohttp sends it back as), else Latin-1."""
    try:
        return value.decode()
    except UnicodeDecodeError:
        return value.decode("latin-1")


def request_fields(scope) -> tuple[list[Field], list[Field]]:
    """The client's headers and query parameters the proxy forwards: (audited ones, key ones)."""
    headers = [(k.decode("latin-1").lower(), _text(v)) for k, v in scope["headers"]]
    named = {t.strip().lower() for name, value in headers if name == "connection" for t in value.split(",")}
    audited: list[Field] = []
    keys: list[Field] = []
    for name, value in headers:
        if name in _HOP_BY_HOP or name in _SET_BY_PROXY or name in named or name.startswith(_OWN_PREFIX):
            continue
        (keys if name in KEY_HEADERS else audited).append(("header", name, value))
    query = urllib.parse.parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    for name, value in query:
        (keys if name.lower() in KEY_PARAMS else audited).append(("query", name, value))
    return audited, keys


def _decode_body(raw: bytes, encoding: str, limit: int) -> bytes:
    """A request body with its Content-Encoding (gzip, deflate, zstd, br, in the order applied) undone, at
    most `limit` bytes decoded; Failure 415 names an encoding the proxy cannot read."""
    for coding in reversed([c.strip().lower() for c in encoding.split(",") if c.strip()]):
        try:
            if coding in ("gzip", "x-gzip", "deflate"):
                wbits = 31 if "gzip" in coding else 15 if raw[:1] == b"\x78" else -15  # zlib-wrapped or raw
                decoder = zlib.decompressobj(wbits)
                raw, left = decoder.decompress(raw, limit + 1), decoder.unconsumed_tail
                over = len(raw) > limit or bool(left)
            elif coding == "zstd":
                with zstandard.ZstdDecompressor().stream_reader(raw) as reader:
                    raw = reader.read(limit + 1)
                over = len(raw) > limit
            elif coding == "br":
                raw, over = _unbrotli(raw, limit)
            elif coding != "identity":
                raise Failure(415, f"request body has Content-Encoding {coding!r}, which ec2audit cannot read: "
                                   "send it uncompressed, or as gzip, deflate, zstd or br", "unsupported_encoding")
            else:
                over = False
        except (zlib.error, zstandard.ZstdError, brotli.error) as exc:
            raise Failure(400, f"request body is not valid {coding} ({exc})", "invalid_request_error") from None
        if over:
            raise Failure(413, f"request body decoded from {coding} is over the {limit}-byte limit",
                          "request_too_large")
    return raw


def _unbrotli(raw: bytes, limit: int) -> tuple[bytes, bool]:
    """(the body brotli-decoded, whether it runs past `limit`): the decoder stops growing its output at the
    limit, so a bomb costs `limit` bytes, not what it expands to."""
    decoder = brotli.Decompressor()
    out = decoder.process(raw, output_buffer_limit=limit + 1)
    if len(out) > limit or not (decoder.is_finished() or decoder.can_accept_more_data()):
        return out, True  # more output waits behind the limit
    if not decoder.is_finished():
        raise brotli.error("truncated stream")
    return out, False


def _proxy_url(scope, path: str) -> str:
    """The proxy's URL as the client reached it, up to `path` (its episode prefix kept)."""
    host = next((_text(v) for k, v in scope["headers"] if k == b"host"), "")
    return f"{scope.get('scheme', 'http')}://{host}{scope['path'][:len(scope['path']) - len(path)]}"


def _recorded_path(root: str, tail: str, fields: list[Field], keys: list[Field]) -> str:
    """The path as recorded: the query string with key parameters masked."""
    query = [(n, v) for kind, n, v in fields if kind == "query"] + \
        [(n, MASKED) for kind, n, _ in keys if kind == "query"]
    return root + tail + ("?" + urllib.parse.urlencode(query) if query else "")


def _recorded_headers(fields: list[Field], keys: list[Field]) -> list[list[str]]:
    return [[n, v] for kind, n, v in fields if kind == "header"] + [[n, MASKED] for kind, n, _ in keys
                                                                     if kind == "header"]


def _client_headers(upstream: aiohttp.ClientResponse, moved: tuple[str, str] | None = None, location: str = "",
                    enforcing: bool = False) -> list[tuple[bytes, bytes]]:
    """The upstream's response headers the client gets; `moved` (the upstream's origin, the proxy's URL as the client
    reached it): a URL the client is to send its next request to (`location`, what the answer is, "an upload" or "a
    redirect": its `Location` too) is pointed at the proxy. One on another origin cannot be: the proxy forwards only
    to its upstream. `enforcing`, it is refused (Failure 502) rather than handed on, or the client would send its
    file or its unredacted body there, past the guard; `observe` hands it on as it came."""
    out = []
    for k, v in upstream.raw_headers:
        if k.lower() in _DROP_RESPONSE:
            continue
        if moved and k.lower() in (_UPLOAD_NEXT_URL if location else _NEXT_URL):
            url = _text(v)
            if url.startswith(moved[0] + "/"):
                v = (moved[1] + url[len(moved[0]):]).encode()
            elif enforcing and (urllib.parse.urlsplit(url).scheme or url.startswith("//")):
                host = urllib.parse.urlsplit(url).netloc or url
                raise Failure(502, f"{BLOCKED}: the upstream named {location or 'an upload'} URL on another host "
                                   f"({host[:100]}), which would take the request past the guard: not passed on",
                              "upload_url_elsewhere")
        out.append((k, v))
    return out


def _env_proxy(url: str) -> str | None:
    """The proxy the environment (HTTPS_PROXY, NO_PROXY, ...) names for the upstream, looked up once:
    aiohttp's own `trust_env` would look it up, and .netrc, on a thread for every request."""
    target = urllib.parse.urlsplit(url)
    if not target.hostname or urllib.request.proxy_bypass(target.hostname):
        return None
    return urllib.request.getproxies().get(target.scheme)


#: Seconds an idle upstream connection is kept for reuse: under the 5 s after which uvicorn and Node servers (local
#: model servers, the stand-ins) close theirs. aiohttp's 15 s default let a request go out on a connection the
#: upstream was closing at that instant: a 502 "upstream unreachable (ClientOSError)" for a call nobody answered.
UPSTREAM_KEEPALIVE_S = 4.0


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
        self.owns_store = not isinstance(config.store, RecordStore)  # closed (WAL folded in) when it stops
        self.pricing = Pricing(config.pricing, upstream=config.upstream)
        redactor = Redactor.for_units(config.units, config.enforce != "observe") if config.units else None
        self.lanes = ScanLanes(redactor, config.large_lane)
        self.session: aiohttp.ClientSession | None = None
        self.upstream_proxy = _env_proxy(config.upstream)
        #: resumable upload session (its path and query) → its chunks held so far (`_whole_file`)
        self.held_uploads = HeldUploads(config.held_upload_s, config.held_upload_bytes)
        #: Uploads API upload id → the end of its latest part (`_audit_seam`), within the same bounds
        self.part_ends = HeldUploads(config.held_upload_s, config.held_upload_bytes)
        self.seam_bytes = min(_SEAM_CAP, config.held_upload_bytes,
                              _SEAM_TIMES * max((len(u.value.encode()) for u in config.units), default=1))
        self.policy = POLICIES[config.enforce](self.lanes, config.block_grade, config.refuse_unread)

    @asynccontextmanager
    async def lifespan(self, app):
        interrupted = self.store.mark_interrupted()
        if interrupted:
            log.warning("%d record(s) left pending by a proxy that stopped are marked interrupted", interrupted)
        # no cookie jar (one agent's cookies must not reach another's requests), no redirects (see
        # _forward), no decompression (the stream is read as it comes)
        timeout = aiohttp.ClientTimeout(connect=self.config.connect_timeout, sock_read=self.config.read_timeout)
        connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=UPSTREAM_KEEPALIVE_S)
        async with aiohttp.ClientSession(timeout=timeout, connector=connector,
                                         cookie_jar=aiohttp.DummyCookieJar(), auto_decompress=False,
                                         proxy=self.upstream_proxy) as session:
            self.session = session
            yield
        self.lanes.shutdown()
        if self.owns_store:  # a clean stop (SIGTERM, Ctrl-C): every record in the store file itself
            self.store.close()

    # --- helpers ---------------------------------------------------------------------------------

    @property
    def client(self) -> aiohttp.ClientSession:
        """The upstream client, open while the app's lifespan runs."""
        if self.session is None:
            raise RuntimeError("the interceptor is not serving (its lifespan has not started)")
        return self.session

    def _upstream_headers(self, fields: list[Field], keys: list[Field], dialect: Dialect) -> list[tuple[str, str]]:
        headers = [(name, value) for kind, name, value in fields if kind == "header"]
        sent = [(name, value) for kind, name, value in keys if kind == "header"]
        key = self.config.upstream_key
        if key:  # the client's key never leaves: each header that carried one carries ours instead
            names = list(dict.fromkeys(name for name, _ in sent)) or [dialect.key_header]
            sent = [(name, f"Bearer {key}" if name == "authorization" else key) for name in names]
        return [*headers, *sent, ("accept-encoding", "identity")]  # the proxy reads the stream: no compression

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
                break
        raw = b"".join(parts)
        encoding = next((v for k, v in scope["headers"] if k == b"content-encoding"), b"").decode("latin-1")
        return _decode_body(raw, encoding, limit) if encoding else raw

    def _mask_evidence(self, record: ProxyRecord) -> None:
        """Findings' matched text masked unless evidence is kept, before any write (a pending record's too: a
        row rewritten later may still stand in the database file's free pages)."""
        if record.findings and not self.config.keep_evidence:
            record.findings = [{**f, "matched_text": mask_evidence(f["matched_text"])}
                               if isinstance(f.get("matched_text"), str) else f for f in record.findings]

    async def _commit(self, ex: Exchange, response: dict | None = None, whole: bool = True) -> None:
        """Complete the record (findings, usage, cost, latency) and commit it. An answer not `whole` (a
        stream cut off before its end) has no known cost: the provider bills the output it made before it
        stopped, which the usage the stream had sent so far does not count."""
        record = ex.record
        if ex.scan is not None:
            try:
                record.findings = await ex.scan
            except Exception:  # a detector bug must not cost the record
                log.exception("inline audit failed for record %s", record.id)
                record.error = record.error or "inline audit failed"
        self._mask_evidence(record)
        if response is not None:
            record.response = response
            usage = response_usage(response, record.request)
            model = response.get("model") or response.get("modelVersion") or record.model
            if usage is not None:
                record.input_tokens, record.cached_tokens = usage.input, usage.cached
                record.output_tokens = usage.output
                if whole:
                    billed = billed_cost(response.get("usage"))
                    record.cost_usd = billed if billed is not None else self.pricing.price(
                        model if isinstance(model, str) else None, usage)
        record.latency_ms = (time.perf_counter() - ex.t0) * 1000
        record.state = COMPLETE
        ex.committed = True
        try:
            write = self.store.complete if ex.pending else self.store.add
            if ScanLanes.is_large(len(ex.raw)):  # serialising a large record must not stall the loop
                await asyncio.to_thread(write, record)
            else:
                write(record)
        except Exception:  # the pending record stays; the failure is loud in the log
            log.exception("could not complete record %s", record.id)

    # --- endpoints -------------------------------------------------------------------------------

    async def models(self, scope, receive, send) -> None:
        """The model list, answered by the upstream. A cloud-bound request like any other: recorded (no body;
        the headers as forwarded, keys masked), and the client's headers audited first in an enforcing mode
        (a 403, or placeholders); a redirect's `Location` is handled as a POST's is (`_client_headers`)."""
        dialect = DIALECTS["openai-chat"]
        params = scope["path_params"]
        episode = params.get("episode") or next(
            (_text(v) for k, v in scope["headers"] if k == b"x-ec2-episode"), None)
        task = params.get("task") or next((_text(v) for k, v in scope["headers"] if k == b"x-ec2-task"), None)
        fields, keys = request_fields(scope)
        fields = [f for f in fields if f[0] == "header"]  # the list is asked for without the query
        record = ProxyRecord(id=uuid.uuid4().hex, episode=episode, task_id=task, ts=time.time(), api=dialect.name,
                             path=MODEL_LIST_PATH, headers=_recorded_headers(fields, keys))
        ex = Exchange(record, dialect, episode, time.perf_counter(), fields=fields,
                      proxy_url=_proxy_url(scope, "/v1/models"))
        try:
            await self.policy.before_forward(ex)
            record.headers = _recorded_headers(ex.fields, keys)  # as forwarded (redacted)
            record.state = PENDING
            self._mask_evidence(record)
            try:  # what cannot be recorded is not forwarded
                self.store.add(record)
                ex.pending = True
            except Exception:
                log.exception("could not record request %s", record.id)
                raise Failure(500, "could not record the request: not forwarded", "proxy_error") from None
            try:
                async with self.client.get(f"{self.config.upstream}/models", allow_redirects=False,
                                           headers=self._upstream_headers(ex.fields, keys, dialect)) as upstream:
                    content = await upstream.read()
            except TimeoutError:
                raise Failure(504, "upstream timed out", "upstream_timeout") from None
            except aiohttp.ClientError as exc:
                raise Failure(502, f"upstream unreachable ({type(exc).__name__})", "upstream_unreachable") from None
        except Failure as failure:
            record.status, record.error = failure.status, failure.message
            await self._commit(ex)
            return await _answer(send, failure.status, _JSON_HEADERS,
                                 json_bytes(dialect.error_body(failure.kind, failure.message, failure.extra)))
        record.status = upstream.status
        if upstream.status >= 400:
            record.error = f"upstream answered {upstream.status}"
        try:
            headers = _client_headers(upstream, self._moved(ex), "a redirect" if upstream.status in _REDIRECTS else "",
                                      self.config.enforce != "observe")
        except Failure as failure:
            record.status, record.error = failure.status, failure.message
            await self._commit(ex)
            return await _answer(send, failure.status, _JSON_HEADERS,
                                 json_bytes(dialect.error_body(failure.kind, failure.message, failure.extra)))
        await self._commit(ex)
        await _answer(send, upstream.status, headers, content)

    def _parse(self, raw: bytes, dialect: Dialect) -> dict:
        try:
            body = parse(raw)
            validate(body, dialect.name)
        except BadRequest as exc:
            raise Failure(400, str(exc), "invalid_request_error") from None
        return body

    def _parse_form(self, raw: bytes, content_type: str, dialect: Dialect, file_body: bool = False) -> Form:
        """A form body (or, `file_body`, a body that is one file) as the object audited (`form_data.py`); in an
        enforcing mode, refused where a part is none the guard could read."""
        try:
            form = read_file_body(raw, content_type) if file_body else read_form(raw, content_type)
            validate({k: v for k, v in form.body.items() if k != "stream"}, dialect.name)  # (a form's is text)
        except BadRequest as exc:
            raise Failure(400, str(exc), "invalid_request_error") from None
        if form.unreadable and self.config.enforce != "observe":
            raise Failure(403, f"{BLOCKED}: the request carries {len(form.unreadable)} part(s) the guard cannot read: "
                               f"{', '.join(form.unreadable)}", "unread_part_blocked", {"unread": form.unreadable})
        return form

    def _whole_file(self, ex: Exchange, chunk: bytes, last: bool) -> bytes | None:
        """A resumable upload's file, whole (google-genai sends one over 8 MiB in chunks, `upload` then `upload,
        finalize`). A chunk before the last is held, none of it forwarded or recorded yet (None: answered as Google
        answers it), so a value cut across two chunks is audited whole and a redacted chunk shifts no offset; the
        last brings the file, forwarded as one `upload, finalize` at offset 0. A later chunk of an upload whose
        chunks were dropped (`uploads.py`) is refused: the file is sent again from offset 0."""
        session = tuple(f for f in ex.fields if f[0] in ("path", "query"))
        offset = next((value for kind, name, value in ex.fields if kind == "header" and name == _UPLOAD_OFFSET),
                      "0").strip()
        why = self.held_uploads.dropped(session)
        if why is not None and offset != "0":
            raise Failure(410, f"resumable upload {why}, none of it forwarded: send the file again from offset 0",
                          "upload_dropped")
        self.held_uploads.restart(session)
        taken = self.held_uploads.take(session)
        held = taken.data if taken is not None else b""
        if offset != str(len(held)):
            raise Failure(400, f"upload chunk at offset {offset[:20]} where {len(held)} bytes were held: "
                               "send the file again from offset 0", "invalid_request_error")
        whole = held + chunk
        if len(whole) > self.config.max_body_bytes:
            raise Failure(413, f"uploaded file is over the {self.config.max_body_bytes}-byte limit",
                          "request_too_large")
        if not last:
            record = ex.record
            try:
                dropped = self.held_uploads.hold(session, Held(whole, 0.0, record.episode, record.task_id,
                                                               record.api, record.path))
            except ValueError as exc:
                raise Failure(413, f"resumable upload not held: {exc}", "request_too_large") from None
            self._record_drops(dropped)
            return None
        ex.fields = [(kind, name, "0" if kind == "header" and name == _UPLOAD_OFFSET else value)
                     for kind, name, value in ex.fields]
        return whole

    async def _audit_seam(self, ex: Exchange, tail: str) -> None:
        """An OpenAI Uploads API part audited together with the end of the upload's previous part (kept, bounded,
        in `part_ends`), so a value cut across two parts, each audited alone, is found. The previous part is already
        at the upstream: a value across the seam cannot be redacted, so this part is refused (403) in both enforcing
        modes, its findings recorded. A part after one whose end was dropped (`uploads.py`) is refused too: its seam
        cannot be audited. Each part's start and end are kept by the id the upstream answers it with
        (`_keep_part`), for `complete`, which names the parts' order (`_audit_order`); `complete` or `cancel`
        forgets the upload's end."""
        match = _UPLOAD_PART.search(tail)
        if match is None or self.config.enforce == "observe":
            return
        upload = match.group(1)
        session = ("openai-upload", upload)
        if match.group(2) != "parts" or ex.form is None:
            self.part_ends.take(session)
            if match.group(2) == "complete":
                await self._audit_order(ex, upload)
            return
        why = self.part_ends.dropped(session)
        if why is not None:
            raise Failure(410, f"upload {upload[:64]}: its previous part's end was {why}; the seam cannot be "
                               "audited: send the file again as a new upload", "upload_dropped")
        data = b"".join(bytes(p.data) for p in ex.form.parts if p.name == "data")
        previous = self.part_ends.take(session)
        before = previous.data if previous is not None else b""
        if previous is not None:
            across = await self._across(before, data[:self.seam_bytes])
            if across:
                self.part_ends.hold(session, previous)
                self._refuse_seam(ex, across, "this part and the previous one", "the previous part is already sent, "
                                  "so neither redaction nor a retry of this part can keep it out: cancel the upload")
        record = ex.record  # (an end dropped is no loss to record: none of it is held back from the upstream)
        self.part_ends.hold(session, Held((before + data)[-self.seam_bytes:], 0.0, record.episode, record.task_id,
                                          record.api, record.path))
        ex.upload_part = (upload, data[:self.seam_bytes], data[-self.seam_bytes:])

    async def _across(self, before: bytes, after: bytes) -> list[dict]:
        """The findings of units cut across the seam of two pieces of an upload (`seams.py`)."""
        texts, cut, reach = seams.views(before, after)
        redactor = self.lanes.redactor
        assert redactor is not None  # (an enforcing mode has units)
        found = await self.lanes.run(sum(map(len, texts.values())), lambda: redactor.detect(texts))
        return seams.across(found.rows, cut, reach, self.config.block_grade)

    @staticmethod
    def _refuse_seam(ex: Exchange, across: list[dict], where: str, why: str) -> None:
        ex.record.findings = across
        units = sorted({f["unit_id"] for f in across})
        raise Failure(403, f"{BLOCKED}: {len(units)} sensitive unit(s) cut across {where}: {', '.join(units)}; {why}",
                      "sensitive_data_blocked", {"units": units})

    def _keep_part(self, ex: Exchange, answer) -> None:
        """An Uploads API part's start and end kept by the id the upstream gave it (`_audit_order`), bounded as
        the parts' ends are (`uploads.py`)."""
        if ex.upload_part is None or not isinstance(answer, dict) or not isinstance(answer.get("id"), str):
            return
        upload, head, tail = ex.upload_part
        record = ex.record
        for end, data in (("head", head), ("tail", tail)):
            self.part_ends.hold((end, upload, answer["id"]), Held(data, 0.0, record.episode, record.task_id,
                                                                  record.api, record.path))

    async def _audit_order(self, ex: Exchange, upload: str) -> None:
        """`complete` names the parts in the order the upstream joins them, which need not be the order they came in
        (a client sends parts at once, or again): each seam of that order is audited (`_across`) before the file is
        made, a value across one refusing it (403). A part the proxy did not see answered, or whose ends were
        dropped, is one whose seams cannot be audited: refused too (409)."""
        ids = ex.body.get("part_ids")
        running = b""
        for k, part in enumerate(ids if isinstance(ids, list) else []):
            head, tail = (self.part_ends.take((end, upload, str(part))) for end in ("head", "tail"))
            if head is None or tail is None:
                raise Failure(409, f"{BLOCKED}: upload {upload[:64]}: part {str(part)[:64]} was not sent through the "
                                   "guard, or its ends were dropped, so the seams of this order cannot be audited: "
                                   "send the file again as a new upload", "upload_part_unaudited")
            if running:
                across = await self._across(running, head.data)
                if across:
                    self._refuse_seam(ex, across, f"parts {k} and {k + 1} in the order `complete` names",
                                      "the file is not made")
            running = (running + head.data)[-self.seam_bytes:] if len(head.data) < self.seam_bytes else tail.data

    def _record_drops(self, dropped: list[tuple[Held, str]]) -> None:
        """A record of each upload whose held chunks were dropped: nothing of it forwarded, none of it stored."""
        for held, why in dropped:
            log.warning("resumable upload %s (episode %s): %d bytes %s", held.path, held.episode, len(held.data), why)
            record = ProxyRecord(id=uuid.uuid4().hex, episode=held.episode, task_id=held.task_id, ts=time.time(),
                                 state=COMPLETE, api=held.api, path=held.path, status=410,
                                 error=f"resumable upload {why}: {len(held.data)} bytes held, none forwarded")
            try:
                self.store.add(record)
            except Exception:
                log.exception("could not record dropped upload %s", record.id)

    def base(self, root: str) -> str:
        """Where a root's paths go: `/v1`'s under the upstream URL, another root's under the upstream's origin."""
        if root == "/v1":
            return self.config.upstream
        url = urllib.parse.urlsplit(self.config.upstream)
        return f"{url.scheme}://{url.netloc}{root}"

    async def proxy(self, scope, receive, send, root: str = "/v1") -> None:
        self._record_drops(self.held_uploads.expire())
        self.part_ends.expire()
        params = scope["path_params"]
        tail = "/" + params["rest"]
        dialect = dialect_of(tail, root)
        episode = params.get("episode") or next(
            (_text(v) for k, v in scope["headers"] if k == b"x-ec2-episode"), None)
        task = params.get("task") or next((_text(v) for k, v in scope["headers"] if k == b"x-ec2-task"), None)
        fields, keys = request_fields(scope)
        fields.insert(0, ("path", "path", tail))  # forwarded too (`/v1/threads/<id>/…`): audited like the query
        record = ProxyRecord(id=uuid.uuid4().hex, episode=episode, task_id=task, ts=time.time(), api=dialect.name,
                             path=_recorded_path(root, tail, fields, keys))
        ex = Exchange(record, dialect, episode, time.perf_counter(), fields=fields,
                      path_stream=stream_in_path(tail), root=root, proxy_url=_proxy_url(scope, root + tail))
        try:
            raw = await self._read_body(scope, receive)
            content_type = next((_text(v) for k, v in scope["headers"] if k == b"content-type"), "")
            command = next((_text(v) for k, v in scope["headers"] if k == _UPLOAD_COMMAND), "")
            file_body = "upload" in command
            if file_body:
                whole = self._whole_file(ex, raw, "finalize" in command)
                if whole is None:
                    return await _answer(send, 200, _HELD_CHUNK, b"")
                raw = whole
            ex.raw = raw
            if content_type.partition(";")[0].strip().lower() in MEDIA_TYPES or file_body:
                form = ex.form = await self.lanes.run(
                    len(raw), lambda: self._parse_form(raw, content_type, dialect, file_body))
                body, ex.raw = form.body, json_bytes(form.body)  # audited, stored and redacted as JSON
            elif ScanLanes.is_large(len(raw)):  # parsing megabytes must not stall the other exchanges
                body = await self.lanes.run(len(raw), lambda: self._parse(raw, dialect))
            else:
                body = self._parse(raw, dialect)
            ex.body = body
            await self._audit_seam(ex, tail)
            streams = ex.form.streams if ex.form is not None else bool(body.get("stream"))
            record.request, record.stream = body, streams or ex.path_stream is not None
            record.model = body.get("model") or model_in_path(tail)
            record.headers = _recorded_headers(ex.fields, keys)
            await self.policy.before_forward(ex)
            # as forwarded (redacted)
            tail = next(value for kind, _, value in ex.fields if kind == "path")
            record.headers = _recorded_headers(ex.fields, keys)
            record.path = _recorded_path(root, tail, ex.fields, keys)
            await self._forward_watched(scope, receive, send, ex, keys, tail)
        except Failure as failure:
            record.status, record.error = failure.status, failure.message
            await self._commit(ex)
            if not ex.client_gone:
                await _answer(send, failure.status, _JSON_HEADERS,
                              json_bytes(dialect.error_body(failure.kind, failure.message, failure.extra)))
        except Exception as exc:  # a proxy bug: loud in the log, still on record, the client told
            log.exception("proxy failed on record %s", record.id)
            record.status, record.error = record.status or 500, f"proxy failed ({type(exc).__name__})"
            if not ex.committed:
                await self._commit(ex)
            if not ex.started and not ex.client_gone:
                await _answer(send, 500, _JSON_HEADERS,
                              json_bytes(dialect.error_body("proxy_error", record.error)))

    async def _forward_watched(self, scope, receive, send, ex: Exchange, keys: list[Field], tail: str) -> None:
        """Forward while watching the client: if it goes away before its answer is complete, the
        upstream call is cancelled (its connection closed) rather than left to run out its timeout.
        Two plain asyncio tasks, no task group or asyncio.wait: this runs on every exchange."""
        forward = asyncio.ensure_future(self._forward(send, ex, keys, tail))
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

    async def _forward(self, send, ex: Exchange, keys: list[Field], tail: str) -> None:
        record, body, raw = ex.record, ex.body, ex.raw
        stream = bool(body.get("stream"))
        strip_usage = False
        content_type = "application/json"
        if ex.form is not None:  # forwarded as a form, rebuilt from what was audited (decoding its files' base64)
            form = ex.form
            raw, content_type = await self.lanes.run(len(raw), lambda: form.encode(body))
        elif stream and ex.dialect.usage_on_request and not _asks_usage(body):
            # usage only comes in a final chunk the client did not ask for: request it, hide it later
            options = {**(body.get("stream_options") or {}), "include_usage": True}
            raw, strip_usage = json_bytes({**body, "stream_options": options}), True
        headers = [*self._upstream_headers(ex.fields, keys, ex.dialect), ("content-type", content_type)]
        query = [(n, v) for kind, n, v in ex.fields + keys if kind == "query"]
        # sent as encoded here, the query the record holds (aiohttp would unquote `%3A` to `:`)
        path = urllib.parse.quote(tail, safe="/:@!$&'()*+,;=")  # Starlette gave it decoded
        url = yarl.URL(self.base(ex.root) + path + ("?" + urllib.parse.urlencode(query) if query else ""),
                       encoded=True)
        record.state = PENDING
        self._mask_evidence(record)
        try:  # what cannot be recorded is not forwarded
            if ScanLanes.is_large(len(ex.raw)):
                await asyncio.to_thread(self.store.add, record, ex.raw)
            else:
                self.store.add(record, ex.raw)
            ex.pending = True
        except Exception:
            log.exception("could not record request %s", record.id)
            raise Failure(500, "could not record the request: not forwarded", "proxy_error") from None
        try:  # a redirect is answered to the client as it came, never followed with the client's key
            upstream = await self.client.post(url, data=raw, headers=headers, allow_redirects=False)
        except TimeoutError:
            raise Failure(504, "upstream did not answer in time", "upstream_timeout") from None
        except aiohttp.ClientError as exc:
            raise Failure(502, f"upstream unreachable ({type(exc).__name__})", "upstream_unreachable") from None
        record.status = upstream.status
        if 200 <= upstream.status < 300 and upstream.content_type in _STREAMED:  # (a redirect's is answered whole)
            record.stream = True  # (an Ollama request streams unless it says `stream: false`)
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
        answer = _assembled(response, ex.stream)
        if upstream.status >= 400:
            record.error = f"upstream answered {upstream.status}"
        elif answer is None:
            record.error = "upstream answer is not a JSON object"
        else:
            self._keep_part(ex, response)
            rewritten = (self._restored_chunks(ex, response) if isinstance(response, list)
                         else self.policy.on_response(ex, response))
            if rewritten is not None:
                content = json_bytes(rewritten)
        stored = answer if answer is not None else {"raw": content.decode("utf-8", "replace")[:10000]}
        location = ("a redirect" if upstream.status in _REDIRECTS else
                    "an upload" if any(kind == "header" and name in _UPLOAD_HEADERS for kind, name, _ in ex.fields)
                    else "")
        answer_headers = _client_headers(upstream, self._moved(ex), location, self.config.enforce != "observe")
        await self._commit(ex, stored)
        ex.answered = True
        await _answer(send, upstream.status, answer_headers, content)

    def _moved(self, ex: Exchange) -> tuple[str, str]:
        """(the upstream's origin, the proxy's URL as this exchange's client reached it): `_client_headers`' `moved`."""
        url = urllib.parse.urlsplit(self.config.upstream)
        return f"{url.scheme}://{url.netloc}", ex.proxy_url

    def _restored_chunks(self, ex: Exchange, chunks: list) -> list | None:
        """A stream answered as one JSON array, rewritten chunk by chunk as its events would be (a placeholder
        may be cut across two chunks); None: relayed as it came."""
        out: list = []
        rewritten = False
        for chunk in chunks:
            events = self.policy.on_stream_event(ex, None, chunk)
            rewritten |= events is not None
            out.extend([chunk] if events is None else (data for _, data in events))
        return out if rewritten else None

    async def _relay(self, upstream: aiohttp.ClientResponse, send, ex: Exchange, strip_usage: bool) -> None:
        """Relay a stream (SSE, or NDJSON lines) event by event; commit the record just before the final event.

        The watcher in `_forward_watched` cancels the relay when the client goes away; the record is
        committed either way and names what went wrong."""
        splitter_of, encode = _STREAMED[upstream.content_type]
        splitter, assembler = splitter_of(), Assembler(ex.stream)
        terminals = ex.dialect.terminal_events
        record, errors = ex.record, ex.errors
        finished = False

        async def commit() -> None:
            if errors:
                record.error = "; ".join(dict.fromkeys(errors))
            await self._commit(ex, assembler.result(), whole=finished)

        async def emit(piece: bytes) -> None:
            ex.first_byte()
            await send({"type": "http.response.body", "body": piece, "more_body": True})

        ex.started = True
        await send({"type": "http.response.start", "status": upstream.status, "headers": _client_headers(upstream)})
        try:
            async for chunk in upstream.content.iter_any():
                out: list[bytes] = []
                for event in splitter.feed(chunk):
                    if event.data is None:  # a comment (`: keep-alive`) or a `retry:`: relayed as it came
                        out.append(event.raw)
                        continue
                    terminal, data = event.data == "[DONE]", None
                    if not terminal:
                        try:
                            data = json.loads(event.data)
                        except (ValueError, RecursionError):  # dropped: the client's SDK would choke on it
                            errors.append("malformed SSE event from upstream (dropped)")
                            continue
                        assembler.add(data)
                        failed = stream_error(data)
                        if failed:  # the answer names what went wrong upstream: so does its record
                            errors.append(f"upstream sent an error mid-stream: {failed}")
                        # an event its dialect names, or the one the assembler sees end the answer (Ollama's `done`)
                        terminal = (isinstance(data, dict) and data.get("type") in terminals) or (
                            assembler.done and not finished)
                        if strip_usage and isinstance(data, dict) and data.get("usage") and not data.get("choices"):
                            continue  # the usage chunk we asked for on the client's behalf
                    piece = self._client_event(ex, event, data, strip_usage, encode)
                    if terminal:
                        finished = True
                        ex.first_byte()
                        if out:
                            await emit(b"".join(out))
                            out = []
                        await commit()
                    out.append(piece)
                if out:
                    await emit(b"".join(out))
            if splitter.rest().strip():
                errors.append("upstream stream ended inside an event")
            elif not finished and ex.stream in ENDS_AT_CLOSE:
                finished = True  # closed cleanly: the end of an answer that has no end marker
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
            body = ex.dialect.error_body("upstream_error", "ec2audit: " + "; ".join(dict.fromkeys(errors)))
            await emit(encode(ex.dialect.error_event, body))
        ex.answered = True
        await send({"type": "http.response.body", "body": b""})

    def _client_event(self, ex: Exchange, event: Event, data, strip_usage: bool, encode=_sse) -> bytes:
        if data is not None:
            if strip_usage and isinstance(data, dict) and "usage" in data and data["usage"] is None:
                data = {k: v for k, v in data.items() if k != "usage"}
            rewritten = self.policy.on_stream_event(ex, event.event, data)
            if rewritten is not None:
                return b"".join(encode(name, payload) for name, payload in rewritten)
        if strip_usage:
            return _NULL_USAGE.sub(b"", event.raw)
        return event.raw


def create_app(config: InterceptConfig) -> Starlette:
    """The interceptor as a Starlette app; serve it with uvicorn (`server.serve_in_thread` in-process).

    Every POST under `/v1` and the other APIs' roots (`dialects.ROOTS`) is proxied (a known API's route by its
    dialect, any other as `generic`), plain or under an episode prefix `/e/<episode>` or `/e/<episode>/t/<task>`."""
    interceptor = Interceptor(config)
    models = _Endpoint(interceptor.models)
    proxies = {root: _Endpoint(functools.partial(interceptor.proxy, root=root)) for root in ROOTS}
    routes = []
    for prefix in ("", "/e/{episode}", "/e/{episode}/t/{task}"):
        routes.append(Route(f"{prefix}/v1/models", models, methods=["GET"]))
        routes += [Route(f"{prefix}{root}/{{rest:path}}", proxy, methods=["POST"]) for root, proxy in proxies.items()]
    app = Starlette(routes=routes, lifespan=interceptor.lifespan)
    app.state.interceptor = interceptor
    return app
