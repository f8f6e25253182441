"""The detector cascade: each (unit, segment) pair is decided by the cheapest tier that can.

Tiers run in order — exact, then partial — and a later tier only sees the units an earlier one
left undecided for that segment. Findings record the tier that decided them.
"""

from __future__ import annotations

from collections import defaultdict

from ec2audit.detect.compiled import compile_units
from ec2audit.detect.exact import ExactDetector
from ec2audit.detect.finding import LITERAL, Finding, Hit
from ec2audit.detect.normalize import TextView
from ec2audit.detect.partial import PartialDetector
from ec2audit.detect.patterns import PatternIndex
from ec2audit.payloads import Payload
from ec2audit.taxonomy import Taxonomy
from ec2audit.units import Unit

_CACHE_SIZE = 4096


class Cascade:
    def __init__(self, units: list[Unit], taxonomy: Taxonomy | None = None):
        self.units = units
        compiled = compile_units(units, taxonomy)
        index = PatternIndex()
        self.exact = ExactDetector(compiled, index)
        self.partial = PartialDetector(compiled, index)
        self._index = index.build()
        self._cache: dict[str, list[Hit]] = {}
        self._by_task: dict[str, set[int]] = defaultdict(set)
        for i, unit in enumerate(units):
            self._by_task[unit.task_id].add(i)

    def scan_text(self, text: str, allowed: set[int] | None = None) -> list[Hit]:
        """All hits in one text, at most one per (unit, span), highest grade kept.

        Agent context is cumulative — every request resends the system prompt and earlier tool
        results — so hits are cached per distinct text and each is scanned once.
        """
        hits = self._cache.get(text)
        if hits is None:
            hits = self._scan(text)
            if len(self._cache) >= _CACHE_SIZE:
                self._cache.pop(next(iter(self._cache)))
            self._cache[text] = hits
        return hits if allowed is None else [h for h in hits if h.unit_index in allowed]

    def _scan(self, text: str) -> list[Hit]:
        view = TextView.of(text)
        matches = self._index.matches(view.text)
        hits = list(self.exact.scan(view, matches))
        decided = {h.unit_index for h in hits if h.grade >= LITERAL}
        hits += self.partial.scan(view, matches, decided)
        best: dict[tuple[int, int, int], Hit] = {}
        for hit in hits:
            key = (hit.unit_index, hit.start, hit.end)
            if key not in best or hit.grade > best[key].grade:
                best[key] = hit
        by_unit: dict[int, list[Hit]] = defaultdict(list)
        for hit in best.values():
            by_unit[hit.unit_index].append(hit)
        kept = [h for group in by_unit.values() for h in group if not any(  # drop hits inside better ones
            o is not h and o.grade >= h.grade and o.start <= h.start and h.end <= o.end for o in group)]
        return sorted(kept, key=lambda h: (h.start, h.unit_index))

    def scan(self, payload: Payload) -> list[Finding]:
        """Findings of one payload; a payload that names its task is matched against that task's units."""
        allowed = self._by_task.get(payload.task_id) if payload.task_id else None
        findings = []
        for k, segment in enumerate(payload.segments):
            for hit in self.scan_text(segment.text, allowed):
                findings.append(Finding(
                    unit_id=self.units[hit.unit_index].id, payload_id=payload.id, segment=k,
                    start=hit.start, end=hit.end, matched_text=segment.text[hit.start:hit.end],
                    detector=hit.detector, grade=hit.grade, confidence=hit.confidence))
        return findings
