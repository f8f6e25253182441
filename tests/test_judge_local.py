"""Smoke test: the judge against the real local llama.cpp server (SmolLM2-135M), one short call.

A 135M model's verdict proves only that the call went over HTTP and came back in the schema; what a
verdict must be (on the scale, evidence located, cached) is tested deterministically in test_judge_llm.py."""

from __future__ import annotations

import pytest

from ec2audit.detect.judge import GRADES, Judge
from ec2audit.units import make_unit

pytestmark = pytest.mark.model_server

UNIT = make_unit({"task_id": "t1", "entity_id": "E1", "field": "phone", "value": "13922883366",
                  "dimension": "contact"})
TEXT = "Call Ana on 139-2288-3366 after six."


def test_smoke_local_model_judge_answers_over_http_in_the_schema(llama_server, tmp_path):
    judge = Judge(llama_server, "smollm2", cache_path=tmp_path / "c.sqlite", attempts=1, max_tokens=80)
    [[verdict]] = judge.judge([(TEXT, [UNIT])])
    assert verdict.grade in GRADES
    if verdict.grade > 0:  # a positive verdict always points at text that is really there
        assert TEXT[verdict.start:verdict.end] == verdict.evidence
    assert judge.usage.calls == 1 and judge.usage.prompt_tokens > 100 and judge.usage.completion_tokens > 0
    again = Judge(llama_server, "smollm2", cache_path=tmp_path / "c.sqlite", attempts=1, max_tokens=80)
    again.judge([(TEXT, [UNIT])])
    assert again.usage.calls == 0 or verdict.rejected
