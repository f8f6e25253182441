"""A blood type (ABO group and RhD) in another of its notations: `AB型 Rh阴性` sent as `AB negative`,
`AB Rh(D)-negative`, `AB-` or `Rh阴性AB型`, and back. A blood type is a code: one letter more or less is another
group (`A型 Rh阴性` is not `AB型 Rh阴性`), so no near-verbatim variant of it is read (`is_blood_type`). A value
without its Rh factor is left to the exact tier: "type A" is too common a phrase to read as a group."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.compiled import is_word_char
from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import ScanView

KIND = "blood_types.type"
_VALUE = re.compile(r"(?:blood\s*(?:type|group)[\s:]*|type\s+|血型[\s:]*)?(ab|a|b|o)\s*型?[\s,/]*"
                    r"(?:rh\s*(?:\(d\)|d)?[\s:\-]*)?(阴性|阳性|negative|positive|neg|pos|[-+−])?")
_SIGNS = {"阴性": "-", "negative": "-", "neg": "-", "-": "-", "−": "-",
          "阳性": "+", "positive": "+", "pos": "+", "+": "+"}
_RH_WORDS = {"-": ("negative", "neg"), "+": ("positive", "pos")}
_RH_SIGNS = {"-": ("-", "−", "(-)", "(−)"), "+": ("+", "(+)")}
_RH_HAN = {"-": "阴性", "+": "阳性"}


def is_blood_type(value: str) -> bool:
    """Is the value an ABO group (with or without its Rh factor)?"""
    return bool(_VALUE.fullmatch(normalize_text(value).strip()))


def blood_type_forms(value: str) -> list[str]:
    """The value's group and Rh factor in the notations a record, a lab export or a chat writes them in."""
    m = _VALUE.fullmatch(normalize_text(value).strip())
    if not m or not m[2]:
        return []
    group, sign = m[1], _SIGNS[m[2]]
    rh = [*(f"rh{d}{s}{w}" for d in ("", "d", "(d)") for s in (" ", "-") for w in _RH_WORDS[sign]),
          *(f"rh{d}{s}" for d in ("", "d", "(d)") for s in _RH_SIGNS[sign])]
    forms = [f"{group}{sep}{r}" for sep in (" ", ", ", "/", " type, ") for r in (*rh, *_RH_WORDS[sign])]
    forms += [f"{group}{s}" for s in _RH_SIGNS[sign]]
    forms += [f"{r}{sep}{group}" for r in rh for sep in (" ", ", type ")]
    han = _RH_HAN[sign]
    for rh_han in (f"rh{han}", f"rhd{han}", f"rh(d){han}", f"rh{_RH_SIGNS[sign][0]}", f"rh({_RH_SIGNS[sign][0]})"):
        forms += [f"{group}型{sep}{rh_han}" for sep in ("", " ", ",", "，")]
        forms += [f"{group} {rh_han}", f"{rh_han}{group}型", f"{rh_han} {group}型", f"{rh_han}, {group}型"]
    return [f for f in dict.fromkeys(normalize_text(f) for f in forms) if f != normalize_text(value).strip()]


@register
class BloodTypes(Form):
    name = "blood_types"
    kinds = (KIND,)

    def compile(self, index) -> None:
        self.compile_forms(index, {KIND: lambda cu: blood_type_forms(cu.unit.value)})

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if _alone(text, start, end):
                span = view.view.to_original(start, end)
                for i in units:
                    yield Hit(i, *span, "forms.blood_type", LITERAL)


def _alone(text: str, start: int, end: int) -> bool:
    """Not the end of a word (`lab negative`); a sign not the start of a code or a longer sign (`AB-1234`, `A++`)."""
    before = start and is_word_char(text[start - 1])
    after = end < len(text) and (is_word_char(text[end - 1]) or text[end - 1] in "+-−") \
        and (is_word_char(text[end]) or text[end] in "+-−")
    return not (before or after)
