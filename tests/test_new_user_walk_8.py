"""Session 19, eighth walk: figures a new user reads off `audit --discover`, `annotate prelabel`, OpenHands
audits, the Parquet outputs, `intercept`, `run` and `report`, on inputs written here as users write theirs,
each checked against a count made by hand."""

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from ec2audit.cli import main


def _cli(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


_NOTES = """# Claims follow-up - week 48

Called Marguerite Lindqvist about claim CLM-2026-004417 on policy POL-88321-B.
Her member number is MBR-5520193 and the hospital record is MRN 00482913.
Second file: INS-20931-7 (motor), adjuster asked for the repair invoice.
The deletions in the spreadsheet were reverted. Build 20260 passed; see PR-1182 for the CSV export fix.
The policy 2024 review is due; claim: 2026-03-01 was the filing date.
Restarted the exporter (PID 48213); issue INS-2093 is closed.
"""
_GIT_LOG = """commit 3f9a2c1e7b4d8a6f5e0c1d2b3a4f5e6d7c8b9a01
Author: Will Hartley <will.hartley@northwind-dev.co.uk>
Date:   Tue Nov 24 16:02:11 2026 +0000

    Fix claim export rounding

commit 8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b
Author: Oluwaseun Adeyemi <seun.adeyemi@fastmail.com>
Date:   Mon Nov 23 09:41:57 2026 +0000

    Add member lookup
"""


def _agent_log(path: Path, *tool_results: str) -> Path:
    """A request body as an OpenAI-compatible proxy logs it: one tool call per tool result."""
    messages: list[dict] = [{"role": "user", "content": "Summarise the claims notes and who changed the export."}]
    for i, result in enumerate(tool_results):
        messages += [{"role": "assistant", "content": None, "tool_calls": [
                         {"id": f"c{i}", "type": "function", "function": {"name": "read", "arguments": "{}"}}]},
                     {"role": "tool", "tool_call_id": f"c{i}", "content": result}]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"model": "gpt-4o", "messages": messages}), encoding="utf-8")
    return path


def test_discovery_finds_record_numbers_and_git_authors(tmp_path):
    """An agent read claim notes and ran `git log`. By hand, 10 units: the claimant, five record numbers (the
    claim, the policy, the insurance file and the member number as written with their prefixes, the medical
    record's number after `MRN`), the two commit authors and their two addresses. Not units: the build number,
    the pull request, the commit hashes, `deletions` (an ICD-10 word), the dates, a year after `policy`, a date
    after `claim:`, a process id, an issue key. Before: the policy, the insurance file and the MRN were `too few
    digits` / `no words`, `Oluwaseun Adeyemi` had `no known given name`, and `Marguerite Lindqvist` after
    `Called` was no candidate (the census knows no Lindqvist; `Called Marguerite` was tried and the search went
    on after it)."""
    log = _agent_log(tmp_path / "logs" / "req.json", _NOTES, _GIT_LOG)
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    found = {(f["evidence"], f["dimension"]) for f in json.loads(output)["leaked"]}
    assert found == {("Marguerite Lindqvist", "person_name"), ("CLM-2026-004417", "financial"),
                     ("POL-88321-B", "financial"), ("MBR-5520193", "financial"),
                     ("INS-20931-7", "financial"), ("00482913", "health"),
                     ("Will Hartley", "person_name"), ("will.hartley@northwind-dev.co.uk", "contact"),
                     ("Oluwaseun Adeyemi", "person_name"), ("seun.adeyemi@fastmail.com", "contact")}


def test_prelabel_reads_the_people_a_workspaces_git_history_names(tmp_path):
    """A workspace that is a git repository: two commits by two people, one with a `Signed-off-by:` trailer.
    By hand: 3 names and 3 addresses (the notes file adds the claimant and the five record numbers). Before:
    `.git/` was a tool folder, not data, and none of its people were proposed, though an agent's `git log` sends
    them all."""
    import subprocess

    ws = tmp_path / "claims-export"
    ws.mkdir()
    (ws / "notes.md").write_text(_NOTES, encoding="utf-8")

    def commit(name: str, email: str, message: str) -> None:
        env = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name,
               "GIT_COMMITTER_EMAIL": email, "HOME": str(tmp_path), "PATH": "/usr/bin:/bin:/usr/local/bin"}
        subprocess.run(["git", "-C", str(ws), "add", "-A"], check=True, env=env)
        subprocess.run(["git", "-C", str(ws), "commit", "-q", "--allow-empty", "-m", message], check=True, env=env)

    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    commit("Ines Carvalho", "ines.carvalho@segurosnorte.pt", "Add notes")
    commit("Tomasz Wojcik", "t.wojcik@segurosnorte.pt",
           "Fix rounding\n\nSigned-off-by: Oluwaseun Adeyemi <seun.adeyemi@fastmail.com>")
    units_file = tmp_path / "units.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--out", tmp_path / "ls.json",
                        "--units", units_file)
    assert code == 0, output
    units = [json.loads(line) for line in units_file.read_text(encoding="utf-8").splitlines()]
    people = {(u["value"], u["dimension"]) for u in units if u["entity_id"] == ".git (git log)"}
    assert people == {("Ines Carvalho", "person_name"), ("ines.carvalho@segurosnorte.pt", "contact"),
                      ("Tomasz Wojcik", "person_name"), ("t.wojcik@segurosnorte.pt", "contact"),
                      ("Oluwaseun Adeyemi", "person_name"), ("seun.adeyemi@fastmail.com", "contact")}
    assert len(units) == 6 + 6
    assert f"skipped {ws / '.git'}/: tool folder, not data (" in output
    assert "; the people its commits name read as `git log` shows them" in output


def _openhands(path: Path, final_metrics: bool) -> Path:
    """An OpenHands trajectory export: the user's task, one command (its response logged with usage), and
    the agent's last `message`, which has no model response; each agent action carries OpenHands' running
    totals (`llm_metrics`) when `final_metrics`, only the first when not."""
    def totals(prompt: int, completion: int, cached: int) -> dict:
        return {"accumulated_cost": 0.0, "accumulated_token_usage": {
            "model": "", "prompt_tokens": prompt, "completion_tokens": completion, "cache_read_tokens": cached,
            "cache_write_tokens": 0, "context_window": 200000, "per_turn_token": 0, "response_id": ""}}
    response = {"id": "chatcmpl-1", "model": "claude-sonnet-4-5-20250929", "object": "chat.completion",
                "usage": {"prompt_tokens": 1000, "completion_tokens": 50, "total_tokens": 1050}}
    events = [
        {"id": 0, "source": "agent", "action": "system", "args": {"content": "You are OpenHands agent."}},
        {"id": 1, "source": "user", "action": "message", "args": {"content": "Why does the billing sync fail?"}},
        {"id": 2, "source": "agent", "action": "run", "args": {"command": "cat sync.log"},
         "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "t1", "model_response": response},
         "llm_metrics": totals(1000, 50, 0)},
        {"id": 3, "source": "agent", "observation": "run", "cause": 2, "content": "ERROR 502 from billing",
         "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "t1", "model_response": response}},
        {"id": 4, "source": "agent", "action": "message", "args": {"content": "The billing host answers 502."},
         **({"llm_metrics": totals(2400, 170, 800)} if final_metrics else {})},
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(events), encoding="utf-8")
    return path


def _provider_row(output: str) -> dict:
    (row,) = json.loads(output)["providers"]
    return row


def test_openhands_last_message_is_priced_from_the_running_totals(tmp_path):
    """The last call's tokens are what OpenHands' running totals grew by: 2400 - 1000 = 1400 prompt (800 of them
    cached), 170 - 50 = 120 completion. By hand at claude-sonnet-4-5's $3 / $0.30 cached / $15 per M: the
    first call 1000·3 + 50·15 = $0.003750, the last 600·3 + 800·0.3 + 120·15 = $0.003840; $0.007590 in all.
    Before: the last call was unpriced and the row's USD unknown."""
    log = _openhands(tmp_path / "trajectory.json", final_metrics=True)
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--json")
    assert code == 0, output
    row = _provider_row(output)
    assert (row["calls"], row["input_tokens"], row["cached_tokens"], row["output_tokens"]) == (2, 2400, 800, 170)
    assert row["cost_usd"] == pytest.approx(0.00759)
    assert row["unpriced_calls"] == 0


def test_openhands_call_without_usage_says_why_it_is_unpriced(tmp_path):
    """No running totals on the last message: its tokens cannot be counted. By hand: 1 of 2 calls unpriced, for
    want of usage, and the table says so. Before: `unknown: 1 of 2 unpriced`, with no reason."""
    log = _openhands(tmp_path / "trajectory.json", final_metrics=False)
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--json")
    assert code == 0, output
    row = _provider_row(output)
    assert (row["calls"], row["unpriced_calls"], row["calls_without_usage"], row["cost_usd"]) == (2, 1, 1, None)
    code, output = _cli("audit", log, "--discover", "--no-presidio")
    assert "unknown: 1 of 2 unpriced (no usage logged)" in output


def _conversation(path: Path, *tool_results: str) -> Path:
    """A transcript (one call per assistant message): its last tool result is never sent."""
    body = json.loads(_agent_log(path, *tool_results).read_text(encoding="utf-8"))
    path.write_text(json.dumps({"messages": body["messages"], "metadata": {"model": "openai/gpt-4o"}}),
                    encoding="utf-8")
    return path


def test_exposure_by_dimension_is_a_typed_column_polars_reads(tmp_path):
    """`audit --out` on a session whose claim notes were sent and whose `git log` was not; four units of its
    task. By hand, per dimension: financial 2 of 2 sent → 1.0, person_name Marguerite Lindqvist sent and Will
    Hartley not → 0.5, contact 0.0; over all, weights 2.5 + 2.5 + 1.0 of 2.5·2 + 1.0·2 + 1.5 = 6 / 8.5 = 0.7059.
    Before: the column was JSON text (`'{"contact": 0.0, …}'`) that a polars user had to parse."""
    import polars as pl

    log = _conversation(tmp_path / "logs" / "s1.json", _NOTES, _GIT_LOG)
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps({"task_id": "claims", "entity_id": e, "field": f, "value": v,
                                         "dimension": d}) + "\n" for e, f, v, d in [
        ("C1", "claim", "CLM-2026-004417", "financial"), ("C1", "policy", "POL-88321-B", "financial"),
        ("P1", "name", "Will Hartley", "person_name"), ("P2", "name", "Marguerite Lindqvist", "person_name"),
        ("P2", "phone", "+44 7700 900123", "contact")]), encoding="utf-8")
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({"s1": "claims"}), encoding="utf-8")
    out = tmp_path / "out" / "findings.parquet"
    code, output = _cli("audit", log, "--units", units, "--task-map", task_map, "--out", out)
    assert code == 0, output
    sessions = pl.read_parquet(out.with_name("findings.sessions.parquet"))
    assert sessions.schema["exposure_by_dimension"] == pl.List(pl.Struct({"dimension": pl.String,
                                                                           "exposure": pl.Float64}))
    (row,) = sessions.to_dicts()
    assert row["exposure"] == pytest.approx(6 / 8.5)
    per_dimension = (sessions.explode("exposure_by_dimension").unnest("exposure_by_dimension", separator=".")
                     .select("exposure_by_dimension.dimension", "exposure_by_dimension.exposure").rows())
    assert per_dimension == [("contact", 0.0), ("financial", 1.0), ("person_name", 0.5)]
    code, output = _cli("report", out, "--json")
    assert code == 0, output
    assert json.loads(output)["strategies"][0]["by_dimension"] == {"contact": 0.0, "financial": 1.0,
                                                                    "person_name": 0.5}


def test_a_runs_episodes_table_types_exposure_by_dimension_and_reads_older_records(tmp_path):
    """A run folder whose `record.json` files were written before (exposure per dimension as JSON text):
    `episodes.parquet` is rebuilt with the typed column, and `report` reads it. By hand: cloud-only's contact
    exposure (1.0 + 0.5) / 2 = 0.75."""
    import polars as pl
    from test_new_user_walk_7 import _run

    run = _run(tmp_path / "run", [("edge-only", "A", 1.0, 0.0), ("cloud-only", "A", 0.6, 1.0),
                                  ("edge-only", "B", 0.5, 0.0), ("cloud-only", "B", 0.9, 0.5)])
    episodes = pl.read_parquet(run / "episodes.parquet")
    assert episodes.schema["exposure_by_dimension"] == pl.List(pl.Struct({"dimension": pl.String,
                                                                           "exposure": pl.Float64}))
    cloud = episodes.filter(pl.col("strategy") == "cloud-only").sort("task_id")
    assert cloud["exposure_by_dimension"].to_list() == [[{"dimension": "contact", "exposure": 1.0}],
                                                        [{"dimension": "contact", "exposure": 0.5}]]
    code, output = _cli("report", run, "--json")
    assert code == 0, output
    rows = {r["label"]: r["by_dimension"] for r in json.loads(output)["strategies"]}
    assert rows["cloud-only"] == {"contact": 0.75}


def test_an_intercepted_sessions_cost_per_model_reads_to_two_significant_digits(tmp_path):
    """Three requests through a real interceptor to the scripted stand-in API (not a model), one per API and
    model, then `audit` of its store. By hand from the tokens each answer's usage gave, at gpt-4o's $2.50 /
    $10, claude-sonnet-4-5's $3 / $15 and gpt-5.4's $2.50 / $15 per million. The cheapest, gpt-5.4's
    $0.000135 or so, was printed `0.0001`: a quarter of it gone."""
    import httpx
    from intercept_helpers import running_proxy, standin_server, wait_for_records

    standin = standin_server()
    _, upstream = next(standin)
    store = tmp_path / "intercept.sqlite"
    with running_proxy(upstream, store) as (_, url, records), httpx.Client(base_url=url, timeout=30) as client:
        text = "Policy POL-88321-B for Will Hartley, please summarise the claim."
        client.post("/e/ep1/v1/chat/completions", json={"model": "gpt-4o", "messages": [
            {"role": "user", "content": text}]}).raise_for_status()
        client.post("/e/ep1/v1/messages", headers={"anthropic-version": "2023-06-01"}, json={
            "model": "claude-sonnet-4-5-20250929", "max_tokens": 100,
            "messages": [{"role": "user", "content": text}]}).raise_for_status()
        client.post("/e/ep2/v1/responses", json={"model": "gpt-5.4", "input": text}).raise_for_status()
        assert len(wait_for_records(records, 3)) == 3
    next(standin, None)
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps({"task_id": "claims", "entity_id": "C1", "field": "policy",
                                 "value": "POL-88321-B", "dimension": "financial"}) + "\n", encoding="utf-8")
    code, output = _cli("audit", store, "--units", units, "--json")
    assert code == 0, output
    rates = {"gpt-4o": (2.5, 10.0), "claude-sonnet-4-5-20250929": (3.0, 15.0), "gpt-5.4": (2.5, 15.0)}
    rows = {r["model"]: r for r in json.loads(output)["providers"]}
    assert sorted(rows) == sorted(rates)
    by_hand = {m: (rows[m]["input_tokens"] * i + rows[m]["output_tokens"] * o) / 1e6 for m, (i, o) in rates.items()}
    for model, usd in by_hand.items():
        assert rows[model]["cost_usd"] == pytest.approx(usd), model
    code, table = _cli("audit", store, "--units", units)
    for model, usd in by_hand.items():
        shown = next(line for line in table.splitlines() if f" {model} " in line and "cloud" in line)
        two_digits = 1 - math.floor(math.log10(usd))  # each under a tenth of a cent: two significant digits
        assert shown.split()[-1] == f"{usd:.{two_digits}f}", model


def test_prelabel_of_a_small_repository_proposes_its_people_not_its_package(tmp_path):
    """A service's repository as an agent finds it. By hand, 8 units: the package's author and address, the
    runbook's on-call and escalation people, a medical record number, a policy number, the database host and
    its password. Not units: the package's own `name`, versions, an issue, a pull request, a duration, a
    build number, `deletions`, `Grace Period`. Before: `claims-export` (the package.json's `name`) was a person
    and `Priya Raman`, after `On-call:`, was not (the census knows no Priya)."""
    repo = tmp_path / "claims-export"
    files = {
        "package.json": json.dumps({"name": "claims-export", "version": "2.4.1",
                                    "author": "Ines Carvalho <ines.carvalho@segurosnorte.pt>", "license": "MIT",
                                    "dependencies": {"express": "^4.19.2", "pg": "8.11.3"}}, indent=2),
        "CHANGELOG.md": "# Changelog\n## 2.4.1 - 2026-11-20\n- Fix rounding in claim totals (#412)\n"
                        "- Member lookup by MBR number (PR-1190)\n## 2.4.0 - 2026-10-02\n- Export deletions\n",
        "src/config.py": 'DB_HOST = "10.20.4.17"\nDB_PASSWORD = "Xk82!mq9Lz-prod"\nRETRY_MS = 604800000\n'
                         "BUILD = 20260\n",
        "docs/runbook.md": "# Runbook\nOn-call: Priya Raman. Escalate to Marcus Delaney.\n"
                           "Patient record lookups use MRN 00311274; never paste them into tickets.\n"
                           "Grace Period handling: see policy no. 553201-A.\n",
    }
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    units_file = tmp_path / "units.jsonl"
    code, output = _cli("annotate", "prelabel", repo, "--no-presidio", "--out", tmp_path / "ls.json",
                        "--units", units_file)
    assert code == 0, output
    units = {(u["value"], u["dimension"]) for u in map(json.loads, units_file.read_text("utf-8").splitlines())}
    assert units == {("Ines Carvalho", "person_name"), ("ines.carvalho@segurosnorte.pt", "contact"),
                     ("Priya Raman", "person_name"), ("Marcus Delaney", "person_name"), ("00311274", "health"),
                     ("553201-A", "financial"), ("10.20.4.17", "network"), ("Xk82!mq9Lz-prod", "credential")}


def test_discovery_reads_the_people_of_git_shortlog_and_blame(tmp_path):
    """An agent ran `git shortlog -sne` and `git blame` on a file. By hand, 5 units: the two people of the
    shortlog with their addresses, and the blame's second author; not the bot of the shortlog, the commit ids,
    the dates or the code. Before: `Oluwaseun Adeyemi` (no census given name) was found in neither, nor
    `Tomasz Wojcik` in the blame."""
    shortlog = ("    12\tOluwaseun Adeyemi <seun.adeyemi@fastmail.com>\n"
                "     3\tWill Hartley <will.hartley@northwind-dev.co.uk>\n"
                "     2\tDependabot Bot <49699333+dependabot[bot]@users.noreply.github.com>\n")
    blame = ("^3f9a2c1 (Oluwaseun Adeyemi 2026-11-23 09:41:57 +0000  1) import os\n"
             "8b7a6c5d (Tomasz Wojcik     2026-11-24 16:02:11 +0000  2) RETRY_MS = 604800000\n")
    log = _agent_log(tmp_path / "logs" / "req.json", shortlog, blame)
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    found = {(f["evidence"], f["dimension"]) for f in json.loads(output)["leaked"]}
    assert found == {("Oluwaseun Adeyemi", "person_name"), ("seun.adeyemi@fastmail.com", "contact"),
                     ("Will Hartley", "person_name"), ("will.hartley@northwind-dev.co.uk", "contact"),
                     ("Tomasz Wojcik", "person_name")}


def test_a_stopped_interceptor_says_what_this_run_recorded_and_cost(standin, tmp_path):
    """`intercept serve` run twice on one store: one call in the first run, two in the second, stopped by
    SIGTERM. By hand from the second run's records' tokens, at gpt-4o's $2.50 / $10 and gpt-5.4's $2.50 / $15 per
    million: each model's line, and 2 calls, not the store's 3. Before: the proxy stopped without a word, and
    uvicorn's re-raised SIGTERM ended it before anything could be said."""
    import signal

    import httpx
    from intercept_helpers import serve_cli

    from ec2audit.intercept.store import read_records

    _, upstream = standin
    store = tmp_path / "intercept.sqlite"
    text = "Policy POL-88321-B for Will Hartley, please summarise the claim."
    for run, models in (("first", ["gpt-4o"]), ("second", ["gpt-4o", "gpt-5.4"])):
        log = tmp_path / f"{run}.log"
        proc, url = serve_cli(upstream, store, log, "sk-upstream")
        try:
            for model in models:
                httpx.post(f"{url}/v1/chat/completions", timeout=20, json={
                    "model": model, "messages": [{"role": "user", "content": text}]}).raise_for_status()
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0, log.read_text()
    said = (tmp_path / "second.log").read_text()
    records = read_records(store)
    assert len(records) == 3
    assert f"stopped: 2 calls recorded in {store} by this run" in said
    for record, (rate_in, rate_out) in zip(records[1:], [(2.5, 10.0), (2.5, 15.0)], strict=True):
        usd = (record.input_tokens * rate_in + record.output_tokens * rate_out) / 1e6
        two_digits = 1 - math.floor(math.log10(usd))
        assert (f"  {record.model}: 1 call, {record.input_tokens} input / {record.output_tokens} output tokens, "
                f"USD {usd:.{two_digits}f}") in said
    assert f"audit them: ec2audit audit {store} --units FILE" in said


def test_discovery_tells_a_diffstat_from_a_diagnosis(tmp_path):
    """An agent ran `git diff --stat` on a clinic's repository (files named after conditions), then read a
    ticket. By hand, 2 health units: the ticket's `diabetes` and `hypertension` (Ana Ruiz's), not the diffstat's
    `deletions` (an ICD-10 word: `Deletions from the autosomes`). Before: `6 deletions(-)` was a health leak (the
    file names gave it a health context), and `diabetes` was judged only where it was first found, in
    `patients/diabetes_form.py`, so the ticket's was lost."""
    stat = (" patients/diabetes_form.py   | 12 ++++++++----\n clinic/diagnosis_codes.csv  |  4 ++--\n"
            " 2 files changed, 10 insertions(+), 6 deletions(-)\n")
    ticket = "Ticket 88: Ana Ruiz was diagnosed with diabetes last year; her hypertension is treated."
    log = _agent_log(tmp_path / "logs" / "req.json", stat, ticket)
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    health = {f["evidence"] for f in json.loads(output)["leaked"] if f["dimension"] == "health"}
    assert health == {"diabetes", "hypertension"}
