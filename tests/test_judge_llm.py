"""The LLM judge against the scripted stand-in over real HTTP: evidence, retries, cache, failures."""

from __future__ import annotations

import json
import socket
import stat

import pytest

from ec2audit.detect.judge import Judge, JudgeUnavailable
from ec2audit.units import make_unit

SALARY = make_unit({"task_id": "t1", "entity_id": "E1", "entity_name": "Ana Ruiz", "field": "salary",
                    "value": "205,000", "dimension": "financial"})
DIAGNOSIS = make_unit({"task_id": "t1", "entity_id": "E1", "field": "diagnosis", "value": "type 2 diabetes",
                       "dimension": "health", "description": "diabetes mellitus type 2"})
TEXT = "Ana earns a bit over 200k a year and manages her chronic blood-sugar condition with metformin."
OTHER = "The quarterly numbers are attached for review."


def verdicts(*items) -> str:
    return json.dumps({"verdicts": [{"item": i, "grade": g, "evidence": e} for i, g, e in items]})


@pytest.mark.parametrize("stream", [False, True])
def test_one_call_grades_a_batch_and_locates_evidence(scripted_judge, tmp_path, stream):
    scripted_judge.script("blood-sugar", verdicts((1, 0.7, "a bit over 200k a year"),
                                                  (2, 0.7, "chronic blood-sugar condition")))
    judge = Judge(scripted_judge.url, "frontier-standin", cache_path=tmp_path / "c.sqlite", stream=stream)
    [[salary, diagnosis]] = judge.judge([(TEXT, [SALARY, DIAGNOSIS])])
    assert len(scripted_judge.requests) == 1  # both units in one call
    request = scripted_judge.requests[0]
    assert request["response_format"]["type"] == "json_schema" and bool(request.get("stream")) == stream
    assert TEXT[salary.start:salary.end] == "a bit over 200k a year"
    assert TEXT[diagnosis.start:diagnosis.end] == "chronic blood-sugar condition"
    assert judge.usage.calls == 1 and judge.usage.prompt_tokens > 0 and judge.usage.completion_tokens > 0


def test_cache_makes_a_rerun_free_and_is_private(scripted_judge, tmp_path):
    scripted_judge.script("blood-sugar", verdicts((1, 0.7, "a bit over 200k a year")))
    cache = tmp_path / "cache.sqlite"
    Judge(scripted_judge.url, "m", cache_path=cache).judge([(TEXT, [SALARY])])
    again = Judge(scripted_judge.url, "m", cache_path=cache)
    [[verdict]] = again.judge([(TEXT, [SALARY])])
    assert len(scripted_judge.requests) == 1 and again.usage.calls == 0 and again.usage.cached == 1
    assert verdict.cached and TEXT[verdict.start:verdict.end] == "a bit over 200k a year"
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    # another model, another prompt wording or another text is a new question
    Judge(scripted_judge.url, "other-model", cache_path=cache).judge([(TEXT, [SALARY])])
    assert len(scripted_judge.requests) == 2


def test_a_crashed_run_resumes_where_it_stopped(scripted_judge, tmp_path):
    cache = tmp_path / "cache.sqlite"
    scripted_judge.script("blood-sugar", verdicts((1, 0.7, "a bit over 200k a year")))
    scripted_judge.script("quarterly", 503)  # the endpoint fails on the second request
    first = Judge(scripted_judge.url, "m", cache_path=cache, concurrency=1, sdk_retries=0)
    with pytest.raises(JudgeUnavailable):
        first.judge([(TEXT, [SALARY]), (OTHER, [SALARY])])
    scripted_judge.rules[1] = ("quarterly", [verdicts((1, 0, ""))])
    resumed = Judge(scripted_judge.url, "m", cache_path=cache, concurrency=1)
    results = resumed.judge([(TEXT, [SALARY]), (OTHER, [SALARY])])
    assert resumed.usage.cached == 1 and resumed.usage.calls == 1  # only the unfinished request is asked
    assert results[0][0].cached and results[1][0].grade == 0.0


def test_malformed_json_is_asked_again(scripted_judge):
    scripted_judge.script("blood-sugar", "Sure! The salary leaks.", '{"verdicts": [{"item": 1}]}',
                          verdicts((1, 0.7, "a bit over 200k a year")))
    judge = Judge(scripted_judge.url, "m", attempts=3)
    [[verdict]] = judge.judge([(TEXT, [SALARY])])
    assert judge.usage.calls == 3 and judge.usage.retries == 2 and not verdict.rejected
    followup = scripted_judge.requests[-1]["messages"]
    assert followup[-1]["role"] == "user" and "rejected" in followup[-1]["content"]


def test_evidence_that_is_not_in_the_text_is_rejected(scripted_judge, tmp_path):
    scripted_judge.script("blood-sugar", verdicts((1, 1.0, "salary: 205,000")))  # not in TEXT
    cache = tmp_path / "c.sqlite"
    judge = Judge(scripted_judge.url, "m", attempts=2, cache_path=cache)
    [[verdict]] = judge.judge([(TEXT, [SALARY])])
    assert verdict.rejected and verdict.grade == 0.0 and judge.usage.rejected == 1 and judge.usage.calls == 2
    assert "does not occur" in scripted_judge.requests[-1]["messages"][-1]["content"]
    # rejected verdicts are not cached: the next run asks again
    Judge(scripted_judge.url, "m", attempts=1, cache_path=cache).judge([(TEXT, [SALARY])])
    assert len(scripted_judge.requests) == 3


def test_endpoint_down_is_a_clear_error(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens here once closed
    judge = Judge(f"http://127.0.0.1:{port}/v1", "m", api_key="sk-test-secret", sdk_retries=0, timeout=5)
    with pytest.raises(JudgeUnavailable) as err:
        judge.judge([(TEXT, [SALARY])])
    assert f"127.0.0.1:{port}" in str(err.value) and "sk-test-secret" not in str(err.value)


def test_a_grade_off_the_scale_is_asked_again_and_never_kept(scripted_judge):
    """What the real-model smoke test can only hope for: a verdict off the 0/0.3/0.7/1 scale is refused."""
    scripted_judge.script("blood-sugar", verdicts((1, 0.5, "a bit over 200k a year")),
                          verdicts((1, 0.3, "a bit over 200k a year")))
    judge = Judge(scripted_judge.url, "m", attempts=2)
    [[verdict]] = judge.judge([(TEXT, [SALARY])])
    assert (verdict.grade, judge.usage.calls, judge.usage.retries) == (0.3, 2, 1)
    assert "grade must be one of 0, 0.3, 0.7, 1" in scripted_judge.requests[-1]["messages"][-1]["content"]
    scripted_judge.script("quarterly", verdicts((1, 0.5, "quarterly numbers")))
    [[refused]] = Judge(scripted_judge.url, "m", attempts=1).judge([(OTHER, [SALARY])])
    assert refused.rejected and refused.grade == 0.0
