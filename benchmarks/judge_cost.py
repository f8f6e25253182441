"""Judge tokens of our cascade vs AceBench's one-shot judge, on the calibration test split.

Tasks: the test split's examples, shuffled (seeded) and bundled five units to a task, one example
(one text the agent sent to the cloud) per unit. AceBench's judge makes one call per task with
every field as a checklist and all cloud text; our cascade lets exact/partial decide what they
can, shortlists the remaining (unit, text) pairs with the semantic tier (settings from
`judges/calibration.toml`) and makes one judge call per text for its shortlisted units. Both prompts
are the one `ec2audit.detect.judge` sends, counted with the serving model's tokenizer (the local
llama.cpp server's `/tokenize`); completions are counted as a well-formed answer of one verdict per
item. With `--judge-url`/`--judge-model` (or `--local-judge`), both judges also run on `--tasks N`
tasks and their task-level F1 (positive = grade > 0) is reported.

    .venv/bin/python benchmarks/judge_cost.py [--local-judge --tasks 2]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ec2audit.detect.calibrate import DEFAULT_OUTPUT, DEFAULT_SET, prf, read_calibration, read_split  # noqa: E402
from ec2audit.detect.cascade import Cascade  # noqa: E402
from ec2audit.detect.judge import Verdict, checklist, judge_session, load_prompt  # noqa: E402
from ec2audit.detect.semantic import SemanticTier  # noqa: E402
from ec2audit.localmodel import LocalModelServer, tokenize  # noqa: E402
from ec2audit.payloads import Payload, Segment  # noqa: E402

TASK_UNITS = 5


def make_tasks(seed: int = 0) -> list[list]:
    examples = read_split(DEFAULT_SET / "test.jsonl")
    random.Random(seed).shuffle(examples)
    tasks, current, used = [], [], set()
    for ex in examples:  # one example per unit, five distinct units per task
        if ex.unit.id in used:
            continue
        current.append(ex)
        used.add(ex.unit.id)
        if len(current) == TASK_UNITS:
            tasks.append(current)
            current, used = [], set()
    return tasks


def answer(count: int) -> str:
    """A well-formed reply with one verdict per item (what a compliant judge returns)."""
    return json.dumps({"verdicts": [{"item": n, "grade": 0, "evidence": ""} for n in range(1, count + 1)]})


def requests_for(task, settings, semantic_cache: dict) -> tuple[list, list]:
    """AceBench's one request and our cascade's requests for one task: lists of (text, units)."""
    units = [ex.unit for ex in task]
    texts = [ex.text for ex in task]
    acebench = [("\n\n---\n\n".join(texts), units)]
    key = tuple(u.id for u in units)
    if key not in semantic_cache:
        semantic_cache[key] = SemanticTier(units, window=settings.window, threshold=settings.shortlist)
    semantic = semantic_cache[key]

    recorder = RecordingJudge()
    payload = Payload("p", [Segment(i, "tool", "tool_result", t) for i, t in enumerate(texts)])
    Cascade(units, semantic=semantic, judge=recorder).scan(payload)
    return acebench, recorder.sent


class RecordingJudge:
    """Takes the place of the judge to record exactly what the cascade would send it (no verdicts)."""

    def __init__(self):
        self.sent = []

    def judge(self, requests, on_call=None):
        self.sent += requests
        return [[Verdict(0.0)] * len(units) for _, units in requests]


def prompt_tokens(root: str, prompt, requests) -> tuple[int, int]:
    sent = received = 0
    for text, units in requests:
        user = prompt.user.format(text=text, checklist=checklist(units))
        sent += tokenize(root, prompt.system) + tokenize(root, user)
        received += tokenize(root, answer(len(units)))
    return sent, received


def f1_run(judge, tasks, settings) -> dict:
    """Task-level grades of both judges on the given tasks (positive = grade > 0)."""
    gold, ace, ours = [], [], []
    for task in tasks:
        units = [ex.unit for ex in task]
        gold += [ex.positive for ex in task]
        [verdicts] = judge.judge([("\n\n---\n\n".join(ex.text for ex in task), units)])
        ace += [v.grade > 0 for v in verdicts]
        semantic = SemanticTier(units, window=settings.window, threshold=settings.shortlist)
        payload = Payload("p", [Segment(i, "tool", "tool_result", ex.text) for i, ex in enumerate(task)])
        found = Cascade(units, semantic=semantic, judge=judge).scan(payload)
        leaked = {f.unit_id for f in found if f.grade > 0}
        ours += [u.id in leaked for u in units]
    return {"n": len(gold), "acebench_precision_recall_f1": [round(x, 4) for x in prf(gold, ace)],
            "cascade_precision_recall_f1": [round(x, 4) for x in prf(gold, ours)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calibration", default=str(DEFAULT_OUTPUT))
    parser.add_argument("--tasks", type=int, default=0, help="run both judges on this many tasks for F1")
    parser.add_argument("--judge-url")
    parser.add_argument("--judge-model")
    parser.add_argument("--local-judge", action="store_true", help="F1 with the local SmolLM2 judge")
    args = parser.parse_args()
    settings = read_calibration(args.calibration)
    tasks = make_tasks()
    prompt = load_prompt()
    started = time.perf_counter()
    totals = {"acebench": [0, 0, 0], "cascade": [0, 0, 0]}  # calls, prompt tokens, completion tokens
    cache: dict = {}
    with LocalModelServer(n_ctx=512) as base_url:  # only its tokenizer is used here
        root = base_url.removesuffix("/v1")
        for task in tasks:
            for name, requests in zip(("acebench", "cascade"), requests_for(task, settings, cache), strict=True):
                sent, received = prompt_tokens(root, prompt, requests)
                totals[name][0] += len(requests)
                totals[name][1] += sent
                totals[name][2] += received
    ace, ours = totals["acebench"], totals["cascade"]
    report = {"tasks": len(tasks), "units_per_task": TASK_UNITS, "settings": settings.__dict__,
              "acebench": dict(zip(("calls", "prompt_tokens", "completion_tokens"), ace, strict=True)),
              "cascade": dict(zip(("calls", "prompt_tokens", "completion_tokens"), ours, strict=True)),
              "token_ratio": round((ours[1] + ours[2]) / (ace[1] + ace[2]), 4),
              "seconds": round(time.perf_counter() - started, 1)}
    if args.tasks and (args.judge_url or args.local_judge):
        with judge_session(args.judge_url, args.judge_model, n_ctx=4096, attempts=2) as judge:
            report["f1"] = f1_run(judge, tasks[:args.tasks], settings)
            report["f1"]["judge"] = judge.model
    print(json.dumps(report, indent=1))
    print(f"cascade/AceBench judge tokens: {report['token_ratio']:.2%} "
          f"({ours[1] + ours[2]} vs {ace[1] + ace[2]} tokens over {len(tasks)} tasks; "
          f"{ours[0]} vs {ace[0]} calls)")


if __name__ == "__main__":
    main()
