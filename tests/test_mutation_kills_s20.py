"""Hand mutants of session 20 (benchmarks/hand_mutants.py; RESULTS.md, "Hand mutants in the code changed in session
19"): planted one at a time in the code session 19 changed, each survivor a behaviour no test held. Each test here
kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files) or, where a
recognizer's span is the behaviour, by the spans the recognizer gives."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_zh_names import _names

from ec2audit.annotate.recognizers import default_registry
from ec2audit.cli import main


def _cli(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def _spans(family: str, text: str) -> list[str]:
    return [text[m.start:m.end] for m in default_registry([family]).analyze(text)]


# --- annotate/recognizers/records.py and person.py: what each recognizer proposes -------------------------------

@pytest.mark.parametrize("family,text,value", [
    ("records", "claim #4417 was approved", "4417"),  # four digits after a word for it (R4)
    ("records", "MRN 4829 seen in clinic", "4829"),  # four after a prefix (R4)
    ("records", "reopened CLM-2026-11-004417 today", "CLM-2026-11-004417"),  # three groups after the prefix (R9)
    ("records", "member ID: 5520193 on the card", "5520193"),  # `ID:` marks the member's number (R11)
    ("person", "Assignee: Priya Raman", "Priya Raman"),  # a ticket's people, names no list knows (P5)
    ("person", "Owner: Priya Raman", "Priya Raman"),
    ("person", "reply from Priyanka Raman<p.raman@example.com> today", "Priyanka Raman"),  # no space before < (P6)
    ("person", "Will Hartley Reviewed the patch", "Will Hartley"),  # the last word, no surname, trimmed (P12)
    ("person", "Called Mary Anne Lindqvist about it", "Mary Anne Lindqvist"),  # a second given name (P13)
    ("person", "Called Grace Afolabi about the claim", "Grace Afolabi"),  # a Yoruba surname, Faker's yo_NG (P16)
])
def test_a_recognizer_proposes_the_whole_value(family, text, value):
    assert value in _spans(family, text)


@pytest.mark.parametrize("family,text", [
    ("records", "claim: 01-03-2026 was the filing date"),  # a date written day first is when, not which (R6)
    ("person", "In August 2025 the release shipped"),  # census first names opening a sentence (P2)
    ("person", "See Also Graham"),
    ("person", "Merry Christmas to all"),
    ("person", "From: Customer Care <care@shop.example.com>"),  # a mailbox named in everyday words (P9)
    ("person", "     4\tJenkins Bot <jenkins@ci.example.com>"),  # a bot's mailbox in `git shortlog -sne` (P11)
])
def test_a_recognizer_leaves_a_look_alike_alone(family, text):
    assert _spans(family, text) == []


def test_discovery_keeps_a_short_record_number_after_its_word_and_names_an_account_an_account(tmp_path):
    """Notes an agent sent: a policy number and a member number of six digits after their words and markers, and
    an account number. By hand: 3 units; the first two are record numbers by the words before them (`policy no.`,
    `member ID:`, read 40 characters back), which a bare six-digit number would not be (`too few digits`); the
    account number's unit is named `account`, as no prefix or word makes it a record number (kills R7, R12)."""
    log = tmp_path / "req.json"
    log.write_text(json.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": (
        "Claims notes: renewal for policy no. 553201 is due; her member ID: 552019. Refund to account number "
        "74829163 at the branch.")}]}), encoding="utf-8")
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    leaked = {f["evidence"]: f["unit_id"].rsplit("/", 1)[1] for f in json.loads(output)["leaked"]}
    assert set(leaked) == {"553201", "552019", "74829163"}
    assert leaked["74829163"].startswith("account")


# --- annotate/recognizers/zh_pii.py: where a Chinese name starts -------------------------------------------------

def test_a_name_after_a_role_jieba_glues_to_it_keeps_its_surname():
    """jieba's dictionary holds 客户王 (an oddity), so the role's word runs over the name's first character; no
    surname follows that word, so the name still starts at 王: 王芳, not 芳确 (kills Z11)."""
    assert _names(["客户王芳确认了订单。"]) == [["王芳"]]


def test_a_patient_named_after_a_bed_number_is_a_name():
    """A ward's notes name a patient by bed (`12床王建国`): the bed is the role before the name (kills Z23)."""
    assert _names(["12床王建国今日出院。", "3床陈伟昨晚发热。"]) == [["王建国"], ["陈伟"]]


@pytest.mark.parametrize("text,names", [
    ("院长江高明宣布开会。", ["江高明"]),  # jieba reads 院|长江|高明: a role ends where the name starts
    ("班长江林涛负责。", ["江林涛"]),
    ("班主任李娜老师表扬了全班同学。", ["李娜"]),  # the word over the start is a title itself: 班主任 + 李娜
])
def test_a_name_right_after_a_title_starts_there_whatever_word_jieba_reads_over_it(text, names):
    """A title ends where the name begins (院长 + 江高明): the name starts there, though jieba reads a dictionary
    word over its start (长江, the river) and a surname after that word (高). Before: 高明 was proposed and 江高明
    lost. Where the word over the start is a title (班主任), the name still starts after it."""
    assert _names([text]) == [names]


# --- annotate/workspace.py: the people a workspace's git history names ------------------------------------------

def _git(repo: Path, *args: str, who: str = "", when: str = "") -> None:
    """Runs git in `repo` as `who` (`Name <address>`) at `when`, with no user or system configuration."""
    name, _, email = who.partition(" <")
    env = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email.rstrip(">"), "GIT_COMMITTER_NAME": name,
           "GIT_COMMITTER_EMAIL": email.rstrip(">"), "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when,
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin:/usr/local/bin"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)


def test_prelabel_reads_every_branch_and_each_person_once(tmp_path):
    """A repository with two commits by Ines on `main` and a fix by Tomasz on a branch not checked out. The git
    history's text as prelabel shows it to the annotator, by hand: each person's author and committer line once
    (git log lists Ines's twice), newest first, no blank line (a commit without trailers ends in one); Tomasz's
    branch is read too, as `git log --all` shows it (kills G2, G3, G4)."""
    ws = tmp_path / "claims"
    ws.mkdir()
    (ws / "notes.md").write_text("Export claims weekly.\n", encoding="utf-8")
    ines, tomasz = "Ines Carvalho <ines@segurosnorte.pt>", "Tomasz Wojcik <t.wojcik@segurosnorte.pt>"
    _git(ws, "init", "-q", "-b", "main")
    _git(ws, "commit", "-q", "--allow-empty", "-m", "first", who=ines, when="2026-11-20T10:00:00Z")
    _git(ws, "commit", "-q", "--allow-empty", "-m", "second", who=ines, when="2026-11-21T10:00:00Z")
    _git(ws, "checkout", "-q", "-b", "hotfix")
    _git(ws, "commit", "-q", "--allow-empty", "-m", "fix", who=tomasz, when="2026-11-22T10:00:00Z")
    _git(ws, "checkout", "-q", "main")
    out = tmp_path / "tasks.json"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--out", out, "--units", tmp_path / "u.jsonl")
    assert code == 0, output
    texts = {t["data"]["file"]: t["data"]["text"] for t in json.loads(out.read_text(encoding="utf-8"))}
    assert texts[".git (git log)"] == f"Author: {tomasz}\nCommitter: {tomasz}\nAuthor: {ines}\nCommitter: {ines}\n"


def test_prelabel_says_a_git_folder_it_cannot_read(tmp_path):
    """A `.git` folder that is no repository (a copy cut short): git fails, and prelabel says its commits were not
    read and why, the workspace's files still labelled; before, nothing said so (kills G6)."""
    ws = tmp_path / "claims"
    (ws / ".git").mkdir(parents=True)
    (ws / ".git" / "HEAD").write_text("not a ref\n", encoding="utf-8")
    (ws / "notes.md").write_text("Called Marguerite Lindqvist about the claim.\n", encoding="utf-8")
    units = tmp_path / "u.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--out", tmp_path / "t.json", "--units", units)
    assert code == 0, output
    assert f"skipped {ws / '.git'}/: tool folder, not data (1 file); its commits not read (" in output
    assert [json.loads(line)["value"] for line in units.read_text(encoding="utf-8").splitlines()] == [
        "Marguerite Lindqvist"]


# --- console.py: usd() as the tables print it -------------------------------------------------------------------

def test_a_thousand_dollars_and_a_free_call_read_as_such_in_the_providers_table(tmp_path):
    """A batch job's request log: gpt-4o read 400 M prompt tokens ($2.50 per M: $1,000 by hand), and a call with
    no token billed ($0). The providers table prints them with the thousands separator and as zero to the cent's
    hundredth (kills D5, D6)."""
    log = tmp_path / "batch.jsonl"
    log.write_text("".join(json.dumps({
        "id": f"r{i}", "timestamp": f"2026-11-04T08:00:0{i}Z", "url": "https://api.openai.com/v1/chat/completions",
        "session_id": f"batch-{i}", "request": {"model": model, "messages": [{"role": "user", "content": "Go on."}]},
        "response": {"model": model, "usage": {"prompt_tokens": tokens, "completion_tokens": 0}}}) + "\n"
        for i, (model, tokens) in enumerate([("gpt-4o", 400_000_000), ("gpt-4o-mini", 0)])), encoding="utf-8")
    code, output = _cli("audit", log, "--discover", "--no-presidio")
    assert code == 0, output
    rows = {line.split()[1]: line.split()[-1] for line in output.splitlines() if line.strip().startswith("cloud ")}
    assert rows == {"openai/gpt-4o": "1,000.0000", "openai/gpt-4o-mini": "0.0000"}


# --- logs/openhands.py: calls priced from OpenHands' running totals ---------------------------------------------

def _openhands_export(path: Path, calls: list[tuple[dict | None, tuple[int, int, int, int] | None]]) -> Path:
    """An OpenHands trajectory: the user's task, then one command per call but the last, an agent `message` with no
    model response. Each call is (its response's usage or None, the running totals on its action — prompt,
    completion, cache read, cache write — or None)."""
    events: list[dict] = [{"id": 0, "source": "user", "action": "message", "args": {"content": "Fix the sync."}}]
    for i, (usage, totals) in enumerate(calls):
        metrics = {} if totals is None else {"llm_metrics": {"accumulated_token_usage": dict(zip(
            ("prompt_tokens", "completion_tokens", "cache_read_tokens", "cache_write_tokens"), totals, strict=True))}}
        if i == len(calls) - 1:
            events.append({"id": 2 * i + 1, "source": "agent", "action": "message", "args": {"content": "Done."},
                           **metrics})
            continue
        response = {"id": f"resp-{i}", "model": "claude-sonnet-4-5-20250929", **({"usage": usage} if usage else {})}
        meta = {"function_name": "execute_bash", "tool_call_id": f"t{i}", "model_response": response}
        events += [{"id": 2 * i + 1, "source": "agent", "action": "run", "args": {"command": f"step {i}"},
                    "tool_call_metadata": meta, **metrics},
                   {"id": 2 * i + 2, "source": "agent", "observation": "run", "cause": 2 * i + 1, "content": "ok",
                    "tool_call_metadata": meta}]
    path.write_text(json.dumps(events), encoding="utf-8")
    return path


def _providers_row(log: Path) -> dict:
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--json")
    assert code == 0, output
    (row,) = json.loads(output)["providers"]
    return row


def test_openhands_calls_take_their_responses_usage_else_what_the_totals_grew_by(tmp_path):
    """Three calls of claude-sonnet-4-5 ($3 in, $0.30 cache read, $3.75 cache write, $15 out per M). The first's
    response logged no usage: its tokens are the totals themselves (1,000 prompt of which 200 written to the cache,
    50 out). The second's response says 500 in / 20 out, though the totals grew by 800 / 40 (a condensation call
    between): the response's own count is the call's. The last grew by 2,600 - 1,800 = 800 prompt (400 read from
    the cache) and 150 - 90 = 60 out. By hand: 800·3 + 200·3.75 + 50·15 = 3,900 µ$; 500·3 + 20·15 = 1,800 µ$;
    400·3 + 400·0.30 + 60·15 = 2,220 µ$: $0.007920, 2,300 in, 400 cached, 130 out (kills O7, O8, O9)."""
    log = _openhands_export(tmp_path / "trajectory.json", [
        (None, (1000, 50, 0, 200)), ({"prompt_tokens": 500, "completion_tokens": 20}, (1800, 90, 0, 200)),
        (None, (2600, 150, 400, 200))])
    row = _providers_row(log)
    assert (row["calls"], row["unpriced_calls"]) == (3, 0)
    assert (row["input_tokens"], row["cached_tokens"], row["output_tokens"]) == (2300, 400, 130)
    assert row["cost_usd"] == pytest.approx(0.00792)


@pytest.mark.parametrize("calls", [
    # the totals did not grow by the last message: no tokens of its own to count (O1)
    [({"prompt_tokens": 1000, "completion_tokens": 50}, (1000, 50, 0, 0)), (None, (1000, 50, 0, 0))],
    # the call before the last carried no totals: their growth since the first holds its tokens too (O3, O4)
    [({"prompt_tokens": 1000, "completion_tokens": 50}, (1000, 50, 0, 0)),
     ({"prompt_tokens": 400, "completion_tokens": 30}, None), (None, (2600, 150, 0, 0))],
], ids=["totals-not-grown", "totals-missing-before"])
def test_an_openhands_message_whose_tokens_the_totals_cannot_tell_is_unpriced(tmp_path, calls):
    """By hand: the last call alone has no usage, and the totals cannot say it: one call unpriced, for want of
    usage, and the row's USD unknown (not $0, not the growth of two calls as one)."""
    row = _providers_row(_openhands_export(tmp_path / "trajectory.json", calls))
    assert (row["calls"], row["unpriced_calls"], row["calls_without_usage"], row["cost_usd"]) == (
        len(calls), 1, 1, None)


# --- logs/__init__.py: a log named twice ------------------------------------------------------------------------

def test_a_log_named_twice_under_two_spellings_is_read_once(tmp_path, monkeypatch):
    """`audit logs/a.jsonl ./logs/a.jsonl`: one log, its 4 calls (4 lines) counted once (kills L11)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    log = logs / "a.jsonl"
    log.write_text((Path(__file__).parent / "data" / "logs" / "requests" / "proxy-2026-11-04.jsonl").read_text(
        encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, output = _cli("audit", "logs/a.jsonl", "./logs/a.jsonl", "--discover", "--no-presidio", "--json")
    assert code == 0, output
    summary = json.loads(output)
    assert (summary["logs_read"], summary["calls"]) == (1, 4)


def test_a_subagents_transcript_named_after_its_folder_is_listed_when_its_session_is_not(tmp_path):
    """A Claude Code subagent's transcript is read with its session's (`<project>/S.jsonl`); its folder walked alone
    lists nothing, but the transcript named as well is read on its own, its session not being audited: the walk
    did not list it, so it is new (kills L8)."""
    from ec2audit.logs import find_logs

    project = tmp_path / "project"
    subagents = project / "S" / "subagents"
    subagents.mkdir(parents=True)
    (project / "S.jsonl").write_text("{}\n", encoding="utf-8")
    (subagents / "agent-1.jsonl").write_text("{}\n", encoding="utf-8")
    assert list(find_logs([subagents])) == []
    assert list(find_logs([subagents, subagents / "agent-1.jsonl"])) == [str(subagents / "agent-1.jsonl")]


# --- backends.py: SIGTERM while a process pool runs, and after ---------------------------------------------------

def test_a_process_pool_gives_sigterm_back_when_it_is_done():
    """While a pool runs, SIGTERM stops it as Ctrl-C does; once it is done, SIGTERM ends the process again as it
    did before (the driver writing its summary is not told it was interrupted by a keyboard) (kills B1)."""
    import operator
    import signal

    from ec2audit.backends import get_backend

    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)  # as in a CLI run, whatever ran in this process before
    try:
        results = [r for r, _ in get_backend("processes", workers=1).map(int, operator.add, lambda workers: [1, 2])]
        assert results == [1, 2]
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, previous)


# --- metrics.py: exposure per dimension in episodes.parquet ----------------------------------------------------

def test_an_older_episode_records_dimensions_are_written_in_name_order(tmp_path):
    """A run folder with a `record.json` written before session 19 by another tool, its exposure per dimension JSON
    text in no order (`health` before `contact`): `episodes.parquet`'s typed column lists them by name, as every
    episode written since does (kills X1)."""
    import polars as pl
    from test_new_user_walk_2 import _episode

    from ec2audit.run.episodes import RECORD, EpisodeSpec
    from ec2audit.run.scheduler import write_results

    record = _episode("A", "cloud-only", 0, 0.9, 2, 0.0044, None).to_dict()
    record.update(exposure=0.75, exposure_by_dimension=json.dumps({"health": 0.5, "contact": 1.0}))
    (tmp_path / "episodes" / record["episode_id"]).mkdir(parents=True)
    (tmp_path / "episodes" / record["episode_id"] / RECORD).write_text(json.dumps(record), encoding="utf-8")
    write_results(tmp_path, [EpisodeSpec("A", "cloud-only", 0)])
    assert pl.read_parquet(tmp_path / "episodes.parquet")["exposure_by_dimension"].to_list() == [
        [{"dimension": "contact", "exposure": 1.0}, {"dimension": "health", "exposure": 0.5}]]


# --- cli/intercept.py: what a stopped `intercept serve` says ----------------------------------------------------

def test_a_stopped_interceptor_counts_model_calls_only_and_says_an_unpriced_models_cost_is_unknown(standin, tmp_path):
    """A first run that forwarded nothing says so, with nothing to audit. A second run forwards the model list (no
    model call) and one call of a fine-tuned model no price list knows: by hand, 1 call, its USD unknown for want of
    a price (not $0), and how to audit it (kills S2, S3, S5)."""
    import signal

    import httpx
    from intercept_helpers import serve_cli

    _, upstream = standin
    store = tmp_path / "intercept.sqlite"
    said = {}
    for run in ("idle", "busy"):
        log = tmp_path / f"{run}.log"
        proc, url = serve_cli(upstream, store, log, "sk-upstream")
        try:
            if run == "busy":
                httpx.get(f"{url}/v1/models", timeout=20).raise_for_status()
                httpx.post(f"{url}/v1/chat/completions", timeout=20, json={
                    "model": "ft:acme-claims-7", "messages": [{"role": "user", "content": "Summarise it."}]},
                ).raise_for_status()
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0, log.read_text()
        said[run] = log.read_text()
    assert f"stopped: 0 calls recorded in {store} by this run" in said["idle"]
    assert "audit them" not in said["idle"]
    assert f"stopped: 1 call recorded in {store} by this run" in said["busy"]
    assert "  ft:acme-claims-7: 1 call, " in said["busy"]
    assert said["busy"].rstrip().endswith("output tokens, USD unknown: no price for the model\n"
                                          f"audit them: ec2audit audit {store} --units FILE (or --discover)")


# --- logs/report.py: why a provider row's cost is unknown --------------------------------------------------------

@pytest.mark.parametrize("unpriced,without_usage,said", [
    (2, 2, "unknown: 2 of 3 unpriced (no usage logged)"),
    (2, 1, "unknown: 2 of 3 unpriced (1 with no usage logged)"),  # the other one had usage and no price
    (2, 0, "unknown: 2 of 3 unpriced"),
])
def test_a_rows_unknown_cost_says_how_many_of_its_unpriced_calls_logged_no_usage(unpriced, without_usage, said):
    """The providers table's USD cell of a row of 3 calls, some unpriced: it says for how many of them no usage
    was logged, all, some or none. A row mixing the two (a stream cut off and a call without usage) is not
    cheaply made through a log, so the cell is read from the function that writes it (kills Q1, Q2)."""
    from ec2audit.logs.report import _usd

    row = {"side": "cloud", "model": "gpt-4o", "calls": 3, "cost_usd": None, "unpriced_calls": unpriced,
           "calls_without_usage": without_usage, "input_tokens": 3000, "output_tokens": 90}
    assert _usd(row) == said


# --- intercept/fields.py: Gemini's untyped text parts ----------------------------------------------------------

def test_gemini_text_parts_with_json_text_between_are_not_read_as_one(standin, tmp_path):
    """Gemini's parts carry no type: `order 1392288`, a part of JSON text, `3366 units shipped`. The model reads
    the JSON between the two numbers, so they are two numbers, not the phone 13922883366: nothing is replaced, the
    body goes out as sent (kills J4; session 19's F9 test is the typed Chat parts' case)."""
    from test_intercept_forms_walk_7 import GEMINI, _gemini
    from test_mutation_kills_s19 import _redacted

    parts = [{"text": t} for t in ("order 1392288", '{"batch": 7}', "3366 units shipped")]
    answer, redactions, sent = _redacted(standin, tmp_path, GEMINI, _gemini(*parts))
    assert answer.status_code == 200 and redactions == 0
    assert sent["contents"][0]["parts"] == parts


# --- intercept/media.py: what the guard reads of a file a request carries ----------------------------------------

def _pdf_with(names: list[str], author: str = "", user_password: str | None = None) -> bytes:
    """walk 7's one-page PDF of `names`, with an author in its metadata, encrypted when `user_password` is given
    (with an owner password as well: the permissions-only encryption bank statements carry when it is '')."""
    import io

    from pypdf import PdfReader, PdfWriter
    from test_intercept_forms_walk_7 import pdf

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf(names))))
    if author:
        writer.add_metadata({"/Author": author})
    if user_password is not None:
        writer.encrypt(user_password=user_password, owner_password="owner-secret")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_pdfs_metadata_and_a_pdf_any_viewer_opens_are_read(tmp_path):
    """A PDF whose author is a person (its metadata is read before its pages), sent as unpadded base64 (a JSON
    writer that drops the `=`), and one encrypted with an owner password alone: every viewer opens it without
    asking, and so does the model. Both read: the names are in the text the guard scans. One that needs a password
    to open stays unread (kills M6, M7, M8)."""
    import base64

    from ec2audit.intercept.media import open_part

    plain = _pdf_with(["Will Hartley, 0412 555 019"], author="Marguerite Lindqvist")
    unpadded = base64.b64encode(plain).decode().rstrip("=")
    assert len(plain) % 3  # the base64 had padding to drop
    part = open_part(unpadded)
    assert part is not None and part.media_type == "application/pdf" and part.size == len(plain)
    assert part.text is not None and "Marguerite Lindqvist" in part.text and "Will Hartley" in part.text
    statement = open_part(base64.b64encode(_pdf_with(["Will Hartley, 0412 555 019"], user_password="")).decode())
    assert statement is not None and statement.text is not None and "Will Hartley" in statement.text
    locked = open_part(base64.b64encode(_pdf_with(["Will Hartley, 0412 555 019"], user_password="pw")).decode())
    assert locked is not None and locked.text is None


def test_a_short_string_that_starts_like_a_file_is_text():
    """`JVBERi0xLjQK` is base64 of `%PDF-1.4`: 12 characters, no file (a file's head is 24 characters of base64 or
    more), so it is text to scan, not an unread PDF on the record (kills M5)."""
    from ec2audit.intercept.media import open_part, sniff

    assert sniff("JVBERi0xLjQK") is None and open_part("JVBERi0xLjQK") is None
