"""The string tiers' findings on every hand-written set the repository ships, as one JSONL snapshot.

`tests/test_detect_golden.py` compares today's findings with the snapshot; a change to a detector that
means to change findings regenerates it (and says why in its commit):

    PYTHONPATH=. .venv/bin/python tests/golden_findings.py
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

from ec2audit.detect.cascade import build_cascade
from ec2audit.payloads import payload_from_record
from ec2audit.units import read_units

DATA = Path(__file__).resolve().parent / "data"
#: the hand-written leak sets (units.jsonl + cases.jsonl), each text written by hand
SETS = ("leaks-handwritten", "leaks-dev-extra", "leaks-forms")
SNAPSHOT = DATA / "golden" / "string_tiers.jsonl"


def findings(name: str) -> Iterator[dict]:
    """Every finding of the string tiers (no model) in every case of one set, as the audit scans it: the
    case as one user message of a payload naming its task."""
    folder = DATA / name
    units = read_units(folder / "units.jsonl")
    cascade = build_cascade(units)
    for line in (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        payload = payload_from_record({"id": case["case_id"], "task_id": case["task_id"],
                                       "request": {"messages": [{"role": "user", "content": case["text"]}]}},
                                      case["case_id"])
        for f in sorted(cascade.scan(payload), key=lambda f: (f.segment, f.start, f.end, f.unit_id, f.detector)):
            yield {"set": name, "case": case["case_id"], "unit": f.unit_id, "segment": f.segment,
                   "start": f.start, "end": f.end, "text": f.matched_text, "detector": f.detector,
                   "grade": f.grade, "confidence": round(f.confidence, 4)}


def current() -> list[str]:
    """Today's snapshot lines."""
    return [json.dumps(row, ensure_ascii=False, sort_keys=True) for name in SETS for row in findings(name)]


def main() -> int:
    lines = current()
    SNAPSHOT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} findings written to {SNAPSHOT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
