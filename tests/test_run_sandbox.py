"""The episode sandbox: only the episode folder is writable; without a sandbox `ec2audit run` refuses."""

from __future__ import annotations

import subprocess
import urllib.request
import uuid
from pathlib import Path

from click.testing import CliRunner
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from ec2audit.cli import main
from ec2audit.intercept.server import serve_in_thread
from ec2audit.run.sandbox import probe


def test_writes_outside_the_episode_folder_fail(tmp_path):
    episode, tag = tmp_path / "episode", uuid.uuid4().hex
    episode.mkdir()
    outside = [Path(__file__).parent / f"leak-{tag}.txt", Path.home() / f"leak-{tag}.txt"]
    script = f"echo ok > {episode}/inside.txt; echo tmp > /tmp/{tag}.txt && echo tmp-ok; " + "; ".join(
        f"echo bad > {path}" for path in outside)
    done = subprocess.run(probe().wrap(["sh", "-c", script], episode), capture_output=True, text=True, timeout=60)
    assert (episode / "inside.txt").read_text() == "ok\n"
    assert not any(path.exists() for path in outside)
    assert done.stderr.count("Read-only file system") == 2
    assert "tmp-ok" in done.stdout and not Path(f"/tmp/{tag}.txt").exists()  # a private, throwaway /tmp


def test_loopback_services_stay_reachable(tmp_path):
    async def pong(_request):
        return PlainTextResponse("pong")

    url, stop = serve_in_thread(Starlette(routes=[Route("/", pong)]))
    try:
        code = f"import urllib.request; print(urllib.request.urlopen('{url}').read().decode())"
        done = subprocess.run(probe().wrap(["python3", "-c", code], tmp_path), capture_output=True, text=True,
                              timeout=60)
        assert done.stdout.strip() == "pong"
        assert urllib.request.urlopen(url).read() == b"pong"
    finally:
        stop()


def test_run_refuses_without_a_sandbox_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on PATH
    result = CliRunner().invoke(main, ["run", "--strategy", "edge-only", "--tasks", "all", "--edge", "oracle",
                                       "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert "refusing to run OpenClaw unconfined" in result.output and "bubblewrap" in result.output
    assert "--no-sandbox" in result.output
    assert not (tmp_path / "run").exists()
