"""Mutation score of the modules whose bugs would mislead a user (`make mutation`, never `make test`).

mutmut (pinned in the dev extra, configured under [tool.mutmut] in pyproject.toml) copies ec2audit/
into mutants/ and, module by module, runs each mutant against only the tests listed there that cover
the mutated function. Prints killed / total per module (a timeout counts as killed, a mutant no test
reaches as survived) and writes the survivors to mutants/survivors.txt.

    python benchmarks/mutation.py [--jobs N] [--only ec2audit.metrics ...]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("ec2audit.detect.exact", "ec2audit.detect.partial", "ec2audit.detect.cascade",
           "ec2audit.detect.calibrate", "ec2audit.metrics", "ec2audit.intercept.redact",
           "ec2audit.intercept.policy", "ec2audit.logs.audit", "ec2audit.report.summary")
KILLED = {"killed", "timeout"}
MUTMUT = Path(sys.executable).with_name("mutmut")


def results() -> dict[str, str]:
    """mutant name → status, from mutmut's own record of every mutant it has tried."""
    out = subprocess.run([str(MUTMUT), "results", "--all", "true"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return dict(m.groups() for m in re.finditer(r"^\s*(\S+__mutmut_\d+): (.+)$", out, flags=re.MULTILINE))


def module_of(mutant: str) -> str:
    return mutant.split(".x_")[0].split(".xǁ")[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="mutants tested at once")
    parser.add_argument("--only", nargs="*", default=list(MODULES), help="modules to run (default: all)")
    args = parser.parse_args()
    for module in args.only:
        print(f"== {module}", flush=True)
        run = subprocess.run(["nice", "-n", "19", str(MUTMUT), "run", "--max-children", str(args.jobs),
                              f"{module}.*"], cwd=ROOT, stdout=subprocess.DEVNULL)
        if run.returncode != 0:
            print(f"mutmut failed on {module} (exit {run.returncode})", file=sys.stderr)
            return run.returncode
    status = results()
    survivors = []
    print(f"\n{'module':<28} {'killed':>7} {'total':>6} {'score':>6}  (survived, no tests)")
    for module in args.only:
        mine = {k: v for k, v in status.items() if module_of(k) == module}
        counts = Counter(mine.values())
        killed = sum(counts[s] for s in KILLED)
        total = len(mine)
        score = f"{100 * killed / total:.0f} %" if total else "–"
        print(f"{module:<28} {killed:>7} {total:>6} {score:>6}  ({counts['survived']}, {counts['no tests']})")
        survivors += sorted(k for k, v in mine.items() if v not in KILLED)
    (ROOT / "mutants" / "survivors.txt").write_text("".join(f"{s}\n" for s in survivors), encoding="utf-8")
    print(f"\n{len(survivors)} survivors listed in mutants/survivors.txt (`mutmut show NAME` shows one)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
