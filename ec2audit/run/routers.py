"""Routers: which side (edge or cloud) answers — per episode (task-level) or per request (step-level).

Each kind is a `Router` subclass registered in `ROUTERS`; `parse_router` and the CLI help read it.

Task-level: `fixed:edge|cloud`, `random:P` (cloud with probability P, seeded by the episode id so runs
repeat), `llm` (the edge model rates the task's difficulty 1–10; ≥ 6 goes to the cloud), `learned:PATH`
(a classifier trained by `ec2audit router train`, RouteLLM-style, thresholded for a target cloud share).
Step-level: `entropy:TAU` (first-token entropy over the edge's top logprobs, GlimpRouter-style; above
τ goes to the cloud), `random:P` (the control at the same cloud-call rate) and `on-error` (the cloud
answers right after a failed tool call).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

from ec2audit.errors import InputError

SIDES = ("edge", "cloud")
_ERROR = re.compile(r"\b(error|failed|not found|no such file|denied|invalid|exception|traceback)\b", re.I)
_WORD = re.compile(r"\w+", re.U)


class EdgeProbe(Protocol):
    async def complete(self, body: dict, purpose: str) -> dict: ...


def _unit_random(key: str) -> float:
    return int(hashlib.sha256(key.encode()).hexdigest()[:12], 16) / 16**12


@dataclass
class Router:
    """One router kind. `level` says what it sees: `task` routes once on the instruction, `step` on
    every request body. `route()` returns a side (SIDES). A new kind is one `@register`ed subclass."""

    level: ClassVar[str]
    kind: ClassVar[str]
    usage: ClassVar[str]  # how it is written on the command line, e.g. `random:P`
    value: Any = None
    episode: str = ""

    @classmethod
    def parse(cls, arg: str, episode: str) -> Router:
        """From the text after `kind:`; ValueError/OSError when it is malformed."""
        if arg:
            raise ValueError(f"{cls.kind} takes no argument")
        return cls(None, episode)

    async def route(self, seen: Any, edge: EdgeProbe) -> str:
        raise NotImplementedError


#: level → kind → router class
ROUTERS: dict[str, dict[str, type[Router]]] = {"task": {}, "step": {}}


def register(cls: type[Router]) -> type[Router]:
    ROUTERS[cls.level][cls.kind] = cls
    return cls


@register
@dataclass
class FixedRouter(Router):
    level, kind, usage = "task", "fixed", "fixed:edge|cloud"

    @classmethod
    def parse(cls, arg: str, episode: str) -> Router:
        if arg not in SIDES:
            raise ValueError(f"side must be one of {', '.join(SIDES)}")
        return cls(arg, episode)

    async def route(self, seen: Any, edge: EdgeProbe) -> str:
        return str(self.value)


@register
@dataclass
class RandomTaskRouter(Router):
    """Cloud with probability P, seeded by the episode id so runs repeat."""

    level, kind, usage = "task", "random", "random:P"

    @classmethod
    def parse(cls, arg: str, episode: str) -> Router:
        return cls(_share(arg), episode)

    async def route(self, seen: Any, edge: EdgeProbe) -> str:
        return "cloud" if _unit_random(self.episode) < float(self.value) else "edge"


@register
@dataclass
class LlmRouter(Router):
    """The edge model rates the task's difficulty 1–10; ≥ 6 goes to the cloud."""

    level, kind, usage = "task", "llm", "llm"

    async def route(self, seen: Any, edge: EdgeProbe) -> str:
        body = {"messages": [
            {"role": "system", "content": "Rate how hard this task is for a small local model, from 1 "
                                          "(easy) to 10 (hard). Answer with the number only."},
            {"role": "user", "content": seen}], "max_tokens": 4, "temperature": 0}
        text = ((await edge.complete(body, "route"))["choices"][0]["message"].get("content") or "")
        found = re.search(r"\d+", text)
        return "cloud" if found and int(found.group(0)) >= 6 else "edge"


@register
@dataclass
class LearnedRouter(Router):
    """A classifier trained by `ec2audit router train`, thresholded for a target cloud share."""

    level, kind, usage = "task", "learned", "learned:PATH"
    model: dict = field(default_factory=dict)

    @classmethod
    def parse(cls, arg: str, episode: str) -> Router:
        return cls(arg, episode, json.loads(Path(arg).read_text(encoding="utf-8")))

    async def route(self, seen: Any, edge: EdgeProbe) -> str:
        return "cloud" if learned_score(self.model, seen) >= self.model["threshold"] else "edge"


@dataclass
class StepRouter(Router):
    """Step-level routers count the requests they have seen."""

    level = "step"
    step: int = 0


@register
@dataclass
class RandomStepRouter(StepRouter):
    """The control for entropy routing, at the same cloud-call rate."""

    kind, usage = "random", "random:P"

    @classmethod
    def parse(cls, arg: str, episode: str) -> Router:
        return cls(_share(arg), episode)

    async def route(self, seen: Any, edge: EdgeProbe) -> str:
        self.step += 1
        return "cloud" if _unit_random(f"{self.episode}/{self.step}") < float(self.value) else "edge"


@register
@dataclass
class OnErrorRouter(StepRouter):
    """The cloud answers right after a failed tool call."""

    kind, usage = "on-error", "on-error"

    async def route(self, seen: Any, edge: EdgeProbe) -> str:
        self.step += 1
        last = (seen.get("messages") or [{}])[-1]
        failed = last.get("role") == "tool" and _ERROR.search(str(last.get("content") or ""))
        return "cloud" if failed else "edge"


@register
@dataclass
class EntropyRouter(StepRouter):
    """First-token entropy over the edge's top logprobs (GlimpRouter-style); above τ goes to the cloud."""

    kind, usage = "entropy", "entropy:TAU"
    last_entropy: float | None = None

    @classmethod
    def parse(cls, arg: str, episode: str) -> Router:
        return cls(float(arg), episode)

    async def route(self, seen: Any, edge: EdgeProbe) -> str:
        self.step += 1
        probe = {k: v for k, v in seen.items() if k not in ("stream", "stream_options", "max_completion_tokens")}
        response = await edge.complete({**probe, "max_tokens": 1, "logprobs": True, "top_logprobs": 10}, "probe")
        self.last_entropy = first_token_entropy(response)
        return "cloud" if self.last_entropy > float(self.value) else "edge"


def first_token_entropy(response: dict) -> float:
    """Shannon entropy (nats) of the first generated token over the top logprobs, renormalised."""
    content = (((response.get("choices") or [{}])[0].get("logprobs") or {}).get("content")) or []
    if not content:
        return 0.0
    probs = [math.exp(t["logprob"]) for t in content[0].get("top_logprobs") or []]
    total = sum(probs)
    return -sum(p / total * math.log(p / total) for p in probs if p > 0) if total > 0 else 0.0


def features(text: str) -> list[str]:
    return sorted(set(w.lower() for w in _WORD.findall(text)))


def learned_score(model: dict, text: str) -> float:
    z = model["bias"] + sum(model["weights"].get(f, 0.0) for f in features(text))
    return 1 / (1 + math.exp(-z))


def train_learned(examples: list[tuple[str, int]], cloud_share: float, epochs: int = 200, lr: float = 0.5) -> dict:
    """Logistic regression on instruction words; label 1 = the edge alone failed where the cloud passed.

    The threshold is the score quantile that sends `cloud_share` of the training tasks to the cloud."""
    if not examples:
        raise InputError("no training examples: run edge-only and cloud-only on some tasks first")
    weights: dict[str, float] = {}
    bias = 0.0
    rows = [(features(text), label) for text, label in examples]
    for _ in range(epochs):
        for feats, label in rows:
            z = bias + sum(weights.get(f, 0.0) for f in feats)
            grad = 1 / (1 + math.exp(-z)) - label
            bias -= lr * grad / len(rows)
            for f in feats:
                weights[f] = weights.get(f, 0.0) - lr * grad / len(rows)
    model = {"weights": weights, "bias": bias, "threshold": 0.5}
    scores = sorted((learned_score(model, text) for text, _ in examples), reverse=True)
    keep = round(cloud_share * len(scores))
    model["threshold"] = scores[keep - 1] if keep > 0 else math.inf
    model["cloud_share"] = cloud_share
    return model


def parse_router(spec: str, episode: str = "", level: str = "task") -> Router:
    """`KIND[:ARG]` of a router registered at `level` (`task` or `step`), e.g. `fixed:cloud`, `entropy:1.5`."""
    kind, _, arg = spec.partition(":")
    cls = ROUTERS[level].get(kind)
    if cls is None:
        known = ", ".join(c.usage for c in ROUTERS[level].values())
        raise InputError(f"unknown {level}-level router {spec!r} (known: {known})", field="router")
    try:
        return cls.parse(arg, episode)
    except (ValueError, OSError) as exc:
        raise InputError(f"bad router {spec!r}: {exc}", field="router") from None


def _share(arg: str) -> float:
    value = float(arg)
    if not 0 <= value <= 1:
        raise ValueError("P must lie in 0..1")
    return value


def examples_from_runs(run_dirs: list[Path], instructions: dict[str, str]) -> list[tuple[str, int]]:
    """(instruction, label) per task seen with both baselines: 1 when cloud-only passed more often."""
    import polars as pl

    frames = []
    for run_dir in run_dirs:
        path = Path(run_dir) / "episodes.parquet"
        if not path.is_file():
            raise InputError("no episodes.parquet here: not a run folder", file=str(run_dir))
        frames.append(pl.read_parquet(path).select("task_id", "strategy", "passed"))
    rates = (pl.concat(frames).filter(pl.col("strategy").is_in(["edge-only", "cloud-only"]))
             .group_by("task_id", "strategy").agg(pl.col("passed").mean()))
    wide = rates.pivot(on="strategy", index="task_id", values="passed")
    if not {"edge-only", "cloud-only"} <= set(wide.columns):
        return []
    return [(instructions[row["task_id"]], int(row["cloud-only"] > row["edge-only"]))
            for row in wide.drop_nulls().iter_rows(named=True) if row["task_id"] in instructions]
