"""The forms session 18's guard walk (`test_intercept_forms_walk_6.py`) added: each decoder undoes what the tool
wrote (a property over texts it is given), and leaves alone what only looks like it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ec2audit.detect import views
from ec2audit.detect.forms import folded_lines, hex_strings
from ec2audit.detect.patterns import PatternIndex

_WORDS = st.lists(st.sampled_from([*"abcXYZ019@.-:;, ", "é", "ñ", "ü", "欧", "阳", "娜", "が", "😀", "lena",
                                   "486,000"]),
                  min_size=1, max_size=60).map("".join)
_SETTINGS = settings(max_examples=150, deadline=None)


def _read(form, text: str) -> str:
    """The text as the form alone rewrites it."""
    return views._rewrite(text, list(form([], PatternIndex()).rewrite(text)))[0]


def _fold(line: str, width: int, blank: str, end: str) -> str:
    """RFC 6350/5545/2849 folding: every `width` characters, a line break and one space or tab."""
    return (end + blank).join(line[i:i + width] for i in range(0, len(line), width))


@_SETTINGS
@given(value=_WORDS.filter(lambda t: "\n" not in t), width=st.integers(1, 75), blank=st.sampled_from([" ", "\t"]),
       end=st.sampled_from(["\r\n", "\n"]), kind=st.sampled_from(["VCARD", "VCALENDAR", "VEVENT", "vcard"]))
def test_a_folded_vcard_or_icalendar_line_reads_unfolded(value, width, blank, end, kind):
    line = f"NOTE:{value}"
    text = f"BEGIN:{kind}{end}{_fold(line, width, blank, end)}{end}END:{kind}{end}"
    assert _read(folded_lines.FoldedLines, text) == f"BEGIN:{kind}{end}{line}{end}END:{kind}{end}"
    cut = f"BEGIN:{kind}{end}{_fold(line, width, blank, end)}"  # a tool's output cut off before END
    assert _read(folded_lines.FoldedLines, cut) == f"BEGIN:{kind}{end}{line}"


@_SETTINGS
@given(value=_WORDS.filter(lambda t: "\n" not in t), width=st.integers(1, 75))
def test_a_folded_ldif_entry_reads_unfolded_to_its_end(value, width):
    entry = f"dn: uid=p1,dc=example\n{_fold('mail: ' + value, width, ' ', chr(10))}\n"
    after = "\nsearch: 2\n result: 0 Success\n"  # after the entry's empty line: no LDIF, an indent stays
    assert _read(folded_lines.FoldedLines, entry + after) == f"dn: uid=p1,dc=example\nmail: {value}\n" + after


def test_indented_lines_outside_such_a_document_stay():
    for text in ("order 1392288\n 3366 units", "def f():\n    return 1\n", "BEGIN: the plan\n step one",
                 "see dn: below\n indented", "END:VCARD\n 1392288"):
        assert _read(folded_lines.FoldedLines, text) == text


@_SETTINGS
@given(text=_WORDS.filter(lambda t: t.isprintable() and not t.isspace() and len(t.encode()) >= 4),
       prefix=st.sampled_from(["\\x", "0x", "\\\\x"]), upper=st.booleans())
def test_prefixed_hex_reads_as_utf8(text, prefix, upper):
    """psql's `bytea` output, SQL's and a debugger's `0x` literals."""
    digits = text.encode().hex()
    assert _read(hex_strings.HexStrings, f"v = {prefix}{digits.upper() if upper else digits};") == f"v = {text};"


@_SETTINGS
@given(text=_WORDS.filter(lambda t: t.isprintable() and not t.isspace() and len(t.encode()) >= 8))
def test_bare_hex_of_eight_bytes_or_more_reads_as_utf8(text):
    """`xxd -p` and `bytes.hex()` in a log."""
    assert _read(hex_strings.HexStrings, f"payload {text.encode().hex()} sent") == f"payload {text} sent"


@_SETTINGS
@given(text=_WORDS.filter(lambda t: t.isprintable() and not t.isspace()), lines=st.integers(1, 3))
def test_xxd_plain_lines_read_as_one_run(text, lines):
    """`xxd -p`: 60 digits a line, a character's bytes cut by a line's end as often as not."""
    text = (text * 40)[:30 * lines + 5]
    digits = text.encode().hex()
    dump = "\n".join(digits[i:i + 60] for i in range(0, len(digits), 60))
    assert _read(hex_strings.HexStrings, f"$ xxd -p f\n{dump}\n$ ") == f"$ xxd -p f\n{text}\n$ "


def test_hex_that_is_no_text_stays():
    for text in ("sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                 "at 0x7ffd5a3b2c10 in main", "uuid 123e4567e89b12d3a456426614174000", "order 3133393232",
                 "id 1392288336612", "card 4111111111111111", "\\x00010203040506", "0x20202020",
                 "git 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"):
        assert _read(hex_strings.HexStrings, text) == text
