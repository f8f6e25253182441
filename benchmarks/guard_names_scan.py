"""CPU the inline audit spends on a request's header and query parameter names (session 20: they are scanned as
one text a request, `Redactor._detect_names`), against the same audit without that scan, in one process,
alternating: a chat request as the OpenAI Python SDK sends it (its eleven headers, `api-version` in the query),
the third guard walk's eight units.

    PYTHONPATH=$PWD nice .venv/bin/python benchmarks/guard_names_scan.py [--calls 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_intercept_forms_walk_3 import UNITS  # noqa: E402

from ec2audit.detect.cascade import build_cascade  # noqa: E402
from ec2audit.intercept.redact import Redactor  # noqa: E402

BODY = {"model": "gpt-4o-mini", "messages": [
    {"role": "system", "content": "You are a support agent. Answer briefly."},
    {"role": "user", "content": "Where is my order? It was due on Tuesday and the tracking page shows nothing."}]}
FIELDS = [("path", "path", "/chat/completions"), *(("header", n, v) for n, v in [
    ("accept", "application/json"), ("user-agent", "OpenAI/Python 1.54.3"), ("x-stainless-lang", "python"),
    ("x-stainless-package-version", "1.54.3"), ("x-stainless-os", "Linux"), ("x-stainless-arch", "x64"),
    ("x-stainless-runtime", "CPython"), ("x-stainless-runtime-version", "3.11.7"),
    ("x-stainless-async", "false"), ("x-stainless-retry-count", "0"), ("x-stainless-read-timeout", "600")]),
    ("query", "api-version", "2024-10-21")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    redactor = Redactor(build_cascade(UNITS))
    with_names = redactor._detect_names

    def values_only(fields, found) -> None:
        return None

    best = {"values only (before)": float("inf"), "values and names (after)": float("inf")}
    for _ in range(args.rounds):
        for name, scan in (("values only (before)", values_only), ("values and names (after)", with_names)):
            redactor._detect_names = scan  # type: ignore[method-assign]
            start = time.process_time()
            for _ in range(args.calls):
                redactor.detect(BODY, FIELDS)
            best[name] = min(best[name], (time.process_time() - start) / args.calls * 1e6)
    for name, us in best.items():
        print(f"{name}: {us:.0f} µs CPU a request (best of {args.rounds} rounds of {args.calls})")
    before, after = best.values()
    print(f"names scan: +{after - before:.0f} µs a request, ×{after / before:.2f}")


if __name__ == "__main__":
    main()
