"""The guard's ninth walk (session 21), walked as `test_intercept_forms_walk_8.py` walks: over loopback HTTP in
front of the scripted stand-in upstream, the third walk's customer record in every request position of the wire
APIs, streamed too, written as more kinds of tool output carry it, each of which forwarded values before:

- a spreadsheet's CSV export, whose number columns Excel shows in scientific notation (`4.86E+05` for a salary,
  `1.3922883366E+10` for a phone stored as a number): a number with zeros at its end read only as its mantissa;
- RTF source as Word writes it, each run of formatting a group of control words (`{\\rtlch\\fcs1 \\b\\insrsid7 139}
  {\\insrsid7 22883366}`), or as other writers toggle formatting between characters (`139\\b 2288\\b0 3366`), and
  as WordPad writes it on a Chinese system (`\\ansicpg936` in the header, 欧 as its GBK bytes `\\'c5\\'b7`);
- bytes printed as numbers: a Java log line's `Arrays.toString`, Node's `<Buffer 6c 65 …>`, `JSON.stringify` of a
  Buffer (where the proxy walks a string's JSON inside, its array read as the text it spells: `fields._read_spelled`);
- a link encoded twice (`%2540`); a UTF-16 file read back as UTF-8 (NULs beside the characters); an IPv6 unit
  spelled as `ip -6 addr` prints it;
- a man page's bold (`s\\bsk\\bk`), whose struck letters OCR's form read as digits before the backspaces were gone
  (`vB\\bB8` as `v88`): an API key printed bold went out.

Judged as the earlier walks judge, on what the upstream RECEIVED read with every encoding of the earlier walks and
this one undone: redact forwards no value, block forwards nothing. Near misses go out untouched, and text that
only looks like a form (a version, a float, LaTeX) is read as it stands."""

from __future__ import annotations

import functools
import ipaddress
import json
import re
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from intercept_helpers import json_strings
from test_intercept_forms_walk import CELLS, assert_held, leaked, walk_tests
from test_intercept_forms_walk_2 import _send as exchange
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
from test_intercept_forms_walk_8 import _halves, _line, _rtf, _these

from ec2audit.detect.cascade import Cascade
from ec2audit.detect.cues import CueScan
from ec2audit.intercept.redact import PLACEHOLDER
from ec2audit.units import make_unit

__all__ = ["CELLS", "FORMS", "UNITS", "walk_form"]

#: the server's address, as the customer database holds it (in full); the proxy guards it with the record
IPV6 = "2001:0db8:0000:0000:0000:ff00:0042:8329"
IPV6_UNIT = make_unit({"task_id": "t1", "entity_id": "P1", "field": "server_ip", "value": IPV6, "dimension": "network"})
GUARDED_UNITS = [*UNITS, IPV6_UNIT]


# --- the forms: a record → the text that carries it ----------------------------------------------------------

def _scientific(number: str) -> str:
    """As Excel's General format shows a number wider than its column: one digit, the rest as decimals."""
    digits = number.rstrip("0")
    return f"{digits[0]}.{digits[1:]}E+{len(number) - 1:02d}"


def _excel_csv(r: dict) -> str:
    """A CSV file as Excel saves a sheet whose phone and salary columns hold numbers."""
    numbers = {**r, "phone": _scientific(r["phone"]), "salary": _scientific(r["salary"])}
    return ",".join(r) + "\r\n" + ",".join(numbers.values()) + "\r\n"


def _escaped(v: str) -> str:
    """A value's characters as walk 8's RTF writes them (`\\'e9`, `\\u27431?`)."""
    return _rtf({"x": v}).split("{\\b ")[1].split("}\\par")[0]


_HEADER = "{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fswiss Calibri;}}\n"


def _rtf_runs(r: dict) -> str:
    """Word's RTF: each value in two runs, the first bold, each run a group of its formatting words."""
    def runs(v: str) -> str:
        a, b = map(_escaped, _halves(v))
        run = "{\\rtlch\\fcs1 \\af0 \\ltrch\\fcs0 %s\\insrsid7 %s}"
        return run % ("\\b", a) + run % ("", b)
    return _HEADER + "".join(f"\\pard\\plain {k}: {runs(v)}\\par\n" for k, v in r.items()) + "}"


def _rtf_toggles(r: dict) -> str:
    """RTF that switches bold on and off inside each value (`139\\b 22883\\b0 366`)."""
    def toggled(v: str) -> str:
        a, b = map(_escaped, _halves(v))
        return f"{a}\\b {b}\\b0"
    return _HEADER + "".join(f"{k}: {toggled(v)}\\par\n" for k, v in r.items()) + "}"


def _wordpad_gbk(r: dict) -> str:
    """RTF as WordPad saves it on a Chinese system: the code page declared once (`\\ansicpg936`), each character GBK
    has as its bytes (`\\'c5\\'b7`), the rest as `\\uN?`."""
    def escaped(v: str) -> str:
        return "".join(c if c.isascii() else "".join(f"\\'{b:02x}" for b in c.encode("gbk")) if _in_gbk(c)
                       else f"\\u{ord(c)}?" for c in v)
    return ("{\\rtf1\\ansi\\ansicpg936\\deff0\\deflang1033\\deflangfe2052{\\fonttbl{\\f0\\fnil\\fcharset134 "
            "\\'cb\\'ce\\'cc\\'e5;}}\n{\\*\\generator Riched20 10.0.19041}\\viewkind4\\uc1 \n\\pard\\sa200\\sl276"
            "\\slmult1\\f0\\fs22\\lang2052 " + "".join(f"{k}: {escaped(v)}\\par\n" for k, v in r.items()) + "}")


def _in_gbk(c: str) -> bool:
    try:
        c.encode("gbk")
    except UnicodeEncodeError:
        return False
    return True


def _bold(text: str) -> str:
    """As `man` and `nroff` print bold: each character, a backspace, the character again."""
    return "".join(f"{c}\b{c}" if c.strip() else c for c in text)


def _man_page(r: dict) -> str:
    return "".join(f"       {k}\n              {_bold(v)}\n" for k, v in r.items())


def _node_buffers(r: dict) -> str:
    """Node's `console.log` of each field's Buffer (its first 50 bytes, each value fewer)."""
    return "".join(f"{k}: <Buffer {' '.join(f'{b:02x}' for b in v.encode())}>\n" for k, v in r.items())


def _buffer_json(r: dict) -> str:
    """`JSON.stringify` of a Node Buffer holding the record's line: a tool result that is all JSON text."""
    return json.dumps({"type": "Buffer", "data": list(_line(r).encode())}, separators=(",", ":"))


def _java_bytes(r: dict) -> str:
    """A Java log line of `Arrays.toString(line.getBytes(UTF_8))`: signed bytes."""
    signed = ", ".join(str(b - 256 if b > 127 else b) for b in _line(r).encode())
    return f"2026-12-06 17:02:11 DEBUG c.a.crm.RecordWriter - payload bytes: [{signed}]"


def _double_encoded(r: dict) -> str:
    """A link whose `next` parameter is a URL carrying the record, encoded twice (as a redirect writes it)."""
    return "https://crm.example.net/login?next=" + quote(quote(f"/search?q={_line(r)}", safe=""), safe="")


FORMS_9 = {"excel_csv": _excel_csv, "rtf_runs": _rtf_runs, "rtf_toggles": _rtf_toggles, "wordpad_gbk": _wordpad_gbk,
           "man_bold": _man_page,
           "node_buffers": _node_buffers, "buffer_json": _buffer_json, "java_bytes": _java_bytes,
           "double_encoded": _double_encoded}
FORMS = {name: functools.partial(lambda make: [make(RECORD)], make) for name, make in FORMS_9.items()}
#: lines; the rest fits a header
ONE_LINE = {"excel_csv", "rtf_runs", "rtf_toggles", "wordpad_gbk", "man_bold", "node_buffers"}


# --- the reader: what the upstream received, read with this walk's encodings undone too -------------------------

_SCIENTIFIC = re.compile(r"\b([0-9])\.([0-9]+)[Ee]\+?([0-9]{1,2})\b")
_RTF_WORD = re.compile(r"\\(?!u-?[0-9])[a-zA-Z]+-?[0-9]* ?|[{}]")
_STRUCK = re.compile(r"[^\x08\n]\x08")
_BYTES = re.compile(r"\[(-?[0-9]{1,3}(?:, ?-?[0-9]{1,3})+)\]")
_BUFFER = re.compile(r"<Buffer((?: [0-9a-f]{2})+)>")
_BYTE_ESCAPES = re.compile(r"(?:\\'[0-9a-fA-F]{2})+")


def _expanded(m: re.Match) -> str:
    decimals, exponent = m.group(2), int(m.group(3))
    return m.group(1) + decimals + "0" * (exponent - len(decimals)) if len(decimals) <= exponent else m.group()


def _decoded_bytes(m: re.Match) -> str:
    return bytes(int(n) % 256 for n in m.group(1).split(",")).decode("utf-8", "replace")


def _these_9(text: str) -> set[str]:
    unformatted = _RTF_WORD.sub("", text)
    return {_SCIENTIFIC.sub(_expanded, text), unformatted, *_these(unformatted), _STRUCK.sub("", text),
            text.replace("\x00", ""), _BYTES.sub(_decoded_bytes, text),
            _BUFFER.sub(lambda m: bytes.fromhex(m.group(1)).decode("utf-8", "replace"), text),
            *_these(_BYTE_ESCAPES.sub(lambda m: bytes.fromhex(m.group().replace("\\'", "")).decode("gbk", "replace"),
                                      text))}


def leaks(sent: dict) -> list[str]:
    found = leaked(sent, {**_CANONICAL, **_PLAIN},
                   lambda t: _more_decodings(t) | _these(t) | _these_9(t) | {_ascii_folded(t)})
    return sorted({f.split(" (")[0] for f in found})


# --- the walk ------------------------------------------------------------------------------------------------

#: Cells where the guard does not hold yet (none: a Buffer's JSON text in a text part, a tool call's arguments or a
#: legacy prompt, where the proxy walks the string's JSON inside, has its array of bytes read as the text it spells).
KNOWN_GAPS: dict[str, set] = {}

#: The walk's cells of one form (`guard_forms_matrix.py --walk 9`) and its three tests (walk 1's `walk_tests`)
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)


test_near_misses_go_out_untouched = near_misses_test(FORMS_9, NEAR)


# --- an array that spells a text, inside JSON text -----------------------------------------------------------

#: A string as an array: its UTF-8 bytes (`JSON.stringify` of a Buffer, Java's bytes as JSON), its characters
#: (JavaScript's `[...text]`, Python's `list(text)`).
SPELLED = {"bytes": lambda r: list(_line(r).encode()), "characters": lambda r: list(_line(r))}


def _tool_call(data: list) -> dict:
    """A chat body whose history holds a tool call writing `data` (its arguments: JSON text, walked inside)."""
    arguments = json.dumps({"path": "/tmp/record.bin", "data": data})
    call = {"id": "call_1", "type": "function", "function": {"name": "write", "arguments": arguments}}
    return {"messages": [{"role": "user", "content": "Save the record."},
                         {"role": "assistant", "content": None, "tool_calls": [call]},
                         {"role": "tool", "tool_call_id": "call_1", "content": "saved"}]}


def _written(sent: dict) -> list:
    return json.loads(sent["body"]["messages"][1]["tool_calls"][0]["function"]["arguments"])["data"]


@pytest.mark.parametrize("kind", sorted(SPELLED))
def test_an_array_spelling_the_record_in_json_text_holds(proxy, kind):
    """The array is read as the text it spells (bytes as the `byte_lists` form reads a list of numbers, characters
    run together): every unit found, block refuses; redact makes the elements each value covers one element, its
    placeholder, and keeps the others as they were."""
    data = SPELLED[kind](RECORD)
    sent = assert_held(proxy, f"spelled-{kind}", "/v1/chat/completions", UNIT_IDS, leaks,
                       json={"model": "echo", **_tool_call(data)})
    if sent is None:
        return
    written = _written(sent)
    placeholders = [e for e in written if isinstance(e, str) and PLACEHOLDER.fullmatch(e)]
    assert placeholders and len(written) < len(data)
    kept = [e for e in written if e not in placeholders]
    assert all(e in data for e in kept)  # the elements no value covers, as they were


@pytest.mark.parametrize("kind", sorted(SPELLED))
def test_an_array_spelling_a_near_miss_goes_out_as_sent(proxy, kind):
    body = _tool_call(SPELLED[kind](NEAR))
    answer, sent, record = exchange(proxy, f"spelled-near-{kind}", body)
    assert (answer.status_code, record.findings, record.redactions) == (200, [], 0)
    assert _written(sent[0]) == SPELLED[kind](NEAR)


#: Text that only looks like a form: floats and versions, a hex literal, lists of ports and counts and a Buffer of
#: control bytes, a literal `%25`, three characters beside NULs, LaTeX and a Windows path (no `{\\rtf`), RTF's
#: paragraph and tab words (they write something), a lone backspace.
LOOKALIKES = ["x = 1.5e-3, 2.25E+01, 0x1e+5, v1.2e+10, 14.86E+05", "ports [8080, 443, 22, 80, 3306, 5432, 6379]",
              "[1, 2, 3, 4, 5, 6, 7, 8]", "<Buffer 00 01 02 ff fe 7f>", "50%25 off, %25E6%25", "a\x00b\x00c\x00",
              "\\textbf{139}2288 \\emph{3366}",
              "C:\\Users\\lena\\b0\\x", "{\\rtf1 139\\par 2288\\tab 3366}", "ab\b",
              # PyYAML's and Python's escapes outside an RTF document: no control words (walk 3's base64 file)
              'contact: "Ren\\xE9 D\\xFCrr"', "b'Ren\\xc3\\xa9 D\\xc3\\xbcrr'"]


@functools.cache
def _cascade() -> Cascade:
    return Cascade(GUARDED_UNITS)


def _form(name: str):
    return next(f for f in _cascade()._rewriting if f.name == name)


@pytest.mark.parametrize("text", LOOKALIKES)
def test_text_that_only_looks_like_a_form_is_read_as_it_stands(text):
    assert [h for h in _cascade().scan_text(text) if h.grade >= 0.7] == []
    for name in ("scientific", "rtf_groups", "byte_lists", "double_percent", "utf16_nuls", "ipv6", "rtf_code_pages"):
        assert list(_form(name).rewrite(text)) == [], name


# --- a UTF-16 file read as UTF-8 -----------------------------------------------------------------------------

ASCII_FIELDS = {k: v for k, v in RECORD.items() if v.isascii()}


@pytest.mark.parametrize("endian", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/messages"])
def test_a_utf16_file_read_as_utf8_holds(proxy, endian, path):
    """PowerShell's `> out.txt` read back by a tool that decodes UTF-8 (a BOM and each non-ASCII character
    replaced): the ASCII values beside their NULs are found; redact replaces them, block refuses."""
    text = (_line(ASCII_FIELDS) + "\r\n").encode(endian).decode("utf-8", "replace")
    body = {"model": "echo", "max_tokens": 20, "messages": [{"role": "user", "content": f"out.txt:\n{text}"}]}
    units = {u.id for u in UNITS if u.id.rsplit("/", 1)[1] in ASCII_FIELDS}
    assert_held(proxy, f"utf16-{endian}-{path.count('messages')}", path, units, leaks, json=body)


# --- an IPv6 address spelled another way ---------------------------------------------------------------------

#: as `ip -6 addr` prints it (RFC 5952: compressed, lower case), as curl prints a URL's host, groups unpadded
SPELLINGS = ["3: eth0    inet6 2001:db8::ff00:42:8329/64 scope global", "* Connected to [2001:DB8::FF00:42:8329]:443",
             "peer 2001:db8:0:0:0:ff00:42:8329 state ESTABLISHED"]
_HEX_COLONS = re.compile(r"[0-9A-Fa-f:]{2,39}")


def _addresses(text: str) -> set[ipaddress.IPv6Address]:
    out = set()
    for token in _HEX_COLONS.findall(text):
        try:
            out.add(ipaddress.IPv6Address(token))
        except ValueError:
            continue
    return out


@pytest.mark.parametrize("text", SPELLINGS)
def test_an_ipv6_unit_spelled_another_way_holds(proxy, text):
    """The unit is held in full; the traffic spells it compressed, in upper case, unpadded: found, replaced in what
    was sent and stored (redact), refused (block)."""
    answer, sent, record = exchange(proxy, f"ipv6-{SPELLINGS.index(text)}",
                                    {"messages": [{"role": "user", "content": text}]})
    assert [f["unit_id"] for f in record.findings] == [IPV6_UNIT.id]
    if proxy[0] == "block":
        assert (answer.status_code, sent) == (403, [])
        return
    forwarded = json.dumps([sent[0]["body"], record.request], ensure_ascii=False)
    assert answer.status_code == 200 and record.redactions == 1
    assert ipaddress.IPv6Address(IPV6) not in _addresses(forwarded)


def test_another_address_goes_out_as_sent(proxy):
    text = "inet6 2001:db8::ff00:42:8328/64 and fe80::1%eth0, 12:30:45, aa:bb:cc:dd:ee:ff"
    answer, sent, record = exchange(proxy, "ipv6-near", {"messages": [{"role": "user", "content": text}]})
    assert (answer.status_code, record.findings, record.redactions) == (200, [], 0)
    assert text in json_strings(sent[0]["body"])


# --- each cued form's cue is a claim (as tests/test_detect_form_cues.py checks the others) ----------------------

PIECES = {
    "scientific": ["4", ".", "86", "E", "e", "+", "-", "05", "1", "0", "x", "_", " ", "\n", "٣", "1.3922883366E+10"],
    "byte_lists": ["[", "]", "1", "08", "101", "-26", "255", "300", "0x6c", ",", ", ", " ", "\n", "a", ".",
                   "<Buffer ", "6c", " 65", ">", "é"],
    "double_percent": ["%25", "%", "25", "E6", "40", "AC", "zz", "a", " ", "\n", "é", "%2540"],
    "utf16_nuls": ["\x00", "a", "@", " ", "\n", "é", "\ufffd", "l\x00e\x00n\x00a\x00"],
    "ipv6": ["2001", ":", "::", "db8", "0db8", "DB8", "ff00", "42", "8329", "0", "[", "]", "%eth0", " ", "\n", "a",
             ".", "192.168.1.1", "g"],
    "rtf_groups": ["{", "}", "\\b", "\\b0", " ", "\\par", "\\u27431?", "\\'e9", "\\rtlch", "\\fcs1 ", "\\insrsid7",
                   "139", "a", "-", "\n", "\\", "{\\*\\bkmk x}", "\\u", "é"],
}


@pytest.mark.parametrize("engine", ["vectorscan", "re"])
@pytest.mark.parametrize("name", sorted(PIECES))
def test_a_cued_rewrite_equals_the_rewrite_of_the_whole_text(name, engine, monkeypatch):
    from ec2audit.detect import cues

    monkeypatch.setattr(cues, "_SHORT", 0)  # every text read in its cues' stretches, as a long one is
    form = _form(name)
    rewrite = CueScan([form], engine).rewriter([form])

    @settings(max_examples=300, deadline=None, database=None)
    @given(st.lists(st.sampled_from(PIECES[name]), max_size=40).map("".join))
    def check(text):
        assert sorted(rewrite(text)) == sorted(form.rewrite(text))

    check()
