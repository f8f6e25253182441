"""The episode sandbox: an episode sees its own folder and the runtime, reaches only the endpoints it is
given, runs under limits, and leaves nothing running; without a sandbox `ec2audit run` refuses."""

from __future__ import annotations

import shutil
import socket
import subprocess
import uuid
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from ec2audit.cli import main
from ec2audit.errors import InputError
from ec2audit.intercept.server import serve_in_thread
from ec2audit.run.oracle_model import SNOOPS, snoop_steps
from ec2audit.run.sandbox import EPISODE, Limits, probe
from ec2audit.tasks import load_task


@pytest.fixture(scope="module")
def sandbox():
    return probe()


def _run(sandbox, command: str, episode: Path, **launch) -> subprocess.CompletedProcess:
    episode.mkdir(exist_ok=True)
    with sandbox.launch(["sh", "-c", command], episode, **launch) as started:
        return subprocess.run(started.argv, capture_output=True, text=True, timeout=120)


def _canary(tmp_path: Path) -> tuple[Path, str]:
    """A fake $HOME holding a credentials file with a unique value, outside the episode folder."""
    home, value = tmp_path / "home", f"CANARY-{uuid.uuid4().hex}"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text(f"aws_secret_access_key = {value}\n")
    return home, value


def test_the_episode_sees_its_folder_and_the_system_only(sandbox, tmp_path):
    episode, tag = tmp_path / "episode", uuid.uuid4().hex
    home, canary = _canary(tmp_path)
    checkout = Path(__file__).resolve().parents[1]
    script = (f"echo ok > {EPISODE}/inside.txt; echo tmp > /tmp/{tag}.txt && echo tmp-ok; "
              f"cat {home}/.aws/credentials; ls {checkout} /root /home /work /srv; "
              f"echo bad > {checkout}/leak-{tag}.txt; ls -a ..; python3 -c 'print(2 + 2)'")
    done = _run(sandbox, script, episode)
    assert (episode / "inside.txt").read_text() == "ok\n"
    assert "tmp-ok" in done.stdout and not Path(f"/tmp/{tag}.txt").exists()  # a private, throwaway /tmp
    assert canary not in done.stdout + done.stderr
    for path in (f"{home}/.aws/credentials", str(checkout), "/root", "/home", "/work", "/srv"):
        assert any(path in line and "No such file or directory" in line for line in done.stderr.splitlines())
    assert not (checkout / f"leak-{tag}.txt").exists()
    assert str(tmp_path.name) not in done.stdout  # above the episode folder: the sandbox's own root
    assert "4" in done.stdout.split()  # the system's tools still work
    # the same commands, unconfined, do reach the canary: the assertions above can fail
    assert canary in subprocess.run(["sh", "-c", f"cat {home}/.aws/credentials"], capture_output=True,
                                    text=True).stdout


def test_declared_folders_are_visible_read_only(sandbox, tmp_path):
    tool = tmp_path / "tool"
    tool.mkdir()
    (tool / "run.sh").write_text("echo tool-ran\n")
    done = _run(sandbox, f"sh {tool}/run.sh; echo x > {tool}/new.txt", tmp_path / "episode",
                mounts={str(tool): tool})
    assert "tool-ran" in done.stdout and "Read-only file system" in done.stderr
    assert not (tool / "new.txt").exists()


def test_task_toml_declares_extra_folders_as_absolute_paths(tmp_path):
    task = shutil.copytree(Path(__file__).resolve().parents[1] / "tasks" / "office" / "office-hr-notice-101",
                           tmp_path / "office-hr-notice-101")
    toml = task / "task.toml"
    toml.write_text('sandbox_paths = ["/opt/tools"]\n' + toml.read_text())
    assert load_task(task).sandbox_paths == ["/opt/tools"]
    toml.write_text(toml.read_text().replace('"/opt/tools"', '"tools"'))
    with pytest.raises(InputError, match="sandbox_paths"):
        load_task(task)


def test_only_the_given_endpoints_are_reachable(sandbox, tmp_path):
    async def pong(_request):
        return PlainTextResponse("pong")

    url, stop = serve_in_thread(Starlette(routes=[Route("/", pong)]))
    canary = socket.create_server(("127.0.0.1", 0))
    canary.setblocking(False)
    port = canary.getsockname()[1]
    try:
        code = ("import socket, urllib.request\n"
                f"print(urllib.request.urlopen('{url}').read().decode())\n"
                "try:\n"
                f"    socket.create_connection(('127.0.0.1', {port}), timeout=5)\n"
                "    print('canary reached')\n"
                "except OSError as exc:\n"
                "    print('canary:', exc)\n")
        done = _run(sandbox, f"python3 -c \"{code}\"", tmp_path / "episode", services=[url])
        assert done.stdout.splitlines()[0] == "pong", done.stderr  # same URL inside as outside
        assert "canary: [Errno 111] Connection refused" in done.stdout
        with pytest.raises(BlockingIOError):
            canary.accept()  # nothing ever connected
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
        assert canary.accept()  # …while a host connection is seen: the check above can fail
    finally:
        canary.close()
        stop()


def test_a_fork_bomb_hits_the_process_cap_and_nothing_outlives_the_episode(sandbox, tmp_path):
    tag = uuid.uuid4().hex
    capped = replace(sandbox, limits=Limits(processes=64))
    bomb = dict(zip(SNOOPS, snoop_steps(tmp_path, [], forks=200), strict=True))["fork"]["arguments"]["command"]
    done = _run(capped, f"{bomb}; (sh -c 'sleep 300; :' sleeper-{tag} &) ; echo left-behind", tmp_path / "episode")
    if capped.isolation()["processes"] is None:  # this machine cannot cap processes: it says so
        assert any(gap.startswith("processes:") for gap in capped.gaps)
        return
    assert "fork failed after" in done.stdout and "Resource temporarily unavailable" in done.stdout
    forked = int(done.stdout.split("fork failed after")[1].split()[0])
    assert forked < 64 and "left-behind" in done.stdout
    running = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert f"sleeper-{tag}" not in running  # killed with the episode


def test_memory_is_capped(sandbox, tmp_path):
    capped = replace(sandbox, limits=Limits(memory_mb=64))
    done = _run(capped, "python3 -c 'x = bytearray(256 << 20); print(\"allocated\")'", tmp_path / "episode")
    if capped.isolation()["memory_mb"] is None:
        assert any(gap.startswith("memory:") for gap in capped.gaps)
        return
    assert "allocated" not in done.stdout and done.returncode != 0


def test_no_privileges_inside(sandbox, tmp_path):
    done = _run(sandbox, "grep -E '^(CapEff|NoNewPrivs)' /proc/self/status; ps -e | wc -l", tmp_path / "episode")
    status = dict(line.split(":\t") for line in done.stdout.splitlines()[:2])
    assert status == {"CapEff": "0000000000000000", "NoNewPrivs": "1"}
    assert int(done.stdout.splitlines()[2]) < 8  # its own PID namespace: none of the host's processes


def test_doctor_lists_each_isolation_feature(monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")  # one table row per line
    result = CliRunner().invoke(main, ["doctor"])
    for feature in ("filesystem", "network", "PID namespace", "CPU time", "processes per episode",
                    "memory per episode"):
        assert feature in result.output


def test_a_missing_feature_is_reported_not_dropped(tmp_path, monkeypatch):
    (tmp_path / "bwrap").symlink_to(shutil.which("bwrap"))
    monkeypatch.setenv("PATH", str(tmp_path))  # bubblewrap, but no prlimit (util-linux)
    monkeypatch.setenv("COLUMNS", "250")
    sandbox = probe()
    assert sandbox.isolation()["cpu_s"] is None
    assert any(gap.startswith("cpu: prlimit (util-linux) is not installed") for gap in sandbox.gaps)
    result = CliRunner().invoke(main, ["doctor"])
    row = next(line for line in result.output.splitlines() if "CPU time per process" in line)
    assert "unsupported" in row and "prlimit (util-linux) is not installed" in row
    done = _run(sandbox, "ulimit -t", tmp_path / "episode")
    assert done.stdout.strip() == "unlimited"  # and indeed the episode runs without it


def test_run_refuses_without_a_sandbox_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on PATH
    result = CliRunner().invoke(main, ["run", "--strategy", "edge-only", "--tasks", "all", "--edge", "oracle",
                                       "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert "refusing to run OpenClaw unconfined" in result.output and "bubblewrap" in result.output
    assert "--no-sandbox" in result.output
    assert not (tmp_path / "run").exists()
