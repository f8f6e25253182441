"""Issue 15: forms a reader recovers trivially (1.0), type-aware fuzzy matching (a typo, never another
value), fragments in context (0.3) — each with a positive and a trap, in en and zh."""

import pytest

from ec2audit.detect.cascade import build_cascade
from ec2audit.units import make_unit


def _u(field, value, dimension, entity="E1", name=None):
    return make_unit({"task_id": "t15", "entity_id": entity, "entity_name": name, "field": field, "value": value,
                      "dimension": dimension})


UNITS = [
    _u("iban", "GB82 WEST 1234 5698 7654 32", "financial", "A", "Ann Lee"),
    _u("name", "Ann Lee", "person_name", "A", "Ann Lee"),
    _u("email", "ann.lee77@example.org", "contact", "A", "Ann Lee"),
    _u("password", "Hunter2&Falcon!57", "credential", "A", "Ann Lee"),
    _u("card", "4539 1488 0343 2291", "financial", "A", "Ann Lee"),
    _u("ssn", "666-12-4410", "government_id", "A", "Ann Lee"),
    _u("name", "Priya Menon", "person_name", "P", "Priya Menon"),
    _u("name", "Rose Hill", "person_name", "R", "Rose Hill"),
    _u("diagnosis", "breast cancer stage III", "health", "R", "Rose Hill"),
    _u("address", "1842 Tamarack Lane, Apt 3B, Columbus, OH 43215", "location", "R", "Rose Hill"),
    _u("email", "mike.ross@example.org", "contact", "M", "Mike Ross"),
    _u("name", "Kwame Mensah", "person_name", "K", "Kwame Mensah"),
    _u("name", "Yuki Tanaka", "person_name", "Y", "Yuki Tanaka"),
    _u("host_ip", "118.25.66.173", "network", "S", "gateway"),
    _u("mac", "A4:5E:60:C2:19:7B", "network", "S", "gateway"),
    _u("name", "陈志强", "person_name", "C", "陈志强"),
    _u("name", "刘丽华", "person_name", "L", "刘丽华"),
    _u("address", "上海市徐汇区漕溪路48号", "location", "L", "刘丽华"),
    _u("employer", "深圳市蓝鲸智联科技有限公司", "business", "L", "刘丽华"),
    _u("email", "liulihua88@163.com", "contact", "L", "刘丽华"),
    _u("budget", "450万元", "business", "L", "刘丽华"),
    _u("phone", "13816274059", "contact", "L", "刘丽华"),
    _u("name", "陈雅琴", "person_name", "Q", "陈雅琴"),
    _u("passport", "NX-4829173", "government_id", "Q", "陈雅琴"),
    _u("ratio", "41.2%", "business", "Q", "陈雅琴"),
]
CASCADE = build_cascade(UNITS)


def grade(text, field, entity):
    """The best grade of one unit in a text, and its evidence."""
    best = (0.0, None)
    for h in CASCADE.scan_text(text):
        u = UNITS[h.unit_index]
        if u.field == field and u.entity_id == entity and h.grade > best[0]:
            best = (h.grade, text[h.start:h.end])
    return best


# -- §2 fuzzy means a typo, not another value ---------------------------------------------------------
@pytest.mark.parametrize("text, field, entity", [
    ("IBAN: GB82 WEST 1234 5698 7654 23 (transposed pair: another account)", "iban", "A"),
    ("Emergency contact: Kavya Menon, sister", "name", "P"),          # another given name
    ("Signed: Rose Hall, line manager", "name", "R"),                  # a one-letter-different surname
    ("Diagnosis: breast cancer stage II", "diagnosis", "R"),           # another stage
    ("lives at 1824 Tamarack Lane, Apt 3B, Columbus, OH 43215", "address", "R"),  # another house
    ("收件地址：上海市徐汇区漕溪路84号", "address", "L"),                   # 另一栋楼
    ("单位：深圳市蓝鲸智链科技有限公司", "employer", "L"),                   # 一字之差的另一家公司
    ("联系邮箱 ***@163.com", "email", "L"),                              # only a public mail domain left
    ("login emily.rutherford failed", "name", "A"),
])
def test_near_misses_are_other_values(text, field, entity):
    assert grade(text, field, entity) == (0.0, None)


@pytest.mark.parametrize("text, field, entity, expected", [
    ("IBAN: GB82WEST********765432", "iban", "A", 0.7),                 # masked forms keep their grade
    ("Diagnosis: Breast Cancer, Stage III", "diagnosis", "R", 1.0),
    ("ship to 1842 Tamarack Lane, Apt 3B, Columbus, OH", "address", "R", 0.7),
    ("Signed: Hill, Rose", "name", "R", 1.0),
    ("收件地址：上海徐汇漕溪路48号", "address", "L", 0.7),                   # 省略了市、区
    ("联系邮箱 li***88@163.com", "email", "L", 0.7),
])
def test_typos_omissions_and_masks_still_count(text, field, entity, expected):
    assert grade(text, field, entity)[0] == expected
