"""Session 21, tenth walk: figures a new user reads off `intercept serve`, `annotate prelabel`, `audit
--discover`, `audit` and `report` on inputs written here as other tools and authors write theirs, each checked
against a count made by hand."""

import json
import signal

from test_new_user_walk_5 import _prelabel, _values
from test_new_user_walk_8 import _agent_log, _cli


def test_a_stopped_interceptor_says_why_a_cost_is_unknown_in_the_words_audit_uses(standin, tmp_path):
    """`intercept serve` in front of the stand-in, stopped by SIGTERM after three calls: gpt-4o (priced),
    `acme-ft-7b`, a fine-tune no price list knows, answered with its usage, and a streamed call whose connection
    the cloud dropped (`fault-cut`: no usage came). The stand-in counts a token per 4 characters: 9 in the 36 of
    the prompt, 10 in the 42 of its echo. By hand: gpt-4o costs (9 × $2.50 + 10 × $10) / 1e6 = $0.000122;
    `acme-ft-7b … USD unknown: no price for the model`, `fault-cut … USD unknown: no usage logged`, the words
    `audit`'s provider table uses. Before: `USD unknown (1 of 1 unpriced)` for both, which says neither why."""
    import httpx
    from intercept_helpers import serve_cli

    _, upstream = standin
    store, log = tmp_path / "intercept.sqlite", tmp_path / "serve.log"
    proc, url = serve_cli(upstream, store, log, "sk-upstream")
    try:
        for model, stream in (("gpt-4o", False), ("acme-ft-7b", False), ("fault-cut", True)):
            try:
                httpx.post(f"{url}/v1/chat/completions", timeout=20, json={
                    "model": model, "stream": stream,
                    "messages": [{"role": "user", "content": "Summarise the claim of Will Hartley."}]}).read()
            except httpx.HTTPError:
                pass
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, log.read_text()
    said = log.read_text()
    assert "stopped: 3 calls recorded in" in said
    assert "  gpt-4o: 1 call, 9 input / 10 output tokens, USD 0.00012\n" in said  # (9 × 2.5 + 10 × 10) / 1e6
    assert "  acme-ft-7b: 1 call, 9 input / 10 output tokens, USD unknown: no price for the model\n" in said
    # its tokens nobody counted: unknown, not 0 (walk 19)
    assert "  fault-cut: 1 call, unknown input / unknown output tokens, USD unknown: no usage logged\n" in said


def _discovered(tmp_path, text: str) -> set[tuple[str, str]]:
    """(value, dimension) of each unit `audit --discover --no-presidio` finds in an agent's one tool result."""
    log = _agent_log(tmp_path / "logs" / "req.json", text)
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    return {(f["evidence"], f["dimension"]) for f in json.loads(output)["leaked"]}


_MAIL = """From: Weekly Digest <digest@news.example.com>
From: Rose Baker <rose.baker@fastmail.com>
Cc: Kofi Boateng <kofi.boateng@acme.io>

Copyright 2024 Red Hat
Copyright (c) 2023 Hugging Face
Copyright (c) 2022 Grace Hunter
© 2021 Siobhán Ní Bhriain
"""


def test_a_newsletter_or_a_company_of_dictionary_words_is_nobody(tmp_path):
    """A mailbox's headers and a file's copyright lines, as mail clients and licences write them. `Weekly
    Digest`, `Red Hat`, `Hugging Face` are a newsletter's and companies' names: English words only, none a given
    name. People: `Rose Baker`, `Grace Hunter` (dictionary words, but each opens with a given name), `Kofi
    Boateng`, `Siobhán Ní Bhriain` (no dictionary's words). By hand: 4 people and 3 addresses, in `annotate
    prelabel` and in `audit --discover`. Before: the three names were people too (10 units)."""
    people = [("person_name", "Grace Hunter"), ("person_name", "Kofi Boateng"), ("person_name", "Rose Baker"),
              ("person_name", "Siobhán Ní Bhriain")]
    mailboxes = [("contact", "digest@news.example.com"), ("contact", "kofi.boateng@acme.io"),
                 ("contact", "rose.baker@fastmail.com")]
    assert _values(_prelabel(tmp_path, {"mail.txt": _MAIL})) == mailboxes + people
    assert _discovered(tmp_path, _MAIL) == {(value, dimension) for dimension, value in mailboxes + people}


def test_a_phrase_after_a_chinese_label_for_a_person_is_no_name(tmp_path):
    """A support log in Chinese: `客户：马上办` (the customer says `on it`: 马上, at once, and 办, do) and
    `客户：黄海涛` (a name whose head 黄海, the Yellow Sea, is a word too, and 涛 a given name's character).
    By hand: one person, 黄海涛, in `annotate prelabel` and in `audit --discover`. Before: 马上办 was a second
    person (the label made any two to four characters a name)."""
    text = "客户：马上办\n客户：黄海涛\n"
    assert _values(_prelabel(tmp_path, {"chat.txt": text})) == [("person_name", "黄海涛")]
    assert _discovered(tmp_path, text) == {("黄海涛", "person_name")}


def test_a_policy_number_after_its_word_is_discovered_as_a_record_number(tmp_path):
    """Claim notes: `policy no. 12345` (a record number by the word before it: financial, as docs/design.md
    gives `POL-88321-B`) and `account no. 12345678`. By hand, `audit --discover` names them
    `record_number` (as it names `POL-88321-B`) and `bank_account`. Before: the policy number was an `account`."""
    log = _agent_log(tmp_path / "logs" / "req.json",
                     "Claim filed under policy no. 12345 last week; refund to account no. 12345678.")
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    found = {(f["evidence"], f["dimension"], f["unit_id"].rsplit("/", 1)[1]) for f in json.loads(output)["leaked"]}
    assert found == {("12345", "financial", "record_number"), ("12345678", "financial", "bank_account")}


def test_a_country_in_a_lines_label_is_no_place_to_label_when_presidio_runs(tmp_path):
    """`annotate prelabel` as it runs by default, with Presidio, over a contact sheet: `Reception (UK): +44 …`,
    `- Front desk (US): +1 …`, then `Dana Whitfield moved to Leeds in May.` spaCy's NER calls UK and US places,
    but in a line's label they say whose number it is, not where someone lives. By hand: 4 units, two phones
    (contact, 1.5 each), Dana Whitfield (1.0) and Leeds (location, 1.5); a call that sends the UK desk's number
    and her name leaks (1.5 + 1.0) / (1.5 + 1.5 + 1.0 + 1.5) = 0.455. Before: UK and US were two more places,
    and the call's exposure 2.5 / 8.5 = 0.294."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "contacts.md").write_text("Reception (UK): +44 20 7946 0958\n- Front desk (US): +1 415 555 0142\n"
                                    "Dana Whitfield moved to Leeds in May.\n", encoding="utf-8")
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--units", units, "--out", tmp_path / "ls.json")
    assert code == 0, output
    assert _values([json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]) == [
        ("contact", "+1 415 555 0142"), ("contact", "+44 20 7946 0958"), ("location", "Leeds"),
        ("person_name", "Dana Whitfield")]
    log = _agent_log(tmp_path / "logs" / "req.json", "Ring +44 20 7946 0958 and ask for Dana Whitfield.")
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({"req": "ws"}), encoding="utf-8")
    code, output = _cli("audit", log, "--units", units, "--task-map", task_map, "--json")
    assert code == 0, output
    (session,) = json.loads(output)["sessions"]
    assert (session["leaked"], session["units"], round(session["exposure"], 3)) == (2, 4, 0.455)


_SIGNATURE = """Best regards,
Hannah Schmidt
Senior Account Manager | Northwind Traders
Tel: +49 89 1234 5678 | Mobile: 0151 23456789
"""


def test_each_pair_of_a_signatures_barred_line_is_its_own_value(tmp_path):
    """An e-mail signature as Outlook users write it: `Tel: +49 89 1234 5678 | Mobile: 0151 23456789`. By
    hand: 3 units, Hannah Schmidt and two phones (the mobile is a German national number after its word), in
    `annotate prelabel` and in `audit --discover`. Before: the line was one phone, `+49 89 1234 5678 | Mobile:
    0151 23456789`, a value no call would send whole."""
    expected = [("contact", "+49 89 1234 5678"), ("contact", "0151 23456789"), ("person_name", "Hannah Schmidt")]
    assert _values(_prelabel(tmp_path, {"mail.txt": _SIGNATURE})) == expected
    assert _discovered(tmp_path, _SIGNATURE) == {(value, dimension) for dimension, value in expected}


_RUNBOOK = """On-call: Tomás Herrera
Assignee: Łukasz Nowak
Reviewed-by: Zoë Brontë <zoe.bronte@example.org>
On-call: Platform Team
"""


def test_a_name_with_accents_after_its_key_is_a_person_and_a_team_is_not(tmp_path):
    """A runbook's rota and a commit trailer, in names as their owners spell them. By hand: 3 people (Tomás
    Herrera, Łukasz Nowak, Zoë Brontë) and one address, in `annotate prelabel` and in `audit --discover`; `Platform
    Team` is a team. Before: none of the three was proposed (a name was ASCII letters only), and `Platform Team`
    was a person."""
    expected = [("contact", "zoe.bronte@example.org"), ("person_name", "Tomás Herrera"),
                ("person_name", "Zoë Brontë"), ("person_name", "Łukasz Nowak")]
    assert _values(_prelabel(tmp_path, {"runbook.md": _RUNBOOK})) == expected
    assert _discovered(tmp_path, _RUNBOOK) == {(value, dimension) for dimension, value in expected}


_FORWARD = """> Hi team, forwarding from Renée Dubois (renee.dubois@orange.fr):
> "Please ring me on 06 12 34 56 78 before Friday."
"""


def test_a_forwarded_mail_gives_its_senders_name_and_the_number_she_asked_to_be_rung_on(tmp_path):
    """A forwarded message as mail clients quote it: the sender's name with her address in brackets, and a French
    mobile after `ring me on` (British English for `call me on`). By hand: 3 units, Renée Dubois, her address and
    the number, in `annotate prelabel` and in `audit --discover`. Before: only the address (a name was one only
    before `<address>`, a national number only after `call me on`)."""
    expected = [("contact", "06 12 34 56 78"), ("contact", "renee.dubois@orange.fr"), ("person_name", "Renée Dubois")]
    assert _values(_prelabel(tmp_path, {"mail.txt": _FORWARD})) == expected
    assert _discovered(tmp_path, _FORWARD) == {(value, dimension) for dimension, value in expected}


_REFERRAL = """Dear Ms. Whitfield,
Contact: Ms. Amara Nwosu
Contact: Dr. Kwame Mensah, +233 24 123 4567
"""


def test_a_title_before_a_given_name_and_a_surname_names_a_person(tmp_path):
    """A referral letter: `Contact: Ms. Amara Nwosu`, `Contact: Dr. Kwame Mensah, +233 …` (no name list knows
    Kwame or Mensah; the key names a contact, and a name has no digits). By hand: 3 units, the two people and the
    Ghanaian number, in `annotate prelabel` and in `audit --discover`; `Ms. Whitfield` (a surname alone) is how she
    is addressed, no name. Before: only the number."""
    expected = [("contact", "+233 24 123 4567"), ("person_name", "Amara Nwosu"), ("person_name", "Kwame Mensah")]
    assert _values(_prelabel(tmp_path, {"referral.txt": _REFERRAL})) == expected
    assert _discovered(tmp_path, _REFERRAL) == {(value, dimension) for dimension, value in expected}


def test_a_claude_code_calls_web_searches_are_billed_beside_its_tokens(tmp_path):
    """A Claude Code session (`~/.claude/projects/<project>/<session>.jsonl`) whose one answer ran three web searches,
    counted as Claude Code writes them, in `usage.server_tool_use.web_search_requests`. By hand, at
    claude-sonnet-4-5's $3 / $15 per million tokens and Anthropic's $10 per thousand searches: (1200 × 3 + 300 × 15)
    / 1e6 + 3 × 0.01 = $0.0081 + $0.03 = $0.0381. Before: $0.0081, the searches left out."""
    session = "8f0c2a4e-5b1d-4c3e-9a7f-2d6e1b0c9a11"
    common = {"isSidechain": False, "userType": "external", "cwd": "/home/dana/trip", "sessionId": session,
              "version": "2.0.14", "gitBranch": "main"}
    transcript = tmp_path / "projects" / "-home-dana-trip" / f"{session}.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_text("\n".join(json.dumps(line) for line in [
        {**common, "parentUuid": None, "type": "user", "uuid": "u1", "timestamp": "2026-11-03T10:00:00.000Z",
         "message": {"role": "user", "content": "Find hotels in Lisbon for Dana Whitfield, +1 415-555-0199."}},
        {**common, "parentUuid": "u1", "type": "assistant", "uuid": "a1", "timestamp": "2026-11-03T10:00:09.000Z",
         "requestId": "req_01", "message": {
             "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
             "content": [{"type": "text", "text": "Here are three hotels."}], "stop_reason": "end_turn",
             "stop_sequence": None, "usage": {
                 "input_tokens": 1200, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                 "output_tokens": 300, "server_tool_use": {"web_search_requests": 3, "web_fetch_requests": 0},
                 "service_tier": "standard"}}}]) + "\n", encoding="utf-8")
    code, output = _cli("audit", transcript, "--discover", "--no-presidio", "--json")
    assert code == 0, output
    (row,) = json.loads(output)["providers"]
    assert (row["model"], row["input_tokens"], row["output_tokens"], round(row["cost_usd"], 6)) == (
        "claude-sonnet-4-5-20250929", 1200, 300, 0.0381)


_PYPROJECT = """[project]
name = "tripplanner"
authors = [{name = "Thandiwe Mahlangu", email = "thandi@mahlangu.dev"}]
maintainers = [
  {name = "Oluwaseun Adeyemi", email = "seun.adeyemi@fastmail.com"},
]
"""


def test_a_pyprojects_package_name_is_no_person_and_its_authors_are(tmp_path):
    """A workspace's `pyproject.toml` as PEP 621 writes it: the package's `name = "tripplanner"`, its authors and
    maintainers as inline tables. By hand: 4 units, the two people and their two addresses. Before: `tripplanner`
    was a fifth, a person (a one-word package name has no hyphen for the slug rule to see)."""
    assert _values(_prelabel(tmp_path, {"pyproject.toml": _PYPROJECT})) == [
        ("contact", "seun.adeyemi@fastmail.com"), ("contact", "thandi@mahlangu.dev"),
        ("person_name", "Oluwaseun Adeyemi"), ("person_name", "Thandiwe Mahlangu")]


def test_each_person_a_key_lists_is_a_unit_and_the_calls_exposure_counts_them(tmp_path):
    """Meeting notes as people write them: `Attendees: Amara Nwosu, Li Wei and Björn Andersson` (a plural of
    `attendee`, a key for a person), and `Patient: Cummings, Brandon` (surname first: one name, not a list). By hand:
    4 units of 1.0 each; a call that sends `Amara Nwosu` and `Li Wei` leaks 2 of them, exposure 2 / 4 = 0.500.
    Before: the list was no name (too many words for one), only Li Wei (in the census lists) and the patient were
    units, and the same call's exposure read 1 / 2 = 0.500 over half the people."""
    units = _prelabel(tmp_path, {"minutes.md": "Attendees: Amara Nwosu, Li Wei and Björn Andersson\n"
                                               "Patient: Cummings, Brandon\n"})
    assert _values(units) == [("person_name", "Amara Nwosu"), ("person_name", "Björn Andersson"),
                              ("person_name", "Cummings, Brandon"), ("person_name", "Li Wei")]
    log = _agent_log(tmp_path / "logs" / "req.json", "Book a room for Amara Nwosu and Li Wei on Friday.")
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({"req": "ws"}), encoding="utf-8")
    code, output = _cli("audit", log, "--units", tmp_path / "auto.jsonl", "--task-map", task_map, "--json")
    assert code == 0, output
    (session,) = json.loads(output)["sessions"]
    assert (session["leaked"], session["units"], round(session["exposure"], 3)) == (2, 4, 0.5)
