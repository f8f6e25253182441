"""Where the scan's CPU goes, function by function: the dense corpus's calls (each call's texts one batch, as the
audit scans them) or `--single` MB of its single payload, with each candidate step wrapped in `time.process_time`.

Without the profiler's per-call overhead (cProfile makes the many small functions look 2-3x bigger), each step's
inclusive CPU and its share of the scan: the string tiers (`exact` and its passes, each form's `confirm`), the
automaton (`PatternIndex.matches`), the derived views (`decoded_text`: each decoder and each form's `rewrite`;
Simplified; windows) and `best_hits`. Steps nest (a form's rewrite is inside `decoded_text`), so shares do not add
up. The scan is first timed unwrapped (the wrappers add ~20 % on short texts, ~1 % on the single payload), and its
hits must equal the wrapped scan's.

It also counts what the issue's early exits would leave out: texts whose text view holds no automaton match, and
digit views that find nothing (their CPU), since both are a cost only where they are many.

    nice .venv/bin/python benchmarks/scan_costs.py --mb 2 [--shared /work/shared]
    nice .venv/bin/python benchmarks/scan_costs.py --single 8 [--shared /work/shared]
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dense_corpus import leak_sets, write_corpus, write_single  # noqa: E402

from ec2audit.detect import cascade as cascade_module  # noqa: E402
from ec2audit.detect import views  # noqa: E402
from ec2audit.detect.cascade import Cascade  # noqa: E402
from ec2audit.detect.exact import ExactDetector  # noqa: E402
from ec2audit.detect.normalize import TextView  # noqa: E402
from ec2audit.units import read_units  # noqa: E402

_DECODERS = ("_percent", "_plus_spaces", "_entities", "_u_escapes", "_x_escapes", "_octal_escapes", "_base64",
             "_hex", "_mrz", "_obfuscated_emails")


class Costs:
    """Inclusive CPU seconds and calls per step, by wrapping callables in place."""

    def __init__(self) -> None:
        self.spent: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()

    def wrap(self, owner: object, name: str, step: str, materialise: bool = False) -> None:
        """Time `owner.name` as `step`; `materialise`: it returns an iterator, read whole inside the timing."""
        call: Callable = getattr(owner, name)
        clock, spent, calls = time.process_time, self.spent, self.calls

        def timed(*args, **kwargs):
            start = clock()
            out = call(*args, **kwargs)
            if materialise:
                out = list(out)
            spent[step] += clock() - start
            calls[step] += 1
            return out
        setattr(owner, name, timed)


def instrument(cascade: Cascade, costs: Costs) -> None:
    for tier in cascade.tiers:
        costs.wrap(tier, "scan", f"tier {tier.name}")
        for form in getattr(tier.tier, "forms", ()):
            costs.wrap(form, "confirm", f"  confirm {form.name}", materialise=True)
    exact = cascade.tiers[0].tier
    for name in ("_literal", "_scan_digits", "_scan_alnum", "_scan_chinese_amounts"):
        costs.wrap(exact, name, f"  exact {name}", materialise=True)
    for form in cascade._rewriting:
        costs.wrap(form, "rewrite", f"  rewrite {form.name}", materialise=True)
    costs.wrap(cascade.index, "matches", "automaton (PatternIndex.matches)")
    costs.wrap(cascade._cues, "stretches", "  the forms' cues in a long text (CueScan.stretches)")
    costs.wrap(cascade._cues, "_cues_of", "the batch's cue pass (CueScan._cues_of)")
    costs.wrap(views, "decoded_text", "derived: decoded_text (decoders + rewrites, nested too)")
    costs.wrap(views, "windowed", "derived: windows (views.windowed)")
    for name in _DECODERS:
        costs.wrap(views, name, f"  decoder {name}", materialise=True)
    costs.wrap(views, "to_simplified", "derived: to_simplified")
    costs.wrap(cascade_module, "best_hits", "best_hits")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=2, help="dense corpus size in MB (default 2)")
    parser.add_argument("--single", type=float, metavar="MB", help="scan this many MB of the single payload instead")
    parser.add_argument("--shared", type=Path, help="a folder with more leaks-* sets (default: ../shared)")
    parser.add_argument("--top", type=int, default=30, help="steps listed (default 30)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ec2audit-costs-") as folder:
        sets = leak_sets(args.shared)
        units_path, corpus, _ = write_corpus(sets, Path(folder), 0.01 if args.single else args.mb)
        if args.single:
            write_single(sets, Path(folder) / "single.txt", args.single)
            calls = [[(Path(folder) / "single.txt").read_text(encoding="utf-8")[:int(args.single * 1e6)]]]
        else:
            calls = [[m["content"] for m in json.loads(line)["request"]["messages"] if m.get("content")]
                     for line in corpus.open(encoding="utf-8")]
        units = read_units(units_path)
    warm = Cascade(units)
    for texts in calls[:50]:  # lazy imports and tables, outside the timings
        warm.scan_texts([text[:300_000] for text in texts])
    mb = sum(len(text.encode()) for texts in calls for text in texts) / 1e6

    plain, plain_hits = _scan(Cascade(units), calls)
    cascade, costs = Cascade(units), Costs()
    instrument(cascade, costs)
    wrapped, hits = _scan(cascade, calls)
    if hits != plain_hits:
        raise SystemExit("the wrapped scan's hits differ from the plain scan's")
    print(f"{mb:.1f} MB of text in {len(calls)} calls: the scan {plain:.2f} s CPU ({mb / plain:.2f} MB/s), "
          f"wrapped {wrapped:.2f} s; shares of the wrapped scan")
    for step, seconds in costs.spent.most_common(args.top):
        print(f"  {seconds:6.3f} s  {100 * seconds / wrapped:5.1f} %  {costs.calls[step]:6d} calls  {step}")
    if not args.single:
        _early_exits(Cascade(units), calls)
    return 0


def _scan(cascade: Cascade, calls: list[list[str]]) -> tuple[float, list]:
    gc.collect()
    start = time.process_time()
    hits = [cascade.scan_texts(texts) for texts in calls]
    return time.process_time() - start, hits


def _early_exits(cascade: Cascade, calls: list[list[str]]) -> None:
    """What an exit before the derived views and tiers could leave out, and what a gate on the digit view could."""
    texts = list(dict.fromkeys(text for call in calls for text in call))
    counts: Counter[str] = Counter()
    spent: defaultdict[str, float] = defaultdict(float)
    exact = cascade.tiers[0].tier
    assert isinstance(exact, ExactDetector)
    digits = exact._scan_digits

    def digit_view(view, english):
        start = time.process_time()
        found = digits(view, english)
        key = "digit views finding a number" if found else "digit views finding none"
        spent[key] += time.process_time() - start
        counts[key] += 1
        return found
    exact._scan_digits = digit_view  # type: ignore[method-assign]
    for text in texts:
        matched = bool(cascade.index.matches(TextView.of(text).text))
        start = time.process_time()
        hit = bool(cascade.tier_hits(text))
        kind = f"texts with {'an automaton match' if matched else 'no automaton match'}, {'hits' if hit else 'no hit'}"
        counts[kind] += 1
        spent[kind] += time.process_time() - start
    total = sum(seconds for kind, seconds in spent.items() if kind.startswith("texts"))
    print(f"{len(texts)} distinct texts, {total:.2f} s CPU of tiers and views:")
    for kind, n in counts.most_common():
        print(f"  {n:5d}  {spent[kind]:6.3f} s  {100 * spent[kind] / total:5.1f} %  {kind}")


if __name__ == "__main__":
    sys.exit(main())
