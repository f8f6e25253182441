"""The guard's twentieth walk (session 30, guard20): what still went through, over loopback HTTP in front of the
scripted stand-in, judged on what the stand-in RECEIVED and on the store's row.

- a value cut into pieces one space apart on one line: the shell's `echo 139 2288 3366` and Go's
  `fmt.Println(…)` of several arguments print them so; Python's and C's adjacent literals one space apart
  (`("lena.h" "artma" "nn@ex")`) and the shell's quoted arguments are one string to the program. Only digits were
  read joined (`exact.digits`); an e-mail, a name, a key went out in both modes. A run of whole pieces that joins
  into exactly a unit's value is read now (`forms.spaced_pieces`), and only such a run: a number row whose digits
  hold the value across its cells stays apart;
- Python's repr of UTF-16 or UTF-32 bytes (`print(open(p, "rb").read())` of a file Windows wrote,
  `b'\\xff\\xfen\\x00a\\x00…'`): the escapes and the characters between them were read apart and a NUL escape is no
  text, so everything went out; the literal is read as its text now (`forms.wide_bytes`);
- `hexdump -C`'s character column copied alone (`|…|`, sixteen bytes a line): a value cut at a line's end was read
  in two and went out; a run of such lines is read joined now (`forms.ascii_columns`; the name and the contact are
  dots there, so not in it);
- a line written backwards (`rev notes.txt`) or in ROT13 (`tr 'A-Za-z' 'N-ZA-Mn-za-m'`): no tier read either,
  so every value (ROT13: every one with a letter) went out; each value's form reversed and turned is a pattern
  of the automaton now (`forms.turned_values`).
"""

from __future__ import annotations

import ast
import codecs
import re

import pytest
from test_intercept_forms_walk_3 import NEAR, RECORD, UNITS, _line
from test_intercept_forms_walk_18 import DUMP_PLACES, sent_outcome
from test_intercept_forms_walk_19 import joined_literals
from test_intercept_upload_seams import enforcing

__all__ = ["GROUPS", "UNITS", "enforcing"]


_IDS = {u.field: u.id for u in UNITS}


def _outcome(proxy, group: str, form: str, place: str, write, read, fields=tuple(RECORD)) -> str:
    """`sent_outcome` of the record written as `form` (`write(record)`), the units of `fields` (those the form
    holds) found, none of their values forwarded as sent nor as the form's reader reads it (`read(sent)`: values
    compared without their spaces, as a form that parts pieces by spaces holds them); the near record in the same
    form goes out as sent."""
    text, near = write(RECORD), write(NEAR)
    values = [RECORD[f] for f in fields]
    if [v for v in values if _compact(v) not in _compact(read(text))]:
        return "not held: the form does not hold the record"
    episode = re.sub(r"\W", "_", f"{group}-{form}-{place}-{proxy[0]}")
    return sent_outcome(proxy, episode, place, text, near, {_IDS[f] for f in fields},
                        lambda sent: [v for v in values if _compact(v) in _compact(read(sent))])


def _compact(text: str) -> str:
    return text.replace(" ", "")


# --- pieces one space apart on one line ------------------------------------------------------------------------------

def _cut(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


def _echo(record: dict) -> str:
    """`echo` of the record, each value passed as arguments of three characters (the shell prints them a space
    apart; so does Go's `fmt.Println` of them)."""
    return "$ echo " + " ".join(f"{k}: {' '.join(_cut(v, 3))};" for k, v in record.items()) + "\n" + \
        " ".join(f"{k}: {' '.join(_cut(v, 3))};" for k, v in record.items())


def _literals(quote):
    """Source holding the record's line as literals of five characters one space apart on one line (`quote(piece)`
    writes one)."""
    return lambda record: "note = (" + " ".join(quote(p) for p in _cut(_line(record), 5)) + ")"


#: form → the text that holds the record's pieces one space apart
PIECES = {"echo": _echo,
          "python adjacent": _literals(lambda p: '"' + p.replace("\\", "\\\\").replace('"', '\\"') + '"'),
          "shell quoted": _literals(lambda p: "'" + p + "'")}
#: form → what a reader reads: the echoed line with its spaces gone (values compared without theirs), the
#: literals' text joined
READERS = {"echo": lambda text: text, "python adjacent": joined_literals, "shell quoted": joined_literals}


def pieces_outcome(proxy, form: str, place: str) -> str:
    return _outcome(proxy, "pieces", form, place, PIECES[form], READERS[form])


@pytest.mark.parametrize("form", sorted(PIECES))
def test_pieces_one_space_apart_are_read_joined(enforcing, form):
    outcomes = {place: pieces_outcome(enforcing, form, place) for place in DUMP_PLACES}
    assert outcomes == dict.fromkeys(DUMP_PLACES, "held")


# --- Python's repr of UTF-16 and UTF-32 bytes ------------------------------------------------------------------------

WIDE = ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le")


def _wide_repr(codec: str):
    """A script printing the bytes of a file holding the record's line in `codec`, as Python's print shows them."""
    return lambda record: f"$ python3 -c 'print(open(\"notes.txt\", \"rb\").read())'\n{_line(record).encode(codec)!r}"


def wide_text(codec: str):
    """What a reader reads: the literal's bytes (Python's own reading of it) decoded as `codec` (the test's)."""
    def read(text: str) -> str:
        found = re.search(r"^b(['\"]).*\1$", text, re.MULTILINE)
        return ast.literal_eval(found.group()).decode(codec, "replace") if found else ""
    return read


def wide_outcome(proxy, codec: str, place: str) -> str:
    return _outcome(proxy, "wide", codec, place, _wide_repr(codec), wide_text(codec))


@pytest.mark.parametrize("codec", WIDE)
def test_the_repr_of_utf16_and_utf32_bytes_is_read(enforcing, codec):
    outcomes = {place: wide_outcome(enforcing, codec, place) for place in DUMP_PLACES}
    assert outcomes == dict.fromkeys(DUMP_PLACES, "held")


# --- hexdump -C's character column alone ------------------------------------------------------------------------------

def _column(record: dict) -> str:
    """The `|…|` column `hexdump -C` prints right of the bytes: sixteen a line, `.` for a byte that does not print
    (checked against util-linux hexdump 2.38.1's column on the record's line, 214 bytes)."""
    data = _line(record).encode()
    shown = "".join(chr(b) if 32 <= b < 127 else "." for b in data)
    return "$ hexdump -C notes.txt | cut -c61-\n" + "".join(f"|{shown[i:i + 16]}|\n" for i in range(0, len(data), 16))


def column_text(text: str) -> str:
    """What a reader reads: the characters between each line's bars, joined (the test's own reading)."""
    return "".join(re.findall(r"^\|(.*)\|$", text, re.MULTILINE))


#: the values the column holds: those of ASCII characters alone (a name's and the contact's bytes are dots)
COLUMN_FIELDS = tuple(f for f, v in RECORD.items() if v.isascii())


def column_outcome(proxy, place: str) -> str:
    return _outcome(proxy, "column", "hexdump -C", place, _column, column_text, COLUMN_FIELDS)


def test_the_character_column_of_a_dump_is_read_joined(enforcing):
    assert {place: column_outcome(enforcing, place) for place in DUMP_PLACES} == dict.fromkeys(DUMP_PLACES, "held")


# --- a line backwards or in ROT13 -------------------------------------------------------------------------------------

def _rot13(text: str) -> str:
    return codecs.encode(text, "rot13")


#: form → (the command, what it does to a line; its own inverse)
TURNED = {"rev": ("rev notes.txt", lambda line: line[::-1]),
          "rot13": ("tr 'A-Za-z' 'N-ZA-Mn-za-m' < notes.txt", _rot13)}


def turned_outcome(proxy, form: str, place: str) -> str:
    command, turn = TURNED[form]
    return _outcome(proxy, "turned", form, place, lambda record: f"$ {command}\n{turn(_line(record))}\n",
                    lambda text: turn(text.split("\n", 1)[1]))


@pytest.mark.parametrize("form", sorted(TURNED))
def test_a_line_backwards_or_in_rot13_is_read(enforcing, form):
    outcomes = {place: turned_outcome(enforcing, form, place) for place in DUMP_PLACES}
    assert outcomes == dict.fromkeys(DUMP_PLACES, "held")


#: The cells `benchmarks/guard_forms_matrix.py --walk 20` counts
GROUPS = {"pieces one space apart": ([(form, place) for form in PIECES for place in DUMP_PLACES], pieces_outcome),
          "repr of UTF-16/32 bytes": ([(codec, place) for codec in WIDE for place in DUMP_PLACES], wide_outcome),
          "hexdump -C's column alone": ([(place,) for place in DUMP_PLACES], column_outcome),
          "backwards, ROT13": ([(form, place) for form in TURNED for place in DUMP_PLACES], turned_outcome)}
