"""String tiers: the cascade's tiers that read text, one module each in this package.

Each module `register`s one `TierSpec` (or a few): the tier's name, its place in the order, how to build
it over the run's units (`Sources`: the compiled units, the shared automaton every tier adds its patterns
to, the registered forms), and two rules the cascade applies to what the tier returns:

- `refinds`: its hits of units an earlier tier or view found literally stand (the literal tier's do:
  another mention of a leaked value is evidence too); otherwise they are dropped — nothing grades a
  literal unit higher.
- `placeholders`: hits that start inside a redaction placeholder (`[PHONE_001]`) are dropped — a
  placeholder is protection, never leakage. The literal tier keeps them: a value is a value anywhere.

Every tier's hits of a claim written right after its denial ("is not Caspian Ferreira-Holt", 否认青霉素过敏), and of
a record said of a relative the text names ("his brother Arjun Raman was diagnosed with …"), are dropped
(`denials.denied`, `relatives.of_relative`), read in the text as sent (a view whose source text is at hand).

A tier declares its `reach` (see `forms.Form.reach`; None: unbounded): where every tier's is bounded, the
cascade reads derived views in windows around what derivation changed.

The cascade builds every registered tier in order (`build_tiers`) and names no tier class: a new tier is
one module here.
"""

from __future__ import annotations

import bisect
import importlib
import math
import pkgutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from ec2audit.detect.compiled import CompiledUnit, placeholder_spans
from ec2audit.detect.denials import denied
from ec2audit.detect.finding import Hit
from ec2audit.detect.forms import Form, build_forms
from ec2audit.detect.normalize import TextView
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.relatives import of_relative
from ec2audit.detect.views import RewrittenView, ScanView


class StringTier(Protocol):
    """A tier that reads text: built over the compiled units, it adds its patterns to the shared index."""

    name: str

    @property
    def reach(self) -> int | None:
        """Characters of a view that one hit and all that decides it lie within; None: unbounded."""

    def scan(self, view: ScanView, hits: list[Hit], decided: set[int]) -> list[Hit]:
        """Hits in one view; `hits` are the earlier tiers' and views', `decided` the units one of them
        found literally (nothing can grade them higher)."""


class Sources:
    """What the tiers of one run are built from. The forms are compiled on first ask, so their patterns
    enter the shared automaton after those of the tiers built before the first tier that reads them."""

    def __init__(self, units: list[CompiledUnit], index: PatternIndex, forms: Sequence[Form] | None = None):
        """`forms`: the forms to run (default: every registered form, compiled for `units`)."""
        self.units, self.index = units, index
        if forms is not None:
            self.__dict__["forms"] = list(forms)

    @cached_property
    def forms(self) -> list[Form]:
        return build_forms(self.units, self.index)


@dataclass(frozen=True)
class TierSpec:
    """One registered string tier (the rules: see the module's docstring)."""

    name: str
    order: int  # tiers run by ascending order
    build: Callable[[Sources], StringTier]
    refinds: bool = False
    placeholders: bool = True


#: name → spec, in registration order
SPECS: dict[str, TierSpec] = {}


def register(spec: TierSpec) -> TierSpec:
    SPECS[spec.name] = spec
    return spec


def specs() -> list[TierSpec]:
    """Every registered tier, in the order they run."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return sorted(SPECS.values(), key=lambda spec: spec.order)


class Tier:
    """A built string tier under its spec's rules."""

    def __init__(self, spec: TierSpec, tier: StringTier, units: Sequence[CompiledUnit], denials: bool = True):
        self.spec, self.tier, self.name, self.units, self.denials = spec, tier, spec.name, units, denials
        self.reach: int | None = getattr(tier, "reach", None)  # a tier that declares none: unbounded

    def scan(self, scan_view: ScanView, hits: list[Hit], decided: set[int]) -> list[Hit]:
        found = self.tier.scan(scan_view, hits, decided)
        if not found:
            return found
        if decided and not self.spec.refinds:
            found = [hit for hit in found if hit.unit_index not in decided]
        if self.spec.placeholders and found:
            view = scan_view.view
            protected = merged(view.to_original(s, e) for s, e in placeholder_spans(view))
            if protected:
                found = [hit for hit in found if not inside(hit.start, protected)]
        source = _source(scan_view.view)
        if self.denials and source is not None and found:
            found = [hit for hit in found if not denied(source, hit.start, self.units[hit.unit_index])
                     and not of_relative(source, hit.start, hit.end, self.units[hit.unit_index])]
        return found


def _source(view: TextView) -> str | None:
    """The text as sent that a view's offsets map to, where the view holds it (a windowed view does not)."""
    if isinstance(view, RewrittenView):
        return view.source
    return view.original if type(view) is TextView else None


def merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The union of `spans` as sorted disjoint spans (placeholders mapped back may share a decoded token)."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def inside(offset: int, spans: list[tuple[int, int]]) -> bool:
    """Whether `offset` lies in one of the sorted disjoint `spans`: one bisection, not a test of every span
    against every hit (the 8 MB payload: 2.8 M tests)."""
    k = bisect.bisect_right(spans, (offset, math.inf)) - 1
    return k >= 0 and offset < spans[k][1]


def build_tiers(sources: Sources, denials: bool = True) -> list[Tier]:
    """Every registered tier built over `sources`, in order; a form naming no registered tier is refused
    (it would never run). Without `denials` a hit inside a denied claim is kept (`detect.denials`)."""
    chosen = specs()
    tiers = [Tier(spec, spec.build(sources), sources.units, denials) for spec in chosen]
    if unknown := {form.tier for form in sources.forms} - {spec.name for spec in chosen}:
        raise ValueError(f"forms name unknown string tiers: {sorted(unknown)}")
    return tiers


__all__ = ["SPECS", "Sources", "StringTier", "Tier", "TierSpec", "build_tiers", "register", "specs"]
