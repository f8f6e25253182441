"""Sensitive units: one sensitive field value of one entity in a task's data (docs/design.md §1).

Units are read and written as JSONL (one unit per line, human-edited) and converted from and to
AceBench's `gt/sensitive_items.json`. Every loading error names the file, the line and the field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from difflib import get_close_matches
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ec2audit import resources
from ec2audit.errors import InputError
from ec2audit.files import open_private
from ec2audit.taxonomy import Taxonomy, load_taxonomy


class Source(BaseModel):
    """Where the value occurs in the task's data: a file and a character span."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    file: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)


class Unit(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    task_id: str = Field(min_length=1)
    entity_id: str = Field(min_length=1)
    field: str = Field(min_length=1)
    value: str = Field(min_length=1)
    dimension: str = Field(min_length=1)
    weight: float = Field(gt=0)
    entity_name: str | None = None
    aliases: tuple[str, ...] = ()
    source: Source | None = None
    description: str | None = None

    @field_validator("value")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value

    @field_validator("weight", mode="before")
    @classmethod
    def _a_number(cls, value):
        """`true` is no weight of 1, nor Infinity (JSON readers take it) one that makes exposure NaN."""
        if isinstance(value, bool) or (isinstance(value, float) and not math.isfinite(value)):
            raise ValueError(f"must be a finite number, not {json.dumps(value)}")
        return value

    @property
    def id(self) -> str:
        return f"{self.task_id}/{self.entity_id}/{self.field}"

    @property
    def kind(self) -> str:
        """The taxonomy's name of its dimension: what every per-dimension figure groups by. The unit keeps
        the name it was given (`medical`, `phone`: an alias, as AceBench files spell it)."""
        return dimension_name(self.dimension)


@cache
def dimension_name(name: str) -> str:
    """The packaged taxonomy's name for a dimension or alias; a name it does not know stays as it is."""
    found = load_taxonomy().resolve(name)
    return found.name if found else name


def make_unit(data: dict, taxonomy: Taxonomy | None = None) -> Unit:
    """Validate one unit dict; a missing weight takes the dimension's default from the taxonomy."""
    taxonomy = taxonomy or load_taxonomy()
    if not isinstance(data, dict):
        raise InputError("a unit must be a JSON object")
    data = dict(data)
    dim_name = data.get("dimension")
    if isinstance(dim_name, str) and dim_name:
        dim = taxonomy.resolve(dim_name)
        if dim is None:
            root = resources.checkout()  # a checkout's taxonomy is the user's to edit, an installed one is not
            editable = root is not None and Path(taxonomy.path).resolve().is_relative_to(root)
            raise InputError(f"unknown dimension '{dim_name}' (known: {', '.join(taxonomy.dimensions)}"
                             + (f"; add an alias in {taxonomy.path})" if editable else ")"), field="dimension")
        data.setdefault("weight", dim.weight)
    try:
        return Unit(**data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or None
        raise InputError(err["msg"] + _misspelled(err["type"], field or "", data), field=field) from None


def _misspelled(error: str, field: str, data: dict) -> str:
    """The key of the line that a missing field's name is misspelled as (`dimensoin`), or the field an unknown key
    misspells (`wieght`): said beside the error."""
    known = list(Unit.model_fields)
    if error == "missing":
        near = get_close_matches(field, [k for k in data if isinstance(k, str) and k not in known], n=1, cutoff=0.7)
        return f" (the line has '{near[0]}': a misspelling of '{field}'?)" if near else ""
    if error == "extra_forbidden":
        near = get_close_matches(field, known, n=1, cutoff=0.7)
        return f" (a misspelling of '{near[0]}'?)" if near else ""
    return ""


def _check_unique(units: list[Unit], file: str, lines: list[int]) -> None:
    seen: dict[str, int] = {}
    for unit, line in zip(units, lines, strict=True):
        if unit.id in seen:
            raise InputError(f"duplicate unit id '{unit.id}' (first on line {seen[unit.id]})",
                             file=file, line=line, field="field")
        seen[unit.id] = line


_ROW_AS_JSON = "not units JSONL (one JSON object a line, README §Units): write each row as one"
#: Files people keep units in, by their first bytes: named as what they are, not a UTF-8 decoding error.
_BINARY = ((b"PAR1", f"a Parquet table, {_ROW_AS_JSON}"),
           (b"PK\x03\x04", f"a zip archive (an Excel workbook?), {_ROW_AS_JSON}"),
           (b"\x1f\x8b", "gzip-compressed, not units JSONL: decompress it first (`gunzip`)"))
#: A table's header line, by its delimiter.
_HEADERS = ((",", "a CSV table"), ("\t", "a tab-separated table"), (";", "a CSV table"))


def _header(line: str) -> str | None:
    """The kind of table whose header `line` is: one naming a unit's column (`value`, `entity_id`, …), with any
    other spelling beside it (`dimensoin`, `text`)."""
    if line.lstrip().startswith(("{", "[")):
        return None
    for delimiter, kind in _HEADERS:
        cells = [cell.strip().strip("\"'").lower() for cell in line.split(delimiter)]
        if len(cells) > 1 and any(cell in Unit.model_fields or "value" in cell for cell in cells):
            return kind
    return None


def _other_kind(text: str, path: Path) -> str | None:
    """What a file that is no units JSONL is instead, and the command that converts it: the files people
    hold units in before they have ours (a Label Studio export, AceBench's sensitive_items.json, a CSV)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        kind = _header(next((line for line in text.splitlines() if line.strip()), ""))
        return f"{kind}, {_ROW_AS_JSON}" if kind else None
    if isinstance(data, list) and data and isinstance(data[0], dict) and isinstance(data[0].get("data"), dict):
        return f"a Label Studio export, not units JSONL: `ec2audit annotate from-labelstudio {path} --out units.jsonl`"
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        return f"AceBench's sensitive items, not units JSONL: `ec2audit units import-acebench {path} --out units.jsonl`"
    return "one JSON document, not units JSONL (one JSON object a line)" if isinstance(data, dict | list) else None


def read_units(path: str | Path, taxonomy: Taxonomy | None = None) -> list[Unit]:
    """Read a units JSONL file (blank lines and `#` comments allowed); a file of another kind of units is
    named, with the command that converts it."""
    path = Path(path)
    try:
        data = path.read_bytes()
        if binary := next((what for magic, what in _BINARY if data.startswith(magic)), None):
            raise InputError(binary, file=str(path))
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read units: {exc}", file=str(path)) from exc
    units: list[Unit] = []
    lines: list[int] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            if not units and (kind := _other_kind(text, path)):
                raise InputError(kind, file=str(path)) from None
            raise InputError(f"not valid JSON ({exc.msg}, column {exc.colno})", file=str(path),
                             line=number) from None
        if not units and (not isinstance(data, dict) or "items" in data) and (kind := _other_kind(text, path)):
            raise InputError(kind, file=str(path))
        try:
            units.append(make_unit(data, taxonomy))
        except InputError as exc:
            raise InputError(exc.reason, file=str(path), line=number, field=exc.field) from None
        lines.append(number)
    _check_unique(units, str(path), lines)
    return units


def weight_by_dimension(units: Iterable[Unit]) -> list[tuple[str, str, int, float]]:
    """(task, dimension, units, their summed weight), sorted: the parts of each task's exposure denominator."""
    totals: dict[tuple[str, str], tuple[int, float]] = {}
    for unit in units:
        count, weight = totals.get((unit.task_id, unit.kind), (0, 0.0))
        totals[(unit.task_id, unit.kind)] = count + 1, weight + unit.weight
    return [(task, dim, count, weight) for (task, dim), (count, weight) in sorted(totals.items())]


def unit_to_dict(unit: Unit) -> dict:
    return unit.model_dump(exclude_none=True, exclude_defaults=False)


def write_units(units: Iterable[Unit], path: str | Path) -> None:
    """Write units as JSONL, private (0600): every line holds a sensitive value."""
    with open_private(path, "w", encoding="utf-8") as out:
        for unit in units:
            out.write(json.dumps(unit_to_dict(unit), ensure_ascii=False) + "\n")


# --- AceBench gt/sensitive_items.json ---------------------------------------------------------

#: A field without a dimension: AceBench's reader (utils/privacy_audit.py) gives it "" and weight 1.0, a
#: dimension of no kind; ours is `other` (weight 1.0, the rules any unknown dimension gets).
DEFAULT_DIMENSION = "other"

def _acebench_task_id(path: Path, task_ids: dict[Path, str]) -> str:
    """AceBench keeps the file at `<task>/gt/sensitive_items.json` or `<task>/gt/gt/…` (its checks try both); the
    task id is the one whose workspace that folder is (`task_ids`), else the folder's name."""
    parent = path.parent
    while parent.name == "gt" and parent.parent != parent:
        parent = parent.parent
    return task_ids.get(parent.resolve(), parent.name)


def read_acebench(path: str | Path, task_id: str | None = None,
                  taxonomy: Taxonomy | None = None, task_ids: dict[Path, str] | None = None) -> list[Unit]:
    """Units from one `sensitive_items.json`, or from every one found under a directory. A field without a
    `dimension` is `other` and one without a `weight` weighs 1.0, as AceBench's own reader defaults them
    (its privacy score is then 1 − our exposure). `task_ids`: workspace folder → task id
    (`acebench.workspace_task_ids`), for files that name no task."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.rglob("sensitive_items.json"))
        if not files:
            raise InputError("no sensitive_items.json found under this directory", file=str(path))
        units: list[Unit] = []
        first_in: dict[str, Path] = {}
        for f in files:  # a unit twice is named with both files (a folder has no line numbers)
            for unit in read_acebench(f, None, taxonomy, task_ids):
                if unit.id in first_in:
                    raise InputError(f"duplicate unit id '{unit.id}' (first in {first_in[unit.id]})", file=str(f))
                first_in[unit.id] = f
                units.append(unit)
        return units
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read AceBench items: {exc}", file=str(path)) from None
    task_id = task_id or data.get("task_id") or _acebench_task_id(path, task_ids or {})
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise InputError("expected an object with an 'items' list", file=str(path), field="items")
    units = []
    for i, item in enumerate(items):
        where = f"items[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("sensitive_fields"), list):
            raise InputError("expected an object with a 'sensitive_fields' list", file=str(path),
                             field=f"{where}.sensitive_fields")
        for j, sf in enumerate(item["sensitive_fields"]):
            if not isinstance(sf, dict):
                raise InputError("expected an object", file=str(path), field=f"{where}.sensitive_fields[{j}]")
            data = {
                "task_id": task_id, "entity_id": str(item.get("entity_id", "")),
                "entity_name": item.get("name"), "field": sf.get("field"), "value": _as_text(sf.get("value")),
                "dimension": sf.get("dimension") or DEFAULT_DIMENSION,
                "weight": 1.0 if sf.get("weight") is None else sf["weight"],  # AceBench's default, not the taxonomy's
            }
            for key in ("aliases", "description", "source"):
                if key in sf:
                    data[key] = sf[key]
            data = {k: v for k, v in data.items() if v is not None}
            try:
                units.append(make_unit(data, taxonomy))
            except InputError as exc:
                raise InputError(exc.reason, file=str(path),
                                 field=f"{where}.sensitive_fields[{j}].{exc.field or ''}".rstrip(".")) from None
    _check_unique(units, str(path), list(range(1, len(units) + 1)))
    return units


def _as_text(value) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)


def to_acebench(units: Iterable[Unit]) -> dict[str, dict]:
    """Group units into one AceBench `sensitive_items.json` document per task."""
    tasks: dict[str, dict[str, dict]] = {}
    for unit in units:
        entities = tasks.setdefault(unit.task_id, {})
        entity = entities.setdefault(unit.entity_id, {"entity_id": unit.entity_id, "name": unit.entity_name,
                                                      "sensitive_fields": []})
        field = {"field": unit.field, "value": unit.value, "dimension": unit.dimension, "weight": unit.weight}
        for key in ("aliases", "description"):
            if getattr(unit, key):
                field[key] = list(unit.aliases) if key == "aliases" else unit.description
        if unit.source:
            field["source"] = unit.source.model_dump()
        entity["sensitive_fields"].append(field)
    return {task: {"task_id": task, "items": list(entities.values())} for task, entities in tasks.items()}


def write_acebench(units: Iterable[Unit], out_dir: str | Path) -> list[Path]:
    """Write `<out_dir>/<task_id>/gt/sensitive_items.json` for every task; returns the files."""
    written = []
    for task_id, doc in to_acebench(units).items():
        target = Path(out_dir) / task_id / "gt" / "sensitive_items.json"
        with open_private(target, "w", encoding="utf-8") as out:  # the values themselves: 0600
            out.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        written.append(target)
    return written
