"""The guard's sixth walk (session 18), walked as `test_intercept_forms_walk_5.py` walks: over loopback HTTP in
front of the scripted stand-in upstream, the third walk's customer record.

First a value cut across two messages or two lists of one message: a tool result's first half ending one tool
message and its second half starting the next (or the user turn after it), two user turns, an Anthropic
`tool_result`'s text and the text part after it, a Responses `function_call_output` and the user message after
it, two user turns of Gemini and Bedrock (untyped text parts). Near misses: numbers in neighbouring messages a
line break or a space apart, or with an assistant turn between, or on two sides of the conversation, are two
numbers, and go out untouched (design.md, "The guard's forms", says what is joined and what is not).

Then the request envelope: a body compressed with brotli (`Content-Encoding: br`) is read and judged like gzip;
a brotli bomb past the body limit and a broken stream are refused with a one-line reason and never forwarded.

Judged as the earlier walks judge, on what the upstream RECEIVED, all its strings run together too (so a value
cut in two is read whole): redact forwards no value, block forwards nothing."""

from __future__ import annotations

import json

import brotli
import pytest
from intercept_helpers import json_strings
from test_intercept_forms_walk import _canonical, leaked
from test_intercept_forms_walk_3 import RECORD, UNIT_IDS, UNITS

from ec2audit.gateway.positions import ANTHROPIC, API_PATHS, CHAT, RESPONSES

__all__ = ["UNITS"]


def _halves(value: str) -> tuple[str, str]:
    return value[:len(value) // 2], value[len(value) // 2:]


def _call(api: str) -> list[dict]:
    """An assistant turn calling two tools (the results follow)."""
    if api == CHAT:
        return [{"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{i}", "type": "function", "function": {"name": "read_crm", "arguments": "{}"}}
            for i in (1, 2)]}]
    if api == RESPONSES:
        return [{"type": "function_call", "call_id": f"call_{i}", "name": "read_crm", "arguments": "{}"}
                for i in (1, 2)]
    return [{"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": "read_crm",
                                               "input": {}} for i in (1, 2)]}]


def _result(api: str, i: int, text: str) -> dict:
    if api == CHAT:
        return {"role": "tool", "tool_call_id": f"call_{i}", "content": text}
    if api == RESPONSES:
        return {"type": "function_call_output", "call_id": f"call_{i}", "output": text}
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": text}]}


def _user(api: str, text: str) -> dict:
    return {"role": "user", "content": [{"type": "input_text", "text": text}] if api == RESPONSES else text}


#: How two texts `a`, `b` (read one after the other) sit in a request: name → (api, path, body)
def _placed(a: str, b: str) -> dict[str, tuple[str, dict]]:
    out: dict[str, tuple[str, dict]] = {}
    for api in (CHAT, RESPONSES, ANTHROPIC):
        key = "input" if api == RESPONSES else "messages"
        head = [_user(api, "Look the customer up.")]
        extra = {"max_tokens": 50} if api == ANTHROPIC else {}
        two = [_result(api, 1, a), _result(api, 2, b)]
        if api == ANTHROPIC:  # both results in the one user turn Anthropic takes them in, and in two turns
            out[f"{api}.tool_results_one_turn"] = (API_PATHS[api], {key: [*head, *_call(api), {
                "role": "user", "content": [two[0]["content"][0], two[1]["content"][0]]}], **extra})
            out[f"{api}.tool_result_then_text"] = (API_PATHS[api], {key: [*head, *_call(api), {
                "role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [
                    {"type": "text", "text": a}]}, {"type": "text", "text": b}]}], **extra})
        out[f"{api}.two_tool_results"] = (API_PATHS[api], {key: [*head, *_call(api), *two], **extra})
        out[f"{api}.tool_result_then_user"] = (API_PATHS[api], {key: [*head, *_call(api), two[0], _user(api, b)],
                                                                **extra})
        out[f"{api}.two_user_turns"] = (API_PATHS[api], {key: [_user(api, a), _user(api, b)], **extra})
    out["gemini.two_user_turns"] = ("/models/gemini-2.0-flash:generateContent", {"contents": [
        {"role": "user", "parts": [{"text": a}]}, {"role": "user", "parts": [{"text": b}]}]})
    out["bedrock.two_user_turns"] = ("/model/anthropic.claude-3-5-sonnet/converse", {"messages": [
        {"role": "user", "content": [{"text": a}]}, {"role": "user", "content": [{"text": b}]}]})
    return out


PLACES = sorted(_placed("", ""))


def _cut(field: str) -> tuple[str, str]:
    """A tool result's line cut inside one of the record's values (a page of output, a chunk of a stream)."""
    first, second = _halves(RECORD[field])
    lines = [f"{k}: {v}" for k, v in RECORD.items() if k != field]
    return "customer P1\n" + "\n".join(lines) + f"\n{field}: {first}", f"{second}\nend of record"


def _send(proxy, episode: str, path: str, body: dict):
    mode, app, client, store = proxy
    seen = len(app.state.requests)
    answer = client.post(f"/e/{episode}/v1{path}", json={"model": "echo", **body})
    [record] = store.records(episode)
    return answer, app.state.requests[seen:], record


@pytest.mark.parametrize("place", PLACES)
def test_a_value_cut_across_two_messages_is_caught(proxy, place):
    """Each value cut in turn: the guard finds every unit (the cut one across the cut) and forwards none."""
    mode = proxy[0]
    failed = {}
    for field in RECORD:
        path, body = _placed(*_cut(field))[place]
        answer, sent, record = _send(proxy, f"cut-{place}-{field}", path, body)
        missed = UNIT_IDS - {f["unit_id"] for f in record.findings}
        if mode == "block":
            ok = answer.status_code == 403 and sent == [] and not missed
        else:
            ok = answer.status_code == 200 and not missed and leaked(sent[0], _CANONICAL) == []
        if not ok:
            failed[field] = (answer.status_code, sorted(missed))
    assert failed == {}


_CANONICAL = {field: _canonical(value) for field, value in RECORD.items()}

#: Two texts read one after the other that hold no unit: numbers a line break or a space apart, a name's halves
#: apart a line break, and one that ends where the next begins with a unit's digits (`1392288` + `3376`: the
#: near phone; the phone is 13922883366).
SEPARATE = {"line break": ("order 1392288\n", "3366 units shipped"),
            "space beside digits": ("order 1392288 ", "3366 units shipped"),
            "leading line break": ("order 1392288", "\n3366 units shipped"),
            "names a line apart": ("signed: José\n", "Núñez & Co. (reseller)"),
            "near digits": ("order 1392288", "3376 shipped")}


@pytest.mark.parametrize("case", sorted(SEPARATE))
def test_texts_apart_in_neighbouring_messages_go_out_untouched(proxy, case):
    broken = {}
    for place in PLACES:
        path, body = _placed(*SEPARATE[case])[place]
        answer, sent, record = _send(proxy, f"apart-{case.replace(' ', '_')}-{place}", path, body)
        strong = [f["matched_text"] for f in record.findings if f["grade"] >= 0.75]
        same = bool(sent) and set(json_strings(body)) <= set(json_strings(sent[0]["body"]))
        if not (answer.status_code == 200 and same and record.redactions == 0 and not strong):
            broken[place] = (answer.status_code, record.redactions, strong)
    assert broken == {}


def _across_sides(a: str, b: str) -> dict[str, dict]:
    """A unit's digits cut across the model's turn: not joined (the model answered in between)."""
    return {"user_then_assistant": {"messages": [_user(CHAT, a), {"role": "assistant", "content": b}]},
            "assistant_then_user": {"messages": [{"role": "assistant", "content": a}, _user(CHAT, b)]},
            "assistant_between": {"messages": [_user(CHAT, a), {"role": "assistant", "content": "Noted."},
                                               _user(CHAT, b)]},
            "result_then_call": {"messages": [_user(CHAT, "go"), *_call(CHAT)[:1], _result(CHAT, 1, a), {
                "role": "assistant", "content": b}]}}


@pytest.mark.parametrize("case", sorted(_across_sides("", "")))
def test_halves_on_two_sides_of_the_conversation_are_two_numbers(proxy, case):
    answer, sent, record = _send(proxy, f"sides-{case}", API_PATHS[CHAT],
                                 _across_sides("ref 1392288", "3366 is the batch")[case])
    assert answer.status_code == 200 and record.redactions == 0
    assert [f for f in record.findings if f["grade"] >= 0.75] == []


def test_a_value_cut_across_messages_is_replaced_where_it_starts(proxy):
    """Redacted, the first message ends with the placeholder and the next lost the value's rest; the finding
    names the first message."""
    mode, *_ = proxy
    first, second = _halves(RECORD["phone"])
    answer, sent, record = _send(proxy, "cut-placed", API_PATHS[CHAT], {"messages": [
        _user(CHAT, f"call {first}"), _user(CHAT, f"{second} today")]})
    if mode == "block":
        assert answer.status_code == 403 and sent == []
        return
    a, b = (m["content"] for m in sent[0]["body"]["messages"])
    assert a.startswith("call [") and a.endswith("]") and b == " today"
    assert [f["path"] for f in record.findings] == ["/messages/0/content"]


# --- brotli request bodies ---------------------------------------------------------------------------------

def _body() -> bytes:
    text = "\n".join(f"{k}: {v}" for k, v in RECORD.items())
    return json.dumps({"model": "echo", "messages": [{"role": "user", "content": text}]}, ensure_ascii=False).encode()


@pytest.mark.parametrize("encoding", ["br", "gzip, br", "br, zstd"])
def test_a_brotli_body_is_read_and_judged(proxy, encoding):
    import gzip

    import zstandard

    mode, app, client, store = proxy
    data = _body()
    for coding in encoding.split(", "):
        data = {"br": brotli.compress, "gzip": gzip.compress, "zstd": zstandard.ZstdCompressor().compress}[coding](data)
    episode, seen = f"br-{encoding.replace(', ', '+')}", len(app.state.requests)
    answer = client.post(f"/e/{episode}/v1/chat/completions", content=data,
                         headers={"content-type": "application/json", "content-encoding": encoding})
    sent = app.state.requests[seen:]
    [record] = store.records(episode)
    assert {f["unit_id"] for f in record.findings} == UNIT_IDS
    if mode == "block":
        assert answer.status_code == 403 and sent == []
    else:
        assert answer.status_code == 200 and leaked(sent[0], _CANONICAL) == []
        assert "content-encoding" not in sent[0]["headers"]


#: A brotli body the guard will not read: (body) → the status and a word of the one-line reason.
BAD_BROTLI = {
    "bomb": (brotli.compress(b'{"messages": "' + b"0" * 40_000_000 + b'"}'), 413, "over the"),
    "truncated": (brotli.compress(_body())[:-4], 400, "not valid br"),
    "not brotli": (_body(), 400, "not valid br"),
}


@pytest.mark.parametrize("case", sorted(BAD_BROTLI))
def test_a_brotli_body_past_the_limit_or_broken_is_refused(proxy, case):
    mode, app, client, store = proxy
    data, status, word = BAD_BROTLI[case]
    episode, seen = f"bad-br-{case.replace(' ', '_')}", len(app.state.requests)
    answer = client.post(f"/e/{episode}/v1/chat/completions", content=data,
                         headers={"content-type": "application/json", "content-encoding": "br"})
    assert app.state.requests[seen:] == []
    [record] = store.records(episode)
    message = answer.json()["error"]["message"]
    assert answer.status_code == record.status == status and word in message and "\n" not in message
