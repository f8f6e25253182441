"""A scripted OpenAI-compatible "oracle model": a stand-in that replays a task's `oracle.json`.

It is what lets the benchmark run end to end without a frontier model: used as the cloud (the
default stand-in, always named as such) or as the edge, it answers each chat request with the next
oracle step as a proper `tool_calls` entry, then the oracle's final message. It is stateless: the
next step is the number of tool calls already in the request's history, or, when the caller sent only
a question (the `query` cloud context), the `[oracle-step N]` marker in it. The episode (and so the
task's oracle) is named by the request's standard OpenAI `user` field. Variants misbehave on purpose
for tests: `wrong-tool` calls a tool that does not exist, `gives-up` stops at once, and `delegating`
asks the cloud (`ask_cloud`) before every acting step when that tool is offered.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from ec2audit.oracle import substitute
from ec2audit.run.sse import completion_json, sse_chunks

BEHAVIOURS = ("oracle", "delegating", "wrong-tool", "gives-up")
ASK_CLOUD = "ask_cloud"
ACTING_TOOLS = ("write", "edit", "exec")
STEP_MARKER = re.compile(r"\[oracle-step (\d+)\]")
_URL = re.compile(r"https?://127\.0\.0\.1:\d+")


def rough_tokens(text: str) -> int:
    """Token count for the stand-in's `usage` (≈4 characters a token); real models report their own."""
    return max(1, len(text) // 4)


class OracleModel:
    """The script: episode → oracle; `reply(body)` → an assistant message dict."""

    def __init__(self, behaviour: str = "oracle", name: str = "oracle-stand-in"):
        if behaviour not in BEHAVIOURS:
            raise ValueError(f"unknown oracle behaviour {behaviour!r} (known: {', '.join(BEHAVIOURS)})")
        self.behaviour, self.name = behaviour, name
        self._oracles: dict[str, dict] = {}
        self._lock = threading.Lock()

    def register(self, episode: str, oracle: dict) -> None:
        with self._lock:
            self._oracles[episode] = oracle

    def unregister(self, episode: str) -> None:
        with self._lock:
            self._oracles.pop(episode, None)

    def reply(self, body: dict) -> dict:
        oracle = self._oracles.get(str(body.get("user", "")))
        if oracle is None:
            return {"role": "assistant", "content": "The oracle stand-in knows no task for this request."}
        messages = body.get("messages") or []
        steps, tools = oracle["steps"], {t["function"]["name"] for t in body.get("tools") or []}
        done = _steps_done(messages)
        if self.behaviour == "gives-up":
            return {"role": "assistant", "content": "I cannot help with this task."}
        if done >= len(steps):
            return {"role": "assistant", "content": oracle["final"]}
        step = substitute(steps[done], _service_url(messages))
        if not tools:  # asked for advice: describe the next step in words
            return {"role": "assistant", "content": f"Advice: next call `{step['tool']}` with "
                                                    f"{json.dumps(step['arguments'], ensure_ascii=False)}."}
        if self.behaviour == "wrong-tool":
            return _tool_call("launch_rockets", {"target": "moon"})
        if (self.behaviour == "delegating" and ASK_CLOUD in tools and step["tool"] in ACTING_TOOLS
                and not _answered_by_cloud(messages)):
            return _tool_call(ASK_CLOUD, {"question": f"[oracle-step {done}] What is the next action?"})
        return _tool_call(step["tool"], step["arguments"])


def _steps_done(messages: list[dict]) -> int:
    calls = [c for m in messages if m.get("role") == "assistant" for c in m.get("tool_calls") or []
             if (c.get("function") or {}).get("name") != ASK_CLOUD]
    if calls:
        return len(calls)
    for m in reversed(messages):
        if m.get("role") == "user" and isinstance(m.get("content"), str):
            found = STEP_MARKER.search(m["content"])
            if found:
                return int(found.group(1))
    return 0


def _answered_by_cloud(messages: list[dict]) -> bool:
    """True right after the gateway appended the cloud's advice as the `ask_cloud` tool result."""
    if not messages or messages[-1].get("role") != "tool":
        return False
    asked = {c.get("id") for m in messages if m.get("role") == "assistant" for c in m.get("tool_calls") or []
             if (c.get("function") or {}).get("name") == ASK_CLOUD}
    return messages[-1].get("tool_call_id") in asked


def _service_url(messages: list[dict]) -> str | None:
    for m in messages:
        if m.get("role") == "user" and isinstance(m.get("content"), str):
            found = _URL.search(m["content"])
            if found:
                return found.group(0)
    return None


def _tool_call(name: str, arguments: dict) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [{
        "id": f"call_{uuid.uuid4().hex[:12]}", "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}]}


def create_app(model: OracleModel) -> Starlette:
    """`POST /v1/chat/completions` (also under `/e/<episode>/`), streaming or not."""

    async def chat(request: Request):
        body = await request.json()
        message = model.reply(body)
        prompt = rough_tokens(json.dumps(body.get("messages") or [], ensure_ascii=False))
        out = rough_tokens(json.dumps(message, ensure_ascii=False))
        usage = {"prompt_tokens": prompt, "completion_tokens": out, "total_tokens": prompt + out}
        name = body.get("model") or model.name
        if body.get("stream"):
            return StreamingResponse(sse_chunks(message, usage, name), media_type="text/event-stream")
        return JSONResponse(completion_json(message, usage, name, created=int(time.time())))

    async def models(_request: Request):
        return JSONResponse({"object": "list", "data": [{"id": model.name, "object": "model"}]})

    return Starlette(routes=[
        Route("/v1/chat/completions", chat, methods=["POST"]),
        Route("/e/{episode}/v1/chat/completions", chat, methods=["POST"]),
        Route("/v1/models", models),
    ])
