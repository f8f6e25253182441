"""Prose a log or an OCR step cut off and said so (session 29, after blind split 41): `value="malignant pleural
mesothelioma, epith" (truncated at 38 chars)`. The truncated form read only tokens with a digit on an ellipsis; a
diagnosis or an address is read where the cut is said (a word saying so after it, or an ellipsis inside a word),
graded as a mask showing as much is: past half of the value 0.7, less 0.3. A sentence left unfinished on a word's
end, another diagnosis cut the same way, and a cut of a few characters stay no hit."""

from __future__ import annotations

import pytest
from test_detect_forms_s28 import _graded

_DX = "malignant pleural mesothelioma, epithelioid type, stage III"  # 59 characters
_ADDR = "Flat 4, 27 Harcourt Terrace, Leith, Edinburgh EH6 5QP"       # 53 characters
_ZH = "左耳感音神经性听力下降（40分贝），体检不合格"


@pytest.mark.parametrize(("value", "dimension", "text", "grade"), [
    # 37 of 59 characters shown, then the log says it cut: most of it
    (_DX, "health", 'ocr field=diagnosis value="malignant pleural mesothelioma, epith" (truncated at 38 chars)', 0.7),
    # 20 of 59, inside a word, then [truncated]: a fragment
    (_DX, "health", "dx: Malignant Pleural [truncated]", 0.3),
    # 30 of 53 on an ellipsis inside "Leith"
    (_ADDR, "location", "ship_to: Flat 4, 27 Harcourt Terrace, Le... (see CRM)", 0.7),
    # the Chinese value cut and said so: 13 of 24 characters
    (_ZH, "health", "体检结论：左耳感音神经性听力下降（40分（已截断）", 0.7),
])
def test_prose_cut_off_and_said_so_is_graded_by_how_much_shows(value, dimension, text, grade):
    assert _graded(value, dimension, text, "f") == grade


@pytest.mark.parametrize(("value", "dimension", "text"), [
    (_DX, "health", "dx: malignant peritoneal mesothelioma (truncated)"),   # another diagnosis, cut
    (_DX, "health", "The report says malignant pleural... and then nothing."),  # on a word's end, no cut said
    (_ADDR, "location", "ship_to: Flat 4, 2... (truncated)"),                  # under twelve characters
])
def test_a_sentence_left_unfinished_or_another_value_cut_is_no_hit(value, dimension, text):
    assert _graded(value, dimension, text, "f") == 0
