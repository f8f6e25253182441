"""CPU seconds per realistic payload of the semantic shortlist, before and after, at equal candidate recall.

Payloads: cases of a realistic split (`judges/calibration/realistic-dev`, hand-written agent traffic:
tool results, logs, CSV, JSON, e-mails, chat), one payload each, every unit of its task a candidate.
Each configuration runs the judge-less cascade (`ec2audit.detect.realistic.run_cases`) with the
calibrated shortlist (window, threshold, windows per unit from `judges/calibration.toml`) on a fresh
window cache, in this process, one after the other:

- baseline: every window embedded, the e5 engine on OpenMP's default thread count (as before issue 16);
- one thread: the engine on one OpenMP thread (its idle threads spin, burning CPU on a busy machine);
- prefilter: only windows sharing a cue with a unit embedded (`ec2audit.detect.semantic.unit_cues`);
- ours: both.

Recall is the share of positives kept (graded, or a candidate for review): of all positives, and of the
paraphrase/translation/description ones that only the paraphrase tiers can find.

    .venv/bin/python benchmarks/shortlist_speed.py [--set judges/calibration/realistic-dev] [--cases 40]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from ec2audit import resources
from ec2audit.detect import semantic
from ec2audit.detect.calibrate import read_calibration
from ec2audit.detect.realistic import PARAPHRASE_KINDS, read_cases, run_cases

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = {"baseline": (False, None), "one thread": (False, 1), "prefilter": (True, None), "ours": (True, 1)}


def measure(units, cases, settings, prefilter: bool, threads: int | None) -> dict:
    semantic._MEMOS.clear()  # each configuration starts with a cold window cache
    tier = semantic.SemanticTier(units, window=settings.shortlist_window, threshold=settings.shortlist,
                                 batch_size=settings.batch_size, model=settings.model, per_unit=settings.per_unit,
                                 prefilter=prefilter)
    if hasattr(tier.model, "threads"):
        tier.model.threads = threads
    cpu, wall = time.process_time(), time.perf_counter()
    pairs = run_cases(units, cases, tier)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    positives = [p for p in pairs if p.gold > 0]
    hard = [p for p in positives if p.kind in PARAPHRASE_KINDS]

    def kept(ps):
        return sum(p.graded > 0 or p.candidate is not None for p in ps) / len(ps) if ps else float("nan")

    return {"cpu_per_payload": cpu / len(cases), "wall_per_payload": wall / len(cases),
            "recall_all": kept(positives), "recall_paraphrase": kept(hard), "hard": len(hard),
            "candidates": sum(p.candidate is not None and p.graded == 0 for p in pairs),
            "kept_pairs": {(p.case, p.unit_id) for p in hard if p.graded > 0 or p.candidate is not None}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", default=str(ROOT / "judges" / "calibration" / "realistic-dev"))
    parser.add_argument("--cases", type=int, default=40, help="seeded sample of this many cases (0: all)")
    parser.add_argument("--calibration", default=str(resources.calibration_settings()))
    args = parser.parse_args()
    units, cases = read_cases(args.set)
    if args.cases and args.cases < len(cases):
        cases = random.Random(0).sample(cases, args.cases)
    settings = read_calibration(args.calibration)
    print(f"{len(cases)} payloads of {args.set} ({sum(len(c.text) for c in cases) / len(cases):.0f} characters "
          f"each on average); shortlist: model {settings.model}, window {settings.shortlist_window}, "
          f"threshold {settings.shortlist}, per unit {settings.per_unit}")
    results = {name: measure(units, cases, settings, *config) for name, config in CONFIGS.items()}
    base = results["baseline"]
    print(f"\n| configuration | CPU s / payload | × fewer CPU s | wall s / payload | recall (all positives) | "
          f"recall (paraphrase+translation+description, n={base['hard']}) | candidates |")
    print("|---|---|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['cpu_per_payload']:.3f} | {base['cpu_per_payload'] / r['cpu_per_payload']:.1f} | "
              f"{r['wall_per_payload']:.3f} | {r['recall_all']:.3f} | {r['recall_paraphrase']:.3f} | "
              f"{r['candidates']} |")
    lost = base["kept_pairs"] - results["ours"]["kept_pairs"]
    print(f"\nparaphrase/translation/description positives the baseline keeps and ours loses: {sorted(lost) or 'none'}")


if __name__ == "__main__":
    main()
