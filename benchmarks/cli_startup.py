"""What the CLI costs before it does any work: `ec2audit --help`, `ec2audit audit --help` and the audit of one
call (`dense_corpus.py`'s units, every hand-written set's), and the tables the scan's views and forms build at
start-up (OpenCC's, Unicode's digits; with the detect package's import), for a baseline commit and this tree,
alternating, each a child process (CPU: user + system; wall), the best of `--rounds` after one that fills the caches.

    nice .venv/bin/python benchmarks/cli_startup.py --baseline main [--rounds 5] [--shared /work/shared]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dense_corpus import REPO, audit_command, baseline_tree, leak_sets, measured, write_corpus  # noqa: E402

_HELP = [sys.executable, "-c", "from ec2audit.cli import main; main()"]
_TABLES = [sys.executable, "-c", "from ec2audit.detect import forms, views; views.prepare(); forms._digits()"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", required=True, metavar="REV", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--shared", type=Path, help="a folder with more leaks-* sets (default: ../shared)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="ec2audit-startup-"))
    units, corpus, _ = write_corpus(leak_sets(args.shared), folder, 0.01)
    tiny = folder / "tiny.jsonl"
    tiny.write_text(corpus.open(encoding="utf-8").readline(), encoding="utf-8")
    commands = {"ec2audit --help": [*_HELP, "--help"], "ec2audit audit --help": [*_HELP, "audit", "--help"],
                "audit of one call": audit_command(tiny, units, folder / "out.jsonl"),
                "the views' tables (imports, views.prepare, the forms' digits)": _TABLES}
    trees = {f"{args.baseline} (before)": baseline_tree(args.baseline, folder), "this tree": REPO}
    best: dict[tuple[str, str], tuple[float, float]] = {}
    for round_ in range(args.rounds + 1):
        for label, tree in trees.items():
            for what, command in commands.items():
                start = time.perf_counter()
                cpu, _, _ = measured(command, tree=tree)
                wall = time.perf_counter() - start
                if round_:  # the first round fills the caches (compiled units, Vectorscan databases, .pyc)
                    cpu0, wall0 = best.get((what, label), (cpu, wall))
                    best[what, label] = (min(cpu, cpu0), min(wall, wall0))
    for what in commands:
        before, after = (best[what, label] for label in trees)
        print(f"{what}: before {before[0]:.3f} s CPU, {before[1]:.3f} s wall; after {after[0]:.3f} s CPU, "
              f"{after[1]:.3f} s wall; CPU ×{after[0] / before[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
