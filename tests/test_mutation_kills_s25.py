"""Hand mutants of session 25 (benchmarks/hand_mutants.py; RESULTS.md, "Hand mutants in the code changed in session
24"): planted one at a time in the code session 24 changed, each survivor a behaviour no test held. Each test here
kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files, HTTP) or,
where the CLI cannot reach it, by what the library function gives."""

from __future__ import annotations

import json

import pytest
from test_mutation_kills_s24 import _batch, _calls
from test_new_user_walk_7 import _cli
from test_new_user_walk_11 import _units
from test_new_user_walk_14 import _audited, _cline_task


def _cline_audit(tmp_path) -> list[tuple]:
    """The audit of the Cline task under `tmp_path`: (model, calls, input tokens, cost) per provider row."""
    code, said, data = _audited(tmp_path / "saoudrizwan.claude-dev", "--units", _units(tmp_path / "units.jsonl"))
    assert code == 0, said
    return sorted((p["model"], p["calls"], p["input_tokens"], p["cost_usd"]) for p in data["providers"])


def test_an_openai_style_providers_cache_writes_are_taken_out_of_its_prompt_and_its_cost_kept_without_a_cache(
        tmp_path):
    """Cline's `litellm` provider (its `tokensIn` the whole `prompt_tokens`, cache writes in it, and a cost it
    states) and its `openai` provider on a model no price table knows, without a cache. By hand: litellm's call
    5,000 tokens in, of them 1,000 written to the cache, not 6,000 (UC5); the unknown model's call keeps Cline's
    $0.0123, not `unknown` (UC3)."""
    _cline_task(tmp_path, [("litellm", "claude-sonnet-4-5"), ("openai", "acme-llm-7b")], [
        {"tokensIn": 5_000, "tokensOut": 100, "cacheWrites": 1_000, "cacheReads": 0, "cost": 0.02},
        {"tokensIn": 3_000, "tokensOut": 50, "cacheWrites": 0, "cacheReads": 0, "cost": 0.0123}])
    assert _cline_audit(tmp_path) == [("acme-llm-7b", 1, 3_000, pytest.approx(0.0123)),
                                      ("claude-sonnet-4-5", 1, 5_000, pytest.approx(0.02))]


def test_a_request_sent_the_moment_a_model_starts_serving_is_that_models(tmp_path):
    """Plan on Claude 3.7 Sonnet, Act on Claude Sonnet 4: `model_usage` records Act's model at the very millisecond
    its first request is sent. By hand: one call on each (UC8: not both on the first)."""
    _cline_task(tmp_path, [("anthropic", "claude-3-7-sonnet-20250219"), ("anthropic", "claude-sonnet-4-20250514")], [
        {"tokensIn": 1_000, "tokensOut": 10, "cacheWrites": 0, "cacheReads": 0, "cost": 0.01},
        {"tokensIn": 2_000, "tokensOut": 20, "cacheWrites": 0, "cacheReads": 0, "cost": 0.02}])
    meta = next(tmp_path.rglob("task_metadata.json"))
    data = json.loads(meta.read_text(encoding="utf-8"))
    for entry in data["model_usage"]:
        entry["ts"] += 10  # `_cline_task` starts each model 10 ms before its first request
    meta.write_text(json.dumps(data), encoding="utf-8")
    assert [row[:3] for row in _cline_audit(tmp_path)] == [("claude-3-7-sonnet-20250219", 1, 1_000),
                                                           ("claude-sonnet-4-20250514", 1, 2_000)]


def test_a_hidden_copy_of_a_batch_input_is_no_second_owner_of_its_output(tmp_path):
    """A batch's folder holding a hidden copy of its input file (`.batchinput.jsonl`, as a sync tool or an editor
    leaves one): the output still answers the input audited, not read on its own as if two inputs held its ids
    (UB4). By hand: 2 calls of gpt-4o-mini, 1,000 tokens in each, all priced; the hidden file named as not read
    (exit 1), and nothing else."""
    folder = _batch(tmp_path / "batch", {"batchinput.jsonl": ["r1", "r2"], ".batchinput.jsonl": ["r1", "r2"]},
                    {"batch_abc123": ["r1", "r2"]})
    code, said = _cli("audit", folder, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 1 and said.count("skipped ") == 1 and f"{folder / '.batchinput.jsonl'}: hidden file" in said, said
    assert _calls(json.loads(said[said.index("{\n"):])) == (2, 0, 2000)


def _form(*parts: tuple[str, bytes]) -> tuple[bytes, str]:
    """A multipart body of `parts` (each its header lines and its bytes) and its Content-Type."""
    body = b"".join(b"--b0\r\n" + head.encode() + b"\r\n\r\n" + data + b"\r\n" for head, data in parts)
    return body + b"--b0--\r\n", "multipart/form-data; boundary=b0"


def test_a_part_in_base64_transfer_encoding_is_named_unread():
    """A part sent with `Content-Transfer-Encoding: base64` (RFC 7578 deprecates it; some clients still send it):
    its bytes are no value the guard read, so the form names it (the enforcing modes refuse it); a `binary` part is
    read (UD1)."""
    from ec2audit.intercept.form_data import read_form

    form = read_form(*_form(
        ('Content-Disposition: form-data; name="file"\r\nContent-Transfer-Encoding: base64', b"RGFuYSBXaGl0ZmllbGQ="),
        ('Content-Disposition: form-data; name="purpose"\r\nContent-Transfer-Encoding: binary', b"user_data")))
    assert form.unreadable == ["file (Content-Transfer-Encoding base64)"]
    assert form.body["purpose"] == "user_data"


def test_a_forwarded_forms_boundary_is_in_none_of_its_values(monkeypatch):
    """The boundary the form is forwarded in is drawn again while a value holds it (UD3): a value that is the first
    boundary drawn (a hex id, say) does not end its part early."""
    import uuid

    from ec2audit.intercept import form_data

    drawn = iter([uuid.UUID(int=7), uuid.UUID(int=8)])
    monkeypatch.setattr(form_data.uuid, "uuid4", lambda: next(drawn))
    form = form_data.read_form(*_form(('Content-Disposition: form-data; name="note"', uuid.UUID(int=7).hex.encode())))
    raw, content_type = form.encode(form.body)
    assert content_type.endswith(uuid.UUID(int=8).hex)
    assert form_data.read_form(raw, content_type).body == {"note": uuid.UUID(int=7).hex}


def test_a_jsonl_file_of_two_lines_is_read_as_its_objects_and_forwarded_as_written():
    """A Batch API input of two requests uploaded as a file: audited as the list of its lines' objects (UD4, UD5:
    two lines are a JSONL file), forwarded as the same lines, its last line's newline kept (UD11)."""
    from ec2audit.intercept.form_data import read_form

    lines = [{"custom_id": f"r{k}", "method": "POST", "url": "/v1/chat/completions",
              "body": {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": f"Row {k}: José"}]}}
             for k in (1, 2)]
    jsonl = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()
    form = read_form(*_form(('Content-Disposition: form-data; name="file"; filename="batch.jsonl"\r\n'
                             "Content-Type: application/jsonl", jsonl)))
    assert form.body == {"file": {"filename": "batch.jsonl", "content_type": "application/jsonl", "data": lines}}
    raw, _ = form.encode(form.body)
    assert b"\r\n\r\n" + jsonl + b"\r\n--" in raw


def test_bytes_holding_nuls_are_no_text_and_a_file_of_no_known_kind_is_named_unread():
    """A file of UTF-16LE without its byte order mark decodes as UTF-8, NULs between its letters: it is no text the
    guard reads as sent (UD6), but bytes of no kind `media.py` knows, named with their size."""
    from ec2audit.intercept.form_data import read_form

    data = "Dana Whitfield, 415-555-0199".encode("utf-16-le")
    form = read_form(*_form(('Content-Disposition: form-data; name="file"; filename="a.bin"', data)))
    assert form.unreadable == [f"file (application/octet-stream, {len(data)} bytes)"]


def test_a_name_sent_three_times_is_a_list_and_each_value_is_forwarded_as_its_own_part_was():
    """A field sent three times (`files[]`: a text, an image, a text) is the list of its three values (UD10), the
    image's bytes forwarded as sent, not as the text part's encoding (UD14); a part with a media type and no file
    name keeps its media type (UD9); a name holding a quote is forwarded quoted as a browser writes it (UD12); a
    part sent without a Content-Disposition (no form field, named by its place) is forwarded without one (UD13)."""
    from ec2audit.intercept.form_data import read_form

    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(17)
    form = read_form(*_form(
        ('Content-Disposition: form-data; name="files[]"; filename="a.txt"', b"first"),
        ('Content-Disposition: form-data; name="files[]"; filename="b.png"', png),
        ('Content-Disposition: form-data; name="files[]"; filename="c.txt"', b"third"),
        ('Content-Disposition: form-data; name="meta"\r\nContent-Type: application/json', b'{"k": 1}'),
        ('Content-Disposition: form-data; name="say \\"hi\\""', b"x"),
        ("Content-Type: text/plain", b"loose")))
    assert [item["filename"] for item in form.body["files[]"]] == ["a.txt", "b.png", "c.txt"]
    assert form.body["meta"] == {"content_type": "application/json", "data": '{"k": 1}'}
    raw, _ = form.encode(form.body)
    assert b"\r\n\r\n" + png + b"\r\n--" in raw and b'name="say %22hi%22"' in raw
    assert form.body["part-5"] == {"content_type": "text/plain", "data": "loose"} and b"part-5" not in raw


def test_token_ids_are_two_ints_at_least_and_a_character_cut_at_the_end_reads_as_a_replacement():
    """`tokens.token_text`: one id is a number, not a text (UT1); `true`/`false` are no ids (UT2); a text whose
    last character's bytes are cut (a long text sent in chunks) reads to that character as U+FFFD (UT4); a
    placeholder holding a special token's spelling is encoded as text, not refused (UT5)."""
    from ec2audit.intercept import tokens

    ids = tokens.encode("欧阳娜娜")
    assert tokens.token_text(ids[:1]) is None and tokens.token_text([True, *ids[1:]]) is None
    assert tokens.token_text(ids[:-1])[0] == "欧阳娜\ufffd"
    assert tokens.encoding().decode(tokens.encode("[NAME_001] <|endoftext|>")) == "[NAME_001] <|endoftext|>"
