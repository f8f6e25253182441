"""A value cut into string literals joined again in source code or a query: Java's and JavaScript's
`"1392288" + "3366"`, Python's and C's adjacent literals across a line (`("lena.hart"⏎    "mann@example.org")`),
SQL's `'DE89' || '3704…'`, PHP's `.`, Lua's `..`, VB's `&`. The program reads one string; so does a reader, and
so do the tiers: the closing quote, the operator and the opening quote go. Literals apart by anything else stay
apart: a comma, a word (`"yes" or "no"`), a tab (a TSV row's fields), and a space alone on one line (shell
arguments, Go's `%q` of a slice: `["139" "2288"]`). The literals' ends may be any characters but blanks and
quotes: a value is cut at its `@` or its `.` as often as inside a word (`"lena.hartmann@" + "example.org"`,
`"…@example"⏎    ".org"`, the shell's `'…@example''.org'`).

A credential is also sent in pieces a person labels rather than a program joins ("first half kX9dQ2mVt7RzL4pN,
second half 8wBc3HsY6fJ1aE", "第一段 … 第二段 …"): pieces of ≥ 12 characters each, standing alone, in the value's
order, at most 40 characters apart, that join to the whole value are the value (1.0); a piece alone is graded as
a mask showing it is: 0.7 when it shows more than half of the characters beyond the key's published prefix, 0.3
when ≥ 4 of them. The automaton reports each credential's
12-character grams; the form grows each run of them to the piece the text holds."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator

from ec2audit.detect.compiled import is_word_char
from ec2audit.detect.finding import FRAGMENT, LITERAL, MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import Replacement, ScanView

# a literal's closing quote (escaped as JSON text escapes it or not); an operator (spaces around it, a line break
# after it), a line break, or nothing between; the next literal's opening quote right before a letter or a digit.
# The pattern starts with a class the regex engine skips ahead to in C (a look-behind or a repeat first is tried at
# every position: 4 MB of JSON 0.38 s → 0.13 s); that the quotes are the same and a letter or a digit is before
# the first is checked on the match.
_JOIN = re.compile(r"""["'\\](?:(?<=["'])|\\*["'])"""  # the closing quote
                   r"""(?: *(?:\+|\|\||\.\.?|&)[ \t]*(?:\r?\n[ \t]*)?| *\r?\n[ \t]*|)"""  # operator, line break
                   r"""\\*["'](?=[^\s"'\\])""")  # the opening quote
_QUOTE = re.compile(r"""\\*["']""")
# a literal closing its line and one opening the next at its first column: each line a whole string, as `jq -a` and
# `print(json.dumps(v))` print them (a literal continued in source is indented, or after an operator or a space)
_LINES_APART = re.compile(r"""\\*["']\r?\n\\*["']""")
# the literal on the next line is a mapping's key (`"email": …`: YAML with quoted keys, a JSON object a key a line):
# the line before ended a value, it did not continue one
_KEY_NEXT = re.compile(r"""[^"'\r\n]{0,200}?["'][ \t]*:(?=[ \t\r\n\\]|$)""")
PIECE = "concatenation.piece"
_PIECE_LEAST = 12  # characters of the shortest piece (and of the grams the automaton reports)
_PIECE_GAP = 40  # characters between two pieces of one value: a label, a line break
_PIECE_SHOWS = 4  # characters beyond a key's published prefix that make a piece alone a fragment (as a mask's)
_KEY_SYMBOLS = frozenset("-_+/=!@#$%&*~^")  # symbols a key or a password holds


@register
class Concatenation(Form):
    name = "concatenation"
    #: `_JOIN` without its look-arounds (a closing quote, what joins, an opening quote); across one line break
    cue = r"""["'](?: *(?:\+|\|\||\.\.?|&)[ \t]*(?:\r?\n[ \t]*)?| *\r?\n[ \t]*|)\\*["']"""
    cue_lines = 1
    kinds = (PIECE,)

    def compile(self, index: PatternIndex) -> None:
        """Every 12-character gram of each credential longer than one piece."""
        self._values = {i: cu.forms[0] for i, cu in enumerate(self.units)
                        if cu.rules.name == "credential" and len(cu.forms[0]) > _PIECE_LEAST}
        for i, value in self._values.items():
            for gram in {value[k:k + _PIECE_LEAST] for k in range(len(value) - _PIECE_LEAST + 1)}:
                index.add(gram, PIECE, i)
        # the pieces of the longest value with the gaps between them, and a character either side
        self.reach = max((len(v) + _PIECE_GAP * (len(v) // _PIECE_LEAST) + 2 for v in self._values.values()),
                         default=0)

    def confirm(self, scan_view: ScanView, decided: set[int]) -> Iterator[Hit]:
        view = scan_view.view
        text = view.text
        starts: dict[int, list[int]] = defaultdict(list)
        for start, _, units in matched(scan_view, PIECE, decided):
            for i in units:
                starts[i].append(start)
        for i, found in starts.items():
            value = self._values[i]
            pieces = [p for p in _pieces(text, value, sorted(found))
                      if not self.units[i].case_differs(view.original[slice(*view.to_original(*p[:2]))])]
            joined = _joined(pieces, len(value))
            for start, end in joined:
                yield Hit(i, *view.to_original(start, end), "forms.concatenation", LITERAL, 0.9)
            prefix = len(self.units[i].public_prefix)
            for start, end, v_start, v_end in pieces:
                shown = v_end - max(v_start, prefix)  # a key's published prefix shows nothing of the secret
                if not any(s <= start < e for s, e in joined) and shown >= _PIECE_SHOWS:
                    grade = MOSTLY if shown / (len(value) - prefix) > 0.5 else FRAGMENT  # as a mask's
                    yield Hit(i, *view.to_original(start, end), "forms.concatenation.piece", grade, 0.6)

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if '"' not in text and "'" not in text:
            return
        for m in _JOIN.finditer(text):
            start, joined = m.start(), m.group()
            opening = _QUOTE.match(joined)
            if start and _joins(text[start - 1], text[m.end()]) and opening and \
                    joined.endswith(opening.group()) and not _LINES_APART.fullmatch(joined) and \
                    not ("\n" in joined and _KEY_NEXT.match(text, m.end())):
                yield start, m.end(), ""


def _joins(last: str, first: str) -> bool:
    """Do literals ending in `last` and starting with `first` join (their quotes and what joins them gone)? Not
    where either is a blank or a quote: `"" + "x"`, `"a " + "b"` and CSV's doubled quotes are no value cut in
    two."""
    return not (last.isspace() or first.isspace() or last in "\"'\\" or first in "\"'\\")


def _pieces(text: str, value: str, starts: list[int]) -> list[tuple[int, int, int, int]]:
    """(start, end, value start, value end) of each piece of `value` standing alone in `text`, the longest run
    of its characters from each first gram at `starts` (a gram inside a piece already read starts none)."""
    pieces: list[tuple[int, int, int, int]] = []
    read_to = 0
    for start in starts:
        if start < read_to:
            continue
        v_start = value.find(text[start:start + _PIECE_LEAST])
        end, v_end = start + _PIECE_LEAST, v_start + _PIECE_LEAST
        while v_end < len(value) and end < len(text) and text[end] == value[v_end]:
            end, v_end = end + 1, v_end + 1
        read_to = end
        alone = not _continues_key(text, start - 1, -1) and not _continues_key(text, end, 1)
        if v_end - v_start < len(value) and alone:
            pieces.append((start, end, v_start, v_end))
    return pieces


def _continues_key(text: str, k: int, outward: int) -> bool:
    """Does the character at `k`, next to a piece (`outward`: -1 before it, 1 after it), continue it as a key's
    characters? ("tundra-Plover-38!" is another password than tundra-Plover-83!, `kX9dQ2mV****` a mask, read as
    one.) A full stop or a question mark continues it where a key's character follows (`Tr0ub4dor&Mango?92` is
    another password); where a space or the text's end follows, it ends a sentence."""
    if not 0 <= k < len(text):
        return False
    ch, beyond = text[k], k + outward
    return is_word_char(ch) or ch in _KEY_SYMBOLS or (
        ch in ".?" and 0 <= beyond < len(text) and (is_word_char(text[beyond]) or text[beyond] in _KEY_SYMBOLS))


def _joined(pieces: list[tuple[int, int, int, int]], length: int) -> list[tuple[int, int]]:
    """Text spans of runs of `pieces` that join, in order and close together, to the whole value."""
    spans = []
    for k, (start, end, v_start, v_end) in enumerate(pieces):
        if v_start:
            continue
        for n_start, n_end, nv_start, nv_end in pieces[k + 1:]:
            if n_start - end > _PIECE_GAP or nv_start != v_end:
                break
            end, v_end = n_end, nv_end
            if v_end == length:
                spans.append((start, end))
                break
    return spans
