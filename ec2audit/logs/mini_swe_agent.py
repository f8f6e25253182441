"""mini-swe-agent trajectories (`<instance>.traj.json`, `trajectory_format: mini-swe-agent-1`):
`{info, messages}`, the model in `info.config.model.model_name` (LiteLLM's `provider/model`).
One call per assistant message, its request every message before it; each assistant message's
`extra.response.usage` gives its tokens.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ec2audit.logs.base import OnError, load_json, outline
from ec2audit.logs.messages import conversation_calls, provider_of
from ec2audit.payloads import Payload

name = "mini-swe-agent"


def sniff(path: Path, head: bytes) -> bool:
    keys = outline(head)
    return "trajectory_format" in keys or "info.mini_version" in keys or (
        "messages.item.role" in keys and "info.config" in keys)


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    document = load_json(path, on_error)
    if not isinstance(document, dict):
        return
    config = ((document.get("info") or {}).get("config") or {}) if isinstance(document.get("info"), dict) else {}
    provider, model = provider_of(((config.get("model") or {}) if isinstance(config, dict) else {}).get("model_name"))
    session = path.name.removesuffix(".json").removesuffix(".traj")
    yield from conversation_calls(document.get("messages") or [], session=session, path=path, line=None,
                                  provider=provider, model=model)
