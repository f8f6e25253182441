"""Discovered units worth reading: code tokens, redaction tokens and bare numbers are not units;
chat senders, handles, ids and OS user names are."""

import json

import pytest

from ec2audit.logs.discovered import cleaned, contained, log_identifiers, named, rejection
from ec2audit.units import make_unit


def _unit(value, dimension):
    return make_unit({"task_id": "s", "entity_id": "E", "field": "f", "value": value, "dimension": dimension})


@pytest.mark.parametrize(("value", "dimension"), [
    ("StaticText", "person_name"), ("Python", "person_name"), ("session", "person_name"), ("{", "person_name"),
    ("Customer", "person_name"), ("expect(page.getByRole('button", "person_name"), ("Read File", "person_name"),
    ("__OPENCLAW_REDACTED__", "credential"), ("[REDACTED]", "credential"), ("botToken", "credential"),
    ("0.75", "health"), ("604800000", "government_id"), ("1731974400", "contact"), ("4242", "financial"),
    ("9f2c1a7e4b3d8c6a5f0e1d2c3b4a5968778695a4", "credential"), ("signup_ts", "location"),
])
def test_junk_is_rejected(value, dimension):
    assert rejection(_unit(value, dimension)) is not None


@pytest.mark.parametrize(("value", "dimension"), [
    ("Marguerite Lindqvist", "person_name"), ("Tomasz Wójcik", "person_name"), ("王晓燕", "person_name"),
    ("+44 7700 900123", "contact"), ("priya.raman@fastmail.com", "contact"), ("4539 1488 0343 6467", "financial"),
    ("sk-live-51HqLmX9vB4nR8tY3kW6pZ1cJ5dF0gAs7Ee", "credential"), ("Tr0ub4dor&3-backup-2026", "credential"),
    ("type 2 diabetes", "health"), ("110105198803153418", "government_id"), ("billing.acme.internal", "network"),
])
def test_real_values_are_kept(value, dimension):
    assert rejection(_unit(value, dimension)) is None


def test_values_inside_a_rejected_candidate_are_still_found():
    glued = _unit("Joao Pereira, joao.pereira@saboresdominho.pt, +351 253 555 019", "person_name")
    assert rejection(glued) is not None
    inner = {u.value: u.dimension for u in map(cleaned, contained(glued)) if rejection(u) is None}
    assert inner.get("joao.pereira@saboresdominho.pt") == "contact"
    assert not [v for v in inner if "Pereira," in v]


def test_chat_envelopes_and_home_folders_give_identifiers():
    texts = [("m1", "[Telegram Priya Raman (@priya_r) id:5839201174 +1m 2026-11-20 08:00 UTC] check ~/backups"),
             ("m2", "drwxr-x--- 18 priya priya 4096 /home/priya/backups\n/Users/jdoe/src/shop and /home/runner/x"),
             ("m3", "C:\\Users\\mkowalski\\code")]
    found = {(u.value, u.dimension) for u in log_identifiers(texts, "s1")}
    # not `jdoe`: four letters, shorter than a contact value the audit finds without a word for one (walk 9)
    assert found == {("Priya Raman", "person_name"), ("priya_r", "contact"), ("5839201174", "contact"),
                     ("priya", "contact"), ("mkowalski", "contact")}


@pytest.mark.parametrize(("value", "dimension", "kept"), [
    ("Adeyemi|seun.adeyemi@example.com", "contact", "seun.adeyemi@example.com"),
    ("email=sarah.oconnor@example.ie", "contact", "sarah.oconnor@example.ie"),
    ("Hiroshi Tanaka'", "person_name", "Hiroshi Tanaka"),
    ("(+351 912 345 678", "contact", "+351 912 345 678"),
    ("CAF3x9=2026.11.20.0914@mail.gmail.com", "contact", None),  # a message id, not a mailbox
    ("noreply@elkjop.no", "contact", None),
    ("2026-10-0042", "financial", None),
    ("0.0.0.0", "network", None),
    ("Port Peer Address:Port", "location", None),
    ("(614) 555-0187", "contact", "(614) 555-0187"),  # a bracket whose partner is inside stays
    ("((614) 555-0187)", "contact", "(614) 555-0187"),  # only the pair around it goes
    ("+47 412 34 567)", "contact", "+47 412 34 567"),  # an unpaired closing bracket goes
    ("<ana.souza@example.org>", "contact", "ana.souza@example.org"),
    ("qa-bot@internal.example.com", "contact", None),  # a bot's mailbox
    ("dependabot[bot]@users.noreply.github.com", "contact", None),
    ("builds@users.noreply.github.com", "contact", None),
    ("no-reply@accounts.google.com", "contact", None),
    ("abbott.lee@example.com", "contact", "abbott.lee@example.com"),  # people whose mailbox holds "bot"
    ("botelho.ana@example.pt", "contact", "botelho.ana@example.pt"),  # or whose domain starts with "noreply"
    ("ana@noreplyagency.pt", "contact", "ana@noreplyagency.pt"),
    ("smtp.fastmail.com", "network", None),  # a public service's host
    ("api.openai.com", "network", None),
    ("backup.priya-home.lan", "network", "backup.priya-home.lan"),
    ("api.svc.cluster.local", "network", "api.svc.cluster.local"),
    ("203.0.113.77", "network", "203.0.113.77"),
])
def test_layout_is_cleaned_off_before_judging(value, dimension, kept):
    unit = cleaned(_unit(value, dimension))
    assert (unit.value if rejection(unit) is None else None) == kept


@pytest.mark.parametrize(("value", "dimension", "before", "after"), [
    ("Amelia", "health", '{"saved_passengers": [{"first_name": "', '", "dob": "1957-03-21"}]'),  # a given name
    ("deletions", "health", " src/app.py | 12 ++++--\n 1 file changed, 6 insertions(+), 6 ", "(-)"),
    ("CAH8f3kQ9x2mZ+7Lw@mail.gmail.com", "contact", "Message-ID: <", ">"),
    ("DB7PR03MB4972F1A2C3@eurprd03.prod.outlook.com", "contact", "References: <", ">"),  # generated, any header
    ("4539 1488 0343 6467, receipts to ana@example.org", "financial", "Card on file: ", ""),
])
def test_values_judged_by_what_is_around_them_are_rejected(value, dimension, before, after):
    assert rejection(_unit(value, dimension), before, after) is not None


@pytest.mark.parametrize(("value", "dimension", "before", "after"), [
    ("asthma", "health", '{"patient": "P-7", "diagnosis": "', '"}'),
    ("migraine", "health", "She suffers from ", " twice a month."),
    ("type 2 diabetes", "health", "", ""),  # several words name a condition wherever they stand
    ("john.smith1982@example.com", "contact", "Reply-To: ", ""),
])
def test_values_in_their_context_are_kept(value, dimension, before, after):
    assert rejection(_unit(value, dimension), before, after) is None


def test_openclaw_runtime_context_gives_senders_handles_and_ids():
    """OpenClaw prefixes each channel message with JSON context blocks: the current form
    (`Conversation info: ⟦openclaw:ctx⟧`, the sender nested) and the older `(untrusted metadata)` labels;
    a bot sender is no person."""
    current = ("Conversation info: ⟦openclaw:ctx⟧\n```json\n" + json.dumps(
        {"chat_id": "telegram:-100200300", "message_id": "77", "is_group_chat": True,
         "sender": {"id": "5839201174", "name": "Priya Raman", "username": "priya_r", "e164": "+14155550142"}})
        + "\n```\n\nReply chain of current user message (nearest first): ⟦openclaw:ctx⟧\n```json\n" + json.dumps(
        [{"message_id": "70", "sender": "Tomasz Wójcik", "sender_id": "4410021", "sender_username": "tomwoj",
          "body": "see you at 8"}]) + "\n```\n\nChat history since last reply: ⟦openclaw:ctx⟧\n"
        "#68 2026-11-20 07:40 UTC Lars Eriksen: running late\n#69 2026-11-20 07:41 UTC ->#68 Tomasz Wójcik: ok\n"
        "\nwhen is dinner?")
    legacy = ("Sender (untrusted metadata):\n```json\n" + json.dumps(
        {"label": "Ana Souza (@ana_s)", "id": "99887766", "name": "Ana Souza", "username": "ana_s"}) + "\n```\n"
        "Conversation info (untrusted metadata):\n```json\n" + json.dumps(
        {"sender": {"id": "1234567", "name": "HelperBot", "username": "helper_bot", "is_bot": True}}) + "\n```\nhi")
    found = {(u.value, u.field.rsplit("_", 1)[0], u.dimension) for u in log_identifiers(
        [("m1", current), ("m2", legacy)], "s1")}
    assert found == {
        ("Priya Raman", "chat_sender", "person_name"), ("priya_r", "chat_handle", "contact"),
        ("5839201174", "chat_id", "contact"), ("+14155550142", "chat_phone", "contact"),
        ("Tomasz Wójcik", "chat_sender", "person_name"), ("tomwoj", "chat_handle", "contact"),
        ("Lars Eriksen", "chat_sender", "person_name"),
        ("4410021", "chat_id", "contact"),
        ("Ana Souza", "chat_sender", "person_name"), ("ana_s", "chat_handle", "contact"),
        ("99887766", "chat_id", "contact")}


def test_dates_of_birth_and_names_given_in_two_fields():
    texts = [("t1", json.dumps({"name": {"first_name": "Mia", "last_name": "Li"}, "dob": "1990-04-05"})),
             ("t2", "Patient born on 12 March 1984; date of birth: 03/12/1984. Birthday: March 12, 1984."),
             ("t3", "出生日期：1984年3月12日"), ("t4", "Build date: 2026-11-20, released 2026-11-21")]
    found = {(u.value, u.field.rsplit("_", 1)[0]) for u in log_identifiers(texts, "s1")}
    assert found == {("Mia Li", "full_name"), ("1990-04-05", "date_of_birth"), ("12 March 1984", "date_of_birth"),
                     ("03/12/1984", "date_of_birth"), ("March 12, 1984", "date_of_birth"),
                     ("1984年3月12日", "date_of_birth")}


def test_field_names_say_what_the_value_is():
    def unit(field, value, dimension, entity="E"):
        return make_unit({"task_id": "s", "entity_id": entity, "field": field, "value": value, "dimension": dimension})

    units = named([unit("user_id", "975 Sunset Drive, Austin", "location"),
                   unit("user_id_2", "mia@example.com", "contact"), unit("From", "Ana Souza", "person_name"),
                   unit("From_2", "ana@example.org", "contact"), unit("phone", "ops@example.org", "contact"),
                   unit("phone_number", "+1 415-555-0142", "contact"),
                   unit("api_key", "sk-live-51HqLmX9vB4nR8tY3kW6pZ1cJ5dF0gAs7Ee", "credential"),
                   unit("Card on file_part", "4539 1488 0343 6467", "financial")])
    assert [u.field for u in units] == ["address", "email", "name", "email_2", "email_3", "phone_number", "api_key",
                                        "card_on_file"]


@pytest.mark.parametrize(("value", "dimension", "before", "after"), [
    # from real-shaped logs (benchmarks/data/discover/test5): a query plan's cost range read as a phone
    ("0.86..16.91", "contact", " Nested Loop Left Join  (cost=", " rows=1 width=184)"),
    # a CI run's id that passes a national ID's checksum
    ("7731024598", "government_id", 'Job "release" failed after 1m 14s (runner ubuntu-24.04, id ', ")"),
    ("7731024598", "government_id", "Build #", " passed"),
    ("7731024598", "government_id", '{"run_id": "', '", "status": "failed"}'),
    # glued Chinese text read as a place: no word for a street, an unpaired bracket
    ("本名周文杰),电话", "location", "对接人:Will(英文名,", " 0571-8702 3316。"),
    ("深圳市", "location", "公司位于", "。"),
])
def test_log_noise_from_real_tools_is_rejected(value, dimension, before, after):
    assert rejection(_unit(value, dimension), before, after) is not None


@pytest.mark.parametrize(("value", "dimension", "before", "after"), [
    # a Chinese address has no spaces: one run of characters, with a street in it, is no "one word"
    ("深圳市南山区科技园南路 88 号 2 栋 1503 室", "location", "联系地址:", "。"),
    ("深圳市南山区科技园南路", "location", "联系地址:", " 88 号"),
    # someone's condition: a person has it, even with no medical word around
    ("epilepsy", "health", "refund of the annual plan (29,99 €, order CNG-88213). I have ",
     " and the flashing crab animation on the Cancer page gave me a seizure"),
    ("diabetes", "health", "Since her ", " she skips the team lunches"),
    ("ADHD", "health", "He was diagnosed with ", " in 2019 and"),
    # a short form of a given name that Faker's lists lack
    ("Will Hartley", "person_name", "Author: ", " <will.hartley@northwind-dev.co.uk>"),
    ("Matt Fisher", "person_name", "", ""),
    # a phone next to the word "job" or "build" is still a phone
    ("655 482 193", "contact", "my job phone: ", ""),
    ("48276513", "government_id", "I run a small shop, my customer id ", ""),  # `run` the verb, far from the id
])
def test_values_in_real_logs_are_kept(value, dimension, before, after):
    assert rejection(_unit(value, dimension), before, after) is None


@pytest.mark.parametrize(("value", "before", "after"), [
    ("Cancer", "on the ", " page gave me a seizure"),  # the crab's sign, no one's condition
    ("depression", "- Key ", " on the numeric keypad registered twice"),
    ("Cancer", "and check my ", " horoscope for this week"),  # a holder, but a star sign's capital
    ("cancer", "Cancer crabs are tender under the shell. The ", " sign icon uses stroke 2.5"),
])
def test_medical_words_in_other_senses_stay_rejected(value, before, after):
    assert rejection(_unit(value, "health"), before, after) is not None
