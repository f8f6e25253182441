"""A value typeset in LaTeX source (a report, a CV, a bibliography an agent wrote or read): accents as commands
(`Jos\\'{e} N\\'u\\~{n}ez`), digit groups apart by a thin space or a tie (`139\\,2288\\,3366`, `DE89~3704`), a
comma in braces (`486{,}000`), a break hint inside an address (`lena.\\allowbreak{}hartmann`). Read as typeset,
the value is whole. (Escaped specials, `\\$`, `\\_`, `\\%`, are markdown.py's backslash escapes.)"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# accent command → combining mark (`\\u` and `\\H` are left out: `\\u{…}` is an escape of code points elsewhere)
_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
            ".": "\u0307", "c": "\u0327", "v": "\u030c", "k": "\u0328"}
# an accent before `{letter}`; a symbol accent before a bare letter only inside a word (`Jos\\'e`): at a word's
# start `\\"o` is JSON's escaped quote, and `\\.`, `\\=` take braces (`lena\\.hartmann` is markdown's escaped dot)
_ACCENT = re.compile(r"\\(?:(['`^\"~=.])(?:\{([A-Za-z])\}|(?<=[A-Za-z}]\\[^.=])([A-Za-z]))|([cvk])\{([A-Za-z])\})")
# what typesets as a space or as nothing inside a value; each branch starts with a literal, the regex engine skips
# ahead to them in C (a branch starting with a look-behind is tried at every position: 3.4 MB of escaped JSON
# 0.10 → 0.03 s)
_SPACING = re.compile(r"\\[,;:> ]|~(?<=[0-9A-Za-z]~)(?=[0-9A-Za-z])|\{,\}"
                      r"|\\(?:allowbreak|nobreak|relax|linebreak\[0\]|hspace\*?\{0pt\})(?:\{\})?")


@register
class Latex(Form):
    name = "latex"
    #: the start of an accent command or of a spacing token, each on one line
    cue = r"\\['`^\"~=.]|\\[cvk]\{|\\[,;:> ]|~|\{,\}|\\(allowbreak|nobreak|relax|linebreak|hspace)"
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\\" in text:
            for m in _ACCENT.finditer(text):
                letter = m.group(2) or m.group(3) or m.group(5)
                yield m.start(), m.end(), unicodedata.normalize("NFC", letter + _ACCENTS[m.group(1) or m.group(4)])
        elif "~" not in text and "{," not in text:
            return
        for m in _SPACING.finditer(text):
            token = m.group()
            yield m.start(), m.end(), " " if token in ("~", "\\,", "\\;", "\\:", "\\>", "\\ ") else \
                "," if token == "{,}" else ""
