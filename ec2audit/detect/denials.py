"""A claim denied where it stands: "donor 7718 is not Caspian Ferreira-Holt", "screened negative for generalized
anxiety disorder", "否认青霉素过敏", "there is no £214,000 offer". A name or a condition (the person_name and health
dimensions: values that say something of someone) written right after a denial is the opposite of the value, and so is
an amount right after "no", "not", "never" or 没有 (the amount itself denied, a currency between them at most), so no
string tier's hit of it is a leak. An identifier or a secret stays one whatever is said of it ("the account is not
41558822" shows the digits), and a denial with other words before the value ("is not the first time Caspian called",
"no more than £214,000", "no, £214,000 is right") denies something else.
"""

from __future__ import annotations

import re

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.forms import is_cjk

_FILLER = r"(?:\s+(?:have|has|had|a|an|the|any|known|(?:been\s+)?diagnosed\s+with|mr|mrs|ms|miss|mx|dr)\b\.?)*\s*$"
#: who someone is, denied: "is not", "wasn't", 不是 (a bare "not" is a list's exception, "a leaver (not Lena)", which
#: still names her)
_NOT_WHO = r"\b(?:is|was|are|were|be|been)\s+not|\b(?:isn't|wasn't|aren't|weren't)|不是|并非|并不是"
#: what someone has, denied: "denies", "ruled out", "negative for", "no history of", 否认, 未见
_NOT_HAD = (r"\b(?:does|did|do)\s+not\s+have|\b(?:doesn't|didn't|don't)\s+have|\bnever\s+(?:had|been)|\bdenie[sd]"
            r"|\bdenying|\bruled\s+out|\brules\s+out|\bnegative\s+for|\bno\s+(?:known\s+)?(?:history|evidence|signs?)\s+of"
            r"|\bfree\s+of|\bwithout|\bno|否认|排除|未见|没有|无")
#: the claims a denial turns round, by dimension: a name (who someone is) and a condition (what someone has)
_DENIALS = {"person_name": re.compile(f"(?:{_NOT_WHO}){_FILLER}", re.IGNORECASE),
            "health": re.compile(f"(?:{_NOT_WHO}|{_NOT_HAD}){_FILLER}", re.IGNORECASE)}
#: an amount denied: "there is no £214,000 offer", "never offered $18,500", "没有 21.4 万的报价" (a currency before it)
_NOT_AMOUNT = re.compile(r"(?:\b(?:no|not|never|isn't|wasn't|aren't|weren't|didn't|(?:did|has|have)\s+not|hasn't"
                         r"|haven't)"
                         r"(?:\s+(?:been\s+)?(?:offer|pay|quote|propose|agree)(?:ed|d)?(?:\s+(?:us|him|her|them))?)?"
                         r"|没有|并没有|不是|并非)(?:\s+(?:a|an|any))?\s*(?:[£$€¥￥]|\b[A-Z]{3}\s?|人民币)?\s*$",
                         re.IGNORECASE)
_LATIN = r"[^\W\d_\u2e80-\u9fff]+(?:['’-][^\W\d_\u2e80-\u9fff]+)*"
_WORD = re.compile(f"({_LATIN})\\W*$")  # the last word before a hit (and what separates it from the hit)
_LOOK_BACK = 80  # characters before a hit that its denial and the value's own words before it lie within


def denied(text: str, start: int, cu: CompiledUnit) -> bool:
    """Is the hit of `cu` starting at `start` of `text` inside a denied claim? Words of the value itself may come
    between the denial and the hit (a surname's hit in "is not Caspian Ferreira-Holt", 过敏 in 否认青霉素过敏); a
    value that is itself a denial ("no known drug allergies") is not denied by its own first word."""
    denial = _NOT_AMOUNT if cu.amount is not None else _DENIALS.get(cu.rules.name)
    if denial is None:
        return False
    before = text[max(0, start - _LOOK_BACK):start]
    key = (before, cu.rules.name, cu.forms[0])
    answer = _memo.get(key)
    if answer is None:
        if len(_memo) >= _MEMO_SIZE:
            _memo.clear()
        answer = _memo[key] = _denied(before, denial, cu.forms[0].lower())
    return answer


#: answers by what they read (the characters before a hit, the value's dimension, the value), emptied when full:
#: each search is Python's regex tried at every one of the 80 characters (~50 µs), a text's hits are asked about
#: again in its decoded view, and a dense log repeats the neighbourhoods of its values (the 8 MB payload: 69,479
#: asks, 6,177 distinct; RESULTS.md, issue 34, session 30)
_MEMO_SIZE = 8192
_memo: dict[tuple[str, str, str], bool] = {}


def _denied(before: str, denial: re.Pattern[str], value: str) -> bool:
    words = set(re.findall(_LATIN, value))
    while True:  # the value's own words before the hit are read past, then the denial must end where they start
        word = _WORD.search(before)
        if word is not None and word.group(1).lower() in words:
            before = before[:word.start()]
        elif before and is_cjk(before[-1]) and before[-1] in value:
            before = before[:-1]  # a Han character of the value
        else:
            return denial.search(before) is not None
