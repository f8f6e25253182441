"""A benchmark run: every (task, strategy, run) episode, resumable, in parallel, with live progress.

Infrastructure for the whole run: the interceptor (in-process, its store is `RUN_DIR/cloud.sqlite`),
the strategy gateway, and the stand-ins or the local model when they are the configured models.
Finished episodes (folders with `record.json`) are skipped, so re-running the same command resumes;
Ctrl-C stops OpenClaw processes, keeps every finished record and rewrites the run tables, so the run
folder is consistent whenever the command returns.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TypeVar

import polars as pl
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ec2audit.audit import FINDING_SCHEMA
from ec2audit.backends import Backend
from ec2audit.console import make_console, unpriced_episodes
from ec2audit.console import tokens as console_tokens
from ec2audit.console import usd as dollars
from ec2audit.files import open_private, write_table
from ec2audit.run.config import ModelSpec, RunConfig, is_oracle
from ec2audit.run.episodes import EpisodeContext, EpisodeSpec, finished_record, run_episode
from ec2audit.run.gateway import Endpoint, Gateway
from ec2audit.run.openclaw import warm_compile_cache
from ec2audit.run.oracle_model import OracleModel
from ec2audit.run.record import FAILURES, EpisodeRecord, episode_frame
from ec2audit.run.warm import WorkerPool

#: Stand-in prices: the oracle cloud is billed at AceBench's GPT-5.4 rates (docs/design.md §1), so runs
#: with the stand-in still show what the same tokens would cost.
STANDIN_PRICING = """[models."oracle-stand-in"]
input = 2.50
cached_input = 0.25
output = 15.00
"""
#: The default local edge serves SmolLM2's full 8K window: OpenClaw's system prompt and tool list
#: alone take ~2.4K tokens, so 4K overflows after a few steps.
EDGE_CONTEXT = 8192


@dataclass
class RunResult:
    out: Path
    records: list[EpisodeRecord]
    ran: int
    skipped: int
    interrupted: bool = False
    standins: list[str] = field(default_factory=list)  # which figures come from stand-ins, in words


def describe(edge: ModelSpec, cloud: ModelSpec) -> tuple[str, str]:
    """Names for outputs: every output says when a model is a stand-in or the default local model."""
    behaviour = (edge.url or "").partition(":")[2] or "delegating"
    edge_name = (f"oracle-stand-in (scripted, {behaviour})" if is_oracle(edge.url) else
                 f"{edge.model or 'SmolLM2-135M-Instruct'} (local llama.cpp default)" if edge.url is None
                 else edge.model or edge.url)
    cloud_name = ("oracle-stand-in (scripted stand-in for a frontier cloud model)"
                  if cloud.url is None or is_oracle(cloud.url)
                  else cloud.model or cloud.url)
    return edge_name, cloud_name


def standin_notes(edge: ModelSpec, cloud: ModelSpec) -> list[str]:
    """Which figures of a run come from scripted stand-ins rather than real models."""
    notes = []
    if cloud.url is None or is_oracle(cloud.url):
        notes.append("cloud: a scripted oracle stand-in, not a frontier model; its calls, tokens, exposure and "
                     "completion are the script's, USD is those tokens at GPT-5.4 prices")
    if is_oracle(edge.url):
        notes.append("edge: a scripted oracle stand-in; edge FLOPs are its tokens × the given parameter count")
    return notes


def run(config: RunConfig, console: Console | None = None, backend: Backend | None = None) -> RunResult:
    """Run (or resume) every episode of `config`; writes the run tables and returns the records. A
    `backend` that runs episodes itself (`Backend.episodes`: Ray's, one actor per OpenClaw slot of a
    cluster) runs those to do there; the run folder is the same."""
    console = console or make_console(stderr=True)
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    tasks = {t.id: t for t in config.tasks}
    specs = config.specs()
    todo = [s for s in specs if finished_record(out, s) is None]
    edge_name, cloud_name = describe(config.edge, config.cloud)
    _write_json(out / "run.json", {
        "tasks": sorted(tasks), "strategies": config.strategies, "runs": config.runs, "router": config.router,
        "step_router": config.step_router, "cloud_contexts": config.cloud_contexts, "parallel": config.parallel,
        "edge": {**asdict(config.edge), "name": edge_name}, "cloud": {**asdict(config.cloud), "name": cloud_name},
        "sandbox": config.sandbox.isolation() if config.sandbox else None,
        "sandbox_gaps": list(config.sandbox.gaps) if config.sandbox else None, "timeout": config.timeout,
        "max_model_calls": config.max_model_calls,
        "launch": "warm-worker" if config.warm_workers else "per-episode"})
    for gap in config.sandbox.gaps if config.sandbox else ():
        console.print(f"[yellow]sandbox without[/] {gap}", highlight=False)
    console.print(f"edge: [bold]{edge_name}[/]   cloud: [bold]{cloud_name}[/]   "
                  f"episodes: {len(specs)} ({len(specs) - len(todo)} already done)", highlight=False)
    with _ctrl_c_stops_the_run():
        interrupted = backend.episodes(config, tasks, todo, console) if backend else None
        if interrupted is None:
            with contextlib.ExitStack() as stack:
                ctx = open_episodes(config, out, stack, api_key(config.edge.api_key_env),
                                    api_key(config.cloud.api_key_env), console, slots=config.parallel)
                if (config.warm_start or config.warm_workers) and todo:
                    with console.status("warming OpenClaw's compile cache (once per install) …"):
                        warm_compile_cache(config.sandbox)
                interrupted = drive(lambda spec: run_episode(ctx, tasks[spec.task_id], spec), todo, config.parallel,
                                    console, out, ctx.cancel.set)
        records = write_results(out, specs)
    skipped = len(specs) - len(todo)
    return RunResult(out, records, len(records) - skipped, skipped, interrupted,
                     standin_notes(config.edge, config.cloud))


def open_episodes(config: RunConfig, out: Path, stack: contextlib.ExitStack, edge_key: str | None,
                  cloud_key: str | None, console: Console | None = None, slots: int = 1) -> EpisodeContext:
    """What the episodes of a run share, served until `stack` closes: the stand-ins or the local edge
    model, the interceptor (its store `out/cloud.sqlite`), the strategy gateway and, with warm workers,
    `slots` OpenClaw workers. On Ray each OpenClaw slot (an actor) opens its own, in a scratch folder of
    its node."""
    from ec2audit.intercept.app import InterceptConfig, create_app
    from ec2audit.intercept.server import serve_in_thread
    from ec2audit.intercept.store import RecordStore
    from ec2audit.run.oracle_model import create_app as oracle_app

    edge_name, cloud_name = describe(config.edge, config.cloud)
    oracles = []

    def serve(app) -> str:
        url, stop = serve_in_thread(app)
        stack.callback(stop)
        return url

    if is_oracle(config.edge.url):
        oracles.append(OracleModel((config.edge.url or "").partition(":")[2] or "delegating"))
        edge = Endpoint(serve(oracle_app(oracles[-1])) + "/v1", "oracle-stand-in", params=config.edge.params)
    elif config.edge.url is None:
        from ec2audit.localmodel import LocalModelServer

        server = LocalModelServer(config.edge.model, n_ctx=EDGE_CONTEXT)
        if console:
            console.print("starting the local edge model (llama.cpp) …")
        base = server.start()
        stack.callback(server.stop)
        edge = Endpoint(base, server.model_name, params=config.edge.params or 135e6,
                        constrain=True if config.edge.constrain is None else config.edge.constrain)
    else:
        edge = Endpoint(config.edge.url, config.edge.model or "edge", edge_key,
                        config.edge.params, bool(config.edge.constrain))
    pricing: str | Path | None = config.cloud.pricing
    if config.cloud.url is None or is_oracle(config.cloud.url):
        oracles.append(OracleModel((config.cloud.url or "").partition(":")[2] or "oracle"))
        upstream, cloud_model = serve(oracle_app(oracles[-1])) + "/v1", "oracle-stand-in"
        pricing = out / "standin-pricing.toml"
        pricing.write_text(STANDIN_PRICING)
    else:  # resolve_models made sure a cloud URL comes with its model name
        upstream, cloud_model = config.cloud.url, config.cloud.model or ""
    store = RecordStore(out / "cloud.sqlite")
    stack.callback(store.close)
    units = [u for t in config.tasks for u in t.units]
    interceptor = serve(create_app(InterceptConfig(upstream=upstream, store=store, units=units,
                                                   upstream_key=cloud_key,
                                                   pricing=pricing)))
    gateway = Gateway(edge, Endpoint(interceptor + "/e/{episode}/t/{task}/v1", cloud_model))
    ctx = EpisodeContext(out, gateway, serve(gateway.app), store, config.sandbox, edge_name, cloud_name,
                         oracles, config.timeout, config.max_model_calls, config.warm_start)
    if config.warm_workers:  # closed before the servers its OpenClaw talks to (the stack unwinds backwards)
        ctx.workers = WorkerPool(out / "workers", out / "episodes", slots, config.sandbox, ctx.gateway_url)
        stack.callback(ctx.workers.close)
    return ctx


def api_key(env: str | None) -> str | None:
    """The key in the environment variable `env` (keys never live in files)."""
    return os.environ.get(env) if env else None


def failure_line(record: EpisodeRecord, run_dir: Path) -> str:
    """One line per failed episode: what happened, the model's error or OpenClaw's last stderr line
    (a timeout says after how long: its stderr ends mid-log), and where its log is."""
    last = (record.error or "").strip().splitlines()[-1:]
    if record.status == "timeout":
        detail = f" after {record.openclaw_s:.0f} s"
    else:
        detail = f": {escape(last[0].strip()[:160])}" if last else ""
    log = run_dir / "episodes" / record.episode_id / "stderr.log"
    return (f"[red]{record.status}[/] {record.episode_id} — {FAILURES.get(record.status, record.status)}"
            f"{detail}  (log: {log})")


def drive(one: Callable[[EpisodeSpec], EpisodeRecord], todo: list[EpisodeSpec], parallel: int, console: Console,
          run_dir: Path, stop: Callable[[], None]) -> bool:
    """Run `one(spec)` for every episode, `parallel` at a time, with live progress; Ctrl-C calls `stop`
    (which ends the running episodes) and returns True. Ctrl-C is noted by a handler and acted on between waits,
    never raised as KeyboardInterrupt into this loop: raised there it could land inside a lock's acquire (the
    progress lock the episode threads share, a future's condition), leave it held, and the thread pool's shutdown
    then waited for an episode thread blocked on it forever (CI, session 24: a run hung 120 s after Ctrl-C)."""
    failures, usd, unpriced = 0, 0.0, 0
    running: dict[str, str] = {}  # episode id → "task · strategy", while it runs
    lock = threading.Lock()

    def tracked(spec: EpisodeSpec) -> EpisodeRecord:
        with lock:
            running[spec.episode_id] = f"{spec.task_id} · {spec.variant}"
        try:
            return one(spec)
        finally:
            with lock:
                running.pop(spec.episode_id, None)

    def info() -> str:
        with lock:
            now = list(running.values())
        shown = ", ".join(now[:2]) + (f" +{len(now) - 2}" if len(now) > 2 else "")
        # an episode whose cost is unknown makes the total unknown, not the priced part read as the whole
        cost = unpriced_episodes(unpriced, usd) if unpriced else dollars(usd)
        return f"failed {failures}  cloud {cost}  " + (f"now {shown}" if shown else "")

    columns = [TextColumn("[bold]episodes"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.fields[info]}")]
    with _ctrl_c_noted() as pressed, Progress(*columns, console=console) as progress, \
            ThreadPoolExecutor(max(1, parallel)) as pool:
        bar = progress.add_task("run", total=len(todo), info="")
        specs = {pool.submit(tracked, s): s for s in todo}
        pending: set[Future] = set(specs)
        try:
            while pending and not pressed:
                done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                for future in done:
                    progress.advance(bar)
                    try:
                        record = future.result()
                    except Exception as exc:  # an episode that could not even start: reported, redone on resume
                        failures += 1
                        console.print(f"[red]not started[/] {specs[future].episode_id} — {type(exc).__name__}: "
                                      f"{escape(str(exc))}", highlight=False, soft_wrap=True)
                        continue
                    if not record.finished:
                        failures += 1
                        console.print(failure_line(record, run_dir), highlight=False, soft_wrap=True)
                    usd += record.cloud_usd or 0.0
                    unpriced += record.cloud_usd is None
                progress.update(bar, info=info())
        except KeyboardInterrupt:  # raised by another handler (a caller's SIGTERM turned into it): the same stop
            pressed.append(signal.SIGINT)
        if pressed:
            stop()
            for future in pending:
                future.cancel()
            console.print("[yellow]interrupted[/]: finished episodes are kept; re-run the command to resume")
            return True
    return False


@contextlib.contextmanager
def _ctrl_c_noted() -> Iterator[list[int]]:
    """A list that Ctrl-C appends to while the episodes run. After the loop sees it, Ctrl-C stays ignored (the
    handler still only appends) until the run's tables are written: OpenClaw workers and servers would outlive a
    stop cut short. Off the main thread no handler can be installed, and the list stays empty."""
    pressed: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: pressed.append(signum))
    try:
        yield pressed
    finally:
        if not pressed:
            signal.signal(signal.SIGINT, previous)
        else:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _ctrl_c_stops_the_run() -> Iterator[None]:
    """Ctrl-C (SIGINT) stops the run cleanly, even where it started with SIGINT ignored (a script's background job,
    `nohup`, a parent that ignored it): a supervisor's `kill -INT` must still stop its episodes and servers, where
    before the run went on to its end. `drive` ignores Ctrl-C from the first press until the run's tables are
    written; then it is as it was."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)


def write_results(out: Path, specs: list[EpisodeSpec]) -> list[EpisodeRecord]:
    """episodes.parquet/.jsonl, findings.parquet and summary.json from every finished episode record."""
    from ec2audit.run.episodes import episode_dir

    records = [r for r in (finished_record(out, s) for s in specs) if r is not None]
    frame = episode_frame(records)
    write_table(frame, out / "episodes.parquet")
    write_table(frame, out / "episodes.jsonl")
    findings = [pl.read_parquet(episode_dir(out, s) / "findings.parquet") for s in specs
                if (episode_dir(out, s) / "findings.parquet").is_file() and finished_record(out, s)]
    write_table(pl.concat(findings) if findings else pl.DataFrame(schema=FINDING_SCHEMA), out / "findings.parquet")
    _write_json(out / "summary.json", summarize(records))
    return records


def summarize(records: list[EpisodeRecord]) -> dict:
    """Per strategy variant: mean completion, Pass^k / Pass@k over tasks, tokens, USD, FLOPs, exposure."""
    summary = {}
    for variant in dict.fromkeys(r.variant for r in records):
        rows = [r for r in records if r.variant == variant]
        by_task: dict[str, list[bool]] = {}
        for r in rows:
            by_task.setdefault(r.task_id, []).append(r.passed)
        exposures = [r.exposure for r in rows if r.exposure is not None]
        usd = [r.cloud_usd for r in rows]
        flops = [r.edge_flops for r in rows]
        summary[variant] = {
            "episodes": len(rows), "tasks": len(by_task), "ok": sum(r.status == "ok" for r in rows),
            "completion_mean": sum(r.completion for r in rows) / len(rows),
            "pass_hat_k": sum(all(v) for v in by_task.values()) / len(by_task),
            "pass_at_k": sum(any(v) for v in by_task.values()) / len(by_task),
            "cloud_calls": sum(r.cloud_calls for r in rows),
            # unknown where an episode's are (a stream cut off), as its USD is: never the rest read as the whole
            **{f"cloud_{k}": _known_sum([getattr(r, f"cloud_{k}") for r in rows])
               for k in ("input_tokens", "cached_tokens", "output_tokens")},
            "cloud_usd": _known_sum(usd),
            # what an unknown USD is made of: its episodes without a cost, and the cost of the others
            "cloud_unpriced_episodes": sum(u is None for u in usd), "cloud_usd_priced": sum(u or 0.0 for u in usd),
            "edge_input_tokens": sum(r.edge_input_tokens for r in rows),
            "edge_output_tokens": sum(r.edge_output_tokens for r in rows),
            "edge_flops": _known_sum(flops),
            "exposure_mean": sum(exposures) / len(exposures) if exposures else None,
            # episodes of a task without units: nothing to score against (an edge-only one scores 0.0, in the mean)
            "exposure_left_out": len(rows) - len(exposures),
        }
    return summary


_N = TypeVar("_N", int, float)


def _known_sum(values: list[_N | None]) -> _N | None:
    """The sum of counts, dollars or FLOPs, unknown (None) where one of them is: never the rest read as the whole."""
    return None if any(v is None for v in values) else sum(v or 0 for v in values)



def summary_table(result: RunResult) -> Table:
    """The closing table of a run: one row per strategy variant, models named (stand-ins say so)."""
    first = result.records[0] if result.records else None
    table = Table(title=f"{result.out}  (edge: {first.edge_model if first else '-'}; "
                        f"cloud: {first.cloud_model if first else '-'})")
    for name in ("strategy", "episodes", "completion", "pass^k", "cloud tokens", "USD", "edge FLOPs", "exposure"):
        table.add_column(name, justify="left" if name == "strategy" else "right")
    if result.standins:
        table.caption = "stand-ins — " + "; ".join(result.standins)
    for variant, s in summarize(result.records).items():
        tokens = _known_sum([s["cloud_input_tokens"], s["cloud_output_tokens"]])
        table.add_row(variant, str(s["episodes"]), f"{s['completion_mean']:.2f}", f"{s['pass_hat_k']:.2f}",
                      console_tokens(tokens), unpriced_episodes(s["cloud_unpriced_episodes"], s["cloud_usd_priced"])
                      if s["cloud_usd"] is None else dollars(s["cloud_usd"], sign=""),
                      "-" if s["edge_flops"] is None else f"{s['edge_flops']:.3g}",
                      "-" if s["exposure_mean"] is None else f"{s['exposure_mean']:.3f}")
    return table


def _write_json(path: Path, data: dict) -> None:
    with open_private(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle, ensure_ascii=False, indent=1, default=str)

