"""Convert the hand-written draft (`draft.txt`) into `cases.jsonl`; standard library only.

A case in the draft is a `### <case id> <lang> <format>` line, its text, then one `>>>` line grading units
as `<entity>/<field>=<grade> <kind>` separated by `|`; a unit of the task that the line leaves out is
`0 absent`. Exits 1 naming the case of any grade that names an unknown unit or kind.

    python3 tests/data/leaks-forms/convert.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = {"verbatim", "reformatted", "masked", "fragment", "distractor", "placeholder", "topic_only", "absent"}


def main() -> int:
    units: dict[str, list[str]] = {}
    for line in (HERE / "units.jsonl").read_text(encoding="utf-8").splitlines():
        u = json.loads(line)
        units.setdefault(u["task_id"], []).append(f"{u['task_id']}/{u['entity_id']}/{u['field']}")
    cases, errors = [], []
    for block in (HERE / "draft.txt").read_text(encoding="utf-8").split("### ")[1:]:
        head, *body = block.rstrip("\n").split("\n")
        case_id, lang, fmt = head.split()
        task = case_id.split("-")[0]
        grades_line = body.pop()
        if not grades_line.startswith(">>> "):
            errors.append(f"{case_id}: no grades line")
            continue
        expected = {uid: 0.0 for uid in units[task]}
        kinds = {uid: "absent" for uid in units[task]}
        for item in grades_line[4:].split("|"):
            key, rest = item.strip().split("=")
            grade, kind = rest.split()
            uid = f"{task}/{key}"
            if uid not in expected or kind not in KINDS:
                errors.append(f"{case_id}: unknown unit or kind in {item.strip()!r}")
                continue
            expected[uid], kinds[uid] = float(grade), kind
        cases.append({"case_id": case_id, "task_id": task, "lang": lang, "format": fmt, "text": "\n".join(body),
                      "expected": expected, "kinds": kinds})
    for error in errors:
        print(f"ERROR {error}")
    (HERE / "cases.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases),
                                      encoding="utf-8")
    print(f"{len(cases)} cases, {sum(len(c['expected']) for c in cases)} unit-case pairs, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
