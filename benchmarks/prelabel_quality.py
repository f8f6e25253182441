"""Pre-labelling quality: precision / recall / F1 per dimension, Presidio alone vs ours vs both.

Ground truth: the units of the task suite (`tasks/*/*/units.jsonl`: every occurrence of a unit's value
in its task's files) when present,
and a seeded synthetic set made from `ec2audit.synth` values placed in prose, CSV and JSON documents
(with look-alike distractors: order numbers, versions, dates) so the offsets are known exactly.
A proposal counts as correct when it overlaps a true span of the same dimension; `exact` also needs the
same offsets. Run: `.venv/bin/python benchmarks/prelabel_quality.py [--tasks tasks] [--seed 7] [--n 40]`
(`--configs ours`: our recognizers alone, without Presidio).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from collections import defaultdict
from pathlib import Path

from ec2audit.annotate.prelabel import Prelabeler, Span
from ec2audit.annotate.workspace import Document, make_document, read_tasks_or_workspace
from ec2audit.synth import make_units
from ec2audit.units import read_units

PROSE = {
    "en": ("<<name>> called from <<phone>> and asked us to update <<email>>. Her SSN is <<national_id>> and the card "
           "on file is <<bank_card>>; salary <<salary>>. She lives at <<address>>. Notes: <<diagnosis>>. Connect via "
           "<<host>> with key <<api_key>>."),
    "zh": ("客户<<name>>的手机是<<phone>>，邮箱<<email>>，身份证号<<national_id>>，银行卡<<bank_card>>，"
           "月薪<<salary>>，住址<<address>>，诊断为<<diagnosis>>。测试服务器<<host>>，密钥<<api_key>>。"),
}
_SLOT = re.compile(r"<<(\w+)>>")
DISTRACTORS = {
    "en": "Order 48213377120934 shipped on 2024-03-02 (build 10.1.2.3.4, ticket #5521, 3 items, $12 fee). ",
    "zh": "订单号48213377120934已于2024年3月2日发货（版本10.1.2.3.4，工单5521，运费¥12）。",
}


def _place(template: str, values: dict[str, tuple[str, str]]) -> tuple[str, list[tuple[int, int, str]]]:
    """Fill `<<field>>` slots, remembering where each value went."""
    text, truth, pos = "", [], 0
    for m in _SLOT.finditer(template):
        text += template[pos:m.start()]
        value, dim = values[m.group(1)]
        truth.append((len(text), len(text) + len(value), dim))
        text += value
        pos = m.end()
    return text + template[pos:], truth


def synthetic(n_tasks: int, seed: int) -> tuple[list[Document], dict[tuple[str, str], list[tuple[int, int, str]]]]:
    rng = random.Random(seed)
    units = make_units(n_tasks * 10, n_tasks, seed=seed)
    people: dict[tuple[str, str], dict[str, tuple[str, str]]] = defaultdict(dict)
    for u in units:
        people[(u.task_id, u.entity_id)][u.field] = (u.value, u.dimension)
    docs, truth = [], {}
    for (task_id, entity), values in sorted(people.items()):
        if len(values) < 10:
            continue
        lang = "zh" if task_id.startswith("synth-zh") else "en"
        shape = rng.choice(("prose", "csv", "json"))
        if shape == "prose":
            text, spans = _place(DISTRACTORS[lang] + PROSE[lang] + " " + DISTRACTORS[lang], values)
            name = f"{entity}.txt"
        elif shape == "csv":
            fields = list(values)
            header = ",".join(fields) + "\n"
            cells = ",".join(f'"<<{f}>>"' for f in fields)  # quoted: addresses and amounts hold commas
            text, spans = _place(header + cells + "\n", values)
            name = f"{entity}.csv"
        else:
            body = ", ".join(f'"{f}": "<<{f}>>"' for f in values)
            text, spans = _place('{"order": "48213377120934", "customer": {' + body + "}}\n", values)
            name = f"{entity}.json"
        docs.append(make_document(task_id, name, text))
        truth[(task_id, name)] = spans
    return docs, truth


def task_suite(root: Path) -> tuple[list[Document], dict[tuple[str, str], list[tuple[int, int, str]]]]:
    """A unit is a value, not one place: every occurrence of it in its task's files is a true span."""
    docs, _ = read_tasks_or_workspace(root)
    by_task: dict[str, list[Document]] = defaultdict(list)
    for d in docs:
        by_task[d.task_id].append(d)
    truth: dict[tuple[str, str], set[tuple[int, int, str]]] = defaultdict(set)
    for units_file in sorted(root.rglob("units.jsonl")):
        for u in read_units(units_file):
            for d in by_task.get(u.task_id, []):
                at = d.text.find(u.value)
                while at >= 0:
                    truth[(d.task_id, d.file)].add((at, at + len(u.value), u.dimension))
                    at = d.text.find(u.value, at + 1)
    docs = [d for d in docs if (d.task_id, d.file) in truth]
    return docs, {k: sorted(v) for k, v in truth.items()}


_SUFFIX = {"json_api": ".json", "booking_json": ".json", "hotel_api": ".json", "json_memory": ".json",
           "csv_export": ".csv", "email": ".eml", "yaml_config": ".yaml", "k8s_manifest": ".yaml", "config": ".env"}
PLACEHOLDER_SHAPES = re.compile(r"\[[A-Z_]+(?:_\d+)?\]|<[A-Z_]+(?:_\d+)?>|\{\{\s*\w+\s*\}\}|\$\{\w+\}"
                                r"|\[已脱敏\]|<redacted>|\[REDACTED\]", re.I)


def leaks_dev(root: Path) -> tuple[list[Document], dict]:
    """Hand-written cases we did not write the recognizers for: every verbatim occurrence of a unit's
    value is a true span (other people's data in a case is not a unit: precision is a lower bound)."""
    units = {f"{u.task_id}/{u.entity_id}/{u.field}": u for u in read_units(root / "units.jsonl")}
    docs, truth = [], {}
    for line in (root / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        name = case["case_id"] + _SUFFIX.get(case["format"], ".txt")
        text, gold = case["text"], set()
        for uid, kind in case["kinds"].items():
            if kind == "verbatim":
                u = units[uid]
                at = text.find(u.value)
                while at >= 0:
                    gold.add((at, at + len(u.value), u.dimension))
                    at = text.find(u.value, at + 1)
        docs.append(make_document(case["task_id"], name, text))
        truth[(case["task_id"], name)] = sorted(gold)
    return docs, truth


def placeholders_labelled(docs: list[Document], spans: list[list[Span]]) -> int:
    """Proposed spans that are (or sit inside) a redaction placeholder such as `[PHONE_001]`."""
    return sum(1 for doc, found in zip(docs, spans, strict=True) for m in PLACEHOLDER_SHAPES.finditer(doc.text)
               for s in found if s.start < m.end() and m.start() < s.end)


def score(docs: list[Document], spans: list[list[Span]], truth) -> dict[str, dict[str, float]]:
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for doc, found in zip(docs, spans, strict=True):
        gold = truth.get((doc.task_id, doc.file), [])
        for s in found:
            c = counts[s.dimension]
            c["pred"] += 1
            c["tp_pred"] += any(s.dimension == d and s.start < e and b < s.end for b, e, d in gold)
            c["exact_pred"] += (s.start, s.end, s.dimension) in gold
        for b, e, d in gold:
            c = counts[d]
            c["gold"] += 1
            c["tp_gold"] += any(s.dimension == d and s.start < e and b < s.end for s in found)
    table = {}
    for dim, c in sorted(counts.items()):
        table[dim] = _prf(c["tp_pred"], c["pred"], c["tp_gold"], c["gold"])
    total = {k: sum(c[k] for c in counts.values()) for k in ("tp_pred", "pred", "tp_gold", "gold", "exact_pred")}
    table["ALL"] = _prf(total["tp_pred"], total["pred"], total["tp_gold"], total["gold"])
    table["ALL (exact offsets)"] = _prf(total["exact_pred"], total["pred"], total["exact_pred"], total["gold"])
    return table


def _prf(tp_pred: int, pred: int, tp_gold: int, gold: int) -> dict[str, float]:
    p = tp_pred / pred if pred else 0.0
    r = tp_gold / gold if gold else 0.0
    return {"P": p, "R": r, "F1": 2 * p * r / (p + r) if p + r else 0.0, "gold": gold, "pred": pred}


CONFIGS = {"presidio": dict(use_presidio=True, use_ours=False), "ours": dict(use_presidio=False, use_ours=True),
           "presidio+ours": dict(use_presidio=True, use_ours=True)}


def run(name: str, docs, truth, configs: list[str]) -> dict:
    print(f"\n## {name}: {len(docs)} documents, {sum(len(v) for v in truth.values())} true spans")
    results = {}
    for config in configs:
        labeler = Prelabeler(**CONFIGS[config])
        # load spaCy, the ICD-10-CM terms, jieba's dictionary and tokenizer (a Chinese name before a verb) and the
        # census names before timing
        labeler.label([*docs[:1], make_document("warm-up", "warm-up.txt", "患者王小明确诊。")])
        t0 = time.perf_counter()
        spans = labeler.label(docs)
        results[config] = {"seconds": time.perf_counter() - t0, "table": score(docs, spans, truth),
                           "placeholders": placeholders_labelled(docs, spans)}
    dims = list(dict.fromkeys(d for c in configs for d in results[c]["table"]))
    print("| dimension | gold | " + " | ".join(f"{c} P / R / F1" for c in configs) + " |")
    print("|---|---:|" + "---:|" * len(configs))
    for dim in dims:
        row = [results[c]["table"].get(dim, _prf(0, 0, 0, 0)) for c in configs]
        gold = max(r["gold"] for r in row)
        print(f"| {dim} | {gold} | " + " | ".join(f"{r['P']:.2f} / {r['R']:.2f} / {r['F1']:.2f}" for r in row) + " |")
    for config in configs:
        secs, everything = results[config]["seconds"], results[config]["table"]["ALL"]
        print(f"{config}: {len(docs) / secs:.1f} docs/s ({secs:.2f} s); true spans proposed "
              f"{everything['R']:.1%}; placeholders labelled: {results[config]['placeholders']}")
    if {"presidio", "presidio+ours"} <= set(configs):
        base, ours = results["presidio"]["table"]["ALL"]["F1"], results["presidio+ours"]["table"]["ALL"]["F1"]
        print(f"F1 presidio+ours / presidio alone = {ours / base:.2f}x" if base else "presidio alone found nothing")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=Path, default=Path("tasks"))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--n", type=int, default=40, help="synthetic tasks (half English, half Chinese)")
    parser.add_argument("--leaks-dev", type=Path, default=Path("../shared/leaks-dev"),
                        help="hand-written cases (cases.jsonl, units.jsonl) we did not tune the recognizers on")
    parser.add_argument("--json", type=Path, help="also write all figures as JSON")
    parser.add_argument("--configs", nargs="+", choices=list(CONFIGS), default=list(CONFIGS),
                        help="which labellers to score (`ours` alone needs no spaCy)")
    args = parser.parse_args()
    out = {}
    if (args.leaks_dev / "cases.jsonl").exists():
        out["leaks-dev"] = run(f"leaks-dev {args.leaks_dev} (verbatim values)", *leaks_dev(args.leaks_dev),
                               args.configs)
    out["synthetic"] = run(f"synthetic (seed {args.seed})", *synthetic(args.n, args.seed), args.configs)
    if args.tasks.is_dir():
        docs, truth = task_suite(args.tasks)
        if docs:
            out["tasks"] = run(f"task suite {args.tasks}", docs, truth, args.configs)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
