"""Execution back-ends (`ec2audit.backends`): the process pool audits as the local back-end does,
its workers write the findings and send back no finding, and `report` reads a partitioned output.
Real audits of generated request logs through the CLI; no Ray (tests/test_scale_ray.py runs it)."""

from __future__ import annotations

import ast
import json
import stat
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from log_corpus import session_logs

from ec2audit.backends import Processes, get_backend
from ec2audit.cli import main
from ec2audit.files import write_table
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


def _audit(tmp_path: Path, corpus, *options: str) -> tuple[dict, pl.DataFrame, pl.DataFrame]:
    logs, units = corpus
    out = tmp_path / "findings.parquet"
    result = CliRunner().invoke(main, ["audit", str(logs), "--units", str(units), "--json", "--out", str(out),
                                       *options])
    assert result.exit_code == 1, result.output  # 1: a file was skipped
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["findings.parquet", "findings.sessions.parquet"]
    return (json.loads(result.stdout), pl.read_parquet(out),
            pl.read_parquet(tmp_path / "findings.sessions.parquet"))


def test_the_process_pool_writes_what_the_local_audit_writes(corpus, tmp_path):
    """Same summary, findings (row for row, calls numbered over the whole audit) and sessions table;
    the workers' scratch Parquet parts are gone once the command ends."""
    (tmp_path / "local").mkdir()
    (tmp_path / "pool").mkdir()
    summary, findings, sessions = _audit(tmp_path / "local", corpus)
    pooled = _audit(tmp_path / "pool", corpus, "--jobs", "2")
    assert summary["findings"] == findings.height > 100 and len(summary["sessions"]) >= 4
    assert pooled[0] == summary
    assert pooled[1].equals(findings)
    assert findings["call"].max() > findings.filter(pl.col("log_file").str.ends_with("session00.jsonl"))["call"].max()
    assert pooled[2].equals(sessions)


class Recording(Processes):
    """The process pool, keeping what its workers sent back."""

    def __init__(self, workers: int):
        super().__init__(workers)
        self.sent: list = []

    def map(self, start, work, plan):
        for result, where in super().map(start, work, plan):
            self.sent.append(result)
            yield result, where


def test_workers_send_back_counts_and_partial_results_never_findings(corpus, tmp_path):
    logs, units_path = corpus
    units = read_units(units_path)
    local = audit_logs([logs], units)
    backend = Recording(2)
    pooled = audit_logs([logs], units, backend=backend, scratch=tmp_path)
    assert len(backend.sent) > 2  # several batches
    for part in backend.sent:
        assert type(part) is LogAudit
        assert part.result.finding_rows == [] and part.carriers == [] and part.result.units == []
        assert all(type(row) is dict and row["group"] for row in part.first_sent)  # one per (session, unit)
        assert len(part.first_sent) <= sum(s.rows for s in part.spilled)
    assert sum(s.rows for p in backend.sent for s in p.spilled) == len(local.result.finding_rows) > 100
    assert pooled.leaked() == local.leaked() and pooled.exposure_rows() == local.exposure_rows()
    assert pooled.sessions() == local.sessions() and pooled.timeline() == local.timeline()
    folder = next(tmp_path.iterdir())
    assert folder.name.startswith("ec2audit-findings-") and list(folder.glob("part-*.parquet"))
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


def test_a_session_split_over_two_batches_is_attributed_as_locally(corpus, tmp_path):
    """Its later half re-finds what its first half sent: each unit still goes to the first cloud call
    that sent it at its best grade, and exposure, sessions and timeline are a local run's."""
    logs, units_path = corpus
    folder = tmp_path / "logs"
    folder.mkdir()
    for path in sorted(logs.glob("session*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        half = len(lines) // 2
        (folder / f"{path.stem}-a.jsonl").write_text("".join(lines[:half]), encoding="utf-8")
        (folder / f"{path.stem}-b.jsonl").write_text("".join(lines[half:]), encoding="utf-8")
    units = read_units(units_path)
    local = audit_logs([folder], units)
    backend = Recording(2)
    pooled = audit_logs([folder], units, backend=backend)
    assert len(backend.sent) >= 4  # the halves in different batches
    assert pooled.leaked() == local.leaked() != []
    assert pooled.exposure_rows() == local.exposure_rows() and pooled.sessions() == local.sessions()
    assert pooled.timeline() == local.timeline()
