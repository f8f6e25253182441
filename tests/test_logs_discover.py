"""`ec2audit audit --discover`: logs without annotations, candidate units from their local side."""

import json
from pathlib import Path

import pytest
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


def _call(session: str, url: str, messages: list, number: int) -> dict:
    return {"id": f"r{number}", "session_id": session, "url": url,
            "request": {"model": "gpt-5.4" if "openai" in url else "qwen2.5:7b", "messages": messages}}


def _tool(name: str, content: str, call_id: str) -> list[dict]:
    return [{"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": call_id, "content": content}]


def test_discovery_exposure_on_a_transcript_known_by_hand(tmp_path):
    """One session, two cloud calls and one to a local model. Its local side holds nine sensitive
    values: in the cloud calls, OpenClaw's runtime context (sender name, handle, id), a phone the
    user typed, a saved passenger's date of birth, an e-mail's sender and address; in the edge call
    only, a card and a second address. Not values: a passenger's first name (ICD-10 also names
    'Amelia'), `git diff --stat`'s 'deletions', a Message-ID. Exposure, the weighted share of the local
    side's values that reached a cloud call, by hand: contact 1.5 × 4 + names 1.0 × 2 + date of birth
    1.0 reached, out of contact 1.5 × 5 + names 1.0 × 2 + card 2.5 + date of birth 1.0: 9 / 13."""
    cloud, edge = "https://api.openai.com/v1/chat/completions", "http://127.0.0.1:8080/v1/chat/completions"
    context = ("Conversation info: ⟦openclaw:ctx⟧\n```json\n" + json.dumps(
        {"chat_id": "telegram:5839201174", "message_id": "812", "timestamp": "Fri 2026-11-20 08:00 UTC",
         "sender": {"id": "5839201174", "name": "Priya Raman", "username": "priya_r"}}) + "\n```\n\n"
        "Call me on +1 415-555-0142 and sort out my booking?")
    profile = json.dumps({"user_id": "priya_r_1", "membership": "gold",
                          "saved_passengers": [{"name": "Amelia", "dob": "1957-03-21"}]})
    diffstat = " src/billing/invoice.py | 12 ++++++----\n 1 file changed, 6 insertions(+), 6 deletions(-)\n"
    mail = ("From: Ana Souza <ana.souza@hey.com>\nMessage-ID: <CAH8f3kQ9x2mZ+7Lw@mail.gmail.com>\n"
            "Subject: renewal\n\nSee you Tuesday.\n")
    card = "Card on file: 4539 1488 0343 6467, receipts to priya.raman@fastmail.com"
    calls = [_call("trip", cloud, [{"role": "user", "content": context}, *_tool("get_profile", profile, "c1")], 1),
             _call("trip", edge, [{"role": "user", "content": "Which card is on file?"},
                                  *_tool("get_card", card, "c2")], 2),
             _call("trip", cloud, [{"role": "user", "content": "Any news?"}, *_tool("bash", diffstat, "c3"),
                                   *_tool("read_email", mail, "c4")], 3)]
    (tmp_path / "trip.jsonl").write_text("".join(json.dumps(c) + "\n" for c in calls))
    result = CliRunner().invoke(main, ["audit", str(tmp_path / "trip.jsonl"), "--discover", "--no-presidio",
                                       "--show-values", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    (session,) = summary["sessions"]
    assert (session["units"], session["leaked"]) == (9, 7)
    assert session["exposure"] == pytest.approx(9 / 13)
    leaked = {r["evidence"]: (r["unit_id"].rsplit("/", 1)[1], r["dimension"]) for r in summary["leaked"]}
    assert {value: dimension for value, (_, dimension) in leaked.items()} == {
        "Priya Raman": "person_name", "priya_r": "contact", "5839201174": "contact", "+1 415-555-0142": "contact",
        "1957-03-21": "other", "Ana Souza": "person_name", "ana.souza@hey.com": "contact"}
    assert leaked["ana.souza@hey.com"][0] == "email" and leaked["Ana Souza"][0] == "name"  # not `From`, `From_2`
    assert "exposure_definition" in summary and "local side" in summary["exposure_definition"]
    plain = CliRunner().invoke(main, ["audit", str(tmp_path / "trip.jsonl"), "--discover", "--no-presidio"],
                               env={"COLUMNS": "200"})
    assert ("the weighted share of the sensitive values on its local side (user inputs, tool results) that "
            "reached a cloud call") in " ".join(plain.output.split())  # the table's title, wrapped at its width


def test_discovery_on_a_real_shaped_log_matches_its_hand_labels(tmp_path):
    """An OpenClaw transcript nobody here tuned on (benchmarks/data/discover/test5): a CI log with a virus
    scanner, a lock file, a crab astrology sign's copy and a customer's mail. The units proposed are the ones
    its hand labels call sensitive, all its must-find values among them; `Cancer`, `viruses`, the run id,
    hashes and message ids are not proposed. The one value labelled junk is the app's support mailbox
    (another split counts a clinic's reception mailbox as someone's, so role mailboxes stay)."""
    bench = Path(__file__).parent.parent / "benchmarks" / "data" / "discover"
    log = bench / "test5" / "openclaw-crabapp.jsonl"
    labels = {row["value"]: row for row in map(json.loads, (bench / "labels.jsonl").read_text().splitlines())}
    findings = tmp_path / "findings.jsonl"
    result = _run(log, "--discover", "--json", "--out", findings)
    assert result.exit_code == 0, result.output
    proposed = {json.loads(line)["matched_text"] for line in findings.read_text().splitlines()}
    assert json.loads(result.stdout)["units"] == len(proposed)  # an OpenClaw agent sends every value to the cloud
    assert all(value in labels for value in proposed), proposed - labels.keys()
    assert {v for v in proposed if not labels[v]["sensitive"]} == {"soporte@cangrejo.app"}
    text = log.read_text(encoding="utf-8")
    must = {v for v, row in labels.items() if row.get("must_find") and json.dumps(v)[1:-1] in text}
    assert len(must) >= 6 and all(any(m in v for v in proposed) for m in must), must
