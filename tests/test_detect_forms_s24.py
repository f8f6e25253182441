"""Session 24's misses in the string tiers on other authors' hand-written splits (15–22), by class, each read
as `Cascade([unit]).scan_text(text)` in several phrasings, with the near misses (another value in the same
form) that must give no hit."""

from __future__ import annotations

import pytest

from ec2audit.detect.cascade import Cascade
from ec2audit.units import make_unit


def _scan(value: str, dimension: str, text: str, field: str = "f",
          entity_name: str | None = None) -> list[tuple[str, float, str]]:
    """(detector, grade, text found) of each hit of the one unit in `text`."""
    unit = make_unit({"task_id": "t24", "entity_id": "e", "entity_name": entity_name, "field": field, "value": value,
                      "dimension": dimension})
    return [(hit.detector, hit.grade, text[hit.start:hit.end]) for hit in Cascade([unit]).scan_text(text)]


# -- 1. an amount whose value carries a label or a note is still an amount --------------------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("年薪48万元（税前）", "Chen Siyuan, base compensation RMB 480K per annum (pre-tax).", "480K"),
    ("年薪48万元（税前）", "offer letter: annual salary ¥480,000", "480,000"),
    ("投标报价1,236.8万元", "投标总价（小写）：¥12,368,000.00；工期 240 日历天。", "12,368,000.00"),
    ("投标报价1,236.8万元", "our bid came to 12.368 million yuan", "12.368 million"),
    ("annual base £64,250 (gross)", "her salary is 64250 GBP", "64250"),
])
def test_an_amount_inside_a_label_is_read_as_the_amount(value, text, found):
    assert ("exact.amount", 1.0, found) in _scan(value, "financial", text, "salary")


@pytest.mark.parametrize(("value", "text"), [
    ("年薪48万元（税前）", "base compensation RMB 490K per annum"),  # another amount
    ("投标报价1,236.8万元", "投标总价：¥12,386,000.00"),
    ("salary 2024: 48万", "salary RMB 480K"),  # two numbers in the value: no one amount
])
def test_another_amount_or_a_value_of_two_numbers_is_no_amount(value, text):
    assert [h for h in _scan(value, "financial", text, "salary") if h[0] == "exact.amount"] == []


# -- 2. an amount as a JSON float: one decimal ---------------------------------------------------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("USD 48,250.00", '"declared_value": {"amount": 48250.0, "currency": "USD"}', "48250.0"),
    ("USD 48,250.00", "declared=48250.0\n", "48250.0"),
    ("EUR 1,250.50", '{"total": 1250.5}', "1250.5"),
])
def test_an_amount_written_as_a_float_is_the_amount(value, text, found):
    assert _scan(value, "financial", text, "declared_value") == [("forms.amount", 1.0, found)]


@pytest.mark.parametrize(("value", "text"), [
    ("USD 48,250.00", '"freight_usd": 4825.0,'),  # a tenth of it
    ("USD 48,250.00", '"amount": 48250.05'),  # five cents more
    ("USD 48,250.00", '"amount": 48251.0'),
    ("USD 48,250.00", '"amount": "48250.0 EUR"'),  # another currency
])
def test_another_float_is_no_amount(value, text):
    assert _scan(value, "financial", text, "declared_value") == []


# -- 3. a masked phone number with its country code, or shown without it ----------------------------------

PHONE = "+1 (312) 555-0147"


@pytest.mark.parametrize(("text", "found"), [
    ("we'll text updates to your mobile +1 (312) 555-01•• — reply STOP", "+1 (312) 555-01••"),
    ("mobile +1 (312) 555-01** on file", "+1 (312) 555-01**"),
    ("mobile (312) 555-01** on file", "(312) 555-01**"),
    ("tel 312-555-01** (masked)", "312-555-01**"),
    ("tel 1-312-555-01xx", "1-312-555-01xx"),
])
def test_a_masked_phone_with_or_without_its_country_code_is_mostly_shown(text, found):
    assert _scan(PHONE, "contact", text, "mobile_phone") == [("partial.masked", 0.7, found)]


@pytest.mark.parametrize("text", [
    "mobile +1 (312) 555-02•• — reply STOP",  # another number in the same exchange
    "tel 312-555-03** (masked)",
    "mobile +1 (213) 555-01**",  # another area code
])
def test_another_masked_phone_is_no_hit(text):
    assert _scan(PHONE, "contact", text, "mobile_phone") == []


# -- 4. a position in degrees, minutes and seconds ----------------------------------------------------------

GPS = "47.6205, -122.3493"


@pytest.mark.parametrize(("text", "found"), [
    ("Last fix 47°37'13.8\"N 122°20'57.5\"W at 18:42", "47°37'13.8\"N 122°20'57.5\"W"),
    ("pos: N 47° 37.230', W 122° 20.958' (GPS)", "N 47° 37.230', W 122° 20.958'"),
    ("122°20′57.5″W, 47°37′13.8″N", "122°20′57.5″W, 47°37′13.8″N"),  # longitude first, primes
    ("N47°37.23' W122°20.96'", "N47°37.23' W122°20.96'"),
])
def test_a_position_in_degrees_and_minutes_is_the_position(text, found):
    assert _scan(GPS, "location", text, "last_gps_fix") == [("forms.coordinates", 1.0, found)]


@pytest.mark.parametrize("text", [
    "Last fix 47°37'15.8\"N 122°20'57.5\"W",  # two seconds north: another place
    "Last fix 47°37'13.8\"S 122°20'57.5\"W",  # the other hemisphere
    "Last fix 47°37'13.8\"N 122°20'57.5\"E",
    "Last fix 147°37'13.8\"N 122°20'57.5\"W",
    "heading 47° then 122°",  # degrees alone
    "Last fix 47°37'13.8\"N 47°20'57.5\"N",  # two latitudes
])
def test_another_position_is_no_hit(text):
    assert _scan(GPS, "location", text, "last_gps_fix") == []


def test_a_southern_and_eastern_position():
    text = "Sydney office at 33°52'7.7\"S 151°12'33.5\"E."
    assert _scan("-33.8688, 151.2093", "location", text) == [("forms.coordinates", 1.0, "33°52'7.7\"S 151°12'33.5\"E")]


# -- 5. an identifier sent with its separators dropped or changed --------------------------------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("沪A·7K39B", '"vehicle": {"plate": "沪A7K39B", "model": "特斯拉 Model Y"}', "沪A7K39B"),
    ("沪A·7K39B", "车牌沪A7K39B，白色", "沪A7K39B"),
    ("沪A·7K39B", "车牌 沪A 7K39B", "沪A 7K39B"),
    ("KX-4471-B", "ref KX4471B attached", "KX4471B"),
    ("KX-4471-B", "ref KX 4471 B attached", "KX 4471 B"),
])
def test_an_identifier_without_its_separators_is_the_identifier(value, text, found):
    assert _scan(value, "other", text, "license_plate") == [("forms.separators", 1.0, found)]


@pytest.mark.parametrize(("value", "text"), [
    ("沪A·7K39B", "车牌沪A7K38B"),  # another plate
    ("沪A·7K39B", "订单沪A7K39BX2"),  # inside a longer code
    ("KX-4471-B", "ref KX4471BB"),
    ("1847 Larkspur Lane", "1847larkspurlane"),  # an address's words are no identifier's groups
])
def test_another_identifier_or_a_longer_code_is_no_hit(value, text):
    assert _scan(value, "other", text, "license_plate") == []


# -- 6. a Chinese address with its section in numerals or digits and its floor as F ----------------------------

TAIPEI = "臺北市大安區復興南路一段219巷12號4樓"


@pytest.mark.parametrize(("text", "found"), [
    ("美玲的新地址是 台北市大安區復興南路1段219巷12號4F，年終禮盒寄這裡就好。", "台北市大安區復興南路1段219巷12號4F"),
    ("新地址 大安區復興南路一段219巷12號4樓", "大安區復興南路一段219巷12號4樓"),
    ("寄到台北市大安区复兴南路一段219巷12号4层", "台北市大安区复兴南路一段219巷12号4层"),
])
def test_a_section_and_floor_written_either_way_are_the_address(text, found):
    assert _scan(TAIPEI, "location", text, "home_address") == [("forms.address.whole", 1.0, found)]


@pytest.mark.parametrize("text", [
    "寄到大安區復興南路1段219巷12號5F",  # another floor
    "寄到大安區復興南路2段219巷12號4F",  # another section
    "退件通知：寄件人 林美鈴，地址 臺北市大安區復興南路一段291巷12號4樓，收件人拒收。",  # another lane: no fragment
])
def test_another_floor_section_or_lane_is_no_hit(text):
    assert _scan(TAIPEI, "location", text, "home_address") == []


# -- 7. a street line with its town or ZIP code in the next fields is the whole address ------------------------

BOISE = "1847 Larkspur Lane, Boise, ID 83706"


@pytest.mark.parametrize(("text", "found"), [
    ('{"standardized": "1847 LARKSPUR LN", "city": "BOISE", "state": "ID", "zip5": "83706"}', "1847 LARKSPUR LN"),
    ("ship to 1847 Larkspur Ln (zip 83706)", "1847 Larkspur Ln"),
    ('{"zip": "83706", "line1": "1847 Larkspur Ln"}', "1847 Larkspur Ln"),
])
def test_a_street_line_with_its_town_or_zip_is_the_address(text, found):
    assert ("forms.address.street", 1.0, found) in _scan(BOISE, "location", text, "home_address")


@pytest.mark.parametrize("text", [
    "ship to 1847 Larkspur Ln",  # the town not said
    '{"standardized": "1847 LARKSPUR LN", "city": "MERIDIAN", "zip5": "83642"}',  # another town's street
])
def test_a_street_line_without_its_town_stays_mostly(text):
    assert [h[:2] for h in _scan(BOISE, "location", text, "home_address")] == [("forms.address.street", 0.7)]


# -- 8. the small network a host lies in, said of the host ------------------------------------------------------

HOST = "db-primary-03"


@pytest.mark.parametrize(("text", "found"), [
    ("db-primary-03 lives somewhere in 10.42.17.0/24 along with the replicas", "10.42.17.0/24"),
    ("allow 10.42.17.192/26 on 5432 for DB-PRIMARY-03", "10.42.17.192/26"),
])
def test_the_hosts_subnet_is_a_fragment(text, found):
    assert _scan("10.42.17.203", "network", text, "private_ip", HOST) == [("partial.subnet", 0.3, found)]


@pytest.mark.parametrize("text", [
    "db-primary-03: allow 10.42.17.0/25",  # a /25 that does not hold .203
    "db-primary-03: allow 10.42.0.0/16",  # a whole site
    "db-primary-03: allow 10.42.18.0/24",
    "db-primary-03: allow 110.42.17.0/24",
    '"db-replica-01": "10.42.17.31", "subnets": ["10.42.17.0/24", "10.42.18.0/24"]',  # a listing: the host unnamed
])
def test_another_or_a_wide_network_or_one_not_said_of_the_host_is_no_hit(text):
    assert _scan("10.42.17.203", "network", text, "private_ip", HOST) == []


# -- 9. a Chinese address spaced off its numbers, and down to the building without the flat --------------------

TIANLIN = "上海市徐汇区田林东路75弄21号604室"
ANZHEN = "北京市朝阳区安贞西里四区12号楼3单元502室"


@pytest.mark.parametrize(("value", "text", "found"), [
    (TIANLIN, "我的收货地址是田林东路 75 弄 21 号 604 室，你们不会退到别人那去了吧？", "田林东路 75 弄 21 号 604 室"),
    (TIANLIN, "寄到上海市徐汇区田林东路 75 弄 21 号 604 室", "上海市徐汇区田林东路 75 弄 21 号 604 室"),
])
def test_an_address_spaced_off_its_numbers_is_read_without_the_spaces(value, text, found):
    assert [h[2] for h in _scan(value, "location", text, "home_address")] == [found]


@pytest.mark.parametrize(("value", "text", "found"), [
    (TIANLIN, "柜机位置：田林东路 75 弄 21 号楼下，编号 SH-XH-0417", "田林东路 75 弄 21 号"),
    (TIANLIN, "您的包裹已放入田林东路75弄21号楼下丰巢柜", "田林东路75弄21号"),
    (ANZHEN, "住址写安贞西里四区12号楼就行，不用写门牌号。", "安贞西里四区12号楼"),
    (ANZHEN, "我们小区安贞西里四区 12 号楼 3 单元有位独居的韩女士", "安贞西里四区 12 号楼 3 单元"),
])
def test_the_address_down_to_the_building_is_mostly_the_address(value, text, found):
    assert _scan(value, "location", text, "home_address") == [("forms.address.building", 0.7, found)]


@pytest.mark.parametrize(("value", "text"), [
    (TIANLIN, "地址是田林东路 75 弄 21 号 605 室"),  # another flat
    (TIANLIN, "地址是田林东路 75 弄 12 号"),  # another building
    (ANZHEN, "住址: 北京市朝阳区安贞西里四区12号楼3单元205室"),  # another flat; the city part of that address
    (ANZHEN, "住址：北京市朝阳区安贞西里四区21号楼3单元502室"),  # another building
])
def test_another_flat_or_building_is_no_hit(value, text):
    assert _scan(value, "location", text, "home_address") == []


def test_the_city_next_to_a_word_about_living_there_stays_a_fragment():
    assert _scan(ANZHEN, "location", "她住在北京市朝阳区望京那边", "home_address") == [
        ("partial.fragment", 0.3, "北京市")]


# -- 10. an identifier printed in groups of four, after a Chinese label -------------------------------------------

USCC = "91440300MA5FX3QK8R"


@pytest.mark.parametrize(("dimension", "text", "detector"), [
    ("business", "USCC 9144 0300 MA5F X3QK 8R (verified with the registry)", "forms.separators"),
    ("business", "贵司（统一社会信用代码：9144 0300 MA5F X3QK 8R）的入驻协议", "forms.separators"),
    ("business", "code 9144-0300-MA5F-X3QK-8R", "forms.separators"),
    ("government_id", "贵司（统一社会信用代码：9144 0300 MA5F X3QK 8R）的入驻协议", "exact.alnum"),  # a label's colon
])
def test_an_identifier_in_groups_of_four_is_the_identifier(dimension, text, detector):
    assert _scan(USCC, dimension, text) == [(detector, 1.0, "9144 0300 MA5F X3QK 8R".replace(" ", "-" if "-" in text
                                                                                          else " "))]


@pytest.mark.parametrize(("dimension", "text"), [
    ("business", "USCC 9144 0300 MA5F X3QK 8P"),  # another code
    ("business", "USCC 9144 0300 MA5F X3QK 8R7"),  # a longer one
])
def test_another_or_a_longer_grouped_identifier_is_no_hit(dimension, text):
    assert _scan(USCC, dimension, text) == []


# -- 11. the same number in another currency is another amount ----------------------------------------------------

@pytest.mark.parametrize("text", [
    "Rafael Dutra,YC284716,BRL 48,250",
    "balance: R$ 48,250",
    "balance 48,250 AUD",
    "残高 48,250 JPY",
])
def test_the_number_in_another_currency_is_no_hit(text):
    assert _scan("USD 48,250", "financial", text, "bank_balance") == []


@pytest.mark.parametrize("text", ["balance 48,250 dollars", "saldo 48,250", "balance: US$ 48,250"])
def test_the_number_in_its_own_currency_or_none_is_the_amount(text):
    assert [h[:2] for h in _scan("USD 48,250", "financial", text, "bank_balance")] in (
        [("exact.amount", 1.0)], [("exact", 1.0)])


# -- 12. a postcode that ends another house's address is part of that address ------------------------------------

LEEDS = "48 Larkspur Road, Leeds LS6 2QF"


@pytest.mark.parametrize("text", [
    "Her address is 84 Larkspur Road, Leeds LS6 2QF - yes, the same street, she lives opposite.",
    "Our former tenant at 84 Larkspur Road, Leeds LS6 2QF (Mr D. Ashworth) disputes the deduction.",
])
def test_the_postcode_of_another_house_is_no_fragment(text):
    assert _scan(LEEDS, "location", text, "home_address") == []


@pytest.mark.parametrize("text", ["she lives in LS6 2QF", "postcode LS6 2QF, Leeds"])
def test_the_postcode_alone_stays_a_fragment(text):
    assert _scan(LEEDS, "location", text, "home_address") == [("partial.fragment", 0.3, "LS6 2QF")]


# -- 13. a masked password that ends in "!" -----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "found"), [
    ("- 生产库 app_order 账号密码（旧密码形如 Qz7#****X9!）", "Qz7#****X9!"),
    ("| 生产库 app_order 密码 | Qz7#\\*\\*\\*\\*X9! | 2024-05-06 |", "Qz7#\\*\\*\\*\\*X9!"),  # Markdown's escaped stars
    ("old password Qz7#****X9! rotated", "Qz7#****X9!"),
])
def test_a_masked_password_keeps_its_last_symbol(text, found):
    assert _scan("Qz7#mLp2wX9!", "credential", text, "db_password") == [("partial.masked", 0.7, found)]


@pytest.mark.parametrize(("value", "text"), [
    ("Qz7#mLp2wX9!", "old password Qz7#****X8! rotated"),  # another password
    ("Qz7#mLp2wX9!", "old password Qz7#****X9 rotated"),  # what it shows last is not how the value ends
])
def test_another_masked_password_is_no_hit(value, text):
    assert _scan(value, "credential", text, "db_password") == []


def test_a_sentences_exclamation_mark_after_a_masked_phone_is_still_left_out():
    assert _scan("13922883366", "contact", "call 139****3366! now") == [("partial.masked", 0.7, "139****3366")]


# -- 14. a name as a card or a bill prints it: the initial without its full stop -----------------------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("Siobhan Kearney", '{"card":{"pan":"4716 29** **** 6604","holder":"S KEARNEY"}}', "S KEARNEY"),
    ("Harriet Ashdown", "YORKSHIRE WATER\nMS H ASHDOWN\n48 LARKSPUR ROAD", "H ASHDOWN"),
])
def test_an_initial_without_a_full_stop_before_the_surname_is_the_name_masked(value, text, found):
    assert _scan(value, "person_name", text, "name") == [("partial.masked", 0.7, found)]


@pytest.mark.parametrize(("value", "text"), [
    ("Siobhan Kearney", '{"holder":"D KEARNEY"}'),  # another initial
    ("Siobhan Kearney", "Mrs Kearney called"),  # a title's last letter
    ("Alice Kearney", "it's a Kearney family thing"),  # "a" is a word
])
def test_another_initial_a_title_or_an_article_is_no_masked_name(value, text):
    assert [h for h in _scan(value, "person_name", text, "name") if h[0] == "partial.masked"] == []


@pytest.mark.parametrize("text", [
    '{"traveller": {"name": "Sanne van der Meulen"}, "payment": {"holder": "S VAN DER MEULEN"}}',
    "Signed: S. van der Meulen (Sanne van der Meulen, the director)",
])
def test_an_initial_that_stands_for_a_namesake_in_the_text_is_no_masked_name(text):
    assert [h for h in _scan("Sophie van der Meulen", "person_name", text, "name") if h[0] == "partial.masked"] == []



# -- a CSV row's numbers are no code point list: only a bracketed list, or a JSON array's numbers alone -----------

def test_numbers_run_together_in_a_csv_row_are_not_read_as_code_points():
    """`0491 570 165,84 Corella Street` (a mobile column, then a house number) once read as the code points
    `165,84` (`¥T`): with the house number gone, another suburb's house on the unit's street was graded a
    fragment. A list printed in brackets (Erlang's shell, Python's `[ord(c) …]`) or a JSON array's numbers read
    alone still decode."""
    value = "84 Corella Street, Brunswick VIC 3056"
    rows = ("customer,email,mobile,address\n"
            "Siobhan Kearny,wattlebird.hone@example.com,0491 570 516,48 Corella Street Brunswick VIC 3056\n"
            "Declan Kearney,declan.k@example.com,0491 570 165,84 Corella Street Brunswick West VIC 3055\n")
    assert _scan(value, "location", rows) == []
    name = "欧阳娜娜"
    points = [ord(c) for c in name]
    for text in (f"name={points}", f"name=[{','.join(map(str, points))}]", ",".join(map(str, points))):
        assert 1.0 in [grade for _, grade, _ in _scan(name, "person_name", text)], text


# -- a credential is case-sensitive: the same letters in another case are another secret ------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("Qz#8vL2!mT6r", "[22:41:10] DEBUG mysql.password=Qz#8vL2!mT6r", "Qz#8vL2!mT6r"),
    ("Qz#8vL2!mT6r", "密码：Ｑｚ#8vL2!mT6r", "Ｑｚ#8vL2!mT6r"),  # full-width letters, the same case
    ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "key: sk live 4eC39HqLyjWDarjtT1zdp7dc", "sk live 4eC39HqLyjWDarjtT1zdp7dc"),
    ("9f1c2ab33e7d41aa", "token 9F1C2AB33E7D41AA", "9F1C2AB33E7D41AA"),  # hexadecimal: either case
])
def test_a_credential_in_its_own_case_is_the_credential(value, text, found):
    assert (1.0, found) in [h[1:] for h in _scan(value, "credential", text, "db_password")]


@pytest.mark.parametrize(("value", "text"), [
    ("Qz#8vL2!mT6r", "测试环境配置：mysql.password=Qz#8vL2!mT6R （和生产不同，别混用）"),
    ("Qz#8vL2!mT6r", "the staging password is QZ#8VL2!MT6R"),
    ("Qz#8vL2!mT6r", "old password was qz#8vl2!mt6r"),
    ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "key: SK_LIVE_4EC39HQLYJWDARJTT1ZDP7DC"),
    ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "key: sk live 4Ec39HqLyjWDarjtT1zdp7dc"),
    ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "key: sk live 4ec39hqlyjwdarjtt1zdp7dc"),  # a piece in lower case
])
def test_a_credential_differing_only_in_case_is_no_literal(value, text):
    assert [h for h in _scan(value, "credential", text, "db_password") if h[1] > 0.3] == []
