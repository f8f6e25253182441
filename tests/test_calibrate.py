"""Calibration's pieces on small hand-made data, every expected figure worked out by hand below.

F1 = 2·tp / (2·tp + fp + fn) throughout. The judge is a scripted stand-in that is right on some
examples and wrong on others, so a calibration that ignored its verdicts would choose other settings.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from ec2audit.detect import calibrate as calibrate_module
from ec2audit.detect.calibrate import (
    Example,
    Scored,
    Settings,
    best_threshold,
    bootstrap,
    calibrate,
    calibrate_realistic,
    choose_settings,
    evaluate,
    markdown,
    predictions,
    prf,
    read_calibration,
    read_split,
    run_judge,
    shortlist_for_recall,
    write_calibration,
)
from ec2audit.detect.judge import Judge
from ec2audit.detect.semantic import CANDIDATE, Match
from ec2audit.errors import InputError
from ec2audit.units import make_unit, write_units

T, F = True, False
UNIT = make_unit({"task_id": "t1", "entity_id": "E1", "entity_name": "Ana Ruiz", "field": "salary",
                  "value": "205,000", "dimension": "financial", "description": "annual salary in dollars"})


def example(i: int, grade: float, kind: str = "paraphrase", lang: str = "en") -> Example:
    return Example(f"x{i}", UNIT, f"note {i}: Ana's pay came up (marker-{i}).", grade, kind, lang)


# --- prf ----------------------------------------------------------------------------------------------

def test_prf_counts_true_and_false_positives_and_misses():
    # tp = 2 (0, 1), fp = 1 (3), fn = 1 (2): P = 2/3, R = 2/3, F1 = 2/3
    assert prf([T, T, T, F, F], [T, T, F, T, F]) == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    # tp = 1 (0), fp = 1 (4), fn = 3 (1, 2, 3): P = 1/2, R = 1/4, F1 = 2·1/(2 + 1 + 3) = 1/3
    assert prf([T, T, T, T, F, F], [T, F, F, F, T, F]) == pytest.approx((0.5, 0.25, 1 / 3))
    # tp = 2, fp = 0, fn = 0: perfect
    assert prf([T, F, T], [T, F, T]) == (1.0, 1.0, 1.0)


def test_prf_is_zero_not_undefined_when_nothing_is_predicted_or_positive():
    assert prf([T, T], [F, F]) == (0.0, 0.0, 0.0)  # tp = fp = 0: no precision; R = 0/2
    assert prf([F, F], [F, F]) == (0.0, 0.0, 0.0)  # no positives at all
    assert prf([F, F], [T, F]) == (0.0, 0.0, 0.0)  # tp = 0, fp = 1: P = 0; no positives: R = 0


def test_prf_refuses_lists_of_different_lengths():
    with pytest.raises(ValueError):
        prf([T, F], [T])


# --- best_threshold ------------------------------------------------------------------------------------

def test_best_threshold_keeps_the_best_f1_not_the_last_or_the_worst():
    scores, gold = [0.9, 0.8, 0.6, 0.4, 0.2], [T, T, F, T, F]
    # t = 0.2: all five → tp 3, fp 2       → 6/8  = 0.75
    # t = 0.4: 0.9 0.8 0.6 0.4 → tp 3, fp 1 → 6/7  = 0.857  (best)
    # t = 0.6: 0.9 0.8 0.6 → tp 2, fp 1, fn 1 → 4/6 = 0.667
    # t = 0.8: 0.9 0.8 → tp 2, fn 1         → 4/5  = 0.8
    # t = 0.9: 0.9 → tp 1, fn 2             → 2/4  = 0.5    (worst)
    assert best_threshold(scores, gold) == pytest.approx((0.4, 6 / 7))


def test_best_threshold_ties_go_to_the_higher_threshold():
    scores, gold = [0.9, 0.8, 0.7, 0.6], [T, F, F, T]
    # t = 0.6: tp 2, fp 2 → 4/6 = 2/3;  t = 0.7: tp 1, fp 2, fn 1 → 2/5;  t = 0.8: tp 1, fp 1, fn 1 → 1/2;
    # t = 0.9: tp 1, fn 1 → 2/3.  0.6 and 0.9 tie at 2/3: the higher one is kept
    assert best_threshold(scores, gold) == pytest.approx((0.9, 2 / 3))


def test_best_threshold_adds_the_score_to_what_the_base_already_finds():
    scores, gold, base = [0.9, 0.8, 0.7, 0.6], [T, F, F, T], [F, F, F, T]
    # the base finds example 3 at every threshold; t = 0.9 adds example 0 → tp 2, fp 0 → F1 = 1
    assert best_threshold(scores, gold, base) == pytest.approx((0.9, 1.0))
    # a base that is all False is the same as no base
    assert best_threshold(scores, gold, [F] * 4) == best_threshold(scores, gold)


def test_best_threshold_is_a_score_cut_down_to_three_places_and_still_keeps_it():
    # one positive at 0.61234, one negative at 0.3: the threshold is the positive's score to 3 places
    assert best_threshold([0.61234, 0.3], [T, F]) == (0.612, 1.0)
    # 0.6127 rounded would be 0.613, above the positive itself: only 0.3 (F1 2/3) would keep it
    assert best_threshold([0.6127, 0.3], [T, F]) == (0.612, 1.0)


# --- settings on a hand-made dev split ------------------------------------------------------------------
#
# index             0     1     2     3     4     5     6     7
# gold grade        1.0   0.7   0.7   0.3   0     0     0     0      positives: 0-3
# string tiers      1.0   0     0     0     0     0     0     0
# semantic,  96     0.9   0.8   0.7   0.4   0.75  0.5   0.2   0.1
# semantic, 192     0.9   0.6   0.5   0.45  0.3   0.55  0.2   0.1
# judge (dev)       –     0.7   0     –     0.7   –     –     –     right on 1, wrong on 2 and 4

DEV_GRADES = [1.0, 0.7, 0.7, 0.3, 0.0, 0.0, 0.0, 0.0]
DEV_STRING = [1.0, 0, 0, 0, 0, 0, 0, 0]
DEV_96 = [0.9, 0.8, 0.7, 0.4, 0.75, 0.5, 0.2, 0.1]
DEV_192 = [0.9, 0.6, 0.5, 0.45, 0.3, 0.55, 0.2, 0.1]
DEV_JUDGE = {1: 0.7, 2: 0.0, 4: 0.7}


def dev_split(judge: dict[int, float] | None = None) -> Scored:
    return Scored([example(i, g) for i, g in enumerate(DEV_GRADES)], list(DEV_STRING),
                  {96: list(DEV_96), 192: list(DEV_192)}, dict(judge or {}))


def test_semantic_window_and_threshold_maximise_f1_alone():
    settings, report = choose_settings(dev_split(), recall_target=0.75)
    # window 96:  best t = 0.4  → 0 1 2 3 4 5 → tp 4, fp 2 → 8/10 = 0.8
    #             (t = 0.2 → tp 4, fp 3 → 8/11; t = 0.5 → tp 3, fp 2, fn 1 → 6/9; t = 0.7 → tp 3, fp 1, fn 1 → 6/8)
    # window 192: best t = 0.45 → 0 1 2 3 5 → tp 4, fp 1 → 8/9 = 0.889
    #             (t = 0.3 → tp 4, fp 2 → 8/10; t = 0.5 → tp 3, fp 1, fn 1 → 6/8)
    assert report["semantic_f1_by_window"] == {"96": {"threshold": 0.4, "f1": 0.8},
                                               "192": {"threshold": 0.45, "f1": 0.8889}}
    assert (settings.window, settings.threshold) == (192, 0.45)  # the window with the better F1


def test_shortlist_keeps_the_recall_target_in_the_window_that_sends_the_judge_least():
    dev = dev_split()
    # 4 positives, the string tiers find 1: recall 0.75 needs ceil(0.75·4) − 1 = 2 of the 3 missed ones,
    # so the shortlist is the 2nd highest missed score: 96 → [0.8, 0.7, 0.4] → 0.7; 192 → [0.6, 0.5, 0.45] → 0.5
    assert shortlist_for_recall(dev, 96, 0.75) == 0.7
    assert shortlist_for_recall(dev, 192, 0.75) == 0.5
    # recall 1.0 needs all 3: the lowest missed score; 0.25 needs none beyond the string tiers' one:
    # just above the highest missed score (0.8 → 0.801)
    assert shortlist_for_recall(dev, 96, 1.0) == 0.4
    assert shortlist_for_recall(dev, 96, 0.25) == 0.801
    # when the string tiers find every positive, nothing needs the shortlist: 1.0 shortlists nothing
    found = Scored(dev.examples[:1] + dev.examples[4:], [1.0, 0, 0, 0, 0], {96: [0.9, 0.75, 0.5, 0.2, 0.1]})
    assert shortlist_for_recall(found, 96, 0.75) == 1.0
    settings, report = choose_settings(dev, recall_target=0.75)
    # undecided by the string tiers and on the shortlist: 96 ≥ 0.7 → 1 2 4 → 3 × 96 = 288 characters;
    # 192 ≥ 0.5 → 1 2 5 → 3 × 192 = 576: the judge gets windows of 96
    assert report["judge_shortlist_by_window"] == {"96": {"threshold": 0.7, "chars_to_judge": 288},
                                                   "192": {"threshold": 0.5, "chars_to_judge": 576}}
    assert (settings.shortlist_window, settings.shortlist, settings.recall_target) == (96, 0.7, 0.75)


def test_the_judges_verdicts_raise_the_shortlist_where_that_improves_f1():
    settings, _ = choose_settings(dev_split(DEV_JUDGE), recall_target=0.75)
    # cascade on dev = string tiers (0) or (96-score ≥ t and the judge said leak):
    # t = 0.7  → 0 1 4 → tp 2, fp 1, fn 2 → 4/7 = 0.571
    # t = 0.75 → 0 1 4 → the same 4/7 (not better: the lower threshold stays)
    # t = 0.8  → 0 1   → tp 2, fn 2       → 4/6 = 0.667  (best)
    # Ignoring the verdicts (any shortlisted pair a leak) would give t = 0.7: 0 1 2 4 → 6/8 = 0.75
    assert settings.shortlist == 0.8
    assert (settings.window, settings.threshold, settings.shortlist_window) == (192, 0.45, 96)


def test_when_the_judge_is_right_everywhere_the_shortlist_stays_low():
    # the same pairs, every verdict right (1 and 2 leak, 4 not): t = 0.7 → 0 1 2 → tp 3, fn 1 → 6/7
    settings, _ = choose_settings(dev_split({1: 0.7, 2: 0.7, 4: 0.0}), recall_target=0.75)
    assert settings.shortlist == 0.7


# --- predictions and their measures on a hand-made test split -------------------------------------------
#
# index             0     1     2     3
# gold grade        0.3   0.7   0     1.0
# string tiers      0.3   0     0     0
# semantic,  96     0.95  0.85  0.79  0.9
# semantic, 192     0.2   0.5   0.9   0.1
# judge (test)      0     1.0   0.7   –       (3 left out, as with --limit)

SETTINGS = Settings(window=192, threshold=0.45, shortlist=0.8, judge_window=96)


def held_out(judge: dict[int, float] | None = None) -> Scored:
    examples = [example(0, 0.3, "fragment", "en"), example(1, 0.7, "paraphrase", "zh"),
                example(2, 0.0, "paraphrase", "en"), example(3, 1.0, "literal", "zh")]
    return Scored(examples, [0.3, 0, 0, 0], {96: [0.95, 0.85, 0.79, 0.9], 192: [0.2, 0.5, 0.9, 0.1]},
                  dict(judge or {}))


def test_predictions_per_tier_take_the_judges_grade_on_the_shortlist_only():
    preds = predictions(held_out({0: 0.0, 1: 1.0, 2: 0.7}), SETTINGS)
    assert preds["exact+partial"] == [0.3, 0, 0, 0]
    assert preds["semantic"] == [0.0, 0.7, 0.7, 0.0]  # 192-score ≥ 0.45 → 0.7
    assert preds["judge"] == [0.0, 1.0, 0.7, None]
    # 0: the string tiers decide (0.3) whatever the judge says; 1: shortlisted (0.85 ≥ 0.8), the judge's 1.0;
    # 2: not shortlisted (0.79 < 0.8) → 0 though the judge said 0.7; 3: shortlisted, never judged → None
    assert preds["cascade"] == [0.3, 1.0, 0.0, None]


def test_predictions_without_a_judge_grade_only_from_a_validated_score():
    plain = predictions(held_out(), SETTINGS)
    assert "judge" not in plain
    assert plain["cascade"] == [0.3, 0.0, 0.0, 0.0]  # no grade_threshold: the semantic tier never grades
    validated = Settings(window=192, threshold=0.45, shortlist=0.8, judge_window=96, grade_threshold=0.85)
    # 96-score ≥ 0.85: 1 (0.85) and 3 (0.9) graded 0.7; 0 stays the string tiers' 0.3
    assert predictions(held_out(), validated)["cascade"] == [0.3, 0.7, 0.0, 0.7]


def test_evaluate_measures_each_tier_on_the_examples_it_graded():
    report = evaluate(held_out({0: 0.0, 1: 1.0, 2: 0.7}), SETTINGS, rounds=20)
    tiers = report["tiers"]
    # gold positives: 0 1 3
    # cascade, 3 graded (0 1 2): 0 1 predicted → tp 2, fp 0, fn 0 → 1, 1, 1
    assert {k: tiers["cascade"][k] for k in ("n", "precision", "recall", "f1")} == {
        "n": 3, "precision": 1.0, "recall": 1.0, "f1": 1.0}
    # semantic, 4 graded: 1 2 predicted → tp 1 (1), fp 1 (2), fn 2 (0, 3) → 1/2, 1/3, 2/5
    assert {k: tiers["semantic"][k] for k in ("n", "precision", "recall", "f1")} == {
        "n": 4, "precision": 0.5, "recall": 0.3333, "f1": 0.4}
    # judge, 3 graded: 1 2 predicted → tp 1, fp 1, fn 1 (0) → 1/2 each
    assert {k: tiers["judge"][k] for k in ("n", "precision", "recall", "f1")} == {
        "n": 3, "precision": 0.5, "recall": 0.5, "f1": 0.5}
    # by language, semantic: en = 0 2 → predicted 2 only, gold 0 only → accuracy 0/2; zh = 1 3 → 1 right → 1/2
    assert report["by_lang"]["en"]["semantic"] == {"n": 2, "f1": 0.0, "recall": 0.0, "accuracy": 0.0}
    assert report["by_lang"]["zh"]["semantic"] == {"n": 2, "f1": 0.6667, "recall": 0.5, "accuracy": 0.5}
    assert report["by_kind"]["paraphrase"]["cascade"] == {"n": 2, "f1": 1.0, "recall": 1.0, "accuracy": 1.0}
    # confusion of grades, cascade: 0.3 → 0.3, 0.7 → 1.0, 0 → 0
    confusion = report["confusion"]["cascade"]
    assert (confusion["0.3"]["0.3"], confusion["0.7"]["1.0"], confusion["0.0"]["0.0"]) == (1, 1, 1)
    assert sum(n for row in confusion.values() for n in row.values()) == 3


# --- the judge over HTTP --------------------------------------------------------------------------------

def verdict(grade: float, evidence: str) -> str:
    return json.dumps({"verdicts": [{"item": 1, "grade": grade, "evidence": evidence}]})


def test_run_judge_stores_each_examples_own_verdict(scripted_judge):
    """The STAND-IN judge answers per example; calibration must keep what it said about each one."""
    dev = dev_split()
    scripted_judge.script("marker-1)", verdict(0.7, "Ana's pay came up"))
    scripted_judge.script("marker-2)", verdict(0, ""))
    scripted_judge.script("marker-4)", verdict(1, "Ana's pay"))
    calls = []
    run_judge(Judge(scripted_judge.url, "frontier-standin", batch_size=1), dev, [1, 2, 4], lambda: calls.append(1))
    assert dev.judge == {1: 0.7, 2: 0.0, 4: 1.0}
    assert len(scripted_judge.requests) == len(calls) == 3  # one call per example (batch of one item)
    settings, _ = choose_settings(dev, recall_target=0.75)
    assert settings.shortlist == 0.8  # as with the hand-set verdicts above


def test_a_judge_answering_fewer_examples_than_asked_is_an_error_not_fewer_verdicts():
    class OneShort:  # STAND-IN: leaves the last request unanswered
        def judge(self, requests, on_call=None, pack=False):
            return [[SimpleNamespace(grade=0.7)] for _ in requests[:-1]]

    with pytest.raises(ValueError):
        run_judge(OneShort(), dev_split(), [1, 2, 4])


def test_bootstrap_figures_and_intervals_are_given_to_four_places():
    # tp 3, fn 2, fp 1, tn 1: P 3/4, R 3/5, F1 = 6 / (6 + 1 + 2) = 0.6667
    gold = [T, T, T, T, T, F, F]
    pred = [T, T, T, F, F, T, F]
    out = bootstrap(gold, pred, rounds=200)
    assert (out["precision"], out["recall"], out["f1"]) == (0.75, 0.6, 0.6667)
    assert out["f1_ci"][0] <= 0.6667 <= out["f1_ci"][1]
    assert all(v == round(v, 4) for k in ("precision_ci", "recall_ci", "f1_ci") for v in out[k])


# --- reading the set ------------------------------------------------------------------------------------

def test_a_bad_example_is_named_by_file_and_line(tmp_path):
    good = {"id": "a", "unit": UNIT.model_dump(), "text": "t", "grade": 0.7, "kind": "k", "lang": "en"}
    path = tmp_path / "dev.jsonl"
    path.write_text(json.dumps(good) + "\n\n" + json.dumps({**good, "grade": "high"}) + "\n")
    with pytest.raises(InputError) as err:
        read_split(path)
    assert err.value.file == str(path) and err.value.line == 3
    path.write_text(json.dumps(good) + "\n")
    [read] = read_split(path)
    assert (read.id, read.grade, read.positive, read.unit.value) == ("a", 0.7, True, "205,000")


# --- a whole calibration run on a hand-made set ---------------------------------------------------------
#
# The semantic tier is a STAND-IN here (the real one loads an embedding model: test_judge_semantic.py):
# each example's text carries the scores the stand-in gives it, so dev reproduces the table above and
# every setting and figure below is the one worked out by hand.

class SemanticStandIn:
    """Scores read from the text: `(s96=0.8, s192=0.6)`."""

    def __init__(self, units, **settings):
        self.units, self.settings = units, settings

    def score(self, texts, owners, window):
        return [[SimpleNamespace(score=float(re.search(rf"s{window}=([\d.]+)", t).group(1))) for _ in mine]
                for t, mine in zip(texts, owners, strict=True)]


DEV_TEXT = {0: "Ana's salary: 205,000", 1: "Ana is paid about two hundred thousand", 2: "Ana's pay is generous",
            3: "Ana mentioned money", 4: "The budget was discussed", 5: "Lunch is at noon",
            6: "The printer is out of toner", 7: "Parking permits renew in March"}
# test: 0 found literally; 1 a paraphrase the judge gets right; 2 not one, judged a leak (wrong) but left off
# the shortlist (96-score 0.79 < 0.8); 3 not one, shortlisted, judged right
TEST_ROWS = [(1.0, 0.95, 0.2, "Ana's salary: 205,000"), (0.7, 0.85, 0.5, "Ana makes about two hundred grand"),
             (0.0, 0.79, 0.9, "Permits for the east lot"), (0.0, 0.9, 0.1, "Toner arrives Monday")]


def write_set(folder: Path) -> Path:
    folder.mkdir()
    dev = [{"id": f"d{i}", "unit": UNIT.model_dump(), "grade": g, "kind": "paraphrase", "lang": "en",
            "text": f"{DEV_TEXT[i]} (s96={DEV_96[i]}, s192={DEV_192[i]}) dev-{i}."} for i, g in enumerate(DEV_GRADES)]
    test = [{"id": f"t{i}", "unit": UNIT.model_dump(), "grade": g, "kind": "paraphrase", "lang": "en",
             "text": f"{text} (s96={s96}, s192={s192}) test-{i}."} for i, (g, s96, s192, text) in enumerate(TEST_ROWS)]
    for name, rows in (("dev", dev), ("test", test)):
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


def test_calibration_chooses_on_dev_with_the_judges_verdicts_and_measures_on_test(scripted_judge, tmp_path,
                                                                                    monkeypatch):
    monkeypatch.setattr(calibrate_module, "SemanticTier", SemanticStandIn)
    # dev: as DEV_JUDGE (right on 1, wrong on 2 and 4); test: right on 1 and 3, wrong on 2; 0 unmatched → 0
    for needle, grade, evidence in (("dev-1.", 0.7, "two hundred thousand"), ("dev-2.", 0, ""),
                                    ("dev-4.", 0.7, "budget"), ("test-1.", 0.7, "two hundred grand"),
                                    ("test-2.", 0.7, "Permits"), ("test-3.", 0, "")):
        scripted_judge.script(needle, verdict(grade, evidence))
    judge = Judge(scripted_judge.url, "frontier-standin", batch_size=1)
    stages, calls = [], []
    settings, report = calibrate(write_set(tmp_path / "set"), judge, windows=(96, 192), recall_target=0.75,
                                 on_stage=lambda stage, n: stages.append((stage, n)), on_call=lambda: calls.append(1))
    assert (settings.window, settings.threshold, settings.shortlist_window, settings.shortlist) == (192, 0.45, 96, 0.8)
    assert stages == [("embedding", 12), ("judging", 3 + 4)]  # dev: 1 2 4 on the first shortlist; test: all
    assert report["judge_usage"]["calls"] == len(calls) == 7
    assert report["calibrated"]["judge_model"] == "frontier-standin"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", report["calibrated"]["date"])
    assert (report["calibrated"]["dev_examples"], report["calibrated"]["test_examples"]) == (8, 4)
    assert report["dev"]["semantic_f1_by_window"]["192"] == {"threshold": 0.45, "f1": 0.8889}
    tiers = report["test"]["tiers"]
    figures = {t: (m["n"], m["precision"], m["recall"], m["f1"]) for t, m in tiers.items()}
    # gold: 0 1.  string tiers: 0 → P 1, R 1/2, F1 2/3.  semantic (192 ≥ 0.45): 1 2 → 1/2 each.
    # judge: 1 2 → 1/2 each.  cascade: 0 (string), 1 (shortlisted, judged 0.7), 2 off the shortlist, 3 judged 0
    assert figures == {"exact+partial": (4, 1.0, 0.5, 0.6667), "semantic": (4, 0.5, 0.5, 0.5),
                       "judge": (4, 0.5, 0.5, 0.5), "cascade": (4, 1.0, 1.0, 1.0)}
    text = markdown(report)
    assert "| cascade | 4 | 1.000 | 1.000 | 1.000 [" in text and "judge: `frontier-standin`" in text
    assert "\n\n## Tiers on test\n\n" in text and "\n\n## Chosen settings\n\n```json\n" in text
    assert "calls 7, cached 0" in text and '"shortlist": 0.8' in text
    # the file later audits read holds the same settings
    written = read_calibration(write_calibration(tmp_path / "calibration.toml", settings, report["calibrated"]))
    assert (written.window, written.threshold, written.shortlist, written.shortlist_window, written.per_unit,
            written.recall_target) == (192, 0.45, 0.8, 96, 1, 0.75)
    # … and the embedding model and batch its scores came from (the defaults calibrate was called with)
    assert (written.model, written.batch_size) == ("e5", 64)
    settings.grade_threshold, settings.candidate_threshold = 0.61, 0.2
    written = read_calibration(write_calibration(tmp_path / "calibration.toml", settings, {}))
    assert (written.grade_threshold, written.candidate_threshold) == (0.61, 0.2)
    # figures and intervals are given to 4 places
    assert all(v == round(v, 4) for m in tiers.values() for k in ("f1_ci", "recall_ci") for v in m[k])


def test_calibration_without_a_judge_and_on_a_sample(tmp_path, monkeypatch):
    monkeypatch.setattr(calibrate_module, "SemanticTier", SemanticStandIn)
    settings, report = calibrate(write_set(tmp_path / "set"), None, windows=(96, 192), recall_target=0.75)
    assert (settings.window, settings.shortlist_window, settings.shortlist) == (192, 96, 0.7)  # no verdicts
    assert set(report["test"]["tiers"]) == {"exact+partial", "semantic", "cascade"} and report["judge_usage"] == {}
    assert report["calibrated"]["judge_model"] == "none" and "## Judge cost" not in markdown(report)
    _, sampled = calibrate(tmp_path / "set", None, limit=3, windows=(96, 192))
    assert (sampled["calibrated"]["dev_examples"], sampled["calibrated"]["test_examples"]) == (3, 3)


def test_a_calibration_file_that_is_not_one_is_named(tmp_path):
    path = tmp_path / "calibration.toml"
    path.write_text("[semantic]\nwindow = 96\n")
    with pytest.raises(InputError) as err:
        read_calibration(path)
    assert err.value.file == str(path) and "ec2audit judge --calibrate" in str(err.value)
    # an older file: one window, the shortlist under [semantic], MiniLM's scores
    path.write_text("[semantic]\nwindow = 96\nthreshold = 0.5\nshortlist = 0.4\n")
    old = read_calibration(path)
    assert (old.window, old.threshold, old.shortlist, old.shortlist_window, old.model, old.per_unit) == (
        96, 0.5, 0.4, 96, "minilm", None)



# --- realistic case sets: the judge-less cascade's thresholds ---------------------------------------------

class RealisticTierStandIn:
    """STAND-IN for the semantic tier: shortlists a case whose text carries a score (`[cue=0.6]`), whole."""

    name, window = "semantic", 40

    def __init__(self, units, **settings):
        self.units, self.settings, self.grade_threshold = units, settings, None

    def shortlist(self, texts, candidates):
        cues = [re.search(r"\[cue=([\d.]+)\]", t) for t in texts]
        return [[Match(i, float(m.group(1)), 0, len(t)) for i in c] if m else []
                for t, c, m in zip(texts, candidates, cues, strict=True)]

    def verdict(self, score):
        return CANDIDATE, 0.0


def write_cases(folder: Path, cases: list[tuple[str, float, str]]) -> None:
    folder.mkdir(parents=True)
    write_units([UNIT], folder / "units.jsonl")
    (folder / "cases.jsonl").write_text("".join(json.dumps(
        {"case_id": f"c{i}", "task_id": "t1", "lang": "en", "text": text, "expected": {UNIT.id: grade},
         "kinds": {UNIT.id: kind}}) + "\n" for i, (text, grade, kind) in enumerate(cases)))


def test_realistic_sets_choose_the_candidates_threshold_on_dev_and_report_test(tmp_path, monkeypatch):
    monkeypatch.setattr(calibrate_module, "SemanticTier", RealisticTierStandIn)
    write_cases(tmp_path / "realistic-dev", [("Ana's salary: 205,000", 1.0, "literal"),  # found literally
                                             ("Ana makes about two hundred grand [cue=0.6]", 0.7, "paraphrase"),
                                             ("Lunch is at noon [cue=0.3]", 0.0, "paraphrase"),
                                             ("Parking permits renew in March", 0.0, "paraphrase")])
    write_cases(tmp_path / "realistic-test", [("Ana earns two hundred grand a year [cue=0.7]", 0.7, "paraphrase"),
                                              ("Toner arrives Monday [cue=0.5]", 0.0, "paraphrase")])
    settings, stages = Settings(window=96, threshold=0.5, shortlist=0.4), []
    report = calibrate_realistic(tmp_path, settings, lambda stage, n: stages.append((stage, n)))
    assert stages == [("realistic dev", 4), ("realistic test", 2)]
    # dev: the one paraphrase positive (0.6) must stay a candidate for 90 % recall → 0.6; 3 candidates are
    # fewer than the 20 a grading threshold needs → the tier never grades alone
    assert (settings.candidate_threshold, settings.grade_threshold) == (0.6, None)
    # test: the positive (0.7 ≥ 0.6) stays a candidate, the negative (0.5) is dropped; nothing is graded
    assert report["test"]["cases"] == 2 and report["test"]["all"] == {
        "n": 2, "positives": 1, "graded": 0, "graded_wrong": 0, "graded_precision": None, "candidates": 1,
        "kept_recall": 1.0}
