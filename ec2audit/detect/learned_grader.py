"""A learned grader over what the local judge already reads: a logistic regression decides the grade.

Hand-written value checks (`ec2audit.detect.value_checks`) gain on the text they were written on and little
on text nobody read (benchmarks/RESULTS.md, issue 37). This grader weighs the same evidence — the
cross-encoder's probability, which check claimed the unit and what it decided, the free-text evidence
(clause scores, margin to other values, written out, bound, contrary), the kind of value and the script, and
whether the text names a category of the value's condition (`descriptions`, since session 22) and states
each of the value's numbers (since session 23) — fitted on the thirty-two hand-written test splits
(`judges/local-judge/learned_grader.py`, which also measures it leave-one-split-out and leaving the last
blind rounds out; not on the dev files, where the cross-encoder's probabilities are in-sample). Since
learned-grader-v5 a logistic regression: gradient-boosted trees (v1-v4) read as well leave-one-split-out and
worse on the latest blind rounds, whose authors no training split shares (benchmarks/RESULTS.md, session
24); the file format holds both, linear weights and trees, summed as log-odds. Its probability at or above
`threshold` (since v10 where held-out folds of the training splits keep graded precision 0.97: at 0.93 the blind
rounds fell 0.05-0.10 under it) grades (the check's grade where the check graded, `MOSTLY` otherwise); between
`review_threshold` and it, the pair is left for a person. A text that finds nothing about a health value
(`finds_nothing`: a denial, a normal or negative result, a result not back yet) is never graded, only left for
review; since learned-grader-v8 (session 25) neither is one that states the finding of another
instance (another tooth, another numbered donor, a roster of others' values) nor, in the value's Latin
script, one that holds no word, number, initials or category cue of the value and names no entity of it;
since learned-grader-v9 neither one that gives the value's number one slip away (digits swapped, one digit
off) nor one whose slot for the value holds a placeholder (`withheld`).

A candidate beside the default, learned-grader-v11 (`learned-grader-v11.json`, session 27), also reads the logit of
the cross-encoder's second head (`SPLITS_LOGIT`, `e5_judge.Head`), fitted on the splits: v10's recipe fitted on
thirty-six splits recorded with, for each, a second head fitted without it; a grader reads the features it names.
learned-grader-v12 (`learned-grader-v12.json`, session 28) is v11's recipe refitted on thirty-eight splits, the
second head (e5-cross-v6) fitted on them too. Since session 28 the grader also withholds a number given with another
unit of its measure and a diagnosis found not to fit, whichever grader reads them.
learned-grader-v13 (`learned-grader-v13.json`, the default of sessions 29–30, chosen by semantic F1 on blind
splits 41/42, benchmarks/RESULTS.md; v10, the default before it, is `learned-grader.json`) is v12's fit (thirty-eight
splits) with a description band (`describe_threshold`, its floor chosen on held-out folds of forty splits): a
pair under the grade threshold but at or above this lower one is graded `FRAGMENT`
(0.3, the grade a description of the value without the value earns) where the text may describe this entity's value
(`may_describe`: it names the entity, asks nothing about the value and denies nothing) and nothing withholds it; the
band's threshold keeps the graded precision of grade and band together at `DESCRIBE_TARGET` on held-out folds.
**The default since session 31 is learned-grader-v14** (session 30; chosen by semantic F1 on blind splits 45/46:
0.75 against v13's 0.70, both at graded precision 0.94), the recipe refitted on forty-two splits, its grade
threshold and band floor chosen where the leaks' local rate on held-out folds reaches 0.9 and 0.7 (the precision of
all graded ran flat under its old target, 0.97, and threw the threshold to the top; benchmarks/RESULTS.md).
The graders are package data (`judges/local-judge/learned-grader*.json`), evaluated with numpy: scikit-learn
fits it (a dev dependency) and is not needed to use it. The text's length is not a feature: the
hand-written splits' leaks are longer than their negatives, which a judge's windows of real traffic are not.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ec2audit import resources
from ec2audit.detect import descriptions, value_checks
from ec2audit.detect.finding import FRAGMENT, MOSTLY
from ec2audit.detect.judge import Verdict
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.value_checks import CHECKS, FreeTextEvidence, Reading
from ec2audit.errors import InputError
from ec2audit.units import Unit

GRADER_PATH = resources.data("judges/local-judge/learned-grader-v14.json")  # the default; v10-v13 beside it
KINDS = ("health", "business", "financial", "person_name", "contact", "location", "government_id", "credential",
         "network")  # the taxonomy's dimensions the hand-written data has; any other reads as none of them
_HAN = re.compile(r"[\u3400-\u9fff]")
#: A finding of nothing: a denial, a condition ruled out, a normal or negative result (a test read negative,
#: "no fracture of"), a yes/no question answered no, a result awaited. A text that says so
#: states no condition, though it names the condition's organ or test (the category cues) or the condition.
_NOTHING_FOUND = re.compile(
    r"\b(?:no (?:evidence|sign|signs|history|record) of|ruled out|rules out|denie[sd]|negative (?:for|result)"
    r"|tested negative|within normal (?:limits|range)|(?:all|both) (?:normal|negative)|unremarkable"
    r"|no (?:\w+ ){1,2}(?:of|seen|found|detected)|without (?:any )?(?:history|evidence|signs?) of|not on"
    r"|never (?:had|been diagnosed|been prescribed|been on|taken)"
    r"|(?:x-?ray|scan|test|screen|mri|ct|biopsy|culture|result)s?\b[^.;\n]{0,30}"
    r"\bnegative|(?:ticked|answered|checked|marked|circled|said) \W?no)\b"
    r"|[?？]\W{0,4}(?:no\b|否|无|没有)"  # a yes/no question answered no (a form, a questionnaire)
    # a diagnosis found not to fit (session 28, split 38): "does not meet criteria for", 不符合…的诊断, 诊断不成立
    r"|\b(?:does|did)(?: not|n't) meet (?:the )?(?:[\w-]+ )?criteria\b|不符合[^，。,.;；]{0,20}诊断|诊断不成立"
    r"|阴性|正常范围|均正常|未见|排除(?!标准)|否认|未发现|没有发现|未患|从未(?:服用|用过|开过)|从没(?:吃过|用过)|无[^，。,.]{0,8}(?:病史|疾病)"
    # a result or record awaited: nothing is known yet ("stim test results not back", "hasn't arrived yet")
    r"|\b(?:not back (?:yet|from)|not (?:in|here) yet|(?:has|have)(?:n't| not) (?:yet )?(?:arrived|come (?:back|in))"
    r"|still waiting (?:for|on))\b|还没出|尚未出|尚未回|待回报|未回报|还没回来", re.I)
#: A panel or a class of drugs found empty (session 25): "panel negative", "no pathogenic variants (were
#: detected) in BRCA1, BRCA2", "no longer on any ADHD medication" (not "no longer on metformin": that names
#: the drug), 未检出, 不再服用任何, 已停用所有. Only where the rest of the text finds nothing (`_FOUND`):
#: "no variants in BRCA1; BRCA2 c.5946delT detected" states the finding.
_EMPTY = re.compile(
    r"\b(?:panel|testing|screen(?:ing)?|test)\b[^.;\n]{0,20}\bnegative"
    r"|\bno (?:\w+ ){0,2}(?:variants?|mutations?)(?: (?:were|was))?(?: (?:detected|found|identified|seen))?"
    r"(?: (?:in|of)\b)?|\b(?:no longer|not) (?:on|taking|prescribed) any\b"
    r"|不再服用任何|已停用(?:所有|全部|一切)|未检出", re.I)
_FOUND = re.compile(r"\b(?:detected|positive|carr(?:y|ies|ier)|found|identified|confirmed)\b|阳性|检出|确诊",
                    re.I)


#: The second head's logit (`e5_judge.Head.splits`), read since learned-grader-v11; a grader that does not name it
#: (v10) reads it from no update, and one that does needs an update with a second head (e5-cross-v5 on).
SPLITS_LOGIT = "splits_head_logit"
LOGIT = math.log(9999.0)  # the second head's logit is clipped as the first's is (its probability to 1e-4)


def _clip(x: float, low: float = -1.0, high: float = 1.0) -> float:
    return min(max(x, low), high)


def features(unit: Unit, text: str, reading: Reading, check: str, verdict: Verdict,
             evidence: FreeTextEvidence) -> list[float]:
    """One candidate's features, in `names()` order: the model's reading, the check's decision, the free-text
    evidence (computed for every candidate, whatever its check), the value's kind and script, whether the
    text describes its condition by category, and the second head's logit (NaN where the update has none)."""
    p = _clip(reading.probability, 1e-4, 1 - 1e-4)
    veto = verdict.grade <= 0 and not verdict.review and reading.probability >= reading.review_threshold
    return [math.log(p / (1 - p)), float(p >= reading.threshold), float(p >= reading.review_threshold),
            float(verdict.grade > 0), verdict.grade, float(verdict.review), float(veto),
            *(float(check == c.name) for c in CHECKS),
            _clip(evidence.specific), _clip(evidence.margin), float(evidence.margin >= 1.0), float(evidence.written),
            float(evidence.bound), float(evidence.contrary), float(evidence.contrast >= evidence.minimum),
            math.log1p(evidence.contrast), float(bool(_HAN.search(text))), float(bool(_HAN.search(unit.value))),
            *(float(unit.kind == k) for k in KINDS), *describes(unit, text), states_numbers(unit, text),
            float(finds_nothing(unit, text)),
            math.nan if reading.splits_logit is None else _clip(reading.splits_logit, -LOGIT, LOGIT)]


def describes(unit: Unit, text: str) -> list[float]:
    """How the text may describe the value without naming it (`descriptions`): whether the value's condition
    has a category, and how many of its categories the text names a cue of."""
    return [float(bool(descriptions.categories(unit))), float(descriptions.category_cues(unit, text))]


def states_numbers(unit: Unit, text: str) -> float:
    """1.0 where the value holds a number and the text states each of its numbers, in whatever form
    (`value_checks.numbers`: 1,236.8万 and "RMB 12.368 million", 2025年11月18日 and "November 18, 2025"):
    a translation or paraphrase keeps a value's numbers."""
    own = {round(n, 6) for n in value_checks.numbers(unit.value)}
    return float(bool(own) and own <= {round(n, 6) for n in value_checks.numbers(text)})


def finds_nothing(unit: Unit, text: str) -> bool:
    """Whether the text reports a finding of nothing about a health value (a denial, a condition ruled out, a
    normal or negative result, a yes/no question answered no, a result or record not back yet): the grader
    never grades such a text, it leaves it for review at most. On the first twenty-eight hand-written splits such
    texts are 37 negatives (negated, ruled out, normal results, a form's "No", a test not back, a drug never
    prescribed, a panel negative, no longer on any drug of a class: `_EMPTY`) and no leak
    (benchmarks/RESULTS.md, sessions 23-25; "pending" is not read: "EGFR testing pending" follows a
    stated diagnosis, and 排除 is not read in 排除标准, a trial's exclusion criteria)."""
    return unit.kind == "health" and bool(_NOTHING_FOUND.search(text) or (
        _EMPTY.search(text) and not _FOUND.search(_EMPTY.sub(" ", text))))


_WORD = re.compile(r"[^\W\d_]{3,}")
_SMALL_WORDS = frozenset({"the", "and", "for", "with", "from", "not", "was", "his", "her", "has", "had", "per", "our",
                          "any", "all", "are", "one", "two"})


def _word_starts(text: str) -> set[str]:
    """The text's words of three letters or more by their first four (pulpitis, pulpal; diagnosis, diagnoses)."""
    return {w[:4] for w in _WORD.findall(normalize_text(text)) if w not in _SMALL_WORDS}


def own_evidence(unit: Unit, text: str) -> bool:
    """Whether a text in the value's script holds any evidence of the value itself: a word of it (of its
    written names: aliases, translations, synonyms), a number where it holds one (any, in whatever form),
    its initials, or a cue of its condition's category (`descriptions`). A Chinese value or text is always
    taken to: a character of a description need not be the value's, and a translation into another script
    needs the glossary (both cost true leaks on splits 1-26 when read so, benchmarks/RESULTS.md, session 25)."""
    if not value_checks.latin(unit.value) or _HAN.search(text):
        return True
    if _name_starts(unit) & _word_starts(text):
        return True
    if re.search(r"\d", unit.value) and re.search(r"\d", value_checks.spelled(text)):
        return True
    return value_checks.acronym_in(unit.value, text) or bool(descriptions.category_cues(unit, text))


def _name_starts(unit: Unit) -> set[str]:
    """The words of the value's written names (aliases, translations, synonyms) by their first four letters."""
    return set().union(*map(_word_starts, value_checks.written_names(unit)))


def _states_part(unit: Unit, starts: set[str], line: str) -> bool:
    """Whether the line holds a word of the value's written names (`starts`, `_name_starts`) or, for a Chinese
    value, two of its characters in a row (韧带 of 右膝前交叉韧带完全断裂)."""
    if starts & _word_starts(line):
        return True
    pairs = (unit.value[i:i + 2] for i in range(len(unit.value) - 1))
    return any(_HAN.search(pair) and pair in line for pair in pairs)


def others_rows(unit: Unit, text: str) -> bool:
    """Whether the text is a list (three lines or more) whose rows naming the entity state no part of a health
    value and whose other rows do (session 25, blind splits 29/30: a caseload's "D. Kowalczyk — follow-up" beside
    "R. Kowalski — grade II sprain, right MCL"; 周思远：术前评估 beside 周思源：左膝…韧带损伤): the finding is
    another person's."""
    lines = [line for line in text.splitlines() if line.strip()]
    if unit.kind != "health" or len(lines) < 3:
        return False
    own = [line for line in lines if value_checks.names_the_entity(unit, line)]
    starts = _name_starts(unit)
    return (bool(own) and not any(_states_part(unit, starts, line) for line in own)
            and any(_states_part(unit, starts, line) for line in lines if line not in own))


def withheld(unit: Unit, text: str) -> str:
    """Why the grader may not grade the pair on its own reading, only leave it for review, or "" (session 25):
    the text finds nothing (`finds_nothing`: "nothing found"), states the finding of another instance
    (`value_checks.another_instance`, "another instance": another tooth, another donor, a roster of others'
    values; since learned-grader-v9 `others_rows`: a list whose entity's rows state none of it and others' rows
    do), gives the value's number one slip away and not the number (`value_checks.another_number`, "another
    number": "$2,580" for "$2,850"; v9) or with another unit of its measure (`value_checks.another_unit`, "another
    unit": "131 lb" for 131 kg; session 28), holds a placeholder in the
    value's slot (`value_checks.placeholder_slot`, "placeholder": "AMH: [LAB_VALUE_1]"; v9), or holds no
    evidence of the value and names no entity of it (`own_evidence`, "no evidence": "rewrite our intake form's
    section on current diagnoses", "a template for our acquisition memos" — a topic, no value)."""
    if finds_nothing(unit, text):
        return "nothing found"
    if value_checks.another_instance(unit, text) or others_rows(unit, text):
        return "another instance"
    if value_checks.another_number(unit, text):
        return "another number"
    if value_checks.another_unit(unit, text):
        return "another unit"
    if value_checks.placeholder_slot(unit, text):
        return "placeholder"
    if not (own_evidence(unit, text) or value_checks.names_the_entity(unit, text)):
        return "no evidence"
    return ""


#: A text that asks about the value, asks for it, or says it is missing or changing (session 29: the topic-only
#: negatives of splits 1-40, "asked whether her base compensation changes", "hasn't sent her National Insurance
#: number yet", 问…还欠多少, 让她把卡号…发过来): it gives nothing of the value, though it names the entity and the
#: value's subject. 93 of the 136 topic-only negatives of rounds 23-40 match, 13 of their 126 descriptions.
_ASKS = re.compile(
    r"[?？]|\b(?:asks?|asked|asking|wants? to (?:know|revisit|change)|whether|can (?:you|someone|we)"
    r"|please (?:send|confirm|update|pull|check)|(?:hasn't|has not|not yet) sent|missing|still waiting"
    r"|changed?|new (?:one|number|card|account)|update (?:his|her|the)|rotat(?:e|ed|ing))\b"
    r"|问|吗|多少|能不能|是不是|发过来|还没|重新|换一张|更新|轮换|补交|缺", re.I)
#: A denial a finding-of-nothing reading (`finds_nothing`) does not read: "is not the diabetic", "does not have",
#: 不是, 没有 — a negated value is not a description of it.
_DENIES = re.compile(r"\b(?:not|never|isn't|wasn't|doesn't|didn't|hasn't|no longer)\b|不是|并非|没有|不再", re.I)


def may_describe(unit: Unit, text: str) -> bool:
    """Whether the text may describe the entity's value without giving it (a description, graded 0.3 by the
    hand-written splits' authors: "has a condition on his offshore medical that means no solo climbs" for
    epilepsy): it names the value's entity (`value_checks.names_the_entity`), asks nothing about the value
    (`_ASKS`: a topic-only text) and denies nothing (`_DENIES`). A grader with a description band
    (`LearnedGrader.describe_threshold`, v13) grades such a pair in its band `FRAGMENT`; an entity-only text
    that passes is left to the band's threshold, which the grader's probability decides."""
    return (value_checks.names_the_entity(unit, text) and not _ASKS.search(text)
            and not _DENIES.search(text))


def names() -> list[str]:
    return ["logit", "model_grades", "model_reviews", "check_graded", "check_grade", "check_review", "check_veto",
            *(f"check={c.name}" for c in CHECKS), "specific", "margin", "no_contrast", "written", "bound",
            "contrary", "enough_contrast", "log_contrast", "han_text", "han_value",
            *(f"kind={k}" for k in KINDS), "desc_category_known", "desc_category_cues",
            "numbers_stated", "nothing_found", SPLITS_LOGIT]


@dataclass(frozen=True)
class LearnedGrader:
    """An additive model of the log-odds of a leak (scikit-learn's, exported): `baseline`, plus `weights` (one
    per feature, a logistic regression's; None: no linear part), plus gradient-boosted trees — per tree and
    node the feature read, the threshold (at or under it: the left child), the children, whether it is a leaf
    and a leaf's value; none where the trees' arrays have no rows. `threshold` grades; `review_threshold`
    reviews; `describe_threshold` (since v13; None: no band) grades `FRAGMENT` what `may_describe` lets in
    under `threshold`."""

    version: str
    names: tuple[str, ...]
    baseline: float
    feature: np.ndarray  # [tree, node], and the same shape for the five below
    split: np.ndarray
    left: np.ndarray
    right: np.ndarray
    leaf: np.ndarray
    value: np.ndarray
    threshold: float
    review_threshold: float
    weights: np.ndarray | None = None
    describe_threshold: float | None = None

    def probability(self, rows: np.ndarray) -> np.ndarray:
        """Of rows of every feature (`features`, `names()` order); the grader reads the columns it names."""
        every = names()
        x = np.asarray(rows, dtype=float)[:, [every.index(n) for n in self.names]]
        trees, at = np.arange(self.feature.shape[0]), np.arange(len(x))[:, None]
        node: np.ndarray = np.zeros((len(x), len(trees)), dtype=int)
        while not self.leaf[trees, node].all():
            below = x[at, self.feature[trees, node]] <= self.split[trees, node]
            node = np.where(self.leaf[trees, node], node,
                            np.where(below, self.left[trees, node], self.right[trees, node]))
        linear = x @ self.weights if self.weights is not None else 0.0
        return 1.0 / (1.0 + np.exp(-(self.baseline + linear + self.value[trees, node].sum(axis=1))))

    def decide(self, row: Sequence[float], reading: Reading, verdict: Verdict, text: str,
               held: bool = False, describes: bool = False) -> Verdict:
        """The grader's verdict on one candidate: graded with the check's grade and span where it graded, never
        where the pair is `held` (`withheld`); in the description band (`describe_threshold`, where the text
        `describes`: `may_describe`) `FRAGMENT` unless the check graded. What the check graded or left for
        review is left for review at least: the grader's review band alone kept fewer of the realistic split's
        paraphrases for a person (benchmarks/RESULTS.md, session 20)."""
        p = float(self.probability(np.asarray([row], dtype=float))[0])
        span = text[reading.start:reading.end]
        if p >= self.threshold and not held:
            return verdict if verdict.grade > 0 else Verdict(MOSTLY, span, reading.start, reading.end)
        if self.in_band(p, describes) and not held:
            return verdict if verdict.grade > 0 else Verdict(FRAGMENT, span, reading.start, reading.end)
        if p >= self.review_threshold or verdict.grade > 0 or verdict.review:
            if verdict.evidence:
                return Verdict(0.0, verdict.evidence, verdict.start, verdict.end, review=True)
            return Verdict(0.0, span, reading.start, reading.end, review=True)
        return Verdict(0.0)

    def in_band(self, p: float | np.ndarray, describes: bool | np.ndarray) -> np.ndarray:
        """Whether a probability is in the description band of a text that `describes` (none without a band)."""
        if self.describe_threshold is None:
            return np.zeros(np.shape(p), dtype=bool)
        return np.asarray(describes) & (np.asarray(p) >= self.describe_threshold)

    def as_dict(self) -> dict:
        return {"version": self.version, "names": list(self.names), "baseline": self.baseline,
                "feature": self.feature.tolist(), "split": self.split.tolist(), "left": self.left.tolist(),
                "right": self.right.tolist(), "leaf": self.leaf.astype(int).tolist(), "value": self.value.tolist(),
                "threshold": self.threshold, "review_threshold": self.review_threshold,
                **({"weights": self.weights.tolist()} if self.weights is not None else {}),
                **({"describe_threshold": self.describe_threshold} if self.describe_threshold is not None else {})}

    @classmethod
    def load(cls, path: str | Path = GRADER_PATH) -> LearnedGrader:
        """The shipped grader; a file that is not one (or was fitted on other features) is a one-line error."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            arrays = [np.asarray(data[k], dtype=t) for k, t in (("feature", int), ("split", float), ("left", int),
                                                                 ("right", int), ("leaf", bool), ("value", float))]
            arrays = [a.reshape(0, 1) if a.size == 0 else a for a in arrays]  # no trees: a linear grader
            weights = np.asarray(data["weights"], dtype=float) if "weights" in data else None
            band = float(data["describe_threshold"]) if "describe_threshold" in data else None
            grader = cls(str(data["version"]), tuple(data["names"]), float(data["baseline"]), arrays[0], arrays[1],
                         arrays[2], arrays[3], arrays[4], arrays[5], float(data["threshold"]),
                         float(data["review_threshold"]), weights, band)
        except (OSError, KeyError, ValueError, TypeError) as exc:
            raise InputError(f"not a local judge learned grader ({exc}); rebuild it with "
                             "judges/local-judge/learned_grader.py", file=str(path)) from None
        shapes = {a.shape for a in arrays}
        known = [n for n in names() if n in grader.names]  # a grader reads some of the features, in their order
        if known != list(grader.names) or len(shapes) != 1 or arrays[0].ndim != 2 or (
                weights is not None and weights.shape != (len(grader.names),)) or not (
                (0 <= grader.feature).all() and (grader.feature < len(grader.names)).all()
                and (0 <= grader.left).all() and (grader.left < arrays[0].shape[1]).all()
                and (0 <= grader.right).all() and (grader.right < arrays[0].shape[1]).all()):
            raise InputError("a learned grader fitted on other features or malformed; rebuild it with "
                             "judges/local-judge/learned_grader.py", file=str(path))
        return grader
