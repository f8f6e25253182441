"""One episode: a task under one strategy, run by OpenClaw through the gateway, then scored and audited.

The episode's folder holds everything it produced (workspace copy, OpenClaw state, envelope, logs);
`record.json` is written last and atomically, so a folder without it is an unfinished episode that a
resumed run redoes. Failures of OpenClaw or of a model endpoint end the episode with a status.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ec2audit import metrics
from ec2audit.audit import AuditResult, audit
from ec2audit.errors import InputError
from ec2audit.files import open_private, write_table
from ec2audit.intercept.record import ProxyRecord
from ec2audit.intercept.store import RecordStore
from ec2audit.payloads import Payload, payload_from_record
from ec2audit.run.gateway import EpisodeState, Gateway
from ec2audit.run.openclaw import prepare, run_agent
from ec2audit.run.oracle_model import OracleModel
from ec2audit.run.record import FINISHED, PASS_AT, EpisodeRecord
from ec2audit.run.routers import parse_router
from ec2audit.run.sandbox import Sandbox
from ec2audit.run.strategies import get_strategy
from ec2audit.run.warm import SERVICE_PORT, WorkerPool
from ec2audit.tasks import Task

RECORD = "record.json"


@dataclass(frozen=True)
class EpisodeSpec:
    task_id: str
    strategy: str
    run_index: int
    router: str | None = None
    cloud_context: str = "full"

    @property
    def variant(self) -> str:
        """The strategy as results group it: router or cloud context included."""
        if self.router:
            return f"{self.strategy}[{self.router}]"
        if get_strategy(self.strategy).asks_cloud:
            return f"{self.strategy}[{self.cloud_context}]"
        return self.strategy

    @property
    def episode_id(self) -> str:
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", self.variant.replace("[", ".").rstrip("]"))
        return f"{self.task_id}.{slug}.r{self.run_index}"


@dataclass
class EpisodeContext:
    """What every episode of a run shares."""

    run_dir: Path
    gateway: Gateway
    gateway_url: str
    store: RecordStore
    sandbox: Sandbox | None
    edge_name: str
    cloud_name: str
    oracles: list[OracleModel] = field(default_factory=list)
    timeout: int | None = None
    max_model_calls: int | None = None
    warm_start: bool = True
    workers: WorkerPool | None = None  # warm OpenClaw workers; None: one OpenClaw process per episode
    cancel: threading.Event = field(default_factory=threading.Event)


def episode_dir(run_dir: Path, spec: EpisodeSpec) -> Path:
    return run_dir / "episodes" / spec.episode_id


def finished_record(run_dir: Path, spec: EpisodeSpec) -> EpisodeRecord | None:
    path = episode_dir(run_dir, spec) / RECORD
    return EpisodeRecord.from_dict(json.loads(path.read_text(encoding="utf-8"))) if path.is_file() else None


def run_episode(ctx: EpisodeContext, task: Task, spec: EpisodeSpec) -> EpisodeRecord:
    """Run, score and audit one episode; returns (and stores) its record."""
    eid = spec.episode_id
    if task.workspace is None or task.oracle is None:
        raise ValueError(f"{task.id}: not loaded from a task folder (no workspace or oracle)")
    folder = episode_dir(ctx.run_dir, spec)
    if folder.exists():
        shutil.rmtree(folder)
    strategy = get_strategy(spec.strategy)
    router = parse_router(spec.router or "", eid, strategy.routed_by) if strategy.routed_by != "none" else None
    state = EpisodeState(eid, spec.strategy, task.instruction, spec.cloud_context, task.id, router,
                         max_requests=ctx.max_model_calls)
    for oracle in ctx.oracles:
        oracle.register(eid, task.oracle)
    try:
        with contextlib.ExitStack() as stack:
            worker = stack.enter_context(ctx.workers.worker()) if ctx.workers else None
            work = worker.root / eid if worker else folder  # a warm worker's episode moves out after its turn
            prepare(work, task.workspace)
            if worker:
                folder.parent.mkdir(parents=True, exist_ok=True)
                stack.callback(os.replace, work, folder)
            started = time.monotonic()
            env, instruction, services, service_port = {}, task.instruction, [], None
            if task.service:
                from ec2audit.oracle import serve_service

                url = stack.enter_context(serve_service(task.service, work / "service.log"))
                services.append(url)
                if worker and ctx.sandbox and ctx.sandbox.private_network:  # one fixed port inside, relayed
                    service_port, url = int(url.rsplit(":", 1)[1]), f"http://127.0.0.1:{SERVICE_PORT}"
                env["EC2_SERVICE_URL"], instruction = url, instruction.replace("{service_url}", url)
            base_url, timeout = f"{ctx.gateway_url}/e/{eid}/v1", ctx.timeout or task.timeout
            state.instruction, state.call_timeout = instruction, timeout  # a slow local model is bound by the deadline
            ctx.gateway.open(state)
            if worker:
                result = worker.run(work, instruction, base_url, timeout, env, ctx.cancel, lambda: bool(state.errors),
                                    service_port, task.sandbox_paths)
            else:
                result = run_agent(folder, instruction, base_url, timeout, ctx.sandbox, env, ctx.cancel,
                                   stop=lambda: bool(state.errors), services=services,
                                   read_only=task.sandbox_paths, warm=ctx.warm_start)
    finally:
        ctx.gateway.close(eid)
        for oracle in ctx.oracles:
            oracle.unregister(eid)
    workspace, service_log = folder / "workspace", folder / "service.log" if task.service else None
    duration = time.monotonic() - started
    if state.errors:
        status = "model_error"
    elif result.timed_out:
        status = "timeout"
    elif state.budget_exhausted:
        status = "budget"  # stopped after its --max-model-calls: not a failure of the agent or of a model
    elif result.exit_code == 0 and (result.envelope or {}).get("ok"):
        status = "ok"
    else:
        status = "crash"
    criteria: dict[str, object]
    try:
        check = task.check(workspace, service_log)
        completion, criteria = check.completion, dict(check.criteria)
    except Exception as exc:  # a checker crash scores 0 and says why; it never stops the run
        completion, criteria = 0.0, {"checker_error": f"{type(exc).__name__}: {exc}"}
    cloud = [r for r in ctx.store.records(eid) if r.model_call]  # a model listing is no call
    findings, exposure, by_dimension, leaked, unread = audit_episode(task, eid, cloud)
    write_table(findings, folder / "findings.parquet")
    edge_in = sum(c["input_tokens"] for c in state.edge_calls)
    edge_out = sum(c["output_tokens"] for c in state.edge_calls)
    params = ctx.gateway.edge.params
    record = EpisodeRecord(
        episode_id=eid, task_id=task.id, scenario=task.scenario, strategy=spec.strategy, variant=spec.variant,
        router=spec.router, cloud_context=spec.cloud_context if strategy.asks_cloud else None,
        edge_model=ctx.edge_name, cloud_model=ctx.cloud_name, run_index=spec.run_index, status=status,
        completion=completion, criteria=json.dumps(criteria, ensure_ascii=False), passed=completion >= PASS_AT,
        **cloud_usage(cloud),
        edge_calls=len(state.edge_calls), edge_input_tokens=edge_in, edge_output_tokens=edge_out,
        # no edge call costs no FLOPs, whatever the edge model's size; calls of a model of unknown size: unknown
        edge_flops=2.0 * (params or 0.0) * (edge_in + edge_out) if params or not state.edge_calls else None,
        exposure=exposure, exposure_by_dimension=metrics.dimension_rows(by_dimension),
        leaked_units=json.dumps(leaked, ensure_ascii=False), routes=json.dumps(state.routes), asks=state.asks,
        exit_code=result.exit_code, error="; ".join(state.errors + unread) or
        (None if status in FINISHED else result.stderr_tail[-500:]), duration_s=round(duration, 3),
        openclaw_s=round(result.duration_s, 3),
        openclaw_startup_s=round(state.first_request_at - started, 3) if state.first_request_at else None,
        isolation=json.dumps(result.isolation), launch="warm-worker" if ctx.workers else "per-episode",
        worker_episode=result.worker_episode)
    tmp = folder / (RECORD + ".tmp")
    with open_private(tmp, "w", encoding="utf-8") as out:
        json.dump(record.to_dict(), out, ensure_ascii=False, indent=1)
    os.replace(tmp, folder / RECORD)
    return record


def cloud_usage(cloud: list[ProxyRecord]) -> dict[str, Any]:
    """An episode record's cloud figures from its calls' records: calls, tokens (unknown where a call counted none,
    a stream cut off: never 0) and USD (unknown where a call had no price). A request the proxy blocked is no
    call (never sent), as `audit` and `intercept audit` count it."""
    cloud = [r for r in cloud if r.forwarded]
    costs = [r.billed_usd for r in cloud]
    return {"cloud_calls": len(cloud),
            "cloud_usd": None if any(c is None for c in costs) else float(sum(c or 0.0 for c in costs)),
            **{f"cloud_{k}": metrics.token_total(cloud, k) for k in ("input_tokens", "cached_tokens", "output_tokens")}}


def audit_episode(task: Task, eid: str, cloud: list[ProxyRecord]):
    """Findings frame, exposure, exposure per dimension, the leaked units (with the first call) and, named with
    why, the forwarded records whose request body cannot be read (an edited or foreign store): what they sent is
    not audited, so the exposure is at least the figure given, never a silent clean call."""
    from ec2audit.logs.intercept_store import unread_reason

    payloads, unread = [], []
    for r in cloud:
        if not r.forwarded:  # blocked: it reached no cloud
            continue
        try:
            payloads.append(payload_from_record({"id": r.id, "episode": eid, "task_id": task.id,
                                                 "request": r.request}, r.id))
            continue
        except InputError as exc:
            reason = unread_reason(r, exc.reason)
        except (TypeError, AttributeError, ValueError) as exc:  # a body of a shape the reader cannot take
            reason = f"{type(exc).__name__}: {exc}"
        unread.append(f"record {r.id}: request body not read ({reason}): what it sent is not audited, the exposure "
                      "is at least the figure given")
    result = AuditResult(task.units)
    result.score(Payload(eid, [], task_id=task.id, episode=eid))  # scored with or without a cloud call
    audit(payloads, task.units, result=result)
    findings = result.findings_frame()
    exposure = result.exposure()["exposure"].to_list()  # none for a task without units
    by_dimension = dict(sorted((r["dimension"], float(r["exposure"]))
                               for r in result.exposure_by_dimension().iter_rows(named=True)))
    call_index = {p.id: i for i, p in enumerate(payloads)}
    best: dict[str, dict] = {}
    first: dict[str, int] = {}
    # best grade first, then the earliest call (payload ids are random: never an order)
    rows = sorted(findings.iter_rows(named=True), key=lambda r: (-r["grade"], call_index[r["payload_id"]],
                                                                 r["message_index"], r["start"]))
    for row in rows:
        unit, call = row["unit_id"], call_index[row["payload_id"]]
        first[unit] = min(first.get(unit, call), call)
        if unit not in best:
            best[unit] = {k: row[k] for k in ("unit_id", "dimension", "grade", "payload_id", "origin",
                                              "message_index", "detector", "start", "end", "matched_text")}
    for unit, item in best.items():
        item["first_call"] = first[unit]
    leaked = sorted(best.values(), key=lambda u: (u["first_call"], u["unit_id"]))
    return findings, exposure[0] if exposure else None, by_dimension, leaked, unread
