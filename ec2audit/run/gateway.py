"""The strategy gateway: the one OpenAI-compatible endpoint OpenClaw uses as its model (DESIGN.md §2).

`POST /e/<episode>/v1/chat/completions` (SSE, as OpenClaw asks) is answered by the edge model, the cloud
model, or both, according to the episode's strategy: edge-only, cloud-only, query-router (a task-level
router picks a side for the whole episode), step-router (a step router picks per request),
edge-delegate (the edge gets an `ask_cloud` tool; the cloud writes the next action) and edge-advice (the
cloud's advice becomes the tool result; the edge writes the action). `cloud_context` decides what the
cloud sees when the edge asks: `full` history, the edge's `query` only, or `head-tail`. Cloud calls go
to the cloud endpoint URL, which is the interceptor's, so each is recorded, priced and audited; edge
calls are recorded here (tokens → FLOPs). Small edge models write tool calls as text, so with
`constrain` the edge's reply is bound to a JSON schema built from the request's tools and turned back
into proper `tool_calls`.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from dataclasses import dataclass, field

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from ec2audit.run.oracle_model import ASK_CLOUD
from ec2audit.run.routers import StepRouter, TaskRouter
from ec2audit.run.sse import message_of, sse_chunks, usage_of

STRATEGIES = ("edge-only", "cloud-only", "query-router", "step-router", "edge-delegate", "edge-advice")
CLOUD_CONTEXTS = ("full", "query", "head-tail")
ASK_CLOUD_TOOL = {"type": "function", "function": {
    "name": ASK_CLOUD,
    "description": "Ask a stronger cloud model for help with the next step. Use it when unsure.",
    "parameters": {"type": "object", "required": ["question"],
                   "properties": {"question": {"type": "string", "description": "What you need help with."}}}}}
DELEGATE_SYSTEM = ("You are a cloud model helping an agent that works on a user's files. Reply with the "
                   "agent's next action as a tool call.")
ADVICE_SYSTEM = ("You are a cloud model advising an agent that works on a user's files. Answer with short "
                 "advice on its next step; do not call tools.")
JSON_REPLY = ('Answer with exactly one JSON object: {"tool": NAME, "arguments": {...}} to use a tool, '
              'or {"final": TEXT} when the task is done.')


class UpstreamError(RuntimeError):
    """A model endpoint failed; the episode ends with status `model_error`."""


@dataclass
class Endpoint:
    """A model endpoint. `base_url` ends in `/v1` and may contain `{episode}` (the interceptor's path)."""

    base_url: str
    model: str
    api_key: str | None = None
    params: float | None = None
    constrain: bool = False

    def url(self, episode: str) -> str:
        return self.base_url.replace("{episode}", episode).rstrip("/") + "/chat/completions"


@dataclass
class EpisodeState:
    episode: str
    strategy: str
    instruction: str
    cloud_context: str = "full"
    task_router: TaskRouter | None = None
    step_router: StepRouter | None = None
    side: str | None = None
    requests: int = 0
    first_request_at: float | None = None  # monotonic: OpenClaw's start-up ends here
    routes: list[str] = field(default_factory=list)
    edge_calls: list[dict] = field(default_factory=list)
    cloud_calls: list[dict] = field(default_factory=list)
    asks: int = 0
    errors: list[str] = field(default_factory=list)
    max_requests: int | None = None  # a budget in model calls: past it the episode is told to stop
    budget_exhausted: bool = False


class Gateway:
    """Serve strategies for many concurrent episodes; `open()` one before OpenClaw starts, `close()` after."""

    def __init__(self, edge: Endpoint, cloud: Endpoint, timeout: float = 300.0):
        self.edge, self.cloud, self.timeout = edge, cloud, timeout
        self._episodes: dict[str, EpisodeState] = {}
        self._lock = threading.Lock()
        self.app = Starlette(routes=[Route("/e/{episode}/v1/chat/completions", self._chat, methods=["POST"])])

    def open(self, state: EpisodeState) -> EpisodeState:
        if state.strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {state.strategy!r}")
        with self._lock:
            self._episodes[state.episode] = state
        return state

    def close(self, episode: str) -> EpisodeState | None:
        with self._lock:
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
        try:
            async with httpx.AsyncClient(timeout=self.timeout) as client:
                message = await self._answer(client, state, body)
        except UpstreamError as exc:
            state.errors.append(str(exc))
            return JSONResponse({"error": {"message": str(exc), "type": "upstream_error"}}, status_code=502)
        return StreamingResponse(sse_chunks(message, usage, "strategy"), media_type="text/event-stream")

    async def _answer(self, client: httpx.AsyncClient, state: EpisodeState, body: dict) -> dict:
        strategy = state.strategy
        if strategy == "query-router" and state.side is None:
            state.side = await state.task_router.route(state.instruction, _EdgeProbe(self, client, state))
        if strategy == "step-router":
            side = await state.step_router.route(body, _EdgeProbe(self, client, state))
        else:
            side = {"edge-only": "edge", "cloud-only": "cloud", "query-router": state.side}.get(strategy)
        if side is not None:
            state.routes.append(side)
            call = self._call_edge if side == "edge" else self._call_cloud
            return await call(client, state, body)
        return await self._edge_with_cloud(client, state, body)

    async def _edge_with_cloud(self, client: httpx.AsyncClient, state: EpisodeState, body: dict) -> dict:
        """edge-delegate / edge-advice: the edge may call `ask_cloud`; the gateway resolves it."""
        tools = list(body.get("tools") or [])
        message = await self._call_edge(client, state, {**body, "tools": [*tools, ASK_CLOUD_TOOL]})
        ask = next((c for c in message.get("tool_calls") or [] if c["function"]["name"] == ASK_CLOUD), None)
        if ask is None:
            state.routes.append("edge")
            return message
        state.asks += 1
        state.routes.append("edge+cloud")
        question = _arguments(ask).get("question", "")
        messages = cloud_context(body.get("messages") or [], question, state.cloud_context,
                                 DELEGATE_SYSTEM if state.strategy == "edge-delegate" else ADVICE_SYSTEM)
        if state.strategy == "edge-delegate":
            return await self._call_cloud(client, state, {"messages": messages, "tools": tools})
        advice = (await self._call_cloud(client, state, {"messages": messages})).get("content") or ""
        followup = [*(body.get("messages") or []), {"role": "assistant", "content": None, "tool_calls": [ask]},
                    {"role": "tool", "tool_call_id": ask["id"], "content": advice}]
        return await self._call_edge(client, state, {**body, "messages": followup, "tools": tools})

    async def _post(self, client: httpx.AsyncClient, endpoint: Endpoint, episode: str, body: dict) -> dict:
        headers = {"Authorization": f"Bearer {endpoint.api_key}"} if endpoint.api_key else {}
        try:
            response = await client.post(endpoint.url(episode), json=body, headers=headers)
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
        response = await self._post(client, self.edge, state.episode,
                                    {**body, "model": self.edge.model, "stream": False, "user": state.episode})
        inp, cached, out = usage_of(response)
        state.edge_calls.append({"purpose": purpose, "input_tokens": inp, "cached_tokens": cached,
                                 "output_tokens": out, "latency_ms": (time.monotonic() - started) * 1000})
        return response

    async def _call_edge(self, client: httpx.AsyncClient, state: EpisodeState, body: dict) -> dict:
        if not self.edge.constrain:
            request = {k: v for k, v in body.items() if k not in ("stream_options", "max_completion_tokens")}
            return message_of(await self.call_edge_raw(client, state, request, "act"))
        response = await self.call_edge_raw(client, state, constrained(body), "act")
        return parse_constrained(message_of(response).get("content") or "")

    async def _call_cloud(self, client: httpx.AsyncClient, state: EpisodeState, body: dict) -> dict:
        request = {k: v for k, v in body.items() if k not in ("stream_options", "max_completion_tokens")}
        if not request.get("tools"):
            request.pop("tools", None)
            request.pop("tool_choice", None)
        response = await self._post(client, self.cloud, state.episode,
                                    {**request, "model": self.cloud.model, "stream": False, "user": state.episode})
        inp, cached, out = usage_of(response)
        state.cloud_calls.append({"input_tokens": inp, "cached_tokens": cached, "output_tokens": out})
        return message_of(response)


@dataclass
class _EdgeProbe:
    """What routers may ask of the edge model: a recorded call within this episode."""

    gateway: Gateway
    client: httpx.AsyncClient
    state: EpisodeState

    async def complete(self, body: dict, purpose: str) -> dict:
        if self.gateway.edge.constrain:
            body = {**body, "messages": as_text_messages(body.get("messages") or [])}
            body.pop("tools", None)
            body.pop("tool_choice", None)
        return await self.gateway.call_edge_raw(self.client, self.state, body, purpose)


def _arguments(call: dict) -> dict:
    try:
        value = json.loads(call["function"].get("arguments") or "{}")
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _render(message: dict) -> str:
    parts = [message.get("content")] if isinstance(message.get("content"), str) else []
    parts += [f"{c['function']['name']}({c['function'].get('arguments', '')})" for c in message.get("tool_calls") or []]
    return f"[{message.get('role')}] " + "\n".join(p for p in parts if p)


def cloud_context(messages: list[dict], question: str, mode: str, system: str, tail: int = 2) -> list[dict]:
    """What the cloud receives when the edge asks: the privacy-relevant knob of edge-controlled strategies."""
    ask = {"role": "user", "content": f"Question from the edge agent: {question}"}
    if mode == "query":
        return [{"role": "system", "content": system}, ask]
    if mode == "head-tail":
        head = [m for m in messages if m.get("role") == "system"][:1]
        first_user = next((m for m in messages if m.get("role") == "user"), None)
        rest = [m for m in messages if m is not first_user and m.get("role") != "system"][-tail:]
        recent = "\n\n".join(_render(m) for m in rest)
        return [*head, *([first_user] if first_user else []),
                {"role": "user", "content": f"Latest steps:\n{recent}\n\n{ask['content']}"}]
    if mode == "full":
        return [*messages, ask]
    raise ValueError(f"unknown cloud context {mode!r} (known: {', '.join(CLOUD_CONTEXTS)})")


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
            text = "\n".join(json.dumps({"tool": c["function"]["name"], "arguments": _arguments(c)},
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
