"""Issue 15: forms a reader recovers trivially (1.0), type-aware fuzzy matching (a typo, never another
value), fragments in context (0.3) — each with a positive and a trap, in en and zh."""

import base64

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
    _u("email", "wei.zhang@acme-corp.io", "contact", "W", "Wei Zhang"),
    _u("phone", "07700 900418", "contact", "W", "Wei Zhang"),
    _u("employer", "Brightwater Analytics Inc.", "business", "B", "Brightwater Analytics"),
    _u("diagnosis", "chronic obstructive pulmonary disease", "health", "D", "Dana Petersen"),
    _u("name", "Dana Petersen", "person_name", "D", "Dana Petersen"),
]


def grade(text, field, entity, units=UNITS):
    """The best grade of one unit in a text, and its evidence. The cascade is built here, in the test (under
    20 ms): one built at import would not be run by `make mutation` against the detectors' construction."""
    best = (0.0, None)
    for h in build_cascade(units).scan_text(text):
        u = units[h.unit_index]
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
    ("Approved by Dana Peterson (HR)", "name", "D"),                   # a replaced letter: another person
    ("history of chronic obstructive pulmonary embolism", "diagnosis", "D"),  # another condition
])
def test_near_misses_are_other_values(text, field, entity):
    assert grade(text, field, entity) == (0.0, None)


@pytest.mark.parametrize("text, field, entity, expected", [
    ("IBAN: GB82WEST********765432", "iban", "A", 0.7),                 # masked forms keep their grade
    ("Diagnosis: Breast Cancer, Stage III", "diagnosis", "R", 1.0),
    ("ship to 1842 Tamarack Lane, Apt 3B, Columbus, OH", "address", "R", 0.7),
    ("Signed: Hill, Rose", "name", "R", 1.0),
    ("收件地址：上海徐汇漕溪路48号", "address", "L", 1.0),                   # 省略了市、区: 仍是整个地址 (issue 33)
    ("联系邮箱 li***88@163.com", "email", "L", 0.7),
    ("dx: chronic obstructive pulmonry disease", "diagnosis", "D", 0.7),  # a letter left out: a typo
    ("dx: chronic obstrutive pulmonary disease", "diagnosis", "D", 0.7),  # another left out
])
def test_typos_omissions_and_masks_still_count(text, field, entity, expected):
    assert grade(text, field, entity)[0] == expected


# -- §1 forms a reader recovers trivially --------------------------------------------------------------
def _b64(text, alphabet=base64.b64encode):
    return alphabet(text.encode()).decode()


@pytest.mark.parametrize("text, field, entity, evidence", [
    ("id,IP\nR1,118.25.66.173,ok", "host_ip", "S", "118.25.66.173"),                 # a CSV cell
    ("id,ip,budget\n1,118.25.66.173,450万元\n", "host_ip", "S", "118.25.66.173"),
    ("id,预算\nR1,450万元,已批", "budget", "L", "450万元"),
    ("GET /login?user=ann&pw=Hunter2%26Falcon%2157 HTTP/1.1", "password", "A", "Hunter2%26Falcon%2157"),
    ("Authorization: Basic " + _b64("ann:Hunter2&Falcon!57"), "password", "A", _b64("ann:Hunter2&Falcon!57")),
    ("data:\n  password: " + _b64("Hunter2&Falcon!57", base64.urlsafe_b64encode), "password", "A",
     _b64("Hunter2&Falcon!57", base64.urlsafe_b64encode)),                           # a Kubernetes Secret
    ('{"body": "{\\"\\\\u5ba2\\\\u6237\\": \\"\\\\u9648\\\\u5fd7\\\\u5f3a\\"}"}', "name", "C",
     "\\\\u9648\\\\u5fd7\\\\u5f3a"),                                                   # JSON serialised twice
    ("<td>ann.lee77&#64;example.org</td>", "email", "A", "ann.lee77&#64;example.org"),
    ("payload hex: " + b"Hunter2&Falcon!57".hex(), "password", "A", b"Hunter2&Falcon!57".hex()),
    ("客户：陳志強（繁體資料）", "name", "C", "陳志強"),                                   # Traditional ↔ Simplified
    ("聯絡人劉麗華", "name", "L", "劉麗華"),
    ("IBAN GB82WEST12345698765432 on file", "iban", "A", "GB82WEST12345698765432"),  # separators dropped
    ("station A4-5E-60-C2-19-7B joined", "mac", "S", "A4-5E-60-C2-19-7B"),
    ("网关地址 118 . 25 . 66 . 173（空格分隔）", "host_ip", "S", "118 . 25 . 66 . 173"),
    ("护照号 NX4829173", "passport", "Q", "NX4829173"),
    ("write to ann.lee77 [at] example [dot] org", "email", "A", "ann.lee77 [at] example [dot] org"),
    ("邮箱：ann.lee77 (at) example.org", "email", "A", "ann.lee77 (at) example.org"),
    ("ratio,0.412\n", "ratio", "Q", "0.412"),                                        # 41.2% as a ratio
    ("预算：450万", "budget", "L", "450万"),
    ("budget RMB 4,500,000 approved", "budget", "L", "4,500,000"),                    # currency words both ways
    ("budget,status\n4500000.00,approved", "budget", "L", "4500000.00"),
    ("她在蓝鲸智联做产品经理", "employer", "L", "蓝鲸智联"),                                 # a firm's short name
    ("works at Brightwater Analytics as a PM", "employer", "B", "Brightwater Analytics"),
    ("预算为人民币肆佰伍拾万元整", "budget", "L", "肆佰伍拾万"),                            # Chinese numerals
    ("mobile_e164: +447700900418", "phone", "W", "7700900418"),                      # trunk 0 after +44
    ("X-Employee-Ref=" + _b64("ann.lee77@example.org") + "; X-Batch=3", "email", "A", _b64("ann.lee77@example.org")),
])
def test_trivially_recovered_forms_are_literal(text, field, entity, evidence):
    assert grade(text, field, entity) == (1.0, evidence)


@pytest.mark.parametrize("text, field, entity", [
    ("id,IP\n1,118.25.66.1730,x", "host_ip", "S"),                                   # digits run on
    ("pw=Hunter2%26Falcon%2158", "password", "A"),                                   # encoded, but another value
    ("Authorization: Basic " + _b64("ann:Hunter2&Falcon!58"), "password", "A"),
    ("客户：陳志剛", "name", "C"),                                                      # 另一个人
    ("IBAN GB82WEST12345698765423", "iban", "A"),                                    # transposed, no separators
    ("network 10.118.25.66.173.0 and 118.25.66.17", "host_ip", "S"),
    ("gateway 11.82.56.6 and 118.2.56.6", "host_ip", "S"),
    ("write to ann.lee78 [at] example [dot] org", "email", "A"),
    ("budget HK$4,500,000 for the Hong Kong office", "budget", "L"),               # the same figure, another currency
    ("预算450万港元", "budget", "L"),
    ("预算为肆佰伍拾壹万元整", "budget", "L"),
    ("她在蓝鲸智能做产品经理", "employer", "L"),                                            # another firm
    ("works at Brightwater Capital", "employer", "B"),
    ("预算为肆佰伍拾万港元", "budget", "L"),
    ("mobile_e164: +447700900419", "phone", "W"),
    ("ratio 0.4121 and 41.25%", "ratio", "Q"),
])
def test_decoded_and_folded_near_misses_are_other_values(text, field, entity):
    assert grade(text, field, entity) == (0.0, None)


# -- §3 fragments in context ----------------------------------------------------------------------------
@pytest.mark.parametrize("text, field, entity, evidence", [
    ("paid with the card ending 2291 yesterday", "card", "A", "2291"),
    ("银行卡尾号2291已绑定", "card", "A", "2291"),
    ("she uses an address starting with mike.r at work", "email", "M", "mike.r"),
    ("他的邮箱以mike.r开头", "email", "M", "mike.r"),
    ("the last four of the SSN are 4410", "ssn", "A", "4410"),
    ("请转告Tanaka女士", "name", "Y", "Tanaka女士"),
    ("Dear Ms. Chen, thank you", "name", "Q", "Ms. Chen"),
    ("陈女士来电", "name", "Q", "陈女士"),
    ("referred by Dr. Mensah", "name", "K", "Dr. Mensah"),
    ("Hi Priya, your visit is tomorrow", "name", "P", "Priya"),                      # a given name alone
    ("报名表：陈**，已审核", "name", "Q", "陈**"),
    ("reply to ***@acme-corp.io", "email", "W", "***@acme-corp.io"),                # a firm's own domain
    ("our participant on Tamarack Lane called again", "address", "R", "Tamarack Lane"),  # a street, no house
    ("她住漕溪路那一片", "address", "L", "漕溪路"),
    ("his mailbox is at acme-corp.io", "email", "W", "acme-corp.io"),
    ("邮箱是acme-corp.io域名下的", "email", "W", "acme-corp.io"),
])
def test_fragments_in_context_grade_0_3(text, field, entity, evidence):
    assert grade(text, field, entity) == (0.3, evidence)


@pytest.mark.parametrize("text, field, entity", [
    ("card 4716 2093 5581 2291 was declined", "card", "A"),                        # another card, same last 4
    ("订单号20242291已发货", "card", "A"),  # the digits inside another number
    ("the invoice ending 2291 is overdue; 2291 units shipped", "email", "M"),
    ("他的邮箱以163.com结尾", "email", "L"),  # only the public domain
    ("邮箱是163.com的", "email", "L"),
    ("mail sent to li.ping@acme-corp.io and to the acme-corp.io site", "email", "W"),  # another address
    ("see https://www.acme-corp.io/careers", "email", "W"),                          # no word about mail
    ("referred by Dr. Mensa", "name", "K"),
    ("Priya Sharma joined the call", "name", "P"),                                  # another Priya
    ("陈志强先生来电", "name", "Q"),                                                     # another 陈
    ("1824 Tamarack Lane, Columbus", "address", "R"),                               # another house
    ("寄到漕溪路84号", "address", "L"),
    ("office in Columbus, OH 43215", "address", "R"),                                # a city is no fragment
    ("公司在上海市徐汇区", "address", "L"),
])
def test_fragment_traps(text, field, entity):
    assert grade(text, field, entity) == (0.0, None)


# -- issue 15, second pass: areas of a home address, masked addresses, MACs and secrets ------------------
AREA_UNITS = [
    _u("address", "1842 Tamarack Lane, Apt 3B, Columbus, OH 43215", "location", "R", "Rose Hill"),
    _u("address", "Oudegracht 214-B, 3511 NR Utrecht", "location", "S", "Sophie van der Meulen"),
    _u("address", "苏州市工业园区星湖街328号澜岸花园12幢1803室", "location", "L", "林晓雯"),
    _u("address", "成都市武侯区玉林南路17号芳草苑2栋3单元502", "location", "Z", "赵国栋"),
    _u("mac", "3C:52:82:1F:A7:4D", "network", "O", "Brightwater"),
    _u("db_password", "vF8#qLz2!Rm7wPe", "credential", "O", "Brightwater"),
    _u("internal_ip", "10.24.8.117", "network", "O", "Brightwater"),
    _u("name", "欧阳文博", "person_name", "W", "欧阳文博"),
    _u("diagnosis", "1型糖尿病", "health", "W", "欧阳文博"),
    _u("diagnosis", "stage III colon cancer", "health", "R", "Rose Hill"),
    _u("host_ip", "172.20.14.63", "network", "O", "Brightwater"),
    _u("email", "ann.lee@corvane.io", "contact", "A", "Ann Lee"),
    _u("salary", "€74,500", "financial", "A", "Ann Lee"),
    _u("name", "Sophie van der Meulen", "person_name", "S", "Sophie van der Meulen"),
    _u("passport", "NP7K42R9T", "government_id", "S", "Sophie van der Meulen"),
    _u("access_key", "LTAI5tR8xQ2mNd7F", "credential", "O", "Brightwater"),
    _u("id_number", "330106199203154527", "government_id", "L", "林晓雯"),
    _u("db_password2", "Qz7#mLp2wX9-83!", "credential", "O", "Brightwater"),
    _u("name", "林晓雯", "person_name", "L", "林晓雯"),          # her resident ID (entity L) says she is a woman
    _u("name", "Emily Rutherford", "person_name", "E", "Emily Rutherford"),
    _u("phone", "(614) 555-0139", "contact", "R", "Rose Hill"),
    _u("phone", "021-6288-1100", "contact", "L", "林晓雯"),
    _u("iban", "NL75 RABO 0327 4195 86", "financial", "S", "Sophie van der Meulen"),
    _u("iban", "GB82 WEST 1234 5698 7654 32", "financial", "E", "Emily Rutherford"),
    _u("employer", "苏州澄湖微电子有限公司", "business", "L", "林晓雯"),  # 苏州: the city of an address above
]


def area_grade(text, field, entity):
    return grade(text, field, entity, AREA_UNITS)


@pytest.mark.parametrize("text, field, entity, expected", [
    ("He lives in Columbus and can come after 3pm.", "address", "R", (0.3, "Columbus")),   # where someone lives
    ("a researcher travelling from Utrecht", "address", "S", (0.3, "Utrecht")),
    ("她现在住苏州园区那边", "address", "L", (0.3, "苏州")),
    ("成都玉林片区一单，顾客家门铃坏了", "address", "Z", (0.3, "玉林")),                        # a street's area
    ('{"current_city":"苏州","district":"工业园区"}', "address", "L", (0.3, "苏州")),
    ("address: 18** Tamarack Lane, Apt 3B, Columbus, OH", "address", "R", (0.7, None)),     # house number starred
    ("ship to Oudegracht 2**-B, Utrecht", "address", "S", (0.7, "Oudegracht 2**-B, Utrecht")),
    ("地址：苏州市工业园区星湖街3**号澜岸花园", "address", "L", (0.7, "苏州市工业园区星湖街3**号澜岸花园")),
    ("地址：成都市武侯区玉林南路**号芳草苑*栋*单元***", "address", "Z", (0.7, None)),
    ("station 3c:52:**:**:a7:4d joined", "mac", "O", (0.7, "3c:52:**:**:a7:4d")),           # both ends of a MAC
    ("MAC 3C:52:82:XX:XX:XX", "mac", "O", (0.3, "3C:52:82:XX:XX:XX")),                     # only the vendor prefix
    ("网卡 3C-52-82-**-**-**", "mac", "O", (0.3, "3C-52-82-**-**-**")),
    ("password=vF8#qLz2!Rm7*** result=OK", "db_password", "O", (0.7, "vF8#qLz2!Rm7***")),   # a secret's symbols
    ("密码 vF8#qLz2!Rm7*** 已轮换", "db_password", "O", (0.7, "vF8#qLz2!Rm7***")),
    ("collector on their 10.24.x.x network", "internal_ip", "O", (0.3, "10.24.x.x")),
    ("这个问题找欧阳工确认一下", "name", "W", (0.3, "欧阳工")),                         # a compound surname
    ("cc Mr. Ouyang on the incident", "name", "W", (0.3, "Mr. Ouyang")),
    ("文博说他今晚值班", "name", "W", (0.3, "文博")),
    ("Herr Ouyang hat angerufen", "name", "W", (0.3, "Herr Ouyang")),                   # more honorifics
    ("这事问欧阳姐就行", "name", "W", (0.3, "欧阳姐")),
    ("孩子两岁时确诊I型糖尿病", "diagnosis", "W", (1.0, "I型糖尿病")),               # a stage in other numerals
    ("诊断：Ⅰ 型糖尿病", "diagnosis", "W", (1.0, "Ⅰ 型糖尿病")),
    ("pathology: stage 3 colon cancer", "diagnosis", "R", (1.0, "stage 3 colon cancer")),
    ("Stage Ⅲ colon cancer, resected", "diagnosis", "R", (1.0, "Stage Ⅲ colon cancer")),
    ("MAC vendor prefix 3C:52:82 (HP)", "mac", "O", (0.3, "3C:52:82")),              # the vendor half of a MAC
    ("网卡厂商前缀 3c-52-82", "mac", "O", (0.3, "3c-52-82")),
    ("host ip-172-20-14-63.ec2.internal", "host_ip", "O", (1.0, "ip-172-20-14-63")),  # a cloud host name
    ("主机名 ip-172-20-14-63.ec2.internal", "host_ip", "O", (1.0, "ip-172-20-14-63")),
    ("write to ann dot lee at corvane dot io", "email", "A", (1.0, "ann dot lee at corvane dot io")),
    ("Gehalt: 74.500,00 € brutto", "salary", "A", (1.0, "74.500,00")),               # European number format
    ("年薪 74.500,00 欧元", "salary", "A", (1.0, "74.500,00")),
    ("MRZ:\nP<NLDVAN<DER<MEULEN<<SOPHIE<<<<<<<<<", "name", "S", (1.0, None)),          # a passport's MRZ
    ("护照机读区：\nNP7K42R9T2NLD8806149F3003194<<<<<<<<<<<<<<06", "passport", "S", (1.0, None)),
    ("the old password ends in -83!", "db_password2", "O", (0.3, "-83!")),             # punctuation of a secret
    ("身份证后4位4527", "id_number", "L", (0.3, "4527")),                                # more words for a piece
    ("身份证前六位330106", "id_number", "L", (0.3, "330106")),
    ("the first four of the key are LTAI5", "access_key", "O", (0.3, "LTAI5")),
    ("房东说林女士周一补材料", "name", "L", (0.3, "林女士")),                               # a title of her sex
    ("Caller: it's Ms Rutherford from Harrow", "name", "E", (0.3, "Ms Rutherford")),
    ("GET /search?name=Emily+Rutherford&page=2", "name", "E", (1.0, "Emily+Rutherford")),  # form-encoded spaces
    ("请求参数 姓名=Emily+Rutherford；页码=2", "name", "E", (1.0, "Emily+Rutherford")),
    ("call her at (614) 555-01** after 5", "phone", "R", (0.7, "(614) 555-01**")),       # an area code in brackets
    ("contact=%28614%29%20555-01%2A%2A", "phone", "R", (0.7, "%28614%29%20555-01%2A%2A")),
    ("座机 (021) 6288-11**", "phone", "L", (0.7, "(021) 6288-11**")),
    ('REIMB_BANK = "Rabobank"\nREIMB_REKENINGNUMMER = "0327419586"', "iban", "S", (1.0, "0327419586")),  # bank +
    ("sort code 12-34-56, account 98765432", "iban", "E", (1.0, "98765432")),  # account: the IBAN follows
    ("开户行 Rabobank，账号 0327 4195 86", "iban", "S", (1.0, "0327 4195 86")),
    ("租客在澄湖微电子做工艺工程师", "employer", "L", (1.0, "澄湖微电子")),  # a firm's name without its city
])
def test_areas_and_masked_addresses_macs_secrets(text, field, entity, expected):
    got = area_grade(text, field, entity)
    assert got[0] == expected[0] and (expected[1] is None or got[1] == expected[1])


@pytest.mark.parametrize("text, field, entity", [
    ("She works in Columbus at the state office.", "address", "R"),      # a city without a word about living
    ("Sponsor: Petrel Biotech B.V., Padualaan 8, 3584 CH Utrecht", "address", "S"),  # another whole address
    ("林工在苏州一家芯片公司上班", "address", "L"),
    ("他家住玉林北路6号", "address", "Z"),                                   # another street of the area
    ("户籍所在地：成都市，现住上海", "address", "Z"),                            # registered there, lives elsewhere
    ("hometown: Columbus, moved to Denver in 2019", "address", "R"),
    ("ship to Oudegracht 3**-B, Utrecht", "address", "S"),               # a masked number that is another house
    ("地址：苏州市工业园区星湖街5**号", "address", "L"),
    ("station 3c:52:**:**:a7:4e joined", "mac", "O"),                    # another device of the vendor
    ("网卡 3C-52-**-**-A7-4E", "mac", "O"),
    ("password=vF8#qLz3!Rm7*** result=OK", "db_password", "O"),          # another secret
    ("旧密码 vF9#qLz2!Rm7***", "db_password", "O"),
    ("collector on 10.25.x.x", "internal_ip", "O"),
    ("欧工说数据库已经恢复", "name", "W"),                                        # 欧 is another family
    ("值班人：欧阳文波", "name", "W"),                                            # another person
    ("Herr Ouyan hat angerufen", "name", "W"),                                   # another family name
    ("这事问张姐就行", "name", "W"),
    ("确诊II型糖尿病", "diagnosis", "W"),                                       # another type
    ("确诊2型糖尿病", "diagnosis", "W"),
    ("pathology: stage 2 colon cancer", "diagnosis", "R"),                      # another stage
    ("pathology: stage IV colon cancer", "diagnosis", "R"),
    ("MAC 3C:52:82:AA:BB:CC joined", "mac", "O"),                                # another device of the vendor
    ("网卡 3C-52-82-9E-01-77", "mac", "O"),
    ("host ip-172-20-14-64.ec2.internal", "host_ip", "O"),                     # another host
    ("主机 ip-172-20-14-6", "host_ip", "O"),
    ("write to ann dot lea at corvane dot io", "email", "A"),                 # another address
    ("Gehalt: 74.500,00 USD brutto", "salary", "A"),                          # the same figure, another currency
    ("年薪 74.050,00 欧元", "salary", "A"),
    ("MRZ:\nP<NLDVAN<DER<MEULEN<<SANNE<<<<<<<<<<", "name", "S"),                     # another traveller
    ("护照机读区：\nNP7K42R9X2NLD8806149F3003194<<<<<<<<<<<<<<06", "passport", "S"),
    ("the old password ends in -84!", "db_password2", "O"),
    ("身份证后4位4528", "id_number", "L"),
    ("key starts with LTAI, as every Alibaba key does", "access_key", "O"),   # a key type's prefix
    ("阿里云密钥都以LTAI开头", "access_key", "O"),
    ("请回复房东林先生", "name", "L"),                                                   # a man of her family name
    ("Mr. Rutherford signed the lease", "name", "E"),
    ("GET /search?name=Emily+Rutherfort&page=2", "name", "E"),               # another person, form-encoded
    ("请求参数 姓名=Emma+Rutherford", "name", "E"),
    ("call him at (614) 555-02** after 5", "phone", "R"),                      # another number
    ("座机 (021) 6288-12**", "phone", "L"),
    ("order 0327419586 shipped on Monday", "iban", "S"),                      # the digits without the bank
    ("开户行 Rabobank，账号 0327 4195 87", "iban", "S"),                            # another account there
    ("sort code 65-43-21, payee ref 98765432", "iban", "E"),
    ("租客在澄河微电子做工艺工程师", "employer", "L"),                             # another firm
])
def test_area_and_mask_traps(text, field, entity):
    assert area_grade(text, field, entity) == (0.0, None)


# -- issue 15, third pass: how banks, forms and chats show the last digits; issuer prefixes -------------
THIRD_UNITS = [
    _u("account", "004417829361", "financial", "G", "Gregory Okafor"),
    _u("card", "4716293847562293", "financial", "G", "Gregory Okafor"),
    _u("ssn", "666-31-4410", "government_id", "G", "Gregory Okafor"),
    _u("phone", "15921837764", "contact", "S", "孙嘉怡"),
    _u("bank_card", "6217001234567890122", "financial", "S", "孙嘉怡"),
    _u("name", "钟国梁", "person_name", "Z", "钟国梁"),
    _u("id_number", "440306198804125531", "government_id", "Z", "钟国梁"),  # the 17th digit: a man
    _u("name", "孙嘉怡", "person_name", "S", "孙嘉怡"),
]


def third_grade(text, field, entity):
    return grade(text, field, entity, THIRD_UNITS)


@pytest.mark.parametrize("text, field, entity, evidence", [
    ("Transfer from Checking x9361 to Savings x0417", "account", "G", "x9361"),   # one "x" before the digits
    ("Chase Total Checking …9361 balance $4,210.55", "account", "G", "…9361"),    # an ellipsis before them
    ("对账单：活期 …9361，余额 4210.55", "account", "G", "…9361"),
    ("| 88213 | xxxx-xxxx-xxxx-2293 | $412.80 |", "card", "G", "xxxx-xxxx-xxxx-2293"),  # x groups, dashes
    ("PAN XXXX XXXX XXXX 2293 已冻结", "card", "G", "XXXX XXXX XXXX 2293"),
    ('{"event":"dispute","ssn_last4":"4410"}', "ssn", "G", "4410"),              # a key's name says "last 4"
    ('{"after_sale":{"contact_last4":"7764"}}', "phone", "S", "7764"),
    ("财务对账：收款卡尾数0122（建设银行）", "bank_card", "S", "0122"),               # 尾数 = the last digits
    ('{"pan": {"last_four": "2293"}}', "card", "G", "2293"),
    ('{"card_last4": "2293"}', "card", "G", "2293"),
    ("Zhong先生您好，体检预约已确认", "name", "Z", "Zhong先生"),                        # pinyin + a Chinese title
    ("请转告ZHONG先生明天报到", "name", "Z", "ZHONG先生"),
    ("卡号以6217001开头", "bank_card", "S", "6217001"),                             # more than the bank's part
    ("his phone starts with 15921", "phone", "S", "15921"),
    ("wallet: Visa ···· 2293 (Apple Pay)", "card", "G", "···· 2293"),             # middle dots as bullets
    ("支付方式：Visa ···· 2293", "card", "G", "···· 2293"),
    ("老钟明天不来了，工作交给小林", "name", "Z", "老钟"),                             # 老/小 + the surname
    ("[店长] 小孙那单退款处理了吗？", "name", "S", "小孙"),
])
def test_last_digits_and_titles_third_pass(text, field, entity, evidence):
    assert third_grade(text, field, entity) == (0.3, evidence)


@pytest.mark.parametrize("text, field, entity", [
    ("Transfer from Checking x9316 to Savings x0417", "account", "G"),          # another account
    ("grid 12x9361 cells, 1920x1080", "account", "G"),                          # a product, not a mask
    ("| 88213 | xxxx-xxxx-xxxx-2239 | $412.80 |", "card", "G"),                  # another card
    ('{"event":"dispute","ssn_last4":"4401"}', "ssn", "G"),
    ('{"blast4":"4410"}', "ssn", "G"),                                          # a word that only ends like it
    ('bank_account,4532293615882081\nsalary,93.61万元', "account", "G"),  # a key's word is no context word
    ('{"card": "2293 0630 4493 6078"}', "card", "G"),                     # the first group of another card
    ("财务对账：收款卡尾数0212（建设银行）", "bank_card", "S"),
    ("Zhong女士您好，体检预约已确认", "name", "Z"),                                   # his ID says he is a man
    ("Zheng先生您好", "name", "Z"),                                                  # another family
    ("培训要点：卡号以6217开头的多是建行借记卡", "bank_card", "S"),                   # the bank's part: every card
    ("Cards starting with 4716 are Visa debit from our partner bank.", "card", "G"),
    ("手机号以159开头的是移动号段", "phone", "S"),                                     # a carrier's prefix
    ("新员工手机号码以1592开头的走集团套餐", "phone", "S"),
    ("wallet: Visa ···· 2239 (Apple Pay)", "card", "G"),                       # another card
    ("嘉宾：马库斯·德莱尼·2293号房", "card", "G"),                                  # one dot joins a name's parts
    ("他家客厅有个老钟表，每到整点就响", "name", "Z"),                               # an old clock
    ("一个老钟挂在墙上", "name", "Z"),
    ("小孙子今天第一天上学", "name", "S"),                                           # a grandson
])
def test_last_digits_and_titles_traps_third_pass(text, field, entity):
    assert third_grade(text, field, entity) == (0.0, None)



@pytest.mark.parametrize("text", ["热线 １O086 2291", "热线 1O086 2291"])
def test_an_ocr_token_may_start_with_any_decimal_digit(text):
    """A confused letter right after a full-width digit is read as a digit, as after an ASCII one: `ocr._TOKEN`
    missed a token starting with a non-ASCII digit until session 15 (its plain form found it)."""
    units = [_u("phone", "10086 2291", "contact", "H", "hotline")]
    assert grade(text, "phone", "H", units)[0] == 1.0
