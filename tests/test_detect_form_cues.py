"""Each form's cue is a claim: its rewrite over the lines around its cues (`cues.CueScan`) equals its rewrite of
the whole text. Checked per form on generated text built from the pieces the form reads (and those that trip it
up: line breaks, look-alike characters, Unicode spaces), with Vectorscan's cue scan and Python's."""

from __future__ import annotations

import base64
import textwrap
from functools import cache
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ec2audit.detect import cues
from ec2audit.detect.cascade import Cascade
from ec2audit.detect.cues import CueScan
from ec2audit.units import read_units

DATA = Path(__file__).parent / "data"

_XXD_LINE = b"lena.hartmann@example.org abcd".hex()  # 60 digits: a line of `xxd -p`

#: the pieces each cued form's texts are made of (joined in any order, any number)
PIECES: dict[str, list[str]] = {
    "letter_spacing": ["a", "B", "7", "é", "漢", " ", "  ", "   ", "\n", "\r\n", "\t", ";", ".", "-", "\u00a0",
                       "\u3000", "\x1c", "a b c", "l e n a", "J o s é  N ú ñ e z", "x = a + b", "_"],
    "gutters": ["\n", "\r\n", "1", "2", "3", "12", "a", "xyz", " ", "\t", ":", "-", "|", " | ", "c.txt:", "a/b-",
                "1\tab\n2\tcd\n3\tef", "   7 x\n   8 y", "f.py:4:q\nf.py:5:r", "@@ -1,3 +1,3 @@", "+", "--- a",
                "+++ b", "abcdefghijklmnopqrstuvwxyz", "٣"],
    "url_plus": ["/", "=", "+", "%C3%A9", "%E6%AC%A7", "%20", "%2B", "%", "Jos", "N", "é", "欧阳", "1", "_", " ", "\n",
                 "?q", "&", "%C3", "ab", "\r\n"],
    "id_prefixed": ["call_", "CALL_", "ca\u0130l_", "fc_", "toolu_", "file-", "\u017fess_", "tool_", "x", "eyJwaG9u",
                    "ZSI6", "MTM5MjI4ODMzNjY=", "=", "+", "/", "-", "_", " ", "\n", "é", "abc", "12345678"],
    "brace_escapes": ["\\u{1F600}", "\\\\x{e9}", "\\u{110000}", "\\u{d800}", "{", "}", "\\", "u", "x", "4", "a",
                      "\n", " "],
    "ocr": ["O", "o", "I", "l", "S", "B", "0", "1", "5", "٣", "１", "a", "_", " ", "\n", "&#48;", "\\u0030",
            "\\x41", "%41", "&amp;", ";", "#", "1O1", "B0B"],
    "pdf_breaks": ["-", "\n", "\r\n", "lena", "hart", "@", "example", ".", "org", "漢字", "中", "3", "²", "٣", " ",
                   "abcdefghijklm", "汉字汉字汉字汉字汉字汉字", "1234567", "x.y+z", "a-"],
    "glued": ["tel", "TEL", "phone", "mobile", "whatsapp:", "wa.me/", "Wa.Me/", "tel:", "ſms:", "sms:",
              "@s.whatsapp.net", "@c.us", "@C.uſ", "4915112345678", "123456", "1", "a", "é", " ", "\n", "_", "+"],
    "spoken_repeats": ["double", "Triple", "TRIPLE", "doUble", " ", "-", "four", "FIVE", "ſix", "six", "oh", "a",
                       "\n", "1", "é"],
    "defanged": ["[.]", "(.)", "{.}", "[@]", "[:]", "(@)", "a", "7", "_", "//", "hxxp", "hXxp", "HXXPS", "://",
                 "[:]//", ":", "s", " ", "\n", "example", "org"],
    "latex": ["\\'", "\\`", "\\^", '\\"', "\\~", "\\=", "\\.", "\\c{", "\\v", "{e}", "{", "}", "e", "J",
              "os", "~", "{,}", "\\,", "\\;", "\\ ", "\\allowbreak", "\\hspace*{0pt}", "{}", "\\", " ", "\n",
              "1"],
    "punycode": ["xn--", "XN--", "xN--", "n--", "x", "mnchen-3ya", "bcher-kva", "-", ".", "de", "a", "9", " ",
                 "\n", "é"],
    "base64_lines": [*(line + "\n" for line in textwrap.wrap(base64.b64encode(b"lena.hartmann@example.org " * 5)
                                                                     .decode(), 44)),
                     "TWFu" * 10, "aGVsbG8gd29ybGQ=", "QUJD" * 11, "QQ==", "=", "\n", "\r\n", "+", "/", "a",
                     " ", "Zm9v"],
    "concatenation": ['"lena" + "hart"', "'ab' 'cd'", 'x"\n"y', '\\"ab\\" .. \\"cd',
                      '"', "'", '\\"', "\\\\'", " + ", "+", " || ", "..", ".", " & ", "\n", "\r\n", " ",
                      "\t", "a", "7", "_", "lena", "hart", "é"],
    "continuations": ["\\\n", "\\\r\n", "\\", "\n", "  ", "\t", "a", "lena", " ", "x\\\n  y"],
    "octal_escapes": ["\\303\\251", "\\0303", "\\351", "\\101", "$'", "'", "\\'", "Jos", "a", " ", "\n", "\\",
                      "$'Jos\\303\\251'", "\\377\\376"],
    # lines of twenty characters (a wrap's three in a row as long), and pieces that make a line longer or shorter
    "hard_wraps": ["lena.hartmann@exampl\n", "e.org and one more x\n", "0123456789٣²x漢字yzéÑ\r\n",
                   "ǅʰ〇Ⅻ½ abcdefghijklmn\n", "2024-01-01 record a\n", "a   b   column row x\n",
                   "abcdefghijklmnopqrs\u0301\n", "tail\n", "\n", "\r\n", "a", "_", "²", "\u0301", " ", "-"],
    # hex of text (an `xxd -p` line of 60 digits, a run of 26, lines of a few), and what a run's ends read
    "hex_strings": [_XXD_LINE + "\n", _XXD_LINE, "6c656e612e686172746d616e6e", "6c656e612e686172746d616e6e\n",
                    "\n6c65", "\n6e61\n", "\n1\n", "\n1\n1\n1\n", "deadbeef", "1", "\n", "\r\n", "\\x", "0x",
                    "\\\\x", "x", "g", "_", " ", "é"],
    "digits": ["١٣٩", "۱۳۹", "१३९", "٣", "12", "１２", "a", " ", "\n", "𝟘", "\U00011f50", "x٣y", "-"],
    "word_diff": ["[-", "-]", "{+", "+}", "[-5-]", "{+6+}", "139", "a", "漢", " ", "\n", "\r\n", "-", "+", "[", "]",
                  "{", "}"],
    "format_list": ["Name", "EmailAddress", " : ", " ", "    ", "      ", "\n", "\r\n", "lena.hartmann@exam",
                    "ple.org", "x" * 40, "欧阳娜娜" * 5, ":", "a", "-"],
    "reg_hex": ["hex(2):", "hex(7):", "hex:", "hex(", "2", ")", ":", "27,00,", "6b,", "00", "0", ",", "\\\n  ",
                "\\\r\n", "\\", "\n", " ", "6c,00,65,00,6e,00,61,00,", "e6,ac,a7,", "x", "g", "é"],
    "code_point_lists": ["27431", "38451,", "233", "1", "12", ",", ", ", ",\n", ",\r\n  ", "\n", "[", "]", "a", ".",
                         "-", "1114112", "74, 111, 115, 195, 169", " ", "é"],
    "css_escapes": ["\\31 ", "\\6b27", "\\e9", "\\a ", "\\b", "\\101", "\\346", "\\", "3", "e", " ", "\t", "\n",
                    "\r\n", "x", "é"],
    "base32": ["GEZTSMRS", "HA4DGMZW", "GY======", "NBQXE5DN", "MFXG4", "=", "\n", "\r\n", " ", "a", "A", "2", "8",
               "+", "/"],
    # a header naming a value's pieces over its rows (and what makes a cell, a row, another table)
    "spreadsheet_columns": ["nhs_1", "nhs_2", "nhsPart3", "dobDay", "dob_month", "DOB_YEAR", "卡号前12位", "卡号后7位",
                            "name", ",", ";", "|", "\t", " ", "\n", "\r\n", '"', "943", "476", "5919", "14", "Mar",
                            "1987", "Ann", "吴"],
    # words in capitals with the digits OCR reads for letters, and what bounds a word
    "ocr_letters": ["C", "O", "R", "N", "E", "L", "0", "1", "5", "8", "3", "a", "-", " ", "\n", "_", "é"],
    "utf7": ["+ayeWM1ocWhw-", "+AOk", "+APoA8Q-", "+", "-", "Jos", "a", "/", "8", " ", "\n", "+86", "C++"],
    "sql_chars": ["CHAR(49)", "chr(27431)", "NCHAR(233)", "CHAR(49,51 USING utf8mb4)", "||", "+", ",", " ", "\n",
                  "CONCAT(", ")", "(", "CHA", "R", "9", "a"],
    "binary_octets": ["00110001", "11100110", "10101100", "10100111", " ", "\t", "\n", "\r\n", "0", "1",
                      "00000000: ", "  1.", "a"],
    "decimal_bytes": ["110", "97", "230", "172", "167", "32", "072", "1", "256", " ", "  ", "\t", "\n", "\r\n", "\n ",
                      ",", ".", "a", "-", "é"],
    "spaced_hex": ["6c", "65", "6e", "61", "e6", "ac", "a7", " ", ":", "\n", "\r\n", "\n  ", "\t", " 6c 65 6e 61",
                   "6c:65:6e:61:2e:68:61:72", "0x", "0x6C ", "e6 ac a7 ", "a", "1", "g", ".", "_", "é"],
    # `od -An -x` and `-tx4` lines of the same text (whole, and a last line short), and what cuts a run
    "bare_dumps": [" 616e 656d 203a ace6 e9a7 b398 a8e5 e59c\n", " 9ca8 203b 6870 6e6f 3a65 3120 3933 3232\n",
                   " 706d 656c 6f2e 6772\n", " 2e616e65 74726168 6e6e616d 61786540\n", " 656c706d 67726f2e\n",
                   " 6f2e", " 0000", "\n", "\r\n", " ", "  ", "\t", "g", "a", "$ od -An -x f\n",
                   # `od -An -c` and `-tx1z`
                   "   n   a   m   e   :     346 254 247 351 230 263 345 250 234 345\n", "   e   n   a   .\n",
                   "  \\n", "   \\", "    ", " 6e 61 6d 65 3a 20 e6 ac a7 e9 98 b3 e5 a8 9c e5  >name: ..........<\n",
                   " 6d 70 6c 65  >mple<\n", ">", "<"],
    # Python's repr of UTF-16 and UTF-32 bytes (marked or not), and what cuts or ends a literal
    "wide_bytes": [repr("lena.hartmann".encode("utf-16")), repr("欧阳娜娜".encode("utf-16-le")),
                   repr("Jos\u00e9".encode("utf-32")), repr("ab".encode("utf-16-be")), "b'", 'b"', "rb'", "\\x00",
                   "\\x", "\\'", "'", '"', "\\", "a", "ab", "é", " ", "\n", "\r\n"],
    # `hexdump -C`'s character column alone (whole lines, a last one short), and what breaks a run
    "ascii_columns": ["|name: ..........|\n", "|..; phone: 13922|\n", "|883366; email: l|\n", "|ena|\n", "|ena|",
                      "|", "||", "|\n", "\r\n", "\n", " ", "a", "|0123456789abcdef|", "é", "x|y"],
    "cjk_dotted_digits": ["一", "九", "幺", "〇", "点", "點", "．", ".", " ", "1", "0", "7", "\n", "a", "漢", " . "],
    # items of a spelling, English and Chinese, and what separates them (its cue matches twice on a run's line)
    "spelled_out": ["capital", "T", "r", "zero", "dot", "N for November", "b as in bravo", "alpha", "ampersand", "a",
                    "9", "x-ray", "exclamation mark", "small", "double", "ten", "\n", "大写", "H", "井号", "反斜杠",
                    "（O大写）", "然后", "，", ", ", " ", "2026", "é"],
}


@cache
def _cascade() -> Cascade:
    return Cascade(read_units(DATA / "leaks-forms" / "units.jsonl"))


def _form(name: str):
    return next(form for form in _cascade()._rewriting if form.name == name)


def test_every_form_named_here_declares_a_cue():
    """(a form converted, its pieces here: a form losing its cue would leave its claim untested)"""
    assert all(_form(name).cue is not None for name in PIECES)


@pytest.mark.parametrize("engine", ["vectorscan", "re"])
@pytest.mark.parametrize("name", sorted(PIECES))
def test_a_forms_cued_rewrite_equals_its_rewrite_of_the_whole_text(name, engine, monkeypatch):
    monkeypatch.setattr(cues, "_SHORT", 0)  # every text read in its cues' stretches, as a long one is
    form = _form(name)
    rewrite = CueScan([form], engine).rewriter([form])

    @settings(max_examples=400, deadline=None, database=None)
    @given(st.lists(st.sampled_from(PIECES[name]), max_size=60).map("".join))
    def check(text):
        assert sorted(rewrite(text)) == sorted(form.rewrite(text))

    for text in FOUND.get(name, ()):
        check = example(text)(check)
    check()


#: texts the random pieces once found a form's cued rewrite different in, checked every run
FOUND = {
    # a list's lines after a first line of no number: read as a list in its stretch (the stretch began at its first
    # number, where `\A` matched), not in the whole text (session 25)
    "code_point_lists": [",\n27431,\n27431", "a\n27431,\n27431"],
}


def _plain_wraps(lines):
    """hard_wraps' wraps as it found them line by line (before its lengths were compared in numpy)."""
    from ec2audit.detect.forms.hard_wraps import _LEAST_WIDTH, wrapped

    lengths = [len(line) for line in lines]
    return [k for k in range(len(lines) - 1) if lengths[k] >= _LEAST_WIDTH and (
        lengths[k] in lengths[max(0, k - 2):k] or lengths[k] in lengths[k + 1:k + 3]) and wrapped(lines, k)]


@settings(max_examples=500, deadline=None, database=None)
@given(st.lists(st.sampled_from(["lena.hartmann@example.org ab", "mann@example.org and one mo", "x" * 27, "y" * 20,
                                 "tail", "", "2024-01-01 a record line", "2024-01-01 b record line",
                                 "a   b column row of width 27", "José Núñez wrote this line"]),
                min_size=1, max_size=40))
def test_hard_wraps_finds_the_wraps_its_line_by_line_form_finds(lines):
    from ec2audit.detect.forms.hard_wraps import _wraps

    assert list(_wraps(lines)) == _plain_wraps(lines)


@settings(max_examples=1000, deadline=None, database=None)
@given(st.lists(st.sampled_from(PIECES["letter_spacing"]), max_size=60).map("".join))
def test_letter_spacing_tries_its_runs_only_where_they_may_start(text):
    from ec2audit.detect.forms import letter_spacing

    assert [m.span() for m in letter_spacing._runs(text)] == [m.span() for m in letter_spacing._SPACED.finditer(text)]


def test_a_line_with_fewer_cue_matches_than_a_forms_least_is_not_read():
    """`spelled_out` names two items a run (`cue_least` 2): of three lines, the one naming one (`dot`) is no cue
    line, the one naming two (`alpha`, `bravo`) is: its stretch is that line alone (`cue_lines` 0), from 12 (after
    the first line break) to 23 (the second)."""
    form = _form("spelled_out")
    text = "see the dot\nalpha bravo\nplain"
    assert CueScan([form], "vectorscan").stretches(text) == [[(12, 23)]]

