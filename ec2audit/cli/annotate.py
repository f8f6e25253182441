"""`ec2audit annotate`: pre-label workspace data, round-trip it through Label Studio, get units back."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ec2audit import resources
from ec2audit.console import make_console, plural
from ec2audit.errors import InputError


@click.group("annotate")
def command() -> None:
    """Turn task data into sensitive units: pre-label, correct in Label Studio, pull units back."""


def _write_json(data, out: Path) -> None:
    from ec2audit.files import open_private

    with open_private(out, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=1)


def _units_from_pulled(pulled, merge_rule: str, reviewer: str | None, out: Path, workspace: Path | None) -> None:
    """Merge, check against the files, write units; say what was not used and why (exit 1 if anything)."""
    from ec2audit.annotate.agreement import disagreements
    from ec2audit.annotate.labelstudio import check_against_files, units_from_annotations
    from ec2audit.annotate.workspace import read_tasks_or_workspace
    from ec2audit.units import write_units

    annotations, not_used = pulled.annotations, list(pulled.not_used)
    if workspace:
        docs, _ = read_tasks_or_workspace(workspace)
        annotations, refused = check_against_files(annotations, docs)
        not_used += refused
    units = units_from_annotations(annotations, merge_rule, reviewer)
    write_units(units, out)
    disputed = disagreements(annotations)
    if disputed:
        click.echo(f"{plural(len(disputed), 'span')} disputed between annotators were settled by --merge {merge_rule}: "
                   "`annotate disagreements` lists them and can push them back for review", err=True)
    for line in pulled.superseded:
        click.echo(f"superseded: {line}", err=True)
    for line in not_used:
        click.echo(f"not used: {line}", err=True)
    if pulled.predictions_only:
        click.echo(f"{plural(pulled.predictions_only, 'task has', 'tasks have')} predictions but no annotations "
                   "yet: submit them in Label Studio, or pass --predictions to take the predictions as they are",
                   err=True)
    documents = plural(len({a.key for a in annotations}), "annotated document")
    click.echo(f"{plural(len(units), 'unit')} from {documents} → {out}")
    if not_used:
        sys.exit(1)


_pull_options = [
    click.option("--merge", "merge_rule", type=click.Choice(["majority", "reviewer"]), default="majority",
                 show_default=True, help="How several annotators' spans become one set."),
    click.option("--reviewer", help="Annotator (e-mail) whose work wins with --merge reviewer."),
    click.option("--predictions", is_flag=True, help="Count each task's latest prediction as one more annotator."),
    click.option("--workspace", type=click.Path(exists=True, path_type=Path),
                 help="Check every span against the current files; spans whose text changed are refused."),
]


def pull_options(func):
    for option in reversed(_pull_options):
        func = option(func)
    return func


@command.command("prelabel")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Label Studio tasks JSON with predictions (import it, or `annotate push` it).")
@click.option("--units", "units_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the proposals as units JSONL (a fully automatic baseline).")
@click.option("--task-id", help="Task id for a plain workspace (default: its folder name).")
@click.option("--no-presidio", is_flag=True,
              help="Our recognizers and file structure only (fast, no spaCy): secrets, e-mails, phones (North "
                   "American, Chinese, any with a +country code, fictional 555-01xx and Ofcom drama ranges), "
                   "cards, IBANs, amounts, SSN/NI/passport numbers, "
                   "census and Chinese names, addresses, ICD-10 conditions, private IPs, internal hosts. Only "
                   "Presidio adds names and places its NER finds beyond those, national phone numbers without a "
                   "country code, public IPs, crypto wallets, US ITIN/driver's licence/bank numbers, UK NHS "
                   "numbers.")
def prelabel(path: Path, out: Path | None, units_out: Path | None, task_id: str | None, no_presidio: bool) -> None:
    """Propose sensitive spans for a workspace, a task dir or a whole task suite."""
    from rich.progress import Progress

    from ec2audit.annotate.labelstudio import ls_task
    from ec2audit.annotate.prelabel import Prelabeler, spans_to_units
    from ec2audit.annotate.workspace import read_tasks_or_workspace
    from ec2audit.units import write_units

    if not out and not units_out:
        raise InputError("say where to write: --out (Label Studio tasks) and/or --units (units JSONL)")
    docs, skipped = read_tasks_or_workspace(path, task_id, frozenset(p.resolve() for p in (out, units_out) if p))
    for skip in skipped:
        click.echo(f"skipped {skip.name}: {skip.reason}", err=True)
    labeler = Prelabeler(use_presidio=not no_presidio)
    with Progress(console=make_console(stderr=True), transient=True) as progress:
        bar = progress.add_task("pre-labelling", total=len(docs))
        spans = labeler.label(docs, progress=lambda n: progress.advance(bar, n))
    if out:
        _write_json([ls_task(d, s) for d, s in zip(docs, spans, strict=True)], out)
    n_units = 0
    if units_out:
        by_task: dict[str, list] = {}
        for d, s in zip(docs, spans, strict=True):
            by_task.setdefault(d.task_id, []).extend(s)
        units = [u for t, ss in by_task.items() for u in spans_to_units(ss, t)]
        write_units(units, units_out)
        n_units = len(units)
    click.echo(f"{plural(sum(map(len, spans)), 'span')} in {plural(len(docs), 'file')}"
               + (f" → {out}" if out else "") + (f"; {plural(n_units, 'unit')} → {units_out}" if units_out else ""))
    if any(not skip.tool for skip in skipped):
        sys.exit(1)


@command.command("push")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--url", required=True, help="Label Studio base URL, e.g. http://127.0.0.1:8080")
@click.option("--project", required=True, help="Project title (created when missing).")
@click.option("--overlap", type=click.IntRange(min=1),
              help="Annotators per task (Label Studio's maximum_annotations; default 1 for a new project).")
@click.option("--ml-backend", help="Connect the project to this ML backend (`serve` prints its URL): tasks "
                                   "added later get predictions from it.")
def push(files: tuple[Path, ...], url: str, project: str, overlap: int | None, ml_backend: str | None) -> None:
    """Import Label Studio task files (from `prelabel --out`); tasks already there are not added again,
    a changed file updates its task (or, once annotated, comes in as a new version).

    The API token comes from LABEL_STUDIO_API_KEY."""
    from ec2audit.annotate.labelstudio import (
        base_url,
        check_labels,
        connect,
        connect_ml_backend,
        find_project,
        read_export,
        server_errors,
    )
    from ec2audit.annotate.labelstudio import push as push_tasks

    tasks = []
    for f in files:
        part = read_export(f)
        check_labels(part, f)
        tasks += part
    ls = connect(url)
    with server_errors(url):
        result = push_tasks(ls, project, tasks, overlap)
        if ml_backend:
            connect_ml_backend(ls, find_project(ls, project), base_url(ml_backend))
    click.echo(f"project {result.project_id}: {plural(result.created, 'task')} imported, "
               f"{result.unchanged} already there, {result.updated} changed and updated, "
               f"{result.versioned} changed and added as a new version")


@command.command("pull")
@click.option("--url", required=True, help="Label Studio base URL.")
@click.option("--project", required=True, help="Project title.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path), help="Units JSONL to write.")
@click.option("--export", "export_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Also keep the raw Label Studio JSON export.")
@pull_options
def pull(url: str, project: str, out: Path, export_out: Path | None, merge_rule: str, reviewer: str | None,
         predictions: bool, workspace: Path | None) -> None:
    """Export a project's annotations and turn them into units (token from LABEL_STUDIO_API_KEY)."""
    from ec2audit.annotate.labelstudio import annotations_from_export, connect, export_tasks, server_errors, user_emails

    ls = connect(url)
    with server_errors(url):
        tasks = export_tasks(ls, project)
        users = user_emails(ls)
    if export_out:
        _write_json(tasks, export_out)
    _units_from_pulled(annotations_from_export(tasks, users, predictions), merge_rule, reviewer, out, workspace)


@command.command("from-labelstudio")
@click.argument("export", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path), help="Units JSONL to write.")
@pull_options
def from_labelstudio(export: Path, out: Path, merge_rule: str, reviewer: str | None, predictions: bool,
                     workspace: Path | None) -> None:
    """Units from a Label Studio JSON export file (no server needed)."""
    from ec2audit.annotate.labelstudio import annotations_from_export, read_export

    try:
        pulled = annotations_from_export(read_export(export), predictions=predictions)
    except InputError as exc:
        raise InputError(exc.reason, file=str(export), line=exc.line, field=exc.field) from None
    _units_from_pulled(pulled, merge_rule, reviewer, out, workspace)


@command.command("to-labelstudio")
@click.argument("units_path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--workspace", required=True, type=click.Path(exists=True, path_type=Path),
              help="The workspace (or task suite) the units' source files are in.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Label Studio tasks JSON with the units as predictions.")
def to_labelstudio(units_path: Path, workspace: Path, out: Path) -> None:
    """Existing units (e.g. imported from AceBench) as Label Studio tasks, for review."""
    from ec2audit.annotate.labelstudio import ls_task
    from ec2audit.annotate.prelabel import units_to_spans
    from ec2audit.annotate.workspace import read_tasks_or_workspace
    from ec2audit.units import read_units

    units = read_units(units_path)
    docs, skipped = read_tasks_or_workspace(workspace, units[0].task_id if units else None)
    for skip in skipped:
        click.echo(f"skipped {skip.name}: {skip.reason}", err=True)
    spans, unplaced = units_to_spans(units, docs)
    _write_json([ls_task(d, spans.get((d.task_id, d.file), []), "units") for d in docs], out)
    for unit in unplaced:
        click.echo(f"{unit.id}: value not found in the workspace files", err=True)
    click.echo(f"{plural(len(docs), 'task')}, {plural(sum(map(len, spans.values())), 'span')} → {out}")
    if unplaced:
        sys.exit(1)


def _project_export(export: Path | None, url: str | None, project: str | None):
    """(export tasks, user e-mails, client or None) from an export file or a live project."""
    from ec2audit.annotate.labelstudio import connect, export_tasks, read_export, server_errors, user_emails

    if export and not url:
        return read_export(export), {}, None
    if not (url and project) or export:
        raise InputError("give either a Label Studio export file, or --url and --project")
    ls = connect(url)
    with server_errors(url):
        return export_tasks(ls, project), user_emails(ls), ls


def _annotations(tasks, users, source: str):
    from ec2audit.annotate.labelstudio import annotations_from_export

    try:
        return annotations_from_export(tasks, users).annotations
    except InputError as exc:
        raise InputError(exc.reason, file=source, field=exc.field) from None


_source_options = [
    click.argument("export", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)),
    click.option("--url", help="Label Studio base URL (instead of an export file)."),
    click.option("--project", help="Project title (with --url)."),
]


def source_options(func):
    for option in reversed(_source_options):
        func = option(func)
    return func


@command.command("agreement")
@source_options
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path), help="Also write the figures as JSON.")
def agreement(export: Path | None, url: str | None, project: str | None, report: Path | None) -> None:
    """How much annotators agree: span F1 and Cohen's κ per annotator pair, overall and per dimension."""
    from rich.table import Table

    from ec2audit.annotate.agreement import agreement_report

    tasks, users, _ = _project_export(export, url, project)
    result = agreement_report(_annotations(tasks, users, str(export or url)))
    if not result["pairs"]:
        click.echo(f"no document has two annotators ({plural(len(result['annotators']), 'annotator')}, "
                   f"{plural(result['documents'], 'document')})")
    table = Table(title="Agreement between annotators")
    for name in ("annotators", "dimension", "documents", "spans", "shared", "span F1", "Cohen's κ"):
        table.add_column(name)
    for p in result["pairs"]:
        for dim, f in [("all", p), *p["dimensions"].items()]:
            table.add_row(" vs ".join(p["annotators"]) if dim == "all" else "", dim, str(p["documents"]),
                          f"{f['spans_a']}/{f['spans_b']}", str(f["shared"]), f"{f['span_f1']:.3f}",
                          f"{f['kappa']:.3f}")
    if result["pairs"]:
        make_console().print(table)
    if report:
        _write_json(result, report)


@command.command("disagreements")
@source_options
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the disputed spans as JSONL.")
@click.option("--push-review", is_flag=True,
              help="Add a review task per disputed document to the project: each annotator's work is a "
                   "prediction; the reviewer's annotation there settles the document.")
def disagreements(export: Path | None, url: str | None, project: str | None, out: Path | None,
                  push_review: bool) -> None:
    """Spans annotators disagree on (marked by some only, or labelled differently), with each one's vote."""
    from ec2audit.annotate.agreement import disagreements as find_disagreements
    from ec2audit.annotate.labelstudio import push_reviews, review_tasks, server_errors

    tasks, users, ls = _project_export(export, url, project)
    if push_review and ls is None:
        raise InputError("--push-review needs --url and --project")
    disputed = find_disagreements(_annotations(tasks, users, str(export or url)))
    for d in disputed:
        votes = ", ".join(f"{who}: {label or '—'}" for who, label in d["votes"].items())
        click.echo(f"{d['key']} {d['start']}–{d['end']} {d['text'][:60]!r}  {votes}")
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in disputed), encoding="utf-8")
    documents = len({d["key"] for d in disputed})
    click.echo(f"{plural(len(disputed), 'disputed span')} in {plural(documents, 'document')}")
    if push_review and disputed and url and project:  # a server (`ls`) means both were given
        with server_errors(url):
            result = push_reviews(ls, project, review_tasks(tasks, disputed, users))
        click.echo(f"project {result.project_id}: {plural(result.created, 'review task')} added, "
                   f"{result.unchanged} already there")


@command.command("serve")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
              default=resources.layout().labelstudio_data, show_default=True)
@click.option("--port", type=int, default=8080, show_default=True)
@click.option("--ml-port", type=int, default=0, help="Port of the ML backend (default: a free one).")
@click.option("--ml-presidio", is_flag=True, help="The ML backend also runs Presidio (slower, needs spaCy).")
def serve(data_dir: Path, port: int, ml_port: int, ml_presidio: bool) -> None:
    """Run a local Label Studio on 127.0.0.1 with a generated admin, and our recognizers as its ML
    backend (`push --ml-backend URL` connects a project); Ctrl-C (or SIGTERM) stops both."""
    import signal

    from ec2audit.annotate import mlbackend, server
    from ec2audit.intercept.server import serve_in_thread

    stopping = False

    def _interrupt(signum, frame):
        nonlocal stopping
        if not stopping:  # once: a second Ctrl-C must not cut short the stop the first began (Label Studio left)
            stopping = True
            raise KeyboardInterrupt

    for signum in (signal.SIGINT, signal.SIGTERM):  # stop Label Studio too (even where SIGINT was ignored)
        signal.signal(signum, _interrupt)
    ml_url, stop_ml = serve_in_thread(mlbackend.app(use_presidio=ml_presidio), port=ml_port)
    try:
        srv = server.start(data_dir, port=port)
    except BaseException:
        stop_ml()
        raise
    try:  # the banner inside: a supervisor signals once it names the server, and that stop must stop both
        server.remember(data_dir, ml_backend=ml_url)
        creds = data_dir / server.CREDENTIALS_FILE
        click.echo(f"Label Studio {server.LABEL_STUDIO_VERSION} at {srv.url} (admin {srv.username}); "
                   f"password and API token in {creds} (0600); ML backend at {ml_url}")
        read_token = f"python -c \"import json;print(json.load(open('{creds}'))['token'])\""
        click.echo(f"  export LABEL_STUDIO_API_KEY=$({read_token})")
        sys.stdout.flush()
        srv.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        stopping = True
        srv.stop()
        stop_ml()


@command.command("prepare-template")
@click.argument("target", type=click.Path(file_okay=False, path_type=Path))
def prepare_template(target: Path) -> None:
    """Migrate an empty Label Studio database once into TARGET (`serve` and the tests copy it)."""
    from ec2audit.annotate import server

    server.prepare_template(target)
    click.echo(f"Label Studio template ready in {target}")
