"""The strategy gateway: the one OpenAI-compatible endpoint OpenClaw uses as its model (docs/design.md §2).

`POST /e/<episode>/v1/chat/completions` (SSE, as OpenClaw asks) is answered by the edge model, the cloud
model, or both, as the episode's strategy (`ec2audit.run.strategies`) decides. Cloud calls go
to the cloud endpoint URL, which is the interceptor's, so each is recorded, priced and audited; edge
calls are recorded here (tokens → FLOPs). Small edge models write tool calls as text, so with
`constrain` the edge's reply is bound to a JSON schema built from the request's tools and turned back
into proper `tool_calls`.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import quote

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from ec2audit.run.routers import Router
from ec2audit.run.sse import message_of, sse_chunks, usage_of
from ec2audit.run.strategies import arguments, get_strategy

JSON_REPLY = ('Answer with exactly one JSON object: {"tool": NAME, "arguments": {...}} to use a tool, '
              'or {"final": TEXT} when the task is done.')


class UpstreamError(RuntimeError):
    """A model endpoint failed; the episode ends with status `model_error`."""


@dataclass
class Endpoint:
    """A model endpoint. `base_url` ends in `/v1` and may contain `{episode}` and `{task}` (the
    interceptor's path `/e/<episode>/t/<task>/v1`, so its records name the task they ran)."""

    base_url: str
    model: str
    api_key: str | None = None
    params: float | None = None
    constrain: bool = False

    def url(self, episode: str, task: str | None = None) -> str:
        base = self.base_url.replace("/t/{task}", f"/t/{quote(task, safe='')}" if task else "")
        return base.replace("{episode}", episode).rstrip("/") + "/chat/completions"


@dataclass
class EpisodeState:
    episode: str
    strategy: str
    instruction: str
    cloud_context: str = "full"
    task: str | None = None  # the task the episode runs: named to the interceptor (its path)
    router: Router | None = None  # the task- or step-level router of a routed strategy
    side: str | None = None  # the side a task-level router picked
    requests: int = 0
    first_request_at: float | None = None  # monotonic: OpenClaw's start-up ends here
    routes: list[str] = field(default_factory=list)
    edge_calls: list[dict] = field(default_factory=list)
    cloud_calls: list[dict] = field(default_factory=list)
    asks: int = 0
    errors: list[str] = field(default_factory=list)
    max_requests: int | None = None  # a budget in model calls: past it the episode is told to stop
    call_timeout: float | None = None  # s a model call may take: the episode's deadline (None: the gateway's)
    budget_exhausted: bool = False


class Gateway:
    """Serve strategies for many concurrent episodes; `open()` one before OpenClaw starts, `close()` after."""

    def __init__(self, edge: Endpoint, cloud: Endpoint, timeout: float = 300.0):
        self.edge, self.cloud, self.timeout = edge, cloud, timeout
        self._episodes: dict[str, EpisodeState] = {}
        self._answering: dict[str, set[asyncio.Task]] = {}  # model calls in flight, per episode
        self._lock = threading.Lock()
        self.app = Starlette(routes=[Route("/e/{episode}/v1/chat/completions", self._chat, methods=["POST"])])

    def open(self, state: EpisodeState) -> EpisodeState:
        strategy = get_strategy(state.strategy)
        if strategy.routed_by != "none" and (state.router is None or state.router.level != strategy.routed_by):
            raise ValueError(f"{strategy.name} needs a {strategy.routed_by}-level router")
        with self._lock:
            self._episodes[state.episode] = state
        return state

    def close(self, episode: str) -> EpisodeState | None:
        """Forget the episode and cancel its model calls still in flight (OpenClaw is gone: nobody
        waits for them), so stopping the server never has to cut a request short."""
        with self._lock:
            for task in self._answering.pop(episode, set()):
                task.get_loop().call_soon_threadsafe(task.cancel)
            return self._episodes.pop(episode, None)

    async def _chat(self, request: Request):
        state = self._episodes.get(request.path_params["episode"])
        if state is None:
            return JSONResponse({"error": {"message": "unknown episode"}}, status_code=404)
        body = await request.json()
        state.requests += 1
        if state.first_request_at is None:
            state.first_request_at = time.monotonic()
        usage = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
        if state.max_requests is not None and state.requests > state.max_requests:
            state.budget_exhausted = True
            message = {"role": "assistant", "content": f"Stopping: this episode's budget of {state.max_requests} "
                                                       "model calls is used up."}
            return StreamingResponse(sse_chunks(message, usage, "strategy"), media_type="text/event-stream")
        answering = asyncio.ensure_future(self._answer(state, body))
        with self._lock:
            if state.episode in self._episodes:
                self._answering.setdefault(state.episode, set()).add(answering)
            else:  # closed while this request was read
                answering.cancel()
        try:
            await asyncio.wait({answering})
        finally:
            with self._lock:
                self._answering.get(state.episode, set()).discard(answering)
        if answering.cancelled():
            return JSONResponse({"error": {"message": "episode closed", "type": "cancelled"}}, status_code=503)
        try:
            message = answering.result()
        except UpstreamError as exc:
            state.errors.append(str(exc))
            return JSONResponse({"error": {"message": str(exc), "type": "upstream_error"}}, status_code=502)
        return StreamingResponse(sse_chunks(message, usage, "strategy"), media_type="text/event-stream")

    async def _answer(self, state: EpisodeState, body: dict) -> dict:
        async with httpx.AsyncClient(timeout=state.call_timeout or self.timeout) as client:
            return await get_strategy(state.strategy).answer(Turn(self, client, state), state, body)

    async def _post(self, client: httpx.AsyncClient, endpoint: Endpoint, state: EpisodeState, body: dict) -> dict:
        headers = {"Authorization": f"Bearer {endpoint.api_key}"} if endpoint.api_key else {}
        try:
            response = await client.post(endpoint.url(state.episode, state.task), json=body, headers=headers)
        except httpx.HTTPError as exc:
            raise UpstreamError(f"{endpoint.model}: {type(exc).__name__}: {exc}") from None
        if response.status_code != 200:
            raise UpstreamError(f"{endpoint.model}: HTTP {response.status_code}: {response.text[:300]}")
        try:
            return response.json()
        except ValueError:
            raise UpstreamError(f"{endpoint.model}: answer is not JSON") from None

    async def call_edge_raw(self, client: httpx.AsyncClient, state: EpisodeState, body: dict,
                            purpose: str) -> dict:
        """Any edge call (acting, routing, probing), recorded with its tokens."""
        started = time.monotonic()
        response = await self._post(client, self.edge, state,
                                    {**body, "model": self.edge.model, "stream": False, "user": state.episode})
        inp, cached, out = usage_of(response)
        state.edge_calls.append({"purpose": purpose, "input_tokens": inp, "cached_tokens": cached,
                                 "output_tokens": out, "latency_ms": (time.monotonic() - started) * 1000})
        return response

    async def call_edge(self, client: httpx.AsyncClient, state: EpisodeState, body: dict) -> dict:
        if not self.edge.constrain:
            request = {k: v for k, v in body.items() if k not in ("stream_options", "max_completion_tokens")}
            return message_of(await self.call_edge_raw(client, state, request, "act"))
        response = await self.call_edge_raw(client, state, constrained(body), "act")
        return parse_constrained(message_of(response).get("content") or "")

    async def call_cloud(self, client: httpx.AsyncClient, state: EpisodeState, body: dict) -> dict:
        request = {k: v for k, v in body.items() if k not in ("stream_options", "max_completion_tokens")}
        if not request.get("tools"):
            request.pop("tools", None)
            request.pop("tool_choice", None)
        response = await self._post(client, self.cloud, state,
                                    {**request, "model": self.cloud.model, "stream": False, "user": state.episode})
        inp, cached, out = usage_of(response)
        state.cloud_calls.append({"input_tokens": inp, "cached_tokens": cached, "output_tokens": out})
        return message_of(response)


@dataclass
class Turn:
    """What a strategy (and its router) may do while answering one request: recorded edge and cloud
    calls within this episode. `complete` is the routers' probe of the edge (`EdgeProbe`)."""

    gateway: Gateway
    client: httpx.AsyncClient
    state: EpisodeState

    async def edge(self, body: dict) -> dict:
        return await self.gateway.call_edge(self.client, self.state, body)

    async def cloud(self, body: dict) -> dict:
        return await self.gateway.call_cloud(self.client, self.state, body)

    async def complete(self, body: dict, purpose: str) -> dict:
        if self.gateway.edge.constrain:
            body = {**body, "messages": as_text_messages(body.get("messages") or [])}
            body.pop("tools", None)
            body.pop("tool_choice", None)
        return await self.gateway.call_edge_raw(self.client, self.state, body, purpose)


def _schema(node: dict) -> dict:
    """A tool parameter schema reduced to what a grammar needs: required fields, plain types."""
    kind = node.get("type")
    if kind == "object":
        required = list(node.get("required") or [])
        props = {k: _schema(v) for k, v in (node.get("properties") or {}).items() if k in required}
        return {"type": "object", "properties": props, "required": required, "additionalProperties": False}
    if kind == "array":
        return {"type": "array", "items": _schema(node.get("items") or {"type": "string"})}
    if kind in ("string", "integer", "number", "boolean"):
        return {"type": kind}
    return {"type": "string"}


def action_schema(tools: list[dict]) -> dict:
    """JSON schema of one action: a call of one of `tools` or a final answer."""
    options = [{"type": "object", "required": ["tool", "arguments"], "additionalProperties": False,
                "properties": {"tool": {"const": t["function"]["name"]},
                               "arguments": _schema(t["function"].get("parameters") or {"type": "object"})}}
               for t in tools]
    options.append({"type": "object", "required": ["final"], "additionalProperties": False,
                    "properties": {"final": {"type": "string"}}})
    return {"anyOf": options}


def as_text_messages(messages: list[dict]) -> list[dict]:
    """Tool calls and results as plain chat turns, for models whose template knows no tool roles."""
    out = []
    for m in messages:
        role = m.get("role")
        if role == "assistant" and m.get("tool_calls"):
            text = "\n".join(json.dumps({"tool": c["function"]["name"], "arguments": arguments(c)},
                                        ensure_ascii=False) for c in m["tool_calls"])
            out.append({"role": "assistant", "content": text})
        elif role == "tool":
            out.append({"role": "user", "content": f"Tool result:\n{m.get('content') or ''}"})
        elif role in ("system", "developer"):
            out.append({"role": "system", "content": m.get("content") or ""})
        else:
            content = m.get("content")
            out.append({"role": role or "user",
                        "content": content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)})
    if out and out[0]["role"] == "system":
        out[0] = {"role": "system", "content": out[0]["content"] + "\n\n" + JSON_REPLY}
    else:
        out.insert(0, {"role": "system", "content": JSON_REPLY})
    return out


def constrained(body: dict) -> dict:
    """The edge request with tools replaced by a JSON-schema response format (llama.cpp grammar)."""
    return {"messages": as_text_messages(body.get("messages") or []), "temperature": 0, "max_tokens": 1024,
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": "action", "schema": action_schema(body.get("tools") or [])}}}


def parse_constrained(text: str) -> dict:
    """The edge's JSON action as an assistant message with proper `tool_calls` (or final text)."""
    try:
        action = json.loads(text)
    except json.JSONDecodeError:
        return {"role": "assistant", "content": text}
    if isinstance(action, dict) and isinstance(action.get("tool"), str):
        return {"role": "assistant", "content": None, "tool_calls": [{
            "id": f"call_{uuid.uuid4().hex[:12]}", "type": "function",
            "function": {"name": action["tool"],
                         "arguments": json.dumps(action.get("arguments") or {}, ensure_ascii=False)}}]}
    if isinstance(action, dict) and isinstance(action.get("final"), str):
        return {"role": "assistant", "content": action["final"]}
    return {"role": "assistant", "content": text}
