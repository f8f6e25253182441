"""Session 25, sixteenth walk: figures a new user reads off the CLI on inputs written here as other tools write
theirs (OpenAI Batch files gzipped in two folders, Vercel AI SDK 5 spans of Bedrock, an `.env.example`'s placeholder
address, a pandas DataFrame printed in a notebook, …), each checked against a count made by hand."""

import gzip
import json

import pytest
from test_logs_otel_coverage import _span
from test_new_user_walk import _openclaw
from test_new_user_walk_7 import _cli
from test_new_user_walk_11 import _units
from test_new_user_walk_12 import _batch_answer, _batch_request
from test_new_user_walk_14 import _audited, _audited_spans
from test_new_user_walk_15 import _discovered, _prelabelled


def _gzipped(path, records: list[dict]):
    """`records` as JSON Lines, gzip-compressed (as `gzip batch.jsonl` leaves them)."""
    path.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode("utf-8")))
    return path


def gzipped_batch_audited(tmp_path, suffix: str) -> tuple[dict, dict]:
    """A gpt-4o-mini Batch API job, its input and its output gzipped under `suffix` in two folders (`requests/`,
    `results/`), audited: (its one provider's row, the audit's JSON), the calls and tokens checked as paired."""
    (tmp_path / "requests").mkdir()
    (tmp_path / "results").mkdir()
    _gzipped(tmp_path / "requests" / f"batchinput.jsonl{suffix}", [
        _batch_request("request-1", "gpt-4o-mini", "Draft a reply to maria.kessler@example.com about her claim."),
        _batch_request("request-2", "gpt-4o-mini", "Hello world!")])
    _gzipped(tmp_path / "results" / f"batch_abc123_output.jsonl{suffix}", [
        _batch_answer("request-2", "gpt-4o-mini-2024-07-18", 22, 2),
        _batch_answer("request-1", "gpt-4o-mini-2024-07-18", 10**6, 200_000)])
    code, said, data = _audited(tmp_path / "requests", tmp_path / "results", "--units", _units(tmp_path / "u.jsonl"))
    assert code == 0, said
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (2, 1_000_022, 200_002)
    return provider, data


def test_a_gzipped_batchs_input_and_output_in_two_folders_are_paired(tmp_path):
    """A Batch API job of gpt-4o-mini kept gzipped: `requests/batchinput.jsonl.gz` and, downloaded into another
    folder, `results/batch_abc123_output.jsonl.gz`. By hand at the batch prices ($0.075 / $0.30 per million):
    request-1 1,000,000 in, 200,000 out = $0.075 + $0.06; request-2 22 in, 2 out = $0.00000165 + $0.0000006:
    2 calls, 1,000,022 in, 200,002 out, $0.13500225, the leak in request-1 scored, exit 0. Before: the input
    read without its output (2 calls without usage, $0) and the output named as read without its requests."""
    provider, data = gzipped_batch_audited(tmp_path, ".gz")
    assert provider["cost_usd"] == pytest.approx(0.13500225)
    assert [s["leaked"] for s in data["sessions"]] == [1]


def test_a_vercel_ai_sdk_5_bedrock_calls_cache_writes_are_priced(tmp_path):
    """AI SDK 5's `ai.generateText.doGenerate` span of Claude Sonnet 4.5 on Amazon Bedrock (`amazon-bedrock`, whose
    Converse `inputTokens` leave the cache out): 500 in, `ai.usage.cachedInputTokens` 10,000 read, and the 1,500
    written in `ai.response.providerMetadata` as `@ai-sdk/amazon-bedrock` 2 puts it, `bedrock.usage
    .cacheWriteInputTokens`; 300 out. By hand at Bedrock's US cross-region rates (10% over $3 in, $0.30 read, $3.75
    write, $15 out per million): 500 × 3.3 + 10,000 × 0.33 + 1,500 × 4.125 + 300 × 16.5 = $0.0160875 on 12,000
    tokens in. Before: the writes not counted, $0.0099 on 10,500 tokens in."""
    model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    span = _span("b1", 1, "ai.generateText.doGenerate", {
        "operation.name": "ai.generateText.doGenerate", "ai.model.provider": "amazon-bedrock", "ai.model.id": model,
        "gen_ai.system": "amazon-bedrock", "gen_ai.request.model": model,
        "ai.prompt.messages": json.dumps([{"role": "user", "content": [{"type": "text", "text": "Summarise."}]}]),
        "ai.usage.promptTokens": 500, "ai.usage.completionTokens": 300, "ai.usage.cachedInputTokens": 10_000,
        "ai.response.providerMetadata": json.dumps({"bedrock": {"usage": {"cacheWriteInputTokens": 1_500}}}),
        "gen_ai.usage.input_tokens": 500, "gen_ai.usage.output_tokens": 300})
    code, said, data = _audited_spans(tmp_path, span)
    assert code == 0, said
    provider, = data["providers"]
    assert (provider["input_tokens"], provider["cached_tokens"], provider["output_tokens"]) == (12_000, 10_000, 300)
    assert provider["cost_usd"] == pytest.approx(0.0160875)


ENV_TEMPLATE = ("# Copy to .env and fill in\nSUPPORT_EMAIL=support@example.com\nADMIN_EMAIL=admin@yourcompany.com\n"
                "REPORTS_TO=payroll@example.com\nPORT=8080\n")
ENV_FILLED = "SUPPORT_EMAIL=hilfe@praxis-kessler.de\nREPORTS_TO=lena.hartmann@praxis-kessler.de\n"


def test_a_templates_support_address_is_nobodys_and_the_filled_in_ones_are(tmp_path):
    """A repository's `.env.example` writes `support@example.com` and `admin@yourcompany.com` for "an address goes
    here", and a team's mailbox at the documentation domain (`payroll@example.com`, an example's data); its `.env`
    holds the practice's two. By hand: three contacts, `payroll@example.com` and the `.env`'s two, in `prelabel`;
    in `--discover` of an agent that read both files the same three. Before: `support@example.com` too (and in
    `prelabel` `admin@yourcompany.com`)."""
    expected = ["hilfe@praxis-kessler.de", "lena.hartmann@praxis-kessler.de", "payroll@example.com"]
    found = _prelabelled(tmp_path, {".env.example": ENV_TEMPLATE, ".env": ENV_FILLED})
    assert sorted(u["value"] for u in found if u["dimension"] == "contact") == expected
    assert _discovered(tmp_path, [ENV_TEMPLATE, ENV_FILLED]) == [("contact", value) for value in expected]


#: `df` of a clinic's patients as pandas 3 prints it (`repr(df)`, `pd.set_option("display.max_rows", 4)`): the
#: middle row left out.
FRAME = """   patient_id           name         dob        diagnosis
0      P-1001  Maria Kessler  1984-03-12           asthma
1      P-1002    Ayşe Yıldız  1990-11-02  type 2 diabetes
..        ...            ...         ...              ...
3      P-1004  Lena Hartmann  1969-01-21         epilepsy
4      P-1005    Omar Haddad  2001-09-09           asthma

[5 rows x 4 columns]"""


def _notebook(output: str) -> str:
    """A Jupyter notebook whose cell showed `output` (`df` as the cell's last line), as Jupyter saves it."""
    lines = output.split("\n")
    return json.dumps({"cells": [{
        "cell_type": "code", "execution_count": 3, "id": "a1b2c3", "metadata": {}, "outputs": [{
            "data": {"text/plain": [line + "\n" for line in lines[:-1]] + lines[-1:]}, "execution_count": 3,
            "metadata": {}, "output_type": "execute_result"}],
        "source": ["df = pd.read_csv('patients.csv')\n", "df"]}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5}, indent=1, ensure_ascii=False) + "\n"


def test_a_dataframe_printed_in_a_notebook_is_read_column_by_column(tmp_path):
    """A notebook's output of a DataFrame of 4 patients shown (pandas right-aligns each column's name and values;
    `..` stands for the row left out). By hand: 4 patients × name, dob, diagnosis = 12 values, 11 units (one a
    value: `P-1005`'s asthma is `P-1001`'s unit), each of its patient (`P-1001`…) and named by its column, in
    `prelabel` of the notebook; the same 11 values in `--discover` of an agent that printed the frame. Before: 6
    in `prelabel`, of the file, not the patient (no dob; `Ayşe Yıldız` missed), and 5 in `--discover`."""
    rows = [("P-1001", "Maria Kessler", "1984-03-12", "asthma"), ("P-1002", "Ayşe Yıldız", "1990-11-02",
            "type 2 diabetes"), ("P-1004", "Lena Hartmann", "1969-01-21", "epilepsy"),
            ("P-1005", "Omar Haddad", "2001-09-09", "asthma")]
    expected = sorted((patient, field, value) for patient, *values in rows
                      for field, value in zip(("name", "dob", "diagnosis"), values, strict=True))
    expected.remove(("P-1005", "diagnosis", "asthma"))
    found = _prelabelled(tmp_path, {"patients.ipynb": _notebook(FRAME)})
    assert sorted((u["entity_id"], u["field"], u["value"]) for u in found) == expected
    assert sorted(value for _, value in _discovered(tmp_path, [FRAME])) == sorted({v for _, _, v in expected})


#: A pull request of a clinic's app as `gh api repos/OWNER/REPO/pulls/42` writes it (the fields that matter here),
#: and the summary an agent wrote of it.
PULL = json.dumps({"url": "https://api.github.com/repos/acme-health/intake/pulls/42", "number": 42, "state": "closed",
                   "title": "Patient intake: medication and diagnosis fields", "merged": True, "commits": 3,
                   "additions": 120, "deletions": 45, "changed_files": 3}, indent=2)
SUMMARY = "Merged #42 for the patient medication form: 120 additions and 45 deletions across 3 files."


def test_a_changes_count_of_deletions_is_no_condition_and_a_chromosomes_is(tmp_path):
    """A health app's pull request, read by an agent: GitHub's `"deletions": 45` and its summary's `45 deletions`
    beside `patient`, `medication` and `diagnosis` (the health context a one-word condition needs); and a genetic
    clinic's note of a patient's deletions on chromosome 22. By hand: one unit, the note's `deletions`, in `prelabel` of
    the three files and in `--discover` of an agent that read them. Before: `deletions` proposed from the pull
    request's summary (the one unit of `deletions` was the summary's, and `--discover` found it in the pull request
    and its summary alone)."""
    note = "Genetics clinic: the patient has deletions on chromosome 22 (22q11.2 deletion syndrome)."
    found = _prelabelled(tmp_path, {"a_pull.json": PULL, "b_summary.txt": SUMMARY, "c_note.txt": note})
    assert [(u["dimension"], u["value"], u["source"]["file"]) for u in found
            if u["dimension"] == "health"] == [("health", "deletions", "c_note.txt")]
    assert [(dimension, value) for dimension, value in _discovered(tmp_path, [PULL, SUMMARY, note])
            if dimension == "health"] == [("health", "deletions")]
    assert _discovered(tmp_path, [PULL, SUMMARY]) == []


def test_the_report_of_a_clean_audit_counts_its_session_and_claims_no_missing_evidence(tmp_path):
    """An OpenClaw session of task `t` (named after it) that read nothing of the units file's one unit, audited
    with `--out`, then `report --json` on the findings table. By hand: 1 session, exposure 0.000, 0 leaked, 2 cloud
    calls, and no note (there is no leak whose evidence could lack context). Before: the report noted `no payloads
    found (give --payloads): evidence without context` of an audit with nothing to show."""
    (tmp_path / "logs").mkdir()
    _openclaw(tmp_path / "logs", "t", ["Nothing sensitive here."])
    findings = tmp_path / "findings.parquet"
    code, said = _cli("audit", tmp_path / "logs", "--units", _units(tmp_path / "units.jsonl"), "--out", findings)
    assert code == 0, said
    code, said = _cli("report", findings, "--json")
    assert code == 0, said
    data = json.loads(said[said.index("{"):])
    row, = data["strategies"]
    assert (row["episodes"], row["exposure"], row["leaked_units"], row["cloud_calls"]) == (1, 0.0, 0, 2)
    assert data["notes"] == []


ENV_SAMPLE = ("DATABASE_URL=postgres://user:password@localhost:5432/mydb\nSECRET_KEY=your-secret-key-here\n"
              "STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx\nOPENAI_API_KEY=sk-...\nJWT_SECRET=changeme\n"
              "SENTRY_TOKEN=sntrys_eyJpYXQiOjE3MzI5MDAwMDB9_Qm9uSm91cg7Xk2LpZ\n")


def test_a_templates_blank_keys_are_nobodys_and_a_real_token_beside_them_is(tmp_path):
    """An `.env.sample` whose keys are a template's blanks (`your-secret-key-here`, `sk_test_xxxx…`, `sk-...`,
    `changeme`, `user:password` at localhost) and one real Sentry token left in. By hand: one credential, the
    token, in `prelabel` and in `--discover` of an agent that read the file. Before: `prelabel` proposed four
    (the blanks `your-secret-key-here`, `sk_test_xxxx…` and `sk-...` too)."""
    token = "sntrys_eyJpYXQiOjE3MzI5MDAwMDB9_Qm9uSm91cg7Xk2LpZ"
    found = _prelabelled(tmp_path, {".env.sample": ENV_SAMPLE})
    assert [(u["dimension"], u["value"]) for u in found] == [("credential", token)]
    assert _discovered(tmp_path, [ENV_SAMPLE]) == [("credential", token)]


def test_a_value_two_tasks_hold_is_one_unit_of_a_session_with_no_task(tmp_path):
    """Units of two tasks that share a customer's address (`t1`'s and `t2`'s `maria.kessler@…`, `t2` also her phone),
    sessions `a` and `b` of those tasks (`--task-map`) and a session `c` of none, whose calls sent the address and
    the phone (scored against the units found in its calls). By hand: `a` 1 of 1 leaked, `b` 0 of 2, `c` 2 of 2
    (two values sent: the address once, whichever task's unit names it), in one process and in two. Before: `c`
    3 of 3, the address counted once per task holding it."""
    (tmp_path / "logs").mkdir()
    _openclaw(tmp_path / "logs", "a", ["Email maria.kessler@example.com the claim."])
    _openclaw(tmp_path / "logs", "b", ["Nothing here."])
    _openclaw(tmp_path / "logs", "c", ["Call +49 30 1234567 about maria.kessler@example.com"])
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps(u) + "\n" for u in [
        {"task_id": task, "entity_id": "E1", "field": field, "dimension": "contact", "value": value}
        for task, field, value in [("t1", "email", "maria.kessler@example.com"),
                                   ("t2", "email", "maria.kessler@example.com"), ("t2", "phone", "+49 30 1234567")]]),
        encoding="utf-8")
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({"a": "t1", "b": "t2"}), encoding="utf-8")
    for jobs in ("1", "2"):
        code, said, data = _audited(tmp_path / "logs", "--units", units, "--task-map", task_map, "--jobs", jobs)
        assert code == 0, said
        assert {s["session"]: (s["leaked"], s["units"]) for s in data["sessions"]} == {
            "a": (1, 1), "b": (0, 2), "c": (2, 2)}


def test_an_audit_of_a_folder_without_a_model_call_is_no_clean_audit(tmp_path):
    """`audit` pointed at the folder an agent's logs were to be written to, still empty (the agent never ran, or
    logs elsewhere), as a CI step would: by hand, 0 calls read, `nothing was read`, and a non-zero exit (1, as
    for files skipped) so the step fails. Before: exit 0, the step passed on an audit of nothing."""
    (tmp_path / "logs").mkdir()
    code, said = _cli("audit", tmp_path / "logs", "--units", _units(tmp_path / "units.jsonl"))
    assert code == 1 and "nothing was read" in said, said
    code, said, data = _audited(tmp_path / "logs", "--units", tmp_path / "units.jsonl")
    assert (code, data["calls"]) == (1, 0)
