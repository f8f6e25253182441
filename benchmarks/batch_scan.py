"""CPU of the scan on the dense corpus's calls, each text alone (`Cascade.scan_text`) against each call's texts as
one batch (`Cascade.scan_texts`, the audit's path), in one process.

The corpus is `dense_corpus.py`'s (every unit of every hand-written set against every call). Each round builds
two fresh cascades over the same units (their caches start empty) and scans every call's message texts, one
each way, alternating; the minimum per way is kept (the machine is shared), and every text's hits must be the
same both ways. The first cascade's build (the start-up: compiling the units and the forms) is timed apart, and
its scan of the first calls pays the lazy imports before either way is timed.

    nice .venv/bin/python benchmarks/batch_scan.py [--mb 2] [--rounds 3] [--shared /work/shared]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dense_corpus import leak_sets, write_corpus  # noqa: E402

from ec2audit.detect.cascade import Cascade  # noqa: E402
from ec2audit.units import Unit, read_units  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=2, help="corpus size in MB (default 2)")
    parser.add_argument("--shared", type=Path, help="a folder with more leaks-* sets (default: ../shared)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the two ways (default 3, at least 1)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="ec2audit-batch-"))
    try:
        units_path, corpus, _ = write_corpus(leak_sets(args.shared), folder, args.mb)
        calls = [[m["content"] for m in json.loads(line)["request"]["messages"] if m.get("content")]
                 for line in corpus.open(encoding="utf-8")]
        units = read_units(units_path)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    mb = sum(len(t.encode()) for call in calls for t in call) / 1e6
    print(f"{len(calls)} calls, {sum(map(len, calls))} texts, {mb:.1f} MB of text")
    return run(calls, units, args.rounds, mb)


def run(calls: list[list[str]], units: list[Unit], rounds: int, mb: float) -> int:
    ways = {"each text alone (scan_text)": lambda c, texts: [c.scan_text(t) for t in texts],
            "each call one batch (scan_texts)": lambda c, texts: c.scan_texts(texts)}
    best: dict[str, float] = {}
    digests: dict[str, str] = {}
    start = time.process_time()
    warm = Cascade(units)
    builds = [time.process_time() - start]
    for texts in calls[:50]:  # the lazy imports (Chinese amounts, places) paid before either way is timed
        warm.scan_texts(texts)
    for _ in range(rounds):
        for name, scan in ways.items():
            gc.collect()
            start = time.process_time()
            cascade = Cascade(units)
            builds.append(time.process_time() - start)
            digest = hashlib.sha256()
            start = time.process_time()
            for texts in calls:
                digest.update(repr(scan(cascade, texts)).encode())
            spent = time.process_time() - start
            best[name] = min(best.get(name, spent), spent)
            if digests.setdefault(name, digest.hexdigest()) != digest.hexdigest():
                raise SystemExit(f"{name}: hits differ between rounds")
    print(f"start-up (the first cascade's build): {builds[0]:.2f} s CPU; the later builds {min(builds[1:]):.2f}–"
          f"{max(builds[1:]):.2f} s (reusing the process's caches)")
    for name, spent in best.items():
        print(f"{name}: {spent:.2f} s CPU, {mb / spent:.2f} MB/s per core, hits {digests[name][:16]}")
    alone, batch = best.values()
    same = len(set(digests.values())) == 1
    print(f"batch: {alone / batch:.2f}× less CPU; hits identical: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
