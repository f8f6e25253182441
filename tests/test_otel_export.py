"""Findings exported as OpenTelemetry spans over OTLP/HTTP (issue 36 §3): `audit --otlp-endpoint` and
`intercept audit --otlp-endpoint`. The spans are read back from a real Arize Phoenix (`phoenix` marker,
its own venv from `ec2audit setup phoenix`) through its GraphQL API; an endpoint nobody answers is one
line and exit 2, after the audit's own output."""

import socket
from pathlib import Path

from click.testing import CliRunner
from test_logs_otel_coverage import _trace  # tests/ is on the path (pytest's prepend import mode)

from ec2audit.cli import main

UNITS = Path(__file__).parent / "data" / "logs" / "units.jsonl"
LEAKY = "Email Marguerite Lindqvist about her type 2 diabetes results."


def _run(*args, code=0, env=None):
    result = CliRunner().invoke(main, [*map(str, args)], env={"COLUMNS": "200", **(env or {})})
    assert result.exit_code == code, result.output
    return result


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_endpoint_nobody_answers_is_one_line_after_the_audit(tmp_path):
    trace = _trace(tmp_path / "traces.json", LEAKY)
    url = f"http://127.0.0.1:{_closed_port()}"
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
