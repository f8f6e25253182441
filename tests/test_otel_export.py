"""Findings exported as OpenTelemetry spans over OTLP/HTTP (issue 36 §3): `audit --otlp-endpoint` and
`intercept audit --otlp-endpoint`. The spans are read back from a real Arize Phoenix (`phoenix` marker,
its own venv from `ec2audit setup phoenix`) through its GraphQL API; an endpoint nobody answers is one
line and exit 2, after the audit's own output."""

import json
import sys
import time
from pathlib import Path

import httpx
import polars as pl
import pytest
from click.testing import CliRunner
from test_logs_otel_coverage import _trace  # tests/ is on the path (pytest's prepend import mode)

from ec2audit import resources
from ec2audit.annotate.server import free_port
from ec2audit.cli import main
from ec2audit.install import PHOENIX_VERSION
from ec2audit.intercept.record import ProxyRecord
from ec2audit.intercept.store import RecordStore
from ec2audit.logs.audit import audit_logs

UNITS = Path(__file__).parent / "data" / "logs" / "units.jsonl"
LEAKY = "Email Marguerite Lindqvist about her type 2 diabetes results."


def _run(*args, code=0, env=None):
    result = CliRunner().invoke(main, [*map(str, args)], env={"COLUMNS": "200", **(env or {})})
    assert result.exit_code == code, result.output
    return result


def test_an_endpoint_nobody_answers_is_one_line_after_the_audit(tmp_path):
    trace = _trace(tmp_path / "traces.json", LEAKY)
    url = f"http://127.0.0.1:{free_port()}"  # bound, then released: nobody listens
    result = _run("audit", trace, "--units", UNITS, "--otlp-endpoint", url, code=2,
                  env={"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "2"})
    assert "otel-genai: 4 model-call spans read" in result.stdout  # the audit was printed first
    assert result.stderr.strip().splitlines()[-1] == (
        f"error: field '--otlp-endpoint': spans not exported to {url}/v1/traces: Connection refused")
    assert "Traceback" not in result.output and "Transient error" not in result.output


def test_usage_errors_before_any_work(tmp_path):
    trace = _trace(tmp_path / "traces.json", LEAKY)
    bad = _run("audit", trace, "--units", UNITS, "--otlp-endpoint", "127.0.0.1:6006", code=2)
    assert bad.stderr == "error: field '--otlp-endpoint': expected an http:// or https:// URL\n"
    alone = _run("audit", trace, "--units", UNITS, "--keep-evidence", code=2)
    assert "give --otlp-endpoint URL" in alone.stderr and "otel-genai" not in alone.stdout


def test_without_the_otel_extra_one_line_names_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "opentelemetry.sdk", None)
    trace = _trace(tmp_path / "traces.json", LEAKY)
    result = _run("audit", trace, "--units", UNITS, "--otlp-endpoint", "http://127.0.0.1:6006", code=2)
    assert result.stderr == ("error: this needs the [otel] extra (opentelemetry.sdk is not installed): "
                             "pip install 'ec2audit[otel]'\n")


@pytest.mark.phoenix
def test_setup_phoenix_leaves_the_checkouts_install_alone(monkeypatch):
    """What `make setup` runs every time: Phoenix's venv is there, nothing is installed again."""
    monkeypatch.delenv(resources.HOME_ENV, raising=False)
    venv = resources.layout().phoenix_venv
    result = _run("setup", "phoenix")
    assert result.stdout.splitlines()[-1] == f"Phoenix {PHOENIX_VERSION} already installed in {venv}"


def _leak_spans(phoenix: str, session: str, leaks: int, *, rooted: bool = True) -> tuple[list[dict], list[dict]]:
    """From Phoenix's REST API: the spans of the export of `session`, its leak spans and (when `rooted`,
    their parent in the same export) the root; spans are stored asynchronously, so asked again until all
    are in."""
    deadline = time.monotonic() + 60
    while True:
        answer = httpx.get(f"{phoenix}/v1/projects/default/spans", params={"limit": 1000}, timeout=30)
        answer.raise_for_status()
        spans = answer.json()["data"]
        mine = [s for s in spans if s["attributes"].get("ec2audit.leak.session") == session]
        parents = {s["parent_id"] for s in mine}
        roots = [s for s in spans if s["context"]["span_id"] in parents]
        if len(mine) == leaks and (roots or not rooted):
            return mine, roots
        assert time.monotonic() < deadline, f"{len(mine)} of {leaks} spans of {session} in Phoenix after 60 s"
        time.sleep(0.5)


def _read_back(phoenix: str, session: str, leaks: int) -> tuple[dict, dict[str, dict], str]:
    """The root span and the leak spans (by unit) of the export of `session`, and their JSON as Phoenix
    serves it."""
    mine, roots = _leak_spans(phoenix, session, leaks)
    return roots[0], {s["attributes"]["ec2audit.leak.unit"]: s for s in mine}, json.dumps(roots + mine)


def test_audit_findings_read_back_from_phoenix_masked(phoenix, tmp_path):
    trace = _trace(tmp_path / "traces.json", LEAKY, conversation="phx-masked")
    result = _run("audit", trace, "--units", UNITS, "--otlp-endpoint", phoenix)
    assert result.stderr.strip().splitlines()[-1] == f"exported 3 spans to {phoenix}"  # the root and two leaks
    root, leaks, raw = _read_back(phoenix, "phx-masked", 2)
    assert root["name"] == "ec2audit audit" and root["parent_id"] is None
    counts = {k.removeprefix("ec2audit.audit."): v for k, v in root["attributes"].items() if k.startswith("ec2audit.")}
    assert counts == {"calls": 4, "cloud_calls": 3, "cloud_calls_without_content": 2, "units": 5,
                      "units_reached": 2, "units_leaked": 2}
    assert set(leaks) == {"acme-billing/P-001/name", "acme-billing/P-001/diagnosis"}
    for unit, dimension, masked in (("name", "person_name", "********** *********"),
                                    ("diagnosis", "health", "**** # ********")):
        span = leaks[f"acme-billing/P-001/{unit}"]
        attributes = span["attributes"]
        assert (span["name"], span["status_code"]) == (f"leak {dimension}: chat gpt-5.4", "ERROR")
        assert span["start_time"] == "2026-11-04T13:46:41+00:00"  # the time of span a1, the call that sent it
        assert {k: attributes[k] for k in ("gen_ai.operation.name", "gen_ai.system", "gen_ai.provider.name",
                                           "gen_ai.request.model", "gen_ai.conversation.id")} == {
            "gen_ai.operation.name": "chat", "gen_ai.system": "openai", "gen_ai.provider.name": "openai",
            "gen_ai.request.model": "gpt-5.4", "gen_ai.conversation.id": "phx-masked"}
        assert {k.removeprefix("ec2audit.leak."): v for k, v in attributes.items() if k.startswith("ec2audit.")} == {
            "unit": f"acme-billing/P-001/{unit}", "dimension": dimension, "grade": 1.0, "leaked": True,
            "position": "messages[0] user", "message_index": 0, "role": "user", "origin": "user", "call": "a1",
            "session": "phx-masked", "step": 1, "detector": "exact", "value": masked, "value_masked": True}
    assert "Marguerite" not in raw and "Lindqvist" not in raw and "diabetes" not in raw


def test_keep_evidence_exports_the_values(phoenix, tmp_path):
    trace = _trace(tmp_path / "traces.json", LEAKY, conversation="phx-clear")
    _run("audit", trace, "--units", UNITS, "--otlp-endpoint", f"{phoenix}/v1/traces", "--keep-evidence")
    _, leaks, _ = _read_back(phoenix, "phx-clear", 2)
    name = leaks["acme-billing/P-001/name"]["attributes"]
    assert (name["ec2audit.leak.value"], name["ec2audit.leak.value_masked"]) == ("Marguerite Lindqvist", False)


def test_intercept_audit_findings_read_back_from_phoenix(phoenix, tmp_path):
    """A store as the proxy writes it: the record's model, API and time name the leak's call."""
    store = RecordStore(tmp_path / "intercept.sqlite")
    store.add(ProxyRecord(
        id="rec-7", episode="phx-store", ts=1793800100.0, state="complete", api="openai-chat",
        path="/v1/chat/completions", model="gpt-5.4", status=200, request={
            "model": "gpt-5.4", "messages": [{"role": "system", "content": "You are a CRM assistant."},
                                             {"role": "user", "content": "Ring her on +1 415-555-0142."}]}))
    store.close()
    result = _run("intercept", "audit", tmp_path / "intercept.sqlite", "--units", UNITS, "--otlp-endpoint", phoenix)
    assert result.stderr.strip().splitlines()[-1] == f"exported 2 spans to {phoenix}"
    root, leaks, raw = _read_back(phoenix, "phx-store", 1)
    assert {k: v for k, v in root["attributes"].items() if k.startswith("ec2audit.")} == {
        "ec2audit.audit.records": 1, "ec2audit.audit.units": 5, "ec2audit.audit.units_reached": 1,
        "ec2audit.audit.units_leaked": 1}
    phone = leaks["acme-billing/P-001/phone"]
    attributes = phone["attributes"]
    assert phone["start_time"] == "2026-11-04T13:48:20+00:00"
    assert (attributes["gen_ai.request.model"], attributes["gen_ai.system"], attributes["ec2audit.leak.call"],
            attributes["ec2audit.leak.position"], attributes["ec2audit.leak.dimension"]) == (
        "gpt-5.4", "openai", "rec-7", "messages[1] user", "contact")
    assert attributes["ec2audit.leak.value"] == "+# ###-###-####" and "415-555" not in raw


#: The agent's trace and the span of its cloud call a1, as an SDK makes them: 16 and 8 random bytes, in hex.
AGENT_TRACE, CALL_SPAN = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"


def _agent_trace(path: Path, conversation: str) -> Path:
    """`_trace` with the ids an instrumented agent writes (its `a1`, `a3` … are no ids)."""
    document = json.loads(_trace(path, LEAKY, conversation=conversation).read_text())
    for span in document["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        number = int(span["spanId"].removeprefix("a"))
        span["traceId"], span["spanId"] = AGENT_TRACE, CALL_SPAN if number == 1 else f"{number:016x}"
    path.write_text(json.dumps(document))
    return path


def test_findings_of_an_otel_trace_carry_the_calls_trace_and_span_ids(tmp_path):
    out = tmp_path / "findings.parquet"
    _run("audit", _agent_trace(tmp_path / "traces.json", "ids"), "--units", UNITS, "--out", out)
    rows = pl.read_parquet(out).select("payload_id", "trace_id", "span_id").unique().rows()
    assert rows == [(CALL_SPAN, AGENT_TRACE, CALL_SPAN)]  # both leaks, on a1
    made_up = tmp_path / "made-up.parquet"  # `a1` is no span id: no parent to name
    _run("audit", _trace(tmp_path / "made-up.json", LEAKY), "--units", UNITS, "--out", made_up)
    assert pl.read_parquet(made_up).select("payload_id", "trace_id", "span_id").unique().rows() == [
        ("a1", "7" * 32, None)]


def test_console_exporter_ids_are_read_without_their_0x():
    """The Python SDK's console exporter writes `0x` + hex: the call row names the span as OTLP does."""
    log = audit_logs([Path(__file__).parent / "data" / "logs" / "otel" / "openinference-console.txt"], [])
    assert log.calls_frame().select("payload_id", "trace_id", "span_id").rows() == [
        ("0x1a2b3c4d5e6f7081", "6c9fdb6e0f7d3b4c8a1e2f3a4b5c6d7e", "1a2b3c4d5e6f7081")]


def test_leaks_of_an_otel_trace_sit_under_the_call_that_sent_them(phoenix, tmp_path):
    """Read back from Phoenix: each leak span is in the agent's trace, a child of the model-call span
    that first sent the unit, not in a trace of its own."""
    result = _run("audit", _agent_trace(tmp_path / "traces.json", "phx-agent"), "--units", UNITS,
                  "--otlp-endpoint", phoenix)
    assert result.stderr.strip().splitlines()[-1] == f"exported 3 spans to {phoenix}"
    leaks, _ = _leak_spans(phoenix, "phx-agent", 2, rooted=False)
    assert sorted((s["attributes"]["ec2audit.leak.unit"], s["context"]["trace_id"], s["parent_id"],
                   s["attributes"]["ec2audit.leak.call"]) for s in leaks) == [
        ("acme-billing/P-001/diagnosis", AGENT_TRACE, CALL_SPAN, CALL_SPAN),
        ("acme-billing/P-001/name", AGENT_TRACE, CALL_SPAN, CALL_SPAN)]
    assert all(s["start_time"] == "2026-11-04T13:46:41+00:00" for s in leaks)  # at a1's time, as before
