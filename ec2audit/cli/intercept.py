"""`ec2audit intercept`: run the auditing proxy, export its records, re-audit a store."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ec2audit.cli import EXIT_SKIPPED
from ec2audit.cli._otlp import KEEP_EVIDENCE, OTLP_ENDPOINT, check_otlp
from ec2audit.console import make_console, plural, tokens, unknown_cost, usd
from ec2audit.errors import InputError
from ec2audit.intercept.usage import DEFAULT_TIER, service_tier

if TYPE_CHECKING:
    import polars as pl

    from ec2audit.audit import AuditResult
    from ec2audit.detect.cascade import Cascade
    from ec2audit.intercept.pricing import Pricing
    from ec2audit.intercept.record import ProxyRecord


@click.group("intercept")
def command() -> None:
    """Auditing proxy between an agent and its cloud model (OpenAI / Anthropic APIs)."""


@command.command("serve")
@click.option("--upstream", required=True, help="Cloud API base URL including /v1, e.g. https://api.openai.com/v1.")
@click.option("--upstream-key-env", metavar="VAR",
              help="Environment variable holding the upstream API key (else the client's key is passed on).")
@click.option("--units", "units_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Sensitive units (JSONL): audit every request inline.")
@click.option("--enforce", type=click.Choice(["observe", "redact", "block"]), default="observe", show_default=True,
              help="observe: record only; redact: replace unit values by placeholders; block: refuse with 403.")
@click.option("--store", type=click.Path(dir_okay=False, path_type=Path), default=Path("intercept.sqlite"),
              show_default=True, help="SQLite record store (created 0600).")
@click.option("--pricing", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Price table (TOML) adding to or overriding the packaged one; "
                   "[models.\"NAME\".service_tier.flex] prices the flex tier (OpenAI's service_tier, "
                   "Bedrock's serviceTier).")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8787, show_default=True, type=int,
              help="0: any free port; the first line printed names the one taken.")
@click.option("--read-timeout", default=300.0, show_default=True, type=float,
              help="Seconds to wait for the upstream's next bytes.")
@click.option("--keep-evidence", is_flag=True,
              help="Store each finding's matched text as it was (default: masked, e.g. ###-####-####).")
@click.option("--refuse-unread", is_flag=True,
              help="With --enforce block or redact, refuse (403) a request carrying a file the guard cannot read "
                   "(an image, audio); without it such a file is forwarded and named on the record.")
def serve(upstream: str, upstream_key_env: str | None, units_path: Path | None, enforce: str, store: Path,
          pricing: Path | None, host: str, port: int, read_timeout: float, keep_evidence: bool,
          refuse_unread: bool) -> None:
    """Forward every POST under /v1 (chat/completions, responses, messages, count_tokens, embeddings, …)
    and GET /v1/models to UPSTREAM, recording each exchange; POSTs under Ollama's /api, Cohere's /v2 and
    Gemini's /v1beta and /upload go to the same path on UPSTREAM's host. Give an episode id per request with header
    X-EC2-Episode or URL prefix /e/<episode>, and its task with X-EC2-Task or /e/<episode>/t/<task>.
    SIGTERM or Ctrl-C stops it cleanly: every record is then in the store file itself."""
    import logging

    import uvicorn

    from ec2audit.intercept.app import InterceptConfig, create_app
    from ec2audit.units import read_units

    key = None
    if upstream_key_env:
        key = os.environ.get(upstream_key_env)
        if not key:
            raise InputError(f"environment variable {upstream_key_env} is not set", field="--upstream-key-env")
    units = read_units(units_path) if units_path else []
    config = InterceptConfig(upstream=upstream, store=store, upstream_key=key, units=units, enforce=enforce,
                             pricing=pricing, read_timeout=read_timeout, keep_evidence=keep_evidence,
                             refuse_unread=refuse_unread)
    listening = _listen(host, port)
    app = create_app(config)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                                           proxy_headers=False))
    # uvicorn's own stop from here on, before the banner lets anyone signal: a SIGTERM or Ctrl-C that lands
    # before uvicorn installs it (or after it restores these and re-raises the signal) still asks for a clean stop,
    # where raising KeyboardInterrupt in between left the server half started (exit 3, or a hang at exit)
    # (the caller's handlers are put back once it has stopped: run in-process, it leaves them as it found them)
    callers = {signum: signal.signal(signum, server.handle_exit) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        click.echo(f"ec2audit intercept: http://{host}:{listening.getsockname()[1]}/v1 → {config.upstream} "
                   f"({enforce}, {plural(len(units), 'unit')}, store {store})", err=True)
        started = time.time()
        server.run(sockets=[listening])
    finally:
        for signum, handler in callers.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
    if not server.started:
        sys.exit(3)  # uvicorn's startup failure (said in its log), as `uvicorn.run` ends on it
    click.echo(_stopped(store, started, app.state.interceptor.pricing), err=True)


def _listen(host: str, port: int) -> socket.socket:
    """The proxy's socket, listening before the banner names its port: connections made from then on wait in
    the backlog until the proxy serves, and `--port 0` gets any free port, said in the banner (a port looked up
    free and bound later can be taken in between)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: a restart beside TIME_WAIT works
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror}", field="--port") from None
    sock.listen(2048)  # uvicorn's backlog
    return sock


def _stopped(store: Path, since: float, pricing: Pricing) -> str:
    """What this run of the proxy recorded, per model (calls, tokens — unknown where a call counted none —, USD:
    unknown where a call had no price, and why), what its policy did (requests blocked, never sent and no call,
    as `audit` counts them; values redacted), and how to audit it: a store outlives the run and may hold earlier
    runs' records, left out."""
    from ec2audit import metrics
    from ec2audit.intercept.store import read_records

    recorded = [r for r in read_records(store) if r.ts >= since and r.model_call]
    calls = [r for r in recorded if r.forwarded]
    per_model: dict[str, list[ProxyRecord]] = {}
    for record in calls:
        per_model.setdefault(record.model or "?", []).append(record)
    lines = [f"stopped: {plural(len(calls), 'call')} recorded in {store} by this run"]
    for model, rows in per_model.items():
        unpriced = [r for r in rows if r.billed_usd is None]
        cost = ("USD " + _unknown_cost(rows, unpriced, pricing) if unpriced
                else "USD " + usd(sum(r.billed_usd or 0.0 for r in rows), sign=""))
        counts = [metrics.token_total(rows, name) for name in ("input_tokens", "output_tokens")]
        lines.append(f"  {model}: {plural(len(rows), 'call')}, {tokens(counts[0])} input / "
                     f"{tokens(counts[1])} output tokens, {cost}")
    if blocked := len(recorded) - len(calls):
        lines.append(f"  {plural(blocked, 'request')} blocked (403), never sent to the cloud: no call, no cost")
    if redacted := [r for r in calls if r.redactions]:
        lines.append(f"  {plural(sum(r.redactions or 0 for r in redacted), 'value')} redacted in "
                     f"{plural(len(redacted), 'call')} before they were sent")
    if recorded:
        lines.append(f"audit them: ec2audit audit {store} --units FILE (or --discover)")
    return "\n".join(lines)


def _unknown_cost(rows: list[ProxyRecord], unpriced: list[ProxyRecord], pricing: Pricing) -> str:
    """Why a model's cost is unknown, in `audit`'s and `report`'s words (`unknown_cost`): calls whose answer
    counted no tokens, a model the proxy's prices (`--pricing`, the packaged ones) do not know at the service
    tier that served them, else a cut-off answer."""
    counted = [r for r in unpriced if _counted(r)]
    unknown = _tiers_without_price(counted, pricing)
    return unknown_cost(len(rows), len(unpriced), len(unpriced) - len(counted), len(unknown),
                        next((t for t in unknown if t != DEFAULT_TIER), None))


def _counted(record: ProxyRecord) -> bool:
    """Whether the answer counted tokens (its usage was recorded)."""
    return record.input_tokens is not None or record.output_tokens is not None


def _tiers_without_price(counted: list[ProxyRecord], pricing: Pricing) -> list[str]:
    """The service tiers of the calls among `counted` (unpriced, with usage) whose model the prices do not know at
    the tier that served them; the others' answers were cut off."""
    tiers = [service_tier(r.response, r.request) for r in counted]
    return [tier for r, tier in zip(counted, tiers, strict=True) if not pricing.priced(r.model, tier)]


@command.command("standin")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8788, show_default=True, type=int)
def standin(host: str, port: int) -> None:
    """Serve the scripted stand-in cloud API (not a model): try the proxy without a cloud key.

    It speaks /v1/chat/completions, /v1/responses and /v1/messages, streaming or not, and answers by
    the request's model: any name echoes the last user text; tool-echo answers with a `send` tool
    call; fault-500, fault-slow, fault-cut, fault-malformed and fault-hang play faults. Point the
    proxy at it with `ec2audit intercept serve --upstream http://HOST:PORT/v1`."""
    import uvicorn

    from ec2audit.intercept.standin import create_app

    click.echo(f"ec2audit stand-in cloud API (scripted, not a model): http://{host}:{port}/v1", err=True)
    uvicorn.run(create_app(), host=host, port=port, log_level="warning", access_log=False, proxy_headers=False)


@command.command("export")
@click.argument("store", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["parquet", "jsonl"]), help="Default: from --out's suffix.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--episode", help="Only this episode's records.")
def export(store: Path, fmt: str | None, out: Path, episode: str | None) -> None:
    """Write a store's records as Parquet or JSONL (created 0600); the store is only read."""
    from ec2audit.intercept.store import export_records

    path, count = export_records(store, out, fmt, episode)
    click.echo(f"records: {path} ({plural(count, 'record')})")
    if not count:
        raise InputError("the store holds no records" + (f" of episode {episode}" if episode else ""),
                         file=str(store))


def _with_steps(findings: pl.DataFrame, records: list[ProxyRecord], store: Path) -> pl.DataFrame:
    """Findings with the `step` of their call: its number among its episode's records in arrival
    order (1-based, every record counted), as the log audit numbers calls, so that `report` names
    the call that first sent a unit; and the `store` they came from (its absolute path), where `report`
    reads their calls again for the evidence's context, as it reads a log audit's `log_file`."""
    import polars as pl

    steps: dict[str, int] = {}
    counts: Counter = Counter()
    for record in records:
        counts[record.episode] += 1
        steps[record.id] = counts[record.episode]
    return findings.with_columns(step=pl.col("payload_id").replace_strict(steps, default=None, return_dtype=pl.Int64),
                                 store=pl.lit(str(store.absolute()), pl.String))


def _sessions(result: AuditResult, records: list[ProxyRecord]) -> pl.DataFrame:
    """One row per episode, as `audit --out` writes its sessions table beside the findings, so that `report` counts
    every episode audited, those that sent nothing of their task too (0.0), not only those with findings: its
    model calls (those forwarded to the cloud: a blocked request is no call, as `audit STORE` counts it) and their
    usage, and its exposure over its task's units."""
    import polars as pl

    from ec2audit import metrics
    from ec2audit.audit import group_of
    from ec2audit.intercept.pricing import Pricing
    from ec2audit.logs.audit import NOTHING, SESSION_SCHEMA, found_scope
    from ec2audit.payloads import Payload

    calls: dict[str, list[ProxyRecord]] = {}
    for record in records:
        calls.setdefault(group_of(Payload(record.id, [], task_id=record.task_id, episode=record.episode)),
                         []).append(record)
    scored = metrics.by_group(result.unit_frame())
    rows = []
    # the price map is read only where a cost is missing
    pricing = Pricing() if any(r.forwarded and r.billed_usd is None and _counted(r) for r in records) else None
    for group, mine in calls.items():
        sent = [r for r in mine if r.forwarded]
        unpriced = [r for r in sent if r.billed_usd is None]
        no_price = _tiers_without_price([r for r in unpriced if _counted(r)], pricing) if pricing else []
        tasks = [] if group in result.found else sorted(result.tasks.get(group, set()) & result.unit_tasks)
        score = scored.get(group, {"units": 0, "leaked": 0, "exposure": None, "exposure_by_dimension": {}})
        rows.append({
            "session": group, "calls": len(sent), "cloud_calls": len(sent), "calls_without_content": 0,
            "units": score["units"], "leaked": score["leaked"], "exposure": score["exposure"],
            "exposure_by_dimension": metrics.dimension_rows(score["exposure_by_dimension"]),
            "scored_against": NOTHING if group not in scored
            else found_scope(len(result.unread.get(group, []))) if group in result.found
            else f"task {', '.join(tasks)}" if len(tasks) <= 3 else f"{len(tasks)} tasks",
            "tasks": tasks,
            **{f"cloud_{k}": metrics.token_total(sent, k) for k in ("input_tokens", "cached_tokens", "output_tokens")},
            "cloud_usd": None if unpriced else sum(r.billed_usd or 0.0 for r in sent),
            "cloud_unpriced_calls": len(unpriced),
            "cloud_calls_without_usage": sum(r.input_tokens is None and r.output_tokens is None for r in sent),
            "cloud_calls_without_price": len(no_price),
            "cloud_unpriced_tier": next((t for t in no_price if t != DEFAULT_TIER), None)})
    return pl.DataFrame(rows, schema=SESSION_SCHEMA)


def _score_blocked(result: AuditResult, cascade: Cascade, record: ProxyRecord, store: Path) -> InputError | None:
    """Score the episode of a request the proxy blocked (it reached no cloud); one that names no task of the units
    is scored over the units found in its calls, as `audit` scores a session matched to no task: the ones in this
    unsent request count too (at 0.0, unless another call sent them). A body that cannot be read is returned as
    the error to name (`blocked_unread`), its episode's units a lower bound."""
    from ec2audit.logs.intercept_store import UNREADABLE, blocked_unread, why_unread
    from ec2audit.payloads import Payload, payload_from_record

    empty = Payload(record.id, [], task_id=record.task_id, episode=record.episode)
    if record.task_id in result.unit_tasks:
        result.score(empty)
        return None
    try:
        payload = payload_from_record(record.to_row(), record.id)
    except UNREADABLE as exc:  # no body to read: its units unknown, said
        reason = why_unread(exc)
    else:
        result.score(payload, {f.unit_id for f in cascade.scan(payload)})
        return None
    result.unread.setdefault(result.score(empty), []).append(record.id)
    return blocked_unread(record, reason, store)


@command.command("audit")
@click.argument("store", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--units", "units_path", required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Sensitive units (JSONL).")
@click.option("--episode", help="Only this episode's records.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write findings here (.parquet, or .jsonl); created 0600.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON instead of tables.")
@OTLP_ENDPOINT
@KEEP_EVIDENCE
def audit(store: Path, units_path: Path, episode: str | None, out: Path | None, as_json: bool,
          otlp_endpoint: str | None, keep_evidence: bool) -> None:
    """Re-audit the request bodies a store holds (what reached the cloud) against sensitive units; an
    episode whose records name their task is scored against that task's units only. The store is only
    read; one with no records is an error (exit 1), never "no leak"."""

    from ec2audit.audit import AuditResult
    from ec2audit.audit import audit as run_audit
    from ec2audit.detect.cascade import build_cascade
    from ec2audit.files import write_table
    from ec2audit.intercept.store import read_records
    from ec2audit.logs.audit import sessions_path
    from ec2audit.logs.intercept_store import unread_reason
    from ec2audit.payloads import payload_from_record
    from ec2audit.report.terminal import audit_summary, print_audit
    from ec2audit.units import read_units

    check_otlp(otlp_endpoint, keep_evidence)
    units = read_units(units_path)
    console = make_console(stderr=True)
    records = read_records(store, episode)
    if not records:
        click.echo(f"error: {store}: the store holds no records{f' of episode {episode}' if episode else ''} "
                   "(a proxy killed before a clean stop keeps them in its -wal file: copy it along)", err=True)
        sys.exit(EXIT_SKIPPED)
    payloads, skipped = [], []
    records = [r for r in records if r.model_call]  # a model listing (GET /v1/models) has no prompt to audit
    blocked = [r for r in records if not r.forwarded]
    if blocked:
        console.print(f"{plural(len(blocked), 'record')} blocked by the proxy, never sent to the cloud: scored as "
                      "sending nothing (in an episode that names no task, the units found in them count as kept "
                      "local)", highlight=False)
    unread = Counter(p["media_type"] for r in records if r.forwarded for p in r.unread or ())
    if unread:  # what no detector saw inside, said rather than scored as clean
        kinds = ", ".join(f"{kind} ×{n}" for kind, n in sorted(unread.items()))
        console.print(f"{plural(unread.total(), 'file')} sent that the proxy could not read inside ({kinds}): not "
                      "audited (`unread` on their records)", highlight=False)
    result, cascade = AuditResult(units), build_cascade(units)
    for record in records:
        if not record.forwarded:  # its episode is scored all the same: 0.0 where every request of it was blocked
            if unread_body := _score_blocked(result, cascade, record, store):
                skipped.append(unread_body)
            continue
        try:
            payloads.append(payload_from_record(record.to_row(), record.id))
        except InputError as exc:
            skipped.append(InputError(f"request body not read ({record.error or unread_reason(record, exc.reason)})",
                                      file=str(store), field=f"record {record.id}"))
        except (TypeError, AttributeError, ValueError) as exc:  # a body of a shape the reader cannot take
            skipped.append(InputError(f"request body not readable ({type(exc).__name__}: {exc})",
                                      file=str(store), field=f"record {record.id}"))
    with console.status(f"auditing {plural(len(payloads), 'record')} against {plural(len(units), 'unit')}"):
        run_audit(payloads, units, cascade, result=result)
    result.errors += skipped  # in `--json` too
    for error in skipped:
        console.print(f"[yellow]skipped[/] {error}", highlight=False)
    if out:
        write_table(_with_steps(result.findings_frame(), records, store), out)
        write_table(_sessions(result, records), sessions_path(out))
    if as_json:
        # the blocked requests, no calls (never sent) yet scored, as `audit --json` counts them in `coverage`
        click.echo(json.dumps(audit_summary(result) | {"blocked": len(blocked)}, ensure_ascii=False, indent=2))
    else:
        print_audit(result, console=make_console())
        if out:
            click.echo(f"findings: {out}")
    if otlp_endpoint:
        from ec2audit.report.otel_export import export, from_store_audit

        leaks = from_store_audit(result.findings_frame().to_dicts(), {r.id: r for r in records})
        sent = export(leaks, otlp_endpoint, keep_evidence=keep_evidence,
                      counts={"records": len(records), "units": len(units)})
        click.echo(f"exported {plural(sent, 'span')} to {otlp_endpoint}", err=True)
    if skipped:
        sys.exit(EXIT_SKIPPED)
