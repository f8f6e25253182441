"""The large lane (issue 32, item 8): a large body's detectors run in a worker process, over loopback
HTTP against the recording stand-in upstream. What is forwarded holds no unit value, the placeholders
are the episode's (the same as a small request of that episode gets), the client gets its values back,
and no worker process outlives the proxy."""

import json
import os
import signal
import time
from pathlib import Path

import httpx
from intercept_helpers import UNITS, running_proxy, serve_cli

from ec2audit.intercept.lanes import LARGE_BODY
from ec2audit.intercept.redact import PLACEHOLDER
from ec2audit.units import write_units

PHONE, ID, NAME = "13922883366", "110105198803153418", "欧阳娜娜"


def children(pid: int) -> dict[int, str]:
    """The processes whose parent is `pid`, with their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat, cmdline = (entry / "stat").read_text(), (entry / "cmdline").read_bytes()
            except OSError:  # gone meanwhile
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found[int(entry.name)] = cmdline.replace(b"\0", b" ").decode(errors="replace")
    return found


def workers(pid: int) -> set[int]:
    return {child for child, cmdline in children(pid).items() if "spawn_main" in cmdline}


def large_text() -> str:
    prose = "The quarterly numbers went up in the north and down in the south, as the team expected. " * 40
    text = f"{prose}Call {PHONE}. {prose}{NAME} holds id {ID}. {prose}Again: {PHONE}."
    return (prose * (LARGE_BODY // len(prose) + 1)) + text


def chat(text: str) -> dict:
    return {"model": "echo", "messages": [{"role": "user", "content": text}]}


def test_a_large_body_is_redacted_in_a_worker_with_the_episodes_placeholders(standin, tmp_path):
    app, upstream = standin
    seen = len(app.state.requests)
    text = large_text()
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, store):
        small = httpx.post(f"{url}/e/ep-l/v1/chat/completions", json=chat(f"first {PHONE}"), timeout=60)
        assert workers(os.getpid()) == set()  # a small body is scanned here
        large = httpx.post(f"{url}/e/ep-l/v1/chat/completions", json=chat(text), timeout=120)
        running = workers(os.getpid())
        after = httpx.post(f"{url}/e/ep-l/v1/chat/completions", json=chat(f"then {NAME}, {PHONE}"), timeout=60)
        records = store.records()
    assert len(running) == 1  # the large body's detectors ran in a worker process
    assert workers(os.getpid()) == set()  # and the proxy's stop joined it
    assert [a.status_code for a in (small, large, after)] == [200, 200, 200]
    assert large.json()["choices"][0]["message"]["content"] == f"echo: {text}"  # the values came back
    assert after.json()["choices"][0]["message"]["content"] == f"echo: then {NAME}, {PHONE}"
    sent = [r["raw"].decode() for r in app.state.requests[seen:]]
    assert len(sent) == 3 and not [v for v in (PHONE, ID, NAME) for s in sent if v in s]
    small_sent, large_sent, after_sent = (r["body"]["messages"][0]["content"] for r in app.state.requests[seen:])
    assert small_sent == "first [PHONE_001]"
    assert set(PLACEHOLDER.findall(large_sent)) == {"[PHONE_001]", "[NAME_001]", "[NATIONAL_ID_001]"}
    assert after_sent == "then [NAME_001], [PHONE_001]"
    assert [r.redactions for r in records] == [1, 4, 2]
    # encoded in the worker from the placeholders numbered here: the record holds what was forwarded
    assert [r.request for r in records] == [json.loads(r["raw"]) for r in app.state.requests[seen:]]


def test_no_worker_outlives_the_proxy_it_served(standin, tmp_path):
    _, upstream = standin
    units = tmp_path / "units.jsonl"
    write_units(UNITS, units)
    proc, url = serve_cli(upstream, tmp_path / "s.sqlite", tmp_path / "proxy.log", "sk-up", "--units", str(units),
                          "--enforce", "redact")
    try:
        answer = httpx.post(f"{url}/v1/chat/completions", json=chat(large_text()), timeout=120)
        spawned = children(proc.pid)
        assert answer.status_code == 200 and PHONE in answer.text
        assert len(workers(proc.pid)) == 1
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    deadline = time.monotonic() + 20
    while any(Path(f"/proc/{pid}").exists() for pid in spawned) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in spawned if Path(f"/proc/{pid}").exists()] == []
