"""Judges side by side on a labelled split: P/R/F1 per kind with bootstrap 95 % CIs, CPU per candidate.

    .venv/bin/python benchmarks/local_judge.py                      # the local judge, its checks, its model alone
    .venv/bin/python benchmarks/local_judge.py --adapter X.npz      # … with another fine-tuning
    .venv/bin/python benchmarks/local_judge.py --threshold 0.5      # … grading at one threshold, no review band
    .venv/bin/python benchmarks/local_judge.py --learned-grader G.json   # … with another learned grader
    .venv/bin/python benchmarks/local_judge.py --gguf PATH.gguf     # an instruct LLM on llama.cpp
    .venv/bin/python benchmarks/local_judge.py --judge-url URL --judge-model M   # any endpoint
    .venv/bin/python benchmarks/local_judge.py --split judges/local-judge/handwritten-test-2.jsonl   # the second
    .venv/bin/python benchmarks/local_judge.py --split judges/local-judge/handwritten-test-3.jsonl   # the third
    .venv/bin/python benchmarks/local_judge.py --split judges/local-judge/handwritten-test-4.jsonl   # the fourth
    .venv/bin/python benchmarks/local_judge.py --split judges/local-judge/handwritten-test-5.jsonl   # the fifth
    options: --split FILE (default: judges/local-judge/handwritten-test.jsonl), --limit N, --json OUT (with
    every example's verdict)

The local judge is measured three times in one process: as shipped (`--local-judge`: its checks by value type,
`ec2audit.detect.value_checks`, and the learned grader over them, `ec2audit.detect.learned_grader`), with its
checks alone (`--no-learned-grader`) and its cross-encoder alone (`--no-value-checks`, session 13's judge with
its review band); the model is loaded once for all.
Every example is one candidate: the judge grades its unit against its whole text, as
`judge --calibrate` does on test. "semantic" is what only a paraphrase judge can find (paraphrase,
translation, description positives) against every negative; precision is over every graded example.
A verdict left for review (the judge unsure) is not graded: it counts as "no leak" in P/R/F1, and
"review" is the share of examples so left ("flagged recall": leaks graded or left for review).
CPU is this process's and its children's (a llama.cpp server) user+system seconds, per candidate.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from contextlib import closing
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ec2audit.detect.calibrate import bootstrap, read_split  # noqa: E402
from ec2audit.detect.e5_judge import ADAPTER_PATH, CrossEncoderJudge  # noqa: E402
from ec2audit.detect.judge import judge_session  # noqa: E402
from ec2audit.detect.learned_grader import GRADER_PATH  # noqa: E402

SEMANTIC = ("paraphrase", "translation", "description")
DEFAULT_SPLIT = ROOT / "judges" / "local-judge" / "handwritten-test.jsonl"


def cpu_seconds() -> float:
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def measure(examples, adapter: Path | None = None, threshold: float | None = None, checks: bool = True,
            grader: Path | None = None, **session) -> dict:
    cpu, wall = cpu_seconds(), time.monotonic()
    local = adapter or threshold is not None or not (session.get("url") or session.get("gguf"))
    with (closing(CrossEncoderJudge(adapter or ADAPTER_PATH, checks=checks and threshold is None,
                                    grader=grader if checks else None)) if local
          else judge_session(**session)) as judge:
        if threshold is not None:
            judge.head = replace(judge.head, threshold=threshold, review_threshold=threshold)
        started_cpu = cpu_seconds()  # a server's CPU is counted once it has stopped
        verdicts = [v[0] for v in judge.judge([(e.text, [e.unit]) for e in examples])]
        name, usage = f"{judge.model} {judge.version}", judge.usage.as_dict()
        if local:
            name += " with value checks" if judge.checks else " (the model alone)"
            name += " and the learned grader" if judge.grader else ""
        if threshold is not None:
            name += f" at {threshold}, no review band"
        load_cpu = started_cpu - cpu
    total_cpu, wall = cpu_seconds() - cpu, time.monotonic() - wall
    gold = [e.grade > 0 for e in examples]
    pred = [v.grade > 0 for v in verdicts]
    review = [v.review for v in verdicts]
    negatives = [i for i, g in enumerate(gold) if not g]
    kinds = sorted({e.kind for e in examples})
    per_kind = {}
    for kind in kinds:
        idx = [i for i, e in enumerate(examples) if e.kind == kind]
        if gold[idx[0]]:  # a positive kind: its recall, and F1 against every negative
            both = idx + negatives
            per_kind[kind] = {"n": len(idx), **bootstrap([gold[i] for i in both], [pred[i] for i in both]),
                              "review": sum(review[i] for i in idx)}
        else:
            per_kind[kind] = {"n": len(idx), "graded": sum(pred[i] for i in idx), "review": sum(review[i] for i in idx)}
    semantic = [i for i, e in enumerate(examples) if e.kind in SEMANTIC] + negatives
    semantic_leaks = [i for i in semantic if gold[i]]
    return {"judge": name, "examples": len(examples), "usage": usage, "all": bootstrap(gold, pred),
            "semantic": bootstrap([gold[i] for i in semantic], [pred[i] for i in semantic]),
            "review_share": round(sum(review) / len(examples), 3),
            "semantic_flagged_recall": round(sum(pred[i] or review[i] for i in semantic_leaks)
                                             / len(semantic_leaks), 3),
            "kinds": per_kind, "cpu_s": round(total_cpu, 1), "load_cpu_s": round(load_cpu, 1),
            "cpu_per_candidate_s": round((total_cpu - load_cpu) / len(examples), 3), "wall_s": round(wall, 1),
            "verdicts": [{"id": e.id, "kind": e.kind, "gold": e.grade, "grade": v.grade, "review": v.review}
                         for e, v in zip(examples, verdicts, strict=True)]}


def markdown(result: dict) -> str:
    def cell(m: dict, k: str) -> str:
        return f"{m[k]:.2f} [{m[k + '_ci'][0]:.2f}, {m[k + '_ci'][1]:.2f}]"

    lines = [f"judge `{result['judge']}`: {result['examples']} examples, CPU {result['cpu_per_candidate_s']} s per "
             f"candidate (+ {result['load_cpu_s']} s loading), wall {result['wall_s']} s; left for review: "
             f"{result['review_share']:.0%} of examples; semantic leaks graded or left for review: "
             f"{result['semantic_flagged_recall']:.2f}", "",
             "| slice | n | precision | recall | F1 | left for review |", "|---|---|---|---|---|---|"]
    for name in ("all", "semantic"):
        m = result[name]
        lines.append(f"| {name} | | {cell(m, 'precision')} | {cell(m, 'recall')} | {cell(m, 'f1')} | |")
    for kind, m in result["kinds"].items():
        if "f1" in m:
            lines.append(f"| {kind} | {m['n']} | {cell(m, 'precision')} | {cell(m, 'recall')} | {cell(m, 'f1')} | "
                         f"{m['review']} |")
        else:
            lines.append(f"| {kind} (negative) | {m['n']} | {m['graded']} graded | | | {m['review']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", type=Path, default=DEFAULT_SPLIT)
    parser.add_argument("--gguf", type=Path, help="an instruct GGUF served by llama.cpp")
    parser.add_argument("--adapter", type=Path, help="the local cross-encoder with this fine-tuning (train.py --out)")
    parser.add_argument("--threshold", type=float, help="the local cross-encoder grading at this probability and "
                                                        "leaving nothing for review")
    parser.add_argument("--learned-grader", type=Path, default=GRADER_PATH, help="the local judge's learned grader "
                        "(learned_grader.py --out; default: the shipped one)")
    parser.add_argument("--judge-url")
    parser.add_argument("--judge-model")
    parser.add_argument("--limit", type=int, help="the first N examples only")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds one LLM call may take")
    parser.add_argument("--json", type=Path, help="also write the result as JSON here")
    args = parser.parse_args()
    examples = read_split(args.split)[:args.limit]
    options = {"timeout": args.timeout} if args.gguf or args.judge_url else {}
    remote = bool(args.judge_url or args.gguf)
    runs = [True] if remote or args.threshold is not None else [True, False]  # the local judge, then its model
    results = [measure(examples, args.adapter, args.threshold, checks, url=args.judge_url, model=args.judge_model,
                       gguf=args.gguf, **options) for checks in runs]
    if not remote and args.threshold is None:  # the local judge, then its checks alone, then its model alone
        results.insert(0, measure(examples, args.adapter, grader=args.learned_grader))
    for result in results:
        result["split"] = os.path.relpath(args.split, ROOT)
        print(markdown(result) + "\n")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
