"""Choose the value checks' thresholds (`ec2audit.detect.value_checks`) on dev data only.

    .venv/bin/python judges/local-judge/checks_dev.py [--grid | --min-contrast]

Reads the hand-written dev cases (`handwritten-dev*.jsonl`) and the synthetic
dev split (`judges/calibration/dev.jsonl`), each example one candidate graded against its whole text as
`benchmarks/local_judge.py` grades the test split, and prints semantic P/R/F1 and graded precision per
check: the model alone, and the composite judge. The unit set being judged (the free-text check's contrast,
with the reference lists) is every dev unit. With `--grid`, the free-text check's `SAME`, `LEAN` × `CLAUSE`
× `MARGIN` × `VETO` (decided by the rule itself, `value_checks.FreeTextEvidence.outcome`: no copy here), its
`MIN_CONTRAST` (with every dev unit as the unit set, and with the example's task's units only, as an audit's
judge call holds) and the numeric check's `CLOSE` are swept (readings and evidence computed once).
Test splits are never read.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from unittest import mock

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from ec2audit.detect import value_checks  # noqa: E402
from ec2audit.detect.calibrate import read_split  # noqa: E402
from ec2audit.detect.e5_judge import CrossEncoderJudge  # noqa: E402

SEMANTIC = ("paraphrase", "translation", "description")
HANDWRITTEN = (HERE / "handwritten-dev.jsonl", HERE / "handwritten-dev-checks.jsonl",
               HERE / "handwritten-dev-contrast.jsonl")
DEV = (*HANDWRITTEN, HERE.parent / "calibration" / "dev.jsonl")


def scores(rows: list[tuple[str, bool, bool]]) -> str:
    """semantic P/R/F1 and precision over every graded row; rows are (kind, gold, graded)."""
    semantic = [(g, p) for k, g, p in rows if k in SEMANTIC or not g]
    tp = sum(g and p for g, p in semantic)
    graded = sum(p for _, p in semantic)
    precision, recall = tp / graded if graded else 0.0, tp / max(1, sum(g for g, _ in semantic))
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    all_graded = [g for _, g, p in rows if p]
    return (f"semantic P {precision:.2f} R {recall:.2f} F1 {f1:.2f}; graded precision "
            f"{sum(all_graded) / max(1, len(all_graded)):.2f} ({len(all_graded)} graded)")


def in_band(reading) -> bool:
    """Whether the free-text rule is asked at all (`value_checks.free_text`: below it, no verdict)."""
    return reading.probability >= reading.review_threshold


def min_contrast(examples, files: list[Path], readings, rows, free: list[int], unit_set) -> None:
    """Sweeps `MIN_CONTRAST`: a free-text value with fewer contrast values is left for review at most. The
    unit set is every dev unit, the example's task's units (an audit's call), or its file's units (a split
    in `benchmarks/local_judge.py`; each hand-written file's scores are printed too)."""
    tasks: dict[str, list] = {}
    in_file: dict[Path, list] = {}
    for e, path in zip(examples, files, strict=True):
        tasks.setdefault(e.unit.task_id, []).append(e.unit)
        in_file.setdefault(path, []).append(e.unit)
    views = (("every dev unit", lambda i: unit_set), ("the task's units", lambda i: tasks[examples[i].unit.task_id]),
             ("the file's units", lambda i: in_file[files[i]]))
    for label, units_of in views:
        evidence = {i: value_checks.free_text_evidence(examples[i].unit, examples[i].text, readings[i],
                                                       tuple(dict.fromkeys(units_of(i)))) for i in free}
        sizes: dict[str, Counter] = {}
        for i in free:
            sizes.setdefault(examples[i].unit.dimension, Counter())[min(evidence[i].contrast, 20)] += 1
        print(f"MIN_CONTRAST, unit set = {label}; contrast sizes per dimension (20 = 20 or more): "
              f"{ {d: dict(sorted(c.items())) for d, c in sizes.items()} }")
        for k in (0, 1, 2, 3, 5, 8, 13):
            out = list(rows)
            for i in free:
                graded = in_band(readings[i]) and replace(evidence[i], minimum=k).outcome() == "grade"
                out[i] = (examples[i].kind, examples[i].grade > 0, graded)
            print(f"  MIN_CONTRAST {k:2}: all {scores(out)}; free-text {scores([out[i] for i in free])}")
            if label == "the file's units":
                for path in HANDWRITTEN:
                    print(f"    {path.name}: {scores([o for o, f in zip(out, files, strict=True) if f == path])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--min-contrast", action="store_true", help="only the MIN_CONTRAST sweep of --grid")
    args = parser.parse_args()
    examples = [e for path in DEV for e in read_split(path)]
    judge = CrossEncoderJudge()
    readings = [judge.readings(e.text, [e.unit])[0] for e in examples]
    unit_set = tuple(dict.fromkeys(e.unit for e in examples))
    checks = [value_checks.check_for(e.unit).name for e in examples]
    print(f"{len(examples)} dev examples; checks: {dict(Counter(checks))}")
    bare = [(e.kind, e.grade > 0, r.verdict(e.text).grade > 0) for e, r in zip(examples, readings, strict=True)]
    print("model alone:", scores(bare))

    def composite() -> list[tuple[str, bool, bool]]:
        return [(e.kind, e.grade > 0, value_checks.check_for(e.unit).decide(e.unit, e.text, r, unit_set).grade > 0)
                for e, r in zip(examples, readings, strict=True)]

    rows = composite()
    print("composite:  ", scores(rows))
    handwritten = len([e for path in HANDWRITTEN for e in read_split(path)])  # read first
    print(f"  hand-written dev ({handwritten}): model alone {scores(bare[:handwritten])}")
    print(f"  {'':22}composite   {scores(rows[:handwritten])}")
    for name in dict.fromkeys(checks):
        mine = [i for i, c in enumerate(checks) if c == name]
        print(f"  {name:10} ({len(mine)}): model alone {scores([bare[i] for i in mine])}")
        print(f"  {'':10}        composite   {scores([rows[i] for i in mine])}")
        wrong = [i for i in mine if rows[i][1] != rows[i][2] and (rows[i][0] in SEMANTIC or not rows[i][1])]
        for i in wrong[:12]:
            e = examples[i]
            print(f"      {'missed' if rows[i][1] else 'GRADED'} {e.kind} p={readings[i].probability:.2f} "
                  f"{e.unit.value!r}: {e.text[:110]!r}")
    if not (args.grid or args.min_contrast):
        return
    free = [i for i, c in enumerate(checks) if c == "free-text"]
    min_contrast(examples, [path for path in DEV for _ in read_split(path)], readings, rows, free, unit_set)
    if not args.grid:
        return
    for same in (0.9, 0.93, 0.95, 1.01):
        with mock.patch.object(value_checks, "SAME", same):
            evidence = {i: value_checks.free_text_evidence(examples[i].unit, examples[i].text, readings[i], unit_set)
                        for i in free}
        for veto in (0.02, 0.05, 0.1):  # a veto takes a pair out of review: how many leaks it would lose
            band = [i for i in free if in_band(readings[i])]
            vetoed = [i for i in band if evidence[i].outcome(veto=veto) == "veto"]
            leaks = [i for i in band if examples[i].grade > 0]
            print(f"free-text SAME {same} VETO {veto}: vetoed {len(vetoed) - len(set(vetoed) & set(leaks))} of "
                  f"{len(band) - len(leaks)} negatives and {len(set(vetoed) & set(leaks))} of {len(leaks)} leaks "
                  "the model would flag")
        for lean in (0.5, 0.65, 0.8):
            for cut in (0.0, 0.04, 0.08):
                for margin in (-0.02, 0.0, 0.01, 0.02, 0.04):
                    for veto in (0.02, 0.05, 0.1, 9.0):
                        out = [(examples[i].kind, examples[i].grade > 0, in_band(readings[i]) and evidence[i].outcome(
                            lean, cut, margin, veto) == "grade") for i in free]
                        print(f"free-text SAME {same} LEAN {lean} CLAUSE {cut:+.2f} MARGIN {margin:+.2f} "
                              f"VETO {veto}: {scores(out)}")
    numeric = [i for i, c in enumerate(checks) if c == "numeric"]
    for close in (0.02, 0.05, 0.1, 0.15):
        with mock.patch.object(value_checks, "CLOSE", close):
            out = [(examples[i].kind, examples[i].grade > 0, value_checks.check_for(examples[i].unit).decide(
                examples[i].unit, examples[i].text, readings[i]).grade > 0) for i in numeric]
        print(f"numeric CLOSE {close}: {scores(out)}")


if __name__ == "__main__":
    main()
