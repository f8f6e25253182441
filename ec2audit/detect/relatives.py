"""A record said of a relative the text names: "Priya's younger brother Arjun Raman was diagnosed with type 1
diabetes", "Sofia Ruiz (4A, his cousin) — severe peanut allergy", "赵德明的哥哥赵德华 2025 年因醉驾被判拘役两个月",
"被行政拘留10日的是蓝浩宇的表哥蓝志强". The record (a health value, or another record about someone: the `other`
dimension) is the relative's, so no string tier's hit of it is a leak of the entity's.

A relation word alone says nothing of whose the record is ("her brother drove her in; she has …"): the relative must
be named — a name right after the relation word, or the name before a bracket that says "his cousin" — in the same
sentence before the record, with no word of the entity's own name (nor "herself", 本人) between, nor an English
pronoun (it could be either's; a Chinese topic chain, "钟慧琳也来看了，她是…", keeps the relative); or, in Chinese,
the record said to be "是…的表哥蓝志强"'s right after it. Names, contacts, IDs and amounts stay the values they are
whoever they are said of."""

from __future__ import annotations

import re
from functools import cache

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.forms.acronyms import entity_words

#: the dimensions whose values say something of someone: said of a relative, they are the relative's
_RECORDS = frozenset({"health", "other"})
_EN = (r"sibling|sister|brother|half-sister|half-brother|mother|father|mum|mom|dad|parent|cousin|aunt|uncle|wife"
       r"|husband|son|daughter|grandmother|grandfather|grandma|grandpa|grandson|granddaughter|nephew|niece|twin"
       r"|stepmother|stepfather|stepson|stepdaughter")
_ZH = (r"哥哥|姐姐|弟弟|妹妹|表哥|表姐|表弟|表妹|堂哥|堂姐|堂弟|堂妹|父亲|母亲|爸爸|妈妈|儿子|女儿|丈夫|妻子|爷爷|奶奶"
       r"|外公|外婆|叔叔|舅舅|姑姑|姨妈|侄子|侄女|外甥|外甥女|双胞胎(?:哥哥|姐姐|弟弟|妹妹)")
#: a relative named before the record: the relation word and a name after it, or a bracket saying whose relative
_NAMED = re.compile(rf"\b(?:{_EN})s?,? (?P<latin>[A-Z][a-z'’-]+(?: [A-Z][a-z'’-]+)*)"
                    rf"|\b(?:his|her|their) (?:{_EN})\)"
                    rf"|(?:{_ZH})(?P<han>[\u4e00-\u9fff]{{2,3}})")
#: the record said to be a named relative's right after it, the name ending the clause (Chinese):
#: "的是蓝浩宇的表哥蓝志强，"
_IS_RELATIVES = re.compile(rf"的?是[^，。；;！？\n]{{0,8}}?的?(?:{_ZH})(?P<han>[\u4e00-\u9fff]{{2,3}})"
                           r"(?:[，。；;！？,.\n]|$)")
#: a pronoun between an English relative's name and the record: it could be either's
_PRONOUN = re.compile(r"\b(?:she|he|her|him|his|they|them)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?;。！？；\n]")
_OWN = re.compile(r"\b(?:herself|himself|themselves)\b|本人|自己")
_LOOK = 120  # characters before a record that its relative is named within


def of_relative(text: str, start: int, end: int, cu: CompiledUnit) -> bool:
    """Is the record hit at `start:end` of `text` said of a relative the text names, not of the unit's entity?"""
    if cu.rules.name not in _RECORDS:
        return False
    before = text[max(0, start - _LOOK):start]
    ends = [m.end() for m in _SENTENCE_END.finditer(before)]
    before = before[ends[-1] if ends else 0:]
    words, _ = entity_words(cu)
    named = [m for m in _NAMED.finditer(before) if _a_name(m)]
    if named:
        last = named[-1]
        name = last["latin"] or last["han"] or ""
        between = before[last.end():]
        if not (_is_entity(name, words) or _OWN.search(between) or _names_entity(between, words, cu)
                or (last["han"] is None and _PRONOUN.search(between))):
            return True
    after = _IS_RELATIVES.match(text, end)
    return after is not None and _a_name(after) and not _is_entity(after["han"], words)


def _a_name(match: re.Match[str]) -> bool:
    """Is what follows the relation word a name: Latin words in capitals, or Han characters whose first is a common
    surname's (not "说她", what the relative said)?"""
    han = match.groupdict().get("han")
    return han is None or han[0] in _surname_starts()


@cache
def _surname_starts() -> frozenset[str]:
    """The first characters of Faker's zh_CN surnames, all 400-odd (蓝 too, not among the commonest)."""
    from faker.providers.person.zh_CN import Provider

    return frozenset(name[0] for name in Provider.last_names)


def _is_entity(name: str, words: list[str]) -> bool:
    """Is the name after the relation word the entity's own (its given name, or its whole Chinese name)?"""
    return bool(name) and (name.split()[0].lower() in words[:1] or name in words)


def _names_entity(between: str, words: list[str], cu: CompiledUnit) -> bool:
    """Does the stretch between the relative's name and the record name the entity again (a word of its name, 3
    letters or more; its Chinese name)?"""
    lower = between.lower()
    entity = cu.unit.entity_name or ""
    return any(len(w) >= 3 and re.search(rf"\b{re.escape(w)}\b", lower) for w in words) or (
        bool(entity) and not entity.isascii() and entity in between)
