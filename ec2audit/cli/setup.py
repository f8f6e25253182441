"""`ec2audit setup`: install OpenClaw, Label Studio, the default local model and Phoenix into the data folder."""

from __future__ import annotations

import click

from ec2audit.console import make_console
from ec2audit.install import PARTS


@click.command("setup")
@click.argument("parts", nargs=-1, type=click.Choice([*PARTS, "all"]))
def command(parts: tuple[str, ...]) -> None:
    """Install what commands need beyond pip, each part once (a complete part is left as it is).

    \b
    runner       OpenClaw for `ec2audit run` (npm ci from the packaged lock on Node 24 from PyPI)
    labelstudio  Label Studio in its own venv, with a migrated template, for `annotate serve`
    models       the default local model (SmolLM2 GGUF) for the judge and the edge
    phoenix      Arize Phoenix in its own venv: a local OTLP receiver and trace UI for --otlp-endpoint
    all          all four (the default)
    The data folder is $EC2AUDIT_HOME, a checkout's own folders, or the user data folder."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from ec2audit import resources
    from ec2audit.install import setup

    chosen = list(PARTS) if not parts or "all" in parts else list(dict.fromkeys(parts))
    places = resources.layout()
    click.echo(f"data folder: {places.home or f'the checkout {resources.checkout()}'}")
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=make_console(stderr=True), transient=True) as progress:
        task = progress.add_task("checking", total=None)
        for line in setup(chosen, lambda what: progress.update(task, description=what)):
            click.echo(line)
