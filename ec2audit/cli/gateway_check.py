"""`ec2audit gateway-check`: probe an LLM gateway position by position for values reaching the provider."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from ec2audit.errors import InputError

#: Exit code when a unit value reached the upstream in some cell.
EXIT_LEAKED = 1
_STYLE = {"leaked": "bold red", "redacted": "green", "blocked": "green", "dropped": "cyan", "error": "yellow"}


def _models(given: tuple[str, ...]) -> dict[str, str]:
    from ec2audit.gateway.positions import APIS

    models = {}
    for item in given:
        api, _, name = item.rpartition("=")
        if api and api not in APIS:
            raise InputError(f"unknown API {api!r} in {item!r} (known: {', '.join(APIS)})", field="--model")
        models[api or "*"] = name
    return models


def _table(matrix):
    from rich import box
    from rich.table import Table

    from ec2audit.gateway.positions import APIS, POSITIONS

    short = {"openai-chat": "chat", "openai-responses": "resp", "anthropic-messages": "msgs"}
    columns = [(api, stream) for api in APIS for stream in (False, True)
               if any(c.api == api and c.stream == stream for c in matrix.cells)]
    table = Table(title=f"gateway-check {matrix.gateway}  (/s: streamed)", box=box.SIMPLE, pad_edge=False)
    table.add_column("position", no_wrap=True)
    for api, stream in columns:
        table.add_column(short[api] + ("/s" if stream else ""), no_wrap=True)
    for name in POSITIONS:
        row = [matrix.cell(name, api, stream) for api, stream in columns]
        if any(row):
            table.add_row(name, *(f"[{_STYLE[c.verdict]}]{c.verdict}[/]" if c else "n/a" for c in row))
    return table


@click.command("gateway-check")
@click.argument("gateway_url", required=False)
@click.option("--upstream-port", type=int, help="Port on 127.0.0.1 for the recording upstream the gateway forwards to.")
@click.option("--units", "units_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Units the gateway protects (JSONL); default: the probe units of --export-units.")
@click.option("--export-units", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the probe units (JSONL, for configuring the gateway) and exit.")
@click.option("--model", "models", multiple=True, metavar="[API=]NAME",
              help="Model name to ask the gateway for (default echo); API= for one wire API only, e.g. "
                   "anthropic-messages=claude-echo.")
@click.option("--gateway-key-env", metavar="VAR", help="Environment variable holding the gateway's API key.")
@click.option("--position", "positions", multiple=True, help="Only these positions (repeatable; default: all).")
@click.option("--api", "apis", multiple=True,
              type=click.Choice(["openai-chat", "openai-responses", "anthropic-messages"]),
              help="Only these wire APIs (repeatable; default: all three).")
@click.option("--timeout", default=60.0, show_default=True, type=float, help="Seconds per request.")
@click.option("--json", "as_json", is_flag=True, help="Print the matrix as JSON.")
def command(gateway_url: str | None, upstream_port: int | None, units_path: Path | None, export_units: Path | None,
            models: tuple[str, ...], gateway_key_env: str | None, positions: tuple[str, ...], apis: tuple[str, ...],
            timeout: float, as_json: bool) -> None:
    """Probe an LLM gateway position by position: which sensitive values reach the model provider.

    Send every request position (roles, content parts, tool calls and results, tool definitions,
    Responses items, Anthropic blocks, metadata, headers, encoded and split values) through the
    gateway at GATEWAY_URL (base URL with /v1), whose upstream is a recording stand-in on
    127.0.0.1:--upstream-port, and print position × API × stream → leaked / redacted / dropped /
    blocked / error. Exit 0: no unit value reached the upstream; 1: some did; 2: usage or connection
    error."""
    from ec2audit.gateway.check import PROBE_UNITS, Target, check_gateway
    from ec2audit.units import read_units, write_units

    if export_units:
        write_units(PROBE_UNITS, export_units)
        click.echo(f"probe units: {export_units} ({len(PROBE_UNITS)})")
        return
    if not gateway_url:
        raise InputError("GATEWAY_URL is required (or --export-units FILE)", field="GATEWAY_URL")
    if upstream_port is None:
        raise InputError("--upstream-port is required: the port the gateway forwards to", field="--upstream-port")
    key = None
    if gateway_key_env:
        key = os.environ.get(gateway_key_env)
        if not key:
            raise InputError(f"environment variable {gateway_key_env} is not set", field="--gateway-key-env")
    target = Target(gateway_url.rstrip("/"), models=_models(models), timeout=timeout,
                    **({"key": key} if key else {}))
    units = read_units(units_path) if units_path else None
    from ec2audit.gateway.positions import APIS

    matrix = check_gateway(target, upstream_port, units, list(positions) or None, apis or APIS)
    if as_json:
        click.echo(json.dumps(matrix.to_dict(), ensure_ascii=False, indent=2))
    else:
        from rich.console import Console

        console = Console(width=max(Console().width, 100))  # never cut a verdict
        console.print(_table(matrix))
        for cell in matrix.cells:
            if cell.verdict in ("leaked", "error"):
                what = ", ".join(cell.leaked) if cell.leaked else cell.note
                console.print(f"{cell.verdict}: {cell.position} {cell.api}{' stream' if cell.stream else ''}: "
                              f"{what}", highlight=False, markup=False)
        counts = ", ".join(f"{n} {v}" for v, n in matrix.counts().items() if n)
        console.print(f"{len(matrix.cells)} cells: {counts}", highlight=False)
    if matrix.leaked:
        sys.exit(EXIT_LEAKED)
