"""Realistic calibration: what the cascade without a judge does on long, hand-written agent traffic.

A case set (`units.jsonl` + `cases.jsonl`, the format of `/work/shared/leaks-dev`) labels every unit of
a task in every text (tool results, logs, CSV, JSON, e-mails, chat) with a grade and a kind, hard
negatives included: the topic without the value, other people's values, placeholders. On such text
the semantic tier's score does not separate a paraphrase from its topic, so without a judge it writes
candidates for review. `grade_threshold` looks for a score above which the tier may grade alone (at
least `PRECISION` of the pairs there are leaks, on enough of them); `evaluate` reports per kind the
precision of what was graded and how many positives the candidates keep.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ec2audit.detect.cascade import Cascade
from ec2audit.detect.semantic import CANDIDATE, SemanticTier
from ec2audit.errors import InputError
from ec2audit.payloads import Payload, Segment
from ec2audit.units import Unit, read_units

if TYPE_CHECKING:
    from ec2audit.detect.judge import Grader

PRECISION = 0.9  # the share of leaks a grading threshold must show on realistic dev …
MIN_SUPPORT = 20  # … over at least this many pairs
PARAPHRASE_KINDS = ("paraphrase", "translation", "description")  # what only the paraphrase tiers can find
CANDIDATE_RECALL = 0.9  # share of those positives the candidates (without a judge) must keep on dev


@dataclass(frozen=True)
class Case:
    id: str
    task_id: str
    lang: str
    format: str
    text: str
    expected: dict[str, float]  # unit id → hand-assigned grade, for every unit of the task
    kinds: dict[str, str]


@dataclass(frozen=True)
class Pair:
    """One (case, unit) pair as the judge-less cascade saw it."""

    case: str
    unit_id: str
    gold: float
    kind: str
    lang: str
    graded: float  # highest grade any tier gave (0.0: none)
    candidate: float | None  # best candidate score, None if the shortlist left the pair out


def read_cases(set_dir: str | Path) -> tuple[list[Unit], list[Case]]:
    """Units and cases of one split; every case must grade every unit of its task."""
    set_dir = Path(set_dir)
    units = read_units(set_dir / "units.jsonl")
    by_task: dict[str, set[str]] = defaultdict(set)
    for unit in units:
        by_task[unit.task_id].add(unit.id)
    path, cases = set_dir / "cases.jsonl", []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read cases ({exc.strerror})", file=str(path)) from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            case = Case(row["case_id"], row["task_id"], row["lang"], row.get("format", ""), row["text"],
                        {k: float(v) for k, v in row["expected"].items()}, dict(row["kinds"]))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(f"not a case ({exc!r})", file=str(path), line=number) from None
        missing = by_task[case.task_id] - set(case.expected)
        if missing or set(case.expected) - by_task[case.task_id]:
            raise InputError(f"expected must grade exactly the units of task {case.task_id!r}",
                             file=str(path), line=number, field="expected")
        cases.append(case)
    return units, cases


def run_cases(units: list[Unit], cases: list[Case], semantic: SemanticTier,
              on_case: Callable[[], None] | None = None, judge: Grader | None = None) -> list[Pair]:
    """Every (case, unit) pair through the cascade (each case one payload); without a `judge` the
    shortlisted pairs are candidates, with one they are the judge's to grade or leave for review."""
    cascade = Cascade(units, semantic=semantic, judge=judge)
    pairs = []
    for case in cases:
        payload = Payload(case.id, [Segment(0, "user", "user", case.text)], task_id=case.task_id)
        graded: dict[str, float] = defaultdict(float)
        candidate: dict[str, float] = {}
        for f in cascade.scan(payload):
            if f.detector == CANDIDATE:
                candidate[f.unit_id] = max(candidate.get(f.unit_id, f.confidence), f.confidence)
            else:
                graded[f.unit_id] = max(graded[f.unit_id], f.grade)
        pairs += [Pair(case.id, uid, gold, case.kinds[uid], case.lang, graded[uid], candidate.get(uid))
                  for uid, gold in case.expected.items()]
        if on_case:
            on_case()
    return pairs


def candidate_threshold(pairs: list[Pair], recall: float = CANDIDATE_RECALL) -> float | None:
    """The highest shortlist score (3 decimals, rounded down) at which graded pairs and candidates keep
    `recall` of the paraphrase/translation/description positives; the lowest score seen when even all
    candidates fall short (a pair the prefilter left out is lost at any threshold), None without any."""
    import math

    hard = [p for p in pairs if p.gold > 0 and p.kind in PARAPHRASE_KINDS]
    scores = sorted((p.candidate for p in hard if p.graded == 0 and p.candidate is not None), reverse=True)
    if not scores:
        return None
    need = math.ceil(recall * len(hard)) - sum(p.graded > 0 for p in hard)
    return math.floor(scores[min(max(need, 1), len(scores)) - 1] * 1000) / 1000


def grade_threshold(pairs: list[Pair], precision: float = PRECISION, support: int = MIN_SUPPORT) -> float | None:
    """The lowest candidate score at which at least `precision` of the `support` or more candidates
    scoring that high are leaks; None (never grade alone) when no score qualifies."""
    scored = sorted(((p.candidate, p.gold > 0) for p in pairs if p.candidate is not None and p.graded == 0),
                    reverse=True)
    best, leaks = None, 0
    for n, (score, leak) in enumerate(scored, start=1):
        leaks += leak
        if n >= support and leaks / n >= precision:
            best = score
    return best


def evaluate(pairs: list[Pair], threshold: float | None, candidates: float | None = None) -> dict:
    """Per kind and overall: pairs graded above 0 (with the semantic tier grading candidates at or
    above `threshold`), their precision, and the positives kept as graded or as a candidate scoring
    at least `candidates` (None: every candidate)."""
    def outcome(p: Pair) -> tuple[bool, bool]:
        score = p.candidate
        shortlisted = score is not None and (candidates is None or score >= candidates)
        graded = p.graded > 0 or (threshold is not None and score is not None and shortlisted and score >= threshold)
        return graded, graded or shortlisted

    def block(group: list[Pair]) -> dict:
        results = [outcome(p) for p in group]
        graded = [p for p, (g, _) in zip(group, results, strict=True) if g]
        positives = [r for p, r in zip(group, results, strict=True) if p.gold > 0]
        return {"n": len(group), "positives": len(positives), "graded": len(graded),
                "graded_wrong": sum(p.gold == 0 for p in graded),
                "graded_precision": round(sum(p.gold > 0 for p in graded) / len(graded), 4) if graded else None,
                "candidates": sum(1 for g, k in results if k and not g),
                "kept_recall": round(sum(k for _, k in positives) / len(positives), 4) if positives else None}

    kinds: dict[str, list[Pair]] = defaultdict(list)
    for p in pairs:
        kinds[p.kind].append(p)
    paraphrase = [p for p in pairs if p.kind in PARAPHRASE_KINDS]
    return {"grade_threshold": threshold, "candidate_threshold": candidates, "all": block(pairs),
            "paraphrase_translation_description": block(paraphrase),
            "by_kind": {k: block(v) for k, v in sorted(kinds.items())}}


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def markdown(report: dict, title: str) -> list[str]:
    """Rows of the calibration report for one realistic split."""
    candidates, grade = report["candidate_threshold"], report["grade_threshold"]
    out = ["", f"## {title}", "",
           (f"Candidates for review from shortlist score {candidates:.3f}; " if candidates is not None else
            "No shortlist score kept enough positives to send candidates for review; ")
           + (f"the semantic tier grades a leak alone from score {grade:.3f}." if grade is not None else
              "the semantic tier never grades a leak alone (no score was precise enough on the dev split)."), "",
           "| kind | pairs | positives | graded > 0 | graded but not a leak | graded precision | candidates | "
           "positives kept (graded or candidate) |", "|---|---|---|---|---|---|---|---|"]
    rows = [("**all**", report["all"]), ("**paraphrase+translation+description**",
                                          report["paraphrase_translation_description"])]
    for name, m in rows + list(report["by_kind"].items()):
        out.append(f"| {name} | {m['n']} | {m['positives']} | {m['graded']} | {m['graded_wrong']} | "
                   f"{_fmt(m['graded_precision'])} | {m['candidates']} | {_fmt(m['kept_recall'])} |")
    return out
