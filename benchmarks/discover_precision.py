"""Precision of `ec2audit audit --discover` units on hand-labelled, real-shaped agent logs.

`benchmarks/data/discover/{dev,test,test2,test3,test4,test5}/` hold OpenClaw transcripts, Claude Code sessions and
OpenHands trajectories, written by hand with the noise real logs carry (code, JSON configs,
accessibility trees, test output, timestamps, OpenClaw's redaction tokens) around real-looking
personal data. `labels.jsonl` says, per discovered value, whether it is sensitive (`true`) or junk
(`false`), and lists the values a discoverer must find (`must_find`: e-mails, keys, phones; found
when a discovered value contains them). The
filters were tuned on `dev` only. `test` was written before the first round of filters and measured
once; its junk suggested the second round (cleaning glued separators, message ids, dated numbers,
local addresses), written and tuned on two more `dev` logs, then measured on `test2`, written
before the second round ran on it. Round 3 (candidates inside a rejected one, tuned on `dev`) was
measured on `test3`, written before round 3 ran on it. `test4` was measured the same way; `test5` (git
log/diff/blame, stack traces, lock files, changelogs, SQL plans, k8s/docker output, CI logs, medical words in
other senses, names that are words, Chinese contracts) was written before reading the filters, measured once,
and suggested round 4 (RESULTS.md, "Session 16: discovery on logs nobody here wrote").

"Before" is the pre-labelling recognizers' output as it was (only redaction placeholders dropped);
"after" is what `--discover` proposes now. Unlabelled values count as junk and are printed.

    .venv/bin/python benchmarks/discover_precision.py [--split dev|test|test2|test3|test4|test5|all] [--no-presidio]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ec2audit.logs import read_logs
from ec2audit.logs.audit import discover_units

DATA = Path(__file__).parent / "data" / "discover"


def _labels() -> tuple[dict[str, bool], set[str]]:
    labels, must = {}, set()
    for line in (DATA / "labels.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            labels[row["value"]] = row["sensitive"]
            if row.get("must_find"):
                must.add(row["value"])
    return labels, must


def _score(values: set[str], labels: dict[str, bool], must: set[str]) -> dict:
    good = sum(1 for v in values if labels.get(v) is True)
    found = {m for m in must if any(m in v for v in values)}  # a phone found with a stray "(" still counts
    return {"units": len(values), "sensitive": good, "precision": good / len(values) if values else None,
            "must_find": len(must), "found": len(found), "recall": len(found) / len(must) if must else None,
            "missed": sorted(must - found), "unlabelled": sorted(v for v in values if v not in labels)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", choices=("dev", "test", "test2", "test3", "test4", "test5", "all"), default="all")
    parser.add_argument("--no-presidio", action="store_true")
    args = parser.parse_args()
    labels, must_all = _labels()
    for split in ("dev", "test", "test2", "test3", "test4", "test5") if args.split == "all" else (args.split,):
        folder = DATA / split
        payloads = list(read_logs([folder]))
        texts = "".join(s.text for p in payloads for s in p.segments)
        must = {v for v in must_all if v in texts}
        started = time.perf_counter()
        before = {u.value for u in discover_units(payloads, not args.no_presidio, keep_all=True)}
        after = {u.value for u in discover_units(payloads, not args.no_presidio)}
        seconds = time.perf_counter() - started
        print(f"## {split} ({len(list(folder.iterdir()))} logs, {len(payloads)} calls, "
              f"presidio {'off' if args.no_presidio else 'on'}, {seconds:.1f} s)")
        for name, values in (("before", before), ("after", after)):
            s = _score(values, labels, must)
            precision = "-" if s["precision"] is None else f"{s['precision']:.2f}"
            recall = "-" if s["recall"] is None else f"{s['recall']:.2f}"
            print(f"{name:6}: {s['units']:3} units, {s['sensitive']:3} sensitive, precision {precision}; "
                  f"must-find {s['found']}/{s['must_find']} (recall {recall})"
                  + (f"; missed {s['missed']}" if s["missed"] else ""))
            for value in s["unlabelled"]:
                print(f"    unlabelled: {value!r}")
        for value in sorted(after - before):
            print(f"    added by the log-specific recognizers: {value!r} ({labels.get(value)})")


if __name__ == "__main__":
    main()
