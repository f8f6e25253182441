"""Shared heavy fixtures: one real llama.cpp server, one real Label Studio and one real Arize Phoenix per
test session, and a scripted judge stand-in."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from types import SimpleNamespace

import httpx
import pytest
from hypothesis import settings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from ec2audit.intercept.server import serve_in_thread

#: Property tests have no per-example deadline: Hypothesis's default (200 ms, and 1 s of drawing before its
#: too_slow health check) fails a test whose process a loaded machine paused once ("Unreliable test timings").
#: A test's own `@settings` keeps this for what it does not set.
settings.register_profile("ec2audit", deadline=None)
settings.load_profile("ec2audit")

#: Fixtures that start a real server, and the marker a test using one carries (`make test-fast` deselects it).
SERVER_FIXTURES = {"llama_server": "model_server", "labelstudio": "labelstudio", "phoenix": "phoenix"}


#: The heavy markers (pyproject), each one pytest-xdist group (`make test` runs `-n 3 --dist loadgroup`): the tests
#: sharing a session server or a cluster run on one worker, so it starts once. Longest group first (the order they
#: are scheduled in), as measured in session 28's parallel run: 1268, 751, 749, 262, 239, 220, 199 and 34 s.
HEAVY_GROUPS = ("model_server", "openclaw", "ray", "litellm", "labelstudio", "wheel", "phoenix", "chromium")


def pytest_configure(config):
    """An xdist worker starts with `COLUMNS=80` in its environment, where a serial run has none: every command's
    console (`console.make_console`) then wrapped at 80 columns, and tests reading a path or a table row on one
    line failed in parallel only. The worker's environment is made the serial run's."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        os.environ.pop("COLUMNS", None)


@pytest.hookimpl(wrapper=True)  # around xdist's hook, which appends each test's group to its node id
def pytest_collection_modifyitems(config, items):
    """A test that uses a server fixture, directly or through another fixture, gets that server's marker.

    Under xdist each test also gets a group (`_group`), and the heavy groups are scheduled first: they are the
    longest units, and one started last would leave the other workers idle."""
    for item in items:
        for fixture in set(getattr(item, "fixturenames", ())) & set(SERVER_FIXTURES):
            item.add_marker(SERVER_FIXTURES[fixture])
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return (yield)
    for item in items:
        item.add_marker(pytest.mark.xdist_group(_group(item)))
    first = {group: rank for rank, group in enumerate(HEAVY_GROUPS)}
    items.sort(key=lambda item: first.get(item.get_closest_marker("xdist_group").args[0], len(first)))
    result = yield
    _keep_xdist_groups(items)
    return result


def _group(item) -> str:
    """A test's heavy marker, else its module (whose fixtures then run once, not once per worker). OpenClaw's
    episodes share nothing (each its own HOME, state dir and ports), so a test that also needs a shared server or
    cluster (`run_local_model`: a model server; `scale_ray`: Ray) joins that one's group."""
    heavy = [marker for marker in HEAVY_GROUPS if item.get_closest_marker(marker)]
    shared = [marker for marker in heavy if marker != "openclaw"]
    return (shared or heavy or [item.nodeid.split("::", 1)[0]])[0]


def _keep_xdist_groups(items) -> None:
    """pytest 9.2 derives a test's node id from a structured id that xdist 3.8's `--dist loadgroup` does not update
    (it sets the old `_nodeid`: pytest-dev/pytest-xdist#1386), so no group reached the scheduler and each test ran
    wherever, starting the servers once per worker. Until xdist updates it, the id is set from the grouped one."""
    from _pytest.nodeid import NodeId

    for item in items:
        grouped = getattr(item, "_nodeid", None)
        if grouped and grouped != item.nodeid:
            item._id = NodeId.parse(grouped)


@pytest.fixture(autouse=True)
def _model_servers_need_their_marker(request, monkeypatch):
    """A test without the `model_server` marker that starts a llama.cpp server fails, saying so: the fast
    suite must start none (the SmolLM2 server once took 60 % of its time)."""
    if request.node.get_closest_marker("model_server") is None:
        from ec2audit.localmodel import LocalModelServer

        def refuse(self):
            raise AssertionError(f"{request.node.nodeid} starts a real llama.cpp server: mark it model_server")

        monkeypatch.setattr(LocalModelServer, "start", refuse)


@pytest.fixture(scope="session")
def llama_server():
    """Base URL (`http://127.0.0.1:PORT/v1`) of ONE real llama.cpp server (SmolLM2-135M) for all tests."""
    from ec2audit.localmodel import LocalModelServer

    with LocalModelServer(n_ctx=4096) as base_url:
        yield base_url


class ScriptedJudge:
    """STAND-IN for a frontier judge model: an OpenAI-compatible chat endpoint on 127.0.0.1 that
    answers from a table. Each rule is (needle, replies): the first rule whose needle occurs in the
    request's user message answers with its next reply (the last one repeats); a reply is the
    message content (a string) or an int HTTP status to fail with. Unmatched requests get grade 0
    for every checklist item. Streams when asked to."""

    def __init__(self):
        self.rules: list[tuple[str, list]] = []
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.app = Starlette(routes=[Route("/v1/chat/completions", self._chat, methods=["POST"])])

    def script(self, needle: str, *replies) -> None:
        self.rules.append((needle, list(replies)))

    def _reply(self, user: str):
        with self.lock:
            for needle, replies in self.rules:
                if needle in user:
                    return replies.pop(0) if len(replies) > 1 else replies[0]
        items = re.findall(r"^(\d+)\. \[", user, flags=re.MULTILINE) or ["1"]  # default: nothing leaked
        return json.dumps({"verdicts": [{"item": int(n), "grade": 0, "evidence": ""} for n in items]})

    async def _chat(self, request: Request):
        body = await request.json()
        self.requests.append(body)
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        reply = self._reply(user)
        if isinstance(reply, int):
            return JSONResponse({"error": {"message": "scripted failure"}}, status_code=reply)
        usage = {"prompt_tokens": sum(len(m["content"]) for m in body["messages"]) // 4,
                 "completion_tokens": max(len(reply) // 4, 1)}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        if not body.get("stream"):
            return JSONResponse({"id": "standin", "object": "chat.completion", "created": 0, "model": body["model"],
                                 "choices": [{"index": 0, "finish_reason": "stop",
                                              "message": {"role": "assistant", "content": reply}}],
                                 "usage": usage})

        def events():
            base = {"id": "standin", "object": "chat.completion.chunk", "created": 0, "model": body["model"]}
            for i in range(0, len(reply), 7):
                delta = {"content": reply[i:i + 7]}
                yield f"data: {json.dumps({**base, 'choices': [{'index': 0, 'delta': delta}]})}\n\n"
            yield f"data: {json.dumps({**base, 'choices': [{'index': 0, 'delta': {}, 'finish_reason': 'stop'}]})}\n\n"
            yield f"data: {json.dumps({**base, 'choices': [], 'usage': usage})}\n\n"
            yield "data: [DONE]\n\n"
        return StreamingResponse(events(), media_type="text/event-stream")


@pytest.fixture(scope="module")
def standin():
    """The scripted stand-in cloud API on 127.0.0.1, one per test module: (app, base URL including /v1)."""
    from intercept_helpers import standin_server
    yield from standin_server()


@pytest.fixture(scope="module", params=["redact", "block"])
def proxy(request, standin, tmp_path_factory):
    """An interceptor enforcing each mode over the test module's units (`GUARDED_UNITS`, else `UNITS`) in
    front of the stand-in, and an HTTP client of it: (mode, the stand-in app, client, the proxy's store)."""
    from intercept_helpers import enforcing_client

    app, upstream = standin
    units = getattr(request.module, "GUARDED_UNITS", None) or request.module.UNITS
    with enforcing_client(upstream, tmp_path_factory.mktemp(request.param), units, request.param) as (client, store):
        yield request.param, app, client, store


@pytest.fixture
def scripted_judge():
    """A ScriptedJudge stand-in served over real HTTP; `.url` is its OpenAI base URL."""
    judge = ScriptedJudge()
    url, stop = serve_in_thread(judge.app)
    judge.url = url + "/v1"
    yield judge
    stop()


@pytest.fixture(scope="session")
def labelstudio(tmp_path_factory):
    """`ec2audit annotate serve` as a user runs it, one per session; stopped (with its Label Studio) at the end."""
    from ec2audit.annotate import server

    data = tmp_path_factory.mktemp("labelstudio") / "data"
    # --port 0: `serve` looks the port up just before Label Studio starts, not a test that hands it over later
    proc = subprocess.Popen([sys.executable, "-c", "from ec2audit.cli import main; main()", "annotate", "serve",
                             "--data-dir", str(data), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    banner = proc.stdout.readline()
    try:
        creds = server.load_credentials(data)
        assert creds and f"at {creds['url']} " in banner, banner + proc.stdout.read()
        yield SimpleNamespace(url=creds["url"], token=creds["token"], data_dir=data, ml_backend=creds["ml_backend"])
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"{creds['url']}/api/version", timeout=5)


@pytest.fixture(scope="session")
def phoenix(tmp_path_factory):
    """Base URL of ONE real Arize Phoenix (`phoenix serve` from the venv `ec2audit setup phoenix` installs) on
    127.0.0.1, its SQLite database in a temporary working dir, its telemetry off; stopped at the end."""
    import os
    import time

    from ec2audit import resources
    from ec2audit.annotate.server import free_port

    binary = resources.layout().phoenix_venv / "bin" / "phoenix"
    assert binary.is_file(), f"{binary} missing: run `ec2audit setup phoenix` (or `make setup`)"
    work = tmp_path_factory.mktemp("phoenix")
    port = free_port()
    env = {**os.environ, "PHOENIX_WORKING_DIR": str(work), "PHOENIX_HOST": "127.0.0.1", "PHOENIX_PORT": str(port),
           "PHOENIX_GRPC_PORT": str(free_port()), "PHOENIX_TELEMETRY_ENABLED": "false",
           "PHOENIX_ALLOW_EXTERNAL_RESOURCES": "false"}
    url = f"http://127.0.0.1:{port}"
    with (work / "phoenix.log").open("w") as log:
        proc = subprocess.Popen([str(binary), "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180  # ~30 s alone, minutes on a loaded machine
        while True:
            assert proc.poll() is None, (work / "phoenix.log").read_text()[-3000:]
            try:
                if httpx.get(f"{url}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "Phoenix not up in 180 s: " + (work / "phoenix.log").read_text()[-3000:]
            time.sleep(0.5)
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
