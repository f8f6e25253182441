"""Import AceBench task Markdown (docs/design.md §4) into `Task` objects, for annotation and audit.

A file is YAML front matter (id, name, source, original_id, category, timeout_seconds, privacy_note,
agent_category) and `##`/`###` sections: Prompt, Expected Behavior, Privacy Expectations, Grading
Criteria (`- [ ] key (0.15): text`), Automated Checks (a python block), Workspace Path, Skills, Env,
Warmup. Units come from `gt/sensitive_items.json` beside the workspace. Whatever cannot be mapped is
reported as a `Problem`, never dropped silently. Running AceBench tasks needs their Docker image and
is out of scope: imported tasks carry no oracle and no checker.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ec2audit.errors import InputError
from ec2audit.tasks import Criterion, Task
from ec2audit.units import read_acebench

CATEGORIES = {
    "office & daily tasks": "office",
    "information search & gathering": "search",
    "safety & security": "security",
    "data analysis": "data",
    "development & operations": "devops",
    "automation": "automation",
}
SECTIONS = {
    "prompt": "prompt", "expected behavior": "expected_behavior", "privacy expectations": "privacy_expectations",
    "grading criteria": "grading_criteria", "automated checks": "automated_checks",
    "workspace path": "workspace_path", "skills": "skills", "env": "env", "warmup": "warmup",
}
FRONT_KEYS = ("id", "name", "source", "original_id", "category", "timeout_seconds", "privacy_note", "agent_category")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
_CRITERION = re.compile(r"^\s*[-*]\s*\[[ xX]?\]\s*([\w.-]+)\s*\(\s*([0-9]*\.?[0-9]+)\s*\)\s*:?\s*(.*)$")
_FENCE = re.compile(r"```[\w+-]*\n(.*?)```", re.S)
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class Problem:
    file: str
    message: str


@dataclass
class Imported:
    tasks: list[Task] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def _front_matter(text: str, file: str) -> tuple[dict, str]:
    if not text.startswith("---"):
        raise InputError("no YAML front matter (the file must start with ---)", file=file)
    end = text.find("\n---", 3)
    if end < 0:
        raise InputError("front matter is not closed by ---", file=file)
    try:
        data = yaml.safe_load(text[3:end]) or {}
    except yaml.YAMLError as exc:
        raise InputError(f"front matter is not valid YAML: {exc}", file=file) from None
    if not isinstance(data, dict):
        raise InputError("front matter must be a mapping", file=file)
    return data, text[end + 4:].split("\n", 1)[-1]


def _sections(body: str) -> tuple[dict[str, str], list[str]]:
    """Section text by our key, and the headings we do not know."""
    found, unknown = {}, []
    heads = list(_HEADING.finditer(body))
    for i, head in enumerate(heads):
        text = body[head.end():heads[i + 1].start() if i + 1 < len(heads) else len(body)].strip("\n")
        key = SECTIONS.get(head.group(2).strip().lower())
        if key:
            found[key] = text.strip()
        elif len(head.group(1)) <= 3 and text.strip():
            unknown.append(head.group(2).strip())
    return found, unknown


def _criteria(text: str, file: str, problems: list[Problem]) -> list[Criterion]:
    criteria = []
    for line in text.splitlines():
        if not line.strip():
            continue
        match = _CRITERION.match(line)
        if match:
            criteria.append(Criterion(match.group(1), float(match.group(2)), match.group(3).strip()))
        elif line.lstrip().startswith(("-", "*")):
            problems.append(Problem(file, f"grading line not in the form '- [ ] key (0.15): text': {line.strip()!r}"))
    total = sum(c.weight for c in criteria)
    if criteria and not math.isclose(total, 1.0, abs_tol=1e-6):
        problems.append(Problem(file, f"grading weights sum to {total:g}; normalised to 1"))
        criteria = [Criterion(c.key, c.weight / total, c.description) for c in criteria]
    return criteria


def _units_file(md: Path, task_id: str, workspace_path: str | None) -> Path | None:
    """`gt/sensitive_items.json` beside the workspace, in the task's folder, or beside the Markdown."""
    bases = []
    if workspace_path:
        ws = Path(workspace_path)
        ws = ws if ws.is_absolute() else md.parent / ws
        bases += [ws, ws.parent]
    bases += [md.parent / task_id, md.parent / md.stem, md.parent]
    for base in bases:
        candidate = base / "gt" / "sensitive_items.json"
        if candidate.is_file():
            return candidate
    return None


def parse_task_markdown(path: str | Path) -> tuple[Task, list[Problem]]:
    """One AceBench task file → Task (scenario from agent_category, units where found) and problems."""
    path = Path(path)
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", file=file) from None
    front, body = _front_matter(text, file)
    problems: list[Problem] = []
    task_id = str(front.get("id") or "").strip()
    if not task_id:
        raise InputError("missing id", file=file, field="id")
    for key in set(front) - set(FRONT_KEYS):
        problems.append(Problem(file, f"front matter key '{key}' is not mapped (kept in meta)"))
    sections, unknown = _sections(body)
    problems += [Problem(file, f"section '{h}' is not mapped") for h in unknown]
    if not sections.get("prompt"):
        raise InputError("missing '## Prompt' section", file=file, field="Prompt")
    category = str(front.get("agent_category") or "")
    scenario = CATEGORIES.get(category.strip().lower())
    if scenario is None:
        problems.append(Problem(file, f"agent_category {category!r} maps to no scenario (known: "
                                      f"{', '.join(CATEGORIES)}); scenario set to 'unknown'"))
    timeout = front.get("timeout_seconds")
    if not isinstance(timeout, int) or timeout <= 0:
        problems.append(Problem(file, f"timeout_seconds {timeout!r} is not a positive integer; using 600"))
        timeout = 600
    checks = sections.get("automated_checks", "")
    code = _FENCE.search(checks)
    if checks and not code:
        problems.append(Problem(file, "Automated Checks has no fenced code block"))
    workspace_path = (sections.get("workspace_path") or "").strip().strip("`").strip() or None
    privacy_note = front.get("privacy_note") or None
    task = Task(
        id=task_id, scenario=scenario or "unknown", title=str(front.get("name") or task_id),
        language="zh" if len(_CJK.findall(sections["prompt"])) > 10 else "en", instruction=sections["prompt"],
        timeout=timeout, privacy_note=str(privacy_note) if privacy_note else None,
        criteria=_criteria(sections.get("grading_criteria", ""), file, problems),
        meta={
            "format": "acebench", "file": file,
            **{k: front[k] for k in front if k not in ("id", "name", "timeout_seconds", "privacy_note")},
            "expected_behavior": sections.get("expected_behavior"),
            "privacy_expectations": sections.get("privacy_expectations"),
            "automated_checks": code.group(1) if code else None,
            "workspace_path": workspace_path,
            "skills": [s.strip("-* `").strip() for s in sections.get("skills", "").splitlines() if s.strip()],
            "env": sections.get("env"), "warmup": sections.get("warmup"),
        },
    )
    if not task.criteria:
        problems.append(Problem(file, "no grading criteria found"))
    units_file = _units_file(path, task_id, workspace_path)
    if units_file:
        task.units = read_acebench(units_file, task_id=task_id)
        task.meta["units_file"] = str(units_file)
    elif task.privacy_note:
        problems.append(Problem(file, "privacy_note is set but no gt/sensitive_items.json was found"))
    return task, problems


def import_acebench(path: str | Path) -> Imported:
    """Every task Markdown under `path` (or the one file); a file that cannot be parsed is a problem."""
    path = Path(path)
    files = [path] if path.is_file() else sorted(
        p for p in path.rglob("*.md")
        if p.name.lower() != "readme.md" and not {"workspace", "gt"} & set(p.relative_to(path).parts[:-1]))
    result = Imported()
    if not files:
        raise InputError("no task Markdown files found", file=str(path))
    for md in files:
        try:
            task, problems = parse_task_markdown(md)
        except InputError as exc:
            result.problems.append(Problem(str(md), str(exc).removeprefix(f"{md}: ")))
            continue
        result.tasks.append(task)
        result.problems += problems
    seen: set[str] = set()
    for task in result.tasks:
        if task.id in seen:
            result.problems.append(Problem(task.meta["file"], f"duplicate task id '{task.id}'"))
        seen.add(task.id)
    return result
