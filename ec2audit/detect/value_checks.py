"""Checks by value type: what the local judge decides by reading the value instead of asking its model.

A small cross-encoder cannot tell another value of the same kind from a paraphrase of this one ("sprained
ankle" for "major depressive disorder", "$171,000" for "$148,500", 王晓红 for 王晓燕): their probabilities
overlap (benchmarks/RESULTS.md, issue 37). So the local judge (`ec2audit.detect.e5_judge`) asks the check
registered for the unit's kind of value, with the model's best window as one input:

- `numeric` (amounts, salaries, counts, percentages; a value with its pay words, 税前月薪 28,500 元): every
  number the text states — digits, shorthand ("150k", "1.2m", "3.2万", "ninety grand"), English number words
  (text2num) and Chinese numerals (cn2an, "八千五", 六十多万, 三个多亿 as people say them; 七分之一 and 两成 as
  percentages, checks-v12; a translation's European forms, "187.500 US-Dollar", "42,5 millions", checks-v13),
  scaled by a unit the
  text declares for them ("base (USD k): 148.5") — against the value's: equal is a leak, close with an
  approximation cue ("just under", 约) a partial one, only other numbers a veto whatever the model says; a
  text with no number at all is at most left for review;
- `identifier` (names, e-mails, phones, IDs, keys, hosts, long digit runs, dates): the string tiers' own
  forms (pinyin, initials, masks, …) decide, also on the text with numbers read out as digits ("three one
  two, eight four seven …", "oh" for 0, 幺八六, 一九九二年六月十八日); an English name in Chinese characters
  (卢卡斯·马丁, also right after other words: 发给托马什·诺瓦克, checks-v12) and a date's day and month with
  its year's two digits (95 年的，十一月二号) are the value, a date's month and year, a key's start (cut with
  "…" or said to be its start) or a host's first label a part of it; an e-mail said aloud ("x dot y at z
  dot com"), an IPv4 address as its network and host ("the
  10.42.7.0/24 subnet, host 19") and a date with a French, Spanish, German or Italian month name are the value
  (checks-v11); a near-but-different string (王晓红, another ID) is a veto, and the model alone never grades one;
- `address` (a location with a house number): by component — the house number with the street's name
  (as written or, across scripts, in pinyin: 建国路 for "Jianguo Road") or the postcode is a leak, as is the
  street with its hundred block holding the house ("the 1400 block" for 1420; checks-v11); another
  house number, or a numbered part one character off next to the street (flat 3D for 3B, 403室 for 402室),
  is a veto (a neighbour, graded before), and the postcode alone review at most; otherwise the free-text
  check decides;
- `business` (a business fact with an act and a name: "shut down the Dublin call centre"): a sentence that
  names its company or place (`business_names`) and states its act (`ACTS`: close, acquire, sell, …, en
  and zh; not an act done to another named site: "closed the El Paso depot") or its sum ("eighty-six
  million" for $86 million) is a leak even with no other fact to contrast it with; one that names them with
  another act only ("expand the Dublin call centre") is a veto; otherwise the free-text check decides;
- `free-text` (diagnoses, other addresses and business facts, notes): the model grades only where it leans to a leak,
  one clause of the text is close to the value in the shortlist's bi-encoder (cosine to the unit's
  queries minus the clause's mean cosine to generic units, as the shortlist scores), and that clause is
  nearer this value than any other value of its kind (`contrast_values`: the judge call's other units of
  the dimension and a shipped reference list, `REFERENCES`), by a wider margin (`UNWRITTEN`) where neither
  the value nor its translation is written in the text; a clause clearly nearer another value is a
  veto. Both models read a topic (a clinic, a specialty, an organ's test) as close to the condition and only
  a little nearer it than to other conditions; every wrong free-text grade on six hand-written splits had
  a margin under 0.025 with nothing of the value written, and the leave-one-split-out estimate
  (`judges/local-judge/held_out.py`) chose the wider margin in every fold. A value with no contrast at all
  (a business fact alone in its call and script: no reference list) is never graded by this check, only
  left for review: nothing says another plan of the same shape is not this one, and every wrong grade on
  two hand-written test splits was such a value. A business fact needs
  `MIN_FACTS` others: one company's facts share a topic, so two of them cannot tell a text about the topic
  (capacity, divestitures) from this fact. The model alone was as
  sure of "tore a ligament" as of a paraphrase, for a unit "epilepsy", and the clause score alone of
  another diagnosis as of this one. The judge's verdict cache keys a verdict by unit, text and the call's
  other values of the unit's dimension, so a changed unit set is judged again.

Every grade but an identifier's needs the value bound to its entity (`binds`, checks-v8): the text names the
entity or, for a value general text also states (a condition), refers to one person (a business fact: its
company's "we"); not a template's slot, not a sentence about a relative or another entity of the unit set,
nor one where the entity handles the value for others ("负责汇总裁员名单") or that names another person by a relation
("his new hire, Ana Ruiz", 组里的孙浩; checks-v10), nor, for a value not written out, a result not known yet
("背调下周出结果") or a calendar entry (a meeting's subject); and "the patient" or 本人 refers to no one in a general
question ("someone newly diagnosed") or a notice to all (通知：…). Nor a sentence about a namesake ("Sofia Chen"
for Sofia Marquez, 李思远 for 李思源; `namesake`, checks-v11), the sentences stating a value not written out being
those of the model's span with the value's words. Unbound, a pair is left for review. A text that says the
opposite (`contrary`: the condition named only where denied, 排除甲亢; the other side of a lawsuit) is not graded
by the free-text check, and a sentence about many companies ("several acquisitions", 不少公司…普遍) states no one
company's act.

A condition is written out (checks-v9) by its name, its translation or a name of the synonym table
(`condition-synonyms.tsv`: abbreviations, older names, a drug or procedure given for it alone), read past a
parenthesis, not negated by its prefix ("non-insulin-dependent") nor naming a test, a vaccine or a service
("hepatitis B vaccination", 乙肝五项) nor denied ("no history of epilepsy"), or by its initials in capitals
(`acronym_in`: "on a PIP"), or, for a treatment, by the condition it is for (`treated`: "breast cancer" for
"undergoing chemotherapy for breast cancer"; checks-v11), or by its name before a bracketed qualifier in words
(`qualified`: "penicillin" for "penicillin (anaphylaxis)"; checks-v13); written out, the model needs only
`LEAN_WRITTEN`.

A name in a Latin script with accents (Nestlé, Zürich, Tomás) is read as Latin (`latin`), never as Chinese.

The thresholds were chosen on dev data (`judges/local-judge/checks_dev.py` sweeps `CLOSE`, `LEAN`, `CLAUSE`,
`SAME`, `MARGIN`, `VETO` and `MIN_CONTRAST`; `NEAR`, the address components and the business acts were set by
hand and checked there), `UNWRITTEN` and `LEAN_WRITTEN` by the leave-one-split-out estimate over dev and the
hand-written test splits (`judges/local-judge/held_out.py`; twelve since checks-v11). Most vetoes were written
after reading a test split's errors, so only text written after them measures them (benchmarks/RESULTS.md,
issue 37).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import cache, lru_cache
from typing import Protocol

import numpy as np

from ec2audit import resources
from ec2audit.detect.finding import FRAGMENT, LITERAL, MOSTLY
from ec2audit.detect.judge import Verdict
from ec2audit.detect.normalize import CHINESE_NUMERALS, normalize_text
from ec2audit.units import Unit

CHECKS_VERSION = "checks-v19"  # in the judge's version: verdicts cached before a change are not reused
CLOSE = 0.1  # relative distance of a number the text gives as an approximation ("just under 150k")
NEAR = 0.6  # similarity (difflib ratio) from which a different string of the value's length is a near miss
CLAUSE = 0.08  # clause score from which a free-text value counts as stated in that clause
LEAN = 0.5  # model probability from which a stated clause lets the free-text check grade
LEAN_WRITTEN = 0.0  # the same where the value, a synonym or its translation is written out (0: the review band)
SAME = 0.9  # bi-encoder cosine between two values from which one is the other in other words
MARGIN = 0.01  # how much nearer the value than any contrast value a clause must be for a grade (not a tie)
VETO = 0.05  # how much nearer a contrast value must be for a veto
UNWRITTEN = 0.03  # the margin a free-text grade needs where neither the value nor its translation is written
MIN_CONTRAST = 1  # fewer contrast values than this cannot tell another value of the kind: review at most
MIN_FACTS = 3  # the same for a business fact, whose contrast is only the call's other facts (no reference list)

IDENTIFIER_DIMENSIONS = frozenset({"person_name", "contact", "credential", "government_id", "network"})


@dataclass(frozen=True)
class Reading:
    """What the model said of a (unit, text) pair: its best window's probability and span, the judge's two
    thresholds, and its second head's best logit where the update has one (`e5_judge.Head`: fitted on the
    hand-written splits, read by the learned grader alone)."""

    probability: float
    start: int
    end: int
    threshold: float
    review_threshold: float
    splits_logit: float | None = None

    def verdict(self, text: str, grade: bool = True) -> Verdict:
        """The model's own verdict (graded at its threshold when `grade`; else review at most)."""
        if grade and self.probability >= self.threshold:
            return Verdict(MOSTLY, text[self.start:self.end], self.start, self.end)
        if self.probability >= self.review_threshold:
            return Verdict(0.0, text[self.start:self.end], self.start, self.end, review=True)
        return Verdict(0.0)


class ValueCheck(Protocol):
    """Decides a kind of value; `claims` picks the check for a unit (the first that claims it, in order)."""

    name: str

    def claims(self, unit: Unit) -> bool: ...

    def decide(self, unit: Unit, text: str, reading: Reading, others: Sequence[Unit] = ()) -> Verdict:
        """`others`: the rest of the unit set being judged (the free-text check's contrast)."""


CHECKS: list[ValueCheck] = []


def register(cls: type) -> type:
    """Adds a check class's instance to `CHECKS`; earlier registrations are asked first."""
    CHECKS.append(cls())
    return cls


def check_for(unit: Unit) -> ValueCheck:
    return next(c for c in CHECKS if c.claims(unit))


def folded(text: str) -> str:
    """The text as the checks read it: Traditional characters as Simplified (OpenCC, as the string tiers fold
    them; the same length, so offsets hold; checks-v14). The checks' acts, place words, glossary and tables are
    written in Simplified: 關閉上海研發中心 is 关闭上海研发中心, 徐匯區 is 徐汇区."""
    from ec2audit.detect.views import to_simplified

    return to_simplified(text)


def quoted(verdict: Verdict, text: str) -> Verdict:
    """A verdict decided on the folded text, its evidence quoted from the text as written."""
    if 0 <= verdict.start < verdict.end <= len(text) and verdict.evidence:
        return replace(verdict, evidence=text[verdict.start:verdict.end])
    return verdict


_HAN = re.compile(r"[\u3400-\u9fff]")


def latin(text: str) -> bool:
    """Whether a text is written without Chinese characters. Nestlé and Tomás are Latin as Nestle is: a check
    that asked `isascii` read an accented name as Chinese (character pairs of its letters matched any text)."""
    return _HAN.search(text) is None


# --- identifiers --------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _string_tiers(unit: Unit):
    from ec2audit.detect.cascade import Cascade

    return Cascade([unit])


def near_miss(value: str, text: str) -> bool:
    """Whether the text holds a string of the value's length that is close to it but not it (王晓红
    for 王晓燕, an ID one digit off)."""
    value, text = normalize_text(value), normalize_text(text)
    n = len(value)
    if n < 2 or value in text:
        return False
    if latin(value):  # runs of as many words as the value has (a hyphen parts words the value does not join)
        words, k = re.findall(r"[\w.@+-]+" if "-" in value else r"[\w.@+]+", text), len(value.split())
        tokens = [" ".join(words[i:i + k]) for i in range(max(1, len(words) - k + 1))]
    else:
        tokens = [text[i:i + n] for i in range(len(text) - n + 1)]
    for token in dict.fromkeys(tokens):
        if abs(len(token) - n) <= max(1, n // 4):
            matcher = SequenceMatcher(None, value, token, autojunk=False)
            if matcher.quick_ratio() >= NEAR and matcher.ratio() >= NEAR:
                return True
    return False


def other_family_name(value: str, text: str, start: int, end: int) -> bool:
    """Whether the name found at text[start:end] is part of another person's name: a family-name part
    hyphened to it ("Ingrid Halvorsen-Dahl" for Ingrid Halvorsen), a part of the value that the text also
    writes followed by a capitalised name that is not the value's ("Tomasz Novak-Lewandowski … the other
    Tomasz" for Tomasz Nowak: this Tomasz may be that one), or, in Chinese, another surname just before it
    (欧阳丽华, 张丽华 for 王丽华's 丽华)."""
    from ec2audit.detect.compiled import COMPOUND_SURNAMES, han_surname_chars

    if re.match(r"-[^\W\d_]", text[end:end + 2]) or re.search(r"[^\W\d_]-$", text[max(0, start - 2):start]):
        return not re.search(r"\w-\w", value)
    found, before = normalize_text(text[start:end]), text[max(0, start - 2):start]
    if latin(value):
        if found == normalize_text(value):
            return False
        words = normalize_text(value).split()
        return any(m[1][0].isupper() and normalize_text(m[1]) not in words
                   for m in re.finditer(rf"\b{re.escape(text[start:end])} ([^\W\d_][\w'-]*)", text, re.I))
    if not found or normalize_text(value).startswith(found):
        return False  # the hit holds the value's surname: no other one before it
    return before in COMPOUND_SURNAMES or (before[-1:] in han_surname_chars() and not value.startswith(before[-1:]))


_COMPANY = re.compile(r"^(?:[\w&'-]* ?){0,3}?(?:inc|ltd|llc|corp|corporation|co|company|group|holdings|gmbh|plc"
                      r"|technologies|tech|labs|foods|logistics|consulting|partners|studio|bakery|restaurant|hotel)\b"
                      r"|^[\u4e00-\u9fff]{0,4}?(?:公司|集团|科技|有限|工作室|餐厅|酒店|商行|服装|贸易|实业|文化|传媒|律所|事务所"
                      r"|物流|地产|置业|医药|商贸|超市|饭店)|^咨询(?!了|一下|过)")  # 思远咨询; not the verb (咨询了)


def in_company_name(value: str, text: str, start: int, end: int) -> bool:
    """Whether the part of the name found at text[start:end] begins or sits in a company's name ("Ingrid
    Consulting Ltd", 晓燕服装有限公司 for 王晓燕): a business, not this person."""
    if normalize_text(text[start:end]) == normalize_text(value):
        return False
    return _COMPANY.match(normalize_text(text[end:end + 40]).lstrip()) is not None


_DATE = re.compile(r"\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}")


@register
class IdentifierCheck:
    """Names, e-mails, phones, IDs, keys, hosts, dates: the string tiers' forms decide; the model never
    grades one alone (at most it leaves it for review), and a near-but-different string vetoes it."""

    name = "identifier"

    def claims(self, unit: Unit) -> bool:
        norm = normalize_text(unit.value)
        token = re.fullmatch(r"[a-z0-9_.-]+", norm) is not None  # one word of letters and digits: a key, a code
        return (unit.kind in IDENTIFIER_DIMENSIONS or re.search(r"\d{8}", norm.replace(" ", "")) is not None
                or _DATE.fullmatch(norm) is not None or (token and re.search(r"\d", norm) is not None))

    def decide(self, unit: Unit, text: str, reading: Reading, others: Sequence[Unit] = ()) -> Verdict:
        hits = _string_tiers(unit).scan_text(text)
        if hits:
            best = max(hits, key=lambda h: h.grade)
            if unit.kind == "person_name" and (other_family_name(unit.value, text, best.start, best.end)
                                                    or in_company_name(unit.value, text, best.start, best.end)):
                return Verdict(0.0)
            return Verdict(best.grade, text[best.start:best.end], best.start, best.end)
        spoken = spelled(text) if re.search(r"\d", unit.value) else ""
        quote = text[reading.start:reading.end] if reading.end > reading.start else text[:160]
        if spoken and spoken != normalize_text(text) and (_string_tiers(unit).scan_text(spoken)
                                                          or digits_spoken(unit.value, spoken)):
            return Verdict(MOSTLY, quote, reading.start, reading.end)  # "three one two, eight four seven", 一九九二年
        if unit.kind == "person_name" and transliterated(unit.value, text):
            return Verdict(MOSTLY, quote, reading.start, reading.end)  # 卢卡斯·马丁 for Lucas Martin
        if spoken_address(unit.value, text) or host_in_subnet(unit.value, text) or foreign_date(unit.value, text):
            return Verdict(MOSTLY, quote, reading.start, reading.end)  # "x dot y at z dot com", "10.1.2.0/24, host 9"
        if short_year_date(unit.value, text):  # before a near miss: 09年5月22号 is near 2009年5月22日 as a string
            return Verdict(MOSTLY, quote, reading.start, reading.end)  # 95 年的，生日是十一月二号
        if near_miss(unit.value, text):
            return Verdict(0.0)
        if month_and_year(unit.value, text) or truncated(unit.value, text):
            return Verdict(FRAGMENT, quote, reading.start, reading.end)
        return reading.verdict(text, grade=False)


_SOUNDS = {"en": (("ph", "f"), ("th", "s"), ("sh", "s"), ("ck", "k"), ("ch", "k"), ("ng", "n"), ("c", "k"),
                  ("q", "k"), ("x", "ks")),
           "pinyin": (("zh", "j"), ("ch", "j"), ("sh", "s"), ("ng", "n"), ("q", "j"), ("x", "s"), ("c", "s"))}
_VOICED = str.maketrans("gpztvrm", "kbsdwln")


def _consonants(word: str, spelling: str) -> str:
    """A word's consonants as a transliteration keeps them, in English or pinyin spelling (voicing, r/l and
    m/n merged, vowels, h and y dropped): "Martin" -> "nldn", "mading" (马丁) -> "ndn"."""
    word = word.lower()
    for a, b in _SOUNDS[spelling]:
        word = word.replace(a, b)
    return re.sub(r"(.)\1+", r"\1", re.sub(r"[^a-z]|[aeiouhy]", "", word.translate(_VOICED)))


def _sounds_like(word: str, han: str) -> bool:
    """Whether Chinese characters transliterate an English word: the pinyin keeps its consonants (the first the
    same, most of the rest in order) and its first syllable the word's first vowel (马丁 Martin, not 莫顿)."""
    from pypinyin import lazy_pinyin

    syllables = lazy_pinyin(han)
    a, b = _consonants(word, "en"), _consonants("".join(syllables), "pinyin")
    vowel = re.search(r"[aeiou]", word.lower())
    first = syllables[0] if syllables else ""
    return (a[:1] == b[:1] and (len(a) >= 2 or a == b) and SequenceMatcher(None, a, b).ratio() >= 0.82
            and vowel is not None and (vowel.group() in first or (vowel.group() == "e" and "ai" in first)
                                       or (word.lower().startswith("wa") and first == "wo")))


#: Characters that spell foreign names' syllables (斯, 尔, 内): a name's part read on past them is another name
#: (马丁内斯 is Martínez, not Martin).
_TRANSLITERATING = frozenset("斯尔特德克森顿内兹茨夫曼伯恩逊罗拉莉娜娅丽亚尼诺里科泽莱贝维")


def transliterated(value: str, text: str) -> bool:
    """Whether the text writes a Latin name of two or more words in Chinese characters, its parts joined by a
    middle dot as foreign names are (卢卡斯·马丁 for Lucas Martin), each part `_sounds_like` its word (the
    first part read from each of its starts, the words before it not part of it: 发给托马什·诺瓦克 holds 托马什,
    checks-v12; the last part read up to each of its lengths, not inside a longer name: 马丁下周 holds 马丁,
    马丁内斯 does not)."""
    words = re.findall(r"[^\W\d_]+", value)
    if len(words) < 2 or not latin(value):
        return False
    for m in re.finditer(r"[\u4e00-\u9fff]{1,12}(?:[·•・][\u4e00-\u9fff]{1,12})+", text):
        parts = re.split(r"[·•・]", m.group())
        if len(parts) == len(words) and any(
                _sounds_like(words[0], parts[0][k:]) and parts[0][k - 1:k] not in _TRANSLITERATING
                for k in range(len(parts[0]))) \
                and all(_sounds_like(w, p) for w, p in zip(words[1:-1], parts[1:-1], strict=True)) \
                and any(_sounds_like(words[-1], parts[-1][:n]) and parts[-1][n:n + 1] not in _TRANSLITERATING
                        for n in range(1, len(parts[-1]) + 1)):
            return True
    return False


def spelled(text: str) -> str:
    """The folded text with numbers in words and Chinese numerals as digits ("three one two" -> "3 1 2",
    一九九二年六月 -> 1992年6月, 幺八六 -> 186): how a phone number or a date is read out or written by hand."""
    norm = re.sub(r"(\d[ ,-]+)oh?\b(?=[ ,-]*\d)", r"\g<1>0", alpha_digits(normalize_text(text)))  # "88 oh 3"
    if _CHINESE_RUN.search(norm) or re.search(f"[{CHINESE_NUMERALS}][年月日号]", norm):
        import cn2an

        with warnings.catch_warnings():  # cn2an warns of every run it cannot read (十点一百八十五) and leaves it
            warnings.simplefilter("ignore")
            try:
                norm = cn2an.transform(norm, "cn2an")
            except (ValueError, KeyError, IndexError, TypeError):
                pass
    return norm


def digits_spoken(value: str, text: str) -> bool:
    """Whether the text gives the value's digits (7 or more) in one run read in groups ("3 1 2, 8 4 7, 22 90"
    for +1 312 847 2290), the country code left out or not."""
    digits = re.sub(r"\D", "", value)
    if len(digits) < 7:
        return False
    runs = (re.sub(r"\D", "", run) for run in re.findall(r"\d(?:[\d ,、.-]*\d)?", text))
    return any(len(run) >= 7 and digits.endswith(run) and len(digits) - len(run) <= 3 for run in runs)


#: A secret's start given as its start: "the one starting sk_live_4eC3", "Xq7# 开头的那个".
_STARTS = re.compile(r"\b(?:start(?:s|ing)?(?: with)?|begin(?:s|ning)? with|prefix(?:ed)?(?: with)?)\s+[`'\"]?(\S{4,}?)"
                     r"[`'\",.;]?(?:\s|$)|([\x21-\x7e]{4,})\s*(?:开头|打头)", re.I)


def truncated(value: str, text: str) -> bool:
    """Whether the text gives the start of a key cut with an ellipsis ("sk_live_51NqT8e…", 12 characters or
    more), a secret's start said to be its start ("starting sk_live_4eC3", "Xq7# 开头"; 4 characters or more,
    with a digit) or a host's first label alone where the value is a full name ("pg-prod-03" for
    pg-prod-03.internal.example.net; 6 characters or more, with a digit): part of the value."""
    if any(len(start) < len(value) and value.startswith(start) and re.search(r"\d", start)
           for m in _STARTS.finditer(text) for start in [m[1] or m[2]]):
        return True
    if re.fullmatch(r"[\w-]{20,}", value):
        return any(value.startswith(m[1]) for m in re.finditer(r"([\w-]{12,})(?:…|\.\.\.)", text))
    label = value.split(".")[0]
    return ("." in value and len(label) >= 6 and re.search(r"\d", label) is not None
            and re.search(rf"(?<![\w.-]){re.escape(label)}(?![\w-]|\.\w)", text) is not None)


def spoken_address(value: str, text: str) -> bool:
    """Whether the text spells an e-mail address out as people say it ("ingrid dot solberg eighty-four at
    protonmail dot com"): with "dot" and "at" read as their signs and numbers as digits, it holds the value."""
    if "@" not in value:
        return False
    said = re.sub(r"\s+at\s+", "@", re.sub(r"\s+dot\s+", ".", spelled(text)))
    return normalize_text(value) in re.sub(r"\s+", "", said)


def host_in_subnet(value: str, text: str) -> bool:
    """Whether the text gives an IPv4 address as its network and its host number ("the 10.42.7.0/24 subnet,
    host octet 19", 192.168.20 网段，主机号 17); the network followed by another host is another address."""
    m = re.fullmatch(r"(\d{1,3}\.\d{1,3}\.\d{1,3})\.(\d{1,3})", value.strip())
    if m is None:
        return False
    network = rf"(?<![\d.]){re.escape(m[1])}(?:\.0/\d+|\.x|\.\*|/\d+)?(?![\d.]|\.\d)"
    host = rf"(?:\bhost|\boctet|主机号?|主机位|末位)\D{{0,12}}(?<!\d){m[2]}(?!\d)"
    return re.search(network, text) is not None and re.search(host, text, re.I) is not None


#: Month names a date is written with in other languages (fr, es, de, it): "née le 14 mars 1991".
_FOREIGN_MONTHS = (("janvier", "enero", "januar", "gennaio"), ("février", "febrero", "februar", "febbraio"),
                   ("mars", "marzo", "märz", "marzo"), ("avril", "abril", "april", "aprile"),
                   ("mai", "mayo", "mai", "maggio"), ("juin", "junio", "juni", "giugno"),
                   ("juillet", "julio", "juli", "luglio"), ("août", "agosto", "august", "agosto"),
                   ("septembre", "septiembre", "september", "settembre"), ("octobre", "octubre", "oktober", "ottobre"),
                   ("novembre", "noviembre", "november", "novembre"), ("décembre", "diciembre", "dezember", "dicembre"))


def foreign_date(value: str, text: str) -> bool:
    """Whether the text writes a date value as day, month name and year in French, Spanish, German or Italian
    ("14 mars 1991", "14 de marzo de 1991", "14. März 1991")."""
    parts = _date_parts(value)
    if parts is None:
        return False
    year, month, day = parts
    names = "|".join(re.escape(n) for n in dict.fromkeys(_FOREIGN_MONTHS[month - 1])) if 1 <= month <= 12 else "-"
    said = rf"(?<!\d)0?{day}(?:er|\.)? (?:de )?(?:{names}) (?:de )?{year}\b"
    return re.search(said, normalize_text(text)) is not None


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")


def _month_name(month: int) -> str:
    """A month's English name, capitalised: "may" and "march" are verbs."""
    return _MONTHS[month - 1].capitalize() if 1 <= month <= 12 else "-"


def _date_parts(value: str) -> tuple[int, int, int] | None:
    """A date value's year, month and day (ISO, Chinese or US order)."""
    m = _DATE.fullmatch(normalize_text(value))
    if m is None:
        return None
    parts = [int(p) for p in re.findall(r"\d+", m.group())]
    if parts[0] > 31:
        return parts[0], parts[1], parts[2]
    return (parts[2], parts[0], parts[1]) if parts[0] <= 12 else (parts[2], parts[1], parts[0])


def short_year_date(value: str, text: str) -> bool:
    """Whether the text gives a date value's day and month with its year's last two digits ("95 年的，生日是十一月
    二号", "born March 14, '79"): the whole date as people say it."""
    parts = _date_parts(value)
    if parts is None:
        return False
    year, month, day = parts
    norm, words, name = spelled(text), alpha_digits(text), _month_name(month)
    said = (re.search(rf"(?<!\d)0?{month} ?月 ?0?{day} ?[日号](?!\d)", norm)
            or re.search(rf"\b(?:{name}|{name[:3]})\.? 0?{day}(?:st|nd|rd|th)?\b|\b0?{day}(?:st|nd|rd|th)? (?:of )?"
                         rf"(?:{name}|{name[:3]})\b", words))
    short = f"{year % 100:02d}"
    return bool(said) and re.search(rf"(?<![\d'])(?:'{short}\b|{short} ?年)", norm) is not None


def month_and_year(value: str, text: str) -> bool:
    """Whether the text gives a date value's month and year ("born in November 1987", "1987年11月", "turns 39
    this November … in 1987") without its day: part of a birth date."""
    parts = _date_parts(value)
    if parts is None:
        return False
    year, month, _ = parts
    norm, words, name = spelled(text), alpha_digits(text), _month_name(month)
    said = re.search(rf"\b(?:{name}|{name[:3]})\b", words) or re.search(rf"{year}年0?{month}月", norm)
    return bool(said) and re.search(rf"(?<!\d){year}(?!\d)", norm) is not None


# --- numbers ------------------------------------------------------------------------------------

_SCALES = {"k": 1e3, "thousand": 1e3, "grand": 1e3, "千": 1e3, "m": 1e6, "mn": 1e6, "mm": 1e6, "million": 1e6,
           "百万": 1e6, "万": 1e4, "千万": 1e7, "亿": 1e8, "b": 1e9, "bn": 1e9, "billion": 1e9, "1000": 1e3,
           "1000000": 1e6, "1000000000": 1e9}
_DIGITS = re.compile(
    r"(?<![a-z\d.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?( and a half)?(?: ?(thousand|grand|million|billion|1000000000"
    r"|1000000|1000|千万|百万|万|亿|千|mn|mm|bn|k|m|b)(?![a-z\d]))?", re.I)
_CHINESE_RUN = re.compile(f"[{CHINESE_NUMERALS}]{{2,}}")
_NEXT_LOWER = {"万": "千", "萬": "千", "千": "百", "仟": "百", "百": "十", "佰": "十"}
_NUMERAL_DIGITS = "一二两三四五六七八九壹贰叁肆伍陆柒捌玖"
_WORD_NUMBER = re.compile(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
                          r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy"
                          r"|eighty|ninety|hundred|thousand|million|billion)\b", re.I)


def _digit_numbers(text: str) -> list[float]:
    out = []
    for m in _DIGITS.finditer(text):
        value = float(m[1].replace(",", "") + (m[2] or ""))
        if m[3]:
            value += 0.5
        out.append(value * _SCALES.get((m[4] or "").lower(), 1.0))
    return out


def _chinese_numbers(text: str) -> list[float]:
    """Runs of Chinese numerals, a trailing digit after a unit read as people say it ("八千五" = 8500)."""
    out: list[float] = []
    if text.isascii():
        return out
    for m in _CHINESE_RUN.finditer(text):
        run = m.group()
        if len(run) >= 3 and run[-1] in _NUMERAL_DIGITS and run[-2] in _NEXT_LOWER:
            run += _NEXT_LOWER[run[-2]]
        out += _numeral(run)
    return out


def _numeral(run: str) -> list[float]:
    """One run of Chinese numerals as a number (none where cn2an cannot read it)."""
    import cn2an

    try:
        return [float(cn2an.cn2an(run, "smart"))]
    except (ValueError, KeyError, IndexError, TypeError):
        return []


_UNIT_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine)"
_TWO_DIGIT_WORDS = (r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[ -]" + _UNIT_WORD + ")?"
                    r"|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)")
#: A number said in two halves, the second of two digits (checks-v19): "eleven eighty-seven" (1187, a house),
#: "nineteen eighty-seven" (a year), "twenty-eight fifty" (2850, a price), "one-eighty-two K" (182k).
_SAID_IN_PAIRS = re.compile(rf"\b({_TWO_DIGIT_WORDS}|{_UNIT_WORD})[ -]({_TWO_DIGIT_WORDS})\b", re.I)
#: Single digits joined by hyphens, as a number is read out digit by digit: "five-two-nine", "eight-oh-three".
_HYPHENED_DIGITS = re.compile(rf"\b(?:{_UNIT_WORD}|oh|zero)(?:-(?:{_UNIT_WORD}|oh|zero))+\b", re.I)
_DIGIT_WORDS = {w: str(n) for n, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven",
                                                  "eight", "nine"))} | {"oh": "0"}


def alpha_digits(text: str) -> str:
    """English number words as digits ("fifty-two Maple Terrace" -> "52 Maple Terrace"), a number said in two
    halves as one ("eleven eighty-seven Larkspur Lane" -> "1187 Larkspur Lane", not "11 87") and digits joined by
    hyphens as digits ("five-two-nine" -> "5-2-9"): how an English paraphrase says an address, a price, a year
    or an ID number aloud (session 30: seven paraphrases of splits 1-42 said so went ungraded, no negative)."""
    if not _WORD_NUMBER.search(text):
        return text
    from text_to_num import alpha2digit

    def said(words: str) -> str:
        return _DIGIT_WORDS.get(words.lower()) or re.sub(r"\D", "", alpha2digit(words.replace("-", " "), "en"))

    text = _HYPHENED_DIGITS.sub(lambda m: "-".join(_DIGIT_WORDS[w.lower()] for w in m.group().split("-")), text)
    text = _SAID_IN_PAIRS.sub(lambda m: said(m[1]) + said(m[2]).zfill(2), text)
    return alpha2digit(text, "en")


_FRACTION = re.compile(f"([{CHINESE_NUMERALS}\\d]+)分之([{CHINESE_NUMERALS}\\d]+)")
_TENTHS = re.compile(f"(?<![{CHINESE_NUMERALS}\\d])([一二两三四五六七八九])成(?![都功本员立果为交长绩熟年不])")


def _shares(norm: str) -> list[float]:
    """A share said the Chinese way, as a percentage: 七分之一 (14.3), 两成 (20)."""
    out = []
    for m in _FRACTION.finditer(norm):
        whole, part = (_numeral(g) if not g.isdigit() else [float(g)] for g in m.groups())
        if whole and part and whole[0]:
            out.append(100 * part[0] / whole[0])
    for m in _TENTHS.finditer(norm):
        out += [10 * n for n in _numeral(m[1])]
    return out


#: A number written the continental European way: dots between thousands, a decimal comma (187.500; 42,5).
_EUROPEAN = re.compile(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d{1,2})(?![\d]|[.,]\d)")
#: Their scale words (German, French, Spanish, Italian, Dutch): millions and billions.
_EUROPEAN_SCALES = re.compile(r"\b(?:(mio|millionen|millions?|millones|milioni|miljoen)|"
                              r"(mrd|milliarden?|milliards?|miliardi|miljard))\b\.?")


def european(norm: str) -> str:
    """A text's European-written numbers and scale words as English writes them ("42,5 millions" -> "42.5
    million"; checks-v13): a translation keeps the value in the target language's form."""
    text = _EUROPEAN.sub(lambda m: m[1].replace(".", "").replace(",", "."), norm)
    return _EUROPEAN_SCALES.sub(lambda m: "million" if m[1] else "billion", text)


def numbers(text: str) -> list[float]:
    """Every number the text states, in digits, shorthand, English words or Chinese numerals (六十多万 and
    三个多亿 read as 六十万 and 三亿, their approximation a cue of its own; 七分之一 and 两成 as percentages),
    and read the European way where a number may be written so (187.500, 42,5)."""
    norm = re.sub(f"([{CHINESE_NUMERALS}\\d])(?:个?[多来几余]个?|个)([万千亿])", r"\1\2", normalize_text(text))
    found = _digit_numbers(norm) + _chinese_numbers(norm) + _shares(norm)
    if _WORD_NUMBER.search(norm):
        found += _digit_numbers(alpha_digits(norm))
    if _EUROPEAN.search(norm):
        found += _digit_numbers(european(norm))
    return found


_APPROXIMATE = re.compile(
    r"\b(?:about|around|roughly|approximately|approx|nearly|almost|close to|just (?:under|over|below|above|shy of)"
    r"|a (?:bit|little|hair|touch) (?:under|over|more|less|below|above)|some|circa|ballpark|north of|south of"
    r"|shy of|upwards of|or so|give or take|ish)\b|~|约|大约|大概|左右|将近|接近|差不多|出头|不到|上下|来万|多万", re.I)
_MEASURE_WORDS = re.compile(r"per|month|year|annual|annually|a|usd|rmb|cny|gbp|eur|dollars?|pounds?|euros?|yuan"
                            r"|税前|税后|月薪|年薪|底薪|薪资|工资|奖金|含|每月|每年|月|年|元|块|人民币|美元|英镑|欧元",
                            re.I)  # 税前月薪 28,500 元, 年薪 65 万元（含奖金）: one number with its pay words


#: A column's or a table's unit, stated once for its numbers: "base (USD k): 148.5", "in thousands", (万元).
_DECLARED = re.compile(r"\((?:usd|eur|gbp|cny|rmb|[$€£¥])? ?(k|m|mn|bn|000|'000|thousands|millions)\)"
                       r"|\bin (thousands|millions|billions)\b|\((千|万|百万|亿)元?\)|单位[:：]?(千|万|百万|亿)元")


def declared_scales(text: str) -> set[str]:
    """The scales a text declares for its numbers (a header's "(USD k)"), as `_SCALES` keys."""
    found = set()
    for m in _DECLARED.finditer(normalize_text(text)):
        scale = next(g for g in m.groups() if g)
        found.add({"000": "k", "'000": "k", "thousands": "thousand", "millions": "million",
                   "billions": "billion"}.get(scale, scale))
    return found


_YEARLY = re.compile(r"\b(?:per year|a year|annual(?:ly)?|yearly|per annum)\b|年薪|每年|一年|/年|年收入", re.I)
_MONTHLY = re.compile(r"\b(?:per month|a month|monthly)\b|月薪|每月|一个月|/月|月收入", re.I)


def per_period(value: str, text: str) -> tuple[float, ...]:
    """What the text's amounts are multiplied by to be the value's where the two state them per different
    periods (checks-v16): 12 for a monthly amount of a yearly value ($11,875 a month for $142,500 per year),
    1/12 for a yearly amount of a monthly one (46.2万 a year for 月薪38,500). None where the value states no
    period or the text states the value's."""
    if _YEARLY.search(value) and _MONTHLY.search(text) and not _YEARLY.search(text):
        return (12.0,)
    if _MONTHLY.search(value) and _YEARLY.search(text) and not _MONTHLY.search(text):
        return (1 / 12,)
    return ()


@register
class NumericCheck:
    """Amounts, salaries, counts, percentages: the number decides, not the model."""

    name = "numeric"

    def claims(self, unit: Unit) -> bool:
        norm = normalize_text(unit.value)
        if len(_digit_numbers(norm) + _chinese_numbers(norm)) != 1 or re.search(r"\d{8}", norm.replace(" ", "")):
            return False
        rest = _MEASURE_WORDS.sub("", _DIGITS.sub("", norm))
        return sum(ch.isalnum() for ch in rest) <= 2

    def decide(self, unit: Unit, text: str, reading: Reading, others: Sequence[Unit] = ()) -> Verdict:
        target = numbers(unit.value)[0]
        found = numbers(text)
        found += [n * _SCALES[scale] for scale in declared_scales(text) for n in found]
        if not found:
            return reading.verdict(text, grade=False)
        quote = text[reading.start:reading.end] if reading.end > reading.start else text[:160]
        if any(abs(n - target) <= 1e-6 * max(abs(target), 1.0) for n in found):
            return bound(Verdict(LITERAL, quote, reading.start, reading.end), unit, text, others)
        if _APPROXIMATE.search(text) and any(abs(n - target) <= CLOSE * abs(target) for n in found):
            return bound(Verdict(FRAGMENT, quote, reading.start, reading.end), unit, text, others)
        if any(abs(n * ratio - target) <= 1e-6 * max(abs(target), 1.0) for n in found
               for ratio in per_period(unit.value, text)):
            return bound(Verdict(MOSTLY, quote, reading.start, reading.end), unit, text, others)
        return Verdict(0.0)  # only other numbers: another value of the same kind


# --- free text ----------------------------------------------------------------------------------

_CLAUSE = re.compile(r"[^.;!?。；！？\n,，、:：\"{}\[\]]+")


def clauses(text: str) -> list[str]:
    """Sentences and clauses of a text (JSON punctuation splits too), each with at least 3 characters."""
    return [c.strip() for c in _CLAUSE.findall(text) if len(c.strip()) >= 3]


@dataclass(frozen=True)
class ClauseScores:
    """How one text states a free-text value, clause by clause in the shortlist's bi-encoder.

    `specific`: the best clause's cosine to the unit's queries minus its mean cosine to generic units (the
    shortlist's score, `SemanticTier.score`, per clause). `margin`: in the clause nearest the value, its
    cosine to the value less its cosine to the nearest contrast value (another diagnosis, another address);
    positive where this value is the nearer, 1.0 where there is no contrast."""

    specific: float
    margin: float


def clause_scores(unit: Unit, text: str, contrast: Sequence[str] = ()) -> ClauseScores:
    from ec2audit.detect.semantic import DEFAULT_MODEL, background, load_model

    parts = clauses(text)[:64]
    if not parts:
        return ClauseScores(-1.0, 0.0)
    vectors = load_model(DEFAULT_MODEL).encode(parts, False, 16)
    base = (vectors @ background(DEFAULT_MODEL).T).mean(axis=1)
    specific = float(((vectors @ _queries(unit).T).max(axis=1) - base).max())
    if not contrast:
        return ClauseScores(specific, 1.0)
    own = (vectors @ _values(own_values(unit)).T).max(axis=1)
    best = int(np.argmax(own))
    return ClauseScores(specific, float(own[best] - (vectors[best] @ _values(tuple(contrast)).T).max()))


@lru_cache(maxsize=256)
def _queries(unit: Unit) -> np.ndarray:
    from ec2audit.detect.semantic import DEFAULT_MODEL, load_model, unit_queries

    return load_model(DEFAULT_MODEL).encode(unit_queries(unit), True, 16)


@lru_cache(maxsize=1024)
def _values(values: tuple[str, ...]) -> np.ndarray:
    """Bare values as the bi-encoder's queries: compared with each other, not with a unit's description."""
    from ec2audit.detect.semantic import DEFAULT_MODEL, load_model

    return load_model(DEFAULT_MODEL).encode(list(values), True, 16)


#: Reference values per dimension, from data the project ships: other values of the same kind that a
#: leak of this one must be nearer to than to any of them.
REFERENCES: dict[str, Callable[[], tuple[str, ...]]] = {}


def reference(dimension: str):
    def add(fn: Callable[[], tuple[str, ...]]) -> Callable[[], tuple[str, ...]]:
        REFERENCES[dimension] = cache(fn)
        return REFERENCES[dimension]
    return add


@reference("health")
def _conditions() -> tuple[str, ...]:
    """The condition names annotate's health recognizer knows (en and zh) and the synthetic diagnoses."""
    from ec2audit.annotate.recognizers.health import condition_names
    from ec2audit.synth import DIAGNOSES

    return tuple(dict.fromkeys([*condition_names(), *DIAGNOSES["en"], *DIAGNOSES["zh"]]))


@reference("location")
def _addresses() -> tuple[str, ...]:
    """Seeded faker addresses, en_US and zh_CN (the synthetic units' own)."""
    from ec2audit.synth import make_units

    return tuple(dict.fromkeys(u.value for u in make_units(400, 2, seed=0) if u.dimension == "location"))


GLOSSARY = resources.data("judges/local-judge/glossary-en-zh.tsv")


def _name_table(path, other: Callable[[str, str], bool]) -> dict[str, tuple[str, ...]]:
    """A table of names (a row: one thing's names, tab-separated), each name folded to the names of its row
    `other(name, n)` keeps."""
    table: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            names = [normalize_text(n) for n in line.split("\t")]
            for name in names:
                table.setdefault(name, []).extend(n for n in names if other(name, n))
    return {name: tuple(dict.fromkeys(others)) for name, others in table.items()}


@cache
def _glossary() -> dict[str, tuple[str, ...]]:
    """Each term of the bilingual reference (conditions, places), folded, to its names in the other script."""
    return _name_table(GLOSSARY, lambda name, n: latin(n) != latin(name))


def _joined(name: str) -> str:
    """A folded name less the space between scripts that Chinese typesetting puts around Latin words ("hiv 阳性"
    is the table's "hiv阳性"; checks-v11)."""
    return re.sub(r"(?<=[a-z0-9]) (?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff]) (?=[a-z0-9])", "", name)


def translations(value: str) -> tuple[str, ...]:
    """The value's names in the other script (en <-> zh) where the glossary has it whole: "epilepsy" -> 癫痫,
    "Dublin" -> 都柏林. A transliteration has no pinyin match, and the bi-encoder cannot tell a translation of
    the value from a near value across languages."""
    value = _joined(normalize_text(value))
    glossary = _glossary()
    return glossary.get(value) or glossary.get(_SEVERITY.sub("", value).strip(), ())


#: How severe or how long a condition is ("severe asthma", 重度哮喘): read past when the glossary has no
#: entry for the whole value.
_SEVERITY = re.compile(r"\b(?:severe|mild|moderate|chronic|acute)\b ?|^(?:严重|重度|中度|轻度|慢性|急性)")


SYNONYMS = resources.data("judges/local-judge/condition-synonyms.tsv")


@cache
def _synonyms() -> dict[str, tuple[str, ...]]:
    """Each condition name of the synonym table, folded, to its other names (HCV for hepatitis C)."""
    return _name_table(SYNONYMS, lambda name, n: n != name)


def synonyms(value: str) -> tuple[str, ...]:
    """A condition's well-known other names, any script ("HCV", 丙肝 for "hepatitis C"; 羊角风 for epilepsy),
    read past its severity and past a course after a comma ("alcohol use disorder, in recovery")."""
    value = _joined(normalize_text(value))
    table = _synonyms()
    for name in (value, value.split(",")[0].strip()):
        if found := table.get(name) or table.get(_SEVERITY.sub("", name).strip()):
            return found
    return ()


def own_values(unit: Unit) -> tuple[str, ...]:
    """The value, its aliases and their translations: what a clause stating this value is near."""
    own = (unit.value, *unit.aliases)
    return tuple(dict.fromkeys([*own, *(t for v in own for t in translations(v))]))


#: The last word of a condition's name: "breast cancer", "Crohn's disease" are conditions by their form.
_CONDITION_HEADS = ("cancer", "carcinoma", "disease", "disorder", "syndrome", "infection", "failure", "diabetes",
                    "lymphoma", "leukemia", "leukaemia", "tumou?r", "sclerosis", "arthritis")


def treated(value: str) -> tuple[str, ...]:
    """The condition a treatment value names after "for" ("undergoing chemotherapy for breast cancer" -> "breast
    cancer"; checks-v11): a condition by its form (`_CONDITION_HEADS`) or known to the synonym table or the
    glossary. A text stating it states what the treatment is for, the sensitive part of the value."""
    m = re.search(r"\bfor ((?:[\w'-]+ ){0,3}[\w'-]+)$", normalize_text(value))
    if m is None:
        return ()
    known = re.search(rf"\b(?:{'|'.join(_CONDITION_HEADS)})$", m[1]) or synonyms(m[1]) or translations(m[1])
    return (m[1],) if known else ()


def qualified(value: str) -> tuple[str, ...]:
    """A condition's name before a bracketed qualifier in words ("penicillin (anaphylaxis)" -> "penicillin";
    checks-v13): a text naming it names the sensitive part, as "kein Penicillin" does. Not a bracket with a
    number ("diabetes (type 2)"): that one tells the condition apart."""
    head = re.sub(r"\s*\([^)\d]*\)", "", value).strip()
    return (head,) if head and head != value.strip() else ()


def written_names(unit: Unit) -> tuple[str, ...]:
    """What a text that writes the value out writes: `own_values` and, for a condition, its synonyms and their
    translations ("HCV" for hepatitis C). Not among the clause scores' own values: a synonym's nearest clause
    (倒地抽搐 for 羊癫疯) is also near other conditions, and moved the margin below the bar on a true paraphrase."""
    if unit.kind != "health":
        return own_values(unit)
    more = [n for v in own_values(unit) for n in [*synonyms(v), *treated(v), *qualified(v)]]
    return tuple(dict.fromkeys([*own_values(unit), *more, *(t for v in more for t in translations(v))]))


#: Words two values of a kind share without being the same value ("bipolar disorder", "lung cancer").
GENERIC = frozenset({"disorder", "disease", "syndrome", "infection", "injury", "failure", "cancer", "carcinoma",
                     "chronic", "acute", "severe", "major", "minor", "type", "stage", "mild", "moderate",
                     "street", "road", "avenue", "lane", "suite", "drive", "north", "south", "east", "west",
                     "dependent", "dependence", "onset", "therapy", "episode"})


def _stems(value: str) -> set[str]:
    return {w[:6] for w in re.findall(r"[a-z]{4,}", value)} - {w[:6] for w in GENERIC}


def same_value(value: str, other: str) -> bool:
    """Whether `other` may be this value in other words, by its letters: one holds the other, or they share
    a word that is not generic ("depression" for "major depressive disorder")."""
    value, other = normalize_text(value), normalize_text(other)
    return value in other or other in value or bool(_stems(value) & _stems(other))


def contrast_values(unit: Unit, others: Sequence[Unit] = ()) -> tuple[str, ...]:
    """Values of the unit's kind that are not this value: the other units of its dimension in the set being
    judged and the dimension's reference list with their translations, in the value's script, or in both where
    the glossary translates the value (a translation of the value is not another value, and the bi-encoder
    cannot tell one from a near value across languages), less those that may be this value in other words
    (`same_value` to the value or a translation of it, or a cosine to them of at least `SAME`)."""
    values = [o.value for o in others if o.kind == unit.kind]
    if unit.kind in REFERENCES:
        values += REFERENCES[unit.kind]()
    own = own_values(unit)
    scripts, names = {latin(v) for v in own}, written_names(unit)
    values = [v for v in dict.fromkeys([*values, *(t for v in values for t in translations(v))])
              if latin(v) in scripts and not any(same_value(o, v) for o in names)]
    if not values:
        return ()
    same = (_values(tuple(values)) @ _values(own).T).max(axis=1)
    return tuple(v for v, s in zip(values, same, strict=True) if s < SAME)


@dataclass(frozen=True)
class FreeTextEvidence:
    """What the free-text check reads of a (unit, text) pair, apart from the rule that decides on it: the
    model's probability, how many contrast values there are (and how many the value's kind needs), the
    clause scores and whether the value is written out (as is, an alias or its translation: `written`).
    `judges/local-judge/held_out.py` re-decides cached evidence with other parameters."""

    probability: float
    contrast: int
    minimum: int
    specific: float
    margin: float
    written: bool
    bound: bool = True  # `binds`: the text ties the value to its entity
    contrary: bool = False  # `contrary`: the text denies the value or gives its entity the other side

    def outcome(self, lean: float = LEAN, clause: float = CLAUSE, margin: float = MARGIN,
                veto: float = VETO, unwritten: float = UNWRITTEN, lean_written: float = LEAN_WRITTEN) -> str:
        """"veto" (another value of this kind is clearly nearer), "grade", or "review". A value not written
        out needs the `unwritten` margin: the model and the clause scores read the same topic."""
        if self.margin <= -veto:
            return "veto"
        if (self.bound and not self.contrary and self.contrast >= self.minimum
                and self.probability >= (min(lean, lean_written) if self.written else lean)
                and (self.written or self.margin >= max(margin, unwritten))
                and (self.specific >= clause or self.written)):
            return "grade"
        return "review"


def acronym_in(value: str, text: str) -> bool:
    """Whether the text writes the initials of the value's last three or more words, in capitals and as a word
    of its own ("on a PIP" for "placed on a performance improvement plan", PTSD, COPD); short words (on, a, of)
    have none."""
    words = [w for w in re.findall(r"[^\W\d_]+", value) if len(w) >= 3]
    initials = "".join(w[0] for w in words).upper()
    return any(re.search(rf"(?<![\w-]){initials[-n:]}(?![\w-])", text) for n in range(3, len(initials) + 1))


def free_text_evidence(unit: Unit, text: str, reading: Reading, others: Sequence[Unit] = ()) -> FreeTextEvidence:
    contrast = contrast_values(unit, others)
    scores = clause_scores(unit, text, contrast)
    return FreeTextEvidence(reading.probability, len(contrast), MIN_FACTS if unit.kind == "business"
                            else MIN_CONTRAST, scores.specific, scores.margin,
                            _names_in(written_names(unit), text, _NOT_HAD if unit.kind == "health" else None)
                            or acronym_in(unit.value, text),
                            binds(unit, text, reading.start, reading.end, others), contrary(unit, text))


def free_text(unit: Unit, text: str, reading: Reading, others: Sequence[Unit] = ()) -> Verdict:
    """The model, the clause the value is stated in (by the shortlist's score, or by the value's translation
    written out: a clause in the other script scores low), and whether that clause is nearer this value than
    any other value of its kind (the free-text check; the address and business checks when their components
    do not decide)."""
    if reading.probability < reading.review_threshold:
        return Verdict(0.0)
    outcome = free_text_evidence(unit, text, reading, others).outcome()
    if outcome == "veto":
        return Verdict(0.0)
    if outcome == "grade":
        return Verdict(MOSTLY, text[reading.start:reading.end], reading.start, reading.end)
    return reading.verdict(text, grade=False)


#: The two sides of a lawsuit: a value that says its entity is sued is not stated by a text where the entity sues.
_DEFENDANT = re.compile(r"被[^，。,.;；]{0,10}?(?:起诉|告)|被告|\b(?:defendants?|sued by|being sued|was sued|(?:is|are)"
                        r" being sued|respondent)\b", re.I)
_PLAINTIFF = re.compile(r"原告|(?<!被)起诉了|\b(?:plaintiffs?|claimants?|is suing|sued|filed (?:a )?(?:suit|lawsuit"
                        r"|claim|complaint) against)\b", re.I)


#: A side of the body, as an adjective before a part of it within two words ("left fifth metatarsal", "right
#: 3rd and 4th ribs"; not "right above the wrist", "left the site"), or 左/右 (not 左右, "about").
_SIDE = re.compile(r"\b(left|right)(?![ -]+(?:above|below|before|after|at|on|in|under|next|by|behind|away|now|through"
                   r"|into|to|the|of|from|over|here|there|then|off|back)\b)(?:[ -]+[a-z]+){0,2}?[ -]+(?:side|sided"
                   r"|foot|feet|leg|knee|ankle|hip|arm|forearm|hand"
                   r"|wrist|elbow|shoulder|eye|ear|lung|kidney|breast|ribs?|metatarsals?|femur|tibia|fibula|radius"
                   r"|ulna|humerus|clavicle|fingers?|toes?|thumb|ovary|lobe|heel|shin|thigh|calf|\d+(?:st|nd|rd|th)"
                   r"|first|second|third|fourth|fifth|upper|lower)\b|(左)(?!右)|(?<!左)(右)")
#: A strength: a number with its unit (20mg, 750 mg, 20毫克), the unit in one spelling.
_STRENGTH = re.compile(r"(\d+(?:\.\d+)?) ?(mg|毫克|mcg|µg|μg|微克|ml|毫升|iu|units?|单位)(?![a-z])")
_STRENGTH_UNITS = {"毫克": "mg", "µg": "mcg", "μg": "mcg", "微克": "mcg", "毫升": "ml", "unit": "iu", "units": "iu",
                   "单位": "iu"}


def _sides(text: str) -> set[str]:
    return {{"左": "left", "右": "right"}.get(side, side) for m in _SIDE.finditer(normalize_text(text))
            for side in m.groups() if side}


def _strengths(text: str) -> set[tuple[float, str]]:
    return {(float(n), _STRENGTH_UNITS.get(u, u)) for n, u in _STRENGTH.findall(normalize_text(text))}


def other_side_or_strength(value: str, text: str) -> bool:
    """Whether the text gives the value's distinguishing part another value (checks-v15): only the other side of
    the body (the right fifth metatarsal for the left one, 左侧第四肋骨 for 右侧第三、四肋骨), or only other
    strengths in the value's unit (metformin 750 mg, 阿托伐他汀钙片 40mg for 20mg): another finding, another
    prescription, not this one said another way."""
    sides, stated = _sides(value), _sides(text)
    if len(sides) == 1 and stated and not sides & stated:
        return True
    strengths, given = _strengths(value), _strengths(text)
    units = {u for _, u in strengths}
    given = {s for s in given if s[1] in units}
    return bool(strengths and given and not strengths & given)


#: A site a health finding is bound to by its number: a tooth (#19, tooth 19, 19号牙), a bed, a level.
_SITE = re.compile(r"#\s?(\d+)|\b(?:tooth|teeth|site|level|bed)\s(?:no\.?\s|#\s?)?(\d+)|(\d+)\s?号(?:牙|床)", re.I)


def _sites(text: str) -> set[str]:
    return {next(g for g in m.groups() if g) for m in _SITE.finditer(text)}


def _same_shape(token: str, text: str) -> set[str]:
    """The tokens of the text written in the token's shape (digits for digits, letters for letters, the same
    punctuation between): BB-00932 for BB-00931, 1988-07-14 for 1990-01-02."""
    shape = re.escape(re.sub(r"[^\W\d_]", "A", re.sub(r"\d", "9", token)))
    pattern = shape.replace("9", r"\d").replace("A", r"[^\W\d_]")
    return set(re.findall(rf"(?<![\w-]){pattern}(?![\w-])", text))


def another_instance(unit: Unit, text: str) -> bool:
    """Whether the text states the value's kind of finding about another instance, not this one (session 25):
    a health finding bound only to another site number (pulpitis on #18 for #19), another entity of the
    entity's numbered kind and not the entity (donor BB-00932 for BB-00931, subjects 0412, 0415 for 0417), or a
    roster of other values of the value's own shape without it (other crew members' birth dates for hers).
    The learned grader does not grade such a text on its own reading (`learned_grader.withheld`)."""
    sites, given = _sites(unit.value), _sites(text)
    if unit.kind == "health" and sites and given and not sites & given:
        return True
    ids = [t for t in re.findall(r"[\w-]+", unit.entity_name or "") if sum(c.isdigit() for c in t) >= 3]
    if any((found := _same_shape(t, text)) and t not in found for t in ids):
        return True
    value = unit.value.strip()
    return sum(c.isdigit() for c in value) >= 4 and len(found := _same_shape(value, text)) >= 2 and value not in found


_DIGIT_RUN = re.compile(r"(?<!\d)(?<!\d[.,])\d[\d,]*(?:\.\d+)?")


def _digit_runs(text: str) -> set[str]:
    """The text's numbers as their digits (thousands separators dropped, the decimal point kept): 2,850 is 2850."""
    return {run.replace(",", "").rstrip(".") for run in _DIGIT_RUN.findall(text)}


def _misread(value: str, other: str) -> bool:
    """Whether `other` is the value's number with two neighbouring digits swapped or one digit changed (2580 or
    2860 for 2850), not a rounding of it (2800, 2000): a number one slip away is another value."""
    if len(value) != len(other) or value == other or value.count(".") != other.count("."):
        return False
    apart = [i for i, (a, b) in enumerate(zip(value, other, strict=True)) if a != b]
    if len(apart) == 2 and apart[1] == apart[0] + 1:
        return value[apart[0]] == other[apart[1]] and value[apart[1]] == other[apart[0]]
    return len(apart) == 1 and other[apart[0]:].strip("0.") != ""


#: A number stated relative to another ("$9,000 more than her $178,400", 只差最后一位): the value may be derived.
_RELATIVE = re.compile(r"\b(?:more|less|fewer|higher|lower|plus|minus|than|differs?)\b|差|比|多出|少了", re.I)


def another_number(unit: Unit, text: str) -> bool:
    """Whether the text gives, where the value has a number of three digits or more, that number one slip away
    (digits transposed or one digit off: "$2,580 all-in" for "$2,850 all-in", card …7562 for …7526, AMH 0.68
    for 0.62) and none of the value's own numbers, nor a number relative to another (session 25, checks-v17):
    another value, never this one."""
    own = {run for run in _digit_runs(unit.value) if sum(c.isdigit() for c in run) >= 3}
    given = _digit_runs(text)
    if not own or own & given or re.sub(r"\D", "", unit.value) in re.sub(r"[\s,.-]", "", text) \
            or _RELATIVE.search(text):
        return False  # the value's number stated, or its digits run together (an IBAN's groups)
    return any(_misread(v, g) for v in own for g in given)


#: Units of one measure, each by its spellings: a body weight in kg and in lb, a height in cm and in inches.
_UNITS = {"kg": "kg kgs kilo kilos kilogram kilograms 公斤 千克", "lb": "lb lbs pound pounds 磅",
          "st": "st stone", "g": "g gram grams 克", "cm": "cm centimetre centimetres centimeter centimeters 厘米 公分",
          "m": "m metre metres meter meters 米", "in": "in inch inches 英寸", "ft": "ft foot feet 英尺",
          "mm": "mm millimetre millimetres millimeter millimeters 毫米", "°c": "°c ℃ celsius 摄氏度",
          "°f": "°f ℉ fahrenheit 华氏度", "jin": "斤"}
_SPELLING = {s: unit for unit, spellings in _UNITS.items() for s in spellings.split()}
_MEASURE = {u: m for m, units in (("mass", "kg lb st g jin"), ("length", "cm m in ft mm"), ("temperature", "°c °f"))
            for u in units.split()}
_SPELLINGS = "|".join(sorted(map(re.escape, _SPELLING), key=len, reverse=True))  # the longest first
_MEASURED = re.compile(rf"(?<![\d.])(\d+(?:\.\d+)?) ?({_SPELLINGS})(?![a-z])", re.I)


def _measured(text: str) -> set[tuple[str, str]]:
    """The text's numbers written with a unit of measure, as (digits, unit): "131 lb" -> ("131", "lb")."""
    return {(n, _SPELLING[u.lower()]) for n, u in _MEASURED.findall(normalize_text(text)) if u.lower() in _SPELLING}


def another_unit(unit: Unit, text: str) -> bool:
    """Whether the text gives the value's number with another unit of the same measure, and never with the
    value's own ("131 lb" for a body weight of 131 kg, 175 in for 175 cm; session 28, blind split 37's wrong
    grade): another quantity, not this one (the same quantity converted is another number)."""
    own = {(n, u) for n, u in _measured(unit.value) if u in _MEASURE}
    given = _measured(text)
    return bool(own) and not own & given and any(
        n == m and u != v and _MEASURE.get(v) == _MEASURE[u] for n, u in own for m, v in given)


#: A redaction's slot in a text ([LAB_VALUE_1], {{diagnosis}}, <REDACTED>, a lone ***): what stands there is not
#: written. Stars beside characters (440304********5629) mask part of a value, and the rest may be its own.
_SLOT = re.compile(r"\[([A-Z][A-Z_ ]*?)_?\d*\]|\{\{?\s*(\w+?)_?\d*\s*\}\}?"
                   r"|<([A-Z_]*(?:REDACTED|MASKED|REMOVED)[A-Z_]*)>|(?<!\w)(\*{3,}|█+|x{4,})(?!\w)", re.I)
_LABEL = re.compile(r"([\w()/\u3400-\u9fff-]+(?: [\w()/-]+){0,2}) ?(?:[:：=]|\bis\b|\bwas\b|为|是)? ?$")


def placeholder_slot(unit: Unit, text: str) -> bool:
    """Whether the value's slot in the text holds a placeholder ("AMH: [LAB_VALUE_1] ng/mL", "診斷：[DIAGNOSIS_1]",
    "diagnosis: {{diagnosis}}") and the value is written nowhere else in it (session 25, checks-v17): the text
    names the field, not the value. The slot is the value's where the placeholder's name or the label before it
    shares a word (by its first four letters) or, in Chinese, two characters with the unit's field, description
    or value; a person's slot ("[NAME_1]") for a value of another field is not."""
    norm = text.lower()
    if any(name.lower() in norm for name in written_names(unit) if len(name) >= 2):
        return False
    own = {run for run in _digit_runs(unit.value) if sum(c.isdigit() for c in run) >= 2}
    if own & _digit_runs(text):
        return False
    about = f"{unit.field} {unit.description or ''} {unit.value}".replace("_", " ").lower()
    words = {w[:4] for w in re.findall(r"[a-z]{3,}", about)} - {"valu", "resu", "leve", "numb", "this", "with"}
    pairs = {about[i:i + 2] for i in range(len(about) - 1)} if _HAN.search(about) else set()
    for slot in _SLOT.finditer(text):
        name = next((g for g in slot.groups() if g), "").replace("_", " ").lower()
        label = _LABEL.search(text[max(0, slot.start() - 30):slot.start()])
        said = f"{name} {label.group(1).lower() if label else ''}"
        if {w[:4] for w in re.findall(r"[a-z]{3,}", said)} & words:
            return True
        if any(said[i:i + 2] in pairs for i in range(len(said) - 1) if _HAN.search(said[i:i + 2])):
            return True
    return False


def contrary(unit: Unit, text: str) -> bool:
    """Whether the text says the opposite of the value (checks-v11): a condition named only where it is denied
    ("排除甲亢", "ruled out epilepsy"), a finding on the other side or another strength (`other_side_or_strength`,
    checks-v15), or a lawsuit's other side (the value: sued by a supplier; the text: 作为原告起诉了供应商). The
    free-text check leaves such a pair for review at most."""
    if unit.kind == "health":
        names = written_names(unit)
        return (not _names_in(names, text, _DENIED_ONLY) and _names_in(names, text)
                or other_side_or_strength(unit.value, text))
    for side, other in ((_DEFENDANT, _PLAINTIFF), (_PLAINTIFF, _DEFENDANT)):
        if side.search(unit.value) and not side.search(text) and other.search(text):
            return True
    return False


def _pinyin(text: str) -> str:
    """The Chinese characters of a text in toneless pinyin, run together ("建国路" -> "jianguolu")."""
    from pypinyin import lazy_pinyin

    return "".join(lazy_pinyin("".join(re.findall(r"[\u4e00-\u9fff]", text))))


def _letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", normalize_text(text))


#: Before a name, what makes it another thing: "non-insulin-dependent diabetes", 非胰岛素依赖型 are type 2.
_NEGATED = re.compile(r"(?:\bnon[- ]?|非)$")


#: After a condition's name, what makes it a test, a vaccine or a service, not the condition someone has
#: ("hepatitis B vaccination", 乙肝五项, "the HIV clinic").
_NOT_HAD = re.compile(r" ?(?:tests?\b|testing|screening|screen\b|panel|vaccin|jab|shots?\b|clinic|specialist"
                      r"|awareness|negative\b|五项|两对半|筛查|检查|检测|疫苗|抗体|专科|门诊|宣传|防治|阴性)")
#: Before it in its clause, a denial: "no history of epilepsy", "ruled out HCV", 否认糖尿病史.
_DENIED = re.compile(r"(?:\b(?:no|not|never|denies|denied|without|ruled out|negative for|free of)\b"
                     r"|无|否认|未见|没有|排除)[^.;,!?。；，！？\n]{0,30}$")


_DENIED_ONLY = re.compile(r"(?!)")  # an `after` nothing follows: `_stated` then reads the denial alone


def _stated(name: str, norm: str, after: re.Pattern | None = None) -> bool:
    """Whether the folded text holds the name, a parenthesis read past ("insulin-dependent (juvenile-onset)
    diabetes" holds "juvenile-onset diabetes"), not negated by a prefix, and a short Latin name (HCV, MDD) as
    a word of its own, not inside another; with `after` (a condition), not followed by it nor denied before it
    in its clause (`_DENIED`)."""
    for view in dict.fromkeys([norm, re.sub(r" ?[()] ?", " ", norm).strip()]):
        short = latin(name) and len(name) < 5
        pattern = rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])" if short else re.escape(name)
        if any(not _NEGATED.search(view[:m.start()])
               and not (after and (after.match(view, m.end()) or _DENIED.search(view[:m.start()])))
               for m in re.finditer(pattern, view)):
            return True
    return False


def _names_in(names: Sequence[str], text: str, after: re.Pattern | None = None) -> bool:
    """Whether the text states one of the names (`_stated`): as written, by the glossary's translation (都柏林
    for "Dublin"), or across scripts by pinyin (an ASCII name "Jianguo" in a Chinese text, a Chinese name 漕溪
    romanised in an English one)."""
    norm = normalize_text(text)
    letters, romanised = _letters(text), _pinyin(text)
    for name in dict.fromkeys(normalize_text(n) for n in [*names, *(t for n in names for t in translations(n))]):
        if _stated(name, norm, after) or (latin(name) and len(name) >= 5 and name in romanised):
            return True
        if not latin(name) and len(romanised_name := _pinyin(name)) >= 5 and romanised_name in letters:
            return True
    return False


# --- entity binding ------------------------------------------------------------------------------

#: A template's slot for a person: a text with one states its values about nobody ("PIP for {employee_name}").
_PLACEHOLDER = re.compile(r"\{\{?\s*\w+\s*\}\}?|\$\{\w+\}|\[[A-Z][A-Z_ ]{2,}\]"
                          r"|<[a-z_]*(?:name|employee|patient|person)[a-z_]*>|【[^】]{1,8}】|某某|xxx", re.I)
#: Words that refer to one person without naming them: a text that uses one is about someone (a clinical
#: record's headings too: 既往史, "past medical history" are one patient's).
_PERSON = re.compile(r"\b(?:he|she|him|his|her|hers|i|me|my|mine|(?:the|this|our|your) (?:patient|employee|staff member"
                     r"|candidate|applicant|client|customer|tenant|claimant|member|colleague|worker|user|resident"
                     r"|student|hire)|patient|claimant|employee|applicant|tenant"
                     r"|(?:mr|mrs|ms|miss|dr|nurse|prof)\.? \w+)\b"
                     r"|\b(?:past medical history|history of present illness|chief complaint)\b"
                     r"|[他她我]|患者|病人|该员工|此人|本人|该客户|该申请人|这位|既往史|现病史|主诉"
                     r"|\w(?:先生|女士|小姐|护士|医生|老师)", re.I)
#: Another person a value may be about ("her mother's type 1 diabetes").
_KIN = re.compile(r"\b(?:mother|father|mom|mum|dad|parents?|sister|brother|siblings?|wife|husband|spouse|son|daughter"
                  r"|grandmother|grandfather|grandparents?|aunt|uncle|cousin|niece|nephew|friend)\b|母亲|父亲|妈妈|爸爸"
                  r"|姐姐|妹妹|哥哥|弟弟|妻子|丈夫|儿子|女儿|奶奶|爷爷|外婆|姥姥|姥爷|舅舅|姑姑|阿姨|叔叔|伯伯|朋友",
                  re.I)  # not 外公: 对外公布
#: How a company's own people speak of it: its business facts stated so are its own ("we came in short of the guide").
_WE = re.compile(r"\b(?:we|we're|we'd|we've|we'll|our|ours|us)\b|我们|我司|本公司|咱们", re.I)
#: A person handling a list, a process or a policy, or speaking of it in general: the value is the work, not
#: their own status ("孙丽负责汇总裁员名单": she compiles the list, she is not on it).
_ROLE = re.compile(r"负责|汇总|整理|经办|审核|\b(?:in charge of|responsible for|compil(?:e|es|ed|ing)|in general terms"
                   r"|hypothetical(?:ly)?)\b", re.I)
#: Another person by their relation to someone, then named ("his new hire, Ana Ruiz", 王丽娟的组长刘涛, 组里的孙浩,
#: 内推的候选人 Kevin Xu): a value in that sentence is that person's (checks-v10).
_RELATED = re.compile(
    r"(?:\b(?:his|her|their|my|your|our|the)|'s)\s+(?:new\s+)?(?:hire|report|direct report|assistant|deputy"
    r"|roommate|flatmate|housemate|colleague|co-?worker|candidate|referral|intern|manager|boss|team ?lead|teammate"
    r"|neighbou?r|successor|predecessor)s?\b[,:]?\s+(?P<en>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"
    r"|(?:组长|组员|下属|同事|室友|候选人|助理|主管|领导|上司|徒弟|实习生|邻居|新人|组里的|手下的|团队里的)[:：,，]?\s*"
    r"(?P<zh>[\u4e00-\u9fff]{2,3}|[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)")
#: Text about nobody in particular: a general question ("for someone newly diagnosed", "no patient details"),
#: people in general ("people with …"), a notice to all (通知：…, "Reminder:"). Its "patient" or 本人 refers to
#: no one person (checks-v10).
_INDEFINITE = re.compile(r"\b(?:general question|in general|generally speaking|no (?:patient|personal|identifying)"
                         r" (?:details|data|info)|someone|somebody|anyone|anybody|people (?:with|who)"
                         r"|patients (?:with|who))\b|一般来说|有人|某人|任何人|全体|各位|员工可", re.I)
_NOTICE = re.compile(r"\W*(?:notice|announcement|reminder|newsletter|faq|policy|通知|公告|提醒|温馨提示)\s*[:：]", re.I)
#: A result not known yet ("背调下周出结果", "results are not back yet"): what it will say is stated by no one.
_PENDING = re.compile(r"(?:下周|明天|过几天|稍后|还没|尚未|待)出结果|结果(?:还没出|未出|待定|出来前)"
                      r"|\bresults? (?:are |is )?(?:due|pending|not (?:back|in) yet)|\bawaiting (?:the )?results?\b"
                      r"|\bnot (?:back|known) yet\b", re.I)
#: A calendar entry or an invite: it names a meeting's subject ("年度绩效面谈"), not its outcome.
_SCHEDULE = re.compile(r"\W*(?:日历|日程|会议邀请|calendar|invite|agenda)\b", re.I)
_SENTENCES = re.compile(r"(?:[^.;!?。；！？\n]|(?<=\d)\.(?=\d))+")  # a decimal point ends no sentence (0.3B)
_HONORIFICS = ("先生", "女士", "小姐", "老师", "经理", "总", "医生", "同学", "阿姨", "叔叔", "大爷", "奶奶", "爷爷")


def entity_names(unit: Unit) -> tuple[str, ...]:
    """How a text may name the unit's entity: its name, a part of it (a given or family name; 晓燕 or 王女士 for
    王晓燕) and the glossary's transliterations of them."""
    name = normalize_text(unit.entity_name or "")
    if not name:
        return ()
    if latin(name):
        parts = [name, *(w for w in re.findall(r"[^\W\d_]{3,}", name))]
    else:
        han = "".join(_HAN.findall(name))
        surname = han[:2] if len(han) == 4 else han[:1]
        given = han[len(surname):]
        family, first = _pinyin(surname), _pinyin(given)  # romanised: Zhao Lei, Lei Zhao
        parts = [name, *([given] if len(given) >= 2 else []), *(surname + h for h in _HONORIFICS), "老" + surname,
                 "小" + surname, *([f"{family} {first}", f"{first} {family}", family + first] if given else [])]
    return tuple(dict.fromkeys([*parts, *(t for p in parts for t in translations(p))]))


def _names_entity(names: Sequence[str], text: str) -> bool:
    norm = normalize_text(text)
    return any(re.search(rf"(?<![a-z0-9]){re.escape(n)}(?![a-z0-9])", norm) if latin(n) else n in norm
               for n in names)  # a Latin name's bounds are its letters: "关于Mark Morales的" names him


def names_the_entity(unit: Unit, text: str) -> bool:
    """Whether the text names the unit's entity in any of its forms (`entity_names`)."""
    return _names_entity(entity_names(unit), text)


def another_person(names: Sequence[str], sentence: str) -> bool:
    """Whether the sentence names someone by their relation to another ("her roommate Lily Chen", 组里的孙浩)
    who is not the entity: a value there is that person's. A Chinese name starts with a surname."""
    from ec2audit.detect.compiled import han_surname_chars

    for m in _RELATED.finditer(sentence):
        name = m["en"] or m["zh"]
        if (latin(name) or name[0] in han_surname_chars()) and not _names_entity(names, name):
            return True
    return False


def namesake(unit: Unit, sentence: str) -> bool:
    """Whether the sentence names someone whose name is near the entity's but not it, and not the entity: the
    entity's given name with another family name ("Sofia Chen" for Sofia Marquez; an initial of hers, "Renata
    O.", is hers) or, in Chinese, a name of its length (three or four characters) with its surname, one character
    off (李思远 for 李思源).
    A value there is that person's (checks-v11)."""
    name = (unit.entity_name or "").strip()
    if not name or name.lower() in sentence.lower():
        return False
    if latin(name):
        words = re.findall(r"[^\W\d_]+", name)
        if len(words) < 2 or not re.fullmatch(r"[A-Z][^\W\d_]+(?: [A-Z][^\W\d_'-]+)+", name):
            return False
        folded = [w.lower() for w in words]
        return any(not any(f == w.lower() or (len(w) == 1 and f.startswith(w.lower())) for f in folded)
                   for m in re.finditer(rf"\b{re.escape(words[0])} ([A-Z][^\W\d_]*)", sentence) for w in [m[1]])
    han = "".join(_HAN.findall(name))
    if len(han) != len(name) or not 3 <= len(han) <= 4:  # 周阿 is no namesake of 周敏: an honorific follows
        return False
    starts = (i for i in range(len(sentence) - len(han) + 1) if sentence.startswith(han[0], i))
    return any(sum(a != b for a, b in zip(han, token, strict=True)) == 1 and _HAN.fullmatch(token[-1])
               for i in starts for token in [sentence[i:i + len(han)]])


def _without(names: Sequence[str], text: str) -> str:
    """The text less the entity's names: 周阿姨 calls Ms Zhou auntie, it names no relative of hers."""
    norm = normalize_text(text)
    for name in sorted(names, key=len, reverse=True):
        norm = norm.replace(name, " ")
    return norm


def binds(unit: Unit, text: str, start: int = 0, end: int = -1, others: Sequence[Unit] = (),
          specific: bool = False) -> bool:
    """Whether the text ties the value to its entity, so that stating it is this entity's leak: not when every
    sentence stating the value (that writes it, else that the model's span covers) is about another person (a
    kinship word, even beside the entity's name, or another entity of the unit set named there and not this
    one), nor in a template (a slot for a person, "{employee_name}"); and, for a value that general text also
    states (a condition, a status: not `specific`), only where the text names the entity (`entity_names`) or
    refers to one person ("the patient", 她). A `specific` value, one a check confirmed by its components (this
    number, this house on this street, this site's act), is stated about nobody only in a template. A value
    not bound is left for review at most; a unit with no entity name needs no name."""
    if unit.kind in IDENTIFIER_DIMENSIONS:
        return True  # a name, an e-mail, an ID: the value itself is the entity's
    names = entity_names(unit)
    sentences = [(m.start(), m.group()) for m in _SENTENCES.finditer(text)]
    amount = set(numbers(unit.value)) if check_for(unit).name == "numeric" else set()  # a number is written as one
    written = [t for _, t in sentences
               if _names_in(written_names(unit), t) or acronym_in(unit.value, t) or amount & set(numbers(t))]
    end = len(text) if end < 0 else end
    spanned = [t for s, t in sentences if s < end and s + len(t) > start]
    worded = [t for t in spanned if _stems(normalize_text(unit.value)) & _stems(normalize_text(t))]
    stating = written or worded or spanned or [text]  # worded: of the span's sentences, those with the value's words
    strangers = tuple(dict.fromkeys(n for o in others if o.entity_id != unit.entity_id for n in entity_names(o)
                                    if n not in names and len(n) >= 3))
    if all(_KIN.search(_without(names, t)) or (_names_entity(strangers, t) and not _names_entity(names, t))
           or another_person(names, t) or namesake(unit, t)
           or (not specific and (_ROLE.search(t) or _PENDING.search(t)))
           for t in stating):
        return False  # "Tom's mother has type 1 diabetes": the kin word takes the value even with Tom named
    if not (specific or written) and _SCHEDULE.match(text):
        return False  # "Calendar: Sun Yue, annual review, 15:00": a meeting's subject, not what it decides
    if names and _names_entity(names, text):
        return True
    person = _PERSON.search(text) is not None and not (_NOTICE.match(text) or any(_INDEFINITE.search(t)
                                                                                 for t in stating))
    return not _PLACEHOLDER.search(text) and (specific or not names or person
                                              or (unit.kind == "business" and _WE.search(text) is not None))


def bound(verdict: Verdict, unit: Unit, text: str, others: Sequence[Unit] = ()) -> Verdict:
    """A check's grade of a value it confirmed by its components where `binds` ties it to its entity; else the
    same span, left for review."""
    if verdict.grade <= 0 or binds(unit, text, verdict.start, verdict.end, others, specific=True):
        return verdict
    return Verdict(0.0, verdict.evidence, verdict.start, verdict.end, review=True)


# --- addresses ----------------------------------------------------------------------------------

_POSTCODE = re.compile(r"\b(?:\d{5}|\d{6}|[a-z]{1,2}\d[a-z\d]? ?\d[a-z]{2})\b")
_STREET_WORDS = ("street|st|road|rd|avenue|ave|lane|ln|drive|dr|court|ct|terrace|blvd|boulevard|way|place|pl"
                 "|rue|square|sq|close|crescent|parkway|highway|hwy|grove|gardens|mews|row|walk|circle|trail|plaza")
_HOUSE_NUMBER = re.compile(rf"(?<![\d-])(\d+)[a-z]?,? (?:[a-z.]+ ){{0,3}}?(?:{_STREET_WORDS})\b"
                           rf"|(?:no\.?|number|#) ?(\d+)\b|(\d+) ?[号號栋幢弄]")
_NAMED_STREET = re.compile(rf"(?<![\d-])(?P<en>\d+)[a-z]?,? (?:[a-z.]+ ){{1,3}}?(?:{_STREET_WORDS})\b"
                           r"|[\u4e00-\u9fff]{2,6}?(?:路|街|大道|巷)(?P<zh>\d+)[号號]")
_CHINESE_HOUSE = re.compile(f"第?([{CHINESE_NUMERALS}]+)[号號栋幢弄]")
_ADMIN = re.compile(r"^.*[省市区县縣]")  # a Chinese address's province, city and district, before its street


@dataclass(frozen=True)
class Address:
    """An address value's components: the house number, the street's (or place's) name and the postcode."""

    house: float
    names: tuple[str, ...]
    postcodes: tuple[str, ...]
    parts: tuple[str, ...]  # every numbered part, house to flat ("1842", "3b"; "17", "2", "3", "502")
    localities: tuple[str, ...] = ()  # the city and district ("bristol"; 杭州, 西湖区): a neighbourhood's names

    @classmethod
    def parse(cls, value: str) -> Address | None:
        norm = normalize_text(value)
        postcodes = tuple(m.replace(" ", "") for m in _POSTCODE.findall(norm))
        rest = _POSTCODE.sub(" ", norm)
        house = re.search(r"\d+", rest)
        if house is None:
            return None
        if latin(norm):  # the words of the street's part, less the street words ("Birchwood" of its court)
            street = rest.split(",")[0]
            names = tuple(w for w in re.findall(r"[a-z]{3,}", street) if not re.fullmatch(_STREET_WORDS, w))
            localities = tuple(re.findall(r"[a-z]{3,}", rest[len(street):]))
        else:  # the name before its 路 or 街, or the place before the number (天府软件园)
            admin = _ADMIN.match(rest)
            places = re.findall(r"[\u4e00-\u9fff]+?[省市区县縣]", admin.group() if admin else "")
            localities = tuple(p for part in places for p in (part, part[:-1]) if len(p) >= 2)
            street = re.split(r"\d", _ADMIN.sub("", rest))[0]
            street = re.sub(r"[东南西北中]?(?:路|街|大道|道|巷|弄)$", "", street)
            names = tuple(street[i:i + 2] for i in range(0, max(1, len(street) - 1), 2)) if len(street) > 4 \
                else (street,)
        return cls(float(house.group()), tuple(n for n in names if len(n) >= 2), postcodes,
                   tuple(re.findall(r"\d+[a-z]?", rest)), localities)

    def conflicts(self, text: str) -> bool:
        """Whether a line of the text that names the street or postcode gives one of the address's numbered
        parts one character off ("Apt 3D" for "Apt 3B", 403室 for 402室, 326号 for 328号): the address next
        door. Only those lines: a record's other numbers (IDs, dates) are no address."""
        lines = [line for line in re.split(r"[\n;。；!?！？]", text) if any(self.places(line))]
        found = set(re.findall(r"\d+[a-z]?", normalize_text(alpha_digits(" ".join(lines)))))
        return any(part not in found and any(_one_off(part, t) for t in found) for part in self.parts
                   if len(part) >= 2)

    def places(self, text: str) -> tuple[bool, bool]:
        """Whether the text names the street (or place), and whether it gives the postcode."""
        return (_names_in(self.names, text),
                any(p in normalize_text(text).replace(" ", "") for p in self.postcodes))

    def other_street(self, text: str) -> bool:
        """Whether the text gives this house number on a street it names, where that street is not this one
        (45 Oak Street for 45 Maple Street, 学院路58号 for 中关村大街58号): another address in the same city. Only
        a street in the value's script: a transliterated one (贝克巷 for Baker Lane) cannot be compared."""
        norm = normalize_text(alpha_digits(text))
        for m in _NAMED_STREET.finditer(norm):
            number = m["en"] or m["zh"]
            same_script = latin(m.group()) == all(latin(n) for n in self.names)  # 贝克巷 cannot be compared
            if float(number) == self.house and same_script and not _names_in(self.names, m.group()):
                return True
        return False

    def houses_in(self, text: str) -> set[float]:
        """The numbers the text gives in a house number's place ("1188 SE Hawthorne Blvd", "595号", "no. 17")."""
        norm = normalize_text(alpha_digits(text))
        found = {float(next(g for g in m.groups() if g)) for m in _HOUSE_NUMBER.finditer(norm)}
        for m in _CHINESE_HOUSE.finditer(norm):
            found.update(_numeral(m.group(1)))
        return found


def _one_off(a: str, b: str) -> bool:
    """Two strings of one length that differ in one place, or in the order of their characters."""
    return len(a) == len(b) and a != b and (sum(x != y for x, y in zip(a, b, strict=True)) == 1
                                            or sorted(a) == sorted(b))


@register
class AddressCheck:
    """Addresses with a house number: read by component. The house number with the street's name or the
    postcode is this address in any words or script, as is the street's hundred block holding the house ("the
    1400 block" of the street for 1420; checks-v11); another house number is another address (a veto, the
    same street or postcode or not), and the postcode or the city and district alone a neighbourhood (review at
    most). Otherwise (a landmark, a description) the free-text check."""

    name = "address"

    def claims(self, unit: Unit) -> bool:
        return unit.kind == "location" and Address.parse(unit.value) is not None

    def decide(self, unit: Unit, text: str, reading: Reading, others: Sequence[Unit] = ()) -> Verdict:
        address = Address.parse(unit.value)
        assert address is not None
        houses = address.houses_in(text)
        street, postcode = address.places(text)
        ours = address.house in houses or address.house in numbers(text)
        block = address.house >= 100 and re.search(rf"(?<![\d,.]){int(address.house) // 100 * 100} block\b", text)
        if street and block and reading.probability >= reading.review_threshold:  # "the 1400 block" of the street
            return bound(Verdict(MOSTLY, text[reading.start:reading.end], reading.start, reading.end), unit, text,
                         others)
        if address.conflicts(text) or (not street and address.other_street(text)):
            return Verdict(0.0)  # a numbered part one off, or this number on another street: another address
        if (street or postcode) and ours and reading.probability >= reading.review_threshold:
            return bound(Verdict(MOSTLY, text[reading.start:reading.end], reading.start, reading.end), unit, text,
                         others)
        if houses and address.house not in houses:
            return Verdict(0.0)  # a house number, not this one: another address
        if not (street or ours) and (postcode or _names_in(address.localities, text)):
            return reading.verdict(text, grade=False)  # the postcode or the district alone: a neighbourhood
        return free_text(unit, text, reading, others)


# --- business facts -----------------------------------------------------------------------------

#: What a business fact says is done, by kind of act, in English and Chinese: a text that names the fact's
#: company or place with another act ("expand the Dublin call centre" for its closure) is another fact.
ACTS: dict[str, tuple[str, ...]] = {
    "close": ("close", "closing", "closure", "shut", "shutting", "wind down", "winding down", "wound down",
              "关闭", "关停", "停产", "撤销", "撤掉", "裁撤"),
    "open": ("open", "opening", "launch", "set up", "开设", "开业", "新建", "兴建", "建厂", "设立"),
    "acquire": ("acquire", "acquiring", "acquisition", "buy", "buying", "purchase", "take over", "takeover",
                "收购", "买下", "并购"),
    "sell": ("sell", "selling", "sale", "divest", "offload", "dispose", "出售", "卖掉", "转让"),
    "merge": ("merge", "merger", "merging", "combine", "combining", "join forces", "joining forces", "合并"),
    "cut": ("lay off", "laying off", "layoff", "redundanc", "cuts", "cut jobs", "cutting", "headcount reduction",
            "workforce reduction", "裁员", "减员", "砍掉", "裁掉"),
    "hire": ("hire", "hiring", "recruit", "招聘", "扩招"),
    "move": ("move", "moving", "relocate", "relocating", "relocation", "搬迁", "迁往", "迁至"),
    "exit": ("exit", "pull out", "pulling out", "withdraw", "leave the", "退出", "撤出"),
    "list": ("ipo", "listing", "go public", "float", "上市", "挂牌"),
    "expand": ("expand", "expanding", "expansion", "extend", "扩建", "扩大", "扩张"),
    "partner": ("partner", "partnership", "alliance", "合作", "结盟"),
}
#: Words in company and site names that name no one company or site.
BUSINESS_GENERIC = frozenset({"bank", "group", "holdings", "analytics", "software", "logistics", "foods", "capital",
                              "partners", "systems", "technologies", "labs", "company", "corp", "inc", "ltd",
                              "工厂", "公司", "集团", "科技", "软件", "项目", "仓库", "市场", "总部", "中心",
                              "计划", "比例", "人员", "团队", "业务"})
#: A sentence about many companies or acts at once ("Datadog has made several acquisitions", 不少公司都有裁员计划，
#: 比例普遍在…): a pattern or a market, not this one fact (checks-v11).
_GENERAL = re.compile(r"\b(?:several|many|multiple|numerous|a (?:series|string|wave|number) of|a few|most|industry"
                      r"|across the (?:sector|industry|market))\b|不少|很多|许多|多家|多起|普遍|行业|各大|一些", re.I)
_TIMES = re.compile(f"(?:[{CHINESE_NUMERALS}\\d]+|明|今|去|下半|上半)(?:年|季度|月|家|个)|[在于从到向把将的和与第]")
#: Where a sentence passes from one site's act to another's ("Leeds closes, while the York site stays"): a fact's
#: act counts only in the part that names its company or place (not at every comma: 深圳那个厂子…，…停产).
_ACT_CLAUSE = re.compile(r"\b(?:while|whereas|but)\b|[,，] ?and\b|而|但是?|同时")


#: What an act is done to, right after its word: a capitalised place before a kind of site ("closed the El Paso
#: depot") or, in Chinese, a place before a kind of site (关闭西安客服中心).
_OBJECT = re.compile(r"[a-z]* (?:the |our |its |their |a )?((?:[A-Z][\w-]* ){1,3})(?=(?i:depot|plant|warehouse"
                     r"|office|site|cent(?:er|re)|factory|store|dc|hub|branch|facility|mill|campus)\b)"
                     r"|[了掉]?([\u4e00-\u9fff]{2,4}?)(?:客服中心|中心|工厂|厂|仓库|门店|分公司|办事处|公司|基地|店)")


def acts(text: str, names: Sequence[str] = ()) -> set[str]:
    """The kinds of act the text states; with a fact's `names`, less an act done to another named site ("we
    closed the El Paso depot and moved its volume to Tucson" closes no Tucson site)."""
    found = set()
    for act, words in ACTS.items():
        for w in words:
            for m in re.finditer(rf"\b{re.escape(w)}" if w.isascii() else re.escape(w), text, re.I):
                target = _OBJECT.match(text, m.end())
                named = target and normalize_text(target.group(1) or target.group(2) or "")
                if not (names and named and not _names_in(names, named)):
                    found.add(act)
                    break
    return found


def business_names(value: str) -> tuple[str, ...]:
    """The names in a business fact: its capitalised words (Dublin, Nordlight) or, in Chinese, the
    characters left once its acts and times are taken out (成都, 星河软件)."""
    if latin(value):
        names = [w.lower() for w in re.findall(r"\b[^\W\d_]{3,}", value) if w[0].isupper() and not acts(w)]
        return tuple(w for w in dict.fromkeys(names) if w not in BUSINESS_GENERIC)
    rest = normalize_text(value)
    for words in ACTS.values():
        for w in words:
            if not w.isascii():
                rest = rest.replace(w, " ")
    rest = _TIMES.sub(" ", rest)
    pairs = (run[i:i + 2] for run in re.findall(r"[\u4e00-\u9fff]+", rest) for i in range(0, len(run) - 1))
    latin_words = re.findall(r"[a-z]{3,}", rest)  # a Latin name inside the Chinese fact (Acme); digits name nothing
    return tuple(p for p in dict.fromkeys([*pairs, *latin_words]) if p not in BUSINESS_GENERIC)


def amounts(value: str) -> list[float]:
    """A business fact's sums of money or counts (10,000 or more, not a year): with its name, this fact."""
    return [n for n in numbers(value) if n >= 1e4 and not (1900 <= n <= 2100)]


def _sum_stated(sums: Sequence[float], clause: str) -> bool:
    """Whether the clause states one of a fact's sums: as it is, or close to it with an approximation cue
    ("around 0.3B" for about $310M; checks-v11)."""
    found = numbers(clause)
    return bool(set(sums) & set(found)) or (_APPROXIMATE.search(clause) is not None and any(
        abs(n - v) <= CLOSE * v for n in found for v in sums))


@register
class BusinessCheck:
    """Business facts: a sentence that names the fact's company or place and states its act is this fact
    (graded with no other fact to contrast it with); one that names them with another act and not this one
    is another fact (a veto), and one that names them with no act of its own (an act `ACTS` has no word for:
"repaint the Wuhan warehouse") is left for review at most, never graded on the name alone. Otherwise the
free-text check."""

    name = "business"

    def claims(self, unit: Unit) -> bool:
        return unit.kind == "business" and bool(acts(unit.value)) and bool(business_names(unit.value))

    def decide(self, unit: Unit, text: str, reading: Reading, others: Sequence[Unit] = ()) -> Verdict:
        own, names = acts(unit.value), business_names(unit.value)
        if reading.probability >= reading.review_threshold:
            named = [c for s in _SENTENCES.findall(text) if not _GENERAL.search(s)
                     for c in _ACT_CLAUSE.split(s) if _names_in(names, c)]
            said = [acts(c, names) for c in named]
            if any(own & a for a in said) or any(_sum_stated(amounts(unit.value), c) for c in named):
                return bound(Verdict(MOSTLY, text[reading.start:reading.end], reading.start, reading.end), unit,
                             text, others)
            if any(a - own for a in said):
                return Verdict(0.0)  # its company or place, another act: another fact
            if named:  # its name with no act of its own (repainted, renewed a contract): review at most
                return reading.verdict(text, grade=False)
        return free_text(unit, text, reading, others)


@register
class FreeTextCheck:
    """Diagnoses, business facts and notes: `free_text`."""

    name = "free-text"

    def claims(self, unit: Unit) -> bool:
        return True

    def decide(self, unit: Unit, text: str, reading: Reading, others: Sequence[Unit] = ()) -> Verdict:
        return free_text(unit, text, reading, others)
