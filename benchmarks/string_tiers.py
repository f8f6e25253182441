"""CPU of the string tiers (exact, partial, forms) on the dense corpus, a commit's code against this tree's.

The corpus is `dense_corpus.py`'s (every unit of every hand-written set against every call). Each tree
scans every distinct message text of it once (`Cascade.scan_text`, no text cached twice) in a child
process of its own (`PYTHONPATH` = the tree; the baseline is `git archive REV`), each string tier's
`scan` timed on its own, and hashes every text's hits: equal hashes, identical findings. The trees
alternate `--rounds` times; the minimum per tree is kept (the machine is shared).

    nice .venv/bin/python benchmarks/string_tiers.py --baseline REV [--mb 2] [--rounds 2] [--profile] [--shorter N]

`--shorter N` keeps only the texts of fewer than N characters (a chat turn: what a form's cue checks cost where
there is nothing to decode).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dense_corpus import REPO, leak_sets, write_corpus  # noqa: E402

#: run in the child: time each tier over every text, hash the hits, print one JSON line
_CHILD = r"""
import cProfile, hashlib, json, pstats, sys, time
from ec2audit.detect.cascade import build_cascade
from ec2audit.units import read_units
texts, units, profile = json.load(open(sys.argv[1])), read_units(sys.argv[2]), sys.argv[3] == "1"
cascade = build_cascade(units)
spent = {tier.name: 0.0 for tier in cascade.tiers}
def timed(tier, scan):
    def run(view, hits, decided):
        start = time.process_time()
        try:
            return scan(view, hits, decided)
        finally:
            spent[tier] += time.process_time() - start
    return run
if not profile:
    for tier in cascade.tiers:
        tier.scan = timed(tier.name, tier.scan)
digest, profiler = hashlib.sha256(), cProfile.Profile()
start = time.process_time()
profiler.enable() if profile else None
for text in texts:
    digest.update(repr(cascade.scan_text(text)).encode())
profiler.disable() if profile else None
total = time.process_time() - start
if profile:
    pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(30)
import ec2audit
print(json.dumps({"total": total, "tiers": spent, "hash": digest.hexdigest()[:16], "code": ec2audit.__file__}))
"""


def run_tree(tree: Path, texts: Path, units: Path, profile: bool = False) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    # in the tree's folder: `python -c` puts the working folder first on sys.path, ahead of PYTHONPATH
    done = subprocess.run([sys.executable, "-c", _CHILD, str(texts), str(units), "1" if profile else "0"],
                          env=env, cwd=tree, capture_output=True, text=True, check=True)
    if profile:
        print(done.stderr)
    got = json.loads(done.stdout.splitlines()[-1])
    if not Path(got["code"]).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"the run for {tree} imported {got['code']}")
    return got


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", metavar="REV", required=True, help="the commit whose code is 'before'")
    parser.add_argument("--mb", type=float, default=2, help="corpus size in MB (default 2)")
    parser.add_argument("--shared", type=Path, help="a folder with more leaks-* sets (default: ../shared)")
    parser.add_argument("--rounds", type=int, default=2, help="alternations of the two trees (default 2)")
    parser.add_argument("--profile", action="store_true", help="also print cProfile's top entries for this tree")
    parser.add_argument("--shorter", type=int, metavar="N", help="only the texts of fewer than N characters")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="ec2audit-tiers-"))
    try:
        units, corpus, _ = write_corpus(leak_sets(args.shared), folder, args.mb)
        texts = list(dict.fromkeys(m["content"] for line in corpus.open(encoding="utf-8")
                                   for m in json.loads(line)["request"]["messages"] if m.get("content")))
        if args.shorter:
            texts = [t for t in texts if len(t) < args.shorter]
        (folder / "texts.json").write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
        mb = sum(len(t.encode()) for t in texts) / 1e6
        print(f"{len(texts)} distinct message texts, {mb:.1f} MB, from a {corpus.stat().st_size / 1e6:.1f} MB corpus")
        base = folder / "baseline"
        base.mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", args.baseline], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        trees = {f"{args.baseline} (before)": base, "this tree (after)": REPO}
        best: dict[str, dict] = {}
        for _ in range(args.rounds):
            for label, tree in trees.items():
                got = run_tree(tree, folder / "texts.json", units)
                if label not in best or got["total"] < best[label]["total"]:
                    best[label] = got
        for label, got in best.items():
            tiers = ", ".join(f"{name} {cpu:.2f} s" for name, cpu in got["tiers"].items())
            print(f"{label}: scan_text {got['total']:.2f} s CPU; string tiers {sum(got['tiers'].values()):.2f} s "
                  f"({tiers}); hits hash {got['hash']}")
        (before, after) = best.values()
        ratio = sum(before["tiers"].values()) / sum(after["tiers"].values())
        print(f"string tiers: {ratio:.2f}× less CPU; scan_text: {before['total'] / after['total']:.2f}×; "
              f"hits identical: {'yes' if before['hash'] == after['hash'] else 'NO'}")
        if args.profile:
            run_tree(REPO, folder / "texts.json", units, profile=True)
        return 0 if before["hash"] == after["hash"] else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
