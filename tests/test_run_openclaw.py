"""Acceptance: `ec2audit run` drives real OpenClaw (sandboxed) through the strategy gateway.

OpenClaw costs ~20 s of CPU per episode, so one module-scoped run covers three annotated tasks (from
three scenarios, exercising read, write, edit, exec and a mock service) under all six strategies,
and every assertion reads its results. Edge and cloud are the scripted oracle stand-ins; the checkers,
the interceptor, the audit and OpenClaw are real.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.intercept.store import RecordStore
from ec2audit.run.openclaw import TRANSCRIPT
from ec2audit.run.strategies import STRATEGIES as REGISTRY
from ec2audit.tasks import load_suite

pytestmark = pytest.mark.openclaw

STRATEGIES = tuple(REGISTRY)
TASKS = Path(__file__).resolve().parents[1] / "tasks"
EDGE_PARAMS = 135e6


def _read_share(task) -> float:
    """Weight share of the task's units that sit in files its oracle reads whole."""
    reads = {s["arguments"]["path"] for s in task.oracle["steps"]
             if s["tool"] == "read" and not {"limit", "offset"} & set(s["arguments"])}
    total = sum(u.weight for u in task.units)
    return sum(u.weight for u in task.units if u.source and u.source.file in reads) / total if total else 0.0


def _pick_tasks() -> list:
    """The shortest annotated task of three scenarios whose oracle reads files holding most unit weight."""
    chosen = []
    for scenario in ("office", "automation", "devops"):
        candidates = [t for t in load_suite(TASKS, scenario) if t.annotated and _read_share(t) > 0.6]
        chosen.append(min(candidates, key=lambda t: (len(t.oracle["steps"]), t.id)))
    return chosen


def _invoke(args: list[str]):
    root = [] if "--tasks-root" in args else ["--tasks-root", str(TASKS)]
    return CliRunner().invoke(main, ["run", "--edge", "oracle", "--edge-params", str(EDGE_PARAMS), *root, *args],
                              catch_exceptions=False)


@pytest.fixture(scope="module")
def tasks():
    return _pick_tasks()


@pytest.fixture(scope="module")
def main_run(tmp_path_factory, tasks):
    out = tmp_path_factory.mktemp("run") / "all"
    args = ["--strategy", "all", "--tasks", ",".join(t.id for t in tasks), "--router", "fixed:cloud",
            "--step-router", "random:0.5", "--parallel", "2", "--out", str(out)]
    result = _invoke(args)
    frame = pl.read_parquet(out / "episodes.parquet")
    return args, result, out, frame


def _row(frame: pl.DataFrame, task_id: str, strategy: str) -> dict:
    rows = frame.filter((pl.col("task_id") == task_id) & (pl.col("strategy") == strategy)).to_dicts()
    assert len(rows) == 1
    return rows[0]


def test_the_closing_table_names_the_stand_ins(main_run):
    output = " ".join(main_run[1].output.split())
    assert "stand-ins — cloud: a scripted oracle stand-in" in output and "edge: a scripted oracle stand-in" in output


def test_every_episode_records_what_the_checker_sees_in_the_workspace_openclaw_left(main_run, tasks):
    """Not the oracle's success (it was scripted to succeed): the recorded completion is the real checker's
    verdict on the episode's own final workspace, and OpenClaw's tool calls changed what it sees there."""
    _, result, out, frame = main_run
    assert result.exit_code == 0, result.output
    assert frame.height == len(tasks) * len(STRATEGIES)
    assert set(frame["status"]) == {"ok"}
    by_id = {t.id: t for t in tasks}
    for row in frame.to_dicts():
        task, folder = by_id[row["task_id"]], out / "episodes" / row["episode_id"]
        log = folder / "service.log"
        final = task.check(folder / "workspace", log if log.exists() else None)
        assert (row["completion"], json.loads(row["criteria"])) == (final.completion, final.criteria)
        assert final.completion > task.check(task.workspace).completion, row["episode_id"]
    assert "oracle-stand-in" in result.output and "stand-in" in frame["cloud_model"][0]


def test_edge_only_sends_nothing_to_the_cloud(main_run, tasks):
    frame = main_run[3]
    for task in tasks:
        row = _row(frame, task.id, "edge-only")
        assert row["cloud_calls"] == row["cloud_input_tokens"] == row["cloud_output_tokens"] == 0
        assert row["exposure"] == 0 and json.loads(row["leaked_units"]) == []
        assert row["edge_calls"] > 0


def test_cloud_only_exposes_most_of_what_the_oracle_reads(main_run, tasks):
    frame, out = main_run[3], main_run[2]
    for task in tasks:
        row = _row(frame, task.id, "cloud-only")
        assert row["exposure"] > 0.5 and row["edge_calls"] == 0
        leaked = json.loads(row["leaked_units"])
        assert any(item["origin"] == "tool_result" for item in leaked)
        unit_ids = {u.id for u in task.units}
        assert {item["unit_id"] for item in leaked} <= unit_ids
    findings = pl.read_parquet(out / "findings.parquet")
    assert set(findings["group"]) >= {_row(frame, t.id, "cloud-only")["episode_id"] for t in tasks}


def test_query_router_with_a_fixed_route_equals_the_matching_baseline(main_run, tasks):
    frame = main_run[3]
    for task in tasks:
        routed, baseline = _row(frame, task.id, "query-router"), _row(frame, task.id, "cloud-only")
        assert json.loads(routed["routes"]) == json.loads(baseline["routes"])
        assert set(json.loads(routed["routes"])) == {"cloud"}
        assert routed["cloud_calls"] == baseline["cloud_calls"]
        assert routed["exposure"] == pytest.approx(baseline["exposure"])


def test_step_router_mixes_sides_and_only_cloud_steps_are_audited(main_run):
    frame = main_run[3].filter(pl.col("strategy") == "step-router")
    routes = [r for row in frame["routes"] for r in json.loads(row)]
    assert {"edge", "cloud"} == set(routes)
    for row in frame.to_dicts():
        assert row["cloud_calls"] == json.loads(row["routes"]).count("cloud")


def test_delegate_and_advice_really_ask_the_cloud(main_run, tasks):
    frame, out = main_run[3], main_run[2]
    store = RecordStore(out / "cloud.sqlite")
    for strategy in ("edge-delegate", "edge-advice"):
        for task in tasks:
            row = _row(frame, task.id, strategy)
            assert row["asks"] > 0 and row["cloud_calls"] == row["asks"]
            requests = [r.request for r in store.records(row["episode_id"])]
            assert len(requests) == row["asks"]
            assert all("Question from the edge agent" in json.dumps(r["messages"]) for r in requests)
            if strategy == "edge-advice":
                assert all("tools" not in r for r in requests)


def test_tokens_usd_and_flops_are_recorded_and_add_up(main_run):
    out, frame = main_run[2], main_run[3]
    store = RecordStore(out / "cloud.sqlite")
    summary = json.loads((out / "summary.json").read_text())
    for row in frame.to_dicts():
        records = store.records(row["episode_id"])
        assert row["cloud_input_tokens"] == sum(r.input_tokens for r in records)
        assert row["cloud_output_tokens"] == sum(r.output_tokens for r in records)
        assert row["cloud_usd"] == pytest.approx(sum(r.cost_usd for r in records))
        assert row["edge_flops"] == 2 * EDGE_PARAMS * (row["edge_input_tokens"] + row["edge_output_tokens"])
        assert (row["cloud_usd"] > 0) == (row["cloud_calls"] > 0)
    for variant, s in summary.items():
        rows = frame.filter(pl.col("variant") == variant)
        assert s["cloud_input_tokens"] == rows["cloud_input_tokens"].sum()
        assert math.isclose(s["cloud_usd"], rows["cloud_usd"].sum())
        assert math.isclose(s["edge_flops"], rows["edge_flops"].sum())
        assert s["completion_mean"] == pytest.approx(rows["completion"].mean())
    assert json.loads((out / "run.json").read_text())["cloud"]["name"].startswith("oracle-stand-in")


def test_episode_folders_keep_openclaw_outputs(main_run):
    out, frame = main_run[2], main_run[3]
    folder = out / "episodes" / frame["episode_id"][0]
    envelope = json.loads((folder / "stdout.json").read_text())
    assert envelope["ok"] is True and envelope["provider"] == "ec2gw"
    assert (folder / "state/agents/main/agent/openclaw-agent.sqlite").is_file()
    assert json.loads((folder / "openclaw.json").read_text())["models"]["mode"] == "replace"
    assert oct((out / "cloud.sqlite").stat().st_mode & 0o777) == "0o600"


def test_rerunning_the_same_command_resumes(main_run, tmp_path):
    args, _, shared, frame = main_run
    out = tmp_path / "copy"  # the shared run folder stays as the other tests read it
    shutil.copytree(shared, out, symlinks=True,
                    ignore=lambda folder, names: [n for n in names if Path(folder, n).is_socket()])
    (out / "episodes.parquet").unlink()
    again = _invoke([*args[:args.index("--out")], "--out", str(out)])
    assert again.exit_code == 0
    assert "0 run, 18 resumed" in again.output
    assert pl.read_parquet(out / "episodes.parquet").sort("episode_id").equals(frame.sort("episode_id"))


def test_cloud_context_decides_exposure(main_run, tasks, tmp_path):
    task = tasks[0]
    out = tmp_path / "query"
    result = _invoke(["--strategy", "edge-delegate", "--strategy", "edge-advice", "--tasks", task.id,
                      "--cloud-context", "query", "--parallel", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    query = pl.read_parquet(out / "episodes.parquet")
    for strategy in ("edge-delegate", "edge-advice"):
        narrow, full = _row(query, task.id, strategy), _row(main_run[3], task.id, strategy)
        assert narrow["status"] == "ok" and narrow["asks"] > 0
        assert full["exposure"] > 0 and narrow["exposure"] < full["exposure"]


def test_failures_end_the_episode_with_a_status_never_the_run(tasks, tmp_path):
    task = tasks[0]
    gives_up = CliRunner().invoke(main, ["run", "--edge", "oracle:gives-up", "--strategy", "edge-only",
                                         "--tasks", task.id, "--out", str(tmp_path / "gives-up")])
    dead = CliRunner().invoke(main, ["run", "--edge", "http://127.0.0.1:9/v1", "--edge-model", "gone",
                                     "--strategy", "edge-only", "--tasks", task.id, "--out", str(tmp_path / "dead")])
    quit_row = pl.read_parquet(tmp_path / "gives-up" / "episodes.parquet").to_dicts()[0]
    assert gives_up.exit_code == 0 and quit_row["status"] == "ok" and quit_row["completion"] < 0.7
    dead_row = pl.read_parquet(tmp_path / "dead" / "episodes.parquet").to_dicts()[0]
    assert dead.exit_code == 1 and dead_row["status"] == "model_error" and "gone" in dead_row["error"]
    # the failure is one line on the console: what, why, and where the episode's log is
    line = next(x for x in dead.output.splitlines() if x.startswith("model_error "))
    assert "a model endpoint failed" in line and "gone" in line
    assert line.endswith(f"(log: {tmp_path / 'dead' / 'episodes' / dead_row['episode_id'] / 'stderr.log'})")
    assert "Traceback" not in dead.output + gives_up.output


def test_a_deadline_that_lands_inside_a_tool_call_is_a_timeout(tasks, tmp_path):
    """OpenClaw reports a deadline that aborts a running tool as the tool's failure (exit 1)."""
    task = tasks[0]
    root = tmp_path / "tasks"
    copy = shutil.copytree(task.dir, root / task.scenario / task.id)
    (copy / "oracle.json").write_text(json.dumps({"steps": [{"tool": "exec", "arguments": {"command": "sleep 90"}}],
                                                  "final": "done"}), encoding="utf-8")
    result = _invoke(["--strategy", "edge-only", "--tasks", task.id, "--tasks-root", str(root), "--timeout", "20",
                      "--out", str(tmp_path / "slow")])
    row = pl.read_parquet(tmp_path / "slow" / "episodes.parquet").to_dicts()[0]
    assert result.exit_code == 1, result.output
    assert row["status"] == "timeout", row["error"]
    assert row["edge_calls"] == 1  # the exec never returned to ask for the next step
    assert not _processes_writing_to(tmp_path / "slow")  # the deadline ended `sleep 90` too


@pytest.mark.parametrize("presses", ["once", "repeatedly"])
def test_ctrl_c_stops_openclaw_and_leaves_a_consistent_run_folder(tasks, tmp_path, presses):
    """The episode's only step is `sleep 90`, so it is still running when OpenClaw's transcript appears. The run
    starts with SIGINT ignored, as a script's background job starts it: SIGINT still stops it (before, the run went
    on to its end: CI, session 23). Pressed every 20 ms until the run ends, Ctrl-C lands anywhere in the loop and
    the stop: raised there as KeyboardInterrupt it cut the stop short ("Aborted!", exit 1, no run tables) or left
    a lock the episode threads take held, and the run hung at its thread pool's shutdown (CI, session 24: no exit
    in 120 s)."""
    task, out = tasks[0], tmp_path / "interrupted"
    copy = shutil.copytree(task.dir, tmp_path / "tasks" / task.scenario / task.id)
    (copy / "oracle.json").write_text(json.dumps({"steps": [{"tool": "exec", "arguments": {"command": "sleep 90"}}],
                                                  "final": "done"}), encoding="utf-8")
    ec2audit = str(Path(sys.executable).parent / "ec2audit")
    process = subprocess.Popen([ec2audit, "run", "--edge", "oracle", "--strategy", "edge-only", "--tasks", task.id,
                                "--tasks-root", str(tmp_path / "tasks"), "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=sigint_ignored)
    # the episode's folder is in its warm worker's folder while it runs (and in episodes/ once it ended)
    started = out / "workers" / "w0" / f"{task.id}.edge-only.r0" / TRANSCRIPT
    while not started.exists() and process.poll() is None:
        time.sleep(0.05)  # polling for the event, not a guess at how long start-up takes
    process.send_signal(signal.SIGINT)
    if presses == "repeatedly":  # from the loop through the stop of its workers and servers to the end
        threading.Thread(target=_press_until_it_ends, args=(process,), daemon=True).start()
    output = process.communicate(timeout=120)[0]
    assert process.returncode == 130, output
    assert "re-run the command to resume" in output
    assert pl.read_parquet(out / "episodes.parquet").height == 0
    assert not list(out.glob("episodes/*/record.json"))
    assert not _processes_writing_to(out)  # no OpenClaw (or sandbox) left behind


def _press_until_it_ends(process: subprocess.Popen) -> None:
    while process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGINT)
        time.sleep(0.02)


def sigint_ignored() -> None:
    """A child's start with SIGINT ignored, as `cmd &` in a script (or `nohup`) starts it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _processes_writing_to(folder: Path) -> list[int]:
    """Processes with a file open under `folder`: sandboxed ones only show paths inside their sandbox in
    their arguments, but the episode's stdout/stderr files they inherit keep their host paths."""
    found = []
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        try:
            if any(os.readlink(fd).startswith(str(folder)) for fd in fd_dir.iterdir()):
                found.append(int(fd_dir.parent.name))
        except OSError:  # the process ended while we looked
            continue
    return found


def test_a_sandboxed_turn_loads_openclaw_from_the_shared_compile_cache(tmp_path):
    """Node keys cache entries by path and the sandbox shows OpenClaw elsewhere than the host: after the
    warm-up (inside the sandbox) every module a sandboxed one-reply turn loads comes from the cache."""
    from ec2audit.run.openclaw import done_endpoint, prepare, run_agent, warm_compile_cache
    from ec2audit.run.sandbox import probe

    sandbox = probe()
    warm_compile_cache(sandbox)
    (tmp_path / "empty").mkdir()
    prepare(tmp_path / "ep", tmp_path / "empty")
    with done_endpoint() as url:
        result = run_agent(tmp_path / "ep", "Reply with the word done.", url, 120, sandbox,
                           {"NODE_DEBUG_NATIVE": "COMPILE_CACHE"})
    log = (tmp_path / "ep" / "stderr.log").read_text(encoding="utf-8", errors="replace")
    assert result.exit_code == 0, result.stderr_tail
    assert result.isolation["filesystem"] == "episode"
    hits, misses = log.count("was accepted, keeping"), log.count("was not initialized")
    assert hits > 1000 and misses == 0, (hits, misses)
