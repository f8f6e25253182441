"""The Label Studio bridge: our spans ↔ Label Studio tasks, predictions, annotations and exports.

One Label Studio task per file of a task's workspace (`data`: text, task_id, file, key). One region per
span: a `labels` result (the dimension) plus per-region `entity` and `field` text areas sharing the
region id, so an annotated span maps to exactly one unit. Label Studio counts offsets in UTF-16 code
units (JavaScript strings); Python counts code points: we convert at this boundary, so units keep
Python offsets into the file. The conversions work on export JSON without a server; `push`/`pull` talk
to one with label-studio-sdk 2.x (token from `LABEL_STUDIO_API_KEY`, never a flag).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
from label_studio_sdk.core.api_error import ApiError
from pydantic import ValidationError

from ec2audit.annotate.prelabel import MODEL_VERSION, Span, spans_to_units
from ec2audit.annotate.workspace import Document
from ec2audit.errors import InputError
from ec2audit.units import Unit

_PACKAGED = Path(__file__).resolve().parents[1] / "_data" / "labeling-config.xml"
_IN_REPO = Path(__file__).resolve().parents[2] / "annotations" / "labeling-config.xml"
TOKEN_ENV = "LABEL_STUDIO_API_KEY"


def label_config() -> str:
    return (_PACKAGED if _PACKAGED.exists() else _IN_REPO).read_text(encoding="utf-8")


# --- offsets --------------------------------------------------------------------------------------

def to_js(text: str, index: int) -> int:
    """Python code-point index → UTF-16 index (characters beyond the BMP count twice)."""
    return index + sum(1 for c in text[:index] if ord(c) > 0xFFFF)


def to_py(text: str, js_index: int) -> int:
    """UTF-16 index → Python code-point index."""
    if text.isascii():
        return js_index
    units = 0
    for i, c in enumerate(text):
        if units >= js_index:
            return i
        units += 2 if ord(c) > 0xFFFF else 1
    return len(text)


# --- tasks with predictions -----------------------------------------------------------------------

def doc_key(task_id: str, file: str) -> str:
    return f"{task_id}:{file}"


def region_id(span: Span) -> str:
    return hashlib.sha1(f"{span.file}:{span.start}:{span.end}".encode()).hexdigest()[:10]


def spans_to_results(text: str, spans: Iterable[Span]) -> list[dict]:
    results = []
    for s in spans:
        rid, start, end = region_id(s), to_js(text, s.start), to_js(text, s.end)
        where = {"start": start, "end": end}
        results.append({"id": rid, "from_name": "label", "to_name": "text", "type": "labels",
                        "value": {**where, "text": s.text, "labels": [s.dimension]}})
        for name, value in (("entity", s.entity_id), ("field", s.field)):
            results.append({"id": rid, "from_name": name, "to_name": "text", "type": "textarea",
                            "value": {**where, "text": [value]}})
    return results


def ls_task(doc: Document, spans: list[Span], model_version: str = MODEL_VERSION) -> dict:
    """A Label Studio task for one document, its spans as a prediction."""
    task = {"data": {"text": doc.text, "task_id": doc.task_id, "file": doc.file,
                     "key": doc_key(doc.task_id, doc.file)}}
    if spans:
        score = sum(s.score for s in spans) / len(spans)
        task["predictions"] = [{"model_version": model_version, "score": round(score, 3),
                                "result": spans_to_results(doc.text, spans)}]
    return task


# --- annotations back to spans --------------------------------------------------------------------

@dataclass(frozen=True)
class Annotation:
    """One annotator's finished work on one document."""

    key: str
    task_id: str
    file: str
    text: str
    annotator: str
    spans: tuple[Span, ...]


def results_to_spans(data: dict, result: list[dict]) -> list[Span]:
    """Spans from Label Studio result items; the value comes from the task text, never the UI copy."""
    text, file = data["text"], data.get("file") or data.get("key") or "text"
    regions: dict[str, dict] = {}
    for item in result:
        value = item.get("value") or {}
        region = regions.setdefault(item.get("id") or f"{value.get('start')}:{value.get('end')}", {})
        if item.get("type") == "labels" and value.get("labels"):
            region.update(start=value["start"], end=value["end"], label=value["labels"][0])
        elif item.get("type") == "textarea" and item.get("from_name") in ("entity", "field"):
            typed = [t.strip() for t in value.get("text") or [] if t.strip()]
            if typed:
                region[item["from_name"]] = typed[0]
    spans = []
    for region in regions.values():
        if "label" not in region:
            continue
        start, end = to_py(text, region["start"]), to_py(text, region["end"])
        spans.append(Span(file, start, end, text[start:end], region["label"], region.get("entity") or file,
                          region.get("field") or region["label"]))
    return sorted(spans, key=lambda s: (s.start, s.end))


def _annotator(completed_by, users: dict[int, str]) -> str:
    if isinstance(completed_by, dict):
        return completed_by.get("email") or str(completed_by.get("id"))
    return users.get(completed_by, str(completed_by))


def annotations_from_export(tasks: list[dict], users: dict[int, str] | None = None) -> list[Annotation]:
    """Finished, not cancelled annotations of a Label Studio JSON export (or `tasks.list` dicts)."""
    users = users or {}
    found = []
    for n, task in enumerate(tasks):
        data = task.get("data") if isinstance(task, dict) else None
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            raise InputError("a Label Studio task needs data.text", field=f"[{n}].data.text")
        task_id = data.get("task_id") or "labelstudio"
        file = data.get("file") or f"task-{task.get('id', n)}"
        for ann in task.get("annotations") or []:
            if ann.get("was_cancelled"):
                continue
            spans = results_to_spans({**data, "file": file}, ann.get("result") or [])
            found.append(Annotation(data.get("key") or doc_key(task_id, file), task_id, file, data["text"],
                                    _annotator(ann.get("completed_by"), users), tuple(spans)))
    return found


def read_export(path: str | Path) -> list[dict]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read Label Studio JSON: {exc}", file=str(path)) from None
    if not isinstance(data, list):
        raise InputError("expected a JSON list of tasks (Label Studio's JSON export)", file=str(path))
    return data


def span_key(span: Span) -> tuple:
    return span.start, span.end, span.dimension


def merge(annotations: list[Annotation], rule: str = "majority",
          reviewer: str | None = None) -> dict[str, list[Span]]:
    """One set of spans per document from several annotators, grouped by task id.

    `majority`: a span (offsets and label) is kept when more than half of the document's annotators
    marked it (a single annotator is a majority of one). `reviewer`: the reviewer's annotation wins
    where there is one, otherwise the majority rule applies."""
    if rule not in ("majority", "reviewer"):
        raise InputError("merge rule must be 'majority' or 'reviewer'", field="merge")
    if rule == "reviewer" and not reviewer:
        raise InputError("the reviewer rule needs --reviewer", field="reviewer")
    by_doc: dict[str, list[Annotation]] = {}
    for ann in annotations:
        by_doc.setdefault(ann.key, []).append(ann)
    merged: dict[str, list[Span]] = {}
    for anns in by_doc.values():
        latest = {a.annotator: a for a in anns}  # an annotator's last submission counts
        spans = merged.setdefault(anns[0].task_id, [])
        if rule == "reviewer" and reviewer in latest:
            spans += latest[reviewer].spans
            continue
        votes: dict[tuple, list[Span]] = {}
        for ann in latest.values():
            for s in ann.spans:
                votes.setdefault(span_key(s), []).append(s)
        spans += [marked[0] for marked in votes.values() if 2 * len(marked) > len(latest)]
    return {task: sorted(spans, key=lambda s: (s.file, s.start)) for task, spans in sorted(merged.items())}


def units_from_annotations(annotations: list[Annotation], rule: str = "majority",
                           reviewer: str | None = None) -> list[Unit]:
    """The merged annotations as units (one per distinct value, offsets into the task's files)."""
    return [u for task_id, spans in merge(annotations, rule, reviewer).items()
            for u in spans_to_units(spans, task_id)]


# --- server ---------------------------------------------------------------------------------------

def api_token() -> str:
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise InputError(f"set {TOKEN_ENV} to your Label Studio API token (Account & Settings → "
                         "Access Token; `ec2audit annotate serve` writes one to its credentials file)")
    return token


def base_url(url: str) -> str:
    """The server's base URL, checked before any request: a scheme and a host, nothing else."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(f"{url}: not a Label Studio base URL (expected e.g. http://127.0.0.1:8080)", field="url")
    return url.strip().rstrip("/")


def _cause(exc: Exception) -> str:
    """One line saying why a request failed; never headers, cookies, tokens or an HTML page."""
    if isinstance(exc, ApiError):
        code = exc.status_code
        if code in (401, 403):
            return f"the API token in {TOKEN_ENV} was refused (HTTP {code})"
        if code == 404:
            return "HTTP 404: no Label Studio API at this URL (give the server's base URL, without a path)"
        detail = exc.body.get("detail") if isinstance(exc.body, dict) else None
        return f"HTTP {code}" + (f": {' '.join(str(detail).split())[:200]}" if detail else "")
    if isinstance(exc, httpx.ConnectError):
        return f"cannot connect ({exc}): is Label Studio running, on this host and port?"
    if isinstance(exc, httpx.TimeoutException):
        return "no answer in time (timed out)"
    if isinstance(exc, (json.JSONDecodeError, ValidationError)):
        return "the answer is not Label Studio's API (an HTML page?): give the server's base URL, without a path"
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"


@contextmanager
def server_errors(url: str):
    """Turn what a wrong URL, a stopped server or a bad token raise into one InputError line (exit 2)."""
    try:
        yield
    except (ApiError, httpx.HTTPError, json.JSONDecodeError, ValidationError) as exc:
        raise InputError(f"Label Studio at {url}: {_cause(exc)}") from None


def connect(url: str, token: str | None = None):
    """A client for a server that answered as Label Studio and accepted the token (checked now, so a
    wrong URL or token is one clear error, not a failure half-way through a push)."""
    from label_studio_sdk import LabelStudio

    url = base_url(url)
    ls = LabelStudio(base_url=url, api_key=token or api_token(), timeout=60)
    with server_errors(url):
        ls.users.whoami()
    return ls


def find_project(ls, title: str):
    return next((p for p in ls.projects.list(title=title) if p.title == title), None)


@dataclass(frozen=True)
class PushResult:
    project_id: int
    created: int
    skipped: int


def push(ls, title: str, tasks: list[dict]) -> PushResult:
    """Create the project (or bring its labeling config up to date) and import tasks not there yet.

    A task is identified by `data.key` (task id and file), so pushing the same file twice adds nothing."""
    config = label_config()
    project = find_project(ls, title)
    if project is None:
        project = ls.projects.create(title=title, label_config=config,
                                     description="ec2audit sensitive units (ec2audit annotate)")
    elif (project.label_config or "").strip() != config.strip():
        ls.projects.update(project.id, label_config=config)
    present = {t.data.get("key") for t in ls.tasks.list(project=project.id, fields="task_only")
               if isinstance(t.data, dict)}
    new, seen = [], set(present)
    for t in tasks:
        key = t.get("data", {}).get("key")
        if key not in seen:
            new.append(t)
            seen.add(key)
    if new:
        ls.projects.import_tasks(project.id, request=new, return_task_ids=True)
    return PushResult(project.id, len(new), len(tasks) - len(new))


def export_tasks(ls, title: str, timeout: float = 120) -> list[dict]:
    """The project's JSON export (tasks with annotations and predictions)."""
    project = find_project(ls, title)
    if project is None:
        raise InputError(f"no Label Studio project titled '{title}'", field="project")
    export = ls.projects.exports.create(project.id, title="ec2audit pull",
                                        serialization_options={"predictions": {"only_id": False}})
    deadline = time.monotonic() + timeout
    while (status := ls.projects.exports.get(project.id, export.id).status) not in ("completed", "failed"):
        if time.monotonic() > deadline:
            raise InputError(f"Label Studio export of '{title}' not ready after {timeout:.0f} s (status {status})",
                             field="project")
        time.sleep(0.5)
    if status == "failed":
        raise InputError(f"Label Studio could not export the project '{title}'", field="project")
    raw = b"".join(ls.projects.exports.download(project.id, export.id, export_type="JSON"))
    return json.loads(raw)


def user_emails(ls) -> dict[int, str]:
    return {u.id: u.email for u in ls.users.list()}
