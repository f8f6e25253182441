"""Acceptance: `audit --ray` and `run --ray` on a real two-node Ray cluster on loopback.

One cluster for the module: `ray start --head` and a second `ray start --address`, one CPU and one
OpenClaw slot each, both with `--block` so the test owns their process ids (each node its own TMPDIR,
so an actor's scratch folder shows which node runs it). The results of Ray runs must equal local
runs of the same input; Ctrl-C must end the actors and their OpenClaw workers; an audit actor's
process killed mid-audit is replaced and the audit still writes a local audit's findings; then the
worker node's raylet is killed mid-run and every episode must still complete exactly once. Edge and
cloud models are the scripted oracle stand-ins; OpenClaw, the sandbox, the interceptor, the audit and
Ray are real.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from log_corpus import session_logs
from test_run_openclaw import sigint_ignored

from ec2audit.cli import main

pytestmark = [pytest.mark.ray, pytest.mark.openclaw]

REPO = Path(__file__).resolve().parents[1]
RAY = Path(sys.executable).with_name("ray")
#: the smallest annotated task (two oracle steps, no mock service); three model calls finish it
TASK = "data-clinic-stats-1001"
RUN_ARGS = ["run", "--edge", "oracle", "--edge-params", "135e6", "--strategy", "cloud-only", "--tasks", TASK,
            "--tasks-root", str(REPO / "tasks"), "--runs", "2", "--max-model-calls", "3"]
#: differ between runs: timings, and which episode of its warm worker an episode was (the order episodes reach
#: a worker is the scheduler's)
TIMINGS = ("duration_s", "openclaw_s", "openclaw_startup_s", "worker_episode")
KEY_ENV, KEY = "EC2AUDIT_TEST_CLOUD_KEY", "sk-raytest-3f9c2a7d51e84b06"
STARTED = "This command will now block forever"
DEADLINE_S = 600


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(condition, what: str, deadline_s: float = DEADLINE_S):
    """Poll `condition` until it is truthy (a loaded machine is slow, never wrong)."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        found = condition()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"gave up waiting for {what}")


def _children(pid: int) -> list[int]:
    """Every descendant process id of `pid`, from /proc."""
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            kids = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
        except OSError:
            continue
        for kid in map(int, kids):
            out += [kid, *_children(kid)]
    return out


def _signal(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def _gone(pid: int) -> bool:
    """Ended: no such process, or a zombie waiting for its parent."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


class Cluster:
    """Two `ray start --block` processes on 127.0.0.1 and what the tests need to know about them."""

    def __init__(self, root: Path):
        self.root, self.port = root, _free_port()
        self.address = f"127.0.0.1:{self.port}"
        # token authentication (Ray's default since 2.5x) with this cluster's own token, whatever
        # ~/.ray/auth_token an earlier local cluster left: nodes and drivers share it
        self.env = {**os.environ, "PYTHONPATH": str(REPO), "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "token",
                    "RAY_AUTH_TOKEN": secrets.token_hex(32)}
        for name in ("RAY_ADDRESS", "RAY_AUTH_TOKEN_PATH"):
            self.env.pop(name, None)
        self.nodes: dict[str, subprocess.Popen] = {}
        self.tmp: dict[str, Path] = {}
        self.temp = root  # Ray's temp folder (logs, sockets), once started

    def start(self, role: str, *args: str) -> None:
        self.tmp[role] = self.root / f"{role}-tmp"
        self.tmp[role].mkdir()
        log = (self.root / f"{role}.log").open("w")
        self.nodes[role] = subprocess.Popen(
            [str(RAY), "start", "--block", "--node-ip-address", "127.0.0.1", "--num-cpus", "1",
             "--resources", '{"openclaw": 1}', "--object-store-memory", "200000000", "--disable-usage-stats", *args],
            env={**self.env, "TMPDIR": str(self.tmp[role])}, stdout=log, stderr=subprocess.STDOUT)
        _wait_for(lambda: STARTED in (self.root / f"{role}.log").read_text() or self.nodes[role].poll() is not None,
                  f"the {role} node")
        assert self.nodes[role].poll() is None, (self.root / f"{role}.log").read_text()[-2000:]

    def stop(self) -> None:
        """End every process this cluster started, by id: SIGTERM to each node's processes (what
        `ray stop` sends them), then the `ray start` processes; SIGKILL to whatever is left."""
        started = [p for p in self.nodes.values() if p.poll() is None]
        left = [pid for p in started for pid in _children(p.pid)]
        for pid in left:
            _signal(pid, signal.SIGTERM)
        with contextlib.suppress(AssertionError):
            _wait_for(lambda: all(_gone(pid) for pid in left), "the Ray processes to end", 30)
        for process in started:
            process.kill()
            process.wait()
        for pid in left:
            _signal(pid, signal.SIGKILL)

    def ec2audit(self, *args: str, env: dict | None = None, background: bool = False):
        command = [sys.executable, "-c", "from ec2audit.cli import main; main()", *args]
        environment = {**self.env, **(env or {})}
        if background:
            return subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, preexec_fn=sigint_ignored)  # SIGINT still stops it
        return subprocess.run(command, env=environment, capture_output=True, text=True, timeout=DEADLINE_S)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("ray"))
    # Ray's Unix sockets live under its temp folder: a pytest path is longer than AF_UNIX allows
    temp = Path(tempfile.mkdtemp(prefix="ec2r-", dir="/tmp"))
    try:
        c.start("head", "--head", "--port", str(c.port), "--include-dashboard", "false", "--temp-dir", str(temp))
        c.start("worker", "--address", c.address)
        c.temp = temp
        yield c
    finally:
        c.stop()
        shutil.rmtree(temp, ignore_errors=True)


def test_a_cluster_nobody_listens_on_is_one_line(tmp_path):
    logs, units = _logs(tmp_path)
    result = CliRunner().invoke(main, ["audit", str(logs), "--units", str(units), f"--ray=127.0.0.1:{_free_port()}"])
    assert result.exit_code == 2
    assert "cannot reach the Ray cluster at 127.0.0.1:" in result.output and "Traceback" not in result.output


def _logs(root: Path) -> tuple[Path, Path]:
    """Request logs of eight agent sessions, one file each, plus a note and a broken line: every file
    is read or named as skipped, on Ray as locally."""
    return session_logs(root, 200, 4, 300_000, seed=3)


def _local_audit(logs: Path, units: Path, out: Path):
    return CliRunner().invoke(main, ["audit", str(logs), "--units", str(units), "--json", "--out", str(out)])


def _same_audit(on_ray: subprocess.CompletedProcess, folder: Path, local, findings: Path) -> None:
    """The Ray audit (`--json`, `--out folder`) printed and wrote what the local one did (`--out findings`)."""
    assert local.exit_code == on_ray.returncode == 1, on_ray.stderr[-3000:]  # 1: a file was skipped
    summary = json.loads(on_ray.stdout)
    assert summary == json.loads(local.stdout)
    assert summary["findings"] > 0 and "notes.txt" in json.dumps(summary["skipped_files"])
    assert json.loads((folder / "summary.json").read_text()) == summary

    expected = pl.read_parquet(findings)
    found = pl.read_parquet(folder / "findings" / "**" / "*.parquet", hive_partitioning=True)
    assert found.height == expected.height > 0
    assert found.select(expected.columns).sort(expected.columns).equals(expected.sort(expected.columns))
    assert {p.name.split("=", 1)[0] for p in (folder / "findings").iterdir()} == {"dimension"}
    exposure = pl.read_parquet(folder / "exposure.parquet")
    assert exposure.filter(pl.col("dimension").is_null())["exposure"].to_list() == [
        row["exposure"] for row in summary["exposure"]]


def test_audit_on_ray_equals_a_local_audit_and_uses_both_nodes(cluster, tmp_path):
    logs, units = _logs(tmp_path)
    assert len(list(logs.glob("session*.jsonl"))) >= 4
    local = _local_audit(logs, units, tmp_path / "local.parquet")
    # no address: RAY_ADDRESS names the cluster
    on_ray = cluster.ec2audit("audit", str(logs), "--units", str(units), "--json", "--out", str(tmp_path / "ray"),
                              "--ray", env={"RAY_ADDRESS": cluster.address})
    _same_audit(on_ray, tmp_path / "ray", local, tmp_path / "local.parquet")
    nodes = json.loads((tmp_path / "ray" / "nodes.json").read_text())
    assert sorted(nodes) == sorted(str(p) for p in logs.glob("session*.jsonl"))  # every log file once
    assert len(set(nodes.values())) == 2  # both nodes audited files


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("local") / "run"
    result = CliRunner().invoke(main, [*RUN_ARGS, "--parallel", "2", "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


def _same_run(out: Path, local: Path) -> None:
    """Same episodes, records (but for timings and the interceptor's random record ids), findings,
    summary and cloud records as the local run."""
    def records(run: Path) -> list[dict]:
        rows = pl.read_parquet(run / "episodes.parquet").drop(TIMINGS).sort("episode_id").to_dicts()
        for row in rows:
            row["leaked_units"] = [{k: v for k, v in u.items() if k != "payload_id"}
                                   for u in json.loads(row["leaked_units"])]
        return rows

    def findings(run: Path) -> pl.DataFrame:
        frame = pl.read_parquet(run / "findings.parquet").drop("payload_id")
        return frame.sort(frame.columns)

    def cloud(run: Path) -> list[tuple]:
        with sqlite3.connect(run / "cloud.sqlite") as db:
            return db.execute("SELECT episode, count(*), count(DISTINCT id), sum(input_tokens) FROM records "
                              "GROUP BY episode ORDER BY episode").fetchall()

    def folders(run: Path) -> list[str]:
        return sorted(p.name for p in (run / "episodes").iterdir())

    assert folders(out) == folders(local)
    assert records(out) == records(local)
    assert findings(out).equals(findings(local))
    assert json.loads((out / "summary.json").read_text()) == json.loads((local / "summary.json").read_text())
    assert cloud(out) == cloud(local) and cloud(out)


def test_run_on_ray_equals_a_local_run_uses_both_nodes_and_keeps_keys_off_disk(cluster, local_run, tmp_path):
    out = tmp_path / "run"
    result = cluster.ec2audit(*RUN_ARGS, "--cloud-key-env", KEY_ENV, "--out", str(out), f"--ray={cluster.address}",
                              env={KEY_ENV: KEY})
    assert result.returncode == 0, result.stderr[-3000:]
    _same_run(out, local_run)
    nodes = {json.loads((p / "ray_node.json").read_text())["node"] for p in (out / "episodes").iterdir()}
    assert len(nodes) == 2  # one episode on each node
    assert json.loads((out / "run.json").read_text())["launch"] == "warm-worker"  # each actor's own worker
    assert set(pl.read_parquet(out / "episodes.parquet")["launch"]) == {"warm-worker"}
    written = [p for root in (cluster.root, cluster.temp, out) for p in root.rglob("*")
               if p.is_file() and not p.is_symlink()]
    assert written and not [p for p in written if KEY.encode() in p.read_bytes()]

    again = cluster.ec2audit(*RUN_ARGS, "--out", str(out), f"--ray={cluster.address}")
    assert again.returncode == 0 and "(0 run, 2 resumed)" in again.stdout  # resuming works on Ray too


def _openclaw_workers(cluster: Cluster) -> list[int]:
    """The warm OpenClaw worker processes running under the cluster's nodes (their actors' children)."""
    return [pid for node in cluster.nodes.values() for pid in _children(node.pid)
            if b"openclaw_worker.mjs" in _cmdline(pid)]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@contextlib.contextmanager
def _reaped(run: subprocess.Popen):
    """A background ec2audit killed (and waited for) if a check fails before it ends."""
    try:
        yield run
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()


def test_ctrl_c_ends_the_actors_and_their_openclaw_workers(cluster, tmp_path):
    run = cluster.ec2audit(*RUN_ARGS, "--out", str(tmp_path / "run"), f"--ray={cluster.address}", background=True)
    with _reaped(run):
        _wait_for(lambda: _openclaw_workers(cluster) or run.poll() is not None, "a warm OpenClaw worker")
        assert run.poll() is None, run.communicate()[1][-3000:]
        os.kill(run.pid, signal.SIGINT)
        _, stderr = run.communicate(timeout=DEADLINE_S)
    assert run.returncode == 130 and "interrupted" in stderr, stderr[-3000:]
    assert not _openclaw_workers(cluster)
    assert not [p for tmp in cluster.tmp.values() for p in tmp.glob("ec2audit-slot-*")]  # scratch folders removed


def _audit_actors(cluster: Cluster) -> list[int]:
    """The audit's actor processes (Ray titles them `ray::_Worker…`) on the cluster's nodes."""
    return [pid for node in cluster.nodes.values() for pid in _children(node.pid)
            if _cmdline(pid).startswith(b"ray::_Worker")]


def test_an_audit_whose_actor_is_killed_completes_with_a_local_audits_findings(cluster, tmp_path):
    """An audit actor's process is killed while it holds blocks (building its cascade or auditing): it
    is replaced, its blocks are audited again, and the audit writes what a local one does."""
    logs, units = _logs(tmp_path)
    local = _local_audit(logs, units, tmp_path / "local.parquet")
    run = cluster.ec2audit("audit", str(logs), "--units", str(units), "--json", "--out", str(tmp_path / "ray"),
                           f"--ray={cluster.address}", background=True)
    with _reaped(run):
        actor = _wait_for(lambda: _audit_actors(cluster) or run.poll() is not None, "an audit actor")
        assert run.poll() is None, run.communicate()[1][-3000:]
        os.kill(actor[0], signal.SIGKILL)
        stdout, stderr = run.communicate(timeout=DEADLINE_S)
    assert stderr.count("ray: an actor died") == 1, stderr[-3000:]
    assert "its work runs again on another" in stderr
    _same_audit(subprocess.CompletedProcess(run.args, run.returncode, stdout, stderr), tmp_path / "ray", local,
                tmp_path / "local.parquet")
    assert sorted(json.loads((tmp_path / "ray" / "nodes.json").read_text())) == sorted(
        str(p) for p in logs.glob("session*.jsonl"))
    assert _gone(actor[0])
    _wait_for(lambda: not _audit_actors(cluster), "the audit's actors to end", 60)  # killed when the audit ends


def test_episodes_complete_exactly_once_when_the_worker_node_dies(cluster, local_run, tmp_path):
    """Last in the module: it kills the worker node."""
    out = tmp_path / "run"
    run = cluster.ec2audit(*RUN_ARGS, "--out", str(out), f"--ray={cluster.address}", background=True)
    with _reaped(run):
        scratch = cluster.tmp["worker"]
        # an episode's workspace, in the scratch folder of the worker node's actor (in its warm worker's folder)
        _wait_for(lambda: list(scratch.glob("ec2audit-slot-*/workers/w0/*/workspace")) or run.poll() is not None,
                  "an episode on the worker node")
        assert run.poll() is None, run.communicate()[1][-3000:]
        raylet = [pid for pid in _children(cluster.nodes["worker"].pid) if _name(pid) == "raylet"]
        assert len(raylet) == 1
        os.kill(raylet[0], signal.SIGKILL)
        stdout, stderr = run.communicate(timeout=DEADLINE_S)
    assert run.returncode == 0, stderr[-3000:]
    assert "(2 run, 0 resumed)" in stdout
    assert stderr.count("it runs again on another") == 1  # the worker node's episode, handed to the head's actor
    assert not list((out / "episodes").glob(".*"))  # no half-landed folder
    _same_run(out, local_run)
