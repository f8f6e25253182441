"""Hand-written one-line mutants of the code changed in session 19, each run against the tests that reach its module
(RESULTS.md: "Hand mutants in the code changed in session 19"). Re-checkable: the tree (tracked and untracked files
git does not ignore) is copied to a scratch folder once, each mutant is applied there alone (its `old` text must
occur exactly once in its file), the group's tests run with `pytest -x`, the file is restored. Never touches the
checkout. Prints one Markdown row a mutant: killed (by its first failing test) or survived.

    python benchmarks/hand_mutants.py [--only ID ...] [--before | --new-only] [--scratch DIR]

`--before` leaves out the tests added with this table (`tests/test_mutation_kills_s20.py`): the score before them;
`--new-only` runs those alone (quick, for the survivors of a `--before` run).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEW_TESTS = "tests/test_mutation_kills_s20.py"
W8 = "tests/test_new_user_walk_8.py::"

#: group → (file mutated, tests run against each of its mutants)
GROUPS: dict[str, tuple[str, list[str]]] = {
    "R": ("ec2audit/annotate/recognizers/records.py", [
        "tests/test_annotate_recognizers.py", W8 + "test_discovery_finds_record_numbers_and_git_authors",
        W8 + "test_prelabel_reads_the_people_a_workspaces_git_history_names"]),
    "P": ("ec2audit/annotate/recognizers/person.py", [
        "tests/test_annotate_recognizers.py", W8 + "test_discovery_finds_record_numbers_and_git_authors",
        W8 + "test_prelabel_reads_the_people_a_workspaces_git_history_names",
        W8 + "test_prelabel_of_a_small_repository_proposes_its_people_not_its_package",
        W8 + "test_discovery_reads_the_people_of_git_shortlog_and_blame"]),
    "G": ("ec2audit/annotate/workspace.py", [
        W8 + "test_prelabel_reads_the_people_a_workspaces_git_history_names",
        W8 + "test_prelabel_of_a_small_repository_proposes_its_people_not_its_package",
        "tests/test_annotate_prelabel.py"]),
    "Z": ("ec2audit/annotate/recognizers/zh_pii.py", ["tests/test_annotate_recognizers.py", "tests/test_zh_names.py"]),
    "L": ("ec2audit/logs/__init__.py", ["tests/test_logs_walk.py", "tests/test_listing.py"]),
    "T": ("ec2audit/logs/listing.py", ["tests/test_logs_walk.py", "tests/test_listing.py"]),
    "B": ("ec2audit/backends.py", ["tests/test_backends.py::test_sigterm_stops_a_pool_with_its_workers"]),
    "X": ("ec2audit/metrics.py", [
        W8 + "test_exposure_by_dimension_is_a_typed_column_polars_reads",
        W8 + "test_a_runs_episodes_table_types_exposure_by_dimension_and_reads_older_records",
        "tests/test_mutation_kills_report.py"]),
    "D": ("ec2audit/console.py", [
        "tests/test_console.py", W8 + "test_an_intercepted_sessions_cost_per_model_reads_to_two_significant_digits"]),
    "S": ("ec2audit/cli/intercept.py", [W8 + "test_a_stopped_interceptor_says_what_this_run_recorded_and_cost"]),
    "O": ("ec2audit/logs/openhands.py", [
        W8 + "test_openhands_last_message_is_priced_from_the_running_totals",
        W8 + "test_openhands_call_without_usage_says_why_it_is_unpriced", "tests/test_logs_more_formats.py"]),
    "Q": ("ec2audit/logs/report.py", [
        W8 + "test_openhands_call_without_usage_says_why_it_is_unpriced", "tests/test_mutation_kills_logs.py"]),
    "M": ("ec2audit/intercept/media.py", [
        "tests/test_intercept_forms_walk_7.py::test_a_value_in_a_pdf_part_is_found_and_the_request_refused",
        "tests/test_intercept_forms_walk_7.py::test_a_pdf_without_units_and_images_and_audio_go_out_named_as_unread",
        "tests/test_intercept_forms_walk_7.py::test_a_file_in_url_safe_base64_is_known_and_read",
        "tests/test_intercept_forms_walk_7.py::test_a_damaged_pdf_is_named_unread_not_dropped",
        "tests/test_intercept_forms_walk_7.py::test_a_text_file_in_every_file_place_holds"]),
    "J": ("ec2audit/intercept/fields.py", [
        "tests/test_intercept_forms_walk_7.py::test_a_value_cut_across_the_parts_of_a_list_is_caught",
        "tests/test_intercept_forms_walk_7.py::test_near_misses_cut_across_parts_and_items_read_apart_go_out_untouched",
        "tests/test_intercept_guard.py::test_a_value_split_across_text_parts_is_caught"]),
}

#: group → the tests of NEW_TESTS written for its survivors (`--new-only`: run these alone against each mutant, the
#: group's own tests having let it live before)
NEW_FOR: dict[str, list[str]] = {
    "R": ["test_a_recognizer_proposes_the_whole_value", "test_a_recognizer_leaves_a_look_alike_alone",
          "test_discovery_keeps_a_short_record_number_after_its_word_and_names_an_account_an_account"],
    "P": ["test_a_recognizer_proposes_the_whole_value", "test_a_recognizer_leaves_a_look_alike_alone"],
    "G": ["test_prelabel_reads_every_branch_and_each_person_once", "test_prelabel_says_a_git_folder_it_cannot_read"],
    "Z": ["test_a_name_after_a_role_jieba_glues_to_it_keeps_its_surname",
          "test_a_patient_named_after_a_bed_number_is_a_name",
          "test_a_name_right_after_a_title_starts_there_whatever_word_jieba_reads_over_it"],
    "L": ["test_a_log_named_twice_under_two_spellings_is_read_once",
          "test_a_subagents_transcript_named_after_its_folder_is_listed_when_its_session_is_not"],
    "T": ["test_a_log_named_twice_under_two_spellings_is_read_once"],
    "B": ["test_a_process_pool_gives_sigterm_back_when_it_is_done"],
    "X": ["test_an_older_episode_records_dimensions_are_written_in_name_order"],
    "D": ["test_a_thousand_dollars_and_a_free_call_read_as_such_in_the_providers_table"],
    "S": ["test_a_stopped_interceptor_counts_model_calls_only_and_says_an_unpriced_models_cost_is_unknown"],
    "O": ["test_openhands_calls_take_their_responses_usage_else_what_the_totals_grew_by",
          "test_an_openhands_message_whose_tokens_the_totals_cannot_tell_is_unpriced"],
    "Q": ["test_a_rows_unknown_cost_says_how_many_of_its_unpriced_calls_logged_no_usage"],
    "M": ["test_a_pdfs_metadata_and_a_pdf_any_viewer_opens_are_read",
          "test_a_short_string_that_starts_like_a_file_is_text"],
    "J": ["test_gemini_text_parts_with_json_text_between_are_not_read_as_one"],
}

#: (id, old, new): the group is the id's letter; `old` occurs once in the group's file.
MUTANTS: list[tuple[str, str, str]] = []


def mutant(ident: str, old: str, new: str) -> None:
    MUTANTS.append((ident, old, new))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="mutant ids (default: all)")
    parser.add_argument("--before", action="store_true", help=f"without {NEW_TESTS}")
    parser.add_argument("--new-only", action="store_true", help=f"only the group's tests in {NEW_TESTS}")
    parser.add_argument("--scratch", type=Path, help="copy of the tree to mutate (default: a temporary folder)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds a mutant's tests may run (killed after)")
    args = parser.parse_args()
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="hand-mutants-"))
    _copy_tree(scratch)
    chosen = [m for m in MUTANTS if not args.only or m[0] in args.only]
    killed = 0
    print("| id | module | mutant (`old` → `new`) | result |\n|---|---|---|---|", flush=True)
    for ident, old, new in chosen:
        group = ident.rstrip("0123456789")
        path, tests = GROUPS[group]
        if args.new_only:
            tests = [f"{NEW_TESTS}::{name}" for name in NEW_FOR[group]]
            if not tests:
                print(f"| {ident} | {path.removeprefix('ec2audit/')} | | **survived** (no test added) |", flush=True)
                continue
        elif not args.before and (scratch / NEW_TESTS).exists():
            tests = [*tests, NEW_TESTS]
        result = _run(scratch, path, old, new, tests, args.timeout)
        killed += result.startswith("killed")
        module = path.removeprefix("ec2audit/")
        print(f"| {ident} | {module} | `{_cell(old)}` → `{_cell(new)}` | {result} |", flush=True)
    print(f"\n{killed} of {len(chosen)} killed", flush=True)
    return 0


def _copy_tree(scratch: Path) -> None:
    """The checkout's files as git sees them (no .git), with its virtual environment linked, not copied."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (scratch / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, scratch / name)
    for link in (".venv", ".cache"):
        if (ROOT / link).exists() and not (scratch / link).exists():
            (scratch / link).symlink_to((ROOT / link).resolve())


def _run(scratch: Path, path: str, old: str, new: str, tests: list[str], timeout: float) -> str:
    target = scratch / path
    original = target.read_text(encoding="utf-8")
    if original.count(old) != 1:
        return f"**not applied** (`old` found {original.count(old)} times)"
    target.write_text(original.replace(old, new), encoding="utf-8")
    try:
        done = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                               "-m", "not chromium", *tests], cwd=scratch, capture_output=True, text=True,
                              timeout=timeout, env={**os.environ, "PYTHONPATH": str(scratch)})
    except subprocess.TimeoutExpired:
        return "killed: timeout"
    finally:
        target.write_text(original, encoding="utf-8")
    if done.returncode == 0:
        return "**survived**"
    failed = re.search(r"^(?:FAILED|ERROR) (\S+)", done.stdout, flags=re.MULTILINE)
    return f"killed: {failed.group(1).removeprefix('tests/') if failed else 'exit ' + str(done.returncode)}"


def _cell(text: str) -> str:
    return text.replace("\n", " ⏎ ").replace("|", "\\|").replace("`", "'")


# records.py: prefixes, the marker, digit counts, dates, the word before
mutant("R1", 'r"INS|POL|CLM|MBR"', 'r"INS|POL|CLM"')
mutant("R2", 'r"MRN|EHR|EMR"', 'r"EHR|EMR"')
mutant("R3", '(5 if _PREFIXED.fullmatch(value) else 4)', '(4 if _PREFIXED.fullmatch(value) else 4)')
mutant("R4", '(5 if _PREFIXED.fullmatch(value) else 4)', '(5 if _PREFIXED.fullmatch(value) else 5)')
mutant("R5", 'and not _DATE.fullmatch(value)', '')
mutant("R6", '_DATE = re.compile(r"\\d{4}-\\d\\d-\\d\\d|\\d\\d-\\d\\d-\\d{4}")',
       '_DATE = re.compile(r"\\d{4}-\\d\\d-\\d\\d")')
mutant("R7", '_WORD_BEFORE.search(before[-40:])', '_WORD_BEFORE.search(before[-4:])')
mutant("R8", '|(?i:{_ALL_WORDS}){_MARKER})\\s*$")', '|(?i:{_ALL_WORDS}){_MARKER}?)\\s*$")')
mutant("R9", '(?:-[\\dA-Z]+){0,3}"\n#: A separate', '(?:-[\\dA-Z]+){0,1}"\n#: A separate')
mutant("R10", '|(?i:{words}){_MARKER})\\s*(?P<value>', '|(?i:{words}){_MARKER}?)\\s*(?P<value>')
mutant("R11", 'no\\.?|nr\\.?|number|num|id|#', 'no\\.?|nr\\.?|number|num|#')
mutant("R12", 're.fullmatch(_NUMBER, value) and _WORD_BEFORE', 're.fullmatch(_NUMBER, value) or _WORD_BEFORE')
# person.py: the name after a key, before a mailbox, the census, roles
mutant("P1", 'if len(words) < 2:', 'if len(words) < 1:')
mutant("P2", 'opener not in _SENTENCE_OPENERS and', 'True and')
mutant("P3", '(particle or words[-1].upper() in last)', '(particle and words[-1].upper() in last)')
mutant("P4", 'for w in words[1:-1])', 'for w in words[1:])')
mutant("P5", 'r"on-?call|assignee|reporter|reviewer|maintainer|owner")', 'r"on-?call|reporter|reviewer|maintainer")')
mutant("P6", '"[ \\t]*<[^<>@\\s]+@[^<>\\s]+>|', '"[ \\t]+<[^<>@\\s]+@[^<>\\s]+>|')
mutant("P7", '\\d\\d:\\d\\d:\\d\\d [+-]\\d{4}[ \\t]+\\d+\\)")', '\\d\\d:\\d\\d:\\d\\d [+-]\\d{4}[ \\t]+\\d+\\) ")')
mutant("P8", "(?: [A-Z][a-z]+(?:['’-][A-Z]?[a-z]+)*){1,3}\"", "(?: [A-Z][a-z]+(?:['’-][A-Z]?[a-z]+)*){2,3}\"")
mutant("P9", 'return not any(w in _ROLE_WORDS for w in words) and not all(w in COMMON_WORDS for w in words)',
       'return not any(w in _ROLE_WORDS for w in words)')
mutant("P10", 'return not any(w in _ROLE_WORDS for w in words) and not all(w in COMMON_WORDS for w in words)',
       'return not all(w in COMMON_WORDS for w in words)')
mutant("P11", '"bot", "robot", "team",', '"robot", "team",')
mutant("P12", 'trim=r" [A-Z][a-z]+$"),', 'trim=None),')
mutant("P13", '(?: [A-Z][a-z]+)?(?: [A-Z]\\.)?', '(?: [A-Z]\\.)?')
mutant("P14", 'read("dist.all.last") | _faker_surnames()', 'read("dist.all.last")')
mutant("P15", 'if isinstance(n, str) and n.isascii() and n.isalpha())', 'if isinstance(n, str))')
mutant("P16", '"no_NO", "fi_FI", "cs_CZ", "yo_NG")', '"no_NO", "fi_FI", "cs_CZ")')
# workspace.py: the git history's people
mutant("G1", '%(trailers:only,unfold)"', '"')
mutant("G2", 'for line in done.stdout.splitlines() if line.strip()', 'for line in done.stdout.splitlines()')
mutant("G3", '"".join(dict.fromkeys(line + "\\n" for line', '"".join((line + "\\n" for line')
mutant("G4", '"log", "--all", "--no-show-signature"', '"log", "--no-show-signature"')
mutant("G5", '                if d == ".git":\n                    repos.append(len(skipped) - 1)',
       '                if d == ".git":\n                    repos.append(len(skipped))')
mutant("G6", 'if done.returncode:\n', 'if False:\n')
mutant("G7", "Committer: %cn <%ce>%n", "")
mutant("G8", 'stdin=subprocess.DEVNULL)', 'stdin=None)')
# zh_pii.py: titles before names, jieba's nr names, the given-name table
mutant("Z1", '"厂长", "所长", "市长", "县长", "村长", "秘书长", "研究员", "工程师", "设计师",',
       '"厂长", "所长", "市长", "县长", "村长", "研究员", "工程师", "设计师",')
mutant("Z2", '_ROLES = "|".join(sorted(set(_ROLE), key=len, reverse=True))',
       '_ROLES = "|".join(sorted(set(_ROLE), key=len))')
mutant("Z3", 'if n > in_words[c]))', 'if n >= in_words[c]))')
mutant("Z4", 'rare = frozenset(c for c, n in in_words.items() if 2 * in_names[c] < n)',
       'rare = frozenset(c for c, n in in_words.items() if in_names[c] < n)')
mutant("Z5", 'if _given_part(w) and set(_given_part(w)) <= given and w[1] != w[0])',
       'if _given_part(w) and set(_given_part(w)) <= given)')
mutant("Z6", 'if _given_part(w) and set(_given_part(w)) <= given and w[1] != w[0])',
       'if _given_part(w) and w[1] != w[0])')
mutant("Z7", 'if tag.startswith("nr") and (w[0] in _ALL_SURNAMES or w[:2] in _COMPOUND)}',
       'if tag.startswith("nr")}')
mutant("Z8", 'if freq >= 100 and w not in names', 'if freq >= 100')
mutant("Z9", 'if len(word) == 3 and tag == "nr" and word[0] in _ALL_SURNAMES:', 'if len(word) == 3 and tag == "nr":')
mutant("Z10", '    if start in cuts:\n        return start\n    after',
       '    if False:\n        return start\n    after')
mutant("Z11", 'if text[after] not in _ALL_SURNAMES:', 'if False:')
mutant("Z12", 'return after if end - after >= 2 else end', 'return after if end - after >= 1 else end')
mutant("Z13", 'return after if end - after >= 2 else end', 'return after')
mutant("Z14", 'for b in range(max(0, start - 3), start)):', 'for b in range(max(0, start - 2), start)):')
mutant("Z15", "return part in tuple(_AFTER_NAME) or (len(part) == 2 and set(part) <= _lexicon().rare)",
       "return part in tuple(_AFTER_NAME)")
mutant("Z16", "return part in tuple(_AFTER_NAME) or (len(part) == 2 and set(part) <= _lexicon().rare)",
       "return len(part) == 2 and set(part) <= _lexicon().rare")
mutant("Z17", "return value in names or (value not in common", "return (value not in common")
mutant("Z18", "or (len(value) == 3 and value[2] in given)))", "or (len(value) == 3)))")
mutant("Z19", 'return value[1:2] in tuple(_SHORT_TITLES) and value[:2] not in _COMPOUND',
       'return value[1:2] in tuple(_SHORT_TITLES)')
mutant("Z20", 'if max(c for c in [lo, *cuts] if c < end) <= start and words.get(text[start:after]):', 'if False:')
mutant("Z21", 'single = end - before == 1 and before >= least', 'single = end - before == 1')
mutant("Z22", '(text[before] in _AFTER_NAME or (known and last in rare))', '(text[before] in _AFTER_NAME)')
mutant("Z23", '"处理人", "派件员", "快递员", "司机", "朋友", "同事", "床",',
       '"处理人", "派件员", "快递员", "司机", "朋友", "同事",')
mutant("Z24", '"医生", "医师", "护士", "护士长",', '"医生", "医师", "护士",')
# logs/__init__.py: find_logs' walk and what it has listed
mutant("L1", 'return name < self.name and _walked(Path(real))', 'return name <= self.name and _walked(Path(real))')
mutant("L2", 'return name < self.name and _walked(Path(real))', 'return _walked(Path(real))')
mutant("L3", 'return folder in self.folders and _walked(Path(real))', 'return folder in self.folders')
mutant("L4", 'return not self.files or os.path.join(self.folder, path.name) not in self.files', 'return True')
mutant("L5", '        if real in self.folders:\n            return False',
       '        if False:\n            return False')
mutant("L6", '        if self.folder is not None:\n            self.folders.add(self.folder)\n', '        pass\n')
mutant("L7", '    return stat.S_ISREG(mode) and not path.name.startswith(".") and _owner(path) is None',
       '    return stat.S_ISREG(mode) and _owner(path) is None')
mutant("L8", '    return stat.S_ISREG(mode) and not path.name.startswith(".") and _owner(path) is None',
       '    return stat.S_ISREG(mode) and not path.name.startswith(".")')
mutant("L9", 'read_with = {p for p, owner in owned.items() if seen.listed(os.path.realpath(owner))}',
       'read_with = set(owned)')
mutant("L10", 'elif first and _owner(path) is None and seen.first(path, link):',
       'elif first and _owner(path) is None and seen.first(path, False):')
mutant("L11", '        if real in self.files:\n            return True', '        if False:\n            return True')
mutant("L12", '            self.name = path.name\n', '')
# logs/listing.py
mutant("T1", 'start = self._ends[at - 1] + 1 if at else 0', 'start = self._ends[at - 1] if at else 0')
mutant("T2", 'if not 0 <= at < self.count:', 'if not 0 <= at <= self.count:')
mutant("T3", '        if not self.count:\n            return iter(())',
       '        if False:\n            return iter(())')
# backends.py: SIGTERM while a pool runs
mutant("B1", '        signal.signal(signal.SIGTERM, signal.SIG_DFL)', '        pass')
mutant("B2", '    signal.signal(signal.SIGTERM, interrupt)\n', '')
mutant("B3", 'signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:',
       'signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:')
mutant("B4", "        raise KeyboardInterrupt\n", "        return None\n")
mutant("B5", 'with _stopped_by_sigterm(), ProcessPoolExecutor(', 'with contextlib.nullcontext(), ProcessPoolExecutor(')
# metrics.py: exposure per dimension as a typed column
mutant("X1", 'for d, v in sorted(by_dimension.items())]', 'for d, v in by_dimension.items()]')
mutant("X2", 'return {d: float(v) for d, v in json.loads(value or "{}").items()}', 'return {}')
mutant("X3", 'return {r["dimension"]: r["exposure"] for r in value or []}', 'return {}')
mutant("X4", '_aggregate(table, ["group", "task_id", "dimension"])', '_aggregate(table, ["group", "dimension"])')
mutant("X5", 'leaked_share=(pl.col("grade") >= MOSTLY).mean(),', 'leaked_share=(pl.col("grade") > MOSTLY).mean(),')
mutant("X6", 'return grade >= MOSTLY', 'return grade > MOSTLY')
mutant("X7", 'exposure=(pl.col("grade") * pl.col("weight")).sum() / pl.col("weight").sum(),',
       'exposure=pl.col("grade").mean(),')
# console.py: usd()
mutant("D1", 'digits = 4 if value == 0 or abs(value) >= 0.001 else',
       'digits = 4 if value == 0 or abs(value) > 0.001 else')
mutant("D2", 'else 1 - math.floor(math.log10(abs(value)))', 'else 2 - math.floor(math.log10(abs(value)))')
mutant("D3", 'else 1 - math.floor(math.log10(abs(value)))', 'else -math.floor(math.log10(abs(value)))')
mutant("D4", 'digits = 4 if value == 0 or abs(value) >= 0.001 else', 'digits = 4 if value == 0 or value >= 0.001 else')
mutant("D5", 'digits = 4 if value == 0 or abs(value) >= 0.001 else', 'digits = 4 if abs(value) >= 0.001 else')
mutant("D6", 'return f"{sign}{value:,.{digits}f}"', 'return f"{sign}{value:.{digits}f}"')
# cli/intercept.py: the stop summary
mutant("S1", 'if r.ts >= since and r.model_call]', 'if r.model_call]')
mutant("S2", 'if r.ts >= since and r.model_call]', 'if r.ts >= since]')
mutant("S3", 'unpriced = sum(c is None for c in costs)', 'unpriced = 0')
mutant("S4", "{sum(r.input_tokens or 0 for r in rows):,} input / \"",
       "{sum(r.output_tokens or 0 for r in rows):,} input / \"")
mutant("S5", '    if calls:\n        lines.append(f"audit them', '    if True:\n        lines.append(f"audit them')
mutant("S6", 'per_model.setdefault(record.model or "?", []).append(record)',
       'per_model.setdefault("?", []).append(record)')
mutant("S7", '    signal.signal(signal.SIGTERM, stopped)\n', '')
mutant("S8", "        raise KeyboardInterrupt  # uvicorn", "        return  # uvicorn")
mutant("S9", '    started = time.time()\n', '    started = 0.0\n')
# logs/openhands.py: a call priced from the running totals
mutant("O1", 'if grown["prompt_tokens"] <= 0 or min(grown.values()) < 0:',
       'if grown["prompt_tokens"] < 0 or min(grown.values()) < 0:')
mutant("O2", 'if grown["prompt_tokens"] <= 0 or min(grown.values()) < 0:', 'if grown["prompt_tokens"] <= 0:')
mutant("O3", '            self.totals = None  # a call without totals', '            pass  # a call without totals')
mutant("O4", '        if before is None:\n            return None', '        if False:\n            return None')
mutant("O5", 'grown = {k: now[k] - before.get(k, 0) for k in keys}', 'grown = {k: now[k] for k in keys}')
mutant("O6", '"prompt_tokens_details": {"cached_tokens": grown["cache_read_tokens"]},', '')
mutant("O7", 'usage=normalize_usage(response.get("usage") or grown)',
       'usage=normalize_usage(grown or response.get("usage"))')
mutant("O8", '"cache_creation_input_tokens": grown["cache_write_tokens"]}', '}')
mutant("O9", 'self.totals: dict[str, int] | None = {}', 'self.totals: dict[str, int] | None = None')
# logs/report.py: why calls are unpriced
mutant("Q1", 'why = " (no usage logged)" if bare == unpriced else', 'why = " (no usage logged)" if bare else')
mutant("Q2", 'f" ({bare} with no usage logged)" if bare else ""', '""')
# intercept/media.py: files a request carries
mutant("M1", '_HEAD = 24', '_HEAD = 12')
mutant("M2", '(0, b"%PDF-", "application/pdf"), ', '')
mutant("M3", 'for encode in (base64.b64encode, base64.urlsafe_b64encode)', 'for encode in (base64.b64encode,)')
mutant("M4", '    except ValueError:  # a damaged or encrypted file',
       '    except KeyError:  # a damaged or encrypted file')
mutant("M5", 'if len(text) - at < _HEAD or text[at:at + 4] not in _LEADS:', 'if text[at:at + 4] not in _LEADS:')
mutant("M6", 'raw = base64.b64decode(data + "=" * (-len(data) % 4))', 'raw = base64.b64decode(data)')
mutant("M7", 'return "\\n".join([*meta, *(page.extract_text() or "" for page in pdf.pages)])',
       'return "\\n".join([*(page.extract_text() or "" for page in pdf.pages)])')
mutant("M8", '            raise ValueError("encrypted")\n', '            pass\n')
# intercept/fields.py: Gemini/Bedrock untyped parts, Responses reasoning parts read as one text
mutant("J1", '"output_text", "summary_text", "reasoning_text"})', '"output_text", "reasoning_text"})')
mutant("J2", '"output_text", "summary_text", "reasoning_text"})', '"output_text", "summary_text"})')
mutant("J3", 'item.get("type", "text") in _TEXT_PARTS', 'item.get("type") in _TEXT_PARTS')
mutant("J4", 'or "type" not in item and "text" in item):', '):')


if __name__ == "__main__":
    sys.exit(main())
