"""Session 20, ninth walk: figures a new user reads off `annotate prelabel`, `audit --discover`, `audit` and
`report` on inputs written here as other tools and authors write theirs (licences and SPDX headers, benchmark
data in fictional phone ranges, …), each checked against a count made by hand."""

import json

from test_new_user_walk_5 import _prelabel, _values
from test_new_user_walk_8 import _agent_log, _cli

_LICENSE = """MIT License

Copyright (c) 2024 Thandiwe Mahlangu

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
"""
_HEADER = """# SPDX-FileCopyrightText: 2023 Oluwaseun Adeyemi
# SPDX-FileCopyrightText: © 2022 Siobhán Ní Bhriain
# SPDX-License-Identifier: Apache-2.0
# Copyright 2018 The TensorFlow Authors. All Rights Reserved.
# Copyright (c) 2024 Google LLC
# Copyright (C) 2019-2021, Tomasz Wiśniewski and contributors
# Copyright © 2020-present by Kofi Boateng
# © Ngozi Okafor 2022
# (c) Send The Report Now
# Copyright Infringement Claims: see NOTICE. Copyright 2024 Hugging Face Inc
\"\"\"Export helpers. © 2021 Jane Doe\"\"\"
"""


def test_a_copyright_lines_holder_is_a_person_to_label_and_to_discover(tmp_path):
    """A licence and a source file's SPDX and copyright headers, as GitHub's MIT template and REUSE write them.
    By hand: 6 people (the licence's holder, two SPDX holders, one of a `Copyright (C) 2019-2021,` line without
    its `and contributors`, one of `© 2020-present by`, one before its year) and two companies (`Google LLC`,
    `Hugging Face Inc`: business, as before); not people: `The TensorFlow Authors`, either company, a list's
    `(c)` item, a heading after `Copyright`, `Jane Doe` (a placeholder). Before: none was proposed (no name list
    knows Thandiwe, Oluwaseun or Siobhán, and no key said `name`); `audit --discover` over an agent that read
    both files found none either."""
    units = _prelabel(tmp_path, {"LICENSE": _LICENSE, "export.py": _HEADER})
    assert _values(units) == [("business", "Google LLC"), ("business", "Hugging Face Inc"),
                              ("person_name", "Kofi Boateng"), ("person_name", "Ngozi Okafor"),
                              ("person_name", "Oluwaseun Adeyemi"),
                              ("person_name", "Siobhán Ní Bhriain"), ("person_name", "Thandiwe Mahlangu"),
                              ("person_name", "Tomasz Wiśniewski")]
    log = _agent_log(tmp_path / "logs" / "req.json", _LICENSE, _HEADER)
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    found = {(f["evidence"], f["dimension"]) for f in json.loads(output)["leaked"]}
    assert found == {("Thandiwe Mahlangu", "person_name"), ("Oluwaseun Adeyemi", "person_name"),
                     ("Siobhán Ní Bhriain", "person_name"), ("Tomasz Wiśniewski", "person_name"),
                     ("Kofi Boateng", "person_name"), ("Ngozi Okafor", "person_name"), ("Google LLC", "business"),
                     ("Hugging Face Inc", "business")}


def test_numbers_in_fictional_ranges_are_the_phones_to_label_and_their_leak_is_scored(tmp_path):
    """Benchmark notes as AceBench and TV scripts write them: a desk on 555-0142 (North America's fictional
    555-0100…0199, no area code, no word for a phone before it), a porter on `020 7946 0321` and a landlord on
    `01632 960155` (Ofcom's drama ranges; libphonenumber calls 01632 invalid). Not phones: an order `555-1234`, a
    ticket 4415550. By hand: 4 units, Dana Whitfield (person_name, 1.0) and three phones (contact, 1.5 each). The
    agent's one cloud call sent the desk line and the landlord's: exposure (1.5 + 1.5) / (1.0 + 3 × 1.5) = 0.545,
    2 of 4 units leaked. Before: only Dana Whitfield was proposed, and the call's exposure was 0.000."""
    units = _prelabel(tmp_path, {"notes.md": (
        "Dana Whitfield's desk line is 555-0142; after hours the porter picks up on 020 7946 0321.\n"
        "The landlord, 01632 960155, wants the keys back by Friday.\n"
        "Order 555-1234 shipped; ticket 4415550 closed.\n")})
    assert _values(units) == [("contact", "01632 960155"), ("contact", "020 7946 0321"), ("contact", "555-0142"),
                              ("person_name", "Dana Whitfield")]
    log = tmp_path / "requests.jsonl"
    log.write_text(json.dumps({
        "id": "r1", "timestamp": "2026-11-03T10:00:00Z", "url": "https://api.openai.com/v1/chat/completions",
        "session_id": "s1", "request": {"model": "gpt-4o", "messages": [
            {"role": "user", "content": "Draft a text: ring 555-0142 first, then the landlord on 01632 960155."}]},
        "response": {"usage": {"prompt_tokens": 40, "completion_tokens": 12}}}) + "\n", encoding="utf-8")
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({"s1": "ws"}), encoding="utf-8")
    code, output = _cli("audit", log, "--units", tmp_path / "auto.jsonl", "--task-map", task_map, "--json")
    assert code == 0, output
    (session,) = json.loads(output)["sessions"]
    assert (session["leaked"], session["units"], round(session["exposure"], 3)) == (2, 4, 0.545)


def _logged_call(i: int, session: str, model: str, response: dict, text: str) -> str:
    """A request-log record as an OpenAI-compatible gateway writes one: url, session, request and response."""
    url = ("https://api.anthropic.com/v1/messages" if model.startswith("claude")
           else "https://api.openai.com/v1/chat/completions")
    return json.dumps({"id": f"r{i}", "timestamp": f"2026-11-03T10:0{i}:00Z", "url": url, "session_id": session,
                       "request": {"model": model, "max_tokens": 100,
                                   "messages": [{"role": "user", "content": text}]},
                       "response": response})


def test_report_says_why_a_cost_is_unknown_in_the_words_audit_uses(tmp_path):
    """Three sessions, one call each: gpt-4o with usage (priced), claude-sonnet-4-20250514 with usage (no price
    in the pinned map), gpt-4o whose response logged no usage. By hand: 3 calls, tokens unknown (100 + 100 and what
    the third call sent uncounted: walk 19), 2 of 3 calls unpriced, 1 of them for want of usage; `audit`'s provider
    table says `unknown: no price for the model` and `unknown: 1 of 2 unpriced (no usage logged)`, so the whole
    audit's USD is `unknown: 2 of 3 unpriced (1 with no usage logged)` in `report`'s terminal, HTML and JSON.
    Before: a bare `unknown`."""
    log = tmp_path / "requests.jsonl"
    log.write_text("\n".join([
        _logged_call(1, "s1", "gpt-4o", {"usage": {"prompt_tokens": 100, "completion_tokens": 10}},
                     "Call Dana Whitfield on +1 415-555-0199."),
        _logged_call(2, "s2", "claude-sonnet-4-20250514",
                     {"type": "message", "usage": {"input_tokens": 100, "output_tokens": 10}},
                     "Mail dana.whitfield@acme.io today."),
        _logged_call(3, "s3", "gpt-4o", {"choices": []}, "Mail dana.whitfield@acme.io again.")]) + "\n",
        encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--out", out / "findings.parquet")
    assert code == 0, output
    why = "unknown: 2 of 3 unpriced (1 with no usage logged)"
    code, output = _cli("report", out, "--json")
    assert code == 0, output
    (row,) = json.loads(output)["strategies"]
    assert (row["cloud_calls"], row["cloud_input_tokens"], row["cloud_output_tokens"], row["cloud_usd"],
            row["cloud_usd_unknown"]) == (3, None, None, None, why)
    code, output = _cli("report", out, "--out", tmp_path / "report.html")
    assert code == 0, output
    assert why in " ".join(output.split())
    assert f">{why}</td>" in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_a_verb_that_opens_a_sentence_is_no_part_of_the_name_after_it(tmp_path):
    """A to-do file an agent read, in imperatives: `Ping Dana Whitfield …`, `- Chase Tomas Lindgren …`
    (`Ping`, `Chase` and `Mark` are given names in the US census, so each was read as a first name before a
    second given name). By hand, `audit --discover` finds 3 units, the two people and the desk line, each sent
    by the one call. Before: `Ping Dana Whitfield` and `Chase Tomas Lindgren` were the units, which a later call
    naming `Dana Whitfield` alone would not have sent whole."""
    log = _agent_log(tmp_path / "logs" / "req.json", "Ping Dana Whitfield about the lease; her desk is 555-0142.\n"
                     "- Chase Tomas Lindgren for the deposit.\n")
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    found = {(f["evidence"], f["dimension"]) for f in json.loads(output)["leaked"]}
    assert found == {("Dana Whitfield", "person_name"), ("Tomas Lindgren", "person_name"), ("555-0142", "contact")}


def test_report_on_a_run_says_how_much_of_its_cost_is_unknown_as_run_does(tmp_path):
    """A run folder as `ec2audit run` leaves it: three cloud-only episodes of two calls each, two priced at
    $0.0044 (2 × $0.0022), one whose cloud model had no price. By hand: 6 calls, USD unknown, $0.0088 of it
    priced, in `run`'s own words: `unknown (1 episode unpriced, $0.0088 priced)`. Before: a bare `unknown`."""
    from test_new_user_walk_2 import _episode

    from ec2audit.run.episodes import RECORD, EpisodeSpec
    from ec2audit.run.scheduler import write_results

    out = tmp_path / "run"
    specs = []
    for task, usd in (("A", 0.0044), ("B", 0.0044), ("C", None)):
        record = _episode(task, "cloud-only", 0, 1.0, 2, usd, None).to_dict()
        folder = out / "episodes" / record["episode_id"]
        folder.mkdir(parents=True)
        (folder / RECORD).write_text(json.dumps(record), encoding="utf-8")
        specs.append(EpisodeSpec(task, "cloud-only", 0))
    write_results(out, specs)
    why = "unknown (1 episode unpriced, $0.0088 priced)"
    code, output = _cli("report", out, "--json")
    assert code == 0, output
    (row,) = json.loads(output)["strategies"]
    assert (row["cloud_calls"], row["cloud_usd"], row["cloud_usd_unknown"]) == (6, None, why)
    code, output = _cli("report", out, "--out", tmp_path / "report.html")
    assert code == 0, output
    assert why in " ".join(output.split())
    assert f">{why}</td>" in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_a_name_before_its_possessive_is_labelled_without_it_when_presidio_runs(tmp_path):
    """`annotate prelabel` as it runs by default, with Presidio, over `Dana Whitfield's desk line is 555-0142`:
    spaCy's NER ends the person at `Whitfield's`, and that span, longer than ours, won. By hand: the units are
    `Dana Whitfield` and the phone; a call that names `Dana Whitfield` alone leaks 1 of the 2, exposure
    1.0 / (1.0 + 1.5) = 0.400. Before: the unit was `Dana Whitfield's`, and the call's exposure 0.000."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.md").write_text("Dana Whitfield's desk line is 555-0142.\n", encoding="utf-8")
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--units", units, "--out", tmp_path / "ls.json")
    assert code == 0, output
    assert _values([json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]) == [
        ("contact", "555-0142"), ("person_name", "Dana Whitfield")]
    log = _agent_log(tmp_path / "logs" / "req.json", "Whose desk is it? Dana Whitfield, the office says.")
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({"req": "ws"}), encoding="utf-8")
    code, output = _cli("audit", log, "--units", units, "--task-map", task_map, "--json")
    assert code == 0, output
    (session,) = json.loads(output)["sessions"]
    assert (session["leaked"], session["units"], round(session["exposure"], 3)) == (1, 2, 0.4)


def test_a_drama_number_ending_in_zeros_is_a_phone_not_a_round_number(tmp_path):
    """A hotel's contact page an agent read, in Ofcom's drama ranges, whose numbers run from 0000: `020 7946
    0000`, `0113 496 0000`. By hand, `audit --discover` finds 2 units, both sent by the one call: exposure 1.0.
    Before: each was proposed, then rejected as `a round number (a duration or size)`, and the session had
    nothing to score (exposure null)."""
    log = _agent_log(tmp_path / "logs" / "req.json", "Front desk: 020 7946 0000. Leeds office: 0113 496 0000.")
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    summary = json.loads(output)
    assert {(f["evidence"], f["dimension"]) for f in summary["leaked"]} == {
        ("020 7946 0000", "contact"), ("0113 496 0000", "contact")}
    (session,) = summary["sessions"]
    assert (session["leaked"], session["units"], session["exposure"]) == (2, 2, 1.0)


def _codex_line(at: str, kind: str, payload: dict) -> str:
    return json.dumps({"timestamp": f"2025-12-08T00:{at}Z", "type": kind, "payload": payload})


def _token_count(last: tuple[int, int, int], total: tuple[int, int, int]) -> dict:
    def usage(n: tuple[int, int, int]) -> dict:
        return {"input_tokens": n[0], "cached_input_tokens": n[1], "output_tokens": n[2],
                "reasoning_output_tokens": n[2] // 2, "total_tokens": n[0] + n[2]}
    return {"type": "token_count", "info": {"total_token_usage": usage(total), "last_token_usage": usage(last),
                                            "model_context_window": 272000},
            "rate_limits": {"primary": {"used_percent": 7.0, "window_minutes": 300}}}


def test_a_codex_cli_rollout_is_read_and_each_response_priced(tmp_path):
    """A Codex CLI session as it writes one (`~/.codex/sessions/2025/12/08/rollout-….jsonl`): the user's task,
    a `shell` call whose output holds a claimant's notes, the answer; a `token_count` event after each model
    response (the first before its tool's output, as Codex writes it). By hand: 2 calls of gpt-5-codex ($1.25 /
    $0.125 cached / $10 per million): 1,200·1.25 + 1,500·0.125 + 60·10 = 2,287.5 µ$ and 440·1.25 + 2,560·0.125
    + 45·10 = 1,320 µ$, $0.0036075 in all; 5,700 input tokens (4,060 cached), 105 out (the running totals not
    added again); 3 units, each first sent by call #2, the one after the output, exposure 1.0 (the OS user
    `ines` in the working folder is 4 letters, too short for a contact value the audit finds without a word
    for one: no unit). Before: `not a known log format`, nothing read, exit 1; and, read, `ines` was a fourth
    unit that no call could leak (exposure 0.769)."""
    day = tmp_path / "sessions" / "2025" / "12" / "08"
    day.mkdir(parents=True)
    notes = "Call Dana Whitfield on 555-0142 about claim CLM-2026-004417.\n"
    (day / "rollout-2025-12-08T00-37-46-019a2d7a.jsonl").write_text("\n".join([
        _codex_line("37:46.317", "session_meta", {"id": "019a2d7a", "timestamp": "2025-12-08T00:37:46.308Z",
                                                  "cwd": "/home/ines/claims", "originator": "codex_cli_rs",
                                                  "cli_version": "0.65.0", "source": "cli",
                                                  "model_provider": "openai"}),
        _codex_line("37:46.317", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "<environment_context>\n  <cwd>/home/ines/claims</cwd>\n"
                                           "</environment_context>"}]}),
        _codex_line("37:46.318", "turn_context", {"cwd": "/home/ines/claims", "approval_policy": "on-request",
                                                  "model": "gpt-5-codex", "effort": "medium"}),
        _codex_line("37:46.320", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Summarise notes.md"}]}),
        _codex_line("37:46.320", "event_msg", {"type": "user_message", "message": "Summarise notes.md",
                                               "kind": "plain"}),
        _codex_line("37:48.050", "response_item", {"type": "reasoning", "summary": [],
                                                   "encrypted_content": "gAAAAABo"}),
        _codex_line("37:48.100", "response_item", {"type": "function_call", "name": "shell", "call_id": "call_1",
                                                   "arguments": json.dumps({"command": ["cat", "notes.md"]})}),
        _codex_line("37:48.150", "event_msg", _token_count((2700, 1500, 60), (2700, 1500, 60))),
        _codex_line("37:48.200", "response_item", {"type": "function_call_output", "call_id": "call_1",
                                                   "output": json.dumps({"output": notes, "metadata": {
                                                       "exit_code": 0, "duration_seconds": 0.0}})}),
        _codex_line("37:50.100", "response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Ines should call the claimant about the open claim."}]}),
        _codex_line("37:50.150", "event_msg", _token_count((3000, 2560, 45), (5700, 4060, 105))),
        _codex_line("37:50.160", "event_msg", {"type": "agent_message", "message": "Ines should call …"}),
    ]) + "\n", encoding="utf-8")
    code, output = _cli("audit", tmp_path / "sessions", "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    summary = json.loads(output)
    (provider,) = summary["providers"]
    assert (provider["model"], provider["calls"], provider["input_tokens"], provider["cached_tokens"],
            provider["output_tokens"], provider["cost_usd"]) == ("gpt-5-codex", 2, 5700, 4060, 105, 0.0036075)
    assert sorted((f["evidence"], f["step"]) for f in summary["leaked"]) == [
        ("555-0142", 2), ("CLM-2026-004417", 2), ("Dana Whitfield", 2)]
    (session,) = summary["sessions"]
    assert (session["session"], session["leaked"], session["units"], session["exposure"]) == ("019a2d7a", 3, 3, 1.0)


def test_a_codex_cli_line_without_a_payload_object_is_named(tmp_path):
    """A rollout line whose `payload` is no object is named with its file, line and field, not dropped unseen."""
    rollout = tmp_path / "rollout-2025-12-08T00-37-46-019a2d7b.jsonl"
    rollout.write_text("\n".join([
        _codex_line("37:46.317", "session_meta", {"id": "019a2d7b", "model_provider": "openai"}),
        _codex_line("37:46.320", "response_item", "cut off"),  # type: ignore[arg-type]
        _codex_line("37:46.330", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Summarise notes.md"}]}),
    ]) + "\n", encoding="utf-8")
    code, output = _cli("audit", rollout, "--discover", "--no-presidio")
    assert f"{rollout}:2: field 'payload': no payload object" in output
