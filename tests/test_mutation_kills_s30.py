"""Tests written for the survivors of session 30's hand mutants in the code session 29 changed
(`benchmarks/hand_mutants.py`, `GROUPS_S30`; RESULTS.md, "Session 30: hand mutants in session 29's code"). Each
pins a behaviour a user sees that no earlier test held: the forms and the denials read as
`Cascade([unit]).scan_text(text)` (`test_detect_forms_s28._graded`, as session 29's own form tests do), the rest
through the CLI and over loopback HTTP."""

from __future__ import annotations

import pytest
from test_detect_forms_s28 import _graded
from test_intercept_forms_walk_19 import BARE_DUMPS

# -- the new forms: a dump of several lines, a bank's code by every word naming it ------------------------------


def test_a_dump_of_a_file_of_several_lines_is_read():
    """`od -An -x` of a two-line note (`To: Lena Hartmann⏎Phone: +49 30 90182736⏎`): its line breaks are bytes
    of the text that prints, so the dump is read and the phone in it found whole (1.0)."""
    text = BARE_DUMPS["od -An -x"]("To: Lena Hartmann\nPhone: +49 30 90182736\n")
    assert _graded("+49 30 90182736", "contact", text) == 1.0


@pytest.mark.parametrize(("value", "text", "grade"), [
    # 开户行 names a branch as 开户银行 does: the branch alone is a piece (0.3)
    ("招商银行深圳科技园支行 6214830112345678", "开户行：招商银行深圳科技园支行，卡号稍后发", 0.3),
    # a branch of 中国工商银行 written without its 中国, as people write it
    ("中国工商银行杭州西湖支行 6222021234567890", "开户行：工商银行杭州西湖支行，卡号稍后发", 0.3),
    # the routing number inside a longer number, the IFSC inside a longer token: another number, 0
    ("026009593 110022334455", "Routing number 1026009593 (Chase, NY)", 0),
    ("HDFC0001234 50100234567891", "IFSC XHDFC0001234 for the transfer", 0),
    # an IBAN is no code and account: 76 54 32 and 1234 5698 are its digits, not a sort code and an account
    ("GB82 WEST 1234 5698 7654 32", "SORT=765432;ACC=12345698", 0),
    # another account (eight digits) 45 characters after the code, within 60: the branch is that account's
    ("40-11-62 71829304", "sort code 40-11-62, the branch where Tom banks, his account is 55667788", 0),
])
def test_a_banks_code_is_named_by_every_word_for_it_and_never_read_inside_a_longer_token(value, text, grade):
    """The code alone after a word naming it is a piece (0.3, `context_fragments`' grade), whichever word and however
    the branch is written; inside a longer number or token, split out of an IBAN, or beside another account, 0."""
    assert _graded(value, "financial", text, "bank_account") == grade


def test_a_text_made_by_from_code_point_is_read():
    """`String.fromCodePoint(27431, 38451, 23068, 23068)` makes 欧阳娜娜 (U+6B27 U+9633 U+5A1C U+5A1C) as
    `fromCharCode` does: the name whole (1.0)."""
    text = "el.textContent = String.fromCodePoint(27431, 38451, 23068, 23068);"
    assert _graded("欧阳娜娜", "person_name", text) == 1.0


def test_a_number_read_out_in_chinese_numerals_with_a_comma_and_a_space_between_groups_is_the_number():
    """六二一四, 八三零一, 一二三四, 五六七八 (an English comma and a space between groups, as an IME in English
    punctuation writes them): the card whole (1.0), as with 、 or ，alone."""
    assert _graded("6214 8301 1234 5678", "financial", "卡号：六二一四, 八三零一, 一二三四, 五六七八", "card") == 1.0


@pytest.mark.parametrize(("value", "text"), [
    ("07700 900461", "ref 107700900461 paid"),  # a national number's trunk 0 never follows a calling code
    ("555 0134", "order 15550134 shipped"),  # seven digits after 1: too short to be read as the phone
    ("(902) 418-7730", "serial 190241877305 logged"),  # a digit after the phone: a longer number
])
def test_a_number_after_a_calling_code_that_is_no_phone_with_its_code_stays_no_hit(value, text):
    """Only a number of nine digits or more, not starting with 0 and ending the run, is read as the phone after a
    calling code (`exact._after_calling_code`): these are other numbers, 0."""
    assert _graded(value, "contact", text, "phone") == 0


# -- denials ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "dimension", "text"), [
    ("Adaeze Okafor", "person_name", "the callers were not Adaeze Okafor or her husband"),  # "were not"
    ("欧阳娜娜", "person_name", "来电人不是欧阳娜娜"),  # 不是, and the given name's hit after the surname read past
    ("atrial fibrillation", "health", "the rhythm on the strip was not atrial fibrillation"),  # who-denial of a finding
    ("atrial fibrillation", "health", "ECG: sinus rhythm, no atrial fibrillation"),  # a bare "no"
])
def test_a_claim_denied_in_other_words_is_no_leak(value, dimension, text):
    """Each denial the guard's list holds, right before the value (0: the hand-written sets grade a denial 0)."""
    assert _graded(value, dimension, text) == 0


def test_a_guard_keeps_a_value_said_in_a_denial_out_of_a_large_body_too(standin, tmp_path):
    """A request over `lanes.LARGE_BODY` (256 KiB: the denial, then 300,000 characters of a log pasted after it) is
    scanned in the large lane's worker; it enforces as the proxy does, so redact forwards the denial with the name
    replaced and the record holds its finding, as for a small body (`test_intercept_denials`)."""
    from intercept_helpers import enforcing_client
    from test_intercept_denials import DENIAL, NAME, UNIT

    app, upstream = standin
    seen = len(app.state.requests)
    body = {"model": "echo", "messages": [{"role": "user", "content": DENIAL + "\n" + "ok 200 GET /health\n" * 15_000}]}
    with enforcing_client(upstream, tmp_path, [UNIT], "redact", large_lane="thread") as (client, store):
        answer = client.post("/v1/chat/completions", headers={"x-ec2-episode": "deny-large"}, json=body)
        [record] = store.records()
    sent = "".join(r["raw"].decode() for r in app.state.requests[seen:])
    assert answer.status_code == 200 and "donor 7718 is not" in sent and NAME not in sent
    assert [f["unit_id"] for f in record.findings] == [UNIT.id]


# -- what the CLI says: a table's bad line, an empty units file, kana -----------------------------------------------

def test_a_findings_line_that_is_json_but_no_object_is_named_by_its_line(tmp_path):
    """A findings JSONL whose second line is a JSON array (a row pasted as a list): polars cannot read it, and
    `report` names line 2 and says it is a list, not an object (exit 2)."""
    from test_new_user_walk_19 import _cli

    rows = tmp_path / "findings.jsonl"
    rows.write_text('{"group": "ep1", "unit_id": "t1/E1/phone"}\n["ep1", "t1/E1/ssn"]\n', encoding="utf-8")
    code, output = _cli("report", rows)
    assert code == 2 and f"{rows}:2: a JSON list, not an object" in " ".join(output.split()), output


def test_an_empty_units_file_says_one_cloud_call_in_the_singular(tmp_path):
    """A request log of one call audited against a units file of no unit: nothing was looked for in its 1 cloud
    call, said in the singular."""
    from test_new_user_walk_19 import _call, _cli, _write_jsonl

    log = _write_jsonl(tmp_path / "requests.jsonl", [_call("s1", "gpt-4o", "hi", None)])
    units = tmp_path / "units.jsonl"
    units.write_text("", encoding="utf-8")
    code, output = _cli("audit", log, "--units", units)
    assert code == 0, output
    assert "the units file holds no unit (its 1 cloud call not audited)" in " ".join(output.split()), output


def test_annotator_agreement_counts_each_half_width_kana_as_a_token(tmp_path):
    """A Label Studio export of `ﾀﾅｶﾊﾅｺ 090-1234-5678` (the name in half-width katakana, as old systems print it):
    a@x marks the name (person_name) and the phone (contact), b@x the phone only. By hand, one half-width kana a
    token: ﾀ ﾅ ｶ ﾊ ﾅ ｺ, then 090 - 1234 - 5678: 11 tokens; a's 6 name + 5 contact, b's 6 O + 5 contact, agreeing
    on 5. p_o = 5/11 = 55/121, p_e = 5·5/11² = 25/121, κ = (55 − 25)/(121 − 25) = 30/96 = 0.3125; span F1
    2·1/(2 + 1) = 0.6667. (The name read as one token would make it 6 tokens and κ 5/11 = 0.4545.)"""
    from test_new_user_walk_21 import agreement_of_two

    pair = agreement_of_two(tmp_path, "ﾀﾅｶﾊﾅｺ 090-1234-5678", "ﾀﾅｶﾊﾅｺ", "090-1234-5678")
    assert (pair["span_f1"], pair["kappa"]) == (0.6667, 0.3125), pair


# -- the forms' words: an ID's region by "region", 身份证 ------------------------------------------------------------

_ID = "440305198811230419"


def test_a_resident_ids_parts_are_read_by_every_word_naming_them_and_never_inside_another_number():
    """440305198811230419's region code and birth date said apart: after "region" alone (no "ID") a piece (0.3);
    after 身份证 the piece spans the region and the date (both parts read, not the region code alone, which any
    text after 身份证 gives as a start); the date inside a parcel number (7019881123) is no birth date, and the
    region's digits ending a staff number (7440305) are no region code: 0."""
    from test_detect_forms_s24 import _scan

    assert _graded(_ID, "government_id", "region 440305, DOB 23/11/1988", "id_card_number") == 0.3
    found = [found for _, _, found in _scan(_ID, "government_id", "身份证前六位440305，出生1988年11月23日",
                                            "id_card_number")]
    assert "440305，出生1988年11月23日" in found, found
    assert _graded(_ID, "government_id", "身份证地区码 440305，快递单号 7019881123", "id_card_number") == 0
    # the region code's digits ending a staff number: another number, 0
    assert _graded(_ID, "government_id", "工号 7440305，身份证上的生日 1988-11-23", "id_card_number") == 0


# -- the description band: a question is no description -----------------------------------------------------------

def test_a_question_by_its_mark_or_by_ma_alone_may_not_describe_the_value():
    """A text naming the entity asks about its value by a question mark alone, or by 吗 with no mark: neither may
    describe it (`may_describe` False), so the band never grades it."""
    from test_judge_description_band import LIVER

    from ec2audit.detect import learned_grader
    from ec2audit.units import make_unit

    debt = make_unit({"task_id": "t", "entity_id": "P2", "entity_name": "谭国栋", "field": "debt",
                      "value": "尚欠执行款186.4万元", "dimension": "financial"})
    assert learned_grader.may_describe(debt, "谭国栋还有一大笔执行款没还清。")
    assert not learned_grader.may_describe(debt, "谭国栋那笔执行款还清了吗")
    assert learned_grader.may_describe(LIVER, "Marguerite Abelard has a long-standing chronic liver disease.")
    assert not learned_grader.may_describe(LIVER, "Marguerite Abelard has a long-standing chronic liver disease?")


def test_an_addresss_hex_digits_ending_a_longer_hex_run_are_no_address():
    """172.31.14.63 little-endian is 3f0e1fac; in `commit 93f0e1fac` those eight digits end a nine-digit hash (a
    hex digit before them), so they are no address: 0."""
    assert _graded("172.31.14.63", "network", "commit 93f0e1fac merged", "private_ip") == 0


def test_prose_cut_at_a_words_end_with_an_ellipsis_and_the_cut_said_is_graded():
    """`malignant pleural mesothelioma... [truncated]`: 30 of the diagnosis' 59 characters, cut at a word's end, then
    the ellipsis and the word saying it was cut: 30/59 = 0.51 of it shows, past half, so most of it (0.7)."""
    from test_detect_cut_prose import _DX

    assert _graded(_DX, "health", "dx: malignant pleural mesothelioma... [truncated]") == 0.7


# -- a store's record whose body is gone ---------------------------------------------------------------------------

def test_a_forwarded_record_with_no_body_on_record_says_so(tmp_path):
    """Walk 21's store (ep1: r1 forwarded, r2 blocked), r1's request column emptied (NULL: a store pruned of its
    bodies): both audits name r1's body as none on record, not with the reader's words about a body it never
    saw."""
    import sqlite3

    from test_new_user_walk_19 import _cli, _write_jsonl
    from test_new_user_walk_20 import _UNITS
    from test_new_user_walk_21 import _store_with_blocked_body

    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    store = _store_with_blocked_body(tmp_path / "cloud.sqlite", '"H4sIAAAA"')
    with sqlite3.connect(store) as db:
        db.execute("UPDATE records SET request = NULL WHERE id = 'r1'")
    for command in (("intercept", "audit"), ("audit",)):
        code, output = _cli(*command, store, "--units", units)
        assert code == 1 and "r1" in output and "request body not read (none on record)" in " ".join(
            output.split()), output


# -- an intercepted session's calls without a price ---------------------------------------------------------------

def test_an_intercepted_sessions_calls_without_a_price_are_counted_with_their_tier(tmp_path):
    """A proxy's store of episode ep1 (t1), four calls each with usage (200 in, 10 out): gpt-5.4 priced ($0.0040);
    gpt-4o served at the flex tier (no flex price for it); a fine-tune no price table knows (its server counted the
    10 out only: usage all the same); gpt-5.4 again, a stream cut off (cost unknown, though the model has a price).
    By hand, in `report` on `intercept audit --out`: 3 of 4
    calls unpriced, 2 of them for want of a price, the first such tier not the default being flex: "unknown: 3 of 4
    unpriced (2 with no price at the flex tier)"."""
    from test_new_user_walk_21 import report_of_calls

    calls = (("r1", "gpt-5.4", 0.004, None, 200), ("r2", "gpt-4o", None, "flex", 200),
             ("r3", "acme-finetune-7", None, None, None), ("r4", "gpt-5.4", None, None, 200))
    row = report_of_calls(tmp_path, [{"id": rid, "model": model, "stream": rid == "r4", "input_tokens": tokens_in,
                                      "cost_usd": cost, "response": {"model": model,
                                                                     **({"service_tier": tier} if tier else {})}}
                                     for rid, model, cost, tier, tokens_in in calls])
    assert (row["cloud_calls"], row["cloud_usd_unknown"]) == (4, "unknown: 3 of 4 unpriced (2 with no price at the "
                                                                 "flex tier)"), row


def test_audit_of_a_store_says_an_episodes_exposure_is_over_a_lower_bound_of_units(tmp_path):
    """Walk 21's store (ep1, naming no task: Maria's phone forwarded, a blocked request whose body the store kept
    cut off): `audit STORE` counts ep1 among the sessions that matched no task and titles its leaks "1 of 1 unit
    ≥0.7, over units in its calls (a lower bound: 1 blocked request not read)", as its sessions table says."""
    from test_new_user_walk_19 import _cli, _write_jsonl
    from test_new_user_walk_20 import _UNITS
    from test_new_user_walk_21 import _store_with_blocked_body

    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    store = _store_with_blocked_body(tmp_path / "cloud.sqlite",
                                     '{"model": "gpt-4o", "messages": [{"role": "user", "content": "Her SSN is 12')
    code, output = _cli("audit", store, "--units", units)
    said = " ".join(output.split())
    assert code == 1 and "1 session matched no task of the units file" in said, output
    assert ("ep1: exposure 1.000 (1 of 1 unit ≥0.7, over units in its calls (a lower bound: 1 blocked request not "
            "read))") in said, output


def test_a_batch_error_line_whose_response_is_a_string_is_a_failed_call(tmp_path):
    """Walk 12's batch of gpt-4o-mini (input: 2 requests; output: request-1 answered, 22 in / 2 out), its error
    file's line for request-2 holding `"response": "upstream timeout"` (text where the format has an object, as a
    gateway in front of the batch wrote it): read as a call with no answer, not a stop. By hand: 2 calls, request-1's
    22 in / 2 out, request-2 billed nothing; exit 0."""
    import json

    from test_new_user_walk_12 import _batch_answer, _batch_request, _cli, _lines, _units

    folder = tmp_path / "batch_gw"
    folder.mkdir()
    _lines(folder / "batchinput.jsonl", [_batch_request("request-1", "gpt-4o-mini", "Hello world!"),
                                         _batch_request("request-2", "gpt-4o-mini", "Hello again.")])
    _lines(folder / "batch_gw_output.jsonl", [_batch_answer("request-1", "gpt-4o-mini-2024-07-18", 22, 2)])
    _lines(folder / "batch_gw_error.jsonl", [{"id": "batch_req_2", "custom_id": "request-2",
                                              "response": "upstream timeout", "error": {"code": "timeout"}}])
    code, output = _cli("audit", folder, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    [provider] = json.loads(output[output.index("{\n"):])["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (2, 22, 2), provider


def test_prelabel_proposes_no_documentation_example_iban_written_in_lower_case(tmp_path):
    """The IBAN registry's GB example written in lower case (`gb82 west 1234 5698 7654 32`, as a chat pastes it) is
    the same example, nobody's account: `annotate prelabel` proposes nothing in the file."""
    import json

    from click.testing import CliRunner

    from ec2audit.cli import main

    ws = tmp_path / "task-docs" / "workspace"
    ws.mkdir(parents=True)
    (ws / "notes.txt").write_text("From the spec, lower case: gb82 west 1234 5698 7654 32 is the format.\n",
                                  encoding="utf-8")
    out = tmp_path / "tasks.json"
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(ws), "--out", str(out), "--no-presidio"])
    assert result.exit_code == 0, result.output
    assert [r["value"]["text"] for task in json.loads(out.read_text()) for p in task.get("predictions", [])
            for r in p["result"] if r["type"] == "labels"] == []
