"""`ec2audit gateway-check` as a user runs it: against `ec2audit intercept serve` in its own process
(redact, block, observe), with the probe units it exports, and with the setup mistakes a user makes."""

import json
import socket
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from intercept_helpers import serve_cli

from ec2audit.cli import main
from ec2audit.gateway.positions import POSITIONS

#: The ec2audit proxy guarantees every position: headers are audited and redacted, and adjacent text
#: parts of one message are scanned as one text.
GUARANTEED = list(POSITIONS)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def probe_units(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("units") / "probe.jsonl"
    result = CliRunner().invoke(main, ["gateway-check", "--export-units", str(path)])
    assert result.exit_code == 0, result.output
    return path


def _serve(tmp_path: Path, units: Path, enforce: str) -> tuple[subprocess.Popen, str, int]:
    """`ec2audit intercept serve` forwarding to a port gateway-check will listen on."""
    upstream_port = _free_port()
    proc, url = serve_cli(f"http://127.0.0.1:{upstream_port}/v1", tmp_path / f"{enforce}.sqlite",
                          tmp_path / f"{enforce}.log", None, "--units", str(units), "--enforce", enforce)
    return proc, url + "/v1", upstream_port


def _check(url: str, upstream_port: int, *extra: str):
    result = CliRunner().invoke(main, ["gateway-check", url, "--upstream-port", str(upstream_port), "--json", *extra])
    matrix = json.loads(result.output) if result.output.startswith("{") else None
    return result, matrix


@pytest.fixture(scope="module", params=["redact", "block", "observe"])
def proxy(request, probe_units, tmp_path_factory):
    proc, url, upstream_port = _serve(tmp_path_factory.mktemp(request.param), probe_units, request.param)
    yield request.param, url, upstream_port
    proc.kill()
    proc.wait()


def test_matrix_against_intercept_serve(proxy):
    enforce, url, upstream_port = proxy
    positions = [a for p in GUARANTEED for a in ("--position", p)]
    result, matrix = _check(url, upstream_port, *positions)
    verdicts = {(c["position"], c["api"], c["stream"]): c["verdict"] for c in matrix["cells"]}
    # every guaranteed position, in every API that has it, streamed and not
    assert {p for p, _, _ in verdicts} == set(GUARANTEED)
    assert len(verdicts) == len(GUARANTEED) * 6 - 2 * sum(
        1 for p in GUARANTEED for api in ("openai-chat", "openai-responses", "anthropic-messages")
        if POSITIONS[p].build(api, ["x"], "m") is None)
    expected = {"redact": "redacted", "block": "blocked", "observe": "leaked"}[enforce]
    assert {k: v for k, v in verdicts.items() if v != expected} == {}
    assert result.exit_code == (1 if enforce == "observe" else 0), result.output
    if enforce == "observe":  # every unit of the file, in every form, found at the upstream
        units = set(matrix["units"])
        assert len(units) == 5
        assert all(set(c["leaked"]) == units - ({"gateway-check/P1/name_zh"} if c["position"] == "header" else set())
                   for c in matrix["cells"])


def test_leaked_positions_are_reported_in_the_table(probe_units, tmp_path):
    proc, url, upstream_port = _serve(tmp_path, probe_units, "observe")
    try:
        result = CliRunner().invoke(main, ["gateway-check", url, "--upstream-port", str(upstream_port),
                                           "--position", "header", "--position", "user"], terminal_width=100)
    finally:
        proc.kill()
        proc.wait()
    assert result.exit_code == 1, result.output
    rows = {line.split()[0]: line.split()[1:] for line in result.output.splitlines()
            if line.strip().startswith(("header ", "user "))}
    assert rows == {"header": ["leaked"] * 6, "user": ["leaked"] * 6}
    # the header value is the units' ASCII values: the Chinese name cannot be in a header
    assert "leaked: header openai-chat: gateway-check/P1/name, gateway-check/P1/email" in result.output


def test_setup_mistakes_are_one_line_and_exit_2(tmp_path):
    runner = CliRunner()
    dead = _free_port()
    result = runner.invoke(main, ["gateway-check", f"http://127.0.0.1:{dead}/v1", "--upstream-port", str(_free_port())])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert "cannot reach the gateway" in result.output
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(main, ["gateway-check", "http://127.0.0.1:9/v1", "--upstream-port", str(port)])
    assert result.exit_code == 2 and "cannot listen on 127.0.0.1" in result.output, result.output
    result = runner.invoke(main, ["gateway-check", "http://127.0.0.1:9/v1"])
    assert result.exit_code == 2 and "--upstream-port" in result.output
    result = runner.invoke(main, ["gateway-check", "http://127.0.0.1:9/v1", "--upstream-port", "1",
                                  "--position", "nope"])
    assert result.exit_code == 2 and "unknown position(s) nope" in result.output


def test_a_gateway_forwarding_elsewhere_is_a_setup_error(probe_units, tmp_path):
    """The proxy forwards to a port nobody records on: nothing reaches gateway-check's upstream."""
    proc, url, _ = _serve(tmp_path, probe_units, "observe")
    try:
        result = CliRunner().invoke(main, ["gateway-check", url, "--upstream-port", str(_free_port()),
                                           "--position", "user"])
    finally:
        proc.kill()
        proc.wait()
    assert result.exit_code == 2 and "no request reached the upstream" in result.output, result.output
    assert "Traceback" not in result.output
