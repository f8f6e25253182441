"""Precision, recall, F1 and grade accuracy of the audit on a hand-graded set of texts, per kind.

A set is a `cases.jsonl` (one text per line with the true grade and kind of every unit of its
task, the schema of `tests/data/leaks-handwritten/README.md`) and the units it grades. Each case
is sent through the library call behind `ec2audit audit` as one user message of its own episode,
so the predicted grade of a unit is the highest grade any finding gives it in that text.

A finding is a predicted leak when its grade is > 0, a unit a true leak when its true grade is
> 0; grade accuracy is the share of unit-case pairs whose predicted grade equals the true grade.
The string-level total covers every kind the string tiers are meant to find (all but paraphrase,
translation and description, which are totalled apart).

    .venv/bin/python benchmarks/leak_eval.py tests/data/leaks-handwritten/cases.jsonl \
        tests/data/leaks-handwritten/units.jsonl [--tiers string|all] [--json]

`--tiers string` (default): exact + partial, no model. `--tiers all`: the string tiers, then the
semantic tier deciding alone with the settings of `judges/calibration.toml` (no LLM judge).

    .venv/bin/python benchmarks/leak_eval.py --split judges/local-judge/handwritten-test-15.jsonl [--split …]

`--split FILE` (repeatable): a judge's labelled split instead (`ec2audit.detect.calibrate.read_split`), each
example one case grading its own unit, the split's units the unit set (as `benchmarks/local_judge.py` runs it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from ec2audit.audit import audit
from ec2audit.detect.calibrate import bootstrap, read_split
from ec2audit.detect.cascade import Cascade, build_cascade
from ec2audit.errors import InputError
from ec2audit.payloads import payload_from_record
from ec2audit.units import Unit, read_units

KINDS = ("verbatim", "reformatted", "masked", "fragment", "paraphrase", "translation", "description",
         "distractor", "placeholder", "topic_only", "absent")
MEANING_KINDS = frozenset({"paraphrase", "translation", "description"})  # beyond the string tiers
CALIBRATION = Path(__file__).resolve().parents[1] / "judges" / "calibration.toml"


@dataclass(frozen=True)
class Case:
    case_id: str
    task_id: str
    text: str
    expected: dict[str, float]
    kinds: dict[str, str]


@dataclass
class Tally:
    """Counts over unit-case pairs; the ratios are None where nothing defines them."""

    pairs: int = 0
    true_leaks: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    grade_hits: int = 0

    def add(self, truth: float, predicted: float) -> None:
        self.pairs += 1
        self.true_leaks += truth > 0
        self.tp += truth > 0 and predicted > 0
        self.fp += truth == 0 and predicted > 0
        self.fn += truth > 0 and predicted == 0
        self.grade_hits += truth == predicted

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / self.true_leaks if self.true_leaks else None

    @property
    def f1(self) -> float | None:
        errors = self.fp + self.fn
        return 2 * self.tp / (2 * self.tp + errors) if self.tp or errors else None

    @property
    def grade_accuracy(self) -> float | None:
        return self.grade_hits / self.pairs if self.pairs else None

    def as_dict(self) -> dict:
        return {"pairs": self.pairs, "true_leaks": self.true_leaks, "found": self.tp, "false_leaks": self.fp,
                "missed": self.fn, "precision": self.precision, "recall": self.recall, "f1": self.f1,
                "grade_accuracy": self.grade_accuracy}


@dataclass
class Report:
    by_kind: dict[str, Tally] = field(default_factory=dict)
    string_level: Tally = field(default_factory=Tally)
    meaning_level: Tally = field(default_factory=Tally)
    misses: list[dict] = field(default_factory=list)
    false_leaks: list[dict] = field(default_factory=list)
    string_ci: dict = field(default_factory=dict)  # bootstrap 95 % CIs over string-level unit-case pairs

    def as_dict(self) -> dict:
        return {"by_kind": {k: t.as_dict() for k, t in self.by_kind.items()},
                "string_level": {**self.string_level.as_dict(), "ci95": self.string_ci},
                "meaning_level": self.meaning_level.as_dict(), "misses": self.misses, "false_leaks": self.false_leaks}


def read_cases(path: Path, units: list[Unit]) -> list[Case]:
    """Cases from JSONL; every case must grade exactly the units of its task."""
    by_task: dict[str, set[str]] = {}
    for unit in units:
        by_task.setdefault(unit.task_id, set()).add(unit.id)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read cases: {exc}", file=str(path)) from None
    cases, seen = [], set()
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            case = _case(json.loads(raw), by_task)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON ({exc.msg}, column {exc.colno})", file=str(path), line=number) from None
        except InputError as exc:
            raise InputError(exc.reason, file=str(path), line=number, field=exc.field) from None
        if case.case_id in seen:
            raise InputError(f"duplicate case id {case.case_id!r}", file=str(path), line=number, field="case_id")
        seen.add(case.case_id)
        cases.append(case)
    return cases


def _case(data, by_task: dict[str, set[str]]) -> Case:
    if not isinstance(data, dict):
        raise InputError("a case must be a JSON object")
    for key, kind in (("case_id", str), ("task_id", str), ("text", str), ("expected", dict), ("kinds", dict)):
        if not isinstance(data.get(key), kind):
            raise InputError(f"missing or not a {kind.__name__}", field=key)
    task_units = by_task.get(data["task_id"])
    if task_units is None:
        raise InputError(f"no unit has task id {data['task_id']!r}", field="task_id")
    for key in ("expected", "kinds"):
        if set(data[key]) != task_units:
            missing, extra = sorted(task_units - set(data[key])), sorted(set(data[key]) - task_units)
            raise InputError(f"must grade exactly the task's units (missing {missing}, unknown {extra})", field=key)
    for uid, grade in data["expected"].items():
        if isinstance(grade, bool) or not isinstance(grade, (int, float)) or not 0 <= grade <= 1:
            raise InputError(f"grade {grade!r} is not a number in [0, 1]", field=f"expected.{uid}")
    for uid, kind in data["kinds"].items():
        if not isinstance(kind, str) or not kind:
            raise InputError(f"kind {kind!r} is not a name", field=f"kinds.{uid}")
    return Case(data["case_id"], data["task_id"], data["text"],
                {uid: float(g) for uid, g in data["expected"].items()}, dict(data["kinds"]))


def read_split_cases(path: Path) -> tuple[list[Case], list[Unit]]:
    """A judge's split as cases (one per example, its unit alone graded) and the split's units."""
    examples = read_split(path)
    units = list(dict.fromkeys(e.unit for e in examples))
    cases = [Case(e.id, e.unit.task_id, e.text, {e.unit.id: e.grade}, {e.unit.id: e.kind}) for e in examples]
    return cases, units


def cascade_for(units: list[Unit], tiers: str) -> Cascade:
    """The string tiers alone, or the cascade an audit without a judge runs (calibrated semantic tier)."""
    if tiers == "string":
        return build_cascade(units)
    from ec2audit.detect.calibrate import read_calibration

    return build_cascade(units, read_calibration(CALIBRATION))


def predict(cases: list[Case], units: list[Unit], tiers: str = "string",
            console: Console | None = None) -> dict[tuple[str, str], float]:
    """Predicted grade of every (case id, unit id) the audit found; absent pairs are 0."""
    payloads = [payload_from_record({"id": c.case_id, "task_id": c.task_id, "episode": c.case_id,
                                     "request": {"messages": [{"role": "user", "content": c.text}]}}, c.case_id)
                for c in cases]
    with Progress(console=console or Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"auditing {len(cases)} cases ({tiers} tiers)", total=len(cases))
        result = audit(payloads, units, cascade_for(units, tiers), on_payload=lambda _: progress.advance(task))
    return {(case_id, uid): grade for case_id, grades in result.grades.items() for uid, grade in grades.items()}


def score(cases: list[Case], predicted: dict[tuple[str, str], float]) -> Report:
    """Tallies per kind and in total, and the misses and false leaks, from the predicted grades."""
    report = Report()
    kinds_seen = Counter(k for c in cases for k in c.kinds.values())
    order = [k for k in KINDS if k in kinds_seen] + sorted(set(kinds_seen) - set(KINDS))
    report.by_kind = {k: Tally() for k in order}
    gold, pred = [], []
    for case in cases:
        for uid, truth in case.expected.items():
            kind = case.kinds[uid]
            guess = round(predicted.get((case.case_id, uid), 0.0), 2)
            truth = round(truth, 2)
            for tally in (report.by_kind[kind],
                          report.meaning_level if kind in MEANING_KINDS else report.string_level):
                tally.add(truth, guess)
            if kind not in MEANING_KINDS:
                gold.append(truth > 0)
                pred.append(guess > 0)
            row = {"case_id": case.case_id, "unit_id": uid, "kind": kind, "true": truth, "predicted": guess}
            if truth > 0 and guess == 0:
                report.misses.append(row)
            elif truth == 0 and guess > 0:
                report.false_leaks.append(row)
    if gold:
        ci = bootstrap(gold, pred)
        report.string_ci = {k: ci[f"{k}_ci"] for k in ("precision", "recall", "f1")}
    return report


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def print_report(report: Report, title: str, console: Console) -> None:
    table = Table(title=title)
    for name in ("kind", "pairs", "true leaks", "found", "false leaks", "precision", "recall", "F1", "grade acc."):
        table.add_column(name, justify="left" if name == "kind" else "right", no_wrap=True)

    def row(name: str, t: Tally, style: str | None = None) -> None:
        table.add_row(name, str(t.pairs), str(t.true_leaks), str(t.tp), str(t.fp), _fmt(t.precision),
                      _fmt(t.recall), _fmt(t.f1), _fmt(t.grade_accuracy), style=style)

    for kind, tally in report.by_kind.items():
        row(kind, tally)
    table.add_section()
    row("string-level", report.string_level, "bold")
    row("meaning-level", report.meaning_level)
    console.print(table)
    console.print("string-level: every kind but paraphrase, translation and description (meaning-level)")
    if report.string_ci:
        console.print("string-level 95 % CI (bootstrap over unit-case pairs): " + ", ".join(
            f"{k} [{lo:.3f}, {hi:.3f}]" for k, (lo, hi) in report.string_ci.items()))
    for rows, what in ((report.misses, "misses (true leak, predicted 0)"),
                       (report.false_leaks, "false leaks (true 0, predicted > 0)")):
        listing = Table(title=f"{len(rows)} {what}")
        for name in ("case", "unit", "kind", "true", "predicted"):
            listing.add_column(name)
        for r in sorted(rows, key=lambda r: (r["kind"] in MEANING_KINDS, r["kind"], r["case_id"], r["unit_id"])):
            listing.add_row(r["case_id"], r["unit_id"], r["kind"], f"{r['true']:.1f}", f"{r['predicted']:.1f}")
        console.print(listing)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", type=Path, nargs="?")
    parser.add_argument("units", type=Path, nargs="?")
    parser.add_argument("--split", type=Path, action="append", help="a judge's labelled split (repeatable)")
    parser.add_argument("--tiers", choices=("string", "all"), default="string")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if (args.split and (args.cases or args.units)) or not (args.split or (args.cases and args.units)):
        parser.error("give CASES and UNITS, or --split FILE")
    err = Console(stderr=True)
    try:
        if args.split:
            cases: list[Case] = []
            predicted: dict[tuple[str, str], float] = {}
            for path in args.split:  # each split with its own units, as the judge runs it
                split_cases, units = read_split_cases(path)
                cases += split_cases
                predicted |= predict(split_cases, units, args.tiers, err)
        else:
            units = read_units(args.units)
            cases = read_cases(args.cases, units)
            predicted = predict(cases, units, args.tiers, err)
        report = score(cases, predicted)
    except InputError as exc:
        err.print(f"[red]error[/] {exc}", highlight=False, soft_wrap=True)
        return 2
    source = ", ".join(map(str, args.split)) if args.split else str(args.cases)
    if args.json:
        print(json.dumps({"cases": source, "tiers": args.tiers, **report.as_dict()}, indent=2))
    else:
        print_report(report, f"{source} · {len(cases)} cases · {args.tiers} tiers", Console(width=120))
    return 0


if __name__ == "__main__":
    sys.exit(main())
