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
    assert dict(zip(learned_grader.names(), other, strict=True))["desc_category_cues"] == 0.0


def test_the_grader_reads_whether_the_text_states_each_of_the_value_s_numbers():
    """`numbers_stated` (session 23): a translation keeps the value's numbers in another form (1,236.8万元 as
    "RMB 12.368 million", a date's day, month and year); a number near it or one of them alone is not."""
    bid = unit("投标报价1,236.8万元", "financial", "bid")
    date = unit("November 18, 2025", "business", "launch_date")
    assert learned_grader.states_numbers(bid, "Our bid for Phase I is RMB 12.368 million, do not share.")
    assert learned_grader.states_numbers(bid, "我们报的是一千二百三十六万八千元。")
    assert not learned_grader.states_numbers(bid, "报价大约1240万，最后几位数周三定稿。")
    assert learned_grader.states_numbers(date, "Aurora 手环定在2025年11月18日正式发布。")
    assert not learned_grader.states_numbers(date, "Aurora 手环在2025年11月发布。")
    assert not learned_grader.states_numbers(unit("multiple sclerosis", "health"), "no numbers at all: 42")
