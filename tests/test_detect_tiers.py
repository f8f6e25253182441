"""The string tiers come from one registry: a tier registered there runs in the cascade at its place, and
the cascade applies the rules it declares (decided units, redaction placeholders) to what it returns."""

import re

import pytest

from ec2audit.detect.cascade import Cascade
from ec2audit.detect.finding import Hit
from ec2audit.detect.tiers import SPECS, TierSpec
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
