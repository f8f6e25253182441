"""The strategy gateway over real HTTP on 127.0.0.1, with the scripted oracle stand-ins as edge and cloud.

No OpenClaw here: the client is the openai SDK streaming exactly as OpenClaw does, so these tests are
fast; the OpenClaw acceptance tests live in test_run_openclaw.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import openai
import pytest

from ec2audit.intercept.server import serve_in_thread
from ec2audit.run.gateway import (
    Endpoint,
    EpisodeState,
    Gateway,
    action_schema,
    as_text_messages,
    parse_constrained,
)
from ec2audit.run.oracle_model import OracleModel, create_app
from ec2audit.run.routers import OnErrorRouter, first_token_entropy, parse_router, train_learned
from ec2audit.run.strategies import cloud_context

TOOLS = json.loads((Path(__file__).parent / "data" / "run" / "openclaw_tools.json").read_text())
ORACLE = {"steps": [{"tool": "read", "arguments": {"path": "staff.csv"}},
                    {"tool": "write", "arguments": {"path": "out.md", "content": "E1 Ann"}}],
          "final": "Wrote out.md."}
SECRET_RESULT = "id,name,phone\nE1,Ann,13922883366\n"


class Recorder:
    """Wraps an oracle app and keeps every request body it received (the cloud's view)."""

    def __init__(self, model: OracleModel):
        self.model, self.bodies = model, []
        inner = create_app(model)

        async def app(scope, receive, send):
            if scope["type"] == "http" and scope["method"] == "POST":
                chunks, more = [], True
                while more:
                    message = await receive()
                    chunks.append(message.get("body", b""))
                    more = message.get("more_body", False)
                raw = b"".join(chunks)
                self.bodies.append(json.loads(raw))

                async def replay():
                    return {"type": "http.request", "body": raw, "more_body": False}

                return await inner(scope, replay, send)
            return await inner(scope, receive, send)

        self.app = app


@pytest.fixture(scope="module")
def servers():
    edge, cloud = Recorder(OracleModel("delegating")), Recorder(OracleModel("oracle"))
    stops = []
    edge_url, stop = serve_in_thread(edge.app)
    stops.append(stop)
    cloud_url, stop = serve_in_thread(cloud.app)
    stops.append(stop)
    gateway = Gateway(Endpoint(edge_url + "/v1", "oracle-edge", params=1e8),
                      Endpoint(cloud_url + "/e/{episode}/v1", "oracle-cloud"))
    gateway_url, stop = serve_in_thread(gateway.app)
    stops.append(stop)
    yield edge, cloud, gateway, gateway_url
    for stop in reversed(stops):
        stop()


def _episode(servers, name: str, strategy: str, context: str = "full", **routers) -> EpisodeState:
    edge, cloud, gateway, _ = servers
    for side in (edge, cloud):
        side.model.register(name, ORACLE)
        side.bodies.clear()
    return gateway.open(EpisodeState(name, strategy, "Write out.md", context, **routers))


def _ask(servers, name: str, messages: list[dict]):
    """One streamed request as OpenClaw sends it; returns the assembled (content, tool_calls)."""
    client = openai.OpenAI(base_url=f"{servers[3]}/e/{name}/v1", api_key="x")
    stream = client.chat.completions.create(model="strategy", messages=messages, tools=TOOLS, stream=True,
                                            stream_options={"include_usage": True})
    content, calls = "", {}
    for chunk in stream:
        for choice in chunk.choices:
            content += choice.delta.content or ""
            for call in choice.delta.tool_calls or []:
                entry = calls.setdefault(call.index, {"name": "", "arguments": ""})
                entry["name"] += call.function.name or ""
                entry["arguments"] += call.function.arguments or ""
    return content, list(calls.values())


def _after_read(call_id: str = "call_r") -> list[dict]:
    return [{"role": "system", "content": "You are an agent."}, {"role": "user", "content": "Write out.md"},
            {"role": "assistant", "content": None, "tool_calls": [{
                "id": call_id, "type": "function",
                "function": {"name": "read", "arguments": '{"path":"staff.csv"}'}}]},
            {"role": "tool", "tool_call_id": call_id, "content": SECRET_RESULT}]


def test_edge_only_streams_proper_tool_calls_and_never_calls_the_cloud(servers):
    state = _episode(servers, "g-edge", "edge-only")
    content, calls = _ask(servers, "g-edge", [{"role": "user", "content": "Write out.md"}])
    assert calls == [{"name": "read", "arguments": '{"path": "staff.csv"}'}]
    assert state.routes == ["edge"] and state.cloud_calls == [] and servers[1].bodies == []
    assert state.edge_calls[0]["input_tokens"] > 0 and state.edge_calls[0]["output_tokens"] > 0


def test_a_budget_in_model_calls_stops_the_episode_without_asking_a_model(servers):
    """Past `max_requests` the gateway answers "stop" itself: no edge or cloud call, the episode is marked."""
    state = _episode(servers, "g-budget", "edge-only")
    state.max_requests = 1
    _, calls = _ask(servers, "g-budget", [{"role": "user", "content": "Write out.md"}])
    assert calls and not state.budget_exhausted and len(servers[0].bodies) == 1
    content, calls = _ask(servers, "g-budget", _after_read())
    assert calls == [] and "budget" in content and state.budget_exhausted
    assert len(servers[0].bodies) == 1 and len(state.edge_calls) == 1 and servers[1].bodies == []


def test_cloud_only_sends_the_whole_request_to_the_cloud(servers):
    state = _episode(servers, "g-cloud", "cloud-only")
    _, calls = _ask(servers, "g-cloud", _after_read())
    assert calls[0]["name"] == "write"
    assert "13922883366" in json.dumps(servers[1].bodies[0], ensure_ascii=False)
    assert state.edge_calls == [] and len(state.cloud_calls) == 1


@pytest.mark.parametrize("context, leaks", [("full", True), ("head-tail", True), ("query", False)])
def test_delegate_lets_the_cloud_write_the_action_and_context_decides_what_it_sees(servers, context, leaks):
    name = f"g-del-{context}"
    state = _episode(servers, name, "edge-delegate", context)
    _, calls = _ask(servers, name, _after_read())
    assert [c["name"] for c in calls] == ["write"]  # the cloud's action, returned to OpenClaw
    assert state.asks == 1 and state.routes == ["edge+cloud"] and len(state.cloud_calls) == 1
    edge_request = servers[0].bodies[0]
    assert "ask_cloud" in [t["function"]["name"] for t in edge_request["tools"]]
    cloud_request = json.dumps(servers[1].bodies[0], ensure_ascii=False)
    assert ("13922883366" in cloud_request) is leaks
    assert "What is the next action" in cloud_request


def test_advice_returns_the_edge_action_written_after_the_cloud_advice(servers):
    state = _episode(servers, "g-adv", "edge-advice", "query")
    _, calls = _ask(servers, "g-adv", _after_read())
    assert [c["name"] for c in calls] == ["write"]
    assert "tools" not in servers[1].bodies[0]  # advice: the cloud may not act
    followup = servers[0].bodies[-1]["messages"]
    assert followup[-1]["role"] == "tool" and followup[-1]["content"].startswith("Advice:")
    assert len(state.edge_calls) == 2 and len(state.cloud_calls) == 1


def test_query_router_fixed_routes_every_request_like_the_baseline(servers):
    state = _episode(servers, "g-qr", "query-router", router=parse_router("fixed:cloud", "g-qr"))
    _ask(servers, "g-qr", [{"role": "user", "content": "Write out.md"}])
    _ask(servers, "g-qr", _after_read())
    assert state.side == "cloud" and state.routes == ["cloud", "cloud"] and state.edge_calls == []


def test_step_router_random_is_repeatable_per_episode(servers):
    routes = []
    for _ in range(2):
        state = _episode(servers, "g-step", "step-router", router=parse_router("random:0.5", "g-step", "step"))
        for _step in range(6):
            _ask(servers, "g-step", [{"role": "user", "content": "Write out.md"}])
        routes.append(state.routes)
        servers[2].close("g-step")
    assert routes[0] == routes[1] and set(routes[0]) == {"edge", "cloud"}


def test_a_dead_endpoint_is_an_upstream_error_not_a_crash(servers):
    gateway = Gateway(Endpoint("http://127.0.0.1:9/v1", "dead"), Endpoint("http://127.0.0.1:9/v1", "dead"))
    url, stop = serve_in_thread(gateway.app)
    try:
        state = gateway.open(EpisodeState("g-dead", "edge-only", "x"))
        client = openai.OpenAI(base_url=f"{url}/e/g-dead/v1", api_key="x", max_retries=0)
        with pytest.raises(openai.APIStatusError) as err:
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], stream=True)
        assert err.value.status_code == 502 and state.errors
    finally:
        stop()


def test_misbehaving_oracles():
    body = {"user": "e", "messages": [{"role": "user", "content": "go"}], "tools": TOOLS}
    wrong, gives_up = OracleModel("wrong-tool"), OracleModel("gives-up")
    for model in (wrong, gives_up):
        model.register("e", ORACLE)
    assert wrong.reply(body)["tool_calls"][0]["function"]["name"] not in {t["function"]["name"] for t in TOOLS}
    assert gives_up.reply(body)["content"] and "tool_calls" not in gives_up.reply(body)


def test_constrained_edge_schema_from_openclaw_tools_round_trips_to_tool_calls():
    schema = action_schema(TOOLS)
    names = [o["properties"]["tool"]["const"] for o in schema["anyOf"] if "tool" in o["properties"]]
    assert names == [t["function"]["name"] for t in TOOLS]
    edit = next(o for o in schema["anyOf"] if o["properties"].get("tool", {}).get("const") == "edit")
    assert edit["properties"]["arguments"]["properties"]["edits"]["items"]["required"] == ["oldText", "newText"]
    message = parse_constrained('{"tool": "read", "arguments": {"path": "a.txt"}}')
    assert message["tool_calls"][0]["function"] == {"name": "read", "arguments": '{"path": "a.txt"}'}
    assert parse_constrained('{"final": "done"}') == {"role": "assistant", "content": "done"}
    text = as_text_messages(_after_read())
    assert [m["role"] for m in text] == ["system", "user", "assistant", "user"]
    assert text[-1]["content"].endswith(SECRET_RESULT)


def test_head_tail_keeps_system_first_user_and_the_tail():
    messages = _after_read() + [{"role": "assistant", "content": "thinking"}]
    out = cloud_context(messages, "help?", "head-tail", "sys", tail=1)
    assert out[0]["content"] == "You are an agent." and out[1]["content"] == "Write out.md"
    assert "thinking" in out[-1]["content"] and SECRET_RESULT not in out[-1]["content"]


def test_routers_entropy_on_error_and_learned():
    response = {"choices": [{"logprobs": {"content": [{"top_logprobs": [
        {"logprob": -0.6931471805599453}, {"logprob": -0.6931471805599453}]}]}}]}
    assert first_token_entropy(response) == pytest.approx(0.693147, abs=1e-6)
    assert first_token_entropy({"choices": [{}]}) == 0.0
    import asyncio

    router = OnErrorRouter()
    failed = {"messages": [{"role": "tool", "content": "Error: no such file"}]}
    fine = {"messages": [{"role": "tool", "content": "E1,Ann"}]}
    assert asyncio.run(router.route(failed, None)) == "cloud"
    assert asyncio.run(router.route(fine, None)) == "edge"
    examples = [("summarise the quarterly sales ledger", 1), ("write a short notice", 0),
                ("reconcile the sales ledger with bank statements", 1), ("rename a file", 0)]
    model = train_learned(examples, cloud_share=0.5)
    from ec2audit.run.routers import learned_score

    to_cloud = {text for text, _ in examples if learned_score(model, text) >= model["threshold"]}
    assert to_cloud == {text for text, label in examples if label}


def test_a_seventh_strategy_is_one_registered_class(servers, monkeypatch):
    """The registry is the only list: a new class is all the gateway needs to serve a new strategy."""
    from ec2audit.run import strategies

    monkeypatch.setattr(strategies, "STRATEGIES", dict(strategies.STRATEGIES))

    @strategies.register
    class CloudFirst(strategies.Strategy):
        """The cloud plans the first step, the edge does the rest."""

        name, writes_actions = "cloud-first", "the cloud first, then the edge"

        async def answer(self, turn, state, body):
            side = "cloud" if not state.routes else "edge"
            state.routes.append(side)
            return await (turn.cloud(body) if side == "cloud" else turn.edge(body))

    state = _episode(servers, "g-seventh", "cloud-first")
    _ask(servers, "g-seventh", [{"role": "user", "content": "Write out.md"}])
    _, calls = _ask(servers, "g-seventh", _after_read())
    assert state.routes == ["cloud", "edge"] and calls[0]["name"] == "write"
    assert len(servers[1].bodies) == 1 and len(servers[0].bodies) == 1
    with pytest.raises(ValueError, match="unknown strategy"):
        servers[2].open(EpisodeState("g-none", "no-such-strategy", "x"))
    with pytest.raises(ValueError, match="needs a task-level router"):
        servers[2].open(EpisodeState("g-norouter", "query-router", "x"))


def test_closing_an_episode_cancels_its_model_call_and_the_server_stops_without_a_traceback(capfd):
    """OpenClaw was killed while the edge was still answering: the call is cancelled, not left to uvicorn."""
    import asyncio
    import threading

    import httpx
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    received, release = threading.Event(), threading.Event()

    async def slow_edge(request):
        received.set()
        while not release.is_set():  # a model that takes its time
            await asyncio.sleep(0.05)
        return JSONResponse({"choices": [{"message": {"role": "assistant", "content": "late"}}]})

    edge_url, stop_edge = serve_in_thread(Starlette(routes=[Route("/v1/chat/completions", slow_edge,
                                                                  methods=["POST"])]))
    gateway = Gateway(Endpoint(edge_url + "/v1", "slow-edge"), Endpoint(edge_url + "/v1", "unused"))
    gateway_url, stop_gateway = serve_in_thread(gateway.app)
    gateway.open(EpisodeState("g-closed", "edge-only", "x"))
    answers = []
    asking = threading.Thread(target=lambda: answers.append(httpx.post(
        f"{gateway_url}/e/g-closed/v1/chat/completions", timeout=120,
        json={"messages": [{"role": "user", "content": "hi"}], "stream": True})))
    asking.start()
    assert received.wait(60)
    gateway.close("g-closed")
    asking.join(60)
    assert answers[0].status_code == 503 and answers[0].json()["error"]["message"] == "episode closed"
    stop_gateway()
    err = capfd.readouterr().err
    release.set()
    stop_edge()
    assert "Traceback" not in err and "CancelledError" not in err and "graceful shutdown" not in err


def test_a_model_call_may_take_as_long_as_its_episodes_deadline_not_the_gateways_default():
    """A local model on a busy CPU can take minutes to read OpenClaw's prompt: `run --timeout 1200` must not be
    cut at the gateway's own default. The same slow edge (1 s) behind a gateway whose default is 0.3 s: the
    episode that says its deadline (30 s) gets its answer; one that says none is cut at the default (502)."""
    import asyncio

    import httpx
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def slow_edge(request):
        await asyncio.sleep(1.0)
        return JSONResponse({"choices": [{"message": {"role": "assistant", "content": "done reading"}}],
                             "usage": {"prompt_tokens": 3, "completion_tokens": 2}})

    edge_url, stop_edge = serve_in_thread(Starlette(routes=[Route("/v1/chat/completions", slow_edge,
                                                                  methods=["POST"])]))
    gateway = Gateway(Endpoint(edge_url + "/v1", "slow-edge"), Endpoint(edge_url + "/v1", "unused"), timeout=0.3)
    gateway_url, stop_gateway = serve_in_thread(gateway.app)
    try:
        gateway.open(EpisodeState("g-deadline", "edge-only", "x", call_timeout=30))
        gateway.open(EpisodeState("g-default", "edge-only", "x"))
        ask = {"messages": [{"role": "user", "content": "hi"}], "stream": True}
        patient = httpx.post(f"{gateway_url}/e/g-deadline/v1/chat/completions", json=ask, timeout=60)
        hasty = httpx.post(f"{gateway_url}/e/g-default/v1/chat/completions", json=ask, timeout=60)
    finally:
        stop_gateway()
        stop_edge()
    assert patient.status_code == 200 and "done reading" in patient.text
    assert hasty.status_code == 502 and "ReadTimeout" in hasty.json()["error"]["message"]
