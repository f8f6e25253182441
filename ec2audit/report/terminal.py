"""Rich tables and JSON summaries of an audit."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ec2audit.audit import AuditResult

SNIPPET = 40


def _mask(value: str) -> str:
    """Evidence is shown masked: first and last characters only."""
    if len(value) <= 4:
        return "*" * len(value)
    keep = max(1, len(value) // 5)
    return value[:keep] + "*" * (len(value) - 2 * keep) + value[-keep:]


def audit_summary(result: AuditResult, top: int = 10) -> dict:
    """Everything the terminal shows, as plain data for scripts (`--json`)."""
    exposure = result.exposure().sort(["group", "task_id"])
    findings = result.findings_frame()
    top_rows = (findings.sort(["grade", "weight"], descending=True).unique("unit_id", keep="first",
                                                                           maintain_order=True).head(top))
    return {
        "payloads": result.payload_count,
        "characters": result.chars,
        "units": len(result.units),
        "findings": findings.height,
        "skipped_lines": [str(e) for e in result.errors],
        "exposure": exposure.to_dicts(),
        "by_dimension": result.exposure_by_dimension().to_dicts(),
        "top_leaks": [{"unit_id": r["unit_id"], "dimension": r["dimension"], "grade": r["grade"],
                       "detector": r["detector"], "payload_id": r["payload_id"], "origin": r["origin"],
                       "evidence": _mask(r["matched_text"])} for r in top_rows.iter_rows(named=True)],
    }


def print_audit(result: AuditResult, console: Console, top: int = 10) -> None:
    summary = audit_summary(result, top)
    table = Table(title=f"Exposure ({summary['payloads']} payloads, {summary['units']} units)")
    for name, justify in (("episode/task", "left"), ("task", "left"), ("units", "right"),
                          ("leaked ≥0.7", "right"), ("exposure", "right"), ("privacy", "right")):
        table.add_column(name, justify=justify)
    for row in summary["exposure"]:
        table.add_row(row["group"], row["task_id"], str(row["units"]), str(row["leaked"]),
                      f"{row['exposure']:.3f}", f"{1 - row['exposure']:.3f}")
    console.print(table)
    if summary["top_leaks"]:
        leaks = Table(title="Top leaked units (evidence masked)")
        for name in ("unit", "dimension", "grade", "detector", "payload", "origin", "evidence"):
            leaks.add_column(name)
        for r in summary["top_leaks"]:
            leaks.add_row(r["unit_id"], r["dimension"], f"{r['grade']:.1f}", r["detector"], r["payload_id"],
                          r["origin"], r["evidence"])
        console.print(leaks)
    else:
        console.print("no sensitive unit reached these payloads")
