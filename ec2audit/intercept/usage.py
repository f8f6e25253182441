"""Token usage from the APIs' usage objects (OpenAI Chat and Responses, Anthropic Messages, Gemini's
`usageMetadata`, Bedrock Converse), in one shape the price table reads, with the service tier that served it
(OpenAI's `service_tier`, Bedrock's `serviceTier`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

#: The tier of a call sent without one, or with `auto`, served at the standard rates (OpenAI's `service_tier`).
DEFAULT_TIER = "default"
#: The `service_tier` values billed at the standard rates: OpenAI's `auto` (its project's tier, the default
#: unless set), Anthropic's `standard_only` and its answers' `standard`, Groq's `on_demand`.
_STANDARD = frozenset({"auto", DEFAULT_TIER, "standard", "standard_only", "on_demand"})


@dataclass(frozen=True, slots=True)
class Usage:
    """`input` counts every prompt token (cached ones included); `cached` is the part read from cache."""

    input: int = 0
    cached: int = 0
    output: int = 0
    cache_write: int = 0
    cache_write_1h: int = 0  # the part of `cache_write` kept for an hour (Anthropic bills it at 2× input, not 1.25×)
    web_searches: int = 0  # server-side web searches, billed per search (`server_tool_use.web_search_requests`)
    tier: str = DEFAULT_TIER  # the service tier that served the call (`flex`: about half; `priority`: ~2×)


def _int(value) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def _output(usage: dict, prompt: int, key: str) -> int:
    """Output tokens, the thinking included: Gemini behind an OpenAI-compatible endpoint (and gateways
    translating it) leaves its thought tokens out of `completion_tokens` but counts them in
    `total_tokens`, and bills them as output. OpenAI's own totals are prompt + completion exactly."""
    output = _int(usage.get(key))
    return max(output, _int(usage.get("total_tokens")) - prompt)


def _web_searches(usage: dict) -> int:
    """Anthropic's web searches (`server_tool_use.web_search_requests`, also in LiteLLM's OpenAI-shaped usage of a
    Claude call): $10 per thousand besides the tokens."""
    tools = usage.get("server_tool_use")
    return _int(tools.get("web_search_requests")) if isinstance(tools, dict) else 0


def parse_usage(usage) -> Usage | None:
    """OpenAI Chat (`prompt_tokens`…, the gateways' cache writes within), Responses (`input_tokens`,
    `input_tokens_details`), Anthropic (`input_tokens` excluding cache reads and writes), Gemini
    (`promptTokenCount`…), Bedrock Converse (`inputTokens`…) or Ollama's native (`prompt_eval_count`,
    `eval_count`) usage; None when there is none."""
    if not isinstance(usage, dict):
        return None
    if "prompt_eval_count" in usage or "eval_count" in usage:  # Ollama's /api/chat and /api/generate
        return Usage(_int(usage.get("prompt_eval_count")), 0, _int(usage.get("eval_count")))
    if "promptTokenCount" in usage or "candidatesTokenCount" in usage:
        # Gemini: cached content is part of the prompt count; thoughts and tool-use prompts are billed
        # (as output and input) but counted apart from candidates and prompt
        prompt = _int(usage.get("promptTokenCount")) + _int(usage.get("toolUsePromptTokenCount"))
        output = _int(usage.get("candidatesTokenCount")) + _int(usage.get("thoughtsTokenCount"))
        return Usage(prompt, min(_int(usage.get("cachedContentTokenCount")), prompt), output)
    if "inputTokens" in usage or "outputTokens" in usage:
        # Bedrock Converse: like Anthropic's, `inputTokens` leaves out the cache's reads and writes
        read, write = _int(usage.get("cacheReadInputTokens")), _int(usage.get("cacheWriteInputTokens"))
        return Usage(_int(usage.get("inputTokens")) + read + write, read, _int(usage.get("outputTokens")), write)
    if "prompt_tokens" in usage:
        details = usage.get("prompt_tokens_details") or {}
        prompt = _int(usage.get("prompt_tokens"))
        # Claude behind LiteLLM (`cache_creation_tokens`, also top-level `cache_creation_input_tokens`) or
        # OpenRouter (`cache_write_tokens`): the tokens written to the cache are in `prompt_tokens`, billed at
        # the cache-write rate
        written = (_int(details.get("cache_creation_tokens")) or _int(details.get("cache_write_tokens"))
                   or _int(usage.get("cache_creation_input_tokens")))
        ttl = details.get("cache_creation_token_details")
        ttl = ttl if isinstance(ttl, dict) else {}
        # the reads likewise: `cached_tokens`, or LiteLLM's top-level `cache_read_input_tokens` alone, or
        # DeepSeek's `prompt_cache_hit_tokens` (its API's only cache count before `prompt_tokens_details`)
        read = (_int(details.get("cached_tokens")) or _int(usage.get("cache_read_input_tokens"))
                or _int(usage.get("prompt_cache_hit_tokens")))
        return Usage(prompt, min(read, prompt), _output(usage, prompt, "completion_tokens"),
                     min(written, prompt), min(_int(ttl.get("ephemeral_1h_input_tokens")), written),
                     _web_searches(usage))
    anthropic = {"cache_read_input_tokens", "cache_creation_input_tokens"} & usage.keys()
    if "input_tokens_details" in usage or ("total_tokens" in usage and not anthropic):
        details = usage.get("input_tokens_details") or {}
        prompt = _int(usage.get("input_tokens"))
        return Usage(prompt, _int(details.get("cached_tokens")), _output(usage, prompt, "output_tokens"))
    if "input_tokens" in usage or "output_tokens" in usage:
        read, write = _int(usage.get("cache_read_input_tokens")), _int(usage.get("cache_creation_input_tokens"))
        ttl = usage.get("cache_creation")
        ttl = ttl if isinstance(ttl, dict) else {}
        prompt = _int(usage.get("input_tokens")) + read + write  # a gateway's `total_tokens` counts them all
        return Usage(prompt, read, _output(usage, prompt, "output_tokens"), write,
                     min(_int(ttl.get("ephemeral_1h_input_tokens")), write), _web_searches(usage))
    return None


def billed_cost(usage: object) -> float | None:
    """What the call cost as the API's usage says it (OpenRouter's usage accounting: `cost`, the USD it charged, 0
    for a free model; with the user's own provider key, `is_byok`, its fee, the provider's bill beside it in
    `cost_details.upstream_inference_cost`); None where it does not say. The proxy and the log audit both take it
    before any price list: it is the bill."""
    def number(value: object) -> float | None:
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0 else None

    if not isinstance(usage, dict):
        return None
    cost = number(usage.get("cost"))
    details = usage.get("cost_details")
    upstream = number(details.get("upstream_inference_cost")) if isinstance(details, dict) else None
    if cost is None or (usage.get("is_byok") and upstream is None):
        return None
    return cost + (upstream or 0.0) if usage.get("is_byok") else cost


def _named_tier(body: object) -> str | None:
    """The tier a body names: OpenAI's `service_tier` (`"flex"`), or Bedrock Converse's `serviceTier`
    (`{"type": "flex"}` in its request and response; a bare string from SDKs that flatten it)."""
    if not isinstance(body, dict):
        return None
    tier = body.get("service_tier") or body.get("serviceTier")
    tier = tier.get("type") if isinstance(tier, dict) else tier
    return tier if isinstance(tier, str) and tier else None


def service_tier(*bodies: dict | None) -> str:
    """The tier a call was billed at (`_named_tier`), the first of `bodies` that names one, the response where it
    was recorded (the tier that served it: a request sent with `auto` is served at its project's), then the
    request; none or a standard one (`_STANDARD`): the default."""
    for body in bodies:
        if (tier := _named_tier(body)) is not None:
            return DEFAULT_TIER if tier in _STANDARD else tier
    return DEFAULT_TIER


def usage_object(response: dict) -> dict | None:
    """Where an answer's API puts its usage: `usage`, Gemini's `usageMetadata`, or Ollama's native answer itself
    (its counts beside the message, `prompt_eval_count` and `eval_count`)."""
    found = response.get("usage") or response.get("usageMetadata")
    if found is None and ("prompt_eval_count" in response or "eval_count" in response):
        return response
    return found if isinstance(found, dict) else None


def response_usage(response: dict, request: dict | None = None) -> Usage | None:
    """A whole answer's usage, where its API puts it (`usage_object`), at the tier that served it
    (`service_tier`)."""
    usage = parse_usage(usage_object(response))
    return None if usage is None else replace(usage, tier=service_tier(response, request))
