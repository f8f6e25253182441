"""Session 29, twenty-first walk: figures a new user reads off `intercept audit`, `audit`, `report` and the other
commands, on inputs written here as other tools write theirs, each checked against a count made by hand."""

import json
import sqlite3

from test_new_user_walk_19 import _cli, _write_jsonl
from test_new_user_walk_20 import _UNITS


def _store_with_blocked_body(path, stored_body: str) -> str:
    """A proxy's store for episode ep1 (no task): Maria's phone forwarded, then her SSN blocked (403), the blocked
    request's body as the store kept it (`stored_body`, the text in its `request` column)."""
    from ec2audit.intercept.record import BLOCKED, ProxyRecord
    from ec2audit.intercept.store import RecordStore

    store = RecordStore(path)
    for rid, text, status in (("r1", "Call Maria at +1 415 555 0134", 200), ("r2", "Her SSN is 123-45-6789", 403)):
        store.add(ProxyRecord(id=rid, episode="ep1", ts=float(status), api="openai-chat", path="/v1/chat/completions",
                              model="gpt-4o", status=status, error=f"{BLOCKED}: ssn" if status == 403 else None,
                              request={"model": "gpt-4o", "messages": [{"role": "user", "content": text}]}))
    store.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE records SET request = ? WHERE id = 'r2'", (stored_body,))
    return str(path)


def test_a_blocked_record_whose_body_cannot_be_read_is_named_and_its_episodes_units_a_lower_bound(tmp_path):
    """ep1 (no task) sent Maria's phone (weight 1); its blocked request held her SSN (3), but the store kept that
    body cut off mid-string (not JSON). By hand: read, ep1 would score 1 · 1 / (1 + 3) = 0.25; unread, the units
    found in its calls are the phone alone, 1 of 1 leaked, 1.000, and that is only an upper bound, its 1 unit a
    lower bound. So `intercept audit` names r2 and why (exit 1), shows ≥1 unit and ≤1.000, `report` on its
    `--out` says ep1's 1.000 is at most that, and `audit STORE` names r2 too (exit 1), its sessions table marks
    ep1's units a lower bound, which `report` says as well. Before: `intercept audit`
    died on a JSONDecodeError traceback, `audit STORE` read nothing of the store ("reading stopped"), and with a
    body kept as encoded text both printed 1.000 over 1 unit, silently."""
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    store = _store_with_blocked_body(tmp_path / "cloud.sqlite",
                                     '{"model": "gpt-4o", "messages": [{"role": "user", "content": "Her SSN is 12')
    out = tmp_path / "out" / "findings.parquet"
    code, output = _cli("intercept", "audit", store, "--units", units, "--out", out)
    assert code == 1, output
    assert "blocked record r2 of ep1: request body not read" in output, output
    row = next(line for line in output.splitlines() if line.startswith("│ ep1"))
    assert [c.strip() for c in row.split("│")[2:6]] == ["units in its calls, at least", "≥1", "1", "≤1.000"], row
    code, output = _cli("report", out, "--json")
    assert code == 0, output
    summary = json.loads(output)
    [episode] = summary["groups"]
    assert (episode["exposure"], episode["leaked_units"]) == (1.0, 1)
    assert any("ep1: exposure 1.000 at most" in note for note in summary["notes"]), summary["notes"]
    out = tmp_path / "logs" / "findings.parquet"
    code, output = _cli("audit", store, "--units", units, "--json", "--out", out)
    assert code == 1, output
    summary = json.loads(output[output.index("{"):])
    assert any("blocked record r2 of ep1: request body not read" in s for s in summary["skipped"]), summary["skipped"]
    [session] = summary["sessions"]
    assert (session["units"], session["leaked"], session["scored_against"]) == (
        1, 1, "units found in its own calls (a lower bound: 1 blocked request not read)")
    code, output = _cli("report", out, "--json")
    assert any("ep1: exposure 1.000 at most" in note for note in json.loads(output)["notes"]), output


def test_a_blocked_body_kept_as_encoded_text_is_named_not_read_as_holding_nothing(tmp_path):
    """The same store, its blocked body kept as a JSON string (base64 of gzip, as a store that compresses bodies
    would): JSON, so the store reads, but no request. By hand as above: ep1 ≤ 1.000 over ≥ 1 unit, r2 named in
    `intercept audit --json`'s skipped lines and `audit`'s. Before: 1.000 over 1 unit, exit 0, nothing said."""
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    store = _store_with_blocked_body(tmp_path / "cloud.sqlite", '"H4sIAAAAAAAAA+NKz8xLLUpVSMsvyk0tAgBP3E0yEQAAAA=="')
    code, output = _cli("intercept", "audit", store, "--units", units, "--json")
    assert code == 1, output
    summary = json.loads(output[output.index("{"):])
    assert any("r2 of ep1: request body not read (stored as 48 characters of text" in s
               for s in summary["skipped_lines"]), summary["skipped_lines"]
    code, output = _cli("audit", store, "--units", units)
    assert code == 1 and "blocked record r2 of ep1: request body not read" in output, output


def test_audits_counts_read_in_the_singular_where_there_is_one(tmp_path):
    """A request log (as an SDK hook writes it) of one session of t1 whose one call sends Maria's phone, t1's one
    unit here: by hand, 1 of 1 unit leaked, exposure 1 · 1 / 1 = 1.000. Then the same log with a call that sends
    nothing of hers: 1 cloud call audited. Before: "1 of 1 units" and "1 cloud calls audited"."""
    from test_new_user_walk_19 import _call

    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS[:1])
    for text, said in (("Call Maria at +1 415 555 0134", "exposure 1.000 (1 of 1 unit ≥0.7, over task t1)"),
                       ("What time is it?", "no sensitive unit reached a cloud call (1 cloud call audited)")):
        log = _write_jsonl(tmp_path / "requests.jsonl", [_call("s1", "gpt-4o", text, None)])
        code, output = _cli("audit", log, "--units", units)
        assert code == 0, output
        assert said in " ".join(output.split()), output


def test_a_findings_table_with_a_bad_line_is_named_by_its_line(tmp_path):
    """A findings JSONL edited by hand (a spreadsheet's export pasted in): line 1 a finding row, line 2 empty, line 3
    cut off. By hand: the first line that is no JSON object is line 3, so `report` says `findings.jsonl:3: not JSON`
    (exit 2), and `judge review push` reading the same file names line 3 too. Before: polars' `cannot read table:
    ... at character 0`, no line."""
    rows = tmp_path / "findings.jsonl"
    rows.write_text('{"group": "ep1", "unit_id": "t1/E1/phone"}\n\n{"group": "ep1", "unit_id": "t1/E1/ss\n',
                    encoding="utf-8")
    code, output = _cli("report", rows)
    assert code == 2 and f"{rows}:3: not JSON" in output, output
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    code, output = _cli("judge", "review", "push", rows, "--units", units, "--url", "http://127.0.0.1:9",
                        "--project", "walk21")
    assert code == 2 and f"{rows}:3: not JSON" in output, output


def test_a_forwarded_body_the_store_kept_cut_off_is_named_as_such_not_as_no_body(tmp_path):
    """The store of the first test, its forwarded record r1's body cut off after `{"model": "gpt` (14 characters):
    by hand, both audits name r1's body as stored as 14 characters of text, not JSON. Before: `intercept audit`
    died on a JSONDecodeError traceback and `audit STORE` read none of the store; a body kept as a JSON string read
    as "no request body: expected 'messages'…", as though the client had sent none."""
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    store = _store_with_blocked_body(tmp_path / "cloud.sqlite", '"H4sIAAAA"')
    with sqlite3.connect(store) as db:
        db.execute("UPDATE records SET request = ? WHERE id = 'r1'", ('{"model": "gpt',))
    said = "request body not read (stored as 14 characters of text, not a JSON object"
    for command in (("intercept", "audit"), ("audit",)):
        code, output = _cli(*command, store, "--units", units)
        assert code == 1 and "r1" in output and said in " ".join(output.split()), output


def test_annotator_agreement_on_japanese_counts_each_kana_as_a_token(tmp_path):
    """A Label Studio export of one Japanese note, 連絡先はタナカハナコ、電話は090-1234-5678です。: a@x marks the name
    タナカハナコ (person_name) and the phone (contact), b@x the phone only. By hand, one character a token (Han and
    kana alike; 090, 1234, 5678, the dashes and 、。 apart): 22 tokens, a's 6 name + 5 contact + 11 O, b's 5
    contact + 17 O, agreeing on 16. p_o = 16/22, p_e = (11·17 + 5·5)/22² = 212/484, κ = (352 − 212)/(484 − 212) =
    140/272 = 0.5147; span F1 2·1/(2 + 1) = 0.6667. Before: a kana run (はタナカハナコ, は090, 5678です) was one token
    labelled by its first character, so a's name labelled nothing and κ read 1.0 beside a span F1 of 0.67."""
    text = "連絡先はタナカハナコ、電話は090-1234-5678です。"
    pair = agreement_of_two(tmp_path, text, "タナカハナコ", "090-1234-5678")
    assert (pair["span_f1"], pair["kappa"]) == (0.6667, 0.5147), pair


def agreement_of_two(tmp_path, text: str, name: str, phone: str) -> dict:
    """`annotate agreement`'s pair for a Label Studio export of `text` where a@x marks `name` (person_name) and
    `phone` (contact), b@x the phone only."""

    def region(value, label, n):
        start = text.index(value)
        return {"id": f"r{n}", "from_name": "label", "to_name": "text", "type": "labels",
                "value": {"start": start, "end": start + len(value), "text": value, "labels": [label]}}

    phone_region, name_region = region(phone, "contact", 2), region(name, "person_name", 1)
    export = tmp_path / "export.json"
    export.write_text(json.dumps([{"id": 1, "data": {"text": text, "task_id": "t", "file": "n.txt", "key": "t:n.txt"},
                                   "annotations": [{"completed_by": {"email": "a@x"},
                                                    "result": [name_region, phone_region]},
                                                   {"completed_by": {"email": "b@x"}, "result": [phone_region]}]}],
                                 ensure_ascii=False), encoding="utf-8")
    report = tmp_path / "agreement.json"
    code, output = _cli("annotate", "agreement", export, "--report", report)
    assert code == 0, output
    [pair] = json.loads(report.read_text())["pairs"]
    return pair


def test_a_reports_unknown_cost_says_which_calls_had_no_price(tmp_path):
    """A request log of one session of t1: gpt-5.4 (1,000 tokens in, 100 out: 1,000 · $2.50 + 100 · $15.00 per
    million = $0.0040) and a fine-tune no price table knows (500 in, 50 out). By hand: `audit` prices the first
    and says the second has no price; `report` on its `--out`: 2 calls, 1,500 tokens in, USD unknown, 1 of 2
    unpriced for want of a price. Before: `report` said "unknown: 1 of 2 unpriced" and not why."""
    from test_new_user_walk_19 import _call

    def answered(model: str, tokens_in: int, tokens_out: int) -> dict:
        return _call("s1", model, "hi", {"prompt_tokens": tokens_in, "completion_tokens": tokens_out})

    log = _write_jsonl(tmp_path / "requests.jsonl", [answered("gpt-5.4", 1000, 100),
                                                     answered("acme-finetune-7", 500, 50)])
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS[:1])
    out = tmp_path / "out" / "findings.parquet"
    code, output = _cli("audit", log, "--units", units, "--out", out, "--json")
    assert code == 0, output
    assert {p["model"]: p["cost_usd"] for p in json.loads(output)["providers"]} == {
        "gpt-5.4": 0.004, "acme-finetune-7": None}
    code, output = _cli("report", out, "--json")
    assert code == 0, output
    [row] = json.loads(output)["strategies"]
    assert (row["cloud_calls"], row["cloud_input_tokens"], row["cloud_usd"], row["cloud_usd_unknown"]) == (
        2, 1500, None, "unknown: 1 of 2 unpriced (no price)")


def test_an_intercepted_answer_cut_off_is_not_said_to_have_no_price(tmp_path):
    """A proxy's store of episode ep1 (t1): two gpt-5.4 calls (a priced model), the first priced ($0.0040), the
    second a stream cut off (usage 200 in, 10 out, cost unknown). By hand, in `report` on `intercept audit --out`:
    2 calls, 1 of 2 unpriced, and not for want of a price (gpt-5.4 has one). Before, with `report` naming calls
    without a price: the sessions table counted every unpriced call with usage as one without a price."""
    row = report_of_calls(tmp_path, [{"id": rid, "model": "gpt-5.4", "stream": cost is None, "input_tokens": 200,
                                      "cost_usd": cost} for rid, cost in (("r1", 0.004), ("r2", None))])
    assert (row["cloud_calls"], row["cloud_usd_unknown"]) == (2, "unknown: 1 of 2 unpriced"), row


def report_of_calls(tmp_path, calls: list[dict]) -> dict:
    """`report --json`'s strategy row on `intercept audit --out` of a proxy's store of episode ep1 (t1) holding one
    answered chat call per dict (its `ProxyRecord` fields: id, model and what differs; 10 tokens out)."""
    from ec2audit.intercept.record import ProxyRecord
    from ec2audit.intercept.store import RecordStore

    store = RecordStore(tmp_path / "cloud.sqlite")
    for call in calls:
        request = {"model": call["model"], "messages": [{"role": "user", "content": "hi"}]}
        store.add(ProxyRecord(**{"episode": "ep1", "task_id": "t1", "ts": 1.0, "api": "openai-chat",
                                 "path": "/v1/chat/completions", "status": 200, "output_tokens": 10,
                                 "request": request, **call}))
    store.close()
    out = tmp_path / "out" / "findings.parquet"
    code, output = _cli("intercept", "audit", store.path, "--units", _write_jsonl(tmp_path / "u.jsonl", _UNITS),
                        "--out", out)
    assert code == 0, output
    code, output = _cli("report", out, "--json")
    [row] = json.loads(output)["strategies"]
    return row
