"""The start or the end of an identifier next to a word that says so: "card ending 2291", "ends in 73 B",
"the last four of the SSN are 4410", "a key that begins AKIA4QXR", "尾号2291", "以mike.r开头", "a microchip
ending in 1203": a fragment (0.3); a piece showing more than `PIECE_SHARE` of it ("密码前半段是Xy!2026" of an
eleven-character password), most of it (0.7). The automaton reports the context words (each unit's taxonomy
`context`); the form reads the pieces next to them and confirms the units whose value starts or ends with one."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.finding import FRAGMENT, MOSTLY, Hit
from ec2audit.detect.forms import MEMO_SIZE, TAIL_WINDOW, Form, register, standalone
from ec2audit.detect.forms.mail_domains import shared_mail_domain
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

TAIL_CONTEXT = "tail_context"
_PIECE = re.compile(r"[^\s,;，。；：:()（）\"'`?？!！\u2e80-\u9fff]+")
_BEFORE_CONTEXT = frozenset({"开头", "结尾"})
_IS = frozenset("是为:：")
_PREFIX_CONTEXT = frozenset({"starts with", "starting with", "begins with", "beginning with", "begins", "starts",
                             "starting", "prefix", "first four", "first 4", "first six", "first 6", "first three",
                             "first 3", "first five", "first 5", "first half", "开头", "前缀", "前四位", "前4位",
                             "前六位", "前6位", "前三位", "前3位", "前五位", "前5位", "前半段", "前半部分", "前半截"})
#: a Latin piece after Han, before the word, a space on either side or none ("是 Xq7# 开头", "是Lin@开头")
_RUN_BEFORE = re.compile(r"(?<=[\u2e80-\u9fff]) ?([^\s\u2e80-\u9fff]+) ?$")
_GROUP_BEFORE = re.compile(r"\d[ \-]?$")
_GROUP_AFTER = re.compile(r"[ \-]\d{4}[ \-]\d{4}")  # the first groups of a card written out
_KEY_CONTEXT = frozenset({"last4", "last_4", "last_four"})  # context words that are written as keys
PIECE_SHARE = 0.6  # a piece showing more of the value than this share is most of it (0.7), as a mask showing half
#: the shortest value read in pieces: a six-digit door code's first three ("前三位是958"), a plate's last three; a
#: four-digit PIN has no piece of three within the share
_SHORTEST = 5
_BOTH_SIDES = 0.4  # the share a start and an end piece together show for "mostly" (as `masked` grades a mask)
_BARE = str.maketrans("", "", " \t\n-./():_,")
_DIGIT = re.compile(r"\d")
_DIGITS_ON = re.compile(r"[ \-]?\d")
#: a key's type before its secret part: words and their separators at its start ("rk_live_", "sk-proj-", "ghp_")
_KEY_TYPE = re.compile(r"(?:[A-Za-z]{1,10}[_-])+")


@register
class ContextFragments(Form):
    name = "context_fragments"
    kinds = (TAIL_CONTEXT,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        """Every start and end piece short enough to be one, by its characters without separators."""
        self._bare: dict[int, str] = {}
        self._issuer_digits: dict[int, int] = {}
        self._key_type: dict[int, int] = {}
        self._starts: dict[str, list[int]] = defaultdict(list)
        self._ends: dict[str, list[int]] = defaultdict(list)
        self._memo: dict[tuple[str, int, int], list[tuple[int, int, int, bool, bool]]] = {}
        for i, cu in enumerate(self.units):
            bare = _bare(cu.forms[0])
            pieced = cu.rules.fragment == "tail" or (cu.rules.fragment == "code" and _code(cu.forms[0]))
            if len(bare) >= _SHORTEST and pieced:
                self._bare[i] = bare
                self._issuer_digits[i] = _issuer_digits(cu, bare)
                key_type = _KEY_TYPE.match(cu.forms[0]) if "@" not in cu.forms[0] else None  # (`tianzh_` is a name's)
                self._key_type[i] = len(_bare(key_type.group())) if key_type else 0
                for k in range(3, len(bare)):
                    self._starts[bare[:k]].append(i)
                    self._ends[bare[-k:]].append(i)
                for word in cu.rules.context:
                    index.add(word, TAIL_CONTEXT, i)
        self.reach = self.bound(index, TAIL_WINDOW + 4)  # pieces in the neighbourhood of the context word

    def confirm(self, scan_view: ScanView, decided: set[int]) -> Iterator[Hit]:
        """A piece that is the last group of a whole number written out is another number's. A number whose
        start and end both stand in the text ("ending 2216 and starting 4532 77", a card as PCI DSS lets it be
        shown) shows as much as a mask showing both (`masked`): most of it (0.7) where the two show 40 % of it,
        the issuer's digits counted then. (A password's two ends stay a fragment, as the hand-written sets grade
        them.)

        What a context word finds depends only on the characters around it, so it is worked out once per
        distinct neighbourhood: agent logs repeat the same lines many times."""
        view = scan_view.view
        text = view.text
        pieces: dict[int, list[tuple[int, int, bool, bool]]] = defaultdict(list)
        for c_start, c_end, _ in scan_view.matches.get(TAIL_CONTEXT, ()):
            lo, hi = max(0, c_start - TAIL_WINDOW - 4), c_end + TAIL_WINDOW + 1
            key = (text[lo:hi], c_start - lo, c_end - lo)
            found = self._memo.get(key)
            if found is None:
                if len(self._memo) >= MEMO_SIZE:
                    self._memo.clear()
                found = self._memo[key] = list(self._fragments_near(key[0], key[1], key[2]))
            for start, end, i, prefix, issuer in found:
                if i not in decided:
                    pieces[i].append((lo + start, lo + end, prefix, issuer))
        for i, found_pieces in pieces.items():
            shown = {prefix: max((len(_bare(text[s:e])) for s, e, p, _ in found_pieces if p == prefix), default=0)
                     for prefix in (True, False)}
            whole = self._bare[i]
            both = whole.isdigit() and all(shown.values()) and sum(shown.values()) >= _BOTH_SIDES * len(whole)
            for start, end, _, issuer in found_pieces:
                most = len(_bare(text[start:end])) > PIECE_SHARE * len(whole)
                if both or not issuer:
                    yield Hit(i, *view.to_original(start, end), "partial.masked" if both else "partial.fragment",
                              MOSTLY if both or most else FRAGMENT, 0.6)

    def _fragments_near(self, text: str, c_start: int, c_end: int) -> Iterator[tuple[int, int, int, bool, bool]]:
        """(start, end, unit, a start piece?, only the issuer's digits?) of each piece the context word at
        `c_start:c_end` of `text` introduces."""
        word = text[c_start:c_end]
        if word.isascii() and not standalone(text, c_start, c_end) and not (
                word in _KEY_CONTEXT and standalone(text.replace("_", " "), c_start, c_end)):
            return  # a word of its own; "last4" also as one part of a key's name ("ssn_last4": "4410")
        provider = None
        if word in _BEFORE_CONTEXT and text[c_end:c_end + 1] in _IS:  # "开头是sk-proj-c49k"
            pieces = _pieces(text, c_end + 1, min(len(text), c_end + 1 + TAIL_WINDOW))
        elif word in _BEFORE_CONTEXT:  # "以mike.r开头", "是Lin@开头的": the piece stands before the word
            k = text.rfind("以", max(0, c_start - TAIL_WINDOW), c_start)
            run = _RUN_BEFORE.search(text, max(0, c_start - TAIL_WINDOW), c_start) if k < 0 else None
            start, end = (k + 1, c_start) if k >= 0 else run.span(1) if run else (0, 0)
            pieces = [(start, end)] if end - start >= 3 else []
            provider = _PROVIDER_AFTER.match(text, c_end)  # "tianzh开头的163邮箱": the mailbox's provider named too
        elif word in _PREFIX_CONTEXT or _DIGIT.search(text, c_end, c_end + TAIL_WINDOW):
            pieces = _pieces(text, c_end, min(len(text), c_end + TAIL_WINDOW))
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
            if len(piece) < 3 or (len(piece) < 4 + prefix and piece.isalpha()):
                continue
            for i in (self._starts if prefix else self._ends).get(piece, ()):
                whole = self._bare[i]
                if word not in self.units[i].rules.context:
                    continue
                if provider and not _at_provider(self.units[i].forms[0], provider[1]):
                    continue  # a mailbox of that start at another provider is another mailbox
                if "@" in whole and not prefix and len(piece) <= len(whole) - whole.index("@") \
                        and shared_mail_domain(self.units[i].forms[0]):
                    continue  # only a mail provider's domain: it does not identify anyone
                # the issuer's part of a number, a carrier's or a bank's, is not the person's: alone, no fragment;
                # written on into other digits ("4532 78"), no part of this number
                issuer = prefix and piece.isdigit() and len(piece) <= self._issuer_digits[i]
                if prefix and len(piece) <= self._key_type[i]:
                    continue  # "starting with rk_live_": every live key of that vendor starts so, not this one
                if not (issuer and _DIGITS_ON.match(text, end)):
                    yield start, end, i, prefix, issuer


_PROVIDER_AFTER = re.compile(r"的?\s*([0-9a-z]+)\s*(?:邮箱|信箱)")


def _at_provider(value: str, provider: str) -> bool:
    """Is a mail address at the provider a text names (`163` for `@163.com`, `gmail` for `@gmail.com`)? A value
    that is no address has no provider to differ from."""
    return "@" not in value or value.split("@")[-1].split(".")[0] == provider


def _issuer_digits(cu: CompiledUnit, bare: str) -> int:
    """How many leading digits of a number its issuer shares with everyone it issued: a card's or an
    account's first six (the bank's IIN, ISO/IEC 7812: "以6217开头" is every card of one bank), a phone's
    or an ID's first four (a carrier's prefix "159", an area). "Starts with" a piece no longer than this
    says which bank or carrier, not whose number; the ID's six-digit district code still narrows it. A secret (a
    PIN, a door code) has no issuer: its first digits are its own."""
    if cu.rules.name == "credential":
        return 0
    return _CARD_ISSUER if cu.rules.name == "financial" and bare.isdigit() and len(bare) >= 12 else _ISSUER


_ISSUER, _CARD_ISSUER = 4, 6


def _code(value: str) -> bool:
    """One token showing digits (a microchip, a plate, a policy number): what a dimension of codes and words keeps
    fragments of (taxonomy `fragment = "code"`)."""
    return not any(c.isspace() for c in value) and sum(c.isdigit() for c in value) >= 2


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
