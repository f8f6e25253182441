"""The string tiers find exactly what they found when the snapshot was taken, on every hand-written set.

`tests/data/golden/string_tiers.jsonl` holds every finding (unit, span, text, detector, grade, confidence)
of the string tiers on `leaks-handwritten`, `leaks-dev-extra` and `leaks-forms`. A refactoring of the
tiers must leave it as it is; a change that means to change findings regenerates it and says why:

    PYTHONPATH=. .venv/bin/python tests/golden_findings.py
"""

from __future__ import annotations

import difflib

from golden_findings import SNAPSHOT, current


def test_string_tiers_find_what_the_snapshot_holds():
    recorded = SNAPSHOT.read_text(encoding="utf-8").splitlines()
    today = current()
    diff = list(difflib.unified_diff(recorded, today, "snapshot", "today", lineterm="", n=0))
    assert not diff, f"{len(diff)} lines differ:\n" + "\n".join(diff[:40])
    assert len(recorded) > 900  # every set was read
