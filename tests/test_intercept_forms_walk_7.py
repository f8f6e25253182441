"""The guard's seventh walk (session 19): every position of each wire API's official request schema.

Positions come from the request types a client can send: openai's `chat/completion_create_params.py`,
`responses/response_create_params.py` and its input items, Anthropic's Messages schema, Gemini's `generateContent`,
Bedrock's Converse, Ollama's `/api/chat`, the legacy `/v1/completions` prompt and `/v1/embeddings` input. Each
string-bearing field a client fills (tool and schema descriptions, `enum`/`default`/`examples`, structured-output
schemas, `prediction`, `metadata`, `user`, `stop`, `instructions`, tool outputs of every kind, reasoning summaries,
documents with a text or content source, search results, citations, Gemini's `functionResponse`, Bedrock's
`toolResult.json`, …) carries the third walk's customer record, over loopback HTTP in front of the scripted
stand-in upstream, streamed too; judged as the earlier walks judge, on what the upstream RECEIVED: redact forwards
no value, block forwards nothing.
"""

from __future__ import annotations

import base64
import json
import zlib

import httpx
import pytest
from click.testing import CliRunner
from intercept_helpers import enforcing_client, json_strings, serve_cli
from test_intercept_forms_walk import _canonical, assert_held
from test_intercept_forms_walk_2 import _send as exchange
from test_intercept_forms_walk_3 import NEAR, RECORD, UNIT_IDS, UNITS
from test_intercept_forms_walk_3 import leaks as leaked

from ec2audit.cli import main
from ec2audit.units import write_units

__all__ = ["GROUPS", "POSITIONS", "UNITS", "position_outcome"]


def _line(record: dict) -> str:
    return "; ".join(f"{k}: {v}" for k, v in record.items())


TEXT = _line(RECORD)
CHAT, RESPONSES, ANTHROPIC = "/v1/chat/completions", "/v1/responses", "/v1/messages"
GEMINI, BEDROCK, OLLAMA = "/v1/models/gemini-2.0-flash:generateContent", \
    "/v1/model/anthropic.claude-3-5-sonnet/converse", "/v1/api/chat"


def _hi(api: str) -> dict:
    if api == ANTHROPIC:
        return {"max_tokens": 50, "messages": [{"role": "user", "content": "Hi."}]}
    if api == RESPONSES:
        return {"input": "Hi."}
    return {"messages": [{"role": "user", "content": "Hi."}]}


def _schema(t: str) -> dict:
    """A JSON schema with the text in every place a schema holds words: description, enum, default, examples,
    title, a pattern's literal, a const, and deep inside nested properties."""
    return {"type": "object", "title": t, "description": t, "properties": {
        "who": {"type": "string", "description": t, "enum": [t, "other"], "default": t, "examples": [t]},
        "deep": {"type": "object", "properties": {"x": {"type": "array", "items": {
            "type": "string", "const": t, "pattern": f"^{t}$"}}}}}}


def _chat(**extra) -> dict:
    return {**_hi(CHAT), **extra}


def _chat_user(*parts: dict) -> dict:
    return {"messages": [{"role": "user", "content": list(parts)}]}


def _chat_tool_result(content) -> dict:
    return {"messages": [{"role": "user", "content": "Look it up."}, {"role": "assistant", "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": content}]}


def _items(*items: dict) -> dict:
    return {"input": [{"role": "user", "content": "Look it up."}, *items]}


def _anthropic(*content: dict, role: str = "user", **extra) -> dict:
    return {"max_tokens": 50, "messages": [{"role": role, "content": list(content)},
                                           *([{"role": "user", "content": "Go on."}] if role != "user" else [])],
            **extra}


def _tool_use_then_result(result: dict) -> dict:
    return {"max_tokens": 50, "messages": [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", **result}]}]}


def _gemini(*parts: dict, **extra) -> dict:
    return {"contents": [{"role": "user", "parts": list(parts)}], **extra}


def _bedrock(*content: dict, **extra) -> dict:
    return {"messages": [{"role": "user", "content": list(content)}], **extra}


#: name → (path, the request body carrying `t`); the name says the API and the field.
POSITIONS = {
    # --- OpenAI Chat Completions (completion_create_params.py) ---
    "chat.system": lambda t: (CHAT, {"messages": [{"role": "system", "content": t}, *_hi(CHAT)["messages"]]}),
    "chat.developer.parts": lambda t: (CHAT, {"messages": [{"role": "developer", "content": [
        {"type": "text", "text": t}]}, *_hi(CHAT)["messages"]]}),
    "chat.user.name": lambda t: (CHAT, {"messages": [{"role": "user", "name": t, "content": "Hi."}]}),
    "chat.assistant.refusal": lambda t: (CHAT, {"messages": [{"role": "assistant", "content": None, "refusal": t},
                                                             *_hi(CHAT)["messages"]]}),
    "chat.assistant.function_call": lambda t: (CHAT, {"messages": [{"role": "assistant", "content": None,
        "function_call": {"name": "lookup", "arguments": json.dumps({"q": t}, ensure_ascii=False)}},
        {"role": "function", "name": "lookup", "content": "ok"}]}),
    "chat.tool_call.arguments_deep": lambda t: (CHAT, {"messages": [{"role": "assistant", "content": None,
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": json.dumps(
            {"a": {"b": [{"c": {"d": t}}]}}, ensure_ascii=False)}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "ok"}]}),
    "chat.tool.content_parts": lambda t: (CHAT, _chat_tool_result([{"type": "text", "text": t}])),
    "chat.file.filename": lambda t: (CHAT, _chat_user({"type": "file", "file": {"filename": t, "file_id": "file-1"}})),
    "chat.image_url.url": lambda t: (CHAT, _chat_user({"type": "image_url", "image_url": {
        "url": "https://img.example.com/a.png?caption=" + t}})),
    "chat.tools.description": lambda t: (CHAT, _chat(tools=[{"type": "function", "function": {
        "name": "lookup", "description": t, "parameters": {"type": "object"}}}])),
    "chat.tools.parameters_schema": lambda t: (CHAT, _chat(tools=[{"type": "function", "function": {
        "name": "lookup", "parameters": _schema(t)}}])),
    "chat.tools.custom_grammar": lambda t: (CHAT, _chat(tools=[{"type": "custom", "custom": {
        "name": "lookup", "description": t, "format": {"type": "grammar", "grammar": {
            "syntax": "lark", "definition": f'start: "{t}"'}}}}])),
    "chat.functions.legacy": lambda t: (CHAT, _chat(functions=[{"name": "lookup", "description": t,
                                                                "parameters": _schema(t)}])),
    "chat.response_format.json_schema": lambda t: (CHAT, _chat(response_format={"type": "json_schema",
        "json_schema": {"name": "customer", "description": t, "schema": _schema(t), "strict": True}})),
    "chat.prediction.content": lambda t: (CHAT, _chat(prediction={"type": "content", "content": t})),
    "chat.prediction.parts": lambda t: (CHAT, _chat(prediction={"type": "content", "content": [
        {"type": "text", "text": t}]})),
    "chat.metadata": lambda t: (CHAT, _chat(metadata={"customer": t}, store=True)),
    "chat.user": lambda t: (CHAT, _chat(user=t)),
    "chat.safety_identifier": lambda t: (CHAT, _chat(safety_identifier=t)),
    "chat.prompt_cache_key": lambda t: (CHAT, _chat(prompt_cache_key=t)),
    "chat.stop.string": lambda t: (CHAT, _chat(stop=t)),
    "chat.stop.list": lambda t: (CHAT, _chat(stop=["\n\n", t])),
    "chat.web_search.user_location": lambda t: (CHAT, _chat(web_search_options={"user_location": {
        "type": "approximate", "approximate": {"city": t, "region": t}}})),
    # --- OpenAI Responses (response_create_params.py, response_input_item_param.py) ---
    "responses.input.string": lambda t: (RESPONSES, {"input": t}),
    "responses.instructions": lambda t: (RESPONSES, {"instructions": t, "input": "Hi."}),
    "responses.message.output_text": lambda t: (RESPONSES, _items({"type": "message", "role": "assistant",
        "content": [{"type": "output_text", "text": t, "annotations": []}]})),
    "responses.function_call.arguments": lambda t: (RESPONSES, _items({"type": "function_call", "call_id": "c1",
        "name": "lookup", "arguments": json.dumps({"q": {"deep": [t]}}, ensure_ascii=False)},
        {"type": "function_call_output", "call_id": "c1", "output": "ok"})),
    "responses.function_call_output.string": lambda t: (RESPONSES, _items({"type": "function_call", "call_id": "c1",
        "name": "lookup", "arguments": "{}"}, {"type": "function_call_output", "call_id": "c1", "output": t})),
    "responses.function_call_output.parts": lambda t: (RESPONSES, _items({"type": "function_call", "call_id": "c1",
        "name": "lookup", "arguments": "{}"}, {"type": "function_call_output", "call_id": "c1", "output": [
            {"type": "input_text", "text": t}]})),
    "responses.custom_tool_call_output": lambda t: (RESPONSES, _items({"type": "custom_tool_call", "call_id": "c1",
        "name": "grep", "input": t}, {"type": "custom_tool_call_output", "call_id": "c1", "output": t})),
    "responses.computer_call_output": lambda t: (RESPONSES, _items({"type": "computer_call_output", "call_id": "c1",
        "output": {"type": "computer_screenshot", "image_url": "https://shots.example.com/s.png?title=" + t},
        "acknowledged_safety_checks": [{"id": "sc1", "code": "pii", "message": t}]})),
    "responses.local_shell_call_output": lambda t: (RESPONSES, _items({"type": "local_shell_call", "id": "ls1",
        "call_id": "c1", "status": "completed", "action": {"type": "exec", "command": ["echo", t],
                                                            "env": {"CUSTOMER": t}}},
        {"type": "local_shell_call_output", "id": "c1", "output": t})),
    "responses.shell_call_output": lambda t: (RESPONSES, _items({"type": "shell_call_output", "call_id": "c1",
        "output": [{"stdout": t, "stderr": t, "outcome": {"type": "exit", "exit_code": 0}}]})),
    "responses.reasoning.summary": lambda t: (RESPONSES, _items({"type": "reasoning", "id": "rs_1", "summary": [
        {"type": "summary_text", "text": t}], "content": [{"type": "reasoning_text", "text": t}]})),
    "responses.mcp_call": lambda t: (RESPONSES, _items({"type": "mcp_call", "id": "mcp_1", "server_label": "crm",
        "name": "lookup", "arguments": json.dumps({"q": t}, ensure_ascii=False), "output": t})),
    "responses.mcp_approval_response": lambda t: (RESPONSES, _items({"type": "mcp_approval_response",
        "approval_request_id": "mcpr_1", "approve": False, "reason": t})),
    "responses.file_search_call.queries": lambda t: (RESPONSES, _items({"type": "file_search_call", "id": "fs_1",
        "status": "completed", "queries": [t]})),
    "responses.web_search_call.query": lambda t: (RESPONSES, _items({"type": "web_search_call", "id": "ws_1",
        "status": "completed", "action": {"type": "search", "query": t}})),
    "responses.code_interpreter_call.code": lambda t: (RESPONSES, _items({"type": "code_interpreter_call",
        "id": "ci_1", "container_id": "cntr_1", "status": "completed", "code": f"print({t!r})",
        "outputs": [{"type": "logs", "logs": t}]})),
    "responses.input_file.filename": lambda t: (RESPONSES, {"input": [{"role": "user", "content": [
        {"type": "input_file", "file_id": "file-1", "filename": t}]}]}),
    "responses.text.format_schema": lambda t: (RESPONSES, {"input": "Hi.", "text": {"format": {
        "type": "json_schema", "name": "customer", "description": t, "schema": _schema(t)}}}),
    "responses.tools.function": lambda t: (RESPONSES, {"input": "Hi.", "tools": [{"type": "function",
        "name": "lookup", "description": t, "parameters": _schema(t)}]}),
    "responses.tools.custom": lambda t: (RESPONSES, {"input": "Hi.", "tools": [{"type": "custom", "name": "grep",
        "description": t, "format": {"type": "grammar", "syntax": "regex", "definition": t}}]}),
    "responses.tools.mcp": lambda t: (RESPONSES, {"input": "Hi.", "tools": [{"type": "mcp", "server_label": "crm",
        "server_url": "https://mcp.example.com/", "server_description": t, "headers": {"X-Customer": t}}]}),
    "responses.prompt.variables": lambda t: (RESPONSES, {"prompt": {"id": "pmpt_1", "variables": {"customer": t}},
                                                         "input": "Hi."}),
    "responses.metadata": lambda t: (RESPONSES, {"input": "Hi.", "metadata": {"customer": t}}),
    "responses.user": lambda t: (RESPONSES, {"input": "Hi.", "user": t, "safety_identifier": t}),
    # --- Anthropic Messages ---
    "anthropic.system.string": lambda t: (ANTHROPIC, {**_hi(ANTHROPIC), "system": t}),
    "anthropic.document.text_source": lambda t: (ANTHROPIC, _anthropic({"type": "document", "source": {
        "type": "text", "media_type": "text/plain", "data": t}, "title": "crm.txt", "context": "export"})),
    "anthropic.document.content_source": lambda t: (ANTHROPIC, _anthropic({"type": "document", "source": {
        "type": "content", "content": [{"type": "text", "text": t}]}})),
    "anthropic.document.title_context": lambda t: (ANTHROPIC, _anthropic({"type": "document", "source": {
        "type": "url", "url": "https://docs.example.com/a.pdf"}, "title": t, "context": t})),
    "anthropic.search_result": lambda t: (ANTHROPIC, _anthropic({"type": "search_result", "source": "https://crm.example.com/p1",
        "title": t, "content": [{"type": "text", "text": t}], "citations": {"enabled": True}})),
    "anthropic.text.citations": lambda t: (ANTHROPIC, _anthropic({"type": "text", "text": "As the record says.",
        "citations": [{"type": "char_location", "cited_text": t, "document_index": 0, "document_title": t,
                       "start_char_index": 0, "end_char_index": 10}]}, role="assistant")),
    "anthropic.tool_use.input_deep": lambda t: (ANTHROPIC, {"max_tokens": 50, "messages": [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "lookup",
                                           "input": {"a": [{"b": {"c": [[t]]}}]}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}]}),
    "anthropic.tool_result.search_result": lambda t: (ANTHROPIC, _tool_use_then_result({"content": [
        {"type": "search_result", "source": "crm", "title": "P1", "content": [{"type": "text", "text": t}]}]})),
    "anthropic.tool_result.document": lambda t: (ANTHROPIC, _tool_use_then_result({"content": [
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": t}}]})),
    "anthropic.thinking": lambda t: (ANTHROPIC, _anthropic({"type": "thinking", "thinking": t, "signature": "sig"},
                                                           {"type": "text", "text": "Done."}, role="assistant")),
    "anthropic.server_tool_use": lambda t: (ANTHROPIC, _anthropic({"type": "server_tool_use", "id": "srvtoolu_1",
        "name": "web_search", "input": {"query": t}}, {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1",
        "content": [{"type": "web_search_result", "url": "https://x.example.com", "title": t,
                     "encrypted_content": "abc"}]}, role="assistant")),
    "anthropic.container_upload": lambda t: (ANTHROPIC, _anthropic({"type": "container_upload", "file_id": t})),
    "anthropic.tools.description_schema": lambda t: (ANTHROPIC, {**_hi(ANTHROPIC), "tools": [
        {"name": "lookup", "description": t, "input_schema": _schema(t)}]}),
    "anthropic.mcp_servers": lambda t: (ANTHROPIC, {**_hi(ANTHROPIC), "mcp_servers": [
        {"type": "url", "url": "https://mcp.example.com/", "name": t}]}),
    "anthropic.metadata.user_id": lambda t: (ANTHROPIC, {**_hi(ANTHROPIC), "metadata": {"user_id": t}}),
    "anthropic.stop_sequences": lambda t: (ANTHROPIC, {**_hi(ANTHROPIC), "stop_sequences": [t]}),
    # --- Gemini generateContent ---
    "gemini.text": lambda t: (GEMINI, _gemini({"text": t})),
    "gemini.systemInstruction": lambda t: (GEMINI, {**_gemini({"text": "Hi."}), "systemInstruction": {
        "parts": [{"text": t}]}}),
    "gemini.functionCall.args": lambda t: (GEMINI, {"contents": [
        {"role": "model", "parts": [{"functionCall": {"name": "lookup", "args": {"q": {"deep": [t]}}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "lookup", "response": {"ok": True}}}]}]}),
    "gemini.functionResponse.response": lambda t: (GEMINI, {"contents": [
        {"role": "model", "parts": [{"functionCall": {"name": "lookup", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "lookup", "response": {
            "result": {"rows": [{"customer": t}]}}}}]}]}),
    "gemini.executableCode": lambda t: (GEMINI, {"contents": [{"role": "model", "parts": [
        {"executableCode": {"language": "PYTHON", "code": f"print({t!r})"}},
        {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": t}}]},
        {"role": "user", "parts": [{"text": "ok"}]}]}),
    "gemini.fileData.uri": lambda t: (GEMINI, _gemini({"fileData": {"mimeType": "text/plain",
                                                                    "fileUri": "gs://crm/" + t}})),
    "gemini.cachedContent": lambda t: (GEMINI, {**_gemini({"text": "Hi."}), "cachedContent": "cachedContents/" + t}),
    "gemini.tools.functionDeclarations": lambda t: (GEMINI, {**_gemini({"text": "Hi."}), "tools": [
        {"functionDeclarations": [{"name": "lookup", "description": t, "parameters": _schema(t)}]}]}),
    "gemini.generationConfig": lambda t: (GEMINI, {**_gemini({"text": "Hi."}), "generationConfig": {
        "stopSequences": [t], "responseMimeType": "application/json", "responseSchema": _schema(t)}}),
    "gemini.labels": lambda t: (GEMINI, {**_gemini({"text": "Hi."}), "labels": {"customer": t}}),
    # --- Bedrock Converse ---
    "bedrock.text": lambda t: (BEDROCK, _bedrock({"text": t})),
    "bedrock.system": lambda t: (BEDROCK, {**_bedrock({"text": "Hi."}), "system": [{"text": t}]}),
    "bedrock.document.name_and_text": lambda t: (BEDROCK, _bedrock({"document": {"format": "txt", "name": t,
                                                                                   "source": {"text": t}}})),
    "bedrock.document.content": lambda t: (BEDROCK, _bedrock({"document": {"format": "txt", "name": "crm",
                                                                            "source": {"content": [{"text": t}]}}})),
    "bedrock.toolUse.input": lambda t: (BEDROCK, {"messages": [
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "lookup", "input": {"q": [t]}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "ok"}]}}]}]}),
    "bedrock.toolResult.json": lambda t: (BEDROCK, {"messages": [
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "lookup", "input": {}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [
            {"json": {"rows": [{"customer": t}]}}]}}]}]}),
    "bedrock.guardContent": lambda t: (BEDROCK, _bedrock({"guardContent": {"text": {"text": t}}})),
    "bedrock.reasoningContent": lambda t: (BEDROCK, {"messages": [{"role": "assistant", "content": [
        {"reasoningContent": {"reasoningText": {"text": t, "signature": "sig"}}}]},
        {"role": "user", "content": [{"text": "Go on."}]}]}),
    "bedrock.toolConfig": lambda t: (BEDROCK, {**_bedrock({"text": "Hi."}), "toolConfig": {"tools": [{"toolSpec": {
        "name": "lookup", "description": t, "inputSchema": {"json": _schema(t)}}}]}}),
    "bedrock.requestMetadata": lambda t: (BEDROCK, {**_bedrock({"text": "Hi."}), "requestMetadata": {"customer": t},
                                                    "promptVariables": {"customer": {"text": t}}}),
    "bedrock.inferenceConfig.stop": lambda t: (BEDROCK, {**_bedrock({"text": "Hi."}),
                                                         "inferenceConfig": {"stopSequences": [t]}}),
    # --- Ollama /api/chat (on the generic route) ---
    "ollama.messages": lambda t: (OLLAMA, {"messages": [{"role": "system", "content": t},
                                                        {"role": "user", "content": t}]}),
    "ollama.tool_calls": lambda t: (OLLAMA, {"messages": [
        {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "lookup", "arguments": {"q": t}}}]},
        {"role": "tool", "tool_name": "lookup", "content": t}]}),
    "ollama.tools_format": lambda t: (OLLAMA, {"messages": [{"role": "user", "content": "Hi."}], "tools": [
        {"type": "function", "function": {"name": "lookup", "description": t, "parameters": _schema(t)}}],
        "format": _schema(t), "options": {"stop": [t]}}),
    "ollama.thinking": lambda t: (OLLAMA, {"messages": [{"role": "assistant", "content": "ok", "thinking": t},
                                                        {"role": "user", "content": "Go on."}]}),
    # --- legacy completions, embeddings, moderations ---
    "completions.prompt_suffix": lambda t: ("/v1/completions", {"prompt": "def f():", "suffix": t, "stop": [t],
                                                               "user": t}),
    "embeddings.input.string": lambda t: ("/v1/embeddings", {"input": t}),
    "embeddings.input.list": lambda t: ("/v1/embeddings", {"input": ["first", t]}),
    "moderations.input.parts": lambda t: ("/v1/moderations", {"input": [{"type": "text", "text": t}]}),
}


# --- every position, redact and block, streamed too -------------------------------------------------------------

def _streamed(path: str, body: dict) -> tuple[str, dict] | None:
    """The same request asking for a streamed answer, where its API streams: in the body, or Gemini's path."""
    if path == GEMINI:
        return path.replace(":generateContent", ":streamGenerateContent"), body
    if path in (CHAT, RESPONSES, ANTHROPIC, "/v1/completions"):
        return path, {**body, "stream": True}
    return None


CELLS = [(name, False) for name in POSITIONS] + \
    [(name, True) for name, make in POSITIONS.items() if _streamed(*make("x")) is not None]


def _post(proxy, episode: str, path: str, body: dict):
    """(answer, what the stand-in received, the store's row) of one request to `path`."""
    return exchange(proxy, episode, body, path)


def position_outcome(proxy, name: str, stream: bool) -> str:
    """"held" where the guard finds every unit in the position and forwards none (redact: placeholders, nothing of a
    value in what was sent or stored; block: a 403 and nothing sent), else what went wrong."""
    mode = proxy[0]
    path, body = POSITIONS[name](TEXT)
    if stream:
        path, body = _streamed(path, body) or (path, body)
    answer, sent, record = _post(proxy, f"pos-{name}-{stream}".replace(".", "_"), path, body)
    missed = sorted(u.rsplit("/", 1)[1] for u in UNIT_IDS - {f["unit_id"] for f in record.findings})
    if mode == "block":
        ok = answer.status_code == 403 and sent == [] and not missed
        return "held" if ok else f"{answer.status_code} missed {missed}"
    out = leaked(sent[0]) if sent else ["(nothing forwarded)"]
    stored = leaked({"body": [record.request, record.headers], "header_list": [], "query": record.path})
    ok = answer.status_code == 200 and not out and not stored and not missed and record.redactions >= 1
    return "held" if ok else f"{answer.status_code} leaked {out} stored {stored} missed {missed}"


@pytest.mark.parametrize("api", sorted({name.split(".")[0] for name in POSITIONS}))
def test_every_position_of_the_request_schema_holds(proxy, api):
    outcomes = {cell: position_outcome(proxy, *cell) for cell in CELLS if cell[0].split(".")[0] == api}
    assert {cell: o for cell, o in outcomes.items() if o != "held"} == {}


@pytest.mark.parametrize("api", sorted({name.split(".")[0] for name in POSITIONS}))
def test_near_misses_in_every_position_go_out_untouched(proxy, api):
    """The record's near misses (a digit off, another domain) in each position: forwarded as sent in both modes."""
    broken = {}
    for name in (n for n in POSITIONS if n.split(".")[0] == api):
        path, body = POSITIONS[name](_line(NEAR))
        answer, sent, record = _post(proxy, f"near-{name}".replace(".", "_"), path, body)
        strong = [f["matched_text"] for f in record.findings if f["grade"] >= 0.75]
        same = bool(sent) and set(json_strings(body)) <= set(json_strings(sent[0]["body"]))
        if not (answer.status_code == 200 and same and record.redactions == 0 and not strong):
            broken[name] = (answer.status_code, record.redactions, strong)
    assert broken == {}


# --- a value cut across the parts of a list the model reads as one text -----------------------------------------

def _split(record: dict) -> list[str]:
    """Parts cut inside every value: run together they read as the record."""
    parts, head = [], ""
    for k, v in record.items():
        parts.append(f"{head}{k}: {v[:len(v) // 2]}")
        head = v[len(v) // 2:] + "; "
    return [*parts, head.removesuffix("; ")]


def _typed(kind: str, parts: list[str]) -> list[dict]:
    return [{"type": kind, "text": p} for p in parts]


def _untyped(parts: list[str]) -> list[dict]:
    return [{"text": p} for p in parts]


#: name → (path, body) with the parts as one list: Gemini's and Bedrock's untyped text parts outside a message
#: list, Anthropic's content lists outside a message, Responses' reasoning summary and content.
PART_LISTS = {
    "gemini.systemInstruction.parts": lambda ps: (GEMINI, {**_gemini({"text": "Hi."}), "systemInstruction": {
        "parts": _untyped(ps)}}),
    "gemini.user.parts": lambda ps: (GEMINI, {"contents": [{"role": "user", "parts": _untyped(ps)}]}),
    "bedrock.system": lambda ps: (BEDROCK, {**_bedrock({"text": "Hi."}), "system": _untyped(ps)}),
    "bedrock.user": lambda ps: (BEDROCK, _bedrock(*_untyped(ps))),
    "bedrock.toolResult.content": lambda ps: (BEDROCK, {"messages": [
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "lookup", "input": {}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": _untyped(ps)}}]}]}),
    "bedrock.document.content": lambda ps: (BEDROCK, _bedrock({"document": {"format": "txt", "name": "crm",
                                                                             "source": {"content": _untyped(ps)}}})),
    "anthropic.document.content": lambda ps: (ANTHROPIC, _anthropic({"type": "document", "source": {
        "type": "content", "content": _typed("text", ps)}})),
    "anthropic.search_result": lambda ps: (ANTHROPIC, _anthropic({"type": "search_result", "source": "crm",
                                                                  "title": "P1", "content": _typed("text", ps)})),
    "anthropic.system.blocks": lambda ps: (ANTHROPIC, {**_hi(ANTHROPIC), "system": _typed("text", ps)}),
    "chat.prediction.parts": lambda ps: (CHAT, _chat(prediction={"type": "content", "content": _typed("text", ps)})),
    "responses.reasoning.summary": lambda ps: (RESPONSES, _items({"type": "reasoning", "id": "rs_1",
                                                                  "summary": _typed("summary_text", ps)})),
    "responses.reasoning.content": lambda ps: (RESPONSES, _items({"type": "reasoning", "id": "rs_1", "summary": [],
                                                                  "content": _typed("reasoning_text", ps)})),
    "moderations.input.parts": lambda ps: ("/v1/moderations", {"input": _typed("text", ps)}),
}
#: Lists whose items are texts apart, each read alone: a batch of embeddings inputs or of legacy prompts, stop
#: sequences, citations' quotes. A value cut across two of them is in no text the model reads.
APART_LISTS = {
    "embeddings.input.list": lambda ps: ("/v1/embeddings", {"input": ps}),
    "completions.prompt.batch": lambda ps: ("/v1/completions", {"prompt": ps}),
    "gemini.stopSequences": lambda ps: (GEMINI, {**_gemini({"text": "Hi."}), "generationConfig": {
        "stopSequences": ps}}),
    "anthropic.citations": lambda ps: (ANTHROPIC, _anthropic({"type": "text", "text": "As cited.", "citations": [
        {"type": "char_location", "cited_text": p, "document_index": 0, "start_char_index": 0, "end_char_index": 1}
        for p in ps]}, role="assistant")),
}


def list_outcome(proxy, name: str) -> str:
    """"held" where a value cut across a list's parts is found and, judged on all the strings sent run together,
    none reaches the upstream even read across parts (block: a 403, nothing sent), else what went wrong."""
    path, body = PART_LISTS[name](_split(RECORD))
    answer, sent, record = _post(proxy, f"split-{name}".replace(".", "_"), path, body)
    missed = sorted(u.rsplit("/", 1)[1] for u in UNIT_IDS - {f["unit_id"] for f in record.findings})
    if proxy[0] == "block":
        ok = answer.status_code == 403 and sent == [] and not missed
        return "held" if ok else f"{answer.status_code} missed {missed}"
    together = _canonical("".join(json_strings(sent[0]["body"]))) if sent else ""
    out = [k for k, v in RECORD.items() if _canonical(v) in together] + (leaked(sent[0]) if sent else ["(nothing)"])
    ok = answer.status_code == 200 and not out and not missed
    return "held" if ok else f"{answer.status_code} leaked {sorted(set(out))} missed {missed}"


@pytest.mark.parametrize("name", sorted(PART_LISTS))
def test_a_value_cut_across_the_parts_of_a_list_is_caught(proxy, name):
    assert list_outcome(proxy, name) == "held"


@pytest.mark.parametrize("name", sorted(PART_LISTS) + sorted(APART_LISTS))
def test_near_misses_cut_across_parts_and_items_read_apart_go_out_untouched(proxy, name):
    """The near-miss record cut across one list's parts (read as one: no unit), and in a list whose items are read
    apart, `1392288` ending one item and `3366` starting the next: two numbers, not the phone."""
    make = {**PART_LISTS, **APART_LISTS}[name]
    path, body = make(["order 1392288", "3366 units shipped"] if name in APART_LISTS else _split(NEAR))
    answer, sent, record = _post(proxy, f"apart-{name}".replace(".", "_"), path, body)
    strong = [f["matched_text"] for f in record.findings if f["grade"] >= 0.75]
    assert answer.status_code == 200 and record.redactions == 0 and strong == []
    assert set(json_strings(body)) <= set(json_strings(sent[0]["body"]))

# --- a form the positions walk met: zero-width spaces written as escapes ----------------------------------------

def _zero_width_repr(record: dict) -> str:
    """Python's repr of values with a zero-width space between every character (`1\\u200b3\\u200b9…`), as code a
    model ran, or a log of it, prints them."""
    return f"print({_line({k: chr(0x200B).join(v) for k, v in record.items()})!r})"


ZERO_WIDTH_PLACES = ["chat.system", "responses.code_interpreter_call.code", "gemini.executableCode",
                     "anthropic.tool_use.input_deep"]


def zero_width_outcome(proxy, name: str) -> str:
    """"held" where the record written with zero-width escapes holds in the position (walk 1's `assert_held`)."""
    path, body = POSITIONS[name](_zero_width_repr(RECORD))
    try:
        assert_held(proxy, f"zw-{name}".replace(".", "_"), path, UNIT_IDS, leaked, json={"model": "echo", **body})
    except AssertionError as exc:
        return f"not held: {str(exc)[:200]}"
    return "held"


@pytest.mark.parametrize("name", ZERO_WIDTH_PLACES)
def test_zero_width_spaces_written_as_escapes_hold(proxy, name):
    assert zero_width_outcome(proxy, name) == "held"


def test_zero_width_escapes_around_near_misses_go_out_untouched(proxy):
    path, body = POSITIONS["chat.system"](_zero_width_repr(NEAR))
    answer, sent, record = _post(proxy, "zw-near", path, body)
    assert answer.status_code == 200 and record.redactions == 0
    assert [f for f in record.findings if f["grade"] >= 0.75] == []


# --- parts the guard cannot read as text ----------------------------------------------------------------------

def pdf(lines: list[str], compress: bool = True) -> bytes:
    """A one-page PDF as a writer makes one: Helvetica in WinAnsi, the page's text in a content stream (deflated,
    as every PDF library writes it, or not)."""
    shown = "".join("(" + line.encode("cp1252").replace(b"\\", b"\\\\").replace(b"(", b"\\(")
                    .replace(b")", b"\\)").decode("latin-1") + ") Tj T*\n" for line in lines)
    stream = f"BT /F1 11 Tf 72 760 Td 14 TL\n{shown}ET".encode("latin-1")
    data = zlib.compress(stream) if compress else stream
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
               b"/Contents 5 0 R >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
               b"<< /Length %d%s >>\nstream\n" % (len(data), b" /Filter /FlateDecode" if compress else b"")
               + data + b"\nendstream"]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    table = b"".join(b"%010d 00000 n \n" % at for at in offsets)
    return out + b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1) + table + \
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, len(out))


#: A PDF's text holds the record but the Chinese name (a standard font's WinAnsi has no CJK).
IN_PDF = {k: v for k, v in RECORD.items() if k != "name"}
PDF_UNITS = {u for u in UNIT_IDS if not u.endswith("/name")}
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(64)
WAV = b"RIFF" + (100).to_bytes(4, "little") + b"WAVEfmt " + bytes(64)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


#: name → (path, body) of a request carrying a file (`data`, of `media_type`) where each API takes one.
def _file_positions(data: bytes, media_type: str) -> dict[str, tuple[str, dict]]:
    url, blob = f"data:{media_type};base64,{_b64(data)}", _b64(data)
    image = media_type.startswith("image/")
    return {
        "chat.file.file_data": (CHAT, _chat_user({"type": "file", "file": {"filename": "a", "file_data": url}})),
        "chat.image_url_or_input_audio": (CHAT, _chat_user(  # (a PDF as an image URL: gateways take one)
            {"type": "input_audio", "input_audio": {"data": blob, "format": "wav"}} if media_type.startswith("audio/")
            else {"type": "image_url", "image_url": {"url": url}})),
        "responses.input_file": (RESPONSES, {"input": [{"role": "user", "content": [
            {"type": "input_file", "filename": "a", "file_data": url}, {"type": "input_text", "text": "Read it."}]}]}),
        "responses.function_call_output.file": (RESPONSES, _items(
            {"type": "function_call", "call_id": "c1", "name": "fetch", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": [
                {"type": "input_image", "image_url": url} if image else
                {"type": "input_file", "filename": "a", "file_data": url}]})),
        "anthropic.source": (ANTHROPIC, _anthropic({"type": "image" if image else "document", "source": {
            "type": "base64", "media_type": media_type, "data": blob}})),
        "anthropic.tool_result.source": (ANTHROPIC, _tool_use_then_result({"content": [{
            "type": "image" if image else "document", "source": {"type": "base64", "media_type": media_type,
                                                                  "data": blob}}]})),
        "gemini.inlineData": (GEMINI, _gemini({"inlineData": {"mimeType": media_type, "data": blob}},
                                              {"text": "Read it."})),
        "bedrock.bytes": (BEDROCK, _bedrock({"image": {"format": "png", "source": {"bytes": blob}}} if image else
                                            {"document": {"format": "pdf", "name": "a", "source": {"bytes": blob}}})),
        "ollama.images": (OLLAMA, {"messages": [{"role": "user", "content": "Read it.", "images": [blob]}]}),
    }


FILE_PLACES = sorted(_file_positions(b"", "application/pdf"))


def pdf_outcome(proxy, place: str, compress: bool, stream: bool) -> str:
    """"held" where a PDF holding the record is read and the request refused in either mode (redact cannot put a
    placeholder into a PDF's bytes): a 403 naming the units, not their values, and nothing sent."""
    path, body = _file_positions(pdf([f"{k}: {v}" for k, v in IN_PDF.items()], compress), "application/pdf")[place]
    answer, sent, record = _post(proxy, f"pdf-{place}-{compress}-{stream}".replace(".", "_"), path,
                                 {**body, **({"stream": True} if stream else {})})
    inside = {f["unit_id"] for f in (record.findings or []) if f["path"].startswith("pdf:/")}
    said = "blocked by ec2audit" in answer.text and "lena.hartmann" not in answer.text and \
        (proxy[0] == "block" or "cannot rewrite" in answer.text and record.redactions == 0)
    ok = answer.status_code == 403 and sent == [] and inside == PDF_UNITS and said
    return "held" if ok else f"{answer.status_code} sent {len(sent)} missed {sorted(PDF_UNITS - inside)}"


PDF_CELLS = [(place, compress, stream) for place in FILE_PLACES for compress in (True, False)
             for stream in (False, True)]


@pytest.mark.parametrize("compress", [True, False], ids=["deflated", "plain"])
@pytest.mark.parametrize("place", FILE_PLACES)
def test_a_value_in_a_pdf_part_is_found_and_the_request_refused(proxy, place, compress):
    assert {stream: pdf_outcome(proxy, place, compress, stream) for stream in (False, True)} == \
        {False: "held", True: "held"}


@pytest.mark.parametrize("place", FILE_PLACES)
def test_a_pdf_without_units_and_images_and_audio_go_out_named_as_unread(proxy, place):
    """A PDF of near misses is read and forwarded as sent; an image and a sound are forwarded as sent (the default
    policy), each named on the record as a part no detector read inside, with the type its bytes show (whatever
    the field declares: a sound in an image field is a sound)."""
    pdf_path, pdf_body = _file_positions(pdf([f"{k}: {v}" for k, v in NEAR.items() if k != "name"]),
                                         "application/pdf")[place]
    answer, sent, record = _post(proxy, f"near-pdf-{place}".replace(".", "_"), pdf_path, pdf_body)
    assert (answer.status_code, record.redactions, record.unread) == (200, 0, None)
    assert set(json_strings(pdf_body)) <= set(json_strings(sent[0]["body"]))
    for media_type, data in (("image/png", PNG), ("audio/wav", WAV)):
        path, body = _file_positions(data, media_type)[place]
        answer, sent, record = _post(proxy, f"unread-{place}-{media_type}".replace(".", "_").replace("/", "_"),
                                     path, body)
        assert answer.status_code == 200 and set(json_strings(body)) <= set(json_strings(sent[0]["body"]))
        assert [(u["media_type"], u["bytes"]) for u in record.unread] == [(media_type, len(data))]  # by its bytes
        assert record.unread[0]["path"].startswith(("/messages/", "/input/", "/contents/"))


@pytest.mark.parametrize("place", FILE_PLACES)
def test_a_text_file_in_every_file_place_holds(proxy, place):
    """A text file (no signature: its base64 decodes to text, read as the earlier walks read it) where each API takes
    a file; redact replaces the values inside the re-encoded base64."""
    path, body = _file_positions(TEXT.encode(), "text/plain")[place]
    assert_held(proxy, f"textfile-{place}".replace(".", "_"), path, UNIT_IDS, leaked, json={"model": "echo", **body})


def test_a_file_in_url_safe_base64_is_known_and_read(proxy):
    """Protobuf's JSON (Gemini's `inlineData`) takes base64's URL-safe alphabet too: a JPEG whose base64 starts `_9j_`
    is an unread image, a PDF in it is read."""
    jpeg = b"\xff\xd8\xff\xe0" + bytes(range(256))
    answer, sent, record = _post(proxy, "urlsafe-jpeg", GEMINI, _gemini(
        {"inlineData": {"mimeType": "image/jpeg", "data": base64.urlsafe_b64encode(jpeg).decode()}}))
    assert answer.status_code == 200 and [u["media_type"] for u in record.unread] == ["image/jpeg"]
    document = pdf([f"{k}: {v}" for k, v in IN_PDF.items()])
    answer, sent, record = _post(proxy, "urlsafe-pdf", GEMINI, _gemini(
        {"inlineData": {"mimeType": "application/pdf", "data": base64.urlsafe_b64encode(document).decode()}}))
    assert answer.status_code == 403 and sent == []
    assert {f["unit_id"] for f in record.findings if f["path"].startswith("pdf:")} == PDF_UNITS


def test_a_damaged_pdf_is_named_unread_not_dropped(proxy):
    path, body = _file_positions(b"%PDF-1.7\n" + bytes(range(256)) * 4, "application/pdf")["chat.file.file_data"]
    answer, sent, record = _post(proxy, "damaged-pdf", path, body)
    assert answer.status_code == 200 and len(sent) == 1
    assert [u["media_type"] for u in record.unread] == ["application/pdf"]


@pytest.mark.parametrize("mode", ["block", "redact"])
def test_refuse_unread_refuses_images_and_audio_and_passes_the_rest(standin, tmp_path, mode):
    """`--refuse-unread`: a request carrying a file no detector reads is refused with a 403 that names the part; a
    request without one, and a PDF without units, go on."""
    app, upstream = standin
    with enforcing_client(upstream, tmp_path, UNITS, mode, refuse_unread=True) as (client, store):
        for media_type, data in (("image/png", PNG), ("audio/wav", WAV)):
            path, body = _file_positions(data, media_type)["chat.image_url_or_input_audio"]
            seen = len(app.state.requests)
            answer = client.post(f"/e/refuse-{media_type.replace('/', '_')}{path}", json={"model": "echo", **body})
            assert answer.status_code == 403 and app.state.requests[seen:] == []
            assert "cannot read" in answer.text and media_type in answer.text
        path, body = _file_positions(pdf(["order 1392288"]), "application/pdf")["chat.file.file_data"]
        for episode, request in (("plain", _hi(CHAT)), ("pdf", body)):
            answer = client.post(f"/e/refuse-{episode}{CHAT}", json={"model": "echo", **request})
            assert answer.status_code == 200
        records = {r.episode: r for r in store.records()}
        assert records["refuse-image_png"].unread[0]["media_type"] == "image/png"
        assert records["refuse-plain"].unread is None


def test_serve_refuse_unread_flag(standin, tmp_path):
    """`ec2audit intercept serve --enforce block --refuse-unread`, as a user starts it: an image is refused."""
    app, upstream = standin
    write_units(UNITS, tmp_path / "units.jsonl")
    proc, url = serve_cli(upstream + "/v1", tmp_path / "s.sqlite", tmp_path / "log", "sk-test", "--units",
                          str(tmp_path / "units.jsonl"), "--enforce", "block", "--refuse-unread")
    try:
        path, body = _file_positions(PNG, "image/png")["anthropic.source"]
        seen = len(app.state.requests)
        answer = httpx.post(f"{url}/e/cli{path}", json={"model": "echo", **body}, timeout=30)
        assert answer.status_code == 403 and "image/png at /messages/0/content/0/source/data" in answer.text
        assert app.state.requests[seen:] == []
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_intercept_audit_says_which_files_no_detector_read(standin, tmp_path):
    """`intercept audit` over a store whose requests carried an image and a sound (an observing proxy: its audit
    beside the upstream call names them too): one line on stderr counts them by type, so a clean score is not read as
    "nothing was sent"."""
    app, upstream = standin
    with enforcing_client(upstream, tmp_path, UNITS, "observe") as (client, store):
        for media_type, data in (("image/png", PNG), ("audio/wav", WAV), ("image/png", PNG)):
            path, body = _file_positions(data, media_type)["chat.image_url_or_input_audio"]
            assert client.post(f"/e/files{path}", json={"model": "echo", **body}).status_code == 200
        client.post(f"/e/files{CHAT}", json={"model": "echo", **_hi(CHAT)})
    write_units(UNITS, tmp_path / "units.jsonl")
    result = CliRunner().invoke(main, ["intercept", "audit", str(tmp_path / "s.sqlite"), "--units",
                                       str(tmp_path / "units.jsonl")])
    assert result.exit_code == 0, result.output
    assert "3 files sent that the proxy could not read inside (audio/wav ×1, image/png ×2)" in result.stderr


#: The walk's cells by group, and each cell's outcome (`benchmarks/guard_forms_matrix.py --walk 7` counts them).
GROUPS = {"positions": (CELLS, position_outcome), "lists read as one": ([(n,) for n in PART_LISTS], list_outcome),
          "zero-width escapes": ([(n,) for n in ZERO_WIDTH_PLACES], zero_width_outcome),
          "pdf parts": (PDF_CELLS, pdf_outcome)}
