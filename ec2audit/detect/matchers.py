"""Multi-literal matchers: the engine behind `patterns.PatternIndex`, one protocol plus a registry.

A matcher is compiled once over a run's literal patterns and reports, for a text, every occurrence of
every pattern — overlapping ones included — as (pattern id, start, end) in *characters* of the text,
ordered by end and, at one end, longest first. The tiers rely on exactly that (a surname fragment inside
a full name, a gram inside a longer gram), so every matcher must give the same list; a test checks it.

- `aho-corasick` (`ahocorasick_rs`, Rust's `aho-corasick` crate): the default. Measured on the dense
  corpus (benchmarks/dense_corpus.py) the whole audit is 5–8 % faster with it than with Vectorscan, and it
  compiles in 0.05 s against Vectorscan's 0.2–0.5 s per cascade build (the interceptor builds one).
- `vectorscan` (the `hyperscan` wheel, which bundles Vectorscan): literal mode over the text's UTF-8
  bytes; only the offsets of reported matches are mapped back to characters. 5–25× faster on long
  sparse texts, ~2× slower on dense short ones (each match crosses into Python through the binding's
  callback). The engine is ~4 % of an audit today; it becomes the default when the scan core confirms
  candidates in batches instead of per match (issue 34).

`EC2AUDIT_MATCHER` names the matcher to use (e.g. to compare both on one corpus).

Vectorscan databases are cached per pattern set (`layout().cache / "vectorscan"`): every worker process and
every later audit of the same units loads one in ~0 s instead of compiling it again (0.1 s for 162 units,
seconds for thousands).
"""

from __future__ import annotations

import hashlib
import os
import platform
import re
import threading
from collections.abc import Callable, Sequence
from functools import cache
from importlib import import_module
from importlib.metadata import version
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Protocol

from ec2audit.errors import InputError
from ec2audit.resources import layout

if TYPE_CHECKING:
    import hyperscan

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: (pattern id, start, end): one occurrence, offsets in characters of the scanned text
Occurrence = tuple[int, int, int]
ENVIRONMENT = "EC2AUDIT_MATCHER"


class Matcher(Protocol):
    name: ClassVar[str]
    engine: ClassVar[str]  # the module it needs: the matcher is available where it imports

    def __init__(self, patterns: Sequence[str]) -> None:
        """Compile non-empty, distinct `patterns`; a pattern's id is its position."""

    def find(self, text: str) -> list[Occurrence]:
        """Every occurrence in `text`, overlapping ones included, ordered by (end, start)."""


#: name → matcher class, most preferred first
MATCHERS: dict[str, type[Matcher]] = {}


def register(cls: type[Matcher]) -> type[Matcher]:
    MATCHERS[cls.name] = cls
    return cls


@register
class AhoCorasickMatcher:
    name: ClassVar[str] = "aho-corasick"
    engine: ClassVar[str] = "ahocorasick_rs"

    def __init__(self, patterns: Sequence[str]) -> None:
        """Patterns of ASCII characters other than "?" (the digit view's numbers, most identifiers) are found over
        the text's ASCII bytes, every other character one "?" byte: offsets in bytes are characters', and the
        crate skips its map from UTF-8 offsets to characters (the 8 MB payload's digit view: 0.076 → 0.02 s)."""
        import ahocorasick_rs

        kind = ahocorasick_rs.MatchKind.Standard
        self._ascii = all(p.isascii() and "?" not in p for p in patterns)
        if self._ascii:
            self._bytes = ahocorasick_rs.BytesAhoCorasick([p.encode("ascii") for p in patterns], matchkind=kind)
        else:
            self._automaton = ahocorasick_rs.AhoCorasick(list(patterns), matchkind=kind)

    def find(self, text: str) -> list[Occurrence]:
        # the crate reports overlapping matches by end, longest first at one end: the protocol's order
        if self._ascii:
            return self._bytes.find_matches_as_indexes(text.encode("ascii", "replace"), overlapping=True)
        try:
            return self._automaton.find_matches_as_indexes(text, overlapping=True)
        except UnicodeEncodeError:  # a lone surrogate (JSON "\\ud83d"): read as one character no pattern has
            return self._automaton.find_matches_as_indexes(_LONE_SURROGATE.sub("\0", text), overlapping=True)


@register
class VectorscanMatcher:
    name: ClassVar[str] = "vectorscan"
    engine: ClassVar[str] = "hyperscan"

    def __init__(self, patterns: Sequence[str]) -> None:
        import hyperscan

        encoded = [p.encode("utf-8", "surrogatepass") for p in patterns]
        # compiled in sorted order, so one pattern set is one cached database whatever order it came in
        # (the tiers add some patterns from sets); `_ids` maps each back to the caller's id
        self._ids = sorted(range(len(encoded)), key=encoded.__getitem__)
        self._lengths = [len(encoded[i]) for i in self._ids]
        self._local = threading.local()  # scratch space is per thread
        self._database, self._local.scratch = vectorscan_database([encoded[i] for i in self._ids])
        self._new_scratch = lambda: hyperscan.Scratch(self._database)

    def find(self, text: str) -> list[Occurrence]:
        data = text.encode("utf-8", "surrogatepass")
        found: list[Occurrence] = []
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = self._new_scratch()
        self._database.scan(data, match_event_handler=_collector(found, self._ids, self._lengths), scratch=scratch)
        if not found:
            return found
        found.sort(key=_END_THEN_START)  # Vectorscan reports by end, but not longest first at one end
        if len(data) == len(text):  # ASCII: bytes are characters
            return found
        chars = characters_at(data, {o for _, start, end in found for o in (start, end)})
        return [(pid, chars[start], chars[end]) for pid, start, end in found]


_CACHE_KEPT = 64  # cached databases kept, the most recently used


def vectorscan_database(encoded: list[bytes], regex_flags: int | None = None) -> tuple[hyperscan.Database,
                                                                                   hyperscan.Scratch]:
    """(database, scratch) for the literals `encoded` (or, with `regex_flags`, the regexes): loaded from the cache
    when this pattern set was compiled before, else compiled and cached. A cached file holds the unit values
    compiled, so it is private (0600 in a 0700 folder) like a payload store; one that does not load or run here
    is compiled over."""
    import hyperscan

    mode = "literal" if regex_flags is None else f"regex {regex_flags}"
    key = hashlib.sha256(f"{version('hyperscan')} {_cpu()} {mode} block".encode())
    for pattern in encoded:
        key.update(len(pattern).to_bytes(8, "little") + pattern)
    folder = layout().cache / "vectorscan"
    path = folder / f"{key.hexdigest()[:32]}.db"
    try:
        database = hyperscan.loadb(path.read_bytes(), hyperscan.HS_MODE_BLOCK)
        scratch = hyperscan.Scratch(database)  # fails for a database built for another CPU
        os.utime(path)
        return database, scratch
    except (OSError, hyperscan.error):
        pass
    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    database.compile(expressions=encoded, ids=list(range(len(encoded))), elements=len(encoded),
                     flags=0 if regex_flags is None else [regex_flags] * len(encoded), literal=regex_flags is None)
    try:
        store_cached(folder, path, hyperscan.dumpb(database))
    except OSError:  # a cache that cannot be written costs the compile, nothing else
        pass
    return database, hyperscan.Scratch(database)


@cache
def _cpu() -> str:
    """The machine and its CPU's features: a database is compiled for the host's instruction set, and a cache
    folder may be shared by machines that differ (a home folder on a network drive)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            flags = next((line for line in info if line.startswith(("flags", "Features"))), "")
    except OSError:
        flags = ""
    return f"{platform.machine()} {platform.processor()} {hashlib.sha256(flags.encode()).hexdigest()[:16]}"


def store_cached(folder: Path, path: Path, data: bytes) -> None:
    """Write `data` to `path` atomically and privately (0600 in a 0700 `folder`: a cache of compiled units holds
    their values), and drop all but the `_CACHE_KEPT` newest files of its kind (suffix) there."""
    from ec2audit.files import open_private

    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)
    partial = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
    with open_private(partial, "wb") as out:
        out.write(data)
    os.replace(partial, path)
    for old in sorted(folder.glob(f"*{path.suffix}"), key=_modified, reverse=True)[_CACHE_KEPT:]:
        old.unlink(missing_ok=True)


def _modified(path: Path) -> float:
    """When `path` was written; 0 where another process (a Ray worker pruning too) removed it meanwhile."""
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def _collector(found: list[Occurrence], ids: list[int],
               lengths: list[int]) -> Callable[[int, int, int, int, object], None]:
    """The match callback: literal mode reports no start, so it is the end less the pattern's length."""
    append = found.append

    def on_match(pattern: int, _start: int, end: int, _flags: int, _context: object) -> None:
        append((ids[pattern], end - lengths[pattern], end))
    return on_match


_END_THEN_START = itemgetter(2, 1)


def characters_at(data: bytes, offsets: set[int]) -> dict[int, int]:
    """Character offsets of byte `offsets` (each at a character boundary) of UTF-8 `data`: every character
    has one byte that is not a continuation byte (0x80–0xBF), so it is the offset less the continuation
    bytes before it, counted in one pass between consecutive offsets."""
    chars, previous, continuation = {}, 0, 0
    for offset in sorted(offsets):
        continuation += len(data[previous:offset].translate(None, _NOT_CONTINUATION))
        chars[offset], previous = offset - continuation, offset
    return chars


_NOT_CONTINUATION = bytes([*range(0x80), *range(0xC0, 0x100)])


@cache
def available() -> tuple[str, ...]:
    """The registered matchers whose engine imports here, most preferred first."""
    names = []
    for name, cls in MATCHERS.items():
        try:
            import_module(cls.engine)
        except ImportError:
            continue
        names.append(name)
    return tuple(names)


def matcher_class(name: str | None = None) -> type[Matcher]:
    """The matcher named `name`, else the one `EC2AUDIT_MATCHER` names, else the most preferred available."""
    name = name or os.environ.get(ENVIRONMENT) or available()[0]
    if name not in MATCHERS:
        raise InputError(f"{ENVIRONMENT}={name}: no such matcher (known: {', '.join(MATCHERS)})")
    if name not in available():
        raise InputError(f"{ENVIRONMENT}={name}: its engine does not import here (pip install hyperscan==0.9.1)")
    return MATCHERS[name]
