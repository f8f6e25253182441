"""Session 24, fourteenth walk: figures a new user reads off `audit` and `intercept serve` on inputs written here
as other tools write theirs (OpenAI Batch API files downloaded into two folders, Cline task folders of an
OpenAI-compatible provider, the proxy run from a script), each checked against a count made by hand."""

import json

import pytest
from test_new_user_walk_7 import _cli
from test_new_user_walk_11 import _units
from test_new_user_walk_12 import _batch_answer, _batch_request, _lines


def _audited(*args) -> tuple[int, str, dict]:
    code, output = _cli("audit", *args, "--json")
    return code, output, json.loads(output[output.index("{\n"):])


def test_a_batchs_input_and_output_in_two_folders_are_paired_and_a_lone_output_is_named(tmp_path):
    """A Batch API job of gpt-4o-mini: its input file uploaded from `requests/`, its output downloaded with the
    OpenAI SDK into `results/` under the batch's id alone (`batch_abc123`, no suffix). By hand at the batch
    prices ($0.075 / $0.30 per million): request-1 1,000,000 in, 200,000 out = $0.075 + $0.06; request-2 22 in,
    2 out = $0.00000165 + $0.0000006: 2 calls, 1,000,022 in, 200,002 out, $0.13500225, the leak in request-1
    scored, exit 0. Audited alone, the output is named (its input not among the files audited) and its calls
    still counted. Before: the output was read as an input file (each line `no request body`) and the input's
    calls had no usage."""
    (tmp_path / "requests").mkdir()
    (tmp_path / "results").mkdir()
    _lines(tmp_path / "requests" / "batchinput.jsonl", [
        _batch_request("request-1", "gpt-4o-mini", "Draft a reply to maria.kessler@example.com about her claim."),
        _batch_request("request-2", "gpt-4o-mini", "Hello world!")])
    output = _lines(tmp_path / "results" / "batch_abc123", [
        _batch_answer("request-2", "gpt-4o-mini-2024-07-18", 22, 2),
        _batch_answer("request-1", "gpt-4o-mini-2024-07-18", 10**6, 200_000)])
    units = _units(tmp_path / "units.jsonl")
    code, said, data = _audited(tmp_path / "requests", tmp_path / "results", "--units", units)
    assert code == 0, said
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (2, 1_000_022, 200_002)
    assert provider["cost_usd"] == pytest.approx(0.13500225)
    assert [s["leaked"] for s in data["sessions"]] == [1]
    code, said, data = _audited(output, "--units", units)
    assert code == 1 and f"{output}: batch output read without its requests: no input file audited holds" in said
    provider, = data["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["output_tokens"]) == (2, 1_000_022, 200_002)
