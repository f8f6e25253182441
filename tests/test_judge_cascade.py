"""The cascade with the paraphrase tiers: string tiers first, semantic shortlist, judge last."""

from __future__ import annotations

import json
import re

from ec2audit.detect.cascade import Cascade
from ec2audit.detect.judge import Judge
from ec2audit.detect.semantic import CANDIDATE, SemanticTier
from ec2audit.payloads import Payload, Segment
from ec2audit.units import make_unit

UNITS = [
    make_unit({"task_id": "t1", "entity_id": "E1", "field": "salary", "value": "205,000",
               "dimension": "financial", "description": "annual salary in dollars"}),
    make_unit({"task_id": "t1", "entity_id": "E1", "field": "phone", "value": "13922883366",
               "dimension": "contact"}),
]
PARAPHRASE = "HR export, row 12: Ana Ruiz earns a bit over 200k a year; call her on 139-2288-3366."
UNRELATED = "The printer on floor 3 is out of toner; facilities will replace the cartridge on Monday."


def payload() -> Payload:
    return Payload("p1", [Segment(0, "user", "user", PARAPHRASE), Segment(1, "tool", "tool_result", UNRELATED)],
                   task_id="t1")


def test_string_tiers_decide_first_and_the_judge_sees_only_the_rest(scripted_judge):
    scripted_judge.script("a bit over 200k", json.dumps({"verdicts": [
        {"item": 1, "grade": 0.7, "evidence": "earns a bit over 200k a year"},
        {"item": 2, "grade": 0, "evidence": ""}]}))
    semantic = SemanticTier(UNITS, threshold=-1.0, prefilter=False)  # shortlist every undecided pair
    judge = Judge(scripted_judge.url, "frontier-standin")
    findings = Cascade(UNITS, semantic=semantic, judge=judge).scan(payload())
    by_unit = {(f.unit_id, f.segment): f for f in findings}
    phone = by_unit[("t1/E1/phone", 0)]
    assert phone.detector != "judge" and phone.grade == 1.0
    salary = by_unit[("t1/E1/salary", 0)]
    assert salary.detector == "judge" and salary.grade == 0.7
    assert PARAPHRASE[salary.start:salary.end] == salary.matched_text == "earns a bit over 200k a year"
    [call] = scripted_judge.requests  # both segments' windows share one call (one system prompt)
    user = call["messages"][1]["content"]
    assert f"TEXT T1:\n<<<\n{PARAPHRASE}\n>>>" in user and f"TEXT T2:\n<<<\n{UNRELATED}\n>>>" in user
    asked = re.findall(r'^\d+\. \[\w+\] in (T\d) field "(\w+)"', user, flags=re.MULTILINE)
    # the phone, found literally in segment 0 by the exact tier, is never asked about
    assert sorted(asked) == [("T1", "salary"), ("T2", "salary")]


def test_the_prefilter_keeps_pairs_without_a_cue_from_the_judge(scripted_judge):
    semantic = SemanticTier(UNITS, threshold=-1.0)  # the printer note says nothing about pay
    Cascade(UNITS, semantic=semantic, judge=Judge(scripted_judge.url, "m")).scan(payload())
    [call] = scripted_judge.requests
    assert UNRELATED not in call["messages"][1]["content"] and "a bit over 200k" in call["messages"][1]["content"]


def test_the_semantic_threshold_keeps_far_pairs_from_the_judge(scripted_judge):
    semantic = SemanticTier(UNITS, prefilter=False)
    near, far = (m[0].score for m in semantic.score([PARAPHRASE, UNRELATED], [[0], [0]]))
    assert near > far
    semantic.threshold = (near + far) / 2
    Cascade(UNITS, semantic=semantic, judge=Judge(scripted_judge.url, "m")).scan(payload())
    assert [UNRELATED in r["messages"][1]["content"] for r in scripted_judge.requests] == [False]


def test_without_a_judge_the_semantic_tier_writes_candidates_and_grades_only_from_a_validated_score():
    semantic = SemanticTier(UNITS)
    near = semantic.score([PARAPHRASE], [[0]])[0][0].score
    semantic.threshold = near - 1e-6
    found = [f for f in Cascade(UNITS, semantic=semantic).scan(payload()) if f.detector.startswith("semantic")]
    assert found and all(f.detector == CANDIDATE and f.grade == 0.0 and f.unit_id == "t1/E1/salary"
                         for f in found)
    assert PARAPHRASE[found[0].start:found[0].end] == found[0].matched_text and found[0].confidence >= near - 1e-6
    semantic.grade_threshold = near - 1e-6
    graded = [f for f in Cascade(UNITS, semantic=semantic).scan(payload()) if f.detector.startswith("semantic")]
    assert [(f.detector, f.grade) for f in graded] == [("semantic", 0.7)] * len(found)


def test_plain_cascade_is_unchanged():
    findings = Cascade(UNITS).scan(payload())
    assert {f.detector for f in findings} & {"semantic", "judge"} == set()


def test_a_tasks_cumulative_payloads_never_ask_about_the_same_window_twice(scripted_judge, tmp_path):
    """Agent context is resent on every call: the second payload repeats the first's segments, and
    only its new segment costs judge tokens (verdicts are cached per unit and window text)."""
    scripted_judge.script("a bit over 200k", json.dumps({"verdicts": [
        {"item": 1, "grade": 0.7, "evidence": "earns a bit over 200k a year"}]}))
    cascade = Cascade(UNITS, semantic=SemanticTier(UNITS, threshold=-1.0),
                      judge=Judge(scripted_judge.url, "m", cache_path=tmp_path / "c.sqlite"))
    first = Payload("p1", [Segment(0, "user", "user", PARAPHRASE)], task_id="t1")
    reply = "Done: the salary band is noted in the summary for the board."
    second = Payload("p2", [*first.segments, Segment(1, "assistant", "assistant", reply)], task_id="t1")
    cascade.scan(first)
    found = cascade.scan(second)
    asked = [r["messages"][1]["content"] for r in scripted_judge.requests]
    assert len(asked) == 2 and PARAPHRASE not in asked[1] and reply in asked[1]
    assert {(f.payload_id, f.detector, f.matched_text) for f in found if f.segment == 0} >= {
        ("p2", "judge", "earns a bit over 200k a year")}
