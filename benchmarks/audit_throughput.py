"""Throughput of the deterministic tiers (exact + partial) against a naive baseline, same process.

Seeded Faker data: 3,385 units (en_US + zh_CN, 100 tasks) and ≥ 10 MB of agent-like payloads.
Payloads carry no task id, so both sides match every payload against all 3,385 units, as when a
log is audited with the units of a whole benchmark. Baseline: for each unit, `value in text` over
the normalised payload. Also checks that both find the same literal (text-view) leaks.

    .venv/bin/python benchmarks/audit_throughput.py [--mb 10] [--units 3385]

Times are wall-clock and CPU (`time.process_time`): on a shared machine only the CPU figure is
comparable between runs.

`--long 1,2,4,8` instead times single long payloads of those sizes (MB): agent-log lines that repeat
one e-mail, name, phone and card tail between synthetic tool results, so one unit has tens of
thousands of hits. Each doubling should cost about 2x; the baseline there is the pairwise "drop
hits inside better ones" step the cascade used before (quadratic), timed on the same hits up to
`--baseline-mb`.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections import defaultdict

from ec2audit.audit import audit
from ec2audit.detect.cascade import Cascade, best_hits, build_cascade
from ec2audit.detect.finding import LITERAL
from ec2audit.detect.normalize import TextView, normalize_text
from ec2audit.detect.views import ScanView
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


def pairwise_best(hits):
    """The cascade's former step: for every hit, a scan of every other hit of its unit (quadratic)."""
    best = {}
    for hit in hits:
        key = (hit.unit_index, hit.start, hit.end)
        if key not in best or hit.grade > best[key].grade:
            best[key] = hit
    by_unit = defaultdict(list)
    for hit in best.values():
        by_unit[hit.unit_index].append(hit)
    kept = [h for group in by_unit.values() for h in group if not any(
        o is not h and o.grade >= h.grade and o.start <= h.start and h.end <= o.end for o in group)]
    return sorted(kept, key=lambda h: (h.start, h.unit_index))


def long_payload(units, megabytes: float, seed: int) -> str:
    """One agent log of `megabytes`: lines of synthetic tool results, every other line a reminder that repeats
    the same person's e-mail, name, phone and card tail."""
    person = {u.field: u.value for u in units if u.task_id == units[0].task_id and u.entity_id == units[0].entity_id}
    records, _ = make_payloads(units, 400_000, seed=seed)
    filler = list(dict.fromkeys(line for r in records for m in r["request"]["messages"] if m["role"] == "tool"
                                for line in m["content"].splitlines() if line.strip()))
    reminder = (f"INFO reminder sent to {person['email']} ({person['name']}), phone {person['phone']}, "
                f"card ending {person['bank_card'][-4:]}\n")
    lines, size, k = [], 0, 0
    while size < megabytes * 1_000_000:
        line = reminder if k % 2 == 0 else filler[k // 2 % len(filler)] + "\n"
        lines.append(line)
        size += len(line.encode())
        k += 1
    return "".join(lines)


def long_inputs(units, sizes: list[float], baseline_mb: float, seed: int) -> None:
    """Each size on a fresh cascade (built outside the timing), so no size pays for the hits of the sizes
    before it that the cascade's per-text cache would otherwise keep alive (and the garbage collector scan)."""
    previous = None
    for mb in sorted({*sizes, baseline_mb}):
        text = long_payload(units, mb, seed)
        cascade = build_cascade(units)
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        hits = cascade.scan_text(text)
        t_scan, c_scan = time.perf_counter() - t0, time.process_time() - c0
        raw = cascade.tier_hits(text)
        t0 = time.perf_counter()
        best_hits(raw)
        t_step = time.perf_counter() - t0
        line = (f"{mb:4g} MB: scan {t_scan:6.2f} s wall, {c_scan:6.2f} s CPU ({len(raw):,} hits, {len(hits):,} kept"
                + (f", {c_scan / previous:.2f}x the previous size's CPU" if previous else "") + f"); "
                f"drop-inside step {t_step:.3f} s")
        if mb <= baseline_mb:
            t0 = time.perf_counter()
            same = pairwise_best(raw) == best_hits(raw)
            t_pair = time.perf_counter() - t0 - t_step
            line += f", pairwise baseline {t_pair:.2f} s ({t_pair / t_step:.0f}x), same result: {same}"
        print(line, flush=True)
        previous = c_scan


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
    scan_views = [ScanView(v, m) for v, m in zip(views, found, strict=True)]
    stages = {}
    hits: list[list] = [[] for _ in views]
    for tier in cascade.tiers:
        def run(tier=tier):
            for sv, h in zip(scan_views, hits, strict=True):
                h += tier.scan(sv, h, {x.unit_index for x in h if x.grade >= LITERAL})
        _, stages[f"{tier.name} tier (text view)"] = timed(run)
    return {"findings of every payload (hits cached)": t_assembly, "fold + collapse (text view)": t_view,
            "automaton pass": t_automaton, **stages}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=11.0)
    parser.add_argument("--units", type=int, default=3385)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--long", type=lambda s: [float(x) for x in s.split(",")],
                        help="sizes (MB) of single long payloads to time instead, e.g. 1,2,4,8")
    parser.add_argument("--baseline-mb", type=float, default=0.25)
    args = parser.parse_args()

    units = make_units(args.units, 100, seed=args.seed)
    if args.long:
        long_inputs(units, args.long, args.baseline_mb, args.seed)
        return
    records, _ = make_payloads(units, int(args.mb * 1_000_000), seed=args.seed)
    payloads = [payload_from_record({k: v for k, v in r.items() if k != "task_id"}, r["id"]) for r in records]
    chars = sum(p.size for p in payloads)
    mbytes = sum(len(s.text.encode()) for p in payloads for s in p.segments) / 1e6
    print(f"{len(units)} units, {len(payloads)} payloads, {mbytes:.1f} MB of segment text ({chars:,} chars)")

    t0 = time.perf_counter()
    cascade = build_cascade(units)
    t_build = time.perf_counter() - t0
    t0, c0 = time.perf_counter(), time.process_time()
    result = audit(payloads, units, cascade)
    t_ours, c_ours = time.perf_counter() - t0, time.process_time() - c0
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

    print(f"ours  (exact + partial): {c_ours:7.2f} s CPU  {mbytes / c_ours:7.1f} MB/s of CPU time "
          f"(wall {t_ours:.2f} s, {mbytes / t_ours:.1f} MB/s: the gap is other load on the machine)")
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
