"""`ec2audit units`: check sensitive-unit files and convert them from and to AceBench."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from ec2audit.console import make_console, plural
from ec2audit.units import read_acebench, read_units, weight_by_dimension, write_acebench, write_units


@click.group("units")
def command() -> None:
    """Check sensitive-unit files; convert from and to AceBench sensitive_items.json."""


@command.command("check")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def check(path: Path) -> None:
    """Validate a units JSONL file and print counts per task and dimension."""
    units = read_units(path)
    table = Table(title=f"{path}: {plural(len(units), 'unit')}")
    for name in ("task", "dimension", "units", "total weight"):
        table.add_column(name, no_wrap=name == "task")
    for task, dim, n, weight in weight_by_dimension(units):
        table.add_row(task, dim, str(n), f"{weight:g}")
    make_console().print(table)


@command.command("import-acebench")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path), help="Units JSONL to write.")
@click.option("--task-id", help="Task id for a single file (default: the folder above gt/).")
def import_acebench(path: Path, out: Path, task_id: str | None) -> None:
    """Read one sensitive_items.json, or every one under a directory, into units JSONL; in AceBench's own
    folder each workspace's units take its task's id (`ACE_Bench_task_101_x` for `task_101_x`)."""
    from ec2audit.acebench import workspace_task_ids

    units = read_acebench(path, task_id, task_ids=workspace_task_ids(path))
    write_units(units, out)
    click.echo(f"{plural(len(units), 'unit')} from {plural(len({u.task_id for u in units}), 'task')} → {out}")


@command.command("export-acebench")
@click.argument("units_path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory; writes <task>/gt/sensitive_items.json.")
def export_acebench(units_path: Path, out: Path) -> None:
    """Write units as AceBench sensitive_items.json files, one per task."""
    files = write_acebench(read_units(units_path), out)
    click.echo(f"{plural(len(files), 'file')} under {out}")
