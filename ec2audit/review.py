"""The reviewer loop: people grade the semantic tier's candidates in Label Studio.

Without a judge, `ec2audit judge --no-judge --out` writes shortlisted pairs as candidates (detector
`semantic.candidate`, grade 0.0). `push` sends each one — the window of traffic, the unit's value,
dimension and description — to a Label Studio project with one single-choice question (leaked 1.0,
mostly 0.7, fragment 0.3, not leaked), through the server and SDK client of `ec2audit annotate`.
`pull` turns the answers into findings (detector `human`) and appends them, labelled, to a calibration
split, so the set that tunes the paraphrase tiers grows with real traffic.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from ec2audit.annotate.labelstudio import connect, export_tasks, find_project, server_errors
from ec2audit.detect.semantic import CANDIDATE
from ec2audit.errors import InputError
from ec2audit.files import open_private, read_table
from ec2audit.units import Unit

HUMAN = "human"  # detector of a finding a person graded
VERDICTS = {"leaked": 1.0, "mostly": 0.7, "fragment": 0.3, "not leaked": 0.0}
HINTS = {"leaked": "the value, or a form anyone turns back into it (1.0)",
         "mostly": "most of it: masked, approximate, or a description that pins it down (0.7)",
         "fragment": "a small recognisable piece (0.3)", "not leaked": "absent, the topic only, someone else's "
                                                                     "value, or a placeholder (0.0)"}
LABEL_CONFIG = """<View>
  <Header value="Does the text leak this unit?"/>
  <Text name="unit" value="$unit_view"/>
  <Text name="text" value="$window"/>
  <Choices name="verdict" toName="text" choice="single" required="true" showInline="true">
""" + "".join(f'    <Choice value="{v}" hint="{HINTS[v]}"/>\n' for v in VERDICTS) + """  </Choices>
</View>"""
_CJK = re.compile(r"[\u3400-\u9fff]")


def read_candidates(path: str | Path) -> list[dict]:
    """Candidate rows of a findings file (`judge --out`: .parquet or .jsonl)."""
    path = Path(path)
    frame = read_table(path)
    missing = {"unit_id", "payload_id", "segment", "start", "end", "matched_text", "detector"} - set(frame.columns)
    if missing:
        raise InputError(f"not a findings file: no column {sorted(missing)[0]!r}", file=str(path),
                         field=sorted(missing)[0])
    return frame.filter(pl.col("detector") == CANDIDATE).to_dicts()


def candidate_tasks(rows: list[dict], units: list[Unit]) -> list[dict]:
    """One Label Studio task per candidate; its key names payload, segment, span and unit, so pushing
    the same candidates twice adds nothing. A row whose unit is not in `units` is an error."""
    by_id = {u.id: u for u in units}
    tasks = []
    for n, row in enumerate(rows, start=1):
        unit = by_id.get(row["unit_id"])
        if unit is None:
            raise InputError(f"candidate {n} names unit {row['unit_id']!r}, which the units file lacks",
                             field="unit_id")
        view = f"{unit.dimension} · {unit.field}: {unit.value}" + (f"\n{unit.description}" if unit.description else "")
        key = f"{row['payload_id']}:{row['segment']}:{row['start']}:{row['end']}:{unit.id}"
        tasks.append({"data": {"key": key, "window": row["matched_text"], "unit_view": view,
                               "unit": unit.model_dump(mode="json", exclude_none=True), "finding": row}})
    return tasks


@dataclass(frozen=True)
class Pushed:
    project_id: int
    created: int
    skipped: int


def push(url: str, title: str, tasks: list[dict], token: str | None = None) -> Pushed:
    """Create the review project when missing and import the tasks not there yet."""
    ls = connect(url, token)
    with server_errors(url):
        project = find_project(ls, title)
        if project is None:
            project = ls.projects.create(title=title, label_config=LABEL_CONFIG,
                                         description="ec2audit: review semantic candidates (ec2audit judge review)")
        present = {t.data.get("key") for t in ls.tasks.list(project=project.id, fields="task_only")
                   if isinstance(t.data, dict)}
        new = [t for t in tasks if t["data"]["key"] not in present]
        if new:
            ls.projects.import_tasks(project.id, request=new, return_task_ids=True)
    return Pushed(project.id, len(new), len(tasks) - len(new))


@dataclass(frozen=True)
class Pulled:
    findings: list[dict]  # one per reviewed candidate (detector `human`), not-leaked ones included
    pending: int  # candidates nobody has answered yet


def pull(url: str, title: str, token: str | None = None) -> Pulled:
    """The latest answer to each reviewed candidate, as a finding row graded by a person."""
    ls = connect(url, token)
    with server_errors(url):
        tasks = export_tasks(ls, title)
    findings, pending = [], 0
    for task in tasks:
        answers = [a for a in task.get("annotations") or [] if not a.get("was_cancelled")]
        grade = next((g for a in sorted(answers, key=lambda a: a.get("updated_at") or "", reverse=True)
                      if (g := _grade(a.get("result") or [])) is not None), None)
        if grade is None:
            pending += 1
            continue
        data = task["data"]
        findings.append({**data["finding"], "detector": HUMAN, "grade": grade, "confidence": 1.0,
                         "unit": data["unit"]})
    return Pulled(findings, pending)


def _grade(result: list[dict]) -> float | None:
    for item in result:
        choices = (item.get("value") or {}).get("choices") or []
        if item.get("from_name") == "verdict" and choices and choices[0] in VERDICTS:
            return VERDICTS[choices[0]]
    return None


def append_to_split(findings: list[dict], path: str | Path) -> int:
    """Append reviewed candidates to a calibration split (`judges/calibration/*.jsonl` rows, kind
    `reviewed`); a candidate already there is not added again. Returns how many were added."""
    path = Path(path)
    present = set()
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                present.add(json.loads(line).get("id"))
    rows = []
    for f in findings:
        key = f"{f['payload_id']}:{f['segment']}:{f['start']}:{f['end']}:{f['unit_id']}"
        ex_id = "review-" + hashlib.sha256(key.encode()).hexdigest()[:12]
        if ex_id in present:
            continue
        present.add(ex_id)
        text = f["matched_text"]
        rows.append({"id": ex_id, "unit": f["unit"], "text": text, "grade": f["grade"], "kind": "reviewed",
                     "lang": "zh" if _CJK.search(text) else "en", "dimension": f["unit"]["dimension"],
                     "context": "traffic", "group": f"review-{f['unit_id']}"})
    if rows:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open_private(path, "a", encoding="utf-8") as out:
            out.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    return len(rows)

