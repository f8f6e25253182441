"""Blind splits 39/40's string-tier errors by class (measured once, now dev data), in phrasings of our own, with the
near misses that must give no hit: a value cut off where a log line or a table truncates it (`forms/truncated.py`),
and a neighbour's flat in the same block (`forms/addresses._other_flat`)."""

from __future__ import annotations

import pytest
from test_detect_forms_s24 import _scan

KEY = "gh_tok_9Hq2Lz7Wm4Xc8Vb3Nd6Rt1Yp5"  # 31 characters; no published prefix of a known vendor
CARD = "6222 0202 0011 2233 445"


def _graded(value: str, dimension: str, text: str) -> float:
    return max((grade for _, grade, _ in _scan(value, dimension, text, "f")), default=0.0)


# -- a value cut off by an ellipsis: `masked`'s rule for a mask at the end, more than half of the value's own
# characters (past a vendor's published key prefix) 0.7, less 0.3 ------------------------------------------------


@pytest.mark.parametrize(("value", "dimension", "text", "grade"), [
    # 22 of 31 characters (71 %) before "..." and "…": most of it
    (KEY, "credential", "DEBUG sign: token=gh_tok_9Hq2Lz7Wm4Xc8Vb3N... (truncated)", 0.7),
    (KEY, "credential", "[WARN] 令牌校验失败 token=gh_tok_9Hq2Lz7Wm4Xc8Vb3N…(len=31)", 0.7),
    # 12 of 31 (39 %): a fragment
    (KEY, "credential", "auth.sign secret=gh_tok_9Hq2L... mismatch", 0.3),
    # a card's 12 of 19 digits cut by a table column (63 %), without its spaces and with them
    (CARD, "financial", "绑定卡号：622202020011…（已截断）", 0.7),
    (CARD, "financial", '{"card": "6222 0202 0011 22..."}', 0.7),
])
def test_a_value_cut_off_by_an_ellipsis_is_its_start(value, dimension, text, grade):
    assert _graded(value, dimension, text) == grade


@pytest.mark.parametrize(("value", "text"), [
    (KEY, "token=gh_tok_9Hq2Lz7Wm4Xc8Vb3Q... (truncated)"),  # another token: differs before the cut
    (KEY, "token=xgh_tok_9Hq2Lz7Wm4Xc8Vb3N..."),  # inside a longer token
    (KEY, "token=gh_tok_9Hq2Lz7Wm4Xc8Vb3N and more"),  # no ellipsis: nothing says it was cut
    ("Rosalind Achterberg-Nwosu", "Dear Rosalind Achterberg..."),  # words cut in prose: not a token with a digit
])
def test_a_cut_that_is_not_the_value_is_no_hit(value, text):
    assert _graded(value, "credential" if value == KEY else "person_name", text) == 0


# -- a building's street number with a flat of its block: the value's flat, or a neighbour's --------------------

HOME = "南宁市青秀区民族大道88号锦绣苑3栋1502"


@pytest.mark.parametrize(("text", "grade"), [
    ("快递改送民族大道88号，锦绣苑3栋1502，放门口", 0.7),  # the building, then the value's flat after a comma
    ("民族大道88号，具体几栋没说", 0.7),  # the building alone: most of it
    ("锦绣苑5栋1502是她表姐家，也在民族大道88号，别送错", 0),  # another block's flat of the same estate, before it
    ("民族大道88号那边，锦绣苑3栋1205是另一户", 0),  # another flat of the same block, after it
])
def test_a_building_with_a_flat_of_its_block_is_the_value_only_for_its_own_flat(text, grade):
    """Before: the value's flat after a comma gave no hit (the building was skipped as if the whole local part had
    matched), and a neighbour's flat written before the building was not looked at (0.7)."""
    assert _graded(HOME, "location", text) == grade
