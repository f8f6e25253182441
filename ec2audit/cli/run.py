"""`ec2audit run`: the benchmark — tasks × strategies on real OpenClaw, every cloud payload audited."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

STRATEGIES = ("edge-only", "cloud-only", "query-router", "step-router", "edge-delegate", "edge-advice")


@click.command("run")
@click.option("--strategy", "strategies", multiple=True, default=("all",), show_default=True,
              type=click.Choice([*STRATEGIES, "all"]), help="Repeat for several; `all` = the six.")
@click.option("--tasks", "selector", default="annotated", show_default=True,
              help="Task ids, globs, scenario names, `annotated` or `all` (comma-separated).")
@click.option("--tasks-root", type=click.Path(file_okay=False, path_type=Path), default=Path("tasks"),
              show_default=True)
@click.option("--runs", type=click.IntRange(1), default=1, show_default=True, help="Runs per task (Pass^k).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Run folder.")
@click.option("--models", "models_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="models.toml with [edge] and [cloud] (options below override it).")
@click.option("--edge", help="Edge base URL (…/v1), or `oracle` (scripted stand-in; `oracle:gives-up`, "
                            "`oracle:wrong-tool` misbehave, `oracle:snoop` tries to escape the sandbox). "
                            "Default: the local llama.cpp model.")
@click.option("--edge-model", help="Edge model name (or GGUF path for the local default).")
@click.option("--edge-params", type=float, help="Edge parameter count, for FLOPs (e.g. 135e6).")
@click.option("--edge-key-env", help="Environment variable holding the edge API key.")
@click.option("--cloud", help="Cloud base URL (…/v1), or `oracle`. Default: the oracle stand-in.")
@click.option("--cloud-model", help="Cloud model name.")
@click.option("--cloud-key-env", help="Environment variable holding the cloud API key.")
@click.option("--router", help="Task-level router for query-router: fixed:edge|cloud, random:P, llm, "
                               "learned:MODEL.json.  [default: random:0.5]")
@click.option("--step-router", help="Step-level router for step-router: entropy:TAU, random:P, on-error.  "
                                    "[default: entropy:1.5]")
@click.option("--cloud-context", "contexts", multiple=True, default=("full",), show_default=True,
              type=click.Choice(["full", "query", "head-tail"]), help="What the cloud sees in edge-delegate "
                                                                      "and edge-advice (repeat for several).")
@click.option("--parallel", type=click.IntRange(1), default=1, show_default=True)
@click.option("--timeout", type=click.IntRange(1), help="Agent deadline per episode (s); default: the task's.")
@click.option("--max-model-calls", type=click.IntRange(1),
              help="Budget per episode in model calls: past it the agent is told to stop (status `budget`).")
@click.option("--no-sandbox", is_flag=True, help="Run OpenClaw unconfined (its exec tool runs as you).")
def command(strategies, selector, tasks_root, runs, out, models_path, edge, edge_model, edge_params,
            edge_key_env, cloud, cloud_model, cloud_key_env, router, step_router, contexts, parallel, timeout,
            max_model_calls, no_sandbox) -> None:
    """Run tasks under strategies with OpenClaw; write per-episode results, findings and a summary."""
    from dataclasses import replace

    from rich.console import Console
    from rich.table import Table

    from ec2audit.errors import InputError
    from ec2audit.run.config import load_models, select_tasks
    from ec2audit.run.episodes import FINISHED
    from ec2audit.run.openclaw import OpenClawMissing, node_binary, openclaw_entry
    from ec2audit.run.routers import parse_router
    from ec2audit.run.sandbox import SandboxUnavailable, probe
    from ec2audit.run.scheduler import ModelSpec, RunConfig, run
    from ec2audit.tasks import load_suite

    console = Console(stderr=True)
    try:
        node_binary(), openclaw_entry()
    except OpenClawMissing as exc:
        raise InputError(str(exc)) from None
    edge_spec, cloud_spec = load_models(models_path) if models_path else (ModelSpec(), ModelSpec())
    edge_spec = replace(edge_spec, **{k: v for k, v in {"url": edge, "model": edge_model, "params": edge_params,
                                                         "api_key_env": edge_key_env}.items() if v is not None})
    cloud_spec = replace(cloud_spec, **{k: v for k, v in {"url": cloud, "model": cloud_model,
                                                           "api_key_env": cloud_key_env}.items() if v is not None})
    if cloud_spec.url and not cloud_spec.url.startswith("oracle") and not cloud_spec.model:
        raise InputError("a cloud URL needs --cloud-model", field="cloud-model")
    if router:
        parse_router(router)
    if step_router:
        parse_router(step_router, step=True)
    sandbox = None
    if not no_sandbox:
        try:
            sandbox = probe()
        except SandboxUnavailable as exc:
            raise InputError(f"refusing to run OpenClaw unconfined: {exc}. Pass --no-sandbox to run anyway "
                             "(its exec tool then runs as you)") from None
    else:
        console.print("[yellow]warning[/]: --no-sandbox: OpenClaw's exec tool runs unconfined, as you")
    chosen = list(STRATEGIES) if "all" in strategies else list(dict.fromkeys(strategies))
    config = RunConfig(select_tasks(load_suite(tasks_root), selector), chosen, out, runs, router, step_router,
                       list(dict.fromkeys(contexts)), parallel, edge_spec, cloud_spec, sandbox, timeout,
                       max_model_calls)
    result = run(config, console)
    summary = json.loads((out / "summary.json").read_text())
    table = Table(title=f"{out}  (edge: {result.records[0]['edge_model'] if result.records else '-'}; "
                        f"cloud: {result.records[0]['cloud_model'] if result.records else '-'})")
    for name in ("strategy", "episodes", "completion", "pass^k", "cloud tokens", "USD", "edge FLOPs", "exposure"):
        table.add_column(name, justify="left" if name == "strategy" else "right")
    for variant, s in summary.items():
        tokens = s["cloud_input_tokens"] + s["cloud_output_tokens"]
        table.add_row(variant, str(s["episodes"]), f"{s['completion_mean']:.2f}", f"{s['pass_hat_k']:.2f}",
                      str(tokens), "-" if s["cloud_usd"] is None else f"{s['cloud_usd']:.4f}",
                      "-" if s["edge_flops"] is None else f"{s['edge_flops']:.3g}",
                      "-" if s["exposure_mean"] is None else f"{s['exposure_mean']:.3f}")
    Console().print(table)
    click.echo(f"results: {out / 'episodes.parquet'} ({result.ran} run, {result.skipped} resumed)")
    if result.interrupted:
        sys.exit(130)
    if any(r["status"] not in FINISHED for r in result.records):
        sys.exit(1)
