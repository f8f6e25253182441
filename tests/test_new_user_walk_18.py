"""Session 26, eighteenth walk: figures a new user reads off the CLI on inputs written here as other tools write
theirs (Batch API files saved under upper-case names, …), each checked against a count made by hand."""

import gzip
import json
from pathlib import Path

import pytest
from test_new_user_walk_7 import _cli
from test_new_user_walk_11 import _units
from test_new_user_walk_12 import _batch_answer, _batch_request


def _gzipped(path: Path, records: list[dict]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.mark.parametrize(("requests", "answers"), [
    ("BATCHINPUT.JSONL.GZ", "BATCH_ABC_OUTPUT.JSONL.GZ"),  # as a Windows tool or an archive names them
    ("BatchInput.Jsonl", "Batch_Abc_Output.NDJSON"),
    ("batchinput.jsonl.gz", "batch_abc_output.jsonl"),  # the lower-case names, read as before
])
def test_a_batch_saved_under_upper_case_names_is_paired_and_priced(tmp_path, requests, answers):
    """A gpt-4o-mini batch (the leak in `request-1`) whose files carry upper-case suffixes. By hand at LiteLLM's
    batch prices ($0.075 / $0.30 per million): request-1 1,000,000 in, 200,000 out = $0.075 + $0.06; request-2
    22 in, 2 out = $0.00000165 + $0.0000006: 2 calls, 1,000,022 in, 200,002 out, $0.13500225, exit 0. Before:
    `.JSONL` was no batch name, so the input file was `batch input without its output file` (no usage) and the
    output file was read as requests (`no request body`, twice), exit 1."""
    folder = tmp_path / "batch_abc"
    folder.mkdir()
    model = "gpt-4o-mini"
    lines = [_batch_request("request-1", model, "Draft a reply to maria.kessler@example.com about her claim."),
             _batch_request("request-2", model, "Hello world!")]
    answered = [_batch_answer("request-2", "gpt-4o-mini-2024-07-18", 22, 2),
                _batch_answer("request-1", "gpt-4o-mini-2024-07-18", 10**6, 200_000)]
    for name, records in ((requests, lines), (answers, answered)):
        if name.lower().endswith(".gz"):
            _gzipped(folder / name, records)
        else:
            (folder / name).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    code, output = _cli("audit", folder, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 0 and "skipped /" not in output, output
    data = json.loads(output[output.index("{\n"):])
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (2, 1_000_022, 200_002)
    assert provider["cost_usd"] == pytest.approx(0.13500225)
    session, = data["sessions"]
    assert session["leaked"] == 1


UNIT = {"task_id": "t", "entity_id": "E1", "field": "email", "dimension": "contact",
        "value": "maria.kessler@example.com"}


def _spreadsheet(path: Path, columns: list[str], delimiter: str = ",") -> Path:
    """The unit as a spreadsheet exports it: a header row, then the row (in the header's order)."""
    path.write_text(delimiter.join(columns) + "\n" + delimiter.join(UNIT.values()) + "\n", encoding="utf-8")
    return path


def test_units_kept_in_another_table_format_are_named_as_that_format(tmp_path):
    """Units as people keep them before they have ours: a CSV with a column misspelled (`dimensoin`) or named
    otherwise (`text` for the value), a `;` CSV, a tab-separated table, a Parquet table written by polars, a
    gzipped JSONL. Each: exit 2, one line naming the file and what it is; a JSONL whose first line is cut short,
    a line with a comma but no unit column, a header with no delimiter stay `FILE:1: not valid JSON`. Before:
    `:1: not valid JSON (Expecting value, column 1)` of the CSVs without a `value` column and of the TSV, and
    `cannot read units: 'utf-8' codec can't decode byte 0xb5` of the Parquet (0x8b of the gzip)."""
    import polars as pl

    log = tmp_path / "requests.jsonl"
    log.write_text(json.dumps({"model": "gpt-4o-mini", "messages": [
        {"role": "user", "content": "Email maria.kessler@example.com"}]}) + "\n", encoding="utf-8")
    columns = list(UNIT)
    tables = {
        _spreadsheet(tmp_path / "misspelled.csv", [*columns[:3], "dimensoin", "value"]): "a CSV table",
        _spreadsheet(tmp_path / "text.csv", [*columns[:4], "text"]): "a CSV table",
        _spreadsheet(tmp_path / "semicolons.csv", columns, ";"): "a CSV table",
        _spreadsheet(tmp_path / "units.tsv", columns, "\t"): "a tab-separated table",
    }
    parquet = tmp_path / "units.parquet"
    pl.DataFrame([UNIT]).write_parquet(parquet)
    tables[parquet] = "a Parquet table"
    for path, kind in tables.items():
        code, said = _cli("audit", log, "--units", path)
        assert code == 2 and said.strip() == (f"error: {path}: {kind}, not units JSONL (one JSON object a line, "
                                              "README §Units): write each row as one"), said
    compressed = _gzipped(tmp_path / "units.jsonl.gz", [UNIT])
    code, said = _cli("audit", log, "--units", compressed)
    assert code == 2 and said.strip() == (f"error: {compressed}: gzip-compressed, not units JSONL: decompress it "
                                          "first (`gunzip`)"), said

    for first in ('{"task_id": "t",', "hello, world", "task_id entity_id field"):  # near misses: no table
        units = tmp_path / "units.jsonl"
        units.write_text(first + "\n" + json.dumps(UNIT) + "\n", encoding="utf-8")
        code, said = _cli("audit", log, "--units", units)
        assert code == 2 and said.startswith(f"error: {units}:1: not valid JSON ("), said
