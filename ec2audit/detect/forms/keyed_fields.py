"""A value given as one record's separate keyed fields, and the text reading them as one: a UK NI number as
`"nino_prefix":"JT","nino_digits":"482791","nino_suffix":"B"`, a date as `dob_day=14&dob_month=3&dob_year=1987`, a
card as `"card_first6":"411111","card_last4":"1234"`, an address as `"line1":…,"city":…,"postcode":…` or
`"city":"福州市","district":"鼓楼区",…`. Fields next to each other in one record (nothing but commas, semicolons,
ampersands and blanks between them) whose keys share a stem and end in a word naming a piece are joined in field
order (a date's day, month and year as ISO `1987-03-14`; a first and a last part as a mask shows them,
`411111…1234`); so are fields named as an address's lines, street, town and postcode (apart by a space, or by nothing
in Chinese). The tiers then read the joined value as the record gives it: whole, or as the part it is. Fields of
another record (a brace, a bracket or any other text between) never join."""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from functools import lru_cache

from ec2audit.detect.forms import Form, any_case, is_cjk, register
from ec2audit.detect.views import Replacement

#: one `key: value` or `key=value` field: a quoted value, or a bare one (words apart by single spaces, up to the next
#: key)
_FIELD = re.compile(r"""(?P<q>["']?)(?P<key>[A-Za-z][A-Za-z0-9_.\-]{0,40})(?P=q)[ \t]*[:=][ \t]*"""
                    r"""(?:"(?P<dq>[^"\n]{1,60})"|'(?P<sq>[^'\n]{1,60})'"""
                    r"""|(?P<bare>[^\s,;&{}[\]"'=]{1,40}(?:[ ](?![^\s=:]+[ \t]*[:=])[^\s,;&}\]"'=:]{1,40}){0,6}))""")
_BETWEEN = re.compile(r"[\s,;&]*")  # what stands between two fields of one record
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
#: the word ending a key that names a piece of a value joined as written
_JOINED = re.compile(r"prefix|suffix|digits|letters|numbers?|num|no|body|middle|check(?:digit)?|part\d|p\d|\d")
_DATE = {"day": "d", "dd": "d", "month": "m", "mon": "m", "mm": "m", "year": "y", "yyyy": "y", "yr": "y"}
_FIRST = re.compile(r"first\d*|bin|head|leading\d*")
_LAST = re.compile(r"last\d*|tail|trailing\d*")
_MONTHS = {name.lower(): k for names in (calendar.month_name, calendar.month_abbr) for k, name in enumerate(names)
           if name}
#: keys naming a part of an address, as they end (`address_line1`, `shipCity`, `zip5`)
_ADDRESS = re.compile(r"(?:line|street|address|addr)\d?|street(?:number|name|no)|streetaddress|house(?:number|no)?"
                      r"|building|flat|apt|apartment|room"
                      r"|city|town|locality|suburb|district|county|state|province|region|postcode|postalcode"
                      r"|zip(?:code)?\d?"
                      r"|road")
_ADDRESS_END = re.compile(f"(?:{_ADDRESS.pattern})$")
_ADDRESS_WORDS = ("line1", "line2", "street", "city", "town", "postcode", "postal", "zip", "district", "province",
                  "suburb", "county", "building", "room")
_PIECE_WORDS = ("prefix", "suffix", "digits", "letters", "part1", "part2", "day", "month", "year", "first", "last",
                "bin", "head", "tail")


#: a Chinese key naming a piece by its place: `卡号前12位`, `卡号后7位`, `证件号第2段`
_CJK_PIECE = re.compile(r"(?P<stem>.+?)(?:(?:前|后|末|尾)\d{1,2}位|第[一二三四1-4]段)")


def _key_parts(key: str) -> tuple[str, str]:
    """A key's stem and its last word, lower case: `nino_prefix` → (nino, prefix), `dobDay` → (dob, day); a Chinese
    key naming a piece by its place, its stem and a piece joined as written (`卡号前12位` → (卡号, p1))."""
    if m := _CJK_PIECE.fullmatch(key):
        return m["stem"], "p1"
    words = [w for w in re.split(r"[_.\-]", _CAMEL.sub("_", key).lower()) if w]
    return "_".join(words[:-1]), words[-1] if words else ""


def _value(m: re.Match) -> tuple[int, int]:
    group = next(g for g in ("dq", "sq", "bare") if m.group(g) is not None)
    return m.span(group)


#: a field's key, its quotes and the blanks up to its separator: at most this many characters before the blanks
_KEY_LONGEST = 43
_KEY = re.compile(r"""(["']?)[A-Za-z][A-Za-z0-9_.\-]{0,40}\1[ \t]*[:=]""")  # `_FIELD` up to its separator
_SEPARATOR = re.compile(r"[:=]")


def _fields(text: str) -> Iterator[re.Match]:
    """The matches of `_FIELD.finditer(text)`, found from each separator back: a field's key, quotes and blanks
    hold no separator, so the one field ending its key at a separator starts after the separator before and at
    most `_KEY_LONGEST` characters before its blanks. The regex engine tries a field at every letter of the text
    (half of the 8 MB payload read, 0.57 s); this tries it at one place per separator."""
    end = after = 0  # the last field's end, and the character after the last separator
    for sep in _SEPARATOR.finditer(text):
        at = sep.start()
        blanks = at
        while blanks > after and text[blanks - 1] in " \t":
            blanks -= 1
        lo, after = max(end, after, blanks - _KEY_LONGEST), at + 1
        if not (key := _KEY.search(text, lo, at + 1)):  # (none where a field's value holds the separator)
            continue
        # a field that fails here fails at every later start with this key: the rest after the separator is the same
        if m := _FIELD.match(text, key.start()):
            end = m.end()
            yield m


def _records(text: str) -> Iterator[list[re.Match]]:
    """Runs of fields next to each other in one record."""
    run: list[re.Match] = []
    for m in _fields(text):
        last = run[-1] if run else None
        if last is not None and not _BETWEEN.fullmatch(text, last.end(), m.start()):
            yield run
            run = []
        run.append(m)
    if run:
        yield run


@lru_cache(maxsize=4096)  # a log's records repeat their keys: 44,180 asks of the 8 MB payload
def _family(key: str) -> tuple[str, str] | None:
    """What a key names: ("address", "") for an address's part, ("piece", stem) for a piece of its stem's value."""
    flat = re.sub(r"[^a-z0-9]", "", key.lower())
    if _ADDRESS_END.search(flat):
        return "address", ""
    stem, word = _key_parts(key)
    if stem and (word in _DATE or _FIRST.fullmatch(word) or _LAST.fullmatch(word) or _JOINED.fullmatch(word)):
        return "piece", stem
    return None


def _date(pieces: dict[str, str]) -> str | None:
    """The ISO date of a day, a month (a number or a name) and a four-digit year."""
    day, month, year = pieces.get("d", ""), pieces.get("m", "").lower(), pieces.get("y", "")
    m = int(month) if month.isdigit() else _MONTHS.get(month, _MONTHS.get(month[:3], 0))
    if not (day.isdigit() and len(year) == 4 and year.isdigit() and 1 <= m <= 12 and 1 <= int(day) <= 31):
        return None
    return f"{year}-{m:02d}-{int(day):02d}"


def _joined(text: str, fields: list[tuple[int, int]], words: list[str]) -> Iterator[Replacement]:
    """The replacements that join pieces (their values' spans) as their keys' words say: what stands between them
    dropped, or (a date, a first and a last part) the whole run rewritten; none where they make no value."""
    values = [text[slice(*f)].strip() for f in fields]
    whole = fields[0][0], fields[-1][1]
    if all(w in _DATE for w in words):
        if date := _date({_DATE[w]: v for w, v in zip(words, values, strict=True)}):
            yield *whole, date
    elif len(words) == 2 and _FIRST.fullmatch(words[0]) and _LAST.fullmatch(words[1]):
        yield *whole, f"{values[0]}…{values[1]}"
    elif all(_JOINED.fullmatch(w) for w in words):
        yield from _between(fields, "")


def _between(fields: list[tuple[int, int]], separator: str) -> Iterator[Replacement]:
    """What stands between each two fields' values (a closing quote, a key, an opening quote) as `separator`: each
    value keeps its own characters, so a hit of one of them alone stays its own span."""
    for a, b in zip(fields, fields[1:], strict=False):
        yield a[1], b[0], separator


def names_pieces(keys: list[str]) -> bool:
    """Do two keys next to each other name pieces of one value (a header over a value's columns)?"""
    families = [_family(k) for k in keys]
    return any(a is not None and a == b for a, b in zip(families, families[1:], strict=False))


def joined_fields(text: str, keys: list[str], values: list[tuple[int, int]]) -> Iterator[Replacement]:
    """The replacements joining each run of ≥ 2 fields of one family, next to each other in one record: their
    keys, and their values' spans in `text` (a record's fields here; a spreadsheet row's cells under their
    header's names in `spreadsheet_columns`)."""
    i = 0
    while i < len(keys):
        family = _family(keys[i])
        j = i + 1
        while family is not None and j < len(keys) and _family(keys[j]) == family:
            j += 1
        if j - i >= 2 and family is not None:
            fields = values[i:j]
            if family[0] == "address":
                cjk = any(is_cjk(c) for f in fields for c in text[slice(*f)])
                yield from _between(fields, "" if cjk else " ")
            else:
                yield from _joined(text, fields, [_key_parts(k)[1] for k in keys[i:j]])
        i = j


@register
class KeyedFields(Form):
    name = "keyed_fields"
    # a key ending in a piece's or an address part's word (fields of a pretty-printed record stand on lines apart)
    cue = "|".join(any_case(w) for w in _PIECE_WORDS + _ADDRESS_WORDS)
    cue_lines = 8

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for record in _records(text):
            yield from joined_fields(text, [f.group("key") for f in record], [_value(f) for f in record])
