"""The guard's twenty-first walk (session 31, guard21): what still went through, over loopback HTTP in front of the
scripted stand-in, judged on what the stand-in RECEIVED and on the store's row.

- a value's pieces two spaces or a tab apart on one line (`printf '%s\\t'`, column-aligned output): walk 20 read
  pieces one space apart only; a run of any blanks joins them now (`forms.spaced_pieces`), still only where the
  run joins into exactly the value and stands alone;
- CSS escapes (`\\31 \\33 \\39`, `\\6b27 `: `CSS.escape`, a stylesheet's `content`), base32 (`base32`, padded or
  not, `basenc --base32hex`), UTF-7 (`+ayeWM1oc-`, IMAP's `&ayeWM1oc-`), SQL's `CHAR(…)||CHAR(…)`, `CONCAT(CHAR(…),…)`
  and `CHR(…)`, bytes as binary digits (a space apart, `xxd -b`, `basenc --base2msbf`): no tier read any of them,
  so every value (UTF-7: every one past ASCII) went out in both modes; each is one form now (`forms.css_escapes`,
  `base32`, `utf7`, `sql_chars`, `binary_octets`);
- bytes as decimal numbers a blank apart (`od -An -tu1`, Python's `print(*data)`): every value went out; read as
  bytes of UTF-8 text now (`forms.decimal_bytes`).

Each text is built here as the tool writes it (checked byte for byte against coreutils 9.1's `base32`, `basenc`,
`od -An -tu1` and xxd 2022-01-14's `xxd -b` on the record's line) and read back by the test's own reader, never
the guard's.
"""

from __future__ import annotations

import base64
import re

import pytest
from test_intercept_forms_walk_3 import UNITS, _line
from test_intercept_forms_walk_18 import DUMP_PLACES
from test_intercept_forms_walk_20 import _outcome
from test_intercept_upload_seams import enforcing

__all__ = ["GROUPS", "UNITS", "enforcing"]


def _cut(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


# --- pieces a run of blanks apart -------------------------------------------------------------------------------------

#: form → the blank between two pieces of three characters (`printf '%s  '`, `printf '%s\t'` of them)
BLANKS = {"two spaces": "  ", "tab": "\t", "tab and spaces": " \t  "}


def _pieces(blank: str):
    return lambda record: "; ".join(f"{k}: {blank.join(_cut(v, 3))}" for k, v in record.items())


def pieces_outcome(proxy, form: str, place: str) -> str:
    """What a reader reads: the line with its blanks one space (values compared without their spaces)."""
    return _outcome(proxy, "blanks", form, place, _pieces(BLANKS[form]), lambda text: re.sub(r"[ \t]+", " ", text))


@pytest.mark.parametrize("form", sorted(BLANKS))
def test_pieces_a_run_of_blanks_apart_are_read_joined(enforcing, form):
    outcomes = {place: pieces_outcome(enforcing, form, place) for place in DUMP_PLACES}
    assert outcomes == dict.fromkeys(DUMP_PLACES, "held")


# --- CSS escapes ------------------------------------------------------------------------------------------------------

def _css(ch: str) -> str:
    return f"\\{ord(ch):x} "


#: form → the record's line in a stylesheet's `content` string: every character escaped, or those past ASCII
CSS = {"every character": lambda record: 'content: "' + "".join(map(_css, _line(record))) + '";',
       "past ASCII": lambda record: 'content: "' + "".join(c if c.isascii() else _css(c) for c in _line(record)) + '";'}


def css_text(text: str) -> str:
    """What a reader reads: each escape (hex digits and the one blank that ends it) as its character."""
    return re.sub(r"\\([0-9a-fA-F]{1,6}) ?", lambda m: chr(int(m.group(1), 16)), text)


def css_outcome(proxy, form: str, place: str) -> str:
    return _outcome(proxy, "css", form, place, CSS[form], css_text)


# --- base32 -----------------------------------------------------------------------------------------------------------

_BASE32, _BASE32HEX = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "0123456789ABCDEFGHIJKLMNOPQRSTUV"
_TO_HEX, _FROM_HEX = str.maketrans(_BASE32, _BASE32HEX), str.maketrans(_BASE32HEX, _BASE32)


def _wrapped(command: str, token: str) -> str:
    return f"$ {command}\n" + "".join(line + "\n" for line in _cut(token, 76))


#: form → the record's line as `base32` (lines of 76), without padding on one line, as `basenc --base32hex`
BASE32 = {"base32": lambda record: _wrapped("base32 notes.txt", base64.b32encode(_line(record).encode()).decode()),
          "no padding": lambda record: "token=" + base64.b32encode(_line(record).encode()).decode().rstrip("="),
          "base32hex": lambda record: _wrapped("basenc --base32hex notes.txt", base64.b32encode(
              _line(record).encode()).decode().translate(_TO_HEX))}


def base32_text(form: str):
    """What a reader reads: the lines after the command (or the token after `=`) joined, padded, decoded (nothing
    where what was sent is no longer base32: redacted)."""
    def read(text: str) -> str:
        token = "".join(text.split("\n")[1:]) if text.startswith("$") else text.partition("=")[2]
        token = token.rstrip("=").translate(_FROM_HEX if form == "base32hex" else {})
        try:
            return base64.b32decode(token + "=" * (-len(token) % 8)).decode("utf-8", "replace")
        except ValueError:
            return ""
    return read


def base32_outcome(proxy, form: str, place: str) -> str:
    return _outcome(proxy, "base32", form, place, BASE32[form], base32_text(form))


# --- UTF-7 ------------------------------------------------------------------------------------------------------------

def _imap(text: str) -> str:
    """IMAP's modified UTF-7 (RFC 3501 § 5.1.3): each run past ASCII as `&`, its UTF-16 in base64 (`,` for `/`, no
    padding), `-`."""
    return re.sub(r"[^\x20-\x7e]+", lambda m: "&" + base64.b64encode(m.group().encode("utf-16-be")).decode()
                  .rstrip("=").replace("/", ",") + "-", text)


#: form → the record's line in UTF-7 (Python's codec, as a mail header of old wrote it) and IMAP's (a mailbox name)
UTF7 = {"utf-7": lambda record: _line(record).encode("utf-7").decode(),
        "imap": lambda record: "* LIST () \"/\" \"" + _imap(_line(record)) + "\""}


def utf7_text(text: str) -> str:
    """What a reader reads: each shift sequence's base64 as UTF-16 (as it stands where it is none)."""
    def shift(m: re.Match) -> str:
        b64 = m.group(2).replace(",", "/")
        try:
            return base64.b64decode(b64 + "=" * (-len(b64) % 4)).decode("utf-16-be", "replace")
        except ValueError:
            return m.group()
    return re.sub(r"([+&])([A-Za-z0-9+/,]+)-?", shift, text)


def utf7_outcome(proxy, form: str, place: str) -> str:
    return _outcome(proxy, "utf7", form, place, UTF7[form], utf7_text)


# --- SQL character codes ----------------------------------------------------------------------------------------------

#: form → a query building the record's line from codes: SQLite's `CHAR(…)||…` of code points, MySQL's
#: `CONCAT(CHAR(…), …)` of UTF-8 bytes, PostgreSQL's `CHR(…)||…` of code points
SQL = {"char ||": lambda record: "SELECT " + "||".join(f"CHAR({ord(c)})" for c in _line(record)) + ";",
       "concat": lambda record: "SELECT CONCAT(" + ",".join(f"CHAR({b})" for b in _line(record).encode()) + ");",
       "chr ||": lambda record: "SELECT " + " || ".join(f"chr({ord(c)})" for c in _line(record)) + ";"}


def sql_text(form: str):
    """What a reader reads: the codes in order, as code points (bytes where the query's `CHAR` is MySQL's)."""
    def read(text: str) -> str:
        codes = [int(n) for n in re.findall(r"\((\d+)\)", text)]
        return bytes(codes).decode("utf-8", "replace") if form == "concat" else "".join(map(chr, codes))
    return read


def sql_outcome(proxy, form: str, place: str) -> str:
    return _outcome(proxy, "sql", form, place, SQL[form], sql_text(form))


# --- bytes as binary digits -------------------------------------------------------------------------------------------

def _octets(data: bytes) -> list[str]:
    return [f"{b:08b}" for b in data]


def _xxd_b(data: bytes) -> str:
    """`xxd -b`: an offset, six octets a space after each, a space, the characters (`.` where not ASCII printing)."""
    return "".join(f"{k:08x}: " + "".join(o + " " for o in _octets(data[k:k + 6])).ljust(54) + " "
                   + "".join(chr(b) if 32 <= b < 127 else "." for b in data[k:k + 6]) + "\n"
                   for k in range(0, len(data), 6))


#: form → the record's line's bytes as octets a space apart, `xxd -b`'s dump, `basenc --base2msbf` (lines of 76)
BINARY = {"octets": lambda record: " ".join(_octets(_line(record).encode())),
          "xxd -b": lambda record: "$ xxd -b notes.txt\n" + _xxd_b(_line(record).encode()),
          "base2msbf": lambda record: _wrapped("basenc --base2msbf notes.txt",
                                               "".join(_octets(_line(record).encode())))}


def binary_text(text: str) -> str:
    """What a reader reads: every binary digit of the octets (an `xxd -b` line's between its offset and its
    characters), eight a byte, as UTF-8."""
    lines = [line for line in text.splitlines() if not line.startswith("$")]
    bits = re.sub(r"[^01]", "", "".join(re.sub(r"^[0-9a-f]{8}: |  .*$", "", line) for line in lines))
    return bytes(int(bits[k:k + 8], 2) for k in range(0, len(bits) - 7, 8)).decode("utf-8", "replace")


def binary_outcome(proxy, form: str, place: str) -> str:
    return _outcome(proxy, "binary", form, place, BINARY[form], binary_text)


# --- bytes as decimal numbers -----------------------------------------------------------------------------------------

def _od_u1(data: bytes) -> str:
    """`od -An -tu1`: sixteen bytes a line, each right-aligned in four columns."""
    return "".join("".join(f"{b:4d}" for b in data[k:k + 16]) + "\n" for k in range(0, len(data), 16))


#: form → the record's line's bytes as `od -An -tu1` prints them, and as Python's `print(*data)`
DECIMAL = {"od -An -tu1": lambda record: "$ od -An -tu1 notes.txt\n" + _od_u1(_line(record).encode()),
           "print(*data)": lambda record: " ".join(map(str, _line(record).encode()))}


def decimal_text(text: str) -> str:
    """What a reader reads: every number of three digits or fewer standing alone, a byte, as UTF-8."""
    numbers = [int(n) for n in re.findall(r"(?<!\S)[0-9]{1,3}(?!\S)", text)]
    return bytes(n for n in numbers if n < 256).decode("utf-8", "replace")


def decimal_outcome(proxy, form: str, place: str) -> str:
    return _outcome(proxy, "decimal", form, place, DECIMAL[form], decimal_text)


#: The cells `benchmarks/guard_forms_matrix.py --walk 21` counts
GROUPS = {"pieces a run of blanks apart": ([(f, p) for f in BLANKS for p in DUMP_PLACES], pieces_outcome),
          "CSS escapes": ([(f, p) for f in CSS for p in DUMP_PLACES], css_outcome),
          "base32": ([(f, p) for f in BASE32 for p in DUMP_PLACES], base32_outcome),
          "UTF-7": ([(f, p) for f in UTF7 for p in DUMP_PLACES], utf7_outcome),
          "SQL character codes": ([(f, p) for f in SQL for p in DUMP_PLACES], sql_outcome),
          "binary digits": ([(f, p) for f in BINARY for p in DUMP_PLACES], binary_outcome),
          "decimal bytes": ([(f, p) for f in DECIMAL for p in DUMP_PLACES], decimal_outcome)}


@pytest.mark.parametrize(("group", "form"), [(g, f) for g in list(GROUPS)[1:] for f in dict.fromkeys(
    cell[0] for cell in GROUPS[g][0])])
def test_an_encoded_line_is_read(enforcing, group, form):
    outcome = GROUPS[group][1]
    assert {place: outcome(enforcing, form, place) for place in DUMP_PLACES} == dict.fromkeys(DUMP_PLACES, "held")

