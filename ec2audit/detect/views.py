"""The views a text is read in: the text view, and the views derived from it where a reader recovers a
value trivially — decoded (URL percent-encoding and form "+" spaces, HTML entities, JSON `\\uXXXX` escapes, base64 and
base64url, hex, e-mail addresses written `name [at] example [dot] org`) and Traditional Chinese folded
to Simplified with OpenCC. Every view maps its offsets back to the original characters, so evidence
points at what the text really holds (the encoded characters of a decoded value).

A derived view exists only where the text calls for it: each has a check that costs a C-level string
search, so texts without encodings or Traditional characters pay next to nothing.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import html
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple
from urllib.parse import unquote

from ec2audit.detect.normalize import TextView, prepare_folding
from ec2audit.detect.patterns import Match

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


def _rewrite(text: str, replacements: list[tuple[int, int, str]]) -> tuple[str, _Rewrite]:
    """`text` with non-overlapping (start, end, replacement) spans replaced, and the map back."""
    parts, spans, last, length = [], [], 0, 0
    for start, end, new in sorted(replacements):
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
_U_ESCAPES = re.compile(r"\\\\*u[0-9A-Fa-f]{4}(?:\\+u[0-9A-Fa-f]{4})*")  # (?:\\+u[0-9A-Fa-f]{4})+
_X_ESCAPES = re.compile(r"\\x[0-9A-Fa-f]{2}(?:\\x[0-9A-Fa-f]{2}){2,}")  # (?:\\x[0-9A-Fa-f]{2}){3,}
# base64 / base64url tokens of at least 8 characters holding a digit or a base64-only character:
# (?<![\w+/-])(?=[\w+/-]*[\d+/])[A-Za-z0-9+/_-]{8,}={0,2}(?![\w+/=-])
_BASE64 = re.compile(r"[A-Za-z0-9+/_-](?<![\w+/-][A-Za-z0-9+/_-])(?:(?<=[0-9+/])|(?=[\w+/-]*[\d+/]))"
                     r"[A-Za-z0-9+/_-]{7,}={0,2}(?![\w+/=-])")
# (?<![0-9A-Za-z])(?:[0-9A-Fa-f]{2}){6,}(?![0-9A-Za-z])
_HEX = re.compile(r"[0-9A-Fa-f](?<![0-9A-Za-z][0-9A-Fa-f])[0-9A-Fa-f](?:[0-9A-Fa-f]{2}){5,}(?![0-9A-Za-z])")
_HINTS_B64 = ("basic ", "base64", "data:", "secret", "token", "=")
_HINTS_HEX = ("hex", "0x")


def _printable(decoded: str) -> bool:
    """Text, not bytes that happened to decode: printable characters, line ends as files have them (a CSV
    file's `\\r\\n`), and format characters (zero-width spaces and joiners inside words)."""
    return bool(decoded) and (decoded.isprintable() or all(
        ch.isprintable() or ch in "\n\r\t" or unicodedata.category(ch) == "Cf" for ch in decoded))


def _percent(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _PERCENT_RUN.finditer(text):
        decoded = unquote(m.group(), errors="strict") if _utf8(m.group()) else None
        if decoded and _printable(decoded):
            yield m.start(), m.end(), decoded


def _utf8(percent_run: str) -> bool:
    try:
        bytes.fromhex(percent_run.replace("%", "")).decode("utf-8")
    except (UnicodeDecodeError, ValueError):
        return False
    return True


# a form-encoded value of words ("name=Lena+Hartmann"): "+" is a space there
_PLUS_WORDS = re.compile(r"(?<==)[^\W\d_]+(?:\+[^\W\d_]+)+(?![\w+])")


def _plus_spaces(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _PLUS_WORDS.finditer(text):
        yield m.start(), m.end(), m.group().replace("+", " ")


def _entities(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _ENTITY.finditer(text):
        decoded = html.unescape(m.group())
        if decoded != m.group():
            yield m.start(), m.end(), decoded


def _u_escapes(text: str) -> Iterator[tuple[int, int, str]]:
    """`\\u5ba2` (any number of backslashes: a JSON string serialised twice), surrogate pairs joined."""
    for m in _U_ESCAPES.finditer(text):
        units = [int(h, 16) for h in re.findall(r"u([0-9A-Fa-f]{4})", m.group())]
        decoded = "".join(map(chr, units)).encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        if _printable(decoded):
            yield m.start(), m.end(), decoded


def _bytes_text(raw: bytes) -> str | None:
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return decoded if len(decoded) >= 4 and _printable(decoded) else None


def _x_escapes(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _X_ESCAPES.finditer(text):
        decoded = _bytes_text(bytes.fromhex(m.group().replace("\\x", "")))
        if decoded:
            yield m.start(), m.end(), decoded


def _base64(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _BASE64.finditer(text):
        token = m.group().rstrip("=")
        if len(token) % 4 == 1:
            continue
        try:
            raw = base64.b64decode(token.replace("-", "+").replace("_", "/") + "=" * (-len(token) % 4),
                                   validate=True)
        except (binascii.Error, ValueError):
            continue
        decoded = _bytes_text(raw)
        if decoded:
            yield m.start(), m.end(), decoded


def _hex(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _HEX.finditer(text):
        decoded = _bytes_text(bytes.fromhex(m.group()))
        if decoded and any(ch.isalpha() for ch in decoded):
            yield m.start(), m.end(), decoded


_AT = r"(?:\s*(?:\[at\]|\(at\)|\{at\}|<at>)\s*|\s+at\s+)"
_DOT = r"(?:\s*(?:\[dot\]|\(dot\)|\{dot\}|<dot>)\s*|\s+dot\s+|\.)"
# Words are read whole (`++`) and a match starts where a word does, or at a "+" right after a word character,
# where the previous match may have ended ("a at b.c+d at e.f"): the same matches as trying every position,
# in linear time (3.5 MB of the dense corpus: 1.6 s → 0.27 s).
_OBFUSCATED_EMAIL = re.compile(rf"(?:(?<![\w+-])|(?<=[\w-])(?=\+))([\w+-]++(?:{_DOT}[\w+-]++)*){_AT}"
                               rf"([\w-]++(?:{_DOT}[\w-]++)+)", re.IGNORECASE)
_DOT_WORD = re.compile(_DOT, re.IGNORECASE)
# Every match holds an "at" between brackets or whitespace, and no character outside this class: the regex runs
# only over the runs without such a barrier that hold such an "at" (1 MB of the dense payload: 0.085 → 0.011 s)
_AT_CUE = re.compile(r"at(?<=[\s\[({<]at)(?=[\s\])}>])", re.IGNORECASE)
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


def _mrz(text: str) -> Iterator[tuple[int, int, str]]:
    """The names ("van der meulen, sophie") and fields of a passport's machine-readable zone."""
    for m in _MRZ_NAMES.finditer(text):
        yield m.start(), m.end(), f"P {m.group(1)} {m.group(2).replace('<', ' ')}, {m.group(3).replace('<', ' ')}"
    for m in _MRZ_FIELDS.finditer(text):
        yield m.start(), m.end(), " ".join(g.strip("<") for g in m.groups())


def _decoders(text: str, lower: str) -> list[Rewriter]:
    """The decoders a text calls for, found with plain substring checks (`lower`: its folded view)."""
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
    if any(h in lower for h in _HINTS_B64):
        out.append(_base64)
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


def decoded_view(text: str, folded: str | None = None, rewriters: Sequence[Rewriter] = (),
                 inner: Sequence[Rewriter] = (), depth: int = NESTED) -> RewrittenView | None:
    """The text with every encoded or obfuscated token decoded and the forms' `rewriters` applied, or None
    when nothing changes. Where replacements overlap, the earliest (then the first listed) wins.

    What a token decodes to is read the same way again, `depth` levels deep, with the `inner` rewriters
    (the text view's cues say nothing of what is encoded): the decoded span maps back to the whole token."""
    replacements = [(start, end, _inner(decoded, inner, depth)) for decoder in _decoders(text, folded or text.lower())
                    for start, end, decoded in decoder(text)]
    replacements += [r for rewrite in rewriters for r in rewrite(text)]
    if not replacements:
        return None
    rewritten, back = _rewrite(text, replacements)
    view = RewrittenView.of(rewritten)
    view.rewrite, view.source = back, text
    return view


def _inner(decoded: str, rewriters: Sequence[Rewriter], depth: int) -> str:
    """A decoded token's text with what is encoded inside it decoded too, and the forms' rewrites made. Most
    tokens decode to a character or two (`%20`, `&lt;`, `\\u00e9`), which hold nothing to read inside (the
    least is a character, an invisible one, a character): they are taken as they are."""
    view = decoded_view(decoded, None, rewriters, rewriters, depth - 1) if depth > 1 and len(decoded) > 2 else None
    return decoded if view is None else view.original


# --- Traditional → Simplified ----------------------------------------------------------------------

@cache
def _converter():
    import opencc  # a C++ library: loaded on the first text with Traditional characters

    return opencc.OpenCC("t2s")


@cache
def _traditional() -> re.Pattern:
    """The characters OpenCC's t2s changes, read from OpenCC itself once (0.1 s)."""
    chars = [chr(c) for c in range(0x3400, 0xA000)] + [chr(c) for c in range(0xF900, 0xFB00)]
    converted = _converter().convert("\n".join(chars)).split("\n")
    changed = "".join(a for a, b in zip(chars, converted, strict=True) if a != b)
    return re.compile(f"[{changed}]")


def prepare() -> None:
    """Build the tables views read now, with the automaton, rather than on the first text that needs them:
    OpenCC's (0.1-0.3 s) and the characters folding changes (0.2 s)."""
    _traditional()
    prepare_folding()


def to_simplified(text: str) -> str:
    """Traditional characters folded to Simplified (OpenCC t2s); the same text when it has none.

    A text with one Traditional character is converted whole — phrase rules then apply everywhere
    ("瞭解" → "了解", though neither character changes alone) — but only its lines holding a non-ASCII
    character go through OpenCC, in one call: its dictionaries are files of one entry a line, so no
    phrase holds a line break and its longest-match segmentation restarts at every one (the same
    result as the whole text, tests/test_detect_views.py; 1 MB of the dense payload: 0.17 → 0.09 s).
    """
    if text.isascii() or not _traditional().search(text):
        return text
    lines = text.split("\n")
    wide = [k for k, line in enumerate(lines) if not line.isascii()]
    converted_lines = _converter().convert("\n".join(lines[k] for k in wide)).split("\n")
    if len(converted_lines) != len(wide):  # a phrase rule changed the line breaks: convert character by character
        return "".join(_converter().convert(ch) for ch in text)
    for k, line in zip(wide, converted_lines, strict=True):
        lines[k] = line
    converted = "\n".join(lines)
    if len(converted) != len(text):  # a phrase rule changed the length: convert character by character
        converted = "".join(_converter().convert(ch) for ch in text)
    return converted


def derived_views(text: str, view: TextView, rewriters: Sequence[Rewriter] = (),
                  inner: Sequence[Rewriter] = ()) -> Iterator[TextView]:
    """The views derived from a text whose text view is `view`: Simplified, then decoded (`rewriters`: the
    forms' rewrites the text view called for; `inner`: those made inside decoded tokens)."""
    simplified = to_simplified(text)
    if simplified is not text:  # same length, character for character: offsets stay put
        yield TextView.of(simplified)
    decoded = decoded_view(simplified, view.folded if simplified is text else None, rewriters, inner)
    if decoded is not None:
        yield decoded
