"""The views a text is read in: the text view, and the views derived from it where a reader recovers a
value trivially — decoded (URL percent-encoding and form "+" spaces, HTML entities, JSON `\\uXXXX` escapes, base64 and
base64url, hex, e-mail addresses written `name [at] example [dot] org`) and Traditional Chinese folded
to Simplified with OpenCC. Every view maps its offsets back to the original characters, so evidence
points at what the text really holds (the encoded characters of a decoded value).

A derived view exists only where the text calls for it: each has a check that costs a C-level string
search, so texts without encodings or Traditional characters pay next to nothing. Where every tier's reach
is bounded (`forms.Form.reach`), a derived view is read only in windows around what derivation changed
(`WindowedView`): away from its changes it reads as the text itself, whose hits the text view has already.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import datetime
import html
import re
import subprocess
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ec2audit.detect.compiled import PLACEHOLDER_LONGEST, cached_table
from ec2audit.detect.normalize import TextView, _class_of, prepare_folding
from ec2audit.detect.patterns import Match

if TYPE_CHECKING:
    import numpy as np

#: (start, end, replacement) of a span a reader reads as the replacement
Replacement = tuple[int, int, str]
#: A form's rewrite of a text (`forms.Form.rewrite`)
Rewriter = Callable[[str], Iterable[Replacement]]


class ScanView(NamedTuple):
    """One view of a text and the shared automaton's matches in it, grouped by kind."""

    view: TextView
    matches: dict[str, list[Match]]


class _Rewrite:
    """Map from a rewritten string back to its source: each replaced span maps to the whole source span."""

    def __init__(self, spans: list[tuple[int, int, int, int]]):
        """`spans`: (new start, new end, source start, source end) of each replacement, in order."""
        self.new_starts = [s[0] for s in spans]
        self.source_starts = [s[2] for s in spans]
        self.spans = spans

    def _at(self, i: int, edge: int) -> int:
        """Source start of the character at `i` (edge 0), or source end (edge 1)."""
        k = bisect.bisect_right(self.new_starts, i) - 1
        if k < 0:
            return i + edge
        _, new_end, src_start, src_end = self.spans[k]
        if i < new_end:
            return (src_start, src_end)[edge]
        return src_end + (i - new_end) + edge

    def to_source(self, start: int, end: int) -> tuple[int, int]:
        return self._at(start, 0), self._at(max(start, end - 1), 1)

    def to_derived(self, i: int) -> int:
        """The rewritten string's offset of source offset `i` (a replaced span's start inside it)."""
        k = bisect.bisect_right(self.source_starts, i) - 1
        if k < 0:
            return i
        new_start, new_end, _, src_end = self.spans[k]
        return new_start if i < src_end else new_end + i - src_end


def _rewrite(text: str, replacements: list[tuple[int, int, str]]) -> tuple[str, _Rewrite]:
    """`text` with non-overlapping (start, end, replacement) spans replaced, and the map back. Of two that start
    together the longer wins: it reads the larger token (a tag written `\\u003cem\\u003e`, not its `\\u003c`)."""
    parts, spans, last, length = [], [], 0, 0
    for start, end, new in sorted(replacements, key=lambda r: (r[0], -r[1])):
        if start < last:
            continue
        parts.append(text[last:start])
        length += start - last
        parts.append(new)
        spans.append((length, length + len(new), start, end))
        length += len(new)
        last = end
    parts.append(text[last:])
    return "".join(parts), _Rewrite(spans)


@dataclass
class RewrittenView(TextView):
    """The text view of a rewritten text (decoded, de-obfuscated), mapping offsets to the original."""

    rewrite: _Rewrite = field(default_factory=lambda: _Rewrite([]), repr=False)
    source: str = field(default="", repr=False)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        s, e = super().to_original(start, end)
        s, e = self.rewrite.to_source(s, e)
        return s, min(e, len(self.source))


# --- decoders: each finds its candidates in the original text and returns (start, end, decoded) --------
# Every decoder regex starts with a character, not a group or a lookbehind (a lookbehind comes after the
# first character): the regex engine then skips ahead to candidates in C, 2-30× faster on long texts, with
# the same matches (tests/test_detect_views.py compares each with its plain form).

_PERCENT_RUN = re.compile(r"%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2})*")  # (?:%[0-9A-Fa-f]{2})+
_ENTITY = re.compile(r"&(?:#\d{2,7}|#[xX][0-9A-Fa-f]{2,6}|[A-Za-z]{2,8});")
# \uXXXX, and YAML's (Python's, C's) \UXXXXXXXX for a character outside the BMP
_U_ESCAPES = re.compile(r"\\\\*(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})(?:\\+(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}))*")
_X_ESCAPES = re.compile(r"\\x[0-9A-Fa-f]{2}(?:\\x[0-9A-Fa-f]{2})*")  # (?:\\x[0-9A-Fa-f]{2})+
# three-digit octal escapes of bytes, as git quotes a path (core.quotePath): a run holding a UTF-8 lead byte
_OCTAL_ESCAPES = re.compile(r"\\[0-3][0-7]{2}(?:\\[0-3][0-7]{2})*")  # (?:\\[0-3][0-7]{2})+
# base64 / base64url tokens of at least 8 characters holding a digit or a base64-only character:
# (?<![\w+/-])(?=[\w+/-]*[\d+/])[A-Za-z0-9+/_-]{8,}={0,2}(?![\w+/=-])
_BASE64 = re.compile(r"[A-Za-z0-9+/_-](?<![\w+/-][A-Za-z0-9+/_-])(?:(?<=[0-9+/])|(?=[\w+/-]*[\d+/]))"
                     r"[A-Za-z0-9+/_-]{7,}={0,2}(?![\w+/=-])")
# (?<![0-9A-Za-z])(?:[0-9A-Fa-f]{2}){6,}(?![0-9A-Za-z])
_HEX = re.compile(r"[0-9A-Fa-f](?<![0-9A-Za-z][0-9A-Fa-f])[0-9A-Fa-f](?:[0-9A-Fa-f]{2}){5,}(?![0-9A-Za-z])")
#: eyJ: base64 of '{"'; -enc: PowerShell's -EncodedCommand (a script as base64 of its UTF-16LE)
_HINTS_B64 = ("basic ", "bearer ", "base64", "data:", "secret", "token", "=", "eyj", "-enc")
_HINTS_HEX = ("hex", "0x")


def _printable(decoded: str) -> bool:
    """Text, not bytes that happened to decode: printable characters, line ends as files have them (a CSV
    file's `\\r\\n`), the escape that starts a terminal's colour codes and the backspace of its overstrike (saved
    terminal output, a man page), format characters
    (zero-width spaces and joiners inside words) and the spaces typography puts between groups (no-break and
    narrow no-break spaces: `486\\u202f000`, an IBAN's groups)."""
    return bool(decoded) and (decoded.isprintable() or all(
        ch.isprintable() or ch in "\n\r\t\x1b\x08" or unicodedata.category(ch) in ("Cf", "Zs") for ch in decoded))


def _percent(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _PERCENT_RUN.finditer(text):
        decoded = _percent_text(bytes.fromhex(m.group().replace("%", "")))
        if decoded and _printable(decoded):
            yield m.start(), m.end(), decoded


def _percent_text(raw: bytes) -> str | None:
    """A percent run's bytes as UTF-8, or else as GB18030 (GBK's superset: `quote(name, encoding="gbk")`, a Chinese
    site's form posted, a Baidu link's `wd=`) where every character it reads outside ASCII is a Han character:
    other bytes that are no UTF-8 read as GB18030 scatter into symbols and letters of other scripts."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        decoded = raw.decode("gb18030")
    except UnicodeDecodeError:
        return None
    return decoded if all(ch.isascii() or "\u4e00" <= ch <= "\u9fff" for ch in decoded) else None


# a form-encoded value of words ("name=Lena+Hartmann"): "+" is a space there. The value is the group after
# the "=" ((?<==)[^\W\d_]+(?:\+[^\W\d_]+)+(?![\w+])), which the regex engine skips ahead to in C: 8 MB 0.056 → 0.007 s
_PLUS_WORDS = re.compile(r"=([^\W\d_]+(?:\+[^\W\d_]+)+)(?![\w+])")


def _plus_spaces(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _PLUS_WORDS.finditer(text):
        yield m.start(1), m.end(1), m.group(1).replace("+", " ")


def _entities(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _ENTITY.finditer(text):
        decoded = html.unescape(m.group())
        if decoded != m.group():
            yield m.start(), m.end(), decoded


def _u_escapes(text: str) -> Iterator[tuple[int, int, str]]:
    """`\\u5ba2` (any number of backslashes: a JSON string serialised twice), surrogate pairs joined, and
    `\\U0001F4DE`."""
    for m in _U_ESCAPES.finditer(text):
        units = [int(h, 16) for h in re.findall(r"[uU]([0-9A-Fa-f]{8}|[0-9A-Fa-f]{4})", m.group())]
        if any(u > 0x10FFFF for u in units):
            continue
        decoded = "".join(map(chr, units)).encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        if all(unicodedata.category(ch) == "Cf" for ch in decoded):  # `1\u200b3…` (Python's repr): shows as nothing
            yield m.start(), m.end(), ""
        elif _printable(decoded):
            yield m.start(), m.end(), decoded


#: From this many characters, bytes that decode as UTF-8 are a text file despite a few control characters.
_TEXT_FILE = 32


def _bytes_text(raw: bytes) -> str | None:
    """Decoded bytes that are text: printable throughout, or, from `_TEXT_FILE` characters, a file whose control
    characters are at most half of it and none a NUL. Real text files carry a form feed (a page break), a
    vertical tab or the C1 controls of Latin-1 mojibake (`\x98` in `æ¬§`); one of them must not hide the
    whole file. Strict UTF-8 over that many bytes already rules out random bytes; a NUL marks binary (as git
    reads it), and so do controls past half (packed integers), unless the bytes are UTF-16 text (`utf16_text`)."""
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return utf16_text(raw)
    if len(decoded) < 4:
        return None
    if _printable(decoded):
        return decoded
    if len(decoded) < _TEXT_FILE or "\x00" in decoded:
        return utf16_text(raw)
    controls = sum(1 for ch in decoded if unicodedata.category(ch) == "Cc" and ch not in "\n\r\t\x1b\x08")
    return decoded if 2 * controls <= len(decoded) else None


def utf16_text(raw: bytes, marked: bool = False) -> str | None:
    """Bytes that are UTF-16 text: Windows PowerShell's `Out-File` and `>` write UTF-16LE after a byte order mark,
    and `-EncodedCommand` takes a script's UTF-16LE base64 without one (read then only where half its characters or
    more are ASCII, as a script's are: random bytes decode to scattered CJK), unless what holds the bytes is `marked`
    as text's (SQL Server's `0x…` of an `nvarchar`: a Chinese name is no ASCII at all)."""
    bom = raw[:2] in (b"\xff\xfe", b"\xfe\xff")
    if len(raw) % 2 or len(raw) < 8 or not (bom or marked or raw[1::2].count(0) * 2 >= len(raw) // 2):
        return None
    try:
        decoded = raw.decode("utf-16" if bom else "utf-16-le")
    except UnicodeDecodeError:
        return None
    return decoded if _printable(decoded) else None


def _x_escapes(text: str) -> Iterator[tuple[int, int, str]]:
    """`\\xNN` runs: UTF-8 bytes (Python's repr of bytes, `b'Jos\\xc3\\xa9'`: a run of ASCII is text from four
    characters), or else code points below 256 where they are letters (YAML's double-quoted scalars and
    Python's repr of a str: `"Jos\\xE9"`)."""
    for m in _X_ESCAPES.finditer(text):
        raw = bytes.fromhex(m.group().replace("\\x", ""))
        try:
            decoded = raw.decode("utf-8")
            text_like = _printable(decoded) and (len(decoded) >= 4 or not decoded.isascii())
        except UnicodeDecodeError:
            decoded = raw.decode("latin-1")  # (not ASCII: a byte of 128 or more is what UTF-8 refused)
            text_like = decoded.isalpha()
        if text_like:
            yield m.start(), m.end(), decoded


def _octal_escapes(text: str) -> Iterator[tuple[int, int, str]]:
    """`"customers/\\346\\254\\247.pdf"`: git's quoting of a path's bytes outside ASCII, read as UTF-8."""
    for m in _OCTAL_ESCAPES.finditer(text):
        try:
            decoded = bytes(int(o, 8) for o in m.group().split("\\")[1:]).decode("utf-8")
        except UnicodeDecodeError:
            continue
        if not decoded.isascii() and _printable(decoded):
            yield m.start(), m.end(), decoded


_BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-"
_HEX_DIGITS = "0123456789ABCDEFabcdef"
_ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _base64(text: str, least: int = 8) -> Iterator[tuple[int, int, str]]:
    """A token is a whole run of the alphabet holding a digit, "+" or "/" (`_BASE64`'s lookarounds): only such
    runs are matched and decoded (8 MB of the dense payload: 0.35 → 0.1 s). A run one longer than a multiple of
    four is no token's base64 ("=" is no character of the run), and tokens repeat in agent traffic (the 8 MB
    payload: 43,407 runs, 783 distinct tokens): each short one is decoded once (`_short_token_text`). A run that is
    no text whole may be a label joined to a token by "-" or "_" (`user-<base64url>`, an id's prefix): the run after
    each of its first such characters is tried too."""
    for start, end in ascii_runs(text, _BASE64_ALPHABET, least, holding="0123456789+/"):
        labelled = "-" in text[start:start + _LABEL] or "_" in text[start:start + _LABEL]
        if (end - start) % 4 == 1 and not labelled:
            continue
        m = _BASE64.match(text, start, min(len(text), end + 3))  # "==" and the character after them
        if not m:
            continue
        run = m.group()
        for at in [0, *[k + 1 for k, ch in enumerate(run[:_LABEL]) if ch in "-_"][:3]] if labelled else [0]:
            token = run[at:]
            decoded = _short_token_text(token) if len(token) <= _SHORT_TOKEN else base64_text(token)
            if decoded:
                yield m.start() + at, m.end(), decoded
                break


#: A token with no hint about it (no `=` padding: a third of all base64, and base64url as Node and Go write it) is
#: read from this many characters (15 bytes): a shorter run is more often a word or an id than text in base64
_UNHINTED_LEAST = 20
_LABEL = 24  # characters at a run's start where a label may end


def _long_base64(text: str) -> Iterator[tuple[int, int, str]]:
    return _base64(text, _UNHINTED_LEAST)


_SHORT_TOKEN = 128  # characters: tokens up to this long are remembered, at most 4,096 of them (≤ 1 MB)


def base64_text(token: str) -> str | None:
    """The text a base64 or base64url token (padding optional) encodes; None where it encodes no text."""
    token = token.rstrip("=")
    if len(token) % 4 == 1:
        return None
    try:
        raw = base64.b64decode(token.replace("-", "+").replace("_", "/") + "=" * (-len(token) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    return _bytes_text(raw)


@lru_cache(maxsize=4096)
def _short_token_text(token: str) -> str | None:
    return base64_text(token)


def _hex(text: str) -> Iterator[tuple[int, int, str]]:
    """`_HEX` matches exactly the runs of letters and digits that are hex digits only, of an even length of at
    least 12: they are found in C and decoded (8 MB of the dense payload, nothing decoded: 0.08 → 0.01 s)."""
    for start, end in ascii_runs(text, _HEX_DIGITS, 12, apart=_ALPHANUMERIC):
        if (end - start) % 2 == 0:
            decoded = _bytes_text(bytes.fromhex(text[start:end]))
            if decoded and any(ch.isalpha() for ch in decoded):
                yield start, end, decoded


_last_codes: tuple[str, np.ndarray] | None = None  # the last text runs were read in, and its `_codes`


def _codes(text: str) -> np.ndarray:
    """`text`'s characters as uint8 codes, "?" for every non-ASCII one (no table holds "?"), encoded in C (kept
    for the next decoder of the text; through UTF-32 it took 0.03–0.1 s for 8 MB, 0.006 s so)."""
    import numpy as np  # on the first long text: imported with the module, it added 11 MB to an audit's peak

    global _last_codes
    last = _last_codes
    if last is not None and last[0] is text:
        return last[1]
    codes = np.frombuffer(text.encode("ascii", "replace"), dtype=np.uint8)
    _last_codes = (text, codes)
    return codes


def _table(chars: str) -> np.ndarray:
    import numpy as np

    if "?" in chars:
        raise ValueError("'?' stands for every non-ASCII character in the codes: no table may hold it")
    table = np.zeros(128, dtype=bool)
    table[[ord(c) for c in chars]] = True
    return table


_SHORT = 4096  # characters below which one regex pass costs less than numpy's fixed cost a call


def ascii_runs(text: str, members: str, least: int, holding: str = "", apart: str = "") -> list[tuple[int, int]]:
    """The (start, end) of each maximal run of the ASCII characters `members` in `text`, at least `least` long,
    holding one of `holding` (where given), with no character of `apart` next to it (where given), found over
    the text's character codes in C: a decoder's cue found without a Python step a character (a short text:
    by a regex, the same runs)."""
    if len(text) < _SHORT:
        return _runs_by_regex(text, members, least, holding, apart)
    return _runs_by_codes(text, members, least, holding, apart)


@cache
def _class(chars: str, least: int = 1) -> re.Pattern:
    return re.compile(f"[{re.escape(chars)}]" + ("" if least == 1 else f"{{{least},}}"))


def _runs_by_regex(text: str, members: str, least: int, holding: str, apart: str) -> list[tuple[int, int]]:
    runs = []
    for m in _class(members, least).finditer(text):
        start, end = m.span()
        if holding and not _class(holding).search(text, start, end):
            continue
        if apart and ((start and text[start - 1] in apart) or (end < len(text) and text[end] in apart)):
            continue
        runs.append((start, end))
    return runs


def _runs_by_codes(text: str, members: str, least: int, holding: str, apart: str) -> list[tuple[int, int]]:
    import numpy as np

    codes = _codes(text)
    inside = np.zeros(len(codes) + 2, dtype=bool)
    inside[1:-1] = _table(members)[codes]
    edges = np.flatnonzero(inside[1:] != inside[:-1])
    starts, ends = edges[::2], edges[1::2]
    keep = ends - starts >= least
    starts, ends = starts[keep], ends[keep]
    if holding:
        starts, ends = _with_one(codes, holding, starts, ends)
    if apart:
        table = _table(apart)
        keep = ~table[codes[np.maximum(starts - 1, 0)]] | (starts == 0)
        keep &= ~table[codes[np.minimum(ends, len(codes) - 1)]] | (ends == len(codes))
        starts, ends = starts[keep], ends[keep]
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


def _with_one(codes: np.ndarray, chars: str, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The runs that hold one of `chars`."""
    import numpy as np

    where = np.flatnonzero(_table(chars)[codes])
    k = np.searchsorted(where, starts)
    keep = k < len(where)
    keep[keep] = where[k[keep]] < ends[keep]
    return starts[keep], ends[keep]


_AT = r"(?:\s*(?:\[at\]|\(at\)|\{at\}|<at>)\s*|\s+at\s+)"
# (a dot defanged in brackets, `(.)`, is one too: forms/defanged.py reads it where no "at" word is near)
_DOT = r"(?:\s*(?:\[dot\]|\(dot\)|\{dot\}|<dot>|\[\.\]|\(\.\)|\{\.\})\s*|\s+dot\s+|\.)"
# Words are read whole (`++`) and a match starts where a word does, or at a "+" right after a word character,
# where the previous match may have ended ("a at b.c+d at e.f"): the same matches as trying every position,
# in linear time (3.5 MB of the dense corpus: 1.6 s → 0.27 s).
_OBFUSCATED_EMAIL = re.compile(rf"(?:(?<![\w+-])|(?<=[\w-])(?=\+))([\w+-]++(?:{_DOT}[\w+-]++)*){_AT}"
                               rf"([\w-]++(?:{_DOT}[\w-]++)+)", re.IGNORECASE)
_DOT_WORD = re.compile(_DOT, re.IGNORECASE)
# Every match holds an "at" between brackets or whitespace, and no character outside this class: the regex runs
# only over the runs without such a barrier that hold such an "at" (1 MB of the dense payload: 0.085 → 0.011 s).
# Its letters are classes, not a case-insensitive literal, which gives the regex engine nothing to skip ahead to
# in C (no other character matches "a" or "t" ignoring case; 8 MB: 0.055 → 0.032 s)
_AT_CUE = re.compile(r"[aA][tT](?<=[\s\[({<][aA][tT])(?=[\s\])}>])")
_EMAIL_BARRIER = re.compile(r"[^\w\s+\-.\[\](){}<>]")


def _barrier_free(text: str, pos: int, floor: int) -> tuple[int, int]:
    """The run around `pos` without a barrier character, searched back no further than `floor`."""
    end, lo = pos, floor
    while end > floor:
        start = max(floor, end - 256)
        ends = [m.end() for m in _EMAIL_BARRIER.finditer(text, start, end)]
        if ends:
            lo = ends[-1]
            break
        end = start
    barrier = _EMAIL_BARRIER.search(text, pos)
    return lo, barrier.start() if barrier else len(text)


def _obfuscated_emails(text: str) -> Iterator[tuple[int, int, str]]:
    """`ann.lee77 [at] example [dot] org`, `ann dot lee at example dot org`, `(at)` → the address."""
    hi = 0
    for cue in _AT_CUE.finditer(text):
        if cue.start() < hi:
            continue
        lo, hi = _barrier_free(text, cue.start(), hi)
        for m in _OBFUSCATED_EMAIL.finditer(text, lo, hi):
            yield m.start(), m.end(), f"{_DOT_WORD.sub('.', m.group(1))}@{_DOT_WORD.sub('.', m.group(2))}"


# Machine-readable passport zone (ICAO 9303, TD3): names "P<NLDVAN<DER<MEULEN<<SOPHIE<<<", and the second line's
# fields run together "NP7K42R9T2NLD8806149F3003194<<<" (number, check digit, nationality, birth date, …)
_MRZ_NAMES = re.compile(r"P(?<![A-Z0-9<]P)[A-Z<]([A-Z<]{3})([A-Z]+(?:<[A-Z]+)*)<<([A-Z]+(?:<[A-Z]+)*)<*")
_MRZ_FIELDS = re.compile(r"([A-Z0-9<](?<![A-Z0-9<][A-Z0-9<])[A-Z0-9<]{8})(\d)([A-Z<]{3})(\d{6})(\d)([MF<])(\d{6})(\d)")
# the sex of the fields and the 7 digits after it: a cue the regex engine skips ahead to in C (8 MB 0.052 → 0.018 s)
_MRZ_SEX = re.compile(r"[MF<](?=\d{7})")
_MRZ_BEFORE_SEX = 20


def _mrz(text: str) -> Iterator[tuple[int, int, str]]:
    """The names ("van der meulen, sophie") and fields of a passport's machine-readable zone, its dates as ISO dates
    (`871224` as 1987-12-24)."""
    for m in _MRZ_NAMES.finditer(text):
        yield m.start(), m.end(), f"P {m.group(1)} {m.group(2).replace('<', ' ')}, {m.group(3).replace('<', ' ')}"
    floor = 0
    for sex in _MRZ_SEX.finditer(text):  # the fields' fixed widths put their start 20 characters before it
        start = sex.start() - _MRZ_BEFORE_SEX
        fields = _MRZ_FIELDS.match(text, start) if start >= floor else None
        if fields:
            floor = fields.end()
            groups = [g.strip("<") for g in fields.groups()]
            groups[3], groups[6] = _mrz_date(groups[3], past=True), _mrz_date(groups[6], past=False)
            yield start, floor, " ".join(groups)


def _mrz_date(yymmdd: str, past: bool) -> str:
    """A date of the zone, its year of two digits read as a birth in the last hundred years (`past`) or an expiry
    from 2000 on; as written where it is no date."""
    year = 2000 + int(yymmdd[:2])
    if past and year > datetime.date.today().year:
        year -= 100
    try:
        return datetime.date(year, int(yymmdd[2:4]), int(yymmdd[4:])).isoformat()
    except ValueError:
        return yymmdd


def _decoders(text: str, lower: str) -> list[Rewriter]:
    """The decoders a text calls for, found with plain substring checks (`lower`: its folded view, or its lower case
    where no fold is at hand)."""
    out: list[Rewriter] = []
    if "%" in text:
        out.append(_percent)
    if "+" in text and "=" in text:
        out.append(_plus_spaces)
    if "&" in text and ";" in text:
        out.append(_entities)
    if "\\u" in lower:
        out.append(_u_escapes)
    if "\\x" in lower:
        out.append(_x_escapes)
    if "\\3" in text:  # a UTF-8 lead byte (0xC2-0xF4) in octal
        out.append(_octal_escapes)
    out.append(_base64 if any(h in lower for h in _HINTS_B64) else _long_base64)
    if any(h in lower for h in _HINTS_HEX):
        out.append(_hex)
    if "<<" in text:
        out.append(_mrz)
    if "at]" in lower or "at)" in lower or "at}" in lower or "at>" in lower or (" at " in lower and " dot " in lower):
        out.append(_obfuscated_emails)
    return out


#: How many encodings deep a decoded token is read (tool output nests them: base64 of JSON text whose
#: non-ASCII characters are `\\u` escapes is two; a file part's data URL of such a blob, three).
NESTED = 3


def decoded_text(text: str, folded: str | None = None, rewriters: Sequence[Rewriter] = (),
                 inner: Sequence[Rewriter] = (), depth: int = NESTED) -> tuple[str, _Rewrite] | None:
    """The text with every encoded or obfuscated token decoded and the forms' `rewriters` applied, and the map
    back, or None when nothing changes. Where replacements overlap, the earliest (then the longest) wins.

    What a token decodes to is read the same way again, `depth` levels deep, with the `inner` rewriters
    (the text view's cues say nothing of what is encoded): the decoded span maps back to the whole token.
    `folded`: the fold of the text (or of the text it was Simplified from) that the decoders' gates read."""
    replacements = [(start, end, _inner(decoded, inner, depth)) for decoder in _decoders(text, folded or text.lower())
                    for start, end, decoded in decoder(text)]
    # a form's rewrite of lines (a numbered listing without its gutters) is read again as a decoded token is
    replacements += [(start, end, _inner(rewritten, inner, depth) if "\n" in rewritten else rewritten)
                     for rewrite in rewriters for start, end, rewritten in rewrite(text)]
    return _rewrite(text, replacements) if replacements else None


def _inner(decoded: str, rewriters: Sequence[Rewriter], depth: int) -> str:
    """A decoded token's text with what is encoded inside it decoded too, and the forms' rewrites made. Most
    tokens decode to a character or two (`%20`, `&lt;`, `\\u00e9`), which hold nothing to read inside (the
    least is a character, an invisible one, a character): they are taken as they are."""
    again = decoded_text(decoded, None, rewriters, rewriters, depth - 1) if depth > 1 and len(decoded) > 2 else None
    return decoded if again is None else again[0]


def _rewritten_view(rewritten: str, back: _Rewrite, source: str) -> RewrittenView:
    view = RewrittenView.of(rewritten)
    view.rewrite, view.source = back, source
    return view


def decoded_view(text: str, folded: str | None = None, rewriters: Sequence[Rewriter] = (),
                 inner: Sequence[Rewriter] = ()) -> RewrittenView | None:
    """The text view of `decoded_text`, or None when nothing changes."""
    decoded = decoded_text(text, folded, rewriters, inner)
    return None if decoded is None else _rewritten_view(*decoded, text)


# --- Traditional → Simplified ----------------------------------------------------------------------

@cache
def _converter():
    import opencc  # a C++ library: loaded on the first text with Traditional characters

    return opencc.OpenCC("t2s")


@cache
def _traditional() -> re.Pattern:
    """The characters of the BMP's CJK blocks that OpenCC's t2s changes (`_t2s_tables`)."""
    return re.compile(f"[{_t2s_tables()['traditional']}]")


@cache
def _t2s_tables() -> dict[str, Any]:
    """What OpenCC's t2s can change, as `_segments` and `_changes` read it: its dictionaries' keys (`phrases`,
    `characters`), the characters of the BMP's CJK blocks it changes (`traditional`) and the code points of
    `characters` it changes alone (`alone`). Read from OpenCC once (0.04 s of CPU, two `opencc_dict` processes and
    loading the converter: ~0.1 s) and cached (`compiled.cached_table`): a later process reads a file, and loads
    OpenCC only to convert a text that holds a Traditional character."""
    return cached_table("opencc-t2s", _read_t2s_tables, _t2s_shape)


_T2S_FIELDS = {"phrases": list, "characters": list, "traditional": str, "alone": list}


def _t2s_shape(table: Any) -> bool:
    return isinstance(table, dict) and table.keys() == _T2S_FIELDS.keys() and all(
        isinstance(table[name], kind) for name, kind in _T2S_FIELDS.items())


def _read_t2s_tables() -> dict[str, Any]:
    phrases, characters = _dictionary_keys("TSPhrases"), _dictionary_keys("TSCharacters")
    blocks = [chr(c) for c in range(0x3400, 0xA000)] + [chr(c) for c in range(0xF900, 0xFB00)]
    converted = _converter().convert("\n".join(blocks)).split("\n")
    traditional = "".join(a for a, b in zip(blocks, converted, strict=True) if a != b)
    converted = _converter().convert("\n".join(characters)).split("\n")
    alone = sorted({ord(a) for a, b in zip(characters, converted, strict=True) if a != b})
    return {"phrases": phrases, "characters": characters, "traditional": traditional, "alone": alone}


def _dictionary_keys(name: str) -> list[str]:
    """The keys of one of OpenCC's dictionaries, listed by the package's own `opencc_dict`."""
    import opencc

    clib = Path(opencc.__file__).parent / "clib"
    with tempfile.TemporaryDirectory() as folder:
        listing = Path(folder) / "keys.txt"
        subprocess.run([str(clib / "bin" / "opencc_dict"), "-i", str(clib / "share" / "opencc" / f"{name}.ocd2"),
                        "-o", str(listing), "-f", "ocd2", "-t", "text"], check=True, capture_output=True)
        return [line.split("\t", 1)[0] for line in listing.read_text(encoding="utf-8").splitlines() if line]


class _Segments(NamedTuple):
    cue: re.Pattern  # a character that may start a change
    keyed: frozenset[str]  # the characters of any dictionary key
    unkeyed: re.Pattern  # a character of none


@cache
def _segments() -> _Segments:
    """What OpenCC's t2s can change. Its longest-match segmentation cuts a text into dictionary keys (`TSPhrases`,
    278 phrases, and `TSCharacters`) and single characters outside them, so: a character in no key is a segment
    of its own, and segmentation restarts after it; a run of keyed characters without a character that changes
    alone or starts a phrase converts to itself."""
    tables = _t2s_tables()
    phrases, characters = tables["phrases"], tables["characters"]
    changed = _traditional().pattern[1:-1]
    keyed = frozenset("".join(phrases) + "".join(characters) + changed + "".join(_changes().astral))
    # (any astral character may start a change: a class of the BMP's characters and one range the regex engine
    # tests in C; the 354 astral ones t2s changes as single characters make it test each in turn, 100x slower)
    return _Segments(re.compile(f"[{changed}{''.join(sorted({p[0] for p in phrases}))}{_ASTRAL}]"), keyed,
                     re.compile(f"[^{re.escape(''.join(sorted(keyed)))}]"))


_ASTRAL = "\U00010000-\U0010ffff"
_ASTRAL_CHARACTER = re.compile(f"[{_ASTRAL}]")


def _holds_traditional(text: str) -> bool:
    """Does `text` hold a character t2s changes alone: of the BMP (a class searched in C), or astral (CJK
    Extension B: astral characters are few in a text, emoji mostly, and each is looked up)?"""
    if _traditional().search(text):
        return True
    astral = _changes().astral
    return any(m.group() in astral for m in _ASTRAL_CHARACTER.finditer(text))


def prepare() -> None:
    """Build the tables views read now, with the automaton, rather than on the first text that needs them:
    OpenCC's (0.1-0.3 s) and the characters folding changes (0.2 s)."""
    _segments()
    prepare_folding()


def _converting_runs(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each run of keyed characters of `text` that holds one that may start a change
    (`_segments`) and a candidate for one (`_changes`): OpenCC converts each as it converts it inside the whole
    text, and the rest to itself. A long text's runs are found over its code points by numpy (8 MB payload:
    79,248 runs with a cue, 0.16 → ~0.05 s; 14,712 of them with a candidate, OpenCC and the joins 0.156 →
    0.108 s)."""
    if len(text) >= _SHORT:
        return _converting_runs_by_codes(text)
    segments, runs, pos = _segments(), [], 0
    while m := segments.cue.search(text, pos):
        start = m.start()
        while start > pos and text[start - 1] in segments.keyed:
            start -= 1
        after = segments.unkeyed.search(text, m.end())
        pos = after.start() if after else len(text)
        if _changes().held(text, start, pos):
            runs.append((start, pos))
    return runs


class _Changes(NamedTuple):
    characters: list[int]  # the code points t2s changes alone, of every plane
    pairs: frozenset[str]  # the first two characters of each of its phrases
    changed: re.Pattern  # one of `characters`
    first: re.Pattern  # the first character of a pair
    astral: frozenset[str]  # the astral characters of `characters`

    def held(self, text: str, start: int, end: int) -> bool:
        """Does `text[start:end]` hold a character that changes alone or a pair (two class searches in C)?"""
        return self.changed.search(text, start, end) is not None or any(
            text[m.start():m.start() + 2] in self.pairs for m in self.first.finditer(text, start, end - 1))


@cache
def _changes() -> _Changes:
    """What makes a run of keyed characters convert to other than itself: a character t2s changes alone
    (`_traditional` reads the BMP's; 354 astral ones change too), or one of its phrases, which starts with its
    first two characters. In a run holding neither, t2s's longest-match segmentation finds no key longer than a
    character, and each character converts as it does alone: to itself."""
    tables = _t2s_tables()
    changed = sorted(set(tables["alone"]) | set(map(ord, tables["traditional"])))
    pairs = frozenset(phrase[:2] for phrase in tables["phrases"])
    return _Changes(changed, pairs, re.compile(f"[{_class_of(changed)}]"),
                    re.compile(f"[{_class_of(sorted({ord(pair[0]) for pair in pairs}))}]"),
                    frozenset(chr(c) for c in changed if c > 0xFFFF))


@cache
def _keyed_tables() -> tuple[np.ndarray, np.ndarray]:
    """Over every code point: is it a character of any key, may it start a change (`_segments`)?"""
    import numpy as np

    segments = _segments()
    keyed, cue = np.zeros(0x110000, dtype=bool), np.zeros(0x110000, dtype=bool)
    keyed[[ord(ch) for ch in segments.keyed]] = True
    cue[[ord(ch) for ch in segments.keyed if segments.cue.match(ch)]] = True
    return keyed, cue


@cache
def _change_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`_changes` over every code point: does t2s change it alone, does a phrase start with it; and each phrase's
    first two characters as one number (the first's code point shifted past the second's), sorted."""
    import numpy as np

    changes = _changes()
    changed, first = np.zeros(0x110000, dtype=bool), np.zeros(0x110000, dtype=bool)
    changed[changes.characters] = True
    first[[ord(pair[0]) for pair in changes.pairs]] = True
    pairs = np.array([ord(pair[0]) << 21 | ord(pair[1]) for pair in changes.pairs], dtype=np.int64)
    return changed, first, np.sort(pairs)


def _converting_runs_by_codes(text: str) -> list[tuple[int, int]]:
    import numpy as np

    keyed, cue = _keyed_tables()
    changed, first, pairs = _change_tables()
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    # only the characters from the least key's on are looked up (no ASCII character is a key's: 8 MB of agent
    # traffic, 15 % of it other, 0.11 → 0.04 s); a run is keyed characters at consecutive offsets
    at = np.flatnonzero(points >= _least_key())
    codes = points[at]
    run = at[keyed[codes]]
    cut = np.flatnonzero(np.diff(run) != 1)
    starts = run[np.concatenate(([0], cut + 1))] if len(run) else run
    ends = run[np.concatenate((cut, [len(run) - 1]))] + 1 if len(run) else run
    starts, ends = _runs_holding(at[cue[codes]], starts, ends)
    firsts = at[first[codes]]
    firsts = firsts[firsts < len(points) - 1]
    keys = points[firsts].astype(np.int64) << 21 | points[firsts + 1]
    candidates = np.union1d(at[changed[codes]], firsts[np.isin(keys, pairs)])
    starts, ends = _runs_holding(candidates, starts, ends)
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


@cache
def _least_key() -> int:
    """The least code point any key of OpenCC's holds, or a phrase starts with, or t2s changes."""
    import numpy as np

    return int(min(np.flatnonzero(table)[0] for table in (*_keyed_tables(), *_change_tables()[:2]) if table.any()))


def _runs_holding(where: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The runs `starts`, `ends` holding one of the sorted offsets `where`."""
    import numpy as np

    k = np.searchsorted(where, starts)
    keep = k < len(where)
    keep[keep] = where[k[keep]] < ends[keep]
    return starts[keep], ends[keep]


def to_simplified(text: str) -> str:
    """Traditional characters folded to Simplified (OpenCC t2s); the same text when it has none.

    A text with one Traditional character is converted whole — phrase rules then apply everywhere
    ("瞭解" → "了解", though neither character changes alone) — but only the runs of it that OpenCC may change
    (`_converting_runs`) go through OpenCC, in one call, joined by line breaks, which no key holds (the same
    result as the whole text, tests/test_detect_views.py; 8 MB of the dense payload: 0.77 → 0.08 s).
    """
    if text.isascii() or not _holds_traditional(text):
        return text
    runs = _converting_runs(text)
    converted_runs = _converter().convert("\n".join(text[s:e] for s, e in runs)).split("\n")
    parts, last = [], 0
    for (start, end), run in zip(runs, converted_runs, strict=True):
        parts += [text[last:start], run]
        last = end
    parts.append(text[last:])
    converted = "".join(parts)
    if len(converted) != len(text):  # a phrase rule changed the length: convert character by character
        converted = "".join(_converter().convert(ch) for ch in text)
    return converted


def _changed_spans(text: str, simplified: str) -> list[tuple[int, int]]:
    """Where two texts of the same length differ, as spans of at most 64 characters (string comparisons in C)."""
    spans: list[tuple[int, int]] = []
    for start in range(0, len(text), 65536):
        if text[start:start + 65536] == simplified[start:start + 65536]:
            continue
        for k in range(start, min(len(text), start + 65536), 64):
            if text[k:k + 64] != simplified[k:k + 64]:
                diff = [j for j in range(k, min(len(text), k + 64)) if text[j] != simplified[j]]
                spans.append((diff[0], diff[-1] + 1))
    return spans


def derived_views(text: str, view: TextView, rewriters: Sequence[Rewriter] = (),
                  reach: int | None = None, inner: Sequence[Rewriter] = ()) -> Iterator[TextView]:
    """The views derived from a text whose text view is `view`: Simplified, then decoded (`rewriters`: the
    forms' rewrites the text view called for; `inner`: those made inside decoded tokens). With the tiers'
    `reach`, each is a `WindowedView` where its windows leave out enough of the text to pay; they hold what the
    tiers read further in the text view (`TextView.reached`)."""
    simplified = to_simplified(text)
    if simplified is not text:  # same length, character for character: offsets stay put
        whole_simplified = lambda: TextView.of(simplified)  # noqa: E731
        yield (reach is not None and windowed(simplified, _changed_spans(text, simplified), reach, whole_simplified,
                                              held=view.reached)) or whole_simplified()
    # the decoders' gates read the text view's fold: their hints are ASCII, which Simplification leaves as they are
    decoded = decoded_text(simplified, view.folded, rewriters, inner)
    if decoded is not None:
        rewritten, back = decoded
        whole = lambda: _rewritten_view(rewritten, back, simplified)  # noqa: E731
        held = [(back.to_derived(s), back.to_derived(e)) for s, e in view.reached]
        yield (reach is not None and windowed(rewritten, [s[:2] for s in back.spans], reach, whole, back,
                                              len(simplified), held)) or whole()


# --- windows ---------------------------------------------------------------------------------------

class WholeViewNeeded(Exception):  # noqa: N818 (a signal, not an error)
    """A tier met, in a windowed view, something whose decision may reach past its window (an account's bank
    named far away, a chain of one value's grams at a window's edge): read the view whole."""


_WINDOWS_PAY = 0.75  # windows covering more of a derived text than this share: read it whole
_CUT = 64  # characters next to a window's cut edge whose digit and other views may differ from the whole view's
_SLACK = 8  # characters added to the tiers' reach: a window's edge may cut a space run or a folded character


@dataclass
class WindowedView(TextView):
    """Windows of a derived text, one after another (joined by NUL) and read as one text.

    Each window spans the derived text's changes (a decoded token, a Simplified phrase) and at least twice
    the tiers' reach on either side (`R`, in view characters). A hit whose span ends at least `R` into a
    window and starts at least `R` before its end reads nothing outside it (it and all that decides it lie
    within `R`), so the whole view has it too; every hit of the whole view that depends on a change is such a
    hit; the whole view's other hits read only unchanged text, so the text view has them already (with
    `decided` as large or smaller there). `keeps` says which hits are of the first kind."""

    whole: Callable[[], TextView] | None = field(default=None, repr=False)  # the derived view read whole
    rewrite: _Rewrite | None = field(default=None, repr=False)  # derived → source offsets, where they move
    source_len: int = 0
    part_starts: list[int] = field(default_factory=list, repr=False)  # where each window starts in `original`
    part_view_starts: list[int] = field(default_factory=list, repr=False)  # … and in `text`
    windows: list[tuple[int, int]] = field(default_factory=list, repr=False)  # (start, end) in the derived text
    inner: list[tuple[int, int]] = field(default_factory=list, repr=False)  # source offsets a kept hit spans over
    outer: list[tuple[int, int]] = field(default_factory=list, repr=False)  # each window, in source offsets

    def read_whole(self) -> TextView:
        """The derived view read whole (a tier met something reaching past a window)."""
        if self.whole is None:
            raise ValueError("a windowed view without its whole view")
        return self.whole()

    def _derived(self, i: int) -> int:
        """The derived text's offset of the combined text's character `i` (a joint reads as its window's last)."""
        k = bisect.bisect_right(self.part_starts, i) - 1
        start, end = self.windows[k]
        return min(start + i - self.part_starts[k], end - 1)

    def _source(self, start: int, end: int) -> tuple[int, int]:
        return (start, end) if self.rewrite is None else self.rewrite.to_source(start, end)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        s, e = super().to_original(start, end)
        s, e = self._source(self._derived(s), self._derived(max(s, e - 1)) + 1)
        return s, min(e, self.source_len)

    def _window(self, start: int) -> int:
        return bisect.bisect_right(self.outer, (start, self.source_len + 1)) - 1

    def keeps(self, start: int, end: int) -> bool:
        """Does a hit at `start:end` of the source lie far enough inside its window (see the class)?"""
        k = self._window(start)
        return k >= 0 and end <= self.outer[k][1] and end >= self.inner[k][0] and start <= self.inner[k][1]

    def holds(self, start: int, end: int) -> bool:
        """Does a span of the source lie inside one window, away from its cut edges (a view of it read there,
        digits or identifiers without separators, is the whole view's)?"""
        k = self._window(start)
        return k >= 0 and end <= self.outer[k][1] and (start >= self.outer[k][0] + _CUT or self.inner[k][0] < 0) \
            and (end <= self.outer[k][1] - _CUT or self.inner[k][1] > self.source_len)

    def near_cut(self, start: int, end: int, margin: int) -> bool:
        """Does a span of `text` come within `margin` characters of a window's edge inside the derived text?"""
        k = bisect.bisect_right(self.part_view_starts, start) - 1
        last = k + 1 == len(self.windows)
        part_end = len(self.text) if last else self.part_view_starts[k + 1] - 1
        return (self.windows[k][0] > 0 and start - self.part_view_starts[k] < margin) or (
            (not last or self.inner[k][1] <= self.source_len) and part_end - end < margin)


def kept(view: TextView, start: int, end: int) -> bool:
    """Does a hit at `start:end` of the source stand as the whole view's (always, in a view read whole)?"""
    return not isinstance(view, WindowedView) or view.keeps(start, end)


def windowed(derived: str, changes: list[tuple[int, int]], reach: int, whole: Callable[[], TextView],
             rewrite: _Rewrite | None = None, source_len: int | None = None,
             held: Sequence[tuple[int, int]] = ()) -> WindowedView | None:
    """`derived` read in windows around its `changes` (see `WindowedView`), or None where the windows would
    cover most of it. `rewrite` maps the derived text to its source of `source_len` characters (None: the
    offsets stay put). No window's edge comes within `reach` of a `held` span (one that tiers read as one)."""
    reach += _SLACK
    n = len(derived)
    if 4 * reach > _WINDOWS_PAY * n or "\0" in derived:  # one window would cover most of it; NUL: the joint
        return None
    changes = sorted(changes)
    if _least_cover(changes, 2 * reach, n) > _WINDOWS_PAY * n:
        return None
    windows: list[list[int]] = []  # [start, inner start, inner end, end] in the derived text
    floors = _Floors(derived)
    joined = False  # the change is in the window of the one before, margins or not
    for k, (c_start, c_end) in enumerate(changes):
        if not joined and (not windows or c_start > windows[-1][3]):
            start, inner = _margin_before(floors, c_start, reach)
            if not windows or start > windows[-1][3]:
                windows.append([start, inner, c_end, c_end])
        # a window ends at least 2 × reach characters after its last change, and the margins grow with the
        # change: where the next change starts within that, it is in this window, whose end it decides
        joined = k + 1 < len(changes) and changes[k + 1][0] <= c_end + 2 * reach
        if joined:
            continue
        end, inner_end = _margin_after(floors, c_end, reach)
        if end > windows[-1][3]:
            windows[-1][2:] = [inner_end, end]
    if held:
        windows = _holding(floors, windows, sorted(held), reach)
    del floors
    merged: list[list[int]] = []
    for w in windows:  # a placeholder around a window's first characters is read whole
        w[0] = _opening(derived, w[0])
        if merged and w[0] <= merged[-1][3]:
            merged[-1][2:] = w[2:]
        else:
            merged.append(w)
    windows = merged
    if not windows or sum(w[3] - w[0] for w in windows) > _WINDOWS_PAY * n:
        return None
    starts, position = [], 0
    for w in windows:
        starts.append(position)
        position += w[3] - w[0] + 1
    view = WindowedView.of("\0".join(derived[w[0]:w[3]] for w in windows))
    view.whole, view.rewrite, view.part_starts = whole, rewrite, starts
    view.part_view_starts = [0]
    for _ in windows[1:]:
        view.part_view_starts.append(view.text.index("\0", view.part_view_starts[-1]) + 1)
    view.windows = [(w[0], w[3]) for w in windows]
    view.source_len = n if source_len is None else source_len
    at = view._source
    view.outer = [(at(w[0], w[0] + 1)[0], at(w[3] - 1, w[3])[1]) for w in windows]
    view.inner = [(at(w[1], w[1] + 1)[0] if w[0] else -1, at(w[2] - 1, w[2])[1] if w[3] < n else view.source_len + 1)
                  for w in windows]
    return view


def _least_cover(changes: list[tuple[int, int]], margin: int, n: int) -> int:
    """Characters of a text of `n` the windows around the sorted, disjoint `changes` cover at least: each window spans
    its changes and at least `margin` characters each side (2 × reach view characters, none shorter than a
    character), so where this is most of the text no window is cut (the 8 MB payload's decoded view: 26,040
    changes, 98 % covered; margins, floors and merges cost 0.15 s before the view was read whole)."""
    covered = last = 0
    for start, end in changes:
        lo, hi = max(last, start - margin), min(n, end + margin)
        if hi > lo:
            covered, last = covered + hi - lo, hi
    return covered


def _holding(text: _Floors, windows: list[list[int]], held: list[tuple[int, int]], reach: int) -> list[list[int]]:
    """`windows` with each edge moved out of every `held` span (and `reach` around it), merged where they meet."""
    starts, longest = [s for s, _ in held], max(e - s for s, e in held)
    out: list[list[int]] = []
    for window in windows:
        for edge, step in ((0, -1), (3, 1)):
            while 0 < window[edge] < len(text):
                near = held[bisect.bisect_left(starts, window[edge] - reach - longest):
                            bisect.bisect_right(starts, window[edge] + reach)]
                hit = [(s, e) for s, e in near if s - reach < window[edge] < e + reach]
                if not hit:
                    break
                window[edge] = _back(text, min(s for s, _ in hit), reach) if step < 0 else \
                    _ahead(text, max(e for _, e in hit), reach)
        if out and window[0] <= out[-1][3]:
            out[-1][2], out[-1][3] = window[2], max(window[3], out[-1][3])
        else:
            out.append(window)
    return out


_ASCII_WHITESPACE = "".join(ch for ch in map(chr, range(128)) if ch.isspace())
#: the non-ASCII characters `str.isspace` (and so the regex `\s`) takes, one class of literals: found in C
OTHER_WHITESPACE = "\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_OTHER_WHITESPACE = re.compile(f"[{OTHER_WHITESPACE}]")
_WHITESPACE_RUN = re.compile(r"\s\s+")


class _Floors:
    """At least the length of the text view of any slice of one text (folding lengthens no character's share
    but whitespace runs collapse to one space: the slice's length less each whitespace character that follows
    one in it), each by two bisections of where such characters stand in the text: 11,368 margins of the 8 MB
    payload took two regex passes over a ~250-character slice each (0.27 s; 0.06 s so, and 0.03 s a text)."""

    def __init__(self, text: str):
        self.n = len(text)
        if len(text) < _SHORT:  # a regex pass: numpy stays unimported for texts this short (11 MB of an audit's peak)
            self.follows = [j for m in _WHITESPACE_RUN.finditer(text) for j in range(m.start() + 1, m.end())]
            return
        import numpy as np

        space = _table(_ASCII_WHITESPACE)[_codes(text)]
        for m in _OTHER_WHITESPACE.finditer(text):
            space[m.start()] = True
        self.follows = (np.flatnonzero(space[1:] & space[:-1]) + 1).tolist()

    def __len__(self) -> int:
        return self.n

    def floor(self, start: int, end: int) -> int:
        """The view floor of the slice `start:end`."""
        if end - start < 2:
            return max(0, end - start)
        return end - start - (bisect.bisect_left(self.follows, end) - bisect.bisect_left(self.follows, start + 1))


def _back(text: _Floors, pos: int, reach: int) -> int:
    """The last offset at or before `pos` with at least `reach` view characters between it and `pos`."""
    start = max(0, pos - reach)
    while start and (short := reach - text.floor(start, pos)) > 0:
        start = max(0, start - short)
    return start


def _ahead(text: _Floors, pos: int, reach: int) -> int:
    """The first offset at or after `pos` with at least `reach` view characters between `pos` and it."""
    end = min(len(text), pos + reach)
    while end < len(text) and (short := reach - text.floor(pos, end)) > 0:
        end = min(len(text), end + short)
    return end


def _margin_before(text: _Floors, change: int, reach: int) -> tuple[int, int]:
    """(window start, inner start) before a change: `reach` view characters between each and the next."""
    inner = _back(text, change, reach)
    start = _back(text, inner, reach)
    return (start, inner) if start else (0, 0)


def _opening(text: str, start: int) -> int:
    """A window's start moved back to a bracket that may open a placeholder around it (no placeholder holds
    another bracket, so the last one is the only one)."""
    if not start:
        return 0
    lo = max(0, start - PLACEHOLDER_LONGEST)
    bracket = max(text.rfind("[", lo, start), text.rfind("［", lo, start))
    return bracket if bracket >= 0 else start


def _margin_after(text: _Floors, change: int, reach: int) -> tuple[int, int]:
    """(window end, inner end) after a change: `reach` view characters between each and the one before."""
    inner = _ahead(text, change, reach)
    end = _ahead(text, inner, reach)
    return (end, inner) if end < len(text) else (len(text), len(text))
