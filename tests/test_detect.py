"""Deterministic tiers on en and zh text: formats, masks, fragments, placeholders and false-positive traps."""

import base64
import json

import pytest

from ec2audit.detect.cascade import Cascade
from ec2audit.detect.normalize import TextView, normalize_text, parse_amount
from ec2audit.units import make_unit


def _u(field, value, dimension, entity="E1", name=None, **extra):
    return make_unit({"task_id": "t1", "entity_id": entity, "entity_name": name, "field": field, "value": value,
                      "dimension": dimension, **extra})


UNITS = [
    _u("name", "张伟", "person_name", "CTX-002", "张伟"),
    _u("national_id", "11010519880315341X", "government_id", "CTX-002", "张伟"),
    _u("phone", "13922883366", "contact", "CTX-002", "张伟"),
    _u("bank_card", "6222 0210 0112 1234", "financial", "CTX-002", "张伟"),
    _u("salary", "¥3,200,000", "financial", "CTX-002", "张伟"),
    _u("name", "John Smith", "person_name", "E7", "John Smith"),
    _u("email", "John.Smith@Acme-Corp.com", "contact", "E7", "John Smith"),
    _u("address", "1234 Maplewood Avenue, Springfield", "location", "E7", "John Smith"),
    _u("diagnosis", "type 2 diabetes", "health", "E7", "John Smith"),
    _u("api_key", "sk-proj-9fQ2LmZx81VbN0aTy7", "credential", "SVC", "deploy bot"),
    _u("age", "42", "other", "E7", "John Smith"),
    _u("surname", "Li", "person_name", "E9", "Li"),
    _u("nickname", "Will", "person_name", "E10", "Will Turner"),
    _u("budget", "¥1,500,000", "business", "PRJ", "Project Dawn"),
    _u("host_ip", "10.108.147.93", "network", "SRV", "db-prod-07"),
    _u("iban", "DE89370400440532013000", "financial", "CTX-002", "张伟"),
    _u("name", "欧阳娜娜", "person_name", "E11", "欧阳娜娜"),
]


def scan(text):
    """The cascade's hits, the cascade built here in the test (5 ms): a test that builds it at import would
    not be run by `make mutation` against the detectors' construction (mutmut maps code to tests as they run)."""
    return Cascade(UNITS).scan_text(text)


def hits(text):
    return {(UNITS[h.unit_index].field, text[h.start:h.end], h.grade) for h in scan(text)}


def grades(text):
    out = {}
    for h in scan(text):
        out[UNITS[h.unit_index].field] = max(out.get(UNITS[h.unit_index].field, 0), h.grade)
    return out


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


# an encoding inside an encoding, as tool output nests them: the whole outer token is the evidence
_NAME_JSON = _b64(json.dumps({"name": "张伟"}))  # non-ASCII as \u escapes inside the base64
_ZERO_WIDTH = _b64("phone: 139\u200b2288\u200b3366")  # format characters inside: still text
_CSV = _b64("name,email\r\nJohn,john.smith@acme-corp.com\r\n")  # a CSV file's line ends
_FILE = _b64("mail john.smith%40acme-corp.com today")  # a data URL of percent-encoded text


@pytest.mark.parametrize("text, field, evidence", [
    (f"export (base64): {_NAME_JSON}", "name", _NAME_JSON),
    (f"attachment (base64): {_ZERO_WIDTH}", "phone", _ZERO_WIDTH),
    (f"customers.csv (base64): {_CSV}", "email", _CSV),
    (f"data:text/plain;base64,{_FILE}", "email", _FILE),
    ("联系人张伟，电话13922883366", "phone", "13922883366"),
    ("call 139-2288-3366 today", "phone", "139-2288-3366"),
    ("call +86 139 2288 3366", "phone", "139 2288 3366"),
    ("mobile: +8613922883366", "phone", "13922883366"),
    ("电话：１３９２２８８３３６６", "phone", "１３９２２８８３３６６"),
    ("id 11010519880315341x on file", "national_id", "11010519880315341x"),
    ("身份证：110105 19880315 341X", "national_id", "110105 19880315 341X"),
    ("card 6222021001121234", "bank_card", "6222021001121234"),
    ("年薪320万元", "salary", "320万元"),
    ("salary ¥3.2M per year", "salary", "3.2M"),
    ("salary 3,200,000 CNY", "salary", "3,200,000"),
    ("about 3.2 million yuan", "salary", "3.2 million"),
    ("mail john.smith@acme-corp.com now", "email", "john.smith@acme-corp.com"),
    ("key=sk-proj-9fQ2LmZx81VbN0aTy7\n", "api_key", "sk-proj-9fQ2LmZx81VbN0aTy7"),
    ("Patient: JOHN   SMITH", "name", "JOHN   SMITH"),
    ("diagnosed with Type 2 Diabetes.", "diagnosis", "Type 2 Diabetes"),
    ("budget is 150万", "budget", "150万"),
    ("SMITH, JOHN (employee)", "name", "SMITH, JOHN"),
    ("送货联系方式：一三九二二八八三三六六。", "phone", "一三九二二八八三三六六"),  # spelled in Chinese numerals
    ("电话幺三九-二二八八-三三六六", "phone", "幺三九-二二八八-三三六六"),
    ("Reach him on One Three Nine, two two eight eight, three three six six.", "phone",
     "One Three Nine, two two eight eight, three three six six"),  # spelled in English digit words
    ("card: six two two two - zero two one zero - zero one one two - one two three four", "bank_card",
     "six two two two - zero two one zero - zero one one two - one two three four"),
    ("ID one one oh one oh five one nine eight eight oh three one five three four one X", "national_id",
     "one one oh one oh five one nine eight eight oh three one five three four one X"),
    ("call +86 one three nine two two eight eight three three six six", "phone",
     "one three nine two two eight eight three three six six"),
    ("Assignee: Zhang Wei (finance).", "name", "Zhang Wei"),  # a Chinese name romanised, either order
    ("signed, WEI ZHANG", "name", "WEI ZHANG"),
    # glued into a snake_case name (a tool's name, a key): an underscore ends an identifier holding a digit
    ("tool lookup_sk-proj-9fQ2LmZx81VbN0aTy7_v2", "api_key", "sk-proj-9fQ2LmZx81VbN0aTy7"),
    ("server_10.108.147.93_down", "host_ip", "10.108.147.93"),
    # base64 glued onto an id prefix: read from the separator on
    ("tool call_MTM5MjI4ODMzNjY done", "phone", "_MTM5MjI4ODMzNjY"),
    ("see file-Sm9obiBTbWl0aA==", "name", "-Sm9obiBTbWl0aA=="),
    # an IBAN in groups, in either case: the whole of it, not only the account number inside it
    ("iban DE89 3704 0044 0532 0130 00 ok", "iban", "DE89 3704 0044 0532 0130 00"),
    ("IBAN: de89-3704-0044-0532-0130-00", "iban", "de89-3704-0044-0532-0130-00"),
    # a Chinese name with white space inside: surname and given name apart, every character apart
    ("姓名：张 伟，电话", "name", "张 伟"),
    ("联系人欧阳 娜娜，电话", "name", "欧阳 娜娜"),  # a compound surname apart, four characters
    ("| 客户 | 欧 阳 娜\n娜 |", "name", "欧 阳 娜\n娜"),
    ("| 欧阳 | 娜娜 | 13922883366 |", "name", "欧阳 | 娜娜"),  # surname and given name in two cells of a row
    ("欧阳,娜娜,13922883366", "name", "欧阳,娜娜"),
])
def test_literal_and_trivially_recoverable_forms_grade_1(text, field, evidence):
    assert (field, evidence, 1.0) in hits(text)


@pytest.mark.parametrize("text, field, evidence, grade", [
    ("手机 139****3366", "phone", "139****3366", 0.7),
    ("card 6222 **** **** 1234", "bank_card", "6222 **** **** 1234", 0.7),
    ("card **** **** **** 1234 on file", "bank_card", "**** **** **** 1234", 0.3),
    ("mail j***.smith@acme-corp.com", "email", "j***.smith@acme-corp.com", 0.7),
    ("card ending 1234 was charged", "bank_card", "1234", 0.3),
    ("OPENAI_API_KEY=sk-pro…aTy7 (masked by the agent)", "api_key", "sk-pro…aTy7", 0.3),
    ("银行卡尾号1234已绑定", "bank_card", "1234", 0.3),
    ("please ask Mr. Smith", "name", "Mr. Smith", 0.3),
    ("请联系张先生", "name", "张先生", 0.3),
    ("lives at 1234 Maplewood Ave, Springfield", "address", "1234 Maplewood Ave, Springfield", 1.0),  # USPS "Ave"
    ("ship to 1234 Maplewood Avenue, Sprinfgield", "address", "1234 Maplewood Avenue, Sprinfgield", 0.7),  # a typo
    ("notes taken by John S.; action items below", "name", "John S.", 0.7),  # surname cut to an initial
    ("开放10.108.147.x的防火墙", "host_ip", "10.108.147.x", 0.7),  # an x for a whole number group
    ("手机号139****3366已验证", "phone", "139****3366", 0.7),  # a masked number inside Chinese text
])
def test_masked_fragment_and_near_verbatim_grades(text, field, evidence, grade):
    assert (field, evidence, grade) in hits(text)


@pytest.mark.parametrize("text", [
    "phone [PHONE_001], id [GOVERNMENT_ID_002], card [CARD_1234]",
    "Lisbon and Liam went to Limerick",          # short value inside words
    "order 1423 shipped in 42x boxes on page 42",  # short number without context
    "tracking 1139228833661 and 213922883366",    # phone digits inside a longer number
    "We will review it next week",               # common word needs context
    "the year 1234 was long ago",                 # card tail without a card context word
    "Smith & Wesson catalogue",                   # surname without an honorific
    "**bold** markdown and ***",
    "salary 3,200 and 32,000,000",
    "编号一三九二二八八三三六六七已作废",            # Chinese-numeral digits inside a longer number
    "一三九二二八八 and 三三六六",                  # a run too short to be a number on its own
    "Zhang Weiming and Wei Zhangsun signed",       # a romanised name inside longer names
    "Johnny S. and John Sm. left early",           # an initial form continuing other words
    "upgrade 10.1.x to 10.2.x later",             # x groups of other numbers
    "one three nine two two eight eight three three six six six",    # English digit words: a longer number
    "one three nine two two eight eight and three three six six",    # a run broken by a word
    "张伟明是另一位同事",                           # a Han name inside a longer Han name
    "姓名：张 伟明，电话", "名单：张 伟 明、李 四",       # spaced out, inside a longer name
    "Assignee: Zhang Wei Ming", "ZHANG WEI-MING signed",  # romanised, inside a longer name
    "| 张 | 伟明 |", "张,伟 said", "纸三张，伟哥说",  # cells of a longer name; a two-character name apart by a comma
    "call_9fQ2LmZx81VbN0aTy7 and file-3kQ8zPw2Lr5TnV",  # ids of random base64 (they decode to no text)
    "王伟是另一位同事",
    "john_smith_report and jsk-proj-9fQ2LmZx81VbN0aTy7",  # a name glued with _, a key glued to a letter
])
def test_false_positive_traps(text):
    assert hits(text) == set()



def test_nothing_inside_a_placeholder_counts_but_a_form_beside_one_does():
    text = "card ending [CARD_1234], then card ending 1234"
    assert [(h.start, h.grade) for h in scan(text)] == [(text.rindex("1234"), 0.3)]
    assert hits("call [PHONE_001] or 139****3366") == {("phone", "139****3366", 0.7)}

def test_chinese_names_are_found_romanised_as_names_are_read():
    names = [_u("name", n, "person_name", f"P{k}", n) for k, n in enumerate(["曾志强", "欧阳娜娜", "沈伟"])]
    cascade = Cascade(names)

    def found(text):
        return {names[h.unit_index].value: text[h.start:h.end] for h in cascade.scan_text(text)}

    assert found("cc: Zeng Zhiqiang; Nana Ouyang") == {"曾志强": "Zeng Zhiqiang", "欧阳娜娜": "Nana Ouyang"}
    assert {h.detector for h in cascade.scan_text("cc: Zeng Zhiqiang")} == {"exact.pinyin"}
    assert found("approved by Shen, Wei") == {"沈伟": "Shen, Wei"}
    assert found("Ceng Zhiqiang, Ou Yangnana and Chen Wei are other people") == {}


def test_short_and_common_values_count_with_context():
    assert ("surname", "Li", 1.0) in hits("the manager Li approved it")
    assert ("age", "42", 1.0) in hits("his age: 42")
    assert ("nickname", "Will", 1.0) in hits("Will Turner's nickname is Will")


def test_evidence_offsets_point_at_original_characters():
    text = "Ｃｏｎｔａｃｔ:\n\n   JOHN\t\tSMITH  <JOHN.SMITH@ACME-CORP.COM>   ¥３，２００，０００"
    found = {UNITS[h.unit_index].field: text[h.start:h.end] for h in scan(text)}
    assert found["name"] == "JOHN\t\tSMITH"
    assert found["email"] == "JOHN.SMITH@ACME-CORP.COM"
    assert found["salary"] == "¥３，２００，０００"


def test_normalisation_views():
    assert normalize_text("ＡＢＣ\u3000 Straße\n\nx") == "abc strasse x"
    view = TextView.of("a  b ｃ")
    assert view.text == "a b c" and view.to_original(4, 5) == (5, 6)
    assert parse_amount("¥3.2M") == parse_amount("3,200,000") == parse_amount("320万元") == parse_amount(
        "3.2 million")
    assert parse_amount("CTX-002") is None


def test_payload_scan_respects_the_payload_task():
    from ec2audit.payloads import Payload, Segment
    other = Cascade(UNITS + [make_unit({"task_id": "t2", "entity_id": "X", "field": "phone", "value": "13800001111",
                                        "dimension": "contact"})])
    seg = [Segment(0, "tool", "tool_result", "13922883366 and 13800001111")]
    assert {f.unit_id for f in other.scan(Payload("p", seg, task_id="t2"))} == {"t2/X/phone"}
    assert {f.unit_id for f in other.scan(Payload("p", seg))} == {"t2/X/phone", "t1/CTX-002/phone"}


def test_best_hits_keeps_one_hit_per_span_and_drops_hits_inside_better_ones():
    import random

    from ec2audit.detect.cascade import best_hits
    from ec2audit.detect.finding import Hit

    rng = random.Random(7)
    for _ in range(200):
        hits = []
        for _ in range(rng.randint(0, 30)):
            start = rng.randint(0, 20)
            hits.append(Hit(rng.randint(0, 2), start, start + rng.randint(1, 8), "t", rng.choice([0.3, 0.7, 1.0])))
        best = {}
        for h in hits:
            key = h[:3]
            if key not in best or h.grade > best[key].grade:
                best[key] = h
        expected = sorted((h for h in best.values() if not any(
            o is not h and o.unit_index == h.unit_index and o.grade >= h.grade and o.start <= h.start
            and h.end <= o.end for o in best.values())), key=lambda h: (h.start, h.unit_index))
        assert sorted(best_hits(hits)) == sorted(expected)


def test_scanning_pauses_the_cyclic_collector_and_restores_the_callers_choice(monkeypatch):
    """The collector is off while a text is scanned (no full collection rescans the cascade on a long
    text) and comes back as the caller had it: on, or off when the caller turned it off."""
    import gc

    cascade = Cascade(UNITS)
    seen = []
    tier_hits = cascade.tier_hits
    monkeypatch.setattr(cascade, "tier_hits", lambda text: seen.append(gc.isenabled()) or tier_hits(text))
    assert gc.isenabled()
    assert cascade.scan_text("张伟 called from 13922883366")
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        cascade.scan_text("another text from 张伟")
        assert seen == [False, False] and not gc.isenabled()
    finally:
        gc.enable()
