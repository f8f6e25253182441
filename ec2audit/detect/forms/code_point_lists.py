"""A text printed as the list of its characters' code points: Erlang's shell prints a Unicode string so by default
(`[27431,38451,23068,23068]` for 欧阳娜娜: only Latin-1 strings print as strings), as do Python's `[ord(c) for c in s]`,
Java's `s.chars().boxed().toList()` and JavaScript's `[...s].map(c => c.codePointAt(0))`, in a log line or a JSON
array (`intercept/fields.py` reads an array of numbers as such a list); and as the arguments of JavaScript's
`String.fromCharCode(…)` and `fromCodePoint(…)`, which make the text again (a minified script, a bookmarklet). A
reader reads the text; so do the tiers, where every number is a code point (up to U+10FFFF), one at least is past
ASCII, the text prints, and the numbers are no UTF-8 bytes (those are `byte_lists`' reading: `[74, 111, 115, 195,
169]`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

#: what parts two numbers: a comma, blanks, at most one line break (and the next line's indent)
_COMMA = r",[ \t]*(?:\r?\n[ \t]*)?"
#: two or more numbers of up to 7 digits in brackets (as every printer above writes a list), or whole lines of
#: nothing else (a JSON array's numbers as `fields` offers them: `27431,38451`): a bare `516,48` inside a CSV row or
#: a table is no such list. Lines, not the whole text: the cue scan hands a form whole lines of a text, and a
#: form reads the same there as in the whole text (`tests/test_detect_form_cues.py`)
_LIST = re.compile(rf"(?:(?:(?<=\[)|(?<=fromCharCode\()|(?<=fromCodePoint\())[ \t]*|^)"
                   rf"((?<![\w.-])[0-9]{{1,7}}(?:{_COMMA}[0-9]{{1,7}})+)(?:[ \t]*(?=[\])])|(?=\r?$))", re.MULTILINE)
_MAX = 0x10FFFF


def _text(numbers: list[int]) -> str | None:
    """The text the code points spell, or None where they are no such text (see the module's docstring)."""
    if max(numbers) < 0x80 or max(numbers) > _MAX:
        return None
    if max(numbers) < 0x100:
        try:
            bytes(numbers).decode("utf-8")
            return None  # UTF-8 bytes: `byte_lists` reads them
        except UnicodeDecodeError:
            pass
    text = "".join(map(chr, numbers))
    return text if all(c.isprintable() or c in "\t\n\r" for c in text) else None


@register
class CodePointLists(Form):
    name = "code_point_lists"
    #: two numbers and the comma between them: every line break inside a list is one, so a list's lines meet
    cue = r"[0-9]" + _COMMA + r"[0-9]"
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _LIST.finditer(text):
            decoded = _text([int(n) for n in re.split(_COMMA, m.group(1))])
            if decoded is not None:
                yield m.start(1), m.end(1), decoded
