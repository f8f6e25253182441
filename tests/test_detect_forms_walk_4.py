"""The forms session 16's guard walk (`test_intercept_forms_walk_4.py`) added: each decoder undoes what the tool
that writes the form wrote (a property over texts the writer is given), and leaves alone what only looks like it."""

from __future__ import annotations

import base64

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ec2audit.detect import views
from ec2audit.detect.forms import (
    base64_lines,
    brace_escapes,
    continuations,
    digits,
    dumps,
    gutters,
    hard_wraps,
    letter_spacing,
)
from ec2audit.detect.patterns import PatternIndex

_WORDS = st.lists(st.sampled_from([*"abcXYZ019@.-_:;", "é", "ñ", "ü", "欧", "阳", "娜", "が", "😀", "lena", "486,000"]),
                  min_size=1, max_size=60).map("".join)
#: letters and digits only: a word a wrap or a letter-spacing cuts anywhere
_ALNUM = st.lists(st.sampled_from([*"abcXYZ019", "é", "ñ", "欧", "阳", "娜", "が", "lena", "1392"]),
                  min_size=1, max_size=40).map("".join)


def _read(form, text: str) -> str:
    """The text as the form alone rewrites it."""
    return views._rewrite(text, list(form([], PatternIndex()).rewrite(text)))[0]


@settings(max_examples=200, deadline=None)
@given(pieces=st.lists(_WORDS.filter(lambda w: "\\" not in w), min_size=1, max_size=6),
       indent=st.sampled_from(["", "  ", "\t"]), crlf=st.booleans())
def test_line_continuations_read_joined(pieces, indent, crlf):
    """A value cut anywhere by `\\` at a line's end (the next line indented or not) reads whole."""
    text = ("\\" + ("\r\n" if crlf else "\n") + indent).join(pieces)
    assert _read(continuations.LineContinuations, text) == "".join(pieces)


def test_a_backslash_after_a_space_or_an_escaped_one_stays():
    for text in ("docker run \\\n  -e X=1", "C:\\\\\nnext", "a\\n b"):
        assert _read(continuations.LineContinuations, text) == text


@settings(max_examples=200, deadline=None)
@given(text=_WORDS.filter(lambda t: "\\" not in t), perl=st.booleans())
def test_brace_escapes_read_as_the_text(text, perl):
    """Rust's `escape_unicode` (`\\u{6b27}`) and Perl's `\\x{6b27}` of every character outside ASCII."""
    escaped = "".join(c if c.isascii() else ("\\x{%x}" if perl else "\\u{%x}") % ord(c) for c in text)
    assert _read(brace_escapes.BraceEscapes, escaped) == text


def test_braces_that_are_no_code_point_stay():
    for text in ("\\u{110000}", "\\u{d800}", "\\u{}", "u{41}", "\\u{1234567}"):
        assert _read(brace_escapes.BraceEscapes, text) == text


_ZEROS = [0x660, 0x6F0, 0x966, 0x9E6, 0xE50, 0x1040, 0x17E0]  # Arabic-Indic, Persian, Devanagari, Bengali, …


@settings(max_examples=200, deadline=None)
@given(pieces=st.lists(st.tuples(_WORDS.filter(lambda w: not any(c.isdigit() for c in w)),
                                 st.from_regex(r"[0-9]{1,12}", fullmatch=True)), max_size=5),
       zero=st.sampled_from(_ZEROS))
def test_digits_of_other_scripts_read_as_ascii_digits(pieces, zero):
    plain = "".join(w + d for w, d in pieces)
    written = "".join(w + d.translate({ord(c): chr(zero + int(c)) for c in "0123456789"}) for w, d in pieces)
    assert _read(digits.ScriptDigits, written) == plain


@settings(max_examples=200, deadline=None)
@given(words=st.lists(_ALNUM.filter(lambda w: len(w) >= 3), min_size=1, max_size=4))
def test_letter_spaced_words_read_as_words(words):
    """`sed 's/./& /g'` of words one space apart: each word's characters one space apart, words three apart."""
    spaced = " ".join(" ".join(words))
    expected = " ".join(words) if sum(map(len, words)) >= 5 else spaced  # (all letters and digits)
    assert _read(letter_spacing.LetterSpacing, f"{spaced}; ok") == f"{expected}; ok"


def test_ordinary_text_is_no_letter_spacing():
    for text in ("I am a b", "x = a + b", "a b c d", "phone 139 2288 3366"):
        assert _read(letter_spacing.LetterSpacing, text) == text


_LINES = st.lists(_WORDS.filter(lambda w: "\n" not in w), min_size=2, max_size=8)


@settings(max_examples=200, deadline=None)
@given(lines=_LINES, first=st.integers(1, 9990), tool=st.sampled_from(["cat -n", "nl", "grep -n", "less -N", "bat"]))
def test_line_numbers_read_past(lines, first, tool):
    def gutter(n: int) -> str:
        return {"cat -n": f"{n:6}\t", "nl": f"{n:6}\t", "grep -n": f"customers.txt:{n}:", "less -N": f"{n:7} ",
                "bat": f"{n:4} │ "}[tool]
    numbered = "\n".join(gutter(first + i) + line for i, line in enumerate(lines))
    assert _read(gutters.Gutters, numbered) == "\n".join(lines)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.tuples(st.sampled_from("+- "), _WORDS.filter(lambda w: "\n" not in w)), min_size=1,
                      max_size=8))
def test_a_diff_hunk_reads_without_its_markers(lines):
    hunk = "\n".join(marker + line for marker, line in lines)
    head = "--- a/c.txt\n+++ b/c.txt\n@@ -1,3 +1,4 @@ def f():\n"
    assert _read(gutters.Gutters, head + hunk) == head + "\n".join(line for _, line in lines)


def test_numbers_at_lines_starts_that_do_not_count_on_stay():
    for text in ("     1\tfoo", "     1\tfoo\n     3\tbar", "12 apples\nand 13 pears", "1\tfoo\n\n2\tbar"):
        assert _read(gutters.Gutters, text) == text


def _xxd(raw: bytes) -> str:
    rows = []
    for o in range(0, len(raw), 16):
        chunk = raw[o:o + 16]
        hexes = " ".join(chunk[i:i + 2].hex() for i in range(0, len(chunk), 2))
        rows.append(f"{o:08x}: {hexes:<39}  " + "".join(chr(b) if 32 <= b < 127 else "." for b in chunk))
    return "\n".join(rows)


def _hexdump(raw: bytes) -> str:
    rows = []
    for o in range(0, len(raw), 16):
        chunk = raw[o:o + 16]
        left, right = (" ".join(f"{b:02x}" for b in half) for half in (chunk[:8], chunk[8:]))
        rows.append(f"{o:08x}  {left:<23}  {right:<23}  |" + "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
                    + "|")
    return "\n".join([*rows, f"{len(raw):08x}"])


def _od(raw: bytes) -> str:
    names = {10: "\\n", 9: "\\t", 0: "\\0", 92: "\\\\"}
    rows = [f"{o:07o}" + "".join(f"{names.get(b, chr(b) if 32 < b < 127 else f'{b:03o}'):>4}"
                                 for b in raw[o:o + 16]) for o in range(0, len(raw), 16)]
    return "\n".join([*rows, f"{len(raw):07o}"])


@settings(max_examples=200, deadline=None)
@given(text=_WORDS.filter(lambda t: len(t.encode()) >= 8), dump=st.sampled_from([_xxd, _hexdump, _od]))
def test_a_byte_dump_reads_as_the_text_it_holds(text, dump):
    """`xxd`, `hexdump -C` and `od -c` of the text's UTF-8 bytes, in a tool's output between other lines."""
    out = _read(dumps.ByteDumps, f"$ {dump.__name__[1:]} notes.txt\n{dump(text.encode())}\n$ ")
    assert text in out and "0000000" not in out


def test_hex_numbers_whose_offsets_do_not_start_at_zero_or_add_up_are_no_dump():
    text = "00000010: 3133 3932 3238 3833 3337 36\n00000020: 3133 3932 3238 3833 3337 36\nstatus 0000"
    assert _read(dumps.ByteDumps, text) == text


@settings(max_examples=200, deadline=None)
@given(text=_WORDS, width=st.sampled_from([64, 76]))
def test_base64_wrapped_at_a_width_reads_as_the_text(text, width):
    blob = base64.b64encode(text.encode()).decode()
    wrapped = "\n".join(blob[i:i + width] for i in range(0, len(blob), width))
    out = _read(base64_lines.WrappedBase64, f"-----BEGIN NOTE-----\n{wrapped}\n-----END NOTE-----")
    assert out == f"-----BEGIN NOTE-----\n{text if len(blob) > width else wrapped}\n-----END NOTE-----"


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="abcXYZ019éñ欧阳", min_size=80, max_size=400), width=st.integers(20, 100))
def test_a_hard_wrap_inside_a_word_reads_joined(text, width):
    """A run of letters and digits of three or more full lines, wrapped at a width, whose lines start unalike."""
    lines = [text[i:i + width] for i in range(0, len(text), width)]
    assume(len(text) >= 3 * width and len({line[:4] for line in lines}) == len(lines))
    assert _read(hard_wraps.HardWraps, "\n".join(lines)) == text


def test_prose_wrapped_at_words_stays():
    for text in ("The customer called about the invoice\nagain yesterday; she was told to\nwait for it",
                 "short line one\nshort line two", "a line twenty-one ch \nanother line of text"):
        assert _read(hard_wraps.HardWraps, text) == text
