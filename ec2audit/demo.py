"""`make demo`: the whole job on a small slice of the suite: run, audit, report.

A few tasks × every strategy × 1 run through real OpenClaw, with the built-in defaults: the local
llama.cpp model (SmolLM2-135M-Instruct) as the edge and a scripted oracle stand-in for the cloud
(announced as such) unless EC2_CLOUD_URL / EC2_CLOUD_MODEL (key in EC2_CLOUD_API_KEY) name a real one.
Each episode has a budget in model calls (`--max-model-calls`), so the demo's length does not depend
on how slowly the small edge model wanders. Every cloud payload is audited; the demo ends with the
headline table (it says which figures come from stand-ins) and the HTML report's path. A failed
episode is one line saying why and where its log is; nothing ends in a traceback.
`--audit-only` is the quick path without OpenClaw: synthetic bilingual payloads audited and reported.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rich.console import Console

from ec2audit import resources
from ec2audit.console import make_console
from ec2audit.report.html import write_report
from ec2audit.report.summary import load

#: Short annotated tasks in both languages whose oracle reads sensitive files.
DEMO_TASKS = ("office-hr-notice-101", "office-hr-notice-102", "security-deploy-log-301")


def audit_only(out: Path, console: Console) -> Path:
    """Synthetic units and cloud-bound payloads (Faker, en + zh), audited and reported."""
    from ec2audit.files import write_table
    from ec2audit.logs.audit import audit_logs, sessions_path
    from ec2audit.logs.report import log_summary, print_log_audit
    from ec2audit.synth import make_payloads, make_units, write_jsonl
    from ec2audit.units import write_units

    units = make_units(60, 2, seed=7)
    records, _ = make_payloads(units, 60_000, seed=7)
    write_units(units, out / "units.jsonl")
    write_jsonl(records, out / "payloads.jsonl")
    console.print(f"[bold]ec2audit demo (audit only)[/]: {len(units)} synthetic units (en + zh, Faker), "
                  f"{len(records)} cloud-bound requests → {out}")
    log = audit_logs([out / "payloads.jsonl"], units)  # what `ec2audit audit --out` does
    findings = write_table(log.findings_frame(), out / "findings.parquet")
    log.write_sessions(sessions_path(findings))
    print_log_audit(log_summary(log), console)
    console.print(f"rerun: ec2audit audit {out}/payloads.jsonl --units {out}/units.jsonl --out {findings} "
                  f"&& ec2audit report {findings}", highlight=False)
    return write_report(load([findings]), out / "report.html")


def full_run(out: Path, tasks_root: Path, n_tasks: int, timeout: int, parallel: int, max_model_calls: int,
             console: Console) -> Path:
    """Run the slice through OpenClaw and the strategy gateway, then report the run directory."""
    from ec2audit.run.config import ModelSpec, RunConfig
    from ec2audit.run.sandbox import probe
    from ec2audit.run.scheduler import run, summary_table
    from ec2audit.run.strategies import STRATEGIES
    from ec2audit.tasks import load_suite

    suite = {t.id: t for t in load_suite(tasks_root.resolve())}
    tasks = [suite[i] for i in DEMO_TASKS[:n_tasks]]
    cloud, run_name = ModelSpec(), "run-standin"
    if os.environ.get("EC2_CLOUD_URL"):
        cloud = ModelSpec(url=os.environ["EC2_CLOUD_URL"], model=os.environ.get("EC2_CLOUD_MODEL"),
                          api_key_env="EC2_CLOUD_API_KEY")
        run_name = "run-" + "".join(c if c.isalnum() or c in "-." else "-" for c in cloud.model or "cloud")
    console.print(f"[bold]ec2audit demo[/]: {len(tasks)} tasks ({', '.join(t.id for t in tasks)}) × "
                  f"{len(STRATEGIES)} strategies × 1 run through OpenClaw, {max_model_calls} model calls per "
                  f"episode at most; finished episodes are kept, so a second `make demo` only reports.",
                  highlight=False)
    config = RunConfig(tasks=tasks, strategies=list(STRATEGIES), out=out / run_name, runs=1, parallel=parallel,
                       cloud=cloud, sandbox=probe(), timeout=timeout, max_model_calls=max_model_calls)
    result = run(config, console)
    report = write_report(load([result.out]), out / "report.html")
    console.print(summary_table(result))
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("demo-out"))
    parser.add_argument("--audit-only", action="store_true", help="Synthetic audit example, no OpenClaw run.")
    parser.add_argument("--tasks-root", type=Path, default=resources.data("tasks"))
    parser.add_argument("--tasks", type=int, default=1, choices=range(1, len(DEMO_TASKS) + 1),
                        help="How many demo tasks to run (1: English; 2 adds a Chinese one).")
    parser.add_argument("--max-model-calls", type=int, default=4, help="Model calls per episode at most.")
    parser.add_argument("--timeout", type=int, default=300, help="Seconds per episode at most (a safety net).")
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args(argv)
    console = make_console()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.audit_only:
        report = audit_only(args.out, console)
    else:
        from ec2audit.errors import InputError
        from ec2audit.run.openclaw import OpenClawMissing
        from ec2audit.run.sandbox import SandboxUnavailable

        try:
            report = full_run(args.out, args.tasks_root, args.tasks, args.timeout, args.parallel,
                              args.max_model_calls, console)
        except (OpenClawMissing, SandboxUnavailable, InputError) as exc:
            console.print(f"[red]cannot run the demo[/]: {exc}\n"
                          "(`python -m ec2audit.demo --audit-only` shows the audit part without OpenClaw)")
            sys.exit(2)
        except KeyboardInterrupt:
            console.print("[yellow]interrupted[/]: finished episodes are kept; `make demo` resumes")
            sys.exit(130)
    console.print(f"report: [bold]{report.resolve()}[/]", highlight=False)


if __name__ == "__main__":
    main()
