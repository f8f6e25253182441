"""`ec2audit tasks`: list, show and validate the task suite; import AceBench task Markdown."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import click
from rich.table import Table

from ec2audit import resources
from ec2audit.console import make_console, plural
from ec2audit.tasks import SCENARIOS, find_task, load_suite

_root = click.option("--root", default=resources.data("tasks"), show_default=True, envvar="EC2_TASKS",
                     type=click.Path(file_okay=False, path_type=Path), help="Folder holding <scenario>/<id>/ tasks.")


@click.group("tasks")
def command() -> None:
    """The executable task suite: list, show, validate; import AceBench tasks."""


@command.command("list")
@_root
@click.option("--scenario", type=click.Choice(SCENARIOS), help="Only this scenario.")
def list_tasks(root: Path, scenario: str | None) -> None:
    """One row per task: family, scenario, language, units, oracle steps, mock service routes."""
    tasks = load_suite(root, scenario)
    table = Table(title=f"{plural(len(tasks), 'task')} under {root}")
    for name in ("id", "family", "scenario", "lang", "units", "steps", "services", "title"):
        table.add_column(name, justify="right" if name in ("units", "steps") else "left", no_wrap=name == "id")
    for t in tasks:
        steps = len((t.oracle or {}).get("steps", []))
        table.add_row(t.id, t.family, t.scenario, t.language, str(len(t.units)) if t.units else "-", str(steps),
                      " ".join(t.service_routes), t.title)
    make_console().print(table)
    langs = Counter(t.language for t in tasks)
    click.echo(f"families: {len({t.family for t in tasks})}, annotated: {sum(t.annotated for t in tasks)}, "
               f"units: {sum(len(t.units) for t in tasks)}, "
               f"with a service: {sum(t.service is not None for t in tasks)}, "
               + ", ".join(f"{k}: {v}" for k, v in sorted(langs.items())))


@command.command("show")
@_root
@click.argument("task_id")
def show(root: Path, task_id: str) -> None:
    """Instruction, criteria, workspace files and units of one task."""
    t = find_task(task_id, root)
    console = make_console()
    console.print(f"[bold]{t.id}[/] — {t.title}  ({t.scenario}, {t.language}, timeout {t.timeout}s)")
    console.print(f"\n{t.instruction}\n")
    if t.privacy_note:
        console.print(f"[italic]privacy:[/] {t.privacy_note}\n")
    table = Table(title="criteria")
    for name in ("key", "weight", "description"):
        table.add_column(name)
    for c in t.criteria:
        table.add_row(c.key, f"{c.weight:g}", c.description)
    console.print(table)
    workspace = t.workspace or Path()  # a loaded task always has its folder
    files = sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*") if p.is_file())
    console.print(f"workspace ({plural(len(files), 'file')}): " + ", ".join(files))
    if t.service:
        console.print(f"service: {t.service}")
    dims = Counter(u.dimension for u in t.units)
    console.print(f"units: {len(t.units)}" + (" (" + ", ".join(f"{k} {v}" for k, v in sorted(dims.items())) + ")"
                                             if dims else ""))
    steps = (t.oracle or {}).get("steps", [])
    console.print(f"oracle: {plural(len(steps), 'step')}: " + " → ".join(s["tool"] for s in steps))


@command.command("validate")
@_root
@click.argument("task_ids", nargs=-1)
def validate(root: Path, task_ids: tuple[str, ...]) -> None:
    """Oracle must score 1.0, the do-nothing agent 0, every unit sit at its span; exit 1 on any failure."""
    from rich.progress import Progress

    from ec2audit.oracle import validate_task

    tasks = [t for t in load_suite(root) if not task_ids or t.id in task_ids]
    missing = set(task_ids) - {t.id for t in tasks}
    if missing:
        raise click.BadParameter(f"no such task: {', '.join(sorted(missing))}", param_hint="TASK_IDS")
    results = []
    with Progress(transient=True) as progress:
        bar = progress.add_task("validating", total=len(tasks))
        for task in tasks:
            results.append((task, validate_task(task)))
            progress.advance(bar)
    table = Table(title=f"validated {plural(len(tasks), 'task')}")
    for name in ("task", "oracle", "do-nothing", "units", "status"):
        table.add_column(name, no_wrap=name == "task")
    for task, v in results:
        problem = v.error or "; ".join(v.unit_problems[:2]) or ""
        if not v.error and v.oracle and v.oracle.completion != 1.0:
            problem = "oracle fails: " + ", ".join(k for k, s in v.oracle.criteria.items() if float(s) < 1)
        elif not v.error and v.empty and v.empty.completion != 0.0:
            problem = "do-nothing scores: " + ", ".join(k for k, s in v.empty.criteria.items() if float(s) > 0)
        table.add_row(task.id, f"{v.oracle.completion:.2f}" if v.oracle else "-",
                      f"{v.empty.completion:.2f}" if v.empty else "-",
                      f"{len(task.units) - len(v.unit_problems)}/{len(task.units)}",
                      "[green]ok[/]" if v.ok else f"[red]FAIL[/] {problem}")
    make_console().print(table)
    failed = [t.id for t, v in results if not v.ok]
    click.echo(f"{len(results) - len(failed)}/{len(results)} tasks ok" + (f"; failed: {', '.join(failed)}" if failed
                                                                         else ""))
    if failed:
        sys.exit(1)


@command.command("import-acebench")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--root", "acebench_root", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="AceBench's folder, which each task's Workspace Path is relative to "
                   "[default: the folder holding the tasks/ folder PATH is in].")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Write tasks.jsonl (one task per line) and units.jsonl here.")
@click.option("--json", "as_json", is_flag=True,
              help="Print tasks, privacy-annotated count, scenarios and problems as JSON (for scripts).")
def import_acebench_cmd(path: Path, acebench_root: Path | None, out: Path | None, as_json: bool) -> None:
    """Parse AceBench task Markdown (a file, a folder or AceBench's own folder); report whatever could not be
    mapped (exit 1)."""
    from ec2audit.acebench import import_acebench, task_row
    from ec2audit.units import write_units

    result = import_acebench(path, acebench_root)
    rows = [task_row(t) for t in result.tasks]
    if as_json:
        click.echo(json.dumps({
            "tasks": rows, "privacy_annotated": sum(t.privacy_note is not None for t in result.tasks),
            "scenarios": dict(sorted(Counter(t.scenario for t in result.tasks).items())),
            "problems": [{"file": p.file, "message": p.message} for p in result.problems]},
            ensure_ascii=False, indent=1, default=str))
    else:
        table = Table(title=f"{plural(len(result.tasks), 'AceBench task')} from {path}")
        for name in ("id", "scenario", "lang", "criteria", "gates", "units", "title"):
            table.add_column(name, no_wrap=name == "id")
        for t in result.tasks:
            table.add_row(t.id, t.scenario, t.language, str(len(t.criteria)), str(sum(c.gate for c in t.criteria)),
                          str(len(t.units)), t.title)
        make_console().print(table)
        click.echo(f"{plural(sum(len(t.units) for t in result.tasks), 'unit')} in "
                   f"{plural(sum(bool(t.units) for t in result.tasks), 'task')}")
        files_by_message: dict[str, list[str]] = {}
        for problem in result.problems:
            files_by_message.setdefault(problem.message, []).append(problem.file)
        for message, files in files_by_message.items():  # a message repeated in many files is said once
            where = files[0] if len(files) == 1 else f"{plural(len(files), 'file')} (first {files[0]})"
            click.echo(f"not mapped: {where}: {message}")
    if out:
        out.mkdir(parents=True, exist_ok=True)
        with (out / "tasks.jsonl").open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
        write_units([u for t in result.tasks for u in t.units], out / "units.jsonl")
        click.echo(f"wrote {out / 'tasks.jsonl'} and {out / 'units.jsonl'}", err=as_json)
    if result.problems:
        sys.exit(1)
