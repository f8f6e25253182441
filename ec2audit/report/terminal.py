"""Rich tables and JSON summaries of an audit and of run results (the HTML report's tables, in a terminal)."""

from __future__ import annotations

import polars as pl
from rich.console import Console, JustifyMethod
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ec2audit.audit import AuditResult
from ec2audit.console import plural, usd
from ec2audit.detect.semantic import CANDIDATE
from ec2audit.report.summary import Summary, masked_evidence


def audit_summary(result: AuditResult, top: int = 10) -> dict:
    """Everything the terminal shows, as plain data for scripts (`--json`)."""
    exposure = result.exposure().sort(["group", "task_id"])
    everything = result.findings_frame()
    candidate = pl.col("detector") == CANDIDATE  # shortlisted for review, graded by nobody: not a leak
    findings, candidates = everything.filter(~candidate), everything.filter(candidate)
    top_rows = (findings.sort(["grade", "weight"], descending=True).unique("unit_id", keep="first",
                                                                           maintain_order=True).head(top))
    return {
        "payloads": result.payload_count,
        "characters": result.chars,
        "units": len(result.units),
        "findings": findings.height,
        "candidates": candidates.height,  # "needs review": `ec2audit judge review push`
        "skipped_lines": [str(e) for e in result.errors],
        "exposure": exposure.to_dicts(),
        "by_dimension": result.exposure_by_dimension().to_dicts(),
        "top_leaks": [{"unit_id": r["unit_id"], "dimension": r["dimension"], "grade": r["grade"],
                       "detector": r["detector"], "payload_id": r["payload_id"], "origin": r["origin"],
                       "evidence": masked_evidence(r["matched_text"], r["detector"])}
                      for r in top_rows.iter_rows(named=True)],
    }


def print_audit(result: AuditResult, console: Console, top: int = 10) -> None:
    summary = audit_summary(result, top)
    table = Table(title=f"Exposure ({plural(summary['payloads'], 'payload')}, {plural(summary['units'], 'unit')})")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("episode/task", "left"), ("task", "left"), ("units", "right"), ("leaked ≥0.7", "right"),
        ("exposure", "right"), ("privacy", "right"))
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for row in summary["exposure"]:
        # a group that names no task of the units is scored against the units found in its calls, as `audit` says
        # (at least those: a blocked request of it whose body could not be read held units unknown, `found_scope`)
        lower = row["task_id"] is None and row["group"] in result.unread
        table.add_row(row["group"], row["task_id"] or f"units in its calls{', at least' * lower}",
                      f"≥{row['units']}" if lower else str(row["units"]), str(row["leaked"]),
                      f"≤{row['exposure']:.3f}" if lower else f"{row['exposure']:.3f}",
                      f"≥{1 - row['exposure']:.3f}" if lower else f"{1 - row['exposure']:.3f}")
    console.print(table)
    if summary["top_leaks"]:
        # a fragment (0.3) reached the payloads too, but is no leaked unit (`metrics.leaked`): the title says so
        leaks = Table(title="Top units that reached the payloads (evidence masked; leaked: grade ≥ 0.7)")
        for name in ("unit", "dimension", "grade", "detector", "payload", "origin", "evidence"):
            leaks.add_column(name)
        for r in summary["top_leaks"]:
            leaks.add_row(r["unit_id"], r["dimension"], f"{r['grade']:.1f}", r["detector"], r["payload_id"],
                          r["origin"], r["evidence"])
        console.print(leaks)
    else:
        console.print("no sensitive unit reached these payloads")
    if summary["candidates"]:
        console.print(f"needs review: {plural(summary['candidates'], 'candidate')} (semantic shortlist, no judge; "
                      "not counted in exposure — `ec2audit judge review push`)")


def _fmt(value, kind: str) -> str:
    # a cost no price was known for, and calls or tokens nobody counted, are unknown, as the HTML report says;
    # not a dash read as none
    if value is None:
        return "unknown" if kind in ("usd", "int") else "–"
    return {"pct": f"{100 * value:.1f}%", "int": f"{value:,}", "usd": usd(value), "f3": f"{value:.3f}",
            "sci": f"{value:.2e}"}[kind]


def _table(title: str, summary: Summary, columns: list[tuple[str, str, str]]) -> Table:
    table = Table(title=title)
    table.add_column("configuration", overflow="fold")  # the label wraps; numbers never do
    for name, _, _ in columns:
        table.add_column(name, justify="right", no_wrap=True)
    for row in summary.rows:
        # an unknown USD says why, as `audit` does, where the audit counted it
        table.add_row(Text(row.label), *[row.cloud_usd_unknown or "unknown" if attr == "cloud_usd" and row.cloud_usd
                                         is None else _fmt(getattr(row, attr), kind) for _, attr, kind in columns])
    return table


def print_summary(summary: Summary, console: Console) -> None:
    """The tables of `ec2audit report`: completion and privacy (the headline), cost, exposure per dimension."""
    for note in summary.notes:
        console.print(f"[yellow]note[/] {escape(note)}", highlight=False)
    headline = [("episodes", "episodes", "int")]
    if summary.has_completion:  # the episodes that crashed or timed out are in the completion at 0, so say how many
        headline += [("failed", "failed", "int"), ("completion", "completion", "pct"), ("Pass^k", "pass_hat_k", "pct"),
                     ("Pass@k", "pass_at_k", "pct")]
    headline += [("exposure", "exposure", "f3"), ("leaked ≥0.7", "leaked_units", "int")]
    console.print(_table("Strategies", summary, headline))
    if summary.has_cost:
        flops = [("FLOPs", "edge_flops", "sci")] if summary.has_completion else []  # an audit runs no edge model
        console.print(_table("Cost: cloud calls, tokens and USD" + "; edge FLOPs" * bool(flops), summary, [
            ("calls", "cloud_calls", "int"), ("input", "cloud_input_tokens", "int"),
            ("cached", "cloud_cached_tokens", "int"), ("output", "cloud_output_tokens", "int"),
            ("USD", "cloud_usd", "usd"), *flops]))
    if summary.dimensions:
        dims = Table(title="Exposure by dimension")
        dims.add_column("configuration", overflow="fold")
        for dim in summary.dimensions:
            dims.add_column(dim, justify="right", no_wrap=True)
        for row in summary.rows:
            dims.add_row(Text(row.label), *[_fmt(row.by_dimension.get(d), "f3") for d in summary.dimensions])
        console.print(dims)
