"""`ec2audit report`: the strategy table, trade-off plots and leak drill-down of runs and audits."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ec2audit.console import make_console
from ec2audit.report.html import write_report
from ec2audit.report.summary import load
from ec2audit.report.terminal import print_summary


@click.command("report")
@click.argument("sources", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Self-contained HTML report (created 0600) [default: report.html; none with --json].")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON instead of tables.")
@click.option("--show-values", is_flag=True, help="Show leaked values in clear text (masked by default).")
@click.option("--units", "units_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Units of an audit output (default: units.jsonl next to the findings).")
@click.option("--payloads", "payloads_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Payloads of an audit output, for evidence in context: a payloads JSONL, or the interceptor's "
                   "store `intercept audit` read (default: payloads.jsonl beside, else the log files a log audit's "
                   "findings name).")
def command(sources: tuple[Path, ...], out: Path | None, as_json: bool, show_values: bool, units_path: Path | None,
            payloads_path: Path | None) -> None:
    """Report on run directories (episodes.parquet) and `ec2audit audit --out` findings tables."""
    summary = load(list(sources), show_values=show_values, units_path=units_path, payloads_path=payloads_path)
    if out is None and not as_json:  # a script asking for JSON on stdout gets no file it did not name
        out = Path("report.html")
    if out is not None:
        write_report(summary, out)
    if as_json:
        click.echo(json.dumps(summary.to_dict(), ensure_ascii=False, indent=2))
    else:
        print_summary(summary, make_console())
        click.echo(f"report: {out}")
