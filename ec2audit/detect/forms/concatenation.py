"""A value cut into string literals joined again in source code or a query: Java's and JavaScript's
`"1392288" + "3366"`, Python's and C's adjacent literals (`"lena.hart" "mann@example.org"`, across lines too),
SQL's `'DE89' || '3704…'`, PHP's `.`, Lua's `..`, VB's `&`. The program reads one string; so does a reader, and
so do the tiers: the closing quote, the operator and the opening quote go. Literals apart by anything else (a
comma, a word: `"yes" or "no"`, a JSON list) stay apart."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# a literal's closing quote right after a letter or a digit, an operator or spaces (a line break) between, the
# next literal's opening quote (the same quote, escaped as JSON text escapes it or not) right before one; a tab
# alone is no join (`"a"\t"b"` is a TSV row's two fields)
_JOIN = re.compile(r"""(?<=[^\W_])(\\*["'])(?: *(?:(?:\+|\|\||\.\.?|&)[ \t]*)?)(?:\r?\n[ \t]*)?\1(?=[^\W_])""")


@register
class Concatenation(Form):
    name = "concatenation"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if '"' not in text and "'" not in text:
            return
        for m in _JOIN.finditer(text):
            yield m.start(), m.end(), ""
