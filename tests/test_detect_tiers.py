"""The string tiers come from one registry: a tier registered there runs in the cascade at its place, and
the cascade applies the rules it declares (decided units, redaction placeholders) to what it returns.
A tier made cheaper finds the same (the golden test for the hand-written sets; properties here)."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ec2audit.detect.cascade import Cascade
from ec2audit.detect.finding import Hit
from ec2audit.detect.tiers import SPECS, TierSpec, inside, merged
from ec2audit.units import make_unit

UNITS = [make_unit({"task_id": "t1", "entity_id": "E7", "entity_name": "John Smith", "field": "name",
                    "value": "John Smith", "dimension": "person_name"})]


class Ping:
    """A test tier: every word "ping" is a mention of unit 0 (grade 0.5)."""

    name = "ping"

    def scan(self, scan_view, hits, decided):
        view = scan_view.view
        return [Hit(0, *view.to_original(*m.span()), "ping", 0.5) for m in re.finditer(r"ping", view.text)]


def found(text, monkeypatch, **rules):
    monkeypatch.setitem(SPECS, "ping", TierSpec("ping", 25, lambda sources: Ping(), **rules))
    return [(text[h.start:h.end], h.detector) for h in Cascade(UNITS).scan_text(text)]


def test_a_registered_tier_runs_in_the_cascade(monkeypatch):
    assert found("Ping me", monkeypatch) == [("Ping", "ping")]


def test_nothing_inside_a_placeholder_counts_unless_the_tier_says_so(monkeypatch):
    text = "ping [ping_001]"
    assert found(text, monkeypatch) == [("ping", "ping")]
    assert found(text, monkeypatch, placeholders=False) == [("ping", "ping"), ("ping", "ping")]


@pytest.mark.parametrize("refinds, expected", [
    (False, [("John Smith", "exact")]),  # the unit is decided: a lower grade adds nothing
    (True, [("John Smith", "exact"), ("ping", "ping")]),
])
def test_a_unit_found_literally_is_decided_for_a_later_tier(refinds, expected, monkeypatch):
    assert found("John Smith: ping", monkeypatch, refinds=refinds) == expected


def test_a_form_naming_no_registered_tier_is_refused():
    """A form naming no registered string tier would never run: building the cascade's tiers says so."""
    from ec2audit.detect.forms import Form
    from ec2audit.detect.patterns import PatternIndex
    from ec2audit.detect.tiers import Sources, build_tiers

    class Stray(Form):
        name, kinds, tier = "stray", ("stray",), "nowhere"

        def confirm(self, view, decided):
            return ()

    with pytest.raises(ValueError, match="nowhere"):
        build_tiers(Sources([], PatternIndex(), forms=[Stray([], PatternIndex())]))


def _clusters_by_sets(text, spans, need, width):
    """`near_verbatim._clusters` as first written: the distinct grams of each window counted afresh."""
    lo = 0
    for hi in range(len(spans)):
        while spans[hi][1] - spans[lo][0] > width:
            lo += 1
        if len({text[s:e] for s, e in spans[lo:hi + 1]}) < need:
            continue
        while len({text[s:e] for s, e in spans[lo + 1:hi + 1]}) >= need:
            lo += 1
        yield spans[lo][0], spans[hi][1]
        lo = hi + 1
        if lo >= len(spans):
            return


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(text=st.text("ab ", min_size=40, max_size=40), starts=st.sets(st.integers(0, 36), min_size=1, max_size=12),
       lengths=st.lists(st.integers(1, 3), min_size=12, max_size=12), need=st.integers(1, 4),
       width=st.integers(4, 30))
def test_near_verbatim_clusters_slide_a_counted_window_to_the_same_regions(text, starts, lengths, need, width):
    """The fuzzy tier's shortlist (the tightest regions holding enough distinct grams of a value) keeps a
    count per gram as its window slides: the same regions as recounting each window's grams."""
    from ec2audit.detect.forms.near_verbatim import _clusters

    spans = [(s, s + n) for s, n in zip(sorted(starts), lengths, strict=False)]
    assert list(_clusters(text, spans, need, width)) == list(_clusters_by_sets(text, spans, need, width))


@settings(max_examples=1000, deadline=None)
@given(spans=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 12)).map(lambda p: (p[0], p[0] + p[1])),
                      max_size=8),
       offset=st.integers(0, 55))
def test_an_offset_inside_the_merged_spans_is_inside_one_of_the_spans(spans, offset):
    assert inside(offset, merged(spans)) == any(s <= offset < e for s, e in spans)
