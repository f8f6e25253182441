"""The local judge's second head (issue 37, session 27): e5-cross-v5 holds, beside e5-cross-v2's head, a head
fitted on the hand-written splits over the same pooled vectors (`train.py --head-only --beside`); its logit is a
feature of learned-grader-v11 (`learned-grader-v11.json`, a candidate beside the default v10), whose recordings
read each split with a second head fitted without it (`learned_grader.py --stack`); e5-cross-v6 and
learned-grader-v12 (session 28) are the same fitted on splits 1-38."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import subprocess
import sys

import numpy as np
import pytest
from test_judge_e5_cross import tiny_splits

from ec2audit.detect import learned_grader
from ec2audit.detect.e5_judge import ADAPTER_PATH, BATCH, MAX_TOKENS, WINDOW, CrossEncoderJudge, Head, pair_text
from ec2audit.detect.finding import MOSTLY
from ec2audit.detect.judge import Verdict
from ec2audit.detect.semantic import windows
from ec2audit.detect.value_checks import folded, free_text_evidence
from ec2audit.errors import InputError
from ec2audit.units import make_unit

HERE = ADAPTER_PATH.parent
V11 = HERE / "learned-grader-v11.json"
V12 = HERE / "learned-grader-v12.json"
BENCH = HERE.parents[1] / "benchmarks" / "local_judge.py"
DANA = make_unit({"task_id": "t1", "entity_id": "E1", "entity_name": "Dana Whitfield", "field": "diagnosis",
                  "value": "multiple sclerosis", "dimension": "health"})
TEXT = "Benefits question from HR: Dana Whitfield has lived with MS, the nerve disease, since 2021."


def script(name: str, monkeypatch):
    """A script of judges/local-judge imported as a module (its dataclasses look their module up)."""
    monkeypatch.syspath_prepend(str(HERE))
    spec = importlib.util.spec_from_file_location(f"{name}_script", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


def test_a_second_head_fitted_beside_keeps_the_first_and_rebuilds_the_same_file(tmp_path):
    """`--head-only START --beside`: START's layers, head and thresholds kept as they are, the head fitted on the
    splits written beside them as `splits_head.*` under a new version; the same data gives the same bytes."""
    splits = tiny_splits(tmp_path, 2)
    outs = [tmp_path / "a.npz", tmp_path / "b.npz"]
    for out in outs:
        subprocess.run([sys.executable, str(HERE / "train.py"), "--head-only", str(ADAPTER_PATH), "--beside",
                        "--splits", *map(str, splits), "--out", str(out)], check=True, capture_output=True, text=True)
    assert outs[0].read_bytes() == outs[1].read_bytes()
    head, start = Head.load(outs[0]), Head.load(ADAPTER_PATH)
    assert head.version == "e5-cross-v6" and head.splits is not None
    assert np.array_equal(head.weights, start.weights) and (head.bias, head.threshold, head.review_threshold) == (
        start.bias, start.threshold, start.review_threshold)
    assert head.splits[0].shape == head.weights.shape and not np.allclose(head.splits[0], start.splits[0])
    with np.load(outs[0]) as new, np.load(ADAPTER_PATH) as old:
        layers = sorted(k for k in old.files if k.startswith("l"))
        assert layers and all(np.array_equal(new[k], old[k]) for k in layers)


def test_the_second_heads_best_logit_is_read_and_decides_a_grader_that_reads_it(tmp_path):
    """The judge reads the second head over the same window vectors as the first: the reading's `splits_logit` is
    the highest of `vectors @ weights + bias` over the text's windows, and it is the last feature. A grader of
    that feature alone (weight 1, baseline 0, grade at 0.5) grades the pair when the second head's bias is raised
    by 30 and not when it is lowered by 30: the logit is clipped to ±ln 9999 = ±9.21, so its probability is
    0.9999 or 0.0001, whatever the text; the first head's reading is the same both times."""
    judge = CrossEncoderJudge(checks=True)
    weights, bias = judge.head.splits
    reading = judge.readings(TEXT, [DANA])[0]
    vectors = judge.encoder.encode([pair_text(DANA, TEXT[s:e]) for s, e in windows(TEXT, WINDOW)], True, BATCH,
                                   max_tokens=MAX_TOKENS)
    assert reading.splits_logit == pytest.approx(float((vectors @ weights + bias).max()), abs=1e-5)
    evidence = free_text_evidence(DANA, folded(TEXT), reading, ())
    row = learned_grader.features(DANA, folded(TEXT), reading, "free_text", Verdict(0.0), evidence)
    assert learned_grader.names()[-1] == learned_grader.SPLITS_LOGIT and row[-1] == pytest.approx(
        max(-math.log(9999), min(math.log(9999), reading.splits_logit)))

    alone = learned_grader.LearnedGrader("t", (learned_grader.SPLITS_LOGIT,), 0.0, *_no_trees(), 0.5, 0.5,
                                         np.array([1.0]))
    path = tmp_path / "g.json"
    path.write_text(json.dumps(alone.as_dict()))
    grading = CrossEncoderJudge(checks=True, grader=path)
    verdicts = {}
    for shift in (30.0, -30.0):
        grading.head = dataclasses.replace(grading.head, splits=(weights, bias + shift))
        verdicts[shift] = grading.judge([(TEXT, [DANA])])[0][0]
        assert grading.readings(TEXT, [DANA])[0].probability == reading.probability
    assert verdicts[30.0].grade >= MOSTLY and verdicts[-30.0].grade == 0.0


def _no_trees():
    none = np.zeros((0, 1))
    return none.astype(int), none, none.astype(int), none.astype(int), none.astype(bool), none


@pytest.mark.parametrize(("path", "version"), [(V11, "learned-grader-v11"), (V12, "learned-grader-v12")])
def test_learned_graders_v11_and_v12_read_the_second_head_and_v10_does_not(path, version):
    """v11 and v12 (session 28: v11's recipe fitted on splits 1-38) name the second head's logit and weigh it up
    (a leak's probability rises with it); v10 (`learned-grader.json`, the default until session 29) reads the
    features it was fitted on, without it, from the same rows."""
    new, v10 = learned_grader.LearnedGrader.load(path), learned_grader.LearnedGrader.load(HERE / "learned-grader.json")
    assert new.version == version and v10.version == "learned-grader-v10"
    assert learned_grader.SPLITS_LOGIT in new.names and learned_grader.SPLITS_LOGIT not in v10.names
    assert new.weights is not None and new.weights[new.names.index(learned_grader.SPLITS_LOGIT)] > 0
    rows = np.zeros((2, len(learned_grader.names())))
    rows[1, -1] = 5.0
    low, high = new.probability(rows)
    assert high > low and np.ptp(v10.probability(rows)) == 0.0


def test_a_grader_that_reads_the_second_head_needs_an_update_with_one(tmp_path):
    """An update without a second head (e5-cross-v2's) with v11 is a one-line error naming the update's file."""
    with np.load(ADAPTER_PATH) as data:
        arrays = {k: data[k] for k in data.files if not k.startswith("splits_head")}
    old = tmp_path / "v2.npz"
    np.savez(old, **{**arrays, "version": np.array("e5-cross-v2")})
    with pytest.raises(InputError, match="second head") as error:
        CrossEncoderJudge(old, checks=True, grader=V11)
    assert len(str(error.value).splitlines()) == 1 and str(old) in str(error.value)


def test_the_benchmark_measures_v12_where_told(tmp_path):
    """`benchmarks/local_judge.py --learned-grader learned-grader-v12.json` runs the local judge with v12 over
    e5-cross-v6 (its verdicts cached apart from v10's and v11's: the version names the update, the checks and the
    grader)."""
    split, out = tiny_splits(tmp_path, 1, each=2)[0], tmp_path / "r.json"
    subprocess.run([sys.executable, str(BENCH), "--split", str(split), "--json", str(out), "--learned-grader",
                    str(V12)], check=True, capture_output=True, text=True)
    name = json.loads(out.read_text())[0]["judge"]
    assert name == "e5-cross e5-cross-v6+checks-v19+learned-grader-v12 with value checks and the learned grader"


def test_each_split_is_read_by_a_second_head_fitted_without_its_round(tmp_path, monkeypatch):
    """`learned_grader.py --stack`: of four stacked splits (two blind rounds: folds (i-1)//2 mod 5 = 0, 0, 1, 1),
    splits 1 and 2 are read by the head fitted on splits 3 and 4, and 3 and 4 by the one fitted on 1 and 2; a
    later split by the head fitted on all four."""
    recorder, train = script("learned_grader", monkeypatch), script("train", monkeypatch)
    splits = tiny_splits(tmp_path, 5, each=2)
    monkeypatch.setattr(recorder, "STACKED", tuple(splits[:4]))
    monkeypatch.setattr(recorder, "TESTS", tuple(splits))
    monkeypatch.setattr(recorder, "DEV", ())
    heads = recorder.stacked_heads(None, tmp_path / "vec")
    read = [train.split_vectors(ADAPTER_PATH, s, tmp_path / "vec") for s in splits]

    def fitted(*n):
        return train.fit_head(np.concatenate([read[i][0] for i in n]), np.concatenate([read[i][1] for i in n]))

    for name, expected in zip([s.name for s in splits], [fitted(2, 3)] * 2 + [fitted(0, 1)] * 2 + [fitted(0, 1, 2, 3)],
                              strict=True):
        assert np.array_equal(heads[name][0], expected[0]) and heads[name][1] == expected[1]
