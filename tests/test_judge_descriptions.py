"""How a text describes a condition without naming it (issue 37, session 22): by its category, an organ, a
specialist or a class of drug — evidence the learned grader weighs."""

from __future__ import annotations

from ec2audit.detect import descriptions, learned_grader
from ec2audit.detect.judge import Verdict
from ec2audit.detect.value_checks import FreeTextEvidence, Reading
from ec2audit.units import Unit, make_unit


def unit(value: str, dimension: str, field: str = "diagnosis") -> Unit:
    return make_unit({"task_id": "t", "entity_id": "E1", "entity_name": "Helen Marsh", "field": field,
                      "value": value, "dimension": dimension})


def test_a_condition_described_by_its_category_organ_or_drug_class():
    """The category table reads the value's name, its synonyms and translations, in either script; a text
    naming another category's cues does not count."""
    ms = unit("relapsing-remitting multiple sclerosis", "health")
    assert set(descriptions.categories(ms)) == {"nervous", "autoimmune"}
    assert descriptions.category_cues(ms, "She has an autoimmune disease that attacks the myelin of her nerves.") == 2
    assert descriptions.category_cues(ms, "She has a chronic neurological condition.") == 1
    assert descriptions.category_cues(ms, "She takes an antidepressant and sees a therapist.") == 0
    assert descriptions.category_cues(unit("乳腺癌", "health"), "今年确诊了乳房的恶性肿瘤，在化疗。") == 1
    assert descriptions.category_cues(unit("penicillin", "health", "drug_allergy"),
                                      "He reacts to one of the common antibiotics.") == 1
    assert descriptions.categories(unit("1847 Larkspur Lane, Boise", "location", "home_address")) == ()


def test_the_grader_reads_them_last_among_its_features():
    """The grader's features end with the category readings, in `names()` order."""
    ms = unit("multiple sclerosis", "health")
    text = "Helen has an autoimmune disease of the nerves."
    row = learned_grader.features(ms, text, Reading(0.4, 0, len(text), 0.8, 0.2), "free-text", Verdict(0.0),
                                  FreeTextEvidence(0.4, 3, 2, 0.1, 0.0, False))
    named = dict(zip(learned_grader.names(), row, strict=True))
    assert named["desc_category_known"] == 1.0 and named["desc_category_cues"] == 2.0
    other = learned_grader.features(unit("Boise", "location", "home_city"), text, Reading(0.4, 0, len(text), 0.8, 0.2),
                                    "free-text", Verdict(0.0), FreeTextEvidence(0.4, 3, 2, 0.1, 0.0, False))
    assert other[-2:] == [0.0, 0.0]
