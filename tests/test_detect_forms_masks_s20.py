"""Session 20's held-out misses in the string tiers, each read as `Cascade([unit]).scan_text(text)` in several
phrasings, with the near misses that must stay as they were."""

from __future__ import annotations

import pytest

from ec2audit.detect.cascade import Cascade
from ec2audit.units import make_unit

STRIPE = "sk_live_7Qm2xT9vLp4RkW8zN3bHc6Ye"
GITHUB = "ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78"
AWS = "AKIAIOSFODNN7EXAMPLE"


def _scan(value: str, dimension: str, text: str) -> list[tuple[str, float]]:
    """(detector, grade) of each hit of the one unit in `text`."""
    unit = make_unit({"task_id": "t20", "entity_id": "e", "entity_name": None, "field": "f", "value": value,
                      "dimension": dimension})
    return [(hit.detector, hit.grade) for hit in Cascade([unit]).scan_text(text)]


# -- 1. a mask that shows only a key's published prefix shows nothing of the secret -------------------------

@pytest.mark.parametrize(("value", "text"), [
    (STRIPE, "billing-service init stripe client key=sk_live_************************ mode=live"),
    (STRIPE, "STRIPE_SECRET_KEY=sk_live_•••••••••••••••• (hidden)"),
    (STRIPE, "key: sk_live_****************6Ye"),  # three characters of the secret: not recognisable
    (GITHUB, "token ghp_************************************ was rotated"),
    (AWS, "aws_access_key_id = AKIA****************"),
])
def test_a_mask_showing_only_the_public_prefix_is_no_fragment(value, text):
    assert _scan(value, "credential", text) == []


@pytest.mark.parametrize(("value", "text"), [
    (STRIPE, "key=sk_live_****************c6Ye"),  # the prefix and the last four characters
    (STRIPE, "the key sk_live_7Qm2************ leaked"),
    (GITHUB, "token ghp_********************************Qr78"),
    (AWS, "AKIA************MPLE"),
])
def test_a_mask_showing_characters_beyond_the_prefix_stays_a_fragment(value, text):
    assert _scan(value, "credential", text) == [("partial.masked", 0.3)]


def test_a_masked_value_without_a_published_prefix_is_graded_as_before():
    assert _scan("13922883366", "contact", "手机 139****3366") == [("partial.masked", 0.7)]
    assert _scan("Tr0ub4dor&3xQ", "credential", "password Tr0u*********") == [("partial.masked", 0.3)]
