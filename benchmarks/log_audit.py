"""Throughput of `ec2audit audit --units` on a directory of agent logs, against per-call scanning.

Generates ≈ 200 MB of logs into a temporary directory (never the repository): OpenClaw JSONL
transcripts built from `ec2audit.synth` episodes (3,385 Faker units over 100 tasks, cumulative
agent contexts, known leaks) plus one OpenAI-style request log of the same kind. "Ours" is the
library call behind the CLI (`audit_logs`: parse, rebuild each call's context, scan each distinct
segment once, attribute to the first cloud call). The baseline, on a subset, scans every call's
full request with the same detector cascade (which caches hits per distinct text) — what auditing
the logs as a plain list of requests costs, without first-sent attribution.
Also checks every generated leak is found in its session at ≥ its grade.

    .venv/bin/python benchmarks/log_audit.py [--mb 200] [--baseline-mb 20] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from ec2audit.backends import get_backend
from ec2audit.detect.cascade import Cascade, build_cascade
from ec2audit.logs import read_logs
from ec2audit.logs.audit import audit_logs
from ec2audit.synth import make_payloads, make_units


def _transcript(session: str, messages: list[dict]) -> list[dict]:
    """The OpenClaw transcript an episode's final request was built from (one entry per message)."""
    entries = [{"type": "session", "version": 4, "id": session, "timestamp": "2026-11-01T00:00:00Z", "cwd": "/w"}]
    parent = None
    for i, m in enumerate(messages[1:] + [{"role": "assistant", "content": "Done."}]):
        if m["role"] == "user":
            message = {"role": "user", "content": m["content"]}
        elif m["role"] == "tool":
            message = {"role": "toolResult", "toolCallId": m["tool_call_id"], "toolName": "read",
                       "content": [{"type": "text", "text": m["content"]}], "isError": False}
        else:
            content = [{"type": "toolCall", "id": c["id"], "name": c["function"]["name"],
                        "arguments": json.loads(c["function"]["arguments"])} for c in m.get("tool_calls") or []]
            message = {"role": "assistant", "content": content or [{"type": "text", "text": m["content"]}],
                       "api": "openai-completions", "provider": "openrouter", "model": "openai/gpt-5.4",
                       "usage": {"input": 2000 + 300 * i, "output": 40, "cacheRead": 0, "cacheWrite": 0}}
        entry_id = f"{session}-{i}"
        entries.append({"type": "message", "id": entry_id, "parentId": parent,
                        "timestamp": f"2026-11-01T00:{i // 60:02d}:{i % 60:02d}Z", "message": message})
        parent = entry_id
    return entries


def generate(root: Path, units, target_mb: float, truth_kept: bool = True) -> tuple[dict[tuple[str, str], float], int]:
    """Write transcripts (and one request log) until `target_mb`; truth: (session, unit) → grade, or
    nothing with `truth_kept=False` (gigabytes of corpus: the truth would grow with it, the files do not)."""
    truth: dict[tuple[str, str], float] = {}
    size, chunk = 0, 0
    while size < target_mb * 1e6:
        records, leaks = make_payloads(units, 20_000_000, seed=chunk)
        by_pid = {r["id"]: r for r in records}
        if chunk == 0:  # one OpenAI-style request log with the cumulative bodies themselves
            path = root / "proxy" / "requests.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("w", encoding="utf-8") as out:
                for r in records:
                    out.write(json.dumps(r, ensure_ascii=False) + "\n")
            size += path.stat().st_size
            for leak in leaks:
                key = (by_pid[leak.payload_id]["episode"], leak.unit_id)
                truth[key] = max(truth.get(key, 0.0), leak.grade)
        else:
            last = {}
            for r in records:
                last[r["episode"]] = r
            folder = root / "sessions" / f"chunk{chunk:03d}"
            folder.mkdir(parents=True)
            for episode, r in last.items():
                session = f"{episode.replace('#', '-')}-c{chunk}"
                path = folder / f"{session}.jsonl"
                with path.open("w", encoding="utf-8") as out:
                    for entry in _transcript(session, r["request"]["messages"]):
                        out.write(json.dumps(entry, ensure_ascii=False) + "\n")
                size += path.stat().st_size
            for leak in leaks if truth_kept else ():
                session = f"{by_pid[leak.payload_id]['episode'].replace('#', '-')}-c{chunk}"
                truth[(session, leak.unit_id)] = max(truth.get((session, leak.unit_id), 0.0), leak.grade)
        chunk += 1
        if size >= target_mb * 1e6:
            break
    return truth, size


def per_call_scan(paths: list[Path], cascade: Cascade) -> int:
    """Baseline: every call's full request through the cascade, no segment seen twice is skipped."""
    return sum(len(cascade.scan(p)) for p in read_logs(paths))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=200.0)
    parser.add_argument("--baseline-mb", type=float, default=20.0)
    parser.add_argument("--units", type=int, default=3385)
    parser.add_argument("--jobs", type=int, default=2, help="also time `--jobs N` worker processes")
    args = parser.parse_args()
    units = make_units(args.units, 100, seed=0)
    root = Path(tempfile.mkdtemp(prefix="ec2audit-logbench-"))
    try:
        t0 = time.perf_counter()
        truth, size = generate(root, units, args.mb)
        files = sorted(p for p in root.rglob("*.jsonl"))
        print(f"generated {size / 1e6:.1f} MB in {len(files)} files ({time.perf_counter() - t0:.0f} s), "
              f"{len(units)} units, {len(truth)} true (session, unit) leaks")

        t0, c0 = time.perf_counter(), time.process_time()
        calls = sum(1 for _ in read_logs([root]))
        t_read, c_read = time.perf_counter() - t0, time.process_time() - c0
        print(f"log layer only (sniff, parse, rebuild {calls} calls' contexts): {t_read:6.2f} s wall "
              f"{size / 1e6 / t_read:6.1f} MB/s, {c_read:6.2f} s CPU {size / 1e6 / c_read:6.1f} MB/s")
        t0, c0 = time.perf_counter(), time.process_time()
        log = audit_logs([root], units)  # end to end, detector build included
        t_ours, c_ours = time.perf_counter() - t0, time.process_time() - c0
        found: dict[tuple[str, str], float] = {}
        for r in log.result.findings_frame().iter_rows(named=True):
            found[(r["group"], r["unit_id"])] = max(found.get((r["group"], r["unit_id"]), 0.0), r["grade"])
        missed = [k for k, g in truth.items() if found.get(k, 0.0) < g]
        print(f"ours (audit_logs, --units): {t_ours:7.2f} s wall {size / 1e6 / t_ours:6.1f} MB/s, "
              f"{c_ours:7.2f} s CPU {size / 1e6 / c_ours:6.1f} MB/s, {calls / t_ours:6.1f} calls/s "
              f"({log.result.chars / 1e6:.0f} M chars of requests, {len(log.result.finding_rows)} findings, "
              f"{len(log.errors)} skipped)")
        print(f"generated leaks found at ≥ their grade: {len(truth) - len(missed)}/{len(truth)}")
        if args.jobs > 1:
            t0 = time.perf_counter()
            parallel = audit_logs([root], units, backend=get_backend("processes", workers=args.jobs))
            t_par = time.perf_counter() - t0
            same = parallel.findings_frame().equals(log.findings_frame())
            print(f"ours with {args.jobs} worker processes: {t_par:7.2f} s wall {size / 1e6 / t_par:6.1f} MB/s "
                  f"({t_ours / t_par:.2f}x the single process; same findings: {same})")

        subset, sub_size = [], 0
        for p in files:
            if sub_size >= args.baseline_mb * 1e6:
                break
            subset.append(p)
            sub_size += p.stat().st_size
        ours_cascade, base_cascade = build_cascade(units), build_cascade(units)  # fresh caches, builds not timed
        c0 = time.process_time()
        audit_logs(subset, units, cascade=ours_cascade)
        c_sub = time.process_time() - c0
        c0 = time.process_time()
        per_call_scan(subset, base_cascade)
        c_base = time.process_time() - c0
        print(f"subset {sub_size / 1e6:.1f} MB (CPU time): ours {c_sub:.2f} s ({sub_size / 1e6 / c_sub:.1f} MB/s), "
              f"per-call scan {c_base:.2f} s ({sub_size / 1e6 / c_base:.1f} MB/s), ratio {c_base / c_sub:.2f}x")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
