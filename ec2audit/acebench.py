"""Import AceBench task Markdown (docs/design.md §4) into `Task` objects, for annotation and audit.

A file is YAML front matter (id, name, source, original_id, category, timeout_seconds, privacy_note,
agent_category) and `##`/`###` sections: Prompt, Expected Behavior, Privacy Expectations, Grading
Criteria, Automated Checks (a python block), Workspace Path, Skills, Env, Warmup, LLM Judge Rubric; an
unknown subsection belongs to the section above it. Units come from `gt/sensitive_items.json` beside
the workspace. Whatever cannot be mapped is reported as a `Problem`, never dropped silently.

Grading: every list item of the Grading Criteria section is a criterion, in whichever form AceBench
wrote it — `key (0.15): text`, `key (dynamic): text`, `**名称（50%）**：text`, `Criterion 1 - Name
(17%)`, `key: text — weight 0.2`, or plain text without key or weight (the key is made from the text); an item
wrapped onto the lines below it reads whole, as Markdown reads it. `**HARD GATE**` (or `**[Gating]**`) marks a
gate (weight 0 unless one is written: it passes or fails the task, it does not score). Subsections
with a weight (`### Deterministic checks (weight 0.15, …)`) scale their items. Missing weights split
what the written ones leave of 1 equally, as the Automated Checks' formula does; totals other than 1
are normalised. A hybrid task's `grading_weights` (`{automated: 0.4, llm_judge: 0.6}` in the front
matter) split the score between the checklist and the criteria of its `## LLM Judge Rubric`. Each
assumption is kept in `meta["grading_notes"]`. Running AceBench tasks needs their Docker image and
is out of scope: imported tasks carry no oracle and no checker.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import asdict, dataclass, field
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
    "llm judge rubric": "llm_judge_rubric",
}
FRONT_KEYS = ("id", "name", "source", "original_id", "category", "timeout_seconds", "privacy_note", "agent_category")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
_FENCE_LINE = re.compile(r"^```.*$", re.M)  # a fence opens or closes on a line that starts with ```
_FULL_WIDTH = str.maketrans({"（": "(", "）": ")", "：": ":"})
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]?\]\s*)?(.*\S)\s*$")
#: `**HARD GATE**: text`, `text — **HARD GATES**`, `**[Gating]** text` (the dash before a trailing marker goes with it)
_GATE = re.compile(r"(?:\s+[—–-]+\s*)?\*{0,2}\s*(?:\bHARD[\s_-]*GATES?\b|\[GATING\])\s*\*{0,2}\s*[:—–-]?\s*", re.I)
_KEYED = re.compile(r"^`?([A-Za-z_][\w.-]*)`?\s*(?:\(\s*(\d+(?:\.\d+)?\s*%?|[A-Za-z]+)\s*\)\s*:?|:)\s*(.*)$")
_BOLD = re.compile(r"^\*\*(.+?)\*\*\s*:?\s*(.*)$")
_PERCENT = re.compile(r"\s*\(\s*(\d+(?:\.\d+)?\s*%)\s*\)")
_GROUP_WEIGHT = re.compile(r"\bweight\s*[:=]?\s*(\d+(?:\.\d+)?\s*%?)|\(\s*(\d+(?:\.\d+)?\s*%)\s*[,)]", re.I)
_CJK = re.compile(r"[\u4e00-\u9fff]")
#: A weight written after the criterion, as AceBench's generated checklists end an item: `… — weight 0.2`.
_TRAILING_WEIGHT = re.compile(r"\s+[—–-]+\s*weight\s*[:=]?\s*(\d+(?:\.\d+)?\s*%?)\s*$", re.I)


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


def _fences(text: str) -> list[tuple[int, int, str]]:
    """(start, end, code) of each fenced block. As AceBench's parser does, every line starting with ```
    toggles, so ``` inside a line of code (a string in the checks) neither opens nor closes a block."""
    marks = list(_FENCE_LINE.finditer(text))
    return [(a.start(), b.end(), text[a.end() + 1:b.start()]) for a, b in zip(marks[::2], marks[1::2], strict=False)]


def _sections(body: str) -> tuple[dict[str, str], list[str]]:
    """Section text by our key, and the headings we do not know. Headings inside code fences are code."""
    fences = [(start, end) for start, end, _ in _fences(body)]
    heads = [h for h in _HEADING.finditer(body) if not any(a <= h.start() < b for a, b in fences)]
    found: dict[str, str] = {}
    unknown: list[str] = []
    current: tuple[str, int] | None = None  # the known section we are in, and its heading level
    for i, head in enumerate(heads):
        level, title = len(head.group(1)), head.group(2).strip()
        text = body[head.end():heads[i + 1].start() if i + 1 < len(heads) else len(body)].strip("\n")
        key = SECTIONS.get(title.lower())
        if key:
            found[key], current = text.strip(), (key, level)
        elif current and level > current[1]:
            found[current[0]] += f"\n{head.group(0).strip()}\n{text}"
        else:
            current = None
            if level <= 3 and text.strip():
                unknown.append(title)
    return found, unknown


def _weight(text: str) -> float | None:
    """`0.15`, `2` (relative) or `15%`; None for words such as `dynamic`."""
    text = text.replace(" ", "")
    try:
        return float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        return None


def _slug(text: str, index: int) -> str:
    words = re.findall(r"[A-Za-z0-9]+", text.replace("`", ""))
    return "_".join(words[:6]).lower() or f"criterion_{index}"


def _item(line: str, index: int) -> tuple[str, float | None, str, bool]:
    """(key, weight or None, description, gate) of one checklist item, whatever its form."""
    gate = bool(_GATE.search(line))
    line = _GATE.sub("", line, count=1).strip()
    trailing = _TRAILING_WEIGHT.search(line)
    if trailing:
        line = line[:trailing.start()].rstrip()
    key, weight, description = _named(line, index)
    return key, weight if weight is not None or not trailing else _weight(trailing.group(1)), description, gate


def _named(line: str, index: int) -> tuple[str, float | None, str]:
    """(key, weight or None, description) of an item's text: `key (0.15): text`, `**name (50%)**: text`, …"""
    keyed = _KEYED.match(line)
    if keyed:
        return keyed.group(1), _weight(keyed.group(2) or ""), keyed.group(3).strip()
    bold = _BOLD.match(line)
    name, rest = (bold.group(1), bold.group(2).strip()) if bold else (None, line)
    found = _PERCENT.search(name if name is not None else line)
    weight = _weight(found.group(1)) if found else None
    if name is not None:
        name = _PERCENT.sub("", name).strip()
        return name, weight, rest or name
    if found and found.end() == len(line):  # `Criterion 1 - Completeness (17%)`
        line = line[:found.start()].strip()
    return _slug(line, index), weight, line


def _fill(weights: list[float | None], gates: list[bool], what: str, notes: list[str]) -> list[float]:
    """Missing weights share what the written ones leave of 1; a gate without weight scores 0."""
    written = sum(w for w in weights if w is not None)
    missing = [i for i, w in enumerate(weights) if w is None and not gates[i]]
    share = 0.0
    if missing:
        share = max(0.0, 1.0 - written) / len(missing)
        notes.append(f"{len(missing)} {what} without a weight share the {max(0.0, 1.0 - written):g} left of 1 equally")
    return [w if w is not None else (0.0 if gates[i] else share) for i, w in enumerate(weights)]


def _criteria(text: str, notes: list[str]) -> list[Criterion]:
    text = text.translate(_FULL_WIDTH)
    lines: list[tuple[float | None, list[str]]] = [(None, [])]  # each subsection's weight and its items' text
    in_item = False
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            found = _GROUP_WEIGHT.search(line)
            lines.append((_weight(found.group(1) or found.group(2)) if found else None, []))
            in_item = False
        elif item := _ITEM.match(line):
            lines[-1][1].append(item.group(1))
            in_item = True
        elif in_item and line.strip():  # the item's text wrapped onto the next line, as Markdown reads it
            lines[-1][1][-1] += " " + line.strip()
        else:
            in_item = False
    index = itertools.count(1)
    groups = [(weight, [_item(item, next(index)) for item in items]) for weight, items in lines if items]
    rows: list[tuple[str, float, str, bool]] = []
    weighted_groups = any(weight is not None for weight, _ in groups)
    group_weights = _fill([w for w, _ in groups], [False] * len(groups), "subsections", notes) \
        if weighted_groups else [1.0] * len(groups)
    for (_, items), group_weight in zip(groups, group_weights, strict=True):
        weights = _fill([w for _, w, _, _ in items], [g for *_, g in items], "criteria", notes)
        total = sum(weights)
        if weighted_groups and total > 0:  # items share their subsection's weight
            if not math.isclose(total, 1.0, abs_tol=1e-6):
                notes.append(f"criteria of a subsection weighted {group_weight:g} sum to {total:g}; scaled to "
                             f"share its weight (AceBench's own checks may leave {1 - total:g} of it unscored)")
            weights = [w / total * group_weight for w in weights]
        rows += [(key, w, desc, gate) for (key, _, desc, gate), w in zip(items, weights, strict=True)]
    total = sum(w for _, w, _, _ in rows)
    if rows and total > 0 and not math.isclose(total, 1.0, abs_tol=1e-6):
        notes.append(f"grading weights sum to {total:g}; normalised to 1")
        rows = [(k, w / total, d, g) for k, w, d, g in rows]
    seen: dict[str, int] = {}
    criteria = []
    for key, weight, description, gate in rows:
        seen[key] = seen.get(key, 0) + 1
        criteria.append(Criterion(key if seen[key] == 1 else f"{key}_{seen[key]}", weight, description, gate))
    return criteria


#: A judge rubric's criterion: `### Skill File Quality (Weight: 20%)`, `### Criterion 1: Depth (Weight: 17%)`
_RUBRIC_HEAD = re.compile(r"^#{2,6}\s+(.+?)\s*\(\s*weight\s*[:：]?\s*(\d+(?:\.\d+)?\s*%?)\s*\)\s*:?\s*$", re.I | re.M)


def _two_channels(criteria: list[Criterion], front: dict, sections: dict[str, str],
                  notes: list[str]) -> list[Criterion]:
    """The checklist and the LLM judge's rubric as AceBench's hybrid tasks grade them: `grading_weights` (or
    `qwen_grading_weights`) in the front matter, `{automated: 0.4, llm_judge: 0.6}`, splits the score between the
    checklist (its mean, in the Automated Checks) and the judge, whose criteria are the `## LLM Judge Rubric`'s
    `### Name (Weight: 20%)` headings (one `llm_judge` criterion where it names none). A Grading Criteria section
    with weighted subsections already holds both channels and is kept as written."""
    split = front.get("grading_weights") or front.get("qwen_grading_weights")
    shares = {k: _weight(str(split.get(k))) for k in ("automated", "llm_judge")} if isinstance(split, dict) else {}
    checklist, judge = shares.get("automated"), shares.get("llm_judge")
    text = sections.get("grading_criteria", "").translate(_FULL_WIDTH)
    if checklist is None or not judge or not criteria or any(
            _GROUP_WEIGHT.search(line) for line in text.splitlines() if line.lstrip().startswith("#")):
        return criteria
    rubric = [(name.strip(), _weight(weight) or 0.0) for name, weight in
              _RUBRIC_HEAD.findall(sections.get("llm_judge_rubric", "").translate(_FULL_WIDTH))]
    rubric = rubric if sum(w for _, w in rubric) > 0 else [("LLM judge rubric", 1.0)]
    total, rubric_total = sum(c.weight for c in criteria), sum(w for _, w in rubric)
    notes.append(f"grading_weights: the checklist shares {checklist:g} of the score, the LLM judge's "
                 f"{len(rubric)} rubric criteria {judge:g}")
    scale = checklist + judge
    return [Criterion(c.key, c.weight / total * checklist / scale if total else 0.0, c.description, c.gate)
            for c in criteria] + [Criterion(f"llm_judge_{_slug(name, i)}", w / rubric_total * judge / scale, name)
                                  for i, (name, w) in enumerate(rubric, start=1)]


GT_FILES = ("gt/sensitive_items.json", "gt/gt/sensitive_items.json")  # where AceBench's checks look


def acebench_root(md: Path) -> Path | None:
    """AceBench's repository root for a task file: the folder holding its `tasks/` folder (AceBench resolves
    a `## Workspace Path` from there, `ROOT_DIR / workspace_path` in utils/task_parser.py)."""
    for parent in md.resolve().parents:
        if parent.name == "tasks":
            return parent.parent
    return None


def _workspace(md: Path, workspace_path: str | None, root: Path | None) -> tuple[Path, Path] | None:
    """(root, workspace folder) as AceBench resolves it: absolute, or under `root` (given, else found above
    the file); without a root given, a workspace missing there is looked for beside the Markdown."""
    if not workspace_path:
        return None
    ws = Path(workspace_path)
    if ws.is_absolute():
        return Path(ws.anchor), ws
    bases = [root] if root else [b for b in (acebench_root(md), md.parent) if b]
    return next(((b, b / ws) for b in bases if (b / ws).is_dir()), (bases[0], bases[0] / ws))


def _units_file(md: Path, task_id: str, workspace: Path | None) -> tuple[Path | None, list[Path]]:
    """The task's `sensitive_items.json` (under the workspace's `gt/` or `gt/gt/`, beside the workspace, or in a
    folder named after the task beside the Markdown), and every place looked at."""
    bases = [workspace, workspace.parent] if workspace else []
    bases += [md.parent / task_id, md.parent / md.stem, md.parent]
    tried = [base / gt for base in bases for gt in GT_FILES]
    return next((p for p in tried if p.is_file()), None), tried


def _missing(task_id: str, folder: Path, found_root: bool) -> str:
    """Why a task's workspace folder is not there, in words that name it: the folder itself, or the folder above
    it that every task's workspace is under (the task data not downloaded: said once for all tasks), and, when
    no AceBench folder was found above the file, where the Workspace Path was read from."""
    gone = folder.resolve()
    while not gone.parent.is_dir():
        gone = gone.parent
    said = f"its workspace folder {folder.resolve()} is missing (task {task_id})" if gone == folder.resolve() \
        else f"the folder {gone} that the tasks' workspaces are under is missing"
    return said if found_root else f"{said}; no AceBench folder (one holding tasks/) above the task file: give it " \
                                   "with --root"


def _strip_fence(text: str) -> str:
    """A section's text without the code fence around it (``` or ```lang), as AceBench strips it."""
    text = re.sub(r"^```[^\n]*\n?", "", text.strip())
    return re.sub(r"\n?```$", "", text).strip().strip("`").strip()


def parse_task_markdown(path: str | Path, root: str | Path | None = None) -> tuple[Task, list[Problem]]:
    """One AceBench task file → Task (scenario from agent_category, units where found) and problems. `root`:
    AceBench's repository root, which `## Workspace Path` is relative to (default: the folder holding the
    file's `tasks/` folder)."""
    path = Path(path)
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", file=file) from None
    front, body = _front_matter(text, file)
    problems: list[Problem] = []
    task_id = str(front.get("id") or "").strip()
    if not task_id:
        raise InputError("missing id", file=file, field="id")
    for key in sorted(set(front) - set(FRONT_KEYS)):
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
    code = next((block for *_, block in _fences(checks)), None)
    if checks and code is None:
        problems.append(Problem(file, "Automated Checks has no fenced code block"))
    workspace_path = _strip_fence(sections.get("workspace_path") or "") or None
    notes: list[str] = []
    privacy_note = front.get("privacy_note") or None
    task = Task(
        id=task_id, scenario=scenario or "unknown", title=str(front.get("name") or task_id),
        language="zh" if len(_CJK.findall(sections["prompt"])) > 10 else "en", instruction=sections["prompt"],
        timeout=timeout, privacy_note=str(privacy_note) if privacy_note else None,
        criteria=_two_channels(_criteria(sections.get("grading_criteria", ""), notes), front, sections, notes),
        meta={
            "format": "acebench", "file": file,
            **{k: front[k] for k in front if k not in ("id", "name", "timeout_seconds", "privacy_note")},
            "expected_behavior": sections.get("expected_behavior"),
            "privacy_expectations": sections.get("privacy_expectations"),
            "automated_checks": code,
            "workspace_path": workspace_path,
            "skills": [s.strip("-* `").strip() for s in sections.get("skills", "").splitlines() if s.strip()],
            "env": sections.get("env"), "warmup": sections.get("warmup"),
            "llm_judge_rubric": sections.get("llm_judge_rubric"), "grading_notes": notes,
        },
    )
    if not task.criteria:
        problems.append(Problem(file, "no grading criteria found"))
    resolved = _workspace(path, workspace_path, Path(root) if root else None)
    units_file, tried = _units_file(path, task_id, resolved[1] if resolved else None)
    if units_file:
        task.units = read_acebench(units_file, task_id=task_id)
        task.meta["units_file"] = str(units_file)
    elif task.privacy_note:  # said in the same words for every task, so the command says it once
        if resolved is None:
            where = f"no Workspace Path, and none in {tried[0].parents[1]} or beside the file"
        elif not resolved[1].is_dir():
            where = _missing(task_id, resolved[1], found_root=bool(root or acebench_root(path)))
        else:
            where = f"its workspace under {resolved[0].resolve()} has neither {' nor '.join(GT_FILES)}"
        problems.append(Problem(file, f"privacy_note is set but no units were found: {where}"))
    return task, problems


def task_row(task: Task) -> dict:
    """One imported task as a JSON object (tasks.jsonl, `--json`)."""
    return {"id": task.id, "scenario": task.scenario, "title": task.title, "language": task.language,
            "instruction": task.instruction, "timeout": task.timeout, "privacy_note": task.privacy_note,
            "criteria": [asdict(c) for c in task.criteria], "units": len(task.units), "meta": task.meta}


def workspace_task_ids(path: str | Path) -> dict[Path, str]:
    """Each task's workspace folder (resolved) → its id, for the AceBench repository that holds `path` (the
    folder above it with a `tasks/` folder): AceBench names a workspace `task_101_x` and its task
    `ACE_Bench_task_101_x`, so a units file named after the folder would match no task. Empty outside one."""
    path = Path(path).resolve()
    root = next((p for p in (path, *path.parents) if (p / "tasks").is_dir()), None)
    if root is None:
        return {}
    ids: dict[Path, str] = {}
    for md in sorted((root / "tasks").rglob("*.md")):
        try:
            front, body = _front_matter(md.read_text(encoding="utf-8-sig"), str(md))
        except (OSError, UnicodeDecodeError, InputError):
            continue  # not a task file (a skill's notes): `tasks import-acebench` names those
        workspace = _workspace(md, _strip_fence(_sections(body)[0].get("workspace_path") or "") or None, root)
        if front.get("id") and workspace:
            ids[workspace[1].resolve()] = str(front["id"]).strip()
    return ids


def import_acebench(path: str | Path, root: str | Path | None = None) -> Imported:
    """Every task Markdown under `path` (or the one file; AceBench's own folder: its `tasks/`); a file that
    cannot be parsed is a problem. `root` as for `parse_task_markdown`."""
    path = Path(path)
    if path.is_dir() and (path / "tasks").is_dir():  # AceBench's repository: its tasks, not its skills' docs
        root, path = root or path, path / "tasks"
    files = [path] if path.is_file() else sorted(
        p for p in path.rglob("*.md")
        if p.name.lower() != "readme.md" and not {"workspace", "gt"} & set(p.relative_to(path).parts[:-1]))
    result = Imported()
    if not files:
        raise InputError("no task Markdown files found", file=str(path))
    for md in files:
        try:
            task, problems = parse_task_markdown(md, root)
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
