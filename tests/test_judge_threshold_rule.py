"""The learned grader's thresholds (issue 37, session 30, learned-grader-v14): the lowest probability at which the
leaks' local rate (the isotonic fit of gold on out-of-fold probabilities) reaches the target. Until v13 the target
was the precision of everything graded (0.97), and a precision curve that runs flat a hair under it kept only its
top (on splits 1-40 the grade threshold jumped from 0.833 to 0.992)."""

from __future__ import annotations

import numpy as np
from test_judge_splits_head import script

P = np.array([0.99, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35])


def test_a_precision_plateau_under_the_old_target_keeps_its_low_end(monkeypatch):
    """Fourteen rows from the top: a leak, a wrong one, ten leaks, two wrong. Graded down to row n the precision
    is 1, 1/2, 2/3, ..., 11/12 = 0.917 at most below the top: under 0.97 everywhere but the top, so the old rule
    kept 0.99 alone. The isotonic fit, from the bottom up: 0, 0, then the ten leaks (1) and the wrong row above
    them (0) pooled, 10/11 = 0.909, then the top leak (1). The default target 0.9 is reached from row 12 up:
    the threshold is row 12's 0.45. The two wrong rows under it keep a rate of 0 and are not graded."""
    module = script("learned_grader", monkeypatch)
    gold = np.array([True, False, *[True] * 10, False, False])
    assert module.thresholds(P, gold)[0] == 0.45
    assert module.lowest(P, gold, 0.95, 1.0) == 0.99  # 0.909 falls short of 0.95: the top's rate (1) alone


def test_a_tie_shares_one_rate(monkeypatch):
    """0.9 a leak, then 0.8 twice, a leak and a wrong one: the tie's rate is 1/2, under 0.9, so the threshold is
    0.9 (the old rule stopped at the tie's first row, 2 of 2, and so graded both)."""
    module = script("learned_grader", monkeypatch)
    assert module.thresholds(np.array([0.9, 0.8, 0.8]), np.array([True, True, False]))[0] == 0.9
