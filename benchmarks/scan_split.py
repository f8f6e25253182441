"""Where one long payload's scan spends its CPU, and how many derived-view windows hold an engine candidate.

Issue 34's batch design reads windows only around the automaton's candidates. Whether that pays depends on
how many windows (and how many of the changes a derived view is windowed around) hold none: this script
scans `dense_corpus.py`'s single payload (`write_single`, the dense corpus's units) once, timing each step
of `Cascade.tier_hits` as it runs there, and counts, per windowed view, the windows holding an automaton
match of any kind and of each kind, and the changes with a match within the tiers' reach. The hits must
equal `Cascade.scan_text`'s (checked: a split that reads otherwise would time another scan).

    nice .venv/bin/python benchmarks/scan_split.py --mb 8 [--shared /work/shared] [--baseline REV]

With `--baseline REV` the derived views (`views.derived_views`) of that commit's `ec2audit/detect/views.py` are
timed against this tree's in this process, alternating, best of `--rounds`; their texts must be equal.
"""

from __future__ import annotations

import argparse
import bisect
import importlib.util
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dense_corpus import leak_sets, write_corpus, write_single  # noqa: E402

from ec2audit.detect.cascade import best_hits, build_cascade  # noqa: E402
from ec2audit.detect.finding import LITERAL  # noqa: E402
from ec2audit.detect.normalize import TextView  # noqa: E402
from ec2audit.detect.views import (  # noqa: E402
    ScanView,
    WindowedView,
    _decoders,
    decoded_text,
    derived_views,
    to_simplified,
)
from ec2audit.units import read_units  # noqa: E402


def split(cascade, text: str) -> tuple[Counter, list[str], list]:
    """(CPU seconds per step, lines on each windowed view, the hits), as `Cascade.tier_hits` scans `text`."""
    spent: Counter = Counter()
    lines: list[str] = []
    clock = time.process_time

    def timed(step: str, call, *args):
        start = clock()
        out = call(*args)
        spent[step] += clock() - start
        return out

    hits: list = []
    decided: set[int] = set()
    view = timed("text view (TextView.of)", TextView.of, text)
    matches = timed("automaton, text view", cascade.index.matches, view.text)
    for tier in cascade.tiers:
        found = timed(f"tier {tier.name}, text view", tier.scan, ScanView(view, matches), hits, decided)
        hits += found
        decided.update(h.unit_index for h in found if h.grade >= LITERAL)
    wanted = [form for form in cascade._rewriting if form.wanted(matches)]
    rewriters = [cascade._cues.rewriter(wanted)] if wanted else []
    views = derived_views(text, view, rewriters, cascade.reach, cascade._inner)
    while (derived := timed("derived views (decoding, rewrites, Simplified, windows)", next, views, None)):
        if not isinstance(derived, WindowedView):
            raise SystemExit("a derived view read whole: this split times windowed views only")
        found_matches = timed("automaton, windows", cascade.index.matches, derived.text)
        lines.append(_candidates(cascade, derived, found_matches))
        seen, found_all = set(decided), []
        for tier in cascade.tiers:
            found = timed(f"tier {tier.name}, windows", _kept, tier, ScanView(derived, found_matches), hits, seen)
            found_all += found
            seen.update(h.unit_index for h in found if h.grade >= LITERAL)
        hits += found_all
        decided |= seen
    return spent, lines, timed("best_hits", best_hits, hits)


def _kept(tier, scan_view: ScanView, hits: list, seen: set[int]) -> list:
    """A tier's hits in windows that the whole view has (`Cascade._scan_windows`)."""
    return [h for h in tier.scan(scan_view, hits, seen) if scan_view.view.keeps(h.start, h.end)]


def _candidates(cascade, view: WindowedView, matches: dict) -> str:
    """Windows of `view` holding a match (any kind; each kind) and, decoded, changes with one within the reach."""
    part = lambda start: bisect.bisect_right(view.part_view_starts, start) - 1  # noqa: E731
    holding = {kind: {part(s) for s, _, _ in found} for kind, found in matches.items()}
    any_kind = set().union(*holding.values()) if holding else set()
    starts = sorted(view.to_original(s, e)[0] for found in matches.values() for s, e, _ in found)
    reach, line = cascade.reach, ""
    if view.rewrite is not None:  # a decoded view: its changes are the rewrite's spans (source offsets)
        changes = [(span[2], span[3]) for span in view.rewrite.spans]
        near = sum(1 for lo, hi in changes
                   if bisect.bisect_left(starts, lo - reach) < bisect.bisect_right(starts, hi + reach))
        line = f"; {near} of {len(changes)} changes have a match within the reach ({reach} characters)"
    kinds = ", ".join(f"{kind} {len(w)}" for kind, w in sorted(holding.items(), key=lambda kv: -len(kv[1]))[:8])
    return (f"{len(view.windows)} windows, {len(view.text):,} characters: {len(any_kind)} hold a match of some "
            f"kind (by kind: {kinds}, …){line}")


def derivation(cascade, text: str) -> Counter:
    """CPU seconds of each pass that derives the decoded view over the whole text: Simplified, each decoder, each
    form's rewrite (the rewrites a text view's matches call for). Timed apart from the scan, once each."""
    spent: Counter = Counter()
    view = TextView.of(text)
    matches = cascade.index.matches(view.text)
    start = time.process_time()
    simplified = to_simplified(text)
    spent["Simplified (to_simplified)"] = time.process_time() - start
    passes = [(f"decoder {d.__name__}", d) for d in _decoders(simplified, simplified.lower())]
    wanted = [form for form in cascade._rewriting if form.wanted(matches)]
    cues = cascade._cues
    start = time.process_time()
    stretches = dict(zip(map(id, cues.cued), cues.stretches(simplified, [f in wanted for f in cues.cued]),
                         strict=True))
    spent["the forms' cues (one pass, cues.CueScan)"] = time.process_time() - start
    passes += [(f"rewrite {form.name}" + (" (whole text)" if form.cue is None else ""),
                _cued(form, stretches.get(id(form)))) for form in wanted]
    for name, read in passes:
        start = time.process_time()
        for _ in read(simplified):
            pass
        spent[name] = time.process_time() - start
    return spent


def _cued(form, stretches):
    """A form's rewrite as the cascade runs it: over its cues' stretches, or the whole text without a cue."""
    if stretches is None:
        return form.rewrite
    return lambda text: [r for start, end in stretches for r in form.rewrite(text[start:end])]


def cued_against_whole(cascade, text: str, rounds: int) -> tuple[float, float]:
    """Best CPU of deriving the decoded text with the forms' rewrites over the whole text (each form's own pass,
    as before the cues) and over their cues' stretches (`cues.CueScan`), alternating in this process; the two
    derived texts and their maps back must be equal."""
    view = TextView.of(text)
    matches = cascade.index.matches(view.text)
    simplified = to_simplified(text)
    folded = view.folded if simplified is text else None
    wanted = [form for form in cascade._rewriting if form.wanted(matches)]
    ways = {"whole": [form.rewrite for form in wanted], "cued": [cascade._cues.rewriter(wanted)]}
    best = {way: float("inf") for way in ways}
    out = {}
    for _ in range(rounds):
        for way, rewriters in ways.items():
            start = time.process_time()
            out[way] = decoded_text(simplified, folded, rewriters, cascade._inner)
            best[way] = min(best[way], time.process_time() - start)
    whole, cued = out["whole"], out["cued"]
    if (whole is None) != (cued is None) or whole and cued and (whole[0] != cued[0] or whole[1].spans != cued[1].spans):
        raise SystemExit("the cued rewrites derive another decoded text than the whole text's")
    return best["whole"], best["cued"]


def views_of(rev: str, folder: Path):
    """The `views` module of commit `rev` (`git show`), imported beside this tree's (the rest of the package is
    this tree's)."""
    source = subprocess.run(["git", "show", f"{rev}:ec2audit/detect/views.py"], check=True, capture_output=True,
                            cwd=Path(__file__).resolve().parent, text=True).stdout
    path = folder / f"views_{rev}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"views_{rev}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def derived_against(cascade, text: str, baseline, rounds: int) -> tuple[float, float]:
    """Best CPU of deriving every view of `text` (`derived_views`, windows built) with the `baseline` views module
    and with this tree's, alternating in this process; the views' texts must be equal."""
    from ec2audit.detect import views

    view = TextView.of(text)
    matches = cascade.index.matches(view.text)
    hits: list = []
    for tier in cascade.tiers:  # the spans the tiers read further (`TextView.reached`), which windows hold
        hits += tier.scan(ScanView(view, matches), hits, set())
    wanted = [form for form in cascade._rewriting if form.wanted(matches)]
    rewriters = [cascade._cues.rewriter(wanted)] if wanted else []
    best, texts = {"baseline": float("inf"), "this tree": float("inf")}, {}
    for _ in range(rounds):
        for way, module in (("baseline", baseline), ("this tree", views)):
            start = time.process_time()
            derived = list(module.derived_views(text, view, rewriters, cascade.reach, cascade._inner))
            best[way] = min(best[way], time.process_time() - start)
            texts[way] = [d.text for d in derived]
    if texts["baseline"] != texts["this tree"]:
        raise SystemExit("the baseline derives other views than this tree")
    return best["baseline"], best["this tree"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=8, help="payload size in MB (default 8)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the cued-against-whole comparison")
    parser.add_argument("--shared", type=Path, help="a folder with more leaks-* sets (default: ../shared)")
    parser.add_argument("--baseline", metavar="REV", help="also time the derived views of this commit's views.py")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ec2audit-split-") as folder:
        sets = leak_sets(args.shared)
        units, _, _ = write_corpus(sets, Path(folder), 0.01)
        write_single(sets, Path(folder) / "single.txt", args.mb)
        text = (Path(folder) / "single.txt").read_text(encoding="utf-8")[:int(args.mb * 1e6)]
        cascade = build_cascade(read_units(units))
        baseline = views_of(args.baseline, Path(folder)) if args.baseline else None
    cascade.scan_text(text[:300_000])  # lazy imports and tables, outside the timed scan
    spent, lines, hits = split(cascade, text)
    if hits != cascade.scan_text(text):
        raise SystemExit("the split's hits differ from scan_text's")
    total = sum(spent.values())
    print(f"{args.mb:g} MB payload, {len(hits)} hits, {total:.2f} s CPU in all")
    for step, seconds in spent.most_common():
        print(f"  {seconds:6.3f} s  {100 * seconds / total:4.1f} %  {step}")
    for line in lines:
        print(f"windowed view: {line}")
    passes = derivation(cascade, text)
    print(f"the decoded view's passes over the whole text, timed apart: {sum(passes.values()):.2f} s")
    for step, seconds in passes.most_common():
        print(f"  {seconds:6.3f} s  {step}")
    whole, cued = cued_against_whole(cascade, text, args.rounds)
    print(f"the decoded text (decoders and every rewrite), best of {args.rounds} in this process: forms reading the "
          f"whole text {whole:.3f} s, forms reading their cues' stretches {cued:.3f} s ({whole / cued:.2f}x); "
          "the same text and map")
    if baseline is not None:
        before, after = derived_against(cascade, text, baseline, args.rounds)
        print(f"derived views, best of {args.rounds} in this process: {args.baseline} {before:.3f} s, this tree "
              f"{after:.3f} s ({before / after:.2f}x); the same views")
    return 0


if __name__ == "__main__":
    sys.exit(main())
