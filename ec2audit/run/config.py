"""Run configuration from user input: `models.toml` (endpoints, parameter counts, prices) and task selectors.

`models.toml` has an `[edge]` and a `[cloud]` table with `url` ("oracle" for the scripted stand-in;
omit for the default: local llama.cpp edge, oracle cloud), `model`, `params` (for edge FLOPs),
`api_key_env` (the variable holding the key; keys never live in files), `constrain` (bind the edge's
reply to a JSON schema of the tools) and `pricing` (a price table in the interceptor's layout).
`resolve_models` lays command-line values over that file; `preflight` refuses a run that cannot
work (OpenClaw missing, bad router, no sandbox) before anything is started.
"""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.run.episodes import EpisodeSpec
from ec2audit.run.routers import parse_router
from ec2audit.run.sandbox import Sandbox
from ec2audit.run.strategies import get_strategy
from ec2audit.tasks import SCENARIOS, Task

#: the router of each level when none is given
DEFAULT_ROUTERS = {"task": "random:0.5", "step": "entropy:1.5"}
ORACLE = "oracle"


@dataclass
class ModelSpec:
    """`url` None = the built-in default (local llama.cpp model for the edge, oracle stand-in for the cloud);
    `url` "oracle" = the oracle stand-in, "oracle:BEHAVIOUR" one of its variants. Keys come from
    `api_key_env`, never from files."""

    url: str | None = None
    model: str | None = None
    params: float | None = None
    api_key_env: str | None = None
    constrain: bool | None = None
    pricing: str | None = None


@dataclass
class RunConfig:
    tasks: list[Task]
    strategies: list[str]
    out: Path
    runs: int = 1
    router: str | None = None
    step_router: str | None = None
    cloud_contexts: list[str] = field(default_factory=lambda: ["full"])
    parallel: int = 1
    edge: ModelSpec = field(default_factory=ModelSpec)
    cloud: ModelSpec = field(default_factory=ModelSpec)
    sandbox: Sandbox | None = None
    timeout: int | None = None
    max_model_calls: int | None = None
    warm_start: bool = True  # False: OpenClaw's cold default, for before/after benchmarks
    warm_workers: bool = True  # one long-lived OpenClaw per scheduler thread (ec2audit/run/warm.py)

    def router_spec(self, level: str) -> str | None:
        """The router a strategy routed at `level` uses (None for `none`)."""
        given = {"task": self.router, "step": self.step_router}.get(level)
        return given or DEFAULT_ROUTERS.get(level)

    def specs(self) -> list[EpisodeSpec]:
        out = []
        for task in self.tasks:
            for name in self.strategies:
                strategy = get_strategy(name)
                router = self.router_spec(strategy.routed_by)
                contexts = self.cloud_contexts if strategy.asks_cloud else ["full"]
                for context in contexts:
                    for run in range(self.runs):
                        out.append(EpisodeSpec(task.id, name, run, router, context))
        return out


_KEYS = {f.name for f in fields(ModelSpec)}


def load_models(path: str | Path) -> tuple[ModelSpec, ModelSpec]:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"cannot read models file: {exc}", file=str(path)) from None
    specs = []
    for side in ("edge", "cloud"):
        table = data.get(side, {})
        if not isinstance(table, dict):
            raise InputError("expected a table", file=str(path), field=side)
        unknown = set(table) - _KEYS
        if unknown:
            raise InputError(f"unknown keys {sorted(unknown)} (known: {sorted(_KEYS)})", file=str(path), field=side)
        if "api_key" in table or "key" in table:
            raise InputError("keys never go in files: name the variable with api_key_env", file=str(path))
        if "params" in table:
            table["params"] = float(table["params"])
        specs.append(ModelSpec(**table))
    return specs[0], specs[1]


def select_tasks(suite: list[Task], selector: str) -> list[Task]:
    """Comma-separated: `all`, `annotated`, a scenario name, a task id, or a glob over task ids."""
    chosen: dict[str, Task] = {}
    for part in (p.strip() for p in selector.split(",") if p.strip()):
        if part == "all":
            matched = suite
        elif part == "annotated":
            matched = [t for t in suite if t.annotated]
        elif part in SCENARIOS:
            matched = [t for t in suite if t.scenario == part]
        else:
            matched = [t for t in suite if fnmatch.fnmatchcase(t.id, part)]
        if not matched:
            raise InputError(f"no task matches {part!r}", field="tasks")
        chosen.update((t.id, t) for t in matched)
    if not chosen:
        raise InputError("empty task selector", field="tasks")
    return list(chosen.values())


def is_oracle(url: str | None) -> bool:
    """`oracle` or `oracle:BEHAVIOUR` (wrong-tool, gives-up, delegating, snoop: the misbehaving variants)."""
    return bool(url) and str(url).partition(":")[0] == ORACLE


def resolve_models(path: str | Path | None, edge: dict, cloud: dict) -> tuple[ModelSpec, ModelSpec]:
    """`models.toml` (when given) with the command line's values (None = not given) laid over it."""
    edge_spec, cloud_spec = load_models(path) if path else (ModelSpec(), ModelSpec())
    edge_spec = replace(edge_spec, **{k: v for k, v in edge.items() if v is not None})
    cloud_spec = replace(cloud_spec, **{k: v for k, v in cloud.items() if v is not None})
    if cloud_spec.url and not is_oracle(cloud_spec.url) and not cloud_spec.model:
        raise InputError("a cloud URL needs a model name (--cloud-model)", field="cloud-model")
    return edge_spec, cloud_spec


def preflight(routers: dict[str, str | None], sandboxed: bool = True) -> Sandbox | None:
    """Check what a run needs before starting anything; returns the sandbox (None when not `sandboxed`).

    `routers` maps a level (`task`, `step`) to the router given for it."""
    from ec2audit.run.openclaw import OpenClawMissing, node_binary, openclaw_entry
    from ec2audit.run.sandbox import SandboxUnavailable, probe

    try:
        node_binary(), openclaw_entry()
    except OpenClawMissing as exc:
        raise InputError(str(exc)) from None
    for level, spec in routers.items():
        if spec:
            parse_router(spec, level=level)
    if not sandboxed:
        return None
    try:
        return probe()
    except SandboxUnavailable as exc:
        raise InputError(f"refusing to run OpenClaw unconfined: {exc}. Pass --no-sandbox to run anyway "
                         "(its exec tool then runs as you)") from None
