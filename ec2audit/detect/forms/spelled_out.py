"""A value spelled out character by character, as one reads it over the phone: letters in the phonetic alphabet
(`November Hotel`, `N for November`, `B as in bravo`), letters with their case said (`capital T, r, zero`),
digits as words, symbols by name (`ampersand`, `exclamation mark`); in Chinese, `大写H，小写x，井号，2026`, `大写XQ`
for two capitals, `Office（O大写）` for a case said after the word.
Read as the characters it names (`NH482793B`, `Tr0ub4dor&Mango!92`, `Hx#2026`), the run is the value the tiers
read.

A run is six or more such items in a row, separated by commas or spaces, of which two at least are no digit
or bare letter (a phonetic word, a letter with its case or its word, a symbol's name): a list of single letters
or a number read out is no spelling (the digit view reads the number)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from ec2audit.detect.forms import Form, any_case, register
from ec2audit.detect.normalize import CJK_NUMERALS, ENGLISH_DIGITS
from ec2audit.detect.views import Replacement

_PHONETIC = {word: word[0].upper() for word in (
    "alpha", "alfa", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "juliett",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor",
    "whiskey", "whisky", "x-ray", "xray", "yankee", "zulu")}
_SYMBOLS = {
    "ampersand": "&", "exclamation mark": "!", "exclamation point": "!", "at sign": "@", "at symbol": "@",
    "hash": "#", "hash sign": "#", "pound sign": "#", "number sign": "#", "dollar sign": "$", "percent sign": "%",
    "caret": "^", "asterisk": "*", "underscore": "_", "hyphen": "-", "dash": "-", "plus sign": "+",
    "equals sign": "=", "equal sign": "=", "full stop": ".", "period": ".", "dot": ".", "point": ".", "slash": "/",
    "forward slash": "/",
    "backslash": "\\", "question mark": "?", "tilde": "~", "colon": ":", "semicolon": ";"}
_NAMED = {**_PHONETIC, **_SYMBOLS, **ENGLISH_DIGITS}
_UPPER = ("capital", "uppercase", "upper case", "upper-case", "big")
_LOWER = ("small", "lowercase", "lower case", "lower-case", "little")
_CASES = {word: str.upper for word in _UPPER} | {word: str.lower for word in _LOWER}


_GAP = r"[ \t]+"  # between the words of an item (a run is on one line)


def _words(words: Iterable[str]) -> str:
    """Alternatives of `words`, longest first, a space in one matching any."""
    return "|".join(re.escape(w).replace(r"\ ", _GAP) for w in sorted(words, key=len, reverse=True))


# one item, whole (not the end of a word: `it's`): the letter after a case word, a letter and its word, a named
# character, digits, a bare letter; `double`/`triple` before it repeats it
_ITEM = re.compile(rf"(?<![\w'\u2019-])(?:(?P<times>double|triple){_GAP})?"
                   rf"(?:(?P<case>{_words(_CASES)}){_GAP}(?P<cased>[a-z])"
                   rf"|(?P<letter>[a-z]){_GAP}(?:for|as{_GAP}in){_GAP}(?P<name>[a-z]+(?:-[a-z]+)?)"
                   rf"|(?P<named>{_words(_NAMED)})|(?P<digits>\d+)|(?P<bare>[a-z]))(?![\w-])", re.IGNORECASE)
_SEPARATOR = re.compile(r"[ \t]*[,;][ \t]*(?:(?:and|then)[ \t]+)?|[ \t]+(?:(?:and|then)[ \t]+)?", re.IGNORECASE)
_MIN_ITEMS, _MIN_NAMED = 6, 2
# a number said as a number, not digit by digit (`ten dot nine dot five dot one hundred and eighty-eight`): digit
# words next to it are part of it, and a run beside one is no spelling
_CARDINAL = (r"(?:ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred"
             r"|thousand|million|billion)")
_CARDINAL_BEFORE = re.compile(rf"\b{_CARDINAL}[ \t,;-]*$", re.IGNORECASE)
_CARDINAL_AFTER = re.compile(rf"[ \t,;-]*(?:and[ \t]+)?{_CARDINAL}\b", re.IGNORECASE)
_BEFORE = 30  # characters before a run that the number word before it is looked for in
_TIMES = {"double": 2, "triple": 3}
# a line worth reading: a word of a phonetic letter, a case word, a symbol's name (its longest word), or a letter
# and its word; a run names two such items
_CUE = "|".join([*(any_case(max(w.split(), key=len)) for w in sorted({*_PHONETIC, *_CASES, *_SYMBOLS})),
                 r"(?:^|[^A-Za-z])[A-Za-z][ \t]+(?:[fF][oO][rR]|[aA][sS][ \t]+[iI][nN])[ \t]+[A-Za-z]"])


class _Item(NamedTuple):
    chars: str  # the characters it names
    named: bool  # named unmistakably: no digit, no bare letter
    bare: bool = False  # a letter alone, read as one only between commas (not the article in "is a capital T")
    remark: bool = False  # a letter's case said after it (`F大写`): of a letter in the word before, no character


def _item(m: re.Match[str]) -> _Item | None:
    """What one item names; None for a letter whose word starts with another letter."""
    times = _TIMES.get((m.group("times") or "").casefold(), 1)
    if m.group("case"):
        return _Item(_CASES[re.sub(r"\s+", " ", m.group("case").casefold())](m.group("cased")) * times, True)
    if m.group("letter"):
        same = m.group("name")[0].lower() == m.group("letter").lower()
        return _Item(m.group("letter").upper() * times, True) if same else None
    if m.group("named"):
        word = re.sub(r"\s+", " ", m.group("named").casefold())
        return _Item(_NAMED[word] * times, word not in ENGLISH_DIGITS)
    return _Item((m.group("digits") or m.group("bare")) * times, False, m.group("bare") is not None)


# The same in Chinese: `大写H，小写x，井号，2026，感叹号，然后qiuFeng，F大写` (letters and their case, symbols by
# name, digits and words as written, digits read out in numerals (`二零二六`), separated by Chinese or ASCII commas
# and `然后`)
_ZH_SYMBOLS = {
    "井号": "#", "感叹号": "!", "叹号": "!", "艾特": "@", "at号": "@", "星号": "*", "下划线": "_", "减号": "-",
    "横杠": "-", "中划线": "-", "短横线": "-", "连字符": "-", "加号": "+", "等号": "=", "句号": ".", "点号": ".",
    "斜杠": "/", "反斜杠": "\\", "问号": "?", "美元符号": "$", "美元符": "$", "百分号": "%", "与号": "&", "和号": "&",
    "冒号": ":", "分号": ";", "波浪号": "~", "脱字符": "^"}
_ZH_CASES = {"大写": str.upper, "小写": str.lower}
_ZH_CASE = "|".join(_ZH_CASES)
_ZH_ITEM = re.compile(rf"(?:(?P<case>{_ZH_CASE})的?(?P<cased>[A-Za-z]+)(?![A-Za-z0-9])"
                      rf"|(?P<open>[（(])?(?<![A-Za-z0-9])(?P<letter>[A-Za-z])(?P<after>{_ZH_CASE})(?(open)[)）])"
                      rf"|(?P<named>{_words(_ZH_SYMBOLS)})|(?<![A-Za-z0-9])(?P<word>[A-Za-z0-9]+)(?![A-Za-z0-9])"
                      rf"|(?P<numerals>[{''.join(CJK_NUMERALS)}]+))")
# (a letter's case said in brackets right after its word, `Office（O大写）`, needs no comma before it)
_ZH_SEPARATOR = re.compile(r"[ \t]*[，,、；;][ \t]*(?:然后是?|接着是?|再是?|最后一个是?|最后一位是?|最后是?"
                           r"|后面是)?[ \t]*|(?=[（(][A-Za-z](?:大写|小写)[)）])")


def _zh_item(m: re.Match[str]) -> _Item:
    if m.group("case"):
        return _Item(_ZH_CASES[m.group("case")](m.group("cased")), True)
    if m.group("letter"):
        return _Item(_ZH_CASES[m.group("after")](m.group("letter")), True, remark=True)
    if m.group("named"):
        return _Item(_ZH_SYMBOLS[m.group("named")], True)
    if m.group("numerals"):  # digits read out: `二零二六` is 2026
        return _Item("".join(CJK_NUMERALS[c] for c in m.group("numerals")), False)
    return _Item(m.group("word"), False)


class _Spelling(NamedTuple):
    item: re.Pattern[str]
    separator: re.Pattern[str]
    read: Callable[[re.Match[str]], _Item | None]
    named: re.Pattern[str]  # what may be a named item: a text with fewer than `_MIN_NAMED` holds no run


_NAMED_WORDS = {*_PHONETIC, *_SYMBOLS, *_CASES}
# the words' first letters looked ahead for: Python's regex engine then skips other starts without trying ~70
# alternatives at each (1.7× less CPU on the dense corpus, the same matches)
_ENGLISH = _Spelling(_ITEM, _SEPARATOR, _item, re.compile(
    rf"(?=[{''.join(sorted({w[0] for w in _NAMED_WORDS}))}])\b(?:{_words(_NAMED_WORDS)})\b"
    rf"|\b[a-z]{_GAP}(?:for|as{_GAP}in){_GAP}[a-z]", re.IGNORECASE))
_CHINESE = _Spelling(_ZH_ITEM, _ZH_SEPARATOR, _zh_item, re.compile("|".join([*_ZH_CASES, *_ZH_SYMBOLS])))


@register
class SpelledOut(Form):
    name = "spelled_out"
    cue = "|".join([_CUE, *_ZH_CASES, *_ZH_SYMBOLS])
    cue_lines = 0
    cue_least = _MIN_NAMED  # each named item holds a cue match's end, and a run names two

    def rewrite(self, text: str) -> Iterator[Replacement]:
        """Items are walked only on the lines where the named words of a run may stand: a run is on one line and
        names two items, each at a match of `named` (in dense text most lines name none or one: `dot`, `small`)."""
        for spelling in (_ENGLISH,) if text.isascii() else (_ENGLISH, _CHINESE):
            named_on = Counter(text.rfind("\n", 0, m.start()) + 1 for m in spelling.named.finditer(text))
            for line, named in sorted(named_on.items()):
                if named < _MIN_NAMED:
                    continue
                line_end = text.find("\n", line)
                pos, line_end = line, len(text) if line_end < 0 else line_end
                while first := spelling.item.search(text, pos, line_end):
                    pos, run = _run(spelling, text, first)
                    if run:
                        yield run


def _run(spelling: _Spelling, text: str, first: re.Match[str]) -> tuple[int, Replacement | None]:
    """Where the items from `first` on end, and their spelled run, or None where it is no spelling (nor is any
    run starting inside it: fewer items, no more named; so the next is looked for after it, in linear time)."""
    items: list[_Item] = []
    start = end = first.start()
    m: re.Match[str] | None = first
    spaced = False  # the separator before `m` is whitespace alone
    while m and (item := spelling.read(m)):
        if spaced and (item.bare or items[-1].bare):
            if len(items) > 1 or item.bare:
                break
            items, start = [], m.start()  # a bare letter (an article) before the run
        if item.remark and items and len(items[-1].chars) > 1 and item.chars.lower() in items[-1].chars.lower():
            word = items[-1].chars  # the case said of a letter of the word before: `office（O大写）` is `Office`
            k = word.lower().index(item.chars.lower())
            items[-1] = items[-1]._replace(chars=word[:k] + item.chars + word[k + 1:])
        else:
            items.append(item)
        end = m.end()
        separator = spelling.separator.match(text, end)
        spaced = separator is not None and not separator.group().strip()
        m = spelling.item.match(text, separator.end()) if separator else None
    if len(items) < _MIN_ITEMS or sum(item.named for item in items) < _MIN_NAMED \
            or _CARDINAL_AFTER.match(text, end) or _CARDINAL_BEFORE.search(text, max(0, start - _BEFORE), start):
        return max(end, first.end()), None
    return end, (start, end, "".join(item.chars for item in items))
