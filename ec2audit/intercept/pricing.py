"""USD cost of a cloud call from its usage: `pricing.toml` (package data, overridable per file) first,
then LiteLLM's maintained price map.

LiteLLM ships `model_prices_and_context_window_backup.json` (thousands of models of every major
provider, updated with each release; pinned in pyproject). It is read as data, from the installed
distribution's files: the `litellm` package itself is never imported. Names are matched exactly,
as `provider/model` for the provider the upstream URL belongs to, or without a `provider/` prefix or
a date suffix; a model found nowhere costs None (warned once), never a near name's price. A call served at
another service tier than the default (OpenAI's `flex`, `priority`; `batch`, a Batch API's call) is priced at that
tier's rates (LiteLLM's `*_flex` / `*_priority` / `*_batches` keys, a price table's `service_tier.NAME`); a model
without them for its tier costs None (warned once), never the default rate.
"""

from __future__ import annotations

import json
import logging
import re
import tomllib
import urllib.parse
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata, resources
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.intercept.usage import DEFAULT_TIER, Usage, parse_usage

log = logging.getLogger("ec2audit.intercept")

_DATE_SUFFIX = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8})$")
_PRICE_KEYS = ("input", "cached_input", "output", "cache_write", "cache_write_1h")
LITELLM_MAP = "litellm/model_prices_and_context_window_backup.json"
_ABOVE = re.compile(r"^input_cost_per_token_above_(\d+)k_tokens$")
#: The service tiers LiteLLM's map prices apart → the suffix of its keys (`input_cost_per_token_flex`); the Batch
#: APIs' calls (`batch`, `logs.batch_api`) at its `_batches` prices.
_LITELLM_TIERS = {"flex": "_flex", "priority": "_priority", "batch": "_batches"}
#: Upstream hosts → the provider prefix LiteLLM's map files their prices under.
_PROVIDERS = {"api.openai.com": "openai", "api.anthropic.com": "anthropic",
              "generativelanguage.googleapis.com": "gemini", "api.deepseek.com": "deepseek",
              "dashscope.aliyuncs.com": "dashscope", "dashscope-intl.aliyuncs.com": "dashscope",
              "api.mistral.ai": "mistral", "api.x.ai": "xai", "api.moonshot.ai": "moonshot",
              "api.moonshot.cn": "moonshot", "api.groq.com": "groq", "openrouter.ai": "openrouter",
              "api.together.xyz": "together_ai", "api.fireworks.ai": "fireworks_ai"}
#: Vertex AI's host, after a region in most of its URLs: LiteLLM files its prices (Claude's
#: `vertex_ai/claude-sonnet-4-5@20250929`, as Vertex's paths name it) under `vertex_ai`.
_VERTEX = "aiplatform.googleapis.com"


@dataclass(frozen=True, slots=True)
class Rate:
    """USD per million tokens."""

    input: float
    cached_input: float
    output: float
    cache_write: float | None = None
    above: int = 0
    cache_write_1h: float | None = None


@dataclass(frozen=True)
class ModelPrice:
    rates: tuple[Rate, ...]  # ascending by `above`; the base rate has above = 0
    web_search: float = 0.0  # USD per server-side web search (`web_search` in a price table; LiteLLM's per query)
    service_tiers: dict[str, tuple[Rate, ...]] = field(default_factory=dict)  # `flex`, `priority`: their rates

    def rate(self, prompt_tokens: int, tier: str = DEFAULT_TIER) -> Rate | None:
        """The rate of a prompt this long at `tier`; None where the model has no price at that tier."""
        rates = self.rates if tier == DEFAULT_TIER else self.service_tiers.get(tier)
        return None if rates is None else [r for r in rates if prompt_tokens > r.above or r.above == 0][-1]


def _rate(data: dict, where: str, file: str, above: int = 0) -> Rate:
    try:
        values = {k: float(data[k]) for k in _PRICE_KEYS if k in data}
        return Rate(values["input"], values.get("cached_input", values["input"]), values["output"],
                    values.get("cache_write"), above, values.get("cache_write_1h"))
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"needs numeric input and output prices ({exc})", file=file, field=where) from None


def _rates(data: dict, where: str, file: str) -> tuple[Rate, ...]:
    """A price table's rates of one model (or one of its service tiers): the base, and its `tiers` by length."""
    tiers = [_rate(t, f"{where}.tiers", file, int(t.get("above", 0))) for t in data.get("tiers", [])]
    return tuple(sorted([_rate(data, where, file), *tiers], key=lambda r: r.above))


def _service_tiers(data: object, where: str, file: str) -> dict[str, tuple[Rate, ...]]:
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise InputError("service_tier needs a table of prices per tier", file=file, field=f"{where}.service_tier")
    return {tier: _rates(rates, f"{where}.service_tier.{tier}", file) for tier, rates in data.items()}


def _web_search(value: object, where: str, file: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return float(value)
    raise InputError("web_search needs a price in USD per search", file=file, field=f"{where}.web_search")


def load_pricing(path: str | Path | None = None) -> dict[str, ModelPrice]:
    """The packaged table, with the models of `path` (same layout) added or replacing packaged ones."""
    sources = [("ec2audit/intercept/pricing.toml",
                resources.files("ec2audit.intercept").joinpath("pricing.toml").read_text(encoding="utf-8"))]
    if path is not None:
        try:
            sources.append((str(path), Path(path).read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read price table: {exc}", file=str(path)) from None
    table: dict[str, ModelPrice] = {}
    for file, text in sources:
        try:
            models = tomllib.loads(text).get("models", {})
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"not valid TOML ({exc})", file=file) from None
        for name, data in models.items():
            where = f"models.{name}"
            table[name] = ModelPrice(_rates(data, where, file), _web_search(data.get("web_search", 0.0), where, file),
                                     _service_tiers(data.get("service_tier", {}), where, file))
    return table


def _litellm_price(entry: dict) -> ModelPrice | None:
    """LiteLLM's per-token prices (and their `_above_NNNk_tokens` tiers), at each service tier (`_flex`,
    `_priority` after them), as a ModelPrice."""
    def per_million(key: str, suffix: str = "") -> float | None:
        value = entry.get(key + suffix)
        return value * 1e6 if isinstance(value, int | float) and not isinstance(value, bool) else None

    def rate(suffix: str, above: int) -> Rate | None:
        price_in, price_out = per_million("input_cost_per_token", suffix), per_million("output_cost_per_token", suffix)
        if price_in is None or price_out is None:
            return None
        cached = per_million("cache_read_input_token_cost", suffix)
        return Rate(price_in, price_in if cached is None else cached, price_out,
                    per_million("cache_creation_input_token_cost", suffix), above,
                    per_million("cache_creation_input_token_cost_above_1hr", suffix))

    def rates(served: str) -> tuple[Rate, ...] | None:
        base = rate(served, 0)
        if base is None:
            return None
        tiers = [rate(f"_above_{m.group(1)}k_tokens{served}", int(m.group(1)) * 1000)
                 for m in filter(None, map(_ABOVE.match, entry))]
        return tuple(sorted([base, *filter(None, tiers)], key=lambda r: r.above))

    default = rates("")
    if default is None:
        return None
    served = {tier: found for tier, suffix in _LITELLM_TIERS.items() if (found := rates(suffix)) is not None}
    searches = entry.get("search_context_cost_per_query")
    search = searches.get("search_context_size_medium") if isinstance(searches, dict) else None
    return ModelPrice(default, float(search) if isinstance(search, int | float) and not isinstance(search, bool)
                      else 0.0, served)


@cache
def litellm_prices() -> dict[str, ModelPrice]:
    """LiteLLM's price map from the installed `litellm` distribution; empty (warned) if it is missing."""
    try:
        files = metadata.files("litellm") or []
        path = next(f for f in files if str(f) == LITELLM_MAP)
        data = json.loads(path.read_text(encoding="utf-8"))
    except (metadata.PackageNotFoundError, StopIteration, OSError, ValueError) as exc:
        log.warning("LiteLLM's price map is not available (%s): only pricing.toml prices models",
                    type(exc).__name__)
        return {}
    table = {}
    for name, entry in data.items():
        price = _litellm_price(entry) if isinstance(entry, dict) else None
        if price is not None:
            table[name] = price
    return table


def _provider(upstream: str | None) -> str | None:
    host = urllib.parse.urlsplit(upstream or "").hostname or ""
    if host == _VERTEX or host.endswith("-" + _VERTEX):  # any region's: `us-east5-aiplatform.googleapis.com`
        return "vertex_ai"
    return _PROVIDERS.get(host)


def provider_prefix(base_url: str | None, provider: str | None = None) -> str | None:
    """The LiteLLM prefix a call's prices are filed under: its URL's host's, else its provider's name where
    LiteLLM files prices under it (`mistral`, `xai`, `moonshot`: many of their models only under the prefix)."""
    return _provider(base_url) or (provider if provider in _PROVIDERS.values() else None)


class Pricing:
    """Looks a model up by name and prices a usage; unknown models cost None (warned once each).
    `upstream` (the proxy's upstream URL) says whose price list a bare model name is looked up in."""

    def __init__(self, path: str | Path | None = None, upstream: str | None = None):
        self.table = load_pricing(path)
        self.sources = "ec2audit's pricing.toml" + (f", {path}" if path else "") + " and LiteLLM's price map"
        self.provider = _provider(upstream)
        self.shared = litellm_prices()  # read once, up front: not on the event loop at the first answer
        self._warned: set[tuple[str | None, str]] = set()  # per model and tier; a call without a model once too

    def lookup(self, model: str | None, provider: str | None = None) -> ModelPrice | None:
        """`provider`: the LiteLLM prefix of this call's provider, in place of the upstream's."""
        if not model:
            return None
        names = [model, model.rsplit("/", 1)[-1]]
        names += [_DATE_SUFFIX.sub("", n) for n in names]
        for name in dict.fromkeys(names):
            if name in self.table:
                return self.table[name]
        shared = self.shared
        provider = provider or self.provider
        if provider:  # Together's `meta-llama/Llama-3.3-70B-Instruct-Turbo` is `together_ai/meta-llama/…`
            names = [f"{provider}/{n}" for n in names if not n.startswith(f"{provider}/")] + names
        for name in dict.fromkeys(names):
            if name in shared:
                return shared[name]
        return None

    def priced(self, model: str | None, tier: str | None = None, provider: str | None = None) -> bool:
        """Whether the model has a price at the service tier (`tier` None: the default): a call of it left
        without a cost had its answer cut off, not its price missing."""
        entry = self.lookup(model, provider)
        return entry is not None and entry.rate(0, tier or DEFAULT_TIER) is not None

    def price(self, model: str | None, usage: Usage | None, provider: str | None = None) -> float | None:
        if usage is None:
            return None
        entry = self.lookup(model, provider)
        rate = None if entry is None else entry.rate(usage.input, usage.tier)
        if entry is None or rate is None:
            if (model, usage.tier) not in self._warned:
                self._warned.add((model, usage.tier))
                # named by where prices were looked for, not by an option: a log audit takes no price file
                tier = "" if entry is None else f" at the {usage.tier} service tier"
                log.warning("no price for model %r%s in %s: cost recorded as null", model, tier, self.sources)
            return None
        uncached = max(usage.input - usage.cached - usage.cache_write, 0)
        write_rate = rate.cache_write if rate.cache_write is not None else rate.input
        hour_rate = rate.cache_write_1h if rate.cache_write_1h is not None else write_rate
        written_5m = usage.cache_write - usage.cache_write_1h
        return (uncached * rate.input + usage.cached * rate.cached_input + written_5m * write_rate
                + usage.cache_write_1h * hour_rate + usage.output * rate.output) / 1e6 \
            + usage.web_searches * entry.web_search


_DEFAULT: Pricing | None = None


def price(model: str | None, usage: Usage | dict | None, provider: str | None = None) -> float | None:
    """Cost in USD with the packaged table; `usage` may be a raw API usage object; `provider` the LiteLLM
    prefix of the call's provider (`provider_prefix`)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Pricing()
    if isinstance(usage, dict):
        usage = parse_usage(usage)
    return _DEFAULT.price(model, usage, provider)
