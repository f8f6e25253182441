"""What some forms add to the scan: CPU time (`time.process_time`) of `Cascade.scan_text` with and without the
named forms, in one process, the two cascades alternating on each text (a new text each time: the cache keys on
the digest), median of the repeats. Texts with no unit value in them, so every form looks for every unit: prose
(~90 kB), a JSON-lines log (~130 kB), and `proxy_overhead.py`'s short user text; the units are the guard walks'
record (`tests/test_intercept_forms_walk_3.py`: 8 units).

    PYTHONPATH=$PWD nice .venv/bin/python benchmarks/forms_cost.py --forms spaced_pieces,wide_bytes
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_intercept_forms_walk_3 import UNITS  # noqa: E402

from ec2audit.detect import forms  # noqa: E402
from ec2audit.detect.cascade import Cascade  # noqa: E402
from ec2audit.detect.patterns import PatternIndex  # noqa: E402

_WORDS = ("the customer asked about their order and the agent looked it up in the system then replied with a "
          "summary of 12 items at 4.50 each").split()


def texts() -> dict[str, tuple[str, int]]:
    """name → (text, repeats)."""
    pick = random.Random(7).choice
    prose = " ".join(pick(_WORDS) for _ in range(18000))
    log = "\n".join(json.dumps({"ts": f"2026-12-07T21:{i % 60:02d}:00Z", "level": "info",
                                "msg": " ".join(pick(_WORDS) for _ in range(8)), "n": i}) for i in range(1200))
    return {"prose": (prose, 7), "JSON log": (log, 7),
            "short": ("Summarise the quarterly numbers for the team, briefly please.", 2001)}


def cascades(names: set[str]) -> tuple[Cascade, Cascade]:
    """A cascade with every registered form, and one without `names`."""
    forms.build_forms([], PatternIndex())  # registers every form module
    unknown = names - set(forms.FORMS)
    if unknown:
        raise SystemExit(f"forms_cost: no such form: {', '.join(sorted(unknown))}")
    every = Cascade(UNITS, denials=False)
    saved = dict(forms.FORMS)
    for name in names:
        del forms.FORMS[name]
    try:
        return every, Cascade(UNITS, denials=False)
    finally:
        forms.FORMS.clear()
        forms.FORMS.update(saved)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forms", required=True, help="comma-separated form names")
    names = {n.strip() for n in parser.parse_args().forms.split(",") if n.strip()}
    with_forms, without = cascades(names)
    for name, (text, repeats) in texts().items():
        cpu: dict[str, list[float]] = {"with": [], "without": []}
        for k in range(repeats):
            for label, cascade in (("with", with_forms), ("without", without)):
                start = time.process_time()
                cascade.scan_text(f"{text} {k}")
                cpu[label].append(time.process_time() - start)
        print(f"{name} ({len(text):,} characters): without {statistics.median(cpu['without']) * 1000:.3f} ms, "
              f"with {statistics.median(cpu['with']) * 1000:.3f} ms")


if __name__ == "__main__":
    main()
