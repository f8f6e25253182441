"""The detector cascade: each (unit, segment) pair is decided by the cheapest tier that can.

Tiers run in order — exact, then partial, then (when given) the semantic shortlist and the LLM
judge — and a later tier only sees the units an earlier one left undecided for that segment.
Findings record the tier that decided them ("semantic" or "judge" for the paraphrase tiers).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from ec2audit.detect.compiled import compile_units
from ec2audit.detect.exact import ExactDetector
from ec2audit.detect.finding import LITERAL, MOSTLY, Finding, Hit
from ec2audit.detect.normalize import TextView
from ec2audit.detect.partial import PartialDetector
from ec2audit.detect.patterns import PatternIndex
from ec2audit.payloads import Payload
from ec2audit.taxonomy import Taxonomy
from ec2audit.units import Unit

if TYPE_CHECKING:
    from ec2audit.detect.judge import Judge
    from ec2audit.detect.semantic import SemanticTier

_CACHE_SIZE = 4096
_JUDGE_MAX_CHARS = 3000  # text a judge call sees around the shortlisted windows


class Cascade:
    def __init__(self, units: list[Unit], taxonomy: Taxonomy | None = None,
                 semantic: SemanticTier | None = None, judge: Judge | None = None):
        """`semantic` (built over the same units) shortlists undecided pairs; `judge` grades them.
        Without a judge the semantic tier decides alone (grade 0.7 at its threshold)."""
        if semantic is not None and len(semantic.units) != len(units):
            raise ValueError("the semantic tier must be built over the cascade's units")
        if judge is not None and semantic is None:
            raise ValueError("the judge needs a semantic tier to shortlist its pairs")
        self.units, self.semantic, self.judge = units, semantic, judge
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
        if self.semantic is not None:
            findings += self._paraphrases(payload, allowed, {(f.segment, f.unit_id) for f in findings})
        return findings

    def _paraphrases(self, payload: Payload, allowed: set[int] | None,
                     decided: set[tuple[int, str]]) -> list[Finding]:
        """Semantic shortlist, then one judge call per segment, for the pairs no string tier decided."""
        candidates = sorted(allowed) if allowed is not None else range(len(self.units))
        pending = [(k, [i for i in candidates if (k, self.units[i].id) not in decided])
                   for k in range(len(payload.segments))]
        pending = [(k, c) for k, c in pending if c]
        if not pending:
            return []
        texts = [payload.segments[k].text for k, _ in pending]
        shortlists = self.semantic.shortlist(texts, [c for _, c in pending])
        out, requests, owners = [], [], []
        for (k, _), text, matches in zip(pending, texts, shortlists, strict=True):
            if not matches:
                continue
            if self.judge is None:
                out += [Finding(self.units[m.unit_index].id, payload.id, k, m.start, m.end, text[m.start:m.end],
                                "semantic", MOSTLY, m.score) for m in matches]
                continue
            margin = self.semantic.window
            lo, hi = max(0, min(m.start for m in matches) - margin), max(m.end for m in matches) + margin
            if hi - lo > _JUDGE_MAX_CHARS:  # centre on the best window
                best = max(matches, key=lambda m: m.score)
                lo = max(0, (best.start + best.end - _JUDGE_MAX_CHARS) // 2)
                hi = lo + _JUDGE_MAX_CHARS
            requests.append((text[lo:hi], [self.units[m.unit_index] for m in matches]))
            owners.append((k, lo, text, matches))
        if requests:
            for (k, lo, text, matches), verdicts in zip(owners, self.judge.judge(requests), strict=True):
                out += [Finding(self.units[m.unit_index].id, payload.id, k, lo + v.start, lo + v.end,
                                text[lo + v.start:lo + v.end], "judge", v.grade, m.score)
                        for m, v in zip(matches, verdicts, strict=True) if v.grade > 0]
        return out
