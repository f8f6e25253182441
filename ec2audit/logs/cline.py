"""Cline's (and Roo Code's) task folders (`…/globalStorage/saoudrizwan.claude-dev/tasks/<task id>/`).

`api_conversation_history.json` is the conversation as sent to the model (Anthropic's message shape): one call per
assistant message, its request every message before it. Its usage is not there but in `ui_messages.json` beside
it: each request's `api_req_started` message holds, as JSON text, `tokensIn`, `tokensOut`, `cacheWrites`,
`cacheReads` and the `cost` Cline worked out, given to the assistant messages in order (a request cancelled before
its answer was saved leaves the last without usage). Each request was served by the model and provider the
message's `modelInfo` names (later Cline), else by those `task_metadata.json`'s `model_usage` says served the task
from before its time (`ts`: a task switches with the user's model, and between Plan and Act when each has its
own); `ollama` and `lmstudio` are edge. `tokensIn` is the prompt without the cache as Anthropic counts it, but the
whole `prompt_tokens` (its cached tokens in it) for the providers whose handler passes an OpenAI-compatible usage
on as it is (`OPENAI_STYLE`: Cline's `openai.ts`, `xai.ts`, …): there the cache is taken out of it. Where such a
handler states no cost, Cline's is Anthropic's formula on that `tokensIn`, which bills the cached tokens twice:
with a cache, that cost is left out and the tokens priced. The task is the session: its folder's name. The two
sidecars are read with the conversation, not as logs of their own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs.base import OnError, load_json
from ec2audit.logs.messages import conversation_calls
from ec2audit.payloads import Payload

name = "cline"
CONVERSATION = "api_conversation_history.json"
_SIDECARS = ("ui_messages.json", "task_metadata.json")
#: Cline's providers (`model_provider_id`) whose `tokensIn` holds the cached tokens too (`prompt_tokens` as the
#: API counts it; cline/cline `src/core/api/providers/*.ts`, v3.x).
OPENAI_STYLE = frozenset({
    "openai", "litellm", "xai", "fireworks", "lmstudio", "zai", "qwen", "qwen-code", "doubao", "hicap", "oca",
    "requesty", "sapaicore", "together", "mistral", "sambanova", "nebius", "cerebras", "baseten", "huawei-cloud-maas",
    "wandb", "nousresearch", "ollama"})
#: Those of them whose handler states the call's cost (Cline's own, worked out on the uncached prompt).
_STATE_COST = frozenset({"litellm", "oca", "requesty", "cerebras", "baseten"})


def sniff(path: Path, head: bytes) -> bool:
    return path.name == CONVERSATION and head.lstrip()[:1] == b"["


def owner(path: Path) -> Path | None:
    """The conversation a sidecar (`ui_messages.json`, `task_metadata.json`) is read with; None for other files."""
    if path.name not in _SIDECARS:
        return None
    conversation = path.with_name(CONVERSATION)
    return conversation if conversation.is_file() else None


def companions(path: Path) -> list[Path]:
    return [p for p in (path.with_name(n) for n in _SIDECARS) if p.is_file()]


def _models(path: Path, on_error: OnError) -> list[tuple[float, str | None, str | None]]:
    """`task_metadata.json`'s `model_usage`: from when (`ts`) each model and its provider's id served the task
    (a task switches with the user's model, and between Plan and Act when each has its own)."""
    meta_path = path.with_name("task_metadata.json")
    meta = load_json(meta_path, on_error) if meta_path.is_file() else None
    used = meta.get("model_usage") if isinstance(meta, dict) else None
    found = []
    for entry in used if isinstance(used, list) else []:
        if isinstance(entry, dict):
            ts, model, provider = entry.get("ts"), entry.get("model_id"), entry.get("model_provider_id")
            found.append((ts if isinstance(ts, int | float) else 0.0, model if isinstance(model, str) and model
                          else None, provider if isinstance(provider, str) and provider else None))
    return found


def _serving(models: list[tuple[float, str | None, str | None]], ts: object) -> tuple[str | None, str | None]:
    """The model and provider serving a request sent at `ts`: the last to start before it (the first, before
    any; the last, for a request without a time)."""
    if not models:
        return None, None
    when = ts if isinstance(ts, int | float) else float("inf")
    _, model, provider = next((m for m in reversed(models) if m[0] <= when), models[0])
    return model, provider


def _usages(path: Path, on_error: OnError,
            models: list[tuple[float, str | None, str | None]]) -> list[tuple[dict, str | None, str | None]]:
    """Each request's usage from `ui_messages.json`, in order, in the shape `normalize_usage` reads (OpenClaw's:
    prompt without the cache, and Cline's cost), as the provider serving it counts it, with its model and
    provider."""
    ui = path.with_name("ui_messages.json")
    messages = load_json(ui, on_error) if ui.is_file() else None
    found = []
    for number, message in enumerate(messages if isinstance(messages, list) else [], start=1):
        if not isinstance(message, dict) or message.get("say") != "api_req_started":
            continue
        try:
            info = json.loads(message.get("text") or "")
        except (json.JSONDecodeError, TypeError):
            on_error(InputError("api_req_started without its JSON", file=str(ui), line=number, field="text"))
            continue
        if isinstance(info, dict) and ("tokensIn" in info or "tokensOut" in info):
            model, provider = _serving(models, message.get("ts"))
            said = message.get("modelInfo")  # later Cline: the model and provider the message was said under
            if isinstance(said, dict) and isinstance(said.get("modelId"), str):
                model, provider = said["modelId"], said.get("providerId") or provider
            cost, tokens_in = info.get("cost"), info.get("tokensIn")
            cache = sum(n for n in (info.get("cacheReads"), info.get("cacheWrites")) if isinstance(n, int))
            if provider in OPENAI_STYLE and isinstance(tokens_in, int):
                tokens_in = max(0, tokens_in - cache)
                cost = cost if provider in _STATE_COST or not cache else None
            found.append(({"input": tokens_in, "output": info.get("tokensOut"),
                           "cacheRead": info.get("cacheReads"), "cacheWrite": info.get("cacheWrites"),
                           "cost": {"total": cost} if isinstance(cost, int | float) else None}, model, provider))
    return found


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    messages = load_json(path, on_error)
    if not isinstance(messages, list):
        if messages is not None:
            on_error(InputError("expected a list of messages", file=str(path)))
        return
    models = _models(path, on_error)
    last_model, last_provider = _serving(models, None)
    found = _usages(path, on_error, models)
    # a call's provider, by the model it names
    providers = {model: provider for _, model, provider in models} | {m: p for _, m, p in found if m}
    usages = iter(found)
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "assistant":
            usage, model, _ = next(usages, (None, None, None))
            if usage is not None:
                message["usage"], message["model"] = usage, model or last_model
    for payload in conversation_calls(messages, session=path.parent.name, path=path, line=None,
                                      provider=last_provider, model=last_model):
        payload.meta["provider"] = providers.get(payload.model, last_provider)
        yield payload
