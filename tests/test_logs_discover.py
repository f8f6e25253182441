"""`ec2audit audit --discover`: logs without annotations, candidate units from their local side."""

import json
from pathlib import Path

from click.testing import CliRunner

from ec2audit.cli import main

DATA = Path(__file__).parent / "data" / "logs" / "openclaw"


def _run(*args):
    return CliRunner().invoke(main, ["audit", *map(str, args)])


def test_discovered_secret_in_tool_result_reaches_the_cloud():
    result = _run(DATA / "3b9d6c1e-branch.jsonl", DATA / "7e41a0d2-redacted.jsonl", "--discover", "--no-presidio",
                  "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["mode"] == "discover" and summary["units"] > 0
    by_session = {}
    for row in summary["leaked"]:
        by_session.setdefault(row["session"], {})[row["dimension"]] = row
    key = by_session["3b9d6c1e-branch"]["credential"]
    assert (key["step"], key["tool"], key["file"], key["grade"]) == (2, "read", ".env", 1.0)
    assert key["evidence"].startswith("sk-live-") and "*" in key["evidence"]
    # the placeholder is protection: it is no candidate, so nothing about the key counts as leaked
    assert "credential" not in by_session["7e41a0d2-redacted"]
    # the diagnosis read at step 3 only reached the cloud after the compaction (step 5)
    assert by_session["3b9d6c1e-branch"]["health"]["step"] == 5


def test_plain_output_says_which_mode_and_masks_values():
    result = _run(DATA / "3b9d6c1e-branch.jsonl", "--discover", "--no-presidio")
    assert result.exit_code == 0
    assert "mode discover: candidate units" in result.output
    assert "sk-live-51HqLmX9vB4nR8tY3kW6pZ1cJ5dF0gAs7Ee" not in result.output
    units = _run(DATA / "3b9d6c1e-branch.jsonl", "--units", DATA.parent / "units.jsonl")
    assert "mode units: annotated units file" in units.output


def test_exactly_one_of_units_or_discover():
    assert _run(DATA, "--discover", "--units", DATA.parent / "units.jsonl").exit_code == 2
    result = _run(DATA)
    assert result.exit_code == 2 and "--units FILE or --discover" in result.output


def test_default_discover_runs_presidio_too():
    result = _run(DATA / "3b9d6c1e-branch.jsonl", "--discover", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output[result.output.index("{\n"):])
    by_dimension = {r["dimension"]: r for r in summary["leaked"]}
    assert by_dimension["credential"]["step"] == 2 and by_dimension["credential"]["file"] == ".env"
    assert by_dimension["contact"]["step"] == 1  # the phone in the hidden workspace block


def test_presidio_finds_a_person_named_in_prose(tmp_path):
    """A name our census recognizer cannot read (neither word is a census name) in a request a user wrote:
    only Presidio's NER proposes it, and the audit then finds it reached the cloud."""
    log = tmp_path / "chat.json"
    log.write_text(json.dumps({"messages": [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "My neighbour Henrike Vollbrecht will water the plants while I am away. "
                                    "Write her a short thank-you note."},
        {"role": "assistant", "content": "Dear neighbour, thank you so much for looking after the plants."}]}))
    ours = json.loads(CliRunner().invoke(main, ["audit", str(log), "--discover", "--no-presidio", "--json"]).stdout)
    assert ours["units"] == 0 and ours["leaked"] == []
    result = CliRunner().invoke(main, ["audit", str(log), "--discover", "--json"])
    assert result.exit_code == 0, result.output
    [leak] = json.loads(result.stdout)["leaked"]
    assert (leak["dimension"], leak["origin"], leak["step"], leak["grade"]) == ("person_name", "user", 1, 1.0)
    assert leak["evidence"].startswith("Hen") and "Vollbrecht" not in result.stdout  # shown masked


def test_discovered_units_keep_people_and_drop_test_results_bots_and_services(tmp_path):
    """One chat as a user's agent sends it: the wifi password, the phone with its area code in brackets,
    the mailbox and the home server are proposed and found; a test runner's `PASS:` lines, bots' and
    no-reply senders and a public mail host are not units."""
    log = tmp_path / "chat.json"
    log.write_text(json.dumps({"model": "gpt-4o", "messages": [
        {"role": "user", "content": "Fix the failing test, mail the summary to ana.souza@example.org and call me "
                                    "at (614) 555-0187. Home wifi pass: Wq7!rPz2"},
        {"role": "assistant", "content": "Running the tests."},
        {"role": "tool", "content": "--- PASS: TestCheckout2 (0.00s)\nPASS: test_refund_flow\nFAIL: test_invoice\n"
                                    "From: noreply@shop.example.com\nFrom: dependabot[bot]@users.noreply.github.com\n"
                                    "SMTP host smtp.fastmail.com, backups on nas.priya-home.lan"}]}))
    findings = tmp_path / "findings.jsonl"
    result = _run(log, "--discover", "--no-presidio", "--json", "--out", findings)
    assert result.exit_code == 0, result.output
    found = {json.loads(line)["matched_text"] for line in findings.read_text().splitlines()}
    assert found == {"ana.souza@example.org", "(614) 555-0187", "Wq7!rPz2", "nas.priya-home.lan"}
