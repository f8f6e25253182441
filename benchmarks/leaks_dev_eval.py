"""String-tier quality on a hand-written leaks set (cases + graded units, the leaks-dev format).

Builds the cascade without a semantic tier or judge, grades every (case, unit of its task) pair as the
highest grade of its hits, and prints precision / recall / F1 (a pair is positive when its grade > 0)
and grade accuracy per kind, plus the string-level total: kinds only a semantic tier or a judge can
find (paraphrase, translation, description) are left out of it.

    .venv/bin/python benchmarks/leaks_dev_eval.py [--data /work/shared/leaks-dev] [--misses]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from ec2audit.detect.cascade import build_cascade
from ec2audit.units import make_unit

SEMANTIC_KINDS = frozenset({"paraphrase", "translation", "description"})


def grade_cases(cases: list[dict], units: list) -> list[tuple[dict, str, float]]:
    """(case, unit id, found grade) for every unit of every case's task."""
    cascade = build_cascade(units)
    ids = [u.id for u in units]
    out = []
    for case in cases:
        found: dict[str, float] = defaultdict(float)
        allowed = {i for i, u in enumerate(units) if u.task_id == case["task_id"]}
        for hit in cascade.scan_text(case["text"], allowed):
            found[ids[hit.unit_index]] = max(found[ids[hit.unit_index]], hit.grade)
        out += [(case, uid, found[uid]) for uid in case["expected"]]
    return out


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r, 2 * p * r / (p + r) if p + r else 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=Path("/work/shared/leaks-dev"))
    parser.add_argument("--misses", action="store_true", help="print every wrong string-level pair")
    args = parser.parse_args()
    units = [make_unit(json.loads(line)) for line in (args.data / "units.jsonl").read_text().splitlines() if line]
    cases = [json.loads(line) for line in (args.data / "cases.jsonl").read_text().splitlines() if line]
    per_kind: dict[str, Counter] = defaultdict(Counter)
    total = Counter()
    for case, uid, grade in grade_cases(cases, units):
        kind, truth = case["kinds"][uid], case["expected"][uid]
        row = Counter(n=1, exact_grade=grade == truth, tp=truth > 0 and grade > 0,
                      fp=truth == 0 and grade > 0, fn=truth > 0 and grade == 0)
        per_kind[kind].update(row)
        if kind not in SEMANTIC_KINDS:
            total.update(row)
            if args.misses and grade != truth:
                print(f"{case['case_id']} {uid} {kind} truth {truth} found {grade}")
    print(f"{'kind':12s} {'pairs':>5s} {'TP':>4s} {'FP':>4s} {'FN':>4s} {'grade acc':>9s}")
    for kind in sorted(per_kind):
        c = per_kind[kind]
        print(f"{kind:12s} {c['n']:5d} {c['tp']:4d} {c['fp']:4d} {c['fn']:4d} {c['exact_grade'] / c['n']:9.3f}")
    p, r, f = _prf(total["tp"], total["fp"], total["fn"])
    print(f"string-level ({', '.join(sorted(SEMANTIC_KINDS))} left out): {total['n']} pairs, "
          f"precision {p:.3f}, recall {r:.3f}, F1 {f:.3f}, grade accuracy {total['exact_grade'] / total['n']:.3f}")


if __name__ == "__main__":
    main()
