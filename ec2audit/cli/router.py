"""`ec2audit router`: train the learned task-level router from earlier run results."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ec2audit import resources
from ec2audit.console import plural


@click.group("router")
def command() -> None:
    """Routers for the query-router strategy."""


@command.command("train")
@click.argument("runs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--tasks-root", type=click.Path(file_okay=False, path_type=Path), default=resources.data("tasks"),
              show_default=True)
@click.option("--cloud-share", type=click.FloatRange(0, 1), default=0.3, show_default=True,
              help="Share of tasks the trained router sends to the cloud (sets the threshold).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def train(runs: tuple[Path, ...], tasks_root: Path, cloud_share: float, out: Path) -> None:
    """Learn which tasks need the cloud from RUNS that ran edge-only and cloud-only; use with
    `ec2audit run --strategy query-router --router learned:OUT`."""
    from ec2audit.run.routers import examples_from_runs, learned_score, train_learned
    from ec2audit.tasks import load_suite

    instructions = {t.id: t.instruction for t in load_suite(tasks_root)}
    examples = examples_from_runs(list(runs), instructions)
    model = train_learned(examples, cloud_share)
    out.write_text(json.dumps(model, ensure_ascii=False, indent=1), encoding="utf-8")
    to_cloud = sum(learned_score(model, text) >= model["threshold"] for text, _ in examples)
    click.echo(f"trained on {plural(len(examples), 'task')} ({sum(y for _, y in examples)} need the cloud); "
               f"{to_cloud} routed to the cloud at threshold {model['threshold']:.3f}; wrote {out}")
