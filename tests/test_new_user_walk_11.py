"""Session 22, eleventh walk: figures a new user reads off `audit`, `report`, `annotate`, `discover` and `judge` on
inputs written here as other tools write theirs (Bedrock Converse logs with their service tier, …), each checked
against a count made by hand."""

import json
from pathlib import Path

import pytest
from test_new_user_walk_7 import _cli


def _bedrock_log(path: Path, model: str, tier: str) -> None:
    """One Bedrock Converse call as a request log keeps it: the model in the URL (its `:` escaped), the request's
    and the response's `serviceTier` as Converse writes them (`{"type": …}`), 10,000 tokens in and 2,000 out."""
    url = f"https://bedrock-runtime.us-west-2.amazonaws.com/model/{model.replace(':', '%3A')}/converse"
    request = {"messages": [{"role": "user", "content": [{"text": "Email maria.kessler@example.com the summary."}]}],
               "inferenceConfig": {"maxTokens": 500}, "serviceTier": {"type": tier}}
    response = {"output": {"message": {"role": "assistant", "content": [{"text": "Sent."}]}}, "stopReason": "end_turn",
                "usage": {"inputTokens": 10000, "outputTokens": 2000, "totalTokens": 12000},
                "metrics": {"latencyMs": 912}, "serviceTier": {"type": tier}}
    path.write_text(json.dumps({"url": url, "session_id": "b1", "request": request, "response": response}) + "\n",
                    encoding="utf-8")


def _units(path: Path) -> Path:
    path.write_text(json.dumps({"task_id": "t", "entity_id": "E1", "field": "email", "dimension": "contact",
                                "value": "maria.kessler@example.com"}) + "\n", encoding="utf-8")
    return path


def test_a_bedrock_call_served_at_flex_is_priced_at_the_flex_rates(tmp_path):
    """Bedrock's flex tier (`serviceTier: {"type": "flex"}`) of gpt-oss-120b: LiteLLM's map prices it at $0.075 /
    $0.30 per million (standard $0.15 / $0.60). By hand: 10,000 × 0.075e-6 + 2,000 × 0.30e-6 = $0.00135. Before:
    the tier was read only from OpenAI's `service_tier`: $0.0027 at the standard rates."""
    log = tmp_path / "bedrock.jsonl"
    _bedrock_log(log, "openai.gpt-oss-120b-1:0", "flex")
    code, output = _cli("audit", log, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    provider, = json.loads(output[output.index("{\n"):])["providers"]
    assert provider["cost_usd"] == 0.00135


def test_report_names_the_tier_a_logged_calls_cost_is_unknown_at(tmp_path):
    """A Bedrock call served at `priority` of Claude 3.5 Sonnet, which no price table prices at that tier: `audit`'s
    provider table says `unknown: no price for the model at the priority tier`, and `report` on that audit's output
    says the same in its Cost table. Before: `report` said `unknown: no price for the model`, as if Sonnet had
    none at all (the sessions table did not keep the tier)."""
    log = tmp_path / "bedrock.jsonl"
    _bedrock_log(log, "anthropic.claude-3-5-sonnet-20240620-v1:0", "priority")
    out = tmp_path / "audit" / "findings.jsonl"
    code, output = _cli("audit", log, "--units", _units(tmp_path / "units.jsonl"), "--out", out)
    assert code == 0, output
    why = "unknown: no price for the model at the priority tier"
    assert why in output
    code, output = _cli("report", out, "--out", tmp_path / "report.html")
    assert code == 0, output
    assert why in " ".join(output.split())
    assert why in (tmp_path / "report.html").read_text(encoding="utf-8")


def _prelabelled(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str, str, str]]:
    """(entity, field, dimension, value) of each unit `annotate prelabel --no-presidio` proposes for `files`."""
    from test_new_user_walk_5 import _prelabel

    return [(u["entity_id"], u["field"], u["dimension"], u["value"]) for u in _prelabel(tmp_path, files)]


#: Two cards as a phone's contacts export writes them (vCard 3.0, CRLF line ends, property parameters).
CONTACTS = "\r\n".join([
    "BEGIN:VCARD", "VERSION:3.0", "N:Kessler;Maria;;Dr.;", "FN:Dr. Maria Kessler", "ORG:Kessler & Partner GmbH",
    "TEL;TYPE=WORK,VOICE:+49 30 901820", "TEL;TYPE=CELL:+1 415 555 0142",
    "EMAIL;TYPE=INTERNET:maria.kessler@example.com",
    "ADR;TYPE=HOME:;;742 Evergreen Terrace;Springfield;OR;97403;USA", "BDAY:1984-03-12", "END:VCARD",
    "BEGIN:VCARD", "VERSION:3.0", "N:Okafor;Chidi;;;", "FN:Chidi Okafor", "TEL;TYPE=CELL:+44 7700 900123",
    "EMAIL:chidi.okafor@example.org", "END:VCARD", ""])


def test_a_contacts_export_gives_each_card_its_person_with_their_phones_and_birthday(tmp_path):
    """A `.vcf` of two people. By hand, card 1: Maria Kessler, her firm, two phones (`TEL;…:+49 30 901820` right
    after the colon), her mailbox, street and birthday (vCard's `BDAY`); card 2: Chidi Okafor, a phone, a mailbox:
    10 units, each of its card. Before: 7 units, all of one entity `contacts.vcf`; no Chidi Okafor (`FN` is no key
    a name follows), no German phone (a `+` after a colon was never a phone's start), no birthday."""
    units = _prelabelled(tmp_path, {"contacts.vcf": CONTACTS})
    assert units == [
        ("contacts.vcf#1", "FN", "person_name", "Maria Kessler"),
        ("contacts.vcf#1", "ORG", "business", "Kessler & Partner GmbH"),
        ("contacts.vcf#1", "TEL", "contact", "+49 30 901820"),
        ("contacts.vcf#1", "TEL_2", "contact", "+1 415 555 0142"),
        ("contacts.vcf#1", "EMAIL", "contact", "maria.kessler@example.com"),
        ("contacts.vcf#1", "ADR", "location", "742 Evergreen Terrace"),
        ("contacts.vcf#1", "BDAY", "other", "1984-03-12"),
        ("contacts.vcf#2", "FN", "person_name", "Chidi Okafor"),
        ("contacts.vcf#2", "TEL", "contact", "+44 7700 900123"),
        ("contacts.vcf#2", "EMAIL", "contact", "chidi.okafor@example.org")]


def test_an_events_uid_a_gmail_message_id_and_a_calendars_maker_are_nobodys(tmp_path):
    """A Google Calendar invitation (`.ics`) and the mail that followed (`.eml`). By hand: the organiser and the
    attendee with their mailboxes (4), the place, the patient id, the IBAN and three phones, two in the signature
    right after their colons (`Mobil:+49 151 23456789`): 10 values. The event's `UID:…@google.com`, Gmail's
    `Message-ID: <CAH8yC8k=pZ0T7…@mail.gmail.com>` (an address would start after its `=`) and
    `PRODID:-//Google Inc//…` (the software that wrote the file) are no one's. Before: those three were units,
    the mobile was `151 23456789` (its country code left out) and the office number none."""
    invite = "\r\n".join([
        "BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0", "BEGIN:VEVENT",
        "DTSTART:20241105T150000Z", "DTEND:20241105T160000Z", "UID:7kukuqrfedlm2f9t0vqn@google.com",
        "ORGANIZER;CN=Maria Kessler:mailto:maria.kessler@example.com",
        "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=Chidi Okafor:",
        " mailto:chidi.okafor@example.org",
        "SUMMARY:Follow-up", "LOCATION:Charité Campus Mitte, Charitéplatz 1, 10117 Berlin",
        "DESCRIPTION:Bring MRI results. Patient ID 4471-223.", "END:VEVENT", "END:VCALENDAR", ""])
    mail = ("From: Maria Kessler <maria.kessler@example.com>\nTo: Chidi Okafor <chidi.okafor@example.org>\n"
            "Subject: Invoice 2024-117\nDate: Mon, 4 Nov 2024 09:12:33 +0100\n"
            "Message-ID: <CAH8yC8k=pZ0T7+fGxyz@mail.gmail.com>\nMIME-Version: 1.0\n\n"
            "Hi Chidi,\n\nplease wire the balance to IBAN DE47 3704 0044 0532 0130 77 by Friday.\n"
            "You can reach me on +1 415 555 0142.\n\nMaria\n--\nMobil:+49 151 23456789 · Tel.:+49 30 901820\n")
    units = _prelabelled(tmp_path, {"invite.ics": invite, "reply.eml": mail})
    assert sorted((dimension, value) for _, _, dimension, value in units) == [
        ("contact", "+1 415 555 0142"), ("contact", "+49 151 23456789"), ("contact", "+49 30 901820"),
        ("contact", "chidi.okafor@example.org"), ("contact", "maria.kessler@example.com"),
        ("financial", "DE47 3704 0044 0532 0130 77"), ("health", "4471-223"),
        ("location", "Charité Campus Mitte, Charitéplatz 1, 10117 Berlin"),
        ("person_name", "Chidi Okafor"), ("person_name", "Maria Kessler")]
    assert ("invite.ics#1", "ATTENDEE_2", "contact", "chidi.okafor@example.org") in units  # the folded line's


def _xlsx(path: Path, rows: list[list[str]]) -> None:
    """A workbook of one sheet as Excel saves it: the cells' strings in `xl/sharedStrings.xml`, the sheet's cells
    pointing at them by index, the parts named in `[Content_Types].xml` and the relationships."""
    import zipfile

    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rels = "http://schemas.openxmlformats.org/package/2006/relationships"
    office = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    strings = sorted({v for row in rows for v in row}, key=[v for row in rows for v in row].index)
    cells = "".join(f'<row r="{r}">' + "".join(f'<c r="{"ABCD"[c]}{r}" t="s"><v>{strings.index(v)}</v></c>'
                                               for c, v in enumerate(row)) + "</row>"
                    for r, row in enumerate(rows, start=1))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                      '<Default Extension="xml" ContentType="application/xml"/></Types>')
        book.writestr("_rels/.rels", f'<Relationships xmlns="{rels}"><Relationship Id="rId1" '
                      f'Type="{office}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        book.writestr("xl/workbook.xml", f'<workbook xmlns="{main}" xmlns:r="{office}"><sheets>'
                      '<sheet name="Payroll" sheetId="1" r:id="rId1"/></sheets></workbook>')
        book.writestr("xl/worksheets/sheet1.xml",
                      f'<worksheet xmlns="{main}"><sheetData>{cells}</sheetData></worksheet>')
        book.writestr("xl/sharedStrings.xml", f'<sst xmlns="{main}" count="{len(strings)}">'
                      + "".join(f"<si><t>{v}</t></si>" for v in strings) + "</sst>")


def test_a_workbook_in_a_workspace_is_prelabelled_from_the_text_the_guard_reads_in_it(tmp_path):
    """`payroll.xlsx` (two employees: name, mailbox, IBAN) beside a picture. The guard reads a workbook an agent
    sends as its XML's text, one cell a line, so pre-labelling reads the same. By hand: both mailboxes, both IBANs
    and Maria Kessler (a census name; Chidi Okafor, one cell alone with nothing to say it is a name, is left to
    Presidio or a reviewer): 5 units. The PNG is named with why. Before: the workbook skipped as binary, 0 units."""
    ws = tmp_path / "ws"
    ws.mkdir()
    _xlsx(ws / "payroll.xlsx", [["Employee", "Email", "IBAN"],
                                ["Maria Kessler", "maria.kessler@example.com", "DE47 3704 0044 0532 0130 77"],
                                ["Chidi Okafor", "chidi.okafor@example.org", "GB15 NWBK 6016 1331 9268 77"]])
    (ws / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--units", units, "--out", tmp_path / "ls.json")
    assert code == 1, output  # a file skipped: said, and the exit status says so
    assert f"skipped {ws / 'logo.png'}: binary (image/png: no reader of its text)" in output
    found = [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]
    assert sorted((u["dimension"], u["value"]) for u in found) == [
        ("contact", "chidi.okafor@example.org"), ("contact", "maria.kessler@example.com"),
        ("financial", "DE47 3704 0044 0532 0130 77"), ("financial", "GB15 NWBK 6016 1331 9268 77"),
        ("person_name", "Maria Kessler")]
    assert {u["source"]["file"] for u in found} == {"payroll.xlsx"}


def test_a_bedrock_invoke_model_call_is_priced_under_bedrock_by_the_model_its_path_names(tmp_path):
    """Claude on Bedrock's InvokeModel (`/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke`: the body is
    Anthropic's with `anthropic_version` and no `model`, the answer Anthropic's without one either), 1,000 in and
    100 out. By hand at $3 / $15 per million: $0.0045, provider bedrock. Before: `?/?`, `unknown: no price for the
    model` (only Converse's path was read for its model, and no Bedrock host named a provider)."""
    url = ("https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0"
           "/invoke")
    request = {"anthropic_version": "bedrock-2023-05-31", "max_tokens": 500, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "Email maria.kessler@example.com the summary."}]}]}
    response = {"id": "msg_bdrk_01Xyz", "type": "message", "role": "assistant", "stop_reason": "end_turn",
                "content": [{"type": "text", "text": "Sent."}], "stop_sequence": None,
                "usage": {"input_tokens": 1000, "output_tokens": 100}}
    log = tmp_path / "invoke.jsonl"
    log.write_text(json.dumps({"url": url, "session_id": "i1", "request": request, "response": response}) + "\n",
                   encoding="utf-8")
    code, output = _cli("audit", log, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    data = json.loads(output[output.index("{\n"):])
    provider, = data["providers"]
    assert (provider["provider"], provider["model"]) == ("bedrock", "anthropic.claude-3-5-sonnet-20240620-v1:0")
    assert provider["cost_usd"] == 0.0045
    assert [(s["leaked"], s["units"]) for s in data["sessions"]] == [(1, 1)]


def test_a_rotated_gzip_log_is_read_decompressed_and_a_gzip_of_no_log_is_named(tmp_path):
    """A request log as logrotate leaves it: `requests.jsonl` and yesterday's `requests.jsonl.1.gz`, one
    gpt-4o-mini call each (1,000 in, 100 out), and a gzipped README. By hand at $0.15 / $0.60 per million: 2 calls,
    2 × $0.00021 = $0.00042, both sessions leaked the mailbox; the README named as no log. Before: the `.gz` was
    `binary data, not a known log format (--format FORMAT reads it as one…)`, which no --format could: 1 call,
    $0.00021."""
    import gzip

    def record(session: str) -> str:
        return json.dumps({"url": "https://api.openai.com/v1/chat/completions", "session_id": session, "request": {
            "model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Email maria.kessler@example.com"}]},
            "response": {"model": "gpt-4o-mini", "choices": [{"message": {"role": "assistant", "content": "Done."}}],
                         "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}}}) + "\n"

    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "requests.jsonl").write_text(record("today"), encoding="utf-8")
    (logs / "requests.jsonl.1.gz").write_bytes(gzip.compress(record("yesterday").encode()))
    (logs / "README.md.gz").write_bytes(gzip.compress(b"# Proxy logs\n\nRotated daily.\n"))
    code, output = _cli("audit", logs, "--units", _units(tmp_path / "units.jsonl"))
    assert code == 1, output  # the README is skipped, and said
    said = " ".join(output.split())
    assert f"read {logs / 'requests.jsonl.1.gz'} decompressed (gzip)" in said
    assert f"skipped {logs / 'README.md.gz'}: gzip of not a known log format" in said
    code, output = _cli("audit", logs, "--units", tmp_path / "units.jsonl", "--json")
    data = json.loads(output[output.index("{\n"):])
    assert sorted((s["session"], s["leaked"]) for s in data["sessions"]) == [("today", 1), ("yesterday", 1)]
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["cost_usd"]) == (2, 2000, 0.00042)


def test_the_cost_openrouter_states_in_a_calls_usage_is_its_cost(tmp_path):
    """OpenRouter's usage accounting puts what it charged in the answer's `usage.cost` (USD): a free model's call
    ($0), a GLM-4.6 call ($0.00062), and one on the user's own provider key (`is_byok`: OpenRouter's $0.000031 fee
    plus the provider's $0.00062 in `cost_details.upstream_inference_cost`). By hand: $0 for the free model, and
    $0.00062 + $0.000651 = $0.001271 for GLM-4.6's two calls. Before: all three `unknown: no price for the model`
    (LiteLLM's map prices none of them)."""
    def call(session: str, model: str, usage: dict) -> str:
        return json.dumps({"url": "https://openrouter.ai/api/v1/chat/completions", "session_id": session,
                           "request": {"model": model, "usage": {"include": True}, "messages": [
                               {"role": "user", "content": "Email maria.kessler@example.com"}]},
                           "response": {"id": f"gen-{session}", "provider": "Z.AI", "model": model,
                                        "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
                                        "message": {"role": "assistant", "content": "Done."}}],
                                        "usage": {"prompt_tokens": 1000, "completion_tokens": 100,
                                                  "total_tokens": 1100, **usage}}}) + "\n"

    log = tmp_path / "openrouter.jsonl"
    log.write_text(
        call("free", "mistralai/devstral-2512:free", {"cost": 0, "is_byok": False})
        + call("paid", "z-ai/glm-4.6", {"cost": 0.00062, "is_byok": False,
                                        "cost_details": {"upstream_inference_cost": None}})
        + call("byok", "z-ai/glm-4.6", {"cost": 0.000031, "is_byok": True,
                                             "cost_details": {"upstream_inference_cost": 0.00062}}),
        encoding="utf-8")
    code, output = _cli("audit", log, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    data = json.loads(output[output.index("{\n"):])
    costs = {p["model"]: p["cost_usd"] for p in data["providers"]}
    assert costs == {"mistralai/devstral-2512:free": 0.0, "z-ai/glm-4.6": pytest.approx(0.001271)}


def test_claude_on_vertex_ai_is_priced_by_the_model_its_path_names(tmp_path):
    """A gateway's log of Claude on Vertex AI (`…/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict`
    in region us-east5; the body Anthropic's with `anthropic_version` and no `model`), keeping the usage and not the
    answer: 1,000 in, 100 out. By hand at LiteLLM's `vertex_ai/claude-sonnet-4-5@20250929` ($3 / $15 per million):
    $0.0045. Before: `unknown: no price for the model` (Vertex's hosts named no price list)."""
    url = ("https://us-east5-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-east5/publishers/anthropic"
           "/models/claude-sonnet-4-5@20250929:rawPredict")
    request = {"anthropic_version": "vertex-2023-10-16", "max_tokens": 800, "messages": [
        {"role": "user", "content": "Email maria.kessler@example.com the summary."}]}
    log = tmp_path / "gateway.jsonl"
    log.write_text(json.dumps({"url": url, "session_id": "v1", "request": request, "status_code": 200,
                               "usage": {"input_tokens": 1000, "output_tokens": 100}}) + "\n", encoding="utf-8")
    code, output = _cli("audit", log, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0, output
    provider, = json.loads(output[output.index("{\n"):])["providers"]
    assert (provider["model"], provider["cost_usd"]) == ("claude-sonnet-4-5@20250929", 0.0045)


def test_a_bedrock_call_sent_at_flex_through_the_proxy_is_priced_at_flex(standin, tmp_path):
    """`intercept serve` in front of the stand-in, a Converse call to gpt-oss-120b asking `serviceTier: {"type":
    "flex"}` (the stand-in's answer names no tier: the request's is the tier). By hand from the usage it answered
    with (32 in, 32 more read from cache, 10 out): (64 × $0.075 + 10 × $0.30) / 1e6 = $0.0000078, half the
    standard rates (LiteLLM's map gives gpt-oss no cache rate: cached tokens at the input's). Before: $0.0000156
    at the standard $0.15 / $0.60."""
    import httpx
    from intercept_helpers import running_proxy

    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store), \
            httpx.Client(base_url=url, timeout=30) as client:
        answer = client.post("/v1/model/openai.gpt-oss-120b-1%3A0/converse", json={
            "messages": [{"role": "user", "content": [{"text": "Summarise the claim of Will Hartley."}]}],
            "serviceTier": {"type": "flex"}}).json()
        record, = store.records()
    usage = answer["usage"]
    prompt = usage["inputTokens"] + usage["cacheReadInputTokens"]  # LiteLLM has no flex cache rate: the input one
    assert record.model == "openai.gpt-oss-120b-1:0"
    assert record.cost_usd == pytest.approx((prompt * 0.075 + usage["outputTokens"] * 0.30) / 1e6)


def test_a_mail_whose_body_is_base64_or_quoted_printable_is_prelabelled_as_its_reader_shows_it(tmp_path):
    """A `.eml` as mail clients save one: the sender's name in an RFC 2047 encoded word (`=?utf-8?q?Ren=C3=A9e…`),
    the text part in base64, its HTML twin in quoted-printable (whose soft line break cuts the IBAN). By hand: Renée
    Dubois and Chidi Okafor, their two mailboxes, the IBAN and the mobile: 6 units. Before: 4, the encoded name no
    name and the IBAN found in neither part."""
    from email.message import EmailMessage

    mail = EmailMessage()
    mail["From"] = "Renée Dubois <renee.dubois@example.fr>"
    mail["To"] = "Chidi Okafor <chidi.okafor@example.org>"
    mail["Subject"] = "Virement"
    body = "please wire the balance to IBAN DE47 3704 0044 0532 0130 77 by Friday.\nMy mobile: +49 151 23456789."
    mail.set_content(f"Hi Chidi,\n\n{body}\n\nRenée\n", cte="base64")
    mail.add_alternative(f"<p>Hi Chidi,</p><p>{body}</p><p>Renée</p>", subtype="html", cte="quoted-printable")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "virement.eml").write_bytes(bytes(mail))
    assert b"=?utf-8?q?Ren=C3=A9e" in bytes(mail) and b"0130 7=\n7" in bytes(mail)  # written as mail clients do
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--units", units, "--out", tmp_path / "ls.json")
    assert code == 0, output
    found = [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]
    assert sorted((u["dimension"], u["value"]) for u in found) == [
        ("contact", "+49 151 23456789"), ("contact", "chidi.okafor@example.org"),
        ("contact", "renee.dubois@example.fr"), ("financial", "DE47 3704 0044 0532 0130 77"),
        ("person_name", "Chidi Okafor"), ("person_name", "Renée Dubois")]


def test_a_csv_excel_saved_in_a_european_locale_gives_each_row_its_person(tmp_path):
    """`kunden.csv` as Excel on a German Windows saves "CSV": cells split by `;` (the comma is the decimal mark),
    text in cp1252 (`Jürgen Müller`), CRLF. By hand: two rows of name, mailbox, phone and IBAN: 8 units, each of its
    row, named by its column. Before: the file was skipped as `binary (not UTF-8 text)`, 0 units (and once read, its
    `;` rows were no table: no names, every value of one entity)."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "kunden.csv").write_bytes(
        "Name;E-Mail;Telefon;IBAN\r\n"
        "Jürgen Müller;juergen.mueller@example.de;+49 30 901820;DE47 3704 0044 0532 0130 77\r\n"
        "Renée Dubois;renee.dubois@example.fr;+33 1 42 68 53 00;FR09 2004 1010 0505 0001 3N02 606\r\n".encode("cp1252"))
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--units", units, "--out", tmp_path / "ls.json")
    assert code == 0, output
    found = [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]
    assert [(u["entity_id"], u["field"], u["value"]) for u in found] == [
        ("kunden.csv:2", "Name", "Jürgen Müller"), ("kunden.csv:2", "E-Mail", "juergen.mueller@example.de"),
        ("kunden.csv:2", "Telefon", "+49 30 901820"), ("kunden.csv:2", "IBAN", "DE47 3704 0044 0532 0130 77"),
        ("kunden.csv:3", "Name", "Renée Dubois"), ("kunden.csv:3", "E-Mail", "renee.dubois@example.fr"),
        ("kunden.csv:3", "Telefon", "+33 1 42 68 53 00"), ("kunden.csv:3", "IBAN", "FR09 2004 1010 0505 0001 3N02 606")]


def test_a_byte_order_mark_is_no_part_of_a_files_first_key(tmp_path):
    """What Windows tools write with a UTF-8 BOM: Windows PowerShell's `ConvertTo-Json | Out-File -Encoding utf8`
    (two customers with an `id`) and Excel's "CSV UTF-8". By hand: JSON, 6 units of entities C-1 and C-2, each
    named by its `name`; CSV, `name` and `email` of row 2, named Maria Kessler; every span's offsets cut its value
    out of the file's text. Before: the JSON was no JSON (6 units of one entity `customers.json`) and the CSV's
    first column was `\\ufeffname`, so its row had no name."""
    ws = tmp_path / "ws"
    ws.mkdir()
    customers = [{"id": "C-1", "name": "Jürgen Müller", "email": "juergen.mueller@example.de"},
                 {"id": "C-2", "name": "Renée Dubois", "email": "renee.dubois@example.fr"}]
    (ws / "customers.json").write_text("\ufeff" + json.dumps(customers, indent=4, ensure_ascii=False) + "\r\n",
                                       encoding="utf-8")
    (ws / "export.csv").write_text("\ufeffname,email\r\nMaria Kessler,maria.kessler@example.com\r\n", encoding="utf-8")
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--units", units, "--out", tmp_path / "ls.json")
    assert code == 0, output
    found = [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]
    assert sorted((u["entity_id"], u["field"], u.get("entity_name"), u["value"]) for u in found) == [
        ("C-1", "email", "Jürgen Müller", "juergen.mueller@example.de"),
        ("C-1", "name", "Jürgen Müller", "Jürgen Müller"),
        ("C-2", "email", "Renée Dubois", "renee.dubois@example.fr"), ("C-2", "name", "Renée Dubois", "Renée Dubois"),
        ("export.csv:2", "email", "Maria Kessler", "maria.kessler@example.com"),
        ("export.csv:2", "name", "Maria Kessler", "Maria Kessler")]
    for u in found:
        text = (ws / u["source"]["file"]).read_bytes().decode("utf-8")  # CRLF kept, as prelabel reads it
        assert text[u["source"]["start"]:u["source"]["end"]] == u["value"]
