"""Texts scanned in a batch (`Cascade.scan_texts`: the forms' cues of all found in one pass over them joined) hit
exactly what each text scanned alone hits: hand-written case texts, cut anywhere, in any order and number,
with a text of no UTF-8 (a lone surrogate) and one past the short-text bound among them."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ec2audit.detect import cues
from ec2audit.detect.cascade import Cascade
from ec2audit.payloads import Payload, Segment
from ec2audit.units import read_units

DATA = Path(__file__).parent / "data"
SETS = ("leaks-handwritten", "leaks-dev-extra", "leaks-forms")


@cache
def _units():
    return [unit for name in SETS for unit in read_units(DATA / name / "units.jsonl")]


@cache
def _texts() -> list[str]:
    return [json.loads(line)["text"] for name in SETS
            for line in (DATA / name / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


@cache
def _cascades() -> tuple[Cascade, Cascade]:
    """(batched, alone): the same units; each remembers only what it scanned its own way."""
    return Cascade(_units()), Cascade(_units())


@st.composite
def _piece(draw) -> str:
    text = draw(st.sampled_from(_texts()))
    start = draw(st.integers(0, len(text)))
    piece = text[start:draw(st.integers(start, len(text)))]
    return piece + draw(st.sampled_from(["", "", "", "\ud83d", "\n", draw(st.sampled_from(_texts()))[:40]]))


@settings(max_examples=150, deadline=None, database=None)
@given(st.lists(_piece(), min_size=1, max_size=12), st.booleans())
def test_a_batch_hits_what_each_of_its_texts_hits_alone(texts, long):
    if long:  # one text past the bound, read in its cues' stretches as before
        texts.append("\n".join(texts) * (cues._SHORT // max(1, sum(map(len, texts))) + 1))
    batched, alone = _cascades()
    assert batched.scan_texts(texts) == [alone.scan_text(text) for text in texts]


@settings(max_examples=300, deadline=None, database=None)
@given(st.lists(_piece(), min_size=1, max_size=12))
@example(["运维群：明天凌晨对 10 . 38 . 12 . 207 做内核升级", "a"])  # spaced dots: once outside their form's cue
def test_in_a_batch_the_forms_rewrite_each_text_as_they_do_alone(texts):
    """The claim under the hits: every change the forms make to a short text is made in a batch too."""
    forms = _cascades()[0]._rewriting
    scan = _cue_scan()
    rewrite = scan.rewriter(forms)
    alone = [sorted(rewrite(text)) for text in texts]
    with scan.batch(texts):
        assert [sorted(rewrite(text)) for text in texts] == alone


@cache
def _cue_scan() -> cues.CueScan:
    return cues.CueScan(_cascades()[0]._rewriting)


def test_a_payloads_segments_are_scanned_as_one_batch_with_the_hits_each_has_alone():
    """The audit's path (`Cascade.scan`): every segment of a payload, and the seams between parts of one
    message, in one batch."""
    batched, alone = _cascades()
    texts = _texts()[:80]
    payload = Payload("p", [Segment(k, "user", "text", text) for k, text in enumerate(texts)])
    found = [(f.segment, f.start, f.end, f.detector, f.grade) for f in batched.scan(payload)]
    hits = [(k, h.start, h.end, h.detector, h.grade) for k, text in enumerate(texts) for h in alone.scan_text(text)]
    assert len(hits) > 80
    assert found == hits
