"""`ec2audit intercept` as users run it: `serve` in its own process (killed with SIGKILL to prove
acknowledged records survive, logs and store scanned for API keys), then `export` and `audit`."""

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import openai
import polars as pl
import pytest
from click.testing import CliRunner
from intercept_helpers import CLI, SECRET_TEXT, UNITS, serve_cli

from ec2audit.cli import main
from ec2audit.intercept.record import ProxyRecord
from ec2audit.intercept.redact import PLACEHOLDER
from ec2audit.intercept.store import RecordStore
from ec2audit.units import make_unit, write_units


def test_serve_survives_kill_9_and_keeps_keys_out_of_store_and_logs(standin, tmp_path):
    app, upstream = standin
    store, log = tmp_path / "cloud.sqlite", tmp_path / "proxy.log"
    units = tmp_path / "units.jsonl"
    write_units(UNITS, units)
    upstream_key, client_key = f"sk-upstream-{uuid.uuid4().hex}", f"sk-client-{uuid.uuid4().hex}"
    proc, url = serve_cli(upstream, store, log, upstream_key, "--units", str(units))
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
    assert len(survived) == acknowledged and all(r.status == 200 and r.state == "complete" for r in survived)
    assert all(len(r.findings) >= 3 for r in survived)

    files = [p for p in tmp_path.iterdir() if p.name.startswith("cloud.sqlite")]
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    for path in [*files, log]:
        data = path.read_bytes()
        for key in (upstream_key, client_key):
            assert key.encode() not in data and key[-16:].encode() not in data, path
    assert "no price for model 'no-price-model'" in log.read_text()

    proc, url = serve_cli(upstream, store, log, upstream_key)  # restarted on the same store
    try:
        hanging = {"model": "fault-hang", "stream": True, "messages": [{"role": "user", "content": SECRET_TEXT}]}
        with httpx.stream("POST", f"{url}/e/ep-kill/v1/chat/completions", json=hanging, timeout=10) as response:
            chunks = response.iter_raw()  # held: a dropped iterator would close the connection
            next(chunks)  # forwarded and streaming: killed mid-exchange
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    except httpx.HTTPError:
        pass
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    [pending] = [r for r in RecordStore(store).records(episode="ep-kill") if r.state == "pending"]
    assert pending.request["model"] == "fault-hang" and pending.request["messages"] == hanging["messages"]

    proc, url = serve_cli(upstream, store, log, upstream_key)  # restarted: the pending record is interrupted
    try:
        httpx.post(f"{url}/v1/chat/completions", headers={"X-EC2-Episode": "ep-kill"},
                   json={"model": "echo", "messages": [{"role": "user", "content": "after restart"}]})
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    after = RecordStore(store).records(episode="ep-kill")
    assert len(after) == acknowledged + 2
    [interrupted] = [r for r in after if r.id == pending.id]
    assert interrupted.state == "interrupted" and "interrupted" in interrupted.error
    assert [r.state for r in after].count("complete") == acknowledged + 1


def test_serve_on_a_taken_port_says_so_in_one_line(tmp_path):
    """Another server holds the port: one line naming it and the option, exit 2, no store made."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["intercept", "serve", "--upstream", "http://127.0.0.1:9/v1",
                                           "--store", str(tmp_path / "s.sqlite"), "--port", str(port)])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: field '--port': cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert not (tmp_path / "s.sqlite").exists()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_serve_stopped_the_moment_its_banner_names_the_port_stops_cleanly(standin, tmp_path, signum):
    """A supervisor may signal as soon as the banner is out, before uvicorn has installed its handlers: each stop
    is still clean (exit 0, the stop summary said). Before, the signal raised KeyboardInterrupt in between: exit 3
    with `Server.serve` never awaited, or a process that never ended (CI, session 22)."""
    _, upstream = standin
    log = tmp_path / "serve.log"
    for run in range(6):
        start = log.stat().st_size if log.exists() else 0
        proc = subprocess.Popen([CLI, "intercept", "serve", "--upstream", upstream,
                                 "--store", str(tmp_path / "s.sqlite"), "--port", "0"],
                                stdout=log.open("ab"), stderr=subprocess.STDOUT)
        while b"ec2audit intercept: http" not in log.read_bytes()[start:]:
            assert proc.poll() is None, log.read_text()
        proc.send_signal(signum)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise AssertionError(f"run {run}: no stop within 60 s\n{log.read_text()}") from None
        said = log.read_bytes()[start:].decode()
        assert code == 0 and "stopped: 0 calls recorded" in said and "never awaited" not in said, (run, said)


def _filled_store(path: Path) -> RecordStore:
    store = RecordStore(path)
    for i, (episode, text) in enumerate([("e1", SECRET_TEXT), ("e1", "nothing here"), ("e2", "手机 13922883366")]):
        store.add(ProxyRecord(id=f"r{i}", episode=episode, ts=1.0 + i, api="openai-chat", status=200, model="gpt-5.4",
                              request={"model": "gpt-5.4", "messages": [{"role": "user", "content": text}]},
                              response={"choices": []}, input_tokens=10, cached_tokens=0, output_tokens=5,
                              cost_usd=0.0001, findings=[]))
    store.add(ProxyRecord(id="bad", episode="e2", ts=9.0, status=400, error="request body is not valid JSON"))
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
    # episodes that name no task: each scored against the units found in its own calls, as `audit` scores them
    exposure = {row["group"]: (row["units"], row["exposure"]) for row in summary["exposure"]}
    assert exposure == {"e1": (3, 1.0), "e2": (1, 1.0)}
    frame = pl.read_parquet(findings)
    assert set(frame.filter(pl.col("group") == "e2")["unit_id"]) == {"t1/P1/phone"}
    assert "record bad" in result.stderr


# --- malformed input, fuzzed, against the proxy as users run it -------------------------------------

_VALID = {"model": "echo", "messages": [{"role": "user", "content": "hello"}]}
_WRONG = {  # a field the proxy or the audit reads, in a type the API does not allow
    "messages": [123, "x", {}, [1], [None], [{"role": 1}], [{"content": 5}], [{"tool_calls": "x"}],
                 [{"tool_calls": [1]}], [{"tool_calls": [{"function": "x"}]}], [{"function_call": "x"}]],
    "stream_options": ["x", 1, [], {"include_usage": "yes"}], "stream": ["yes", 1, {}],
    "model": [{"a": 1}, 5, [], True]}
_RESPONSES_WRONG = [5, {}, None, [1], [{"role": 2}], ["text"]]


def _fuzz_bodies():
    from hypothesis import strategies as st

    wrong_field = st.sampled_from(sorted(_WRONG)).flatmap(
        lambda key: st.sampled_from(_WRONG[key]).map(lambda value: ("/v1/chat/completions", {**_VALID, key: value})))
    responses = st.sampled_from(_RESPONSES_WRONG).map(lambda v: ("/v1/responses", {"model": "echo", "input": v}))
    anthropic = st.sampled_from(_WRONG["messages"]).map(lambda v: ("/v1/messages", {"model": "echo", "messages": v}))
    encoded = st.one_of(wrong_field, responses, anthropic).map(lambda c: (c[0], json.dumps(c[1]).encode()))
    deep = st.integers(65, 20000).map(lambda n: ("/v1/chat/completions",
                                                  b'{"model": "echo", "messages": ' + b"[" * n + b"]" * n + b"}"))
    valid = json.dumps(_VALID).encode()
    truncated = st.integers(1, len(valid) - 1).map(lambda n: ("/v1/responses", valid[:n]))
    not_json = st.binary(max_size=64).filter(lambda b: not b.strip().startswith(b"{")).map(
        lambda b: ("/v1/messages", b))
    constants = st.sampled_from([b"NaN", b"Infinity", b"-Infinity"]).map(
        lambda c: ("/v1/chat/completions", b'{"model": "echo", "temperature": ' + c + b', "messages": []}'))
    return st.one_of(encoded, deep, truncated, not_json, constants)


def test_malformed_bodies_get_4xx_on_record_and_the_connection_keeps_serving(standin, tmp_path):
    from hypothesis import HealthCheck, given, settings

    _, upstream = standin
    store, log = tmp_path / "fuzz.sqlite", tmp_path / "proxy.log"
    proc, url = serve_cli(upstream, store, log, "sk-upstream-fuzz")
    sent = []
    try:
        with httpx.Client(base_url=url, timeout=20, limits=httpx.Limits(max_connections=1)) as client:
            @settings(max_examples=150, derandomize=True, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            @given(case=_fuzz_bodies())
            def check(case):
                path, content = case
                answer = client.post(path, content=content, headers={"content-type": "application/json"})
                assert 400 <= answer.status_code < 500, (content[:200], answer.status_code, answer.text)
                assert answer.json()["error"]["message"]
                good = client.post("/v1/chat/completions", json=_VALID)
                assert good.status_code == 200  # on the same keep-alive connection:
                assert good.extensions["network_stream"] is answer.extensions["network_stream"]
                sent.extend([answer.status_code, 200])

            check()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    records = RecordStore(store).records()
    assert [r.status for r in records] == sent  # one record per request, in order
    assert all(r.state == "complete" for r in records)
    assert "Traceback" not in log.read_text() and "Exception in ASGI" not in log.read_text()


def test_standin_has_a_command_line():
    help_text = subprocess.run([sys.executable, "-m", "ec2audit.intercept.standin", "--help"],
                               capture_output=True, text=True, check=True).stdout
    assert "--port" in help_text and "stand-in" in help_text


def test_audit_skips_a_stored_body_it_cannot_read_with_its_reason(tmp_path):
    store = _filled_store(tmp_path / "s.sqlite")
    store.add(ProxyRecord(id="odd", episode="e2", ts=10.0, status=200, request={"model": "m", "input": 5}))
    units = tmp_path / "units.jsonl"
    write_units(UNITS, units)
    result = CliRunner().invoke(main, ["intercept", "audit", str(tmp_path / "s.sqlite"), "--units", str(units),
                                       "--json"])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert json.loads(result.stdout)["payloads"] == 3 and "record odd" in result.stderr


# --- enforcement, as users run it: `serve --enforce` in its own process -----------------------------

_DIAGNOSIS = make_unit({"task_id": "t1", "entity_id": "P1", "field": "diagnosis", "dimension": "health",
                        "value": "Chronic obstructive pulmonary disease"})
_MASKED = "请回电 139****3366"  # 7 of the phone's 11 digits visible: graded 0.7
_NEAR_VERBATIM = "diagnosed with Chronic obstructive pulmonry disease last year"  # one typo: graded 0.7
_FRAGMENT = "手机尾号3366"  # the last four digits in context: graded 0.3


def _ask(url: str, text: str) -> httpx.Response:
    return httpx.post(f"{url}/e/ep-enforce/v1/chat/completions", timeout=30,
                      json={"model": "echo", "messages": [{"role": "user", "content": text}]})


@pytest.fixture()
def enforcing(standin, tmp_path):
    """`intercept serve --enforce MODE` as a process, with the phone, id, name and a diagnosis as units."""
    units = tmp_path / "units.jsonl"
    write_units([*UNITS, _DIAGNOSIS], units)
    procs = []

    def start(mode: str) -> tuple[str, Path]:
        store = tmp_path / f"{mode}.sqlite"
        proc, url = serve_cli(standin[1], store, tmp_path / f"{mode}.log", "sk-upstream-enforce", "--units", str(units),
                           "--enforce", mode)
        procs.append(proc)
        return url, store

    yield start
    for proc in procs:
        proc.terminate()
        proc.wait(timeout=20)


def test_serve_block_refuses_masked_and_near_verbatim_forms_but_not_a_fragment(standin, enforcing):
    app, _ = standin
    url, store = enforcing("block")
    seen = len(app.state.requests)
    refused = {text: _ask(url, text) for text in (_MASKED, _NEAR_VERBATIM)}
    assert len(app.state.requests) == seen  # nothing of either reached the upstream
    for text, unit_id in ((_MASKED, "t1/P1/phone"), (_NEAR_VERBATIM, "t1/P1/diagnosis")):
        answer = refused[text]
        assert answer.status_code == 403, answer.text
        assert answer.json()["error"]["units"] == [unit_id] and text not in answer.text
    passed = _ask(url, _FRAGMENT)  # a fragment is a finding, not a reason to refuse
    assert passed.status_code == 200 and passed.json()["choices"][0]["message"]["content"] == f"echo: {_FRAGMENT}"
    assert len(app.state.requests) == seen + 1
    assert app.state.requests[-1]["body"]["messages"][0]["content"] == _FRAGMENT
    records = RecordStore(store).records(episode="ep-enforce")
    assert [r.status for r in records] == [403, 403, 200]
    assert [max(f["grade"] for f in r.findings) for r in records] == [0.7, 0.7, 0.3]


def test_serve_redact_forwards_placeholders_for_masked_and_near_verbatim_forms(standin, enforcing):
    app, _ = standin
    url, store = enforcing("redact")
    for text, value in ((_MASKED, "139****3366"), (_NEAR_VERBATIM, "pulmonry")):
        seen = len(app.state.requests)
        answer = _ask(url, text)
        assert answer.status_code == 200, answer.text
        [received] = [r["body"]["messages"][0]["content"] for r in app.state.requests[seen:]]
        assert value not in received and PLACEHOLDER.search(received), received  # the upstream got a placeholder
        assert answer.json()["choices"][0]["message"]["content"] == f"echo: {text}"  # the client its own words
    records = RecordStore(store).records(episode="ep-enforce")
    assert [r.redactions for r in records] == [1, 1]
    assert not any(v in json.dumps(r.request, ensure_ascii=False) for r in records for v in ("139****", "pulmonry"))
