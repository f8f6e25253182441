"""Strategies: how the gateway answers one OpenClaw request (docs/design.md §2), as a registry.

A strategy says who routes (`task`: a task-level router picks a side once per episode; `step`: a
step-level router picks per request; `none`), who writes the agent's actions, whether the edge may
ask the cloud (then `--cloud-context` decides what the cloud sees), and how a request is answered
given a `Turn` (the edge and cloud calls of one request). The gateway, the episode runner,
`RunConfig`, the CLI choices and the demo all read `STRATEGIES`; a new strategy is one `@register`ed
class.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, ClassVar

from ec2audit.run.oracle_model import ASK_CLOUD

if TYPE_CHECKING:
    from ec2audit.run.gateway import EpisodeState, Turn

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


class Strategy:
    name: ClassVar[str]
    routed_by: ClassVar[str] = "none"  # "task" | "step" | "none": the router level it needs
    writes_actions: ClassVar[str]  # who writes the agent's next action (help text and docs)
    asks_cloud: ClassVar[bool] = False  # the edge may ask the cloud: `cloud_context` applies

    async def answer(self, turn: Turn, state: EpisodeState, body: dict) -> dict:
        """The assistant message for OpenClaw's request `body`; records the side(s) in `state.routes`."""
        raise NotImplementedError


#: name → strategy, in the order results and help list them
STRATEGIES: dict[str, Strategy] = {}


def register(cls: type[Strategy]) -> type[Strategy]:
    STRATEGIES[cls.name] = cls()
    return cls


def get_strategy(name: str) -> Strategy:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})") from None


async def _one_side(turn: Turn, state: EpisodeState, body: dict, side: str) -> dict:
    state.routes.append(side)
    return await (turn.edge(body) if side == "edge" else turn.cloud(body))


@register
class EdgeOnly(Strategy):
    name, writes_actions = "edge-only", "edge"

    async def answer(self, turn: Turn, state: EpisodeState, body: dict) -> dict:
        return await _one_side(turn, state, body, "edge")


@register
class CloudOnly(Strategy):
    name, writes_actions = "cloud-only", "cloud"

    async def answer(self, turn: Turn, state: EpisodeState, body: dict) -> dict:
        return await _one_side(turn, state, body, "cloud")


@register
class QueryRouter(Strategy):
    name, routed_by, writes_actions = "query-router", "task", "the side the task router picked"

    async def answer(self, turn: Turn, state: EpisodeState, body: dict) -> dict:
        assert state.router is not None  # Gateway.open refuses a routed strategy without its router
        if state.side is None:
            state.side = await state.router.route(state.instruction, turn)
        return await _one_side(turn, state, body, state.side)


@register
class StepRouterStrategy(Strategy):
    name, routed_by, writes_actions = "step-router", "step", "the side the step router picks, per request"

    async def answer(self, turn: Turn, state: EpisodeState, body: dict) -> dict:
        assert state.router is not None  # Gateway.open refuses a routed strategy without its router
        return await _one_side(turn, state, body, await state.router.route(body, turn))


class EdgeAsksCloud(Strategy):
    """The edge gets an `ask_cloud` tool; the gateway resolves a call of it with `resolve`."""

    asks_cloud = True
    system: ClassVar[str]

    async def answer(self, turn: Turn, state: EpisodeState, body: dict) -> dict:
        tools = list(body.get("tools") or [])
        message = await turn.edge({**body, "tools": [*tools, ASK_CLOUD_TOOL]})
        ask = next((c for c in message.get("tool_calls") or [] if c["function"]["name"] == ASK_CLOUD), None)
        if ask is None:
            state.routes.append("edge")
            return message
        state.asks += 1
        state.routes.append("edge+cloud")
        question = arguments(ask).get("question", "")
        messages = cloud_context(body.get("messages") or [], question, state.cloud_context, self.system)
        return await self.resolve(turn, body, tools, ask, messages)

    async def resolve(self, turn: Turn, body: dict, tools: list, ask: dict, messages: list[dict]) -> dict:
        raise NotImplementedError


@register
class EdgeDelegate(EdgeAsksCloud):
    name, writes_actions, system = "edge-delegate", "the edge, or the cloud when asked", DELEGATE_SYSTEM

    async def resolve(self, turn: Turn, body: dict, tools: list, ask: dict, messages: list[dict]) -> dict:
        return await turn.cloud({"messages": messages, "tools": tools})


@register
class EdgeAdvice(EdgeAsksCloud):
    name, writes_actions, system = "edge-advice", "the edge (the cloud's advice is a tool result)", ADVICE_SYSTEM

    async def resolve(self, turn: Turn, body: dict, tools: list, ask: dict, messages: list[dict]) -> dict:
        advice = (await turn.cloud({"messages": messages})).get("content") or ""
        followup = [*(body.get("messages") or []), {"role": "assistant", "content": None, "tool_calls": [ask]},
                    {"role": "tool", "tool_call_id": ask["id"], "content": advice}]
        return await turn.edge({**body, "messages": followup, "tools": tools})


def arguments(call: dict) -> dict:
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
