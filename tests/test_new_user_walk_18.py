"""Session 26, eighteenth walk: figures a new user reads off the CLI on inputs written here as other tools write
theirs (Batch API files saved under upper-case names, …), each checked against a count made by hand."""

import gzip
import json
import zipfile
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
    otherwise (`text` for the value), a `;` CSV, a tab-separated table, a Parquet table written by polars, an
    Excel workbook, a gzipped JSONL. Each: exit 2, one line naming the file and what it is; a JSONL whose first
    line is cut short, a line with a comma but no unit column, a header with no delimiter stay `FILE:1: not valid
    JSON`. Before: `:1: not valid JSON (Expecting value, column 1)` of the CSVs without a `value` column and of
    the TSV, and `cannot read units: 'utf-8' codec can't decode byte 0xb5` of the Parquet (0x8b of the gzip)."""
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
    workbook = tmp_path / "units.xlsx"  # an .xlsx is a zip archive of XML parts
    with zipfile.ZipFile(workbook, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", "<worksheet/>")
    tables[workbook] = "a zip archive (an Excel workbook?)"
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


def _claude_and_gpt_log(path: Path) -> Path:
    """A proxy's log of one session: a Claude call that read 100,000 tokens from the prompt cache and wrote
    20,000 to it, and a GPT-4o call with 40,000 of its 50,000 prompt tokens cached."""
    claude = {"id": "msg-1", "timestamp": "2026-11-07T09:00:01Z", "url": "https://api.anthropic.com/v1/messages",
              "session_id": "s1", "request": {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [
                  {"role": "user", "content": "Email maria.kessler@example.com"}]},
              "response": {"usage": {"input_tokens": 1000, "cache_creation_input_tokens": 20_000,
                                     "cache_read_input_tokens": 100_000, "output_tokens": 500}}}
    gpt = {"id": "chatcmpl-2", "timestamp": "2026-11-07T09:00:02Z", "url": "https://api.openai.com/v1/chat/completions",
           "session_id": "s1", "request": {"model": "gpt-4o", "messages": [{"role": "user", "content": "Hello"}]},
           "response": {"model": "gpt-4o-2024-08-06", "usage": {
               "prompt_tokens": 50_000, "completion_tokens": 1000, "prompt_tokens_details": {"cached_tokens": 40_000}}}}
    path.write_text(json.dumps(claude) + "\n" + json.dumps(gpt) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["FINDINGS.JSONL", "Findings.Jsonl", "findings.jsonl"])
def test_findings_written_under_an_upper_case_jsonl_name_are_json_lines_and_reported(tmp_path, name):
    """`audit --out out/FINDINGS.JSONL`, then `report out`. By hand: Claude Sonnet 4.5 at $3 / $3.75 cache write
    / $0.30 cache read / $15 per million: 1,000 × 3 + 20,000 × 3.75 + 100,000 × 0.30 + 500 × 15 = $0.1155; GPT-4o at
    $2.50 / $1.25 cached / $10: 10,000 × 2.5 + 40,000 × 1.25 + 1,000 × 10 = $0.085; 2 calls, 171,000 in (140,000
    cached), 1,500 out, $0.2005; of task s1's units the e-mail leaked, the phone not: contact 1/2 = 0.5. Before:
    the findings were Parquet under the JSONL name (no line of it JSON) and `report out` said `not a run directory
    … nor a folder holding one`."""
    out = tmp_path / "out"
    out.mkdir()
    units = tmp_path / "units.jsonl"
    rows = [{**UNIT, "task_id": "s1", "field": field, "value": value}
            for field, value in (("email", "maria.kessler@example.com"), ("phone", "+49 30 1234567"))]
    units.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    code, said = _cli("audit", _claude_and_gpt_log(tmp_path / "log.jsonl"), "--units", units, "--out", out / name)
    assert code == 0, said
    rows = [json.loads(line) for line in (out / name).read_text(encoding="utf-8").splitlines()]
    assert [(row["unit_id"], row["grade"]) for row in rows] == [("s1/E1/email", 1.0)]
    code, said = _cli("report", out, "--json")
    assert code == 0, said
    strategy, = json.loads(said)["strategies"]
    assert (strategy["cloud_calls"], strategy["cloud_input_tokens"], strategy["cloud_cached_tokens"],
            strategy["cloud_output_tokens"]) == (2, 171_000, 140_000, 1_500)
    assert strategy["cloud_usd"] == pytest.approx(0.2005)
    assert strategy["exposure"] == pytest.approx(0.5) and strategy["by_dimension"] == {"contact": 0.5}


def test_a_units_line_with_a_key_misspelled_names_the_key_it_has(tmp_path):
    """Units JSONL typed by hand, one key misspelled a line: the error names the field, the line and the key the
    line has instead (a missing field beside its misspelling; an unknown key beside the field it misspells).
    Near misses: a key of another name (`note`, `comment`) gets no guess. Before: `field 'dimension': Field
    required` of a line holding `dimensoin`, nothing said of it."""
    log = tmp_path / "requests.jsonl"
    log.write_text(json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hi"}]}) + "\n")
    base = dict(UNIT)
    cases = [
        ({**{k: v for k, v in base.items() if k != "dimension"}, "dimensoin": "contact"}, "dimension",
         "Field required (the line has 'dimensoin': a misspelling of 'dimension'?)"),
        ({**{k: v for k, v in base.items() if k != "entity_id"}, "entityid": "E1"}, "entity_id",
         "Field required (the line has 'entityid': a misspelling of 'entity_id'?)"),
        ({**{k: v for k, v in base.items() if k != "value"}, "Value": "x@example.com"}, "value",
         "Field required (the line has 'Value': a misspelling of 'value'?)"),
        ({**base, "wieght": 2}, "wieght", "Extra inputs are not permitted (a misspelling of 'weight'?)"),
        ({**{k: v for k, v in base.items() if k != "value"}, "note": "x@example.com"}, "value", "Field required"),
        ({**base, "comment": "typed by hand"}, "comment", "Extra inputs are not permitted"),
    ]
    for record, field, said_of_it in cases:
        units = tmp_path / "units.jsonl"
        units.write_text(json.dumps({**base, "entity_id": "E0"}) + "\n" + json.dumps(record) + "\n", encoding="utf-8")
        code, said = _cli("audit", log, "--units", units)
        assert code == 2 and said.strip() == f"error: {units}:2: field '{field}': {said_of_it}", said
