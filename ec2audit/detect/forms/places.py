"""Where a home address lies, below a whole address (which `addresses` and the exact tier grade): a
fragment (0.3).

- the street without its house number, the postcode or the estate ("tamarack lane", "星湖街", "澜岸花园",
  "3511 nr") standing alone, not inside a whole address (another house on the street);
- the city, district or neighbourhood ("columbus", "苏州", "玉林") only next to a word about living there, and a
  US ZIP code next to a word naming it ("the 59715 ZIP", "zip code: 59715")."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.compiled import COMMON_WORDS
from ec2audit.detect.finding import FRAGMENT, Hit
from ec2audit.detect.forms import CJK_RUN, Form, mentions, register, standalone
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

PLACE, AREA = "place", "area"
_CJK_PLACE = re.compile(r"(.{2,8}?(?:省|自治区|市|自治州|区|县|旗|镇|乡|街道))|(.{2,10}?(?:大道|大街|路|街|巷|弄|胡同))"
                        r"|(.{2,10}?(?:花园|小区|公寓|家园|苑|村|大厦|广场|新城|园))")
_NUMBER_PART = re.compile(r"[\d\-#]+[a-z]?(?:-?[a-z])?|\d+号.*")
_UNIT_WORDS = frozenset({"apt", "apartment", "unit", "suite", "ste", "flat", "floor", "room", "rm", "bldg"})
# "漕溪路84号", "玉林南路无71号", "复兴南路一段291巷", "Tamarack Lane 12": another house on the street; "羊排村四组",
# "星湖街十二号": a group of the village, a house on the street, numbered in Han numerals as often as in digits
_HOUSE_AFTER = re.compile(r" ?\d|[^\W\d_]{1,2}\d{1,12}[号號巷弄]|[〇零一二三四五六七八九十百]{1,4}[组队社号號栋幢]")
# a whole address right before a postcode: "Oudegracht 241-B, ", "77 Hollis Ave, ", "84 Larkspur Road, Leeds "; a
# number right before a street
_HOUSE_BEFORE = re.compile(r"(?:\d+[a-z]?(?:-[a-z])? (?:[^\W\d_]+,? ){1,3}?|[^\W\d_]{3,} \d+-?[a-z]?),? ?$")
_NUMBER_BEFORE = re.compile(r"\d+[a-z]?(?:-[a-z])? ?$")
# "苏州市星湖街…", "北京市朝阳区安贞西里四区21号…": the start of a whole address (a street, or a numbered house)
_STREET_AFTER = re.compile(r"[^\W\d_]{0,8}?(?:路|街|道|巷|弄|号)|[^\W_]{0,16}?\d+[号號弄巷]")


@register
class Places(Form):
    name = "places"
    kinds = (PLACE, AREA)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        for i, cu in enumerate(self.units):
            if cu.rules.name == "location":
                for part in address_parts(cu.forms[0]):
                    index.add(part, PLACE, i)
                for area in address_areas(cu.forms[0]):
                    index.add(area, AREA, i)
        self.reach = self.bound(index, 40)  # a house number or street 40 characters around, a residence word 24 before

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        yield from mentions(view, PLACE, decided, _place_alone, "partial.fragment", FRAGMENT, 0.4)
        yield from mentions(view, AREA, decided, _lives_there, "partial.fragment", FRAGMENT, 0.4)


def _place_alone(text: str, start: int, end: int) -> bool:
    """A street without its house number, the postcode or estate of a home address — unless the mention is
    part of a whole address (another house on the street), which the value's own forms decide."""
    return not ((text[start].isascii() and not standalone(text, start, end)) or _in_whole_address(text, start, end))


def _lives_there(text: str, start: int, end: int) -> bool:
    """The city, district or neighbourhood of a home address where the text says someone lives there ("lives
    in Columbus", "travelling from Utrecht", "住苏州园区那边", "玉林片区", `"current_city":"苏州"`), a ZIP code where
    it says it is one. Without such
    a word a city is where the employer, the school or anyone else is."""
    return bool(_AREA_AFTER.match(text, end) or _RESIDENCE_BEFORE.search(text, max(0, start - 24), start)) \
        and not _NOT_HOME.search(text, max(0, start - 24), start) and _place_alone(text, start, end)  # rarest first


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
    r"|(?:city|district|town|area|residence|住址|现居地?|居住地)[\"']?\s*[:=：]\s*[\"']?"
    r"|(?<![a-z])(?:zip|zip ?code|post ?code|postal code|邮编|邮政编码)[\"']?\s*[:=：]?\s*[\"']?) ?$")
# where someone was born or is registered is not where they live (a hukou address is another address)
_NOT_HOME = re.compile(r"户籍|户口|籍贯|出生|老家|hukou|hometown|birth|born|native")
_AREA_AFTER = re.compile(r" ?(?:那边|那一片|那一带|一带|片区|附近|那块|area(?![a-z])|-based| resident"
                         r"|(?:zip|post ?code|postal code)(?![a-z]))")


def address_areas(form: str) -> list[str]:
    """The areas a home address lies in, which identify only next to a word about living there: the city
    and district with and without their suffix ("苏州市", "苏州", "武侯"), a street's name without "路"
    ("玉林" of 玉林南路), a Latin address's city ("columbus", "utrecht") and ZIP code ("59715")."""
    areas = []
    if CJK_RUN.search(form):
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
        areas += _ZIP.findall(chunk)
    return [a for a in areas if len(a) >= 4 and a not in COMMON_WORDS]


def address_parts(form: str) -> list[str]:
    """The parts of a home address that narrow it down without the house: the street, the estate and a
    fine postcode ("tamarack lane", "星湖街", "澜岸花园", "3511 nr"). A city or district alone does not: the
    employer, the school and other people are there too."""
    if CJK_RUN.search(form):
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


_ZIP = re.compile(r"(?<=[a-z] )\d{5}(?=(?:-\d{4})?$)")  # a US ZIP code after its state ("mt 59715"): an area
_FINE_POSTCODE = re.compile(r"\b\d{4} ?[a-z]{2}\b|\b[a-z]{1,2}\d[a-z\d]? \d[a-z]{2}\b")  # "3511 nr", "cb2 1tn"
