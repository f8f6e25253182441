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


# -- 2. the English plural of a one-word unit names it --------------------------------------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("penicillin", "Handover for bed 12: do not give him any penicillins — he had anaphylaxis.", "penicillins"),
    ("penicillin", "Allergies: Penicillins (rash, 2019).", "Penicillins"),
    ("migraine", "She gets two migraines a week since the accident.", "migraines"),
    ("abscess", "drained both abscesses on Tuesday", "abscesses"),
])
def test_the_plural_of_a_one_word_unit_is_the_unit(value, text, found):
    unit = make_unit({"task_id": "t20", "entity_id": "e", "entity_name": None, "field": "allergy", "value": value,
                      "dimension": "health"})
    hits = Cascade([unit]).scan_text(text)
    assert [(h.detector, h.grade, text[h.start:h.end]) for h in hits] == [("exact", 1.0, found)]


@pytest.mark.parametrize(("value", "dimension", "text"), [
    ("penicillin", "health", "resistant to penicillinase-producing strains"),  # a longer word
    ("penicillin", "health", "the penicillinses"),
    ("penicillin", "health", "antipenicillins"),
    ("rash", "health", "no rashes seen"),  # under five letters: too many words end so
    ("Rosen", "person_name", "the Rosens came to dinner"),  # a capitalised value is a name: another family
])
def test_longer_words_short_values_and_names_take_no_plural(value, dimension, text):
    assert _scan(value, dimension, text) == []


# -- 3. a credential sent in labelled pieces is the credential; one piece is part of it ------------------

SECRET = "kX9dQ2mVt7RzL4pN8wBc3HsY6fJ1aE"


@pytest.mark.parametrize("text", [
    "私聊发你，Secret太长我分两段发：\n第一段 kX9dQ2mVt7RzL4pN\n第二段 8wBc3HsY6fJ1aE\n拼起来就是oss-prod的Secret。",
    "first half: kX9dQ2mVt7RzL4pN, second half: 8wBc3HsY6fJ1aE",
    "Key, first part kX9dQ2mVt7RzL4, and then pN8wBc3HsY6fJ1aE.",
])
def test_pieces_that_join_to_the_whole_credential_are_the_credential(text):
    assert _scan(SECRET, "credential", text) == [("forms.concatenation", 1.0)]


def test_three_pieces_join_too_and_a_short_one_breaks_the_chain():
    value = SECRET + "Zq7Wm2Lp9Rt4"
    three = "part 1 kX9dQ2mVt7RzL4pN\npart 2 8wBc3HsY6fJ1aE\npart 3 Zq7Wm2Lp9Rt4"
    assert _scan(value, "credential", three) == [("forms.concatenation", 1.0)]
    short = "part 1 kX9dQ2mVt7RzL4pN8wBc3HsY\npart 2 6fJ1aE\npart 3 Zq7Wm2Lp9Rt4"  # a 6-character piece
    assert _scan(value, "credential", short) == [("forms.concatenation.piece", 0.7), ("forms.concatenation.piece", 0.3)]


@pytest.mark.parametrize(("text", "grades"), [
    ("the start is kX9dQ2mVt7RzL4pN (rest later)", [0.7]),  # more than half of it
    ("and then 3HsY6fJ1aE", []),  # under 12 characters: no piece (`it ends …` is its end: context_fragments, 0.3)
    # out of order: two pieces ("first half"/"second half" are context words: `context_fragments` reads those)
    ("part two: 8wBc3HsY6fJ1aE, part one: kX9dQ2mVt7RzL4pN", [0.3, 0.7]),
    ("part 1 kX9dQ2mVt7RzL4pN" + " and some forty characters of other words" + " part 2 8wBc3HsY6fJ1aE", [0.7, 0.3]),
    ("is the start kX9dQ2mVt7RzL4pN? the rest is 8 more", [0.7]),  # a question mark ending a sentence
])
def test_a_piece_alone_is_part_of_the_credential(text, grades):
    assert _scan(SECRET, "credential", text) == [("forms.concatenation.piece", g) for g in grades]


@pytest.mark.parametrize(("value", "text"), [
    (SECRET, "token=kX9dQ2mVt7RzL4pNzzzzqqqq"),  # another token that starts alike
    ("tundra-Plover-83!", "DATABASE_URL=postgres://ledger_svc:tundra-Plover-38!@172.20.41.63:5432/ledger"),
    (STRIPE, "the Stripe key starts sk_live_7Qm"),  # 3 characters beyond the published prefix
    (SECRET, "token kX9dQ2mVt7RzL4pN?8wB is another"),  # a question mark inside another key
    (SECRET, "token ab.kX9dQ2mVt7RzL4pN is another"),  # a full stop inside another key
])
def test_a_piece_of_another_value_or_only_the_prefix_is_no_piece(value, text):
    assert [d for d, _ in _scan(value, "credential", text) if d.startswith("forms.concatenation")] == []
