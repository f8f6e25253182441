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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from xml.etree import ElementTree

import httpx
from label_studio_sdk.core.api_error import ApiError
from pydantic import ValidationError

from ec2audit import resources
from ec2audit.annotate.prelabel import MODEL_VERSION, Span, spans_to_units
from ec2audit.annotate.workspace import Document, make_document
from ec2audit.console import plural
from ec2audit.errors import InputError
from ec2audit.taxonomy import load_taxonomy
from ec2audit.units import Unit

TOKEN_ENV = "LABEL_STUDIO_API_KEY"


def label_config() -> str:
    return resources.data("annotations/labeling-config.xml").read_text(encoding="utf-8")


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
                        "value": {**where, "text": s.text, "labels": [s.dimension]}, "score": s.score})
        for name, value in (("entity", s.entity_id), ("field", s.field)):
            results.append({"id": rid, "from_name": name, "to_name": "text", "type": "textarea",
                            "value": {**where, "text": [value]}})
    return results


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def ls_task(doc: Document, spans: list[Span], model_version: str = MODEL_VERSION) -> dict:
    """A Label Studio task for one document, its spans as a prediction.

    `data` also carries what a label cannot: the text's hash (a changed file is a new version), entity
    names, and units' own weight, aliases and description, so a round trip gives them back."""
    data: dict[str, object] = {"text": doc.text, "task_id": doc.task_id, "file": doc.file,
                               "key": doc_key(doc.task_id, doc.file), "sha256": content_hash(doc.text)}
    names = {s.entity_id: s.entity_name for s in spans if s.entity_name}
    if names:
        data["entities"] = names
    kept = [{"entity_id": s.entity_id, "field": s.field, "value": s.text, **s.unit} for s in spans if s.unit]
    if kept:
        data["units"] = kept
    task: dict[str, object] = {"data": data}
    if spans:
        score = sum(s.score for s in spans) / len(spans)
        task["predictions"] = [{"model_version": model_version, "score": round(score, 3),
                                "result": spans_to_results(doc.text, spans)}]
    return task


def config_labels(config: str | None = None) -> set[str]:
    """The labels a labelling config offers (a Label's `alias` is what results carry, else its value)."""
    root = ElementTree.fromstring(config or label_config())
    return {el.get("alias") or el.get("value") or "" for el in root.iter("Label")} - {""}


def check_labels(tasks: list[dict], file: str | Path) -> None:
    """Refuse tasks whose predictions or annotations use a label the labelling config lacks."""
    known = config_labels()
    for n, task in enumerate(tasks):
        for kind in ("predictions", "annotations"):
            for item in (r for entry in task.get(kind) or [] for r in entry.get("result") or []):
                for label in (item.get("value") or {}).get("labels") or []:
                    if label not in known:
                        key = (task.get("data") or {}).get("key") or f"task {n}"
                        raise InputError(f"{key}: label '{label}' is not in the labelling config "
                                         f"(it has {', '.join(sorted(known))})", file=str(file),
                                         field=f"[{n}].{kind}")


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
    review: bool = False


def results_to_spans(data: dict, result: list[dict], where: str = "") -> tuple[list[Span], list[str]]:
    """Spans from Label Studio result items, and a line for each region not used; the value comes from the
    task text, never the UI copy.

    A region outside the text, whose text (as Label Studio shows it) is not the task's text at its offsets,
    or whose label is no dimension of the taxonomy, is skipped with a line naming `where` (the document and
    the annotator), the region and why; the other regions are used. A region without a typed entity or
    field takes them from the document's structure (a CSV row, a JSON record), as pre-labelling does."""
    text, file = data["text"], data.get("file") or data.get("key") or "text"
    regions: dict[str, dict] = {}
    for item in result:
        value = item.get("value") or {}
        rid = item.get("id") or f"{value.get('start')}:{value.get('end')}"
        region = regions.setdefault(rid, {"id": rid})
        if item.get("type") == "labels" and value.get("labels"):
            region.update(start=value.get("start"), end=value.get("end"), label=value["labels"][0],
                          shown=value.get("text"))
        elif item.get("type") == "textarea" and item.get("from_name") in ("entity", "field"):
            typed = [t.strip() for t in value.get("text") or [] if t.strip()]
            if typed:
                region[item["from_name"]] = typed[0]
    names = data.get("entities") or {}
    kept = {(u.get("entity_id"), u.get("field"), u.get("value")): u for u in data.get("units") or []}
    taxonomy = load_taxonomy()
    document = make_document(str(data.get("task_id") or ""), file, text)
    spans, skipped = [], []
    for region in regions.values():
        if "label" not in region:
            continue
        js_start, js_end = region["start"], region["end"]
        js_len = to_js(text, len(text))
        named = f"{where}region {region['id']}"
        if not (isinstance(js_start, int) and isinstance(js_end, int) and 0 <= js_start < js_end <= js_len):
            skipped.append(f"{named}: offsets {js_start}–{js_end} are outside the text ({js_len} UTF-16 units)")
            continue
        start, end = to_py(text, js_start), to_py(text, js_end)
        named += f" {text[start:end][:40]!r} at {js_start}–{js_end}"
        if isinstance(region["shown"], str) and region["shown"] != text[start:end]:
            skipped.append(f"{named}: Label Studio shows {region['shown'][:40]!r} there, not the task's text")
            continue
        dim = taxonomy.resolve(str(region["label"]))
        if dim is None:
            meant = next((d.name for d in taxonomy.dimensions.values()
                          if d.label.lower() == str(region["label"]).strip().lower()), None)
            skipped.append(f"{named}: label '{region['label']}' is no dimension"
                           + (f" (it is the display name of '{meant}': the labelling config must send the alias)"
                              if meant else f" (known: {', '.join(taxonomy.dimensions)})"))
            continue
        place = document.field_at(start, end)
        entity = region.get("entity") or (place.entity_id if place else file)
        field = region.get("field") or (place.field if place else region["label"])
        dimension, unit = region["label"], kept.get((entity, field, text[start:end]))
        carried: tuple[str, ...] = ("aliases", "description")
        if unit and (unit_dim := taxonomy.resolve(str(unit.get("dimension", "")))) and unit_dim.name == dim.name:
            dimension = unit["dimension"]  # the unit's own name for it, e.g. the alias `medical`
            carried += ("weight",)  # a relabelled unit weighs what its new kind weighs, not its old kind
        from_place = place is not None and entity == place.entity_id  # a typed entity is someone else's record
        spans.append(Span(file, start, end, text[start:end], dimension, entity, field,
                          names.get(entity) or (place.entity_name if place and from_place else None),
                          unit={k: v for k, v in (unit or {}).items() if k in carried} or None))
    return sorted(spans, key=lambda s: (s.start, s.end)), skipped


def _annotator(completed_by, users: dict[int, str]) -> str:
    if isinstance(completed_by, dict):
        return completed_by.get("email") or str(completed_by.get("id"))
    return users.get(completed_by, str(completed_by))


@dataclass
class Pulled:
    """What an export gives: the annotations to use, and what was not used, each with its reason."""

    annotations: list[Annotation]
    not_used: list[str]
    superseded: list[str]  # work on an older version of a document whose latest version is annotated
    predictions_only: int = 0


def annotations_from_export(tasks: list[dict], users: dict[int, str] | None = None,
                            predictions: bool = False) -> Pulled:
    """Finished, not cancelled annotations of a Label Studio JSON export (or `tasks.list` dicts).

    With `predictions`, a task's latest prediction counts as one more annotator (`model:<version>`).
    Of a document pushed in several versions (its file changed), only the latest version's work is used."""
    users = users or {}
    latest: dict[str, int] = {}
    annotated: set[tuple[str, int]] = set()  # (key, version) with annotations
    for task in tasks:
        data = task.get("data") if isinstance(task, dict) else None
        if isinstance(data, dict) and data.get("key"):
            version = int(data.get("version") or 1)
            latest[data["key"]] = max(latest.get(data["key"], 0), version)
            if any(not a.get("was_cancelled") for a in task.get("annotations") or []):
                annotated.add((data["key"], version))
    pulled = Pulled([], [], [])
    for n, task in enumerate(tasks):
        data = task.get("data") if isinstance(task, dict) else None
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            raise InputError("a Label Studio task needs data.text", field=f"[{n}].data.text")
        task_id = data.get("task_id") or "labelstudio"
        file = data.get("file") or f"task-{task.get('id', n)}"
        key = data.get("key") or doc_key(task_id, file)
        work = [(a, _annotator(a.get("completed_by"), users)) for a in task.get("annotations") or []
                if not a.get("was_cancelled")]
        if predictions and task.get("predictions"):
            last = task["predictions"][-1]
            work.append((last, f"model:{last.get('model_version') or 'prediction'}"))
        elif not work and task.get("predictions"):
            pulled.predictions_only += 1
        version = int(data.get("version") or 1)
        if work and version < latest.get(key, 1):
            newest = latest[key]
            line = (f"{key} (Label Studio task {task.get('id', n)}): {plural(len(work), 'annotation')} of version "
                    f"{version}; the file changed since (version {newest})")
            if (key, newest) in annotated:
                pulled.superseded.append(line + ", which is annotated")
            else:
                pulled.not_used.append(line + ": annotate the latest version")
            continue
        for ann, who in work:
            where = f"{key} (Label Studio task {task.get('id', n)}), annotation by {who}: "
            spans, skipped = results_to_spans({**data, "file": file}, ann.get("result") or [], where)
            pulled.not_used += [line + "; span skipped" for line in skipped]
            pulled.annotations.append(Annotation(key, task_id, file, data["text"], who, tuple(spans),
                                                 bool(data.get("review"))))
    return pulled


#: What to do with one of Label Studio's other exports: its full JSON export keeps every annotator's regions with
#: their ids and the task's data.
_EXPORT_AS_JSON = "export the project as JSON (Export → JSON), which keeps each annotator's regions and the text"
#: The keys of a row of Label Studio's JSON-MIN export (one row per annotation, the task's data flattened into it).
_JSON_MIN_KEYS = {"annotator", "annotation_id", "lead_time"}


def read_export(path: str | Path) -> list[dict]:
    """A Label Studio JSON export's tasks; its other exports (CSV, TSV, JSON-MIN) named as such, with the fix."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read Label Studio JSON: {exc}", file=str(path)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        header = text.split("\n", 1)[0]
        if not header.lstrip().startswith(("[", "{")) and ("," in header or "\t" in header):
            raise InputError(f"a table (Label Studio's CSV or TSV export?), not its JSON: {_EXPORT_AS_JSON}",
                             file=str(path), line=1) from None
        raise InputError(f"not JSON: {exc.msg} (column {exc.colno})", file=str(path), line=exc.lineno) from None
    if not isinstance(data, list):
        raise InputError("expected a JSON list of tasks (Label Studio's JSON export)", file=str(path))
    first = next((t for t in data if isinstance(t, dict)), {})
    if "data" not in first and _JSON_MIN_KEYS & first.keys():
        raise InputError(f"Label Studio's JSON-MIN export (a row per annotation, no region ids): {_EXPORT_AS_JSON}",
                         file=str(path), field="[0]")
    return data


def span_key(span: Span) -> tuple:
    return span.start, span.end, span.dimension


def check_against_files(annotations: list[Annotation], docs: list[Document]) -> tuple[list[Annotation], list[str]]:
    """Annotations whose spans still hold the same text in the current files; each refused span named."""
    texts = {(d.task_id, d.file): d.text for d in docs}
    by_name: dict[str, list[str]] = {}
    for d in docs:  # a single file or a plain folder has no task id of its own: its file name must do
        by_name.setdefault(d.file, []).append(d.text)
    kept, refused = [], []
    for ann in annotations:
        same_name = by_name.get(ann.file, [])
        current = texts.get((ann.task_id, ann.file), same_name[0] if len(same_name) == 1 else None)
        good = []
        for s in ann.spans:
            if current is None:
                refused.append(f"{ann.key} by {ann.annotator}: {s.text[:40]!r} at {s.start}–{s.end}: the file is "
                               "not in the workspace")
            elif current[s.start:s.end] != s.text:
                refused.append(f"{ann.key} by {ann.annotator}: {s.text[:40]!r} at {s.start}–{s.end}: the file now "
                               f"has {current[s.start:s.end][:40]!r} there (it changed: push it again)")
            else:
                good.append(s)
        kept.append(replace(ann, spans=tuple(good)))
    return kept, refused


def _latest(anns: list[Annotation]) -> dict[str, Annotation]:
    """Per annotator, the last submission (they count once)."""
    return {a.annotator: a for a in anns if not a.review}


def merge(annotations: list[Annotation], rule: str = "majority",
          reviewer: str | None = None) -> dict[str, list[Span]]:
    """One set of spans per document from several annotators, grouped by task id.

    An adjudicated document (one with an annotation on its review task) takes the review. Otherwise
    `majority`: a span (offsets and label) is kept when more than half of the document's annotators
    marked it (a single annotator is a majority of one); `reviewer`: the reviewer's annotation wins
    where there is one, otherwise the majority rule applies."""
    if rule not in ("majority", "reviewer"):
        raise InputError("merge rule must be 'majority' or 'reviewer'", field="merge")
    if rule == "reviewer" and not reviewer:
        raise InputError("the reviewer rule needs --reviewer", field="reviewer")
    known = sorted({a.annotator for a in annotations})
    if reviewer and reviewer not in known:
        raise InputError(f"unknown reviewer '{reviewer}': no annotation by them (annotators: "
                         f"{', '.join(known) or 'none'})", field="reviewer")
    by_doc: dict[str, list[Annotation]] = {}
    for ann in annotations:
        by_doc.setdefault(ann.key, []).append(ann)
    merged: dict[str, list[Span]] = {}
    for anns in by_doc.values():
        spans = merged.setdefault(anns[0].task_id, [])
        reviews = [a for a in anns if a.review]
        latest = _latest(anns)
        if reviews:
            spans += reviews[-1].spans
            continue
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
        detail = exc.body.get("detail") if isinstance(exc.body, dict) else None
        detail = " ".join(str(detail).split())[:200] if detail else ""
        if code == 401 or (code == 403 and any(w in detail.lower() for w in ("token", "credential", "authentica"))):
            return f"the API token in {TOKEN_ENV} was refused (HTTP {code})"
        if code == 404:
            return "HTTP 404: no Label Studio API at this URL (give the server's base URL, without a path)"
        return f"HTTP {code}" + (f": {detail}" if detail else "")
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
    unchanged: int
    updated: int = 0
    versioned: int = 0


def ensure_project(ls, title: str, overlap: int | None = None):
    """The project titled `title`, created when missing; its labelling config (and overlap: how many
    annotators each task goes to) brought up to date."""
    config = label_config()
    project = find_project(ls, title)
    if project is None:
        return ls.projects.create(title=title, label_config=config, maximum_annotations=overlap or 1,
                                  overlap_cohort_percentage=100,
                                  description="ec2audit sensitive units (ec2audit annotate)")
    changes: dict[str, object] = {}
    if (project.label_config or "").strip() != config.strip():
        changes["label_config"] = config
    if overlap and project.maximum_annotations != overlap:
        changes.update(maximum_annotations=overlap, overlap_cohort_percentage=100)
    return ls.projects.update(project.id, **changes) if changes else project


def _latest_tasks(ls, project_id: int) -> dict[str, Any]:
    """Per document key, its task of the highest version (label-studio-sdk task objects)."""
    latest: dict[str, Any] = {}
    for t in ls.tasks.list(project=project_id, fields="task_only"):
        key = t.data.get("key") if isinstance(t.data, dict) and not t.data.get("review") else None
        if key and int(t.data.get("version") or 1) >= int((latest.get(key) or t).data.get("version") or 1):
            latest[key] = t
    return latest


def connect_ml_backend(ls, project, url: str) -> None:
    """Have Label Studio ask our ML backend at `url` for predictions of tasks that have none (when a
    task is opened or listed), so documents added later are pre-labelled too."""
    if not any(b.url.rstrip("/") == url.rstrip("/") for b in ls.ml.list(project=project.id)):
        ls.ml.create(url=url, project=project.id, title="ec2audit recognizers", is_interactive=False)
    ls.projects.update(project.id, evaluate_predictions_automatically=True, model_version=MODEL_VERSION)


def push(ls, title: str, tasks: list[dict], overlap: int | None = None) -> PushResult:
    """Create the project (or bring it up to date) and import tasks not there yet.

    A task is identified by `data.key` (task id and file) and its text's hash: the same file pushed
    twice adds nothing; a changed file replaces its task when nobody annotated it yet (predictions
    too), else comes in as a new version next to the old one (whose annotations point into the old text)."""
    project = ensure_project(ls, title, overlap)
    latest = _latest_tasks(ls, project.id)
    new, seen, unchanged, updated, versioned = [], set(), 0, 0, 0
    for t in tasks:
        data = t.get("data", {})
        key = data.get("key")
        if key in seen:
            unchanged += 1
            continue
        seen.add(key)
        there = latest.get(key)
        if there is None:
            new.append(t)
        elif content_hash(there.data.get("text", "")) == content_hash(data.get("text", "")):
            unchanged += 1
        elif not there.total_annotations:
            ls.tasks.update(str(there.id), data={**data, "version": int(there.data.get("version") or 1)})
            for old in ls.predictions.list(task=there.id):
                ls.predictions.delete(old.id)
            for p in t.get("predictions") or []:
                ls.predictions.create(task=there.id, result=p["result"], score=p.get("score"),
                                      model_version=p.get("model_version"))
            updated += 1
        else:
            new.append({**t, "data": {**data, "version": int(there.data.get("version") or 1) + 1}})
            versioned += 1
    if new:
        ls.projects.import_tasks(project.id, request=new, return_task_ids=True)
    return PushResult(project.id, len(new) - versioned, unchanged, updated, versioned)


def review_tasks(export: list[dict], disputed: list[dict], users: dict[int, str] | None = None) -> list[dict]:
    """One review task per document with disputed spans: its text, and each annotator's work as a
    prediction named after them, so a reviewer sees every version and submits the adjudicated one."""
    keys = {d["key"] for d in disputed}
    reviews = []
    for task in export:
        data = task.get("data") or {}
        if data.get("key") not in keys or data.get("review"):
            continue
        last: dict[str, list] = {}
        for ann in task.get("annotations") or []:
            if not ann.get("was_cancelled"):
                last[_annotator(ann.get("completed_by"), users or {})] = ann.get("result") or []
        if len(last) < 2:
            continue  # the disputes are on another version of this document
        reviews.append({"data": {**data, "review": True},
                        "predictions": [{"model_version": f"by {who}", "result": result}
                                        for who, result in sorted(last.items())]})
    return reviews


def push_reviews(ls, title: str, reviews: list[dict]) -> PushResult:
    """Add review tasks to the project, once per document version."""
    project = ensure_project(ls, title)
    there = {(t.data.get("key"), int(t.data.get("version") or 1))
             for t in ls.tasks.list(project=project.id, fields="task_only")
             if isinstance(t.data, dict) and t.data.get("review")}
    new = [r for r in reviews if (r["data"]["key"], int(r["data"].get("version") or 1)) not in there]
    if new:
        ls.projects.import_tasks(project.id, request=new, return_task_ids=True)
    return PushResult(project.id, len(new), len(reviews) - len(new))


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
