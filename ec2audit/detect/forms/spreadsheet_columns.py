"""A value split over a spreadsheet's columns, as an export writes it: an NHS number under `nhs_1,nhs_2,nhs_3`
(`Kolodziej-Abara,Anwen,612,508,3397,…`), a card under `卡号前12位,卡号后7位`, a date of birth under
`dob_day|dob_month|dob_year`, an address under `street,city,postcode`. A row's cells are a record's fields named by
the header above them: cells next to each other whose column names share a stem and end in a word naming a piece
(or name an address's parts) are joined as `keyed_fields` joins a record's fields, nothing else; cells under
unrelated names never join (a row of numbers is no value). CSV, TSV, `;` and Markdown or `|` tables; a header and
the rows under it up to `cue_lines` lines on, each row with the header's number of cells (quoted cells whole)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, any_case, register
from ec2audit.detect.forms.keyed_fields import joined_fields, names_pieces
from ec2audit.detect.views import Replacement

_DELIMITERS = (",", "\t", ";", "|")
_ROWS = 20  # rows under a header read as its (a cue's lines)
#: the words ending a column's name that name a piece or an address's part (`keyed_fields` decides which join)
_PIECE_NAMES = ("1", "2", "3", "4", "part", "p", "first", "last", "prefix", "suffix", "day", "month", "year", "line",
                "city", "postcode", "zip")
#: a cell: blanks, then a quoted value (its `""` escapes kept) or anything up to the delimiter, then blanks
_CELLS = {d: re.compile(rf'[ \t]*(?:"(?P<q>(?:[^"\n]|"")*)"|(?P<bare>[^{e}\n"]*?))[ \t]*(?={e}|$)', re.MULTILINE)
          for d in _DELIMITERS for e in [re.escape(d)]}


def _cells(line: str, delimiter: str) -> list[tuple[int, int]]:
    """The spans of a line's cells (inside their quotes), in order."""
    spans, at = [], 0
    pattern = _CELLS[delimiter]
    while at <= len(line):
        m = pattern.match(line, at)
        if m is None:
            return []
        group = "q" if m.group("q") is not None else "bare"
        spans.append(m.span(group))
        at = m.end() + 1  # past the delimiter
    return spans


def _tables(text: str) -> Iterator[tuple[list[str], list[tuple[int, list[tuple[int, int]]]]]]:
    """(a header's cells, [(a row's offset, its cells' spans)]) of each table whose header names a joined value."""
    lines, offsets, at = text.split("\n"), [], 0
    for line in lines:
        offsets.append(at)
        at += len(line) + 1
    i = 0
    while i < len(lines):
        header = lines[i]
        delimiter = next((d for d in _DELIMITERS if header.count(d) >= 2), None)
        spans = _cells(header, delimiter) if delimiter else []
        keys = [header[slice(*s)] for s in spans]
        if delimiter is None or not names_pieces(keys):
            i += 1
            continue
        rows, j = [], i + 1
        while j < min(len(lines), i + 1 + _ROWS) and lines[j].strip():
            cells = _cells(lines[j], delimiter)
            if len(cells) == len(spans):
                rows.append((offsets[j], cells))
            j += 1
        yield keys, rows
        i = j


@register
class SpreadsheetColumns(Form):
    name = "spreadsheet_columns"
    # a column named as a piece (`nhs_1`, `cardFirst6`, `dob_day`, `卡号前12位`) before a delimiter
    cue = ("[A-Za-z_](?:" + "|".join(any_case(w) for w in _PIECE_NAMES) + r")\d?[ \t]*[,;|\t]"
           r"|(?:前|后|末|尾)\d{1,2}位|第[一二三四1-4]段")
    cue_lines = _ROWS

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for keys, rows in _tables(text):
            for offset, cells in rows:
                yield from joined_fields(text, keys, [(offset + a, offset + b) for a, b in cells])
