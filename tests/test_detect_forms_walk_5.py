"""The forms session 17's guard walk (`test_intercept_forms_walk_5.py`) added: each decoder undoes what the tool
or the writer of the form wrote (a property over texts it is given), and leaves alone what only looks like it."""

from __future__ import annotations

import json
import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ec2audit.detect import views
from ec2audit.detect.forms import (
    cdata,
    concatenation,
    defanged,
    digit_separators,
    latex,
    markdown,
    ocr,
    octal_escapes,
    overstrike,
    pinyin_tones,
    punycode,
    spoken_repeats,
    sse_deltas,
)
from ec2audit.detect.patterns import PatternIndex

_WORDS = st.lists(st.sampled_from([*"abcXYZ019@.-:;", "é", "ñ", "ü", "欧", "阳", "娜", "が", "😀", "lena", "486,000"]),
                  min_size=1, max_size=60).map("".join)
#: letters and digits only: a value a writer cuts anywhere
_ALNUM = st.lists(st.sampled_from([*"abcXYZ019", "é", "ñ", "欧", "阳", "娜", "が", "lena", "1392"]),
                  min_size=1, max_size=40).map("".join)
_SETTINGS = settings(max_examples=150, deadline=None)


def _read(form, text: str) -> str:
    """The text as the form alone rewrites it."""
    return views._rewrite(text, list(form([], PatternIndex()).rewrite(text)))[0]


@_SETTINGS
@given(text=_WORDS.filter(lambda t: "\n" not in t), bold=st.lists(st.booleans(), min_size=60, max_size=60))
def test_overstruck_text_reads_as_printed(text, bold):
    """nroff's bold (`c\\bc`) and underline (`_\\bc`), character by character (the first 60: a text longer than the
    flags is struck as far as they go)."""
    struck = "".join(f"{c}\b{c}" if b else f"_\b{c}" for c, b in zip(text, bold, strict=False))
    assert _read(overstrike.Overstrike, struck) == text[:len(bold)]


@_SETTINGS
@given(text=_WORDS)
def test_markdown_escapes_read_as_the_characters(text):
    """Every ASCII punctuation character but the backslash, escaped (Telegram's MarkdownV2 does most)."""
    escaped = re.sub(r"([!-/:-@\[\]-`{-~])", r"\\\1", text)
    assert _read(markdown.Markdown, escaped) == text


@_SETTINGS
@given(head=_ALNUM, tail=_ALNUM, mark=st.sampled_from(["**", "*", "~~", "`", "***"]))
def test_emphasis_inside_a_value_reads_without_its_delimiters(head, tail, mark):
    """(Emphasis up to 100 characters: a value's part, not a paragraph.)"""
    assume(len(head) + len(tail) < 100)
    assert _read(markdown.Markdown, f"x: {head}{mark}{tail}{mark};") == f"x: {head}{tail};"
    assert _read(markdown.Markdown, f"x: _{head} {tail}_, __{tail}__") == f"x: {head} {tail}, {tail}"


def test_markdown_that_is_no_emphasis_stays():
    for text in ("snake_case_name", "a * b * c", "2*3 and 4 * 5", "**  spaced **", "lena_hart_mann@x.org"):
        assert _read(markdown.Markdown, text) == text


@_SETTINGS
@given(word=st.lists(st.sampled_from([*"abcnoeuNJ", "é", "ú", "ñ", "ü", "è", "ô", "ç", "š", "ą"]), min_size=1,
                     max_size=12).map("".join), braces=st.booleans())
def test_latex_accents_read_as_the_letters(word, braces):
    commands = {"é": "'e", "ú": "'u", "ñ": "~n", "ü": '"u', "è": "`e", "ô": "^o", "ç": "c{c}", "š": "v{s}",
                "ą": "k{a}"}

    def command(c: str) -> str:
        name = commands[c]
        return "\\" + (name if "{" in name else f"{name[0]}{{{name[1]}}}" if braces else name)
    written = "x" + "".join(command(c) if c in commands else c for c in word)
    assert _read(latex.Latex, written) == "x" + word


def test_latex_spacing_reads_as_spaces_and_commas():
    assert _read(latex.Latex, "139\\,2288\\,3366 DE89~3704 \\$486{,}000 lena.\\allowbreak{}hartmann") == \
        "139 2288 3366 DE89 3704 \\$486,000 lena.hartmann"


def test_latex_lookalikes_stay():
    for text in ('{\\"oops\\": 1}', "lena\\.hartmann", "~/bin and ~user", "\\u{a}"):
        assert _read(latex.Latex, text) == text


@_SETTINGS
@given(head=_ALNUM, tail=_ALNUM, quote=st.sampled_from(['"', "'", '\\"']),
       join=st.sampled_from([" + ", "", " || ", " . ", " .. ", " & ", " +\n    ", "\n  ", " \r\n", "+"]))
def test_concatenated_literals_read_as_one(head, tail, quote, join):
    assert _read(concatenation.Concatenation, f"s = {quote}{head}{quote}{join}{quote}{tail}{quote};") == \
        f"s = {quote}{head}{tail}{quote};"


def test_literals_apart_stay_apart():
    for text in ('["139", "2288"]', '"yes" or "no"', "it's 'quoted' here", 'f("a", "b")', '"139"\t"2288"',
                 '["139" "2288"]', "cp 'a1' 'b2'"):
        assert _read(concatenation.Concatenation, text) == text


@_SETTINGS
@given(text=_WORDS.filter(lambda t: t.isprintable() and "\\" not in t))
def test_octal_escapes_read_as_utf8(text):
    """printf's escapes of every byte (echo -e's `\\0nnn` too), and bash's `$'…'` of the bytes outside ASCII."""
    every = "".join(f"\\{b:03o}" for b in text.encode())
    assert _read(octal_escapes.OctalEscapes, f"printf '{every}'") == f"printf '{text}'" or len(text.encode()) == 1
    echo = "".join(f"\\0{b:03o}" for b in text.encode())
    assert _read(octal_escapes.OctalEscapes, echo) == text or len(text.encode()) == 1
    quoted = "$'" + "".join(c if c.isascii() and c != "'" else "".join(f"\\{b:03o}" for b in c.encode()) for c in text)
    assert _read(octal_escapes.OctalEscapes, f"x={quoted}' y") == f"x={text} y" or text.isascii()


def test_octal_lookalikes_stay():
    for text in ("\\0 and \\1", "\\377\\377", "chmod \\755", "$'plain'"):
        assert _read(octal_escapes.OctalEscapes, text) == text


@_SETTINGS
@given(text=_WORDS.filter(lambda t: "\n" not in t), size=st.integers(1, 9),
       api=st.sampled_from(["chat.args", "chat.content", "responses", "anthropic"]))
def test_streamed_deltas_read_joined(text, size, api):
    def event(piece: str) -> dict:
        return {"chat.args": {"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}}]},
                "chat.content": {"choices": [{"index": 0, "delta": {"content": piece}}]},
                "responses": {"type": "response.output_text.delta", "delta": piece},
                "anthropic": {"type": "content_block_delta", "index": 0,
                              "delta": {"type": "input_json_delta", "partial_json": piece}}}[api]
    pieces = [text[i:i + size] for i in range(0, len(text), size)]
    stream = "".join(f"event: delta\ndata: {json.dumps(event(p), ensure_ascii=False)}\n\n" for p in pieces)
    if len(pieces) > 1:
        assert _read(sse_deltas.StreamDeltas, stream + "data: [DONE]") == "event: delta\n" + text


def test_events_that_are_no_deltas_stay_apart():
    text = 'data: {"delta": "1392288"}\n\ndata: {"id": "3366"}\n'
    assert "13922883366" not in _read(sse_deltas.StreamDeltas, text)


@_SETTINGS
@given(pieces=st.lists(_WORDS.filter(lambda t: "]]>" not in t), min_size=1, max_size=4))
def test_cdata_sections_read_joined(pieces):
    assert _read(cdata.Cdata, "<v>" + "".join(f"<![CDATA[{p}]]>" for p in pieces) + "</v>") == \
        "<v>" + "".join(pieces) + "</v>"


@_SETTINGS
@given(digits=st.lists(st.sampled_from(["one", "two", "three", "oh", "nine"]), min_size=1, max_size=5),
       times=st.lists(st.sampled_from(["double", "triple", "Double"]), min_size=5, max_size=5))
def test_repeats_read_as_the_digit_words(digits, times):
    said = ", ".join(f"{t} {d}" for t, d in zip(times, digits, strict=False))
    plain = ", ".join(" ".join([d] * (2 if t.lower() == "double" else 3)) for t, d in zip(times, digits, strict=False))
    assert _read(spoken_repeats.SpokenRepeats, said) == plain


def test_pinyin_tone_marks_fold_and_other_accents_stay():
    assert _read(pinyin_tones.PinyinTones, "Ōuyáng Nànà, Lǐ Nà, Lü Xiǎo") == "Ouyang Nana, Li Na, Lu Xiao"
    for text in ("José Núñez", "Müller", "José", "Ōmori Nkosi-Brahms"):
        assert _read(pinyin_tones.PinyinTones, text) == text


@_SETTINGS
@given(groups=st.lists(st.from_regex(r"[0-9]{1,5}", fullmatch=True), min_size=2, max_size=5),
       before=st.sampled_from(["x = ", "id_", "(", "v"]))
def test_digit_groups_apart_by_underscores_read_as_the_number(groups, before):
    assert _read(digit_separators.DigitSeparators, f"{before}{'_'.join(groups)};") == f"{before}{''.join(groups)};"


def test_digit_separators_read_as_written_elsewhere():
    assert _read(digit_separators.DigitSeparators, "x = 486_000; 139_2288_3366, v1_2") == "x = 486000; 13922883366, v12"


@_SETTINGS
@given(words=st.lists(_ALNUM, min_size=2, max_size=5), at=st.integers(0, 3),
       style=st.sampled_from(["[{}]", "({})", "{{{}}}"]))
def test_defanged_characters_read_as_the_characters(words, at, style):
    marks = [".", "@", "."]
    plain = words[0] + "".join(marks[(k + at) % 3] + w for k, w in enumerate(words[1:]))
    fanged = words[0] + "".join(style.format(marks[(k + at) % 3]) + w for k, w in enumerate(words[1:]))
    assert _read(defanged.Defanged, f"see {fanged} now") == f"see {plain} now"
    assert _read(defanged.Defanged, "hxxps[:]//crm[.]example[.]com") == "https://crm.example.com"


def test_brackets_that_defang_nothing_stay():
    for text in ("f(.) and a[.]", "list[0].x", "(.)", "x [.] y", "[@] alone"):
        assert _read(defanged.Defanged, text) == text


@_SETTINGS
@given(labels=st.lists(st.lists(st.sampled_from([*"abcz09-", "ü", "ö", "é", "ñ", "中", "国", "ß"]), min_size=1,
                                max_size=12).map("".join).filter(lambda w: not w.isascii() and w[0] != "-"
                                                                 and w[-1] != "-"), min_size=1, max_size=3),
       upper=st.booleans())
def test_punycode_labels_read_as_the_domain(labels, upper):
    ace = ".".join("xn--" + label.encode("punycode").decode() for label in labels)
    assert _read(punycode.Punycode, f"to=<j@{ace.upper() if upper else ace}>") == f"to=<j@{'.'.join(labels)}>"


def test_labels_that_are_no_punycode_stay():
    for text in ("xn--", "xn---", "xn--zz", "anxn--bcher-kva", "xn--bcher-kva-"):
        assert _read(punycode.Punycode, text) == text


def test_an_ocr_token_next_to_an_encoded_letter_goes_on_in_it():
    """`&#118;B8&#110;` is `vB8n` (an API key's letters), not the number 88; next to an encoded space it is one."""
    for text in ("&#118;B8&#110;R3", "x%41B8%42", "a\\u0041B8 "):
        assert _read(ocr.OcrDigits, text) == text
    assert _read(ocr.OcrDigits, "&nbsp;139OO112233&#32;") == "&nbsp;13900112233&#32;"
