"""The hand-written evaluation set is consistent, and `benchmarks/leak_eval.py` counts right.

The arithmetic is checked on a tiny set whose outcome does not depend on how good the detectors
are: literal values are found by any string tier, and labels that contradict the text on purpose
(a literal value graded 0, a value nowhere in the text graded 1) make a known false leak and
known misses. The detectors' score on the full set is a benchmark figure, never asserted here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SET = REPO / "tests" / "data" / "leaks-handwritten"
SCRIPT = REPO / "benchmarks" / "leak_eval.py"


def _python(*args) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, env=env, timeout=300)


def test_handwritten_set_passes_its_checks():
    done = _python(SET / "check.py")
    assert done.returncode == 0, done.stdout
    assert done.stdout.strip().endswith("0 errors")
    cases = [json.loads(line) for line in (SET / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(cases) >= 300
    langs = {lang: sum(c["lang"] == lang for c in cases) for lang in ("zh", "en")}
    assert min(langs.values()) >= 0.4 * len(cases)


def test_check_names_each_inconsistent_case(tmp_path):
    shutil.copy(SET / "units.jsonl", tmp_path / "units.jsonl")
    cases = [json.loads(line) for line in (SET / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    units = {f"{u['task_id']}/{u['entity_id']}/{u['field']}": u["value"]
             for u in map(json.loads, (SET / "units.jsonl").read_text(encoding="utf-8").splitlines())}
    verbatim = next(c for c in cases if "verbatim" in c["kinds"].values())
    uid = next(u for u, k in verbatim["kinds"].items() if k == "verbatim")
    verbatim["text"] = verbatim["text"].replace(units[uid], "[REMOVED]")  # graded verbatim, no longer there
    negative = next(c for c in cases if c is not verbatim and "absent" in c["kinds"].values())
    absent = next(u for u, k in negative["kinds"].items() if k == "absent")
    negative["text"] += f"\n{units[absent]}\n"  # graded absent, now there verbatim
    cases.append(dict(cases[-1]))  # a duplicate id
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases),
                                          encoding="utf-8")
    done = _python(SET / "check.py", tmp_path)
    assert done.returncode == 1
    errors = [line for line in done.stdout.splitlines() if line.startswith("ERROR")]
    broken = {verbatim["case_id"], negative["case_id"], cases[-1]["case_id"]}
    assert errors and all(e.split()[1].rstrip(":") in broken for e in errors), done.stdout  # nothing else
    assert any(verbatim["case_id"] in e and uid in e and "does not occur" in e for e in errors)
    assert any(negative["case_id"] in e and absent in e and "occurs verbatim" in e for e in errors)
    assert any(cases[-1]["case_id"] in e and "duplicate" in e for e in errors)


EMAIL, KEY = "zora.quill@example.org", "sk-test-Q8v2LmZr7TxW4pNc"
TINY_UNITS = [
    {"task_id": "t1", "entity_id": "e1", "field": "email", "value": EMAIL, "dimension": "contact", "weight": 0.6},
    {"task_id": "t1", "entity_id": "e1", "field": "api_key", "value": KEY, "dimension": "credential", "weight": 1.0},
]
E, K = "t1/e1/email", "t1/e1/api_key"
TINY_CASES = [  # (text, {unit: (true grade, kind)})
    (f"Please reply to {EMAIL} and rotate the key {KEY} before Friday.",
     {E: (1.0, "verbatim"), K: (1.0, "verbatim")}),                       # 2 found
    (f"The newsletter went out to {EMAIL} and nobody else; the key we discussed stays in the vault.",
     {E: (0.0, "distractor"), K: (1.0, "paraphrase")}),                    # 1 false leak, 1 meaning-level miss
    ("Reminder: send the weekly report to [EMAIL_1] and never paste [API_KEY_1] into tickets.",
     {E: (0.0, "absent"), K: (0.0, "placeholder")}),                       # 2 correct negatives
    (f"deploy failed: token {KEY} was rejected by the registry, retrying in 30 s",
     {E: (1.0, "reformatted"), K: (1.0, "verbatim")}),                     # 1 found, 1 string-level miss
]


def _write_tiny(folder: Path, cases=TINY_CASES) -> tuple[Path, Path]:
    units, path = folder / "units.jsonl", folder / "cases.jsonl"
    units.write_text("".join(json.dumps(u) + "\n" for u in TINY_UNITS), encoding="utf-8")
    lines = [json.dumps({"case_id": f"t1-{i:03d}", "task_id": "t1", "lang": "en", "format": "chat", "text": text,
                         "expected": {u: g for u, (g, _) in grades.items()},
                         "kinds": {u: k for u, (_, k) in grades.items()}}) + "\n"
             for i, (text, grades) in enumerate(cases, start=1)]
    path.write_text("".join(lines), encoding="utf-8")
    return path, units


def test_leak_eval_counts_a_tiny_set_by_hand(tmp_path):
    done = _python(SCRIPT, *_write_tiny(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    kinds = report["by_kind"]
    assert kinds["verbatim"] == {"pairs": 3, "true_leaks": 3, "found": 3, "false_leaks": 0, "missed": 0,
                                 "precision": 1.0, "recall": 1.0, "f1": 1.0, "grade_accuracy": 1.0}
    assert kinds["reformatted"] == {"pairs": 1, "true_leaks": 1, "found": 0, "false_leaks": 0, "missed": 1,
                                    "precision": None, "recall": 0.0, "f1": 0.0, "grade_accuracy": 0.0}
    assert kinds["distractor"] == {"pairs": 1, "true_leaks": 0, "found": 0, "false_leaks": 1, "missed": 0,
                                   "precision": 0.0, "recall": None, "f1": 0.0, "grade_accuracy": 0.0}
    assert kinds["placeholder"]["grade_accuracy"] == kinds["absent"]["grade_accuracy"] == 1.0
    assert kinds["placeholder"]["f1"] is None  # nothing leaked, nothing predicted: no F1 to speak of
    # string-level: 7 pairs (all but the paraphrase), 3 found, 1 false leak, 1 miss, 5 grades right
    string = report["string_level"]
    assert (string["pairs"], string["found"], string["false_leaks"], string["missed"]) == (7, 3, 1, 1)
    assert string["precision"] == pytest.approx(3 / 4)
    assert string["recall"] == pytest.approx(3 / 4)
    assert string["f1"] == pytest.approx(2 * 3 / (2 * 3 + 1 + 1))
    assert string["grade_accuracy"] == pytest.approx(5 / 7)
    for name in ("precision", "recall", "f1"):  # seeded bootstrap interval around the point figure
        low, high = string["ci95"][name]
        assert low <= string[name] <= high
    assert report["meaning_level"]["pairs"] == 1 and report["meaning_level"]["missed"] == 1
    assert report["false_leaks"] == [{"case_id": "t1-002", "unit_id": E, "kind": "distractor",
                                      "true": 0.0, "predicted": 1.0}]
    assert sorted((m["case_id"], m["unit_id"], m["kind"]) for m in report["misses"]) == [
        ("t1-002", K, "paraphrase"), ("t1-004", E, "reformatted")]


def test_leak_eval_prints_tables(tmp_path):
    done = _python(SCRIPT, *_write_tiny(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "string-level" in done.stdout and "1 false leaks" in done.stdout and "2 misses" in done.stdout


def test_leak_eval_rejects_a_case_that_skips_a_unit(tmp_path):
    cases, units = _write_tiny(tmp_path, TINY_CASES[:1] + [("only the e-mail is graded here", {E: (0.0, "absent")})])
    done = _python(SCRIPT, cases, units)
    assert done.returncode == 2
    message = " ".join(done.stderr.split())
    assert f"{cases}:2" in message and "field 'expected'" in message and K in message
    assert "Traceback" not in done.stderr


def test_leak_eval_reads_a_judge_split_one_unit_per_example(tmp_path):
    unit = {"task_id": "t9", "entity_id": "p1", "entity_name": "Ada", "field": "email", "value": "ada@corp.example",
            "dimension": "contact"}
    rows = [("s-1", "mail ada@corp.example now", 1.0, "verbatim"), ("s-2", "mail her", 1.0, "paraphrase"),
            ("s-3", "mail ada@corp.example later", 0.0, "distractor")]  # labelled against the text: a false leak
    split = tmp_path / "split.jsonl"
    split.write_text("".join(json.dumps({"id": i, "unit": unit, "text": t, "grade": g, "kind": k, "lang": "en"}) + "\n"
                             for i, t, g, k in rows), encoding="utf-8")
    done = _python(SCRIPT, "--split", split, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["by_kind"]["verbatim"]["found"], report["by_kind"]["distractor"]["false_leaks"]) == (1, 1)
    assert [m["case_id"] for m in report["misses"]] == ["s-2"]
    assert _python(SCRIPT, "--split", split, split.parent / "cases.jsonl").returncode == 2  # not both


EXTRA = REPO / "tests" / "data" / "leaks-dev-extra"
KIND_GRADES = {"verbatim": {1.0}, "reformatted": {1.0}, "masked": {0.7}, "fragment": {0.3}, "distractor": {0.0},
               "placeholder": {0.0}, "topic_only": {0.0}, "absent": {0.0}}


def _extra() -> tuple[dict[str, dict], list[dict]]:
    units = {f"{u['task_id']}/{u['entity_id']}/{u['field']}": u
             for u in map(json.loads, (EXTRA / "units.jsonl").read_text(encoding="utf-8").splitlines())}
    cases = [json.loads(line) for line in (EXTRA / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    return units, cases


def test_dev_extra_set_is_consistent():
    """The hand-written dev cases for fragments and masks grade every unit of their task, by the kinds'
    grades, and a value is in the text literally exactly when it is graded verbatim."""
    units, cases = _extra()
    assert len({c["case_id"] for c in cases}) == len(cases) >= 50
    for case in cases:
        task_units = {uid for uid, u in units.items() if u["task_id"] == case["task_id"]}
        assert set(case["expected"]) == set(case["kinds"]) == task_units, case["case_id"]
        for uid, kind in case["kinds"].items():
            assert case["expected"][uid] in KIND_GRADES[kind], (case["case_id"], uid)
            assert (units[uid]["value"] in case["text"]) == (kind == "verbatim"), (case["case_id"], uid)


def test_dev_extra_fragments_and_masks_found_traps_left():
    """On the dev cases the string tiers find the pieces and masked copies and leave the traps (another
    person's value, a public mail domain, an issuer's prefix): a floor that fails if a rule regresses."""
    _, cases = _extra()
    done = _python(SCRIPT, EXTRA / "cases.jsonl", EXTRA / "units.jsonl", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    kinds = report["by_kind"]
    assert report["string_level"]["precision"] >= 0.98, report["false_leaks"]
    assert kinds["fragment"]["recall"] >= 0.9 and kinds["masked"]["recall"] >= 0.9, report["misses"]
    assert kinds["fragment"]["true_leaks"] == sum(k == "fragment" for c in cases for k in c["kinds"].values())
