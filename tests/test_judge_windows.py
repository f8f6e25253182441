"""Packed judge calls (several windows, one system prompt) and the windows the cascade sends."""

from __future__ import annotations

import json
import re

from ec2audit.detect.calibrate import Example, Scored, shortlist_for_recall
from ec2audit.detect.cascade import Cascade, judge_windows
from ec2audit.detect.judge import Judge
from ec2audit.detect.semantic import Match, SemanticTier
from ec2audit.payloads import Payload, Segment
from ec2audit.units import make_unit

SALARY = make_unit({"task_id": "t1", "entity_id": "E1", "entity_name": "Ana Ruiz", "field": "salary",
                    "value": "205,000", "dimension": "financial", "description": "annual salary in dollars"})
DIAGNOSIS = make_unit({"task_id": "t1", "entity_id": "E1", "field": "diagnosis", "value": "type 2 diabetes",
                       "dimension": "health", "description": "diabetes mellitus type 2"})
PAY = "Ana earns a bit over 200k a year, according to the offer letter."
HEALTH = "She manages her chronic blood-sugar condition with metformin."
FILLER = ("The printer on floor {n} is out of toner; facilities will replace the cartridge on Monday. "
          "Parking permits for the east lot renew in March. ")


def reply(*items) -> str:
    return json.dumps({"verdicts": [{"item": i, "grade": g, "evidence": e} for i, g, e in items]})


def asked(request: dict) -> list[tuple[str, str]]:
    """(text label, field) of every checklist item of one call."""
    user = request["messages"][1]["content"]
    return re.findall(r'^\d+\. \[\w+\] in (T\d) field "(\w+)"', user, flags=re.MULTILINE)


def test_packed_texts_share_one_call_and_evidence_is_located_in_each_items_own_text(scripted_judge):
    scripted_judge.script("blood-sugar", reply((1, 0.7, "a bit over 200k a year"),
                                               (2, 0.7, "chronic blood-sugar condition"), (3, 0, "")))
    judge = Judge(scripted_judge.url, "frontier-standin")
    results = judge.judge([(PAY, [SALARY]), (HEALTH, [DIAGNOSIS, SALARY])], pack=True)
    [call] = scripted_judge.requests  # one system prompt for both texts
    assert call["messages"][0]["content"] == judge.prompt.system
    assert asked(call) == [("T1", "salary"), ("T2", "diagnosis"), ("T2", "salary")]
    assert call["response_format"]["json_schema"]["schema"]["properties"]["verdicts"]["minItems"] == 3
    [[pay], [diagnosis, _]] = results
    assert PAY[pay.start:pay.end] == pay.evidence and HEALTH[diagnosis.start:diagnosis.end] == diagnosis.evidence
    assert judge.usage.calls == 1


def test_evidence_quoted_from_another_packed_text_is_rejected(scripted_judge):
    # item 1 is judged against T1 (PAY); its quote comes from T2
    scripted_judge.script("blood-sugar", reply((1, 0.7, "chronic blood-sugar condition"), (2, 0, "")))
    judge = Judge(scripted_judge.url, "m", attempts=2)
    [[pay], [health]] = judge.judge([(PAY, [SALARY]), (HEALTH, [DIAGNOSIS])], pack=True)
    assert pay.rejected and pay.grade == 0.0 and not health.rejected
    assert "does not occur" in scripted_judge.requests[-1]["messages"][-1]["content"]


def test_packing_keeps_to_the_item_and_text_limits(scripted_judge):
    requests = [(FILLER.format(n=n), [SALARY]) for n in range(5)]
    Judge(scripted_judge.url, "m", batch_size=2).judge(requests, pack=True)
    assert sorted(len(asked(r)) for r in scripted_judge.requests) == [1, 2, 2]
    scripted_judge.requests.clear()
    Judge(scripted_judge.url, "m2", pack_chars=len(FILLER) * 2).judge(requests, pack=True)
    assert len(scripted_judge.requests) == 3  # two ~1-filler texts per call at most
    scripted_judge.requests.clear()
    Judge(scripted_judge.url, "m3").judge(requests)  # unpacked: one call per request
    assert len(scripted_judge.requests) == 5


def test_packed_verdicts_are_cached_per_text(scripted_judge, tmp_path):
    cache = tmp_path / "c.sqlite"
    requests = [(PAY, [SALARY]), (HEALTH, [DIAGNOSIS])]
    Judge(scripted_judge.url, "m", cache_path=cache).judge(requests, pack=True)
    again = Judge(scripted_judge.url, "m", cache_path=cache)
    again.judge([(HEALTH, [DIAGNOSIS])], pack=True)  # another packing, same question
    assert len(scripted_judge.requests) == 1 and again.usage.cached == 1 and again.usage.calls == 0


def test_windows_hold_each_match_with_margins_and_merge_neighbours():
    text = "x" * 2000
    near = [Match(0, 0.5, 400, 592), Match(1, 0.4, 496, 688), Match(2, 0.3, 1700, 1892)]
    (lo1, hi1, first), (lo2, hi2, second) = judge_windows(text, near, 192)
    assert (lo1, hi1) == (400 - 48, 688 + 48) and [m.unit_index for m in first] == [0, 1]
    assert (lo2, hi2) == (1700 - 48, 1892 + 48) and [m.unit_index for m in second] == [2]
    [(lo, hi, _)] = judge_windows("short", [Match(0, 0.9, 0, 5)], 192)
    assert (lo, hi) == (0, 5)  # clipped to the text


def test_the_judge_sees_a_window_of_a_long_segment_and_findings_point_into_the_segment(scripted_judge):
    filler = [FILLER.format(n=n) for n in range(40)]
    text = "".join(filler[:20]) + PAY + " " + "".join(filler[20:])
    semantic = SemanticTier([SALARY], window=192, threshold=-1.0)
    [[best]] = semantic.score([text], [[0]])
    window = text[best.start:best.end]
    quote = window[10:40]
    scripted_judge.script(quote, reply((1, 0.7, quote)))
    findings = Cascade([SALARY], semantic=semantic, judge=Judge(scripted_judge.url, "m")).scan(
        Payload("p1", [Segment(0, "tool", "tool_result", text)], task_id="t1"))
    [call] = scripted_judge.requests
    sent = re.search(r"TEXT T1:\n<<<\n(.*?)\n>>>", call["messages"][1]["content"], flags=re.DOTALL).group(1)
    assert window in sent and sent in text and len(sent) <= 192 + 2 * 48 < len(text) // 10
    [finding] = [f for f in findings if f.detector == "judge"]
    assert text[finding.start:finding.end] == finding.matched_text == quote


def test_shortlist_threshold_for_a_recall_target():
    unit = make_unit({"task_id": "t", "entity_id": "E", "field": "f", "value": "v", "dimension": "other"})
    grades = [1.0, 0.7, 0.7, 0.7, 0.7, 0.0, 0.0]
    examples = [Example(str(i), unit, "text", g, "paraphrase", "en") for i, g in enumerate(grades)]
    scored = Scored(examples, string=[1.0, 0, 0, 0, 0, 0, 0], semantic={192: [0.9, 0.8, 0.6, 0.4, 0.2, 0.7, 0.1]})
    # five positives; the string tiers hold one, the shortlist must keep the rest in score order
    assert shortlist_for_recall(scored, 192, 0.6) == 0.6
    assert shortlist_for_recall(scored, 192, 1.0) == 0.2
    assert shortlist_for_recall(scored, 192, 0.2) > 0.8  # the string tiers alone reach it


def test_per_unit_keeps_each_units_best_windows_of_a_payload():
    texts = [FILLER.format(n=1), PAY, HEALTH]
    semantic = SemanticTier([SALARY, DIAGNOSIS], threshold=-1.0, per_unit=1, prefilter=False)  # every window scored
    scores = semantic.score(texts, [[0, 1]] * 3)
    kept = semantic.shortlist(texts, [[0, 1]] * 3)
    for unit in (0, 1):
        [where] = [t for t, ms in enumerate(kept) for m in ms if m.unit_index == unit]
        assert where == max(range(3), key=lambda t: scores[t][unit].score)
    semantic.per_unit = 2
    assert sum(len(ms) for ms in semantic.shortlist(texts, [[0, 1]] * 3)) == 4
