"""Home addresses as people and postal systems shorten or reorder them.

- Latin addresses: the street type, unit and direction words in each spelling postal conventions allow —
  USPS Publication 28 (`usaddress-scourgify`'s tables: Lane/Ln, Court/Ct, Road/Rd, Street/St, Avenue/Ave,
  Apartment/Apt/#, Suite/Ste, North/N…), plus the Australian and British street types Pub 28 lacks
  (AS 4590: Close/Cl, Grove/Gr, Parade/Pde, Esplanade/Esp, Terrace/Tce) — with or without the commas: the
  whole address 1.0; the house number and street alone 0.7 (the town not said; another flat or another town
  named after it is another address), and 1.0 again where the town or the ZIP code is named in the
  next few fields (a validation service's `"standardized": "1847 LARKSPUR LN", "city": "BOISE"`).
- Chinese addresses: without the province, or without province and city (`杭州市西湖区文三路90号…`,
  `西湖区文三路90号…`): 1.0; the part below the district (street, number, building, room) alone: 0.7, and
  1.0 when the city or district is named within a few characters around it (the address in another order:
  `文三路90号东部软件园5幢301室（杭州西湖区）`). A section and a floor as Taiwan and Hong Kong write them
  either way: `一段`/`1段`, `4楼`/`4F`/`4层` (a Traditional address is read in its Simplified form, as the views
  fold the text). Down to the building without the flat (`田林东路75弄21号`, `安贞西里四区12号楼3单元`): 0.7 —
  unless the text goes on to another flat (`…12号楼3单元205室`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import cache

from ec2audit.detect.exact import bounded
from ec2audit.detect.finding import LITERAL, MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.forms.cjk_spacing import despaced
from ec2audit.detect.forms.dates import han_number
from ec2audit.detect.normalize import TextView
from ec2audit.detect.views import ScanView

WHOLE, STREET, LOCAL, BUILDING = "address.whole", "address.street", "address.local", "address.building"
_AS4590 = {"close": "cl", "grove": "gr", "parade": "pde", "esplanade": "esp", "terrace": "tce"}
_MAX_VARIANTS = 64
_AREA_WINDOW = 24  # how far from the local part a city or district may be named
_OTHER_UNIT = re.compile(r",? ?(?:apt\.?|apartment|unit|suite|ste\.?|#) ?([0-9a-z-]+)")
_NEXT_PLACE = re.compile(r",? ?([A-Z][A-Za-z]+)")  # the town that follows a street line, as written
_TOWN_WINDOW = 80  # how far after a street line (or before it) its town or ZIP code may be named


@cache
def _spellings() -> dict[str, tuple[str, ...]]:
    """Every spelling of a street type, unit or direction word → all its spellings (lower case)."""
    from scourgify.address_constants import (
        DIRECTIONAL_REPLACEMENTS,
        LONGHAND_STREET_TYPES,
        OCCUPANCY_TYPE_ABBREVIATIONS,
    )

    groups: list[set[str]] = []
    for abbr, long in LONGHAND_STREET_TYPES.items():
        groups.append({abbr.lower(), long.lower()})
    for long, abbr in {**OCCUPANCY_TYPE_ABBREVIATIONS, **DIRECTIONAL_REPLACEMENTS}.items():
        groups.append({abbr.lower(), long.lower()})
    groups += [{long, abbr} for long, abbr in _AS4590.items()]
    groups.append({"apt", "apartment", "#", "unit"})
    out: dict[str, set[str]] = {}
    for group in groups:
        group |= {f"{w}." for w in group if w.isalpha() and len(w) <= 4}
        for word in group:
            out.setdefault(word, set()).update(group)
    return {w: tuple(sorted(s)) for w, s in out.items()}


def _word_variants(words: list[str]) -> list[list[str]]:
    spellings = _spellings()
    return [list(spellings.get(w, (w,))) for w in words]


#: numbered roads named by who keeps them, in the ways they are shortened (`County Road 212`, `CR-212`, `CR 212`,
#: `SR 9`, `Hwy-287`, `FM 1960`); a name in two groups (`cr`) reads as either
_ROAD_GROUPS = [("county road", "county rd", "co rd", "co road", "cr"), ("county route", "co rte", "cr"),
                ("state route", "state rte", "sr"), ("state road", "state rd", "sr"),
                ("state highway", "state hwy", "sh"), ("us highway", "us hwy", "us route", "us"),
                ("farm to market road", "farm to market", "farm road", "fm"), ("ranch to market road", "rm"),
                ("highway", "hwy"), ("route", "rte"), ("interstate", "i")]
_ROAD_NAMES = {name: tuple(dict.fromkeys(n for g in _ROAD_GROUPS if name in g for n in g))
               for group in _ROAD_GROUPS for name in group}
_ROAD = re.compile(rf"(?<![\w-])({'|'.join(sorted(_ROAD_NAMES, key=len, reverse=True))})\.?[ -]?(\d+[a-z]?)(?!\w)")


def road_variants(line: str) -> list[str]:
    """A street line with its numbered road in every spelling (the line as written first): `4410 county road 212`
    → `4410 cr-212`, `4410 cr 212`, `4410 co rd 212`, … An abbreviation takes its number after a hyphen, a space or
    nothing; a name of words, after a space."""
    m = _ROAD.search(line)
    if not m:
        return [line]
    written = [f"{name}{sep}{m[2]}" for name in _ROAD_NAMES[m[1]]
               for sep in ((" ",) if " " in name or len(name) > 3 else ("-", " ", ""))]
    return list(dict.fromkeys([line] + [line[:m.start()] + w + line[m.end():] for w in written]))


def _line_variants(line: str, most: int) -> list[str]:
    """A street line's spellings: each numbered-road spelling, with up to `most` spellings of its other words."""
    lines = road_variants(line)
    per_line = max(4, most // len(lines))
    return list(dict.fromkeys(" ".join(v) for road in lines
                              for v in itertools.islice(itertools.product(*_word_variants(road.split())), per_line)))


def latin_forms(form: str) -> tuple[list[str], list[str]]:
    """(whole-address variants, street-line variants) of a normalised Latin address."""
    chunks = [c.split() for c in form.split(",") if c.strip()]
    if not chunks or not any(w[:1].isdigit() for w in chunks[0]):
        return [], []
    street = _line_variants(" ".join(chunks[0]), _MAX_VARIANTS)
    options = [[" ".join(v) for v in itertools.islice(itertools.product(*_word_variants(c)), 8)] for c in chunks]
    options[0] = _line_variants(" ".join(chunks[0]), 8)
    whole = []
    for combo in itertools.islice(itertools.product(*options), _MAX_VARIANTS):
        whole += [joined for sep in (", ", " ") for joined in (sep.join(combo), sep.join(combo).replace("# ", "#"))]
    own = " ".join(chunks[0])  # the street line as the value spells it: the partial tier grades that one
    return [w for w in dict.fromkeys(whole) if w != form], [s for s in street if len(s) >= 8 and s != own]


def _word_in(text: str, word: str) -> bool:
    """Does `word` stand in `text` as a word of its own (not inside a longer word or number)?"""
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if not (at and text[at - 1].isalnum()) and not (end < len(text) and text[end].isalnum()):
            return True
        at = text.find(word, at + 1)
    return False


def town_words(form: str) -> list[str]:
    """The town and ZIP code of a Latin address, after its street line: "boise", "83706"."""
    words = [w.strip(".") for chunk in form.split(",")[1:] for w in chunk.split()]
    return [w for w in words if (w.isalpha() and len(w) >= 4) or (w.isdigit() and len(w) >= 5)]


# (a prefecture-level city, an autonomous prefecture `黔东南州`/`…自治州`, a region `…地区`, a league `…盟`)
_ADMIN = re.compile(r"^(?P<province>[\u4e00-\u9fff]{2,7}?(?:省|自治区))?"
                    r"(?P<city>[\u4e00-\u9fff]{2,9}?(?:市|州|地区|盟))?"
                    r"(?P<district>[\u4e00-\u9fff]{1,4}?(?:区|县|旗))?(?P<local>.+)$")


_NUMERALS = "一二三四五六七八九"
_SECTION = re.compile(rf"([{_NUMERALS}]|[1-9])段")
_FLOOR = re.compile(r"(\d{1,2})(?:楼|层|f)(?!\w)")


#: a numbered village group, team, house or building, its number in Arabic or Han numerals (`3组`, `三组`, `十二号`)
_NUMBERED = re.compile(r"(?<![\d〇零一二三四五六七八九十百])([〇零一二三四五六七八九十百]+|\d{1,3})"
                       r"(组|队|社|号|栋|幢|单元)")
_HAN_VALUES = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0}


def han_value(numeral: str) -> int:
    """A number in Han numerals as an address writes it: 三 → 3, 十二 → 12, 二十 → 20, 一百零三 → 103."""
    total = digit = 0
    for ch in numeral:
        if ch in "十百":
            total, digit = total + (digit or 1) * (10 if ch == "十" else 100), 0
        else:
            digit = digit * 10 + _HAN_VALUES[ch]
    return total + digit


def _numbers_as(local: str, han: bool) -> str:
    """The local part with every numbered group, house or building in Han numerals (`han`) or Arabic digits."""
    def written(m: re.Match) -> str:
        n = int(m[1]) if m[1].isdigit() else han_value(m[1])
        return f"{han_number(n) if han and 0 < n < 200 else n}{m[2]}"

    return _NUMBERED.sub(written, local)


def local_variants(local: str) -> list[str]:
    """The local part of a Chinese address with its section in digits or numerals, its floor written 楼, F
    or 层, and its numbered group or house in digits or numerals: `复兴南路一段219巷12号4楼` → `复兴南路1段219巷12号4f`,
    …; `羊排村三组` → `羊排村3组`."""
    def section(m: re.Match) -> str:
        n = m[1]
        return f"{_NUMERALS.index(n) + 1 if n in _NUMERALS else _NUMERALS[int(n) - 1]}段"

    sections = [local, _SECTION.sub(section, local)]
    forms = [_FLOOR.sub(rf"\g<1>{floor}", s) for s in sections for floor in ("楼", "f", "层")]
    forms = list(dict.fromkeys(sections + forms))
    return list(dict.fromkeys(forms + [_numbers_as(f, han) for han in (False, True) for f in forms]))


_BUILDING_CUT = re.compile(r"\d+(?:号楼|号|幢|栋|座|单元)")
_FILLER = re.compile(r"[\s,，、]*")
_FLAT_LEAD = re.compile(r"[^\d\s一二三四五六七八九十]{2,}")  # a block's name before the flat's numbers (`融侨大厦`)
_FLAT_WINDOW = 40


def building_prefixes(local: str) -> list[tuple[str, str]]:
    """(the local part down to a building or entrance, the flat it leaves out) of a Chinese address:
    `田林东路75弄21号604室` → (`田林东路75弄21号`, `604室`)."""
    out = []
    for m in _BUILDING_CUT.finditer(local):
        head, rest = local[:m.end()], local[m.end():]
        if len(head) >= 5 and any(c.isdigit() for c in rest):
            out.append((head, rest))
    return out


def _other_flat(text: str, start: int, end: int, rest: str) -> bool:
    """Does the text go on from a building to a flat that is not the value's (`12号楼3单元205室` for 502室)?
    Also True where it goes on at once to the value's own flat: the whole local part is graded, not its building
    (after a comma, `杨桥东路58号，融侨大厦2座1103`, no local part matches: the building is). And where the flat's
    block is named near it with another number (`融侨大厦1座1103`, before or after `杨桥东路58号`, for
    `融侨大厦2座1103`): the text is about a neighbour in that block."""
    lead = _FLAT_LEAD.match(rest)
    if lead:
        near = text[max(0, start - _FLAT_WINDOW):start] + "\n" + text[end:end + _FLAT_WINDOW]
        numbers = [m.end() for m in re.finditer(re.escape(lead.group()) + r"(?=[\d一二三四五六七八九十])", near)]
        if numbers and not any(near.startswith(rest[lead.end():], k) for k in numbers):
            return True
    filler = _FILLER.match(text, end)
    at = filler.end() if filler else end
    same = 0
    while same < len(rest) and at + same < len(text) and text[at + same] == rest[same]:
        same += 1
    if same == len(rest):
        return at == end
    return at + same < len(text) and text[at + same].isdigit()


def chinese_forms(form: str) -> tuple[list[str], list[str], list[str]]:
    """(forms without the province / city, the local part below the district in its variants, the area
    names) of a Chinese address."""
    m = _ADMIN.match(form)
    if not m or not (m["city"] or m["district"]):
        return [], [], []
    locals_ = local_variants(m["local"])
    if len(m["local"]) < 5 or not any(c.isdigit() for local in locals_ for c in local):
        return [], [], []
    city, district = m["city"] or "", m["district"] or ""
    short_city = re.sub(r"(?:自治州|市|州|地区|盟)$", "", city)
    forms = [f"{area}{local}" for local in locals_ for area in (city + district, district, short_city + district)]
    forms += [f"{m['province'] or ''}{city}{district}{local}" for local in locals_[1:]]
    areas = [a for a in (city, short_city, district, district[:-1]) if len(a) >= 2]
    return ([f for f in dict.fromkeys(forms) if f != form and f not in locals_], locals_,
            list(dict.fromkeys(areas)))


@register
class Addresses(Form):
    name = "addresses"
    kinds = (WHOLE, STREET, LOCAL, BUILDING)

    def compile(self, index) -> None:
        self._areas: dict[int, list[str]] = {}
        self._towns: dict[int, list[str]] = {}
        self._flats: dict[tuple[int, str], str] = {}  # (unit, building) → the flat it leaves out
        for i, cu in enumerate(self.units):
            if cu.rules.name != "location":  # a home or postal address
                continue
            form = cu.forms[0]
            if form.isascii():
                whole, street = latin_forms(form)
                for f in whole:
                    index.add(f, WHOLE, i)
                for f in street:
                    index.add(f, STREET, i)
                if towns := town_words(form):
                    self._towns[i] = towns
                continue
            for written in dict.fromkeys(map(despaced, cu.forms)):  # a Traditional address and its Simplified form
                whole, locals_, areas = chinese_forms(written)
                for f in whole:
                    index.add(f, WHOLE, i)
                for local in locals_:
                    index.add(local, LOCAL, i)
                    self._areas.setdefault(i, []).extend(a for a in areas if a not in self._areas.get(i, ()))
                    for building, flat in building_prefixes(local):
                        index.add(building, BUILDING, i)
                        self._flats[i, building] = flat
        # number boundaries (`bounded`): 40 characters and 2 on either side; after a street, the next flat or
        # town (a word compared with the value's own, so read no further than the value is long)
        own = max((len(cu.forms[0]) for cu in self.units if cu.rules.name == "location"), default=0)
        self.reach = index.longest(*self.kinds) + 42 + max(42, own + 14, _TOWN_WINDOW)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, WHOLE, decided):
            if bounded(text, start, end):
                span = view.view.to_original(start, end)
                for i in units:
                    yield Hit(i, *span, "forms.address.whole", LITERAL)
        for start, end, units in matched(view, STREET, decided):
            if bounded(text, start, end):
                other = _OTHER_UNIT.match(text, end)
                span = view.view.to_original(start, end)
                place = _NEXT_PLACE.match(view.view.original, TextView.to_original(view.view, start, end)[1])
                for i in units:  # another flat in the same house, or the street in another town, is another address
                    own = f" {self.units[i].forms[0]}"
                    if not (other and f" {other.group(1)}" not in own) and not (
                            place and f" {place.group(1).lower()}" not in own):
                        near = text[max(0, start - _TOWN_WINDOW):start] + " " + text[end:end + _TOWN_WINDOW]
                        named = any(_word_in(near, w) for w in self._towns.get(i, ()))
                        yield Hit(i, *span, "forms.address.street", LITERAL if named else MOSTLY)
        for start, end, units in matched(view, LOCAL, decided):
            if end < len(text) and text[end].isdigit():
                continue
            around = text[max(0, start - _AREA_WINDOW):start] + " " + text[end:end + _AREA_WINDOW]
            span = view.view.to_original(start, end)
            for i in units:
                named = any(a in around for a in self._areas[i])
                yield Hit(i, *span, "forms.address.local", LITERAL if named else MOSTLY)
        for start, end, units in matched(view, BUILDING, decided):
            span = view.view.to_original(start, end)
            for i in units:
                if not _other_flat(text, start, end, self._flats[i, text[start:end]]):
                    yield Hit(i, *span, "forms.address.building", MOSTLY)
