"""The detector cascade: each (unit, segment) pair is decided by the cheapest tier that can.

Tiers run in order — the string tiers registered in `detect.tiers` (exact, then the tiers of the
registered forms: partial, forms), then (when given) the semantic shortlist and the LLM judge — and a
later tier only sees the units an earlier one left undecided for that segment. The string tiers share
one protocol (`tiers.StringTier`): each reads every view of a text (the text view and the views derived
from it: decoded, script-folded) with the automaton's matches of that view, and returns its hits, which
the cascade keeps by the rules the tier's registration declares. A value split across two text parts of
one message is read at their seam. Findings record the tier that decided them ("semantic" or "judge"
for the paraphrase tiers).
"""

from __future__ import annotations

import gc
import hashlib
import itertools
from collections import defaultdict
from collections.abc import Sequence
from contextlib import contextmanager
from operator import itemgetter
from typing import TYPE_CHECKING

from ec2audit.detect.compiled import compile_units
from ec2audit.detect.cues import CueScan
from ec2audit.detect.finding import LITERAL, Finding, Hit
from ec2audit.detect.forms import Form
from ec2audit.detect.normalize import TextView
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.tiers import Sources, build_tiers
from ec2audit.detect.views import ScanView, WholeViewNeeded, WindowedView, derived_views
from ec2audit.detect.views import prepare as prepare_views
from ec2audit.payloads import Payload
from ec2audit.taxonomy import Taxonomy
from ec2audit.units import Unit

if TYPE_CHECKING:
    from ec2audit.detect.calibrate import Settings
    from ec2audit.detect.judge import Grader
    from ec2audit.detect.semantic import SemanticTier

_CACHE_SIZE = 16384  # texts; an entry is a digest and its hits (a few hundred bytes a text)
_SEAM = 120  # characters each side of the seam between two parts of one message scanned together
_JUDGE_SPAN = 3  # a judge window spans at most this many semantic windows (plus margins)


def text_digest(text: str) -> bytes:
    """A 16-byte BLAKE2b digest of a text: what remembers a text seen without holding it alive."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class Cascade:
    def __init__(self, units: list[Unit], taxonomy: Taxonomy | None = None,
                 semantic: SemanticTier | None = None, judge: Grader | None = None, denials: bool = True):
        """`semantic` (built over the same units) shortlists undecided pairs; `judge` grades them.
        Without a judge the semantic tier writes candidates (`SemanticTier.verdict`). Without `denials` a
        value inside a denied claim ("is not Dana Whitfield") is still a hit: the guard's choice."""
        if semantic is not None and len(semantic.units) != len(units):
            raise ValueError("the semantic tier must be built over the cascade's units")
        if judge is not None and semantic is None:
            raise ValueError("the judge needs a semantic tier to shortlist its pairs")
        self.units, self.semantic, self.judge, self.denials = units, semantic, judge, denials
        sources = Sources(compile_units(units, taxonomy), PatternIndex())
        self.tiers = build_tiers(sources, denials)  # every registered string tier, in its order
        self._rewriting = [f for f in sources.forms if type(f).rewrite is not Form.rewrite]
        self._inner = [f.rewrite for f in self._rewriting]  # inside a decoded token: no cue says which
        self._cues = CueScan(self._rewriting)
        self.index = sources.index.build()  # every text-view pattern of the run, read once per view
        reaches = [tier.reach for tier in self.tiers]
        self.reach: int | None = max(r for r in reaches if r is not None) if None not in reaches else None
        prepare_views()
        self._ids = [unit.id for unit in units]
        self._cache: dict[bytes, list[Hit]] = {}  # text digest → hits, least recently used first
        self._by_task: dict[str, set[int]] = defaultdict(set)
        for i, unit in enumerate(units):
            self._by_task[unit.task_id].add(i)

    def scan_text(self, text: str, allowed: set[int] | None = None) -> list[Hit]:
        """All hits in one text, at most one per (unit, span), highest grade kept.

        Agent context is cumulative — every request resends the system prompt and earlier tool
        results, and sessions share their prompts — so hits are cached per distinct text, least recently
        used out first (first in, first out rescanned 7 % of the dense corpus's texts: turns another
        session had sent a while before). The key is the text's digest, so the cache holds no text alive
        (a proxy's 4,096 tool results of 100 kB would be 400 MB).
        """
        return self._scan_known(text, text_digest(text), allowed)

    def scan_texts(self, texts: Sequence[str], allowed: set[int] | None = None) -> list[list[Hit]]:
        """Each text's hits, as `scan_text` gives them. The forms' cues of the texts not cached are found in one
        pass over them all (`CueScan.batch`): a short text is read only by the forms whose cue it holds."""
        keys = [text_digest(text) for text in texts]
        with self._cues.batch([text for text, key in zip(texts, keys, strict=True) if key not in self._cache]):
            return [self._scan_known(text, key, allowed) for text, key in zip(texts, keys, strict=True)]

    def _scan_known(self, text: str, key: bytes, allowed: set[int] | None) -> list[Hit]:
        hits = self._cache.pop(key, None)
        if hits is None:
            with _collector_paused():
                hits = best_hits(self.tier_hits(text))
            if len(self._cache) >= _CACHE_SIZE:
                del self._cache[next(iter(self._cache))]
        self._cache[key] = hits  # (back) at the end: the most recently used
        return hits if allowed is None else [h for h in hits if h.unit_index in allowed]

    def tier_hits(self, text: str) -> list[Hit]:
        """Every string tier's hits in every view of one text, before `best_hits` keeps the best."""
        hits: list[Hit] = []
        decided: set[int] = set()
        view = TextView.of(text)
        matches = self.index.matches(view.text)
        self._scan_view(ScanView(view, matches), hits, decided)
        wanted = [form for form in self._rewriting if form.wanted(matches)]
        rewriters = [self._cues.rewriter(wanted)] if wanted else []
        for derived in derived_views(text, view, rewriters, self.reach, self._inner):
            if isinstance(derived, WindowedView):
                try:
                    self._scan_windows(derived, hits, decided)
                    continue
                except WholeViewNeeded:
                    derived = derived.read_whole()
            self._scan_view(ScanView(derived, self.index.matches(derived.text)), hits, decided)
        return hits

    def _scan_view(self, scan_view: ScanView, hits: list[Hit], decided: set[int]) -> None:
        for tier in self.tiers:
            found = tier.scan(scan_view, hits, decided)
            hits += found
            decided.update(h.unit_index for h in found if h.grade >= LITERAL)

    def _scan_windows(self, view: WindowedView, hits: list[Hit], decided: set[int]) -> None:
        """Every tier over a derived view's windows, keeping the hits the whole view has that the text view
        may not (`WindowedView.keeps`); nothing is added where a tier asks for the whole view."""
        scan_view = ScanView(view, self.index.matches(view.text))
        found_all: list[Hit] = []
        seen = set(decided)
        for tier in self.tiers:
            found = [h for h in tier.scan(scan_view, hits, seen) if view.keeps(h.start, h.end)]
            found_all += found
            seen.update(h.unit_index for h in found if h.grade >= LITERAL)
        hits += found_all
        decided |= seen

    def scan(self, payload: Payload) -> list[Finding]:
        """Findings of one payload; a payload that names its task is matched against that task's units."""
        allowed = self._by_task.get(payload.task_id) if payload.task_id else None
        findings = []
        ids, pid = self._ids, payload.id
        seams = _seams(payload)
        texts = [segment.text for segment in payload.segments]
        found = self.scan_texts(texts + [head + tail for _, head, tail in seams], allowed)
        for k, (text, hits) in enumerate(zip(texts, found[:len(texts)], strict=True)):
            findings += [Finding(ids[unit], pid, k, start, end, text[start:end], detector, grade, confidence)
                         for unit, start, end, detector, grade, confidence in hits]
        findings += self._across_parts(payload, seams, found[len(texts):])
        if self.semantic is not None:
            decided = {(f.segment, f.unit_id) for f in findings}
            # a unit a string tier found literally cannot be graded higher: no tier asks about it again
            literal = {f.unit_id for f in findings if f.grade >= LITERAL}
            decided |= {(k, u) for u in literal for k in range(len(payload.segments))}
            findings += self._paraphrases(self.semantic, payload, allowed, decided)
        return findings

    def _across_parts(self, payload: Payload, seams: list[tuple[int, str, str]],
                      found: list[list[Hit]]) -> list[Finding]:
        """Values split across two adjacent text parts of one message (a tool result streamed in pieces):
        the end of one part and the start of the next (`_seams`) were scanned as one text (`found`), and a
        hit that spans the seam becomes one finding in each part, on the characters that part holds."""
        out: list[Finding] = []
        segments = payload.segments
        for (k, head, tail), hits in zip(seams, found, strict=True):
            offset = len(segments[k].text) - len(head)
            for unit, start, end, detector, grade, confidence in hits:
                if start < len(head) < end:
                    out.append(Finding(self._ids[unit], payload.id, k, offset + start, len(segments[k].text),
                                       head[start:], detector, grade, confidence))
                    out.append(Finding(self._ids[unit], payload.id, k + 1, 0, end - len(head),
                                       tail[:end - len(head)], detector, grade, confidence))
        return out

    def _paraphrases(self, semantic: SemanticTier, payload: Payload, allowed: set[int] | None,
                     decided: set[tuple[int, str]]) -> list[Finding]:
        """Semantic shortlist, then the judge, for the pairs no string tier decided. The judge sees only
        a window around each shortlisted match (overlapping ones merged), and the payload's windows are
        packed into as few calls as its batch limits allow."""
        candidates = sorted(allowed) if allowed is not None else range(len(self.units))
        pending = [(k, [i for i in candidates if (k, self.units[i].id) not in decided])
                   for k in range(len(payload.segments))]
        pending = [(k, c) for k, c in pending if c]
        if not pending:
            return []
        texts = [payload.segments[k].text for k, _ in pending]
        shortlists = semantic.shortlist(texts, [c for _, c in pending])
        out: list[Finding] = []
        requests: list[tuple[str, list[Unit]]] = []
        owners: list[tuple[int, int, str, list]] = []
        for (k, _), text, matches in zip(pending, texts, shortlists, strict=True):
            if not matches:
                continue
            if self.judge is None:
                for m in matches:
                    detector, grade = semantic.verdict(m.score)
                    out.append(Finding(self._ids[m.unit_index], payload.id, k, m.start, m.end, text[m.start:m.end],
                                       detector, grade, m.score))
                continue
            for lo, hi, group in judge_windows(text, matches, semantic.window):
                requests.append((text[lo:hi], [self.units[m.unit_index] for m in group]))
                owners.append((k, lo, text, group))
        if requests and self.judge is not None:
            from ec2audit.detect.semantic import CANDIDATE  # a pair the judge is unsure of is left for review

            for (k, lo, text, matches), verdicts in zip(owners, self.judge.judge(requests, pack=True), strict=True):
                out += [Finding(self._ids[m.unit_index], payload.id, k, lo + v.start, lo + v.end,
                                text[lo + v.start:lo + v.end], CANDIDATE if v.review else "judge", v.grade, m.score)
                        for m, v in zip(matches, verdicts, strict=True) if v.grade > 0 or v.review]
        return out


def _seams(payload: Payload) -> list[tuple[int, str, str]]:
    """(k, the end of part k, the start of part k + 1) for each two adjacent text parts of one message."""
    segments = payload.segments
    return [(k, first.text[-_SEAM:], second.text[:_SEAM])
            for k, (first, second) in enumerate(itertools.pairwise(segments))
            if (first.message_index, first.origin) == (second.message_index, second.origin)
            and first.text and second.text]


@contextmanager
def _collector_paused():
    """Python's cyclic garbage collector off while one text is scanned. A scan makes no reference cycles,
    but its hits are tuple subclasses the collector keeps tracking, so on a long text its full collections
    rescan the cascade's objects (376,000 for 3,385 units) and every hit so far: 12 % of the CPU time of a
    2 MB payload, and the one collection that made 1 → 2 MB the largest doubling step (RESULTS.md, issue 15,
    third pass)."""
    if not gc.isenabled():  # the caller's choice stands
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def build_cascade(units: list[Unit], settings: Settings | None = None, judge: Grader | None = None,
                  per_unit: int | None = None, taxonomy: Taxonomy | None = None) -> Cascade:
    """The cascade for `units`: the string tiers, and with calibrated `settings` the semantic shortlist —
    in front of a `judge`, or, without one, writing its pairs as candidates for review (graded only above
    the score a realistic calibration validated). `per_unit` overrides the calibrated shortlist size (0
    for none)."""
    if settings is None:
        return Cascade(units, taxonomy, judge=judge)
    from ec2audit.detect.semantic import SemanticTier  # loads the embedding model's stack

    per_unit = settings.per_unit if per_unit is None else per_unit or None
    threshold = settings.shortlist if judge or settings.candidate_threshold is None else settings.candidate_threshold
    semantic = SemanticTier(units, window=settings.shortlist_window, threshold=threshold,
                            batch_size=settings.batch_size, model=settings.model, per_unit=per_unit,
                            grade_threshold=settings.grade_threshold)
    return Cascade(units, taxonomy, semantic=semantic, judge=judge)


def best_hits(hits: list[Hit]) -> list[Hit]:
    """At most one hit per (unit, span), the highest grade kept, and no hit inside an at least as good
    one of its unit; sorted by position.

    One sort and one sweep: in (unit, start, longest first) order every hit that could contain a hit
    comes before it, so it is enough to remember, per grade, the furthest end seen so far in the unit.
    Grades take a handful of values, so the sweep is linear and the whole step O(n log n)."""
    best: dict[tuple[int, int, int], Hit] = {}
    for hit in hits:
        key = hit[:3]  # (unit, start, end)
        if key not in best or hit.grade > best[key].grade:
            best[key] = hit
    ordered = sorted(best.values(), key=_END, reverse=True)  # longest first among equal starts: two
    ordered.sort(key=_UNIT_START)  # stable C-level sorts instead of one with a Python key
    kept: list[Hit] = []
    unit: int | None = None
    furthest: dict[float, int] = {}
    for hit in ordered:
        if hit.unit_index != unit:
            unit, furthest = hit.unit_index, {}
        grade, end = hit.grade, hit.end
        for g, e in furthest.items():
            if g >= grade and e >= end:
                break
        else:
            kept.append(hit)
        if furthest.get(grade, -1) < end:
            furthest[grade] = end
    kept.sort(key=_START_UNIT)
    return kept


_END, _UNIT_START, _START_UNIT = itemgetter(2), itemgetter(0, 1), itemgetter(1, 0)


def judge_windows(text: str, matches: list, window: int) -> list[tuple[int, int, list]]:
    """(start, end, matches) of the text the judge sees: each match with a quarter-window margin on
    both sides, overlapping ones merged up to `_JUDGE_SPAN` windows."""
    margin = window // 4
    out: list[tuple[int, int, list]] = []
    for m in sorted(matches, key=lambda m: m.start):
        lo, hi = max(0, m.start - margin), min(len(text), m.end + margin)
        if out and lo <= out[-1][1] and max(hi, out[-1][1]) - out[-1][0] <= _JUDGE_SPAN * window + 2 * margin:
            out[-1] = (out[-1][0], max(hi, out[-1][1]), out[-1][2] + [m])
        else:
            out.append((lo, hi, [m]))
    return out
