"""Session 29's classes of string-tier errors on other authors' hand-written splits (39, 40, and 2–38 read again),
each read as `Cascade([unit]).scan_text(text)` in phrasings of our own, with the near misses (another account at the
same branch, a stranger's birth date, a neighbour's ID, a claim stated rather than denied, the next host's address)
that must stay as they are; and the documentation's example IBANs, which `annotate prelabel` must not propose."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_detect_forms_s28 import _graded

from ec2audit.cli import main

# -- 1. a bank's code and an account number given as two fields, and the code alone next to its name ------------

_UK, _US, _AU = "40-11-62 71829304", "026009593 110022334455", "083-170 491234567"
_IN, _CN = "HDFC0001234 50100234567891", "招商银行深圳科技园支行 6214830112345678"


@pytest.mark.parametrize(("value", "text", "near_miss"), [
    (_UK, 'payee_sort="401162" payee_acct="71829304"', 'payee_sort="401162" payee_acct="71829340"'),
    (_US, "ABA/routing: 026009593\naccount: 110022334455", "routing 026009593 account 110022334466"),
    (_AU, "BSB 083170, Acc 491 234 567", "BSB 083170, Acc 491 234 568"),
    (_IN, "Beneficiary A/C 50100234567891 | IFSC HDFC0001234", "IFSC HDFC0001234, A/C 50100234567819"),
    (_CN, "收款账号6214 8301 1234 5678，开户行招商银行深圳科技园支行",
     "开户行招商银行深圳科技园支行，收款账号6214 8301 1234 5687"),
])
def test_a_banks_code_and_the_account_as_two_fields_are_the_account(value, text, near_miss):
    """Both parts near each other are the value (1.0); the code beside another account number is that account's
    branch, and the other number is no piece of this one (0)."""
    assert (_graded(value, "financial", text, "bank_account"), _graded(value, "financial", near_miss, "bank_account")) \
        == (1.0, 0)


@pytest.mark.parametrize(("value", "text", "near_miss"), [
    (_UK, "her branch's sort code is 40 11 62; the account number is in the locked drawer", "Order 401162 shipped"),
    (_US, "Routing number 026009593 (Chase, NY)", "routing 026009593, acct 998877665544"),
    (_AU, "BSB: 083-170 for the payroll file", "invoice 083-170 for the payroll file"),
    (_IN, "IFSC HDFC0001234 for the transfer", "branch HDFC0001234X for the transfer"),
    (_CN, "开户银行：招商银行深圳科技园支行，卡号稍后发", "开户银行：招商银行深圳科技园支行，卡号6214 8301 9999 0000"),
])
def test_a_banks_code_alone_next_to_its_name_is_a_piece(value, text, near_miss):
    """The code named as one (sort code, routing, BSB, IFSC, 开户银行) with no other account beside it: a piece
    (0.3, as `context_fragments` grades a start); without its name, inside a longer token or beside another account
    number: nothing."""
    assert (_graded(value, "financial", text, "bank_account"), _graded(value, "financial", near_miss, "bank_account")) \
        == (0.3, 0)


# -- 2. a resident ID's region code and birth date said apart -----------------------------------------------------

_ID = "440305198811230419"


@pytest.mark.parametrize(("text", "near_miss"), [
    ("她身份证号的地区码是440305，出生日期那段是1988年11月23日，剩下的没记",
     "身份证上写的出生日期是1988年11月23日"),  # a birth date alone: anyone born that day
    ("ID card: district code 440305, born 23 Nov 1988; rest illegible",
     "同户另一人身份证 440305198811230027，生于1988年11月23日"),  # the region inside another's full number
    ("身份证：户籍地 440305，生日 1988-11-23",
     "快递单号440305，1988年11月23日签收"),  # a number and a date, no ID named
    ("身份证 地区码 440305 / 出生 19881123",
     r"ID & 440305~19881123~0027 \\"),  # another whole ID in LaTeX's spaces: the same district, born that day
])
def test_a_resident_ids_region_and_birth_date_said_apart_are_a_piece(text, near_miss):
    assert (_graded(_ID, "government_id", text, "id_card_number"),
            _graded(_ID, "government_id", near_miss, "id_card_number")) == (0.3, 0)


# -- 3. a claim denied where it stands --------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "dimension", "denied", "stated"), [
    ("Adaeze Okafor", "person_name", "the caller was not Adaeze Okafor, she was abroad",
     "the caller was Adaeze Okafor"),
    ("Adaeze Okafor", "person_name", "It wasn't Ms Okafor who signed the form",  # a surname's piece denied
     "this is not the first time Adaeze Okafor called"),  # the denial is of the time
    ("atrial fibrillation", "health", "ECG today ruled out atrial fibrillation",
     "found atrial fibrillation, not flutter"),
    ("atrial fibrillation", "health", "no history of atrial fibrillation per the GP letter",
     "no stroke, but atrial fibrillation since May"),
    ("2型糖尿病", "health", "现病史：否认2型糖尿病，否认高血压", "既往2型糖尿病十年，否认高血压"),
])
def test_a_claim_written_right_after_its_denial_is_no_leak(value, dimension, denied, stated):
    """A name or a condition right after a denial (its own words before the hit read past) is no leak (0); stated,
    or after a denial of something else, it is the value (1.0)."""
    assert (_graded(value, dimension, denied), _graded(value, dimension, stated)) == (0, 1.0)


def test_a_secret_after_a_denial_and_a_value_that_is_a_denial_are_still_shown():
    """A secret is shown whatever is said of it: the password's exact hit (1.0) stands after "is not"; a value that
    is itself a denial is not denied by its own first word (1.0); the name in the same text is denied (0)."""
    text = "the wifi password is not hunter2-Vx9q, the owner is not Adaeze Okafor; allergies: no known drug allergies"
    assert (_graded("hunter2-Vx9q", "credential", text), _graded("no known drug allergies", "health", text),
            _graded("Adaeze Okafor", "person_name", text)) == (1.0, 1.0, 0)


# -- 4. an IPv4 address as its 32 bits in hex -------------------------------------------------------------------

@pytest.mark.parametrize(("text", "near_miss"), [
    ("nf_trace: saddr=ac1f0e3f daddr=ac1f0001 len=60", "nf_trace: saddr=ac1f0e3e daddr=ac1f0001"),  # the next host
    ("  4: 3F0E1FAC:01BB 00000000:0000 0A", "commit 93f0e1fac2 merged"),  # /proc/net/tcp's word; inside a hash
    ("peer = 0xAC1F0E3F", "peer = 0xAC1F0E3F00"),  # a longer hex number
])
def test_an_ipv4_address_as_eight_hex_digits_is_the_address(text, near_miss):
    """172.31.14.63 is ac 1f 0e 3f in network byte order, 3f 0e 1f ac little-endian: 1.0; another address's bits, or
    the same digits inside a longer hex run, 0."""
    assert (_graded("172.31.14.63", "network", text, "private_ip"),
            _graded("172.31.14.63", "network", near_miss, "private_ip")) == (1.0, 0)


# -- 5. a number read out in Chinese numerals, its groups apart by commas ------------------------------------------

@pytest.mark.parametrize(("text", "near_miss"), [
    ("卡号我念一下：六二一四，八三零一，一二三四，五六七八", "卡号我念一下：六二一四，八三零一，一二三四，五六七九"),
    ("尾款打到六二一四、八三零一、一二三四、五六七八那张卡", "编号一，二，三，四，五，六"),
])
def test_a_number_read_out_in_chinese_numeral_groups_apart_by_commas_is_the_number(text, near_miss):
    """The digit view reads numerals with a comma (，, folded to `,`) or a 、 between groups as it reads English digit
    words with commas: the whole card (1.0); one digit off, or a list, 0."""
    assert (_graded("6214 8301 1234 5678", "financial", text, "card"),
            _graded("6214 8301 1234 5678", "financial", near_miss, "card")) == (1.0, 0)


# -- 6. the documentation's example IBANs are nobody's account --------------------------------------------------

def test_prelabel_proposes_no_documentation_example_iban(tmp_path):
    """The ECBS's and the IBAN registry's examples, in prose and as a keyed field, are not proposed; an IBAN of the
    same banks with other check digits and account is."""
    ws = tmp_path / "task-docs" / "workspace"
    ws.mkdir(parents=True)
    (ws / "notes.txt").write_text("From the spec: GB82 WEST 1234 5698 7654 32 is the format. "
                                  "Our payee: GB19 WEST 1234 5698 7654 99.\n", encoding="utf-8")
    (ws / "payee.json").write_text(json.dumps({"iban": "DE89 3704 0044 0532 0130 00"}), encoding="utf-8")
    out = tmp_path / "tasks.json"
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(ws), "--out", str(out), "--no-presidio"])
    assert result.exit_code == 0, result.output
    found = {r["value"]["text"] for task in json.loads(out.read_text()) for p in task.get("predictions", [])
             for r in p["result"] if r["type"] == "labels"}
    assert found == {"GB19 WEST 1234 5698 7654 99"}
