"""Run configuration (models.toml, task selectors), `ec2audit router train` and `ec2audit doctor`."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.errors import InputError
from ec2audit.run.config import load_models, select_tasks
from ec2audit.run.routers import parse_router
from ec2audit.tasks import load_suite

ROOT = Path(__file__).resolve().parents[1]


def test_models_toml_reads_both_sides_and_refuses_keys(tmp_path):
    good = tmp_path / "models.toml"
    good.write_text('[edge]\nurl = "oracle"\nparams = 135e6\n[cloud]\nurl = "https://x/v1"\nmodel = "gpt-5.4"\n'
                    'api_key_env = "OPENAI_API_KEY"\n')
    edge, cloud = load_models(good)
    assert (edge.url, edge.params, cloud.model, cloud.api_key_env) == ("oracle", 135e6, "gpt-5.4", "OPENAI_API_KEY")
    bad = tmp_path / "bad.toml"
    bad.write_text('[cloud]\napi_key = "sk-secret"\n')
    with pytest.raises(InputError, match="api_key"):
        load_models(bad)


def test_the_example_models_file_loads():
    edge, cloud = load_models(ROOT / "runner" / "models.example.toml")
    assert edge.url is None and edge.constrain is True and cloud.api_key_env == "OPENAI_API_KEY"


def test_task_selectors():
    suite = load_suite(ROOT / "tasks")
    office = select_tasks(suite, "office")
    assert office and {t.scenario for t in office} == {"office"}
    one = suite[0]
    assert [t.id for t in select_tasks(suite, f"{one.id},{one.id}")] == [one.id]
    assert all(t.annotated for t in select_tasks(suite, "annotated"))
    with pytest.raises(InputError, match="no task matches"):
        select_tasks(suite, "nope-*")


def test_cli_choices_and_help_come_from_the_registries():
    from ec2audit.run.routers import ROUTERS
    from ec2audit.run.strategies import STRATEGIES

    help_text = " ".join(CliRunner().invoke(main, ["run", "--help"], terminal_width=400).output.split())
    assert all(name in help_text for name in STRATEGIES) and len(STRATEGIES) == 6
    assert all(router.usage in help_text for level in ROUTERS.values() for router in level.values())


def test_router_specs_are_checked():
    assert parse_router("fixed:edge").value == "edge"
    assert parse_router("entropy:1.5", level="step").value == 1.5
    for bad, step in (("fixed:moon", False), ("random:2", False), ("entropy:1", False), ("llm", True)):
        with pytest.raises(InputError):
            parse_router(bad, level="step" if step else "task")


def test_router_train_learns_which_tasks_need_the_cloud(tmp_path):
    suite = load_suite(ROOT / "tasks")
    hard = {t.id for t in suite if t.scenario == "search"}
    rows = [{"task_id": t.id, "strategy": s, "passed": s == "cloud-only" or t.id not in hard}
            for t in suite for s in ("edge-only", "cloud-only")]
    run_dir = tmp_path / "earlier"
    run_dir.mkdir()
    pl.DataFrame(rows).write_parquet(run_dir / "episodes.parquet")
    model_path = tmp_path / "router.json"
    share = len(hard) / len(suite)
    result = CliRunner().invoke(main, ["router", "train", str(run_dir), "--cloud-share", str(share),
                                       "--tasks-root", str(ROOT / "tasks"), "--out", str(model_path)])
    assert result.exit_code == 0, result.output
    model = json.loads(model_path.read_text())
    router = parse_router(f"learned:{model_path}")
    import asyncio

    routed = {t.id for t in suite if asyncio.run(router.route(t.instruction, None)) == "cloud"}
    assert routed == hard and model["cloud_share"] == pytest.approx(share)


def test_doctor_reports_each_component():
    result = CliRunner().invoke(main, ["doctor"])
    assert "OpenClaw 2026.9.6" in result.output and "sandbox" in result.output
    assert result.exit_code == (0 if "missing" not in result.output else 1)


def test_the_episode_table_schema_is_derived_from_the_record(tmp_path):
    from dataclasses import fields

    import polars as pl

    from ec2audit.run.record import EPISODE_SCHEMA, EpisodeRecord, episode_frame

    assert list(EPISODE_SCHEMA) == [f.name for f in fields(EpisodeRecord)]
    assert EPISODE_SCHEMA["passed"] == pl.Boolean and EPISODE_SCHEMA["cloud_usd"] == pl.Float64
    assert EPISODE_SCHEMA["run_index"] == pl.Int64 and EPISODE_SCHEMA["router"] == pl.String
    assert episode_frame([]).schema == pl.Schema(EPISODE_SCHEMA)  # an empty run still has every column


def test_a_failed_episode_is_explained_in_one_line(tmp_path):
    from ec2audit.run.record import EpisodeRecord
    from ec2audit.run.scheduler import failure_line

    fields = {"episode_id": "t1.edge-only.r0", "status": "timeout", "openclaw_s": 312.4,
              "error": "…partial debug line [embedded-run] phase=stream-ready"}
    line = failure_line(EpisodeRecord.from_dict(fields), tmp_path)
    assert line == (f"[red]timeout[/] t1.edge-only.r0 — OpenClaw hit its deadline after 312 s  "
                    f"(log: {tmp_path / 'episodes' / 't1.edge-only.r0' / 'stderr.log'})")
    crashed = EpisodeRecord.from_dict({**fields, "status": "crash", "error": "boot\nError: [bold] config invalid\n"})
    assert "exited without a result: Error: \\[bold] config invalid  (log:" in failure_line(crashed, tmp_path)
    assert "\n" not in failure_line(crashed, tmp_path)
