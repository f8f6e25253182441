"""`ec2audit audit`: which sensitive units reached a cloud model, from request logs or agent logs."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import click
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn

from ec2audit.backends import Backend, get_backend
from ec2audit.cli import EXIT_SKIPPED
from ec2audit.cli._otlp import KEEP_EVIDENCE, OTLP_ENDPOINT, check_otlp
from ec2audit.console import make_console, plural
from ec2audit.errors import InputError
from ec2audit.logs import FORMATS, OwnFiles
from ec2audit.logs.audit import audit_logs, read_task_map, sessions_path
from ec2audit.logs.classify import Classifier
from ec2audit.logs.report import log_summary, print_log_audit
from ec2audit.units import read_units


@click.command("audit")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--units", "units_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Annotated sensitive units (JSONL).")
@click.option("--discover", is_flag=True,
              help="No annotations: derive candidate units from the logs' user inputs and tool results.")
@click.option("--no-presidio", is_flag=True, help="With --discover: ec2audit's own recognizers only (fast).")
@click.option("--format", "fmt", type=click.Choice(list(FORMATS)), help="Force a log format (default: detect).")
@click.option("--cloud", multiple=True, metavar="GLOB",
              help="Calls matching this provider/model, model, provider or base-URL glob are cloud (repeatable).")
@click.option("--edge", multiple=True, metavar="GLOB",
              help="Calls matching this glob are edge, e.g. 'ollama/*', 'http://10.0.0.5*' (repeatable).")
@click.option("--task-map", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Which task each session ran (JSON object or CSV 'session,task_id'); unmapped sessions are "
                   "scored against the units found in their own calls.")
@click.option("--jobs", type=click.IntRange(min=1),
              help="Worker processes for many files [default: 1]; with --ray, actors [default: one per CPU].")
@click.option("--ray", "ray_address", is_flag=False, flag_value="", default=None, metavar="[ADDRESS]",
              help="Audit on a Ray cluster: join ADDRESS (write --ray=ADDRESS before the paths), else "
                   "RAY_ADDRESS, else start a local one. --out is then a folder.")
@click.option("--out", type=click.Path(path_type=Path),
              help="Write findings with their call and carrier here (.parquet, or .jsonl), and every session's "
                   "calls and exposure beside it (NAME.sessions.parquet); created 0600. With "
                   "--ray a folder: findings/ (Parquet partitioned by dimension), findings.sessions.parquet, "
                   "exposure.parquet, summary.json, nodes.json; `ec2audit report` reads it.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON instead of tables.")
@click.option("--show-values", is_flag=True, help="Show leaked values in clear text (masked by default); for the "
              "owner of the logs.")
@OTLP_ENDPOINT
@KEEP_EVIDENCE
def command(paths: tuple[Path, ...], units_path: Path | None, discover: bool, no_presidio: bool, fmt: str | None,
            cloud: tuple[str, ...], edge: tuple[str, ...], task_map: Path | None, jobs: int | None,
            ray_address: str | None, out: Path | None, as_json: bool, show_values: bool, otlp_endpoint: str | None,
            keep_evidence: bool) -> None:
    """Audit request logs or agent logs (files or directories; format detected per file).

    Every file under the paths is read or named as skipped with its reason (exit 1 then, as when no model call
    was found in them). Formats:
    OpenClaw transcripts (JSONL, rotated, SQLite), trajectories and cron run logs, Claude Code sessions, Codex
    CLI rollouts, Gemini CLI sessions, Cline / Roo Code task folders, OpenAI / Anthropic / Gemini request logs and
    plain JSON conversations, OpenAI, Anthropic, Gemini, Vertex AI and Bedrock batch files (input, output and error
    files, gzipped or not, paired across the paths given; one left unpaired is named), HAR, VCR.py cassettes,
    OpenTelemetry GenAI and OpenInference spans, LiteLLM and Langfuse exports, Inspect AI eval logs, tau-bench,
    SWE-agent, mini-swe-agent and OpenHands trajectories, AgentDojo and Invariant traces, AceBench's cloud audit
    (`cloud_assistant_audit.jsonl`) and ec2audit's interceptor store.
    Only calls to cloud models are scanned; each leak is attributed to the first cloud call that sent it.
    """
    if bool(units_path) == discover:
        raise InputError("give exactly one of --units FILE or --discover", field="units")
    check_otlp(otlp_endpoint, keep_evidence)
    if out and out.is_dir() and ray_address is None:
        raise InputError("is a folder: give a .parquet or .jsonl file (a folder only with --ray)", file=str(out))
    units = read_units(units_path) if units_path else None
    mapping = read_task_map(task_map) if task_map else None
    backend: Backend | None
    if ray_address is not None:
        backend = get_backend("ray", address=ray_address, workers=jobs)
    else:
        backend = get_backend("processes", workers=jobs) if (jobs or 1) > 1 else None
    scratch = None  # workers write their findings beside the output (a cluster's nodes share it)
    if out and backend:
        scratch = out if ray_address is not None else out.parent
        scratch.mkdir(parents=True, exist_ok=True, mode=0o700)
    console = make_console(stderr=True)
    unknown = sorted({t for t in (mapping or {}).values()} - {u.task_id for u in units or []}) if units else []
    if unknown:  # a typo in the map, or a units file without those tasks: said, not scored against by surprise
        console.print(f"[yellow]note[/] {task_map}: {plural(len(unknown), 'task')} without units in {units_path} "
                      f"({', '.join(unknown[:5])}{', …' if len(unknown) > 5 else ''}): their sessions are scored "
                      "against the units found in their own calls", highlight=False, soft_wrap=True)
    what = plural(len(units), "unit") if units is not None else "discovered units"
    columns = (TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
               TimeRemainingColumn())
    # stdout is the summary's alone (`--json` is read by scripts): what a library prints while the audit
    # runs goes to stderr — Ray's driver prints its cluster's notices ("a worker died …") on stdout
    with contextlib.redirect_stdout(sys.stderr), Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(f"auditing against {what}", total=None)
        audited = 0

        def scanned(payload) -> None:
            nonlocal audited
            audited += 1
            if audited % 50 == 0:
                bar.update(task, description=f"{audited} cloud calls scanned")

        log = audit_logs(list(paths), units, discover=discover, fmt=fmt, classifier=Classifier(cloud, edge),
                         use_presidio=not no_presidio, on_payload=scanned, backend=backend, scratch=scratch,
                         task_map=mapping, own=_own_files(units_path, task_map, out),
                         on_progress=lambda done, total: bar.update(task, completed=done, total=total))
    for file, what in log.own_files:
        console.print(f"not read {file}: {what}, not a log", highlight=False, soft_wrap=True)
    for error in log.errors:
        console.print(f"[yellow]skipped[/] {error}", highlight=False, soft_wrap=True)
    summary = log_summary(log, show_values=show_values)
    leaks = log.leaked() if otlp_endpoint else []  # before `release` removes what the workers wrote
    if out and ray_address is not None:
        from ec2audit.scale.audit import write_audit

        write_audit(log, summary, out)
        findings = out / "findings"
    elif out:
        log.write_findings(out, backend)  # by a worker where there are workers
        log.write_sessions(sessions_path(out))
        findings = out
    log.release()  # the workers' parts, written out or summed up
    if as_json:
        sys.stdout.write(json.dumps(summary, ensure_ascii=False, indent=2) + "\n")  # bounded: one write
    else:
        print_log_audit(summary, make_console())
        if out:
            click.echo(f"findings: {findings}; sessions: {sessions_path(findings)}")
    if otlp_endpoint:
        from ec2audit.report.otel_export import export, from_log_audit

        counts = {k: summary[k] for k in ("calls", "cloud_calls", "cloud_calls_without_content", "units")}
        sent = export(from_log_audit(leaks), otlp_endpoint, keep_evidence=keep_evidence, counts=counts)
        click.echo(f"exported {plural(sent, 'span')} to {otlp_endpoint}", err=True)
    if log.errors or not summary["calls"]:  # nothing read (no model call in the paths) is no clean audit
        sys.exit(EXIT_SKIPPED)


def _own_files(units: Path | None, task_map: Path | None, out: Path | None) -> OwnFiles:
    """This audit's own files, which a folder audited may hold: its units file and task map, and an earlier run's
    `--out` findings and sessions table (rewritten by this one)."""
    files = {units: "the units file (--units)", task_map: "the task map (--task-map)",
             out: "the findings --out writes (an earlier run's)",
             out and sessions_path(out): "the sessions table --out writes (an earlier run's)"}
    return OwnFiles({path: what for path, what in files.items() if path})
