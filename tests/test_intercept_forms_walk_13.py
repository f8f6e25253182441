"""The guard's thirteenth walk (session 24): the third walk's customer record in the requests the proxy refused to
read before, multipart uploads, now read, audited and redacted or blocked (`intercept/form_data.py`):

- a Batch API input file (`/v1/files`, `purpose=batch`): a JSONL whose lines' `body`s are chat requests;
- a tool's text output uploaded as a file (`/v1/files`, `/v1/uploads/{id}/parts`), its file name holding the name too;
- a Windows `.reg` export uploaded as it is written (UTF-16LE after a byte order mark);
- an audio transcription's `prompt` beside its audio (`/v1/audio/transcriptions`), an image edit's beside its image
  (`/v1/images/edits`): the audio and the image are named unread;
- a part the guard cannot read (bytes of no kind it knows): refused in both modes and named, never forwarded;
- a malformed form (no closing boundary): refused (400), as any body the guard cannot read.

A request position no walk read: a text as the token ids OpenAI's embeddings `input` and completions `prompt` take
(`cl100k_base`; LangChain's `OpenAIEmbeddings` sends every text so), one array or a batch, cut inside a character
too (`intercept/tokens.py`).

And two more forms tool output carries, in every request position of the wire APIs (walk 1's cells): a Windows
registry export's values as bytes, `hex(2):` and `hex(7):` (UTF-16LE as comma-separated hex, lines continued with
`\\`; `detect/forms/reg_hex.py`), and a text as the list of its code points, as Erlang's shell prints a Unicode
string and Python's `[ord(c) for c in s]` writes one (`detect/forms/code_point_lists.py`; a Latin-1 name's code
points are no UTF-8 bytes, which is all `byte_lists` read). No form read either. (Java's and .NET's `toString`,
PHP's `serialize`, Ruby's `inspect` of binary strings, Erlang's `<<…>>` byte lists, Perl's `Data::Dumper`
`\\x{…}` and `jq -c` escaping twice were checked against the cascade: each was read already.)

Judged as the earlier walks judge, over loopback HTTP in front of the scripted stand-in upstream, on what the
stand-in RECEIVED (its form parser's reading, every encoding of walk 12 undone) and on the store's row: redact
forwards no value, block forwards nothing. A form without a value reaches the stand-in as it was sent."""

from __future__ import annotations

import functools
import json
import re

import pytest
from test_intercept_forms_walk import CELLS, assert_held, leaked, walk_tests
from test_intercept_forms_walk_2 import near_misses_test
from test_intercept_forms_walk_3 import (
    _CANONICAL,
    _PLAIN,
    NEAR,
    RECORD,
    UNIT_IDS,
    UNITS,
    _ascii_folded,
    _line,
    _more_decodings,
)
from test_intercept_forms_walk_8 import _these
from test_intercept_forms_walk_9 import _these_9
from test_intercept_forms_walk_11 import _these_11
from test_intercept_forms_walk_12 import _these_12

from ec2audit.intercept import tokens

__all__ = ["CELLS", "FORMS", "GROUPS", "UNITS", "walk_form"]


# --- the form: a record → the text that carries it ----------------------------------------------------------------

def _reg_hex(name: str, kind: str, data: bytes) -> str:
    """A value as `reg export` writes bytes: two hex digits a byte, a line continued with `,\\` at 80 columns."""
    line, lines = f'"{name}"=hex({kind}):', []
    for k, byte in enumerate(data):
        piece = f"{byte:02x}" + ("," if k < len(data) - 1 else "")
        if len(line) + len(piece) > 77:
            lines.append(line + "\\")
            line = "  "
        line += piece
    return "\r\n".join([*lines, line])


def _reg_hex_export(r: dict) -> str:
    """`reg export HKCU\\Software\\CRM crm.reg` of a key whose values are REG_EXPAND_SZ, and one REG_MULTI_SZ of them
    all (each UTF-16LE, NUL-ended; the list ends in two NULs)."""
    values = [_reg_hex(k, "2", (v + "\0").encode("utf-16-le")) for k, v in r.items()]
    every = _reg_hex("All", "7", "".join(v + "\0" for v in r.values()).encode("utf-16-le") + b"\0\0")
    return "Windows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\Software\\CRM\\P1]\r\n" + \
        "\r\n".join([*values, every]) + "\r\n"


def _code_points(r: dict) -> str:
    """A debugging print of the record's values as their code points (`{k: [ord(c) for c in v] for k, v in …}`)."""
    return repr({k: [ord(c) for c in v] for k, v in r.items()})


FORMS_13 = {"reg_hex_export": _reg_hex_export, "code_point_lists": _code_points}
FORMS = {name: functools.partial(lambda make: [make(RECORD)], make) for name, make in FORMS_13.items()}
#: a header holds one line: these are several
ONE_LINE = set(FORMS_13)


# --- the reader: what the upstream received, read with this walk's encodings undone too -------------------------

_REG_VALUE = re.compile(r"hex(?:\([0-9a-f]\))?:([0-9a-fA-F,\\\s]+)")
_NUMBERS = re.compile(r"[0-9]+(?:,\s*[0-9]+)+")


def _hex_bytes(run: str) -> bytes:
    digits = re.sub(r"[^0-9a-fA-F]", "", run)
    return bytes.fromhex(digits[:len(digits) // 2 * 2])  # (a run cut by a placeholder may end in half a byte)


def _these_13(text: str) -> set[str]:
    """Every `hex(…):` value of the text read as UTF-16LE, a NUL a line's end; every list of numbers as code points."""
    return {"\n".join(_hex_bytes(m.group(1)).decode("utf-16-le", "replace").replace("\0", "\n")
                      for m in _REG_VALUE.finditer(text)),
            "\n".join("".join(chr(min(int(n), 0x10FFFF)) for n in m.group().split(","))
                      for m in _NUMBERS.finditer(text))}


def leaks(sent: dict) -> list[str]:
    found = leaked(sent, {**_CANONICAL, **_PLAIN}, lambda t: _more_decodings(t) | _these(t) | _these_9(t)
                   | _these_11(t) | _these_12(t) | _these_13(t) | {_ascii_folded(t)})
    return sorted({f.split(" (")[0] for f in found})


#: Cells where the guard does not hold yet (none)
KNOWN_GAPS: dict[str, set] = {}

#: The walk's cells of its form (`guard_forms_matrix.py --walk 13`) and its three tests (walk 1's `walk_tests`)
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)


test_near_misses_go_out_untouched = near_misses_test(FORMS_13, NEAR)


def test_code_points_in_a_json_array_are_held(proxy):
    """A tool's arguments holding the record's values as arrays of code points (`fields._spelling` reads an array of
    numbers as the list `code_point_lists` reads)."""
    arguments = json.dumps({k: [ord(c) for c in v] for k, v in RECORD.items()})
    body = {"model": "echo", "messages": [{"role": "user", "content": "Save the customer."}, {
        "role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "save", "arguments": arguments}}]}]}
    assert_held(proxy, "code-point-array", "/v1/chat/completions", UNIT_IDS, leaks, json=body)


# --- token ids ------------------------------------------------------------------------------------------------------

def _ids(text: str) -> list[int]:
    return tokens.encoding().encode(text)


#: request → (path, body): the record's line as token ids where the APIs take them
TOKEN_REQUESTS = {
    "embeddings_one": ("/v1/embeddings", {"model": "text-embedding-3-small", "input": _ids(_line(RECORD))}),
    "embeddings_batch": ("/v1/embeddings", {"model": "text-embedding-3-small", "encoding_format": "base64",
                                            "input": [_ids(f"{k}: {v}") for k, v in RECORD.items()]}),
    # a long text's ids sent in chunks as LangChain cuts them: here inside the name's second character
    "embeddings_chunks": ("/v1/embeddings", {"model": "text-embedding-3-small", "input": [
        _ids(_line(RECORD))[:7], _ids(_line(RECORD))[7:]]}),
    "completions_prompt": ("/v1/completions", {"model": "gpt-3.5-turbo-instruct", "prompt": _ids(_line(RECORD))}),
}


def _token_texts(body: dict) -> list[str]:
    """What a reader of the token ids a body carries reads: each array's text."""
    value = body.get("input", body.get("prompt"))
    arrays = value if value and isinstance(value[0], list) else [value]
    return [tokens.encoding().decode(ids, errors="replace") for ids in arrays]


@pytest.mark.parametrize("request_", sorted(TOKEN_REQUESTS))
def test_a_value_sent_as_token_ids_is_held(proxy, request_):
    path, body = TOKEN_REQUESTS[request_]
    found = UNIT_IDS - {u.id for u in UNITS if u.field == "name"} if request_ == "embeddings_chunks" else UNIT_IDS
    token_leaks = lambda sent: leaks({"body": _token_texts(sent["body"]), "header_list": [], "query": ""})  # noqa: E731
    sent = assert_held(proxy, f"tokens-{request_}", path, found, token_leaks, json=body)
    if sent is not None:  # still token ids, as the API takes them
        value = sent["body"].get("input", sent["body"].get("prompt"))
        assert all(type(i) is int for ids in (value if isinstance(value[0], list) else [value]) for i in ids)


# --- multipart uploads ---------------------------------------------------------------------------------------------


def _batch_file(record: dict) -> bytes:
    """A Batch API input: one chat request a line, the record's fields in the users' turns."""
    lines = [{"custom_id": f"req-{k}", "method": "POST", "url": "/v1/chat/completions",
              "body": {"model": "gpt-4.1-mini", "messages": [{"role": "system", "content": "Summarise the row."},
                                                             {"role": "user", "content": f"{field}: {value}"}]}}
             for k, (field, value) in enumerate(record.items())]
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()


def _reg_export(record: dict) -> bytes:
    """`reg export HKCU\\Software\\CRM crm.reg`: UTF-16LE after its byte order mark, string values quoted."""
    values = "".join(f'"{field}"="{value}"\r\n' for field, value in record.items())
    return "\ufeff".encode("utf-16-le") + ("Windows Registry Editor Version 5.00\r\n\r\n"
                                           f"[HKEY_CURRENT_USER\\Software\\CRM\\P1]\r\n{values}").encode("utf-16-le")


_WAV = b"RIFF\x24\x00\x00\x00WAVEfmt " + b"\x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x80\x3e\x00\x00" \
    b"\x02\x00\x10\x00data\x00\x00\x00\x00"

#: upload → (path, form fields, files as httpx takes them)
UPLOADS = {
    "batch_input": ("/v1/files", {"purpose": "batch"},
                    {"file": ("batch.jsonl", _batch_file(RECORD), "application/jsonl")}),
    "tool_output": ("/v1/files", {"purpose": "user_data"},
                    {"file": (f"{RECORD['name']}.txt", _line(RECORD).encode(), "text/plain")}),
    "upload_part": ("/v1/uploads/upload_abc123/parts", {}, {"data": ("blob", _line(RECORD).encode(), None)}),
    "reg_export": ("/v1/files", {"purpose": "user_data"}, {"file": ("crm.reg", _reg_export(RECORD), None)}),
    "field_names": ("/v1/files", {value: field for field, value in RECORD.items()},
                    {"file": ("notes.txt", b"see the field names", "text/plain")}),
    "image_edit_prompt": ("/v1/images/edits", {"model": "gpt-image-1", "prompt": _line(RECORD)},
                          {"image": ("photo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(17), "image/png")}),
    "transcription_prompt": ("/v1/audio/transcriptions", {"model": "whisper-1", "prompt": _line(RECORD)},
                             {"file": ("call.wav", _WAV, "audio/wav")}),
}


def upload_outcome(proxy, upload: str) -> str:
    """"held" where the upload has every unit found, and in redact mode reaches the stand-in's form parser with as
    many fields and no value, and is stored so; in block mode is refused with nothing forwarded."""
    path, data, files = UPLOADS[upload]
    try:
        sent = assert_held(proxy, f"upload-{upload}", path, UNIT_IDS, leaks, data=data, files=files)
        if sent is not None:
            assert len(sent["body"]) == len({*data, *files})
            assert "[NAME_" in json.dumps(sent["body"], ensure_ascii=False)
            [record] = proxy[3].records(f"upload-{upload}")
            assert leaks({"body": record.request, "header_list": [], "query": ""}) == []
    except (AssertionError, TypeError) as e:  # (TypeError: a request refused unread has no findings, None)
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("upload", sorted(UPLOADS))
def test_a_value_in_a_multipart_upload_is_held(proxy, upload):
    assert upload_outcome(proxy, upload) == "held"


#: The walk's groups of cells beside its form's (`benchmarks/guard_forms_matrix.py --walk 13` counts them).
GROUPS = {"multipart uploads": ([(upload,) for upload in UPLOADS], upload_outcome)}


def test_a_large_batch_file_holds(proxy):
    """Over the large lane's size: detected in the worker process from the form's audited object."""
    filler = _batch_file({f"note {k}": "The build passed; nothing to report. " * 55 for k in range(140)})
    files = {"file": ("batch.jsonl", _batch_file(RECORD) + filler, "application/jsonl")}
    assert_held(proxy, "upload-large", "/v1/files", UNIT_IDS, leaks, data={"purpose": "batch"}, files=files)


def test_the_audio_beside_a_prompt_is_named_unread(proxy):
    mode, _, client, store = proxy
    path, data, files = UPLOADS["transcription_prompt"]
    client.post(f"/e/unread-audio{path}", data=data, files=files)
    [record] = store.records("unread-audio")
    assert [(u["path"], u["media_type"]) for u in record.unread] == [("/file/data", "audio/wav")]


def test_a_part_the_guard_cannot_read_is_refused_and_named(proxy):
    mode, app, client, store = proxy
    seen = len(app.state.requests)
    files = {"file": ("dump.bin", b"\x00\x01\x02\xfe" + _line(RECORD).encode("utf-32-le"), None)}
    answer = client.post("/e/unreadable-part/v1/files", data={"purpose": "user_data"}, files=files)
    [record] = store.records("unreadable-part")
    assert answer.status_code == record.status == 403 and app.state.requests[seen:] == []
    assert "file (application/octet-stream" in answer.json()["error"]["message"]


def test_a_boundary_holding_a_value_is_not_forwarded(proxy):
    """The client's boundary is in the Content-Type the upstream would get: the form goes in a boundary of its own."""
    boundary = f"{RECORD['phone']}-{RECORD['api_key']}"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n{_line(RECORD)}\r\n'
            f"--{boundary}--\r\n").encode()
    assert_held(proxy, "boundary", "/v1/files", UNIT_IDS, leaks, content=body,
                headers={"content-type": f"multipart/form-data; boundary={boundary}"})


def test_a_truncated_form_is_refused(proxy):
    mode, app, client, store = proxy
    seen = len(app.state.requests)
    body = f'--b0\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n{_line(RECORD)}\r\n'.encode()
    answer = client.post("/e/truncated-form/v1/files", content=body,
                         headers={"content-type": "multipart/form-data; boundary=b0"})
    [record] = store.records("truncated-form")
    assert answer.status_code == record.status == 400 and app.state.requests[seen:] == []
    assert "boundary" in answer.json()["error"]["message"] and record.request is None


@pytest.mark.parametrize("upload", sorted(UPLOADS))
def test_a_form_without_a_value_is_forwarded_as_sent(proxy, upload):
    mode, app, client, store = proxy
    path, data, files = UPLOADS[upload]
    near = {_near(k): _near(v) for k, v in data.items()}
    near_files = {k: (_near(name), _near_bytes(content), kind)
                  for k, (name, content, kind) in files.items()}
    seen = len(app.state.requests)
    answer = client.post(f"/e/near-{upload}{path}", data=near, files=near_files)
    [sent] = app.state.requests[seen:]
    [record] = store.records(f"near-{upload}")
    assert answer.status_code == 200 and record.findings == [] and record.redactions == 0
    want = {**near, **{k: _received(name, content, kind) for k, (name, content, kind) in near_files.items()}}
    assert sent["body"] == want


def _near(text: str) -> str:
    """The text with each of the record's values the near customer's."""
    for field, value in RECORD.items():
        text = text.replace(value, NEAR[field])
    return text


def _near_bytes(content: bytes) -> bytes:
    """A file's text, UTF-16 after its byte order mark or UTF-8, with the near customer's values; bytes as they are."""
    codec = "utf-16" if content[:2] == b"\xff\xfe" else "utf-8"
    try:
        return _near(content.decode(codec)).encode(codec)
    except UnicodeDecodeError:
        return content


def _received(name: str, content: bytes, kind: str | None) -> dict:
    """A file as the stand-in's form parser reads it (`standin._form`)."""
    utf16 = content[:2] in (b"\xff\xfe", b"\xfe\xff")
    text = content.decode("utf-16") if utf16 else content.decode("utf-8", "replace")
    return {"filename": name, "content_type": kind or "application/octet-stream", "data": text}
