"""The audit driver's end-of-audit tables against the number of sessions alone (issue 35): parts as workers
write them (`PART_SCHEMAS`: calls per session, per group its task set and sums, the task sets, the files),
made up here for `--sessions` sessions in parts of `--per-part` each (each scored against 100 tasks, as
the `driver_memory.py` corpora's are), then merged (`merge_parts`), summed up (`log_summary`) and written
(the sessions and exposure tables) in a fresh process per size; each prints the peak of each step (reset
before each, so the whole's is the largest). No findings and no logs: what is measured is what grows with sessions,
which the 10 GB audit's end (378,156 sessions) took to 1.3 GB. Run it with PYTHONPATH pointing at the
checkout to measure (an older one too: it uses what that one has).

    PYTHONPATH=$PWD:$PWD/benchmarks nice .venv/bin/python benchmarks/driver_tables.py --sessions 24000 378000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from driver_state import _status
from driver_state import step as measured


def parts(folder: Path, sessions: int, per_part: int) -> list:
    """`sessions` sessions' part tables written under `folder`, `per_part` a part, as `LogAudit`s to merge."""
    import polars as pl

    from ec2audit.audit import AuditResult
    from ec2audit.logs.audit import PART_SCHEMAS, LogAudit, Spilled, _dimensions, _task_key
    from ec2audit.synth import make_units

    units = make_units(3385, 100, seed=0)
    tasks = sorted({u.task_id for u in units})
    key, width = _task_key(tasks), 2 * len(_dimensions(units))
    out = []
    for at, start in enumerate(range(0, sessions, per_part)):
        names = [f"agent/session-{n:07d}" for n in range(start, min(sessions, start + per_part))]
        prefix = folder / f"part-{at:06d}"
        tables = {"session-calls": pl.DataFrame({"session": names, "calls": [5] * len(names),
                                                 "cloud_calls": [4] * len(names),
                                                 "calls_without_content": [0] * len(names),
                                                 "cloud_calls_without_content": [0] * len(names)}),
                  "task-sets": pl.DataFrame({"tasks": [key], "names": [tasks]}),
                  "groups": pl.DataFrame({"group": names, "tasks": [key] * len(names), "found": [False] * len(names),
                                          "exposed": [[1.0] * width] * len(names), "scope": [None] * len(names)}),
                  "files": pl.DataFrame({"file": [f"/logs/{n}.jsonl" for n in names],
                                         "format": ["openclaw-jsonl"] * len(names), "encoding": [None] * len(names),
                                         "read_with": [None] * len(names)})}
        for table, frame in tables.items():
            frame.cast(dict(PART_SCHEMAS[table])).write_parquet(f"{prefix}.{table}.parquet")
        spilled = Spilled(str(prefix), 0, 0, 0, 0, sessions=len(names), task_sets=1, groups=len(names),
                          files=len(names), last_file=f"/logs/{names[-1]}.jsonl", node="local")
        out.append(LogAudit("", AuditResult([]), spilled=[spilled]))
    return out, units


def measure(sessions: int, per_part: int) -> dict:
    import polars as pl

    from ec2audit.files import write_table
    from ec2audit.logs.audit import merge_parts, sessions_path
    from ec2audit.logs.report import log_summary

    peaks = []

    def step(name: str, run: object) -> object:  # the peak of each step (each resets it)
        value = measured(name, run)
        peaks.append(_status()["VmHWM"])
        return value

    with tempfile.TemporaryDirectory() as tmp:
        audit_parts, units = parts(Path(tmp), sessions, per_part)
        log = step("merge", lambda: merge_parts(audit_parts, units))
        log.mode = "units"
        summary = step("summary", lambda: log_summary(log))
        out = Path(tmp) / "findings.parquet"
        if hasattr(log, "write_sessions"):
            step("sessions written", lambda: log.write_sessions(sessions_path(out)))
            step("exposure written", lambda: log.write_exposure(Path(tmp) / "exposure.parquet"))
        else:  # a checkout from before the tables were streamed
            step("sessions written", lambda: write_table(log.sessions_frame(), sessions_path(out)))
            step("exposure written", lambda: write_table(log.exposure(), Path(tmp) / "exposure.parquet"))
        rows = pl.scan_parquet(sessions_path(out)).select(pl.len()).collect().item()
    return {"sessions": sessions, "rows": rows, "summary_sessions": summary["left_out"].get("sessions", 0) + 1000,
            "peak_mb": max(peaks)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, nargs="+", default=[24_000, 378_000])
    parser.add_argument("--per-part", type=int, default=310, help="sessions a part (the 10 GB audit's: 310)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a child: measure this many
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.per_part)))
        return
    rows = []
    for sessions in args.sessions:
        line = subprocess.run([sys.executable, __file__, "--one", str(sessions), "--per-part", str(args.per_part)],
                              check=True, capture_output=True, text=True)
        print(line.stdout.rsplit("\n", 2)[0], flush=True)
        rows.append(json.loads(line.stdout.splitlines()[-1]))
        print(f"{sessions:,} sessions ({rows[-1]['rows']:,} rows written): peak RSS {rows[-1]['peak_mb']:.0f} MB",
              flush=True)
    print(f"sessions ×{rows[-1]['sessions'] / rows[0]['sessions']:.1f}: peak RSS "
          f"×{rows[-1]['peak_mb'] / rows[0]['peak_mb']:.2f} ({rows[0]['peak_mb']:.0f} → {rows[-1]['peak_mb']:.0f} MB)")


if __name__ == "__main__":
    main()
