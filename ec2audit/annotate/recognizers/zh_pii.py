"""Chinese personal data: mobile numbers, 18-digit resident IDs (GB 11643 checksum), names.

Presidio's English models see none of these. A name is proposed with a cue that a person is meant
(`姓名：`, a role or title before it, 先生/女士/经理… after it; then a name that is a dictionary word, 李娜, counts
too), or as a common surname and one or two characters
standing alone (between punctuation, quotes, spaces or a few function characters such as 是/的) that
jieba's dictionary does not know as an ordinary word (`顾客`, `周六`, `高血压` are words, `王美玲` is not).
Traditional forms of the surnames count too (陳雅琴). Where a candidate runs on into Han text, jieba's word
segmentation of the clause places the name's end (`患者王芳确诊` is 王芳 + 确诊, `王小明确认` is 王小明 + 确认):
a list of verbs cannot, as cutting at any dictionary word would also cut three-character names.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from functools import cache
from typing import NamedTuple

from ec2audit.annotate.recognizers.base import PatternRecognizer, digits

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"
_SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
             "姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")
_HONORIFICS = "先生|女士|小姐|老师|医生|经理|总监|主任|教授|同学|律师|药师|博士|师傅|护士"
#: One-character titles a surname takes as a form of address (`王总` the boss, `李工` the engineer, `张姐`):
#: the surname and a title, no given name, so no full name to propose
_SHORT_TITLES = "总工董姐哥叔姨"
_HAN = "\u4e00-\u9fff"


def _with_traditional(chars: str) -> str:
    from opencc import OpenCC

    return "".join(dict.fromkeys(chars + OpenCC("s2t").convert(chars)))


_ALL_SURNAMES = _with_traditional(_SURNAMES)


#: After a word for a person's role, a surname and two characters are a name even inside running text.
_ROLE = ("患者", "客户", "学生", "新生", "员工", "家长", "租客", "申请人", "参保人", "联系人", "收件人", "关于", "班",
         # court documents and contracts name the parties by their role
         "原告", "被告", "第三人", "上诉人", "申请人", "被申请人", "被执行人", "当事人", "法定代表人", "代理人", "证人",
         "借款人", "出借人", "担保人", "投保人", "被保险人", "受益人", "收款人", "付款人", "持卡人", "承租人", "出租人",
         "候选人", "求职者", "负责人", "经办人", "主讲人", "嫌疑人", "被害人", "受保人", "被保人", "法人", "责任人",
         "处理人", "派件员", "快递员", "司机", "朋友", "同事", "床",
         # a title or an office before the name (`主治医生王建华`, `总经理张宁`, `审判员白雪`, `班主任李娜老师`)
         "医生", "医师", "护士", "护士长", "药师", "经理", "总监", "主任", "董事长", "总裁", "店长", "顾问", "老师",
         "辅导员", "教授", "校长", "院长", "审判长", "审判员", "书记员", "法官", "检察官", "律师", "被告人", "面试官",
         "收货人", "会计", "秘书", "助理", "组长", "队长", "科长", "处长", "部长", "专员", "班长", "局长", "行长",
         "厂长", "所长", "市长", "县长", "村长", "秘书长", "研究员", "工程师", "设计师",
         # a mention in a chat (`@李娜 明天开会`)
         "@")
#: Two-character surnames: `欧阳静怡` is 欧阳 + 静怡, not a name starting 欧.
_COMPOUND = ("欧阳", "司马", "上官", "诸葛", "东方", "皇甫", "尉迟", "公孙", "慕容", "令狐", "司徒", "夏侯", "长孙",
             "宇文", "端木", "独孤", "南宫", "西门", "澹台", "轩辕")
_SURNAME = "(?:" + "|".join(_COMPOUND) + f"|[{_ALL_SURNAMES}])"
#: The role words, longest first (`护士长` before `护士`): matched, not looked behind for, as one look-behind per
#: role would be tried at every position of the text.
_ROLES = "|".join(sorted(set(_ROLE), key=len, reverse=True))
#: A particle or verb after a one-character given name ends the name: `客户张伟的手机号` names 张伟, not 张伟的.
_AFTER_NAME = "的是在说已被将把也还要不"
_GIVEN = rf"[{_HAN}](?:(?![{_AFTER_NAME}])[{_HAN}])"
#: A role word ending where the text searched ends (searched from `_LONGEST_ROLE` characters before).
_ROLE_ENDS = re.compile(rf"(?:{_ROLES})$")
_LONGEST_ROLE = max(map(len, _ROLE))
_ROLE_NAME = (rf"(?:{_ROLES}) ?(?P<value>(?:{'|'.join(_COMPOUND)}){_GIVEN}?|[{_ALL_SURNAMES}]{_GIVEN}?)")
#: Function characters a name may follow inside a run of Han characters (`由王伟负责`, `联系人是王伟`).
_BEFORE_NAME = rf"(?:(?<![{_HAN}])|(?<=[是叫给与和跟对向由班及的个]))"
#: A bare name: not inside a run of Han characters, except after or before a few function characters.
_BARE_NAME = (rf"{_BEFORE_NAME}(?P<value>(?:{'|'.join(_COMPOUND)})[{_HAN}]{{1,2}}"
              rf"|[{_ALL_SURNAMES}][{_HAN}]{{1,2}})(?=[^{_HAN}]|$|的|是|为|在|曾|于|和|与|说|您|还|或|也|已|被|{_HONORIFICS})")
#: A name alone in a table cell or a list item: `| 派件员 | 马建军 |`, `,马建军,处理中`, `：马建国 1 起、`.
_CELL_NAME = (rf"(?:(?<=[|,，、：:;；\t] )|(?<=[|,，、：:;；\t]))(?P<value>[{_ALL_SURNAMES}][{_HAN}]{{2}})"
              rf"(?=[ \t]?[|,，、;；\t\n]|[ \t]\d|$)")
#: A name before what the person does in a calendar or minutes: `（黄子涵主讲）`, `王伟签字`, `由王伟负责`.
_NAME_ACTING = rf"{_BEFORE_NAME}(?P<value>{_SURNAME}[{_HAN}]{{1,2}}?)(?=主讲|主持|发言|签字|签名|汇报|负责|确认)"


class _Lexicon(NamedTuple):
    common: frozenset[str]  # words of 2–4 characters used 50+ times
    not_names: frozenset[str]  # of those, used 100+ times and not a person's name
    names: frozenset[str]  # common words that are names too (李娜, 马超, 高峰): tagged `nr`, a given name's characters
    given: frozenset[str]  # characters found more often in people's given names than in ordinary words
    rare: frozenset[str]  # characters found in given names less than half as often as in ordinary words


@cache
def _lexicon() -> _Lexicon:
    """Read from jieba's dictionary (`dict.txt`: word, frequency, part of speech; its own tables of all 349k words
    take 130 MB, these a few MB). jieba tags names `nr`, but also 顾客, 陈述, 张开 and 王府井: a tagged word is a
    name only where its given part is made of given-name characters, those more often in the dictionary's
    three-character names (a surname and two) than in its other common words (娜 31 to 5, 开 75 to 199)."""
    import jieba

    common: dict[str, tuple[int, str]] = {}
    in_names: Counter[str] = Counter()
    with jieba.get_dict_file() as lines:
        for line in lines:
            word, freq, tag = line.decode("utf-8").split()
            if len(word) == 3 and tag == "nr" and word[0] in _ALL_SURNAMES:
                in_names.update(word[1:])
            if 2 <= len(word) <= 4 and int(freq) >= 50:
                common[word] = int(freq), tag
    in_words = Counter(c for word, (_, tag) in common.items() if not tag.startswith("nr") for c in set(word))
    given = frozenset(_with_traditional("".join(c for c, n in in_names.items() if n > in_words[c])))  # 华, 華
    rare = frozenset(c for c, n in in_words.items() if 2 * in_names[c] < n)  # 考, 住, 会; not 新 (立新), 生
    # judged only where a surname starts the tagged word (桂花, tagged too, may end a name: 金桂花)
    tagged = {w for w, (_, tag) in common.items()
              if tag.startswith("nr") and (w[0] in _ALL_SURNAMES or w[:2] in _COMPOUND)}
    names = frozenset(w for w in tagged  # 谢谢, 白白: a word said twice, not a name
                      if _given_part(w) and set(_given_part(w)) <= given and w[1] != w[0])
    not_names = frozenset(w for w, (freq, tag) in common.items()
                          if freq >= 100 and w not in names and (w in tagged or not tag.startswith("nr")))
    return _Lexicon(frozenset(common), not_names, names, given, rare)


def _given_part(value: str) -> str:
    return value[2:] if value[:2] in _COMPOUND else value[1:]


#: How many characters either side of a candidate jieba reads to place its end: a clause, not the document.
_CONTEXT = 8


@cache
def _segmenter():
    """jieba's default tokenizer: its dictionary is built on first use (~1 s, ~70 MB), not at import."""
    import jieba

    jieba.setLogLevel(logging.WARNING)  # its "Building prefix dict" lines are not ours to print
    jieba.dt.initialize()  # its dictionary (`FREQ`) is read here, not on the first cut
    return jieba.dt


def _word_ends(text: str, guess: bool = True) -> list[int]:
    """Where jieba's words of `text` end; with `guess`, its HMM also joins characters no dictionary word holds."""
    ends, at = [], 0
    for word in _segmenter().cut(text, HMM=guess):
        at += len(word)
        ends.append(at)
    return ends


def name_span(text: str, start: int, end: int) -> tuple[int, int]:
    """A name candidate's span by jieba's words around it: where it starts (`name_start`) and ends (`name_end`)."""
    start = name_start(text, start, end)
    return start, name_end(text, start, end)


def name_start(text: str, start: int, end: int) -> int:
    """A candidate whose first character ends a dictionary word before it starts after that word, where jieba's
    segmentation agrees and a surname follows the word (`班主任李娜老师` is 班主任 + 李娜, not 任 + 李娜); with
    that surname alone left (`班主任刘老师`) there is no name. Not where a title ends right before the candidate and
    the word is none (`院长江高明` is 院长 + 江高明, though jieba reads 长江, the river)."""
    if start == 0 or not "\u4e00" <= text[start - 1] <= "\u9fff":
        return start
    words = _segmenter().FREQ
    if not any(words.get(text[b:start + 1]) for b in range(max(0, start - 3), start)):
        return start
    lo = max(0, start - _CONTEXT)
    cuts = [lo + c for c in _word_ends(text[lo:min(len(text), end + _CONTEXT)])]
    if start in cuts:
        return start
    after = min(c for c in cuts if c > start)
    if text[after] not in _ALL_SURNAMES:
        return start  # no surname after the word (`客户王|芳`: jieba's 客户王 is a dictionary oddity)
    if _ROLE_ENDS.search(text, max(0, start - _LONGEST_ROLE), start) and \
            not _ROLE_ENDS.search(text, max(0, after - _LONGEST_ROLE), after):
        return start  # a title ends here, not in the word read over it (院长|江高明, jieba's 院|长江|高明)
    return after if end - after >= 2 else end  # a lone surname left (`班主任刘老师`): a form of address, no name


def name_end(text: str, start: int, end: int) -> int:
    """Where a name candidate running on into Han text ends, by jieba's words around it. A candidate whose
    end falls inside a dictionary word gives that word back (`李娜确|诊` → 李娜; a word jieba only guessed,
    `赵国|栋续方`, is no evidence), unless it ends in a given name's character and the text after the whole
    candidate reads in fewer dictionary words (`周子健|康复出院`, not `周子|健康|复出|院`: the name jieba did not
    know is kept; `马超|会诊后` stays cut, as jieba's guess 诊后 is no word). One ending in a one-character
    word gives it back only when that is a particle or copula (`张伟|是|经理`) or a character given names hardly
    use (`王明|考了`; not 林立|新): a given name's last character can be a word of its own (`赵国|栋`). A surname
    and one given character (two of a compound surname) are never cut."""
    least = start + (3 if text[start:start + 2] in _COMPOUND else 2)
    if end <= least or end == len(text) or not "\u4e00" <= text[end] <= "\u9fff":
        return end
    words, (common, _, _, given, rare) = _segmenter().FREQ, _lexicon()  # FREQ: words and their prefixes (count 0)
    last = text[end - 1]
    if (last not in _AFTER_NAME and (last not in rare or text[start:end - 1] not in common)
            and not any(text[b:end + 1] in words for b in range(least, end))):
        return end  # no dictionary word could cross the end, nor a particle or a known name's end close it
    lo, hi = max(0, start - _CONTEXT), min(len(text), end + _CONTEXT)
    cuts = [lo + c for c in _word_ends(text[lo:hi])]
    before = max(c for c in [start, *cuts] if c < end)
    after = min([c for c in cuts if c > end], default=end)
    if max(c for c in [lo, *cuts] if c < end) <= start and words.get(text[start:after]):
        return start  # the candidate begins a dictionary word that runs on past it (孙子兵|法): no name
    known = before >= least and text[start:before] in common  # a name the dictionary knows ends there
    if end in cuts:
        single = end - before == 1 and before >= least
        return before if single and (text[before] in _AFTER_NAME or (known and last in rare)) else end
    if before < least or (not words.get(text[before:after]) and (last not in rare or not known)):
        return end
    if last in given and len(_word_ends(text[end:hi], False)) < len(_word_ends(text[before:hi], False)):
        return end
    return before


#: A team or an office, not a person, where a person is asked for (`联系人：运维组`, `负责人：财务部`).
_TEAM = re.compile(r"[\u3400-\u9fff]+(?:组|部|科|处|室|队|中心|部门|团队|公司|委员会)")


def is_team(value: str) -> bool:
    """Three Han characters or more ending in a word for a group: `运维组`, `技术中心`, never `李科`."""
    return len(value) >= 3 and _TEAM.fullmatch(value) is not None


def _unnamelike(value: str) -> bool:
    """Two given characters that given names hardly use (`老师向我们介绍`, `白跑了`; 子墨 is a given name), or one
    that is a particle (`客户钱还没付`)."""
    part = _given_part(value)
    return part in tuple(_AFTER_NAME) or (len(part) == 2 and set(part) <= _lexicon().rare)


def _not_a_word(value: str) -> bool:
    """A bare candidate is a name unless it (or its head or tail) is a common dictionary word, or
    its given part is a title (`刘老师` is a surname fragment, found by the honorific pattern) or has no
    given name's character, or it names a team."""
    if is_team(value) or _addressed(value) or _unnamelike(value):
        return False
    common, not_names, _, _, _ = _lexicon()
    if value[:2] in _COMPOUND:  # 欧阳 is a word too: judge the given name
        return len(value) > 2 and value[2:] not in not_names and value not in common
    if any(value[1:].startswith(h) for h in _HONORIFICS.split("|")):
        return False
    if value in common:
        return False
    return not any(part in not_names for part in (value[:2], value[1:]))


def placed_name_ok(value: str) -> bool:
    """A name where the context already says a person is meant: refused only as a common word that is no name
    (`高兴`, `马上`; 李娜 and 高峰 are names too), a name whose head is such a word unless a given name's character
    follows it (`高兴|地` is refused, 黄海涛 and 李子轩 are names), a surname and a title (`张经理`), two given
    characters given names hardly use, or a team."""
    common, not_names, names, given, _ = _lexicon()
    if (is_team(value) or _addressed(value) or _unnamelike(value)
            or any(_given_part(value).startswith(h) for h in _HONORIFICS.split("|"))):
        return False
    return value in names or (value not in common and (value[:2] in _COMPOUND or value[:2] not in not_names
                                                       or (len(value) == 3 and value[2] in given)))


def _addressed(value: str) -> bool:
    """A surname with a one-character title (`王总`, `李工`, or `张姐` with the word after it, `张姐也`): how a
    person is addressed, not their name (given names hardly start with these characters)."""
    return value[1:2] in tuple(_SHORT_TITLES) and value[:2] not in _COMPOUND


def resident_id_ok(value: str) -> bool:
    """Mainland resident ID: 17 digits, then a check character (ISO 7064 MOD 11-2)."""
    body, check = value[:17], value[17:].upper()
    if len(value) != 18 or not body.isdigit():
        return False
    return _ID_CHECK[sum(int(d) * w for d, w in zip(body, _ID_WEIGHTS, strict=True)) % 11] == check


def _mobile_ok(value: str) -> bool:
    d = digits(value)
    return len(d) == 11 or (len(d) == 13 and d.startswith("86"))


RECOGNIZERS = [
    PatternRecognizer("cn-mobile", "CN_MOBILE", "contact", (
        (r"(?<![\d.])(?:\+?86[- ]?)?1[3-9]\d(?:[- ]?\d{4}){2}(?![\d.])", 0.85),
    ), validate=_mobile_ok),
    PatternRecognizer("cn-resident-id", "CN_RESIDENT_ID", "government_id", (
        (r"(?<![\dA-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx]"
         r"(?![\dA-Za-z])", 0.95),
    ), validate=resident_id_ok),
    PatternRecognizer("zh-person-name-bare", "PERSON", "person_name", ((_BARE_NAME, 0.45),), validate=_not_a_word,
                      bound=name_span),
    # where the place says a person is meant (a field's label, a title after, a role before), a given name that is
    # also a word (建军, 志强) is still a name, and so is a name that is a word (李娜)
    PatternRecognizer("zh-person-name-placed", "PERSON", "person_name", (
        (r"(?:姓名|联系人|收件人|收货人|患者|客户|员工)\s*[:：]\s*(?P<value>[\u4e00-\u9fff]{2,4})(?![\u4e00-\u9fff])",
         0.7),
        (rf"(?P<value>{_SURNAME}{_GIVEN}??)(?:{_HONORIFICS})", 0.5),
        (_ROLE_NAME, 0.45), (_NAME_ACTING, 0.45), (_CELL_NAME, 0.45),
    ), validate=placed_name_ok, bound=name_span),
]
