"""Judge tokens of our cascade vs AceBench's one-shot judge, on AceBench-sized tasks of this suite.

Tasks: every annotated task of `tasks/` with its cloud-only traffic rebuilt deterministically — the
OpenClaw system prompt captured from a real OpenClaw request (`judges/bench/openclaw-system-prompt.txt`),
the instruction, the oracle's tool calls and their real results (`ec2audit.oracle.apply_steps` in a
fresh copy of the workspace, mock service included) and the final answer. Into each task's traffic
`--per-task` labelled calibration examples are placed (seeded: as files the agent reads, or as its
own messages), their units added to the task's checklist: those pairs carry the ground truth for F1.

AceBench's judge: one call per task, every unit as a checklist, all cloud text (each distinct
message once). Our cascade: exact/partial decide what they can; the semantic tier (`--semantic-model`,
default the calibrated one) shortlists the rest at a threshold set on the calibration set's dev split
to keep a share of its positives (the "recall target"), each unit in its best `--per-unit` windows of
the payload; the judge sees a window around each shortlisted match, the task's windows packed into
calls. The headline uses what `ec2audit judge` audits use: the judge shortlist of `judges/calibration.toml`
(window, threshold, recall target, windows per unit). `--budget B` instead chooses window (`--windows`)
and recall target by measurement on a dev bench — the same tasks with dev-split examples placed in
them — as the pair with the best ceiling F1 whose judge tokens stay within B of AceBench's; this is how
the calibration defaults were chosen. The test bench (test-split examples) reports the headline, every
other target and window, and 1, 2, 3 or all windows per unit, and lists the positives the headline
misses (neither found by a string tier nor shown to the judge). Both use the same prompt
(`ec2audit.detect.judge`), counted with the serving model's tokenizer (the local llama.cpp server's
`/tokenize`); completions are counted as a well-formed one-verdict-per-item answer. The cascade's
ceiling is its F1 on the labelled pairs with a perfect judge. With `--judge-url/--judge-model` (or
`--local-judge`) both judges also run for real on `--f1-tasks` seeded tasks.

    .venv/bin/python benchmarks/judge_cost.py [--per-task 6] [--budget 0.2 | --recall 0.95] [--per-unit 1]
        [--semantic-model e5|minilm] [--windows 96,192] [--no-sweep] [--limit 4 --tasks ID,...]
        [--local-judge --f1-tasks 2 --f1-max-tokens 7000 | --judge-url URL --judge-model M --f1-tasks 45]
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rich.progress import Progress

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ec2audit import resources  # noqa: E402
from ec2audit.detect import calibrate  # noqa: E402
from ec2audit.detect.calibrate import DEFAULT_SET, Example, prf, read_split  # noqa: E402
from ec2audit.detect.cascade import Cascade  # noqa: E402
from ec2audit.detect.judge import Judge, Verdict, judge_session  # noqa: E402
from ec2audit.detect.semantic import MODELS, SemanticTier  # noqa: E402
from ec2audit.localmodel import LocalModelServer, default_model_path, tokenize  # noqa: E402
from ec2audit.oracle import apply_steps, serve_service, substitute  # noqa: E402
from ec2audit.payloads import Payload, payload_from_record  # noqa: E402
from ec2audit.tasks import Task, load_suite  # noqa: E402
from ec2audit.units import Unit  # noqa: E402

SYSTEM_PROMPT = ROOT / "judges" / "bench" / "openclaw-system-prompt.txt"
SERVICE_URL = "http://127.0.0.1:8080"  # the mock service's real port differs per run; the traffic must not
STAMP = "[Mon 2026-11-30 06:00 UTC] "  # OpenClaw prefixes the user's message with the time


@dataclass
class BenchTask:
    id: str
    units: list[Unit]
    payload: Payload
    labelled: list[tuple[Unit, Example]]  # injected examples and their units: the F1 ground truth

    def cloud_text(self) -> str:
        """All cloud text as AceBench's judge reads it: the transcript, each distinct message once."""
        seen = dict.fromkeys(f"[{s.origin}]\n{s.text}" for s in self.payload.segments)
        return "\n\n".join(seen)


def oracle_messages(task: Task) -> list[dict]:
    """The chat messages OpenClaw sends the cloud for the task's oracle run (system prompt included)."""
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp) / "workspace"
        shutil.copytree(task.workspace, workspace) if task.workspace else workspace.mkdir()
        if task.service:
            with serve_service(task.service, Path(tmp) / "service.jsonl") as url:
                results = apply_steps(task.oracle["steps"], workspace, url)
        else:
            url, results = None, apply_steps(task.oracle["steps"], workspace)
    system = SYSTEM_PROMPT.read_text(encoding="utf-8").replace("{workspace}", f"/home/agent/{task.id}/workspace")
    messages = [{"role": "system", "content": system},
                {"role": "user", "content": STAMP + substitute(task.instruction, SERVICE_URL)}]
    for n, (step, result) in enumerate(zip(task.oracle["steps"], results, strict=True)):
        args = json.dumps(substitute(step["arguments"], SERVICE_URL), ensure_ascii=False)
        output = result.output.replace(url, SERVICE_URL) if url else result.output
        call = {"id": f"call{n}", "type": "function", "function": {"name": step["tool"], "arguments": args}}
        messages += [{"role": "assistant", "content": None, "tool_calls": [call]},
                     {"role": "tool", "tool_call_id": f"call{n}", "content": output}]
    return messages + [{"role": "assistant", "content": task.oracle.get("final", "")}]


def inject(messages: list[dict], examples: list[Example], rng: random.Random) -> list[dict]:
    """Place each example in the traffic after the instruction: two in three as a file the agent reads,
    the rest as the agent's own message."""
    out = list(messages)
    for k, ex in enumerate(examples):
        at = rng.randrange(2, len(out))
        if rng.random() < 2 / 3:
            call = {"id": f"inbox{k}", "type": "function",
                    "function": {"name": "read", "arguments": json.dumps({"path": f"inbox/msg-{k:02d}.txt"})}}
            rows = [{"role": "assistant", "content": None, "tool_calls": [call]},
                    {"role": "tool", "tool_call_id": f"inbox{k}", "content": ex.text}]
        else:
            rows = [{"role": "assistant", "content": ex.text}]
        while out[at - 1].get("tool_calls"):  # never split a tool call from its result
            at += 1
        out[at:at] = rows
    return out


def build_tasks(tasks: list[Task], traffic: dict[str, list[dict]], examples: list[Example], per_task: int,
                seed: int) -> list[BenchTask]:
    rng = random.Random(seed)
    pool = list(examples)
    rng.shuffle(pool)
    out = []
    for task in tasks:
        chosen, values = [], set()
        for ex in list(pool):  # distinct units within a task, so each label is the unit's only evidence
            if len(chosen) == per_task:
                break
            if ex.unit.value not in values:
                chosen.append(ex)
                values.add(ex.unit.value)
                pool.remove(ex)
        if not pool:
            pool = list(examples)
            rng.shuffle(pool)
        labelled = [(ex.unit.model_copy(update={"task_id": task.id, "entity_id": f"CAL{k:02d}"}), ex)
                    for k, ex in enumerate(chosen)]
        body = {"model": "cloud", "messages": inject(traffic[task.id], chosen, rng)}
        payload = payload_from_record({"id": task.id, "task_id": task.id, "request": body}, task.id)
        out.append(BenchTask(task.id, task.units + [u for u, _ in labelled], payload, labelled))
    return out


class RecordingJudge:
    """Takes the judge's place in the cascade to record what it would be sent, planned into calls
    exactly as `Judge.judge` packs them (no verdicts: every pair graded 0)."""

    def __init__(self, planner: Judge):
        self.planner, self.requests, self.calls = planner, [], []

    def judge(self, requests, on_call=None, pack=False):
        self.requests += requests
        self.calls += [[(p[2], p[3]) for p in call] for call in self.planner.plan(requests, pack)[1]]
        return [[Verdict(0.0)] * len(units) for _, units in requests]


def answer(count: int) -> str:
    """A well-formed reply with one verdict per item (what a compliant judge returns at the least)."""
    return json.dumps({"verdicts": [{"item": n, "grade": 0, "evidence": ""} for n in range(1, count + 1)]})


@functools.cache
def tokens(root: str, text: str) -> int:
    return tokenize(root, text)


def count(root: str, planner: Judge, calls: list) -> list[int]:
    """[calls, prompt tokens, completion tokens] of calls given as lists of (text, units) parts."""
    sent = received = 0
    for parts in calls:
        sent += sum(tokens(root, m["content"]) for m in planner.messages(parts))
        received += tokens(root, answer(sum(len(units) for _, units in parts)))
    return [len(calls), sent, received]


def leaked(findings, unit: Unit) -> bool:
    return any(f.unit_id == unit.id and f.grade > 0 for f in findings)


def f1_run(judge: Judge, tasks: list[BenchTask], window: int, shortlist: float, per_unit: int | None,
           model: str) -> dict:
    """Both judges for real on the given tasks; F1 on their labelled pairs (positive = grade > 0)."""
    gold, ace, ours = [], [], []
    batch_size, judge.batch_size = judge.batch_size, 10 ** 6  # AceBench's one-shot judge: every unit in one call
    for task in tasks:
        [verdicts] = judge.judge([(task.cloud_text(), task.units)])
        grade = {u.id: v.grade for u, v in zip(task.units, verdicts, strict=True)}
        gold += [ex.positive for _, ex in task.labelled]
        ace += [grade[u.id] > 0 for u, _ in task.labelled]
    calls_ace = judge.usage.as_dict()
    judge.batch_size, judge.usage = batch_size, type(judge.usage)()
    for task in tasks:
        semantic = SemanticTier(task.units, window=window, threshold=shortlist, per_unit=per_unit, model=model)
        found = Cascade(task.units, semantic=semantic, judge=judge).scan(task.payload)
        ours += [leaked(found, u) for u, _ in task.labelled]
    return {"n_pairs": len(gold), "positives": sum(gold), "judge": judge.model,
            "acebench_precision_recall_f1": [round(x, 4) for x in prf(gold, ace)],
            "cascade_precision_recall_f1": [round(x, 4) for x in prf(gold, ours)],
            "acebench_usage": calls_ace, "cascade_usage": judge.usage.as_dict()}


def cascade_pass(root: str, planner: Judge, tasks: list[BenchTask], tiers: dict) -> dict:
    """What the cascade would send the judge for every task (token counts), and its ceiling on the
    labelled pairs: with a perfect judge it finds what the string tiers found or the judge was shown."""
    totals, gold, ceiling, missed = [0, 0, 0], [], [], []
    for task in tasks:
        recorder = RecordingJudge(planner)
        found = Cascade(task.units, semantic=tiers[task.id], judge=recorder).scan(task.payload)
        totals = [a + b for a, b in zip(totals, count(root, planner, recorder.calls), strict=True)]
        for unit, ex in task.labelled:
            shown = any(unit in units and window in ex.text for window, units in recorder.requests)
            gold.append(ex.positive)
            ceiling.append(leaked(found, unit) or (shown and ex.positive))
            if ex.positive and not ceiling[-1]:
                missed.append(f"{ex.kind} ({ex.lang}, {unit.dimension}): {unit.value}")
    precision, recall, f1 = prf(gold, ceiling)
    return {"calls": totals[0], "prompt_tokens": totals[1], "completion_tokens": totals[2],
            "ceiling_precision_recall_f1": [round(precision, 4), round(recall, 4), round(f1, 4)],
            "missed": sorted(missed)}


RECALLS = (0.6, 0.7, 0.8, 0.9, 0.95)  # recall targets on the calibration set's dev split (and the calibrated one)


def acebench(root: str, planner: Judge, tasks: list[BenchTask]) -> dict[str, list[int]]:
    """[calls, prompt tokens, completion tokens] of AceBench's one-shot judge, per task."""
    return {task.id: count(root, planner, [[(task.cloud_text(), task.units)]]) for task in tasks}


def total(rows) -> list[int]:
    return [sum(column) for column in zip(*rows, strict=True)]


def sweep(root: str, planner: Judge, tasks: list[BenchTask], tiers: dict, ace: list[int], thresholds: dict,
          rows: list[tuple[int, float, int]]) -> dict[str, dict]:
    """One cascade pass per (window, recall target, windows per unit)."""
    out = {}
    for window, recall, per_unit in rows:
        for tier in tiers.values():
            tier.window, tier.threshold, tier.per_unit = window, thresholds[window][recall], per_unit or None
        out[name(window, recall, per_unit)] = row = cascade_pass(root, planner, tasks, tiers)
        row.update(window=window, recall_target=recall, shortlist=thresholds[window][recall], per_unit=per_unit,
                   token_ratio=round((row["prompt_tokens"] + row["completion_tokens"]) / (ace[1] + ace[2]), 4))
        figures = {key: value for key, value in row.items() if key != "missed"}
        print(f"{name(window, recall, per_unit)}: {figures}", file=sys.stderr, flush=True)
    return out


def name(window: int, recall: float, per_unit: int) -> str:
    return f"window {window}, recall {recall}, {per_unit or 'all'} per unit"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calibration", default=str(resources.calibration_settings()),
                        help="the judge shortlist and semantic model audits use (the headline)")
    parser.add_argument("--semantic-model", choices=MODELS, help="default: the calibration file's")
    parser.add_argument("--windows", default="96,192,384",
                        help="semantic windows (chars) the sweep (and --budget) covers, besides the calibrated one")
    parser.add_argument("--per-task", type=int, default=6, help="labelled examples placed in each task")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--budget", type=float,
                        help="choose window and recall target for this share of AceBench's judge tokens on a dev "
                             "bench (default: the calibration's)")
    choice.add_argument("--recall", type=float, choices=RECALLS,
                        help="dev recall of the positives the shortlist must keep, with the calibrated window")
    parser.add_argument("--per-unit", type=int,
                        help="judge each unit in at most this many windows per payload (0: no cap; default: the "
                             "calibration's)")
    parser.add_argument("--batch-size", type=int, default=16, help="items per judge call (packed windows)")
    parser.add_argument("--no-sweep", action="store_true", help="only the headline row on the test bench")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, help="a seeded sample of this many examples per split (a quick run)")
    parser.add_argument("--tasks", help="only these tasks of tasks/, comma-separated ids (a quick run; default: "
                                        "every task with units)")
    parser.add_argument("--f1-tasks", type=int, default=0, help="run both judges for real on this many tasks")
    parser.add_argument("--f1-max-tokens", type=int, default=10 ** 9,
                        help="draw the F1 tasks among those whose one-shot call fits this many tokens")
    parser.add_argument("--judge-url")
    parser.add_argument("--judge-model")
    parser.add_argument("--judge-timeout", type=float, default=120.0, help="seconds one judge call may take")
    parser.add_argument("--local-judge", action="store_true", help="F1 with the local SmolLM2 judge")
    args = parser.parse_args()
    started = time.perf_counter()
    settings = calibrate.read_calibration(args.calibration)
    model = args.semantic_model or settings.model
    per_unit = (settings.per_unit or 0) if args.per_unit is None else args.per_unit
    window, recall = settings.shortlist_window, args.recall or settings.recall_target
    windows = sorted({window, *map(int, args.windows.split(","))})
    recalls = sorted({*RECALLS, recall} - {None})

    suite = [t for t in load_suite(ROOT / "tasks") if t.units]
    if args.tasks:
        wanted = args.tasks.split(",")
        unknown = sorted(set(wanted) - {t.id for t in suite})
        if unknown:
            parser.error(f"--tasks: no task with units named {', '.join(unknown)}")
        suite = [t for t in suite if t.id in wanted]
    print(f"embedding the dev split ({model}) …", file=sys.stderr)
    def split(name: str) -> list[Example]:
        examples = read_split(DEFAULT_SET / f"{name}.jsonl")
        return random.Random(args.seed).sample(examples, args.limit) if args.limit else examples

    dev = split("dev")
    scored = calibrate.score_examples(dev, windows=windows, model=model)
    thresholds = {w: {r: calibrate.shortlist_for_recall(scored, w, r) for r in recalls} for w in windows}
    if args.budget is None and args.recall is None:  # the calibration's own threshold (a judge may have raised it)
        thresholds[window][recall] = settings.shortlist
    print("rebuilding the tasks' traffic …", file=sys.stderr)
    traffic = {t.id: oracle_messages(t) for t in suite}
    benches = {"test": build_tasks(suite, traffic, split("test"), args.per_task, args.seed)}
    if args.budget is not None:
        benches["dev"] = build_tasks(suite, traffic, dev, args.per_task, args.seed)
    tiers = {bench: {t.id: SemanticTier(t.units, model=model) for t in tasks} for bench, tasks in benches.items()}

    # plans and renders calls exactly as a judge would; never sends one
    planner = Judge("http://127.0.0.1:9/v1", "planner", batch_size=args.batch_size)
    with LocalModelServer(n_ctx=512) as base_url:  # its tokenizer only
        root = base_url.removesuffix("/v1")
        ace_tokens = {bench: acebench(root, planner, tasks) for bench, tasks in benches.items()}
        ace = {bench: total(per_task.values()) for bench, per_task in ace_tokens.items()}
        chosen_on, dev_rows = "--recall" if args.recall else args.calibration, {}
        if args.budget is not None:  # the dev bench's best ceiling F1 within the budget (ties: fewer tokens)
            dev_rows = sweep(root, planner, benches["dev"], tiers["dev"], ace["dev"], thresholds,
                             [(w, r, per_unit) for w in windows for r in RECALLS])
            fits = [row for row in dev_rows.values() if row["token_ratio"] <= args.budget] or list(dev_rows.values())
            best = max(fits, key=lambda row: (row["ceiling_precision_recall_f1"][2], -row["token_ratio"]))
            window, recall = best["window"], best["recall_target"]
            chosen_on = f"dev bench, budget {args.budget}"
        rows = [(window, recall, per_unit)] if args.no_sweep else list(dict.fromkeys(
            [(window, recall, per_unit)] + [(window, r, per_unit) for r in RECALLS]
            + [(w, recall, per_unit) for w in windows] + [(window, recall, n) for n in (1, 2, 3, 0)]))
        with Progress(transient=True) as progress:
            progress.add_task("cascade passes on the test bench", total=None)
            test_rows = sweep(root, planner, benches["test"], tiers["test"], ace["test"], thresholds, rows)
    tasks = benches["test"]
    ours = test_rows[name(window, recall, per_unit)]
    missed = ours["missed"]  # the headline's: positives neither a string tier found nor the judge was shown
    for row in test_rows.values():
        row["missed"] = len(row["missed"])
    report = {
        "tasks": len(tasks), "units": sum(len(t.units) for t in tasks),
        "labelled_pairs": sum(len(t.labelled) for t in tasks),
        "labelled_positives": sum(ex.positive for t in tasks for _, ex in t.labelled),
        "cloud_text_chars": sum(len(t.cloud_text()) for t in tasks),
        "semantic_model": model, "window": window, "recall_target": recall, "chosen_on": chosen_on,
        "shortlist": thresholds[window][recall], "per_unit": per_unit, "batch_size": args.batch_size,
        "acebench": dict(zip(("calls", "prompt_tokens", "completion_tokens"), ace["test"], strict=True)),
        "cascade": ours, "token_ratio": ours["token_ratio"], "rows": test_rows, "missed_positives": missed}
    if dev_rows:
        report["dev_bench"] = {key: [row["token_ratio"], row["ceiling_precision_recall_f1"][2]]
                               for key, row in dev_rows.items()}  # [token ratio, ceiling F1]
    if args.f1_tasks and (args.judge_url or args.local_judge):
        # a small local model's context holds only the smaller tasks' one-shot prompts
        fits = [t for t in tasks if sum(ace_tokens["test"][t.id][1:]) <= args.f1_max_tokens]
        sample = random.Random(args.seed).sample(fits, min(args.f1_tasks, len(fits)))
        report["f1_tasks_that_fit"] = len(fits)
        gguf = None if args.judge_url else default_model_path()  # both judges are LLM prompts: SmolLM2 locally
        with judge_session(args.judge_url, args.judge_model, gguf=gguf, n_ctx=8192, attempts=2, max_tokens=2048,
                           batch_size=args.batch_size, timeout=args.judge_timeout) as judge:
            report["f1"] = f1_run(judge, sample, window, thresholds[window][recall], per_unit or None, model)
            report["f1"]["tasks"] = [t.id for t in sample]
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=1))
    print(f"cascade/AceBench judge tokens: {ours['token_ratio']:.2%} ({ours['calls']} vs {ace['test'][0]} calls); "
          f"cascade ceiling (perfect judge) P/R/F1 on the test pairs {ours['ceiling_precision_recall_f1']} "
          f"({model}, window {window}, recall target {recall} chosen on {chosen_on}, "
          f"shortlist {thresholds[window][recall]}, {per_unit or 'all'} window(s) per unit)")


if __name__ == "__main__":
    main()
