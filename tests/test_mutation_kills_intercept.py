"""The interceptor's redaction and enforcement in process: placeholders, what is replaced and restored,
what a policy refuses or rewrites, on bodies whose every hit is known (the proxy tests drive the same
code over HTTP)."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from ec2audit.detect.cascade import build_cascade
from ec2audit.intercept.dialects import DIALECTS
from ec2audit.intercept.lanes import ScanLanes
from ec2audit.intercept.policy import POLICIES, Block, Exchange, Failure, Observe, Redact, json_bytes
from ec2audit.intercept.record import ProxyRecord
from ec2audit.intercept.redact import EpisodeMap, Redactor, StreamRestorer, _type_name
from ec2audit.units import make_unit

PHONE = make_unit({"task_id": "t1", "entity_id": "E1", "field": "phone", "value": "13922883366",
                   "dimension": "contact"})
NAME = make_unit({"task_id": "t1", "entity_id": "E1", "field": "name", "value": "Ana Ruiz", "dimension": "identity"})
EMAIL = make_unit({"task_id": "t1", "entity_id": "E1", "field": "email", "value": "ana.ruiz@example.org",
                   "dimension": "contact"})
REDACTOR = Redactor(build_cascade([PHONE, NAME, EMAIL]))


def chat(text: str, **extra) -> dict:
    return {"model": "gpt-x", "messages": [{"role": "user", "content": text}], **extra}


def test_placeholder_types_come_from_the_field_then_the_dimension():
    assert _type_name(PHONE) == "PHONE"
    assert _type_name(make_unit({"task_id": "t", "entity_id": "E", "field": "date-of-birth", "value": "1990-01-02",
                                 "dimension": "identity"})) == "DATE_OF_BIRTH"
    assert _type_name(make_unit({"task_id": "t", "entity_id": "E", "field": "电话", "value": "13922883366",
                                 "dimension": "contact"})) == "CONTACT"
    assert _type_name(make_unit({"task_id": "t", "entity_id": "E", "field": "_1", "value": "x1",
                                 "dimension": "contact"}).model_copy(update={"dimension": "2"})) == "VALUE"


def test_placeholders_are_numbered_per_type_and_stable_per_surface():
    emap = EpisodeMap()
    assert emap.placeholder(0, "PHONE", "13922883366") == "[PHONE_001]"
    assert emap.placeholder(2, "EMAIL", "a@b.org") == "[EMAIL_001]"
    assert emap.placeholder(0, "PHONE", "139-2288-3366") == "[PHONE_002]"  # another surface form
    assert emap.placeholder(0, "PHONE", "13922883366") == "[PHONE_001]"  # the same one again
    assert emap.back == {"[PHONE_001]": "13922883366", "[EMAIL_001]": "a@b.org", "[PHONE_002]": "139-2288-3366"}


def test_an_episode_shares_its_map_and_untagged_requests_never_do():
    assert REDACTOR.episode_map("ep-1") is REDACTOR.episode_map("ep-1")
    assert REDACTOR.episode_map("ep-1") is not REDACTOR.episode_map("ep-2")
    assert REDACTOR.episode_map(None) is not REDACTOR.episode_map(None)
    assert REDACTOR.episode_map("") is not REDACTOR.episode_map("")


def test_findings_name_unit_path_span_and_grade():
    [row] = REDACTOR.findings(chat("Call 139****3366 now"))
    assert row == {"unit_id": PHONE.id, "dimension": "contact", "path": "/messages/0/content", "start": 5, "end": 16,
                   "matched_text": "139****3366", "detector": "partial.masked", "grade": 0.7,
                   "confidence": pytest.approx(0.936, abs=1e-3)}
    # a protocol position (the model name) is held to literal hits: a fragment there is not reported
    assert REDACTOR.findings({"model": "m-3366", "messages": []}) == []
    assert [r["grade"] for r in REDACTOR.findings({"model": "13922883366", "messages": []})] == [1.0]
    assert [r["grade"] for r in REDACTOR.findings(chat("ends in 3366"))] == [0.3]


def test_redaction_replaces_every_hit_and_counts_the_spans():
    emap = EpisodeMap()
    body = chat("mail ana.ruiz@example.org or Ana Ruiz at 13922883366, again 13922883366")
    new, rows, replaced = REDACTOR.redact(body, emap)
    assert new["messages"][0]["content"] == "mail [EMAIL_001] or [NAME_001] at [PHONE_001], again [PHONE_001]"
    assert replaced == 4 and len(rows) == 4
    assert body["messages"][0]["content"].startswith("mail ana.ruiz")  # the client's body is left as it was
    masked, _, count = REDACTOR.redact(chat("Call 139****3366 now"), emap)  # near-verbatim forms too
    assert masked["messages"][0]["content"] == "Call [PHONE_002] now" and count == 1
    plain = chat("nothing to see")
    assert REDACTOR.redact(plain, emap) == (plain, [], 0) and REDACTOR.redact(plain, emap)[0] is plain


def test_overlapping_hits_are_replaced_once_by_the_longest():
    units = [make_unit({"task_id": "t1", "entity_id": "E1", "field": "name", "value": "Ana Ruiz Lopez",
                        "dimension": "identity"}),
             make_unit({"task_id": "t1", "entity_id": "E2", "field": "surname", "value": "Ruiz Lopez",
                        "dimension": "identity"})]
    redactor = Redactor(build_cascade(units))
    new, rows, replaced = redactor.redact(chat("Dear Ana Ruiz Lopez,"), EpisodeMap())
    assert new["messages"][0]["content"] == "Dear [NAME_001]," and replaced == 1 and len(rows) >= 2


def test_restore_puts_back_only_known_placeholders_json_escaped_inside_arguments():
    emap = EpisodeMap()
    emap.placeholder(1, "NAME", 'Ana "Ani" Ruiz')
    assert Redactor.restore_text("Hi [NAME_001], not [NAME_002] or [name_001]", emap) == \
        'Hi Ana "Ani" Ruiz, not [NAME_002] or [name_001]'
    assert Redactor.restore_text("[NAME_001]", emap, json_escaped=True) == 'Ana \\"Ani\\" Ruiz'
    assert Redactor.restore_text("no brackets", emap) == "no brackets"
    assert Redactor.restore_text("[NAME_001]", EpisodeMap()) == "[NAME_001]"
    response = {"choices": [{"message": {"content": "[NAME_001]", "tool_calls": [
        {"function": {"name": "send", "arguments": '{"to": "[NAME_001]"}'}}]}}], "n": 1}
    restored = REDACTOR.restore(response, emap)
    assert restored["choices"][0]["message"]["content"] == 'Ana "Ani" Ruiz'
    assert json.loads(restored["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]) == {
        "to": 'Ana "Ani" Ruiz'}
    assert restored["n"] == 1


def test_a_placeholder_cut_across_stream_deltas_is_held_back_and_restored():
    emap = EpisodeMap()
    emap.placeholder(0, "PHONE", "13922883366")
    stream = StreamRestorer(REDACTOR, "chat", emap)

    def chunk(content=None, finish=None, args=None):
        delta = {} if content is None else {"content": content}
        if args is not None:
            delta["tool_calls"] = [{"index": 0, "function": {"arguments": args}}]
        return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    [(_, first)] = stream.rewrite(None, chunk("Call [PHO"))
    assert first["choices"][0]["delta"]["content"] == "Call "
    [(_, second)] = stream.rewrite(None, chunk("NE_001] now ["))
    assert second["choices"][0]["delta"]["content"] == "13922883366 now "
    [(_, last)] = stream.rewrite(None, chunk(finish="stop", args='{"n": "[PH'))
    # the end of the choice releases what was held: the text tail and the tool call's arguments
    assert last["choices"][0]["delta"]["content"] == "["
    assert last["choices"][0]["delta"]["tool_calls"] == [{"index": 0, "function": {"arguments": '{"n": "'}},
                                                         {"index": 0, "function": {"arguments": "[PH"}}]
    assert stream.rewrite("x", "[DONE]") == [("x", "[DONE]")]
    assert stream.feed(("c", 9), "a [b] c") == "a [b] c"  # brackets that cannot become a placeholder pass


def test_anthropic_and_responses_streams_are_restored_per_block():
    emap = EpisodeMap()
    emap.placeholder(0, "PHONE", "13922883366")
    anthropic = StreamRestorer(REDACTOR, "anthropic", emap)
    delta = {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": '"[PHO'}}
    assert anthropic.rewrite("content_block_delta", delta)[0][1]["delta"]["partial_json"] == '"'
    stop = anthropic.rewrite("content_block_stop", {"type": "content_block_stop", "index": 1})
    assert stop == [("content_block_delta", {"type": "content_block_delta", "index": 1,
                                             "delta": {"type": "input_json_delta", "partial_json": "[PHO"}}),
                    ("content_block_stop", {"type": "content_block_stop", "index": 1})]
    text = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "[PHONE_001]!"}}
    assert anthropic.rewrite("content_block_delta", text)[0][1]["delta"]["text"] == "13922883366!"
    responses = StreamRestorer(REDACTOR, "responses", emap)
    event = {"type": "response.output_text.delta", "item_id": "m1", "content_index": 0, "delta": "at [PHONE_0"}
    assert responses.rewrite("response.output_text.delta", event)[0][1]["delta"] == "at "
    done = responses.rewrite("response.output_text.done", {"type": "response.output_text.done", "item_id": "m1",
                                                           "output_index": 0, "content_index": 0, "text": "x"})
    assert done[0] == ("response.output_text.delta", {"type": "response.output_text.delta", "item_id": "m1",
                                                      "output_index": 0, "content_index": 0, "delta": "[PHONE_0"})
    args = {"type": "response.function_call_arguments.delta", "item_id": "f1", "delta": '{"p": "[PHONE_001]"}'}
    assert responses.rewrite(None, args)[0][1]["delta"] == '{"p": "13922883366"}'


# --- policies ------------------------------------------------------------------------------------------

def exchange(body: dict, episode: str | None = "ep") -> Exchange:
    return Exchange(ProxyRecord(id="r1", ts=0.0, request=body), DIALECTS["openai-chat"], episode, 0.0, body,
                    json_bytes(body))


def enforce(policy, ex: Exchange):
    async def go():
        await policy.before_forward(ex)
        return ex
    return asyncio.run(go())


@pytest.fixture(scope="module")
def scanner():
    lanes = ScanLanes(REDACTOR)
    yield lanes
    lanes.shutdown()


def test_block_refuses_at_its_grade_with_unit_ids_never_values(scanner):
    block = Block(scanner, 0.7)
    with pytest.raises(Failure) as refused:
        enforce(block, exchange(chat("Call 139****3366, mail ana.ruiz@example.org")))  # masked form: 0.7
    failure = refused.value
    assert (failure.status, failure.kind, failure.extra) == (403, "sensitive_data_blocked",
                                                              {"units": sorted([EMAIL.id, PHONE.id])})
    assert failure.message == (f"blocked by ec2audit: the request contains 2 sensitive unit(s): "
                               f"{', '.join(sorted([EMAIL.id, PHONE.id]))}")
    assert "13922883366" not in failure.message and "139****3366" not in failure.message
    fragment = enforce(block, exchange(chat("ends in 3366")))  # a 0.3 fragment passes a 0.7 block
    assert [f["grade"] for f in fragment.record.findings] == [0.3]
    with pytest.raises(Failure):
        enforce(Block(scanner, 0.3), exchange(chat("ends in 3366")))


def test_redact_forwards_placeholders_records_them_and_restores_the_answer(scanner):
    redact = Redact(scanner, 0.7)
    ex = enforce(redact, exchange(chat("Call 13922883366"), episode="ep-redact"))
    assert ex.body["messages"][0]["content"] == "Call [PHONE_001]"
    assert ex.record.request is ex.body and json.loads(ex.raw) == ex.body and ex.record.redactions == 1
    assert [f["unit_id"] for f in ex.record.findings] == [PHONE.id]
    answer = {"choices": [{"message": {"content": "Calling [PHONE_001]"}}]}
    assert redact.on_response(ex, answer)["choices"][0]["message"]["content"] == "Calling 13922883366"
    event = {"choices": [{"index": 0, "delta": {"content": "[PHONE_001]"}}]}
    assert redact.on_stream_event(ex, None, event)[0][1]["choices"][0]["delta"]["content"] == "13922883366"
    clean = enforce(redact, exchange(chat("nothing here"), episode=None))
    raw = clean.raw
    assert clean.body is clean.record.request and clean.raw == raw and clean.record.redactions == 0
    assert redact.on_response(clean, answer) is None and redact.on_stream_event(clean, None, event) is None


def test_observe_changes_nothing_and_audits_beside_the_call(scanner):
    observe = Observe(scanner, 0.7)
    body = chat("Call 13922883366")

    async def go():
        ex = exchange(body)
        await observe.before_forward(ex)
        return ex, await ex.scan

    ex, findings = asyncio.run(go())
    assert ex.body is body and [f["unit_id"] for f in findings] == [PHONE.id]
    assert observe.on_response(ex, {}) is None and observe.on_stream_event(ex, None, {}) is None
    bare = exchange(body)
    asyncio.run(Observe(ScanLanes(None), 0.7).before_forward(bare))
    assert bare.scan is None
    assert POLICIES == {"observe": Observe, "redact": Redact, "block": Block}


def test_a_detector_failure_refuses_the_request_and_logs_which(scanner, caplog):
    class Broken(Redactor):
        def detect(self, body, fields=()):
            raise RuntimeError("boom")

    with pytest.raises(Failure) as refused:
        enforce(Block(ScanLanes(Broken(REDACTOR.cascade)), 0.7), exchange(chat("x")))
    assert (refused.value.status, refused.value.kind) == (500, "audit_error")
    assert refused.value.message == "inline audit failed: request not forwarded"
    assert [r.getMessage() for r in caplog.records] == ["inline audit failed for record r1"]


def test_bodies_are_scanned_on_a_scanning_lane_by_size_not_the_event_loop():
    threads = []

    class Watched(Redactor):
        def detect(self, body, fields=()):
            threads.append(threading.current_thread().name)
            return super().detect(body, fields)

    lanes = ScanLanes(Watched(REDACTOR.cascade))
    enforce(Block(lanes, 0.7), exchange(chat("nothing")))
    large = enforce(Block(lanes, 0.3), exchange(chat("a" * 300_000)))
    with pytest.raises(Failure):  # the worker process's own detectors find it
        enforce(Block(lanes, 0.7), exchange(chat("a" * 300_000 + " 13922883366")))
    lanes.shutdown()
    assert len(threads) == 1 and threads[0].startswith("ec2audit-scan_") and large.record.findings == []


def test_json_bytes_is_compact_utf8_and_escapes_lone_surrogates():
    assert json_bytes({"a": "张", "b": [1, 2]}) == '{"a":"张","b":[1,2]}'.encode()
    assert json_bytes({"a": "\ud800"}) == b'{"a":"\\ud800"}'


def test_redact_keeps_the_episodes_placeholders_across_requests_and_streams_per_api(scanner):
    redact = Redact(scanner, 0.7)
    first = enforce(redact, exchange(chat("Call 13922883366"), episode="ep-stream"))
    second = enforce(redact, exchange(chat("mail ana.ruiz@example.org or 13922883366"), episode="ep-stream"))
    assert second.body["messages"][0]["content"] == "mail [EMAIL_001] or [PHONE_001]"
    assert first.emap.parent is second.emap.parent and first.emap.back == {"[PHONE_001]": "13922883366"}
    # a placeholder cut across two chat deltas is held back, as the chat API's stream is read
    [(_, head)] = redact.on_stream_event(second, None, {"choices": [{"index": 0, "delta": {"content": "at [PHO"}}]})
    [(_, tail)] = redact.on_stream_event(second, None, {"choices": [{"index": 0, "delta": {"content": "NE_001]"}}]})
    assert (head["choices"][0]["delta"]["content"], tail["choices"][0]["delta"]["content"]) == ("at ", "13922883366")
    anthropic = exchange(chat("Call 13922883366"), episode="ep-stream")
    anthropic.dialect = DIALECTS["anthropic-messages"]
    anthropic = enforce(redact, anthropic)
    event = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "[PHONE_001]"}}
    assert redact.on_stream_event(anthropic, "content_block_delta", event) == [
        ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                 "delta": {"type": "text_delta", "text": "13922883366"}})]


def test_a_failure_says_its_message_and_defaults_to_a_proxy_error(scanner):
    failure = Failure(502, "upstream unreachable")
    assert (str(failure), failure.kind, failure.extra) == ("upstream unreachable", "proxy_error", {})

    class Broken(Redactor):
        def place(self, body, fields, found, emap):
            raise RuntimeError("boom")

    with pytest.raises(Failure) as refused:
        enforce(Redact(ScanLanes(Broken(REDACTOR.cascade)), 0.7), exchange(chat("x")))
    assert (refused.value.status, refused.value.kind) == (500, "audit_error")


def test_each_stream_channel_holds_its_own_cut_placeholder():
    emap = EpisodeMap()
    emap.placeholder(0, "PHONE", "13922883366")
    chat = StreamRestorer(REDACTOR, "chat", emap)

    def delta(choice: dict) -> dict:
        return chat.rewrite(None, {"choices": [choice]})[0][1]["choices"][0]["delta"]

    assert delta({"delta": {"content": "a [PHO"}}) == {"content": "a "}  # no index: choice 0
    assert delta({"index": 1, "delta": {"content": "b [PH"}}) == {"content": "b "}
    assert delta({"index": 0, "delta": {"content": "NE_001]"}}) == {"content": "13922883366"}
    assert delta({"index": 1, "delta": {"content": "ONE_001]"}}) == {"content": "13922883366"}
    calls = [{"function": {"arguments": '{"a": "[PHO'}}, {"index": 1, "function": {"arguments": '{"b": "[PH'}}]
    assert [c["function"]["arguments"] for c in delta({"delta": {"tool_calls": calls}})["tool_calls"]] == [
        '{"a": "', '{"b": "']
    calls = [{"index": 1, "function": {"arguments": 'ONE_001]"}'}}, {"function": {"arguments": 'NE_001]"}'}}]
    assert [c["function"]["arguments"] for c in delta({"delta": {"tool_calls": calls}})["tool_calls"]] == [
        '13922883366"}', '13922883366"}']
    # the last delta of a choice keeps its own text and adds what was held
    assert delta({"index": 0, "delta": {"content": "ok [PH"}, "finish_reason": "stop"}) == {"content": "ok [PH"}


def test_responses_streams_keep_items_apart_and_release_at_their_done_event():
    emap = EpisodeMap()
    emap.placeholder(0, "PHONE", "13922883366")
    stream = StreamRestorer(REDACTOR, "responses", emap)
    text = "response.output_text.delta"

    def sent(item: str, **delta) -> str:
        return stream.rewrite(text, {"type": text, "item_id": item, "content_index": 0, **delta})[0][1]["delta"]

    assert (sent("m1", delta="[PHO"), sent("m2", delta="x"), sent("m2")) == ("", "x", "")
    # another event of the same item and part does not release the held text; its own done event does
    other = {"type": "response.output_text.annotation.added", "item_id": "m1", "content_index": 0}
    assert stream.rewrite("response.output_text.annotation.added", other) == [
        ("response.output_text.annotation.added", other)]
    args = "response.function_call_arguments.delta"
    assert stream.rewrite(args, {"type": args, "item_id": "f1", "delta": '{"p": "[PH'})[0][1]["delta"] == '{"p": "'
    done = stream.rewrite("response.function_call_arguments.done", {"type": "response.function_call_arguments.done",
                                                                    "item_id": "f1", "arguments": "{}"})
    assert done[0] == ("response.function_call_arguments.delta", {"type": "response.function_call_arguments.delta",
                                                                  "item_id": "f1", "delta": "[PH"})
    item = {"type": "response.output_item.done", "item": {"content": [{"text": "call [PHONE_001]"}]}}
    assert stream.rewrite("response.output_item.done", item)[0][1]["item"]["content"][0]["text"] == "call 13922883366"


def test_redaction_never_rewrites_a_protocol_position_for_a_fragment_and_text_is_not_json_escaped():
    body = {"model": "m-3366", "messages": [{"role": "user", "content": "ends in 3366"}]}
    new, rows, replaced = REDACTOR.redact(body, EpisodeMap())
    assert new["model"] == "m-3366" and new["messages"][0]["content"] == "ends in [PHONE_001]" and replaced == 1
    emap = EpisodeMap()
    emap.placeholder(1, "NAME", 'Ana "Ani" Ruiz')
    stream = StreamRestorer(REDACTOR, "chat", emap)
    assert stream.feed(("c", 0), "Dear [NAME_001]") == 'Dear Ana "Ani" Ruiz'
    assert json.loads(stream.feed(("t", 0, 0), '{"to": "[NAME_001]"}', True)) == {"to": 'Ana "Ani" Ruiz'}


def test_a_protocol_position_is_never_redacted_for_a_masked_look_alike_and_counts_add_up_over_the_body():
    # the model field holds the phone's masked form: a 0.7 hit in text, nothing at a protocol position
    assert [r["grade"] for r in REDACTOR.findings(chat("139****3366"))] == [0.7]
    assert REDACTOR.findings({"model": "139****3366", "messages": []}) == []
    body = {"model": "139****3366", "messages": [{"role": "user", "content": "call 13922883366"},
                                                 {"role": "user", "content": "or mail ana.ruiz@example.org"}]}
    new, rows, replaced = REDACTOR.redact(body, EpisodeMap())
    assert new["model"] == "139****3366"
    assert [m["content"] for m in new["messages"]] == ["call [PHONE_001]", "or mail [EMAIL_001]"]
    assert replaced == len(rows) == 2  # one span in each message


def test_streamed_function_arguments_are_restored_json_escaped_and_a_held_tail_keeps_call_0():
    emap = EpisodeMap()
    emap.placeholder(1, "NAME", 'Ana "Ani" Ruiz')
    responses = StreamRestorer(REDACTOR, "responses", emap)
    args = "response.function_call_arguments.delta"
    [(_, event)] = responses.rewrite(args, {"type": args, "item_id": "f1", "delta": '{"to": "[NAME_001]"}'})
    assert json.loads(event["delta"]) == {"to": 'Ana "Ani" Ruiz'}
    # a tool call without an index is call 0: what it held comes back as call 0's at the finish
    chat_stream = StreamRestorer(REDACTOR, "chat", emap)
    held = {"choices": [{"delta": {"tool_calls": [{"function": {"arguments": '{"to": "[NAM'}}]}}]}
    assert chat_stream.rewrite(None, held)[0][1]["choices"][0]["delta"]["tool_calls"][0]["function"] == {
        "arguments": '{"to": "'}
    finish = {"choices": [{"delta": {}, "finish_reason": "tool_calls"}]}
    assert chat_stream.rewrite(None, finish)[0][1]["choices"][0]["delta"]["tool_calls"] == [
        {"index": 0, "function": {"arguments": "[NAM"}}]
