"""A Chinese term with its grade, stage, degree or type (`七级伤残`, `高血压3级`, `2型糖尿病`, `矽肺一期`) written the
other way round, its number in the other numerals, or under a label: `伤残七级`, `伤残等级：柒级` (capital numerals
read by `cjk_capital_numerals`), `三级高血压`, `糖尿病（2型）`, `二型糖尿病`. Each is the same finding (1.0); another
number is another grade, and a number that goes on (`十七级`, `27级`) is another number."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, mentions, register
from ec2audit.detect.forms.dates import han_number
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.views import ScanView

KIND = "graded_terms.term"
_HAN_VALUES = {han_number(n): n for n in range(1, 100)}
_NUMBER = "|".join(sorted(_HAN_VALUES, key=len, reverse=True)) + r"|\d{1,2}"
_GRADED = re.compile(rf"(?P<pre>[\u4e00-\u9fff]{{2,8}}?)?(?P<n>{_NUMBER})(?P<u>[级期度型])"
                     rf"(?P<post>[\u4e00-\u9fff]{{2,8}})?")
#: the labels a record writes before a grade of each kind ("伤残等级：七级", "分期：III期")
_LABELS = {"级": ("等级", "分级", "级别"), "期": ("分期",), "度": ("分度", "程度"), "型": ("分型", "类型")}
_NUMERALS = "〇零一二三四五六七八九十百0123456789"


def graded_forms(value: str) -> list[str]:
    """The term and its grade in either order, in either numerals, bare, bracketed or under a label."""
    norm = normalize_text(value).strip()
    m = _GRADED.fullmatch(norm)
    if not m or bool(m["pre"]) == bool(m["post"]):
        return []
    n = int(m["n"]) if m["n"].isdigit() else _HAN_VALUES[m["n"]]
    term, unit = m["pre"] or m["post"], m["u"]
    forms = []
    for number in (str(n), han_number(n)):
        grade = f"{number}{unit}"
        forms += [f"{grade}{term}", f"{term}{grade}", f"{term} {grade}", f"{term}({grade})", f"{term},{grade}"]
        forms += [f"{term}{label}{sep}{grade}" for label in _LABELS[unit] for sep in ("", ":", " ", ": ")]
    return [f for f in dict.fromkeys(forms) if f != norm]


@register
class GradedTerms(Form):
    name = "graded_terms"
    kinds = (KIND,)

    def compile(self, index) -> None:
        # context: the characters right around the term
        self.compile_forms(index, {KIND: lambda cu: graded_forms(cu.unit.value)})

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        return mentions(view, KIND, decided, _number_alone, "forms.graded_term", LITERAL, 1.0)


def _number_alone(text: str, start: int, end: int) -> bool:
    """A grade written first does not end a longer number (`十七级伤残`, `27级伤残`); written after its term, the
    form holds what stands before it."""
    return not (start and text[start - 1] in _NUMERALS)
