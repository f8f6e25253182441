"""The guard's positions × forms table: `tests/test_intercept_forms_walk.py`'s walk (or, `--walk 3`, the third
walk's forms and units; `--walk 4`, the fourth's; `--walk 5`, the fifth's; `--walk 6`, the sixth's, and its
values cut across two messages, `CUT_CELLS`; `--walk 7`, the seventh's groups of cells, `GROUPS`: every position of
the request schemas, lists read as one, PDF parts; `--walk 8`, the eighth's; `--walk 9`, the ninth's; `--walk 11`, the
eleventh's, and its groups: values cut into an array's chunks and across three messages; `--walk 12`, the twelfth's,
and its group: a UTF-16 file in every file place; `--walk 13`, the thirteenth's, and its group: multipart
uploads; `--walk 14`, the fourteenth's, and its groups: the APIs outside `/v1`, Gemini's multipart uploads,
URL-encoded bodies, Ollama's streams; `--walk 15`, the fifteenth's: YAML with quoted keys, base64 with no `=`,
hex bytes one separator apart; `--walk upload-seams`, session 26's upload URLs on another host and values cut
across two Uploads API parts; `--walk 17`, session 27's groups: values cut across two parts in a decoded view or
inside a character, `complete`'s order, 301/302/303 redirects, file parts' declared charsets; `--walk 18`, session
28's: compressed and packed files in every file place, byte dumps in words and octal, names percent-encoded in GBK;
`--walk 19`, session 29's: dumps with no offsets, Ollama streams pasted whole, literals cut at a punctuation mark,
`String.fromCharCode`; `--walk 20`, session 30's: pieces one space apart, Python's repr of UTF-16/32 bytes;
`--walk 21`, session 31's: pieces a run of blanks apart, CSS escapes, base32, UTF-7, SQL's `CHAR()`, binary digits),
run in redact and block mode against the code on PYTHONPATH, each cell's
outcome written as JSON; with `--before` (an earlier run's JSON, e.g. of a `git archive` tree) it prints the
markdown table of RESULTS.md, session 14: per position and form, how many of the position's APIs held in both
modes before → after (✓: all, both times).

    PYTHONPATH=<tree> .venv/bin/python benchmarks/guard_forms_matrix.py --out before.json
    PYTHONPATH=$PWD .venv/bin/python benchmarks/guard_forms_matrix.py --out after.json --before before.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import httpx  # noqa: E402
from intercept_helpers import running_proxy, standin_server  # noqa: E402

MODES = ("redact", "block")
_API = {"openai-chat": "C", "openai-responses": "R", "anthropic-messages": "A", "openai-completions": "L"}


WALKS = {"1": "test_intercept_forms_walk", "3": "test_intercept_forms_walk_3", "4": "test_intercept_forms_walk_4",
         "5": "test_intercept_forms_walk_5", "6": "test_intercept_forms_walk_6", "7": "test_intercept_forms_walk_7",
         "8": "test_intercept_forms_walk_8", "9": "test_intercept_forms_walk_9", "11": "test_intercept_forms_walk_11",
         "12": "test_intercept_forms_walk_12", "13": "test_intercept_forms_walk_13",
         "14": "test_intercept_forms_walk_14", "15": "test_intercept_forms_walk_15",
         "17": "test_intercept_forms_walk_17", "18": "test_intercept_forms_walk_18",
         "19": "test_intercept_forms_walk_19",
         "20": "test_intercept_forms_walk_20", "21": "test_intercept_forms_walk_21",
         "upload-seams": "test_intercept_upload_seams"}


def run(walk) -> dict:
    """{mode: {form: {"api|position|stream": outcome}}} of one walk."""
    out: dict = {}
    server = standin_server()
    app, upstream = next(server)
    with tempfile.TemporaryDirectory() as tmp:
        for mode in MODES:
            with running_proxy(upstream, Path(tmp) / f"{mode}.sqlite", units=walk.UNITS, enforce=mode) as (
                    _, url, store), httpx.Client(base_url=url, timeout=30) as client:
                proxy = (mode, app, client, store)
                out[mode] = {form: {"|".join(map(str, cell)): outcome for cell, outcome
                                    in walk.walk_form(proxy, form).items()}
                             for form in getattr(walk, "FORMS", {})}
                if hasattr(walk, "CUT_CELLS"):
                    out[mode]["cut"] = {"|".join(cell): walk.cut_outcome(proxy, *cell) for cell in walk.CUT_CELLS}
                for group, (cells, outcome) in getattr(walk, "GROUPS", {}).items():
                    out[mode][group] = {"|".join(map(str, cell)): outcome(proxy, *cell) for cell in cells}
    next(server, None)
    return out


def table(walk, before: dict, after: dict) -> str:
    def held(result: dict, form: str, key: str) -> bool:
        return all(result[m].get(form, {}).get(key, "held") == "held" for m in MODES)

    rows: dict[str, list[str]] = {}
    for api, position, stream in walk.CELLS:
        rows.setdefault(position + (" (stream)" if stream else ""), []).append(f"{api}|{position}|{stream}")
    lines = ["| position (APIs) | " + " | ".join(walk.FORMS) + " |", "|---|" + "---|" * len(walk.FORMS)]
    totals = [0, 0, 0]
    for name, keys in rows.items():
        cells = []
        for form in walk.FORMS:
            ran = [k for k in keys if k in after["redact"][form]]
            if not ran:
                cells.append("n/a")
                continue
            b, a = sum(held(before, form, k) for k in ran), sum(held(after, form, k) for k in ran)
            totals = [totals[0] + b, totals[1] + a, totals[2] + len(ran)]
            cells.append("✓" if b == a == len(ran) else f"{b}→{a}/{len(ran)}")
        lines.append(f"| {name} ({''.join(_API[k.split('|')[0]] for k in keys)}) | " + " | ".join(cells) + " |")
    lines.append(f"\ncells held in both modes: before {totals[0]}/{totals[2]}, after {totals[1]}/{totals[2]}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="this run's outcomes (JSON)")
    parser.add_argument("--walk", choices=sorted(WALKS), default="1", help="which walk's forms and units")
    parser.add_argument("--before", type=Path, help="an earlier run's JSON: print the before → after table")
    args = parser.parse_args()
    walk = importlib.import_module(WALKS[args.walk])
    result = run(walk)
    args.out.write_text(json.dumps(result))
    runs = {"before": json.loads(args.before.read_text()), "after": result} if args.before else {"this run": result}
    for name, outcomes in runs.items():
        print(name + ": " + ", ".join(f"{mode} {held(outcomes[mode])}" for mode in MODES))
        if "cut" in outcomes["redact"]:
            print(f"{name}, values cut across two messages: "
                  + ", ".join(f"{mode} {held({'cells': outcomes[mode]['cut']})}" for mode in MODES))
        for group in getattr(walk, "GROUPS", {}):
            print(f"{name}, {group}: "
                  + ", ".join(f"{mode} {held({'cells': outcomes[mode][group]})}" for mode in MODES))
    if args.before and hasattr(walk, "FORMS"):
        print(table(walk, runs["before"], result))


def held(by_form: dict) -> str:
    """held / total cells of one mode."""
    cells = [outcome for form, outcomes in by_form.items() if form != "cut" for outcome in outcomes.values()]
    return f"{sum(o == 'held' for o in cells)}/{len(cells)}"


if __name__ == "__main__":
    main()
