"""`ec2audit audit`: which sensitive units reached the cloud, with evidence and exposure."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console

from ec2audit.audit import audit_file
from ec2audit.cli import EXIT_SKIPPED
from ec2audit.files import write_table
from ec2audit.report.terminal import audit_summary, print_audit
from ec2audit.units import read_units


@click.command("audit")
@click.argument("payloads", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--units", "units_path", required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Sensitive units (JSONL).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write findings here (.parquet, or .jsonl); created 0600.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON instead of tables.")
def command(payloads: Path, units_path: Path, out: Path | None, as_json: bool) -> None:
    """Audit a JSONL file of cloud-bound request bodies against sensitive units."""
    units = read_units(units_path)
    console = Console(stderr=True)
    with console.status(f"auditing {payloads.name} against {len(units)} units"):
        result = audit_file(payloads, units)
    for error in result.errors:
        console.print(f"[yellow]skipped[/] {error}", highlight=False)
    if out:
        write_table(result.findings_frame(), out)
    if as_json:
        click.echo(json.dumps(audit_summary(result), ensure_ascii=False, indent=2))
    else:
        print_audit(result, Console())
        if out:
            click.echo(f"findings: {out}")
    if result.errors:
        sys.exit(EXIT_SKIPPED)
