"""Hand mutants of session 21 (benchmarks/hand_mutants.py; RESULTS.md, "Hand mutants in the code changed in session
20"): planted one at a time in the code session 20 changed, each survivor a behaviour no test held. Each test here
kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files, HTTP) or,
where the CLI cannot reach it, by what the library function gives."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from test_detect_digit_regions import _exact, cascade  # noqa: F401 (a module fixture)
from test_detect_forms_masks_s20 import STRIPE, _scan
from test_detect_forms_walk_5 import _read
from test_intercept_forms_walk_3 import UNITS  # noqa: F401 (the units `proxy` guards)
from test_intercept_forms_walk_8 import RECORD, _zip, office_file
from test_judge_e5_cross import write_inputs
from test_judge_learned_grader import stump
from test_mutation_kills_s20 import _spans
from test_new_user_walk_8 import _cli
from test_new_user_walk_9 import _codex_line, _logged_call, _token_count

from ec2audit.cli import main
from ec2audit.detect import digit_regions, learned_grader
from ec2audit.detect.cascade import Cascade
from ec2audit.detect.finding import MOSTLY
from ec2audit.detect.forms.cjk_dotted_digits import CjkDottedDigits
from ec2audit.detect.forms.lakh import LakhGrouping
from ec2audit.detect.forms.office_runs import OfficeRuns
from ec2audit.detect.forms.rtf import RtfEscapes
from ec2audit.detect.forms.spelled_out import SpelledOut
from ec2audit.detect.forms.spoken_emails import SpokenEmails
from ec2audit.detect.judge import Verdict
from ec2audit.detect.normalize import TextView
from ec2audit.detect.value_checks import Reading
from ec2audit.errors import InputError
from ec2audit.intercept.media import archive_text
from ec2audit.units import make_unit

# --- detect/learned_grader.py: the tree walk, the thresholds, loading -------------------------------------------


def test_a_feature_at_a_split_goes_left_and_a_probability_at_the_threshold_grades():
    """scikit-learn sends a value equal to a node's threshold to the left child, and the grade threshold is "at or
    above" (LG1, LG4): a stump splitting `model_reviews` at 0.0, the row's value 0.0, reaches the left leaf
    (log-odds 0, p = 0.5), which a threshold of exactly 0.5 grades."""
    text = "Dana has been living with MS since 2021."
    reading = Reading(0.6, 0, 22, 0.83, 0.2)
    grader = stump(3.0, "model_reviews")
    at_split = learned_grader.LearnedGrader(
        grader.version, grader.names, 0.0, grader.feature, np.array([[0.0, 0.0, 0.0]]), grader.left, grader.right,
        grader.leaf, np.array([[0.0, 0.0, 3.0]]), 0.5, 0.3)
    row = [0.0] * len(learned_grader.names())
    assert at_split.probability(np.asarray([row]))[0] == 0.5  # the left leaf: 0.0, not the right's 3.0
    assert at_split.decide(row, reading, Verdict(0.0), text) == Verdict(MOSTLY, text[0:22], 0, 22)


def test_a_grader_file_with_a_value_of_the_wrong_type_is_a_one_line_error(tmp_path):
    """A baseline that is no number (`null`: float(None) is a TypeError) is the same one-line error as any file
    that is no grader, not a traceback (LG9)."""
    data = json.loads(learned_grader.GRADER_PATH.read_text())
    data["baseline"] = None
    bad = tmp_path / "g.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(InputError, match="not a local judge learned grader"):
        learned_grader.LearnedGrader.load(bad)


def test_a_grader_whose_node_reads_a_feature_past_the_last_is_refused(tmp_path):
    """A node reading feature `len(names)`, one past the last, would index past every row: refused as malformed
    when loaded, not an IndexError at the first candidate (LG11)."""
    data = stump(3.0, "check_graded").as_dict()  # a grader with trees
    data["feature"][0][0] = len(data["names"])
    bad = tmp_path / "g.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(InputError, match="malformed"):
        learned_grader.LearnedGrader.load(bad)


def test_the_model_alone_never_reads_the_learned_graders_file(tmp_path, monkeypatch):
    """`--local-judge --no-value-checks` grades with the cross-encoder alone: a damaged grader file, which only the
    checks' grading reads, is no error there (LE1)."""
    bad = tmp_path / "learned-grader.json"
    bad.write_text("{not json")
    monkeypatch.setattr(learned_grader, "GRADER_PATH", bad)
    units, payloads, cal = write_inputs(tmp_path)
    result = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal), "--local-judge",
                                       "--no-value-checks", "--cache", str(tmp_path / "c.sqlite"), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["judge"]["model"] == "e5-cross"


# --- detect/digit_regions.py: the regions the digit view is built over -----------------------------------------

def test_a_number_is_read_in_its_run_and_an_account_with_its_margin_for_the_bank():
    """A number's region is the run of characters that may hold it, with the safe character either side (`Q`, `!`);
    an account's reaches `ACCOUNT_MARGIN` characters past its number on both sides, where its bank may be named
    (DR3, DR4: the account read as a number would be read whole instead, for every account in the text)."""
    text = "Q" * 5000 + "!call 139-2288-3366 now!" + "Q" * 5000
    assert digit_regions.DigitRegions(["13922883366"], []).regions(text, []) == [(5000, 5024)]
    account = "6222021234567890"
    text = "Q" * 1000 + account + "Q" * 5000
    end = 1000 + len(account)
    margin = digit_regions.ACCOUNT_MARGIN
    assert digit_regions.DigitRegions([], [account]).regions(text, []) == [(end - 1 - margin, end + margin)]


def test_a_run_with_as_many_numbers_as_are_compiled_is_read_by_regions():
    """`MOST_NUMBERS` is the most compiled, not one more than that (DR2)."""
    numbers = [f"139{k:08d}" for k in range(digit_regions.MOST_NUMBERS)]
    assert digit_regions.DigitRegions(numbers, []).regions("call 13900000001 " * 300, []) is not None


def test_an_account_whose_bank_is_named_after_it_beyond_its_region_is_read_in_the_whole_view(cascade):  # noqa: F811
    """The bank named 70 digit-view characters after the account, 280 characters on, past the region's end: the
    digit view is read whole and the bank found, as where it stands before (DR13)."""
    exact = _exact(cascade)
    account = next(b for b in exact._banks.values())
    bank = min(account.bank, key=len)
    text = "x: " * 1400 + f"ok {account.number} :" + " - 1" * 70 + f":{bank}" + ": y" * 1400
    view, whole = TextView.of(text), TextView.of(text)
    hits = exact._scan_digits(view, [])
    assert [h.detector for h in hits if text[h.start:h.end] == account.number] == ["exact.account"]
    assert hits == exact._digit_hits(whole, [])


# --- compiled.py, secrets.py, forms/masked.py: a key's published prefix shows nothing of it ---------------------

@pytest.mark.parametrize(("value", "dimension", "text", "found"), [
    # the longest prefix that fits: `sk-proj-`, not `sk-` (PK2)
    ("sk-proj-Xa81KqP20vLm4RtY7wZc3NbF", "credential", "OPENAI_API_KEY=sk-proj-************************ set", []),
    # the last four characters alone: four of the secret, the prefix not shown (MK1)
    (STRIPE, "credential", "key=************************c6Ye", [("partial.masked", 0.3)]),
    # only a credential has a published prefix: a reference starting like an AWS key shows four of its eleven (CP4)
    ("ASIA7731920", "financial", "ref ASIA*******", [("partial.masked", 0.3)]),
    # a password that is a prefix and nothing more keeps all four characters secret (PK3)
    ("Asia", "credential", "pw Asi*", [("partial.masked", 0.7)]),
])
def test_only_a_keys_own_published_prefix_goes_uncounted(value, dimension, text, found):
    assert _scan(value, dimension, text) == found


# --- exact.py: alnum_offsets -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "dimension", "text", "written"), [
    ("GB29NWBK60161331926819", "financial", "wire to GB29 NWBK 6016 1331 9268 19 today", "GB29 NWBK 6016 1331 9268 19"),
    ("3c:52:82:1a:9f:04", "network", "mac 3c-52-82-1a-9f-04 seen", "3c-52-82-1a-9f-04"),
])
def test_an_identifier_written_with_other_separators_is_found_to_its_last_character(value, dimension, text, written):
    """The alphanumeric view's hit maps back to the text from its first character to its last (AO5)."""
    unit = make_unit({"task_id": "t21", "entity_id": "e", "entity_name": None, "field": "f", "value": value,
                      "dimension": dimension})
    assert [(h.detector, text[h.start:h.end]) for h in Cascade([unit]).scan_text(text)] == [("exact.alnum", written)]


# --- logs/codex_cli.py -----------------------------------------------------------------------------------------

def test_a_custom_tools_output_is_read_and_two_responses_in_a_row_are_two_calls(tmp_path):
    """An `apply_patch` call (a custom tool) whose output holds a claimant's notes, then two answers in a row,
    each with its `token_count`. By hand: the notes' three values, sent by call #2; 3 calls, 1,000 + 1,100 + 1,200
    input tokens (CX11: the custom tool's output dropped, nothing found; CX7: the two answers one call, 2,100)."""
    notes = "Call Dana Whitfield on 555-0142 about claim CLM-2026-004417."
    rollout = tmp_path / "rollout-2025-12-08T00-37-46-019a2d7d.jsonl"
    rollout.write_text("\n".join([
        _codex_line("37:46.317", "session_meta", {"id": "019a2d7d", "model_provider": "openai"}),
        _codex_line("37:46.318", "turn_context", {"model": "gpt-5-codex"}),
        _codex_line("37:46.320", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Add the notes file"}]}),
        _codex_line("37:47.100", "response_item", {"type": "custom_tool_call", "name": "apply_patch",
                                                   "call_id": "call_1", "input": "*** Begin Patch"}),
        _codex_line("37:47.150", "event_msg", _token_count((1000, 0, 10), (1000, 0, 10))),
        _codex_line("37:47.200", "response_item", {"type": "custom_tool_call_output", "call_id": "call_1",
                                                   "output": f"Added notes.md: {notes}"}),
        _codex_line("37:48.100", "response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Added."}]}),
        _codex_line("37:48.150", "event_msg", _token_count((1100, 0, 5), (2100, 0, 15))),
        _codex_line("37:49.100", "response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Anything else?"}]}),
        _codex_line("37:49.150", "event_msg", _token_count((1200, 0, 5), (3300, 0, 20))),
    ]) + "\n", encoding="utf-8")
    code, output = _cli("audit", rollout, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    summary = json.loads(output)
    (provider,) = summary["providers"]
    assert (provider["calls"], provider["input_tokens"]) == (3, 3300)
    assert sorted((f["evidence"], f["step"], f["kind"]) for f in summary["leaked"]) == [
        ("555-0142", 2, "tool"), ("CLM-2026-004417", 2, "tool"), ("Dana Whitfield", 2, "tool")]


def test_codexs_developer_instructions_are_the_system_prompt(tmp_path):
    """Codex writes its instructions as a `developer` message: the Chat shape's system prompt, and a unit found in
    it is found there, not in a user's message (CX9)."""
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps({"task_id": "t", "entity_id": "e", "entity_name": None, "field": "phone",
                                 "value": "415-555-0142", "dimension": "contact"}) + "\n", encoding="utf-8")
    rollout = tmp_path / "rollout-2025-12-08T00-37-46-019a2d7e.jsonl"
    rollout.write_text("\n".join([
        _codex_line("37:46.317", "session_meta", {"id": "019a2d7e", "model_provider": "openai"}),
        _codex_line("37:46.318", "turn_context", {"model": "gpt-5-codex"}),
        _codex_line("37:46.319", "response_item", {"type": "message", "role": "developer", "content": [
            {"type": "input_text", "text": "The user is on 415-555-0142."}]}),
        _codex_line("37:46.320", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Say hello"}]}),
        _codex_line("37:47.100", "response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Hello."}]}),
        _codex_line("37:47.150", "event_msg", _token_count((1000, 0, 10), (1000, 0, 10))),
    ]) + "\n", encoding="utf-8")
    code, output = _cli("audit", rollout, "--units", units, "--show-values", "--json")
    assert code == 0, output
    assert [(f["evidence"], f["kind"]) for f in json.loads(output)["leaked"]] == [("415-555-0142", "system")]


# --- intercept/media.py: archive_text ----------------------------------------------------------------------------

def test_a_document_inside_a_zip_is_read_and_xml_declaring_entities_is_refused():
    """A `.docx` sent inside a zip (an archive of a case's files) is read as the `.docx` is (MZ5); a member whose
    XML declares entities is a bomb, not a document: the zip is unreadable (named unread), its expansion never
    read as text (MZ6)."""
    text = archive_text(_zip({"case/contract.docx": office_file("docx", RECORD)})).text
    assert all(f"{k}: {v}" in text for k, v in RECORD.items())
    bomb = ('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
            "<d>&b;&b;&b;&b;</d>")
    with pytest.raises(ValueError, match="entities"):
        archive_text(_zip({"word/document.xml": bomb}))


def test_an_opendocument_space_and_an_attribute_after_the_last_text_keep_values_whole():
    """OpenDocument writes a second space as `<text:s/>`: `José<text:s/>Núñez` shows `José Núñez` (MZ9); the
    attribute values read after a member's text start on their own line, not glued to its last value (an
    `app.xml`'s company, then its vector's size: `13922883366` is no `139228833662`) (MZ11)."""
    content = ('<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><text:p>Contact: '
               'José<text:s/>Núñez</text:p></office:body></office:document-content>')
    assert "Contact: José Núñez" in archive_text(_zip({"content.xml": content})).text
    app = ('<Properties><Company>13922883366</Company><HeadingPairs><vector size="2" baseType="variant"/>'
           '</HeadingPairs></Properties>')
    assert "13922883366" in archive_text(_zip({"docProps/app.xml": app})).text.splitlines()


# --- intercept/redact.py: the names of query parameters ---------------------------------------------------------

def test_a_number_read_across_two_query_parameters_names_is_in_no_name(proxy):
    """The names are scanned as one text, a name a line: a phone's digits spread over two parameters' names
    (`?1392288=1&3366=2`) are held by no one name, so no finding names either, and the request goes out as sent
    (RN2)."""
    mode, app, client, store = proxy
    seen = len(app.state.requests)
    answer = client.post("/e/names-across/v1/chat/completions?1392288=1&3366=2",
                         json={"model": "echo", "messages": [{"role": "user", "content": "Hi."}]})
    [record] = store.records("names-across")
    assert (answer.status_code, [f["path"] for f in record.findings], record.redactions) == (200, [], 0)
    assert app.state.requests[seen:][0]["query"] == "1392288=1&3366=2"


# --- console.py: why a cost is unknown --------------------------------------------------------------------------

@pytest.mark.parametrize(("without_usage", "without_price", "said"), [
    (3, 0, "unknown: no usage logged"),
    (1, 2, "unknown: no price for the model"),  # one call logged no usage, the others' model has no price
    (0, 0, "unknown: answer cut off"),
])
def test_a_cost_unknown_for_every_call_says_why(without_usage, without_price, said):
    """Every one of 3 calls unpriced: the reason, not a count of 3 of 3 (CU2), and no usage only where no call
    logged it (CU4)."""
    from ec2audit.console import unknown_cost

    assert unknown_cost(3, 3, without_usage, without_price) == said


@pytest.mark.parametrize(("row", "said"), [
    # a local model's calls cost nothing to price: a dash, not a reason (LR1)
    ({"side": "edge", "model": "qwen3:8b", "calls": 2, "unpriced_calls": 2, "input_tokens": 900,
      "output_tokens": 40}, "-"),
    # an older summary without `calls_without_usage`, no tokens logged: no usage logged (LR2)
    ({"side": "cloud", "model": "gpt-4o", "calls": 2, "unpriced_calls": 2, "input_tokens": 0, "output_tokens": 0},
     "unknown: no usage logged"),
])
def test_a_providers_row_says_why_its_cost_is_unknown_where_it_is(row, said):
    """The providers table's USD cell (read from the function that writes it, as session 20's test of it)."""
    from ec2audit.logs.report import _usd

    assert _usd({"cost_usd": None, **row}) == said


def test_report_counts_the_unpriced_calls_without_usage_apart_from_those_without_a_price(tmp_path):
    """Four sessions, one call each: gpt-4o priced, two claude-sonnet-4-20250514 calls with usage (no price in the
    pinned map), gpt-4o without usage. By hand: 3 of 4 unpriced, 1 of them for want of usage, as `audit` says it;
    not 2 (the calls without a price counted in its place: RS3)."""
    log = tmp_path / "requests.jsonl"
    claude = {"type": "message", "usage": {"input_tokens": 100, "output_tokens": 10}}
    log.write_text("\n".join([
        _logged_call(1, "s1", "gpt-4o", {"usage": {"prompt_tokens": 100, "completion_tokens": 10}},
                     "Call Dana Whitfield on +1 415-555-0199."),
        _logged_call(2, "s2", "claude-sonnet-4-20250514", claude, "Mail dana.whitfield@acme.io today."),
        _logged_call(3, "s3", "claude-sonnet-4-20250514", claude, "Mail dana.whitfield@acme.io now."),
        _logged_call(4, "s4", "gpt-4o", {"choices": []}, "Mail dana.whitfield@acme.io again.")]) + "\n",
        encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--out", out / "findings.parquet")
    assert code == 0, output
    code, output = _cli("report", out, "--json")
    assert code == 0, output
    (row,) = json.loads(output)["strategies"]
    assert row["cloud_usd_unknown"] == "unknown: 3 of 4 unpriced (1 with no usage logged)"


def test_the_sessions_table_counts_without_a_price_only_the_calls_that_logged_usage(tmp_path):
    """One session of two claude-sonnet-4-20250514 calls (no price in the pinned map), the second logging no usage.
    By hand, in the sessions table `audit --out` writes: 2 calls unpriced, 1 for want of usage, 1 for want of a
    price; not 2 without a price (the call without usage counted there too: LA2)."""
    import polars as pl

    from ec2audit.logs.audit import sessions_path

    log = tmp_path / "requests.jsonl"
    log.write_text("\n".join([
        _logged_call(1, "s1", "claude-sonnet-4-20250514",
                     {"type": "message", "usage": {"input_tokens": 100, "output_tokens": 10}},
                     "Mail dana.whitfield@acme.io today."),
        _logged_call(2, "s1", "claude-sonnet-4-20250514", {"type": "message"}, "Mail dana.whitfield@acme.io again."),
    ]) + "\n", encoding="utf-8")
    findings = tmp_path / "out" / "findings.parquet"
    findings.parent.mkdir()
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--out", findings)
    assert code == 0, output
    columns = ("cloud_calls", "cloud_unpriced_calls", "cloud_calls_without_usage", "cloud_calls_without_price")
    assert pl.read_parquet(sessions_path(findings)).select(columns).rows() == [(2, 2, 1, 1)]

# --- the forms: what each rewrites, and what it leaves ----------------------------------------------------------

@pytest.mark.parametrize(("form", "text", "read"), [
    # no top-level domain said: no address (FE2)
    (SpokenEmails, "ask r dot okafor at brightline hyphen logistics today",
     "ask r dot okafor at brightline hyphen logistics today"),
    # three dots said in the domain (FE3)
    (SpokenEmails, "mail jane underscore doe at mail dot example dot co dot uk now",
     "mail jane_doe@mail.example.co.uk now"),
    # five items are no spelling, however many are named (FS1)
    (SpelledOut, "code Tango Romeo zero uniform bravo ok", "code Tango Romeo zero uniform bravo ok"),
    # one named item among digits is a list, not a spelling (FS2)
    (SpelledOut, "pin 1, 2, 3, 4, 5, Foxtrot ok, Alpha", "pin 1, 2, 3, 4, 5, Foxtrot ok, Alpha"),
    # digit words are not named items: a number read out is the digit view's (FS5)
    (SpelledOut, "Alpha and Bravo teams: one, two, three, four, five, six.",
     "Alpha and Bravo teams: one, two, three, four, five, six."),
    # the article before a spelling is no letter of it (FS6)
    (SpelledOut, "the code is a Tango Romeo Oscar Uniform Bravo Four", "the code is a TROUB4"),
    # digits said before a cardinal are an amount (`four hundred dollars`), not a spelling (FS7)
    (SpelledOut, "Tango Bravo one two three four hundred dollars", "Tango Bravo one two three four hundred dollars"),
    # three digits with a dot are a decimal (π), not a value read out (FC1)
    (CjkDottedDigits, "圆周率是三点一四", "圆周率是三点一四"),
    # Chinese digits with ASCII dots: an IP address (FC3)
    (CjkDottedDigits, "地址一九二.一六八.三一.一零八", "地址192.168.31.108"),
    # `\uN` and its fallback byte: one character, the fallback not read again (FR3)
    (RtfEscapes, "Jos\\u233\\'e9 N\\u250\\'fa\\u241\\'f1ez", "José Núñez"),
    # an empty run properties element between two runs (FO1)
    (OfficeRuns, "<w:t>Jo</w:t></w:r><w:r><w:rPr/><w:t>hn</w:t>", "<w:t>John</w:t>"),
    # lakh groups followed by another comma-separated number: a CSV row, left as written (FL2)
    (LakhGrouping, "row 1,23,456,78 ok", "row 1,23,456,78 ok"),
])
def test_a_form_reads_what_it_names_and_leaves_its_look_alikes(form, text, read):
    assert _read(form, text) == read


# --- annotate: the imperative before a name, copyright holders, fictional phones ---------------------------------

@pytest.mark.parametrize(("family", "text", "values"), [
    # mid-sentence, a given name before a name is the name's, no imperative (PA3)
    ("person", "The form was signed by Mary Anne Lindqvist yesterday", ["Mary Anne Lindqvist", "Anne Lindqvist"]),
    # a project's authors are no person (PA5), nor a company named after its founder (PA6)
    ("person", "# Copyright 2017 Kubernetes Authors.", []),
    ("person", "Copyright (c) 2022 Kofi Boateng, Inc.", []),
    # a placeholder is no holder (the census recognizer's proposal alone) (PA7)
    ("person", "© 2021 Jane Doe", ["Jane Doe"]),
    # `(c)` without a year is a list's third item (PA10)
    ("person", "(c) Ask Dana Whitfield for the keys", ["Dana Whitfield"]),
    # a drama number written with +44 (CT2)
    ("contact", "+44 1632 960155", ["+44 1632 960155", "+44 1632 960155"]),
    # twelve digits starting like one are no drama number (CT3)
    ("contact", "ref 01632 9601555", []),
])
def test_a_recognizer_proposes_a_holder_and_a_drama_number_and_no_look_alike(family, text, values):
    assert _spans(family, text) == values
