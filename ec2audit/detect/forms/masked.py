"""Masked values (`139****3366`, `6222 **** **** 1234`, `z***@corp.com`, `sk-liv…s7ee`, `checking x9361`,
`周**`), graded on AceBench's scale below a literal match: 0.7 when at least half of the value's characters
are visible (40 % when characters survive on both sides of the mask), 0.3 when a smaller but recognisable
part (≥ 4 characters) is, or two characters of a short credential masked to its own length (`25**#` of a PIN
2580#), or the mail domain of a firm, or a Chinese surname with the given name starred.
A key's published prefix is not counted: every key of its kind shows it (`sk_live_****` is a placeholder).

A mask has no literal cue worth compiling: one `*`, `#` or `x0` cue per occurrence would cost the
automaton more matches than the regex below costs (a run of 8,000 x's alone). The form reads the text for
mask runs itself, behind a C-level substring check, and confirms the units whose visible characters
(looked up by their first and last characters) fit around the mask."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator

from ec2audit.detect.compiled import compact_form, is_word_char
from ec2audit.detect.finding import FRAGMENT, MOSTLY, Hit
from ec2audit.detect.forms import MEMO_SIZE, Form, Match, is_cjk, register
from ec2audit.detect.forms.mail_domains import shared_mail_domain
from ec2audit.detect.normalize import TextView
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

MASK_CHARS = "*•●#"
# Mask runs: stars and bullets, "xxxx" next to digits (or a space or dash before them: "xxxx-2293"), an
# ellipsis inside a token (OpenClaw shows API keys in tool results as "sk-liv…s7Ee"; NFKC turns "…"
# into "..."), an "x" for a whole dotted number group ("10.108.147.x"), and the way banks show an
# account by its last digits: one "x" or an ellipsis before them ("Checking x9361", "…9361").
# Every alternative starts with a literal character, so the regex engine skips ahead to candidates
# (12× faster than lookbehinds first; one alternative written `(?<!x)xx++` took that from all of them: the 8 MB
# payload's text view 0.28 → 0.03 s as `x(?<!xx)x++`); equivalent to
# `[*•●#]+|(?<=\d)x{2,}|x{2,}(?=[ -]?\d)|(?<=[0-9a-z])\.{3}(?=[0-9a-z])|(?<=\d\.)x(?![0-9a-z])|…`.
_LAST_DIGITS = r"(?=\d{4,}(?![0-9a-z]))"
_MASK_RUN = re.compile(r"\*[*•●#]*|•[*•●#]*|●[*•●#]*|#[*•●#]*|x(?<=\dx)x+|x(?<!xx)x++(?=[ -]?\d)"
                       r"|\.(?<=[0-9a-z]\.)\.\.(?=[0-9a-z])|x(?<=[\dx]\.x)(?![0-9a-z])|x(?<=[0-9a-f][:-]x)x(?=[:-]|$|[^0-9a-z])"
                       rf"|x(?<![0-9a-z.]x){_LAST_DIGITS}|\.(?<![0-9a-z.]\.)\.\.{_LAST_DIGITS}")
MASK_SPLIT = re.compile(r"([*•●#]+|x{2,})")
_X_DIGITS = re.compile(r"x\d{4}")  # the cheap check for "x9361"
_MIDDLE_DOTS = re.compile(r"·[·∙⋅]+|∙[·∙⋅]+|⋅[·∙⋅]+")  # [·∙⋅]{2,}, from a literal: 8 MB 0.086 → 0.036 s
# masks that are not mask characters
_SOFT_MASK = re.compile(r"(?<=[0-9a-z])\.{3}(?=[0-9a-z])|(?<=[\dx]\.)x(?![0-9a-z])"
                        rf"|^x{_LAST_DIGITS}|^\.{{3}}{_LAST_DIGITS}")
# A masked token is at most a value's length and this many characters more (masks, separators, a domain);
# longer tokens — a run of 8,000 x's, a Chinese paragraph with one star — are not read (the form's reach)
_TOKEN_SLACK, _SHORTEST_CAP = 24, 48
_BOTH_SIDES = 0.4  # visible share for "mostly" when characters survive on both sides of the mask
#: a credential this short (a PIN, a door code) masked to its own length shows which one it is with two characters
#: (`25**#` of 2580#): a fragment
_SHORT_CODE = 8
_VISIBLE_LETTERS = re.compile(r"[a-z]*(?:[ -]?[*•●#]+)+(?:[ -]?[a-z]+(?:[ -]?[*•●#]+)*)*")  # letters and masks only
_GLUED_LETTERS = re.compile(r"[a-z]+(?=\d)")
_SEPARATORS = re.compile(r"[\s\-./():]")


def _is_mask(ch: str) -> bool:
    return ch in MASK_CHARS or ch == "x"


def _is_token_char(ch: str, cjk: bool) -> bool:
    """A character of a masked token written in one script (Chinese when `cjk`, else any other)."""
    return ch in MASK_CHARS or ((ch.isalnum() or ch in "@._+-") and is_cjk(ch) == cjk)


@register
class MaskedValues(Form):
    name = "masked"
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        """The units by their first and last 1-3 characters, as the visible part of a mask shows them."""
        self._memo: dict[str, list[tuple[int, float, float]]] = {}
        self._near: dict[tuple[str, int, int, bool, bool], list[tuple[int, int]]] = {}
        self._prefix: dict[str, list[int]] = defaultdict(list)
        self._suffix: dict[str, list[int]] = defaultdict(list)
        self._public_prefix = [len(compact_form(cu.public_prefix)) for cu in self.units]
        # a phone number with its country code may be shown without it, or without its "+": "(312) 555-01••"
        self._shapes = [(cu.compact, *cu.digit_forms) if cu.compact.startswith("+") else (cu.compact,)
                        for cu in self.units]
        for i, shapes in enumerate(self._shapes):
            for compact in shapes:
                if len(compact) >= 3:
                    for k in (1, 2, 3):
                        self._prefix[compact[:k]].append(i)
                        self._suffix[compact[-k:]].append(i)
        self.longest_token = max([_SHORTEST_CAP] + [len(cu.compact) + _TOKEN_SLACK for cu in self.units])
        # a token, the 41 characters a secret's symbols are looked for before its mask, and the characters
        # that stop its growth on either side (a crossing looks up to 6 ahead)
        self.reach = self.longest_token + 2 * 42

    def reads(self, matches: dict[str, list[Match]]) -> bool:
        return True

    def confirm(self, scan_view: ScanView, decided: set[int]) -> Iterator[Hit]:
        view = scan_view.view
        text = view.text
        if "··" in text:  # a wallet's "Visa ···· 2293": middle dots as bullets (one is a name's "马库斯·德莱尼")
            text = _MIDDLE_DOTS.sub(lambda m: "•" * len(m.group()), text)
        if not any(ch in text for ch in MASK_CHARS) and "xx" not in text and "..." not in text and ".x" not in text \
                and not _X_DIGITS.search(text):
            return
        seen: set[tuple[int, int]] = set()
        longest = self.longest_token
        for run in _MASK_RUN.finditer(text):
            for start, end in self._variants(text, run.start(), run.end()):
                if end - start <= longest and (start, end) not in seen:
                    seen.add((start, end))
                    yield from self._masked_token(view, text[start:end], start, end, decided)

    def _variants(self, text: str, start: int, end: int) -> list[tuple[int, int]]:
        """`_token_variants`, worked out once per neighbourhood: what it reads lies between the barriers around
        the run (no walk passes one, no crossing reads past one) and 41 characters before it (`_LOOK_BACK`), so
        the same neighbourhood, at the same place in it, grows to the same tokens (a log resends its tool
        results: the 8 MB payload's text view holds 16,372 runs in 4,014 neighbourhoods, 0.18 → 0.06 s)."""
        right = _BARRIER.search(text, end)
        hi = right.end() if right else len(text)
        lo = max(0, min(_last_barrier(text, start), start - _LOOK_BACK))
        if hi - lo > _NEIGHBOURHOOD:
            return _token_variants(text, start, end)
        key = (text[lo:hi], start - lo, end - lo, lo == 0, hi == len(text))
        spans = self._near.get(key)
        if spans is None:
            if len(self._near) >= _NEAR_SIZE:
                self._near.clear()
            spans = self._near[key] = [(s - lo, e - lo) for s, e in _token_variants(text, start, end)]
        return [(s + lo, e + lo) for s, e in spans]

    def _masked_token(self, view: TextView, text: str, start: int, end: int, decided: set[int]) -> Iterator[Hit]:
        """Units a masked token `text` (at `start:end` of the view) may be. What a token may be depends on
        its characters only: worked out once per distinct token (agent logs resend the same masked values)."""
        graded = self._memo.get(text)
        if graded is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            graded = self._memo[text] = self._grade(text)
        span = None
        for i, grade, confidence in graded:
            if i not in decided:
                if span is None:
                    span = view.to_original(start, end)
                yield Hit(i, *span, "partial.masked", grade, confidence)

    def _grade(self, text: str) -> list[tuple[int, float, float]]:
        """(unit, grade, confidence) of each unit a masked token may be."""
        token = _SEPARATORS.sub("", _SOFT_MASK.sub("•", text))
        if not token:
            return []
        domain_only = "@" in token and not token.split("@")[0].strip(MASK_CHARS + "x")
        pieces = MASK_SPLIT.split(token)
        both_sides = pieces[0] != "" and pieces[-1] != ""
        out = []
        for i, visible, unit_len in self._match_masked(token, pieces):
            prefix = self._public_prefix[i]  # a key's published prefix shows nothing of the secret
            secret, secret_len = visible - min(len(pieces[0]), prefix), unit_len - prefix
            short_code = secret >= 2 and len(token) == unit_len <= _SHORT_CODE \
                and self.units[i].rules.name == "credential"
            letters = both_sides and _shows_its_letters(self.units[i].compact, pieces)
            grade = MOSTLY if (secret / secret_len >= _BOTH_SIDES if both_sides else secret / secret_len > 0.5) \
                else FRAGMENT if secret >= 4 or short_code or letters else 0.0
            if domain_only:  # a firm's mail domain narrows it down; a mail provider's identifies no one
                grade = 0.0 if shared_mail_domain(self.units[i].forms[0]) else FRAGMENT
            if not grade and self.units[i].rules.fragment == "surname" and is_cjk(token[0]) \
                    and token[0] == self.units[i].compact[0]:
                grade = FRAGMENT  # a Chinese surname with the given name starred: "周**"
            if grade:
                out.append((i, grade, min(1.0, visible / unit_len + 0.3)))
        return out

    def _match_masked(self, token: str, pieces: list[str]) -> Iterator[tuple[int, int, int]]:
        """(unit, visible characters, the length of the shape they show) of each unit the token's visible
        `pieces` fit."""
        visible_parts = [p for k, p in enumerate(pieces) if k % 2 == 0]
        head, tail = visible_parts[0], visible_parts[-1]
        cjk = any(map(is_cjk, token))
        if cjk:  # no word boundaries in CJK text: the name is the characters right next to the mask
            head, tail = head[-2:], tail[:2]
            visible_parts = [head, tail] if len(pieces) == 3 else visible_parts
        candidates: set[int] | None = None
        for part, index in ((head, self._prefix), (tail, self._suffix)):
            if part:
                key = (part[-1:] if cjk else part[:3]) if index is self._prefix else (part[:1] if cjk else part[-3:])
                found = set(index.get(key, ()))
                candidates = found if candidates is None else candidates | found if cjk else candidates & found
        for i in sorted(candidates or ()):
            for compact in self._shapes[i]:
                if cjk:
                    visible = _loose_visible(compact, head, tail, sum(len(p) for p in pieces[1::2]))
                else:
                    visible = sum(map(len, visible_parts)) if fits_mask(compact, visible_parts) else 0
                if visible and visible < len(compact):
                    yield i, visible, len(compact)
                    break


#: how far a masked token may cross single spaces, hyphens and colons, least first (`_walk`)
_CROSSINGS = ("none", "digits", "groups")


def _expand_token(text: str, start: int, end: int) -> tuple[tuple[int, int], ...]:
    """Grow a mask run to the masked token around it, once per crossing of `_CROSSINGS`.

    "none" crosses no space at all (a masked number at the end of a line, the next line's date after it),
    "digits" single spaces/hyphens between digit or mask groups ("6222 **** 1234"), "groups" also into
    short letter groups ("GB45 BARC **** 94 27", "QQ ** ** 73 B"). A token stays in the script next to its
    mask: Chinese text has no spaces, so "手机139****3366" holds the number "139****3366" and "负责人张*伟"
    the name "张*伟". Each crossing crosses wherever a lesser one does, so one walk each way serves all
    three: where the current crossing stops, the next one goes on."""
    before = text[start - 1] if start else " "
    if _is_token_char(before, is_cjk(before)):  # the script of the token's characters next to the mask
        cjk = is_cjk(before)
    else:
        cjk = end < len(text) and is_cjk(text[end])
    starts, ends = _walk(text, start, -1, cjk), _walk(text, end, 1, cjk)
    spans = []
    for s, e in zip(starts, ends, strict=True):
        while e > s and text[e - 1] in "._+@-!":  # sentence punctuation after the token
            e -= 1
        spans.append((s, e))
    return tuple(spans)


def _walk(text: str, k: int, step: int, cjk: bool) -> list[int]:
    """Where a token edge at `k` grows to in direction `step` (-1: its start, 1: its end), per crossing."""
    reached: list[int] = []
    kinds, n = _KINDS, len(text)
    own = _CJK_TOKEN if cjk else _LATIN_TOKEN
    while True:
        at = k - 1 if step < 0 else k
        if not 0 <= at < n:
            break
        ch = text[at]
        kind = kinds.get(ch)
        if kind is None:
            kind = kinds[ch] = _kind(ch)
        if kind & own:
            k += step
            continue
        if ch in " -:" and 0 <= at + step < n:
            while len(reached) < len(_CROSSINGS) and not _crosses(text, at, step, _CROSSINGS[len(reached)]):
                reached.append(k)
            if len(reached) < len(_CROSSINGS):
                k += step
                continue
        break
    return reached + [k] * (len(_CROSSINGS) - len(reached))


_LATIN_TOKEN, _CJK_TOKEN = 1, 2  # bits of `_kind`: a token character in Latin (any non-Chinese) text, in Chinese
_KINDS: dict[str, int] = {}  # character → its `_kind`, filled as characters are met


def _kind(ch: str) -> int:
    if ch in MASK_CHARS:
        return _LATIN_TOKEN | _CJK_TOKEN
    return (_CJK_TOKEN if is_cjk(ch) else _LATIN_TOKEN) if ch.isalnum() or ch in "@._+-" else 0


def _token_variants(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The masked tokens a mask run may belong to, each tried: grown over digit groups, over short letter
    groups (and only an ID's letters around the mask, from each group's start), over nothing; and without letters
    glued before a number ("ccvi4716xxxxxx4470", a PNR); and with a "!" after it kept (a password's last symbol,
    "Qz7#****X9!")."""
    none, digits, groups = _expand_token(text, start, end)
    spans = [digits, groups, none]
    # an ID's letters around its masked digits, from each group's start: a word before them ("NINO JT •• •• •• B")
    spans += [(k + 1, groups[1]) for k in range(groups[0], start)
              if text[k] == " " and _VISIBLE_LETTERS.fullmatch(text, k + 1, groups[1])]
    if head := _SYMBOLS_BEFORE.search(text, max(0, start - 40), start):  # a secret's symbols: "vf8#qlz2!rm7***"
        spans.append((head.start(), spans[-1][1]))
    if head := _PHONE_BEFORE.search(text, max(0, start - 20), start):  # an area code in brackets: "+1 (614) 555-01**"
        spans.append((head.start(), spans[2][1]))
    for s, e in list(spans):
        if text[e:e + 1] == "!":
            spans.append((s, e + 1))
        glued = _GLUED_LETTERS.match(text, s, e)
        if glued and glued.end() < start:
            spans.append((glued.end(), e))
    return list(dict.fromkeys(spans))


# A barrier: a character no token holds and no crossing crosses (neither a word character, nor "@.+-", a mask
# character, a space or a colon); `_token_variants` reads no further than the barriers around a run, and
# 40 characters before it for a secret's symbols (41 with the look-behind)
_BARRIER = re.compile(r"[^\w@.+\-*•●# :]")
_LOOK_BACK = 41
_NEIGHBOURHOOD = 512  # longer neighbourhoods (a run of 8,000 x's) are not remembered
_NEAR_SIZE = 8192  # neighbourhoods remembered (at most 4 M characters)


def _last_barrier(text: str, pos: int) -> int:
    """The offset of the last barrier before `pos`, or -1."""
    hi = pos
    while hi > 0:
        lo = max(0, hi - 32)
        if found := [m.start() for m in _BARRIER.finditer(text, lo, hi)]:
            return found[-1]
        hi = lo
    return -1


_PHONE_BEFORE = re.compile(r"(?<![\w(+])(?:\+\d{1,3} ?)?\(\d{2,5}\) ?\d+(?:[ .-]\d+)*[ .-]?$")
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


def fits_mask(compact: str, visible: list[str]) -> bool:
    """Does `compact` read as the visible parts in order with ≥ 1 hidden character between each?

    Placing each part at its earliest possible position leaves the most room for the rest. One part alone
    hides nothing (`13757186420x13757186420`: an `x` between digits that the mask split kept whole)."""
    if len(visible) < 2:
        return False
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


def _shows_its_letters(compact: str, pieces: list[str]) -> bool:
    """Does a mask show all of an ID's letters (three at least) and hide its digits, as many as it has (`JT •• •• ••
    B` of the NI number JT481973B, `AB****C` of AB1234C)? Which ID it is narrows to its letters: a fragment, as a
    piece of four characters is."""
    shown, hidden = "".join(pieces[::2]), sum(map(len, pieces[1::2]))
    digits = sum(c.isdigit() for c in compact)
    return len(shown) >= 3 and shown.isalpha() and shown == "".join(filter(str.isalpha, compact)) \
        and hidden == digits == len(compact) - len(shown)


def _loose_visible(compact: str, head: str, tail: str, masked: int) -> int:
    """Visible characters of a CJK value around a mask, e.g. "张*伟" for 张大伟 → 2."""
    i = next((k for k in range(len(head), 0, -1) if compact.startswith(head[-k:])), 0)
    j = next((k for k in range(len(tail), 0, -1) if compact.endswith(tail[:k])), 0)
    hidden = len(compact) - i - j
    return i + j if i + j and hidden >= 1 and abs(hidden - masked) <= 1 else 0
