"""OCR confusions inside numbers of scanned documents: `O`/`o` for 0, `l`/`I` for 1, `S` for 5, `B` for 8
(`139OO112233`, `33O1O6199OO7231428`, `S698`). Inside a token that is mostly digits and whose other
characters are all such letters, a reader reads the digits; a token with any other letter (`GB82`,
`HZ0377`, a word) is left as it is, and so is one next to an encoded letter or digit (`&#118;B8&#110;` is `vB8n`:
the token goes on through the character reference)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, decimal_class, register
from ec2audit.detect.views import Replacement

_OCR_DIGITS = str.maketrans("OoIlSB", "001158")
CUE = "ocr.cue"
_FOLDED_LETTERS = "oisb" + "l"  # the confused letters as the case-folded text view reads them
# (?<![^\W_])[0-9OoIlSB]*(?:\d[OoIlSB]|[OoIlSB]\d)[0-9OoIlSB]*(?![^\W_]), written to start with a character
# (its lookbehind after it) so the regex engine skips ahead in C: 1 MB of the dense payload 0.032 → 0.016 s;
# its second branch, a token that starts with another decimal digit right before a confused letter ("１O", "٣O"),
# as the plain form reads it (the first branch's ASCII class missed those until session 15)
_TOKEN = re.compile(r"(?:[0-9OoIlSB](?<![^\W_][0-9OoIlSB])(?:[0-9OoIlSB]*(?:\d[OoIlSB]|[OoIlSB]\d)|(?<=\d)[OoIlSB]"
                    r"|(?<=[OoIlSB])\d)|\d(?<![^\W_]\d)[OoIlSB])[0-9OoIlSB]*(?![^\W_])")

# A token is a whole run of letters and digits, all of them OCR digits but one decimal digit at its pair: it is
# read only where such a pair stands (a confused letter next to a digit, found in C: 8 MB 0.11 → 0.04 s)
_PAIR = re.compile(r"[OoIlSB](?:(?<=\d[OoIlSB])|(?=\d))")
_PAST_RUN = re.compile(r"[^\dOoIlSB]")
# an encoded character right before or after a token (a character reference, a `\\u` or `\\x` escape, a percent
# escape): where it is a letter or a digit, the token's word goes on in it
_ENCODED = r"&#?[0-9A-Za-z]{1,8};|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}|%[0-9A-Fa-f]{2}"
_ENCODED_BEFORE = re.compile(f"(?:{_ENCODED})\\Z")  # (`$` matched before a line break too)
_ENCODED_AFTER = re.compile(_ENCODED)


def _encoded_alnum(m: re.Match | None) -> bool:
    if m is None:
        return False
    token = m.group()
    decoded = html.unescape(token) if token[0] == "&" else chr(int(token[2:] if token[0] == "\\" else token[1:], 16))
    return len(decoded) == 1 and decoded.isalnum()


def _tokens(text: str) -> Iterator[re.Match]:
    """`_TOKEN`'s matches: at most one for each run of OCR digits and decimal digits holding a pair."""
    end = 0
    for pair in _PAIR.finditer(text):
        if pair.start() < end:
            continue
        start = pair.start()
        while start > end and (text[start - 1] in "OoIlSB" or text[start - 1].isdecimal()):
            start -= 1
        past = _PAST_RUN.search(text, pair.end())
        end = past.start() if past else len(text)
        m = _TOKEN.match(text, start, min(len(text), end + 1))
        if m and not (_encoded_alnum(_ENCODED_BEFORE.search(text, max(0, m.start() - 10), m.start()))
                      or _encoded_alnum(_ENCODED_AFTER.match(text, m.end()))):
            yield m


@register
class OcrDigits(Form):
    name = "ocr"
    #: a pair (`_PAIR`): a token is a run of OCR digits and decimal digits, and reads past it only on its line
    cue = f"[OoIlSB]{decimal_class()}|{decimal_class()}[OoIlSB]"
    cue_lines = 0

    def compile(self, index) -> None:
        """Cue: a digit next to a letter OCR confuses with one, found by the automaton's pass."""
        for digit in "0123456789":
            for letter in _FOLDED_LETTERS:
                index.add(digit + letter, CUE, -1)
                index.add(letter + digit, CUE, -1)

    def wanted(self, matches) -> bool:
        return CUE in matches

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _tokens(text):
            token = m.group()
            digits = sum(c.isdigit() for c in token)
            if 2 * digits >= len(token):
                yield m.start(), m.end(), token.translate(_OCR_DIGITS)
