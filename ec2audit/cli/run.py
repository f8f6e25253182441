"""`ec2audit run`: the benchmark — tasks × strategies on real OpenClaw, every cloud payload audited."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ec2audit import resources
from ec2audit.console import make_console
from ec2audit.run.routers import ROUTERS
from ec2audit.run.strategies import CLOUD_CONTEXTS, STRATEGIES


def _usage(level: str) -> str:
    return ", ".join(r.usage for r in ROUTERS[level].values())


@click.command("run")
@click.option("--strategy", "strategies", multiple=True, default=("all",), show_default=True,
              type=click.Choice([*STRATEGIES, "all"]), help="Repeat for several; `all` = every strategy.")
@click.option("--tasks", "selector", default="annotated", show_default=True,
              help="Task ids, globs, scenario names, `annotated` or `all` (comma-separated).")
@click.option("--tasks-root", type=click.Path(file_okay=False, path_type=Path), default=resources.data("tasks"),
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
@click.option("--router", help=f"Task-level router of task-routed strategies: {_usage('task')}.  "
                               "[default: random:0.5]")
@click.option("--step-router", help=f"Step-level router of step-routed strategies: {_usage('step')}.  "
                                    "[default: entropy:1.5]")
@click.option("--cloud-context", "contexts", multiple=True, default=("full",), show_default=True,
              type=click.Choice(CLOUD_CONTEXTS), help="What the cloud sees when the edge asks it (edge-delegate, "
                                                      "edge-advice; repeat for several).")
@click.option("--parallel", type=click.IntRange(1), default=1, show_default=True,
              help="Episodes at a time; with --ray the cluster's OpenClaw slots decide (and a local cluster "
                   "gets this many).")
@click.option("--ray", "ray_address", is_flag=False, flag_value="", default=None, metavar="[ADDRESS]",
              help="Run each episode as a task on a Ray cluster: join ADDRESS, else RAY_ADDRESS, else start a "
                   "local one. Nodes advertise OpenClaw with --resources '{\"openclaw\": N}'.")
@click.option("--timeout", type=click.IntRange(1), help="Agent deadline per episode (s); default: the task's.")
@click.option("--max-model-calls", type=click.IntRange(1),
              help="Budget per episode in model calls: past it the agent is told to stop (status `budget`).")
@click.option("--no-sandbox", is_flag=True, help="Run OpenClaw unconfined (its exec tool runs as you).")
@click.option("--warm-workers/--no-warm-workers", default=True, show_default=True,
              help="Without --ray: one long-lived OpenClaw (and sandbox) per --parallel slot serving its "
                   "episodes one after another, each with its own folder, state and HOME; --no-warm-workers: one "
                   "OpenClaw process and sandbox per episode (slower start-up, nothing shared between episodes).")
def command(strategies, selector, tasks_root, runs, out, models_path, edge, edge_model, edge_params,
            edge_key_env, cloud, cloud_model, cloud_key_env, router, step_router, contexts, parallel, ray_address,
            timeout, max_model_calls, no_sandbox, warm_workers) -> None:
    """Run tasks under strategies with OpenClaw; write per-episode results, findings and a summary."""

    from ec2audit.backends import get_backend
    from ec2audit.run.config import RunConfig, preflight, resolve_models, select_tasks
    from ec2audit.run.scheduler import run, summary_table
    from ec2audit.tasks import load_suite

    console = make_console(stderr=True)
    edge_spec, cloud_spec = resolve_models(
        models_path, {"url": edge, "model": edge_model, "params": edge_params, "api_key_env": edge_key_env},
        {"url": cloud, "model": cloud_model, "api_key_env": cloud_key_env})
    sandbox = preflight({"task": router, "step": step_router}, sandboxed=not no_sandbox)
    if no_sandbox:
        console.print("[yellow]warning[/]: --no-sandbox: OpenClaw's exec tool runs unconfined, as you")
    chosen = list(STRATEGIES) if "all" in strategies else list(dict.fromkeys(strategies))
    config = RunConfig(select_tasks(load_suite(tasks_root.resolve()), selector), chosen, out, runs, router, step_router,
                       list(dict.fromkeys(contexts)), parallel, edge_spec, cloud_spec, sandbox, timeout,
                       max_model_calls, warm_workers=warm_workers)
    result = run(config, console, get_backend("ray", address=ray_address) if ray_address is not None else None)
    make_console().print(summary_table(result))
    click.echo(f"results: {out / 'episodes.parquet'} ({result.ran} run, {result.skipped} resumed)")
    if result.interrupted:
        sys.exit(130)
    if not all(r.finished for r in result.records):
        sys.exit(1)
