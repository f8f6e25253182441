"""A value cut into string literals joined again in source code or a query: Java's and JavaScript's
`"1392288" + "3366"`, Python's and C's adjacent literals across a line (`("lena.hart"⏎    "mann@example.org")`),
SQL's `'DE89' || '3704…'`, PHP's `.`, Lua's `..`, VB's `&`. The program reads one string; so does a reader, and
so do the tiers: the closing quote, the operator and the opening quote go. Literals apart by anything else stay
apart: a comma, a word (`"yes" or "no"`), a tab (a TSV row's fields), and a space alone on one line (shell
arguments, Go's `%q` of a slice: `["139" "2288"]`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# a literal's closing quote (escaped as JSON text escapes it or not); an operator (spaces around it, a line break
# after it), a line break, or nothing between; the next literal's opening quote right before a letter or a digit.
# The pattern starts with a class the regex engine skips ahead to in C (a look-behind or a repeat first is tried at
# every position: 4 MB of JSON 0.38 s → 0.13 s); that the quotes are the same and a letter or a digit is before
# the first is checked on the match.
_JOIN = re.compile(r"""["'\\](?:(?<=["'])|\\*["'])"""  # the closing quote
                   r"""(?: *(?:\+|\|\||\.\.?|&)[ \t]*(?:\r?\n[ \t]*)?| *\r?\n[ \t]*|)"""  # operator, line break
                   r"""\\*["'](?=[^\W_])""")  # the opening quote
_QUOTE = re.compile(r"""\\*["']""")


@register
class Concatenation(Form):
    name = "concatenation"
    #: `_JOIN` without its look-arounds (a closing quote, what joins, an opening quote); across one line break
    cue = r"""["'](?: *(?:\+|\|\||\.\.?|&)[ \t]*(?:\r?\n[ \t]*)?| *\r?\n[ \t]*|)\\*["']"""
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if '"' not in text and "'" not in text:
            return
        for m in _JOIN.finditer(text):
            start, joined = m.start(), m.group()
            opening = _QUOTE.match(joined)
            if start and text[start - 1].isalnum() and opening and joined.endswith(opening.group()):
                yield start, m.end(), ""
