"""Session 26's misses and false hits in the string tiers on other authors' hand-written splits (29–34), by class,
each read as `Cascade([unit]).scan_text(text)` in several phrasings, with the near misses (another value in the same
form, a value one digit off, a topic-only mention) that must give no hit."""

from __future__ import annotations

import pytest
from test_detect_forms_s24 import _scan

# -- 1. a phone number in its national format: the trunk prefix 0 where the country code stood --------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("+44 7700 900461", "The number on his profile is 07700900461 — can you check it?", "07700900461"),
    ("+44 7700 900461", "Leah's cell is 07700 900461 if the wire fails.", "07700 900461"),
    ("+49 151 23456789", "Handy: 0151 23456789", "0151 23456789"),
    ("+33 6 12 34 56 78", "portable 06 12 34 56 78", "06 12 34 56 78"),
])
def test_a_phone_in_its_national_format_is_the_value(value, text, found):
    assert ("exact.digits", 1.0, found) in _scan(value, "contact", text, "mobile_phone")


@pytest.mark.parametrize("text", ["call 07700 900462", "ref 107700900461", "call 07700 90046"])
def test_another_national_number_is_no_hit(text):
    assert _scan("+44 7700 900461", "contact", text, "mobile_phone") == []


# -- 2. a long number (a microchip, an IMEI) sent in threes or fours, in a dimension without a digit view ----------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("985112004471203", "the vet invoice lists microchip 985 112 004 471 203, which matches", "985 112 004 471 203"),
    ("985112004471203", "chip 985-112-004-471-203 scanned", "985-112-004-471-203"),
    ("985112004471203", "chip 9851 1200 4471 203", "9851 1200 4471 203"),
    ("3567890123456784", "IMEI 3 567 890 123 456 784 on the box", "3 567 890 123 456 784"),
])
def test_a_long_number_in_groups_is_the_value(value, text, found):
    assert ("forms.separators", 1.0, found) in _scan(value, "other", text, "microchip_number")


@pytest.mark.parametrize("text", ["chip 985 112 004 471 204", "chip 1985 112 004 471 203",
                                  "chip 985 112 004 471 2031", "order 985 112"])
def test_another_long_number_in_groups_is_no_hit(text):
    assert _scan("985112004471203", "other", text, "microchip_number") == []


# -- 3. the start or end of a code (a microchip, a plate) after words saying so, where the dimension has no digits -

@pytest.mark.parametrize(("value", "text", "found"), [
    ("985112004471203", "the microchip on the vet invoice ends in 1203, but the scan is illegible", "1203"),
    ("985112004471203", "chip number ending 471203", "471203"),
    ("粤B·D72K19", "乘客只记得车牌尾号是K19，白色比亚迪秦。", "K19"),
    ("KX-4471-B09", "policy ref ending 1B09", "1B09"),
])
def test_a_codes_end_after_words_for_it_is_a_fragment(value, text, found):
    assert ("partial.fragment", 0.3, found) in _scan(value, "other", text, "code")


@pytest.mark.parametrize(("value", "text"), [
    ("985112004471203", "the microchip ends in 1204"),  # another end
    ("985112004471203", "microchip scanned, reading 1203 was the clinic's room"),  # no word for an end
    ("粤B·D72K19", "车牌尾号是K18"),
    ("golden retriever mix", "the breed starts with golden"),  # words, not a code
])
def test_another_end_or_no_code_is_no_hit(value, text):
    assert _scan(value, "other", text, "code") == []


# -- 4. a secret's start before 开头 after Han, a symbol in it -------------------------------------------------------

@pytest.mark.parametrize(("text", "found"), [
    ("林先生记得Wi-Fi密码是Lin@开头的，后面想不起来了", "Lin@"),
    ("密码Lin@20开头", "Lin@20"),
    ("他说密码以Lin@开头", "Lin@"),
])
def test_a_secrets_start_before_kaitou_is_a_fragment(text, found):
    assert _scan("Lin@2024home!", "credential", text, "wifi_password") == [("partial.fragment", 0.3, found)]


@pytest.mark.parametrize("text", ["密码是Lim@开头的", "密码是Lin开头的", "密码是Lin@3开头的"])
def test_another_start_or_three_letters_before_kaitou_is_no_hit(text):
    assert _scan("Lin@2024home!", "credential", text, "wifi_password") == []


# -- 5. Chinese capital numerals (大写数字) -------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("矽肺一期", "职业健康档案 马继红：尘肺病——矽肺壹期（诊断日期 2026-08-19）", "矽肺壹期"),
    ("七级伤残", "鉴定结论：柒级伤残。", "柒级伤残"),
    ("三级高血压", "诊断：叁级高血压", "叁级高血压"),
    ("六级伤残", "鉴定为陆级伤残", "陆级伤残"),
])
def test_a_grade_in_capital_numerals_is_the_value(value, text, found):
    assert ("exact", 1.0, found) in _scan(value, "health", text, "diagnosis")


@pytest.mark.parametrize(("value", "text"), [
    ("矽肺一期", "矽肺贰期"),  # another stage
    ("七级伤残", "捌级伤残"),
    ("六级伤残", "陆先生说伤残鉴定还没出"),  # 陆, a family name, is no numeral alone
])
def test_another_grade_in_capital_numerals_is_no_hit(value, text):
    assert _scan(value, "health", text, "diagnosis") == []


# -- 6. a blood type in another notation; another group one letter off is no near-verbatim variant -----------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("AB型 Rh阴性", "Rare-donor registry export: donor SZ-77310, ABO/Rh: AB negative, last donation", "AB negative"),
    ("AB型 Rh阴性", "blood group AB Rh(D)-negative", "AB Rh(D)-negative"),
    ("AB型 Rh阴性", "血型：AB-，请备血", "AB-"),
    ("AB型 Rh阴性", "Rh阴性AB型，熊猫血", "Rh阴性AB型"),
    ("O Rh-positive", "献血者血型O型Rh阳性", "O型Rh阳性"),
    ("O Rh-positive", "donor is O pos", "O pos"),
])
def test_a_blood_type_in_another_notation_is_the_value(value, text, found):
    assert _scan(value, "health", text, "blood_type") == [("forms.blood_type", 1.0, found)]


@pytest.mark.parametrize(("value", "text"), [
    ("AB型 Rh阴性", "今日采血登记：苏婉青（注意与苏婉清区分），A型 Rh阴性，400ml"),  # another group, one letter off
    ("AB型 Rh阴性", "ABO/Rh: AB positive"),
    ("AB型 Rh阴性", "B negative"),
    ("AB型 Rh阴性", "the lab negative control passed"),
    ("AB型 Rh阴性", "sample AB-1234"),
])
def test_another_blood_type_is_no_hit(value, text):
    assert _scan(value, "health", text, "blood_type") == []


# -- 7. a birth year after words for a birth -----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "found"), [
    ("Aisha Bello-Nwosu is 18 (born 2008), so she can sign the contract herself.", "born 2008"),
    ("applicant Aisha, b. 2008, Lagos", "b. 2008"),
    ("她2008年出生，今年刚成年", "2008年出生"),
    ("year of birth: 2008", "year of birth: 2008"),
])
def test_a_birth_year_is_a_fragment(text, found):
    assert _scan("2008-02-29", "other", text, "date_of_birth") == [("partial.fragment", 0.3, found)]


@pytest.mark.parametrize(("field", "text"), [
    ("date_of_birth", "born 2009"),  # another year
    ("date_of_birth", "born 2008-03-01"),  # another date
    ("date_of_birth", "2008年3月出生"),
    ("date_of_birth", "the unborn 2008 cohort"),
    ("enrolment_date", "born 2008"),  # no birth date
])
def test_another_birth_year_or_no_birth_date_is_no_hit(field, text):
    assert _scan("2008-02-29", "other", text, field) == []


# -- 8. a passport's machine-readable zone, read field by field ----------------------------------------------------

@pytest.mark.parametrize(("value", "field", "text"), [
    ("1987-12-24", "date_of_birth", "MRZ line 2: EV60312984POL8712246M3104095<<<<<<<<<<<<<<06"),
    ("1987-12-24", "date_of_birth",
     "P<POLELLERY<VOSS<<TOMASZ<<<<<<<<<<<<<<<<<<<\nEV60312984POL8712246M3104095<<<<<<<<<<<<<<06"),
    ("1987-12-24", "date_of_birth", "visa MRZ: L898902C36UTO8712249F1204159ZE184226B<<<<<10"),
    ("2012-04-15", "passport_expiry", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"),
    ("2031-04-09", "passport_expiry", "EV60312984POL8712246M3104095<<<<<<<<<<<<<<06"),
])
def test_a_date_in_a_machine_readable_zone_is_the_value(value, field, text):
    assert [h[1] for h in _scan(value, "other", text, field)] == [1.0]


@pytest.mark.parametrize("text", [
    "EV60312984POL8712256M3104095<<<<<<<<<<<<<<06",  # born on the 25th
    "EV60312984POL8812246M3104095<<<<<<<<<<<<<<06",  # in 1988
    "order 8712246 shipped",  # digits alone, no zone
])
def test_another_date_in_a_machine_readable_zone_is_no_hit(text):
    assert _scan("1987-12-24", "other", text, "date_of_birth") == []


# -- 9. a date with its month named in Polish, Czech or Turkish -------------------------------------------------------

@pytest.mark.parametrize(("text", "found"), [
    ("Wniosek wizowy: Tomasz Ellery-Voss, data urodzenia 24 grudnia 1987 r., obywatelstwo polskie.",
     "24 grudnia 1987"),
    ("narozen 24. prosince 1987", "24. prosince 1987"),
    ("ur. 24 grudnia 1987 w Krakowie", "24 grudnia 1987"),
    ("doğum tarihi 24 aralık 1987", "24 aralık 1987"),
])
def test_a_date_with_another_month_name_is_the_value(text, found):
    assert _scan("1987-12-24", "other", text, "date_of_birth") == [("forms.date", 1.0, found)]


@pytest.mark.parametrize("text", ["24 grudnia 1988", "24 listopada 1987", "25. prosince 1987"])
def test_another_date_with_another_month_name_is_no_hit(text):
    assert _scan("1987-12-24", "other", text, "date_of_birth") == []


# -- 10. an amount grouped with spaces, or with full stops beside its own currency's name ---------------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("$92,400", "el violonchelista principal cobra 92.400 dólares por temporada", "92.400 dólares"),
    ("$92,400", "salario anual: US$ 92.400", "US$ 92.400"),
    ("$250,000", "la coalition a reçu une subvention de 250 000 dollars pour le tutorat", "250 000"),
    ("€48,250", "Gehalt 48.250 Euro brutto", "48.250 euro"),
    ("$250,000", "subvention : 250 000,00 dollars", "250 000,00"),
])
def test_an_amount_grouped_the_european_way_is_the_value(value, text, found):
    assert [(d, g, f.lower()) for d, g, f in _scan(value, "business", text, "award_amount")] == [
        ("exact.amount", 1.0, found.lower())]


@pytest.mark.parametrize(("value", "text"), [
    ("$92,400", "cobra 92.400 euros"),  # another currency
    ("USD 48,250", "The balance shown (R$ 48.250) is in Brazilian reais"),
    ("$92,400", "lote de 92.400 kg"),  # no currency: a decimal as much as a thousand
    ("$92,400", "cobra 92.401 dólares"),
    ("$250,000", "1 250 000 dollars"),
    ("$250,000", "une subvention de 250 000,50 dollars"),  # its decimals after it
])
def test_another_amount_or_a_bare_dotted_number_is_no_amount(value, text):
    assert _scan(value, "business", text, "award_amount") == []


# -- 11. a Chinese plate with its province in pinyin ------------------------------------------------------------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("沪A·7K3M9", "driver He Zhiming's car (Shanghai plate Hu A·7K3M9) got a parking ticket", "Hu A·7K3M9"),
    ("粤B·D72K19", "rider reports driver Huang Zhiming's car, plate Yue B·D72K19, took an unfamiliar route",
     "Yue B·D72K19"),
    ("沪A7K3M9", "plate Hu A 7K3M9", "Hu A 7K3M9"),
    ("藏A·12345", "Lhasa plate Zang A-12345", "Zang A-12345"),
])
def test_a_plate_with_its_province_in_pinyin_is_the_value(value, text, found):
    assert ("forms.separators", 1.0, found) in _scan(value, "other", text, "license_plate")


@pytest.mark.parametrize("text", ["plate Su A·7K3M9", "plate Hu A·7K3M8", "plate Shu A·7K3M9", "plate Hu B·7K3M9"])
def test_another_plate_in_pinyin_is_no_hit(text):
    assert _scan("沪A·7K3M9", "other", text, "license_plate") == []


# -- 12. a secret dictated in Chinese: capitals after 大写, a letter's case in brackets after its word ---------------

@pytest.mark.parametrize("text", [
    "星桥数据的独立Wi-Fi密码我口述一下：大写XQ，横杠，Office（O大写），井号，2026，最后一个感叹号。",
    "密码：大写XQ，横杠，office（O大写），井号，2026，最后一个感叹号",  # the case said makes `office` `Office`
    "WiFi：大写XQ，横杠，Office，井号，2026，最后一个是感叹号",
])
def test_a_secret_dictated_in_chinese_is_the_value(text):
    assert [(d, g) for d, g, _ in _scan("XQ-Office#2026!", "credential", text, "wifi_password")] == [("exact", 1.0)]


@pytest.mark.parametrize("text", [
    "大写XQ，横杠，Office（O大写），井号，2025，最后一个感叹号。",  # another year
    "大写XQ，横杠，Office（O大写），下划线，2026，最后一个感叹号。",  # another symbol
    "大写XZ，横杠，Office（O大写），井号，2026，最后一个感叹号。",
])
def test_another_secret_dictated_in_chinese_is_no_hit(text):
    assert _scan("XQ-Office#2026!", "credential", text, "wifi_password") == []


# -- 13. a home address's US ZIP code next to a word naming it ------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Customer in the 59715 ZIP reports an obstruction warning. Which tech covers that area on Tuesday?",
    "her zip code: 59715, nothing else on file",
    "ZIP 59715 has two open tickets",
    "postcode 59715-1234",
])
def test_a_zip_code_named_as_one_is_a_fragment(text):
    assert _scan("1147 Ridgecrest Rd, Bozeman, MT 59715", "location", text, "install_address") == [
        ("partial.fragment", 0.3, "59715")]


@pytest.mark.parametrize("text", [
    "zip code: 59716",  # another ZIP
    "ticket 59715 open",  # the number, no word for a ZIP
    "Route: 08:00 1174 Ridgecrest Rd, Bozeman MT 59715 - new install",  # inside another whole address
    "order 459715 zip",
])
def test_another_zip_or_a_zip_in_another_address_is_no_hit(text):
    assert _scan("1147 Ridgecrest Rd, Bozeman, MT 59715", "location", text, "install_address") == []


# -- 14. a Chinese term and its grade, stage or type the other way round, in other numerals, under a label ----------

@pytest.mark.parametrize(("value", "text", "found"), [
    ("七级伤残", "伤残军人证信息：姓名 刘卫东；伤残等级 柒级；伤残性质 因战。", "伤残等级 柒级"),
    ("七级伤残", "鉴定结论：伤残等级：7级", "伤残等级：7级"),
    ("七级伤残", "工伤鉴定为伤残七级", "伤残七级"),
    ("2型糖尿病", "既往史：糖尿病（2型）十年", "糖尿病（2型）"),
    ("2型糖尿病", "二型糖尿病，口服二甲双胍", "二型糖尿病"),
    ("高血压3级", "诊断：三级高血压", "三级高血压"),
])
def test_a_graded_term_written_another_way_is_the_value(value, text, found):
    assert _scan(value, "health", text, "diagnosis") == [("forms.graded_term", 1.0, found)]


@pytest.mark.parametrize(("value", "text"), [
    ("七级伤残", "伤残等级：八级"),  # another grade
    ("七级伤残", "伤残等级：17级"),  # a number that goes on
    ("2型糖尿病", "1型糖尿病"),
    ("高血压3级", "二级高血压"),
    ("高血压3级", "高血压13级"),
    ("七级伤残", "鉴定为27级伤残"),  # (no such grade: a number that goes on)
])
def test_another_grade_of_the_term_is_no_hit(value, text):
    assert _scan(value, "health", text, "diagnosis") == []
