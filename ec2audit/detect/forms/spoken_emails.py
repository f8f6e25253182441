"""E-mail addresses read aloud with their punctuation as words: `r dot okafor at brightline hyphen logistics dot
com`, `jane underscore doe at example dot co dot uk`, `r点okafor艾特brightline横杠logistics点com` (a call's summary, a
voicemail's transcript). The views read
`at` and `dot` between words (`views._obfuscated_emails`); a hyphen, dash, minus or underscore said as a word
breaks that reading, and so does a part spelled letter by letter (`e dot pembridge dot g w r at …`, `tango india
mike at …` in the NATO alphabet), so this form reads the whole address, every joining word as its character and
every spelled run as its letters."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, any_case, register
from ec2audit.detect.views import Replacement

#: the words said for the characters inside an address that the views do not read
_JOINERS = {"hyphen": "-", "dash": "-", "minus": "-", "underscore": "_"}
_CHARACTERS = {"dot": ".", "period": ".", "point": ".", **_JOINERS}
#: the NATO (ICAO) spelling alphabet, as callers spell an address out
_NATO = {"alfa": "a", "alpha": "a", "bravo": "b", "charlie": "c", "delta": "d", "echo": "e", "foxtrot": "f",
         "golf": "g", "hotel": "h", "india": "i", "juliet": "j", "juliett": "j", "kilo": "k", "lima": "l", "mike": "m",
         "november": "n", "oscar": "o", "papa": "p", "quebec": "q", "romeo": "r", "sierra": "s", "tango": "t",
         "uniform": "u", "victor": "v", "whiskey": "w", "whisky": "w", "xray": "x", "x-ray": "x", "yankee": "y",
         "zulu": "z"}
#: one letter (or digit) said alone, or its spelling word
_LETTER = rf"(?<![\w'’-])(?:[^\W_]|{'|'.join(_NATO)})(?![\w'’-])"
_SPELLED = rf"{_LETTER}(?: {_LETTER})+"  # two or more of them one space apart: one word of the address
_SPELLED_RUN = re.compile(_SPELLED, re.IGNORECASE)
#: a word of the address as written, with what is written as a character; or spelled out
_WORD = rf"(?:{_SPELLED}|[^\W_]+(?:[.\-_+][^\W_]+)*)"
_JOIN = rf"\s+(?:{'|'.join(_CHARACTERS)})\s+"
_MOST_JOINS = 8  # in one part of an address: a bound, so a long run of such words is read in linear time
_PART = rf"{_WORD}(?:{_JOIN}{_WORD}){{0,{_MOST_JOINS}}}"
_SPOKEN_EMAIL = re.compile(rf"(?<![\w.+\-])({_PART})(?:\s+at\s+|\s*@\s*)({_PART})(?![\w@])", re.IGNORECASE)
_JOIN_WORD = re.compile(_JOIN, re.IGNORECASE)
#: what the views cannot read: a joiner said as a word, or a word spelled out
_UNREAD = re.compile(rf"\s(?:{'|'.join(_JOINERS)})\s|(?<!\S){_SPELLED}", re.IGNORECASE)


def _written(spoken: str) -> str:
    spoken = _SPELLED_RUN.sub(lambda m: "".join(_NATO.get(t.lower(), t) for t in m.group().split()), spoken)
    return _JOIN_WORD.sub(lambda m: _CHARACTERS[m.group().strip().lower()], spoken)


# The same in Chinese, the address's words in ASCII: `r点okafor艾特brightline横杠logistics点com`
_ZH_CHARACTERS = {"点": ".", "點": ".", "横杠": "-", "中划线": "-", "减号": "-", "杠": "-", "下划线": "_"}
_ZH_WORDS = "|".join(sorted(_ZH_CHARACTERS, key=len, reverse=True))
_ZH_JOIN = rf"[ \t]*(?:{_ZH_WORDS}|[.\-_])[ \t]*"
_ZH_PART = rf"[A-Za-z0-9+]+(?:{_ZH_JOIN}[A-Za-z0-9+]+){{0,{_MOST_JOINS}}}"
_ZH_AT = r"[ \t]*(?:艾特|圈a|@)[ \t]*|[ \t]+at[ \t]+"
_ZH_EMAIL = re.compile(rf"(?<![A-Za-z0-9.\-_+])({_ZH_PART})(?:{_ZH_AT})({_ZH_PART})(?![A-Za-z0-9])")
_ZH_SAID = re.compile(rf"{_ZH_WORDS}|艾特|圈a")  # a match holds one such word, or the views read it already


def _zh_written(spoken: str) -> str:
    return re.sub(_ZH_JOIN, lambda m: _ZH_CHARACTERS.get(m.group().strip(), m.group().strip()), spoken)


@register
class SpokenEmails(Form):
    name = "spoken_emails"
    # (an address is words on one line; its domain has a dot, said as a word where its letters are spelled)
    cue = "|".join([*(f" {any_case(word)} " for word in (*_JOINERS, "dot")),
                    f"[A-Za-z0-9] ?(?:{_ZH_WORDS}|艾特|圈a) ?[A-Za-z0-9]"])
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if _UNREAD.search(text):
            for m in _SPOKEN_EMAIL.finditer(text):
                domain = _written(m.group(2))
                if "." in domain.strip(".") and _UNREAD.search(m.group()):
                    yield m.start(), m.end(), f"{_written(m.group(1))}@{domain}"
        if not text.isascii() and _ZH_SAID.search(text):  # (every address read names one: a text naming none, none)
            for m in _ZH_EMAIL.finditer(text):
                domain = _zh_written(m.group(2))
                if "." in domain.strip(".") and _ZH_SAID.search(m.group()):
                    yield m.start(), m.end(), f"{_zh_written(m.group(1))}@{domain}"
