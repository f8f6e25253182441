"""Hand mutants of session 26 (benchmarks/hand_mutants.py; RESULTS.md, "Hand mutants in the code changed in session
25"): planted one at a time in the code session 25 changed, each survivor a behaviour no test held. Each test here
kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files, HTTP) or,
where the CLI cannot reach it, by what the library function gives."""

from __future__ import annotations

import json

import httpx
import pytest
from intercept_helpers import running_proxy
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from test_detect_forms_s24 import _scan
from test_intercept_forms_walk_3 import NEAR, RECORD, UNIT_IDS, UNITS, _line
from test_intercept_forms_walk_13 import leaks
from test_intercept_forms_walk_14 import REQUESTS, TEXT, _session
from test_new_user_walk_15 import _prelabelled
from test_new_user_walk_16 import gzipped_batch_audited

from ec2audit.detect import learned_grader
from ec2audit.detect.finding import MOSTLY
from ec2audit.detect.value_checks import NumericCheck, Reading, folded
from ec2audit.intercept.server import serve_in_thread
from ec2audit.units import make_unit

__all__ = ["UNITS"]  # the units the `proxy` fixture guards (walk 3's record)

_LANE = "上海市浦东新区张杨路1288弄7号602室"


@pytest.mark.parametrize(("value", "text"), [
    ("multiple sclerosis, relapsing-remitting", "dx: MS, relapsing-remitting"),
    ("atopic dermatitis flare", "AD flare on both arms"),
    ("acute kidney injury, stage 2", "AK injury, stage 2"),
])
def test_two_words_as_their_initials_are_too_many_things_to_be_the_value(value, text):
    """Two initials ("MS", "AD") name many things: only a run of three to five words is read as an acronym (EA1)."""
    assert [h for h in _scan(value, "health", text, "diagnosis") if h[0] == "forms.acronym"] == []


def test_a_variant_of_a_value_naming_no_gene_is_the_value():
    """A value that names no gene symbol needs none beside its change: the change is the value (1.0), not most of
    it as where the value's gene goes unnamed (EV5)."""
    assert _scan("heterozygous c.5946delT", "health", "lab: c.5946del confirmed by Sanger", "genetic_finding") == [
        ("forms.variant", 1.0, "c.5946del")]


def test_an_address_form_filled_line_by_line_is_read_from_its_flat():
    """The flat's number is where the parts are looked for from (the rarest part): a form whose lane line comes
    first and whose building number comes over 160 characters after it, within them of the flat, is the value
    (EAT2: looked for from the lane, the building number fell outside)."""
    text = ("Address line 1: Lane 1288 Zhangyang Road\nDistrict: Pudong New Area\nCity: Shanghai\nPostcode: 200120\n"
            "Address line 2: Room 602\nDelivery notes: leave it with the concierge at the north gate, call ahead\n"
            "Building: No. 7\n")
    assert [(h[0], h[1]) for h in _scan(_LANE, "location", text, "home_address")] == [
        ("forms.address_translation", 1.0)]


def test_a_resumable_upload_in_three_chunks_is_audited_and_forwarded_whole(proxy):
    """A file over 16 MiB goes in three chunks or more: each chunk before the last is held after the ones before it
    (EP13: held alone, the third chunk's offset named bytes the proxy no longer held, and the upload was refused).
    By hand: the phone cut across the second and third chunks is found; redact forwards the file once, at offset
    0, with no value; block forwards none of it."""
    mode, app, client, store = proxy
    content = TEXT.encode()
    second, third = content.index(RECORD["phone"].encode()) - 7, content.index(RECORD["phone"].encode()) + 5
    session = _session(client, "three-chunks-start", {"file": {"display_name": "crm-export.txt"}})
    path = session[len(f"{client.base_url}".rstrip("/") + "/e/three-chunks-start"):]
    seen = len(app.state.requests)
    answers = [client.post(f"/e/three-chunks{path}", content=content[start:end], headers={
        "x-goog-upload-command": command, "x-goog-upload-offset": str(start)})
        for start, end, command in ((0, second, "upload"), (second, third, "upload"),
                                    (third, len(content), "upload, finalize"))]
    assert [a.headers.get("x-goog-upload-status") for a in answers[:2]] == ["active", "active"]
    assert answers[2].status_code == (403 if mode == "block" else 200), answers[2].text
    sent, [record] = app.state.requests[seen:], store.records("three-chunks")
    assert {f["unit_id"] for f in record.findings} == UNIT_IDS
    if mode == "block":
        assert sent == []
        return
    [whole] = sent
    assert leaks(whole) == [] and "[PHONE_" in whole["body"]["file"]
    assert whole["headers"]["x-goog-upload-offset"] == "0"


@pytest.mark.parametrize(("value", "text", "found"), [
    ("2014-03-08", "出生日期：民國一百零三年三月八日", "民國一百零三年三月八日"),  # 103: a hundred, no tens, units
    ("2021-03-08", "出生日期：民國一百一十年三月八日", "民國一百一十年三月八日"),
    ("1987-12-01", "née le 1er décembre 1987 à Lagos", "1er décembre 1987"),
    ("1987-12-24", "née le 1er décembre 1987 à Lagos", None),  # the 1st is another day than the 24th
])
def test_a_roc_year_past_a_hundred_and_a_french_first_of_the_month_read_as_written(value, text, found):
    """The Republic of China's year 103 (2014) is 一百零三, a zero between its hundred and its units (EDT6); French
    writes the first of a month `1er`, and only the first (EDT3: every date's day read as 1er)."""
    assert _scan(value, "other", text, "date_of_birth") == ([] if found is None else [("forms.date", 1.0, found)])


_TARGET = make_unit({"task_id": "t", "entity_id": "x", "entity_name": "Project Lantern", "field": "target",
                     "value": "Brightwell Dental Labs", "dimension": "business"})


def test_a_health_result_negative_a_few_words_on_finds_nothing():
    """"testing for BRCA1/2 was negative": the panel's word and `negative` up to 20 characters apart (EG1)."""
    gene = make_unit({"task_id": "t", "entity_id": "d", "entity_name": "Biobank donor BB-00931", "field": "finding",
                      "value": "BRCA2 pathogenic variant c.5946delT", "dimension": "health"})
    assert learned_grader.withheld(gene, "Donor BB-00931: germline testing for BRCA1/2 was negative.") == \
        "nothing found"


@pytest.mark.parametrize(("unit", "text", "why"), [
    (_TARGET, "Write a one-page template for our 2025 acquisition memos: overview, rationale, risks.", "no evidence"),
    (_TARGET, "Project Lantern: the board meets Thursday to sign.", ""),  # the entity named
    (make_unit({"task_id": "t", "entity_id": "h", "entity_name": "Dario Fenn", "field": "hr_status",
                "value": "placed on a performance improvement plan", "dimension": "other"}),
     "HR wants the PIP paperwork template tidied before Monday.", ""),  # the value's initials
])
def test_a_number_of_a_value_without_one_is_no_evidence_and_an_entity_or_initials_are(unit, text, why):
    """A number counts as the value's own evidence only for a value holding one (EG6: a year in a template's
    request was); the entity named (EG13) or the value's initials (EG7, "PIP") are its evidence."""
    assert learned_grader.withheld(unit, text) == why


def test_a_list_that_never_names_the_entity_is_no_other_persons_row():
    """A list of others' findings that names no row of the entity is no "another instance" (EG9): it may be the
    value itself, read with the rest of the evidence."""
    sprain = make_unit({"task_id": "t", "entity_id": "P-7", "entity_name": "Halina Wrobel", "field": "diagnosis",
                        "value": "grade II sprain of the left anterior talofibular ligament", "dimension": "health"})
    roster = ("Clinic list, Tuesday:\n09:30  M. Novak — grade II sprain, left ATFL\n10:00  T. Okafor — post-op "
              "week 4\n10:30  J. Berg — review")
    assert learned_grader.withheld(sprain, roster) == ""


def test_every_route_of_ollama_and_cohere_is_recorded_as_its_dialect(proxy):
    """Ollama's `/api/embed` and Cohere's `/v2/rerank` are their APIs' own routes, recorded as such, not as a route
    no dialect names (`generic`) (ED2, ED3)."""
    mode, app, client, store = proxy
    for request in ("ollama.embed.input", "cohere.rerank.documents", "cohere.chat.user"):
        path, body = REQUESTS[request]
        client.post(f"/e/every-route{path}", json=body)
    assert sorted((r.path, r.api) for r in store.records("every-route")) == [
        ("/api/embed", "ollama"), ("/v2/chat", "cohere"), ("/v2/rerank", "cohere")]


def _salary(value: str) -> object:
    return make_unit({"task_id": "t", "entity_id": "E1", "entity_name": "Priya Raman", "field": "salary",
                      "value": value, "dimension": "financial"})


@pytest.mark.parametrize(("value", "text", "grade"), [
    ("$142,500 a year", "Priya was at $11,875 a month base.", MOSTLY),  # "a year" is yearly
    ("$142,500 per year", "Priya was at $11,875 a year as an intern, paid monthly.", 0.0),  # the value's period
])
def test_an_amount_a_year_is_yearly_and_a_text_stating_the_values_period_is_not_converted(value, text, grade):
    """checks-v16: "a year" states a yearly value as "per year" does (EC1); a text that states the value's own
    period ("a year ... paid monthly") gives its amount per that period, not per month (EC2)."""
    assert NumericCheck().decide(_salary(value), folded(text), Reading(0.9, 0, len(text), 0.83, 0.2)).grade == grade


_RATE = make_unit({"task_id": "t", "entity_id": "L-1", "entity_name": "Blue Ridge Freight", "field": "rate",
                   "value": "$4,715 flat", "dimension": "business"})


@pytest.mark.parametrize(("unit", "text", "why"), [
    (make_unit({"task_id": "t", "entity_id": "F", "entity_name": "Acme Tools", "field": "invoice",
                "value": "invoice #4471", "dimension": "business"}),
     "Acme Tools: invoice #5120 was paid on Friday.", ""),  # a site number binds a health finding only (EC5)
    (make_unit({"task_id": "t", "entity_id": "d", "entity_name": "Biobank donor BB-00931", "field": "finding",
                "value": "BRCA2 pathogenic variant c.5946delT", "dimension": "health"}),
     "The donor carries a pathogenic BRCA2 frameshift.", ""),  # no numbered entity at all (EC6)
    (_RATE, "Blue Ridge Freight confirmed $1,745 flat for Tuesday.", ""),  # two digits apart swapped (EC8)
    (_RATE, "Blue Ridge Freight: about $4,710 flat.", ""),  # a rounding (EC9)
    (make_unit({"task_id": "t", "entity_id": "L-2", "entity_name": "Blue Ridge Freight", "field": "deposit",
                "value": "$850 deposit", "dimension": "business"}),
     "Blue Ridge Freight asked for a $580 deposit.", "another number"),  # three digits are enough (EC10)
    (_RATE, "Blue Ridge Freight is $40 more than the $4,175 we paid last week.", ""),  # stated relative (EC12)
    (make_unit({"task_id": "t", "entity_id": "R-9", "entity_name": "周海燕", "field": "bank_card",
                "value": "6217000010045583921", "dimension": "financial"}),
     "周海燕的新卡：6217 0000 1004 5583 921；旧卡6217000010045583912已注销。", ""),  # the value in groups (EC11)
])
def test_another_instance_or_number_only_where_its_rules_say(unit, text, why):
    """checks-v17's `another_instance` and `another_number` as their docstrings bound them: a site for health
    values, an entity's number only where the text gives one of its shape, neighbouring digits swapped or one digit
    changed and not rounded, the value's numbers of three digits or more, and none where the text states the
    value (in groups) or a number relative to another."""
    assert learned_grader.withheld(unit, text) == why


_LAB = make_unit({"task_id": "t", "entity_id": "P-3", "entity_name": "Dana Whitfield", "field": "ferritin",
                  "value": "14 ng/mL", "dimension": "health", "description": "serum ferritin before the infusion"})


@pytest.mark.parametrize(("unit", "text", "why"), [
    (make_unit({"task_id": "t", "entity_id": "E-2", "entity_name": "梁淑芬", "field": "diagnosis",
                "value": "左眼青光眼", "dimension": "health", "description": "眼科门诊诊断"}),
     "病人 [PERSON_1]，诊断：[DIAGNOSIS_1]（上次门诊写的是左眼青光眼），请写一份病假证明。", ""),  # written too (EC13)
    (_LAB, "Patient [NAME_1], ferritin: [LAB_VALUE_1] ng/mL (14 at the last draw).", ""),  # its number too (EC14)
    (make_unit({"task_id": "t", "entity_id": "E-2", "entity_name": "梁淑芬", "field": "dx",
                "value": "左眼青光眼", "dimension": "health", "description": "眼科门诊诊断"}),
     "病人 {{姓名}}，诊断：{{诊断}}，请写一份病假证明。", "placeholder"),  # a Chinese slot name (EC15)
])
def test_a_placeholder_is_the_values_slot_only_where_the_value_is_written_nowhere_else(unit, text, why):
    """checks-v17's `placeholder_slot`: the value written out (EC13) or its number given (EC14) beside the slot is
    stated; a slot named in Chinese after the description's characters is the value's (EC15)."""
    assert learned_grader.withheld(unit, text) == why


@pytest.mark.parametrize(("value", "dimension", "text", "found"), [
    ("KX44719982B", "other", "ref KX-44719982-B on file", "KX-44719982-B"),  # a long one cut twice
    ("A219448703", "other", "USCIS file A-219448703 (approval notice)", "A-219448703"),  # and once
    ("粤B7K29Q", "other", "车牌 粤 B7K29Q", "粤 B7K29Q"),  # Han and a Latin letter meet
])
def test_an_identifier_is_cut_where_digits_latin_letters_and_han_meet(value, dimension, text, found):
    """A long identifier is also cut where its scripts meet when they meet at most twice (ES1: once; ES3: never,
    its prefix then dropped); Han and Latin letters are two scripts (ES7: one)."""
    assert _scan(value, dimension, text, "reference") == [("forms.separators", 1.0, found)]


@pytest.mark.parametrize(("text", "found"), [
    ("card starting 4532 and ending 2216", ["4532", "2216"]),  # half of it shown: most of it (ECF1: 0.6 of it)
    ("the card starts 4532 77, ends 2216", ["4532 77", "2216"]),  # "starts" alone (ECF2)
])
def test_a_cards_start_and_end_showing_forty_percent_of_it_are_most_of_it(text, found):
    """As a mask showing both ends (`masked`): a start and an end showing 40 % of the number are most of it."""
    assert _scan("4532 7781 0094 2216", "financial", text, "debit_card_number") == [
        ("partial.masked", MOSTLY, piece) for piece in found]


async def _ollama_echo(request: Request) -> Response:
    """An Ollama server that streams the request's text back in every channel an NDJSON line has: a chat's
    `message.thinking` (cut in two), `message.content` and two tool calls (the first's arguments the text), a blank
    line, a trailing ` see [` and the `done` line; a generate's `response` and `thinking` at the line's top level."""
    body = await request.json()
    if request.url.path == "/api/generate":
        text = body["prompt"]
        lines = [{"response": text, "thinking": text, "done": False}, {"response": "", "done": True, "eval_count": 5}]
    else:
        text = body["messages"][-1]["content"]
        half = len(text) // 2

        def said(**message) -> dict:
            return {"message": {"role": "assistant", **message}, "done": False}

        lines = [said(thinking=text[:half]), said(thinking=text[half:]), said(content=text, tool_calls=[
            {"function": {"name": "crm_lookup", "arguments": {"row": text}}}]), said(content=" see [", tool_calls=[
                {"function": {"name": "crm_note", "arguments": {}}}]),
            {"message": {"role": "assistant", "content": ""}, "done": True, "prompt_eval_count": 10, "eval_count": 5}]
    raw = "".join(json.dumps(line, ensure_ascii=False) + "\n" + ("\n" if k == 1 else "")  # a blank line after the 2nd
                  for k, line in enumerate(lines))
    return Response(raw.encode(), media_type="application/x-ndjson")


def test_every_channel_of_an_ollama_stream_is_restored_and_assembled(tmp_path):
    """Ollama's NDJSON answer to a redacted request, streamed back in each of its channels: the client gets the
    values back in a chat's thinking (ER2) and tool calls (ER3), the held ` [` at the `done` line (ER4), a generate's
    `thinking` (ER1); the record keeps the answer assembled as the cloud sent it: its thinking (ESS3), both tool
    calls (ESS4), the `done` line's counts with the stream not ended before it (ESS5), and no error for the blank
    line (ESS2). A stream with nothing to restore is relayed line by line as it came (ESS1)."""
    upstream, stop = serve_in_thread(Starlette(routes=[Route("/api/{rest:path}", _ollama_echo, methods=["POST"])]))
    try:
        with running_proxy(upstream + "/v1", tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, store), \
                httpx.Client(base_url=url, timeout=30) as client:
            chat = client.post("/e/ollama-chat/api/chat", json={"model": "qwen3", "messages": [
                {"role": "user", "content": TEXT}]})
            generate = client.post("/e/ollama-generate/api/generate", json={"model": "qwen3", "prompt": TEXT})
            near = client.post("/e/ollama-near/api/generate", json={"model": "qwen3", "prompt": _line(NEAR)})
            [record] = store.records("ollama-chat")
    finally:
        stop()
    lines = [json.loads(line) for line in chat.text.splitlines() if line.strip()]
    messages = [line.get("message", {}) for line in lines]
    assert "".join(m.get("thinking", "") for m in messages) == TEXT
    assert "".join(m.get("content", "") for m in messages) == TEXT + " see ["
    assert [c["function"]["arguments"] for m in messages for c in m.get("tool_calls", [])] == [{"row": TEXT}, {}]
    [first, last] = [json.loads(line) for line in generate.text.splitlines() if line.strip()]
    assert (first["response"], first["thinking"]) == (TEXT, TEXT)
    # nothing redacted: the lines are relayed as they came, each ended by its newline (ESS1)
    assert [json.loads(line)["response"] for line in near.text.splitlines() if line.strip()] == [_line(NEAR), ""]
    whole = record.response["message"]
    assert record.error is None and (record.input_tokens, record.output_tokens) == (10, 5)
    assert leaks({"body": whole["thinking"], "header_list": [], "query": ""}) == [] and len(whole["thinking"]) > 20
    assert [c["function"]["name"] for c in whole["tool_calls"]] == ["crm_lookup", "crm_note"]


def test_a_resumable_upload_the_guard_cannot_read_is_refused_naming_its_media_type(proxy):
    """A file sent as the body itself that the guard cannot read is refused, named by the media type its upload
    gave (EF5: always `application/octet-stream`)."""
    mode, app, client, store = proxy
    session = _session(client, "unread-file-start", {"file": {"display_name": "dump.bin"}})
    seen = len(app.state.requests)
    answer = client.post(session, content=b"\x00\x01\x02\xfe" + _line(RECORD).encode("utf-32-le"), headers={
        "x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": "0",
        "content-type": "application/x-parquet"})
    assert answer.status_code == 403 and app.state.requests[seen:] == []
    assert "file (application/x-parquet" in answer.json()["error"]["message"], answer.text


def test_a_batch_gzipped_under_an_upper_case_suffix_is_paired_and_read(tmp_path):
    """`batchinput.jsonl.GZ` and `batch_abc123_output.jsonl.GZ` (`gzip -S .GZ`, as the log readers' own
    `uncompressed_name` takes it): `.gz` is read in any case, so the output answers its input (EB1: the `.GZ` files
    were opened as text). By hand: 2 calls, 1,000,022 in, 200,002 out, as walk 16's lower-case pair."""
    gzipped_batch_audited(tmp_path, ".GZ")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_json_strings_and_code_points_a_line_read_with_windows_line_ends(newline):
    """A record printed one JSON string a line (`jq -a`) and a name's code points alone on a line, as a Windows
    console writes them (CRLF): each line's string is no continuation of the one before (ECC2: the name ran into its
    neighbours across `\r\n`), and the code points are a whole line before its `\r` (ECP2)."""
    record = {"name": "欧阳娜娜", "contact": "José Núñez", "api_key": "sk-proj-7fK2mQ9xL4vB8nR3tY6w"}
    lines = "".join(json.dumps(k) + newline + json.dumps(v) + newline for k, v in record.items())
    assert _scan("José Núñez", "person_name", lines, "contact") == [("exact", 1.0, "Jos\\u00e9 N\\u00fa\\u00f1ez")]
    points = ",".join(str(ord(c)) for c in "José Núñez")
    assert _scan("José Núñez", "person_name", f"row 1{newline}{points}{newline}row 3{newline}", "contact") == [
        ("exact", 1.0, points)]


def test_an_address_at_a_domain_that_only_ends_like_a_template_domain_is_someones(tmp_path):
    """`support@counterexample.com` is no `example.com` address (ECT1: a reserved domain read at any letter, not at
    a label's start) and `lena.hartmann@acme-company.com` no template's `company.com` (ECT2: the blank domain searched
    inside the domain, not matched as all of it); `info@example.com` beside them is a template's. By hand: the two
    proposed as contacts in `prelabel`."""
    env = ("SUPPORT_EMAIL=support@counterexample.com\nOWNER_EMAIL=lena.hartmann@acme-company.com\n"
           "TEMPLATE_EMAIL=info@example.com\n")
    found = _prelabelled(tmp_path, {".env": env})
    assert sorted(u["value"] for u in found if u["dimension"] == "contact") == [
        "lena.hartmann@acme-company.com", "support@counterexample.com"]


def test_deletions_beside_a_changes_other_counts_are_none_and_a_bands_are_a_condition(tmp_path):
    """A pull request's summary that names its `additions and deletions` counts a change (EH3: read as a condition
    without a number beside it); a microarray's `22q11.2 deletions` count no lines: the number before belongs to a
    band (EH1: `2 deletions` read out of `22q11.2`). By hand: one unit, the report's `deletions`, in `prelabel`."""
    found = _prelabelled(tmp_path, {
        "a_summary.txt": "Patient intake PR #42: additions and deletions to the medication and diagnosis form.",
        "b_report.txt": "Genetics clinic, patient record: microarray shows 22q11.2 deletions; cardiology referral."})
    assert [(u["value"], u["source"]["file"]) for u in found if u["dimension"] == "health"] == [
        ("deletions", "b_report.txt")]
