"""`ec2audit report` on run directories (Run results contract) and on `ec2audit audit` outputs.

The run directory is written here the way the runner writes one: seeded synthetic units and cloud-bound
requests, each episode's requests stored in the interceptor's record store (`cloud.sqlite`) and audited
by the real audit, episodes.parquet/findings.parquet/summary.json/run.json beside them.
"""

from __future__ import annotations

import json
import re
import stat
import time
from collections import defaultdict
from html import escape
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from ec2audit.audit import audit
from ec2audit.cli import main
from ec2audit.files import write_table
from ec2audit.intercept.record import ProxyRecord
from ec2audit.intercept.store import RecordStore
from ec2audit.payloads import payload_from_record
from ec2audit.report.html import pareto_front
from ec2audit.synth import make_payloads, make_units, write_jsonl
from ec2audit.units import read_units, write_units

STRATEGIES = {  # strategy: (router, share of the task's requests that go to the cloud, completion of runs)
    "edge-only": (None, 0.0, (0.2, 0.4)),
    "cloud-only": (None, 1.0, (1.0, 1.0)),
    "query-router": ("task-llm", 1.0, (1.0, 0.5)),
    "step-router": ("entropy", 0.5, (0.8, 0.7)),
    "edge-delegate": (None, 0.34, (0.75, 0.5)),
    "edge-advice": (None, 0.25, (0.6, 0.9)),
}
UNPRICED = "edge-advice"  # its cloud model has no price: USD must show as unknown, not as 0


def _leaked_units(findings: pl.DataFrame, call_of: dict[str, int]) -> list[dict]:
    leaks: dict[str, dict] = {}
    for row in findings.iter_rows(named=True):
        leak = leaks.get(row["unit_id"])
        if leak is None:
            leaks[row["unit_id"]] = {k: row[k] for k in ("unit_id", "dimension", "grade", "payload_id", "origin",
                                                           "message_index", "detector", "start", "end",
                                                           "matched_text")} | {"first_call": call_of[row["payload_id"]]}
        else:
            leak["grade"] = max(leak["grade"], row["grade"])
    return list(leaks.values())


def write_run_dir(run_dir: Path, edge_model: str = "smollm2-135m", seed: int = 3) -> Path:
    """A run directory following the Run results contract: 2 tasks × 6 strategies × 2 runs."""
    units = make_units(24, 2, seed=seed)
    records, _ = make_payloads(units, 60_000, seed=seed, leak_rate=0.3, filler_chars=300)
    by_task: dict[str, list[dict]] = {}
    for record in records:
        by_task.setdefault(record["task_id"], []).append(record)
    store = RecordStore(run_dir / "cloud.sqlite")
    payloads, episodes, call_of = [], [], {}
    for task_id, task_records in sorted(by_task.items()):
        for strategy, (router, share, completions) in STRATEGIES.items():
            for run_index, completion in enumerate(completions):
                episode_id = f"{task_id}/{strategy}/{run_index}"
                sent = task_records[: round(share * len(task_records))]
                for call, record in enumerate(sent):
                    rid = f"{episode_id}/call-{call}"
                    call_of[rid] = call
                    body = record["request"]
                    store.add(ProxyRecord(id=rid, episode=episode_id, ts=time.time(), api="openai-chat",
                                          model=body["model"], request=body, status=200,
                                          input_tokens=900, cached_tokens=300, output_tokens=40))
                    payloads.append(payload_from_record({"id": rid, "episode": episode_id, "task_id": task_id,
                                                         "request": body}, rid))
                episodes.append({
                    "episode_id": episode_id, "task_id": task_id, "scenario": "office", "strategy": strategy,
                    "router": router, "edge_model": edge_model,
                    "cloud_context": "full" if strategy in ("edge-delegate", "edge-advice") else None,
                    "cloud_model": "oracle-standin", "run_index": run_index,
                    "status": "ok" if completion > 0.2 else "timeout", "completion": completion,
                    "criteria": json.dumps({"done": completion >= 0.7}), "passed": completion >= 0.7,
                    "cloud_calls": len(sent), "cloud_input_tokens": 900 * len(sent),
                    "cloud_cached_tokens": 300 * len(sent), "cloud_output_tokens": 40 * len(sent),
                    "cloud_usd": None if strategy == UNPRICED else 0.0021 * len(sent),
                    "edge_calls": 3, "edge_input_tokens": 2000, "edge_output_tokens": 150,
                    "edge_flops": 2 * 135e6 * 2150, "duration_s": 12.5})
    store.close()
    result = audit(payloads, units)
    findings = result.findings_frame()
    exposure = {g: e for g, _, e in result.exposure().select("group", "task_id", "exposure").iter_rows()}
    by_dim = result.exposure_by_dimension()
    for ep in episodes:
        mine = findings.filter(pl.col("group") == ep["episode_id"])
        ep["exposure"] = exposure.get(ep["episode_id"], 0.0)
        dims = {d: e for d, e in by_dim.filter(pl.col("group") == ep["episode_id"])
                .select("dimension", "exposure").iter_rows()}
        task_dims = {u.dimension for u in units if u.task_id == ep["task_id"]}
        ep["exposure_by_dimension"] = json.dumps({d: dims.get(d, 0.0) for d in sorted(task_dims)})
        ep["leaked_units"] = json.dumps(_leaked_units(mine, call_of), ensure_ascii=False)
    frame = pl.DataFrame(episodes)
    write_table(frame, run_dir / "episodes.parquet")
    write_table(frame, run_dir / "episodes.jsonl")
    write_table(findings, run_dir / "findings.parquet")
    (run_dir / "run.json").write_text(json.dumps({"strategies": list(STRATEGIES), "runs": 2}))
    (run_dir / "summary.json").write_text(json.dumps({}))
    write_units(units, run_dir / "units.jsonl")
    return run_dir


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory) -> Path:
    return write_run_dir(tmp_path_factory.mktemp("run"))


def _report(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["report", *args], env={"COLUMNS": "220"})
    return result.exit_code, result.output


def _expected(run_dir: Path) -> dict[str, dict]:
    """The strategy table's figures, computed here from episodes.parquet independently of the report."""
    episodes = pl.read_parquet(run_dir / "episodes.parquet").to_dicts()
    expected = {}
    for strategy in STRATEGIES:
        mine = [e for e in episodes if e["strategy"] == strategy]
        per_task: dict[str, list[bool]] = {}
        for e in mine:
            per_task.setdefault(e["task_id"], []).append(e["passed"])
        usd = [e["cloud_usd"] for e in mine]
        expected[strategy] = {
            "completion": sum(e["completion"] for e in mine) / len(mine),
            "pass_hat_k": sum(all(v) for v in per_task.values()) / len(per_task),
            "pass_at_k": sum(any(v) for v in per_task.values()) / len(per_task),
            "cloud_input_tokens": sum(e["cloud_input_tokens"] for e in mine),
            "cloud_cached_tokens": sum(e["cloud_cached_tokens"] for e in mine),
            "cloud_output_tokens": sum(e["cloud_output_tokens"] for e in mine),
            "cloud_usd": None if None in usd else sum(usd),
            "edge_flops": sum(e["edge_flops"] for e in mine),
            "exposure": sum(e["exposure"] for e in mine) / len(mine),
        }
    return expected


def test_json_on_stdout_leaves_no_html_file_it_was_not_asked_for(run_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, output = _report(str(run_dir), "--json")
    assert code == 0, output
    assert json.loads(output)["strategies"] and not (tmp_path / "report.html").exists()
    code, output = _report(str(run_dir))  # the terminal tables: the HTML report lands where it says
    assert code == 0, output
    assert "report: report.html" in output and (tmp_path / "report.html").stat().st_size > 0


def test_json_summary_holds_the_numbers_of_the_run(run_dir, tmp_path):
    out = tmp_path / "report.html"
    code, output = _report(str(run_dir), "--out", str(out), "--json")
    assert code == 0, output
    data = json.loads(output)
    rows = {r["strategy"]: r for r in data["strategies"]}
    assert set(rows) == set(STRATEGIES)
    for strategy, figures in _expected(run_dir).items():
        for key, value in figures.items():
            assert rows[strategy][key] == (None if value is None else pytest.approx(value)), (strategy, key)
        assert rows[strategy]["k"] == 2 and rows[strategy]["episodes"] == 4
    assert rows["edge-only"]["exposure"] == 0 and rows["cloud-only"]["exposure"] > 0
    assert rows["cloud-only"]["by_dimension"] and set(data["dimensions"]) >= set(rows["cloud-only"]["by_dimension"])
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert out.read_text().startswith("<!DOCTYPE html>")


def _expected_dimensions(run_dir: Path) -> dict[str, tuple[dict[str, float], int]]:
    """Per strategy: each dimension's exposure (Σ grade·weight / Σ weight over the task's units of that
    dimension) averaged over its episodes, and the (episode, unit) pairs leaked at grade ≥ 0.7 — from
    findings.parquet and units.jsonl, not from the episodes' own exposure columns."""
    units = read_units(run_dir / "units.jsonl")
    best: dict[tuple[str, str], float] = {}
    for row in pl.read_parquet(run_dir / "findings.parquet").iter_rows(named=True):
        key = (row["group"], row["unit_id"])
        best[key] = max(best.get(key, 0.0), row["grade"])
    episodes = pl.read_parquet(run_dir / "episodes.parquet").to_dicts()
    expected = {}
    for strategy in STRATEGIES:
        per_dimension: dict[str, list[float]] = defaultdict(list)
        leaked = 0
        for episode in (e for e in episodes if e["strategy"] == strategy):
            grade = {u.id: best.get((episode["episode_id"], u.id), 0.0)
                     for u in units if u.task_id == episode["task_id"]}
            mine = [u for u in units if u.id in grade]
            for dimension in {u.dimension for u in mine}:
                of_dim = [u for u in mine if u.dimension == dimension]
                per_dimension[dimension].append(sum(grade[u.id] * u.weight for u in of_dim)
                                                / sum(u.weight for u in of_dim))
            leaked += sum(1 for g in grade.values() if g >= 0.7)
        expected[strategy] = ({d: sum(v) / len(v) for d, v in per_dimension.items()}, leaked)
    return expected


def test_per_dimension_exposure_and_leaked_units_match_the_findings(run_dir, tmp_path):
    code, output = _report(str(run_dir), "--out", str(tmp_path / "r.html"), "--json")
    assert code == 0, output
    rows = {r["strategy"]: r for r in json.loads(output)["strategies"]}
    for strategy, (by_dimension, leaked) in _expected_dimensions(run_dir).items():
        assert rows[strategy]["by_dimension"] == pytest.approx(by_dimension), strategy
        assert rows[strategy]["leaked_units"] == leaked, strategy
    cloud_dims, cloud_leaked = _expected_dimensions(run_dir)["cloud-only"]
    assert cloud_leaked > 0 and sum(v > 0 for v in cloud_dims.values()) >= 2  # the figures are not all zero


def test_pareto_front_on_four_points():
    # (cost, completion): C=(3, .8) loses to B=(2, .9) on both; D=(2, .7) costs as much as B and completes
    # less; A=(1, .5) is the cheapest; B completes the most. The front, by cost: A then B.
    points = [(3.0, 0.8), (1.0, 0.5), (2.0, 0.7), (2.0, 0.9)]
    assert pareto_front(points) == [1, 3]


def test_the_plot_rings_exactly_the_front(run_dir, tmp_path):
    code, output = _report(str(run_dir), "--out", str(tmp_path / "r.html"), "--json")
    assert code == 0, output
    rows = json.loads(output)["strategies"]
    front = {rows[i]["label"] for i in pareto_front([(r["exposure"], r["completion"]) for r in rows])}
    html = (tmp_path / "r.html").read_text()
    plot = html[html.index('id="plot-exposure"'):]
    plot = plot[:plot.index("</svg>")]
    ringed = set(re.findall(r'<g class="point front">.*?<title>([^<:]+):', plot))
    assert ringed == front and len(front) < len(rows)


def test_drilldown_names_first_step_and_masks_values(run_dir, tmp_path):
    findings = pl.read_parquet(run_dir / "findings.parquet")
    episodes = pl.read_parquet(run_dir / "episodes.parquet")
    first_evidence = {leak["matched_text"] for raw in episodes["leaked_units"] for leak in json.loads(raw)}
    secrets = sorted(escape(t) for t in first_evidence if len(t) >= 12)
    every_value = {escape(t) for t in findings["matched_text"] if len(t) >= 12}
    assert secrets
    code, output = _report(str(run_dir), "--out", str(tmp_path / "masked.html"), "--json")
    assert code == 0, output
    html = (tmp_path / "masked.html").read_text()
    assert not [s for s in every_value if s in html or s in output]
    data = json.loads(output)
    cloud_only = [e for eps in data["tasks"].values() for e in eps if e["label"] == "cloud-only"]
    assert cloud_only and all(e["leaks"] for e in cloud_only)
    first = findings.filter(pl.col("group") == cloud_only[0]["episode_id"]).row(0, named=True)
    leak = next(x for x in cloud_only[0]["leaks"] if x["unit_id"] == first["unit_id"])
    assert leak["payload_id"] == first["payload_id"] and leak["step"] == 0
    assert leak["message_index"] == first["message_index"] and leak["origin"] == first["origin"]
    assert 'class="hit"' in html and "cloud.sqlite" not in html  # evidence came with its context

    code, output = _report(str(run_dir), "--out", str(tmp_path / "clear.html"), "--show-values")
    assert code == 0, output
    clear = (tmp_path / "clear.html").read_text()
    assert all(s in clear for s in secrets)


def test_terminal_tables(run_dir, tmp_path):
    code, output = _report(str(run_dir), "--out", str(tmp_path / "r.html"))
    assert code == 0, output
    expected = _expected(run_dir)
    for strategy in STRATEGIES:
        assert strategy in output
    assert f"{100 * expected['step-router']['completion']:.1f}%" in output
    assert "Exposure by dimension" in output and f"report: {tmp_path / 'r.html'}" in output


def test_several_runs_are_told_apart_by_edge_model(run_dir, tmp_path):
    other = write_run_dir(tmp_path / "other", edge_model="qwen3-0.6b", seed=4)
    code, output = _report(str(run_dir), str(other), "--out", str(tmp_path / "r.html"), "--json")
    assert code == 0, output
    labels = [r["label"] for r in json.loads(output)["strategies"]]
    assert len(labels) == 12 and len(set(labels)) == 12
    assert "cloud-only @ qwen3-0.6b" in labels and "cloud-only @ smollm2-135m" in labels


def test_audit_output_has_no_completion_columns(tmp_path):
    units = make_units(20, 2, seed=5)
    records, _ = make_payloads(units, 30_000, seed=5, leak_rate=0.3, filler_chars=300)
    write_units(units, tmp_path / "units.jsonl")
    write_jsonl(records, tmp_path / "payloads.jsonl")
    runner = CliRunner()
    audited = runner.invoke(main, ["audit", str(tmp_path / "payloads.jsonl"), "--units", str(tmp_path / "units.jsonl"),
                                   "--out", str(tmp_path / "findings.parquet"), "--json"])
    assert audited.exit_code == 0, audited.output
    groups = json.loads(audited.output)["exposure"]
    code, output = _report(str(tmp_path / "findings.parquet"), "--out", str(tmp_path / "r.html"), "--json")
    assert code == 0, output
    data = json.loads(output)
    row = data["strategies"][0]
    assert row["completion"] is None and row["pass_hat_k"] is None
    assert row["exposure"] == pytest.approx(sum(g["exposure"] for g in groups) / len(groups))
    assert {g["label"]: g["exposure"] for g in data["groups"]} == {
        g["group"]: pytest.approx(g["exposure"]) for g in groups}
    html = (tmp_path / "r.html").read_text()
    assert 'id="heatmap"' in html and 'id="plot-usd"' not in html and 'class="hit"' in html


def test_bad_input_is_named(tmp_path):
    (tmp_path / "empty").mkdir()
    code, output = _report(str(tmp_path / "empty"), "--out", str(tmp_path / "r.html"))
    assert code == 2 and "not a run directory" in output
    broken = tmp_path / "broken"
    broken.mkdir()
    pl.DataFrame().write_parquet(broken / "episodes.parquet")
    code, output = _report(str(broken), "--out", str(tmp_path / "r.html"))
    assert code == 2 and "no finished episode" in output
    pl.DataFrame({"episode_id": ["a"]}).write_parquet(broken / "episodes.parquet")
    code, output = _report(str(broken), "--out", str(tmp_path / "r.html"))
    assert code == 2 and "field 'task_id'" in output


def test_demo_audit_only_path_writes_a_report(tmp_path, capsys):
    from ec2audit import demo

    demo.main(["--audit-only", "--out", str(tmp_path)])
    printed = capsys.readouterr().out
    assert f"report: {(tmp_path / 'report.html').resolve()}" in printed.replace("\n", "")
    assert (tmp_path / "findings.parquet").exists() and 'id="heatmap"' in (tmp_path / "report.html").read_text()


def _audited(tmp_path: Path, texts: dict[str, str]) -> Path:
    """`ec2audit audit --out` over one cloud call per session (texts by session), units of one task
    weighted 1, 1 and 2; the findings path."""
    units = [{"task_id": "billing", "entity_id": "P-1", "field": "name", "value": "Marguerite Lindqvist",
              "dimension": "person_name", "weight": 1.0},
             {"task_id": "billing", "entity_id": "P-1", "field": "phone", "value": "+1 415-555-0142",
              "dimension": "contact", "weight": 1.0},
             {"task_id": "billing", "entity_id": "P-1", "field": "diagnosis", "value": "type 2 diabetes",
              "dimension": "health", "weight": 2.0}]
    (tmp_path / "u.jsonl").write_text("".join(json.dumps(u) + "\n" for u in units))
    (tmp_path / "p.jsonl").write_text("".join(json.dumps({
        "id": f"req-{k}", "session_id": session, "task_id": "billing", "url": "https://api.openai.com/v1/chat/completions",
        "request": {"model": "gpt-5.4", "messages": [{"role": "user", "content": text}]}}) + "\n"
        for k, (session, text) in enumerate(texts.items())))
    audited = CliRunner().invoke(main, ["audit", str(tmp_path / "p.jsonl"), "--units", str(tmp_path / "u.jsonl"),
                                        "--out", str(tmp_path / "f.parquet")])
    assert audited.exit_code == 0, audited.output
    return tmp_path / "f.parquet"


def test_report_on_an_audit_counts_its_clean_sessions(tmp_path):
    """Two sessions leak, two are clean: 4 episodes, exposure the mean over all four (by hand: s1
    sends name + phone = 2 of weight 4, s2 name + diagnosis = 3 of 4, the clean ones 0)."""
    findings = _audited(tmp_path, {"s1": "Write to Marguerite Lindqvist at +1 415-555-0142.",
                                   "s2": "Marguerite Lindqvist has type 2 diabetes.",
                                   "s3": "Summarise the renewal policy.", "s4": "What is the weather?"})
    code, output = _report(str(findings), "--units", str(tmp_path / "u.jsonl"), "--payloads",
                           str(tmp_path / "p.jsonl"), "--out", str(tmp_path / "r.html"), "--json")
    assert code == 0, output
    data = json.loads(output)
    row = data["strategies"][0]
    assert row["episodes"] == 4 and row["tasks"] == 1 and row["leaked_units"] == 4
    assert row["exposure"] == pytest.approx((2 / 4 + 3 / 4 + 0 + 0) / 4)
    assert row["by_dimension"] == pytest.approx({"person_name": 0.5, "contact": 0.25, "health": 0.25})
    assert {g["label"]: g["exposure"] for g in data["groups"]} == pytest.approx(
        {"s1": 0.5, "s2": 0.75, "s3": 0.0, "s4": 0.0})
    assert sorted(e["episode_id"] for e in data["tasks"]["billing"]) == ["s1", "s2", "s3", "s4"]


def test_report_says_one_number_of_leaked_units(tmp_path):
    """A unit sent only in part (grade 0.3) reached the cloud but is not leaked (grade ≥ 0.7): the
    strategy table and the drill-down of the page give the same count."""
    findings = _audited(tmp_path, {"s1": "Write to Marguerite Lindqvist at +1 415-555-0142.",
                                   "s3": "Renewal for Ms Lindqvist, phone ending 0142."})
    code, output = _report(str(findings), "--units", str(tmp_path / "u.jsonl"), "--out", str(tmp_path / "r.html"),
                           "--json")
    assert code == 0, output
    assert json.loads(output)["strategies"][0]["leaked_units"] == 2
    html = (tmp_path / "r.html").read_text()
    assert re.findall(r"(\d+) leaked units?\b", html) == ["2", "2", "0"]  # the task, then s1 and s3


def test_an_audits_drilldown_names_the_call_the_audit_named(tmp_path):
    """`audit --out` then `report`: a session's first two calls are clean, its third sends the card.
    The audit says call #3; the report's "first call" is the same call, not the leak's rank among
    the calls that leaked (which said 0)."""
    log = tmp_path / "agent.jsonl"
    asked = []
    lines = []
    for text in ("Hello", "Any news on my refund?", "It went to card 4539 1488 0343 6467."):
        asked.append({"role": "user", "content": text})
        lines.append(json.dumps({"request": {"model": "gpt-4o", "messages": list(asked)}}))
    log.write_text("\n".join(lines) + "\n")
    units = Path(__file__).parent / "data" / "logs" / "units.jsonl"
    findings = tmp_path / "findings.parquet"
    audit = CliRunner().invoke(main, ["audit", str(log), "--units", str(units), "--out", str(findings)],
                               env={"COLUMNS": "200"})
    assert audit.exit_code == 0, audit.output
    assert re.search(r"P-001/card\s+financial\s+1\.0\s+#3 ", audit.output)
    code, output = _report(str(findings), "--out", str(tmp_path / "report.html"), "--json")
    assert code == 0, output
    [episode] = json.loads(output)["tasks"]["acme-billing"]
    assert [(leak["unit_id"], leak["step"]) for leak in episode["leaks"]] == [("acme-billing/P-001/card", 3)]
    assert "<td>1.0</td><td>3</td>" in (tmp_path / "report.html").read_text()


def test_a_store_audits_drilldown_names_the_record_that_first_sent_a_unit(tmp_path):
    """`intercept audit --out` then `report`: an episode's first two requests through the proxy are
    clean, its third sends the card; the report names call 3, as the log audit of the same store does."""
    store = RecordStore(tmp_path / "intercept.sqlite")
    asked = []
    for n, text in enumerate(("Hello", "Any news on my refund?", "It went to card 4539 1488 0343 6467."), 1):
        asked.append({"role": "user", "content": text})
        body = {"model": "gpt-4o", "messages": list(asked)}
        store.add(ProxyRecord(id=f"r{n}", episode="ep", ts=time.time(), api="openai-chat", model="gpt-4o",
                              request=body, status=200))
    store.close()
    units = Path(__file__).parent / "data" / "logs" / "units.jsonl"
    findings = tmp_path / "findings.parquet"
    result = CliRunner().invoke(main, ["intercept", "audit", str(store.path), "--units", str(units),
                                       "--out", str(findings)])
    assert result.exit_code == 0, result.output
    code, output = _report(str(findings), "--out", str(tmp_path / "report.html"), "--json")
    assert code == 0, output
    [episode] = json.loads(output)["tasks"]["acme-billing"]
    assert [(leak["unit_id"], leak["payload_id"], leak["step"]) for leak in episode["leaks"]] == [
        ("acme-billing/P-001/card", "r3", 3)]


def test_sessions_scored_against_their_own_calls_are_counted_under_the_task_they_are_shown_under(tmp_path):
    """Two sessions of a log match no task of the units file (each scored against the units found in
    its calls); one sends acme-billing's card. The drilldown shows both sessions, the leaking one
    under acme-billing: the strategies table counts that task (1), not 0, and so does its session row. The
    other, no unit in its calls, has nothing to score against (session 18: it was filed under "(units found
    in its calls)", though none was)."""
    log = tmp_path / "agent.jsonl"
    lines = [{"session_id": "chat-a", "request": {"model": "gpt-4o", "messages": [
                 {"role": "user", "content": "It went to card 4539 1488 0343 6467."}]}},
             {"session_id": "chat-b", "request": {"model": "gpt-4o", "messages": [
                 {"role": "user", "content": "What is the weather?"}]}}]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    findings = tmp_path / "findings.parquet"
    audit = CliRunner().invoke(main, ["audit", str(log), "--units", str(Path(__file__).parent / "data" / "logs" /
                                                                          "units.jsonl"), "--out", str(findings)])
    assert audit.exit_code == 0, audit.output
    assert "2 sessions matched no task of the units file" in " ".join(audit.output.split())
    code, output = _report(str(findings), "--out", str(tmp_path / "report.html"), "--json")
    assert code == 0, output
    data = json.loads(output)
    assert {task: [e["episode_id"] for e in eps] for task, eps in data["tasks"].items()} == {
        "acme-billing": ["chat-a"], "(nothing to score against)": ["chat-b"]}
    assert (data["strategies"][0]["episodes"], data["strategies"][0]["tasks"]) == (2, 1)
    assert {g["label"]: g["tasks"] for g in data["groups"]} == {"chat-a": 1, "chat-b": 0}


def test_an_interceptor_store_given_to_report_says_to_audit_it_first(tmp_path):
    store = RecordStore(tmp_path / "cloud.sqlite")
    store.close()
    code, output = _report(str(tmp_path / "cloud.sqlite"))
    assert code == 2, output
    assert "an interceptor's record store, not a findings table" in output
    assert f"ec2audit intercept audit {tmp_path / 'cloud.sqlite'}" in output and "Traceback" not in output
