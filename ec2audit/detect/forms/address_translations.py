"""A Chinese address written out in English as a courier or an insurer's form writes it: `上海市浦东新区张杨路1288弄
7号602室` as `Room 602, No. 7, Lane 1288 Zhangyang Road, Pudong New Area, Shanghai`. Each numbered part of the
value (弄 lane, 号 number, 幢/栋 building, 单元 unit, 室 room) must stand in the text with its English word, all
of them within a few lines, and the value must have three such parts: the address down to the flat (1.0). One
number that differs (`No. 5` for 7号) is the neighbour's flat. The road, where the value names one, is read in its
pinyin (`Zhangyang Road`): another road named there is another address; none named, most of it (0.7)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import ScanView

KIND = "address_translation"
_WINDOW = 160  # how far apart the parts may stand
_LEAST_PARTS = 3
#: a numbered part's Chinese word (as the text view folds Traditional to Simplified) → the English words for it
_PART_WORDS = {"弄": ("lane",), "号": ("no.", "no", "number", "#"), "幢": ("building", "bldg.", "bldg", "block"),
               "栋": ("building", "bldg.", "bldg", "block"), "单元": ("unit", "entrance"),
               "室": ("room", "rm.", "rm", "apt.", "apt", "apartment", "flat", "suite")}
_PART = re.compile(r"(\d+)(" + "|".join(_PART_WORDS) + ")")


def address_parts(value: str) -> list[tuple[str, tuple[str, ...]]]:
    """The value's numbered parts: (number, the English words for its part); none for fewer than three."""
    parts = [(m[1], _PART_WORDS[m[2]]) for m in _PART.finditer(normalize_text(value))]
    return parts if len(parts) >= _LEAST_PARTS else []


_ENGLISH_ROAD = re.compile(r"(?<![0-9a-z])([a-z]+(?: [a-z]+)?) (?:road|rd|street|st|avenue|ave|lu)(?![a-z])")


def _part_regex(number: str, words: tuple[str, ...]) -> re.Pattern:
    return re.compile(rf"(?<![0-9a-z])(?:{'|'.join(map(re.escape, words))}) ?{number}(?!\d)")


@register
class AddressTranslations(Form):
    name = "address_translations"
    kinds = (KIND,)

    def compile(self, index) -> None:
        self._parts: dict[int, list[re.Pattern]] = {}
        self._roads: dict[int, str | None] = {}
        for i, cu in enumerate(self.units):
            if parts := address_parts(cu.unit.value):
                self._parts[i] = [_part_regex(number, words) for number, words in parts]
                self._roads[i] = cu.road  # compiled (and cached) with the unit: pypinyin not imported here
                number, words = parts[-1]  # the flat: the rarest part, the one to look from
                for word in words:
                    for sep in ("", " "):
                        index.add(f"{word}{sep}{number}", KIND, i)
        self.reach = self.bound(index, _WINDOW)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if end < len(text) and text[end].isdigit():
                continue
            lo = max(0, start - _WINDOW)
            around = text[lo:end + _WINDOW]
            for i in units:
                spans = [m.span() for m in (p.search(around) for p in self._parts[i]) if m]
                if len(spans) == len(self._parts[i]) and (grade := self._road_grade(i, around)):
                    first, last = min(s for s, _ in spans), max(e for _, e in spans)
                    yield Hit(i, *view.view.to_original(lo + first, lo + last), "forms.address_translation", grade)

    def _road_grade(self, i: int, around: str) -> float:
        """1.0 with the value's road named (or none in the value), 0 with another road, else 0.7."""
        road = self._roads[i]
        named = [m[1] for m in _ENGLISH_ROAD.finditer(around)]
        if road is None or any(name.replace(" ", "").endswith(road) for name in named):
            return LITERAL
        return 0.0 if named else MOSTLY
