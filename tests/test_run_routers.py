"""The step- and task-level routers that ask the edge model, against a scripted probe: what the
real-model smoke tests (`test_run_local_model.py`) can only show happening over HTTP, decided here
on answers whose routing is known in advance."""

from __future__ import annotations

import asyncio
import math

import pytest

from ec2audit.run.routers import EntropyRouter, LlmRouter, parse_router


class ScriptedProbe:
    """STAND-IN for the edge model's probe: answers each call with the next scripted response."""

    def __init__(self, *responses: dict):
        self.responses, self.calls = list(responses), []

    async def complete(self, body: dict, purpose: str) -> dict:
        self.calls.append((body, purpose))
        return self.responses.pop(0)


def top_logprobs(*probs: float) -> dict:
    return {"choices": [{"logprobs": {"content": [{"top_logprobs": [{"logprob": math.log(p)} for p in probs]}]}}]}


def said(text: str) -> dict:
    return {"choices": [{"message": {"role": "assistant", "content": text}}]}


def test_entropy_router_sends_uncertain_steps_to_the_cloud_and_confident_ones_to_the_edge():
    # two equally likely first tokens: ln 2 = 0.693 nats > τ 0.5; 0.99/0.01: 0.056 nats < τ
    probe = ScriptedProbe(top_logprobs(0.5, 0.5), top_logprobs(0.99, 0.01))
    router = parse_router("entropy:0.5", "ep", "step")
    assert isinstance(router, EntropyRouter)
    body = {"messages": [{"role": "user", "content": "Read notes.txt"}], "stream": True,
            "stream_options": {"include_usage": True}, "max_completion_tokens": 500}
    assert asyncio.run(router.route(body, probe)) == "cloud"
    assert router.last_entropy == pytest.approx(math.log(2))
    assert asyncio.run(router.route(body, probe)) == "edge"
    assert router.last_entropy == pytest.approx(-(0.99 * math.log(0.99) + 0.01 * math.log(0.01)))
    # each step is one probe of one token with its logprobs, never streamed
    [(sent, purpose), _] = probe.calls
    assert purpose == "probe" and router.step == 2
    assert sent == {"messages": body["messages"], "max_tokens": 1, "logprobs": True, "top_logprobs": 10}


def test_entropy_router_at_its_threshold_stays_on_the_edge():
    router = EntropyRouter(math.log(2), "ep")  # ties are not "above τ"
    assert asyncio.run(router.route({"messages": []}, ScriptedProbe(top_logprobs(0.5, 0.5)))) == "edge"


@pytest.mark.parametrize(("answer", "side"), [("7", "cloud"), ("6", "cloud"), ("5", "edge"),
                                              ("Difficulty: 9/10", "cloud"), ("hard", "edge"), ("", "edge")])
def test_llm_router_reads_the_difficulty_the_edge_gives(answer, side):
    probe = ScriptedProbe(said(answer))
    router = parse_router("llm", "ep", "task")
    assert isinstance(router, LlmRouter)
    assert asyncio.run(router.route("Reconcile the ledger with the bank statements.", probe)) == side
    [(body, purpose)] = probe.calls
    assert purpose == "route" and body["messages"][-1] == {"role": "user",
                                                          "content": "Reconcile the ledger with the bank statements."}
