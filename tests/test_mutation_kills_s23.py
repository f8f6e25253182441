"""Hand mutants of session 23 (benchmarks/hand_mutants.py; RESULTS.md, "Hand mutants in the code changed in session
22"): planted one at a time in the code session 22 changed, each survivor a behaviour no test held. Each test here
kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files, HTTP) or,
where the CLI cannot reach it, by what the library function gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_detect_forms_walk_5 import _read
from test_intercept_forms_walk_2 import _send as exchange
from test_intercept_forms_walk_7 import pdf
from test_intercept_forms_walk_11 import GUARDED_UNITS
from test_logs_more_formats import DATA
from test_logs_more_formats import _audit as _audit_fixture
from test_new_user_walk_5 import _prelabel
from test_new_user_walk_7 import _cli
from test_new_user_walk_11 import _bedrock_log, _units

__all__ = ["GUARDED_UNITS"]  # the units the `proxy` fixture guards in this module (walk 11's)


def _audit_json(log: Path, tmp_path: Path) -> dict:
    code, output = _cli("audit", log, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    return json.loads(output[output.index("{\n"):])


def test_a_bedrock_call_that_asked_for_flex_is_priced_at_flex_when_its_answer_names_no_tier(tmp_path):
    """BH3: a log whose response does not repeat the request's `serviceTier: {"type": "flex"}` (a gateway that keeps
    the answer's body but not its tier) is billed at the tier asked: 10,000 × $0.075 + 2,000 × $0.30 per million =
    $0.00135, not the standard $0.0027."""
    log = tmp_path / "bedrock.jsonl"
    _bedrock_log(log, "openai.gpt-oss-120b-1:0", "flex")
    record = json.loads(log.read_text(encoding="utf-8"))
    del record["response"]["serviceTier"]
    log.write_text(json.dumps(record) + "\n", encoding="utf-8")
    provider, = _audit_json(log, tmp_path)["providers"]
    assert provider["cost_usd"] == 0.00135


def test_report_names_the_tier_of_an_unpriced_call_whatever_default_tier_call_went_before(tmp_path):
    """TA1: in one session, a call of a model no table prices at the default tier, then Claude 3.5 Sonnet served at
    `priority` (unpriced there): the session keeps `priority` as its unpriced tier, and `report` says `no price for
    the model at the priority tier`, not a tier-less `no price for the model` as if the first call's default tier
    were the one to name."""
    logs = tmp_path / "logs"
    logs.mkdir()
    _bedrock_log(logs / "a.jsonl", "acme.unpriced-model-v1:0", "default")
    _bedrock_log(logs / "b.jsonl", "anthropic.claude-3-5-sonnet-20240620-v1:0", "priority")
    out = tmp_path / "audit" / "findings.jsonl"
    code, output = _cli("audit", logs, "--units", _units(tmp_path / "units.jsonl"), "--out", out)
    assert code == 0, output
    code, output = _cli("report", out, "--out", tmp_path / "report.html")
    assert code == 0, output
    assert "unknown: no price for the model at the priority tier" in " ".join(output.split())


def test_report_reads_a_sessions_table_written_before_the_unpriced_tier_was_kept(tmp_path):
    """TS2: an audit's sessions table from before session 22 has no `cloud_unpriced_tier`: `report` reads it as
    unknown and says why the cost is unknown without a tier, not that the table is malformed."""
    log = tmp_path / "bedrock.jsonl"
    _bedrock_log(log, "anthropic.claude-3-5-sonnet-20240620-v1:0", "priority")
    out = tmp_path / "audit" / "findings.jsonl"
    code, output = _cli("audit", log, "--units", _units(tmp_path / "units.jsonl"), "--out", out)
    assert code == 0, output
    sessions = out.with_name("findings.sessions.jsonl")
    rows = [json.loads(line) for line in sessions.read_text(encoding="utf-8").splitlines()]
    assert all(row.pop("cloud_unpriced_tier") == "priority" for row in rows)
    sessions.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    code, output = _cli("report", out, "--out", tmp_path / "report.html")
    assert code == 0, output
    assert "unknown: no price for the model" in " ".join(output.split())


def _openrouter(session: str, usage: dict) -> str:
    """One OpenRouter call of GLM-4.6 (which LiteLLM's map does not price), 1,000 in and 100 out, with `usage`'s
    accounting fields."""
    return json.dumps({
        "url": "https://openrouter.ai/api/v1/chat/completions", "session_id": session,
        "request": {"model": "z-ai/glm-4.6",
                    "messages": [{"role": "user", "content": "Email maria.kessler@example.com"}]},
        "response": {"id": f"gen-{session}", "model": "z-ai/glm-4.6", "object": "chat.completion",
                     "choices": [{"index": 0, "message": {"role": "assistant", "content": "Done."}}],
                     "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100, **usage}}}) + "\n"


def test_openrouters_cost_is_the_fee_plus_the_providers_bill_only_on_the_users_own_key(tmp_path):
    """OB1, OB3: on the user's own provider key (`is_byok`), `usage.cost` is OpenRouter's fee and the provider's bill
    is `cost_details.upstream_inference_cost`: without it the call's cost is unknown, not the fee alone ($0.000031).
    Off it, `usage.cost` is the whole charge, whatever upstream cost the details name beside it: $0.00062, not
    $0.00062 + $0.0006."""
    log = tmp_path / "openrouter.jsonl"
    log.write_text(_openrouter("byok", {"cost": 0.000031, "is_byok": True}), encoding="utf-8")
    provider, = _audit_json(log, tmp_path)["providers"]
    assert (provider["model"], provider["calls"], provider["cost_usd"]) == ("z-ai/glm-4.6", 1, None)
    log.write_text(_openrouter("paid", {"cost": 0.00062, "is_byok": False,
                                        "cost_details": {"upstream_inference_cost": 0.0006}}), encoding="utf-8")
    provider, = _audit_json(log, tmp_path)["providers"]
    assert provider["cost_usd"] == 0.00062


def test_gzip_logs_in_another_encoding_and_gzips_of_no_text_are_each_said(tmp_path):
    """GZ3, GZ5, GE1, GE2, GE4, GE6: a rotated log in UTF-16 (a Windows tool's) is read decompressed and converted,
    and said so, as today's log in UTF-16 is converted; a gzip of blank lines is an empty file, a gzip of binary
    data and a cut-off gzip are named as such."""
    import gzip

    logs = tmp_path / "logs"
    logs.mkdir()
    record = json.dumps({"url": "https://api.openai.com/v1/chat/completions", "session_id": "wide", "request": {
        "model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Email maria.kessler@example.com"}]},
        "response": {"model": "gpt-4o-mini", "choices": [{"message": {"role": "assistant", "content": "Done."}}],
                     "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}}}) + "\n"
    (logs / "requests.jsonl.2.gz").write_bytes(gzip.compress(record.encode("utf-16")))
    (logs / "today.jsonl").write_bytes(record.replace('"wide"', '"plain"').encode("utf-16"))
    (logs / "blank.jsonl.gz").write_bytes(gzip.compress(b"\n\n  \n"))
    (logs / "image.png.gz").write_bytes(gzip.compress(bytes(range(256)) * 8))
    (logs / "cut.jsonl.gz").write_bytes(gzip.compress(record.encode())[:40])
    code, output = _cli("audit", logs, "--units", _units(tmp_path / "units.jsonl"))
    said = " ".join(output.split())
    assert code == 1, output
    assert f"read {logs / 'requests.jsonl.2.gz'} decompressed (gzip), utf-16 text (converted to UTF-8)" in said
    assert f"read {logs / 'today.jsonl'} as utf-16 text (converted to UTF-8)" in said
    assert f"skipped {logs / 'blank.jsonl.gz'}: empty file once decompressed (gzip)" in said
    assert f"skipped {logs / 'image.png.gz'}: gzip of binary data" in said
    assert f"skipped {logs / 'cut.jsonl.gz'}: gzip file that cannot be decompressed" in said
    code, output = _cli("audit", logs, "--units", tmp_path / "units.jsonl", "--json")
    data = json.loads(output[output.index("{\n"):])
    assert sorted((s["session"], s["leaked"]) for s in data["sessions"]) == [("plain", 1), ("wide", 1)]


def test_a_gzip_log_is_sniffed_and_read_by_its_name_without_gz(tmp_path):
    """GZ2, GE3, GE5: what only a log's name tells, its decompressed copy is told too: a LiteLLM spend-log CSV
    gzipped (`spend_logs.csv.gz`) is read as the CSV it is, the same calls as the plain file; a request log whose
    first record is longer than the head sniffed (a 300 KB tool result) is a request log by its `.jsonl`."""
    import gzip

    spend = tmp_path / "spend_logs.csv.gz"
    spend.write_bytes(gzip.compress((DATA / "litellm" / "spend_logs.csv").read_bytes()))
    plain, gzipped = _audit_fixture(DATA / "litellm" / "spend_logs.csv"), _audit_fixture(spend)
    assert plain["calls"] > 0 and [(p["model"], p["calls"]) for p in gzipped["providers"]] == [
        (p["model"], p["calls"]) for p in plain["providers"]]
    long = json.dumps({"url": "https://api.openai.com/v1/chat/completions", "session_id": "long", "request": {
        "model": "gpt-4o-mini", "messages": [{"role": "tool", "tool_call_id": "c1", "content": "x" * 300_000},
                                             {"role": "user", "content": "Email maria.kessler@example.com"}]}})
    log = tmp_path / "requests.jsonl.gz"
    log.write_bytes(gzip.compress((long + "\n").encode()))
    assert [s["session"] for s in _audit_json(log, tmp_path)["sessions"]] == ["long"]


def test_a_mails_csv_attachment_is_read_and_its_mime_layout_is_no_value(tmp_path):
    """WS9, WS10: a mail as a mail client saves one with an attachment, both parts base64: the attached CSV's IBAN
    is proposed (every text part is read, not only the body), and the multipart boundary, whose digits pass Luhn,
    is no card (the MIME headers are not the mail's text). By hand: the sender's name and mailbox, the recipient's
    mailbox and the IBAN: 4 units."""
    from email.message import EmailMessage

    mail = EmailMessage()
    mail["From"] = "Maria Kessler <maria.kessler@example.com>"
    mail["To"] = "payroll@example.com"
    mail["Subject"] = "Bank details"
    mail.set_content("Hi,\n\nthe new bank details are attached.\n\nMaria\n", cte="base64")
    mail.add_attachment("name,iban\nChidi Okafor,GB15 NWBK 6016 1331 9268 77\n", subtype="csv", filename="bank.csv",
                        cte="base64")
    mail.set_boundary("===============4532015112830366==")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "bank.eml").write_bytes(bytes(mail))
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--units", units, "--out", tmp_path / "ls.json")
    assert code == 0, output
    found = [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]
    assert sorted((u["dimension"], u["value"]) for u in found) == [
        ("contact", "maria.kessler@example.com"), ("contact", "payroll@example.com"),
        ("financial", "GB15 NWBK 6016 1331 9268 77"), ("person_name", "Maria Kessler")]


def test_a_pdf_in_another_encoding_than_utf8_is_read_as_its_reader_shows_it(tmp_path):
    """WS11: a PDF whose content stream is not deflated and holds a WinAnsi é (`Renée`: no UTF-8) is a PDF by its
    signature, read as the text a PDF reader shows, not as cp1252 text of its syntax: the name is the claimant's,
    its span at the reader's text's offset 10 (`Claimant: `), not at 411 in the file's bytes."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "claim.pdf").write_bytes(pdf(["Claimant: Renée Dubois", "IBAN DE47 3704 0044 0532 0130 77"], compress=False))
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--units", units, "--out", tmp_path / "ls.json")
    assert code == 0, output
    found = [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]
    assert [(u["field"], u["value"], u["source"]["start"]) for u in found] == [
        ("Claimant", "Renée Dubois", 10), ("iban_code", "DE47 3704 0044 0532 0130 77", 28)]


def test_a_quoted_printable_mail_and_a_yaml_lists_people_are_read_as_written(tmp_path):
    """WS14, WS15: a mail whose only encoding is quoted-printable (its soft line break cuts the IBAN: `370=` /
    `4 0044`) is read decoded, the IBAN whole; a YAML list of people makes each item its own entity
    (`people.yaml#1`, `#2`), each name its item's."""
    from email.message import EmailMessage

    mail = EmailMessage()
    mail["From"] = "maria.kessler@example.com"
    mail["To"] = "payroll@example.com"
    mail["Subject"] = "Bank details"
    mail.set_content("Hi, please pay the balance of the October invoice to my account IBAN DE47 3704 0044 0532 0130 "
                     "77 by Friday.\n", cte="quoted-printable")
    assert b"DE47 370=\n4 0044" in bytes(mail)
    files = {"pay.eml": bytes(mail).decode(),
             "people.yaml": "- name: Chidi Okafor\n  phone: +44 7700 900123\n- name: Renee Dubois\n"
                            "  email: renee.dubois@example.fr\n"}
    units = _prelabel(tmp_path, files)
    assert sorted((u["entity_id"], u["field"], u["value"]) for u in units) == [
        ("pay.eml", "From", "maria.kessler@example.com"), ("pay.eml", "To", "payroll@example.com"),
        ("pay.eml", "iban_code", "DE47 3704 0044 0532 0130 77"),
        ("people.yaml#1", "name", "Chidi Okafor"), ("people.yaml#1", "phone", "+44 7700 900123"),
        ("people.yaml#2", "email", "renee.dubois@example.fr"), ("people.yaml#2", "name", "Renee Dubois")]


def test_a_vcard_4_birthday_with_its_value_parameter_is_a_birth_date(tmp_path):
    """WB1: vCard 4.0 writes a birthday's type as a parameter (`BDAY;VALUE=date:1984-03-12`): the date is the
    card's birth date as `BDAY:` alone is."""
    card = "\r\n".join(["BEGIN:VCARD", "VERSION:4.0", "FN:Chidi Okafor", "BDAY;VALUE=date:1984-03-12", "END:VCARD",
                        ""])
    assert sorted((u["entity_id"], u["field"], u["value"]) for u in _prelabel(tmp_path, {"c.vcf": card})) == [
        ("c.vcf#1", "BDAY", "1984-03-12"), ("c.vcf#1", "FN", "Chidi Okafor")]


def test_a_body_that_is_no_json_object_names_no_tier():
    """TU3: the proxy records whatever JSON a client sent (an array, a string); such a body names no service tier
    and the next body's tier stands."""
    from ec2audit.intercept.usage import DEFAULT_TIER, service_tier

    assert service_tier(["flex"], {"serviceTier": {"type": "flex"}}) == "flex"
    assert service_tier("priority", None) == DEFAULT_TIER


@pytest.mark.parametrize(("path", "body"), [
    ("/v1/embeddings", {"input": ["call 1392288", "3366 today"]}),
    ("/v1/completions", {"prompt": ["call 1392288", "3366 today"]}),
    ("/v1/chat/completions", {"messages": [{"role": "user", "content": "x"}], "stop": ["1392288", "3366"]}),
    ("/v1/messages", {"max_tokens": 5, "messages": [{"role": "user", "content": "x"}],
                      "stop_sequences": ["1392288", "3366"]}),
    ("/v1/chat/completions", {"messages": [{"role": "user", "content": "x"}],
                              "generationConfig": {"stopSequences": ["1392288", "3366"]}})],
    ids=["embeddings", "prompts", "stop", "stop_sequences", "stopSequences"])
def test_a_list_of_texts_each_sent_apart_is_never_read_run_together(proxy, path, body):
    """JC2, JC3, JC11: a batch of embeddings inputs or of legacy prompts, and stop sequences, are texts apart (each its
    own text to the model): the phone `1392288` + `3366` makes only run together is in none of them, and the request
    goes out as sent (an array of a text's chunks is read run together: walk 11)."""
    answer, sent, record = exchange(proxy, "apart-" + "-".join(body)[:40], body, path)
    assert (answer.status_code, record.findings, record.redactions) == (200, [], 0)
    assert {k: sent[0]["body"][k] for k in body} == body


def _one_byte_a_line(value: str) -> str:
    """`xxd -i -c 1`: a C array of the value's bytes, one a line."""
    return "unsigned char v[] = {\n" + ",\n".join(f"  0x{b:02x}" for b in value.encode()) + "\n};\n"


def test_a_byte_list_of_one_number_a_line_reads_in_a_short_text_and_a_long_one(proxy):
    """FX2, FX3: `xxd -i -c 1` writes a byte a line, so no comma of the list has a number after it on its line: the
    form reads the list all the same, and in a text long enough to be read only around its cues (a C file of 6,000
    characters), the cue's first number two lines above it is read too: the mailbox is found and not forwarded."""
    from ec2audit.detect.forms.byte_lists import ByteLists

    dump = _one_byte_a_line("lena.hartmann@example.org")
    assert "lena.hartmann@example.org" in _read(ByteLists, dump)
    text = "".join(f"int pad_{n} = {n};\n" for n in range(400)) + dump
    assert len(text) > 6000
    answer, sent, record = exchange(proxy, "xxd-c1", {"messages": [{"role": "user", "content": text}]})
    assert [f["unit_id"].rsplit("/", 1)[1] for f in record.findings] == ["email"]
    assert answer.status_code == (403 if proxy[0] == "block" else 200)



def test_a_word_diff_line_reads_each_change_and_a_change_to_the_same_character():
    """FW2, FW4: a line of two changes (`13922[-7-]{+8+}833[-5-]{+6+}6`) reads as its old side and its new side, each
    change's own, not from the first marker to the last; a change git writes as the same character out and in
    (`[-8-]{+8+}`: a `--word-diff-regex` that cuts at each character) reads without its markers, not as written."""
    from ec2audit.detect.forms.word_diff import WordDiff

    assert _read(WordDiff, "phone: 13922[-7-]{+8+}833[-5-]{+6+}6\n") == "phone: 13922783356\nphone: 13922883366\n"
    assert "13922883366" in _read(WordDiff, "phone: 139228[-8-]{+8+}3366\n")


def test_a_characters_bytes_join_only_across_words_a_blank_alone_parts():
    """FN1: mailers cut a character across two adjacent encoded words (`5qyn6Q==` / `mLPl…`: 欧阳娜娜, 阳 in both) and
    readers join them; words with text between, or none at all, are not adjacent (Python's `email.header` reads
    them apart), so the first word's cut bytes are no text and the name is not read across them."""
    from ec2audit.detect.forms.encoded_words import EncodedWords

    first, second = "=?UTF-8?B?5qyn6Q==?=", "=?UTF-8?B?mLPlqJzlqJw=?="
    assert _read(EncodedWords, f"Subject: {first} {second}") == "Subject: 欧阳娜娜"
    for apart in (f"Subject: {first} x {second}", f"Subject: {first}{second}"):
        assert _read(EncodedWords, apart) == apart


def test_quoted_printables_ascii_escapes_read_only_where_an_encoder_writes_them():
    """FQ2, FQ3, FQ4, FQ6: `=2E` is a "." an encoder writes only at a line's start (`ratio=2E5` is a number in a log
    line), a run of `=20=3D` a space only where it ends a line; a text that declares quoted-printable, in whatever
    case its header is written (`content-transfer-encoding:\\tquoted-printable`), has its escapes read anywhere;
    escapes of text outside ASCII are read wherever they stand, declared or not."""
    from ec2audit.detect.forms.quoted_printable import QuotedPrintable

    assert _read(QuotedPrintable, "contact: Jos=C3=A9 N=C3=BA=C3=B1ez") == "contact: José Núñez"
    for stays in ("ratio=2E5 ok", "k=20=3D v"):
        assert _read(QuotedPrintable, stays) == stays
    assert _read(QuotedPrintable, "x\n=2Eok") == "x\n.ok"
    declared = "content-transfer-encoding:\tquoted-printable\n\nName:=20Lena"
    assert _read(QuotedPrintable, declared) == declared.replace("=20", " ")


def test_a_command_module_that_defines_another_command_is_refused(monkeypatch):
    """CL2: a command's module must define the command it is named for (the CLI imports a module by the command
    asked for): one that defines another is a developer's error said in one line, not another command run."""
    from click.testing import CliRunner

    from ec2audit import cli

    monkeypatch.setitem(cli._COMMAND_MODULES, "grade", "judge")
    result = CliRunner().invoke(cli.main, ["grade", "--help"])
    assert isinstance(result.exception, RuntimeError)
    assert str(result.exception) == "'judge' is defined in judge.py: a command's module must be named as the command"


@pytest.mark.model_server
def test_a_started_local_model_server_is_started_once():
    """LM3: `start()` on a server already serving gives its URL again, with the same process: a second child
    would hold a second model in memory, and the first would outlive `stop()`."""
    from ec2audit.localmodel import LocalModelServer

    server = LocalModelServer(n_ctx=256)
    url = server.start()
    first = server.process
    try:
        assert server.start() == url and server.process is first
    finally:
        server.stop()
        if first.poll() is None:  # (a second start's first child, stopped here too)
            first.kill()
            first.wait()


def test_a_number_in_a_longer_run_of_commas_is_not_read_the_european_way():
    """VC1: a decimal comma ends its number: `12,50,000` (Indian grouping) and a list `1,5,7` hold no 12.5 or 1.5,
    where `7,25 Mio` is 7.25 million."""
    from ec2audit.detect.value_checks import numbers

    assert 12.5 not in numbers("12,50,000 rupees") and numbers("1,5,7") == [1.0, 5.0, 7.0]
    assert 7.25e6 in numbers("Kaufpreis 7,25 Mio")


def test_a_conditions_category_is_read_from_its_aliases_and_cues_at_a_words_start():
    """DC2, DC3, DC7: a value written as an abbreviation (`RRMS`) has the categories of its aliases (multiple
    sclerosis: nervous, autoimmune); a cue is a word's start, so `unnerved` names no nerve, where `neurological`
    names one; a value of another kind than health has none, whatever organ its name holds."""
    from ec2audit.detect import descriptions
    from ec2audit.units import make_unit

    ms = make_unit({"task_id": "t", "entity_id": "E1", "field": "diagnosis", "value": "RRMS",
                    "aliases": ["multiple sclerosis"], "dimension": "health"})
    assert descriptions.categories(ms) == ("nervous", "autoimmune")
    assert descriptions.category_cues(ms, "The delay unnerved her.") == 0
    assert descriptions.category_cues(ms, "A neurological condition.") == 1
    employer = make_unit({"task_id": "t", "entity_id": "E1", "field": "employer", "value": "British Heart Foundation",
                          "dimension": "other"})
    assert descriptions.categories(employer) == ()  # no condition: a charity's name
