"""Calibrate the semantic tier and the judge on a labelled set; measure every tier on held-out data.

The set (`judges/calibration/`) holds (unit, text, grade, kind) examples split into dev and test.
On dev we choose the semantic tier's window and threshold that maximise F1 when it decides alone, and
the shortlist in front of the judge: the cheapest window and the highest threshold that keep a recall
target of the positives (raised further where the judge's dev verdicts show that improves F1). On test
we report precision, recall and F1 (bootstrap 95 % CIs) per tier, per kind and per language, the
confusion of grades and what the judge cost. The chosen settings go to `judges/calibration.toml`,
which later audits read.
"""

from __future__ import annotations

import json
import math
import random
import re
import tomllib
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ec2audit import resources
from ec2audit.detect.cascade import build_cascade
from ec2audit.detect.finding import MOSTLY
from ec2audit.detect.judge import GRADES, Grader
from ec2audit.detect.realistic import markdown as realistic_markdown
from ec2audit.detect.semantic import DEFAULT_BATCH, DEFAULT_MODEL, SemanticTier
from ec2audit.errors import InputError
from ec2audit.units import Unit, make_unit

DEFAULT_SET = resources.data("judges/calibration")
WINDOWS = (96, 192, 384)
# Defaults for the judge's shortlist, chosen by `benchmarks/judge_cost.py` for a 20 % token budget
# against AceBench's one-shot judge (benchmarks/RESULTS.md).
RECALL_TARGET = 0.8
PER_UNIT = 1
TIERS = ("exact+partial", "semantic", "judge", "cascade")


@dataclass(frozen=True)
class Example:
    id: str
    unit: Unit
    text: str
    grade: float
    kind: str
    lang: str

    @property
    def positive(self) -> bool:
        return self.grade > 0


def read_split(path: str | Path) -> list[Example]:
    path = Path(path)
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            out.append(Example(row["id"], make_unit(row["unit"]), row["text"], float(row["grade"]),
                               row["kind"], row["lang"]))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise InputError(f"not a calibration example ({exc})", file=str(path), line=number) from None
        except InputError as exc:
            raise InputError(exc.reason, file=str(path), line=number, field=exc.field) from None
    return out


# --- metrics ---------------------------------------------------------------------------------------

def prf(gold: Sequence[bool], pred: Sequence[bool]) -> tuple[float, float, float]:
    tp = sum(g and p for g, p in zip(gold, pred, strict=True))
    fp = sum(p and not g for g, p in zip(gold, pred, strict=True))
    fn = sum(g and not p for g, p in zip(gold, pred, strict=True))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def bootstrap(gold: Sequence[bool], pred: Sequence[bool], rounds: int = 1000, seed: int = 0) -> dict:
    """Precision, recall, F1 with percentile 95 % CIs over resampled examples."""
    rng = random.Random(seed)
    n = len(gold)
    samples = []
    for _ in range(rounds):
        idx = [rng.randrange(n) for _ in range(n)]
        samples.append(prf([gold[i] for i in idx], [pred[i] for i in idx]))
    out: dict[str, float | list[float]] = {}
    for k, name in enumerate(("precision", "recall", "f1")):
        values = sorted(s[k] for s in samples)
        out[name] = round(prf(gold, pred)[k], 4)
        out[f"{name}_ci"] = [round(values[int(0.025 * rounds)], 4), round(values[int(0.975 * rounds) - 1], 4)]
    return out


def best_threshold(scores: Sequence[float], gold: Sequence[bool], base: Sequence[bool] | None = None
                   ) -> tuple[float, float]:
    """Threshold on `scores` maximising F1 of (base or score ≥ t); ties go to the higher threshold.
    Candidates are the scores cut down to 3 places, so that each one still keeps its own score."""
    base = base or [False] * len(scores)
    best = (-1.0, 1.0)
    for t in sorted({math.floor(s * 1000) / 1000 for s in scores}):
        pred = [b or s >= t for b, s in zip(base, scores, strict=True)]
        f1 = prf(gold, pred)[2]
        if f1 >= best[0]:
            best = (f1, t)
    return best[1], best[0]


# --- running the tiers over examples -----------------------------------------------------------------

@dataclass
class Scored:
    """Every tier's grade for one list of examples."""

    examples: list[Example]
    string: list[float] = field(default_factory=list)
    semantic: dict[int, list[float]] = field(default_factory=dict)  # window → score per example
    judge: dict[int, float] = field(default_factory=dict)  # example index → judge grade


def _units(examples: Sequence[Example]) -> tuple[list[Unit], list[int]]:
    index: dict[str, int] = {}
    units: list[Unit] = []
    owners = []
    for ex in examples:
        key = ex.unit.model_dump_json()
        if key not in index:
            index[key] = len(units)
            units.append(ex.unit.model_copy(update={"task_id": f"u{len(units)}"}))
        owners.append(index[key])
    return units, owners


def score_examples(examples: list[Example], windows: Sequence[int] = WINDOWS,
                   batch_size: int = DEFAULT_BATCH, model: str = DEFAULT_MODEL) -> Scored:
    """Exact/partial grades and semantic scores (for each window size) of every example."""
    units, owners = _units(examples)
    cascade = build_cascade(units)
    scored = Scored(examples)
    for ex, owner in zip(examples, owners, strict=True):
        hits = cascade.scan_text(ex.text, {owner})
        scored.string.append(max((h.grade for h in hits), default=0.0))
    tier = SemanticTier(units, batch_size=batch_size, model=model)
    for w in windows:
        matches = tier.score([ex.text for ex in examples], [[o] for o in owners], window=w)
        scored.semantic[w] = [m[0].score for m in matches]
    return scored


def run_judge(judge: Grader, scored: Scored, indices: Sequence[int],
              on_call: Callable[[], None] | None = None) -> None:
    requests = [(scored.examples[i].text, [scored.examples[i].unit]) for i in indices]
    for i, verdicts in zip(indices, judge.judge(requests, on_call, pack=True), strict=True):  # as the cascade asks
        scored.judge[i] = verdicts[0].grade


@dataclass
class Settings:
    window: int  # semantic tier alone (no judge): window size and …
    threshold: float  # … score ≥ threshold → leak (graded 0.7)
    shortlist: float  # with a judge: undecided pairs at or above go to the judge …
    batch_size: int = DEFAULT_BATCH
    model: str = DEFAULT_MODEL  # the embedding model the scores above belong to
    judge_window: int | None = None  # … scored in windows of this size (None: `window`) …
    per_unit: int | None = None  # … each unit in its best this many windows of a payload (None: all)
    recall_target: float | None = None  # the dev recall the shortlist was set to keep
    grade_threshold: float | None = None  # no judge: shortlist score from which the tier grades alone
    candidate_threshold: float | None = None  # no judge: shortlist score of a candidate for review

    @property
    def shortlist_window(self) -> int:
        return self.judge_window or self.window


def choose_settings(dev: Scored, model: str = DEFAULT_MODEL, recall_target: float = RECALL_TARGET
                    ) -> tuple[Settings, dict]:
    gold = [ex.positive for ex in dev.examples]
    by_window = {w: best_threshold(scores, gold) for w, scores in dev.semantic.items()}
    window = max(by_window, key=lambda w: (by_window[w][1], -w))
    # The judge's shortlist: in each window size, the highest threshold keeping `recall_target`; then
    # the window that sends the judge the fewest characters of dev text at its threshold.
    shortlists = {w: shortlist_for_recall(dev, w, recall_target) for w in dev.semantic}
    sent = {w: w * sum(g == 0 and s >= shortlists[w] for g, s in zip(dev.string, dev.semantic[w], strict=True))
            for w in shortlists}
    judge_window = min(sent, key=lambda w: (sent[w], w))
    shortlist = shortlists[judge_window]
    if dev.judge:  # the judge's verdicts may show that a higher shortlist threshold gives a better F1
        scores, string_pos = dev.semantic[judge_window], [g > 0 for g in dev.string]
        best = (-1.0, shortlist)
        for t in sorted({shortlist} | {round(scores[i], 3) for i in dev.judge if scores[i] >= shortlist}):
            pred = [string_pos[i] or (scores[i] >= t and dev.judge.get(i, 0.0) > 0) for i in range(len(gold))]
            f1 = prf(gold, pred)[2]
            if f1 > best[0]:  # ties keep the lower threshold: more recall for the same F1
                best = (f1, t)
        shortlist = best[1]
    dev_report = {"semantic_f1_by_window": {str(w): {"threshold": t, "f1": round(f, 4)}
                                            for w, (t, f) in by_window.items()},
                  "judge_shortlist_by_window": {str(w): {"threshold": shortlists[w], "chars_to_judge": sent[w]}
                                                for w in shortlists}}
    return Settings(window, by_window[window][0], shortlist, model=model, judge_window=judge_window,
                    per_unit=PER_UNIT, recall_target=recall_target), dev_report


def shortlist_for_recall(scored: Scored, window: int, recall: float) -> float:
    """The highest shortlist threshold at which the string tiers plus the shortlist still reach
    `recall` of the positives: with a judge behind it, a pair left off the shortlist is lost for
    good and a pair on it costs judge tokens, so recall is what the shortlist is tuned for."""
    positives = [(g, s) for ex, g, s in zip(scored.examples, scored.string, scored.semantic[window], strict=True)
                 if ex.positive]
    missed = sorted((s for g, s in positives if g == 0), reverse=True)  # what only the shortlist can keep
    keep = math.ceil(recall * len(positives)) - (len(positives) - len(missed))
    if keep <= 0:
        return math.floor(missed[0] * 1000 + 1) / 1000 if missed else 1.0
    return math.floor(missed[min(keep, len(missed)) - 1] * 1000) / 1000


def predictions(scored: Scored, settings: Settings) -> dict[str, list[float | None]]:
    """Predicted grade per tier; None where the judge did not see the example (left out by --limit)."""
    scores = scored.semantic[settings.window]
    n = len(scored.examples)
    out: dict[str, list[float | None]] = {
        "exact+partial": list(scored.string),
        "semantic": [MOSTLY if s >= settings.threshold else 0.0 for s in scores],
        "judge": [scored.judge.get(i) for i in range(n)],
    }
    # as in `Cascade`: with no judge the semantic tier grades only from a realistically validated score
    if scored.judge:
        shortlisted = [s >= settings.shortlist for s in scored.semantic[settings.shortlist_window]]
    else:
        gt = settings.grade_threshold
        shortlisted = [gt is not None and s >= gt for s in scored.semantic[settings.shortlist_window]]
    cascade: list[float | None] = []
    for i in range(n):
        if scored.string[i] > 0:
            cascade.append(scored.string[i])
        elif not shortlisted[i]:
            cascade.append(0.0)
        else:
            cascade.append(scored.judge.get(i) if scored.judge else MOSTLY)
    out["cascade"] = cascade
    if not scored.judge:
        del out["judge"]
    return out


def evaluate(scored: Scored, settings: Settings, rounds: int = 1000) -> dict:
    preds = predictions(scored, settings)
    report: dict = {"tiers": {}, "by_kind": {}, "by_lang": {}, "confusion": {}}
    for tier, all_grades in preds.items():
        grades = {i: g for i, g in enumerate(all_grades) if g is not None}  # the examples this tier graded
        keep = list(grades)
        if not keep:
            continue
        gold = [scored.examples[i].positive for i in keep]
        pred = [grades[i] > 0 for i in keep]
        report["tiers"][tier] = {"n": len(keep), **bootstrap(gold, pred, rounds)}
        for attr, bucket in (("kind", "by_kind"), ("lang", "by_lang")):
            groups: dict[str, list[int]] = defaultdict(list)
            for i in keep:
                groups[getattr(scored.examples[i], attr)].append(i)
            for name, idx in sorted(groups.items()):
                g = [scored.examples[i].positive for i in idx]
                p = [grades[i] > 0 for i in idx]
                precision, recall, f1 = prf(g, p)
                accuracy = sum(a == b for a, b in zip(g, p, strict=True)) / len(idx)
                report[bucket].setdefault(name, {})[tier] = {
                    "n": len(idx), "f1": round(f1, 4), "recall": round(recall, 4), "accuracy": round(accuracy, 4)}
        confusion = Counter((scored.examples[i].grade, _snap(grades[i])) for i in keep)
        report["confusion"][tier] = {f"{g}": {f"{p}": confusion[(g, p)] for p in GRADES} for g in GRADES}
    return report


def _snap(grade: float) -> float:
    return min(GRADES, key=lambda g: abs(g - grade))


# --- files --------------------------------------------------------------------------------------------

def write_calibration(path: str | Path, settings: Settings, meta: dict) -> Path:
    path = Path(path)
    lines = ["# Written by `ec2audit judge --calibrate`; read by `ec2audit judge` audits.",
             "[semantic]  # the tier deciding alone (--no-judge)", f"window = {settings.window}",
             f"threshold = {settings.threshold}", f"batch_size = {settings.batch_size}",
             f"model = {json.dumps(settings.model)}"]
    lines += [f"grade_threshold = {settings.grade_threshold}  # validated on realistic text"
              ] if settings.grade_threshold is not None else []
    lines += [f"candidates = {settings.candidate_threshold}  # shortlist score of a candidate, realistic text"
              ] if settings.candidate_threshold is not None else []
    lines += ["",
             "[judge]  # the shortlist in front of the judge", f"window = {settings.shortlist_window}",
             f"shortlist = {settings.shortlist}"]
    lines += [f"per_unit = {settings.per_unit}"] if settings.per_unit else []
    lines += [f"recall_target = {settings.recall_target}"] if settings.recall_target else []
    lines += ["", "[calibrated]"]
    for key, value in meta.items():
        lines.append(f"{re.sub(r'[^A-Za-z0-9_-]', '_', key)} = {json.dumps(value, ensure_ascii=False)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read_calibration(path: str | Path | None = None) -> Settings:
    """Settings from `path`, by default the last `judge --calibrate` result or the shipped one."""
    path = Path(path) if path else resources.calibration_settings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        semantic = data["semantic"]
        judge = data.get("judge", semantic)  # older files: one window, the shortlist under [semantic]
        return Settings(int(semantic["window"]), float(semantic["threshold"]), float(judge["shortlist"]),
                        int(semantic.get("batch_size", DEFAULT_BATCH)),
                        str(semantic.get("model", "minilm")),  # files from before the setting are MiniLM's
                        int(judge["window"]), int(judge["per_unit"]) if "per_unit" in judge else None,
                        float(judge["recall_target"]) if "recall_target" in judge else None,
                        float(semantic["grade_threshold"]) if "grade_threshold" in semantic else None,
                        float(semantic["candidates"]) if "candidates" in semantic else None)
    except (OSError, tomllib.TOMLDecodeError, KeyError, ValueError) as exc:
        raise InputError(f"not a calibration file ({exc}); run `ec2audit judge --calibrate`", file=str(path)) from None


def markdown(report: dict) -> str:
    out = [f"# Judge calibration — {report['calibrated']['date']}", "",
           f"Set: `{report['calibrated']['set']}`; semantic model: `{report['calibrated']['semantic_model']}`; "
           f"judge: `{report['calibrated']['judge_model']}` "
           f"(prompt `{report['calibrated']['prompt']}`). Positive = grade > 0.", "",
           "## Tiers on test", "", "| tier | n | precision | recall | F1 (95 % CI) |", "|---|---|---|---|---|"]
    for tier, m in report["test"]["tiers"].items():
        out.append(f"| {tier} | {m['n']} | {m['precision']:.3f} | {m['recall']:.3f} | "
                   f"{m['f1']:.3f} [{m['f1_ci'][0]:.3f}, {m['f1_ci'][1]:.3f}] |")
    for bucket, title in (("by_kind", "kind"), ("by_lang", "language")):
        tiers = list(report["test"]["tiers"])
        out += ["", f"## Accuracy by {title} (test)", "", f"| {title} | " + " | ".join(tiers) + " |",
                "|---" * (len(tiers) + 1) + "|"]
        for name, per in report["test"][bucket].items():
            out.append(f"| {name} (n={next(iter(per.values()))['n']}) | "
                       + " | ".join(f"{per[t]['accuracy']:.2f}" if t in per else "–" for t in tiers) + " |")
    judge = report["judge_usage"]
    if judge:
        out += ["", "## Judge cost", "", f"calls {judge['calls']}, cached {judge['cached']}, prompt tokens "
                f"{judge['prompt_tokens']}, completion tokens {judge['completion_tokens']}, retries "
                f"{judge['retries']}, rejected verdicts {judge['rejected']}, USD {judge['usd']}"]
    for split, realistic in report.get("realistic", {}).items():
        out += realistic_markdown(realistic, f"Realistic {split} split, no judge (`{realistic['set']}`)")
    if judged := report.get("realistic_judged"):
        calibrated = report["calibrated"]
        out += realistic_markdown(judged, f"Realistic test split, judged by `{calibrated['judge_model']}` "
                                          f"(`{judged['set']}`)")
        out += ["", "| pairs | precision | recall | F1 (95 % CI) |", "|---|---|---|---|"]
        for name, m in (("all", judged["f1_all"]), ("paraphrase+translation+description vs negatives",
                                                     judged["f1_paraphrase"])):
            out.append(f"| {name} | {m['precision']:.3f} | {m['recall']:.3f} | {m['f1']:.3f} "
                       f"[{m['f1_ci'][0]:.3f}, {m['f1_ci'][1]:.3f}] |")
    out += ["", "## Chosen settings", "", "```json", json.dumps(report["settings"], indent=1), "```"]
    return "\n".join(out) + "\n"


def calibrate(set_dir: str | Path, judge: Grader | None, *, limit: int | None = None, seed: int = 0,
              windows: Sequence[int] = WINDOWS, model: str = DEFAULT_MODEL, recall_target: float = RECALL_TARGET,
              on_call: Callable[[], None] | None = None,
              on_stage: Callable[[str, int], None] | None = None) -> tuple[Settings, dict]:
    """Choose settings on dev, measure on test. `limit` samples that many examples per split."""
    set_dir = Path(set_dir)
    splits = {}
    for split in ("dev", "test"):
        examples = read_split(set_dir / f"{split}.jsonl")
        if limit and limit < len(examples):
            examples = random.Random(seed).sample(examples, limit)
        splits[split] = examples
    if on_stage:
        on_stage("embedding", sum(len(v) for v in splits.values()))
    dev = score_examples(splits["dev"], windows, model=model)
    test = score_examples(splits["test"], windows, model=model)
    settings, dev_report = choose_settings(dev, model, recall_target)
    if judge:
        # Dev: judge what the string tiers leave undecided and the shortlist keeps; test: judge
        # everything, so the judge alone is measured too.
        scores = dev.semantic[settings.shortlist_window]
        dev_idx = [i for i in range(len(dev.examples)) if dev.string[i] == 0 and scores[i] >= settings.shortlist]
        if on_stage:
            on_stage("judging", len(dev_idx) + len(test.examples))
        run_judge(judge, dev, dev_idx, on_call)
        run_judge(judge, test, range(len(test.examples)), on_call)
        settings, dev_report = choose_settings(dev, model, recall_target)
    realistic = calibrate_realistic(set_dir, settings, on_stage)
    realistic_judged = judge_realistic(set_dir, settings, judge, on_stage, on_call) if judge else None
    shown = set_dir.resolve()
    shown = shown.relative_to(Path.cwd()) if shown.is_relative_to(Path.cwd()) else shown
    report = {"calibrated": {"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "set": str(shown),
                             "dev_examples": len(dev.examples), "test_examples": len(test.examples),
                             "semantic_model": model,
                             "judge_model": judge.model if judge else "none",
                             "prompt": judge.version if judge else "none"},
              "settings": settings.__dict__, "dev": dev_report, "realistic": realistic,
              **({"realistic_judged": realistic_judged} if realistic_judged else {}),
              "test": evaluate(test, settings),
              "judge_usage": judge.usage.as_dict() if judge else {}}
    return settings, report


def judge_realistic(set_dir: Path, settings: Settings, judge: Grader,
                    on_stage: Callable[[str, int], None] | None = None,
                    on_call: Callable[[], None] | None = None) -> dict | None:
    """The judge on the realistic test split (with `realistic-test/` in the set): the cascade as an audit
    runs it, the pairs the dev split's candidate threshold shortlists graded by the judge (or left for
    review where it is unsure). P/R/F1 with 95 % CIs over every (case, unit) pair and over the
    paraphrase kinds against every negative, and per kind what was graded and left for review."""
    from ec2audit.detect.realistic import PARAPHRASE_KINDS, evaluate, read_cases, run_cases
    from ec2audit.detect.semantic import NO_CUE

    path = set_dir / "realistic-test"
    if not path.is_dir():
        return None
    units, cases = read_cases(path)
    if on_stage:
        on_stage("judging realistic test", len(cases))
    low = settings.candidate_threshold
    tier = SemanticTier(units, window=settings.shortlist_window, threshold=NO_CUE / 2 if low is None else low,
                        batch_size=settings.batch_size, model=settings.model, per_unit=settings.per_unit)
    pairs = run_cases(units, cases, tier, on_call, judge=judge)
    hard = [p for p in pairs if p.kind in PARAPHRASE_KINDS or p.gold == 0]
    return {"set": path.name, "cases": len(cases), **evaluate(pairs, None, low),
            "f1_all": bootstrap([p.gold > 0 for p in pairs], [p.graded > 0 for p in pairs]),
            "f1_paraphrase": bootstrap([p.gold > 0 for p in hard], [p.graded > 0 for p in hard])}


def calibrate_realistic(set_dir: Path, settings: Settings, on_stage: Callable[[str, int], None] | None = None
                        ) -> dict:
    """With `realistic-dev/` and `realistic-test/` case sets in the set: the judge-less cascade on
    both, every shortlist score kept; dev chooses the candidates' threshold (`candidate_threshold`,
    for recall) and whether and from which score the semantic tier may grade alone
    (`grade_threshold`, for precision); test reports both per kind."""
    from ec2audit.detect.realistic import candidate_threshold, evaluate, grade_threshold, read_cases, run_cases
    from ec2audit.detect.semantic import NO_CUE

    report = {}
    for split in ("dev", "test"):
        path = set_dir / f"realistic-{split}"
        if not path.is_dir():
            continue
        units, cases = read_cases(path)
        if on_stage:
            on_stage(f"realistic {split}", len(cases))
        tier = SemanticTier(units, window=settings.shortlist_window, threshold=NO_CUE / 2,
                            batch_size=settings.batch_size, model=settings.model, per_unit=settings.per_unit)
        pairs = run_cases(units, cases, tier)
        if split == "dev":
            settings.candidate_threshold = candidate_threshold(pairs)
            low = settings.candidate_threshold
            shortlisted = [p for p in pairs if p.candidate is None or low is None or p.candidate >= low]
            settings.grade_threshold = grade_threshold(shortlisted)
        report[split] = {"set": path.name, "cases": len(cases),
                         **evaluate(pairs, settings.grade_threshold, settings.candidate_threshold)}
    return report
