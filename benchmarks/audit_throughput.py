"""Throughput of the deterministic tiers (exact + partial) against a naive baseline, same process.

Seeded Faker data: 3,385 units (en_US + zh_CN, 100 tasks) and ≥ 10 MB of agent-like payloads.
Payloads carry no task id, so both sides match every payload against all 3,385 units, as when a
log is audited with the units of a whole benchmark. Baseline: for each unit, `value in text` over
the normalised payload. Also checks that both find the same literal (text-view) leaks.

    .venv/bin/python benchmarks/audit_throughput.py [--mb 10] [--units 3385]
"""

from __future__ import annotations

import argparse
import time

from ec2audit.audit import audit
from ec2audit.detect.cascade import Cascade
from ec2audit.detect.finding import LITERAL
from ec2audit.detect.normalize import TextView, normalize_text
from ec2audit.payloads import payload_from_record
from ec2audit.synth import make_payloads, make_units


def naive(payloads, units):
    """For each payload and each unit: is the normalised value in the normalised payload text?"""
    values = [(u.id, normalize_text(u.value).strip()) for u in units]
    found = set()
    for p in payloads:
        text = "\n".join(normalize_text(s.text) for s in p.segments)
        for uid, value in values:
            if value in text:
                found.add((p.id, uid))
    return found


def breakdown(cascade: Cascade, payloads, units, distinct: list[str]) -> dict[str, float]:
    """Seconds of building every payload's findings from cached hits (timed first: with the other
    stages' intermediate lists alive it measures 2-3x slower), then of each stage of our pass
    over the distinct texts: where the time goes, and what any design that reads the normalised text
    and reports each finding of each payload with its evidence pays at the least."""
    def timed(stage):
        t0 = time.perf_counter()
        out = stage()
        return out, time.perf_counter() - t0

    _, t_assembly = timed(lambda: audit(payloads, units, cascade))
    views, t_view = timed(lambda: [TextView.of(text) for text in distinct])
    found, t_automaton = timed(lambda: [cascade.index.matches(view.text) for view in views])
    exact, t_exact = timed(lambda: [list(cascade.exact.scan(v, m)) for v, m in zip(views, found, strict=True)])
    _, t_partial = timed(lambda: [list(cascade.partial.scan(v, m, {h.unit_index for h in e if h.grade >= LITERAL}))
                                  for v, m, e in zip(views, found, exact, strict=True)])
    return {"findings of every payload (hits cached)": t_assembly, "fold + collapse (text view)": t_view,
            "automaton pass": t_automaton, "exact tier": t_exact, "partial tier": t_partial}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=11.0)
    parser.add_argument("--units", type=int, default=3385)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    units = make_units(args.units, 100, seed=args.seed)
    records, _ = make_payloads(units, int(args.mb * 1_000_000), seed=args.seed)
    payloads = [payload_from_record({k: v for k, v in r.items() if k != "task_id"}, r["id"]) for r in records]
    chars = sum(p.size for p in payloads)
    mbytes = sum(len(s.text.encode()) for p in payloads for s in p.segments) / 1e6
    print(f"{len(units)} units, {len(payloads)} payloads, {mbytes:.1f} MB of segment text ({chars:,} chars)")

    t0 = time.perf_counter()
    cascade = Cascade(units)
    t_build = time.perf_counter() - t0
    t0 = time.perf_counter()
    result = audit(payloads, units, cascade)
    t_ours = time.perf_counter() - t0
    ours_literal = {(r["payload_id"], r["unit_id"]) for r in result.findings_frame().iter_rows(named=True)
                    if r["detector"] == "exact"}

    t0 = time.perf_counter()
    base = naive(payloads, units)
    t_naive = time.perf_counter() - t0

    # The floor for any pass built like ours: fold each distinct text once and run one automaton
    # over it, nothing else. It bounds the speed-up any such design can show against `value in text`.
    distinct = list(dict.fromkeys(s.text for p in payloads for s in p.segments))
    t0 = time.perf_counter()
    for text in distinct:
        cascade.index.matches(TextView.of(text).text)
    t_floor = time.perf_counter() - t0

    print(f"ours  (exact + partial): {t_ours:7.2f} s  {mbytes / t_ours:7.1f} MB/s  "
          f"{len(payloads) / t_ours:8.1f} payloads/s  (automaton build {t_build:.2f} s, "
          f"{len(result.finding_rows)} findings)")
    print(f"naive (value in text):  {t_naive:7.2f} s  {mbytes / t_naive:7.1f} MB/s  "
          f"{len(payloads) / t_naive:8.1f} payloads/s")
    print(f"speed-up: {t_naive / t_ours:.1f}x")
    print(f"floor (fold + one automaton pass over the {sum(map(len, distinct)):,} distinct chars): {t_floor:.2f} s, "
          f"so at most {t_naive / t_floor:.0f}x for this design")
    only_naive, only_ours = base - ours_literal, ours_literal - base
    print(f"literal leaks: naive {len(base)}, ours {len(ours_literal)}, same: {base == ours_literal} "
          f"(naive only {len(only_naive)}, ours only {len(only_ours)})")
    for pid, uid in sorted(only_naive)[:5]:
        print("  naive only:", pid, uid)
    print("where our time goes (each stage timed alone; the first reuses the hits the timed pass cached):")
    for stage, seconds in breakdown(cascade, payloads, units, distinct).items():
        print(f"  {stage:42s} {seconds:6.3f} s  = {t_naive / seconds:5.0f}x the naive baseline's time")


if __name__ == "__main__":
    main()
