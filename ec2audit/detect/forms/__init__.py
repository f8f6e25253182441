"""Forms: the shapes a unit's value takes in traffic nobody here wrote, one module per form.

A form does up to three things, each optional (`Form` gives the no-op defaults):

- `rewrite` a text into one a reader sees plainly (an escaped line break undone, invisible characters
  dropped, look-alike letters mapped to their TR39 skeleton), where the automaton's matches in the text
  view say it is `wanted`, and only on the lines around its `cue` (`cues.CueScan`). Every form's replacements
  go into the text's decoded view (`views.decoded_view`), which every string tier reads; offsets map back to the
  characters the text really holds.
- `compile` patterns for the run's units into the shared automaton, under kinds named after the form.
- `confirm` the automaton's matches of those kinds in one view into graded hits, in the views where it
  `reads` something (a match of its kinds, by default).

A form that confirms declares its `reach`: the longest stretch of a view's text that one hit and everything
deciding it (its span, the context it reads, its gates) can cover. Where every tier's reach is bounded, the
cascade reads a derived view only in windows around what derivation changed (`views.WindowedView`); a form
without a bound (None, the default) keeps derived views read whole.

A form belongs to one of the graded string tiers (`Form.tier`, registered in `detect.tiers`) that run
after the exact tier: "partial" (AceBench's scale below a literal match: masked values, fragments in
context, a name's parts, near-verbatim variants) or "forms" (the value written another way).

A new form is one module in this package with one `@register`ed class; the cascade builds every
registered form over the run's units (`build_forms`), and each graded tier runs the forms that name it.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import ClassVar

from ec2audit.detect.compiled import CompiledUnit, cached_table, is_word_char
from ec2audit.detect.finding import Hit
from ec2audit.detect.patterns import Match, PatternIndex
from ec2audit.detect.views import Replacement, ScanView


class Form:
    """One form; subclasses override what they use."""

    name: ClassVar[str]
    kinds: ClassVar[tuple[str, ...]] = ()  # the automaton kinds `confirm` reads
    tier: ClassVar[str] = "forms"  # the string tier (`detect.tiers`) that runs `confirm`
    #: characters of the view's text that one hit and all that decides it lie within; None: unbounded
    reach: int | None = None
    #: a regex every change `rewrite` makes lies near (Python's syntax in the subset Vectorscan reads too: no
    #: look-arounds, no backreferences): the rewrite reads only the lines around its matches (`cues.CueScan`).
    #: None: it reads the whole text, and the form says why
    cue: ClassVar[str | None] = None
    #: lines before and after a cue match's last line that one change and all that decides it lie within
    cue_lines: ClassVar[int] = 0
    #: cue matches (every end Vectorscan reports) that a line where `rewrite` changes something holds at least: a
    #: form whose change names two cued words (a spelling's two named items) is not run on a line naming one
    cue_least: ClassVar[int] = 1

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

    def reads(self, matches: dict[str, list[Match]]) -> bool:
        """Is there anything to `confirm` in a view with these automaton matches? (A match of `kinds`; a
        form whose cue is no literal says yes and checks the text itself.)"""
        return any(kind in matches for kind in self.kinds)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterable[Hit]:
        """Hits from this form's matches in one view; `decided` units were found literally already."""
        return ()

    def bound(self, index: PatternIndex, context: int) -> int:
        """The reach of a form whose hits are its matches, read with `context` characters on either side."""
        return index.longest(*self.kinds) + 2 * context

    def compile_forms(self, index: PatternIndex, forms: Mapping[str, Callable[[CompiledUnit], Iterable[str]]],
                      context: int = 1) -> None:
        """Add each unit's `forms[kind](unit)` under `kind` (the unit's position in `units` its id), and bound the
        form's reach for hits that are those matches read with `context` characters on either side: the
        `compile` of a form whose patterns are written-out forms of each value."""
        for kind, forms_of in forms.items():
            for i, cu in enumerate(self.units):
                for form in forms_of(cu):
                    index.add(form, kind, i)
        self.reach = self.bound(index, context)


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


#: what an ASCII letter matches under IGNORECASE besides its two cases: the letters Unicode folds to it
_FOLDS = {"i": "\u0130\u0131", "s": "\u017f", "k": "\u212a"}


def any_case(literal: str) -> str:
    """A cue matching lower-case ASCII `literal` wherever an IGNORECASE regex of it matches."""
    return "".join(f"[{c}{c.upper()}{_FOLDS.get(c, '')}]" if c.isalpha() else re.escape(c) for c in literal)


def decimal_class(test: Callable[[str], bool] = str.isdecimal) -> str:
    """A class of the digits (`str.isdigit`) Python's `test` holds: a cue reads Python's tables, Vectorscan's may
    be older."""
    return char_class(c for c in _digits() if test(chr(c)))


@cache
def _digits() -> tuple[int, ...]:
    """The code points `str.isdigit` holds (788): a pass over every code point (0.05 s), made once per Python and
    cached (`compiled.cached_table`)."""
    return tuple(cached_table("isdigit", lambda: [c for c in range(sys.maxunicode + 1) if chr(c).isdigit()],
                              lambda table: isinstance(table, list) and all(type(c) is int for c in table)))


TAIL_WINDOW = 30  # characters after (or before) a context word that a piece or a cue is looked for in
#: neighbourhoods a form remembers what it found in (emptied when full). A dense log's neighbourhoods are mostly
#: new (a record number near them): at 65,536 `context_fragments`' memo grew to ~11 MB over 64 MB of log and
#: answered 83.8 % of 148,502 asks on 48 MB; 16,384 answer 82.8 % in ~3 MB (RESULTS.md, issue 34, session 29)
MEMO_SIZE = 16384
#: what follows a word inside a handle or an address (`emily.r`, `emily@`, `emily%40`)
HANDLE_NEXT = re.compile(r"[._@%+-]?[0-9a-z]|[._]?@|%40")
#: runs of Han characters (and the CJK radicals and punctuation before them)
CJK_RUN = re.compile(r"[\u2e80-\u9fff]{2,}")


def is_cjk(ch: str) -> bool:
    return "\u2e80" <= ch <= "\u9fff"


def standalone(text: str, start: int, end: int) -> bool:
    """Latin words must not continue into neighbouring letters or digits."""
    return not ((start and is_word_char(text[start - 1]) and is_word_char(text[start]))
                or (end < len(text) and is_word_char(text[end]) and is_word_char(text[end - 1])))


def mentions(scan_view: ScanView, kind: str, decided: set[int], keep: Callable[[str, int, int], bool],
             detector: str, grade: float, confidence: float) -> Iterator[Hit]:
    """Hits of the matches of `kind` that `keep(text, start, end)` accepts, for units not decided."""
    view = scan_view.view
    text = view.text
    for start, end, indices in scan_view.matches.get(kind, ()):
        if decided.issuperset(indices) or not keep(text, start, end):
            continue
        span = view.to_original(start, end)
        for i in indices:
            if i not in decided:
                yield Hit(i, *span, detector, grade, confidence)


def matched(view: ScanView, kind: str, decided: set[int]) -> Iterator[tuple[int, int, tuple[int, ...]]]:
    """The matches of `kind` that still name a unit not decided."""
    for start, end, units in view.matches.get(kind, ()):
        if not decided.issuperset(units):
            yield start, end, tuple(i for i in units if i not in decided)


__all__ = ["CJK_RUN", "FORMS", "HANDLE_NEXT", "MEMO_SIZE", "TAIL_WINDOW", "Form", "Match", "any_case",
           "build_forms", "char_class", "decimal_class", "is_cjk", "matched", "mentions", "register", "standalone"]
