"""SWE-agent trajectories (`<instance>.traj`): `{trajectory, history, info, replay_config}`.

Each `trajectory` step that kept its `query` (the messages sent for that step, SWE-agent ≥ 1.0) is
one call with exactly those messages; otherwise `history` (every message, the model's included) is
read as a conversation, one call per assistant message. The model is `agent.model.name` of the
`replay_config` (a JSON string or object); usage is `info.model_stats` (per run, not per call: the
last call's).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from ec2audit.logs.base import OnError, load_json, make_payload, outline
from ec2audit.logs.messages import conversation_calls, normalize, provider_of, sources
from ec2audit.payloads import Payload, flatten

name = "swe-agent"


def sniff(path: Path, head: bytes) -> bool:
    keys = outline(head)
    return "trajectory" in keys and bool({"history", "info", "replay_config", "environment"} & keys) or (
        path.suffix == ".traj" and ("history.item.role" in keys or "trajectory.item.action" in keys))


def _model(document: dict) -> str | None:
    config = document.get("replay_config")
    if isinstance(config, str):
        try:
            config = json.loads(config)
        except json.JSONDecodeError:
            config = {}
    model = ((config or {}).get("agent") or {}).get("model") if isinstance(config, dict) else None
    return model.get("name") if isinstance(model, dict) else None


def _run_usage(document: dict) -> dict | None:
    """The run's tokens and cost (`info.model_stats`: `tokens_sent`, `tokens_received`, `instance_cost`,
    0 where LiteLLM had no price); None where it has none."""
    stats = (document.get("info") or {}).get("model_stats") if isinstance(document.get("info"), dict) else None
    if not isinstance(stats, dict):
        return None
    sent, received, cost = stats.get("tokens_sent"), stats.get("tokens_received"), stats.get("instance_cost")
    if not (isinstance(sent, int) and isinstance(received, int)):
        return None
    priced = float(cost) if isinstance(cost, int | float) and not isinstance(cost, bool) and cost > 0 else None
    return {"input_tokens": sent, "cached_tokens": 0, "output_tokens": received, "cost_usd": priced}


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    """The calls of a trajectory. SWE-agent keeps usage per run only: its totals are the last call's, the
    calls before it counted in them (0 tokens, $0 each), so a session's and a provider's sums are the run's."""
    document = load_json(path, on_error)
    if not isinstance(document, dict):
        return
    provider, model = provider_of(_model(document))
    session = path.name.removesuffix(".traj")
    steps = [s for s in document.get("trajectory") or [] if isinstance(s, dict)]
    if steps and all(isinstance(s.get("query"), list) for s in steps):
        calls = []
        for step, item in enumerate(steps, start=1):
            body = {"messages": [normalize(m) for m in item["query"] if isinstance(m, dict)]}
            calls.append(make_payload(pid=f"{session}#{step}", segments=flatten(body, "openai-chat"),
                                      session=session, step=step, api="openai-chat", provider=provider, model=model,
                                      timestamp=None, path=path, line=None, messages=sources(body["messages"])))
    else:
        calls = list(conversation_calls(document.get("history") or [], session=session, path=path, line=None,
                                        provider=provider, model=model))
    usage = _run_usage(document)
    if usage and calls and not any(c.meta.get("usage") for c in calls):
        for call in calls[:-1]:
            call.meta["usage"] = {"input_tokens": 0, "cached_tokens": 0, "output_tokens": 0, "cost_usd": 0.0,
                                  "priced": True}
        calls[-1].meta["usage"] = usage
    yield from calls
