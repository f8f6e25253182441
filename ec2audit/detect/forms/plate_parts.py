"""Most of a vehicle plate next to a word naming a plate: "caught part of the plate, 8KRW4 and then glare" for
`8KRW419`, "车牌A12345" for `京A12345` (its province left out), "plate …W419": a start or an end showing more than
`context_fragments`' share of the plate (`PIECE_SHARE`, 60 %) is most of it (0.7, as `masked` grades a mask
showing more than half). A shorter piece, three characters at least, is a fragment (0.3) where the text also says
which end it is, by a word before it ("the end of the plate, XWT", "starts KN1", "尾号K19") or a mask or an
ellipsis on its hidden side ("…XWT", "KN1**"): letters alone too, which `context_fragments` leaves (a key's type
could be four letters). A piece that
runs on into other letters or digits (`8KRW491`, a neighbour's plate) or follows another province's character
(`沪A12345`) is another plate's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.finding import FRAGMENT, MOSTLY, Hit
from ec2audit.detect.forms import TAIL_WINDOW, Form, matched, register
from ec2audit.detect.forms.context_fragments import PIECE_SHARE
from ec2audit.detect.forms.separators import PROVINCES, separator_forms
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "plate_parts.piece"
#: a start or an end of three characters up to `PIECE_SHARE` of the plate, by the end it is
SHORT_KINDS = {True: "plate_parts.start", False: "plate_parts.end"}
_FEWEST = 3
#: a word before a short piece saying which end of the plate it is, by the end
_END_WORD = {True: re.compile(r"(?<![a-z])(?:first|start(?:s|ed|ing)?|begin(?:s|ning)?|began)(?![a-z])"
                              r"|开头|前[三四五3-5]位"),
             False: re.compile(r"(?<![a-z])(?:end(?:s|ed|ing)?|last|final|tail)(?![a-z])|尾号|尾数|后[三四五3-5]位")}
#: a mask or an ellipsis on a short piece's hidden side: before an end, after a start
_HIDDEN_SIDE = {True: re.compile(r" ?(?:\.{2,}|[*•●#x?]{2,}|…)"), False: re.compile(r"(?:\.{2,}|[*•●#?]{2,}|…) ?$")}
#: what names a plate in the text around a piece
_PLATE = re.compile(r"plate|licen[cs]e|registration|\breg\b|vrm|车牌|牌照|号牌|车号")
#: what names a vehicle's plate in a unit's field or description (a licence or a registration number alone is a
#: driver's or a company's)
_PLATE_UNIT = re.compile(r"plate|vehicle|\bcar\b|vrm|车牌|牌照|号牌|车号")
_SEPARATORS = "·・‧ -./"
_BARE = str.maketrans("", "", _SEPARATORS)
_PLATE_SHAPE = re.compile(r"[\u4e00-\u9fff]?[0-9a-z]{5,8}")
_RUNS_ON = re.compile(r"[·・‧\-.]?[0-9a-z]")
_RUNS_ON_BEFORE = re.compile(r"[0-9a-z][·・‧\-.]?$")
_WORD_BEFORE = re.compile(r"(?<![0-9a-z])([a-z]+)[ -]$")
#: a pinyin syllable, as a province's name is romanised before a plate's letter (`hu`, `su`, `shaan`, `yue`, `e`):
#: an initial, or Hubei's `e` alone (English's "in", "on", "an" are no province's)
_SYLLABLE = re.compile(r"(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])[aeiouv]{1,3}(?:ng|n)?|e")


def is_plate(cu: CompiledUnit) -> bool:
    """A unit whose field or description names a plate and whose value is one: 5–8 letters and digits, both
    shown, a Chinese province's character before them or none."""
    bare = normalize_text(cu.unit.value).strip().translate(_BARE)
    named = _PLATE_UNIT.search(normalize_text(f"{cu.unit.field} {cu.unit.description or ''}".replace("_", " ")))
    return bool(named and _PLATE_SHAPE.fullmatch(bare) and (bare[0].isascii() or bare[0] in PROVINCES)
                and any(c.isdigit() for c in bare) and any(c.isalpha() and c.isascii() for c in bare))


def plate_pieces(value: str, short: bool | None = None) -> list[str]:
    """The starts and ends of the plate, as written and in its other spellings (`separators`), as the text view
    reads them: those that show more than `PIECE_SHARE` of it and less than all (`short` None), or the starts
    (True) or the ends (False) that show `_FEWEST` characters up to that share."""
    norm = normalize_text(value).strip()
    whole = len(norm.translate(_BARE))
    pieces = []
    for spelling in (norm, *separator_forms(value)):
        for k in range(1, len(spelling)):
            for is_start, piece in ((True, spelling[:k]), (False, spelling[k:])):
                shown = len(piece.translate(_BARE))
                fits = PIECE_SHARE * whole < shown < whole if short is None \
                    else short == is_start and _FEWEST <= shown <= PIECE_SHARE * whole
                if fits and piece[0] not in _SEPARATORS and piece[-1] not in _SEPARATORS:
                    pieces.append(piece)
    return list(dict.fromkeys(pieces))


@register
class PlateParts(Form):
    name = "plate_parts"
    kinds = (KIND, *SHORT_KINDS.values())
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        # context: a plate word within the window on either side
        self.compile_forms(index, {kind: partial(_pieces_of, short=short)
                                   for short, kind in ((None, KIND), *SHORT_KINDS.items())}, context=TAIL_WINDOW)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for kind in self.kinds:
            short = next((is_start for is_start, k in SHORT_KINDS.items() if k == kind), None)
            for start, end, units in matched(view, kind, decided):
                if _alone(text, start, end) and _PLATE.search(text, max(0, start - TAIL_WINDOW), end + TAIL_WINDOW) \
                        and (short is None or _end_said(text, start, end, short)):
                    span = view.view.to_original(start, end)
                    for i in units:
                        yield Hit(i, *span, *(("partial.plate", MOSTLY) if short is None
                                              else ("partial.fragment", FRAGMENT)), 0.6)


def _pieces_of(cu: CompiledUnit, short: bool | None) -> list[str]:
    return plate_pieces(cu.unit.value, short) if is_plate(cu) else []


def _end_said(text: str, start: int, end: int, is_start: bool) -> bool:
    """Does the text say which end of the plate the short piece at `start:end` is: a word for that end before it,
    or a mask or an ellipsis on its hidden side?"""
    hidden = _HIDDEN_SIDE[is_start].match(text, end) if is_start \
        else _HIDDEN_SIDE[is_start].search(text, max(0, start - 5), start)
    return bool(hidden or _END_WORD[is_start].search(text, max(0, start - TAIL_WINDOW), start))


def _alone(text: str, start: int, end: int) -> bool:
    """Not inside a longer plate: no letter or digit (or a separator and one) on either side, no province before it,
    as its character or romanised (`Su A·7K3M9` is Jiangsu's plate, not Shanghai's `沪A·7K3M9`)."""
    word = _WORD_BEFORE.search(text, max(0, start - 8), start)
    return not (_RUNS_ON_BEFORE.search(text, max(0, start - 2), start) or (start and text[start - 1] in PROVINCES)
                or (word and text[start].isalpha() and _SYLLABLE.fullmatch(word[1])) or _RUNS_ON.match(text, end))
