"""Property: whatever request body of the three APIs an agent sends, with unit values under any key and
at any position (message text, tool arguments and results, tool names and ids, descriptions and
parameter schemas, `user`, `metadata`, object keys, numbers), redact mode forwards none of them to a
recording upstream and block mode refuses every such request. Bounded and derandomized."""

import json
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from intercept_helpers import UNITS, enforcing_client, json_strings

SURFACES = ["13922883366", "139-2288-3366", "+86 139 2288 3366", "110105198803153418", "欧阳娜娜", "Ouyang Nana"]
SETTINGS = settings(max_examples=120, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

filler = st.text(alphabet="abcxyz ABC你好，。:_-", max_size=10)  # no digits: a value stays one value
secret_text = st.builds(lambda a, v, b: f"{a} {v} {b}".strip(), filler, st.sampled_from(SURFACES), filler)
text = st.one_of(filler, secret_text)
keys = st.one_of(st.sampled_from(["id", "type", "name", "role", "status", "model", "description", "user",
                                  "value", "phone"]),
                 st.text(alphabet="abcdefgh_", min_size=1, max_size=6), st.sampled_from(SURFACES))
leaf = st.one_of(text, st.just(13922883366), st.just(110105198803153418), st.integers(-5, 5), st.booleans())
tree = st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                  st.dictionaries(keys, inner, max_size=3)), max_leaves=8)
token = st.one_of(st.sampled_from(["call_1", "send"]), st.sampled_from(SURFACES))  # ids and tool names


@st.composite
def bodies(draw):
    api = draw(st.sampled_from(["chat", "responses", "anthropic"]))
    t, args, call_id, name = draw(text), draw(tree), draw(token), draw(token)
    extra = draw(st.dictionaries(st.sampled_from(["user", "metadata", "x_note", "service_note"]), tree, max_size=2))
    if api == "chat":
        body = {"model": "echo", "messages": [
            {"role": "system", "content": draw(text)},
            {"role": "user", "content": draw(st.one_of(text, st.builds(lambda x: [{"type": "text", "text": x}],
                                                                       text)))},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]},
            {"role": "tool", "tool_call_id": call_id, "content": t}],
            "tools": [{"type": "function", "function": {"name": name, "description": draw(text),
                                                         "parameters": draw(tree)}}]}
        path = "/v1/chat/completions"
    elif api == "responses":
        body = {"model": "echo", "instructions": draw(text), "input": [
            {"role": "user", "content": draw(text)},
            {"type": "function_call", "call_id": call_id, "name": name, "arguments": json.dumps(args)},
            {"type": "function_call_output", "call_id": call_id, "output": t}],
            "tools": [{"type": "function", "name": name, "description": draw(text), "parameters": draw(tree)}]}
        path = "/v1/responses"
    else:
        body = {"model": "echo", "max_tokens": 50, "system": draw(text), "messages": [
            {"role": "user", "content": draw(text)},
            {"role": "assistant", "content": [{"type": "tool_use", "id": call_id, "name": name, "input": args}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": t}]}],
            "tools": [{"name": name, "description": draw(text), "input_schema": draw(tree)}]}
        path = "/v1/messages"
    body.update(extra)
    return path, body


def leaks(body) -> list[str]:
    found = []
    for text in json_strings(body):
        digits = re.sub(r"\D", "", text)
        found += [v for v in ("13922883366", "110105198803153418") if v in digits]
        found += [v for v in ("欧阳娜娜", "ouyang nana") if v in text.lower()]
    return found


@pytest.fixture(scope="module", params=["redact", "block"])
def proxy(request, standin, tmp_path_factory):
    app, upstream = standin
    folder = tmp_path_factory.mktemp(request.param)
    with enforcing_client(upstream, folder, UNITS, request.param, timeout=20) as (client, _store):
        yield request.param, app, client


@SETTINGS
@given(case=bodies())
def test_no_unit_value_reaches_the_upstream(proxy, case):
    mode, app, client = proxy
    path, body = case
    assume(leaks(body))
    seen = len(app.state.requests)
    answer = client.post(path, json=body)
    if mode == "block":
        assert answer.status_code == 403, answer.text
        assert len(app.state.requests) == seen  # refused: nothing left
        assert leaks(answer.json()) == []
    else:
        assert answer.status_code == 200, answer.text
        [sent] = app.state.requests[seen:]
        assert leaks(sent["body"]) == [], sent["body"]
