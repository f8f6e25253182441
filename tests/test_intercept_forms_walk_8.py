"""The guard's eighth walk (session 20), walked as `test_intercept_forms_walk_5.py` walks: over loopback HTTP in
front of the scripted stand-in upstream, the third walk's customer record in every request position of the wire
APIs, streamed too, written as more tool output carries it: mojibake (UTF-8 read as Windows-1252 once and twice,
and as Latin-1), RTF source with its `\\'hh` and `\\uN?` escapes, the XML inside Office files as a tool unzips it
(a `.docx` paragraph, an `.xlsx`'s shared strings, a `.pptx` slide, an `.odt`'s content, each value cut across two
runs of formatting), and amounts grouped the Indian way (`₹4,86,000`).

Judged as the earlier walks judge, on what the upstream RECEIVED read with every encoding of the earlier walks and
this one undone: redact forwards no value, block forwards nothing. Near misses go out untouched."""

from __future__ import annotations

import functools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from intercept_helpers import json_strings
from test_intercept_forms_walk import CELLS, leaked, walk_tests
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
from test_intercept_forms_walk_7 import _post

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

#: Cells where the guard does not hold yet: form → {(api, position, stream)}. Latin-1's mojibake holds C1 controls
#: (`\x98`): in a document's text file (a data URL) the base64 decoder takes bytes holding controls for no text
#: (`views._printable`), so the text inside is never read.
KNOWN_GAPS: dict[str, set] = {"mojibake_latin1": {("openai-chat", "document", False),
                                                  ("openai-responses", "document", False)}}

#: The walk's cells of one form (`guard_forms_matrix.py --walk 8`) and its three tests (walk 1's `walk_tests`)
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)


@pytest.mark.parametrize("form", sorted(FORMS_8))
def test_near_misses_go_out_untouched(proxy, form):
    """Another record of the same shape in each form: no finding, forwarded as sent."""
    mode, app, client, store = proxy
    text = FORMS_8[form](NEAR)
    answer, sent, record = _post(proxy, f"near-{form}", "/v1/chat/completions",
                                 {"messages": [{"role": "user", "content": text}]})
    assert (answer.status_code, record.findings, record.redactions) == (200, [], 0)
    assert text in json_strings(sent[0]["body"])


#: Text that only looks like a form: accented words whose letters spell no UTF-8, a CSV row of small numbers.
LOOKALIKES = ["São Paulo, Ærøskøbing, Ångström: çà et là, ½ ± ¼", "qty,4,86,000,ok", "\\u00e9 and \\uc0 \\'zz"]


@pytest.mark.parametrize("text", LOOKALIKES)
def test_text_that_only_looks_like_a_form_is_read_as_it_stands(text):
    from ec2audit.detect.forms import lakh, mojibake, rtf

    for form in (mojibake.Mojibake, lakh.LakhGrouping, rtf.RtfEscapes):
        assert list(form.rewrite(None, text)) == [], form.name  # type: ignore[arg-type]


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
    form = next(f for f in Cascade(UNITS)._rewriting if f.name == name)
    rewrite = CueScan([form], engine).rewriter([form])

    @settings(max_examples=300, deadline=None, database=None)
    @given(st.lists(st.sampled_from(PIECES[name]), max_size=40).map("".join))
    def check(text):
        assert sorted(rewrite(text)) == sorted(form.rewrite(text))

    check()
