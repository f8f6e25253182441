"""What `ec2audit audit` shows for logs: per-session exposure, leaked units with masked evidence and
the call that first sent them, the timeline of cloud calls, per-provider tokens and cost."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ec2audit.logs.audit import FOUND, LogAudit
from ec2audit.report.summary import mask

MODES = {"units": "units: annotated units file", "discover": "discover: candidate units from the "
         "pre-labelling recognizers over each session's user inputs and tool results"}


def log_summary(log: LogAudit) -> dict:
    """Everything the terminal shows, as plain data (`--json`); evidence stays masked."""
    leaked = [{"session": r["group"], "unit_id": r["unit_id"], "dimension": r["dimension"], "grade": r["grade"],
               "detector": r["detector"], "first_call": r["payload_id"], "step": r["step"],
               "timestamp": r["timestamp"], "provider": r["provider"], "model": r["model"], "origin": r["origin"],
               "message_index": r["message_index"], "entry": r["entry"], "kind": r["kind"], "tool": r["tool"],
               "file": r["file"], "command": r["command"], "evidence": mask(r["matched_text"])} for r in log.leaked()]
    cloud = sum(1 for c in log.calls if c["side"] == "cloud")
    exposure = log.exposure()
    return {"mode": log.mode, "mode_description": MODES[log.mode], "payloads": log.result.payload_count,
            "characters": log.result.chars, "units": len(log.result.units), "findings": len(log.result.finding_rows),
            "exposure": [{k: v for k, v in r.items() if k != "dimension"} for r in exposure if r["dimension"] is None],
            "by_dimension": [r for r in exposure if r["dimension"] is not None],
            "files": log.files, "skipped_files": skipped_files(log),
            "calls": len(log.calls), "cloud_calls": cloud, "edge_calls": len(log.calls) - cloud,
            "sessions": log.sessions(), "leaked": leaked, "providers": log.providers(),
            "timeline": log.timeline(), "skipped": [str(e) for e in log.errors]}


def skipped_files(log: LogAudit) -> list[dict]:
    """Files not read at all, each with why (a line-level problem in a read file is not one)."""
    read = {f["file"] for f in log.files}
    return [{"file": e.file, "reason": e.reason} for e in log.errors
            if e.file and e.line is None and e.file not in read]


def _short(unit_id: str) -> str:
    """`entity/field` of a unit id: the task is the same for every row of one audit, mostly."""
    return unit_id.split("/", 1)[-1]


def _table(title: str, columns: list[str]) -> Table:
    table = Table(title=title)
    for name in columns:
        table.add_column(name)
    return table


def print_log_audit(summary: dict, console: Console, limit: int = 40) -> None:
    skipped = summary["skipped_files"]
    converted = [f for f in summary["files"] if f["encoding"]]
    console.print(f"[bold]mode[/] {summary['mode_description']}; {len(summary['files'])} file(s) read"
                  f"{f', [bold red]{len(skipped)} skipped[/] (listed above)' if skipped else ''}, "
                  f"{summary['calls']} model calls ({summary['cloud_calls']} cloud, {summary['edge_calls']} edge), "
                  f"{summary['units']} units", highlight=False)
    for f in converted:
        console.print(f"read {f['file']} as {f['encoding']} text (converted to UTF-8)", highlight=False)
    found = [s for s in summary["sessions"] if s["scored_against"] == FOUND]
    if found:
        console.print(f"{len(found)} session(s) matched no task of the units file: each is scored against the "
                      "units found in its own calls (give --task-map to say which task each ran)", highlight=False)
    sessions = _table("Exposure per session (cloud calls only), most exposed first",
                      ["session", "calls", "cloud", "units", "leaked ≥0.7", "exposure", "privacy", "scored against"])
    ranked = sorted(summary["sessions"], key=lambda s: -(s["exposure"] or 0.0))
    for s in ranked[:limit]:
        exposure = s["exposure"]
        sessions.add_row(s["session"], str(s["calls"]), str(s["cloud_calls"]), str(s["units"]), str(s["leaked"]),
                         "-" if exposure is None else f"{exposure:.3f}",
                         "-" if exposure is None else f"{1 - exposure:.3f}", s["scored_against"])
    console.print(sessions)
    if len(ranked) > limit:
        console.print(f"… {len(ranked) - limit} more sessions, less exposed (see --json)")
    if summary["leaked"]:
        leaks = _table("Leaked units: first cloud call that sent them (evidence masked)",
                       ["session", "unit", "grade", "step", "carried by", "evidence"])
        for r in summary["leaked"][:limit]:
            carrier = " ".join(str(x) for x in (r["kind"] or r["origin"], r["tool"], r["file"] or r["command"]) if x)
            leaks.add_row(r["session"], f"{_short(r['unit_id'])} ({r['dimension']})", f"{r['grade']:.1f}",
                          str(r["step"]), carrier, r["evidence"])
        console.print(leaks)
        if len(summary["leaked"]) > limit:
            console.print(f"… {len(summary['leaked']) - limit} more leaked units (see --json or --out)")
        timeline = _table("Timeline: cloud calls that sent a unit for the first time",
                          ["session", "step", "time", "model", "new units"])
        for t in [t for t in summary["timeline"] if t["new_units"]][:limit]:
            timeline.add_row(t["session"], str(t["step"]), t["timestamp"] or "", t["model"] or "",
                             ", ".join(_short(u) for u in t["new_units"]))
        console.print(timeline)
    elif summary["payloads"]:
        console.print(f"no sensitive unit reached a cloud call ({summary['payloads']} cloud calls audited)")
    elif summary["calls"]:
        console.print("no cloud call in what was read: nothing to audit")
    else:
        console.print("[bold red]nothing was read[/]: no model call found in the given paths")
    providers = _table("Calls per provider", ["side", "provider", "model", "calls", "input tok", "cached tok",
                                              "output tok", "USD"])
    for p in summary["providers"]:
        providers.add_row(p["side"], p["provider"] or "?", p["model"] or "?", str(p["calls"]),
                          str(p["input_tokens"] or 0), str(p["cached_tokens"] or 0), str(p["output_tokens"] or 0),
                          "-" if p["cost_usd"] is None else f"{p['cost_usd']:.4f}")
    console.print(providers)
