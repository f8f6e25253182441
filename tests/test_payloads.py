import json

import pytest

from ec2audit.errors import InputError
from ec2audit.payloads import detect_api, flatten, iter_payloads, payload_from_record


def _seg(segments):
    return [(s.message_index, s.role, s.origin, s.text) for s in segments]


def test_openai_chat_with_tool_calls_and_list_content():
    body = {"model": "gpt", "messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "notify 张伟"}, {"type": "image_url", "image_url": {}}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "read",
                                                          "arguments": '{"path": "\\u5f20\\u4f1f.csv"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "phone,13922883366"},
    ]}
    assert detect_api(body) == "openai-chat"
    assert _seg(flatten(body)) == [
        (0, "system", "system", "be brief"), (1, "user", "user", "notify 张伟"),
        (2, "assistant", "tool_call_args", '{"path": "张伟.csv"}'), (3, "tool", "tool_result", "phone,13922883366")]


def test_openai_responses_items():
    body = {"model": "gpt", "instructions": "sys", "input": [
        {"role": "user", "content": [{"type": "input_text", "text": "hi"}]},
        {"type": "function_call", "call_id": "c", "name": "exec", "arguments": '{"command": "cat a"}'},
        {"type": "function_call_output", "call_id": "c", "output": "key=sk-abc"},
        {"type": "reasoning", "summary": []}]}
    assert detect_api(body) == "openai-responses"
    assert _seg(flatten(body)) == [(0, "system", "system", "sys"), (1, "user", "user", "hi"),
                                   (2, "assistant", "tool_call_args", '{"command": "cat a"}'),
                                   (3, "tool", "tool_result", "key=sk-abc")]
    assert _seg(flatten({"input": "plain"})) == [(1, "user", "user", "plain")]


def test_anthropic_messages_blocks():
    body = {"model": "claude", "system": [{"type": "text", "text": "sys"}], "messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "text", "text": "reading"},
                                          {"type": "tool_use", "id": "t", "name": "read", "input": {"path": "x"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                      "content": [{"type": "text", "text": "secret"}]}]}]}
    assert detect_api(body) == "anthropic-messages"
    assert _seg(flatten(body)) == [(0, "system", "system", "sys"), (1, "user", "user", "go"),
                                   (2, "assistant", "assistant", "reading"),
                                   (2, "assistant", "tool_call_args", '{"path": "x"}'),
                                   (3, "user", "tool_result", "secret")]


def test_record_ids_and_bad_lines(tmp_path):
    path = tmp_path / "p.jsonl"
    lines = [json.dumps({"id": "r1", "task_id": "t", "episode": "t#1", "request": {"messages": []}}),
             json.dumps({"messages": [], "metadata": {"id": "m7"}}),
             "{truncated", json.dumps([1]), json.dumps({"hello": 1}),
             json.dumps({"input": "x"})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    errors = []
    payloads = list(iter_payloads(path, errors.append))
    assert [(p.id, p.task_id, p.episode) for p in payloads] == [("r1", "t", "t#1"), ("m7", None, None),
                                                                ("p.jsonl:6", None, None)]
    assert [(e.line, e.field) for e in errors] == [(3, None), (4, None), (5, "request")]
    with pytest.raises(InputError, match="p.jsonl:3"):
        list(iter_payloads(path))
    assert payload_from_record({"body": {"messages": [{"role": "user", "content": "a"}]}}, "x").segments[0].text == "a"


def test_gemini_contents_parts_calls_and_results():
    """Gemini's generateContent body: the system instruction is message 0, each of `contents` the next (from 1);
    a part's text is the user's unless the role is `model`; a `functionCall`'s args are tool-call arguments and a
    `functionResponse`'s response a tool result (camelCase or snake_case, as the SDKs send them); a content with
    no role is the user's."""
    body = {"systemInstruction": {"parts": [{"text": "be brief"}]}, "contents": [
        {"parts": [{"text": "who is 张伟?"}]},
        {"role": "model", "parts": [{"text": "looking"}, {"functionCall": {"name": "crm", "args": {"q": "张伟"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "crm", "response": {"phone": "13922883366"}}}]},
        {"role": "model", "parts": [{"function_call": {"name": "mail", "args": {"to": "zw@x.cn"}}}]},
        {"role": "user", "parts": [{"function_response": {"name": "mail", "response": {"ok": True}}}]}]}
    assert detect_api(body) == "gemini"
    assert _seg(flatten(body)) == [
        (0, "system", "system", "be brief"), (1, "user", "user", "who is 张伟?"),
        (2, "model", "assistant", "looking"), (2, "model", "tool_call_args", '{"q": "张伟"}'),
        (3, "user", "tool_result", '{"phone": "13922883366"}'), (4, "model", "tool_call_args", '{"to": "zw@x.cn"}'),
        (5, "user", "tool_result", '{"ok": true}')]
    snake = {"system_instruction": {"parts": [{"text": "sys"}]}, "contents": [{"parts": [{"text": "hi"}]}]}
    assert _seg(flatten(snake)) == [(0, "system", "system", "sys"), (1, "user", "user", "hi")]
    # a `contents` list whose items are not all {parts} is no Gemini request (a document's fields)
    assert detect_api({"contents": [{"parts": []}, {"text": "x"}]}) != "gemini"


def test_bedrock_converse_blocks_without_type():
    """Bedrock's Converse body: `system` blocks are message 0, messages count from 1; `{"text"}` is the user's or
    the assistant's by role, `{"toolUse"}`'s input the model's call, a `{"toolResult"}`'s `text` and `json`
    blocks the tool's output. `inferenceConfig` alone marks a Converse body (its blocks may all be strings)."""
    body = {"system": [{"text": "be brief"}], "messages": [
        {"role": "user", "content": [{"text": "find 张伟"}]},
        {"role": "assistant", "content": [{"text": "looking"}, {"toolUse": {"toolUseId": "t1", "name": "crm",
                                                                           "input": {"q": "张伟"}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [
            {"text": "found one"}, {"json": {"phone": "13922883366"}}]}}]}]}
    assert detect_api(body) == "bedrock-converse"
    assert _seg(flatten(body)) == [
        (0, "system", "system", "be brief"), (1, "user", "user", "find 张伟"),
        (2, "assistant", "assistant", "looking"), (2, "assistant", "tool_call_args", '{"q": "张伟"}'),
        (3, "user", "tool_result", "found one"), (3, "user", "tool_result", '{"phone": "13922883366"}')]
    assert detect_api({"inferenceConfig": {"maxTokens": 10}, "messages": [{"role": "user", "content": "hi"}]}) \
        == "bedrock-converse"
