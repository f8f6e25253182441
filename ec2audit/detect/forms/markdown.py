"""Markdown source around a value: a chat bot's or a converter's escaping (Telegram's MarkdownV2 escapes every
`.`, `-`, `_`, `!`; `turndown` and pandoc escape `_`, `*`, `[`), and emphasis put on part of a value
(`139228**83366**`, `~~old~~`, `` `code` ``). A reader of the rendered text sees the value whole; so do the tiers,
read as CommonMark renders it: a backslash before ASCII punctuation is that character (LaTeX's `\\$`, `\\_`,
`\\%`, `\\&` too), and a pair of emphasis or code delimiters on one line is no text. A `_` pair counts only where
CommonMark reads emphasis (not inside a word: `snake_case_name` stays)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# ASCII punctuation but the backslash itself (escapes.py reads `\\n`, views read `\\u`): the character escaped
_ESCAPED = re.compile(r"\\([!-/:-@\[\]-`{-~])")
# a delimiter run, then text that starts and ends with no space and holds none of the run's character, then the
# same run; `_` runs must not open or close inside a word
_PAIRED = re.compile(r"(\*{1,3}|~~|`+)(?=[^\s*~`])[^\n*~`]{1,100}?(?<=[^\s*~`])\1"
                     r"|(?<![^\W_])(_{1,3})(?=[^\s_])[^\n_]{1,100}?(?<=[^\s_])\2(?![^\W_])")
_DELIMITERS = ("*", "_", "~~", "`")


@register
class Markdown(Form):
    name = "markdown"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\\" in text:
            for m in _ESCAPED.finditer(text):
                yield m.start(), m.end(), m.group(1)
        if any(d in text for d in _DELIMITERS):
            for m in _PAIRED.finditer(text):
                run = len(m.group(1) or m.group(2))
                yield m.start(), m.start() + run, ""
                yield m.end() - run, m.end(), ""
