"""Issue 33: the forms values take in traffic nobody here wrote (`ec2audit/detect/forms/`) — each with a
positive and a trap, in en and zh — and item 1's forms found at 1.0 through the `audit` CLI."""

import json

import polars as pl
import pytest
from click.testing import CliRunner

from ec2audit.audit import audit
from ec2audit.cli import main
from ec2audit.detect.cascade import build_cascade
from ec2audit.detect.forms import FORMS, build_forms
from ec2audit.detect.patterns import PatternIndex
from ec2audit.payloads import payload_from_record
from ec2audit.units import make_unit, write_units


def _u(field, value, dimension, entity, name=None):
    return make_unit({"task_id": "t33", "entity_id": entity, "entity_name": name, "field": field, "value": value,
                      "dimension": dimension})


UNITS = [
    _u("name", "Maria Kessler", "person_name", "M", "Maria Kessler"),
    _u("email", "maria.kessler@example.org", "contact", "M", "Maria Kessler"),
    _u("phone", "+1 312 555 0147", "contact", "M", "Maria Kessler"),
    _u("dob", "1987-03-08", "other", "M", "Maria Kessler"),
    _u("salary", "€74,500", "financial", "M", "Maria Kessler"),
    _u("address", "1842 Tamarack Lane, Apt 3B, Columbus, OH 43215", "location", "M", "Maria Kessler"),
    _u("ssn", "666-12-4410", "government_id", "M", "Maria Kessler"),
    _u("name", "David Okonkwo", "person_name", "D", "David Okonkwo"),
    _u("name", "Hope Lindqvist", "person_name", "H", "Hope Lindqvist"),
    _u("name", "张晓燕", "person_name", "Z", "张晓燕"),
    _u("phone", "13900112233", "contact", "Z", "张晓燕"),
    _u("id_number", "330106199007231428", "government_id", "Z", "张晓燕"),
    _u("dob", "1990年7月23日", "other", "Z", "张晓燕"),
    _u("budget", "3280万元", "business", "Z", "张晓燕"),
    _u("address", "浙江省杭州市西湖区文三路90号东部软件园5幢301室", "location", "Z", "张晓燕"),
    _u("name", "司马晓明", "person_name", "S", "司马晓明"),
    _u("name", "李明华", "person_name", "L", "李明华"),
]


def grade(text, field, entity, units=UNITS):
    """The best grade of one unit in a text, and its evidence (the cascade is built in the test, so
    `make mutation` runs it against the forms' construction)."""
    best = (0.0, None)
    for h in build_cascade(units).scan_text(text):
        u = units[h.unit_index]
        if u.field == field and u.entity_id == entity and h.grade > best[0]:
            best = (h.grade, text[h.start:h.end])
    return best


POSITIVES = [
    # (1) tool output carries: literal backslash escapes, labels glued on, country codes, invisible characters,
    # look-alike letters from another script
    ('{"stdout": "name:\\\\nMaria Kessler\\\\nstatus: active"}', "name", "M", 1.0, "Maria Kessler"),
    ('{"result": "手机:\\\\n13900112233"}', "phone", "Z", 1.0, "13900112233"),
    ("contact=tel13900112233;src=crm", "phone", "Z", 1.0, "13900112233"),
    ("forwarded from 8613900112233@s.whatsapp.net", "phone", "Z", 1.0, "13900112233"),
    ("chat link https://wa.me/13125550147 (customer)", "phone", "M", 1.0, "13125550147"),
    ("reply to maria.kess\u200bler@example.org", "email", "M", 1.0, "maria.kess\u200bler@example.org"),
    ("身份证号 3301061990\u00ad07231428", "id_number", "Z", 1.0, "3301061990\u00ad07231428"),
    ("Mаriа Kеssler signed the form", "name", "M", 1.0, "Mаriа Kеssler"),  # Cyrillic а and е
    ("邮箱 mаria.kessler@exаmple.org 已验证", "email", "M", 1.0, "mаria.kessler@exаmple.org"),
    # (2) dates
    ("DOB: 03/08/1987", "dob", "M", 1.0, "03/08/1987"),
    ("Geburtsdatum 08.03.1987", "dob", "M", 1.0, "08.03.1987"),
    ("born on March 8th, 1987 in Ohio", "dob", "M", 1.0, "March 8th, 1987"),
    ("dob=1987-03-08T00:00:00Z", "dob", "M", 1.0, "1987-03-08"),
    ("出生日期：1990-07-23", "dob", "Z", 1.0, "1990-07-23"),
    ("生日 1990.7.23，属马", "dob", "Z", 1.0, "1990.7.23"),
    # (3) amounts in locale formats
    ("Jahresgehalt 74 500,00 € brutto", "salary", "M", 1.0, "74 500,00"),
    ("项目预算 3,280万，已审批", "budget", "Z", 1.0, "3,280万"),
    # (4) OCR confusions
    ("SSN 666-l2-44lO (scanned)", "ssn", "M", 1.0, "666-l2-44lO"),
    ("身份证 33O1O6199OO7231428", "id_number", "Z", 1.0, "33O1O6199OO7231428"),
    # (5) PDF extraction breaks
    ("Applicant: Maria Kess-\nler, Columbus", "name", "M", 1.0, "Maria Kess-\nler"),
    ("e-mail maria.kessler@exam\nple.org", "email", "M", 1.0, "maria.kessler@exam\nple.org"),
    ("住址为浙江省杭州市西湖区文三路90\n号东部软件园5幢301室，电话未留", "address", "Z", 1.0, None),  # wrapped
    # (6) addresses: postal abbreviations, Chinese without the province or in another order
    ("ship to 1842 Tamarack Ln, Apt 3B, Columbus, OH 43215", "address", "M", 1.0, None),
    ("ship to 1842 Tamarack Ln #3B Columbus OH 43215", "address", "M", 1.0, "1842 Tamarack Ln #3B Columbus OH 43215"),
    ("the parcel for 1842 Tamarack Ln. was left outside", "address", "M", 0.7, "1842 Tamarack Ln."),
    ("寄到杭州市西湖区文三路90号东部软件园5幢301室", "address", "Z", 1.0, None),
    ("文三路90号东部软件园5幢301室（杭州西湖区）", "address", "Z", 1.0, "文三路90号东部软件园5幢301室"),
    ("送到文三路90号东部软件园5幢301室", "address", "Z", 0.7, "文三路90号东部软件园5幢301室"),
    # (7) names spelled by handles
    ("From: maria.kessler@example.org", "name", "M", 1.0, "maria.kessler"),
    ("login maria.kessler77 failed", "name", "M", 1.0, "maria.kessler"),
    ("sshd: accepted key for dokonkwo from 10.0.0.8", "name", "D", 0.7, "dokonkwo"),
    ("发件人 zhangxiaoyan88@qq.com", "name", "Z", 1.0, "zhangxiaoyan"),
    ("git log --author=zhangxy", "name", "Z", 0.7, "zhangxy"),
    # (8) masked compound surnames, court-style anonymisation
    ("当事人司马晓*，男", "name", "S", 0.7, "司马晓*"),
    ("被告人李某某，男，1979年生", "name", "L", 0.3, "李某某"),
    ("原告李某华诉称", "name", "L", 0.7, "李某华"),
]


@pytest.mark.parametrize("text, field, entity, expected, evidence", POSITIVES)
def test_forms_found(text, field, entity, expected, evidence):
    found, where = grade(text, field, entity)
    assert found == expected
    if evidence is not None:
        assert where == evidence


TRAPS = [
    ("ORD13900112233 shipped", "phone", "Z"),                         # digits inside a reference number
    ("id 123413900112233@s.whatsapp.net", "phone", "Z"),              # four digits before it: a longer number
    ("Hope you are well, and thanks for the call", "name", "H"),      # a common word that is a given name
    ("Dear Mr. Lindberg,", "name", "H"),                              # a title with another surname
    ("Columbus, OH 43215", "address", "M"),                           # a city and postcode alone
    ("杭州市西湖区", "address", "Z"),                                     # the district alone
    ("lives at 1824 Tamarack Ln", "address", "M"),                    # another house
    ("moved to 1842 Tamarack Ln, Dayton OH 45402", "address", "M"),   # the same street line in another town
    ("1842 Tamarack Ln, Apt 7C, Columbus", "address", "M"),           # another flat
    ("身份证 330106199007231482", "id_number", "Z"),                     # another number (fails GB 11643)
    ("身份证 330106199OO7231482", "id_number", "Z"),                     # OCR'd, still another number
    ("DOB: 03/08/1988", "dob", "M"),                                  # another year
    ("出生日期 1990年7月25日", "dob", "Z"),                                  # another day
    ("ID 330106199007231428 holds the birth date", "dob", "Z"),       # a date inside an ID number
    ("Gehalt 74 050,00 €", "salary", "M"),                            # a near amount
    ("Salary USD 74 500,00", "salary", "M"),                          # the figure in another currency
    ("预算 3,820万", "budget", "Z"),                                      # transposed digits
    ("login m.kesslerova@example.org", "name", "M"),                 # another person's handle
    ("kessler@example.org wrote", "name", "M"),                       # the surname alone names many
    ("被告人王某某，男", "name", "L"),                                       # another surname
    ("原告李某伟诉称", "name", "L"),                                        # another person's masked name
    ("当事人司马光*", "name", "S"),                                        # another given name
    ("Mаrkus Kеssler signed", "name", "M"),                           # look-alikes spelling another name
]


@pytest.mark.parametrize("text, field, entity", TRAPS)
def test_traps_stay_at_zero(text, field, entity):
    assert grade(text, field, entity) == (0.0, None)


def test_value_split_across_two_parts_of_one_message_is_found_in_both():
    request = {"messages": [{"role": "tool", "tool_call_id": "c1", "content": [
        {"type": "text", "text": "客户手机 139001"}, {"type": "text", "text": "12233，已回访"}]},
        {"role": "user", "content": "电话 1390011"}, {"role": "user", "content": "2233 不是她的"}]}
    payload = payload_from_record({"id": "p1", "task_id": "t33", "request": request}, "p1")
    result = audit([payload], UNITS)
    rows = [r for r in result.finding_rows if r[2] == "t33/Z/phone"]
    assert sorted((r[8], r[12], r[13]) for r in rows) == [(0, 5, 11), (1, 0, 5)]  # segments 0 and 1 only
    texts = [s.text for s in payload.segments]
    assert [texts[r[8]][r[12]:r[13]] for r in sorted(rows, key=lambda r: r[8])] == ["139001", "12233"]
    assert result.grades["t33"]["t33/Z/phone"] == 1.0


def test_audit_cli_grades_tool_output_forms_at_one(tmp_path):
    """Item 1 through the user's path: a JSONL log of requests whose tool results carry the forms."""
    write_units(UNITS, tmp_path / "units.jsonl")
    results = ['{"stdout": "name:\\\\nMaria Kessler"}', "tel13900112233", "8613900112233@s.whatsapp.net",
               "maria.kess\u200bler@example.org", "司马晓明的邮箱 mаria.kessler@exаmple.org"]
    records = [{"id": f"r{k}", "task_id": "t33", "episode": f"e{k}", "request": {"messages": [
        {"role": "tool", "tool_call_id": "c", "content": text}]}} for k, text in enumerate(results)]
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                                      encoding="utf-8")
    out = tmp_path / "f.parquet"
    done = CliRunner().invoke(main, ["audit", str(tmp_path / "p.jsonl"), "--units", str(tmp_path / "units.jsonl"),
                                     "--out", str(out)])
    assert done.exit_code == 0, done.output
    rows = pl.read_parquet(out).filter(pl.col("grade") == 1.0)
    found = {(r["payload_id"], r["field"], r["entity_id"]) for r in rows.iter_rows(named=True)}
    assert {("r0", "name", "M"), ("r1", "phone", "Z"), ("r2", "phone", "Z"), ("r3", "email", "M"),
            ("r4", "email", "M")} <= found


def test_every_form_is_one_registered_module():
    build_forms([], PatternIndex())  # imports the package's modules
    assert {"escapes", "invisible", "confusables", "glued", "pdf_breaks", "ocr", "dates", "amounts", "addresses",
            "handles", "cjk_names"} <= set(FORMS)


def test_forms_set_is_its_draft_converted(tmp_path, monkeypatch):
    """The hand-written set beside the others (`tests/data/leaks-forms`): `cases.jsonl` is exactly what
    `convert.py` makes of the draft, `leak_eval` reads every case (each grades its task's units), and there
    are at least 150."""
    import importlib.util
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    from ec2audit.units import read_units

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("leak_eval", root / "benchmarks" / "leak_eval.py")
    leak_eval = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "leak_eval", leak_eval)  # its dataclasses look their module up
    spec.loader.exec_module(leak_eval)
    here = root / "tests" / "data" / "leaks-forms"
    for name in ("draft.txt", "convert.py", "units.jsonl"):
        shutil.copy(here / name, tmp_path / name)
    done = subprocess.run([sys.executable, str(tmp_path / "convert.py")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip().endswith("0 errors"), done.stdout
    assert (tmp_path / "cases.jsonl").read_text(encoding="utf-8") == (here / "cases.jsonl").read_text(encoding="utf-8")
    cases = leak_eval.read_cases(here / "cases.jsonl", read_units(here / "units.jsonl"))
    assert len(cases) >= 150


def test_interceptor_redacts_tool_output_forms():
    """The interceptor's redaction reads the same cascade: item 1's forms leave the request as placeholders."""
    from ec2audit.intercept.redact import EpisodeMap, Redactor

    carried = ['{"stdout": "phone:\\\\n13900112233"}', "contact=tel13900112233", "8613900112233@s.whatsapp.net",
               "mail maria.kess\u200bler@example.org", "signed Mаriа Kеssler"]
    body = {"model": "m", "messages": [{"role": "tool", "tool_call_id": f"c{k}", "content": text}
                                       for k, text in enumerate(carried)]}
    redacted, rows, count = Redactor(build_cascade(UNITS)).redact(body, EpisodeMap())
    sent = [m["content"] for m in redacted["messages"]]
    assert count >= 5
    assert not any("13900112233" in s or "kess\u200bler" in s or "Mаriа Kеssler" in s for s in sent), sent
    assert all("[" in s for s in sent), sent
