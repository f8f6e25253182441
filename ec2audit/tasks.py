"""Executable workspace tasks (docs/design.md §1): the model, the loader for `tasks/` and the checker call.

A task lives in `tasks/<scenario>/<task_id>/`: `task.toml` (metadata, instruction, weighted criteria),
`workspace/` (the files the agent starts with), `units.jsonl` (sensitive units with source spans),
`check.py` (`check(workspace, service_log) -> {criterion: bool | float}`), `oracle.json` (a solution
as OpenClaw tool calls) and optionally `service.py` (`create_app(log_path)`, a mock HTTP service).
Every loading error names the file and the key, so a broken task says exactly what to fix.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import ModuleType

from ec2audit import resources
from ec2audit.errors import InputError
from ec2audit.units import Unit, read_units

SCENARIOS = ("office", "search", "security", "devops", "data", "automation")
LANGUAGES = ("en", "zh")
#: OpenClaw's tool vocabulary and the arguments each call must carry.
ORACLE_TOOLS = {"read": ("path",), "write": ("path", "content"), "edit": ("path", "edits"), "exec": ("command",)}


@dataclass(frozen=True)
class Criterion:
    key: str
    weight: float
    description: str
    gate: bool = False  # a hard gate (AceBench `**HARD GATE**`): the task fails when this criterion fails


@dataclass(frozen=True)
class CheckResult:
    """Completion is the weighted sum of the criteria (each a bool or a score in 0..1)."""

    completion: float
    criteria: dict[str, bool | float]


def load_module(name: str, path: Path) -> ModuleType:
    """Import a task's own Python file (its `check.py`, its mock `service.py`) under `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError("not a Python module", file=str(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Task:
    id: str
    scenario: str
    title: str
    language: str
    instruction: str
    timeout: int
    privacy_note: str | None
    criteria: list[Criterion]
    dir: Path | None = None
    units: list[Unit] = field(default_factory=list)
    oracle: dict | None = None
    service: Path | None = None
    #: Host folders the task's tools need, bound read-only into the episode sandbox at the same path.
    sandbox_paths: list[str] = field(default_factory=list)
    #: Whatever a source format carries beyond the common fields (e.g. AceBench's grading code).
    meta: dict = field(default_factory=dict)

    @property
    def workspace(self) -> Path | None:
        return self.dir / "workspace" if self.dir else None

    @property
    def annotated(self) -> bool:
        return bool(self.privacy_note)

    @property
    def family(self) -> str:
        """The family that generated the task, read from its id `<scenario>-<family>-<seed>` (an id without a
        numeric seed is a family of its own)."""
        stem = self.id.removeprefix(f"{self.scenario}-")
        head, _, seed = stem.rpartition("-")
        return head if head and seed.isdigit() else stem

    @property
    def service_routes(self) -> list[str]:
        """The mock service's top-level routes (`/crm`, `/kb`…), read from its source without starting it."""
        if self.service is None:
            return []
        return list(dict.fromkeys(re.findall(r'Route\(\s*"(/[^/"{]*)', self.service.read_text(encoding="utf-8"))))

    def check(self, workspace_dir: str | Path, service_log_path: str | Path | None = None) -> CheckResult:
        """Score a final workspace (and the mock service's log) with the task's `check.py`."""
        checker = self.dir / "check.py" if self.dir else None
        if checker is None or not checker.is_file():
            raise InputError("this task has no check.py", file=str(checker or self.id))
        module = load_module(f"ec2audit_check_{self.id.replace('-', '_')}", checker)
        log = Path(service_log_path) if service_log_path else None
        raw = module.check(Path(workspace_dir), log)
        keys = {c.key for c in self.criteria}
        if set(raw) != keys:
            raise InputError(f"check() returned keys {sorted(raw)}, criteria are {sorted(keys)}",
                             file=str(checker), field="criteria")
        scores = {k: float(v) for k, v in raw.items()}
        if any(not 0.0 <= s <= 1.0 for s in scores.values()):
            raise InputError(f"criterion scores must lie in 0..1: {scores}", file=str(checker))
        completion = sum(c.weight * scores[c.key] for c in self.criteria)
        return CheckResult(round(completion, 6), dict(raw))


def _require(data: dict, key: str, kind: type | tuple, file: Path, optional: bool = False):
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise InputError(f"missing or not a {expected}", file=str(file), field=key)
    return value


def parse_criteria(items, file: Path) -> list[Criterion]:
    """Weighted criteria: unique keys, positive weights summing to 1."""
    if not isinstance(items, list) or not items:
        raise InputError("expected a non-empty list of [[criteria]] tables", file=str(file), field="criteria")
    criteria = []
    for i, item in enumerate(items):
        where = f"criteria[{i}]"
        if not isinstance(item, dict):
            raise InputError("expected a table", file=str(file), field=where)
        key = item.get("key")
        if not isinstance(key, str) or not key:
            raise InputError("missing key", file=str(file), field=f"{where}.key")
        weight = item.get("weight")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight <= 0:
            raise InputError("weight must be a positive number", file=str(file), field=f"{where}.weight")
        criteria.append(Criterion(key, float(weight), str(item.get("description", ""))))
    keys = [c.key for c in criteria]
    if len(set(keys)) != len(keys):
        raise InputError(f"duplicate criterion keys in {keys}", file=str(file), field="criteria")
    total = sum(c.weight for c in criteria)
    if not math.isclose(total, 1.0, abs_tol=1e-6):
        raise InputError(f"weights sum to {total:g}, not 1", file=str(file), field="criteria")
    return criteria


def _safe_relative(path: str) -> bool:
    p = PurePosixPath(path)
    return bool(path) and not p.is_absolute() and ".." not in p.parts


def parse_oracle(path: Path) -> dict:
    """`oracle.json`: `{"steps": [{"tool", "arguments"}], "final": str}` with workspace-relative paths."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read oracle: {exc}", file=str(path)) from None
    steps = data.get("steps") if isinstance(data, dict) else None
    if not isinstance(steps, list) or not steps:
        raise InputError("expected a non-empty 'steps' list", file=str(path), field="steps")
    if not isinstance(data.get("final"), str):
        raise InputError("missing final message", file=str(path), field="final")
    for i, step in enumerate(steps):
        where = f"steps[{i}]"
        tool = step.get("tool") if isinstance(step, dict) else None
        if tool not in ORACLE_TOOLS:
            raise InputError(f"unknown tool {tool!r} (known: {', '.join(ORACLE_TOOLS)})", file=str(path),
                             field=f"{where}.tool")
        args = step.get("arguments")
        if not isinstance(args, dict):
            raise InputError("expected an object", file=str(path), field=f"{where}.arguments")
        for key in ORACLE_TOOLS[tool]:
            if key not in args:
                raise InputError(f"'{tool}' needs '{key}'", file=str(path), field=f"{where}.arguments.{key}")
        for key in ("path", "workdir"):
            if key in args and not _safe_relative(args[key]):
                raise InputError("paths must be relative to the workspace", file=str(path),
                                 field=f"{where}.arguments.{key}")
    return data


def load_task(task_dir: str | Path) -> Task:
    """Load one task folder; raises InputError naming the file and key at the first problem."""
    task_dir = Path(task_dir)
    toml_path = task_dir / "task.toml"
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("missing task.toml", file=str(toml_path)) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"cannot read task.toml: {exc}", file=str(toml_path)) from None
    task_id = _require(data, "id", str, toml_path)
    if task_id != task_dir.name:
        raise InputError(f"id '{task_id}' differs from the folder name '{task_dir.name}'", file=str(toml_path),
                         field="id")
    scenario = _require(data, "scenario", str, toml_path)
    if scenario not in SCENARIOS:
        raise InputError(f"unknown scenario '{scenario}' (known: {', '.join(SCENARIOS)})", file=str(toml_path),
                         field="scenario")
    language = _require(data, "language", str, toml_path)
    if language not in LANGUAGES:
        raise InputError(f"language must be one of {', '.join(LANGUAGES)}", file=str(toml_path), field="language")
    timeout = _require(data, "timeout", int, toml_path)
    if timeout <= 0:
        raise InputError("timeout must be positive (seconds)", file=str(toml_path), field="timeout")
    privacy_note = _require(data, "privacy_note", str, toml_path, optional=True)
    sandbox_paths = _require(data, "sandbox_paths", list, toml_path, optional=True) or []
    for path in sandbox_paths:
        if not isinstance(path, str) or not path.startswith("/"):
            raise InputError(f"{path!r} is not an absolute folder path", file=str(toml_path), field="sandbox_paths")
    task = Task(
        id=task_id, scenario=scenario, title=_require(data, "title", str, toml_path), language=language,
        instruction=_require(data, "instruction", str, toml_path), timeout=timeout, privacy_note=privacy_note,
        criteria=parse_criteria(data.get("criteria"), toml_path), dir=task_dir, sandbox_paths=sandbox_paths,
    )
    if not (task_dir / "workspace").is_dir():
        raise InputError("missing workspace/ folder", file=str(task_dir / "workspace"))
    if not (task_dir / "check.py").is_file():
        raise InputError("missing check.py", file=str(task_dir / "check.py"))
    task.oracle = parse_oracle(task_dir / "oracle.json")
    units_path = task_dir / "units.jsonl"
    if units_path.is_file():
        task.units = read_units(units_path)
        for unit in task.units:
            if unit.task_id != task_id:
                raise InputError(f"unit task_id '{unit.task_id}' is not '{task_id}'", file=str(units_path),
                                 field="task_id")
    if bool(task.units) != bool(privacy_note):
        raise InputError("a task has a privacy_note exactly when it has units in units.jsonl",
                         file=str(toml_path), field="privacy_note")
    service = task_dir / "service.py"
    task.service = service if service.is_file() else None
    return task


def load_suite(root: str | Path | None = None, scenario: str | None = None) -> list[Task]:
    """Every task under `root` (folders `<scenario>/<id>/` holding a task.toml; default: the shipped suite),
    sorted by id."""
    root = Path(root) if root else resources.data("tasks")
    if not root.is_dir():
        raise InputError("no such task folder", file=str(root))
    tomls = [p for p in sorted(root.glob("*/*/task.toml")) if not p.parts[-3].startswith("_")]
    tasks = [load_task(p.parent) for p in tomls]
    ids = [t.id for t in tasks]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise InputError(f"duplicate task ids: {', '.join(duplicates)}", file=str(root))
    for toml, task in zip(tomls, tasks, strict=True):
        if toml.parts[-3] != task.scenario:
            raise InputError(f"task is filed under '{toml.parts[-3]}/'", file=str(toml), field="scenario")
    tasks = [t for t in tasks if scenario is None or t.scenario == scenario]
    return sorted(tasks, key=lambda t: t.id)


def find_task(task_id: str, root: str | Path | None = None) -> Task:
    for task in load_suite(root):
        if task.id == task_id:
            return task
    raise InputError(f"no task '{task_id}'", file=str(root or resources.data("tasks")))


def unit_problems(task: Task) -> list[str]:
    """Units whose value does not occur exactly at their source span in the workspace."""
    workspace = task.workspace
    if workspace is None:
        return [f"{unit.id}: the task has no workspace" for unit in task.units]
    problems, texts = [], {}
    for unit in task.units:
        if unit.source is None:
            problems.append(f"{unit.id}: no source span")
            continue
        path = workspace / unit.source.file
        if unit.source.file not in texts:
            texts[unit.source.file] = path.read_text(encoding="utf-8") if path.is_file() else None
        text = texts[unit.source.file]
        if text is None:
            problems.append(f"{unit.id}: source file {unit.source.file} not in the workspace")
        elif text[unit.source.start:unit.source.end] != unit.value:
            found = text[unit.source.start:unit.source.end]
            problems.append(f"{unit.id}: span {unit.source.start}-{unit.source.end} holds {found!r}, "
                            f"not {unit.value!r}")
    return problems
