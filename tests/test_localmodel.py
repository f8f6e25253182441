"""The real local llama.cpp server: shared fixture, start/stop, tokenizer, `ec2audit models serve`."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from openai import OpenAI
from test_intercept_lanes import children

from ec2audit.localmodel import LocalModelServer, default_model_path, tokenize

pytestmark = pytest.mark.model_server


def test_smoke_shared_server_answers_chat_over_http_and_tokenizes(llama_server):
    reply = OpenAI(base_url=llama_server, api_key="none").chat.completions.create(
        model="smollm2", messages=[{"role": "user", "content": "Say hello."}], max_tokens=4, temperature=0)
    assert reply.usage.completion_tokens >= 1 and reply.choices[0].message.content is not None
    root = llama_server.removesuffix("/v1")
    assert tokenize(root, "hello world") < tokenize(root, "hello world, hello again world")


def test_stop_frees_the_process_and_port():
    server = LocalModelServer(n_ctx=256)
    url = server.start()
    assert url.startswith("http://127.0.0.1:") and httpx.get(f"{server.root_url}/health").status_code == 200
    process = server.process
    server.stop()
    assert process.poll() is not None
    with pytest.raises(httpx.ConnectError):
        httpx.get(url.removesuffix("/v1") + "/health", timeout=2)


def test_a_port_in_use_is_named_not_waited_for():
    """The child says where it listens, or exits: a port another server holds ends the start at once."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = LocalModelServer(n_ctx=256, port=port)
        with pytest.raises(RuntimeError, match=f"port {port} busy"):
            server.start()
    assert server.process is None and server.base_url is None


def test_missing_model_file_is_reported(tmp_path):
    with pytest.raises(FileNotFoundError):
        LocalModelServer(tmp_path / "nope.gguf")
    assert default_model_path().suffix == ".gguf"


def test_models_serve_runs_until_interrupted():
    cli = Path(sys.executable).with_name("ec2audit")
    proc = subprocess.Popen([str(cli), "models", "serve", "--n-ctx", "256"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = proc.stdout.readline()
        assert "serving" in line, proc.stderr.read()
        base_url = line.split(" at ")[1].split()[0]
        assert httpx.get(base_url + "/models", timeout=10).status_code == 200
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    with pytest.raises(httpx.ConnectError):
        httpx.get(base_url + "/models", timeout=2)


def test_models_serve_interrupted_while_the_model_loads_leaves_no_server():
    """Ctrl-C while the model loads (minutes for a large GGUF): `models serve` ends its server child before it
    exits. Before, the interrupted start left the child loading on, orphaned, until it noticed its parent gone."""
    cli = Path(sys.executable).with_name("ec2audit")
    proc = subprocess.Popen([str(cli), "models", "serve", "--n-ctx", "256"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    child = None
    try:
        while child is None or "xllamacpp" not in _maps(child):  # its server imported, so the model loads now
            assert proc.poll() is None, proc.stderr.read()
            child = next(iter(children(proc.pid)), None)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    finally:
        left = child is not None and Path(f"/proc/{child}").exists()
        for pid in [proc.pid, *([child] if left else [])]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert not left, f"the server child {child} outlived `models serve`"


def _maps(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/maps").read_text()
    except OSError:  # the child exited while we looked
        return ""
