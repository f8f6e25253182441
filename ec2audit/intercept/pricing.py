"""USD cost of a cloud call from its usage and `pricing.toml` (package data, overridable per file)."""

from __future__ import annotations

import logging
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.intercept.usage import Usage, parse_usage

log = logging.getLogger("ec2audit.intercept")

_DATE_SUFFIX = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8})$")
_PRICE_KEYS = ("input", "cached_input", "output", "cache_write")


@dataclass(frozen=True, slots=True)
class Rate:
    """USD per million tokens."""

    input: float
    cached_input: float
    output: float
    cache_write: float | None = None
    above: int = 0


@dataclass(frozen=True)
class ModelPrice:
    rates: tuple[Rate, ...]  # ascending by `above`; the base rate has above = 0

    def rate(self, prompt_tokens: int) -> Rate:
        return [r for r in self.rates if prompt_tokens > r.above or r.above == 0][-1]


def _rate(data: dict, where: str, file: str, above: int = 0) -> Rate:
    try:
        values = {k: float(data[k]) for k in _PRICE_KEYS if k in data}
        return Rate(values["input"], values.get("cached_input", values["input"]), values["output"],
                    values.get("cache_write"), above)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"needs numeric input and output prices ({exc})", file=file, field=where) from None


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
            tiers = [_rate(t, f"{where}.tiers", file, int(t.get("above", 0))) for t in data.get("tiers", [])]
            table[name] = ModelPrice(tuple(sorted([_rate(data, where, file), *tiers], key=lambda r: r.above)))
    return table


class Pricing:
    """Looks a model up by name and prices a usage; unknown models cost None (warned once each)."""

    def __init__(self, path: str | Path | None = None):
        self.table = load_pricing(path)
        self._warned: set[str] = set()

    def lookup(self, model: str | None) -> ModelPrice | None:
        if not model:
            return None
        for name in (model, model.rsplit("/", 1)[-1]):
            for candidate in (name, _DATE_SUFFIX.sub("", name)):
                if candidate in self.table:
                    return self.table[candidate]
        return None

    def price(self, model: str | None, usage: Usage | None) -> float | None:
        if usage is None:
            return None
        entry = self.lookup(model)
        if entry is None:
            if model not in self._warned:
                self._warned.add(model)
                log.warning("no price for model %r: cost recorded as null (add it to a --pricing file)", model)
            return None
        rate = entry.rate(usage.input)
        uncached = max(usage.input - usage.cached - usage.cache_write, 0)
        write_rate = rate.cache_write if rate.cache_write is not None else rate.input
        return (uncached * rate.input + usage.cached * rate.cached_input + usage.cache_write * write_rate
                + usage.output * rate.output) / 1e6


_DEFAULT: Pricing | None = None


def price(model: str | None, usage: Usage | dict | None) -> float | None:
    """Cost in USD with the packaged table; `usage` may be a raw API usage object."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Pricing()
    if isinstance(usage, dict):
        usage = parse_usage(usage)
    return _DEFAULT.price(model, usage)
