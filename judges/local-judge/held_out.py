"""How precise the local judge is on text nobody tuned on: a leave-one-split-out estimate (issue 37).

    .venv/bin/python judges/local-judge/held_out.py [--cache FILE] [--readings FILE] [--historic] [--errors]

Every rule of `ec2audit.detect.value_checks` so far was written after reading a split's errors, so the
figures on the twelve hand-written test splits are not held out. This script reads the dev files of
`checks_dev.py` and the twelve test splits (never a thirteenth: they are named here one by one), each example one
candidate judged against its whole text with its file's units as the unit set (as `benchmarks/local_judge.py`
runs a split), and records what the checks decide and, where the free-text check decides, its evidence
(`value_checks.FreeTextEvidence`). Then, for each test split in turn, it chooses the free-text rule's
parameters and the structural options below on dev plus the other eleven splits (`--objective precision`: the
most graded precision at semantic F1 ≥ `FLOOR` there; `f1`: the most F1 at precision ≥ `TARGET`) and scores
the split left out with that choice: an estimate of the choice's precision on unseen text. The options:

- `lean`, `clause`, `margin`, `veto`: the free-text rule's thresholds (`LEAN`, `CLAUSE`, `MARGIN`, `VETO`);
- `written`: the model's probability a value written out needs (`LEAN_WRITTEN`; 0: the review threshold);
- `business`: the number of other business facts the free-text rule needs to grade one (`MIN_FACTS`; 99: never);
- `free`: whether the free-text rule grades at all (False: what no check confirms by a component of the
  value is left for review, the model and the clause scores deciding only between review and nothing).

`--historic` re-scores the splits that were once held out with the checks as they were then (test 4 with
checks-v3, test 5 with checks-v4, test 6 with checks-v5, each read from git) and lists their wrong grades
with the check that made each, beside the current checks' verdict. `--errors` lists the current wrong grades.
Readings and evidence are cached in `--cache` (computed when the file is missing).
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, replace
from pathlib import Path
from unittest import mock

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from checks_dev import DEV, SEMANTIC  # noqa: E402

from ec2audit.detect import value_checks  # noqa: E402
from ec2audit.detect.calibrate import read_split  # noqa: E402

TESTS = tuple(HERE / name for name in ("handwritten-test.jsonl", "handwritten-test-2.jsonl",
                                       "handwritten-test-3.jsonl", "handwritten-test-4.jsonl",
                                       "handwritten-test-5.jsonl", "handwritten-test-6.jsonl",
                                       "handwritten-test-7.jsonl", "handwritten-test-8.jsonl",
                                       "handwritten-test-9.jsonl", "handwritten-test-10.jsonl",
                                       "handwritten-test-11.jsonl", "handwritten-test-12.jsonl"))
HISTORIC = ((TESTS[3], "dc2b5a7", "checks-v3"), (TESTS[4], "1d1974b", "checks-v4"), (TESTS[5], "bee03d1", "checks-v5"))
TARGET = 0.97  # objective "f1": the graded precision a choice must keep on the tuning pool (above the bar)
FLOOR = 0.75  # objective "precision": the semantic F1 a choice must keep there (above the bar of 0.7)
GRID = {"lean": (0.5, 0.65, 0.8), "clause": (0.08, 0.12), "margin": (0.01, 0.03, 0.05),
        "veto": (0.02, 0.05), "unwritten": (0.01, 0.03, 0.05, 1.0), "business": (3, 99), "free": (True, False),
        "written": (0.0, 0.2, 0.35, 0.5)}
CURRENT = {"lean": value_checks.LEAN, "clause": value_checks.CLAUSE, "margin": value_checks.MARGIN,
           "veto": value_checks.VETO, "unwritten": value_checks.UNWRITTEN, "business": value_checks.MIN_FACTS,
           "free": True, "written": value_checks.LEAN_WRITTEN}


def record(paths, known: dict | None = None) -> list[dict]:
    """Per example: its file, kind, gold, the model's reading, the check, the current verdict and the
    free-text evidence where the free-text rule decided. `known`: readings by (file, id) from an earlier
    cache (the model unchanged, only the checks): the cross-encoder is not run again for them."""
    from ec2audit.detect.e5_judge import CrossEncoderJudge

    known = known or {}
    judge = CrossEncoderJudge() if not known else None
    original = value_checks.free_text_evidence
    rows = []
    for path in paths:
        examples = read_split(path)
        units = tuple(dict.fromkeys(e.unit for e in examples))
        for e in examples:
            if (path.name, e.id) in known:
                reading = value_checks.Reading(**known[path.name, e.id])
            else:
                judge = judge or CrossEncoderJudge()
                reading = judge.readings(e.text, [e.unit])[0]
            seen: list = []

            def spy(*args, seen=seen, **kwargs):
                seen.append(original(*args, **kwargs))
                return seen[-1]

            with mock.patch.object(value_checks, "free_text_evidence", spy):
                verdict = value_checks.check_for(e.unit).decide(e.unit, e.text, reading, units)
            rows.append({"file": path.name, "id": e.id, "kind": e.kind, "gold": e.grade > 0,
                         "dimension": e.unit.dimension, "value": e.unit.value, "text": e.text,
                         "reading": asdict(reading), "check": value_checks.check_for(e.unit).name,
                         "graded": verdict.grade > 0, "grade": verdict.grade, "review": verdict.review,
                         "evidence": asdict(seen[-1]) if seen else None})
    return rows


def graded(row: dict, options: dict) -> bool:
    """The verdict under `options`: the checks' own where no free-text evidence was read, else the rule's."""
    evidence = row["_evidence"]
    if evidence is None:
        return row["graded"]
    if row["dimension"] == "business":
        evidence = replace(evidence, minimum=options["business"])
    outcome = evidence.outcome(options["lean"], options["clause"], options["margin"], options["veto"],
                               options["unwritten"], options["written"])
    return outcome == "grade" and options["free"]


def scores(rows: list[dict], pred: list[bool]) -> dict:
    """Semantic P/R/F1 (paraphrase, translation, description positives against every negative) and graded
    precision over every kind, as `benchmarks/local_judge.py` counts them."""
    semantic = [(r["gold"], p) for r, p in zip(rows, pred, strict=True) if r["kind"] in SEMANTIC or not r["gold"]]
    tp = sum(g and p for g, p in semantic)
    sp = tp / max(1, sum(p for _, p in semantic))
    sr = tp / max(1, sum(g for g, _ in semantic))
    all_graded = [r["gold"] for r, p in zip(rows, pred, strict=True) if p]
    return {"P": sp, "R": sr, "F1": 2 * sp * sr / (sp + sr) if sp + sr else 0.0,
            "precision": sum(all_graded) / max(1, len(all_graded)), "graded": len(all_graded),
            "wrong": len(all_graded) - sum(all_graded)}


def choose(rows: list[dict], objective: str) -> tuple[dict, dict]:
    """The options that do best on `rows` by the objective, and their scores there: "f1", the most semantic
    F1 among those at `TARGET` graded precision or more (ties: the more precise); "precision", the most
    graded precision among those at `FLOOR` semantic F1 or more (ties: the more F1)."""
    best: tuple | None = None
    for values in itertools.product(*GRID.values()):
        options = dict(zip(GRID, values, strict=True))
        s = scores(rows, [graded(r, options) for r in rows])
        if objective == "f1":
            key = (s["precision"] >= TARGET, s["F1"] if s["precision"] >= TARGET else s["precision"], s["precision"])
        else:
            key = (s["F1"] >= FLOOR, s["precision"] if s["F1"] >= FLOOR else s["F1"], s["F1"])
        if best is None or key > best[0]:
            best = (key, options, s)
    assert best is not None
    return best[1], best[2]


def cell(s: dict) -> str:
    return f"{s['P']:.2f} / {s['R']:.2f} / **{s['F1']:.2f}**, {s['precision']:.2f} ({s['wrong']} of {s['graded']})"


def leave_one_out(rows: list[dict], objective: str) -> None:
    rule = (f"most semantic F1 at graded precision >= {TARGET}" if objective == "f1"
            else f"most graded precision at semantic F1 >= {FLOOR}")
    print(f"\nLeave one split out (choice: {rule} on dev + the other {len(TESTS) - 1})\n")
    print("| split left out | current checks: semantic P / R / F1, graded precision (wrong of graded) "
          "| chosen on the rest | held-out with the choice |")
    print("|---|---|---|---|")
    pooled_current, pooled_chosen = [], []
    for test in TESTS:
        held = [r for r in rows if r["file"] == test.name]
        rest = [r for r in rows if r["file"] != test.name]
        options, _ = choose(rest, objective)
        current = [graded(r, CURRENT) for r in held]
        chosen = [graded(r, options) for r in held]
        pooled_current += list(zip(held, current, strict=True))
        pooled_chosen += list(zip(held, chosen, strict=True))
        shown = ", ".join(f"{k} {v}" for k, v in options.items())
        print(f"| {test.name} ({len(held)}) | {cell(scores(held, current))} | {shown} | {cell(scores(held, chosen))} |")
    for label, pooled in (("current", pooled_current), ("chosen", pooled_chosen)):
        print(f"\n{len(TESTS)} splits pooled, {label}: {cell(scores([r for r, _ in pooled], [p for _, p in pooled]))}")
    options, _ = choose(rows, objective)
    print(f"chosen on everything: {options}")


ALTERNATIVES = {"the current checks": {},
                "a free-text value not written out graded at the narrow margin": {"unwritten": value_checks.MARGIN},
                "free text graded only where the value is written out": {"unwritten": 1.0},
                "free text never graded (review at most)": {"free": False},
                "the model's own threshold to grade free text": {"lean": 0.83}}


def alternatives(rows: list[dict]) -> None:
    """Fixed alternatives of the free-text rule on each test split (no choice made on them)."""
    print("\n| free-text rule | " + " | ".join(t.name for t in TESTS) + " | all pooled |")
    print("|---|" + "---|" * (len(TESTS) + 1))
    for label, change in ALTERNATIVES.items():
        options = {**CURRENT, **change}
        cells = []
        for subset in [[r for r in rows if r["file"] == t.name] for t in TESTS]:
            s = scores(subset, [graded(r, options) for r in subset])
            cells.append(f"{s['F1']:.2f} / {s['precision']:.2f} ({s['wrong']})")
        pooled = [r for r in rows if r["file"] in {t.name for t in TESTS}]
        s = scores(pooled, [graded(r, options) for r in pooled])
        print(f"| {label} | " + " | ".join(cells) + f" | {s['F1']:.2f} / {s['precision']:.2f} ({s['wrong']}) |")


def old_checks(rev: str):
    """The value checks module as it was at `rev`, loaded beside the current one."""
    source = subprocess.run(["git", "show", f"{rev}:ec2audit/detect/value_checks.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / f"value_checks_{rev}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"value_checks_{rev}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def historic(rows: list[dict]) -> None:
    """Each once-held-out split with the checks of its time: its wrong grades and today's verdict on them."""
    for test, rev, version in HISTORIC:
        module = old_checks(rev)
        examples = read_split(test)
        units = tuple(dict.fromkeys(e.unit for e in examples))
        held = [r for r in rows if r["file"] == test.name]
        pred = []
        for e, r in zip(examples, held, strict=True):
            reading = module.Reading(**r["reading"])
            pred.append(module.check_for(e.unit).decide(e.unit, e.text, reading, units).grade > 0)
        print(f"\n{test.name} with {version} ({rev}): {cell(scores(held, pred))}; its wrong grades:")
        for r, p in zip(held, pred, strict=True):
            if p and not r["gold"]:
                old = module.check_for(next(e.unit for e in examples if e.id == r["id"])).name
                print(f"  {r['id']} {r['kind']} [{old}] {r['value']!r}: {r['text'][:100]!r} -> now "
                      f"{'GRADED' if r['graded'] else 'review' if r['review'] else 'not graded'}")


def errors(rows: list[dict]) -> None:
    wrong = [r for r in rows if r["graded"] and not r["gold"]]
    print(f"\ncurrent wrong grades: {len(wrong)}; by check: {dict(Counter(r['check'] for r in wrong))}")
    for r in wrong:
        ev = r["evidence"]
        detail = (f" p={ev['probability']:.2f} contrast={ev['contrast']} specific={ev['specific']:.3f} "
                  f"margin={ev['margin']:.3f} written={ev['written']}" if ev else "")
        print(f"  {r['file']} {r['id']} {r['kind']} [{r['check']}]{detail} {r['value']!r}: {r['text'][:90]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, help="readings and evidence as JSON (written when missing)")
    parser.add_argument("--historic", action="store_true", help="the once-held-out splits with their checks")
    parser.add_argument("--readings", type=Path, help="an earlier cache whose model readings are reused (the "
                        "checks re-decided): a checks change measured without running the cross-encoder again")
    parser.add_argument("--errors", action="store_true", help="the current checks' wrong grades")
    parser.add_argument("--objective", choices=("f1", "precision"), action="append",
                        help="how options are chosen on the rest (both when not given)")
    args = parser.parse_args()
    args.objective = args.objective or ["f1", "precision"]
    if args.cache and args.cache.exists():
        rows = json.loads(args.cache.read_text(encoding="utf-8"))
    else:
        known = ({(r["file"], r["id"]): r["reading"] for r in json.loads(args.readings.read_text(encoding="utf-8"))}
                 if args.readings else None)
        rows = record([*DEV, *TESTS], known)
        if args.cache:
            args.cache.write_text(json.dumps(rows, ensure_ascii=False) + "\n", encoding="utf-8")
    for row in rows:
        row["_evidence"] = value_checks.FreeTextEvidence(**row["evidence"]) if row["evidence"] else None
    print("| dev file | current checks: semantic P / R / F1, graded precision (wrong of graded) |\n|---|---|")
    for path in DEV:
        held = [r for r in rows if r["file"] == path.name]
        print(f"| {path.name} ({len(held)}) | {cell(scores(held, [graded(r, CURRENT) for r in held]))} |")
    for objective in args.objective:
        leave_one_out(rows, objective)
    alternatives(rows)
    if args.errors:
        errors(rows)
    if args.historic:
        historic(rows)


if __name__ == "__main__":
    main()
