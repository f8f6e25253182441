"""A body weight or a height written in the other system's unit: `131 kg` as `289 lb` or `288.8 lbs` (a load plan,
a US chart), `289 lb` as `131 kg`, `175 cm` as `5'9"` or `5 ft 9 in`: the same measurement (1.0). A conversion
rounds: to the whole unit and to one decimal, as forms and charts write it; any other number is another
measurement. A lab concentration per decilitre is written per litre by labs outside the US, and back (`13.5 g/dL`
as `135 g/L`, `42 µg/dL` as `420 µg/L`, also as a CSV's number and unit columns, `420,µg/L`): exactly ten times,
no rounding."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from ec2audit.detect.compiled import CompiledUnit
from ec2audit.detect.exact import bounded
from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "conversions.measure"
_POUNDS_PER_KG = 2.20462262
_CM_PER_INCH = 2.54
_MEASURE = re.compile(r"(\d{1,3}(?:[.,]\d{1,2})?) ?(kg|kgs|kilos?|kilograms?|lb|lbs|pounds?|cm|centimet(?:er|re)s?)")
_NAMES = {"kg": ("kg", "kgs", "kilos", "kilograms"), "lb": ("lb", "lbs", "pounds")}
#: a concentration as the text view reads it (NFKC makes the micro sign a Greek mu)
_CONCENTRATION = re.compile(r"(\d{1,4}(?:\.\d{1,3})?) ?(μg|ug|mcg|mg|ng|g)/(dl|l)")
_MASS_NAMES = {"μg": ("μg", "ug", "mcg"), "ug": ("μg", "ug", "mcg"), "mcg": ("μg", "ug", "mcg")}


def _written(number: float, unit: str) -> list[str]:
    """The converted number as it is written: rounded whole and to one decimal, with each name of its unit."""
    numbers = dict.fromkeys((f"{round(number)}", f"{number:.1f}"))
    return [f"{n}{space}{name}" for n in numbers for name in _NAMES[unit] for space in ("", " ")]


def conversion_forms(unit: CompiledUnit) -> list[str]:
    """A measurement value's forms in the other system: kilograms as pounds, pounds as kilograms, centimetres as
    feet and inches (`5'9"`, `5′9″`, `5 ft 9 in`, `5ft 9in`)."""
    if c := _CONCENTRATION.fullmatch(unit.forms[0].strip()):
        return _per_other_volume(Decimal(c[1]), c[2], c[3])
    m = _MEASURE.fullmatch(unit.forms[0].strip())
    if m is None:
        return []
    number, name = float(m.group(1).replace(",", ".")), m.group(2)
    if name.startswith(("kg", "kilo")):
        return _written(number * _POUNDS_PER_KG, "lb")
    if name.startswith(("lb", "pound")):
        return _written(number / _POUNDS_PER_KG, "kg")
    feet, inches = divmod(round(number / _CM_PER_INCH), 12)
    return [f"{feet}'{inches}\"", f"{feet}′{inches}″", f"{feet}' {inches}\"", f"{feet} ft {inches} in",
            f"{feet}ft {inches}in", f"{feet} ft {inches}"]


def _per_other_volume(number: Decimal, mass: str, volume: str) -> list[str]:
    """A concentration per litre as per decilitre (a tenth) and back, with a space, none or a CSV's comma between."""
    other = number / 10 if volume == "l" else number * 10
    written = format(other.normalize(), "f")
    return [f"{written}{sep}{name}/{'l' if volume == 'dl' else 'dl'}" for sep in ("", " ", ",")
            for name in _MASS_NAMES.get(mass, (mass,))]


@register
class Conversions(Form):
    name = "conversions"
    kinds = (KIND,)

    def compile(self, index: PatternIndex) -> None:
        self.compile_forms(index, {KIND: conversion_forms}, context=2)  # a number's boundaries

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if bounded(text, start, end):
                span = view.view.to_original(start, end)
                for i in units:
                    yield Hit(i, *span, "forms.conversion", LITERAL)
