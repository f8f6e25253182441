"""Money: Luhn-valid bank and credit cards (UnionPay 62… included; not the test cards processors publish), account
numbers after a word for one (`账号：`, `account no.`), IBANs and amounts in ¥/$/万/亿.

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


def _card_ok(value: str) -> bool:
    d = digits(value)
    return 16 <= len(d) <= 19 and luhn_ok(d) and len(set(d)) > 2 and d not in TEST_CARDS


def _account_ok(value: str) -> bool:
    """An account number is long: a short one after `账号` is an index or a count."""
    return 8 <= len(digits(value)) <= 30


def _iban_ok(value: str) -> bool:
    """ISO 13616: the country's length and BBAN layout and the mod-97 check digits (schwifty's registry)."""
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
