"""The ceiling of the issue's batch design: the C-level passes it needs over the dense corpus's distinct texts read
as one batch, timed one by one beside the same work text by text, and the MB/s they would allow if nothing else ran.

The batch is every distinct message text of the corpus's calls (the audit scans each distinct text once: its cache
answers the rest), joined by a NUL (no pattern holds one, so no match crosses two texts). The passes: the join;
the text view (`normalize.fold` of the whole batch, the whitespace runs collapsed with their map); its UTF-8
bytes; the engine over them (the default matcher's `find`, Vectorscan's raw scan with a counting callback and its
`find`, then `PatternIndex.matches` as the tiers receive its output); the digit view (Chinese digit runs
translated, the separators between digits dropped: one `re` pass with its map) and its engine pass; the alnum view
(separators deleted from the bytes) and its engine pass; and mapping every match of the text view back to its text
and original offsets. Rows marked "–" in the share column are alternatives or bounds, not in the total. Each pass
is the best of `--rounds`.

Beside them: the gate of the exact tier's digit view (`digit_regions`' database of the units' numbers over the
batch, and today's digit view of the text views it would skip); today's scan of the calls (a fresh cascade per
round, best of `--scans`), optionally without some registered forms (`--without`: a bound, their findings lost);
and the per-text fixed cost (today's scan of as many texts holding no match, and the C passes' part of it).

    PYTHONPATH=$PWD nice .venv/bin/python benchmarks/batch_ceiling.py --mb 2 --shared /work/shared [--without FORM ...]
    PYTHONPATH=$PWD nice .venv/bin/python benchmarks/batch_ceiling.py --single 8 --shared /work/shared --rounds 3
"""

from __future__ import annotations

import argparse
import bisect
import gc
import itertools
import json
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dense_corpus import leak_sets, write_corpus, write_single  # noqa: E402

from ec2audit.detect import digit_regions, forms, normalize  # noqa: E402
from ec2audit.detect.cascade import Cascade  # noqa: E402
from ec2audit.detect.exact import DIGIT_WORDS, ExactDetector  # noqa: E402
from ec2audit.detect.matchers import VectorscanMatcher, characters_at  # noqa: E402
from ec2audit.detect.patterns import PatternIndex  # noqa: E402
from ec2audit.units import Unit, read_units  # noqa: E402

SEPARATOR = "\0"
T = TypeVar("T")


def best(rounds: int, step: Callable[[], T]) -> tuple[float, T]:
    """The least CPU of `rounds` (≥ 1) runs of `step`, and its result."""
    spent = []
    for _ in range(rounds):
        gc.collect()
        start = time.process_time()
        out = step()
        spent.append(time.process_time() - start)
    return min(spent), out


def engine_find(index: PatternIndex, text: str) -> int:
    """Matches of `index`'s engine (the default matcher) over `text`: its `find`, a list of (pattern, start, end)."""
    assert index._automaton is not None
    return len(index._automaton.find(text))


def vectorscan_count(matcher: VectorscanMatcher, data: bytes) -> int:
    """Matches of a Vectorscan database over UTF-8 `data`, the callback only counting (the engine's own cost plus
    one Python call a match)."""
    count = 0

    def on_match(*_: object) -> None:
        nonlocal count
        count += 1
    matcher._database.scan(data, match_event_handler=on_match, scratch=matcher._local.scratch)
    return count


def per_text_cost(units: list[Unit], lengths: list[int], rounds: int) -> tuple[float, float]:
    """CPU of today's scan of distinct texts of these lengths that hold no automaton match (a fresh cascade each
    round, four texts a batch as in a call): the per-text cost that does not depend on what a text holds; and of
    the text view, the engine and the digit and alnum views with their engines alone over the same texts."""
    texts = [(f"zq{k} " + "zq " * (n // 3))[:max(n, 8)] for k, n in enumerate(lengths)]
    scans = []
    for _ in range(rounds):
        cascade = Cascade(units)
        scans.append(best(1, lambda: [cascade.scan_texts(texts[k:k + 4]) for k in range(0, len(texts), 4)])[0])  # noqa: B023
    assert not any(cascade.index.matches(text) for text in texts[:20])
    exact = cascade.tiers[0].tier
    assert isinstance(exact, ExactDetector)

    def passes() -> None:
        for text in texts:
            view = normalize.TextView.of(text)
            cascade.index.matches(view.text)
            engine_find(exact._digits, view.digits().text)
            engine_find(exact._alnum, view.alnum())
    return min(scans), best(rounds, passes)[0]


def number_ends(regions: digit_regions.DigitRegions, data: bytes, ends: list[int]) -> int:
    """The byte ends of the units' numbers' regex matches over UTF-8 `data` (kept in `ends`), their count."""
    ends.clear()
    assert regions._database is not None

    def on_match(_pattern: int, _start: int, end: int, _flags: int, _context: object) -> None:
        ends.append(end)
    regions._database.scan(data, match_event_handler=on_match, scratch=regions._local.scratch)
    return len(ends)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=2, help="dense corpus size in MB (default 2)")
    parser.add_argument("--shared", type=Path, help="a folder with more leaks-* sets (default: ../shared)")
    parser.add_argument("--single", type=float, metavar="MB", help="the passes over this many MB of the single "
                        "payload instead (one text: the batch is the text)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each pass, the best kept (default 5)")
    parser.add_argument("--scans", type=int, default=3, help="rounds of today's scans, the best kept (default 3)")
    parser.add_argument("--without", nargs="*", default=[], metavar="FORM",
                        help="also time today's scan with each of these registered forms left out")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ec2audit-ceiling-") as folder:
        sets = leak_sets(args.shared)
        units_path, corpus, _ = write_corpus(sets, Path(folder), 0.01 if args.single else args.mb)
        lines = corpus.read_text(encoding="utf-8").splitlines()
        if args.single:
            write_single(sets, Path(folder) / "single.txt", args.single)
            calls = [[(Path(folder) / "single.txt").read_text(encoding="utf-8")[:int(args.single * 1e6)]]]
            corpus_mb = len(calls[0][0].encode()) / 1e6
        else:
            calls = [[m["content"] for m in json.loads(line)["request"]["messages"] if m.get("content")]
                     for line in lines]
            corpus_mb = corpus.stat().st_size / 1e6
        units = read_units(units_path)
    texts = list(dict.fromkeys(text for call in calls for text in call))
    text_mb = sum(len(t.encode()) for t in texts) / 1e6
    cascade = Cascade(units)
    exact = cascade.tiers[0].tier
    assert isinstance(exact, ExactDetector)
    for call in calls[:50]:  # lazy imports and tables outside the timings
        cascade.scan_texts(call)
    normalize.prepare_folding()

    rows: list[tuple[str, float, float | None, str, bool]] = []

    def timed(name: str, step: Callable[[], T], note: Callable[[T], str] = lambda _: "",
              needed: bool = True, per_text: Callable[[], object] | None = None) -> T:
        """`needed`: a pass of the design (counted in the total), not an alternative way of one; `per_text`: the
        same work done text by text, as the scan does it today."""
        spent, out = best(args.rounds, step)
        alone = best(args.rounds, per_text)[0] if per_text is not None else None
        rows.append((name, spent, alone, note(out), needed))
        return out

    views = [normalize.TextView.of(text) for text in texts]
    if not args.single:
        timed("read the corpus's lines (json.loads; the audit's, not the design's)",
              lambda: [json.loads(line) for line in lines], needed=False)
    joined = timed("join the texts (NUL between)", lambda: SEPARATOR.join(texts))
    starts = list(itertools.accumulate((len(t) + 1 for t in texts[:-1]), initial=0))
    folded = timed("fold (NFKC, casefold, whitespace → space)", lambda: normalize.fold(joined),
                   per_text=lambda: [normalize.fold(text) for text in texts])
    view, ws_map = timed("collapse whitespace runs, with the map",
                         lambda: normalize._collapse(folded, normalize._MULTI_SPACE, " "),
                         per_text=lambda: [normalize.TextView.of(text) for text in texts])
    data = timed("UTF-8 bytes of the text view", lambda: view.encode("utf-8", "surrogatepass"))
    timed(f"engine over the text view ({type(cascade.index._automaton).__name__}.find)",
          lambda: engine_find(cascade.index, view), lambda n: f"{n:,} matches (inside the next row)", needed=False,
          per_text=lambda: [engine_find(cascade.index, v.text) for v in views])
    vectorscan = VectorscanMatcher(list(cascade.index._entries))
    timed("Vectorscan over its bytes (counting callback; the other engine)", lambda: vectorscan_count(vectorscan, data),
          lambda n: f"{n:,} matches", needed=False)
    timed("VectorscanMatcher.find (sorted, byte offsets to characters)", lambda: len(vectorscan.find(view)),
          lambda n: f"{n:,} matches", needed=False, per_text=lambda: [vectorscan.find(v.text) for v in views])
    found = timed("engine + PatternIndex.matches (grouped by kind)", lambda: cascade.index.matches(view, False),
                  lambda out: f"{sum(map(len, out.values())):,} (kind, match) pairs",
                  per_text=lambda: [cascade.index.matches(v.text) for v in views])

    def digit_view() -> str:
        numbers = view if view.isascii() else \
            normalize._CJK_DIGIT_RUN.sub(lambda m: m.group().translate(normalize._CJK_DIGITS), view)
        return normalize._collapse(numbers, normalize._DIGIT_SEP, "")[0]
    digits = timed("digit view (one re pass + its map)", digit_view, per_text=lambda: [v.digits() for v in views])
    digit_views = [v.digits().text for v in views]
    timed("engine over the digit view (find)", lambda: engine_find(exact._digits, digits), lambda n: f"{n:,} matches",
          per_text=lambda: [engine_find(exact._digits, d) for d in digit_views])
    alnum = timed("alnum view (separators deleted from the bytes)",
                  lambda: view.encode("utf-8", "surrogatepass").translate(None, normalize._ALNUM_SEPARATORS),
                  per_text=lambda: [v.alnum() for v in views])
    alnum_text = alnum.decode("utf-8", "surrogatepass")
    alnum_views = [v.alnum() for v in views]
    timed("engine over the alnum view (find)", lambda: engine_find(exact._alnum, alnum_text),
          lambda n: f"{n:,} matches", per_text=lambda: [engine_find(exact._alnum, a) for a in alnum_views])

    regions = exact._regions
    regions.regions("0" * digit_regions.SHORT, [])  # compiles the units' numbers' database
    if regions._database is not None:  # the suggested piece's gate, bounded: the text views the batch's one pass
        # over the units' numbers' regexes finds none in (nor digit words) would skip the exact tier's digit view
        ends: list[int] = []
        timed("the units' numbers over the batch (`digit_regions`' database)", lambda: number_ends(regions, data, ends),
              lambda n: f"{n:,} matches", needed=False)
        view_starts = [0] + [m.end() for m in re.finditer(SEPARATOR, view)]  # each text's start in the view
        assert len(view_starts) == len(texts)
        chars = characters_at(data, set(ends))
        owners = {bisect.bisect_right(view_starts, chars[end] - 1) - 1 for end in ends}
        spelled = {k for k, v in enumerate(views) if cascade.index.matches(v.text).get(DIGIT_WORDS)}
        skipped = [v for k, v in enumerate(views) if k not in owners and k not in spelled]
        timed("— the digit views it would skip (today's `_scan_digits` of those text views)",
              lambda: [exact._scan_digits(v, []) for v in skipped], lambda _: f"{len(skipped):,} of {len(views):,}",
              needed=False)

    matches = [m for kind in found.values() for m in kind]

    fold_map = normalize._fold_map(joined) if len(folded) != len(joined) else None

    def map_back() -> list[tuple[int, int, int]]:
        """(text, start, end) of every match: the whitespace map, the fold map where folding resized, the text."""
        owner, span, out = bisect.bisect_right, ws_map.span, []
        for start, end, _ in matches:
            s, e = span(start, end)
            if fold_map is not None:
                s, e = fold_map.span(s, e)
            k = owner(starts, s) - 1
            out.append((k, s - starts[k], e - starts[k]))
        return out
    timed("map every match back (its text, original offsets)", map_back, lambda out: f"{len(out):,} matches")

    def lean(name: str) -> Cascade:
        """A cascade without the registered form `name` (its findings are lost: a bound, not a scan to keep)."""
        kept = forms.FORMS.pop(name)
        try:
            return Cascade(units)
        finally:
            forms.FORMS[name] = kept
    ways: dict[str, Callable[[], Cascade]] = {"": lambda: Cascade(units)}
    ways |= {name: lambda name=name: lean(name) for name in args.without}
    scans = {name: float("inf") for name in ways}
    for _ in range(args.scans):  # alternating, each round a fresh cascade per way (its cache empty)
        for name, build in ways.items():
            cascade_of_round = build()
            gc.collect()
            start = time.process_time()
            for call in calls:
                cascade_of_round.scan_texts(call)
            scans[name] = min(scans[name], time.process_time() - start)
    cascade_spent = scans.pop("")
    fixed, fixed_passes = per_text_cost(units, [len(text) for text in texts], args.scans)
    total = sum(spent for _, spent, _, _, needed in rows if needed)
    print(f"{len(calls)} calls, {len(texts)} distinct texts: {text_mb:.2f} MB of text, corpus file {corpus_mb:.2f} MB; "
          f"best of {args.rounds}")
    print("| pass | CPU over the batch | share | the same text by text | note |\n|---|---|---|---|---|")
    for name, spent, alone, note, needed in rows:
        share = f"{100 * spent / total:.1f} %" if needed else "–"
        by_text = f"{1000 * alone:.1f} ms" if alone is not None else "–"
        print(f"| {name} | {1000 * spent:.1f} ms | {share} | {by_text} | {note} |")
    print(f"| **the design's passes** | **{1000 * total:.1f} ms** | 100 % | | {corpus_mb / total:.0f} MB/s of corpus, "
          f"{text_mb / total:.0f} MB/s of text |")
    print(f"today's scan of the calls (scan_texts a call, a fresh cascade: each distinct text once; best of "
          f"{args.scans}): {cascade_spent:.2f} s, {corpus_mb / cascade_spent:.2f} MB/s of corpus, "
          f"{text_mb / cascade_spent:.2f} MB/s of text")
    print("today's scan of as many texts of the same lengths holding no match (a call's texts a batch): "
          f"{fixed:.3f} s, {1e6 * fixed / len(texts):.0f} µs a text: what batching could save at most is this fixed "
          f"cost, less the C passes' share of it ({fixed_passes:.3f} s: the text, digit and alnum views and their "
          "engines alone)")
    for name, spent in scans.items():
        print(f"today's scan without the form {name!r} (its patterns and confirms): {spent:.2f} s "
              f"({100 * (1 - spent / cascade_spent):.1f} % less)")
    print("the text view's matches by kind:", ", ".join(f"{kind} {len(found[kind]):,}" for kind in
                                                    sorted(found, key=lambda k: -len(found[k]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
