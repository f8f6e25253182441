"""Forms: the shapes a unit's value takes in traffic nobody here wrote, one module per form.

A form does up to three things, each optional (`Form` gives the no-op defaults):

- `rewrite` a text into one a reader sees plainly (an escaped line break undone, invisible characters
  dropped, look-alike letters mapped to their TR39 skeleton), where the automaton's matches in the text
  view say it is `wanted`. Every form's replacements go into the
  text's decoded view (`views.decoded_view`), which every string tier reads; offsets map back to the
  characters the text really holds.
- `compile` patterns for the run's units into the shared automaton, under kinds named after the form.
- `confirm` the automaton's matches of those kinds in one view into graded hits.

A new form is one module in this package with one `@register`ed class; the cascade builds every
registered form over the run's units (`build_forms`) and runs them as the string tier `FormsTier`.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import ClassVar

from ec2audit.detect.compiled import CompiledUnit, placeholder_spans
from ec2audit.detect.finding import Hit
from ec2audit.detect.patterns import Match, PatternIndex
from ec2audit.detect.views import Replacement, ScanView


class Form:
    """One form; subclasses override what they use."""

    name: ClassVar[str]
    kinds: ClassVar[tuple[str, ...]] = ()  # the automaton kinds `confirm` reads

    def __init__(self, units: Sequence[CompiledUnit], index: PatternIndex):
        """`compile` the form for the run's units."""
        self.units = units
        self.compile(index)

    def compile(self, index: PatternIndex) -> None:
        """Add this form's patterns for `self.units` to the shared automaton (kinds prefixed by `name`)."""

    def wanted(self, matches: dict[str, list[Match]]) -> bool:
        """Does the text whose text view has these automaton matches call for `rewrite`? (A form whose
        rewrite needs a literal cue compiles the cue under its own kind and checks for it here.)"""
        return True

    def rewrite(self, text: str) -> Iterable[Replacement]:
        """(start, end, replacement) spans of `text` that a reader reads as the replacement."""
        return ()

    def confirm(self, view: ScanView, decided: set[int]) -> Iterable[Hit]:
        """Hits from this form's matches in one view; `decided` units were found literally already."""
        return ()


#: name → form class, in registration order
FORMS: dict[str, type[Form]] = {}


def register(cls: type[Form]) -> type[Form]:
    FORMS[cls.name] = cls
    return cls


def build_forms(units: Sequence[CompiledUnit], index: PatternIndex) -> list[Form]:
    """Every registered form, compiled for `units`."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return [cls(units, index) for cls in FORMS.values()]


class FormsTier:
    """The string tier of the registered forms: each confirms its own matches; nothing inside a
    redaction placeholder counts."""

    name = "forms"

    def __init__(self, forms: list[Form]):
        self.forms = [f for f in forms if f.kinds]  # the forms that confirm matches of their own

    def scan(self, scan_view: ScanView, hits: list[Hit], decided: set[int]) -> list[Hit]:
        matches = scan_view.matches
        found = [hit for form in self.forms if any(kind in matches for kind in form.kinds)
                 for hit in form.confirm(scan_view, decided)]
        if not found:
            return found
        view = scan_view.view
        protected = [view.to_original(s, e) for s, e in placeholder_spans(view)]
        return [hit for hit in found if not any(s <= hit.start < e for s, e in protected)]


# -- helpers the forms share ------------------------------------------------------------------------

def char_class(codes: Iterable[int]) -> str:
    """A regex character class of code points, written as ranges: a class of single characters outside
    Latin-1 makes the regex engine test each one in turn (50× slower on Chinese text)."""
    ranges: list[list[int]] = []
    for c in sorted(codes):
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "[" + "".join(re.escape(chr(a)) + (f"-{re.escape(chr(b))}" if b > a else "") for a, b in ranges) + "]"


def matched(view: ScanView, kind: str, decided: set[int]) -> Iterator[tuple[int, int, tuple[int, ...]]]:
    """The matches of `kind` that still name a unit not decided."""
    for start, end, units in view.matches.get(kind, ()):
        if not decided.issuperset(units):
            yield start, end, tuple(i for i in units if i not in decided)


__all__ = ["FORMS", "Form", "FormsTier", "Match", "build_forms", "char_class", "matched", "register"]
