"""Where the forms' rewrites may change a text: every form's cue found in one pass, and each rewrite run only
on the lines around its cues.

A form that rewrites (`forms.Form.rewrite`) declares a `cue`, a regex that every change it makes lies near, and
`cue_lines`, how many lines before and after a cue's line that change and all that decides it read; a form whose
change holds two cued words or more says so (`cue_least`), and a line with fewer of its cue's matches (every end
Vectorscan reports) is no cue line. The cues of every form are one Vectorscan database (compiled once per cue
set and cached like the matchers' databases), scanned once over the text's UTF-8 bytes; each form's rewrite then
reads only its stretches, the cued lines with their `cue_lines` either side (stretches that meet are one), and its
changes are offset back. Scanning 8 MB
once costs what one form's own regex pass over it did. Where the `hyperscan` wheel is missing, or the text holds
a lone surrogate (no UTF-8), each cue is Python's regex, searched apart: the same stretches, or more (Python's
matches do not overlap, so one match is a cue line there whatever `cue_least` says).

A cue is a claim: the cued rewrite equals the whole text's (tests/test_detect_form_cues.py, per form, on
generated text). A form without a cue (None) reads the whole text, and says why in its docstring.

A short text (a chat turn, a tool result) is read whole by every form whose cue it holds: the cues of a batch of
short texts (`CueScan.batch`) are found in one Vectorscan pass over the texts joined, and a form whose cue is
nowhere in a text (or matches fewer than `cue_least` times) makes no change there (by its claim: it has no
stretch), so it is not run.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ec2audit.detect.views import Replacement, Rewriter

if TYPE_CHECKING:
    import hyperscan
    import numpy as np

    from ec2audit.detect.forms import Form

#: (start, end) of a stretch of a text: whole lines, without the line break after the last
Stretch = tuple[int, int]
#: characters below which every form reads the whole text (the claim: the same changes), with no cue pass: its
#: fixed costs a call (Vectorscan's scan, numpy's) outweigh what a short text's forms' own gates cost
_SHORT = 4096
#: bytes of short texts joined for one cue pass (`CueScan.batch`)
_BATCH = 1 << 16
_PY_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})")


def vectorscan_syntax(cue: str) -> str:
    """A cue in Vectorscan's syntax: Python's `\\uXXXX` is `\\x{XXXX}` there (the rest is common to both)."""
    return _PY_ESCAPE.sub(r"\\x{\1}", cue)


class CueScan:
    """The cues of `forms` (those that declare one), found in one pass over a text."""

    def __init__(self, forms: Sequence[Form], engine: str | None = None):
        """`engine`: "vectorscan" or "re" (default: Vectorscan where it imports)."""
        self.forms = list(forms)
        self.cued = [f for f in self.forms if f.cue is not None]
        self._cues = [f.cue for f in self.cued if f.cue is not None]
        self._least = [f.cue_least for f in self.cued]
        self._regexes = [re.compile(cue) for cue in self._cues]
        self._database: hyperscan.Database | None = None
        self._rewriters: dict[tuple[int, ...], Rewriter] = {}
        self._local = threading.local()  # Vectorscan's scratch space and the open batch's cues, per thread
        if engine != "re" and self.cued:
            try:
                import hyperscan

                from ec2audit.detect.matchers import vectorscan_database
            except ImportError:
                if engine == "vectorscan":
                    raise
            else:
                flags = hyperscan.HS_FLAG_UTF8 | hyperscan.HS_FLAG_UCP
                patterns = [vectorscan_syntax(cue).encode() for cue in self._cues]
                self._database, scratch = vectorscan_database(patterns, flags)
                self._local.scratch = scratch
                self._new_scratch = lambda: hyperscan.Scratch(self._database)

    def stretches(self, text: str, wanted: Sequence[bool] | None = None) -> list[list[Stretch]]:
        """Each cued form's stretches of `text`, in `self.cued`'s order (none for a form not `wanted`)."""
        wanted = wanted or [True] * len(self.cued)
        if not any(wanted):
            return [[] for _ in self.cued]
        data = None
        if self._database is not None:
            try:
                data = text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate (JSON "\\ud83d"): no UTF-8 for Vectorscan to read
                data = None
        if data is None or self._database is None:
            found = [[m.end() for m in regex.finditer(text)] if w else [] for regex, w in zip(self._regexes, wanted,
                                                                                                strict=True)]
            least = [1] * len(self.cued)
        else:
            found = [[] for _ in self.cued]
            self._database.scan(data, match_event_handler=_collector(found), scratch=self._scratch())
            least = self._least
        if "\n" not in text:  # one stretch: the whole text, where enough cues stand
            return [[(0, len(text))] if w and len(ends) >= n else [] for ends, w, n in zip(found, wanted, least,
                                                                                            strict=True)]
        lines = _Lines(text, data)
        return [lines.around(ends, form.cue_lines, n) if w and len(ends) >= n else []
                for form, ends, w, n in zip(self.cued, found, wanted, least, strict=True)]

    def _scratch(self) -> hyperscan.Scratch:
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = self._new_scratch()
        return scratch

    @contextmanager
    def batch(self, texts: Iterable[str]) -> Iterator[None]:
        """While open (in this thread), a rewriter reading one of `texts` shorter than `_SHORT` runs only the cued
        forms whose cue the text holds, each over the whole text, and every form without a cue. The cues are
        found in one Vectorscan pass per `_BATCH` bytes of the texts joined by a line break; each match is the
        text's that holds its last byte. A match inside a text is found there joined as alone (a cue has no
        anchors or look-arounds); one across two texts only makes a form read one more text whole, as it would
        without the batch. Without Vectorscan, and for a text with a lone surrogate, every form reads it."""
        short = [text for text in dict.fromkeys(texts) if len(text) < _SHORT]
        outer = getattr(self._local, "held", None)
        self._local.held = self._cues_of(short) if self._database is not None and short else None
        try:
            yield
        finally:
            self._local.held = outer

    def _cues_of(self, texts: list[str]) -> dict[str, set[int]]:
        """Each text's cues (their indexes in `self.cued`), texts joined up to `_BATCH` bytes a scan."""
        held: dict[str, set[int]] = {}
        chunk: list[tuple[str, bytes]] = []
        size = 0
        for text in texts:
            try:
                data = text.encode("utf-8")
            except UnicodeEncodeError:  # no UTF-8 to scan: read by every form, as without the batch
                continue
            if chunk and size + len(data) > _BATCH:
                self._scan_joined(chunk, held)
                chunk, size = [], 0
            chunk.append((text, data))
            size += len(data) + 1
        if chunk:
            self._scan_joined(chunk, held)
        return held

    def _scan_joined(self, chunk: list[tuple[str, bytes]], held: dict[str, set[int]]) -> None:
        assert self._database is not None
        starts, at = [], 0
        for _, data in chunk:
            starts.append(at)
            at += len(data) + 1
        owned: list[Counter[int]] = [Counter() for _ in chunk]

        def on_match(cue: int, _start: int, end: int, _flags: int, _context: object) -> None:
            owned[bisect_right(starts, end - 1) - 1][cue] += 1

        self._database.scan(b"\n".join(data for _, data in chunk), match_event_handler=on_match,
                            scratch=self._scratch())
        least = self._least
        held.update((text, {cue for cue, n in cues.items() if n >= least[cue]})
                    for (text, _), cues in zip(chunk, owned, strict=True))

    def rewriter(self, wanted: Sequence[Form]) -> Rewriter:
        """The `wanted` forms' rewrites as one: their changes to a text, form by form in `self.forms`' order (of
        two changes alike, the first wins), each cued form's found in its stretches only (in a text shorter than
        `_SHORT`, every form reads it whole: the same changes, without the cue pass's fixed costs; in an open
        `batch`, only the forms whose cue it holds). Built once for each set of forms a text view calls for."""
        key = tuple(map(id, wanted))
        if (made := self._rewriters.get(key)) is None:
            made = self._rewriters[key] = self._rewriter(wanted)
        return made

    def _rewriter(self, wanted: Sequence[Form]) -> Rewriter:
        chosen = {id(form) for form in wanted}
        forms = [form for form in self.forms if id(form) in chosen]
        rewrites = [form.rewrite for form in forms]
        cued_wanted = [id(form) in chosen for form in self.cued]
        order = {id(form): k for k, form in enumerate(self.cued)}
        # each form's rewrite and the index of its stretches (None: the whole text)
        plan = [(form.rewrite, None if form.cue is None else order[id(form)]) for form in forms]

        def rewrite(text: str) -> list[Replacement]:
            if len(text) < _SHORT:
                held = getattr(self._local, "held", None)
                cues = held.get(text) if held else None
                if cues is None:
                    return [r for rewrite in rewrites for r in rewrite(text)]
                return [r for read, k in plan if k is None or k in cues for r in read(text)]
            stretches = self.stretches(text, cued_wanted)
            out: list[Replacement] = []
            for read, k in plan:
                if k is None:
                    out += read(text)
                    continue
                for start, end in stretches[k]:
                    out += _offset(read(text[start:end]), start)
            return out
        return rewrite


def _offset(replacements: Iterable[Replacement], by: int) -> list[Replacement]:
    return [(start + by, end + by, new) for start, end, new in replacements]


def _collector(found: list[list[int]]):
    """The match callback: a match's end (in bytes), by the cue's id."""
    def on_match(cue: int, _start: int, end: int, _flags: int, _context: object) -> None:
        found[cue].append(end)
    return on_match


class _Lines:
    """A text's line breaks, in characters, and the stretches of lines around offsets (in `data`'s bytes, where
    given: each is a character's offset less the UTF-8 continuation bytes before it). numpy is imported here, on
    the first text of `_SHORT` characters or more: an audit of short texts does not load it (0.1 s, 11 MB)."""

    def __init__(self, text: str, data: bytes | None):
        import numpy as np

        self.length = len(text)
        self._continuation = None
        if data is None:
            self.breaks = np.flatnonzero(np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32) == 10)
            return
        units = np.frombuffer(data, dtype=np.uint8)
        self.breaks = np.flatnonzero(units == 10)
        if len(data) != len(text):
            self._continuation = np.flatnonzero((units & 0xC0) == 0x80)
            self.breaks = self._characters(self.breaks)

    def _characters(self, offsets: np.ndarray) -> np.ndarray:
        import numpy as np

        if self._continuation is None:
            return offsets
        return offsets - np.searchsorted(self._continuation, offsets)

    def around(self, ends: list[int], spread: int, least: int = 1) -> list[Stretch]:
        """The lines holding the character before `least` or more of `ends` (a match's last) and `spread` lines
        either side, joined where they meet: a match ending with a line break is on the line it ends."""
        import numpy as np

        breaks = self.breaks
        line = np.searchsorted(breaks, self._characters(np.array(ends, dtype=np.int64)) - 1, side="left")
        if least > 1:
            line, count = np.unique(line, return_counts=True)
            line = line[count >= least]
            if not len(line):
                return []
        else:
            line = np.unique(line)
        first, last = np.maximum(line - spread, 0), np.minimum(line + spread, len(breaks))
        # join stretches that overlap or meet (the next starts on the line after this one's last)
        top = np.maximum.accumulate(last)
        keep = np.ones(len(first), dtype=bool)
        keep[1:] = first[1:] > top[:-1] + 1
        starts = np.concatenate(([0], breaks + 1))[first[keep]]  # line i: from after break i - 1 to break i
        ends_at = np.concatenate((breaks, [self.length]))[top[np.append(np.flatnonzero(keep)[1:] - 1, len(first) - 1)]]
        return list(zip(starts.tolist(), ends_at.tolist(), strict=True))
