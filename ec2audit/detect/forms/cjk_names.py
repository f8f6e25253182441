"""Chinese names masked the ways documents mask them, beyond the partial tier's "韩*兰" and "沈**":

- the given name starred after a compound surname, or after a kept given-name character (`司马晓*`,
  `司马**`, `张晓*`): graded by the share still visible, as a masked value is (0.7 above half, else 0.3);
- court-style anonymisation (`李某某`, `李某`, `司马某`): the surname alone, 0.3; with a given-name
  character kept (`李某华`): 0.7 when it is this person's, nothing when it is another's.
"""

from __future__ import annotations

from collections.abc import Iterator

from ec2audit.detect.compiled import HAN_NAME, han_given_name_chars
from ec2audit.detect.finding import FRAGMENT, MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.forms.surnames import han_surname
from ec2audit.detect.views import ScanView

MASKED, COURT = "cjk.masked", "cjk.court"
_MASKS = "*•●×○"  # as the text view reads them (NFKC folds ＊ to *)
_ANONYMOUS = "某"


def _mask_run(text: str, start: int) -> int:
    end = start
    while end < len(text) and text[end] in _MASKS:
        end += 1
    return end - start


@register
class MaskedHanNames(Form):
    name = "cjk_names"
    kinds = (MASKED, COURT)

    def compile(self, index) -> None:
        self._names: dict[int, tuple[str, str]] = {}
        for i, cu in enumerate(self.units):
            name = cu.forms[0]
            if cu.rules.fragment != "surname" or not HAN_NAME.fullmatch(name):
                continue
            family = han_surname(name)
            given = name[len(family):]
            if not given:
                continue
            self._names[i] = family, given
            for k in range(len(given)):  # the surname and the first k given-name characters, then a mask
                for mask in _MASKS:
                    index.add(family + given[:k] + mask, MASKED, i)
            index.add(family + _ANONYMOUS, COURT, i)
        self.reach = self.bound(index, 8)  # the mask run after the name (at most 6 count) and a character around

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, MASKED, decided):
            if start and text[start - 1] in _MASKS:
                continue  # inside a longer masked token
            masked = _mask_run(text, end - 1)
            after = text[end - 1 + masked:end + masked]
            for i in units:
                family, given = self._names[i]
                visible = end - 1 - start
                hidden = len(family) + len(given) - visible
                if _is_han(after) and after in han_given_name_chars():
                    continue  # "张*伟": a character after the mask, the partial tier's form
                if masked != 1 and abs(masked - hidden) > 1:
                    continue
                grade = MOSTLY if visible / (len(family) + len(given)) > 0.5 else FRAGMENT
                yield Hit(i, *view.view.to_original(start, end - 1 + masked), "forms.cjk.masked", grade)
        for start, end, units in matched(view, COURT, decided):
            after = text[end:end + 1]
            for i in units:
                if after == _ANONYMOUS:
                    yield Hit(i, *view.view.to_original(start, end + 1), "forms.cjk.court", FRAGMENT)
                elif _is_han(after) and after in self._names[i][1]:
                    yield Hit(i, *view.view.to_original(start, end + 1), "forms.cjk.court", MOSTLY)
                elif not (_is_han(after) and after in han_given_name_chars()):  # "李某伟" is another's name
                    yield Hit(i, *view.view.to_original(start, end), "forms.cjk.court", FRAGMENT)


def _is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"
