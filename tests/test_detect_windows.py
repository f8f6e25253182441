"""Derived views read in windows around what derivation changed find what the whole views find.

Each string tier declares its reach (`forms.Form.reach`); the cascade then reads a decoded or Simplified view
only in windows of twice the reach around its changes (`views.WindowedView`). These tests compare the hits
of windowed and whole views on long texts built from the hand-written sets' texts with decodable tokens
sprinkled in, and the bounded masked form with its unbounded definition."""

from __future__ import annotations

import base64
import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import quote

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ec2audit.detect import views
from ec2audit.detect.cascade import Cascade, best_hits
from ec2audit.detect.forms import masked
from ec2audit.detect.normalize import TextView
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView
from ec2audit.units import read_units

_DATA = Path(__file__).parent / "data"
_SETS = ("leaks-handwritten", "leaks-dev-extra", "leaks-forms")


@cache
def _cascade() -> Cascade:
    return Cascade([unit for name in _SETS for unit in read_units(_DATA / name / "units.jsonl")])


@cache
def _fragments() -> list[str]:
    """The hand-written texts cut at sentence and line ends."""
    texts = [json.loads(line)["text"] for name in _SETS
             for line in (_DATA / name / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return [piece for text in texts for piece in re.split(r"(?<=[.!?。\n])", text) if piece.strip()]


@cache
def _tokens() -> list[str]:
    """Decodable forms of the units' values: percent-encoded, base64 after a hint, HTML entities, JSON escapes,
    an obfuscated address, and Traditional characters and a phrase only OpenCC's phrases change."""
    values = [unit.value for unit in _cascade().units][:60]
    tokens = [quote(v) for v in values] + [f" token={base64.b64encode(v.encode()).decode()} " for v in values]
    tokens += ["".join(f"&#x{ord(c):x};" for c in v) for v in values[:20]]
    tokens += ["".join(f"\\u{ord(c):04x}" for c in v) for v in values[:20]]
    tokens += [v.replace("@", " [at] ").replace(".", " [dot] ") for v in values if "@" in v]
    return tokens + ["這個", "從們來", "瞭解", "說時會"]


def _whole_and_windowed(text: str) -> tuple[list, list]:
    cascade = _cascade()
    reach = cascade.reach
    try:
        windowed = best_hits(cascade.tier_hits(text))
        cascade.reach = None
        whole = best_hits(cascade.tier_hits(text))
    finally:
        cascade.reach = reach
    return whole, windowed


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_windowed_derived_views_find_what_whole_views_find(data):
    pieces = data.draw(st.lists(st.sampled_from(_fragments()), min_size=40, max_size=160))
    for _ in range(data.draw(st.integers(1, 4))):  # a few tokens: windows cover a part of the text
        pieces.insert(data.draw(st.integers(0, len(pieces))), data.draw(st.sampled_from(_tokens())))
    whole, windowed = _whole_and_windowed(" ".join(pieces))
    assert windowed == whole


def test_a_long_text_with_a_few_tokens_is_read_in_windows():
    fragments, cascade = _fragments(), _cascade()
    text = " ".join(fragments[:400]) + " " + quote(cascade.units[0].value) + " " + " ".join(fragments[400:800])
    derived = list(views.derived_views(text, TextView.of(text), (), cascade.reach))
    assert any(isinstance(view, views.WindowedView) for view in derived)
    whole, windowed = _whole_and_windowed(text)
    assert windowed == whole
    assert any(cascade.units[hit.unit_index].value == cascade.units[0].value and hit.start > len(text) // 3
               for hit in windowed)  # the decoded value, found in its window


def test_a_window_maps_hits_back_to_the_source():
    source = "x " * 2000 + "%41%42%43 abc " + "y " * 2000
    decoded = views.decoded_text(source)
    assert decoded is not None
    rewritten, back = decoded
    view = views.windowed(rewritten, [s[:2] for s in back.spans], 20, lambda: TextView.of(rewritten), back,
                          len(source))
    assert view is not None and len(view.original) < len(source) // 10
    start = view.text.index("abc abc")
    assert view.to_original(start, start + 3) == (4000, 4009)  # the percent-encoded characters
    assert view.keeps(4000, 4009) and not view.keeps(0, 3)


# -- the masked form's bound ------------------------------------------------------------------------------

def _masked():
    return next(form for tier in _cascade().tiers if tier.name == "partial" for form in tier.tier.forms
                if form.name == "masked")


_MASK_TEXT = st.lists(st.one_of(
    st.sampled_from([*"0123456789abcdefghijklmnopqrstuvwxyz", "*", "**", "•", "#", "x", "xx", "xxxx", "...", " ",
                     ",", "··", "-", ".", "@", ":", "_", "(", ")", "!", "张", "伟", "\n"]),
    st.builds(lambda u: u.value.lower(), st.sampled_from(_cascade().units))), max_size=60).map("".join)


@settings(max_examples=1500, deadline=None)
@given(text=_MASK_TEXT)
@example(text="13757186420 x13757186420")  # an x between digits, no mask: fits_mask got one visible part
def test_masked_tokens_bounded_find_what_unbounded_ones_find_up_to_the_bound(text):
    text = re.sub(r"\s{2,}", " ", text)  # the text view is the text: offsets are the view's
    form = _masked()
    view = ScanView(TextView.of(text), PatternIndex().matches(text))
    bounded = list(form.confirm(view, set()))
    longest = form.longest_token
    try:
        form.longest_token = 10**9
        unbounded = list(form.confirm(view, set()))
    finally:
        form.longest_token = longest
    assert bounded == [hit for hit in unbounded if hit.end - hit.start <= longest]
    assert all(hit.end - hit.start <= form.reach for hit in bounded)


@settings(max_examples=1000, deadline=None)
@given(pieces=st.lists(_MASK_TEXT, min_size=1, max_size=4), glue=st.sampled_from([" ", ",", "/", "'", "x", "***", ""]))
def test_masked_tokens_remembered_by_neighbourhood_are_those_the_run_grows_to(pieces, glue):
    """The same pieces in other surroundings: a neighbourhood seen before grows to the tokens it grew to there
    (the memo outlives each example, so a key too small to tell two places apart would fail here)."""
    form = _masked()
    for text in (glue.join(pieces), glue.join(reversed(pieces)), pieces[0], glue + pieces[-1] + glue):
        for run in masked._MASK_RUN.finditer(text):
            assert form._variants(text, *run.span()) == masked._token_variants(text, *run.span())


def test_a_view_a_tier_cannot_read_in_windows_is_read_whole(monkeypatch):
    """A tier that meets something reaching past its window (an account's bank far away) has the view read
    whole, with the whole view's hits."""
    fragments, cascade = _fragments(), _cascade()
    text = " ".join(fragments[:300]) + " " + quote(cascade.units[0].value) + " " + " ".join(fragments[300:600])
    whole, _ = _whole_and_windowed(text)
    partial = next(tier for tier in cascade.tiers if tier.name == "partial")
    scan, asked = partial.scan, []

    def refusing(scan_view, hits, decided):
        if isinstance(scan_view.view, views.WindowedView):
            asked.append(scan_view)
            raise views.WholeViewNeeded
        return scan(scan_view, hits, decided)

    monkeypatch.setattr(partial, "scan", refusing)
    assert best_hits(cascade.tier_hits(text)) == whole
    assert asked  # the windows were tried first
