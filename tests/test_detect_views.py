"""The views' fast paths read like their definitions: a map back from the folded view equal to the one the
characters give one by one, and a decoder regex that finds what trying every position finds."""

from __future__ import annotations

import base64
import binascii
import re
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ec2audit.detect import views
from ec2audit.detect.cascade import Cascade
from ec2audit.detect.forms import char_class, escapes, glued, id_prefixed, invisible, markup, masked, ocr
from ec2audit.detect.forms import quoted_printable as qp
from ec2audit.detect.normalize import (
    _CHINESE_NUMERAL_RUN,
    _ENGLISH_DIGIT_RUN,
    _FOLD,
    CHINESE_NUMERALS,
    DIGIT_WORD_PAIRS,
    ENGLISH_DIGITS,
    TextView,
    _fold_map,
    _runs_at,
    fold,
)
from ec2audit.detect.patterns import PatternIndex
from ec2audit.units import read_units

# ASCII, characters that fold to several ("…", "ß", "ﬁ", "㎡"), to one other ("Ａ", "Ⅲ"), CJK, astral ones
_FOLDING = st.lists(st.sampled_from([*"aZ 9.\t\n\x1f\x7f\x85\xa0\u3000é", "…", "ß", "ﬁ", "㎡", "Ａ", "Ⅲ", "张", "😀",
                                     "𝐀", "ǅ", "İ", "\ud83d", "\ud83d\ude00"]), max_size=40).map("".join)


def _fold_map_by_character(text: str) -> tuple[list[int], list[int]]:
    """The definition: a breakpoint after each character whose fold is not one character long."""
    derived, source, position = [], [], 0
    for i, ch in enumerate(text):
        n = len(_FOLD[ord(ch)])
        position += n
        if n != 1:
            derived.append(position)
            source.append(i + 1)
    return derived, source


@settings(max_examples=300, deadline=None)
@given(text=_FOLDING)
def test_fold_map_is_the_character_by_character_map(text):
    back = _fold_map(text)
    assert (back.derived, back.source) == _fold_map_by_character(text)


@settings(max_examples=500, deadline=None)
@given(text=_FOLDING)
def test_fold_is_the_character_by_character_fold(text):
    assert fold(text) == "".join(_FOLD[ord(ch)] for ch in text)


def test_fold_of_every_character_is_its_fold():
    """Every character of the Basic Multilingual Plane and a stretch of each astral plane, in one text folded at once
    (ASCII over its bytes, the rest by runs): each is its own fold."""
    text = "".join(map(chr, [*range(0xD800), *range(0xE000, 0x10000), *range(0x10000, 0x110000, 97)]))
    assert fold(text) == "".join(_FOLD[ord(ch)] for ch in text)


@settings(max_examples=500, deadline=None)
@given(text=_FOLDING.map(lambda t: TextView.of(t).text)
       | st.lists(st.sampled_from([*" -.:/_a9é张", "\ud83d"]), max_size=30).map("".join))
def test_the_alphanumeric_view_is_the_text_view_without_separators(text):
    view = TextView("", text, text)
    assert view.alnum() == "".join(ch for ch in text if ch not in " -.:/_")


def test_a_match_after_an_ellipsis_points_at_its_characters():
    view = TextView.of("see… Zhang Wei")
    start = view.text.index("zhang wei")
    assert view.original[slice(*view.to_original(start, start + 9))] == "Zhang Wei"


_EMAIL_BY_EVERY_START = re.compile(
    rf"([\w+-]+(?:{views._DOT}[\w+-]+)*){views._AT}([\w-]+(?:{views._DOT}[\w-]+)+)", re.IGNORECASE)
_EMAIL_TOKENS = st.sampled_from(["a", "bc", "lee77", "+", "-", "_", ".", " ", " at ", " dot ", "[at]", "(dot)",
                                 " AT ", "x+y", "é", "\n", "at", "dot", "{at}", "<dot>"])


@settings(max_examples=2000, deadline=None)
@given(text=st.lists(_EMAIL_TOKENS, max_size=14).map("".join))
def test_obfuscated_email_regex_finds_what_every_start_finds(text):
    """Starting only where a word starts (or at "+" after a match) loses nothing: "a at b.c+d at e.f"."""
    def spans(pattern):
        return [(m.span(), m.groups()) for m in pattern.finditer(text)]
    assert spans(views._OBFUSCATED_EMAIL) == spans(_EMAIL_BY_EVERY_START)


@settings(max_examples=2000, deadline=None)
@given(text=st.lists(st.one_of(_EMAIL_TOKENS, st.sampled_from([",", ": ", "/", "@", "张", "\t", " (at) "])),
                     max_size=18).map("".join))
def test_obfuscated_emails_read_only_around_an_at_what_the_whole_text_holds(text):
    """The regex over the barrier-free runs holding an "at" finds every match the regex over the text finds."""
    assert [(s, e) for s, e, _ in views._obfuscated_emails(text)] == \
        [m.span() for m in views._OBFUSCATED_EMAIL.finditer(text)]


def test_an_obfuscated_email_longer_than_one_step_back_is_read_whole():
    local = ".".join(["ann"] * 200)  # 799 characters before " at ": the search back goes on past 256
    text = f"name: {local} at example dot org, x"
    assert list(views._obfuscated_emails(text)) == [(6, 6 + len(local) + 19, f"{local}@example.org")]


def test_obfuscated_email_after_a_match_that_ends_at_a_plus():
    found = [m.group() for m in views._OBFUSCATED_EMAIL.finditer("a at b.c+d at e.f")]
    assert found == ["a at b.c", "+d at e.f"]


# Traditional characters, words OpenCC changes only as phrases ("瞭解" → "了解", "藉口" → "借口"), parts of them,
# characters phrases read differently ("乾燥" → "干燥", "乾隆" stays; "角徵" stays, "徵" alone → "征"), a key that
# converts to itself ("阪"), keyed characters next to ones in no key ("解", "的"), line breaks, ASCII
_CHINESE = st.lists(st.sampled_from(["瞭解", "藉口", "瞭", "解", "藉", "口", "乾燥", "乾隆", "乾", "頭髮", "發", "後面",
                                     "著", "個", "裡", "里", "張", "张", "角徵", "角", "徵", "變徵", "老態龍鍾", "龍",
                                     "鍾", "阪", "的", "，", "\n", "\n\n", "\r\n", " ", "a", "9", "é"]),
                    max_size=30).map("".join)


def _simplified_whole(text: str) -> str:
    """The definition: OpenCC over the whole text (character by character where a phrase changes its length)."""
    if text.isascii() or not views._holds_traditional(text):
        return text
    converted = views._converter().convert(text)
    return converted if len(converted) == len(text) else "".join(views._converter().convert(ch) for ch in text)


@settings(max_examples=1500, deadline=None)
@given(text=_CHINESE)
def test_simplified_view_converts_only_the_runs_opencc_may_change_to_the_same_text(text):
    assert views.to_simplified(text) == _simplified_whole(text)


@settings(max_examples=1000, deadline=None)
@given(text=st.one_of(_CHINESE, st.lists(_CHINESE, max_size=3).map("".join).map(lambda t: t + "😀\ud800")))
def test_converting_runs_over_the_code_points_are_those_read_character_by_character(text):
    assert views._converting_runs_by_codes(text) == views._converting_runs(text)  # short: the loop


def _every_cued_run(text: str) -> list[tuple[int, int]]:
    """The plain form of the runs OpenCC reads: every run of keyed characters holding a cue (`_segments`)."""
    segments, runs, pos = views._segments(), [], 0
    while m := segments.cue.search(text, pos):
        start = m.start()
        while start > pos and text[start - 1] in segments.keyed:
            start -= 1
        after = segments.unkeyed.search(text, m.end())
        pos = after.start() if after else len(text)
        runs.append((start, pos))
    return runs


def _each_run_converted(text: str) -> str:
    """`text` with every cued run converted by OpenCC: what `to_simplified` made before it left out the runs
    holding no candidate (`_changes`)."""
    if text.isascii() or not views._holds_traditional(text):
        return text
    out, last = [], 0
    for start, end in _every_cued_run(text):
        out += [text[last:start], views._converter().convert(text[start:end])]
        last = end
    converted = "".join(out) + text[last:]
    return converted if len(converted) == len(text) else "".join(views._converter().convert(ch) for ch in text)


# astral characters t2s changes alone ("𩀨", "𨂐"), the first two characters of a phrase without the rest ("老態",
# "變徵" is one), a phrase's first character alone
_CANDIDATES = st.lists(st.sampled_from(["𩀨", "𨂐", "老態", "老", "態", "瞭", "變", "乾"]), max_size=4).map("".join)


@settings(max_examples=1000, deadline=None)
@given(text=st.lists(st.one_of(_CHINESE, _CANDIDATES), max_size=4).map("".join), long=st.booleans())
def test_runs_without_a_candidate_are_left_as_opencc_leaves_them(text, long):
    """Leaving out the runs that hold no character t2s changes alone and no phrase's first two characters changes
    no text: short texts (the loop) and long ones (over the code points)."""
    text = "a" * views._SHORT + text if long else text
    assert views.to_simplified(text) == _each_run_converted(text)


def test_every_phrase_of_opencc_is_simplified_as_in_the_whole_text():
    """Each of t2s's phrases, alone, after a keyed character and before its own first character."""
    for phrase in views._dictionary_keys("TSPhrases"):
        text = f"張三 {phrase}\n解{phrase}{phrase[0]}的"
        assert views.to_simplified(text) == _simplified_whole(text), phrase


def test_a_phrase_is_simplified_on_a_line_without_a_traditional_character():
    assert views.to_simplified("請瞭解\n瞭解 it") == "请了解\n了解 it"


# Each decoder regex and its plain form (a lookbehind or a group first): the same matches, the same groups
_PLAIN_FORMS = {
    "_PERCENT_RUN": r"(?:%[0-9A-Fa-f]{2})+",
    "_U_ESCAPES": r"(?:\\+(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}))+",
    "_X_ESCAPES": r"(?:\\x[0-9A-Fa-f]{2})+",
    "_OCTAL_ESCAPES": r"(?:\\[0-3][0-7]{2})+",
    "_BASE64": r"(?<![\w+/-])(?=[\w+/-]*[\d+/])[A-Za-z0-9+/_-]{8,}={0,2}(?![\w+/=-])",
    "_HEX": r"(?<![0-9A-Za-z])(?:[0-9A-Fa-f]{2}){6,}(?![0-9A-Za-z])",
    "_MRZ_NAMES": r"(?<![A-Z0-9<])P[A-Z<]([A-Z<]{3})([A-Z]+(?:<[A-Z]+)*)<<([A-Z]+(?:<[A-Z]+)*)<*",
    "_MRZ_FIELDS": r"(?<![A-Z0-9<])([A-Z0-9<]{9})(\d)([A-Z<]{3})(\d{6})(\d)([MF<])(\d{6})(\d)",
}
_DECODER_TEXT = st.lists(st.sampled_from([*"0123456789abcfABFPNLD<%\\ux+/=_-. é9", "\\u", "%4", "<<", "P<", "NLD",
                                          "5ba2", "aGVsbG8", "M", "F", "\\U", "0001F4DE"]), max_size=50).map("".join)


@settings(max_examples=1500, deadline=None)
@given(text=_DECODER_TEXT)
def test_decoder_regexes_match_their_plain_forms(text):
    for name, plain in _PLAIN_FORMS.items():
        fast = getattr(views, name)
        assert [(m.span(), m.groups()) for m in fast.finditer(text)] == \
            [(m.span(), m.groups()) for m in re.finditer(plain, text)], name


def _decoded_by_every_match(pattern: re.Pattern, decode, text: str) -> list[tuple[int, int, str]]:
    """The plain definition of a decoder: its regex over the whole text, each match decoded."""
    return [(m.start(), m.end(), d) for m in pattern.finditer(text) if (d := decode(m.group()))]


def _base64_by_every_match(text: str) -> list[tuple[int, int, str]]:
    """The plain definition of the base64 decoder: its regex over the whole text, each match decoded, or where it is
    no text whole, the first of its runs after one of the first three "-" or "_" of its label's reach that is."""
    out = []
    for m in views._BASE64.finditer(text):
        run = m.group()
        for at in [0, *[k + 1 for k, ch in enumerate(run[:views._LABEL]) if ch in "-_"][:3]]:
            if decoded := _base64_plain(run[at:]):
                out.append((m.start() + at, m.end(), decoded))
                break
    return out


def _base64_plain(token: str) -> str | None:
    token = token.rstrip("=")
    if len(token) % 4 == 1:
        return None
    try:
        raw = base64.b64decode(token.replace("-", "+").replace("_", "/") + "=" * (-len(token) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    return views._bytes_text(raw)


def _hex_plain(token: str) -> str | None:
    decoded = views._bytes_text(bytes.fromhex(token))
    return decoded if decoded and any(ch.isalpha() for ch in decoded) else None


# base64 and hex tokens of text, parts of them, what may stand around them ("=", "é", "张", "٣", "?", "_", "-", "+")
_ENCODED_TEXT = st.lists(st.sampled_from([base64.b64encode(b"Ann Lee 13900112233").decode(), "U2VjcmV0",
                                          "5byg5LiJ", "aGVsbG8gd29ybGQ", "416e6e204c6565", "e5bca0e4b889", "0A", "ff",
                                          *"0123456789aAgZ+/=_-. :é张٣?\n", "\u00a0", "😀"]), max_size=24).map("".join)


@settings(max_examples=2000, deadline=None)
@given(text=_ENCODED_TEXT, long=st.booleans())
def test_base64_and_hex_decode_only_their_runs_what_their_regexes_decode(text, long):
    """Short texts (runs by a regex) and long ones (runs over the codes); tokens decoded once are remembered, and
    runs one longer than a multiple of four are left out before their regex."""
    text = " " * views._SHORT + text if long else text
    assert list(views._base64(text)) == _base64_by_every_match(text)
    assert list(views._hex(text)) == _decoded_by_every_match(views._HEX, _hex_plain, text)


@settings(max_examples=1000, deadline=None)
@given(text=st.lists(st.sampled_from([*"0123456789abcfxAF+/=_-. é张\n?", "😀", "\ud800", "5byg5LiJ", "e5bca0e4b889"]),
                     max_size=40)
       .map("".join))
def test_ascii_runs_over_the_codes_are_the_regex_runs(text):
    for members, least, holding, apart in ((views._BASE64_ALPHABET, 8, "0123456789+/", ""),
                                           (views._HEX_DIGITS, 12, "", views._ALPHANUMERIC), ("0123456789", 6, "", "")):
        assert views._runs_by_codes(text, members, least, holding, apart) == \
            views._runs_by_regex(text, members, least, holding, apart)


@settings(max_examples=1500, deadline=None)
@given(text=st.lists(st.sampled_from(["call_", "FILE-", "fc_", "toolu_", "eyJhIjoxfQ", "MTM5MDAxMTIyMzM=", "=", "==",
                                      *"aZ09+/_-. é张\n", "\u017f", "\u212a", "\u0131", "x" * 5000]), max_size=14)
       .map("".join))
def test_id_prefixed_runs_read_only_their_runs_what_the_regex_finds(text):
    assert [(m.span(), m.group(1)) for m in id_prefixed._matches(text)] == \
        [(m.span(), m.group(1)) for m in id_prefixed._RUN.finditer(text)]


def test_the_other_whitespace_is_every_non_ascii_character_python_calls_whitespace():
    other = re.compile(f"[{views.OTHER_WHITESPACE}]")
    assert [c for c in range(128, sys.maxunicode + 1) if chr(c).isspace()] == \
        [c for c in range(128, sys.maxunicode + 1) if other.match(chr(c))]


@settings(max_examples=1000, deadline=None)
@given(text=st.lists(st.sampled_from([*"ab9 \t\n\r\x0b\x1c?张", "\u3000", "\xa0", "\u2028", "  ", "\n\n", "😀"]),
                     max_size=40).map("".join), cut=st.tuples(st.integers(0, 45), st.integers(0, 45)))
def test_view_floors_from_a_prefix_count_are_those_of_the_slice(text, cut):
    start, end = sorted(cut)
    start, end = min(start, len(text)), min(end, len(text))
    plain = (end - start) - sum(len(run) - 1 for run in re.findall(r"\s{2,}", text[start:end]))
    assert views._Floors(text).floor(start, end) == plain
    long = text + "x" * views._SHORT  # over the character codes
    assert views._Floors(long).floor(start, end) == plain


@settings(max_examples=500, deadline=None)
@given(text=st.lists(st.sampled_from([*CHINESE_NUMERALS[:6], "元", "a", " ", "叁拾陆万"]), max_size=20).map("".join))
def test_chinese_numeral_run_regex_matches_its_plain_form(text):
    plain = re.compile(f"[{CHINESE_NUMERALS}]{{3,}}")
    assert [m.span() for m in _CHINESE_NUMERAL_RUN.finditer(text)] == [m.span() for m in plain.finditer(text)]


_PLUS_PLAIN = re.compile(r"(?<==)[^\W\d_]+(?:\+[^\W\d_]+)+(?![\w+])")
_MRZ_FIELDS_PLAIN = re.compile(r"(?<![A-Z0-9<])([A-Z0-9<]{9})(\d)([A-Z<]{3})(\d{6})(\d)([MF<])(\d{6})(\d)")
# pieces of form values and of a passport's fields, run together and overlapping ("M8806149" after 20 more)
_FIELD_TEXT = st.lists(st.sampled_from(["NP7K42R9T2NLD8806149F3003194", "NP7K42R9T", "2NLD880614", "9F3003194", "M",
                                        "<", "F", "1234567", "٣", "=", "Lena", "+", "Hartmann", "é", " ", "_", "9"]),
                       max_size=16).map("".join)


def _mrz_dates(groups: list[str]) -> list[str]:
    """The zone's fields with its birth and expiry dates as the view gives them (ISO dates, `views._mrz_date`)."""
    groups[3], groups[6] = views._mrz_date(groups[3], past=True), views._mrz_date(groups[6], past=False)
    return groups


@settings(max_examples=2000, deadline=None)
@given(text=_FIELD_TEXT)
def test_form_values_and_passport_fields_found_from_their_cues_as_by_their_regexes(text):
    assert list(views._plus_spaces(text)) == [(m.start(), m.end(), m.group().replace("+", " "))
                                              for m in _PLUS_PLAIN.finditer(text)]
    fields = [(m.start(), m.end(), " ".join(_mrz_dates([g.strip("<") for g in m.groups()])))
              for m in _MRZ_FIELDS_PLAIN.finditer(text)]
    names = list(views._mrz(text))[:len(views._MRZ_NAMES.findall(text))]
    assert list(views._mrz(text)) == names + fields


@settings(max_examples=500, deadline=None)
@given(text=st.lists(st.sampled_from(["\\", "n", "r", "t", "x", " "]), max_size=16).map("".join))
def test_escaped_whitespace_regex_matches_its_plain_form(text):
    assert [m.span() for m in escapes._ESCAPED_SPACE.finditer(text)] == \
        [m.span() for m in re.finditer(r"\\+[nrt]", text)]


_OCR_PLAIN = re.compile(r"(?<![^\W_])[0-9OoIlSB]*(?:\d[OoIlSB]|[OoIlSB]\d)[0-9OoIlSB]*(?![^\W_])")


@settings(max_examples=1500, deadline=None)
@given(text=st.lists(st.sampled_from([*"0123456789OoIlSBxZ_ .-\né张٣", "٣O"]), max_size=30).map("".join))
def test_ocr_token_regex_matches_its_plain_form(text):
    assert [m.span() for m in ocr._TOKEN.finditer(text)] == [m.span() for m in _OCR_PLAIN.finditer(text)]


@settings(max_examples=2000, deadline=None)
@given(text=st.lists(st.sampled_from([*"0123456789OoIlSBxZ_ .-\né张٣", "13900112233", "l39OO"]), max_size=30)
       .map("".join))
def test_ocr_tokens_read_only_around_their_pairs_what_the_regex_finds(text):
    assert [m.span() for m in ocr._tokens(text)] == [m.span() for m in ocr._TOKEN.finditer(text)]


# the mask run regex with its "xx" alternative written lookbehind first, as it was until session 16
_MASK_RUN_PLAIN = re.compile(r"\*[*•●#]*|•[*•●#]*|●[*•●#]*|#[*•●#]*|x(?<=\dx)x+|(?<!x)xx++(?=[ -]?\d)"
                             r"|\.(?<=[0-9a-z]\.)\.\.(?=[0-9a-z])|x(?<=[\dx]\.x)(?![0-9a-z])"
                             r"|x(?<=[0-9a-f][:-]x)x(?=[:-]|$|[^0-9a-z])"
                             r"|x(?<![0-9a-z.]x)(?=\d{4,}(?![0-9a-z]))|\.(?<![0-9a-z.]\.)\.\.(?=\d{4,}(?![0-9a-z]))")


@settings(max_examples=2000, deadline=None)
@given(text=st.lists(st.sampled_from([*"*•●#x.:-09af ", "xx", "xxx", "...", "1234", "x9361", "ab"]), max_size=24)
       .map("".join))
def test_mask_run_regex_matches_its_plain_form(text):
    assert [m.span() for m in masked._MASK_RUN.finditer(text)] == [m.span() for m in _MASK_RUN_PLAIN.finditer(text)]


# Whole-text regexes and their plain forms, as they were until session 16 (a repeat or a case-insensitive literal
# first: nothing for the regex engine to skip ahead to), over texts of the characters each reads
_WHOLE_TEXT_PLAIN = {
    "markup": (lambda: markup._TAG,
               re.compile(r"(?:<|\\+u003c)/?(?:" + "|".join(sorted(markup._PHRASING, key=len, reverse=True))
                          + rf")(?:\s+{markup._STYLING})*\s*/?{markup._CLOSE}", re.I),
               ["<", ">", "\\", "\\\\", "u003c", "u003e", "/", "em", "EM", "b", " ", "class=", "\"", "'x'", "span", "x",
                "\\\\u003cem", "\\\\u003e", "</b>"]),
    "invisible": (invisible._format_run, re.compile(char_class(invisible._format_characters()) + "+"),
                  ["\u200b", "\u200d", "\xad", "\ufeff", "\u2062", "a", " ", "张", "\U000e0001"]),
    "quoted-printable": (lambda: qp._LATIN1_CHARSET,
                         re.compile(r"charset=\"?(?:iso-?8859-(?:1|15)|latin-?1|windows-1252|cp1252)\b", re.I),
                         ["charset=", "CHARSET=", "Charſet=", "\"", "iso-8859-1", "ISO8859-15", "latin1", "Latin-1",
                          "cp1252", "windows-1252", "5", "c", "x", " "]),
    "obfuscated e-mail cue": (lambda: views._AT_CUE, re.compile(r"at(?<=[\s\[({<]at)(?=[\s\])}>])", re.I),
                              ["at", "AT", "At", "aT", " ", "[", "]", "(", ")", "<", ">", "{", "}", "\n", "x", "a"]),
}


@settings(max_examples=500, deadline=None)
@given(data=st.data())
def test_whole_text_regexes_match_their_plain_forms(data):
    for name, (fast, plain, pieces) in _WHOLE_TEXT_PLAIN.items():
        text = data.draw(st.lists(st.sampled_from(pieces), max_size=24).map("".join), label=name)
        assert [m.span() for m in fast().finditer(text)] == [m.span() for m in plain.finditer(text)], name


def test_the_letters_written_as_classes_have_no_other_case_partner():
    """"a", "t" and "c" ignoring case match only themselves and their ASCII capitals (unlike "s", "k": "ſ", "K")."""
    for letter in "atc":
        found = [chr(c) for c in range(0x110000) if re.fullmatch(letter, chr(c), re.I)]
        assert found == [letter.upper(), letter]


_LINK_PLAIN = re.compile(r"(?:wa\.me/|whatsapp:|tel:|sms:)(?=\d{8,15}(?!\d))", re.IGNORECASE)


@settings(max_examples=1500, deadline=None)
@given(text=st.lists(st.sampled_from(["wa.me/", "WA.ME/", "whatsapp:", "Tel:", "sms:", "\u017fms:", "tel", "w", "s",
                                      "t", ":", "8613900112233", "139", "0", " "]), max_size=12).map("".join))
def test_glued_link_regex_matches_its_plain_form(text):
    assert [m.end() for m in glued._LINK.finditer(text)] == [m.end() for m in _LINK_PLAIN.finditer(text)]


def _glued_plain(form: glued.GluedNumbers, text: str) -> list[tuple[int, int, str]]:
    """The plain definition of the glued numbers' rewrite: each regex over the whole text, cues in its lower case."""
    out = []
    for m in re.finditer(r"[0-9]{6,}", text):
        if m.start() and text[m.start() - 1].isalpha():
            word = re.search(r"(?<![A-Za-z])[A-Za-z]+$", text[max(0, m.start() - 16):m.start()])
            if word and word.group().lower() in form._labels:
                out.append((m.start(), m.start(), " "))
    lower = text.lower().replace("\u017f", "s")  # ("ſ" is an "s" to IGNORECASE, as `_LINK` and `_CHAT_AT` read it)
    if any(scheme in lower for scheme in ("wa.me/", "whatsapp:", "tel:", "sms:")):
        out += [(m.end(), m.end(), "+") for m in _LINK_PLAIN.finditer(text)]
    if any(domain in lower for domain in ("@s.whatsapp.net", "@c.us")):
        out += [(m.start(), m.start(), "+") for m in glued._JID.finditer(text)
                if not m.start() or not (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_+")]
    return out


@settings(max_examples=2000, deadline=None)
@given(text=st.lists(st.sampled_from(["wa.me/", "WA.ME/", "whatsapp:", "Tel:", "sms:", "\u017fms:", "tel", "s", ":",
                                      "8613900112233", "13900112233445566", "139", "0", "@s.whatsapp.net", "@C.US",
                                      "@c.uſ", "@c.usx", "x", "İ", "_", "+", " ", "phone", "PHONE", "é"]),
                     max_size=14).map("".join))
def test_glued_numbers_read_only_their_cues_what_their_regexes_find(text):
    form = object.__new__(glued.GluedNumbers)
    form._labels = frozenset({"phone", "tel"})
    assert list(form.rewrite(text)) == _glued_plain(form, text)


_SPOKEN = st.lists(st.sampled_from([*ENGLISH_DIGITS, " ", ", ", "-", " - ", "x", "a", "9", "one two", "phone"]),
                   max_size=30).map("".join)


@settings(max_examples=500, deadline=None)
@given(text=_SPOKEN)
def test_english_digit_runs_start_where_the_automaton_sees_a_pair(text):
    """Trying the run regex only at the pairs' starts finds every run a pass over the whole text finds."""
    index = PatternIndex()
    for pair in DIGIT_WORD_PAIRS:
        index.add(pair, "pair", 0)
    view = TextView.of(text)
    starts = sorted({start for start, _, _ in index.build().matches(view.text).get("pair", ())})
    assert [m.span() for m in _runs_at(_ENGLISH_DIGIT_RUN, view.text, starts)] == \
        [m.span() for m in _ENGLISH_DIGIT_RUN.finditer(view.text)]


def test_base64_of_text_spaced_by_typography_is_text():
    """A payslip's `486 000 €` (narrow no-break space) and an IBAN in groups of four (no-break spaces)."""
    text = "salary 486\u202f000 €, IBAN DE89\u00a03704\u00a00044"
    assert views.base64_text(base64.b64encode(text.encode()).decode()) == text


def test_base64_of_saved_terminal_output_is_text():
    text = "customers.txt:phone: 139\x1b[01;31m\x1b[K22883366\x1b[m\x1b[K\n"
    assert views.base64_text(base64.b64encode(text.encode()).decode()) == text


def test_base64_of_a_text_file_with_a_page_break_or_latin1_mojibake_is_text():
    """A form feed between pages, Latin-1 mojibake's C1 controls (`欧阳` read as Latin-1 holds `\x98`): one
    control character must not make a whole file unread (guard walk 8's document cells)."""
    page_break = "Patient: Lena Hartmann\nphone +49 30 1234567\n\f\nPage 2: allergies none\n"
    mojibake = "客户 欧阳娜娜 电话 13922883366 地址 上海".encode().decode("latin-1")
    for text in (page_break, mojibake):
        assert views.base64_text(base64.b64encode(text.encode()).decode()) == text


def test_base64_of_binary_stays_unread_however_long():
    """A NUL, or control characters past half (packed integers), mark bytes that are no text (UTF-16 text is read
    as text: `test_base64_of_utf16_text_is_read`)."""
    for raw in (b"Lena Hartmann, +49 30 1234567\x00 and more text", bytes(range(1, 32)) * 2 + b"Lena",
                bytes(range(1, 32)) * 2 + "Lena".encode("utf-16-le")):
        assert views.base64_text(base64.b64encode(raw).decode()) is None


def test_base64_of_utf16_text_is_read():
    """Windows PowerShell's files (UTF-16LE after a byte order mark, or big-endian) and `-EncodedCommand` scripts
    (UTF-16LE, no mark, mostly ASCII) are text; bytes that only decode as UTF-16 to scattered CJK are not."""
    text = "Lena Hartmann 13922883366 欧阳娜娜"
    for raw in (b"\xff\xfe" + text.encode("utf-16-le"), b"\xfe\xff" + text.encode("utf-16-be"),
                text.encode("utf-16-le")):
        assert views.base64_text(base64.b64encode(raw).decode()) == text
    assert views.base64_text(base64.b64encode("欧阳娜娜欧阳娜娜".encode("utf-16-le")).decode()) is None


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(["𩀨", "𨂐", "𠁞", "𠆿", "a", " ", "\n", "的", "中文", "𠀾"]), min_size=1,
                     max_size=12).map("".join), long=st.booleans())
def test_a_text_whose_only_traditional_characters_are_astral_is_simplified(text, long):
    """CJK Extension B characters t2s changes alone (`𠁞` → `𠀾`) are Traditional characters too: a text holding
    no other one is converted as OpenCC converts it whole (it was left as it was)."""
    text = "a" * views._SHORT + text if long else text
    assert views.to_simplified(text) == views._converter().convert(text)


def test_a_base64_hint_in_full_width_is_read_in_a_traditional_text_as_in_a_simplified_one():
    """The decoders' gates read the text view's fold whether or not the text holds Traditional characters: a
    hint written in full-width letters (`ｔｏｋｅｎ`) calls for the base64 decoder in both."""
    units = read_units(Path(__file__).parent / "data" / "leaks-handwritten" / "units.jsonl")
    number = next(k for k, unit in enumerate(units) if unit.value == "330106199007231428")
    token = base64.b64encode(b"330106199007231428").decode()  # no "=": the padding is a hint of its own
    cascade = Cascade(units)
    for words in ("这个", "這個"):  # Simplified; Traditional
        text = f"{words} ｔｏｋｅｎ：{token} 结束"
        start = text.index(token)
        assert (start, start + len(token)) in {(h.start, h.end) for h in cascade.scan_text(text)
                                               if h.unit_index == number}, words

