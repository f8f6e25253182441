"""The dimensions of sensitive data and their matching rules, read from `annotations/taxonomy.toml`.

Rules live in the TOML file, not in code, so a team can tune weights and guards without a release.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ec2audit import resources
from ec2audit.errors import InputError

_FRAGMENT_KINDS = {"none", "tail", "code", "surname"}
_VIEWS = {"digits", "amount", "pinyin", "alnum", "numerals"}


@dataclass(frozen=True)
class Dimension:
    name: str
    label: str
    weight: float
    views: frozenset[str]
    min_length: int
    word_boundary: bool
    fragment: str
    context: tuple[str, ...]
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Taxonomy:
    dimensions: dict[str, Dimension]
    path: str

    def resolve(self, name: str) -> Dimension | None:
        """The dimension a name or alias stands for (case-insensitive), or None."""
        key = name.strip().lower()
        if key in self.dimensions:
            return self.dimensions[key]
        for dim in self.dimensions.values():
            if key in dim.aliases:
                return dim
        return None

    def rules(self, name: str) -> Dimension:
        """Matching rules for a dimension name; unknown names get the rules of `other`."""
        return self.resolve(name) or self.dimensions["other"]


def default_taxonomy_path() -> Path:
    return resources.data("annotations/taxonomy.toml")


@cache
def load_taxonomy(path: str | Path | None = None) -> Taxonomy:
    path = Path(path) if path else default_taxonomy_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"cannot read taxonomy: {exc}", file=str(path)) from exc
    dims: dict[str, Dimension] = {}
    for name, spec in (data.get("dimensions") or {}).items():
        def need(key, kind, _spec=spec, _name=name):
            if key not in _spec or not isinstance(_spec[key], kind):
                raise InputError(f"missing or not {kind.__name__}", file=str(path),
                                 field=f"dimensions.{_name}.{key}")
            return _spec[key]

        views = frozenset(need("views", list))
        fragment = need("fragment", str)
        if bad := views - _VIEWS:
            raise InputError(f"unknown views {sorted(bad)}", file=str(path), field=f"dimensions.{name}.views")
        if fragment not in _FRAGMENT_KINDS:
            raise InputError(f"fragment must be one of {sorted(_FRAGMENT_KINDS)}", file=str(path),
                             field=f"dimensions.{name}.fragment")
        dims[name] = Dimension(
            name=name, label=need("label", str), weight=float(need("weight", (int, float))),
            views=views, min_length=need("min_length", int), word_boundary=need("word_boundary", bool),
            fragment=fragment, context=tuple(c.lower() for c in need("context", list)),
            aliases=tuple(a.lower() for a in spec.get("aliases", [])),
        )
    if "other" not in dims:
        raise InputError("the taxonomy needs an 'other' dimension", file=str(path), field="dimensions.other")
    return Taxonomy(dims, str(path))
