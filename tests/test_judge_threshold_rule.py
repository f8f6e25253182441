"""The learned grader's grade threshold (issue 37, session 30, learned-grader-v14): the lowest probability whose
graded keep the precision target within `SLACK` standard errors. With the exact target, a precision curve that
runs flat a hair under it kept only its top row (on splits 1-40 the threshold jumped from 0.833 to 0.992)."""

from __future__ import annotations

import numpy as np
from test_judge_splits_head import script

P = np.array([0.99, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45])


def test_a_precision_plateau_just_under_the_target_keeps_its_low_end(monkeypatch):
    """Target 0.9, slack 0.5 standard errors (sqrt(0.9 * 0.1 / n)): leak, wrong, seven leaks, three wrong.
    Graded down to row n the precision is 1, 1/2, 2/3, 3/4, 4/5, 5/6, 6/7, 7/8, 8/9 = 0.889, then 8/10, 8/11,
    8/12: under 0.9 everywhere but the top, so the exact target keeps 0.99 alone. With the slack row 9 needs
    0.9 - 0.5 * sqrt(0.09 / 9) = 0.9 - 0.05 = 0.85 (0.889 keeps it) and row 10 0.9 - 0.5 * 0.0949 = 0.853 (0.8
    does not): the threshold is row 9's 0.6. Alternating leak, wrong (1, 1/2, 2/3, 1/2, 3/5, 1/2) is really
    under: row 2 needs 0.9 - 0.5 * 0.212 = 0.794, row 3 0.813, row 5 0.833, so only the top row's 0.99 is kept."""
    module = script("learned_grader", monkeypatch)
    plateau = np.array([True, False, *[True] * 7, False, False, False])
    assert module.thresholds(P, plateau, 0.9)[0] == 0.6
    assert module.thresholds(P[:6], np.array([True, False] * 3), 0.9)[0] == 0.99


def test_a_tie_is_graded_whole_or_not_at_all(monkeypatch):
    """0.9 a leak, then 0.8 twice, a leak and a wrong one: down to the tie's first row 2 of 2, but grading at
    0.8 grades the whole tie, 2 of 3 = 0.667 under 0.9 - 0.5 * sqrt(0.09 / 3) = 0.813: the threshold is 0.9."""
    module = script("learned_grader", monkeypatch)
    assert module.thresholds(np.array([0.9, 0.8, 0.8]), np.array([True, True, False]), 0.9)[0] == 0.9
