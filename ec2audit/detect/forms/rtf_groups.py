"""RTF source whose formatting cuts a value: Word writes each run of differently formatted characters as a group
of its control words (`{\\rtlch\\fcs1 \\af0 \\ltrch\\fcs0 \\b\\insrsid7 139}{\\insrsid7 22883366}`), other writers
toggle formatting between the characters (`139\\b 2288\\b0 3366`). A reader shows the characters, one after the
other: inside an RTF document (the text holds `{\\rtf`), a group of formatting words around plain text reads as the
text (its `\\'hh` and `\\uN?` escapes read as the `rtf` form reads them), and formatting words inside a line (after
a character or a space, before a character) read as nothing. Words that write something (`\\par`, `\\tab`,
`\\cell`, quotes and dashes) and destinations (`{\\*\\…}`, `{\\fonttbl …}`) are left as they are.

Outside an RTF document `\\xE9 N` is Python's or YAML's escape, not a control word: the rewrite itself checks for
the header, so it holds where no automaton's gate is asked (inside a decoded token: a base64 YAML file). The header
stands far above the groups, so there is no cue: the rewrite reads the whole text (a literal check first)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.forms.rtf import _RUN, _text
from ec2audit.detect.views import Replacement

#: control words that write a character or a break, or start a destination: never read as nothing
_WRITES = frozenset(
    "par line tab cell row nestcell nestrow sect page column lbr softline softpage emdash endash emspace enspace "
    "qmspace bullet lquote rquote ldblquote rdblquote zwj zwnj ltrmark rtlmark chftn chpgn sectnum u bin "
    "fonttbl colortbl stylesheet info pict object field fldinst fldrslt header footer footnote annotation "
    "listtable listoverridetable rsidtbl generator xmlnstbl themedata colorschememapping latentstyles "
    "datastore mmathPr shppict nonshppict".split())
#: a control word, whole (`\\par` is no `\\pa`), with its parameter and its space; not a `\\uN` escape
_WORD = r"\\(?!u-?[0-9])[a-zA-Z]{1,32}(?![a-zA-Z])-?[0-9]{0,10}(?![0-9]) ?"
_ESCAPE = r"\\'[0-9a-fA-F]{2}|\\u-?[0-9]{1,5} ?\??"
#: a group of control words around text with no group, control word or line break in it (an escape is text)
_GROUP = re.compile(rf"\{{((?:{_WORD})+)((?:[^{{}}\\\r\n]|{_ESCAPE})+)\}}")
#: control words inside a line of text (a character, or an escape of one, after them; a space before them is text,
#: the one after is theirs)
_BETWEEN = re.compile(rf"(?<=[^\r\n{{}}\\])((?:{_WORD})+)(?=[^\s{{}}\\]|{_ESCAPE})")
_NAMES = re.compile(r"\\([a-zA-Z]+)")


def _formatting(words: str) -> bool:
    return not any(name in _WRITES for name in _NAMES.findall(words))


def _read(text: str) -> str:
    """The group's text with its escapes read."""
    return _RUN.sub(lambda m: _text(m.group()) or m.group(), text)


@register
class RtfGroups(Form):
    name = "rtf_groups"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "{\\rtf" not in text:
            return
        for m in _GROUP.finditer(text):
            if _formatting(m.group(1)):
                yield m.start(), m.end(), _read(m.group(2))
        for m in _BETWEEN.finditer(text):
            if _formatting(m.group(1)):
                yield m.start(), m.end(), ""
