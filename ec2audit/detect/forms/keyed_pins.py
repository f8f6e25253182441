"""A code read out with the key pressed after it said in words, as a door code or a phone menu's PIN is passed on:
`九零五二七三，最后按井号键`, `905273再按#号`, `4471 then the pound key`, `nine zero five two seven three, then hash`.
Read as the characters typed (`905273#`), the run is the value the tiers read; the digit view reads the digits
alone, never the key."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, any_case, register
from ec2audit.detect.normalize import CJK_NUMERALS, ENGLISH_DIGITS
from ec2audit.detect.views import Replacement

_KEYS = {"井号": "#", "#号": "#", "＃号": "#", "星号": "*", "*号": "*", "＊号": "*", "米字键": "*",
         "hash": "#", "pound": "#", "sharp": "#", "star": "*", "asterisk": "*"}
_KEY_WORDS = "|".join(re.escape(k) for k in sorted(_KEYS, key=len, reverse=True))
_KEY = rf"(?P<key>{_KEY_WORDS})(?:键|[ \t]+(?:key|sign|button))?"
_ZH_DIGIT = f"[0-9{''.join(CJK_NUMERALS)}]"
_WORD_DIGIT = rf"(?:{'|'.join(ENGLISH_DIGITS)})"
#: four to twelve digits, written or said one by one (a space, comma or hyphen between words)
_DIGITS = (rf"(?P<digits>{_ZH_DIGIT}(?:[ \t]?{_ZH_DIGIT}){{3,11}}"
           rf"|{_WORD_DIGIT}(?:(?:[ \t]*,[ \t]*|[ \t]+|-){_WORD_DIGIT}){{3,11}}(?![\w-]))")
#: what a speaker says between the code and its key
_THEN = (r"[ \t]*[，,、;；]?[ \t]*(?:最后|然后|再|之后|接着|末尾|结尾){0,2}"
         r"(?:按一下|按|加上|加|输入|是|带|跟)?(?:一个|个)?"
         r"(?:(?:and|then|followed[ \t]+by|plus)[ \t]+){0,2}(?:(?:press|hit|push|dial|enter)(?:es|ed)?[ \t]+)?"
         r"(?:(?:the|a)[ \t]+)?[ \t]*")
# (Latin letters and digits bound a run, not Chinese text: `密码是九零五二七三`)
_KEY_AFTER = re.compile(rf"(?<![0-9A-Za-z.\-{''.join(CJK_NUMERALS)}]){_DIGITS}{_THEN}{_KEY}(?![A-Za-z])",
                        re.IGNORECASE)
#: an English key word is a key where the words around it say it is pressed (`1000 pound` is money, `5 star` a rank)
_PRESSED = re.compile(r"\b(?:then|and|followed|plus|press\w*|hit|push\w*|dial\w*|enter\w*|key|sign|button)\b|,",
                      re.IGNORECASE)
_READ = str.maketrans("".join(CJK_NUMERALS), "".join(CJK_NUMERALS.values()))
_SPOKEN = re.compile(_WORD_DIGIT, re.IGNORECASE)


def _typed(digits: str) -> str:
    """The digits a run names: Chinese numerals and digit words read, what separates them dropped."""
    digits = _SPOKEN.sub(lambda m: ENGLISH_DIGITS[m.group().lower()], digits)
    return re.sub(r"[^0-9]", "", digits.translate(_READ))


@register
class KeyedPins(Form):
    name = "keyed_pins"
    # the key's word (a code is on one line with its key)
    cue = "|".join(any_case(k) if k.isascii() else re.escape(k) for k in _KEYS)
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _KEY_AFTER.finditer(text):
            if m.group("key").isascii() and not _PRESSED.search(text, m.end("digits"), m.end()):
                continue
            yield m.start(), m.end(), _typed(m.group("digits")) + _KEYS[m.group("key").lower()]
