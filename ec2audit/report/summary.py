"""One summary model over run directories and audit outputs, shared by the HTML, terminal and JSON views.

A run directory (`episodes.parquet`, `findings.parquet`, `cloud.sqlite`, see docs/design.md §6 Run
results) gives one row per configuration (edge model, cloud model, strategy, router, cloud context):
completion, Pass^k, Pass@k, cloud tokens and USD, edge FLOPs, exposure overall and per dimension. An
`ec2audit audit` output (a findings table, with the units and payloads it was made from when they can
be found) gives one row without completion columns. Both give the per-task drill-down: each leaked
unit, the step and message that first carried it, and the evidence inside the payload text, masked
unless values are asked for.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

import polars as pl

from ec2audit import metrics
from ec2audit.audit import FINDING_SCHEMA
from ec2audit.console import plural, unknown_cost, unpriced_episodes
from ec2audit.detect.semantic import CANDIDATE
from ec2audit.errors import InputError
from ec2audit.files import read_table
from ec2audit.logs.audit import AT_LEAST, CLOUD_USAGE, SESSION_SCHEMA, UNPRICED_TIER, sessions_path
from ec2audit.payloads import Payload, iter_payloads, payload_from_record
from ec2audit.run.record import FINISHED
from ec2audit.units import Unit, read_units

CONFIG_KEYS = ["edge_model", "cloud_model", "strategy", "router", "cloud_context"]
EPISODE_COLUMNS = (
    "episode_id", "task_id", "strategy", "run_index", "status", "completion", "passed", "cloud_calls",
    "cloud_input_tokens", "cloud_cached_tokens", "cloud_output_tokens", "cloud_usd", "edge_flops", "exposure",
    "exposure_by_dimension", "leaked_units",
)
CONTEXT_CHARS = 160  # characters of payload text shown on each side of the evidence


def mask(value: str) -> str:
    """Evidence is shown masked unless asked: first and last fifth of the characters only."""
    if len(value) <= 4:
        return "*" * len(value)
    keep = max(1, len(value) // 5)
    return value[:keep] + "*" * (len(value) - 2 * keep) + value[-keep:]


#: Detectors whose matched text is a window of the payload (the semantic shortlist, the judge), not a value.
WINDOW_DETECTORS = frozenset({CANDIDATE, "judge"})


def masked_evidence(text: str, detector: str | None) -> str:
    """Evidence as shown masked. A window holds other values whole (a phone after the paraphrased salary), so
    none of it is left in clear: only its form (`***** ***** … #########`), as the interceptor masks values."""
    if detector in WINDOW_DETECTORS:
        from ec2audit.intercept.app import mask_evidence

        return mask_evidence(text)
    return mask(text)


@dataclass
class StrategyRow:
    """One configuration of one source: the strategy table's row and one point in each plot."""

    source: str
    label: str
    edge_model: str | None = None
    cloud_model: str | None = None
    strategy: str | None = None
    router: str | None = None
    cloud_context: str | None = None
    episodes: int = 0
    tasks: int = 0
    k: int | None = None
    failed: int | None = None
    completion: float | None = None
    pass_hat_k: float | None = None
    pass_at_k: float | None = None
    cloud_calls: int | None = None
    cloud_input_tokens: int | None = None
    cloud_cached_tokens: int | None = None
    cloud_output_tokens: int | None = None
    cloud_usd: float | None = None
    cloud_usd_unknown: str | None = None  # why `cloud_usd` is None, in the words of `audit` or `run`, where known
    usd_per_episode: float | None = None
    edge_flops: float | None = None
    exposure: float | None = None
    leaked_units: int = 0
    by_dimension: dict[str, float] = field(default_factory=dict)


@dataclass
class Evidence:
    """Payload text around a finding, cut into pieces: kind 'text', 'hit' (this unit) or 'other' (a
    different sensitive value, masked too)."""

    pieces: list[tuple[str, str]]
    truncated_left: bool = False
    truncated_right: bool = False


@dataclass
class Leak:
    unit_id: str
    dimension: str
    grade: float
    step: int | None
    payload_id: str
    message_index: int | None
    origin: str | None
    detector: str | None
    shown: str
    evidence: Evidence | None = None


@dataclass
class EpisodeView:
    episode_id: str
    task_id: str
    label: str
    completion: float | None
    status: str | None
    exposure: float | None
    leaks: list[Leak]
    #: Of an audited session: its calls, and those that carried no prompt text (no leak can be seen there).
    calls: int | None = None
    calls_without_content: int | None = None

    @property
    def leaked(self) -> int:
        """Its leaked units (`metrics.leaked`); `leaks` holds every unit that reached the cloud."""
        return sum(1 for leak in self.leaks if metrics.leaked(leak.grade))


@dataclass
class Summary:
    sources: list[str]
    rows: list[StrategyRow]
    dimensions: list[str]
    tasks: dict[str, list[EpisodeView]]
    show_values: bool = False
    notes: list[str] = field(default_factory=list)
    groups: list[StrategyRow] = field(default_factory=list)  # audit outputs: one row per episode or task

    @property
    def has_completion(self) -> bool:
        return any(r.completion is not None for r in self.rows)

    @property
    def has_cost(self) -> bool:
        """Whether any row knows its cloud calls: a run's always, an audit's from its sessions table."""
        return any(r.cloud_calls is not None for r in self.rows)

    def to_dict(self, drilldown: bool = True) -> dict:
        data = {"sources": self.sources, "dimensions": self.dimensions, "notes": self.notes,
                "values_shown": self.show_values, "strategies": [asdict(r) for r in self.rows],
                "groups": [asdict(r) for r in self.groups]}
        if drilldown:
            data["tasks"] = {t: [_episode_dict(e) for e in eps] for t, eps in self.tasks.items()}
        return data


def _episode_dict(episode: EpisodeView) -> dict:
    data = asdict(episode)
    for leak in data["leaks"]:
        leak.pop("evidence")
    return data


# ---------------------------------------------------------------- loading


def _is_sqlite(path: Path) -> bool:
    with path.open("rb") as f:
        return f.read(16) == b"SQLite format 3\x00"


def _read_findings(path: Path) -> pl.DataFrame:
    """A findings table: a file, or the folder `audit --ray --out` writes (Parquet partitioned by
    dimension), read back in call order as a findings file holds it."""
    if not path.is_dir():
        return read_table(path)
    if not any(path.rglob("*.parquet")):
        return pl.DataFrame(schema=FINDING_SCHEMA)  # nothing was found
    try:
        frame = pl.read_parquet(path / "**" / "*.parquet", hive_partitioning=True,
                                hive_schema={"dimension": pl.String})
    except Exception as exc:  # polars raises several types for unreadable files
        raise InputError(f"cannot read table: {exc}", file=str(path)) from None
    return frame.sort("call", maintain_order=True) if "call" in frame.columns else frame


def _require(frame: pl.DataFrame, columns, path: Path) -> pl.DataFrame:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError("missing column", file=str(path), field=missing[0])
    return frame


def _label(row: dict, vary: set[str]) -> str:
    """Strategy with its router or cloud context, plus the models when several runs differ in them."""
    label = "/".join([row.get("strategy") or "?"] + [str(row[k]) for k in ("router", "cloud_context") if row.get(k)])
    if "edge_model" in vary and row.get("edge_model"):
        label += f" @ {_short(row['edge_model'])}"
    if "cloud_model" in vary and row.get("cloud_model"):
        label += f" → {_short(row['cloud_model'])}"
    return label


def _short(model: str) -> str:
    """A model name without its trailing remark: 'oracle-stand-in (scripted stand-in …)' → 'oracle-stand-in'."""
    return re.sub(r"\s*\(.*\)$", "", model) or model


def _run_rows(episodes: pl.DataFrame, source: str, vary: set[str]) -> list[StrategyRow]:
    keys = CONFIG_KEYS
    per_task = episodes.group_by(keys + ["task_id"]).agg(
        all_passed=pl.col("passed").all(), any_passed=pl.col("passed").any(), runs=pl.len())
    passes = per_task.group_by(keys).agg(
        pass_hat_k=pl.col("all_passed").mean(), pass_at_k=pl.col("any_passed").mean(), k=pl.col("runs").max())
    stats = episodes.group_by(keys, maintain_order=True).agg(
        episodes=pl.len(), tasks=pl.col("task_id").n_unique(), failed=(~pl.col("status").is_in(list(FINISHED))).sum(),
        completion=pl.col("completion").mean(),
        cloud_calls=pl.col("cloud_calls").sum(),
        # an unknown token count (a stream cut off), price or edge model size makes the total unknown, not smaller,
        # as in summary.json
        **{k: pl.when(pl.col(k).null_count() == 0).then(pl.col(k).sum())
           for k in ("cloud_input_tokens", "cloud_cached_tokens", "cloud_output_tokens")},
        cloud_usd=pl.when(pl.col("cloud_usd").null_count() == 0).then(pl.col("cloud_usd").sum()),
        unpriced=pl.col("cloud_usd").null_count(), priced=pl.col("cloud_usd").sum(),
        edge_flops=pl.when(pl.col("edge_flops").null_count() == 0).then(pl.col("edge_flops").sum()),
        exposure=pl.col("exposure").mean(),
    ).join(passes, on=keys, how="left", nulls_equal=True)
    rows = []
    for stat in stats.iter_rows(named=True):
        mine = episodes
        for k in keys:
            mine = mine.filter(pl.col(k).is_null() if stat[k] is None else pl.col(k) == stat[k])
        dims: dict[str, list[float]] = defaultdict(list)
        leaked = 0
        for raw_dims, raw_leaks in mine.select("exposure_by_dimension", "leaked_units").iter_rows():
            for dim, value in metrics.dimension_map(raw_dims).items():
                dims[dim].append(float(value))
            leaked += sum(1 for leak in json.loads(raw_leaks or "[]") if metrics.leaked(leak.get("grade", 0)))
        usd, unpriced, priced = stat["cloud_usd"], stat.pop("unpriced"), stat.pop("priced")
        rows.append(StrategyRow(
            source=source, label=_label(stat, vary), **{k: stat[k] for k in keys},
            **{k: v for k, v in stat.items() if k not in keys},
            cloud_usd_unknown=unpriced_episodes(unpriced, priced) if unpriced else None,
            usd_per_episode=None if usd is None else usd / stat["episodes"], leaked_units=leaked,
            by_dimension={d: sum(v) / len(v) for d, v in sorted(dims.items())}))
    return rows


def _cloud_payloads(run_dir: Path, wanted: dict[str, set[str]]) -> dict[str, Payload]:
    """The cloud-bound requests that carried leaks (ids per episode), from the interceptor's store of the
    run; read one episode at a time so a large run is never all in memory."""
    store_path = run_dir / "cloud.sqlite"
    if not wanted or not store_path.exists():
        return {}
    payloads = {}
    for episode, ids in wanted.items():
        payloads.update(_store_payloads(store_path, ids, episode))
    return payloads


def _store_payloads(store_path: Path, ids: set[str], episode: str | None = None) -> dict[str, Payload]:
    """The requests of an interceptor's store (of one episode if given) whose record ids are `ids`, as
    `intercept audit` read them: read-only, a report never changes the store it reads."""
    from ec2audit.intercept.store import read_records

    return {r.id: payload_from_record(r.to_row(), r.id) for r in read_records(store_path, episode)
            if r.id in ids and isinstance(r.request, dict)}


def _evidence(payload: Payload | None, segment: int | None, start: int, end: int,
              spans: list[tuple[int, int]], show_values: bool) -> Evidence | None:
    """The segment text around [start, end), every sensitive span in it masked unless values are shown."""
    if payload is None or segment is None or segment >= len(payload.segments):
        return None
    text = payload.segments[segment].text
    if not (0 <= start < end <= len(text)):
        return None
    lo, hi = max(0, start - CONTEXT_CHARS), min(len(text), end + CONTEXT_CHARS)
    cuts = [(start, end, "hit")] + sorted((s, e, "other") for s, e in spans
                                          if e > lo and s < hi and (e <= start or s >= end))
    cuts.sort()
    pieces, pos = [], lo
    for s, e, kind in cuts:
        s, e = max(s, lo, pos), min(e, hi)
        if e <= s:
            continue
        if s > pos:
            pieces.append((text[pos:s], "text"))
        value = text[s:e]
        pieces.append((value if show_values else mask(value), kind))
        pos = e
    if pos < hi:
        pieces.append((text[pos:hi], "text"))
    return Evidence(pieces, lo > 0, hi < len(text))


def _spans(findings: pl.DataFrame) -> dict[tuple[str, int], list[tuple[int, int]]]:
    spans: dict[tuple[str, int], list[tuple[int, int]]] = defaultdict(list)
    for pid, seg, s, e in findings.select("payload_id", "segment", "start", "end").iter_rows():
        spans[(pid, seg)].append((s, e))
    return spans


def _leak(info: dict, payloads: dict[str, Payload], spans, show_values: bool) -> Leak:
    text = info.get("matched_text") or ""
    pid = str(info.get("payload_id"))
    segment = info.get("segment")
    evidence = None
    if info.get("start") is not None and info.get("end") is not None:
        evidence = _evidence(payloads.get(pid), segment, info["start"], info["end"],
                             spans.get((pid, segment), []), show_values)
    return Leak(unit_id=info["unit_id"], dimension=info.get("dimension") or "other",
                grade=float(info["grade"]), step=info.get("first_call"), payload_id=pid,
                message_index=info.get("message_index"), origin=info.get("origin"),
                detector=info.get("detector"), evidence=evidence,
                shown=text if show_values else masked_evidence(text, info.get("detector")))


def _first_findings(findings: pl.DataFrame) -> dict[tuple[str, str], dict]:
    """Per (group, unit): the first finding in payload order with the unit's best grade in that group,
    the segment kept so evidence can be cut from the payload. Its call is the `step` that `audit --out`
    and `intercept audit --out` write (the call's number in its session or episode, as the audit's
    terminal names it); a findings table without one names no call, since its rows hold only the calls
    that leaked and their order among them is no call's number."""
    first: dict[tuple[str, str], dict] = {}
    for row in findings.iter_rows(named=True):
        key = (row["group"], row["unit_id"])
        if key not in first or row["grade"] > first[key]["best"]:  # an earlier, lower grade is no first leak
            first[key] = dict(row, first_call=row.get("step"), best=row["grade"])
    return first


def _load_run(run_dir: Path, source: str, show_values: bool,
              vary_with: set[str]) -> tuple[list[StrategyRow], dict, list]:
    path = _episodes_path(run_dir)
    episodes = read_table(path)
    if episodes.is_empty():
        raise InputError("no finished episode in this run yet", file=str(path))
    episodes = _require(episodes, EPISODE_COLUMNS, path)
    for name in CONFIG_KEYS:
        if name not in episodes.columns:
            episodes = episodes.with_columns(pl.lit(None, pl.String).alias(name))
    rows = _run_rows(episodes, source, vary_with)
    findings_path = run_dir / "findings.parquet"
    findings = read_table(findings_path) if findings_path.exists() else pl.DataFrame(schema=FINDING_SCHEMA)
    segments = {key[:4]: key[4] for key in
                findings.select("group", "payload_id", "start", "end", "segment").iter_rows()}
    leaks_of = {}
    wanted: dict[str, set[str]] = {}
    for row in episodes.iter_rows(named=True):
        leaks_of[row["episode_id"]] = json.loads(row["leaked_units"] or "[]")
        if leaks_of[row["episode_id"]]:
            wanted[row["episode_id"]] = {str(leak.get("payload_id")) for leak in leaks_of[row["episode_id"]]}
    payloads = _cloud_payloads(run_dir, wanted)
    spans = _spans(findings)
    tasks: dict[str, list[EpisodeView]] = defaultdict(list)
    labels = {tuple(r.__dict__[k] for k in CONFIG_KEYS): r.label for r in rows}
    for row in episodes.sort(["task_id", "strategy", "run_index"]).iter_rows(named=True):
        leaks = []
        for info in sorted(leaks_of[row["episode_id"]], key=lambda x: (-x.get("grade", 0), x.get("unit_id"))):
            where = (row["episode_id"], str(info.get("payload_id")), info.get("start"), info.get("end"))
            seg = segments.get(where)
            leaks.append(_leak(dict(info, segment=seg), payloads, spans, show_values))
        tasks[row["task_id"]].append(EpisodeView(
            episode_id=row["episode_id"], task_id=row["task_id"],
            label=labels[tuple(row[k] for k in CONFIG_KEYS)], completion=row["completion"],
            status=row["status"], exposure=row["exposure"], leaks=leaks))
    notes = [] if payloads or not wanted else [f"{source}: no cloud.sqlite, evidence without context"]
    notes += _unscored_note(source, episodes["exposure"].to_list(), "episodes")
    return rows, tasks, notes


def _episodes_path(run_dir: Path) -> Path:
    path = run_dir / "episodes.parquet"
    return path if path.exists() else run_dir / "episodes.jsonl"


def _sibling(path: Path, name: str) -> Path | None:
    return path.parent / name if (path.parent / name).exists() else None


def _audit_inputs(findings_path: Path, units_path: Path | None, payloads_path: Path | None):
    """Units and payloads of an audit output, from the options or found next to the findings (as
    `make demo` leaves them)."""
    units_path = units_path or _sibling(findings_path, "units.jsonl")
    payloads_path = payloads_path or _sibling(findings_path, "payloads.jsonl")
    return (read_units(units_path) if units_path else None), payloads_path


def _session_rows(findings_path: Path) -> list[dict] | None:
    """The sessions table `audit --out` wrote beside the findings (every session read, with the
    audit's own exposure), or None for a findings table written without one."""
    path = sessions_path(findings_path)
    if not path.exists():
        return None
    frame = read_table(path)
    for name in ("calls_without_content", *CLOUD_USAGE, UNPRICED_TIER):  # written before these were counted: unknown
        if name not in frame.columns:
            frame = frame.with_columns(pl.lit(None, SESSION_SCHEMA[name]).alias(name))
    frame = _require(frame, SESSION_SCHEMA, path)
    return [dict(r, exposure_by_dimension=metrics.dimension_map(r["exposure_by_dimension"]))
            for r in frame.iter_rows(named=True)]


def _groups_from_findings(findings: pl.DataFrame, grades: dict[str, dict[str, float]],
                          units: list[Unit] | None) -> list[dict]:
    """Session rows as `_session_rows` gives them, for a findings table alone: only the groups that
    have findings are known, each scored against the units of its findings' tasks."""
    tasks = {g: set(findings.filter(pl.col("group") == g)["task_id"].unique()) for g in grades}
    rows: dict[str, dict] = {
        g: {"session": g, "units": 0, "leaked": sum(1 for v in grades[g].values() if metrics.leaked(v)),
            "exposure": None, "exposure_by_dimension": {}, "tasks": sorted(tasks[g])} for g in sorted(grades)}
    if units is not None:
        unit_tasks = {u.task_id for u in units}
        table = metrics.unit_table(units, dict(grades), {g: t & unit_tasks for g, t in tasks.items()})
        for g, scored in metrics.by_group(table).items():
            rows[g].update(units=scored["units"], exposure=scored["exposure"],
                           exposure_by_dimension=scored["exposure_by_dimension"])
        for row in rows.values():
            row["tasks"] = sorted(set(row["tasks"]) & unit_tasks)
    return list(rows.values())


def _coverage_note(name: str, sessions: list[dict]) -> list[str]:
    """What the audit could not see: calls (OpenTelemetry spans with content capture off) that carried
    no prompt text, so that no report says "no leak" over them."""
    calls = sum(s["calls"] for s in sessions)
    empty = sum(s["calls_without_content"] or 0 for s in sessions)
    if not empty:
        return []
    return [f"{name}: {empty} of {plural(calls, 'call')} read carried no prompt content (OpenTelemetry spans "
            f"with content capture off?): no leak can be seen in them; the findings are over the other "
            f"{calls - empty}"]


def _cloud_cost(sessions: list[dict]) -> dict:
    """The cloud calls, tokens and USD of audited sessions, as `audit` counted them: each unknown (null)
    where one session's is (a findings table alone, an older sessions table; a USD where a call had no
    price), never the known part read as the whole; an unknown USD with why, in the words of `audit`'s
    provider table (`unknown_cost`), where the sessions table counts its calls without a cost."""
    total: dict[str, float | None] = {}
    for name in ("cloud_calls", *CLOUD_USAGE):
        values = [s.get(name) for s in sessions]
        total[name] = None if not values or None in values else sum(v for v in values if v is not None)
    usd, calls, unpriced, bare, no_price = (total[k] for k in (
        "cloud_usd", "cloud_calls", "cloud_unpriced_calls", "cloud_calls_without_usage", "cloud_calls_without_price"))
    why = None
    if usd is None and calls and unpriced and bare is not None and no_price is not None:
        tier = next((s[UNPRICED_TIER] for s in sessions if s.get(UNPRICED_TIER)), None)
        why = unknown_cost(int(calls), int(unpriced), int(bare), int(no_price), tier)
    return ({k: total[k] for k in ("cloud_calls", *CLOUD_USAGE[:4])}
            | {"cloud_usd_unknown": why, "usd_per_episode": None if usd is None else usd / len(sessions)})


def _logs_read(findings: pl.DataFrame, first: dict, column: str) -> tuple[list[Path], list[str]]:
    """The files an audit's first findings came from (`log_file` of a log audit, `store` of `intercept audit`):
    those still there, and those gone."""
    if column not in findings.columns:
        return [], []
    files = sorted({f.get(column) for f in first.values()} - {None})
    return [Path(f) for f in files if Path(f).is_file()], [f for f in files if not Path(f).is_file()]


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _unscored_note(source: str, exposures: list[float | None], what: str) -> list[str]:
    """How many of a source's sessions (or episodes) its exposure means leave out: those scored against no
    unit (a task without units; matched to no task, no unit in their calls). A clean one, its units all
    kept on the device, scores 0.0 and is in the means."""
    left_out = sum(e is None for e in exposures)
    if not left_out:
        return []
    return [f"{source}: {left_out} of {len(exposures)} {what} left out of the exposure means: nothing to score "
            "against (no units in its task, or none in its calls)"]


def _load_audit(findings_path: Path, source: str, show_values: bool, units_path: Path | None,
                payloads_path: Path | None) -> tuple[list[StrategyRow], dict, list, list[StrategyRow]]:
    findings = _require(_read_findings(findings_path), FINDING_SCHEMA, findings_path)
    units, payloads_path = _audit_inputs(findings_path, units_path, payloads_path)
    first = _first_findings(findings)
    grades: dict[str, dict[str, float]] = defaultdict(dict)
    for (group, unit_id), f in first.items():
        grades[group][unit_id] = f["best"]
    notes = []
    sessions = _session_rows(findings_path)
    if sessions is not None:
        notes += _coverage_note(source, sessions)
        notes += _unscored_note(source, [s["exposure"] for s in sessions], "sessions")
        notes += [f"{source}: {s['session']}: exposure {s['exposure']:.3f} at most, over {s['scored_against']}"
                  for s in sessions
                  if AT_LEAST in (s["scored_against"] or "") and s["exposure"] is not None]
    if sessions is None:
        sessions = _groups_from_findings(findings, grades, units)
        notes.append(f"{source}: no {sessions_path(findings_path).name} beside it: only the sessions "
                     "with findings are counted (write findings with `ec2audit audit --out`)")
        if units is None:
            notes.append(f"{source}: no units found (give --units): exposure not computed")
    by_group: dict[str, list[dict]] = defaultdict(list)
    for (group, _), f in first.items():
        by_group[group].append(dict(f, grade=f["best"]))
    # a session scored against the units found in its own calls has none listed: its findings' tasks
    # are its tasks, in the strategies table as in the drilldown; a session of a task is that task's, and another
    # task's value a call of it naming none sent is no leak of it (`AuditResult.settle`)
    session_tasks = {s["session"]: sorted(s["tasks"] or {i["task_id"] for i in by_group.get(s["session"], [])})
                     for s in sessions}
    for s in sessions:
        if s["tasks"] and s["session"] in by_group:
            by_group[s["session"]] = [i for i in by_group[s["session"]] if i["task_id"] in s["tasks"]]
    # one row per session too: the heat map of an audit shows where the exposure is
    group_rows = {s["session"]: StrategyRow(
        source=source, label=s["session"], strategy="audit", episodes=1,
        tasks=len(session_tasks[s["session"]]), **_cloud_cost([s]),
        exposure=s["exposure"], leaked_units=s["leaked"], by_dimension=s["exposure_by_dimension"])
        for s in sessions}
    scored = [r for r in group_rows.values() if r.exposure is not None]
    dims = sorted({d for r in scored for d in r.by_dimension})
    row = StrategyRow(source=source, label=f"audit: {source}", strategy="audit",
                      episodes=len(group_rows), tasks=len({t for ts in session_tasks.values() for t in ts}),
                      **_cloud_cost(sessions),
                      exposure=_mean([r.exposure for r in scored if r.exposure is not None]),
                      leaked_units=sum(r.leaked_units for r in group_rows.values()),
                      by_dimension={d: _mean([r.by_dimension[d] for r in scored if d in r.by_dimension]) or 0.0
                                    for d in dims})
    wanted = {f["payload_id"] for f in first.values()}
    payloads: dict[str, Payload] = {}
    logs, gone = _logs_read(findings, first, "log_file")
    stores, stores_gone = _logs_read(findings, first, "store")
    unread: list[InputError] = []  # a record or file no longer read: its leaks are shown without context, said
    if payloads_path is not None and _is_sqlite(payloads_path):  # the store `intercept audit` read
        payloads = _store_payloads(payloads_path, wanted)
    elif payloads_path is not None:
        for payload in iter_payloads(payloads_path, on_error=unread.append):
            if payload.id in wanted:
                payloads[payload.id] = payload
    elif stores or stores_gone:  # the store `intercept audit` read, named in its findings
        for store in stores:
            payloads |= _store_payloads(store, wanted)
        notes += [f"{source}: {f}: not there any more (give --payloads): its leaks shown without context"
                  for f in stores_gone]
    elif logs or gone:  # a log audit's findings name the files they came from: read again, their calls give context
        from ec2audit.logs import read_logs

        for payload in read_logs(logs, on_error=unread.append):
            if payload.id in wanted:
                payloads[payload.id] = payload
        notes += [f"{source}: {f}: not there any more: its leaks shown without context" for f in gone]
    elif wanted:  # a clean audit has no evidence to show
        notes.append(f"{source}: no payloads found (give --payloads: the payloads file, or the interceptor's store "
                     "`intercept audit` read): evidence without context")
    notes += [f"{source}: {e}: its leaks shown without context" for e in unread]
    spans = _spans(findings)
    tasks: dict[str, list[EpisodeView]] = defaultdict(list)
    for s in sessions:
        infos = sorted(by_group.get(s["session"], []), key=lambda x: (-x["grade"], x["unit_id"]))
        task_ids = session_tasks[s["session"]]
        task_id = (task_ids[0] if len(task_ids) == 1 else "(several)" if task_ids
                   else "(nothing to score against)" if s["exposure"] is None else "(units found in its calls)")
        tasks[task_id].append(EpisodeView(
            episode_id=s["session"], task_id=task_id, label=row.label, completion=None, status=None,
            exposure=s["exposure"], leaks=[_leak(i, payloads, spans, show_values) for i in infos],
            calls=s.get("calls"), calls_without_content=s.get("calls_without_content")))
    return [row], tasks, notes, list(group_rows.values())


def _named_findings(folder: Path) -> list[Path]:
    """The findings tables of a folder that `audit --out` wrote under a name of the user's: those beside
    which it wrote their sessions table (`NAME.sessions.parquet`)."""
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in (".parquet", ".jsonl")
                  and not p.stem.endswith(".sessions") and sessions_path(p).exists())


def load(paths: list[Path], show_values: bool = False, units_path: Path | None = None,
         payloads_path: Path | None = None) -> Summary:
    """Read run directories and audit outputs (findings .parquet/.jsonl, a folder holding one, or the
    folder `audit --ray --out` writes)."""
    kinds = []
    for path in paths:
        if path.is_dir() and any((path / n).exists() for n in ("episodes.parquet", "episodes.jsonl")):
            kinds.append(("run", path))
        elif path.is_dir() and (path / "findings.parquet").exists():
            kinds.append(("audit", path / "findings.parquet"))
        elif path.is_dir() and (path / "findings").is_dir():  # `audit --ray --out FOLDER`
            kinds.append(("audit", path / "findings"))
        elif path.is_dir() and (named := _named_findings(path)):  # `audit --out FOLDER/NAME.parquet`
            kinds.extend(("audit", p) for p in named)
        elif path.is_file() and _is_sqlite(path):
            raise InputError("an interceptor's record store, not a findings table: audit it first "
                             f"(`ec2audit intercept audit {path} --units UNITS --out findings.parquet`) "
                             "and report on its output", file=str(path))
        elif path.is_file():
            kinds.append(("audit", path))
        else:
            raise InputError("not a run directory (episodes.parquet) nor a findings table (nor a folder holding "
                             "one beside its NAME.sessions.parquet)", file=str(path))
    once: dict[tuple[str, Path], tuple[str, Path]] = {}
    for kind, p in kinds:  # a source named twice (`out/f.parquet`, `./out/f.parquet`) is one source
        once.setdefault((kind, p.resolve()), (kind, p))
    kinds = list(once.values())
    vary = _varying([p for kind, p in kinds if kind == "run"])
    rows: list[StrategyRow] = []
    tasks: dict[str, list[EpisodeView]] = defaultdict(list)
    notes: list[str] = []
    groups: list[StrategyRow] = []
    names = _source_names([p for _, p in kinds])
    loaded = []
    for (kind, path), name in zip(kinds, names, strict=True):
        if kind == "run":
            r, t, n = _load_run(path, name, show_values, vary)
        else:
            r, t, n, g = _load_audit(path, name, show_values, units_path, payloads_path)
            groups += g
        rows += r
        notes += n
        loaded.append((r, t))
    twins = len({r.label for r in rows}) < len(rows)
    for r, t in loaded:  # two sources of one configuration: each row, and its episodes, say whose it is
        relabel = {row.label: f"{row.label} [{row.source}]" if twins else row.label for row in r}
        for row in r:
            row.label = relabel[row.label]
        for task_id, eps in t.items():
            for ep in eps:
                ep.label = relabel.get(ep.label, ep.label)
            tasks[task_id] += eps
    dimensions = sorted({d for r in rows for d in r.by_dimension})
    return Summary([str(p) for p in paths], rows, dimensions, dict(sorted(tasks.items())), show_values, notes,
                   groups)


def _source_names(paths: list[Path]) -> list[str]:
    """Each source's name in labels and notes: its file or folder name, with as many parent folders as
    tell it from the other sources (`a/out`, `b/out`), so two runs written under one name stay two."""
    parts = [p.resolve().parts for p in paths]
    depth = 1
    while depth < max((len(p) for p in parts), default=1) and len({p[-depth:] for p in parts}) < len(parts):
        depth += 1
    return [str(Path(*p[-depth:])) for p in parts]


def _varying(run_dirs: list[Path]) -> set[str]:
    """Which configuration columns take more than one value over all runs (they go into the labels)."""
    values: dict[str, set] = defaultdict(set)
    for run_dir in run_dirs:
        frame = read_table(_episodes_path(run_dir))
        for key in CONFIG_KEYS:
            if key in frame.columns:
                values[key] |= set(frame[key].unique().to_list())
    return {k for k, v in values.items() if len(v) > 1}
