"""The wheel as a user installs it: built from this checkout, installed into a fresh venv, and every command
run from an empty folder with HOME and EC2AUDIT_HOME in temporary folders too, so no checkout is in reach.

The venv holds only the wheel; its dependencies come from the test environment's site-packages through a
`.pth` line (no network; benchmarks/wheel_install.py). Marked `wheel` (a minute or two on a loaded machine).
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import stat
import subprocess
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from intercept_helpers import SECRET_TEXT, UNITS, banner_url, standin_server

from ec2audit.tasks import load_suite
from ec2audit.units import write_units

pytestmark = pytest.mark.wheel
REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("wheel_install", REPO / "benchmarks" / "wheel_install.py")
wheel_install = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(wheel_install)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    root = tmp_path_factory.mktemp("wheel")
    python = wheel_install.install_wheel(wheel_install.build_wheel(root / "dist"), root / "venv")
    work, home, data = root / "work", root / "home", root / "data"
    work.mkdir()
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "LABEL_STUDIO_API_KEY") and not k.startswith("EC2")}
    env.update(HOME=str(home), EC2AUDIT_HOME=str(data), COLUMNS="250", PYTHONDONTWRITEBYTECODE="1")
    return SimpleNamespace(python=python, venv=root / "venv", work=work, data=data, env=env,
                           cli=str(python.parent / "ec2audit"))


def ec2audit(inst, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([inst.cli, *args], cwd=inst.work, env=inst.env, capture_output=True, text=True,
                          timeout=900)


def test_the_installed_copy_runs_not_the_checkout(installed):
    shown = subprocess.run([str(installed.python), "-c", "import ec2audit, ec2audit.resources as r; "
                            "print(ec2audit.__file__); print(r.checkout()); print(r.data('judges/prompts'))"],
                           cwd=installed.work, env=installed.env, capture_output=True, text=True, check=True)
    module, checkout, prompts = shown.stdout.splitlines()
    assert Path(module).is_relative_to(installed.venv) and checkout == "None"
    assert Path(prompts).is_relative_to(installed.venv) and (Path(prompts) / "leak-v2.toml").is_file()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_intercept_serve_then_audit_then_report(installed):
    """One request through `intercept serve` to the stand-in cloud, its record audited, the findings reported."""
    write_units(UNITS, installed.work / "units.jsonl")
    stand_in = standin_server()
    app, upstream = next(stand_in)
    log = installed.work / "proxy.log"
    proxy = subprocess.Popen([installed.cli, "intercept", "serve", "--upstream", upstream, "--store", "cloud.sqlite",
                              "--port", "0", "--units", "units.jsonl"], cwd=installed.work, env=installed.env,
                             stdout=subprocess.DEVNULL, stderr=log.open("w"))
    try:
        url = banner_url(proxy, log)
        answer = httpx.post(f"{url}/e/ep-1/v1/chat/completions", timeout=60,
                            json={"model": "echo", "messages": [{"role": "user", "content": SECRET_TEXT}]})
        assert answer.status_code == 200 and len(app.state.requests) == 1
    finally:
        proxy.terminate()
        proxy.wait(timeout=60)
        next(stand_in, None)
    assert stat.S_IMODE((installed.work / "cloud.sqlite").stat().st_mode) == 0o600

    audited = ec2audit(installed, "audit", "cloud.sqlite", "--units", "units.jsonl", "--out", "findings.parquet",
                       "--json")
    assert audited.returncode == 0, audited.stderr
    (group,) = json.loads(audited.stdout)["exposure"]
    assert group["units"] == 3 and group["leaked"] == 3

    reported = ec2audit(installed, "report", "findings.parquet", "--out", "report.html", "--json")
    assert reported.returncode == 0, reported.stderr
    assert json.loads(reported.stdout)["groups"] and 'id="heatmap"' in (installed.work / "report.html").read_text()


def test_judge_without_llm_uses_the_packaged_calibration(installed):
    units, payloads = installed.work / "judge-units.jsonl", installed.work / "judge-payloads.jsonl"
    units.write_text(json.dumps({"task_id": "t1", "entity_id": "E1", "field": "diagnosis",
                                 "value": "type 2 diabetes", "dimension": "health"}) + "\n")
    body = {"model": "gpt", "messages": [{"role": "user", "content": "She manages her chronic blood-sugar "
                                                                    "condition with metformin."}]}
    payloads.write_text(json.dumps({"id": "call-1", "task_id": "t1", "request": body}) + "\n")
    result = ec2audit(installed, "judge", units.name, payloads.name, "--no-judge", "--out", "judged.jsonl", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["payloads"] == 1 and summary["units"] == 1 and (installed.work / "judged.jsonl").is_file()


def test_judge_calibrate_writes_into_the_data_folder(installed):
    shown = subprocess.run([str(installed.python), "-c", "from ec2audit.detect.calibrate import DEFAULT_SET; "
                            "print(DEFAULT_SET)"], cwd=installed.work, env=installed.env, capture_output=True,
                           text=True, check=True)  # the default of `judge --calibrate --set`
    packaged = Path(shown.stdout.strip())
    assert packaged.is_relative_to(installed.venv) and (packaged / "dev.jsonl").is_file()
    small = installed.work / "set"  # the packaged dev and test splits (its realistic splits take many minutes)
    small.mkdir()
    for split in ("dev.jsonl", "test.jsonl"):
        (small / split).write_bytes((packaged / split).read_bytes())
    result = ec2audit(installed, "judge", "--calibrate", "--set", "set", "--limit", "8", "--no-judge", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["calibrated"]["dev_examples"] == 8
    assert (installed.data / "calibration.toml").is_file() and (installed.data / "calibration-report.md").is_file()


def test_tasks_list_shows_the_packaged_suite(installed):
    result = ec2audit(installed, "tasks", "list")
    assert result.returncode == 0, result.stderr
    count = len(load_suite(REPO / "tasks"))
    title = " ".join(result.stdout.split())
    assert f"{count} tasks under {installed.venv}" in title and "office-hr-notice-101" in result.stdout
    missing = ec2audit(installed, "tasks", "list", "--root", "no-such-folder")
    assert missing.returncode == 2 and missing.stderr.strip() == "error: no-such-folder: no such task folder"


def test_doctor_and_commands_name_the_setup_step_they_need(installed):
    doctor = ec2audit(installed, "doctor")
    assert doctor.returncode == 1
    rows = {line.split("│")[1].strip(): line for line in doctor.stdout.splitlines() if line.count("│") == 4}
    assert str(installed.data) in rows["data folder"]
    assert "missing" in rows["OpenClaw 2026.9.6"] and "`ec2audit setup runner`" in rows["OpenClaw 2026.9.6"]
    ls_row = rows["Label Studio 1.23.2 (annotate serve)"]
    assert "missing" in ls_row and "`ec2audit setup labelstudio`" in ls_row
    run = ec2audit(installed, "run", "--tasks", "office-hr-notice-101", "--out", "run", "--edge", "oracle",
                   "--no-sandbox")
    assert run.returncode == 2 and "`ec2audit setup runner`" in run.stderr and "Traceback" not in run.stderr
    serve = ec2audit(installed, "annotate", "serve", "--port", str(_free_port()))
    assert serve.returncode == 2 and "`ec2audit setup labelstudio`" in serve.stderr
    assert "Traceback" not in serve.stderr and len(serve.stderr.strip().splitlines()) == 1
    models = ec2audit(installed, "setup", "models")  # the GGUF package is in the shared dependencies
    assert models.returncode == 0 and "already installed" in models.stdout, models.stderr
