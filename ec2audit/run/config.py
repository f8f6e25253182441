"""Run configuration from user input: `models.toml` (endpoints, parameter counts, prices) and task selectors.

`models.toml` has an `[edge]` and a `[cloud]` table with `url` ("oracle" for the scripted stand-in;
omit for the default: local llama.cpp edge, oracle cloud), `model`, `params` (for edge FLOPs),
`api_key_env` (the variable holding the key; keys never live in files), `constrain` (bind the edge's
reply to a JSON schema of the tools) and `pricing` (a price table in the interceptor's layout).
"""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import fields
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.run.scheduler import ModelSpec
from ec2audit.tasks import SCENARIOS, Task

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
