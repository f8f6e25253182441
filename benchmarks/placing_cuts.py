"""What redact forwards of values cut across texts read as one: `tests/test_intercept_placing.py`'s cases (its
hypothesis strategy, derandomized, and its named examples) through the `Redactor` of the code on PYTHONPATH (what
the proxy forwards: the placing walk is the same), counting the cases where a run of 4 of a value's characters went
out, with the first few as they went out; then the walks' CPU a case, the detectors' hits cached (`Cascade`
caches them per text), so what is timed is the two walks that place them. Run it with a `git archive` tree on
PYTHONPATH for "before", alternating.

    PYTHONPATH=<tree> .venv/bin/python benchmarks/placing_cuts.py --cases 400
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from test_intercept_placing import EXAMPLES, UNITS, cut_values, runs_forwarded  # noqa: E402

import ec2audit  # noqa: E402
from ec2audit.detect.cascade import Cascade  # noqa: E402
from ec2audit.intercept.redact import EpisodeMap, Redactor  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=400)
    parser.add_argument("--show", type=int, default=3, help="cases that leaked to print")
    parser.add_argument("--rounds", type=int, default=5, help="timed passes over the cases (the fastest counts)")
    args = parser.parse_args()
    cases = list(EXAMPLES.values())
    settings(max_examples=args.cases, derandomize=True, database=None, deadline=None,
             suppress_health_check=list(HealthCheck))(given(cut_values())(lambda case: cases.append(case)))()
    redactor = Redactor(Cascade(UNITS))
    leaked = []
    for messages in cases:
        sent, _, _ = redactor.redact({"messages": messages}, EpisodeMap())
        if runs_forwarded(sent["messages"]):
            leaked.append([m["content"] for m in sent["messages"]])
    fastest = float("inf")
    for _ in range(args.rounds):
        t0 = time.process_time()
        for messages in cases:
            redactor.redact({"messages": messages}, EpisodeMap())
        fastest = min(fastest, time.process_time() - t0)
    print(f"ec2audit from {Path(ec2audit.__file__).parent.parent}: {len(leaked)} of {len(cases)} cases forwarded a run "
          f"of 4 of a value's characters; the walks' CPU {fastest / len(cases) * 1e6:.0f} µs a case")
    for texts in leaked[:args.show]:
        print("  ", texts)


if __name__ == "__main__":
    main()
