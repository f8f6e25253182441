"""An identifier a record writes with separators (a plate `沪A·7K39B`, a reference `KX-4471-B`) sent with them
dropped or changed (`沪A7K39B`, `KX 4471 B`, `KX.4471.B`), and one written without them sent in groups of four
as a licence or a bank prints it (`91440300MA5FX3QK8R` as `9144 0300 MA5F X3QK 8R`), or split where its letters
and digits meet as a plate is printed (`7KDW392` as `7-KDW-392`, `粤B7K29Q` as `粤B·7K29Q`), a Chinese plate's
province in pinyin (`沪A·7K3M9` as `Hu A·7K3M9`) — for every dimension:
the exact tier's alphanumeric view does this only for the dimensions that name it, and never for a middle dot.
A number of eight or nine digits behind a one- or two-letter prefix is also sent without it, and nine in threes
as its form's box asks for it (an A-Number `A219448703` as `A-Number 219-448-703`, `A-219-448-703`); a number of
ten digits or more (a microchip, an IMEI) is sent in fours or threes (`985112004471203` as `985 112 004 471 203`).
An identifier here is groups of letters (or Han) and digits, at least two digits and six characters in all,
each group with a digit or at most four characters (an address's words are no identifier); the value found
must not continue into another letter or digit."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import ScanView

KIND = "separators.identifier"
_SEPARATOR = "·・‧ -./"
_IDENTIFIER = re.compile(rf"[^\W_]+(?:[{_SEPARATOR}][^\W_]+)+")
_GROUPS = re.compile(rf"[{_SEPARATOR}]")


_GROUPED_FROM = 10  # an identifier this long without separators is printed in groups of four
_LONG_CUTS = 2  # ... and cut where letters and digits meet only where they meet at most this often (`a-219448703`)
_PREFIXED_NUMBER = re.compile(r"([a-z]{1,2})(\d{8,9})")  # a letter prefix before a number (an A-Number, a passport)


def separator_forms(value: str) -> list[str]:
    """The identifier's groups joined by nothing and by each other separator, as the text view reads them."""
    norm = normalize_text(value).strip()
    plate = norm[:1] in PROVINCES and norm[1:2].isascii() and norm[1:2].isalpha()  # a Chinese plate: "粤BD73K92"
    long_number = len(norm) >= _GROUPED_FROM and norm.isascii() and norm.isdigit()
    if long_number:  # a long number (a microchip, an IMEI) in fours, in threes, in threes from its end
        groupings = [[norm[k:k + n] for k in range(0, len(norm), n)] for n in (4, 3)]
        groupings.append([norm[max(0, k - 3):k] for k in range(len(norm) % 3 or 3, len(norm) + 1, 3)])
    elif len(norm) >= _GROUPED_FROM and norm.isascii() and norm.isalnum():
        groupings = [[norm[k:k + 4] for k in range(0, len(norm), 4)], *_script_groupings(norm, _LONG_CUTS)]
    elif _IDENTIFIER.fullmatch(norm):
        groupings = [_GROUPS.split(norm)]
    elif norm.isalnum():
        groupings = _script_groupings(norm)
        if plate:  # as printed, a dot after its province and letter: "粤B·D73K92"
            groupings.append([norm[:2], norm[2:]])
    else:
        return []
    forms = []
    for groups in groupings:
        joined = "".join(groups)
        if len(joined) < 6 or sum(c.isdigit() for c in joined) < 2 or (joined.isdigit() and not long_number) \
                or any(len(g) > 4 and not any(c.isdigit() for c in g) for g in groups):
            return []
        forms += [joined, *(sep.join(groups) for sep in " -.·")]
    if m := _PREFIXED_NUMBER.fullmatch(norm):
        number, prefix = m[2], m[1]
        forms.append(number)
        if len(number) == 9:
            for sep in " -":
                threes = sep.join((number[:3], number[3:6], number[6:]))
                forms += [threes, prefix + threes, prefix + sep + threes]
    if plate:  # a plate romanised: "Hu A·7K3M9", "Shanghai A 7K3M9"
        forms += [f"{name}{sep}{form[1:]}" for form in (norm, *forms) for sep in (" ", "-")
                  for name in (PROVINCES[norm[0]], PROVINCE_NAMES[norm[0]])]
    return [f for f in dict.fromkeys(forms) if f != norm]


#: the one-character names of China's provinces a plate starts with, as their pinyin spells them (藏 Zang, 陕 Shaan)
PROVINCES = dict(zip("京津沪渝冀晋蒙辽吉黑苏浙皖闽赣鲁豫鄂湘粤桂琼川贵云藏陕甘青宁新", (
    "jing jin hu yu ji jin meng liao ji hei su zhe wan min gan lu yu e xiang yue gui qiong chuan gui yun zang shaan "
    "gan qing ning xin").split(), strict=True))
#: ... and as their full names in pinyin (粤 Guangdong), as a plate is written out in English ("GUANGDONG B D73K92")
PROVINCE_NAMES = dict(zip(PROVINCES, (
    "beijing tianjin shanghai chongqing hebei shanxi neimenggu liaoning jilin heilongjiang jiangsu zhejiang anhui "
    "fujian jiangxi shandong henan hubei hunan guangdong guangxi hainan sichuan guizhou yunnan xizang shaanxi gansu "
    "qinghai ningxia xinjiang").split(), strict=True))


def _script(ch: str) -> int:
    return 0 if ch.isdigit() else 1 if ch.isascii() else 2


def _script_groupings(norm: str, most: int | None = None) -> list[list[str]]:
    """An identifier without separators cut where digits, Latin letters and Han meet: at every such place, and
    at each one alone (`粤b·7k29q`, `7kdw-392`); none for one of a single script, or with more places than `most`."""
    cuts = [k for k in range(1, len(norm)) if _script(norm[k]) != _script(norm[k - 1])]
    if not cuts or (most is not None and len(cuts) > most):
        return []
    every = [norm[a:b] for a, b in zip([0, *cuts], [*cuts, len(norm)], strict=True)]
    return [every, *([norm[:k], norm[k:]] for k in cuts)]


def _alone(text: str, start: int, end: int) -> bool:
    """Not inside a longer ASCII word or number (Chinese text runs on into a plate: "车牌沪A7K39B")."""
    return not ((start and text[start - 1].isascii() and text[start - 1].isalnum())
                or (end < len(text) and text[end].isascii() and text[end].isalnum()))


@register
class Separators(Form):
    name = "separators"
    kinds = (KIND,)

    def compile(self, index) -> None:
        # context: the characters right around the identifier
        self.compile_forms(index, {KIND: lambda cu: separator_forms(cu.unit.value)})

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if _alone(text, start, end):
                span = view.view.to_original(start, end)
                for i in units:
                    yield Hit(i, *span, "forms.separators", LITERAL)
