"""Coverage of OpenTelemetry input (issue 36 §3): `audit` says how many model-call spans it read, how
many carried prompt content and how many none, in the terminal, in --json and in `report`'s HTML, and
never says "no leak" over spans that carried nothing. The file mixes spans as one agent's trace does:
an agent span and a tool span (no model calls), a cloud chat span with content, two with content
capture off, and an edge chat span (Ollama on localhost) with content."""

import json
from pathlib import Path

from click.testing import CliRunner

from ec2audit.cli import main

UNITS = Path(__file__).parent / "data" / "logs" / "units.jsonl"
START = 1793800000 * 10**9


def _value(v) -> dict:
    return {"intValue": str(v)} if isinstance(v, int) else {"stringValue": v}


def _span(span_id: str, second: int, name: str, attrs: dict) -> dict:
    start = START + second * 10**9
    return {"traceId": "7" * 32, "spanId": span_id, "name": name, "kind": 3, "startTimeUnixNano": str(start),
            "endTimeUnixNano": str(start + 10**9), "events": [], "status": {},
            "attributes": [{"key": k, "value": _value(v)} for k, v in attrs.items()]}


def _chat(span_id: str, second: int, model: str, text: str | None, conversation: str, **extra) -> dict:
    attrs = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": model,
             "gen_ai.conversation.id": conversation, **extra}
    if text is not None:  # content capture on: the messages are an attribute
        attrs["gen_ai.input.messages"] = json.dumps([{"role": "user", "parts": [{"type": "text", "content": text}]}])
    return _span(span_id, second, f"chat {model}", attrs)


def _trace(path: Path, cloud_text: str, conversation: str = "conv-1") -> Path:
    spans = [
        _span("a0", 0, "invoke_agent CRM", {"gen_ai.operation.name": "invoke_agent",
                                            "gen_ai.conversation.id": conversation}),
        _chat("a1", 1, "gpt-5.4", cloud_text, conversation),
        _span("a2", 2, "execute_tool lookup", {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup"}),
        _chat("a3", 3, "gpt-5.4", None, conversation),
        _chat("a4", 4, "qwen2.5:7b", "Call Marguerite Lindqvist at +1 415-555-0142.", conversation,
              **{"gen_ai.provider.name": "ollama", "server.address": "localhost", "server.port": 11434}),
        _chat("a5", 5, "gpt-5.4", None, conversation),
    ]
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [
        {"scope": {"name": "opentelemetry.instrumentation.openai_v2"}, "spans": spans}]}]}))
    return path


def _run(*args) -> str:
    result = CliRunner().invoke(main, [*map(str, args)], env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    return result.output


def test_clean_audit_counts_spans_and_says_no_leak_only_over_those_with_content(tmp_path):
    trace = _trace(tmp_path / "traces.json", "Summarise the quarterly plan in three bullets.")
    output = _run("audit", trace, "--units", UNITS)
    # by hand: 6 spans, 4 model calls (a1, a3, a4, a5); a1 and a4 carry messages, a3 and a5 none;
    # a4 runs on localhost (edge), so 3 cloud calls of which 1 had content
    assert ("otel-genai: 4 model-call spans read, 2 carried prompt content, 2 carried none (content capture off? "
            "It is off by default in the OpenTelemetry GenAI conventions)") in output
    assert ("no leak found in the 1 cloud span with content; 2 spans carried no content (content capture off?)"
            in output)
    assert "no sensitive unit reached a cloud call" not in output

    summary = json.loads(_run("audit", trace, "--units", UNITS, "--json"))
    assert summary["coverage"] == [{"format": "otel-genai", "record": "span", "read": 4, "with_content": 2,
                                    "without_content": 2, "logged_again": 0, "reused_ids": 0, "cache_hits": 0,
                                    "blocked": 0}]
    assert (summary["cloud_calls"], summary["cloud_calls_without_content"], summary["leaked"]) == (3, 2, [])
    assert [(s["session"], s["calls"], s["calls_without_content"]) for s in summary["sessions"]] == [("conv-1", 4, 2)]


def test_all_cloud_spans_empty_is_no_claim_at_all(tmp_path):
    trace = _trace(tmp_path / "traces.json", "")  # the one cloud span with messages holds an empty text
    output = _run("audit", trace, "--units", UNITS)
    assert "no leak can be looked for: none of the 3 cloud spans carried prompt content" in output
    assert "no leak found" not in output


def test_leaks_keep_the_coverage_line_and_the_report_carries_it(tmp_path):
    trace = _trace(tmp_path / "traces.json", "Email Marguerite Lindqvist about her type 2 diabetes results.")
    out = tmp_path / "findings.parquet"
    output = _run("audit", trace, "--units", UNITS, "--out", out)
    assert "otel-genai: 4 model-call spans read, 2 carried prompt content, 2 carried none" in output
    assert "no leak found" not in output and "diabetes" not in output  # leaks shown, masked

    note = ("findings.parquet: 2 of 4 calls read carried no prompt content (OpenTelemetry spans with content "
            "capture off?): no leak can be seen in them; the findings are over the other 2")
    report = json.loads(_run("report", out, "--out", tmp_path / "report.html", "--json"))
    assert note in report["notes"]
    (episode,) = report["tasks"]["acme-billing"]  # the task of the units its findings are of
    assert (episode["calls"], episode["calls_without_content"], len(episode["leaks"])) == (4, 2, 2)
    html = (tmp_path / "report.html").read_text()
    assert note in html.replace("&#x27;", "'")
    assert "2 of 4 calls without prompt content" in html


def _console_run(path: Path) -> Path:
    """What the SDK's console exporters print for one chat call of an instrumentation that captures
    content as log events (opentelemetry-instrumentation-openai-v2 with
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true): the records before their span, one stream."""
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import ConsoleLogRecordExporter, SimpleLogRecordProcessor
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor

    with path.open("w") as out:
        tracer_provider, logger_provider = TracerProvider(), LoggerProvider()
        tracer_provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=out)))
        logger_provider.add_log_record_processor(SimpleLogRecordProcessor(ConsoleLogRecordExporter(out=out)))
        scope = "opentelemetry.instrumentation.openai_v2"
        logger = logger_provider.get_logger(scope)
        with tracer_provider.get_tracer(scope).start_as_current_span("chat gpt-4o", attributes={
                "gen_ai.operation.name": "chat", "gen_ai.system": "openai", "gen_ai.request.model": "gpt-4o",
                "gen_ai.usage.input_tokens": 41, "gen_ai.usage.output_tokens": 7}):
            for event, body in [
                    ("gen_ai.system.message", {"content": "You are a billing assistant."}),
                    ("gen_ai.user.message", {"content": "Why was card 4539 1488 0343 6467 declined?"}),
                    ("gen_ai.assistant.message", {"tool_calls": [{"id": "c1", "type": "function", "function": {
                        "name": "lookup", "arguments": '{"customer": "Marguerite Lindqvist"}'}}]}),
                    ("gen_ai.tool.message", {"content": "phone +1 415-555-0142", "id": "c1"})]:
                logger.emit(event_name=event, body=body, attributes={"gen_ai.system": "openai"})
        tracer_provider.shutdown()
        logger_provider.shutdown()
    return path


def test_content_captured_as_log_events_is_read_with_its_span(tmp_path):
    run = _console_run(tmp_path / "run.log")
    summary = json.loads(_run("audit", run, "--units", UNITS, "--json"))
    # by hand: one chat span; its four log records carry the card (user), the name (a tool call's
    # arguments) and the phone (the tool's result): 3 of the 5 units, sent in call 1
    assert summary["coverage"] == [{"format": "otel-genai", "record": "span", "read": 1, "with_content": 1,
                                    "without_content": 0, "logged_again": 0, "reused_ids": 0, "cache_hits": 0,
                                    "blocked": 0}]
    assert sorted((u["unit_id"], u["origin"]) for u in summary["leaked"]) == [
        ("acme-billing/P-001/card", "user"), ("acme-billing/P-001/name", "tool_call_args"),
        ("acme-billing/P-001/phone", "tool_result")]


def _otlp(kind: str, items: list[dict]) -> str:
    scope = {"scope": {"name": "opentelemetry.instrumentation.openai_v2"}}
    if kind == "spans":
        return json.dumps({"resourceSpans": [{"resource": {}, "scopeSpans": [{**scope, "spans": items}]}]})
    return json.dumps({"resourceLogs": [{"resource": {}, "scopeLogs": [{**scope, "logRecords": items}]}]})


def test_collector_file_with_both_signals_and_a_logs_only_file(tmp_path):
    """The collector's file exporter in the traces and the logs pipelines: one OTLP JSON line per
    batch of either signal, the records' bodies as OTLP values, ids in hex."""
    record = {"timeUnixNano": str(START), "eventName": "gen_ai.user.message", "traceId": "7" * 32, "spanId": "a1",
              "attributes": [{"key": "gen_ai.system", "value": {"stringValue": "openai"}}],
              "body": {"kvlistValue": {"values": [{"key": "content", "value": {
                  "stringValue": "Refund to 4539 1488 0343 6467 please"}}]}}}
    both = tmp_path / "both" / "otel.jsonl"
    both.parent.mkdir()
    both.write_text(_otlp("logs", [record]) + "\n" + _otlp("spans", [_chat("a1", 1, "gpt-5.4", None, "c")]) + "\n")
    summary = json.loads(_run("audit", both, "--units", UNITS, "--json"))
    assert summary["coverage"][0]["with_content"] == 1
    assert [u["unit_id"] for u in summary["leaked"]] == ["acme-billing/P-001/card"]

    logs_only = tmp_path / "logs.jsonl"
    logs_only.write_text(_otlp("logs", [record, {**record, "eventName": "gen_ai.choice"}]) + "\n")
    result = CliRunner().invoke(main, ["audit", str(logs_only), "--units", str(UNITS)])
    assert result.exit_code == 1
    assert (f"{logs_only}: 2 GenAI log records (gen_ai.choice, gen_ai.user.message) belong to no span in "
            f"this file, not read") in result.output

    # an agent's span (no model call) with its own records: neither a call nor a record left unread
    agent = _span("a9", 0, "invoke_agent CRM", {"gen_ai.operation.name": "invoke_agent"})
    both.write_text(_otlp("logs", [record, {**record, "spanId": "a9"}]) + "\n"
                    + _otlp("spans", [agent, _chat("a1", 1, "gpt-5.4", None, "c")]) + "\n")
    summary = json.loads(_run("audit", both, "--units", UNITS, "--json"))
    assert (summary["coverage"][0]["read"], summary["coverage"][0]["with_content"]) == (1, 1)


def test_vercel_ai_sdk_prompt_messages_are_content(tmp_path):
    """The Vercel AI SDK's telemetry: an outer `ai.generateText` span (no model call) and one
    `ai.generateText.doGenerate` span per call, its prompt in `ai.prompt.messages` as the SDK's typed
    parts (AI SDK 4's `args` / `result`, AI SDK 5's `input` / `output`)."""
    prompt = [
        {"role": "system", "content": "You are a billing assistant."},
        {"role": "user", "content": [{"type": "text", "text": "Refund the last charge."}]},
        {"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "c1", "toolName": "lookup",
                                           "args": {"customer": "Marguerite Lindqvist"}}]},
        {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c1", "toolName": "lookup",
                                      "result": {"card": "4539 1488 0343 6467"}}]},
        {"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "c2", "toolName": "notes",
                                           "input": {"id": 7}}]},
        {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c2", "toolName": "notes",
                                      "output": {"type": "text", "value": "type 2 diabetes"}}]}]
    spans = [_span("b0", 0, "ai.generateText", {"operation.name": "ai.generateText", "ai.model.id": "gpt-4o",
                                                "ai.prompt": json.dumps({"prompt": "Refund the last charge."})}),
             _span("b1", 1, "ai.generateText.doGenerate", {
                 "operation.name": "ai.generateText.doGenerate", "gen_ai.system": "openai.chat",
                 "gen_ai.request.model": "gpt-4o", "ai.prompt.format": "messages",
                 "ai.prompt.messages": json.dumps(prompt), "gen_ai.usage.input_tokens": 120,
                 "gen_ai.usage.output_tokens": 9})]
    trace = tmp_path / "vercel.json"
    trace.write_text(json.dumps({"resourceSpans": [{"resource": {}, "scopeSpans": [
        {"scope": {"name": "ai"}, "spans": spans}]}]}))
    summary = json.loads(_run("audit", trace, "--units", UNITS, "--json"))
    # by hand: one model call (b1; b0 names no model), with content: the name in a tool call's
    # arguments, the card and the diagnosis in the tools' results
    assert summary["coverage"][0] == {"format": "otel-genai", "record": "span", "read": 1, "with_content": 1,
                                      "without_content": 0, "logged_again": 0, "reused_ids": 0, "cache_hits": 0,
                                      "blocked": 0}
    assert sorted((u["unit_id"], u["origin"]) for u in summary["leaked"]) == [
        ("acme-billing/P-001/card", "tool_result"), ("acme-billing/P-001/diagnosis", "tool_result"),
        ("acme-billing/P-001/name", "tool_call_args")]
    assert [(p["calls"], p["input_tokens"], p["output_tokens"]) for p in summary["providers"]] == [(1, 120, 9)]


def test_pydantic_ai_events_attribute_is_content(tmp_path):
    """Pydantic AI (event_mode='attributes', its default before `gen_ai.input.messages`): a chat span
    whose events are one JSON attribute `events`, each a log event's body and attributes merged —
    with `event.name` (older releases) or only a `role` (later ones); the reply a `gen_ai.choice`."""
    events = [{"event.name": "gen_ai.system.message", "content": "Be brief.", "role": "system"},
              {"content": "Call +1 415-555-0142 about the refund.", "role": "user", "gen_ai.message.index": 0},
              {"role": "assistant", "tool_calls": [{"id": "t1", "type": "function", "function": {
                  "name": "lookup", "arguments": '{"who": "Marguerite Lindqvist"}'}}], "gen_ai.message.index": 1},
              {"content": "diagnosis: type 2 diabetes", "role": "tool", "id": "t1", "name": "lookup",
               "gen_ai.message.index": 2},
              {"event.name": "gen_ai.choice", "index": 0, "message": {
                  "role": "assistant", "content": "card 4539 1488 0343 6467"}}]  # the reply, not sent
    trace = tmp_path / "pydantic_ai.json"
    span = _span("c1", 1, "chat gpt-4o", {"gen_ai.operation.name": "chat", "gen_ai.system": "openai",
                                          "gen_ai.request.model": "gpt-4o", "events": json.dumps(events)})
    trace.write_text(json.dumps({"resourceSpans": [{"resource": {}, "scopeSpans": [
        {"scope": {"name": "pydantic-ai"}, "spans": [span]}]}]}))
    summary = json.loads(_run("audit", trace, "--units", UNITS, "--json"))
    assert summary["coverage"][0]["with_content"] == 1
    assert sorted((u["unit_id"], u["origin"]) for u in summary["leaked"]) == [
        ("acme-billing/P-001/diagnosis", "tool_result"), ("acme-billing/P-001/name", "tool_call_args"),
        ("acme-billing/P-001/phone", "user")]


def test_a_service_trace_file_whose_model_calls_come_late_is_read(tmp_path):
    """The collector's file exporter on a web service: a line per batch, the first ones (over the
    head the format is sniffed from) only health-check spans, the model call further on."""
    health = [_span(f"h{i:05d}", 0, "GET /health", {"http.request.method": "GET", "url.path": "/health",
                                                     "http.response.status_code": 200}) for i in range(2000)]
    lines = [json.dumps({"resourceSpans": [{"resource": {}, "scopeSpans": [
        {"scope": {"name": "opentelemetry.instrumentation.fastapi"}, "spans": health[i:i + 100]}]}]})
        for i in range(0, len(health), 100)]
    lines.append(_otlp("spans", [_chat("a1", 9, "gpt-5.4", "Ping Marguerite Lindqvist.", "c")]))
    trace = tmp_path / "otel-collector.jsonl"
    trace.write_text("\n".join(lines) + "\n")
    assert trace.read_bytes().find(b'"gen_ai.') > 256 * 1024
    summary = json.loads(_run("audit", trace, "--units", UNITS, "--json"))
    assert (summary["skipped_files"], summary["calls"]) == ([], 1)  # 2000 HTTP spans, 1 model call
    assert [u["unit_id"] for u in summary["leaked"]] == ["acme-billing/P-001/name"]


def test_console_output_whose_model_call_comes_late_is_read(tmp_path):
    """The SDK's console exporter on the same service: 400 request spans printed before the chat span."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor

    log = tmp_path / "app.log"
    with log.open("w") as out:
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=out)))
        tracer = provider.get_tracer("app")
        for _ in range(400):
            with tracer.start_as_current_span("GET /health", attributes={"url.path": "/health"}):
                pass
        with tracer.start_as_current_span("chat gpt-4o", attributes={
                "gen_ai.operation.name": "chat", "gen_ai.system": "openai", "gen_ai.request.model": "gpt-4o",
                "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [
                    {"type": "text", "content": "Ping Marguerite Lindqvist."}]}])}):
            pass
        provider.shutdown()
    assert log.read_bytes().find(b'"gen_ai.') > 256 * 1024
    summary = json.loads(_run("audit", log, "--units", UNITS, "--json"))
    assert (summary["skipped_files"], summary["calls"]) == ([], 1)
    assert [u["unit_id"] for u in summary["leaked"]] == ["acme-billing/P-001/name"]
