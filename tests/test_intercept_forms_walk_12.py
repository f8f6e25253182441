"""The guard's twelfth walk (session 23), walked as `test_intercept_forms_walk_11.py` walks: over loopback HTTP in
front of the scripted stand-in upstream, the third walk's customer record in every request position of the wire
APIs, streamed too, written as more tool output carries it, each of which forwarded values before:

- a Windows file as base64, as PowerShell shows it (`[Convert]::ToBase64String([IO.File]::ReadAllBytes(…))`): Windows
  PowerShell's `Out-File` and `>` write UTF-16LE after a byte order mark, and its base64 was taken for binary;
- a PowerShell command line with `-EncodedCommand`, a script as base64 of its UTF-16LE (no byte order mark), as a
  scheduled task, an agent's shell history or a process list shows it;
- `sqlcmd` showing SQL Server's `nvarchar` cast to `varbinary`: `0x` and the hex of the value's UTF-16LE
  (`0x4A006F007300E900…`), which the hex form read as UTF-8 only;
- the PowerShell file itself where each API takes a file (a data URL, a document's or an image's base64 `data`, Gemini's
  `inlineData`, Bedrock's `bytes`, Ollama's `images`);
- a browser's history of map and search links whose path writes a name's spaces as `+` and its other letters
  percent-encoded (`/maps/search/Jos%C3%A9+N%C3%BA%C3%B1ez`): the decoders kept the `+` between two encoded words.

Judged as the earlier walks judge, on what the upstream RECEIVED read with every encoding of the earlier walks and
this one undone: redact forwards no value, block forwards nothing. Near misses go out untouched."""

from __future__ import annotations

import base64
import functools
import re
from urllib.parse import quote_plus

from test_intercept_forms_walk import CELLS, assert_held, leaked, walk_tests
from test_intercept_forms_walk_2 import near_misses_test
from test_intercept_forms_walk_3 import (
    _CANONICAL,
    _PLAIN,
    NEAR,
    RECORD,
    UNIT_IDS,
    UNITS,
    _ascii_folded,
    _more_decodings,
)
from test_intercept_forms_walk_7 import FILE_PLACES, _file_positions
from test_intercept_forms_walk_8 import _line, _these
from test_intercept_forms_walk_9 import _these_9
from test_intercept_forms_walk_11 import _these_11

__all__ = ["CELLS", "FORMS", "GROUPS", "UNITS", "walk_form"]


# --- the forms: a record → the text that carries it ----------------------------------------------------------

def _powershell_file(r: dict) -> str:
    """A file `Out-File` wrote (UTF-16LE after its byte order mark), shown as base64 in a PowerShell session."""
    data = b"\xff\xfe" + (_line(r) + "\r\n").encode("utf-16-le")
    return ("PS C:\\crm> Get-Content .\\P1.txt | Out-File -FilePath .\\export\\P1.txt\r\n"
            "PS C:\\crm> [Convert]::ToBase64String([IO.File]::ReadAllBytes('C:\\crm\\export\\P1.txt'))\r\n"
            f"{base64.b64encode(data).decode()}\r\nPS C:\\crm> ")


def _encoded_command(r: dict) -> str:
    """A scheduled task's command line: the script that writes the record, base64 of its UTF-16LE."""
    script = f"Set-Content -Path C:\\crm\\P1.txt -Value '{_line(r)}'"
    return ("TaskName : \\CRM\\ExportP1\r\nTask To Run : powershell.exe -NoProfile -WindowStyle Hidden "
            f"-EncodedCommand {base64.b64encode(script.encode('utf-16-le')).decode()}\r\n")


def _sqlcmd_varbinary(r: dict) -> str:
    """`sqlcmd -Q "SELECT field, CAST(value AS varbinary(max)) FROM customer_fields WHERE id = 'P1'"`."""
    rows = "".join(f"{k:<12} 0x{v.encode('utf-16-le').hex().upper()}\r\n" for k, v in r.items())
    return f"field        value\r\n------------ -----\r\n{rows}\r\n({len(r)} rows affected)\r\n"


def _map_links(r: dict) -> str:
    """A browser's history, exported: the agent looked each field up on a map, the link's path the field's value."""
    return "url,title,visit_count\n" + "".join(f"https://www.google.com/maps/search/{quote_plus(f'{k} {v}')},"
                                                f"Google Maps,1\n" for k, v in r.items())


FORMS_12 = {"powershell_base64_file": _powershell_file, "powershell_encoded_command": _encoded_command,
            "sqlcmd_varbinary": _sqlcmd_varbinary, "map_links_plus": _map_links}
FORMS = {name: functools.partial(lambda make: [make(RECORD)], make) for name, make in FORMS_12.items()}
#: a header holds one line: these are several
ONE_LINE = set(FORMS_12)


# --- the reader: what the upstream received, read with this walk's encodings undone too -------------------------

_B64 = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")
_HEX_UTF16 = re.compile(r"0x((?:[0-9A-Fa-f]{4})+)")


def _utf16(token: str) -> str:
    raw = base64.b64decode(token + "=" * (-len(token) % 4))
    return raw.decode("utf-16" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-16-le", "replace")


def _these_12(text: str) -> set[str]:
    """Every base64 token and `0x` hex run of the text read as UTF-16 (one of UTF-8 decodes to noise, which reads as
    no value)."""
    return {"\n".join(_utf16(token) for token in _B64.findall(text) if len(token.rstrip("=")) % 4 != 1),
            "\n".join(bytes.fromhex(digits).decode("utf-16-le", "replace") for digits in _HEX_UTF16.findall(text))}


def leaks(sent: dict) -> list[str]:
    found = leaked(sent, {**_CANONICAL, **_PLAIN}, lambda t: _more_decodings(t) | _these(t) | _these_9(t)
                   | _these_11(t) | _these_12(t) | {_ascii_folded(t)})
    return sorted({f.split(" (")[0] for f in found})


# --- the walk ------------------------------------------------------------------------------------------------

#: Cells where the guard does not hold yet (none)
KNOWN_GAPS: dict[str, set] = {}

#: The walk's cells of one form (`guard_forms_matrix.py --walk 12`) and its three tests (walk 1's `walk_tests`)
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)


test_near_misses_go_out_untouched = near_misses_test(FORMS_12, NEAR)


# --- a UTF-16 file where each API takes a file --------------------------------------------------------------------

def utf16_file_outcome(proxy, place: str) -> str:
    """"held" where the record's file as `Out-File` writes it, sent where the API takes a file as text/plain, has every
    unit found and none forwarded (redact replaces the file's base64, a token, by its placeholders)."""
    path, body = _file_positions(b"\xff\xfe" + (_line(RECORD) + "\r\n").encode("utf-16-le"), "text/plain")[place]
    try:
        assert_held(proxy, f"utf16-file-{place}".replace(".", "_"), path, UNIT_IDS, leaks,
                    json={"model": "echo", **body})
    except AssertionError as e:
        return f"not held: {str(e)[:200]}"
    return "held"


def test_a_utf16_file_holds_in_every_file_place(proxy):
    outcomes = {place: utf16_file_outcome(proxy, place) for place in FILE_PLACES}
    assert {k: o for k, o in outcomes.items() if o != "held"} == {}


#: The walk's groups of cells beside its forms' (`benchmarks/guard_forms_matrix.py --walk 12` counts them).
GROUPS = {"UTF-16 file places": ([(place,) for place in FILE_PLACES], utf16_file_outcome)}
