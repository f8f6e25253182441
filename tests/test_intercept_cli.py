"""`ec2audit intercept` as users run it: `serve` in its own process (killed with SIGKILL to prove
acknowledged records survive, logs and store scanned for API keys), then `export` and `audit`."""

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import openai
import polars as pl
import pytest
from click.testing import CliRunner
from intercept_helpers import SECRET_TEXT, UNITS, standin_server

from ec2audit.cli import main
from ec2audit.intercept.store import RecordStore
from ec2audit.units import write_units


@pytest.fixture(scope="module")
def standin():
    yield from standin_server()


CLI = str(Path(sys.executable).parent / "ec2audit")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(upstream: str, store: Path, log: Path, key: str, *extra: str) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {**os.environ, "EC2_TEST_UPSTREAM_KEY": key}
    proc = subprocess.Popen([CLI, "intercept", "serve", "--upstream", upstream, "--upstream-key-env",
                             "EC2_TEST_UPSTREAM_KEY", "--store", str(store), "--port", str(port), *extra],
                            env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/v1/models", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"proxy did not start: {log.read_text()}")


def test_serve_survives_kill_9_and_keeps_keys_out_of_store_and_logs(standin, tmp_path):
    app, upstream = standin
    store, log = tmp_path / "cloud.sqlite", tmp_path / "proxy.log"
    units = tmp_path / "units.jsonl"
    write_units(UNITS, units)
    upstream_key, client_key = f"sk-upstream-{uuid.uuid4().hex}", f"sk-client-{uuid.uuid4().hex}"
    proc, url = _serve(upstream, store, log, upstream_key, "--units", str(units))
    client = openai.OpenAI(base_url=f"{url}/e/ep-kill/v1", api_key=client_key, max_retries=0)
    acknowledged = 0
    try:
        for i in range(12):
            messages = [{"role": "user", "content": f"request {i}: {SECRET_TEXT}"}]
            if i % 2:
                list(client.chat.completions.create(model="no-price-model", messages=messages, stream=True))
            else:
                client.chat.completions.create(model="no-price-model", messages=messages)
            acknowledged += 1
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert app.state.requests[-1]["headers"]["authorization"] == f"Bearer {upstream_key}"
    survived = RecordStore(store).records(episode="ep-kill")
    assert len(survived) == acknowledged and all(r["status"] == 200 for r in survived)
    assert all(len(r["findings"]) >= 3 for r in survived)

    files = [p for p in tmp_path.iterdir() if p.name.startswith("cloud.sqlite")]
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    for path in [*files, log]:
        data = path.read_bytes()
        for key in (upstream_key, client_key):
            assert key.encode() not in data and key[-16:].encode() not in data, path
    assert "no price for model 'no-price-model'" in log.read_text()

    proc, url = _serve(upstream, store, log, upstream_key)  # restarted on the same store
    try:
        httpx.post(f"{url}/v1/chat/completions", headers={"X-EC2-Episode": "ep-kill"},
                   json={"model": "echo", "messages": [{"role": "user", "content": "after restart"}]})
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert len(RecordStore(store).records(episode="ep-kill")) == acknowledged + 1


def _filled_store(path: Path) -> RecordStore:
    store = RecordStore(path)
    for i, (episode, text) in enumerate([("e1", SECRET_TEXT), ("e1", "nothing here"), ("e2", "手机 13922883366")]):
        store.add({"id": f"r{i}", "episode": episode, "ts": 1.0 + i, "api": "openai-chat", "status": 200,
                   "model": "gpt-5.4", "request": {"model": "gpt-5.4", "messages": [{"role": "user", "content": text}]},
                   "response": {"choices": []}, "input_tokens": 10, "cached_tokens": 0, "output_tokens": 5,
                   "cost_usd": 0.0001, "findings": []})
    store.add({"id": "bad", "episode": "e2", "ts": 9.0, "status": 400, "error": "request body is not valid JSON"})
    return store


def test_export_parquet_and_jsonl(tmp_path):
    _filled_store(tmp_path / "s.sqlite")
    runner = CliRunner()
    for fmt, name in (("parquet", "out.parquet"), ("jsonl", "out.jsonl")):
        out = tmp_path / name
        result = runner.invoke(main, ["intercept", "export", str(tmp_path / "s.sqlite"), "--format", fmt,
                                      "--out", str(out)])
        assert result.exit_code == 0, result.output
        assert stat.S_IMODE(out.stat().st_mode) == 0o600
        frame = pl.read_parquet(out) if fmt == "parquet" else pl.read_ndjson(out)
        assert frame["id"].to_list() == ["r0", "r1", "r2", "bad"]
        assert json.loads(frame["request"][0])["messages"][0]["content"] == SECRET_TEXT
        assert frame["error"].to_list()[-1] == "request body is not valid JSON"


def test_audit_reaudits_stored_requests(tmp_path):
    _filled_store(tmp_path / "s.sqlite")
    units = tmp_path / "units.jsonl"
    write_units(UNITS, units)
    findings = tmp_path / "findings.parquet"
    result = CliRunner().invoke(main, ["intercept", "audit", str(tmp_path / "s.sqlite"), "--units", str(units),
                                       "--json", "--out", str(findings)])
    assert result.exit_code == 1, result.output  # one record had no request body: reported, skipped
    summary = json.loads(result.stdout)
    assert summary["payloads"] == 3
    exposure = {row["group"]: row["exposure"] for row in summary["exposure"]}
    assert exposure["e1"] == 1.0 and 0 < exposure["e2"] < 1.0
    frame = pl.read_parquet(findings)
    assert set(frame.filter(pl.col("group") == "e2")["unit_id"]) == {"t1/P1/phone"}
    assert "record bad" in result.stderr
