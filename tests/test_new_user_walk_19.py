"""Session 27, nineteenth walk: figures a new user reads off `audit`, `report` and `intercept serve` on inputs
written here as other tools write theirs, each checked against a count made by hand."""

import json
import signal

from click.testing import CliRunner

from ec2audit.cli import main

_UNITS = [
    {"task_id": "t1", "entity_id": "E1", "entity_name": "Maria Kessler", "field": "phone", "value": "+1 415 555 0134",
     "dimension": "contact", "weight": 1.0},
    {"task_id": "t1", "entity_id": "E1", "entity_name": "Maria Kessler", "field": "ssn", "value": "123-45-6789",
     "dimension": "government_id", "weight": 3.0},
]


def _cli(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def _write_jsonl(path, rows) -> str:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def _call(session: str, model: str, text: str, usage: dict | None, timestamp: str | None = None) -> dict:
    """One line of a request log as an SDK hook writes it: the request, and the answer with its usage if logged."""
    response = {"id": f"r-{session}-{len(text)}", "model": model,
                "choices": [{"message": {"role": "assistant", "content": "ok"}}], **({"usage": usage} if usage else {})}
    return {"session_id": session, "task_id": "t1", "url": "https://api.openai.com/v1/chat/completions",
            "request": {"model": model, "messages": [{"role": "user", "content": text}]}, "response": response,
            **({"timestamp": timestamp} if timestamp else {})}


def test_tokens_of_calls_that_logged_no_usage_are_unknown_not_zero(tmp_path):
    """Session s1 made two gpt-4o calls, one answered with usage (1,000 prompt / 100 completion tokens) and one
    logged without its answer's usage; session s2 one gpt-4o-mini call (10 / 5). By hand: s1's tokens are 1,000 /
    100 plus what nobody counted, so unknown, as its USD is (`unknown: 1 of 2 unpriced (no usage logged)`); s2's
    are 10 / 5; the report's total over both is unknown too. Before: `input tok 1000` for gpt-4o, read as the
    whole, and a log of calls none of which logged usage read `0` tokens sent."""
    log = _write_jsonl(tmp_path / "requests.jsonl", [
        _call("s1", "gpt-4o", "Call Maria at +1 415 555 0134", {"prompt_tokens": 1000, "completion_tokens": 100}),
        _call("s1", "gpt-4o", "Her SSN is 123-45-6789", None),
        _call("s2", "gpt-4o-mini", "hello", {"prompt_tokens": 10, "completion_tokens": 5})])
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    code, output = _cli("audit", log, "--units", units, "--json")
    assert code == 0, output
    providers = {p["model"]: p for p in json.loads(output)["providers"]}
    assert (providers["gpt-4o"]["input_tokens"], providers["gpt-4o"]["output_tokens"]) == (None, None)
    assert (providers["gpt-4o-mini"]["input_tokens"], providers["gpt-4o-mini"]["output_tokens"]) == (10, 5)
    code, output = _cli("audit", log, "--units", units, "--out", tmp_path / "out" / "findings.parquet")
    assert code == 0, output
    row = next(line for line in output.splitlines() if "openai/gpt-4o " in line)
    assert row.split()[2:5] == ["2", "unknown", "unknown"], row
    code, output = _cli("report", tmp_path / "out", "--json")
    assert code == 0, output
    data = json.loads(output)
    groups = {g["label"]: g for g in data["groups"]}
    assert (groups["s1"]["cloud_input_tokens"], groups["s1"]["cloud_output_tokens"]) == (None, None)
    assert (groups["s2"]["cloud_input_tokens"], groups["s2"]["cloud_output_tokens"]) == (10, 5)
    [total] = data["strategies"]
    assert total["cloud_calls"] == 3 and total["cloud_input_tokens"] is None
    code, output = _cli("report", tmp_path / "out", "--out", tmp_path / "report.html")
    assert code == 0, output
    cost = next(line for line in output.splitlines() if "audit: findings.parquet" in line and "$" not in line
                and "unknown" in line)
    assert cost.count("unknown") >= 3, cost  # input, cached, output (and the USD, with why)


def _served(standin, tmp_path, enforce: str, requests: list[tuple[str, bool, str]]) -> str:
    """`intercept serve --enforce ENFORCE` in front of the stand-in over `_UNITS` (its store `ENFORCE.sqlite`),
    sent each (model, stream, text), stopped by SIGTERM: what it said."""
    import httpx
    from intercept_helpers import serve_cli

    _, upstream = standin
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    store, log = tmp_path / f"{enforce}.sqlite", tmp_path / f"{enforce}.log"
    proc, url = serve_cli(upstream, store, log, "sk-upstream", "--units", units, "--enforce", enforce)
    try:
        for model, stream, text in requests:
            try:
                httpx.post(f"{url}/v1/chat/completions", timeout=20, json={
                    "model": model, "stream": stream, "messages": [{"role": "user", "content": text}]}).read()
            except httpx.HTTPError:
                pass
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, log.read_text()
    return log.read_text()


def test_a_stopped_blocking_interceptor_counts_the_requests_it_blocked_apart_from_its_calls(standin, tmp_path):
    """`--enforce block`: two requests carry Maria's phone (refused, 403), one asks the time (forwarded). By hand,
    as `audit` of the store counts them: 1 call recorded, gpt-4o-mini's; 2 requests blocked, never sent, no cost.
    The stand-in counts a token per 4 characters: 4 in the 16 characters of `What time is it?`. Before:
    `stopped: 3 calls recorded` and `gpt-4o: 2 calls, 0 input / 0 output tokens, USD 0.0000`, two calls no cloud
    ever saw, and nothing said of the blocking."""
    said = _served(standin, tmp_path, "block", [
        ("gpt-4o", False, "Call Maria at +1 415 555 0134"), ("gpt-4o", False, "Maria: +1 415 555 0134, urgent"),
        ("gpt-4o-mini", False, "What time is it?")])
    assert "stopped: 1 call recorded in" in said, said
    assert "  gpt-4o:" not in said, said
    assert "  gpt-4o-mini: 1 call, 4 input /" in said, said
    assert "  2 requests blocked (403), never sent to the cloud: no call, no cost\n" in said, said


def test_a_stopped_redacting_interceptor_says_how_many_values_it_redacted_and_a_cut_streams_tokens_are_unknown(
        standin, tmp_path):
    """`--enforce redact`: one request carries Maria's phone and SSN (2 values replaced), one carries nothing of
    hers, and a streamed call whose connection the cloud dropped (`fault-cut`: no usage came). By hand: 2 values
    redacted in 1 call; the cut call's tokens unknown, as its USD is (`no usage logged`), and so the tokens of the
    episode's 3 calls in `intercept audit --out`'s sessions table, which `report` reads. Before: no word of the
    redaction, `fault-cut: 1 call, 0 input / 0 output tokens`, and the other calls' tokens as the episode's."""
    said = _served(standin, tmp_path, "redact", [
        ("gpt-4o", False, "Call Maria at +1 415 555 0134, SSN 123-45-6789"), ("gpt-4o", False, "What time is it?"),
        ("fault-cut", True, "Summarise the claim.")])
    assert "stopped: 3 calls recorded in" in said, said
    assert "  2 values redacted in 1 call before they were sent\n" in said, said
    assert "  fault-cut: 1 call, unknown input / unknown output tokens, USD unknown: no usage logged\n" in said, said
    findings = tmp_path / "f.parquet"
    code, output = _cli("intercept", "audit", tmp_path / "redact.sqlite", "--units", tmp_path / "units.jsonl",
                        "--out", findings)
    assert code == 0, output
    code, output = _cli("report", findings, "--json")
    assert code == 0, output
    [episode] = json.loads(output)["groups"]
    assert (episode["cloud_calls"], episode["cloud_input_tokens"], episode["cloud_output_tokens"]) == (3, None, None)


def test_report_reads_the_evidence_of_an_intercept_audit_from_the_store_it_audited(standin, tmp_path):
    """`intercept audit STORE --out f.parquet`, then `report f.parquet --payloads STORE` as the report's note asks
    (`give --payloads`). By hand: the one leak, Maria's phone, is shown in its request's text, masked to its
    first and last fifth (15 characters: 3 kept each side, `+1 *********134`) after `Call Maria at `, and no note
    says a payload could not be read. Before: the store was read as JSON lines, nine notes of `s.sqlite:N: not
    valid JSON`, and no evidence."""
    _served(standin, tmp_path, "observe", [("gpt-4o", False, "Call Maria at +1 415 555 0134")])
    store, units, findings = tmp_path / "observe.sqlite", tmp_path / "units.jsonl", tmp_path / "f.parquet"
    code, output = _cli("intercept", "audit", store, "--units", units, "--out", findings)
    assert code == 0, output
    code, output = _cli("report", findings, "--payloads", store, "--out", tmp_path / "report.html")
    assert code == 0, output
    assert "not valid JSON" not in output and "no payloads found" not in output, output
    page = (tmp_path / "report.html").read_text()
    assert 'Call Maria at <mark class="hit">+1 *********134</mark>' in page


def test_a_dotted_number_glued_to_a_version_word_in_a_file_name_is_no_address(tmp_path):
    """An agent listed a release folder (`build-10.2.3.4`, `release_10.20.1.7`, `fw-192.168.4.2`: versions named
    by the word glued to them, as file names and tags write them) and read a hosts file. By hand, 1 unit: the
    database host's 10.0.8.21. Before: 4 `private_ip` units, the three versions among them, as `build 10.2.3.4`
    with a space was already not."""
    from test_new_user_walk_10 import _discovered

    found = _discovered(tmp_path, "$ ls dist/\napp-build-10.2.3.4.tar.gz  release_10.20.1.7.zip  fw-192.168.4.2.bin\n"
                                  "$ cat hosts\ndb01 10.0.8.21\n")
    assert found == {("10.0.8.21", "network")}


def test_the_time_of_a_first_call_is_shown_in_utc_whatever_offset_the_log_wrote(tmp_path):
    """A request log whose writer moved between machines: call #1 logged at `09:00:00Z`, call #2 at
    `10:30:00+02:00`. By hand: #2 was sent at 08:30 UTC, half an hour before #1, and the leaks table says so
    (`#2 08:30:00Z`, `#1 09:00:00Z`). Before: `#2 10:30:00`, the time of day as written, an hour and a half after
    #1 in the same column."""
    log = _write_jsonl(tmp_path / "requests.jsonl", [
        _call("s1", "gpt-4o", "Call Maria at +1 415 555 0134", {"prompt_tokens": 10, "completion_tokens": 1},
              "2026-01-05T09:00:00Z"),
        _call("s1", "gpt-4o", "Her SSN is 123-45-6789", {"prompt_tokens": 10, "completion_tokens": 1},
              "2026-01-05T10:30:00+02:00")])
    code, output = _cli("audit", log, "--units", _write_jsonl(tmp_path / "units.jsonl", _UNITS))
    assert code == 0, output
    rows = {line.split()[0]: line for line in output.splitlines() if line.strip().startswith("E1/")}
    assert "#1 09:00:00Z" in rows["E1/phone"] and "#2 08:30:00Z" in rows["E1/ssn"], output


def test_a_salary_its_key_names_is_discovered_however_few_its_digits(tmp_path):
    """An agent read an HR note: a name, a monthly and a yearly pay in yuan (`¥25,000`, `30万元`), a salary in
    dollars, and a plan's list price. By hand, 4 units: 王芳 and the three amounts their keys (月薪, 年薪, Salary)
    name as pay, each financial (weight 2.5); not the plan's `$1,200`, which no key names. Before: only 王芳, every
    amount rejected for having fewer than 7 digits, the rule for account numbers."""
    from test_new_user_walk_10 import _discovered

    found = _discovered(tmp_path, "姓名：王芳\n月薪：¥25,000\n年薪：30万元\nSalary: $182,500\n"
                                  "Enterprise plan: $1,200 per seat\n")
    assert found == {("王芳", "person_name"), ("¥25,000", "financial"), ("30万元", "financial"),
                     ("$182,500", "financial")}


def test_intercept_audit_calls_no_fragment_a_leaked_unit(standin, tmp_path):
    """The proxy recorded one request naming only the last four digits of Maria's SSN (`ends in 6789`, a fragment,
    grade 0.3). By hand: task t1's exposure (0.3 × 3) / (1 + 3) = 0.225, 0 units leaked (grade ≥ 0.7), as the
    exposure table's `leaked ≥0.7` column says; the units table lists the SSN at 0.3 without calling it leaked.
    Before: it was titled `Top leaked units` under a table that counted 0 leaked."""
    import httpx
    from intercept_helpers import serve_cli

    _, upstream = standin
    store, log = tmp_path / "s.sqlite", tmp_path / "serve.log"
    proc, url = serve_cli(upstream, store, log, "sk-upstream")
    try:
        httpx.post(f"{url}/e/ep1/t/t1/v1/chat/completions", timeout=20, json={
            "model": "gpt-4o", "messages": [{"role": "user", "content": "Her SSN ends in 6789."}]}).raise_for_status()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, log.read_text()
    code, output = _cli("intercept", "audit", store, "--units", _write_jsonl(tmp_path / "units.jsonl", _UNITS))
    assert code == 0, output
    [row] = [line.split("│")[1:-1] for line in output.splitlines() if "ep1" in line]
    assert [cell.strip() for cell in row] == ["ep1", "t1", "2", "0", "0.225", "0.775"], output
    assert "Top leaked units" not in output and "leaked: grade ≥ 0.7" in output, output
