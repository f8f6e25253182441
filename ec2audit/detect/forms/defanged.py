"""Addresses defanged as threat-intelligence and security tools write them, so no client makes a link of them:
`lena[.]hartmann[@]example[.]org`, `example(.)org`, `hxxps[:]//crm[.]example[.]com`. The views read `[at]`,
`(dot)` and their like as words; these put the character itself in brackets. A reader reads through them, and
so do the tiers: a bracketed `.`, `@` or `:` between two words is that character, and `hxxp` is `http`."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# `[.]`, `(.)`, `{.}`, `[@]`, `[:]`, after a letter or a digit (the look-behind after the brackets: a pattern
# starting with their characters is skipped ahead to in C) and before one (or before `//`)
_BRACKETED = re.compile(r"(?:\[([.@:])\]|\(([.@:])\)|\{([.@:])\})(?<=[^\W_]...)(?=[^\W_]|//)")
_HXXP = re.compile(r"\bhxxp(?=s?(?:\[:\]|:)//)", re.I)
_XXP = re.compile("[xX][xX][pP]")  # in any case `_HXXP` reads


@register
class Defanged(Form):
    name = "defanged"
    cue = r"\[[.@:]\]|\([.@:]\)|\{[.@:]\}|[hH][xX][xX][pP]"  # (each on one line)
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "[" in text or "(" in text or "{" in text:
            for m in _BRACKETED.finditer(text):
                yield m.start(), m.end(), m.group(m.lastindex or 0)
        if _XXP.search(text):  # (`\\b` first: a pattern the regex engine tries at every position)
            for m in _HXXP.finditer(text):
                yield m.start(), m.end(), "http"
