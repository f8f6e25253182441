"""The wire APIs the proxy speaks, one `Dialect` each, in a registry like the run strategies.

A dialect says where an API lives (its root, `/v1` for most, and its POST routes under it), where its SDKs put the
API key, how it answers an error (the shape its SDK parses), the shape of its stream events (which the stream
assembler in `sse` and the placeholder restorer in `redact` each read by name) and which of them end an answer.
The proxy serves every route of every dialect; a POST to any other path under a root is the `generic` dialect: it is
forwarded and audited like the rest (every string of the body is scanned), so an endpoint added by a
provider is never an unaudited way out. An API whose root is not `/v1` (Ollama's native `/api`, Cohere's `/v2`,
Gemini's `/v1beta` and its file uploads under `/upload`, Azure OpenAI's `/openai`) is forwarded to the same path
on the upstream's origin: an upstream of `https://ollama.com/v1` takes `/api/chat` at `https://ollama.com/api/chat`.

Adding an API is one `Dialect` here, its request reader in `ec2audit.payloads` (what `intercept
audit` reads back) and, if it streams a new event shape, that shape's assembler in `sse` and
restorer in `redact` (`STREAM_SHAPES` lists the shapes both know).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote

#: Request headers that carry a provider's API key, in every dialect: OpenAI's and Anthropic's,
#: Azure OpenAI's `api-key`, Google's `x-goog-api-key`, Azure API Management's subscription key.
#: Never scanned, never recorded as they are (masked), replaced when the proxy holds the upstream key.
KEY_HEADERS = frozenset({"authorization", "x-api-key", "api-key", "x-goog-api-key", "ocp-apim-subscription-key"})
#: Query parameters that carry a key (Google's `?key=`): masked in the record.
KEY_PARAMS = frozenset({"key", "api_key", "api-key", "access_token"})
#: Stream event shapes: chat completion chunks (`choices[].delta`), legacy completion chunks
#: (`choices[].text`), Responses events, Anthropic Messages events, Gemini chunks, Ollama's NDJSON lines.
STREAM_SHAPES = ("chat", "completions", "responses", "anthropic", "gemini", "ollama")


@dataclass(frozen=True)
class Dialect:
    name: str
    routes: tuple[str, ...]  # POST paths under /v1
    key_header: str = "authorization"  # where its SDKs send the key (a Bearer token in `authorization`)
    anthropic_errors: bool = False  # errors as `{"type": "error", "error": {...}}`, else OpenAI's shape
    terminal_events: frozenset[str] = field(default_factory=frozenset)  # stream events that end an answer
    usage_on_request: bool = False  # a stream carries usage only when asked (`stream_options.include_usage`)
    #: its stream events' shape (one of STREAM_SHAPES); None: events are relayed and recorded as they
    #: come, and placeholders restored only where whole in one event
    stream: str | None = None
    #: as the OpenTelemetry GenAI conventions name them (`gen_ai.provider.name`, `gen_ai.operation.name`)
    provider: str | None = None
    operation: str = "chat"
    root: str = "/v1"  # the path its routes are under

    def error_body(self, kind: str, message: str, extra: dict | None = None) -> dict:
        """An error in the shape the client's SDK parses for this API."""
        if self.anthropic_errors:
            return {"type": "error", "error": {"type": kind, "message": message, **(extra or {})}}
        return {"error": {"message": message, "type": kind, "code": kind, **(extra or {})}}

    @property
    def error_event(self) -> str | None:
        """The SSE event name an error is sent under mid-stream."""
        return "error" if self.anthropic_errors else None


DIALECTS = {d.name: d for d in (
    Dialect("openai-chat", ("/chat/completions",), usage_on_request=True, stream="chat", provider="openai"),
    Dialect("openai-completions", ("/completions",), usage_on_request=True, stream="completions",
            provider="openai", operation="text_completion"),
    Dialect("openai-responses", ("/responses", "/responses/input_tokens"), stream="responses", provider="openai",
            terminal_events=frozenset({"response.completed", "response.incomplete", "response.failed"})),
    Dialect("openai-embeddings", ("/embeddings", "/moderations"), provider="openai", operation="embeddings"),
    Dialect("anthropic-messages", ("/messages", "/messages/count_tokens"), key_header="x-api-key",
            anthropic_errors=True, terminal_events=frozenset({"message_stop"}), stream="anthropic",
            provider="anthropic"),
    # Ollama's native API (Ollama Cloud: https://ollama.com/api/...): `messages`, `prompt`, `system`, `images`, `input`
    Dialect("ollama", ("/chat", "/generate", "/embed", "/embeddings"), provider="ollama", root="/api",
            stream="ollama"),  # (its answer streams, as NDJSON, unless asked `stream: false`: `sse.LineSplitter`)
    # Cohere's v2 API: chat `messages` and `documents`, embed `texts`/`inputs`, rerank `query` and `documents`
    Dialect("cohere", ("/chat", "/embed", "/rerank"), provider="cohere", root="/v2"),
    # Gemini's Files API upload (`/upload/v1beta/files?uploadType=multipart`: JSON metadata and the file's bytes)
    Dialect("gemini-files", ("/v1beta/files", "/v1/files"), key_header="x-goog-api-key", provider="gcp.gemini",
            operation="upload", root="/upload"),
    Dialect("generic", ()),
)}
#: (root, route) → its dialect.
ROUTES = {(d.root, route): d for d in DIALECTS.values() for route in d.routes}
#: Roots no dialect has routes under, their requests read as `/v1`'s unnamed ones are (`generic`): Gemini's `/v1beta`,
#: google-genai's default API version (`/v1beta/models/{model}:generateContent`, `cachedContents`…)
GENERIC_ROOTS = ("/v1beta",)
#: Azure OpenAI's root: OpenAI's routes under a deployment (`/openai/deployments/{deployment}/chat/completions?
#: api-version=…`, the deployment naming the model) or under its v1 API (`/openai/v1/responses`), read as `/v1`'s
AZURE_ROOT = "/openai"
_AZURE_PREFIX = re.compile(r"/(?:deployments/[^/]+|v1)(?=/)")
#: The roots the proxy serves, `/v1` first.
ROOTS = tuple(dict.fromkeys(["/v1", *GENERIC_ROOTS, AZURE_ROOT, *(d.root for d in DIALECTS.values())]))


def dialect_of(tail: str, root: str = "/v1") -> Dialect:
    """The dialect of a POST to `<root><tail>`: a known route's, else `generic`."""
    if root == AZURE_ROOT:
        tail, root = _AZURE_PREFIX.sub("", tail, count=1), "/v1"
    return ROUTES.get((root, tail.rstrip("/")), DIALECTS["generic"])


def get_dialect(name: str | None) -> Dialect:
    return DIALECTS.get(name or "", DIALECTS["generic"])


#: APIs that name the model in the path, not the body: Gemini (`/models/{model}:generateContent`) and
#: Bedrock's Converse and InvokeModel (`/model/{model id}/converse`, `/invoke`, the id's `:` often escaped)
_MODEL_IN_PATH = re.compile(r"/models/([^/:]+):\w+$|"
                            r"/model/([^/]+)/(?:converse(?:-stream)?|invoke(?:-with-response-stream)?)$")


#: Gemini's streamed answer (`/models/{model}:streamGenerateContent`): `GenerateContentResponse` chunks, as SSE
#: events (`alt=sse`) or one JSON array, in the generic dialect (its requests are read by their shape)
_STREAM_IN_PATH = re.compile(r"/models/[^/:]+:streamGenerateContent$")


def stream_in_path(tail: str) -> str | None:
    """The stream shape (`sse` assembler) a path names for an API whose body does not ask to stream."""
    return "gemini" if _STREAM_IN_PATH.search(tail.rstrip("/")) else None


def model_in_path(tail: str) -> str | None:
    """The model a path names, for the APIs whose body does not (the ledger prices it by that name)."""
    match = _MODEL_IN_PATH.search(tail.rstrip("/"))
    return unquote(match.group(1) or match.group(2)) if match else None
