"""The learned grader's description band (issue 37, session 29, learned-grader-v13): under the grade threshold but
at or above `describe_threshold`, a text that may describe the entity's value without giving it (`may_describe`:
it names the entity, asks nothing about the value, denies nothing) is graded `FRAGMENT`, the 0.3 the hand-written
splits' authors give a description; a topic-only question, a denial or a text naming no entity is not."""

from __future__ import annotations

import json

import numpy as np
from test_judge_splits_head import script

from ec2audit.detect import learned_grader
from ec2audit.detect.e5_judge import ADAPTER_PATH, CrossEncoderJudge
from ec2audit.detect.finding import FRAGMENT, MOSTLY
from ec2audit.detect.judge import Verdict
from ec2audit.detect.value_checks import Reading
from ec2audit.units import make_unit

HERE = ADAPTER_PATH.parent
V12, V13 = HERE / "learned-grader-v12.json", HERE / "learned-grader-v13.json"
LIVER = make_unit({"task_id": "t", "entity_id": "P1", "entity_name": "Marguerite Abelard", "field": "diagnosis",
                   "value": "primary sclerosing cholangitis", "dimension": "health"})
DESCRIBES = "Marguerite Abelard is listed for a liver because of a long-standing chronic liver disease."
ASKS = "Can someone confirm Marguerite Abelard's listing diagnosis before Thursday?"
DENIES = "Marguerite Abelard does not have a liver disease; that line was another patient's."
NOBODY = "One patient on the list has a long-standing chronic liver disease."


def test_a_text_may_describe_the_value_where_it_names_the_entity_and_neither_asks_nor_denies():
    """The description (split 39's ht39-003, shortened) passes; the same subject asked about (topic-only), denied
    (negated) or said of no one named fails; so do the Chinese forms 问…多少 and 不是."""
    assert learned_grader.may_describe(LIVER, DESCRIBES)
    assert not any(learned_grader.may_describe(LIVER, t) for t in (ASKS, DENIES, NOBODY))
    debt = make_unit({"task_id": "t", "entity_id": "P2", "entity_name": "谭国栋", "field": "debt",
                      "value": "尚欠执行款186.4万元", "dimension": "financial"})
    assert learned_grader.may_describe(debt, "谭国栋还有一大笔执行款没还清。")
    assert not learned_grader.may_describe(debt, "申请执行人问谭国栋还欠多少。")
    assert not learned_grader.may_describe(debt, "谭国栋不是被执行人。")


def linear(threshold: float, band: float | None) -> learned_grader.LearnedGrader:
    """A grader of the model's logit alone (weight 1, baseline 0): its probability is the reading's, clipped."""
    names = learned_grader.names()
    weights = np.zeros(len(names))
    weights[names.index("logit")] = 1.0
    none = np.zeros((0, 1))
    return learned_grader.LearnedGrader("t", tuple(names), 0.0, none.astype(int), none, none.astype(int),
                                        none.astype(int), none.astype(bool), none, threshold, 0.2, weights, band)


def test_the_band_grades_a_description_fragment_and_leaves_the_rest_for_review():
    """Reading 0.6 (logit ln 1.5, so the grader's probability is 0.6): under the grade threshold 0.8, above the band
    0.5. A text that `describes` is graded `FRAGMENT` on the model's span; one that does not, or is withheld, or
    read by a grader without a band (v12's), is left for review; above 0.8 the grade is `MOSTLY` as before; a
    check's own grade is kept in the band."""
    text = DESCRIBES
    reading = Reading(0.6, 0, 20, 0.83, 0.2)
    row = [0.0] * len(learned_grader.names())
    row[0] = float(np.log(0.6 / 0.4))
    band, no_band = linear(0.8, 0.5), linear(0.8, None)
    assert band.decide(row, reading, Verdict(0.0), text, describes=True) == Verdict(FRAGMENT, text[:20], 0, 20)
    left = Verdict(0.0, text[:20], 0, 20, review=True)
    assert band.decide(row, reading, Verdict(0.0), text, describes=False) == left
    assert band.decide(row, reading, Verdict(0.0), text, held=True, describes=True) == left
    assert no_band.decide(row, reading, Verdict(0.0), text, describes=True) == left
    checked = Verdict(MOSTLY, text[:10], 0, 10)
    assert band.decide(row, reading, checked, text, describes=True) == checked
    assert linear(0.5, 0.4).decide(row, reading, Verdict(0.0), text, describes=True).grade == MOSTLY


def test_the_local_judge_asks_the_band_about_each_text_and_v13_ships_with_one(tmp_path):
    """Through the judge (the cross-encoder's real reading): a grader that grades nothing (threshold 1.0) but
    grades every describing text in its band (floor 0.0) gives the description `FRAGMENT` and the question and
    the text naming no one no grade; the judge's version names the grader, so no verdict of another grader is
    served from the cache. The shipped v13 is v12 (the same weights and thresholds) with a band under its grade
    threshold."""
    path = tmp_path / "g.json"
    path.write_text(json.dumps(linear(1.0, 0.0).as_dict()))
    judge = CrossEncoderJudge(checks=True, grader=path)
    grades = [verdicts[0].grade for verdicts in judge.judge([(t, [LIVER]) for t in (DESCRIBES, ASKS, NOBODY)])]
    assert grades == [FRAGMENT, 0.0, 0.0] and judge.version.endswith("+t")
    v12, v13 = learned_grader.LearnedGrader.load(V12), learned_grader.LearnedGrader.load(V13)
    assert v13.version == "learned-grader-v13" and v12.describe_threshold is None
    assert np.array_equal(v13.weights, v12.weights) and (v13.threshold, v13.review_threshold) == (
        v12.threshold, v12.review_threshold)
    assert v13.review_threshold < v13.describe_threshold < v13.threshold


def test_the_band_s_floor_is_the_lowest_where_describing_pairs_leak_at_the_target_rate(monkeypatch):
    """`band_threshold` by hand (v14's rule): graded at 0.9 or more, two rows; under it, the eligible rows 0.7
    (leak), 0.6 (not), 0.5 (leak), 0.4 (not), and 0.65 (a leak, not eligible: never counted). The isotonic fit
    from the bottom up: 0.4 is 0; 0.5 (1) and 0.6 (0) pool to 1/2; 0.7 is 1. At target 0.5 the floor is 0.5, at
    0.7 and 1.0 it is 0.7 (counting the 0.65 leak would make it 0.65). With the 0.7 row no leak, 0.5-0.7 pool
    to 1/3: at 0.3 the floor is 0.5; at 0.5 none is, so the grade threshold (no band)."""
    module = script("learned_grader", monkeypatch)
    p = np.array([0.95, 0.9, 0.7, 0.6, 0.5, 0.4, 0.65])
    gold = np.array([True, True, True, False, True, False, True])
    eligible = np.array([True, True, True, True, True, True, False])
    assert module.band_threshold(p, gold, eligible, 0.9, 0.5) == 0.5
    assert module.band_threshold(p, gold, eligible, 0.9, 0.7) == 0.7
    assert module.band_threshold(p, gold, eligible, 0.9, 1.0) == 0.7
    wrong = np.array([True, True, False, False, True, False, True])  # the first band row no leak
    assert module.band_threshold(p, wrong, eligible, 0.9, 0.3) == 0.5
    assert module.band_threshold(p, wrong, eligible, 0.9, 0.5) == 0.9
