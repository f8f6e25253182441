"""The guard's eighth walk (session 20), walked as `test_intercept_forms_walk_5.py` walks: over loopback HTTP in
front of the scripted stand-in upstream, the third walk's customer record in every request position of the wire
APIs, streamed too, written as more tool output carries it: mojibake (UTF-8 read as Windows-1252 once and twice,
and as Latin-1), RTF source with its `\\'hh` and `\\uN?` escapes, the XML inside Office files as a tool unzips it
(a `.docx` paragraph, an `.xlsx`'s shared strings, a `.pptx` slide, an `.odt`'s content, each value cut across two
runs of formatting), and amounts grouped the Indian way (`₹4,86,000`).

Then Office files themselves, as a request carries them where each API takes a file: a `.docx`, `.xlsx`, `.pptx` or
`.odt` holding the record is read (its XML's text) and refused in both modes, as a PDF is; one holding near misses
goes out as sent; a legacy `.doc` (OLE2), a zip inflating past the reader's limit and a damaged zip go out named as
unread; an RTF file is a text file, whose values redact replaces inside the re-encoded base64.

Then the names a request forwards besides its body's keys: a value as a query parameter's name (`?lena@…`, a bare
parameter) is found and, in redact, replaced by its placeholder; one in a header's name (`X-Customer-139…`) is
refused in both modes (a placeholder is no header token).

Judged as the earlier walks judge, on what the upstream RECEIVED read with every encoding of the earlier walks and
this one undone: redact forwards no value, block forwards nothing. Near misses go out untouched."""

from __future__ import annotations

import functools
import io
import re
import zipfile
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from intercept_helpers import json_strings
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
from test_intercept_forms_walk_7 import FILE_PLACES, _file_positions, _post

from ec2audit.detect.cascade import Cascade
from ec2audit.detect.cues import CueScan

__all__ = ["CELLS", "FORMS", "UNITS", "walk_form"]


def _line(r: dict) -> str:
    return "; ".join(f"{k}: {v}" for k, v in r.items())


# --- the forms: a record → the text that carries it ----------------------------------------------------------

def _mojibake(text: str, codec: str = "cp1252", times: int = 1) -> str:
    """UTF-8 decoded as `codec` (Windows-1252 leaves five bytes undefined: a decoder that replaces nothing maps
    them to the C1 controls, as Latin-1 does)."""
    for _ in range(times):
        raw = text.encode()
        text = "".join(chr(b) if codec == "latin-1" or b in (0x81, 0x8D, 0x8F, 0x90, 0x9D)
                       else bytes([b]).decode(codec) for b in raw)
    return text


def _rtf(r: dict) -> str:
    """As Word writes RTF: a byte of Windows-1252 as `\\'hh`, a character past it as `\\uN?` (signed 16 bits)."""
    def escaped(v: str) -> str:
        out = []
        for c in v:
            if ord(c) < 0x80:
                out.append(c)
            elif c.encode("cp1252", "ignore"):
                out.append(f"\\'{c.encode('cp1252')[0]:02x}")
            else:
                out.append(f"\\u{ord(c) - 65536 if ord(c) > 32767 else ord(c)}?")
        return "".join(out)
    rows = "".join(f"\\pard\\plain\\f0\\fs22 {k}: {{\\b {escaped(v)}}}\\par\n" for k, v in r.items())
    return "{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fswiss Calibri;}}\n" + rows + "}"


def _halves(v: str) -> tuple[str, str]:
    return v[:len(v) // 2], v[len(v) // 2:]


W_RUN = '<w:r w:rsidRPr="00C41A2E"><w:rPr><w:rFonts w:ascii="Calibri"/><w:b/><w:color w:val="1F3864"/></w:rPr>'


def _docx_xml(r: dict) -> str:
    """`word/document.xml`: a paragraph a field, each value cut across two runs (bold, then not, a proofing mark
    between), as Word saves a value edited in two sittings."""
    return '<w:body>' + "".join(
        f'<w:p w:rsidR="00A1"><w:r><w:t xml:space="preserve">{k}: </w:t></w:r>{W_RUN}<w:t>{a}</w:t></w:r>'
        f'<w:proofErr w:type="spellStart"/><w:r><w:t>{b}</w:t></w:r></w:p>'
        for k, v in r.items() for a, b in [_halves(v)]) + '</w:body>'


def _xlsx_xml(r: dict) -> str:
    """`xl/sharedStrings.xml`: each value a rich-text string of two runs, as Excel saves a cell half of which is
    formatted."""
    return '<sst count="8">' + "".join(
        f'<si><r><rPr><b/><sz val="11"/><rFont val="Calibri"/></rPr><t>{a}</t></r><r><t xml:space="preserve">{b}'
        '</t></r></si>' for v in r.values() for a, b in [_halves(v)]) + '</sst>'


def _pptx_xml(r: dict) -> str:
    """A slide's `<a:p>` paragraphs: each value in two runs with their properties (a fill inside)."""
    return '<p:txBody>' + "".join(
        f'<a:p><a:r><a:rPr lang="en-US" dirty="0"/><a:t>{k}: {a}</a:t></a:r><a:r><a:rPr lang="en-US" b="1">'
        f'<a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></a:rPr><a:t>{b}</a:t></a:r></a:p>'
        for k, v in r.items() for a, b in [_halves(v)]) + '</p:txBody>'


def _odt_xml(r: dict) -> str:
    """`content.xml` of an `.odt`: a value's second half in an automatic style's span."""
    return '<office:text>' + "".join(
        f'<text:p text:style-name="P1">{k}: {a}<text:span text:style-name="T1">{b}</text:span></text:p>'
        for k, v in r.items() for a, b in [_halves(v)]) + '</office:text>'


def _lakh(r: dict) -> str:
    s = r["salary"]
    return _line({**r, "salary": f"₹{s[:-5]},{s[-5:-3]},{s[-3:]}"})


FORMS_8 = {
    "mojibake": lambda r: _mojibake(_line(r)),
    "mojibake_twice": lambda r: _mojibake(_line(r), times=2),
    "mojibake_latin1": lambda r: _mojibake(_line(r), "latin-1"),
    "rtf": _rtf,
    "docx_xml": _docx_xml,
    "xlsx_xml": _xlsx_xml,
    "pptx_xml": _pptx_xml,
    "odt_xml": _odt_xml,
    "lakh": _lakh,
}
FORMS = {name: functools.partial(lambda make: [make(RECORD)], make) for name, make in FORMS_8.items()}
ONE_LINE = {"rtf"}  # an RTF document is lines; the rest fits a header


# --- the reader: what the upstream received, read with this walk's encodings undone too -------------------------

def _unmojibaked(text: str) -> str:
    """Each character a byte where Windows-1252 or Latin-1 has it, the rest as UTF-8; read as UTF-8."""
    out = bytearray()
    for c in text:
        try:
            out += c.encode("cp1252")
        except UnicodeEncodeError:
            out += c.encode("latin-1") if ord(c) < 256 else c.encode()
    return out.decode("utf-8", "replace")


def _unrtf(text: str) -> str:
    text = re.sub(r"\\'([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]).decode("cp1252", "replace"), text)
    units = re.sub(r"\\u(-?\d+)\??", lambda m: chr(int(m.group(1)) % 65536), text)
    return units.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _these(text: str) -> set[str]:
    return {_unmojibaked(text), _unrtf(text), re.sub(r"<[^<>]*>", "", text)}


def leaks(sent: dict) -> list[str]:
    found = leaked(sent, {**_CANONICAL, **_PLAIN}, lambda t: _more_decodings(t) | _these(t) | {_ascii_folded(t)})
    return sorted({f.split(" (")[0] for f in found})


# --- the walk ------------------------------------------------------------------------------------------------

#: Cells where the guard does not hold yet: none (a document's Latin-1 mojibake, whose C1 controls once made its
#: text file unread, is read since `views._bytes_text` takes a text file's few controls as text).
KNOWN_GAPS: dict[str, set] = {}

#: The walk's cells of one form (`guard_forms_matrix.py --walk 8`) and its three tests (walk 1's `walk_tests`)
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)


test_near_misses_go_out_untouched = near_misses_test(FORMS_8, NEAR)


#: Text that only looks like a form: accented words whose letters spell no UTF-8, a CSV row of small numbers.
LOOKALIKES = ["São Paulo, Ærøskøbing, Ångström: çà et là, ½ ± ¼", "qty,4,86,000,ok", "\\u00e9 and \\uc0 \\'zz"]


@functools.cache
def _form(name: str):
    return next(f for f in Cascade(UNITS)._rewriting if f.name == name)


@pytest.mark.parametrize("text", LOOKALIKES)
def test_text_that_only_looks_like_a_form_is_read_as_it_stands(text):
    for name in ("mojibake", "lakh", "rtf", "office_runs"):
        assert list(_form(name).rewrite(text)) == [], name


# --- each cued form's cue is a claim (as tests/test_detect_form_cues.py checks the others) ----------------------

PIECES = {
    "mojibake": ["Ã", "©", "æ", "¬", "§", "€", "\x9d", "Â", "ð", "Ÿ", "a", " ", "\n", "é", "欧", "ƒ"],
    "rtf": ["\\'e9", "\\'", "\\u", "27431", "-27085", "?", " ", "\\uc1", "\\par", "\n", "a", "\\", "e9", "0"],
    "lakh": ["4", ",", "86", "000", "1", "\n", " ", ".", "₹", "12", "345"],
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


# --- Office files a request carries ------------------------------------------------------------------------------

def _zip(members: dict[str, str | bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
_NS = ('xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
       'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
       'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
       'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')


def office_file(kind: str, r: dict) -> bytes:
    """A minimal file of `kind` with `r` in its body (each value cut across two runs) and its author in its
    properties, the parts where the application writes them."""
    types = _XML + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'
    core = (_XML + '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/'
            'core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Records Office</dc:creator>'
            '</cp:coreProperties>')
    if kind == "docx":
        body = f"<w:document {_NS}>{_docx_xml(r)}</w:document>"
        return _zip({"[Content_Types].xml": types, "word/document.xml": _XML + body, "docProps/core.xml": core})
    if kind == "xlsx":
        sheet = f'<worksheet><sheetData><row r="1"><c r="A1"><v>{len(r)}</v></c></row></sheetData></worksheet>'
        return _zip({"[Content_Types].xml": types, "xl/sharedStrings.xml": _XML + _xlsx_xml(r),
                     "xl/worksheets/sheet1.xml": _XML + sheet, "docProps/core.xml": core})
    if kind == "pptx":
        slide = f"<p:sld {_NS}><p:cSld><p:spTree><p:sp>{_pptx_xml(r)}</p:sp></p:spTree></p:cSld></p:sld>"
        return _zip({"[Content_Types].xml": types, "ppt/slides/slide1.xml": _XML + slide, "docProps/core.xml": core})
    content = f"<office:document-content {_NS}><office:body>{_odt_xml(r)}</office:body></office:document-content>"
    return _zip({"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": _XML + content})


OFFICE = {"docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
          "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
          "odt": "application/vnd.oasis.opendocument.text"}


@pytest.mark.parametrize("kind", sorted(OFFICE))
@pytest.mark.parametrize("place", FILE_PLACES)
def test_an_office_file_holding_the_record_is_read_and_the_request_refused(proxy, place, kind):
    """As a PDF: redact cannot put a placeholder into a zip's bytes, so both modes refuse (403 naming the units,
    not their values) and nothing is sent."""
    path, body = _file_positions(office_file(kind, RECORD), OFFICE[kind])[place]
    answer, sent, record = _post(proxy, f"office-{place}-{kind}".replace(".", "_"), path, body)
    inside = {f["unit_id"] for f in record.findings if f["path"].startswith("zip:/")}
    assert (answer.status_code, sent, inside) == (403, [], UNIT_IDS)
    assert "blocked by ec2audit" in answer.text and leaks({"body": answer.text, "header_list": [], "query": ""}) == []
    assert proxy[0] == "block" or ("cannot rewrite" in answer.text and record.redactions == 0)


@pytest.mark.parametrize("kind", sorted(OFFICE))
def test_an_office_file_of_near_misses_goes_out_as_sent(proxy, kind):
    path, body = _file_positions(office_file(kind, NEAR), OFFICE[kind])["responses.input_file"]
    answer, sent, record = _post(proxy, f"office-near-{kind}", path, body)
    assert (answer.status_code, record.findings, record.unread) == (200, [], None)
    assert set(json_strings(body)) <= set(json_strings(sent[0]["body"]))


def _bomb() -> bytes:
    """A zip whose one member inflates past the reader's limit (`media.UNZIPPED_LIMIT`) from 64 KB."""
    from ec2audit.intercept.media import UNZIPPED_LIMIT

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            member.write(_line(RECORD).encode())
            block = bytes(2**20)
            for _ in range(UNZIPPED_LIMIT // len(block) + 1):
                member.write(block)
    return out.getvalue()


UNREAD = {"legacy .doc (OLE2)": (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504) + _line(RECORD).encode("utf-16-le"),
                                 "application/x-ole-storage"),
          "zip bomb": (None, "application/zip"),
          "damaged zip": (b"PK\x03\x04" + zlib.compress(_line(RECORD).encode()) + bytes(64), "application/zip")}


@pytest.mark.parametrize("case", sorted(UNREAD))
def test_an_office_file_the_guard_cannot_read_goes_out_named_as_unread(proxy, case):
    """(The default policy, as for an image; `--refuse-unread` refuses them: walk 7.)"""
    data, media_type = UNREAD[case]
    data = data if data is not None else _bomb()
    path, body = _file_positions(data, "application/msword")["chat.file.file_data"]
    answer, sent, record = _post(proxy, f"unread-{case}".replace(" ", "_").replace(".", ""), path, body)
    assert answer.status_code == 200 and len(sent) == 1
    assert [(u["media_type"], u["bytes"]) for u in record.unread] == [(media_type, len(data))]


@pytest.mark.parametrize("place", FILE_PLACES)
def test_an_rtf_file_in_every_file_place_holds(proxy, place):
    """An RTF file has no signature of a binary file: its base64 is text, read down to its escapes; redact replaces
    the values inside the re-encoded base64."""
    path, body = _file_positions(_rtf(RECORD).encode(), "application/rtf")[place]
    assert_held(proxy, f"rtffile-{place}".replace(".", "_"), path, UNIT_IDS, leaks, json={"model": "echo", **body})


def test_a_docx_value_reads_whole_in_the_extracted_text():
    """The reader joins a paragraph's runs and keeps cells and paragraphs apart: `<v>4</v></c><c><v>86000` are two
    numbers."""
    from ec2audit.intercept.media import archive_text

    text = archive_text(office_file("docx", RECORD)).text
    assert all(f"{k}: {v}" in text for k, v in RECORD.items()) and "Records Office" in text
    cells = _zip({"xl/worksheets/sheet1.xml": '<sheetData><row><c><v>4</v></c><c><v>86000</v></c></row></sheetData>'})
    assert "486000" not in archive_text(cells).text


# --- names: a query parameter's, a header's ----------------------------------------------------------------------

QUERY_NAMES = [RECORD["email"], f"{RECORD['phone']}=1", f"customer={RECORD['iban']}&{RECORD['national_id']}",
               "%E6%AC%A7%E9%98%B3%E5%A8%9C%E5%A8%9C"]


@pytest.mark.parametrize("query", QUERY_NAMES)
def test_a_value_as_a_query_parameters_name_is_caught(proxy, query):
    mode, app, client, store = proxy
    episode, seen = f"qname-{QUERY_NAMES.index(query)}", len(app.state.requests)
    answer = client.post(f"/e/{episode}/v1/chat/completions?{query}",
                         json={"model": "echo", "messages": [{"role": "user", "content": "Hi."}]})
    sent = app.state.requests[seen:]
    [record] = store.records(episode)
    assert any(f["path"].startswith("query-name:") for f in record.findings)
    if mode == "block":
        assert answer.status_code == 403 and sent == []
        return
    assert answer.status_code == 200 and leaks(sent[0]) == [] and record.redactions >= 1
    assert "%5B" in sent[0]["query"] and leaks({"body": [], "header_list": [], "query": record.path}) == []


@pytest.mark.parametrize("route", ["chat", "model list"])
def test_a_value_in_a_header_name_is_refused_in_both_modes(proxy, route):
    mode, app, client, store = proxy
    episode, seen = f"hname-{route}".replace(" ", "-"), len(app.state.requests)
    headers = {f"X-Customer-{RECORD['phone']}": "yes"}
    answer = client.get(f"/e/{episode}/v1/models", headers=headers) if route == "model list" else \
        client.post(f"/e/{episode}/v1/chat/completions", headers=headers,
                    json={"model": "echo", "messages": [{"role": "user", "content": "Hi."}]})
    [record] = store.records(episode)
    assert (answer.status_code, app.state.requests[seen:]) == (403, [])
    assert RECORD["phone"] not in answer.text
    assert [f["path"].split(":")[0] for f in record.findings] == ["header-name"]
    assert mode == "block" or "no valid header name" in answer.text


def test_ordinary_names_go_out_untouched(proxy):
    mode, app, client, store = proxy
    seen = len(app.state.requests)
    answer = client.post("/e/names-plain/v1/chat/completions?api-version=2024-10-21&stream_check",
                         headers={"X-Request-Id": "req_7f3a", "OpenAI-Organization": "org-acme"},
                         json={"model": "echo", "messages": [{"role": "user", "content": "Hi."}]})
    [record] = store.records("names-plain")
    assert (answer.status_code, record.findings, record.redactions) == (200, [], 0)
    sent = app.state.requests[seen:]
    assert sent[0]["query"] == "api-version=2024-10-21&stream_check="
    assert ("x-request-id", "req_7f3a") in [(k.lower(), v) for k, v in sent[0]["header_list"]]
