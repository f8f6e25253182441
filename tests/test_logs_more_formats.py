"""The formats of issue 18, each on a fixture written from its public spec or source: detection,
edge/cloud sides, and the first cloud call that sent each unit with the message that carried it."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.logs import detect_format, read_logs

DATA = Path(__file__).parent / "data" / "logs"
UNITS = DATA / "units.jsonl"


def _audit(*paths, code=0):
    result = CliRunner().invoke(main, ["audit", *map(str, paths), "--units", str(UNITS), "--json"])
    assert result.exit_code == code, result.output
    return json.loads(result.output[result.output.index("{\n"):])


def _leaks(summary):
    """(session, field) → leaked row."""
    return {(r["session"], r["unit_id"].rsplit("/", 1)[1]): r for r in summary["leaked"]}


@pytest.mark.parametrize(("path", "fmt"), [
    ("otel/otlp-genai-current.json", "otel-genai"),
    ("otel/traces-old-conventions.jsonl", "otel-genai"),
    ("otel/openinference-console.txt", "otel-genai"),
    ("json/agentdojo-workspace-user_task_3.json", "json-messages"),
    ("json/invariant-traces.jsonl", "json-messages"),
    ("json/request-body.json", "json-messages"),
    ("json/messages.json", "json-messages"),
])
def test_formats_are_detected(path, fmt):
    assert detect_format(DATA / path) == fmt


def test_otel_current_conventions_attributes_and_event_with_edge_and_tool_spans():
    summary = _audit(DATA / "otel" / "otlp-genai-current.json")
    # invoke_agent and execute_tool spans are no model calls; the ollama span on localhost is edge
    assert (summary["calls"], summary["cloud_calls"]) == (3, 2)
    leaks = _leaks(summary)
    session = "conv_5j66UpCpwteGg4YSxUnt7lPY"
    assert set(leaks) == {(session, "name"), (session, "phone")}  # the card only went to ollama
    phone = leaks[(session, "phone")]
    assert (phone["first_call"], phone["origin"], phone["tool"]) == ("eee19b7ec3c1b175", "tool_result",
                                                                     "lookup_contact")
    gpt = next(p for p in summary["providers"] if p["model"] == "gpt-5.4")
    assert (gpt["calls"], gpt["input_tokens"], gpt["output_tokens"]) == (2, 3000, 90)  # the call without content counts


def test_otel_older_conventions_flattened_prompt_and_message_events():
    leaks = _leaks(_audit(DATA / "otel" / "traces-old-conventions.jsonl"))
    assert {f for _, f in leaks} == {"name", "diagnosis", "card"}
    assert leaks[("intake-7", "diagnosis")]["provider"] == "Anthropic"
    assert (leaks[("intake-7", "card")]["first_call"], leaks[("intake-7", "card")]["step"]) == ("b7ad6b7169203332", 2)


def test_openinference_console_spans():
    summary = _audit(DATA / "otel" / "openinference-console.txt")
    assert summary["calls"] == 1  # the retriever span is no model call
    ((session, field),) = _leaks(summary)
    assert (session, field) == ("billing-ops", "stripe_key")


def test_agentdojo_invariant_and_plain_json():
    summary = _audit(DATA / "json")
    leaks = _leaks(summary)
    dojo = leaks[("workspace/user_task_3", "phone")]
    assert (dojo["step"], dojo["tool"], dojo["model"]) == (2, "search_calendar_events", "gpt-4o-2024-05-13")
    assert leaks[("invariant-traces#1", "diagnosis")]["file"] == "intake.md"
    card = leaks[("trace-billing-2", "card")]  # a wrapped record: its metadata names the model
    assert (card["provider"], card["model"], card["tool"]) == ("anthropic", "claude-3-5-sonnet", "get_card")
    assert leaks[("messages", "stripe_key")]["origin"] == "user"  # a list of messages is one request
    assert leaks[("request-body", "phone")]["model"] == "claude-sonnet-4-5"
    calls = [c for c in read_logs([DATA / "json" / "agentdojo-workspace-user_task_3.json"])]
    assert len(calls) == 2  # one per assistant message


def test_unknown_json_is_named_in_one_short_line(tmp_path):
    (tmp_path / "settings.json").write_text(json.dumps({"theme": "dark", "fontSize": 13}, indent=2))
    summary = _audit(tmp_path, code=1)
    (skipped,) = summary["skipped_files"]
    assert skipped["file"].endswith("settings.json")
    assert skipped["reason"].startswith("not a known log format") and "--format" in skipped["reason"]
    assert len(skipped["reason"]) < 100  # one short line per file: the formats are in --help, not repeated


@pytest.mark.parametrize(("path", "fmt"), [
    ("litellm/standard_logging_payloads.jsonl", "litellm"),
    ("litellm/spend_logs.csv", "litellm"),
    ("langfuse/traces-export.json", "langfuse"),
    ("langfuse/observations.csv", "langfuse"),
])
def test_gateway_and_tracing_exports_are_detected(path, fmt):
    assert detect_format(DATA / path) == fmt


def test_litellm_payloads_and_spend_logs():
    summary = _audit(DATA / "litellm")
    assert (summary["calls"], summary["cloud_calls"]) == (5, 4)  # ollama on localhost is edge
    leaks = _leaks(summary)
    assert set(leaks) == {("crm-7", "name"), ("crm-7", "phone"), ("crm-7", "diagnosis"), ("ops-run-3", "stripe_key")}
    assert leaks[("crm-7", "diagnosis")]["provider"] == "anthropic"
    key = leaks[("ops-run-3", "stripe_key")]  # spend logs keep the body in proxy_server_request
    assert (key["first_call"], key["model"]) == ("chatcmpl-a81", "gpt-4o-mini")
    mini = next(p for p in summary["providers"] if p["model"] == "gpt-4o-mini")
    assert mini["calls"] == 2 and mini["cost_usd"] == pytest.approx(0.000612)  # the failed call had no text


def test_langfuse_generations_only_grouped_by_session():
    summary = _audit(DATA / "langfuse")
    assert summary["calls"] == 2  # spans (the retriever, the card lookup tool) are no model calls
    leaks = _leaks(summary)
    assert set(leaks) == {("chat-session-41", "name"), ("chat-session-41", "phone"), ("tr-02", "diagnosis")}
    assert leaks[("tr-02", "diagnosis")]["first_call"] == "obs-9"
    gpt = next(p for p in summary["providers"] if p["model"] == "gpt-4o")
    assert (gpt["input_tokens"], gpt["output_tokens"], gpt["cost_usd"]) == (180, 22, pytest.approx(0.00067))


@pytest.mark.parametrize(("path", "fmt"), [
    ("inspect/2026-11-10T11-02-17+00-00_crm-lookup_RzU8Xo4pd9SWa3FqkYc2Ea.eval", "inspect-ai"),
    ("inspect/2026-11-10T12-00-00+00-00_crm-lookup-local.json", "inspect-ai"),
    ("tau-bench/tool-calling-gpt-4o-0.0_range_0--1_user-gpt-4o-llm_0820150325.json", "tau-bench"),
    ("tau-bench/tau2-telecom-results.json", "tau-bench"),
    ("swe-agent/acme__crm-1042.traj", "swe-agent"),
    ("swe-agent/acme__crm-1043.traj.json", "mini-swe-agent"),
])
def test_agent_benchmark_logs_are_detected(path, fmt):
    assert detect_format(DATA / path) == fmt


def test_inspect_model_events_with_attachments_and_a_local_server():
    summary = _audit(DATA / "inspect")
    assert (summary["calls"], summary["cloud_calls"]) == (4, 2)  # the vLLM run on localhost is edge
    leaks = _leaks(summary)
    session = "crm_lookup/1/epoch 1"
    assert set(leaks) == {(session, f) for f in ("name", "phone", "diagnosis")}
    phone = leaks[(session, "phone")]  # the tool result was an attachment:// reference
    assert (phone["first_call"], phone["step"], phone["tool"], phone["file"]) == (
        "ev-2", 2, "read_file", "notes/client.md")
    gpt = next(p for p in summary["providers"] if p["model"] == "gpt-4o")
    assert (gpt["provider"], gpt["input_tokens"]) == ("openai", 310)


def test_tau_bench_and_tau2_trajectories():
    summary = _audit(DATA / "tau-bench")
    leaks = _leaks(summary)
    phone = leaks[("task 3 trial 0", "phone")]  # said by the simulated user at turn 6: sent with the 3rd call
    assert (phone["step"], phone["origin"], phone["model"]) == (3, "user", "gpt-4o")
    tau2 = leaks[("task 12 trial 0", "phone")]
    assert (tau2["step"], tau2["tool"], tau2["model"]) == (2, "get_customer_by_name", "claude-3-7-sonnet-20250219")
    assert ("task 4 trial 0", "name") not in leaks
    claude = next(p for p in summary["providers"] if p["model"] == "claude-3-7-sonnet-20250219")
    assert (claude["calls"], claude["input_tokens"]) == (2, 4300)


def test_swe_agent_query_per_step_and_mini_swe_agent_messages():
    summary = _audit(DATA / "swe-agent")
    leaks = _leaks(summary)
    key = leaks[("acme__crm-1042", "stripe_key")]
    assert (key["step"], key["tool"], key["command"], key["model"]) == (
        2, "bash", "cat /acme-crm/.env", "claude-sonnet-4-20250514")
    mini = leaks[("acme__crm-1043", "diagnosis")]
    assert (mini["step"], mini["provider"], mini["model"]) == (2, "anthropic", "claude-sonnet-4-5-20250929")
    sonnet = next(p for p in summary["providers"] if p["provider"] == "anthropic")
    assert (sonnet["input_tokens"], sonnet["output_tokens"]) == (1900, 50)


def test_openhands_event_folder_and_evaluation_output():
    summary = _audit(DATA / "openhands")
    events = DATA / "openhands" / "sessions" / "5f0c1a2b9d8e4c7a" / "events"
    files = {f["file"]: f for f in summary["files"]}
    assert files[str(events / "0.json")]["format"] == "openhands"
    assert files[str(events / "7.json")]["read_with"] == str(events / "0.json")  # one conversation, read once
    assert (summary["calls"], summary["cloud_calls"]) == (5, 3)  # the evaluation ran on ollama at localhost
    leaks = _leaks(summary)
    key = leaks[("5f0c1a2b9d8e4c7a", "stripe_key")]
    assert (key["first_call"], key["tool"], key["file"]) == ("chatcmpl-oh-2", "str_replace_editor",
                                                             "/workspace/acme-crm/.env")
    phone = leaks[("5f0c1a2b9d8e4c7a", "phone")]  # sent by the final message, no tool metadata of its own
    assert (phone["step"], phone["command"], phone["model"]) == (
        3, "grep -rn 'on-call' /workspace/acme-crm/docs", "claude-sonnet-4-5-20250929")
    assert not any(s == "acme__crm-2001" for s, _ in leaks)


def test_vcr_cassette_posts_to_model_apis_with_gzip_responses():
    assert detect_format(DATA / "vcr" / "test_crm_notes.yaml") == "vcr-cassette"
    summary = _audit(DATA / "vcr")
    assert (summary["calls"], summary["cloud_calls"]) == (3, 2)  # the GET is no call; ollama on localhost is edge
    leaks = _leaks(summary)
    assert set(leaks) == {("test_crm_notes", f) for f in ("name", "phone", "diagnosis")}
    assert leaks[("test_crm_notes", "diagnosis")]["provider"] == "anthropic"
    gpt = next(p for p in summary["providers"] if p["provider"] == "openai")
    assert (gpt["input_tokens"], gpt["output_tokens"]) == (64, 5)  # read from the gzip-compressed !!binary body


def test_mitmproxy_flow_file_is_named_with_the_way_to_read_it(tmp_path):
    # the head of a flow file as mitmproxy's tnetstring writer lays it out
    (tmp_path / "flows.mitm").write_bytes(b"2391:4:type;4:http;7:version;2:19#11:client_conn;"
                                          b"180:2:id;36:4f1e2c3d-aaaa-bbbb-cccc-123456789abc;11:server_conn;"
                                          + b"0" * 64)
    summary = _audit(tmp_path, code=1)
    (skipped,) = summary["skipped_files"]
    assert "mitmproxy flow file" in skipped["reason"] and "hardump" in skipped["reason"]
