"""Near-verbatim variants of multi-word values (names, addresses, diagnoses): the words reordered (1.0),
a typo, a word left out or cut short, a house number masked (0.7 when ≥ 80 % of the value lines up).

The automaton reports each value's grams (words of ≥ 3 letters anchored on a word start, CJK bigrams);
only where enough of one unit's grams cluster does rapidfuzz align the value with the text — never on
all (unit, segment) pairs."""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from collections.abc import Iterator

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel, LCSseq
from rapidfuzz.utils import default_process

from ec2audit.detect.compiled import COMMON_WORDS, CompiledUnit, is_word_char
from ec2audit.detect.finding import LITERAL, MOSTLY, Hit
from ec2audit.detect.forms import CJK_RUN, MEMO_SIZE, Form, is_cjk, register, standalone
from ec2audit.detect.forms.blood_types import is_blood_type
from ec2audit.detect.forms.masked import MASK_CHARS, MASK_SPLIT, fits_mask
from ec2audit.detect.normalize import TextView
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView, WholeViewNeeded, WindowedView, kept

GRAM = "gram"
_WORD = re.compile(r"[^\W_]{3,}")
_FUZZY_MIN_LENGTH = 8
_FUZZY_COVERAGE = 0.8
_EDGE_WORD = 12  # how far `_replaced_at_edge` looks for the word next to a span


def _grams(form: str) -> set[str]:
    """Words (≥ 3 letters, not common words) and CJK bigrams that together identify a value."""
    grams = {w for w in _WORD.findall(form) if not CJK_RUN.match(w) and w not in COMMON_WORDS}
    for run in CJK_RUN.findall(form):
        grams.update(run[i:i + 2] for i in range(len(run) - 1))
    return grams


@register
class NearVerbatim(Form):
    name = "near_verbatim"
    kinds = (GRAM,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        self._gram_count: dict[int, int] = {}
        self._memo: dict[tuple[int, str, int, int], tuple[int, int, float] | None] = {}
        for i, cu in enumerate(self.units):
            if _fuzzy_eligible(cu):
                grams = _grams(cu.forms[0])
                if len(grams) >= 2:
                    self._gram_count[i] = len(grams)
                    for g in grams:
                        for key in _gram_keys(g):
                            index.add(key, GRAM, i)
        # a cluster of grams twice the value wide, aligned with the value's length and an edge word on each side
        longest = max((len(self.units[i].forms[0]) for i in self._gram_count), default=0)
        self.reach = 4 * longest + 2 * (_EDGE_WORD + 2)

    def confirm(self, scan_view: ScanView, decided: set[int]) -> Iterator[Hit]:
        view = scan_view.view
        text = view.text
        found: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for start, end, indices in scan_view.matches.get(GRAM, ()):
            if not text[start].isalnum():  # the word-start character the key was anchored on
                start += 1
            if text[start].isascii() and not standalone(text, start, end):
                continue
            for i in indices:
                if i not in decided:
                    found[i].append((start, end))
        for i, spans in found.items():
            form, count = self.units[i].forms[0], self._gram_count[i]
            half = math.ceil(count / 2)
            distinct = len(spans) >= half and len({text[s:e] for s, e in spans})
            if distinct < half:  # too few of the unit's grams anywhere for a cluster
                continue
            spans.sort()
            width = 2 * len(form)
            chained = [(a, b) for a, b in itertools.pairwise(spans) if b[1] - a[0] <= width]
            if isinstance(view, WindowedView):
                if any(view.near_cut(a[0], b[1], width + 1) for a, b in chained):
                    raise WholeViewNeeded  # a chain of clusters may come in from outside the window
            else:  # where a cluster's greedy search carries from one gram to the next: no window cuts there
                view.reached += [view.to_original(a[0], b[1]) for a, b in chained]
            whole = [hit for hit in (Hit(i, *view.to_original(lo, hi), "partial.reordered", LITERAL, 0.95)
                                     for lo, hi in (_with_particles(text, form, *span)
                                                    for span in (_clusters(text, spans, count, 2 * len(form))
                                                                 if distinct >= count else ()))
                                     if fuzz.token_sort_ratio(form, text[lo:hi], processor=default_process) == 100
                                     and reads_as(form, text[lo:hi]))
                     if kept(view, hit.start, hit.end)]  # in windows, only the reordered values the whole view has
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
        if key not in self._memo:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            self._memo[key] = aligned_span(*key[1:], form)
        found = self._memo[key]
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
    if align is None:  # only under a score cutoff, which this call sets none of
        return None
    start, end = _whole_words(text, region_lo + align.dest_start, region_lo + align.dest_end)
    while start < end and (is_cjk(text[start]) and text[start] not in form or not _keeps_edge(text[start])):
        start += 1  # Han characters the value lacks at the edges ("地址：") are the text's, not the value's
    while end > start and (is_cjk(text[end - 1]) and text[end - 1] not in form or not _keeps_edge(text[end - 1])):
        end -= 1
    aligned = text[start:end]
    coverage = LCSseq.similarity(form, aligned) / len(form)
    # a masked value (a house number starred) is "mostly" there when half of it shows and the masks fit
    masked = _FUZZY_COVERAGE > coverage >= _MASKED_VISIBLE and any(c in aligned for c in MASK_CHARS) \
        and _masks_fit(form, aligned)
    if (coverage < _FUZZY_COVERAGE and not masked) or not reads_as(form, aligned) \
            or _replaced_at_edge(form, text, start, end) or _replaced_first(form, text, start):
        return None
    return start, end, round(coverage, 3)


def _replaced_first(form: str, text: str, start: int) -> bool:
    """Is the value's first Han character, and it alone, missing from the span, another Han character standing
    in its place (`轻度阿尔茨海默病` for `中度…`, `左侧…` for `右侧…`)? A qualifier replaced is another stage or side
    (`reads_as` lets Han characters be left out, and the alignment trims the text's own at the edges)."""
    return (0 < start and len(form) > 3 and is_cjk(form[0]) and is_cjk(text[start - 1])
            and text[start - 1] not in form and text.startswith(form[1:3], start))


_MASKED_VISIBLE = 0.5  # a masked region must show at least this share of the value
_MASKED_RUN = re.compile(r"[0-9a-z*•●#]*[*•●#][0-9a-z*•●#]*")
_ALNUM_RUN = re.compile(r"[0-9a-z]+")


def _masks_fit(form: str, text: str) -> bool:
    """Does every partly masked token of `text` fit a token of the value as long ("2**-b" fits "214-b", "3**号"
    fits "328号", "5**" does not)? A masked house number that shows another number is another house."""
    runs = _ALNUM_RUN.findall(form)
    for token in _MASKED_RUN.findall(text):
        visible = MASK_SPLIT.split(token)[::2]
        if any(visible) and not any(len(run) == len(token) and fits_mask(run, visible) for run in runs):
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
    return _is_subsequence([c for c in text if is_cjk(c)], [c for c in form if is_cjk(c)])


def _replaced_at_edge(form: str, text: str, start: int, end: int) -> bool:
    """Is the value's first or last word missing from the span, and the word right next to the span one
    like it (`stage II` for `stage III`, `Apt 3D` for `Apt 3B`), or a number one word after it where the value ends in
    one (`… from 2012` for `…, 2011`)? Then it is another value, not a cut."""
    words = _LATIN_WORD.findall(form)
    if not words or any(c in MASK_CHARS for c in text[start:end]):  # a mask explains a missing word
        return False
    found = set(_LATIN_WORD.findall(text[start:end]))
    before = _LATIN_WORD.findall(text[max(0, start - _EDGE_WORD):start])
    after = _LATIN_WORD.findall(text[end:end + _EDGE_WORD])[:2]
    if after[1:] and not (after[0].isalpha() and after[1].isdigit() and after[1] != words[-1]):
        after = after[:1]  # another number one word on ("a caution … from 2012") stands where the value's year would
    return any(w not in found and any(_alike(w, n) for n in near)
               for w, near in ((words[0], before[-1:]), (words[-1], after)))


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
    return ch.isalnum() or ch in MASK_CHARS


def _whole_words(text: str, start: int, end: int) -> tuple[int, int]:
    """An aligned span without words it cuts at its edges, nor spaces and punctuation around it."""
    while start < end and is_word_char(text[start]) and start and is_word_char(text[start - 1]):
        start += 1
    while end > start and is_word_char(text[end - 1]) and end < len(text) and is_word_char(text[end]):
        end -= 1
    while start < end and not (text[start].isalnum() or text[start] in MASK_CHARS):
        start += 1
    while end > start and not (text[end - 1].isalnum() or text[end - 1] in MASK_CHARS):
        end -= 1
    return start, end


def _fuzzy_eligible(cu: CompiledUnit) -> bool:
    """Typos and reordering are near-verbatim only for multi-word text (names, addresses, diagnoses);
    one character off in an e-mail, key, number or blood type is another identity."""
    form = cu.forms[0]
    return (not cu.digit_forms and not cu.alnum_forms and cu.amount is None and len(form) >= _FUZZY_MIN_LENGTH
            and (" " in form or bool(CJK_RUN.search(form))) and "@" not in form and not is_blood_type(form))


def _clusters(text: str, spans: list[tuple[int, int]], need: int, width: int) -> Iterator[tuple[int, int]]:
    """Tightest regions no wider than `width` holding at least `need` distinct grams of one unit: a window
    slides over the spans, counting each gram it holds."""
    grams = [text[s:e] for s, e in spans]
    held: dict[str, int] = defaultdict(int)  # gram → how many spans of the window show it
    lo = 0
    for hi in range(len(spans)):
        held[grams[hi]] += 1
        while spans[hi][1] - spans[lo][0] > width:
            _drop(held, grams[lo])
            lo += 1
        if len(held) < need:
            continue
        while held[grams[lo]] > 1 or len(held) > need:  # the window holds enough without its first span
            _drop(held, grams[lo])
            lo += 1
        yield spans[lo][0], spans[hi][1]
        lo = hi + 1
        held.clear()
        if lo >= len(spans):
            return


_PARTICLE_BEFORE = re.compile(r"(?<![^\W\d_])([^\W\d_]{1,2})[ ,]{1,2}$")
_PARTICLE_AFTER = re.compile(r"[ ,]{1,2}([^\W\d_]{1,2})(?![^\W\d_])")


def _with_particles(text: str, form: str, lo: int, hi: int) -> tuple[int, int]:
    """A cluster widened over the value's short words (no gram: under three letters) right next to it: a name's
    particle stays with its surname when the surname comes first (`Ní Bhraonáin, Caoimhe`, `van Dijk, Anna`,
    `Ibn Battuta`)."""
    short = {w for w in re.findall(r"[^\W\d_]+", form) if len(w) < 3}
    while short and (m := _PARTICLE_BEFORE.search(text, max(0, lo - 5), lo)) and m.group(1) in short:
        lo = m.start(1)
    while short and (m := _PARTICLE_AFTER.match(text, hi)) and m.group(1) in short:
        hi = m.end(1)
    return lo, hi


def _drop(held: dict[str, int], gram: str) -> None:
    held[gram] -= 1
    if not held[gram]:
        del held[gram]


_WORD_STARTS = " \"'(,:;/[<=-"


def _gram_keys(gram: str) -> list[str]:
    """Latin grams are anchored on a word start ("␣mary"), so "mary" inside "summary" never even
    reaches Python; texts are matched with a leading space (see PatternIndex.matches)."""
    return [gram] if CJK_RUN.match(gram) else [c + gram for c in _WORD_STARTS]
