"""A position given in decimal degrees (`47.6205, -122.3493`) written in degrees, minutes and seconds
(`47°37'13.8"N 122°20'57.5"W`) or degrees and decimal minutes (`N 47° 37.23', W 122° 20.958'`), in either
order. Both coordinates must agree with the value to within the rounding of the coarser of the two writings
(a fourth decimal of a degree is 11 m; a tenth of a second 3 m): one second off is another place."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import ScanView

KIND = "coordinates.degrees"
_DECIMAL_PAIR = re.compile(r"(-?\d{1,2}\.\d{3,})\s*[,;/ ]\s*(-?\d{1,3}\.\d{3,})")
def parse_coordinates(value: str) -> tuple[Decimal, Decimal, Decimal] | None:
    """(latitude, longitude, half the unit of their last decimal) of a value in decimal degrees."""
    m = _DECIMAL_PAIR.fullmatch(normalize_text(value).strip())
    if not m:
        return None
    lat, lon = Decimal(m.group(1)), Decimal(m.group(2))
    if abs(lat) > 90 or abs(lon) > 180:
        return None
    places = min(len(m.group(1).partition(".")[2]), len(m.group(2).partition(".")[2]))
    return lat, lon, Decimal(5) / 10 ** (places + 1)


# one coordinate's degrees, minutes and seconds in the text view (NFKC writes ″ as ′′)
_NUMBER = r"\d{1,2}(?:\.\d+)?"
_BODY = re.compile(rf"(\d{{1,3}}) ?° ?({_NUMBER}) ?['′’](?: ?({_NUMBER}) ?(?:\"|′′|''|”))?")
_BEFORE = re.compile(r"(?<![0-9a-z])([nsew]) ?")  # a hemisphere letter before the degrees ("n 47°")
_AFTER = re.compile(r" ?([nsew])(?![a-z])")  # … or after them ("13.8\"n")
_BETWEEN = re.compile(r" ?[,;/]? ?")


def _coordinate(text: str, at: int, letter_first: bool | None) -> tuple[int, int, str, Decimal, Decimal] | None:
    """(start, end, axis "lat"/"lon", signed degrees, half the unit of its last digit) of the coordinate whose
    hemisphere letter or degrees begin at `at`, written the way `letter_first` says (None: either way)."""
    before = _BEFORE.match(text, at) if letter_first is not False else None
    body = _BODY.match(text, before.end() if before else at)
    if not body or (letter_first and not before):
        return None
    after = _AFTER.match(text, body.end()) if not before else None
    letter = before or after
    if letter is None:
        return None
    hemisphere = letter[1]
    degrees, minutes, seconds = Decimal(body[1]), body[2], body[3]
    if Decimal(minutes) >= 60 or (seconds is not None and Decimal(seconds) >= 60):
        return None
    last, scale = (seconds, 3600) if seconds is not None else (minutes, 60)
    value = degrees + Decimal(minutes) / 60 + (Decimal(seconds) / 3600 if seconds is not None else 0)
    rounding = Decimal(5) / 10 ** (len(last.partition(".")[2]) + 1) / scale
    end = after.end() if after else body.end()
    return at, end, ("lat" if hemisphere in "ns" else "lon"), (-value if hemisphere in "sw" else value), rounding


def read_pair(text: str, start: int) -> tuple[int, int, Decimal, Decimal, Decimal, Decimal] | None:
    """(start, end, latitude, its rounding, longitude, its rounding) of two coordinates, the first with its
    degrees at `start`, in either order."""
    first = None
    if start >= 1 and (lead := _BEFORE.search(text, max(0, start - 2), start)) and lead.end() == start:
        first = _coordinate(text, lead.start(), True)
    first = first or _coordinate(text, start, False)
    if not first:
        return None
    letter_first = first[0] < start
    gap = _BETWEEN.match(text, first[1])
    second = _coordinate(text, gap.end() if gap else first[1], letter_first)
    if not second or second[2] == first[2]:
        return None
    lat, lon = (first, second) if first[2] == "lat" else (second, first)
    return first[0], second[1], lat[3], lat[4], lon[3], lon[4]


@register
class Coordinates(Form):
    name = "coordinates"
    kinds = (KIND,)

    def compile(self, index) -> None:
        self._positions: dict[int, tuple[Decimal, Decimal, Decimal]] = {}
        for i, cu in enumerate(self.units):
            if (position := parse_coordinates(cu.unit.value)) is not None:
                self._positions[i] = position
                for degrees in position[:2]:  # the cue: either coordinate's whole degrees and the sign
                    index.add(f"{abs(int(degrees))}°", KIND, i)
                    index.add(f"{abs(int(degrees))} °", KIND, i)
        self.reach = self.bound(index, _PAIR_LENGTH)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, _end, units in matched(view, KIND, decided):
            if (start and text[start - 1].isdigit()) or not (pair := read_pair(text, start)):
                continue
            begin, end, lat, lat_rounding, lon, lon_rounding = pair
            for i in units:
                want_lat, want_lon, value_rounding = self._positions[i]
                if abs(lat - want_lat) <= value_rounding + lat_rounding \
                        and abs(lon - want_lon) <= value_rounding + lon_rounding:
                    yield Hit(i, *view.view.to_original(begin, end), "forms.coordinates", LITERAL)


_PAIR_LENGTH = 64  # characters the two coordinates and a letter before them take at most around the cue
