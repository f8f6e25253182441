"""A Chinese name romanised with its tones marked: `Ōuyáng Nànà`, `Lǐ Nà` (a passport's or a paper's pinyin, a
dictionary tool's output, a language app's). The romanised names the tiers read are toneless (`Ouyang Nana`); a
reader of the marks reads the same name. A name's words in pinyin letters, one of them marked with a tone no
European language writes (a macron or a caron: `ā`, `ǐ`), read without the marks where each is pinyin syllables.
Other accented words (`José`, `Núñez`, `Müller`) stay: `José` is two pinyin syllables too."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_TONED = "āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜńňǹĀÁǍÀĒÉĚÈĪÍǏÌŌÓǑÒŪÚǓÙǕǗǙǛŃŇǸ"
_PLAIN = "aaaaeeeeiiiioooouuuuüüüünnnAAAAEEEEIIIIOOOOUUUUÜÜÜÜNNN"
_FOLD = str.maketrans(_TONED, _PLAIN)
_PINYIN_ONLY = "".join(c for c in _TONED if ord(c) > 0xFF)
# words of pinyin letters, one holding a tone only pinyin marks (a class the regex engine searches for in C)
_LETTERS = f"[a-zA-ZüÜ{_TONED}]"
_NAME = re.compile(rf"(?:{_LETTERS}+[ -])*{_LETTERS}*[{_PINYIN_ONLY}]{_LETTERS}*(?:[ -]{_LETTERS}+)*")
_WORD = re.compile(rf"{_LETTERS}+")
_CUE = re.compile(f"[{_PINYIN_ONLY}]")  # found in C: `_NAME` starts with a repeat, tried at every position
_WINDOW = 64  # characters of a name on either side of its mark
_SYLLABLES = re.compile(r"(?:(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?(?:iang|iong|uang|ang|eng|ing|ong|ian|iao|uai|uan"
                        r"|üan|ai|ei|ao|ou|an|en|in|un|ün|ia|ie|iu|ua|uo|ui|ue|üe|er|a|o|e|i|u|ü)|ng|n|m)+'?",
                        re.I)


@register
class PinyinTones(Form):
    """No cue: where a name is read depends on the tone marks before it (each window starts where the last
    ended), a chain no bound in lines holds."""

    name = "pinyin_tones"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if text.isascii():
            return
        done = 0
        for cue in _CUE.finditer(text):
            if cue.start() < done:
                continue
            yield from self._names(text, max(done, cue.start() - _WINDOW), min(len(text), cue.end() + _WINDOW))
            done = cue.end() + _WINDOW

    @staticmethod
    def _names(text: str, lo: int, hi: int) -> Iterator[Replacement]:
        for name in _NAME.finditer(text, lo, hi):
            words = [(m.start(), m.end(), m.group().translate(_FOLD)) for m in _WORD.finditer(name.group())]
            if all(_SYLLABLES.fullmatch(plain) for _, _, plain in words):
                for start, end, plain in words:
                    yield name.start() + start, name.start() + end, plain.replace("ü", "u").replace("Ü", "U")
