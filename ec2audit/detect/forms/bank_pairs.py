"""A bank account given as its bank's code and its number, and the text giving the two apart: a BACS row's
`SORT=204577;ACC=43918826`, a JSON's `"sort_code": "20-45-77", "account": "43918826"` for `20-45-77 43918826`; the
same for a US routing number (ABA), an Australian BSB, an Indian IFSC and a Chinese account's bank branch (开户行)
with the account number. Both within `_PAIR_WINDOW` characters of each other are the value (1.0). The code alone,
next to a word naming it ("sort code 20-45-77", "IFSC: SBIN0004521", "开户行：工商银行杭州西湖支行"), says where the
account is, as a piece of it does (0.3, `context_fragments`' grade); beside another account number it is that
account's branch (a colleague paid into the same branch), not this one's. A long account number alone (ten digits or
more: a Chinese corporate account's 15–19, a query's `acct_no` column, the branch named in English or not at all) is
most of the value (0.7): the number finds the account; the branch only says where it is kept."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from ec2audit.detect.finding import FRAGMENT, LITERAL, MOSTLY, Hit
from ec2audit.detect.forms import TAIL_WINDOW, Form, matched, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND, ACCOUNT = "bank_pairs.code", "bank_pairs.account"
_LONG_ACCOUNT = 10  # digits: an account number this long stands for its account without its bank


class _Shape(NamedTuple):
    code: re.Pattern  # the code in a value
    words: re.Pattern  # what names the code in the text before it


#: the codes a bank account is paid by, each with the words that name it (the first shape matching a value wins: a
#: nine-digit account after a BSB is no routing number)
_SHAPES = (
    _Shape(re.compile(r"(?<![0-9a-z])[a-z]{4}0[0-9a-z]{6}(?![0-9a-z])"), re.compile(r"ifsc")),
    _Shape(re.compile(r"[\u4e00-\u9fff]*银行[\u4e00-\u9fff]*(?:支行|分行|营业部)"),
           re.compile(r"开户行|开户银行|开户网点|开户支行|bank")),
    _Shape(re.compile(r"(?<!\d)\d{3}-\d{3}(?!\d)"), re.compile(r"\bbsb")),
    _Shape(re.compile(r"(?<!\d)\d{2}[- ]?\d{2}[- ]?\d{2}(?!\d)"), re.compile(r"\bsort")),
    _Shape(re.compile(r"(?<!\d)\d{9}(?!\d)"), re.compile(r"routing|\baba\b|\brtn\b|transit")),
)
_ACCOUNT = re.compile(r"(?<!\d)\d(?:[ -]?\d){4,}(?!\d)")  # an account number: five digits or more, grouped or not
_PAIR_WINDOW = 120  # characters between a code and its account in a row or a sentence
_RUNS_ON = re.compile(r"[0-9a-z]")
#: another account number: six digits or more, run together or spaced, not a date, a time or an amount
_OTHER = re.compile(r"(?<![\d,:/-])(?<!\d\.)\d(?: ?\d){5,}(?![\d,:/-]|\.\d)")


class _Pair(NamedTuple):
    shape: _Shape
    account: re.Pattern  # the account's digits, separated or not, not inside a longer number


def bank_pair(value: str) -> tuple[str, str, _Shape] | None:
    """(code, account digits, shape) of a value that is a bank's code and an account number, as the text view reads
    it; None for any other value."""
    norm = normalize_text(value)
    for shape in _SHAPES:
        code = shape.code.search(norm)
        if code is None:
            continue
        rest = norm[:code.start()] + " " + norm[code.end():]
        accounts = [re.sub(r"\D", "", m.group()) for m in _ACCOUNT.finditer(rest)]
        if len(accounts) == 1 and sum(c.isdigit() for c in rest) == len(accounts[0]):  # (an IBAN has more digits)
            return code.group(), accounts[0], shape
    return None


def _written(code: str) -> list[str]:
    """A code as written with its separators, with spaces and with none (`20-45-77`, `20 45 77`, `204577`); a
    branch without the 中国 its bank's name starts with (工商银行杭州西湖支行; 中国银行 is a bank of its own)."""
    short = [code[2:]] if code.startswith("中国") and not code.startswith("中国银行") else []
    return list(dict.fromkeys([code, code.replace("-", " "), re.sub(r"[- ]", "", code), *short]))


@register
class BankPairs(Form):
    name = "bank_pairs"
    kinds = (KIND, ACCOUNT)

    def compile(self, index: PatternIndex) -> None:
        self._pairs: dict[int, _Pair] = {}
        for i, cu in enumerate(self.units):
            pair = bank_pair(cu.unit.value) if cu.rules.name == "financial" else None
            if pair is not None:
                code, digits, shape = pair
                self._pairs[i] = _Pair(shape, re.compile(r"(?<!\d)" + "[ -]?".join(digits) + r"(?!\d)"))
                for form in _written(code):
                    index.add(form, KIND, i)
                if len(digits) >= _LONG_ACCOUNT:
                    index.add(digits, ACCOUNT, i)
        self.reach = self.bound(index, _PAIR_WINDOW + 20)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if (start and _RUNS_ON.match(text[start - 1])) or _RUNS_ON.match(text, end):
                continue  # inside a longer number or word
            lo, hi = max(0, start - _PAIR_WINDOW), end + _PAIR_WINDOW
            for i in units:
                pair = self._pairs[i]
                account = pair.account.search(text, lo, hi)
                if account is not None:
                    span = view.view.to_original(min(start, account.start()), max(end, account.end()))
                    yield Hit(i, *span, "forms.bank_pair", LITERAL, 0.9)
                elif pair.shape.words.search(text, max(0, start - TAIL_WINDOW), start) and not _other_account(
                        text, start, end):
                    yield Hit(i, *view.view.to_original(start, end), "forms.bank_code", FRAGMENT, 0.6)
        for start, end, units in matched(view, ACCOUNT, decided):
            if not (start and text[start - 1].isdigit()) and not text[end:end + 1].isdigit():
                for i in units:  # (with its code in the window, the pair above is the hit)
                    yield Hit(i, *view.view.to_original(start, end), "forms.bank_account", MOSTLY, 0.8)


def _other_account(text: str, start: int, end: int) -> bool:
    """Another account number next to the code: the branch is that account's."""
    window = TAIL_WINDOW * 2
    return any(not (m.start() < end and start < m.end())
               for m in _OTHER.finditer(text, max(0, start - window), end + window))
