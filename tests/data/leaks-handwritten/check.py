#!/usr/bin/env python3
"""Consistency checks for the leaks-handwritten evaluation set.

    python3 tests/data/leaks-handwritten/check.py [DIR]

Prints one line per error and a summary; exits 1 when there is any error. `validate(DIR)` returns
the error lines (the test suite calls it). Only the standard library, so it runs anywhere.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
import unicodedata
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
TAXONOMY = HERE.parents[2] / "annotations" / "taxonomy.toml"
FIXED = {"verbatim": 1.0, "reformatted": 1.0, "masked": 0.7, "fragment": 0.3,
         "distractor": 0.0, "placeholder": 0.0, "topic_only": 0.0, "absent": 0.0}
HAND = {"paraphrase", "translation", "description"}  # graded by hand: 0.3, 0.7 or 1.0
NEGATIVE = {"distractor", "placeholder", "topic_only", "absent"}
UNIT_KEYS = ("task_id", "entity_id", "entity_name", "field", "value", "dimension", "weight", "description")
CASE_KEYS = ("case_id", "task_id", "lang", "format", "text", "expected", "kinds")
MIN_CASES, MIN_PER_KIND = 300, 8
GB_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def gb11643_ok(value: str) -> bool:
    """Chinese resident ID: 17 digits and the ISO 7064 MOD 11-2 check character."""
    if not re.fullmatch(r"\d{17}[\dX]", value):
        return False
    return "10X98765432"[sum(int(d) * w for d, w in zip(value[:17], GB_WEIGHTS, strict=True)) % 11] == value[17]


def luhn_ok(value: str) -> bool:
    digits = [int(d) for d in re.sub(r"\D", "", value)][::-1]
    total = sum(d if i % 2 == 0 else (d * 2 - 9 if d > 4 else d * 2) for i, d in enumerate(digits))
    return len(digits) >= 12 and total % 10 == 0


def iban_ok(value: str) -> bool:
    compact = value.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", compact):
        return False
    return int("".join(str(int(c, 36)) for c in compact[4:] + compact[:4])) % 97 == 1


CHECKSUMS = {"id_number": gb11643_ok, "card": luhn_ok, "bank_card": luhn_ok, "iban": iban_ok}


def digit_runs(text: str) -> set[str]:
    """Whole digit runs, and runs of digit groups joined by single separators (`139-0112-7358`)."""
    text = unicodedata.normalize("NFKC", text)
    runs = set(re.findall(r"\d+", text))
    runs |= {re.sub(r"\D", "", m) for m in re.findall(r"\d+(?:[ \-.:/]\d+)+", text)}
    return runs


def occurs_standalone(value: str, text: str) -> bool:
    """The value occurs and is not part of a longer ASCII word or number (`…2914001` is another number)."""
    left = r"(?<![0-9A-Za-z])" if re.match(r"[0-9A-Za-z]", value) else ""
    right = r"(?![0-9A-Za-z])" if re.search(r"[0-9A-Za-z]$", value) else ""
    return re.search(left + re.escape(value) + right, text) is not None


def read_jsonl(path: Path, errors: list[str]) -> list[dict]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                errors.append(f"{path.name}:{number}: not JSON ({exc.msg})")
    return rows


def check_units(units: list[dict], errors: list[str]) -> dict[str, list[dict]]:
    dimensions = set(tomllib.loads(TAXONOMY.read_text(encoding="utf-8"))["dimensions"])
    tasks: dict[str, list[dict]] = {}
    seen = set()
    for unit in units:
        missing = [k for k in UNIT_KEYS if k not in unit]
        if missing:
            errors.append(f"unit {unit}: missing {', '.join(missing)}")
            continue
        uid = f"{unit['task_id']}/{unit['entity_id']}/{unit['field']}"
        if uid in seen:
            errors.append(f"{uid}: duplicate unit id")
        seen.add(uid)
        if unit["dimension"] not in dimensions:
            errors.append(f"{uid}: unknown dimension {unit['dimension']!r}")
        check = CHECKSUMS.get(unit["field"])
        if check and not check(unit["value"]):
            errors.append(f"{uid}: {unit['value']!r} fails the {unit['field']} checksum")
        tasks.setdefault(unit["task_id"], []).append({**unit, "id": uid})
    return tasks


def check_case(case: dict, tasks: dict[str, list[dict]], errors: list[str]) -> None:
    cid = case.get("case_id")
    missing = [k for k in CASE_KEYS if k not in case]
    if missing:
        errors.append(f"{cid}: missing {', '.join(missing)}")
        return
    if case["task_id"] not in tasks or not cid.startswith(case["task_id"] + "-"):
        errors.append(f"{cid}: unknown task {case['task_id']!r} or id not prefixed by it")
        return
    text = case["text"]
    cjk = len(re.findall(r"[\u4e00-\u9fff]|\\u[4-9][0-9a-f]{3}", text))
    if case["lang"] not in ("zh", "en"):
        errors.append(f"{cid}: lang {case['lang']!r} is not zh or en")
    elif cjk < 10 if case["lang"] == "zh" else cjk > 0.15 * len(text):
        errors.append(f"{cid}: lang {case['lang']} but {cjk} Chinese characters in {len(text)}")
    if not 100 <= len(text) <= 1500:
        errors.append(f"{cid}: text is {len(text)} characters (want 100-1500)")
    units = {u["id"]: u for u in tasks[case["task_id"]]}
    if set(case["expected"]) != set(units) or set(case["kinds"]) != set(units):
        errors.append(f"{cid}: expected/kinds must grade exactly the task's units {sorted(units)}")
        return
    folded, runs = unicodedata.normalize("NFKC", text), digit_runs(text)
    for uid, unit in units.items():
        kind, grade, value = case["kinds"][uid], case["expected"][uid], unit["value"]
        where = f"{cid} {uid} ({kind})"
        if kind in FIXED and grade != FIXED[kind]:
            errors.append(f"{where}: grade {grade}, the kind fixes {FIXED[kind]}")
        elif kind in HAND and grade not in (0.3, 0.7, 1.0):
            errors.append(f"{where}: hand-graded kind needs 0.3, 0.7 or 1.0, got {grade}")
        elif kind not in FIXED and kind not in HAND:
            errors.append(f"{where}: unknown kind")
        literal = occurs_standalone(value, text)
        if kind == "verbatim" and not literal:
            errors.append(f"{where}: the value {value!r} does not occur in the text")
        if literal and kind != "verbatim":
            errors.append(f"{where}: the value occurs verbatim in the text")
        if kind in NEGATIVE | {"masked", "fragment"}:
            if occurs_standalone(value, folded) and not literal:
                errors.append(f"{where}: the value occurs after NFKC normalisation")
            digits = re.sub(r"\D", "", value)
            numeric = not re.search(r"[A-Za-z]", value.rstrip("Xx"))
            if numeric and len(digits) >= 6 and digits in runs:  # inside a longer number is allowed
                errors.append(f"{where}: all the value's digits {digits} occur as one number")


def validate(directory: str | Path = HERE) -> list[str]:
    directory = Path(directory)
    errors: list[str] = []
    tasks = check_units(read_jsonl(directory / "units.jsonl", errors), errors)
    cases = read_jsonl(directory / "cases.jsonl", errors)
    ids = Counter(c.get("case_id") for c in cases)
    errors += [f"{cid}: duplicate case id" for cid, n in ids.items() if n > 1]
    for case in cases:
        check_case(case, tasks, errors)
    if len(cases) < MIN_CASES:
        errors.append(f"{len(cases)} cases (want at least {MIN_CASES})")
    kinds = Counter(k for c in cases for k in c.get("kinds", {}).values())
    errors += [f"kind {k}: {kinds[k]} unit-case pairs (want at least {MIN_PER_KIND})"
               for k in sorted(set(FIXED) | HAND) if kinds[k] < MIN_PER_KIND]
    return errors


def main() -> int:
    directory = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    errors = validate(directory)
    for line in errors:
        print("ERROR", line)
    cases = (directory / "cases.jsonl").read_text(encoding="utf-8").count("\n")
    print(f"{cases} cases; {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
