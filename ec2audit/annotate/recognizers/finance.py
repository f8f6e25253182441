"""Money: Luhn-valid bank and credit cards (UnionPay 62… included; not the test cards processors publish), account
numbers after a word for one (`账号：`, `account no.`), IBANs (not the examples documentation prints) and amounts in
¥/$/万/亿.

Amounts below 1,000 are not proposed: a coffee price is not confidential, a salary is.
"""

from __future__ import annotations

import re

from schwifty import IBAN
from schwifty.exceptions import SchwiftyException

from ec2audit.annotate.recognizers.base import PatternRecognizer, digits, luhn_ok

_SCALE = {"万": 1e4, "亿": 1e8, "k": 1e3, "m": 1e6, "million": 1e6, "billion": 1e9}
_NUMBER = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s?(万|亿|million|billion|[kKmM](?![A-Za-z]))?")
AMOUNT = r"\d[\d,]*(?:\.\d+)?(?:\s?(?:[万亿]|[kKmM]\b|million\b|billion\b))?"


#: Card numbers payment processors publish for testing (Stripe's list, Visa's, Mastercard's and Discover's samples),
#: printed in every integration's README and test suite: nobody's card, as AWS's `AKIAIOSFODNN7EXAMPLE` is nobody's
#: key (`secrets.py`). Stripe's declined, fraud and 3-D Secure cards are the `4000 0000 0000 …` family.
TEST_CARDS = frozenset({
    "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222", "5200828282828210",
    "5105105105105100", "6011111111111117", "6011000990139424", "3056930009020004", "3566002020360505",
    "6200000000000005", "4111111111111111", "4012888888881881", "5424000000000015", "4000002500003155",
    "4000002760003184", "4000000000003220", "4000000000000002", "4000000000009995", "4000000000009987",
    "4000000000009979", "4000000000000069", "4000000000000127", "4000000000000119", "4000000000000341",
    "4000000000000077", "4000000000000101", "4000000000000036", "4000000000000010", "4000000000000028",
    "4100000000000019"})


#: IBANs documentation prints as the example (the SWIFT IBAN registry's per country, the ECBS's and Wikipedia's
#: `GB82 WEST 1234 5698 7654 32`, `DE89 3704 0044 0532 0130 00`): valid check digits, nobody's account, as the test
#: cards are nobody's card
TEST_IBANS = frozenset("""
    GB82WEST12345698765432 GB29NWBK60161331926819 GB33BUKB20201555555555 DE89370400440532013000
    DE75512108001245126199 FR1420041010050500013M02606 FR7630006000011234567890189 NL91ABNA0417164300
    NL02ABNA0123456789 NO9386011117947 BE68539007547034 BE71096123456769 CH9300762011623852957
    ES9121000418450200051332 IT60X0542811101000000123456 AT611904300234573201 DK5000400440116243
    FI2112345600000785 SE4550000000058398257466 PL61109010140000071219812874 IE29AIBK93115212345678
    LU280019400644750000 PT50000201231234567890154 GR1601101250000000012300695 CY17002001280000001200527600
    SA0380000000608010167519 MT84MALT011000012345MTLCAST001S IS140159260076545510730339
    HU42117730161111101800000000 CZ6508000000192000145399 SK3112000000198742637541 RO49AAAA1B31007593840000
    LT121000011101001000 LV80BANK0000435195001 EE382200221020145685 SI56263300012039086 HR1210010051863000160
    BG80BNBG96611020345678 TR330006100519786457841326 AE070331234567890123456 IL620108000000099999999
""".split())


def example_iban(value: str) -> bool:
    """Is `value` a documentation's example IBAN (`TEST_IBANS`), in any case and grouping?"""
    return re.sub(r"[\s-]", "", value).upper() in TEST_IBANS


def _card_ok(value: str) -> bool:
    d = digits(value)
    return 16 <= len(d) <= 19 and luhn_ok(d) and len(set(d)) > 2 and d not in TEST_CARDS


def _account_ok(value: str) -> bool:
    """An account number is long: a short one after `账号` is an index or a count."""
    return 8 <= len(digits(value)) <= 30


def _iban_ok(value: str) -> bool:
    """ISO 13616: the country's length and BBAN layout and the mod-97 check digits (schwifty's registry); not a
    documentation's example."""
    if example_iban(value):
        return False
    try:
        IBAN(value)
    except SchwiftyException:
        return False
    return True


def amount_ok(value: str) -> bool:
    number = _NUMBER.search(value)
    if not number:
        return False
    amount = float(number.group(1).replace(",", ""))
    return amount * _SCALE.get((number.group(2) or "").lower(), 1.0) >= 1000


RECOGNIZERS = [
    PatternRecognizer("bank-card", "BANK_CARD", "financial", (
        (r"(?<![\d-])\d{4}(?:[ -]?\d{4}){3}(?:[ -]?\d{1,3})?(?![\d-])", 0.6),
    ), validate=_card_ok, trim=r"[ -]\d{1,3}$"),  # `4111 1111 1111 1111 12/27`: the expiry month is no digit of it
    # a bank account (not a card: no Luhn check) where a word for one introduces it
    PatternRecognizer("bank-account", "BANK_ACCOUNT", "financial", (
        (r"(?i:银行账号|收款账号|开户账号|账号|账户|卡号|bank account(?: no\.?| number)?|account (?:no\.?|number)|"
         r"\bkonto(?:nummer|nr\.?)?|\bcuenta|\bconta|\bcompte|\bconto)"
         r"\s*[:：#]?\s*(?P<value>\d{2,6}(?:[ .-]?\d{2,6}){0,6})(?![\d-]|\.\d)", 0.6),
    ), validate=_account_ok),
    # printed in groups of four (`DE89 3704 0044 0532 0130 00`) or run together, in either case (tool output
    # and hand-typed forms write `de89 3704 …`, which schwifty reads as the same IBAN); the checksum decides
    PatternRecognizer("iban", "IBAN_CODE", "financial", (
        (r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])", 0.8),
    ), validate=_iban_ok, flags=re.IGNORECASE, trim=r" [A-Z0-9]{1,4}$"),
    PatternRecognizer("amount", "AMOUNT", "financial", (
        (rf"[¥￥$€£]\s?{AMOUNT}(?:元|\s?(?:USD|RMB|CNY|EUR))?", 0.6),
        (rf"(?<![\d.]){AMOUNT}\s?(?:元|USD|RMB|CNY|EUR\b)", 0.6),
        (r"(?<![\d.])\d[\d,]*(?:\.\d+)?\s?[万亿]", 0.6),
    ), validate=amount_ok),
]
