"""Speed work never changes a finding: every hand-written set's findings hash to the digest recorded here.

Each case is read against all its set's units (not only its task's: more overlapping matches). A change
that means to change findings (a recall fix) updates `findings-digests.json` with the digests the failure
prints, and says so in its commit; `benchmarks/dense_corpus.py --baseline REV` does the same comparison on a
dense corpus against any earlier commit."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from ec2audit.detect.cascade import build_cascade
from ec2audit.payloads import payload_from_record
from ec2audit.units import read_units

DATA = Path(__file__).parent / "data"
SETS = sorted(DATA.glob("leaks-*"))
DIGESTS = DATA / "findings-digests.json"


def findings_digest(folder: Path) -> tuple[int, str]:
    """(count, SHA-256 of the sorted findings) of every case of a set."""
    cascade = build_cascade(read_units(folder / "units.jsonl"))
    cases = [json.loads(line) for line in (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line]
    rows = sorted(json.dumps(list(finding), ensure_ascii=False) for case in cases for finding in cascade.scan(
        payload_from_record({"request": {"messages": [{"role": "user", "content": case["text"]}]}}, case["case_id"])))
    return len(rows), hashlib.sha256("\n".join(rows).encode()).hexdigest()


@pytest.mark.parametrize("folder", SETS, ids=[s.name for s in SETS])
def test_findings_on_each_hand_written_set_are_the_recorded_ones(folder):
    count, digest = findings_digest(folder)
    recorded = json.loads(DIGESTS.read_text(encoding="utf-8"))[folder.name]
    assert count > 50  # the sets are leaks: a scan that found nothing would hash the same every time
    assert [count, digest] == recorded, f'findings changed: "{folder.name}": [{count}, "{digest}"]'
