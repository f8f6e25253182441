"""A person's name spelled by their e-mail local part or user name (`maria.kessler@…`, `dokonkwo`,
`zhangxiaoyan88`), graded by how much of the name it gives away, on AceBench's scale as the rest of the
string tiers grade a name:

- given name and surname both in full, in either order, joined or with `.`, `_`, `-` (digits may follow):
  the name, 1.0 (`maria.kessler`, `kessler_maria`, `zhang.xiaoyan`);
- one part cut to its initial: most of the name, 0.7 — as "M. Kessler" or "Maria K." is
  (`mkessler`, `m.kessler`, `mariak`, `dokonkwo` for David Okonkwo, `zhangxy`, `xyzhang`);
- the surname or the given name alone, or initials only (`kessler@`, `oywb@`): not graded — a handle
  like that names many people.

A handle must stand as a token of its own (no letter, digit or handle character glued before it; at most
trailing digits after it), and its cut forms need a surname of four letters or more."""

from __future__ import annotations

from collections.abc import Iterator

from ec2audit.detect.compiled import HAN_NAME
from ec2audit.detect.finding import LITERAL, MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.forms.surnames import han_surname, latin_surname
from ec2audit.detect.views import ScanView

FULL, CUT = "handle.full", "handle.cut"
_JOINS = ("", ".", "_", "-")
_HANDLE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789._+-")
_MIN_FULL, _MIN_SURNAME = 6, 4
_DIGITS_AFTER = 16  # a handle's digits ("emily.r1987"); a longer run of digits after a name is no handle's


def name_parts(cu) -> tuple[list[str], str] | None:
    """(given-name syllables or words, surname) of a person's name unit in Latin letters (pinyin for a Chinese
    name), or None."""
    if cu.rules.fragment != "surname":
        return None
    name = cu.forms[0]
    if HAN_NAME.fullmatch(name):
        if not cu.romanized:
            return None
        family = han_surname(name)
        syllables = cu.romanized[-1].split()  # "zhou zi mo": syllable by syllable
        split = len(syllables) - (len(name) - len(family))
        return syllables[split:], "".join(syllables[:split])
    surname = latin_surname(name)
    if surname is None or not name.isascii():
        return None
    given = name.split()[0]
    return ([given], surname.replace(" ", "")) if given.isalpha() else None


def handle_forms(given: list[str], surname: str) -> tuple[list[str], list[str]]:
    """(full forms, cut forms) of a name as a handle."""
    whole = "".join(given)
    initials = "".join(g[0] for g in given)
    full = [f"{a}{j}{b}" for a, b in ((whole, surname), (surname, whole)) for j in _JOINS]
    cut = []
    if len(surname) >= _MIN_SURNAME:
        cut = [f"{a}{j}{b}" for a, b in ((initials, surname), (surname, initials)) for j in _JOINS]
        cut += [f"{whole}{j}{surname[0]}" for j in _JOINS]
    return [f for f in full if len(f) >= _MIN_FULL], [f for f in cut if len(f) >= _MIN_FULL]


def _is_handle(text: str, start: int, end: int) -> bool:
    if start and text[start - 1] in _HANDLE_CHARS:
        return False
    k, stop = end, min(len(text), end + _DIGITS_AFTER + 1)
    while k < stop and text[k].isdigit():
        k += 1
    if k > end + _DIGITS_AFTER:
        return False
    if k == len(text):
        return True
    after = text[k]
    return not (after.isascii() and after.isalpha()) and not (
        after in "._+-" and k + 1 < len(text) and text[k + 1] in _HANDLE_CHARS)


@register
class NameHandles(Form):
    name = "handles"
    kinds = (FULL, CUT)

    def compile(self, index) -> None:
        for i, cu in enumerate(self.units):
            if (parts := name_parts(cu)) is not None:
                full, cut = handle_forms(*parts)
                for form in full:
                    index.add(form, FULL, i)
                for form in cut:
                    index.add(form, CUT, i)
        self.reach = self.bound(index, _DIGITS_AFTER + 2)  # the digits after the handle, and the character after them

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for kind, grade in ((FULL, LITERAL), (CUT, MOSTLY)):
            for start, end, units in matched(view, kind, decided):
                if _is_handle(text, start, end):
                    span = view.view.to_original(start, end)
                    for i in units:
                        yield Hit(i, *span, f"forms.{kind}", grade)
