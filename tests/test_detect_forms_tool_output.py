"""The forms tool output carries that session 15's guard walk (`test_intercept_forms_walk_3.py`) added: each
decoder undoes what the tool that writes the form wrote (a property over texts the writer is given), and
leaves alone what only looks like it."""

from __future__ import annotations

import base64
import email.charset
import email.header
import json
import quopri
import unicodedata

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ec2audit.detect import views
from ec2audit.detect.cascade import build_cascade
from ec2audit.detect.forms import ansi, combining, encoded_words, markup, quoted_printable
from ec2audit.detect.patterns import PatternIndex
from ec2audit.units import make_unit

_WORDS = st.lists(st.sampled_from([*"abcXYZ019@.-_:;", "é", "ñ", "ü", "欧", "阳", "娜", "が", "😀", "lena", "486,000"]),
                  min_size=1, max_size=60).map("".join)


def _read(form, text: str) -> str:
    """The text as the form alone rewrites it."""
    return views._rewrite(text, list(form([], PatternIndex()).rewrite(text)))[0]


_ESCAPES = ["\x1b[01;31m\x1b[K", "\x1b[m\x1b[K", "\x1b[0m", "\x1b[38;5;208m", "\x1b[1m", "\x1b(B", "\x1b7"]


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.tuples(_WORDS, st.sampled_from(_ESCAPES)), max_size=8))
def test_colour_escapes_read_as_the_text_a_terminal_shows(pieces):
    assert _read(ansi.AnsiEscapes, "".join(w + e for w, e in pieces)) == "".join(w for w, _ in pieces)


def test_a_hyperlink_escape_reads_as_its_url_apart_from_the_text():
    text = "\x1b]8;;tel:+8613922883366\x07call\x1b]8;;\x1b\\ now"
    assert _read(ansi.AnsiEscapes, text) == " tel:+8613922883366 call   now"


def test_a_value_coloured_by_grep_is_found():
    unit = make_unit({"task_id": "t", "entity_id": "P", "field": "phone", "value": "13922883366",
                      "dimension": "contact"})
    cascade = build_cascade([unit])
    assert [h.grade for h in cascade.scan_text("phone: 13922\x1b[01;31m\x1b[K883366\x1b[m\x1b[K")] == [1.0]
    assert [h for h in cascade.scan_text("phone: 13922\x1b[01;31m\x1b[K883367\x1b[m\x1b[K") if h.grade >= 0.7] == []


@settings(max_examples=300, deadline=None)
@given(text=_WORDS.filter(lambda t: "'" not in t and "\\" not in t))
def test_byte_and_code_point_escapes_read_as_the_text(text):
    """Python's repr of the text's UTF-8 bytes, and PyYAML's dump of the text (`\\xNN` below 256, `\\uXXXX` above,
    `\\UXXXXXXXX` outside the BMP)."""
    decoded = views.decoded_text(repr(text.encode()))
    assert (decoded[0] if decoded else repr(text.encode())) == f"b'{text}'"
    dumped = yaml.safe_dump(text, width=1000)
    decoded = views.decoded_text(dumped)
    assert text in (decoded[0] if decoded else dumped)


@settings(max_examples=300, deadline=None)
@given(text=_WORDS.filter(lambda t: "\\" not in t), long=st.booleans())
def test_long_code_point_escapes_read_as_the_text(text, long):
    """Every character outside ASCII as `\\UXXXXXXXX` (YAML, C, Python allow it for any), or only those outside
    the BMP, the rest as `\\uXXXX`: the text as written."""
    def escape(c: str) -> str:
        return c if c.isascii() else f"\\U{ord(c):08X}" if long or ord(c) > 0xFFFF else f"\\u{ord(c):04x}"
    escaped = "".join(map(escape, text))
    decoded = views.decoded_text(escaped)
    assert (decoded[0] if decoded else escaped) == text


def test_escapes_of_code_points_that_are_none_stay():
    for text in ("\\U00110000", "\\UFFFFFFFF", "\\U0001F60"):
        assert views.decoded_text(text) is None, text


def test_escapes_of_bytes_that_are_no_letters_stay():
    for text in ("b'\\x00\\x01'", "\\x41", "\\xff\\xfe\\x00"):
        assert views.decoded_text(text) is None, text


@settings(max_examples=300, deadline=None)
@given(text=_WORDS)
def test_decomposed_accents_read_composed(text):
    assert _read(combining.CombiningMarks, unicodedata.normalize("NFD", text)) == unicodedata.normalize("NFC", text)


def test_a_name_with_decomposed_accents_is_found_and_another_is_not():
    unit = make_unit({"task_id": "t", "entity_id": "P", "field": "name", "value": "José Núñez",
                      "dimension": "person_name"})
    cascade = build_cascade([unit])
    assert [h.grade for h in cascade.scan_text(unicodedata.normalize("NFD", "José Núñez"))] == [1.0]
    assert [h for h in cascade.scan_text(unicodedata.normalize("NFD", "José Nuño")) if h.grade >= 0.7] == []


_QP_TEXT = st.lists(st.sampled_from([*"abcXYZ019@.-_:;=", "é", "欧", "娜", "😀", "lena.hartmann", "13922883366"]),
                    min_size=1, max_size=120).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=_QP_TEXT)
def test_quoted_printable_reads_as_the_text_encoded(text):
    """Python's `quopri` (lines cut at 76 characters by soft breaks) undone."""
    assert _read(quoted_printable.QuotedPrintable, quopri.encodestring(text.encode()).decode()) == text


def test_an_equals_sign_before_hex_digits_is_no_quoted_printable():
    text = "iban=DE89370400440532013000 salary=48 x =\ny key=CAFE\nend=\n"
    assert _read(quoted_printable.QuotedPrintable, text) == "iban=DE89370400440532013000 salary=48 x =\ny key=CAFE\nend"
    assert _read(quoted_printable.QuotedPrintable, "charset=utf-8 Jos=E9") == "charset=utf-8 Jos=E9"


def test_a_name_in_a_quoted_printable_body_is_found_and_another_is_not():
    unit = make_unit({"task_id": "t", "entity_id": "P", "field": "name", "value": "José Núñez",
                      "dimension": "person_name"})
    cascade = build_cascade([unit])
    assert [h.grade for h in cascade.scan_text("Jos=C3=A9 N=\n=C3=BA=C3=B1ez")] == [1.0]
    assert [h for h in cascade.scan_text("Jos=C3=A9 Nu=\nno") if h.grade >= 0.7] == []


@settings(max_examples=300, deadline=None)
@given(text=_QP_TEXT.map(str.strip).filter(bool), encoding=st.sampled_from([email.charset.QP, email.charset.BASE64]))
def test_encoded_words_read_as_the_header_encoded(text, encoding):
    """Python's `email.header` (words of at most 75 characters, folded) undone: the words run together."""
    charset = email.charset.Charset("utf-8")
    charset.header_encoding = encoding
    header = email.header.Header(text, charset, header_name="Subject").encode()
    assert _read(encoded_words.EncodedWords, "Subject: " + header) == "Subject: " + text


def test_what_only_looks_like_an_encoded_word_stays():
    text = "=?x-no-such-charset?q?abc?= =?utf-8?b?***?= a=?b"
    assert _read(encoded_words.EncodedWords, text) == text
    assert _read(encoded_words.EncodedWords, "=?utf-8?q?a?= and =?utf-8?q?b?=") == "a and b"


def test_a_name_cut_across_two_encoded_words_is_found_and_another_is_not():
    unit = make_unit({"task_id": "t", "entity_id": "P", "field": "name", "value": "José Núñez",
                      "dimension": "person_name"})
    cascade = build_cascade([unit])
    assert [h.grade for h in cascade.scan_text("=?utf-8?q?Jos=C3=A9_N?=\n =?utf-8?b?w7rDsWV6?=")] == [1.0]
    assert [h for h in cascade.scan_text("=?utf-8?q?Jos=C3=A9_N?=\n =?utf-8?q?u=C3=B1o?=") if h.grade >= 0.7] == []


_TAGS = ["<em>", "</em>", "<b>", "</b>", "<mark>", "</mark>", '<span class="hl">', "</span>", "<wbr>", "<WBR/>"]


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.tuples(_WORDS, st.sampled_from(_TAGS)), max_size=8))
def test_inline_tags_read_as_the_text_a_browser_shows(pieces):
    assert _read(markup.InlineMarkup, "".join(w + t for w, t in pieces)) == "".join(w for w, _ in pieces)


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.tuples(_WORDS, st.sampled_from(_TAGS)), max_size=8))
def test_inline_tags_escaped_inside_json_text_read_as_the_text(pieces):
    """Go's JSON encoder (and others) write `<`, `>` as `\\u003c`, `\\u003e`, and an attribute's quotes as `\\"`."""
    def go_json(text: str) -> str:
        return json.dumps(text, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
    text = go_json("".join(w + t for w, t in pieces))
    assert _read(markup.InlineMarkup, text) == go_json("".join(w for w, _ in pieces))


def test_tags_that_break_the_text_stay():
    text = "<td>139</td><td>22883366</td><br><p>lena</p><body><li>x</li>"
    assert _read(markup.InlineMarkup, text) == text


def _git_quoted(text: str) -> str:
    """How git quotes a path (core.quotePath, its default): each byte outside ASCII as an octal escape."""
    return "".join(chr(b) if b < 128 else f"\\{b:03o}" for b in text.encode())


@settings(max_examples=300, deadline=None)
@given(text=_WORDS.filter(lambda t: "\\" not in t))
def test_git_quoted_paths_read_as_the_path(text):
    decoded = views.decoded_text(_git_quoted(text), None)
    assert (decoded[0] if decoded else _git_quoted(text)) == text


def test_octal_escapes_of_no_text_stay():
    for text in ("\\001\\002\\003", "\\303", "\\101\\102\\103\\104", "chmod \\377"):
        assert views.decoded_text(text) is None, text


_LATIN1 = st.lists(st.sampled_from([*"abcXYZ019@.-_:;=", "é", "ñ", "ü", "ß", "José", "13922883366"]),
                   min_size=1, max_size=120).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=_LATIN1)
def test_quoted_printable_of_latin1_reads_as_the_text_encoded(text):
    """An older client's body: `charset=iso-8859-1`, quoted-printable."""
    head = "Content-Type: text/plain; charset=ISO-8859-1\n\n"
    body = quopri.encodestring(text.encode("latin-1")).decode()
    assert _read(quoted_printable.QuotedPrintable, head + body) == head + text


def test_a_jwt_is_read_without_another_cue():
    """A JWT's parts are base64url of JSON, which starts `eyJ` (`{"`): read where nothing else says base64."""
    payload = base64.urlsafe_b64encode(b'{"phone": "13922883366"}').decode().rstrip("=")
    decoded = views.decoded_text(f"Bearer eyJhbGciOiJub25lIn0.{payload}.c2ln", None)
    assert decoded is not None and '"phone": "13922883366"' in decoded[0]


def test_a_tag_with_an_attribute_that_holds_text_stays():
    text = '<a href="tel:+86-139-2288-3366">call</a> <abbr title="Lena">L.</abbr> <span data-id="7">x</span>'
    assert _read(markup.InlineMarkup, text) == '<a href="tel:+86-139-2288-3366">call <abbr title="Lena">L. ' \
                                                '<span data-id="7">x'
