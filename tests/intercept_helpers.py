"""Shared pieces of the interceptor tests: the scripted stand-in upstream and a proxy factory."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import httpx

from ec2audit.intercept.app import InterceptConfig, create_app
from ec2audit.intercept.server import serve_in_thread
from ec2audit.intercept.standin import create_app as create_standin
from ec2audit.units import make_unit

UNITS = [
    make_unit({"task_id": "t1", "entity_id": "P1", "field": "phone", "value": "13922883366",
               "dimension": "contact"}),
    make_unit({"task_id": "t1", "entity_id": "P1", "field": "national_id", "value": "110105198803153418",
               "dimension": "government_id"}),
    make_unit({"task_id": "t1", "entity_id": "P1", "field": "name", "value": "欧阳娜娜",
               "dimension": "person_name"}),
]
SECRET_TEXT = "请联系欧阳娜娜，手机 139-2288-3366，身份证 110105198803153418。"


def standin_server():
    """The scripted stand-in cloud API on 127.0.0.1: yields (app, base URL including /v1)."""
    app = create_standin()
    url, stop = serve_in_thread(app)
    yield app, url + "/v1"
    stop()


@contextmanager
def running_proxy(upstream: str, store, **options):
    """An interceptor on 127.0.0.1 for the duration of a block: (app, base URL, its store)."""
    app = create_app(InterceptConfig(upstream=upstream, store=store, **options))
    url, stop = serve_in_thread(app)
    try:
        yield app, url, app.state.interceptor.store
    finally:
        stop()


@contextmanager
def enforcing_client(upstream: str, folder: Path, units, enforce: str, timeout: float = 30, **options):
    """An interceptor enforcing `enforce` over `units` in front of `upstream` (`options`: more of its
    `InterceptConfig`), and an HTTP client of it: (client, the proxy's store)."""
    with running_proxy(upstream, folder / "s.sqlite", units=units, enforce=enforce, **options) as (_, url, store), \
            httpx.Client(base_url=url, timeout=timeout) as client:
        yield client, store


def wait_for_records(store, count: int, timeout: float = 10.0) -> list[dict]:
    """Records are completed when an exchange ends, which for a broken stream is after the client saw
    it (until then they are on record as pending)."""
    deadline = time.monotonic() + timeout
    while True:
        records = store.records()
        done = [r for r in records if r.state != "pending"]
        if len(done) >= count or time.monotonic() > deadline:
            return records
        time.sleep(0.02)


CLI = str(Path(sys.executable).parent / "ec2audit")


def serve_cli(upstream: str, store: Path, log: Path, key: str | None, *extra: str) -> tuple[subprocess.Popen, str]:
    """`intercept serve --port 0` in a process (upstream key `key`, else the client's), its output appended to
    `log`, and the URL its banner names. Not a port looked up free here and handed over, which another process
    could take in between."""
    start = log.stat().st_size if log.exists() else 0
    env = {**os.environ, "EC2_TEST_UPSTREAM_KEY": key or ""}
    keyed = ["--upstream-key-env", "EC2_TEST_UPSTREAM_KEY"] if key else []
    proc = subprocess.Popen([CLI, "intercept", "serve", "--upstream", upstream, *keyed, "--store", str(store),
                             "--port", "0", *extra], env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT)
    return proc, banner_url(proc, log, start)


def banner_url(proc: subprocess.Popen, log: Path, start: int = 0) -> str:
    """The URL an `intercept serve` process names in its banner, written to `log` after byte `start`: its socket
    listens by then."""
    deadline = time.monotonic() + 120  # bounds only how long a proxy that never starts hangs the test
    while not (banner := re.search(rb"ec2audit intercept: (http://\S+)/v1 ", log.read_bytes()[start:])):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"proxy did not start: {log.read_text()}")
        time.sleep(0.05)
    return banner[1].decode()


def json_strings(value):
    """Every key and string of a JSON value, and the strings of JSON text inside strings."""
    if isinstance(value, str):
        yield value
        try:
            inner = json.loads(value)
        except ValueError:
            return
        if isinstance(inner, dict | list | str) and inner != value:
            yield from json_strings(inner)
    elif isinstance(value, list):
        for item in value:
            yield from json_strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from json_strings(item)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield str(value)
