"""What reading an array's strings run together (`intercept/fields._join_chunks`, session 22) costs the guard's inline
audit: one process, a tool call whose arguments hold `--lines` log lines as an array of strings (about 60 characters
each, the third walk's phone in one), detected with the join and without it (`fields._chunked` replaced by a no), each
with the body's texts scanned ahead in one batch (`Redactor._scan_ahead`, session 23) and without (one by one, as
before), alternating, the scan cache emptied before each, lowest of the rounds (CPU).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/guard_array_chunks.py [--lines 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_intercept_forms_walk_3 import RECORD, UNITS  # noqa: E402

from ec2audit.detect.cascade import Cascade  # noqa: E402
from ec2audit.intercept import fields  # noqa: E402
from ec2audit.intercept.redact import Redactor  # noqa: E402


def body(count: int) -> dict:
    lines = [f"2026-12-06 20:{k // 60 % 60:02d}:{k % 60:02d} INFO worker-{k % 7} processed batch {k:06d} ok"
             for k in range(count)]
    lines[count // 2] = f"2026-12-06 20:16:40 WARN callback to {RECORD['phone']} failed, retry"
    call = {"id": "c1", "type": "function", "function": {"name": "save_log", "arguments": json.dumps({"lines": lines})}}
    return {"model": "m", "messages": [{"role": "user", "content": "Save the log."},
                                       {"role": "assistant", "content": None, "tool_calls": [call]}]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    request, redactor, chunked = body(args.lines), Redactor(Cascade(UNITS)), fields._chunked
    ahead = Redactor._scan_ahead
    variants = [(join, batch) for batch in ("one by one", "scanned ahead") for join in ("without", "with")]
    times: dict[tuple[str, str], list[float]] = {v: [] for v in variants}
    findings = {}
    for _ in range(args.rounds):
        for join, batch in variants:
            fields._chunked = chunked if join == "with" else (lambda value, path: False)
            redactor._scan_ahead = ahead.__get__(redactor) if batch == "scanned ahead" else (lambda body: None)
            redactor.cascade._cache.clear()
            start = time.process_time()
            findings[join, batch] = len(redactor.detect(request).rows)
            times[join, batch].append(time.process_time() - start)
    fields._chunked = chunked
    least = {v: min(t) * 1000 for v, t in times.items()}
    for batch in ("one by one", "scanned ahead"):
        without, with_ = least["without", batch], least["with", batch]
        print(f"{args.lines} strings in an array, texts {batch}, lowest of {args.rounds} rounds (CPU): without the "
              f"join {without:.0f} ms, with it {with_:.0f} ms ({with_ / without:.2f}×); findings "
              f"{findings['without', batch]} → {findings['with', batch]}")
    ratio = least["with", "scanned ahead"] / least["with", "one by one"]
    print(f"scanned ahead / one by one, with the join: {ratio:.2f}×")

if __name__ == "__main__":
    main()
