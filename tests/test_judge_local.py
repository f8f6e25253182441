"""The judge end to end against the real local llama.cpp server (SmolLM2-135M): kept to one short call."""

from __future__ import annotations

import pytest

from ec2audit.detect.judge import GRADES, Judge
from ec2audit.units import make_unit

pytestmark = pytest.mark.model_server

UNIT = make_unit({"task_id": "t1", "entity_id": "E1", "field": "phone", "value": "13922883366",
                  "dimension": "contact"})
TEXT = "Call Ana on 139-2288-3366 after six."


def test_local_model_judges_through_the_schema(llama_server, tmp_path):
    judge = Judge(llama_server, "smollm2", cache_path=tmp_path / "c.sqlite", attempts=1, max_tokens=80)
    [[verdict]] = judge.judge([(TEXT, [UNIT])])
    assert verdict.grade in GRADES
    if verdict.grade > 0:  # a positive verdict always points at text that is really there
        assert TEXT[verdict.start:verdict.end] == verdict.evidence
    assert judge.usage.calls == 1 and judge.usage.prompt_tokens > 100 and judge.usage.completion_tokens > 0
    again = Judge(llama_server, "smollm2", cache_path=tmp_path / "c.sqlite", attempts=1, max_tokens=80)
    again.judge([(TEXT, [UNIT])])
    assert again.usage.calls == 0 or verdict.rejected
