"""Hand mutants of session 25 (benchmarks/hand_mutants.py; RESULTS.md, "Hand mutants in the code changed in session
24"): planted one at a time in the code session 24 changed, each survivor a behaviour no test held. Each test here
kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files, HTTP) or,
where the CLI cannot reach it, by what the library function gives."""

from __future__ import annotations

import json
import re

import pytest
from test_detect_forms_s24 import _scan
from test_detect_forms_walk_5 import _read
from test_intercept_forms_walk import assert_held
from test_intercept_forms_walk_3 import UNITS
from test_intercept_forms_walk_13 import _reg_hex
from test_mutation_kills_s24 import _batch, _calls
from test_new_user_walk_7 import _cli
from test_new_user_walk_11 import _units
from test_new_user_walk_14 import _audited, _cline_task
from test_new_user_walk_15 import _prelabelled

from ec2audit.intercept import tokens

__all__ = ["UNITS"]  # the units the `proxy` fixture guards (walk 3's record)


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
    ids = tokens.encode("欧阳娜娜")
    assert tokens.token_text(ids[:1]) is None and tokens.token_text([True, *ids[1:]]) is None
    assert tokens.token_text(ids[:-1])[0] == "欧阳娜\ufffd"
    assert tokens.encoding().decode(tokens.encode("[NAME_001] <|endoftext|>")) == "[NAME_001] <|endoftext|>"


def test_a_value_in_token_ids_is_replaced_by_whole_characters_only(proxy):
    """An embeddings `input` of token ids whose name, 欧阳娜娜, begins with a character two ids spell (`欧`: its
    bytes e6 ac, then a7) and ends with one three ids spell: redacted, the ids forwarded spell the placeholder and
    the rest whole, with no piece of a character left over (UJ2, UJ3); blocked, nothing is forwarded."""
    text = "欧阳娜娜女士 called at 9"
    sent = assert_held(proxy, "token-ids-whole", "/v1/embeddings", {UNITS[0].id}, lambda sent: [],
                       json={"model": "text-embedding-3-small", "input": tokens.encode(text)})
    if sent is not None:
        assert re.fullmatch(r"\[NAME_\w+\]女士 called at 9", tokens.encoding().decode(sent["body"]["input"])), sent


def test_a_form_whose_media_type_is_capitalised_is_read_and_its_stream_false_is_no_stream(proxy):
    """A transcription form sent as `Multipart/Form-Data` (media types are case-insensitive) with `stream=false`,
    no value in it: read as a form and forwarded (UN3), recorded as not streamed (UN2: the field is text, and
    `"false"` is no stream)."""
    mode, app, client, store = proxy
    body, content_type = _form(('Content-Disposition: form-data; name="model"', b"whisper-1"),
                               ('Content-Disposition: form-data; name="stream"', b"false"))
    seen = len(app.state.requests)
    answer = client.post("/e/form-no-stream/v1/audio/transcriptions", content=body,
                         headers={"content-type": content_type.replace("multipart/form-data", "Multipart/Form-Data")})
    [record] = store.records("form-no-stream")
    assert answer.status_code == 200 and len(app.state.requests[seen:]) == 1, answer.text
    assert record.request == {"model": "whisper-1", "stream": "false"} and record.stream is False


@pytest.mark.parametrize(("value", "kind", "data"), [
    # a REG_MULTI_SZ: UTF-16LE, never UTF-8 read with NULs for line ends (UR1)
    ("Dana Whitfield", "7", "Dana Whitfield\0Other\0\0".encode("utf-16-le")),
    # a REG_EXPAND_SZ whose type is written with leading zeros (UR4)
    ("Dana Whitfield", "0002", "Dana Whitfield\0".encode("utf-16-le")),
    # a REG_BINARY whose bytes are UTF-8 only as control characters: UTF-16LE text (UR5)
    ("丁丁", None, "丁丁".encode("utf-16-le")),
])
def test_a_registry_values_bytes_read_as_the_text_its_type_says(value, kind, data):
    text = _reg_hex("Value", kind or "", data).replace("hex():", "hex:")
    assert [hit[0] for hit in _scan(value, "person_name", text)] == ["exact"]


@pytest.mark.parametrize(("value", "text"), [
    ("47.620500, -122.349300", "Last fix 47°37'13.9\"N 122°20'57.5\"W"),  # a tenth of a second off a finer value (UO6)
    ("48.0000, -122.3493", "Last fix 122°20'57.5\"W, 47°60'00.0\"N"),  # sixty minutes are no minutes (UO1)
    ("47.6205, 200.5000", "at 47°37'13.8\"N 200°30'00.0\"E"),  # a value past 180° is no position (UO8)
    ("47.6, -122.3", "at 47°36'N 122°18'W"),  # nor one of fewer than three decimals, too coarse to tell (UO9)
    ("47.6205, 47.3493", "Last fix 47°37'13.8\"N 47°20'57.5\"N"),  # two latitudes are no position (UO4)
])
def test_a_position_off_by_its_last_digit_or_a_value_that_is_no_position_is_no_hit(value, text):
    assert _scan(value, "location", text) == []


def test_a_position_to_a_finer_value_is_the_position():
    text = "Last fix 47°37'13.8\"N 122°20'57.5\"W"
    assert _scan("47.620500, -122.349300", "location", text) == [("forms.coordinates", 1.0, text[9:])]


def test_code_points_are_read_in_a_list_not_out_of_a_comma_separated_row():
    """A printed list's code points spell the name; the same numbers as fields of a CSV row, a list of no one's
    making, are not read (UL3)."""
    assert _scan("欧阳娜娜", "person_name", "cp=[27431,38451,23068,23068]") == [
        ("exact", 1.0, "27431,38451,23068,23068")]
    assert _scan("欧阳娜娜", "person_name", "cp,27431,38451,23068,23068,end") == []


def test_an_identifier_is_read_with_middle_dots_and_a_number_is_left_to_the_digit_views():
    """`KX-4471-B` written with middle dots, as a Chinese plate is, is the identifier (UE7); `4471-2208-19`, digits
    alone, is no identifier of this form's: the digit views read numbers, whatever their separators (UE2)."""
    assert _scan("KX-4471-B", "other", "ref KX·4471·B attached") == [("forms.separators", 1.0, "KX·4471·B")]
    assert _scan("4471-2208-19", "other", "ref 4471220819 attached") == []


def test_a_host_named_in_two_letters_is_no_name_to_find_its_subnet_by():
    """A host whose name is two letters (`db`) names nothing a text can be told to be about: its subnet in a text
    that says `db` is no fragment (UU5)."""
    assert _scan("10.42.17.203", "network", "db lives in 10.42.17.0/24", "private_ip", "db") == []


def test_a_number_spaced_off_han_on_both_sides_loses_its_spaces_and_one_after_a_label_keeps_them():
    """`cjk_spacing` reads `75 弄 21 号` as `75弄21号` and leaves `手机 139 0112 7358` as written (UH1)."""
    from ec2audit.detect.forms.cjk_spacing import CjkSpacing

    assert _read(CjkSpacing, "田林东路 75 弄 21 号 604 室") == "田林东路75弄21号604室"
    assert _read(CjkSpacing, "手机 139 0112 7358，微信同号") == "手机 139 0112 7358，微信同号"


def test_a_lower_case_example_key_and_a_sentence_after_a_password_word_are_no_credential(tmp_path):
    """A `.env.example` whose keys say `example` in lower case (`sk-proj-example…`, `example-9f8e…`: UK1, UK2), and
    meeting notes where `密码` is followed by a space and a sentence, not a password in Latin letters and symbols
    (UK6). By hand: no unit."""
    assert _prelabelled(tmp_path, {
        ".env.example": "OPENAI_API_KEY=sk-proj-example7fK2mQ9xL4vB8nR3tY6w\nAPI_SECRET=example-9f8e7d6c5b4aK1\n",
        "notes.md": "会议纪要：密码 已经通过短信发给你了，请查收。\n"}) == []


def test_a_condition_said_as_what_its_holder_is_reads_epileptic(tmp_path):
    """`I am epileptic`: the holder's condition, one of the adjectives walk 15 added (UY2). By hand: one unit."""
    found = _prelabelled(tmp_path, {"intake.md": "Intake call: I am epileptic, so the night shift is out for me.\n"})
    assert [(u["dimension"], u["value"]) for u in found] == [("health", "epileptic")]


@pytest.mark.parametrize(("value", "text", "contrary"), [
    ("right knee sprain", "left knee, and the right knee too", False),  # its side among others (VS1)
    ("atorvastatin 20 mg", "atorvastatin oral suspension, 5 ml", False),  # a strength in another unit (VS3)
    ("insulin glargine 10 units", "insulin glargine 12 IU at night", True),  # units are IU (VS5)
    ("fracture of the left fourth rib", "左侧第四肋骨骨折", False),  # 左 is left (VS6)
    ("left hip fracture", "the ache came right back lower down", False),  # `right back` is no side (VS8)
    ("warfarin 2.5 mg", "warfarin 5 mg daily", True),  # a decimal strength (VS9)
])
def test_another_side_or_strength_is_read_across_units_and_languages(value, text, contrary):
    """`value_checks.other_side_or_strength` (checks-v15): only another side, or only other strengths in the
    value's own unit, is another finding or prescription."""
    from ec2audit.detect.value_checks import other_side_or_strength

    assert other_side_or_strength(value, text) is contrary


@pytest.mark.parametrize("text", [
    "token 9F1C2AB33E7D41AA",  # a key of hexadecimal letters in both cases is no hexadecimal value (UCD4)
    "密码：ｑｚ#8vL2!mT6r",  # full-width letters in another case (UCD5)
])
def test_a_credential_in_another_case_is_no_literal_however_its_letters_are_written(text):
    value = "9f1C2ab33e7d41aA" if text.startswith("token") else "Qz#8vL2!mT6r"
    assert [h for h in _scan(value, "credential", text, "db_password") if h[1] > 0.3] == []


def test_a_batch_output_answers_the_input_in_its_own_folder_before_one_elsewhere(tmp_path):
    """Two batches numbered alike (`r1`, `r2`), each input in its own folder, one output beside the first: audited
    together, the output answers the input beside it, not read on its own as if the two held its ids alike (UB1).
    By hand: 4 calls, 2 priced at 1,000 tokens in (the row's tokens unknown: 2 unanswered); the second input named
    as unanswered (exit 1), nothing else."""
    first = _batch(tmp_path / "first", {"batchinput.jsonl": ["r1", "r2"]}, {"batch_abc123": ["r1", "r2"]})
    second = _batch(tmp_path / "second", {"batchinput.jsonl": ["r1", "r2"]}, {})
    code, said = _cli("audit", first, second, "--units", _units(tmp_path / "units.jsonl"), "--json")
    assert code == 1 and said.count("skipped ") == 1, said
    assert f"{second / 'batchinput.jsonl'}: batch input without its output file" in said
    assert _calls(json.loads(said[said.index("{\n"):])) == (4, 2, None)  # 2 unanswered: tokens unknown
