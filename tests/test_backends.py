"""Execution back-ends (`ec2audit.backends`): the process pool audits as the local back-end does,
its workers write the findings and send back no finding, and `report` reads a partitioned output.
Real audits of generated request logs through the CLI; no Ray (tests/test_scale_ray.py runs it)."""

from __future__ import annotations

import ast
import contextlib
import json
import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from itertools import zip_longest
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from log_corpus import session_logs

from ec2audit.backends import Processes, get_backend
from ec2audit.cli import main
from ec2audit.files import write_table
from ec2audit.logs import audit as log_audit
from ec2audit.logs.audit import LogAudit, audit_logs, sessions_path
from ec2audit.logs.report import log_summary
from ec2audit.scale.audit import write_audit
from ec2audit.units import read_units

PACKAGE = Path(__file__).resolve().parents[1] / "ec2audit"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, Path]:
    """Request logs of several agent sessions, one file each, plus a note and a broken line: every
    file is read or named as skipped, by every back-end."""
    return session_logs(tmp_path_factory.mktemp("corpus"), 120, 3, 200_000, seed=11)


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Blocks of 16 kB: a corpus of a few MB is cut into many batches, as a large one is at the
    default block size (the driver plans the batches, so this reaches the workers)."""
    monkeypatch.setattr(log_audit, "MIN_BLOCK_BYTES", 16 << 10)
    monkeypatch.setattr(log_audit, "BLOCK_BYTES", 16 << 10)


def _audit(tmp_path: Path, corpus, *options: str) -> tuple[dict, pl.DataFrame, pl.DataFrame]:
    logs, units = corpus
    out = tmp_path / "findings.parquet"
    result = CliRunner().invoke(main, ["audit", str(logs), "--units", str(units), "--json", "--out", str(out),
                                       *options])
    assert result.exit_code == 1, result.output  # 1: a file or a line was skipped
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["findings.parquet", "findings.sessions.parquet"]
    return (json.loads(result.stdout), pl.read_parquet(out),
            pl.read_parquet(tmp_path / "findings.sessions.parquet"))


def test_the_process_pool_writes_what_the_local_audit_writes(corpus, tmp_path):
    """Same summary, findings (row for row and byte for byte, calls numbered over the whole audit) and
    sessions table; the workers' scratch Parquet parts are gone once the command ends."""
    (tmp_path / "local").mkdir()
    (tmp_path / "pool").mkdir()
    summary, findings, sessions = _audit(tmp_path / "local", corpus)
    pooled = _audit(tmp_path / "pool", corpus, "--jobs", "2")
    assert summary["findings"] == findings.height > 100 and len(summary["sessions"]) >= 4
    assert pooled[0] == summary
    assert pooled[1].equals(findings)
    written = [(tmp_path / run / "findings.parquet").read_bytes() for run in ("local", "pool")]
    assert written[0] == written[1]  # the pool's written by one of its workers, the same bytes
    assert findings["call"].max() > findings.filter(pl.col("log_file").str.ends_with("session00.jsonl"))["call"].max()
    assert pooled[2].equals(sessions)


def test_a_local_audit_writes_its_findings_a_few_rows_at_a_time_the_same_bytes(corpus, tmp_path, monkeypatch):
    """The findings an audit run here holds are made into frames (and joined with their calls) `HELD_ROWS` rows at
    a time as they are written, never all at once: the same JSONL and Parquet, byte for byte, as one frame of all
    of them; an audit that found nothing writes an empty table with every column."""
    logs, units = corpus
    made: list[int] = []
    held = LogAudit._held_findings

    def counted(self):
        for frame in held(self):
            made.append(frame.height)
            yield frame

    written = {}
    for rows in (1 << 30, 7):
        monkeypatch.setattr(log_audit, "HELD_ROWS", rows)
        monkeypatch.setattr(LogAudit, "_held_findings", counted)
        made.clear()
        for name in ("findings.jsonl", "findings.parquet"):
            out = tmp_path / str(rows) / name
            result = CliRunner().invoke(main, ["audit", str(logs), "--units", str(units), "--json", "--out", str(out)])
            assert result.exit_code == 1, result.output  # a file or a line was skipped
            written[rows, name] = out.read_bytes()
        found = json.loads(result.stdout)["findings"]
        assert found > 100 and sum(made) == 2 * found and max(made) == min(rows, found)
    assert written[7, "findings.jsonl"] == written[1 << 30, "findings.jsonl"]
    assert written[7, "findings.parquet"] == written[1 << 30, "findings.parquet"]
    lines = written[7, "findings.jsonl"].decode().splitlines()
    frame = pl.read_parquet(tmp_path / "7" / "findings.parquet")
    assert [json.loads(line) for line in lines] == frame.to_dicts() and frame.columns == list(log_audit.FINDINGS_SCHEMA)
    assert frame["call"].is_sorted() and frame["session"].n_unique() >= 4  # each row joined to its own call

    nobody = tmp_path / "nobody.jsonl"
    nobody.write_text(json.dumps({"task_id": "t9", "entity_id": "X", "field": "code", "value": "QZ-no-such-value-77",
                                  "dimension": "other", "weight": 1.0}) + "\n", encoding="utf-8")
    out = tmp_path / "none.parquet"
    result = CliRunner().invoke(main, ["audit", str(logs), "--units", str(nobody), "--json", "--out", str(out)])
    assert result.exit_code == 1 and json.loads(result.stdout)["findings"] == 0, result.output
    assert pl.read_parquet(out).schema == pl.Schema(log_audit.FINDINGS_SCHEMA)


def test_a_serial_audit_writes_its_calls_and_findings_as_it_goes_the_same_results(corpus, tmp_path, monkeypatch):
    """A serial audit writes the calls and findings it holds to its folder whenever `SPILL_ROWS` of either are
    held, and the rest at its end, so what it holds does not grow with the log: with 7, it never holds more than 7
    calls or rows plus one call's, every call and finding is written once, and the findings (JSONL, Parquet), the
    sessions table (its cloud usage read from the written calls) and the summary are those of an audit that held
    all of them to its end, which wrote nothing. Its folder is removed once the findings are written."""
    logs, units = corpus
    held: list[tuple[int, int]] = []  # (calls, finding rows) held at each write
    spill = LogAudit.spill_held

    def counted(self, prefix):
        held.append((len(self.calls), len(self.result.finding_rows)))
        spill(self, prefix)

    monkeypatch.setattr(LogAudit, "spill_held", counted)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    out: dict = {}
    for rows in (1 << 30, 7):
        monkeypatch.setattr(log_audit, "SPILL_ROWS", rows)
        for name in ("findings.jsonl", "findings.parquet"):  # `held`: the last audit's
            held.clear()
            path = tmp_path / str(rows) / name
            result = CliRunner().invoke(main, ["audit", str(logs), "--units", str(units), "--json", "--out", str(path)])
            assert result.exit_code == 1, result.output  # a file or a line was skipped
            out[rows, name] = path.read_bytes()
            assert list(scratch.iterdir()) == []
        out[rows, "sessions"] = pl.read_parquet(tmp_path / str(rows) / "findings.sessions.parquet")
        out[rows, "summary"] = json.loads(result.stdout)
        out[rows, "held"] = list(held)
    assert out[1 << 30, "held"] == []
    written = out[7, "held"]
    findings = out[7, "summary"]["findings"]
    calls = pl.read_parquet(tmp_path / "7" / "findings.parquet")["call"]
    per_call = calls.value_counts()["count"].max()
    assert findings > 100 and len(written) > findings // (7 + per_call)
    assert sum(r for _, r in written) == findings and sum(c for c, _ in written) >= calls.n_unique()
    assert all(c <= 7 and r < 7 + per_call for c, r in written)
    for name in ("findings.jsonl", "findings.parquet"):
        assert out[7, name] == out[1 << 30, name]
    assert out[7, "sessions"].equals(out[1 << 30, "sessions"]) and out[7, "summary"] == out[1 << 30, "summary"]
    assert out[7, "sessions"]["cloud_calls_without_usage"].sum() > 0


class Recording(Processes):
    """The process pool, keeping what its workers sent back."""

    def __init__(self, workers: int):
        super().__init__(workers)
        self.sent: list = []

    def map(self, start, work, plan):
        for result, where in super().map(start, work, plan):
            self.sent.append(result)
            yield result, where


def test_workers_send_back_counts_and_per_session_sums_never_rows(corpus, tmp_path):
    logs, units_path = corpus
    units = read_units(units_path)
    local = audit_logs([logs], units)
    backend = Recording(2)
    pooled = audit_logs([logs], units, backend=backend, scratch=tmp_path)
    assert len(backend.sent) > 2  # several batches
    for part in backend.sent:
        assert type(part) is LogAudit
        assert part.result.finding_rows == [] and part.carriers == [] and part.result.units == []
        assert part.calls == [] and part.first_sent == [] and part.result.grades == {}  # written, not sent
        assert set(part.exposed) <= set(part.result.tasks)  # sums per session
        assert all(Path(s.path("calls")).exists() for s in part.spilled if s.calls)
    # a part re-finds what an earlier part sent in a session both saw; those rows are dropped when read
    assert sum(s.rows for p in backend.sent for s in p.spilled) > pooled.finding_count()
    assert pooled.finding_count() == len(local.result.finding_rows) > 100
    assert pooled.findings_frame().equals(local.findings_frame())
    assert sum(s.calls for p in backend.sent for s in p.spilled) == len(local.calls)
    assert pooled.calls_frame().equals(local.calls_frame())
    assert pooled.leaked() == local.leaked() and pooled.exposure_rows() == local.exposure_rows()
    assert pooled.sessions() == local.sessions() and pooled.timeline() == local.timeline()
    folder = next(tmp_path.iterdir())
    assert folder.name.startswith("ec2audit-findings-") and list(folder.glob("part-*.first-sent.parquet"))
    del pooled
    assert not folder.exists()  # removed with the result


def test_report_reads_a_partitioned_audit_folder_as_it_reads_a_findings_file(corpus, tmp_path):
    logs, units_path = corpus
    log = audit_logs([logs], read_units(units_path), backend=get_backend("processes", workers=2))
    write_audit(log, log_summary(log), tmp_path / "folder")
    assert {p.name.split("=")[0] for p in (tmp_path / "folder" / "findings").iterdir()} == {"dimension"}
    log.write_findings(tmp_path / "file.parquet")
    write_table(log.sessions_frame(), sessions_path(tmp_path / "file.parquet"))
    reports = {}
    for name in ("folder", "file.parquet"):
        result = CliRunner().invoke(main, ["report", str(tmp_path / name), "--units", str(units_path), "--json",
                                           "--out", str(tmp_path / f"{name}.html")])
        assert result.exit_code == 0, result.output
        reports[name] = json.loads(result.output)
    def seen(report: dict) -> tuple:
        groups = [(g["label"], g["exposure"], g["leaked_units"], g["by_dimension"]) for g in report["groups"]]
        leaks = {t: [(e["episode_id"], e["exposure"], e["leaks"]) for e in eps] for t, eps in report["tasks"].items()}
        return groups, leaks

    assert seen(reports["folder"]) == seen(reports["file.parquet"])
    assert len(reports["folder"]["groups"]) >= 4
    assert sum(len(e["leaks"]) for eps in reports["folder"]["tasks"].values() for e in eps) > 10


def _imports(path: Path) -> set[str]:
    """The ec2audit modules a file imports, at its top or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m.startswith("ec2audit")}


def _package(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2])


def test_logs_and_run_never_import_scale_and_the_execution_packages_form_no_cycle():
    """`logs/` and `run/` reach Ray only through what they are given (a back-end, a runner); among
    logs, run, scale and the back-ends no package imports one that imports it back."""
    packages = {"ec2audit.logs", "ec2audit.run", "ec2audit.scale", "ec2audit.backends"}
    edges: dict[str, set[str]] = {p: set() for p in packages}
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        source = _package(module)
        if source in packages:
            edges[source] |= {_package(m) for m in _imports(path)} & packages - {source}
    assert "ec2audit.scale" not in edges["ec2audit.logs"] | edges["ec2audit.run"]
    assert not edges["ec2audit.backends"]

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in edges[start])

    assert [p for p in packages if reaches(p, p, set())] == []


def test_sessions_spanning_files_and_line_ranges_are_audited_as_locally(corpus, tmp_path):
    """The first half of every session in one request log, the sessions' lines interleaved, cut into
    line ranges; the second half of each in a file of its own. A later part re-finds what an earlier
    one sent: each unit still goes to the first cloud call that sent it, at its best grade, and the
    summary, the findings (steps and log lines too) and the sessions table are a serial audit's."""
    logs, units_path = corpus
    folder = tmp_path / "logs"
    folder.mkdir()
    halves = []
    for path in sorted(logs.glob("session*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        halves.append(lines[: len(lines) // 2])
        (folder / f"{path.stem}-b.jsonl").write_text("".join(lines[len(lines) // 2:]), encoding="utf-8")
    interleaved = [line for row in zip_longest(*halves) for line in row if line]
    (folder / "a-requests.jsonl").write_text("".join(interleaved), encoding="utf-8")
    units = read_units(units_path)
    backend = Recording(2)
    pooled = audit_logs([folder], units, backend=backend)
    assert sum(1 for part in backend.sent if part.split) >= 3  # the request log in ranges
    assert len(pooled.spanning) >= 4
    (tmp_path / "serial").mkdir()
    (tmp_path / "pool").mkdir()
    serial = _audit(tmp_path / "serial", (folder, units_path))  # the broken line is named in both
    assert serial[0]["leaked"] and len({r["first_call"] for r in serial[0]["leaked"]}) > 4
    steps = defaultdict(list)  # a session's calls are numbered once, across its two files
    for call in serial[0]["timeline"]:
        steps[call["session"]].append(call["step"])
    assert len(steps) >= 4 and all(s == list(range(1, len(s) + 1)) for s in steps.values()), steps
    for ours, theirs in zip(_audit(tmp_path / "pool", (folder, units_path), "--jobs", "2"), serial, strict=True):
        assert ours == theirs if isinstance(ours, dict) else ours.equals(theirs)


class _Joining(Processes):
    """A pool that says when it is joined, left and used: a cluster's back-end pays a join (a local Ray cluster's
    start, seconds) each time it is joined."""

    def __init__(self):
        super().__init__(2)
        self.events: list[str] = []

    @contextlib.contextmanager
    def connected(self):
        self.events.append("join")
        yield
        self.events.append("leave")

    def map(self, start, work, plan):
        self.events.append("map" if self.events and self.events[-1] != "leave" else "map outside")
        yield from super().map(start, work, plan)


def test_one_audit_joins_its_back_end_once_for_the_time_probe_and_the_audit(corpus, monkeypatch):
    """With more files than a probe task takes, the workers read the files' first times, then audit them: both
    inside one `connected()` (before: a local Ray cluster was started for the probe, stopped, started again)."""
    monkeypatch.setattr(log_audit, "PROBE_FILES", 4)
    logs, units = corpus
    backend = _Joining()
    audit_logs([logs], read_units(units), backend=backend)
    assert backend.events == ["join", "map", "map", "leave"]


POOLED_WORK = '''
import os, time

def no_state():
    return None

def mark(state, item):
    """Note the worker's process id, then take a moment: the pool stays busy."""
    with open(MARKS, "a") as marks:
        marks.write(f"{os.getpid()}\\n")
    time.sleep(0.2)
    return item
'''

POOLED_AUDIT = '''
import pooled
from ec2audit.backends import get_backend

if __name__ == "__main__":
    for _ in get_backend("processes", workers=2).map(pooled.no_state, pooled.mark, lambda workers: range(200)):
        pass
'''


@pytest.mark.parametrize("repeated", [False, True])
def test_sigterm_stops_a_pool_with_its_workers(tmp_path, repeated):
    """`timeout` or a job scheduler ends an `audit --jobs 2` with SIGTERM. Ended outright, the driver left its
    two workers (and their fork server) running for ever; now the pool is shut down as on Ctrl-C, and no
    worker outlives the driver. A supervisor that signals again while the pool shuts down changes nothing:
    before, the second SIGTERM raised inside the shutdown and the driver hung, its workers alive."""
    marks = tmp_path / "marks.txt"
    (tmp_path / "pooled.py").write_text(f"MARKS = {str(marks)!r}\n" + POOLED_WORK)
    (tmp_path / "audit.py").write_text(POOLED_AUDIT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(PACKAGE.parent)])}
    driver = subprocess.Popen([sys.executable, str(tmp_path / "audit.py")], env=env, stderr=subprocess.PIPE)
    while not marks.exists() or len(set(marks.read_text().split())) < 2:  # both workers at work
        assert driver.poll() is None, driver.stderr.read() if driver.stderr else ""
        time.sleep(0.05)
    driver.terminate()
    deadline = time.monotonic() + 120  # bounds only how long a driver that never ends hangs the test
    while driver.poll() is None and time.monotonic() < deadline:
        if repeated:
            driver.terminate()  # again and again, so that one lands inside the pool's shutdown
        time.sleep(0.01)
    hung = driver.poll() is None
    if hung:
        driver.kill()
        driver.wait()
    workers = {int(pid) for pid in marks.read_text().split()}
    alive = [pid for pid in workers if _alive(pid)]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    assert not hung and alive == [] and driver.returncode != 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
