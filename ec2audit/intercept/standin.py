"""A scripted stand-in for a cloud model's HTTP API, for tests and benchmarks of the interceptor.

It is not a model. It speaks OpenAI Chat Completions, legacy Completions, OpenAI Responses and Anthropic
Messages (SSE and plain JSON), Gemini's generateContent and streamGenerateContent (SSE with `alt=sse`, else
one JSON array) and Bedrock Converse, and answers by a fixed script chosen with the request's `model`:
  echo (any other name)  text "echo: <last user text>"
  tool-echo              a `send` tool call whose arguments are {"text": <last user text>}
  fault-500              a 500 error       fault-slow     waits 3 s before answering
  fault-redirect         a 307 to the same path on its own origin (`-elsewhere`: on another host;
                         `fault-redirect-302`…: that status; the model list's GET, named in
                         `X-Standin-Script`)
  fault-cut              a stream that breaks off (connection dropped) after two events
  fault-malformed        a stream with one event that is not JSON
  fault-error            a stream that sends its API's error event after two events, and ends
  fault-hang             a stream that stops sending after one event and never ends (without
                         stream: an answer that never comes)
  keepalive              a stream with an SSE comment (`: keep-alive`) before every event
A request that names OpenAI's `service_tier` is answered as served at it (`auto`: `default`), in the Chat and
Responses answers and their streams' events. A Chat request asking OpenRouter's usage accounting (`usage:
{"include": true}`) is answered with the USD it was charged in its usage (`cost`, at `STANDIN_USD_PER_TOKEN`),
the stream's in a last event of usage, as OpenRouter sends it.
Streams cut the text into `STANDIN_CHUNK` characters per event so values cross event boundaries.
A POST to any other path under /v1 or another API's root (`dialects.ROOTS`: Ollama's `/api`, Cohere's `/v2`,
Gemini's `/v1beta` and `/upload`; Azure OpenAI's `/openai/deployments/{d}/…` and `/openai/v1/…` are answered as
OpenAI's) is answered with a small JSON echo (Gemini's calls as Gemini answers, Ollama's
`/api/chat` and `/api/generate` as Ollama does: NDJSON lines unless `stream: false`); a form (a
file upload, a URL-encoded body) too, its body kept as a server's form parser reads it (`_form`, `_related`).
Gemini's resumable upload is served as Google serves it: a `start` command is answered with the session's URL
(`X-Goog-Upload-URL`, on the stand-in's own origin), an `upload` command's body is the file's bytes (kept as
`{"file": <its text>}`), a chunk before the last (`upload` without `finalize`) answered `active`. A `start` for a
file named `fault-elsewhere` names its session on another host (`_ELSEWHERE`), one named `fault-location` in
`Location` (as Google's other upload APIs do), `fault-location-elsewhere` both.
An Uploads API part (`/v1/uploads/{id}/parts`) is answered with an id of its own, as OpenAI answers it.
Every request (path, query, headers, body and its bytes) is kept in `app.state.requests` for
assertions, the headers of each model list request (GET /v1/models) in `app.state.listings`, and each call
whose client went away before it ended is counted in `app.state.cancelled`.

Try the proxy without a cloud key: `python -m ec2audit.intercept.standin --port 8788`, then
`ec2audit intercept serve --upstream http://127.0.0.1:8788/v1`.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ec2audit.intercept.dialects import ROOTS
from ec2audit.payloads import flatten

STANDIN_CHUNK = 3
#: What the stand-in charges per token, prompt or output, where a request asks what it cost (OpenRouter's `usage`).
STANDIN_USD_PER_TOKEN = 1e-6


def _last_user_text(body: dict, api: str | None) -> str:
    texts = [s.text for s in flatten(body, api) if s.origin in ("user", "tool_result")]
    return texts[-1] if texts else ""


def _pieces(text: str) -> list[str]:
    return [text[i:i + STANDIN_CHUNK] for i in range(0, len(text), STANDIN_CHUNK)] or [""]


def _dumps(data) -> str:
    """JSON text with characters as they are; a lone surrogate (which UTF-8 cannot carry) escaped."""
    text = json.dumps(data, ensure_ascii=False)
    try:
        text.encode()
    except UnicodeEncodeError:
        return json.dumps(data)
    return text


class _JSON(JSONResponse):
    def render(self, content) -> bytes:
        return _dumps(content).encode()


def _sse(data, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {_dumps(data)}\n\n".encode()


#: An error as the APIs send one mid-stream (OpenAI's and Gemini's as `{"error": …}`; `_STREAM_ERRORS`: the others)
_ERROR = {"message": "scripted stand-in error mid-stream", "type": "server_error"}
_STREAM_ERRORS = {"/v1/messages": _sse({"type": "error", "error": {**_ERROR, "type": "overloaded_error"}}, "error"),
                  "/v1/responses": _sse({"type": "error", "code": "server_error", "message": _ERROR["message"]},
                                        "error"),
                  "ollama": (_dumps({"error": _ERROR["message"]}) + "\n").encode()}


class _Script:
    def __init__(self, body: dict, api: str | None = None):
        self.body = body
        self.model = str(body.get("model", "echo"))
        self.tool = self.model == "tool-echo"
        user = _last_user_text(body, api)
        self.text = json.dumps({"text": user}, ensure_ascii=False) if self.tool else f"echo: {user}"
        prompt = sum(len(s.text) for s in flatten(body))
        self.prompt_tokens, self.output_tokens = max(prompt // 4, 1), max(len(self.text) // 4, 1)
        tier = body.get("service_tier")
        self.served = {} if tier is None else {"service_tier": "default" if tier == "auto" else tier}
        accounting = body.get("usage")
        self.accounting = isinstance(accounting, dict) and accounting.get("include") is True

    def fault_events(self, events: list[bytes], cancelled: list, error: bytes = _sse({"error": _ERROR})):
        """Apply the stream faults to a list of encoded events (`error`: the API's error event, encoded)."""
        async def gen():
            for i, event in enumerate(events):
                if self.model == "fault-error" and i == 2:
                    yield error
                    return
                if self.model == "keepalive":
                    yield b": keep-alive\n\n"
                if self.model == "fault-cut" and i == 2:
                    raise ConnectionAbortedError("scripted stand-in drops the connection")
                if self.model == "fault-malformed" and i == 2:
                    yield b"data: {this is not json\n\n"
                if self.model == "fault-hang" and i == 1:
                    try:
                        await asyncio.sleep(3600)
                    except asyncio.CancelledError:  # the client (the proxy) closed the connection
                        cancelled.append(self.model)
                        raise
                yield event
        return gen()


def _chat(script: _Script) -> tuple[dict, list[bytes]]:
    base = {"id": "chatcmpl-standin", "object": "chat.completion.chunk", "created": int(time.time()),
            "model": script.model, **script.served}
    usage = {"prompt_tokens": script.prompt_tokens, "completion_tokens": script.output_tokens,
             "total_tokens": script.prompt_tokens + script.output_tokens,
             "prompt_tokens_details": {"cached_tokens": 0}}
    if script.accounting:
        usage |= {"cost": (script.prompt_tokens + script.output_tokens) * STANDIN_USD_PER_TOKEN, "is_byok": False}
    if script.tool:
        message = {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "send", "arguments": script.text}}]}
    else:
        message = {"role": "assistant", "content": script.text}
    finish = "tool_calls" if script.tool else "stop"
    whole = {**base, "object": "chat.completion", "usage": usage,
             "choices": [{"index": 0, "message": message, "finish_reason": finish}]}
    include_usage = bool((script.body.get("stream_options") or {}).get("include_usage")) or script.accounting
    extra = {"usage": None} if include_usage else {}
    events = [{**base, **extra, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""},
                                              "finish_reason": None}]}]
    for k, piece in enumerate(_pieces(script.text)):
        if script.tool:
            call = {"index": 0, "function": {"arguments": piece}}
            if k == 0:
                call.update(id="call_1", type="function", function={"name": "send", "arguments": piece})
            delta: dict[str, object] = {"tool_calls": [call]}
        else:
            delta = {"content": piece}
        events.append({**base, **extra, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
    events.append({**base, **extra, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    if include_usage:
        events.append({**base, "choices": [], "usage": usage})
    return whole, [_sse(e) for e in events] + [b"data: [DONE]\n\n"]


def _anthropic(script: _Script) -> tuple[dict, list[bytes]]:
    usage = {"input_tokens": script.prompt_tokens, "output_tokens": script.output_tokens,
             "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}
    block = ({"type": "tool_use", "id": "toolu_1", "name": "send", "input": json.loads(script.text)}
             if script.tool else {"type": "text", "text": script.text})
    stop = "tool_use" if script.tool else "end_turn"
    whole = {"id": "msg_standin", "type": "message", "role": "assistant", "model": script.model,
             "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": usage}
    start = {**whole, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    events = [("message_start", {"type": "message_start", "message": start}),
              ("content_block_start", {"type": "content_block_start", "index": 0, "content_block":
                                       {**block, "input": {}} if script.tool else {"type": "text", "text": ""}})]
    for piece in _pieces(script.text):
        delta = ({"type": "input_json_delta", "partial_json": piece} if script.tool
                 else {"type": "text_delta", "text": piece})
        events.append(("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}))
    events += [("content_block_stop", {"type": "content_block_stop", "index": 0}),
               ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                  "usage": {"output_tokens": script.output_tokens}}),
               ("message_stop", {"type": "message_stop"})]
    return whole, [_sse(data, name) for name, data in events]


def _responses(script: _Script) -> tuple[dict, list[bytes]]:
    usage = {"input_tokens": script.prompt_tokens, "input_tokens_details": {"cached_tokens": 0},
             "output_tokens": script.output_tokens, "total_tokens": script.prompt_tokens + script.output_tokens}
    item: dict[str, object]
    if script.tool:
        item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "send",
                "arguments": script.text, "status": "completed"}
    else:
        item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": script.text, "annotations": []}]}
    whole = {"id": "resp_standin", "object": "response", "created_at": int(time.time()), "status": "completed",
             "model": script.model, "output": [item], "usage": usage, **script.served}
    kind = "response.function_call_arguments" if script.tool else "response.output_text"
    ids: dict[str, object] = {"item_id": item["id"], "output_index": 0} | ({} if script.tool else {"content_index": 0})
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {**whole, "status": "in_progress", "output": []}}]
    events += [{"type": f"{kind}.delta", **ids, "delta": p} for p in _pieces(script.text)]
    done_key = "arguments" if script.tool else "text"
    events += [{"type": f"{kind}.done", **ids, done_key: script.text},
               {"type": "response.output_item.done", "output_index": 0, "item": item},
               {"type": "response.completed", "response": whole}]
    for n, event in enumerate(events):
        event["sequence_number"] = n
    return whole, [_sse(e, e["type"]) for e in events]


def _completions(script: _Script) -> tuple[dict, list[bytes]]:
    """The legacy completions API: text in `choices[].text`, streamed as text pieces."""
    base = {"id": "cmpl-standin", "object": "text_completion", "created": int(time.time()), "model": script.model}
    usage = {"prompt_tokens": script.prompt_tokens, "completion_tokens": script.output_tokens,
             "total_tokens": script.prompt_tokens + script.output_tokens}
    whole = {**base, "usage": usage,
             "choices": [{"index": 0, "text": script.text, "logprobs": None, "finish_reason": "stop"}]}
    events = [{**base, "choices": [{"index": 0, "text": piece, "logprobs": None, "finish_reason": None}]}
              for piece in _pieces(script.text)]
    events.append({**base, "choices": [{"index": 0, "text": "", "logprobs": None, "finish_reason": "stop"}]})
    if (script.body.get("stream_options") or {}).get("include_usage"):
        events.append({**base, "choices": [], "usage": usage})
    return whole, [_sse(e) for e in events] + [b"data: [DONE]\n\n"]


def _native(path: str, script: _Script) -> dict:
    """An answer on a path no builder serves: Gemini's or Bedrock Converse's own shape (their usage is
    counted apart, thoughts and cache reads too), else an echo of the path."""
    n, out = max(len(json.dumps(script.body)) // 4, 1), script.output_tokens  # the shapes `flatten` cannot read
    if path.endswith(":generateContent"):
        model = path.rpartition("/")[2].partition(":")[0]
        answer = {"role": "model", "parts": [{"text": script.text}]}
        return {"candidates": [{"content": answer, "finishReason": "STOP"}],
                "usageMetadata": {"promptTokenCount": n, "cachedContentTokenCount": n // 2, "candidatesTokenCount": out,
                                  "thoughtsTokenCount": out, "totalTokenCount": n + 2 * out}, "modelVersion": model}
    if path.endswith("/converse"):
        answer = {"role": "assistant", "content": [{"text": script.text}]}
        return {"output": {"message": answer}, "stopReason": "end_turn",
                "usage": {"inputTokens": n, "cacheReadInputTokens": n, "outputTokens": out, "totalTokens": 2 * n + out}}
    if _PART.search(path):  # an Uploads API part, named by an id of its own (`complete` lists the ids in order)
        return {"id": f"part_{uuid.uuid4().hex[:16]}", "object": "upload.part", "path": path}
    return {"id": "standin", "object": "standin.echo", "path": path,
            "usage": {"input_tokens": script.prompt_tokens, "total_tokens": script.prompt_tokens}}


def _gemini_stream(path: str, script: _Script) -> list[dict]:
    """Gemini's streamed answer (`:streamGenerateContent`): a chunk per piece of the text, each with the
    running usage; the last one ends the candidate and counts the thoughts and the cached prompt."""
    asked = [p.get("text") for c in script.body.get("contents") or [] for p in c.get("parts") or []]
    script.text = "echo: " + next((t for t in reversed(asked) if isinstance(t, str)), "")
    script.output_tokens = max(len(script.text) // 4, 1)
    whole = _native(path.replace(":streamGenerateContent", ":generateContent"), script)
    pieces, final = _pieces(script.text), whole["usageMetadata"]
    chunks = [{"candidates": [{"content": {"role": "model", "parts": [{"text": piece}]}, "index": 0}],
               "usageMetadata": {"promptTokenCount": final["promptTokenCount"],
                                 "candidatesTokenCount": max(final["candidatesTokenCount"] * (k + 1) // len(pieces), 1),
                                 "totalTokenCount": final["promptTokenCount"]},
               "modelVersion": whole["modelVersion"], "responseId": "standin"} for k, piece in enumerate(pieces)]
    chunks[-1]["candidates"][0]["finishReason"] = "STOP"
    chunks[-1]["usageMetadata"] = final
    return chunks


def _ollama(path: str, script: _Script) -> tuple[dict, list[bytes]]:
    """Ollama's native `/api/chat` (the text in `message.content`) or `/api/generate` (in `response`): streamed as
    NDJSON, a line per piece, the last one `done` with the counts (`prompt_eval_count`, `eval_count`)."""
    chat = path == "/api/chat"
    if not chat:
        prompt = script.body.get("prompt")
        script.text = f"echo: {prompt if isinstance(prompt, str) else ''}"
    base = {"model": script.model, "created_at": "2026-01-01T00:00:00Z"}

    def line(text: str) -> dict:
        return {**base, **({"message": {"role": "assistant", "content": text}} if chat else {"response": text})}

    counts = {"done": True, "done_reason": "stop", "total_duration": 1000, "prompt_eval_count": script.prompt_tokens,
              "eval_count": script.output_tokens}
    lines = [{**line(piece), "done": False} for piece in _pieces(script.text)] + [{**line(""), **counts}]
    return {**line(script.text), **counts}, [(_dumps(each) + "\n").encode() for each in lines]


_BUILDERS = {"/v1/chat/completions": _chat, "/v1/messages": _anthropic, "/v1/responses": _responses,
             "/v1/completions": _completions}
_APIS = {"/v1/completions": "openai-completions"}  # a body the shape alone does not tell
#: Azure OpenAI's root and deployment (`/openai/deployments/{d}/…`) or v1 API (`/openai/v1/…`)
#: Where a `start` for a file named `…-elsewhere` puts its upload session: a host other than the stand-in's
_ELSEWHERE = "https://upload.elsewhere.invalid/"
#: `fault-redirect`, `fault-redirect-302`, `fault-redirect-303-elsewhere`…: the status, and whether on another host
_REDIRECT = re.compile(r"fault-redirect(?:-(30[1-8]))?(-elsewhere)?")
_PART = re.compile(r"/uploads/[^/]+/parts/?$")
_AZURE = re.compile(r"^/openai/(?:deployments/[^/]+|v1)(?=/)")


def _file_text(data: bytes) -> str:
    """A file's bytes as text: UTF-16 by its byte order mark, else UTF-8."""
    return data.decode("utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else data.decode("utf-8", "replace")


async def _form(request: Request) -> dict:
    """A `multipart/form-data` body as an upload endpoint reads it (Starlette's form parser): field → value, a file
    as `{"filename", "content_type", "data"}` with its bytes as text (UTF-16 by its byte order mark, else UTF-8), a
    name sent twice → the list of its values."""
    fields: dict[str, list] = {}
    async with request.form() as form:
        for name, value in form.multi_items():
            if isinstance(value, UploadFile):
                fields.setdefault(name, []).append({"filename": value.filename, "content_type": value.content_type,
                                                    "data": _file_text(await value.read())})
            else:
                fields.setdefault(name, []).append(value)
    return {name: values[0] if len(values) == 1 else values for name, values in fields.items()}


def _related(raw: bytes, content_type: str) -> dict:
    """A `multipart/related` body (Gemini's multipart upload) as the standard library's MIME parser reads it:
    `{"parts": [{"content_type", "data"}, …]}`, each part's bytes as UTF-8 text."""
    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + raw)
    return {"parts": [{"content_type": part.get_content_type(),
                       "data": bytes(part.get_payload(decode=True)).decode("utf-8", "replace")}
                      for part in message.iter_parts()]}


async def _answer(request: Request):
    raw = await request.body()
    content_type = request.headers.get("content-type", "")
    if content_type.startswith(("multipart/form-data", "application/x-www-form-urlencoded")):
        body = await _form(request)
    elif content_type.startswith("multipart/related"):
        body = _related(raw, content_type)
    elif "upload" in request.headers.get("x-goog-upload-command", ""):
        body = {"file": _file_text(raw)}
    else:
        body = json.loads(raw)
    request.app.state.requests.append({"path": request.url.path, "query": request.url.query, "raw": raw,
                                       "headers": dict(request.headers), "header_list": request.headers.items(),
                                       "body": body})
    path = _AZURE.sub("/v1", request.url.path, count=1)  # Azure OpenAI's paths answered as OpenAI's
    script = _Script(body, _APIS.get(path))
    command = request.headers.get("x-goog-upload-command", "")
    if command == "start":
        name = str((body.get("file") or {}).get("display_name", ""))
        origin = _ELSEWHERE if name.endswith("-elsewhere") else str(request.base_url)
        session = f"{origin}upload/v1beta/files?upload_id=standin-{len(request.app.state.requests)}"
        named = "location" if name.startswith("fault-location") else "x-goog-upload-url"
        return JSONResponse({}, headers={named: session, "x-goog-upload-status": "active"})
    if "upload" in command and "finalize" not in command:  # a chunk before the last
        return JSONResponse({}, headers={"x-goog-upload-status": "active"})
    if request.url.path.endswith(":streamGenerateContent"):  # SSE with `alt=sse`, else one JSON array
        script.model = request.url.path.rpartition("/")[2].partition(":")[0]  # (Gemini names it in the path)
        chunks = _gemini_stream(request.url.path, script)
        if request.query_params.get("alt") == "sse":
            return StreamingResponse(script.fault_events([_sse(c) for c in chunks], request.app.state.cancelled),
                                     media_type="text/event-stream")
        return _JSON(chunks)
    if request.url.path in ("/api/chat", "/api/generate"):  # Ollama streams unless told not to
        whole, lines = _ollama(request.url.path, script)
        if body.get("stream", True) is not False:
            return StreamingResponse(script.fault_events(lines, request.app.state.cancelled,
                                                         _STREAM_ERRORS["ollama"]), media_type="application/x-ndjson")
        return _JSON(whole)
    if path not in _BUILDERS:
        return _JSON(_native(request.url.path, script))
    if script.model == "fault-500":
        return JSONResponse({"error": {"message": "scripted stand-in failure", "type": "server_error"}}, 500)
    moved = _redirect(script.model, request)  # a 307 (or the status named): the client follows it there
    if moved is not None:
        return moved
    if script.model == "fault-slow":
        await asyncio.sleep(3)
    if script.model == "fault-hang" and not body.get("stream"):
        while not await request.is_disconnected():
            await asyncio.sleep(0.05)
        request.app.state.cancelled.append(script.model)
        return JSONResponse({})
    whole, events = _BUILDERS[path](script)
    if body.get("stream"):
        error = _STREAM_ERRORS.get(path, _sse({"error": _ERROR}))
        return StreamingResponse(script.fault_events(events, request.app.state.cancelled, error),
                                 media_type="text/event-stream")
    return _JSON(whole)


def _redirect(script: str, request: Request) -> Response | None:
    """The redirect a script names (`fault-redirect-302-elsewhere`…), to the same path on its origin or another host."""
    redirect = _REDIRECT.fullmatch(script)
    if redirect is None:
        return None
    origin = _ELSEWHERE if redirect.group(2) else str(request.base_url)
    return Response(status_code=int(redirect.group(1) or 307),
                    headers={"location": origin + request.url.path.lstrip("/")})


async def _models(request: Request):
    """The model list; redirected where the request names a redirect's script in `X-Standin-Script` (a GET has no
    model to name it)."""
    request.app.state.listings.append({"headers": dict(request.headers), "header_list": request.headers.items()})
    moved = _redirect(request.headers.get("x-standin-script", ""), request)
    if moved is not None:
        return moved
    return JSONResponse({"object": "list", "data": [{"id": "echo", "object": "model", "owned_by": "standin"}]})


def create_app() -> Starlette:
    app = Starlette(routes=[Route("/v1/models", _models, methods=["GET"]),
                            *(Route(f"{root}/{{rest:path}}", _answer, methods=["POST"]) for root in ROOTS)])
    app.state.requests, app.state.cancelled, app.state.listings = [], [], []
    return app


if __name__ == "__main__":
    from ec2audit.cli.intercept import standin

    standin(prog_name="python -m ec2audit.intercept.standin")
