"""The guard's fourth walk (session 16), walked as `test_intercept_forms_walk_3.py` walks: over loopback HTTP in
front of the scripted stand-in upstream, the third walk's customer record in every request position of the wire
APIs, streamed too, written as more tool output writes it: wrapped by a terminal at a fixed width, base64 wrapped
at 76 (MIME) and 64 (PEM) columns, broken by `\\` line continuations and by hyphens at line ends, under the line
numbers of `cat -n`, `nl` and `grep -n` and a diff's `+` markers across wrapped lines, as `xxd`, `hexdump -C` and
`od -c` dump it, in HTML hex entities, JSON with `\\/` and JSON encoded three times, Rust's `\\u{…}` and Go's `%+q`
escapes, a CSV cell with doubled quotes, full-width letters mixed in, letter-spaced, with Chinese numerals and
with Arabic-Indic, Persian and Devanagari digits.

Then the positions the first walk's cells leave out (a stop sequence, a structured output's schema, an image's
file name, the Gemini generateContent and Bedrock Converse shapes through the generic route) and the request
envelopes: a body compressed as clients send it is read and judged; one the guard cannot read (an unknown
Content-Encoding, multipart or form-encoded, UTF-16, a BOM) is refused with a one-line reason and never
forwarded.

Judged as the third walk judges, on what the upstream RECEIVED read with every encoding of that walk and this
one undone: redact forwards no value, block forwards nothing. Near misses go out untouched."""

from __future__ import annotations

import base64
import csv
import functools
import gzip
import io
import json
import re
import unicodedata
import zlib

import brotli
import pytest
import zstandard
from test_detect_forms_walk_4 import _hexdump as hexdump
from test_detect_forms_walk_4 import _xxd as xxd
from test_intercept_forms_walk import CELLS, _canonical, assert_held, leaked, walk_tests
from test_intercept_forms_walk_3 import (
    NEAR,
    RECORD,
    UNIT_IDS,
    UNITS,
    _ascii_folded,
    _more_decodings,
    broken_near_misses,
)

# --- the forms: a record → the text that carries it ----------------------------------------------------


def _line(record: dict) -> str:
    return "; ".join(f"{k}: {v}" for k, v in record.items())


def _halves(value: str) -> tuple[str, str]:
    return value[:len(value) // 2], value[len(value) // 2:]


def _terminal(r: dict) -> str:
    """A terminal 37 columns wide: the record's line broken every 37 characters, inside values."""
    text = "customer " + _line(r)
    return "\n".join(text[i:i + 37] for i in range(0, len(text), 37))


def _base64_wrapped(r: dict, width: int, pem: bool) -> str:
    """The record's JSON in base64 wrapped at `width` columns: a MIME part's body, or a PEM block."""
    blob = base64.b64encode(json.dumps(r, ensure_ascii=False).encode()).decode()
    lines = "\n".join(blob[i:i + width] for i in range(0, len(blob), width))
    if pem:
        return f"-----BEGIN CUSTOMER RECORD-----\n{lines}\n-----END CUSTOMER RECORD-----"
    return f"Content-Type: application/json\nContent-Transfer-Encoding: base64\n\n{lines}"


def _continued(r: dict) -> str:
    """A `docker run` whose environment values are broken by shell line continuations."""
    return "docker run \\\n" + "".join('  -e {}="{}\\\n{}" \\\n'.format(k.upper(), *_halves(v))
                                       for k, v in r.items()) + "  crm:latest"


def _hyphenated(r: dict) -> str:
    return "\n".join("{}: {}-\n{}".format(k, *_halves(v)) for k, v in r.items())


def _cat_n(r: dict) -> str:
    """`fold -w 24 customers.txt | cat -n`: the record's line folded at 24 columns, each line numbered."""
    text = _line(r)
    return "\n".join(f"{i:6}\t{text[j:j + 24]}" for i, j in enumerate(range(0, len(text), 24), 1))


def _nl(r: dict) -> str:
    """`nl -ba` of the record's line wrapped at 30 columns."""
    text = _line(r)
    return "\n".join(f"{i:6}\t{text[j:j + 30]}" for i, j in enumerate(range(0, len(text), 30), 1))


def _grep_n(r: dict) -> str:
    return "\n".join(f"customers.txt:{i}:{v}" for i, v in enumerate(r.values(), 40))


def _diff_wrapped(r: dict) -> str:
    """A diff adding the record's JSON wrapped at 33 columns: each piece of a value behind a `+`."""
    text = json.dumps(r, ensure_ascii=False)
    chunks = [text[i:i + 33] for i in range(0, len(text), 33)]
    return (f"--- a/c.txt\n+++ b/c.txt\n@@ -1 +1,{len(chunks)} @@\n-placeholder\n"
            + "\n".join("+" + c for c in chunks))


def _xxd(r: dict) -> str:
    return xxd(_line(r).encode())


def _hexdump(r: dict) -> str:
    return hexdump(_line(r).encode())


_OD_NAMES = {10: "\\n", 9: "\\t", 0: "\\0"}


def _od_c(r: dict) -> str:
    raw = _line(r).encode()
    rows = [f"{o:07o}" + "".join(f"{_OD_NAMES.get(b, chr(b) if 32 <= b < 127 else f'{b:03o}'):>4}"
                                 for b in raw[o:o + 16]) for o in range(0, len(raw), 16)]
    return "\n".join([*rows, f"{len(raw):07o}"])


def _html_hex(r: dict) -> str:
    return _line({k: "".join(f"&#x{ord(c):x};" if i % 2 else f"&#{ord(c)};" for i, c in enumerate(v))
                  for k, v in r.items()})


def _json_slashes(r: dict) -> str:
    """PHP's `json_encode`: every "/" escaped."""
    return json.dumps({"links": [f"https://crm.example.com/c/{v}/" for v in r.values()]},
                      ensure_ascii=False).replace("/", "\\/")


def _rust(r: dict) -> str:
    return _line({k: "".join(c if c.isascii() else f"\\u{{{ord(c):x}}}" for c in v) for k, v in r.items()})


def _go_q(r: dict) -> str:
    """Go's `%+q`: ASCII only, the rest as `\\uXXXX`."""
    return "record: " + " ".join('"' + "".join(c if c.isascii() else f"\\u{ord(c):04x}" for c in v) + '"'
                                 for v in r.values())


def _csv_doubled(r: dict) -> str:
    out = io.StringIO()
    csv.writer(out).writerow(["id", json.dumps(r, ensure_ascii=False)])
    return out.getvalue()


_FULL_WIDTH = {c: c + 0xFEE0 for c in range(0x21, 0x7F)}


def _full_width_mixed(r: dict) -> str:
    return _line({k: "".join(c.translate(_FULL_WIDTH) if i % 2 else c for i, c in enumerate(v)) for k, v in r.items()})


_CHINESE = dict(zip("0123456789", "〇一二三四五六七八九", strict=True))


def _chinese_numerals(r: dict) -> str:
    """A transcript of a call: the numbers read out digit by digit."""
    def said(v: str) -> str:
        return "".join(_CHINESE[d] for d in v)
    return (f"客户{r['name']}，手机{said(r['phone'])}，身份证号{said(r['national_id'])}，年薪{said(r['salary'])}元，"
            f"邮箱{r['email']}，账户{r['iban']}，密钥{r['api_key']}，联系人{r['contact']}")


def _digits(zero: int) -> dict[int, str]:
    return {ord(d): chr(zero + int(d)) for d in "0123456789"}


def _script_digits(r: dict) -> str:
    """Arabic-Indic, Persian (Extended Arabic-Indic) and Devanagari digits."""
    return _line({**r, "phone": r["phone"].translate(_digits(0x660)), "national_id": r["national_id"].translate(
        _digits(0x6F0)), "salary": r["salary"].translate(_digits(0x966)), "iban": r["iban"].translate(_digits(0x660))})


FORMS_4 = {
    "terminal_wrap": _terminal, "base64_mime_76": functools.partial(_base64_wrapped, width=76, pem=False),
    "base64_pem_64": functools.partial(_base64_wrapped, width=64, pem=True), "line_continuation": _continued,
    "hyphen_breaks": _hyphenated, "cat_n": _cat_n, "nl": _nl, "grep_n": _grep_n, "diff_wrapped": _diff_wrapped,
    "xxd": _xxd, "hexdump_c": _hexdump, "od_c": _od_c, "html_hex_entities": _html_hex,
    "json_slashes": _json_slashes, "json_thrice": lambda r: json.dumps(json.dumps(json.dumps(r))),
    "rust_escape_unicode": _rust, "go_plus_q": _go_q, "csv_doubled_quotes": _csv_doubled,
    "full_width_mixed": _full_width_mixed, "letter_spaced": lambda r: _line({k: " ".join(v) for k, v in r.items()}),
    "chinese_numerals": _chinese_numerals, "script_digits": _script_digits,
}
FORMS = {name: functools.partial(lambda make: [make(RECORD)], make) for name, make in FORMS_4.items()}
#: Forms whose line breaks carry meaning (a header's value is flattened to one line)
ONE_LINE = {"terminal_wrap", "base64_mime_76", "base64_pem_64", "line_continuation", "hyphen_breaks", "cat_n", "nl",
            "grep_n", "diff_wrapped", "xxd", "hexdump_c", "od_c"}


# --- reading what the upstream received: the third walk's decodings and this walk's -----------------------

_LINE_NUMBER = re.compile(r"^ *\d+\t|^[^\s:]+:\d+:", re.M)
_BASE64_WRAP = re.compile(r"(?<=[A-Za-z0-9+/]{40})\n(?=[A-Za-z0-9+/])")
_BRACES = re.compile(r"\\+[ux]\{([0-9A-Fa-f]{1,6})\}")
_HEX_ROW = re.compile(r"^[0-9a-f]{8}:? +((?:[0-9a-f]{2,4} {1,2})+)", re.M)
_OD_ROW = re.compile(r"^[0-7]{7}(.*)$", re.M)
_OD_CELL = {"\\n": b"\n", "\\t": b"\t", "\\0": b"\0", "": b" "}


def _undigits(text: str) -> str:
    return "".join(str(unicodedata.decimal(c)) if unicodedata.category(c) == "Nd" else
                   str("〇一二三四五六七八九".index(c)) if c in "〇一二三四五六七八九" else c for c in text)


def _od_cell(cell: str) -> bytes:
    cell = cell.strip()
    return _OD_CELL.get(cell) or (bytes([int(cell, 8)]) if re.fullmatch("[0-3][0-7]{2}", cell) else cell.encode())


def _od(text: str) -> str:
    """`od -c` read back: each row's cells, four characters wide."""
    rows = _OD_ROW.findall(text)
    return b"".join(_od_cell(row[k:k + 4]) for row in rows for k in range(0, len(row), 4)).decode("utf-8", "replace")


def _hex_rows(text: str) -> str:
    """`xxd` and `hexdump -C` read back: each row's hex bytes."""
    try:
        return bytes.fromhex("".join(_HEX_ROW.findall(text)).replace(" ", "")).decode("utf-8", "replace")
    except ValueError:
        return text


def _these_decodings(text: str) -> set[str]:
    return {_LINE_NUMBER.sub("", text), _BASE64_WRAP.sub("", text),
            _BRACES.sub(lambda m: chr(int(m.group(1), 16)), text), _undigits(text), _hex_rows(text), _od(text)}


_CANONICAL = {field: _canonical(value) for field, value in RECORD.items()}
_PLAIN = {f"{field} (unaccented)": _canonical(_ascii_folded(value)) for field, value in RECORD.items()
          if _ascii_folded(value) != value}


def leaks(sent: dict) -> list[str]:
    found = leaked(sent, {**_CANONICAL, **_PLAIN},
                   lambda t: _more_decodings(t) | _these_decodings(t) | {_ascii_folded(t)})
    return sorted({f.removesuffix(" (unaccented)") for f in found})


# --- the walk ------------------------------------------------------------------------------------------------



#: Cells where the guard does not hold yet: form → {(api, position, stream)} (none; RESULTS.md, session 16)
KNOWN_GAPS: dict[str, set] = {}

#: The walk's cells of one form (`guard_forms_matrix.py --walk 4`) and its three tests (walk 1's `walk_tests`)
__all__ = ["CELLS", "FORMS", "UNITS", "walk_form"]
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)


# --- positions the walk's cells leave out, and the shapes of other APIs (the generic route) ------------------

def _other_positions(text: str) -> dict[str, tuple[str, dict]]:
    """name → (path under /v1, body) of a request carrying `text` there."""
    hi = [{"role": "user", "content": "Hi."}]
    schema = {"type": "object", "properties": {"q": {"type": "string", "description": text}}}
    image = "data:image/png;base64,iVBORw0KGgo="
    return {
        "chat.stop": ("/chat/completions", {"messages": hi, "stop": [text]}),
        "chat.response_format": ("/chat/completions", {"messages": hi, "response_format": {
            "type": "json_schema", "json_schema": {"name": "lookup", "description": text, "schema": schema}}}),
        "chat.prediction": ("/chat/completions", {"messages": hi, "prediction": {"type": "content", "content": text}}),
        "chat.file_name": ("/chat/completions", {"messages": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": image}},
            {"type": "file", "file": {"filename": text, "file_data": "data:application/pdf;base64,JVBERi0="}},
            {"type": "text", "text": "Hi."}]}]}),
        "responses.text_format": ("/responses", {"input": "Hi.", "text": {"format": {
            "type": "json_schema", "name": "lookup", "description": text, "schema": schema}}}),
        "responses.input_file_name": ("/responses", {"input": [{"role": "user", "content": [
            {"type": "input_file", "filename": f"{text}.pdf", "file_data": "data:application/pdf;base64,JVBERi0="},
            {"type": "input_text", "text": "Hi."}]}]}),
        "responses.prompt_cache_key": ("/responses", {"input": "Hi.", "prompt_cache_key": text}),
        "anthropic.stop_sequences": ("/messages", {"max_tokens": 20, "messages": hi, "stop_sequences": [text]}),
        "anthropic.image_title": ("/messages", {"max_tokens": 20, "messages": [{"role": "user", "content": [
            {"type": "document", "title": text, "context": text, "source": {
                "type": "base64", "media_type": "application/pdf", "data": "JVBERi0="}},
            {"type": "text", "text": "Hi."}]}]}),
        "anthropic.tool_input_schema": ("/messages", {"max_tokens": 20, "messages": hi, "tools": [
            {"name": "lookup", "description": "Look up.", "input_schema": schema}]}),
        "gemini.system_instruction": ("/models/gemini-2.0-flash:generateContent", {
            "systemInstruction": {"parts": [{"text": text}]},
            "contents": [{"role": "user", "parts": [{"text": "Hi."}]}]}),
        "gemini.function_response": ("/models/gemini-2.0-flash:generateContent", {"contents": [
            {"role": "model", "parts": [{"functionCall": {"name": "lookup", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "lookup", "response": {"result": text}}}]}]}),
        "gemini.tool_declaration": ("/models/gemini-2.0-flash:generateContent", {
            "contents": [{"role": "user", "parts": [{"text": "Hi."}]}],
            "tools": [{"functionDeclarations": [{"name": "lookup", "description": text, "parameters": schema}]}]}),
        "gemini.file_name_stop": ("/models/gemini-2.0-flash:generateContent", {"contents": [{"role": "user", "parts": [
            {"fileData": {"mimeType": "application/pdf", "fileUri": "gs://b/x.pdf", "displayName": text}},
            {"text": "Hi."}]}], "generationConfig": {"stopSequences": [text]}}),
        "bedrock.system": ("/model/anthropic.claude-3-5-sonnet/converse", {
            "system": [{"text": text}], "messages": [{"role": "user", "content": [{"text": "Hi."}]}]}),
        "bedrock.tool_result": ("/model/anthropic.claude-3-5-sonnet/converse", {"messages": [
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "lookup", "input": {}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"json": {"r": text}}]}}]}]}),
        "bedrock.tool_spec": ("/model/anthropic.claude-3-5-sonnet/converse", {
            "messages": [{"role": "user", "content": [{"text": "Hi."}]}], "toolConfig": {"tools": [{"toolSpec": {
                "name": "lookup", "description": text, "inputSchema": {"json": schema}}}]}}),
        "bedrock.metadata_stop": ("/model/anthropic.claude-3-5-sonnet/converse", {
            "messages": [{"role": "user", "content": [{"document": {"name": text, "format": "txt", "source": {
                "bytes": "aGk="}}}, {"text": "Hi."}]}],
            "requestMetadata": {"customer": text}, "inferenceConfig": {"stopSequences": [text]}}),
    }


_OTHER = sorted(_other_positions(""))


@pytest.mark.parametrize("form", ["plain", "xxd", "letter_spaced"])
@pytest.mark.parametrize("position", _OTHER)
def test_the_positions_the_cells_leave_out_hold(proxy, position, form):
    text = _line(RECORD) if form == "plain" else FORMS_4[form](RECORD)
    path, body = _other_positions(text)[position]
    assert_held(proxy, f"other-{position}-{form}", f"/v1{path}", UNIT_IDS, leaks, json={"model": "echo", **body})


# --- request envelopes -----------------------------------------------------------------------------------------

def _body() -> bytes:
    return json.dumps({"model": "echo", "messages": [{"role": "user", "content": _line(RECORD)}]},
                      ensure_ascii=False).encode()


def _raw_deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(wbits=-15)
    return packer.compress(data) + packer.flush()


#: Content-Encodings clients send (the OpenAI and Anthropic SDKs can gzip; Go's and Java's clients deflate;
#: zstd is what newer ones offer, br too), each applied in the order the header lists them.
READABLE = {"gzip": gzip.compress, "x-gzip": gzip.compress, "deflate": zlib.compress, "deflate (raw)": _raw_deflate,
            "zstd": zstandard.ZstdCompressor().compress,
            "gzip, zstd": lambda b: zstandard.ZstdCompressor().compress(gzip.compress(b)), "br": brotli.compress}


@pytest.mark.parametrize("encoding", sorted(READABLE))
@pytest.mark.parametrize("chunked", [False, True])
def test_a_compressed_request_body_is_read_and_judged(proxy, encoding, chunked):
    mode, app, client, store = proxy
    data = READABLE[encoding](_body())
    episode, seen = f"enc-{encoding.replace(' ', '').replace(',', '+')}-{chunked}", len(app.state.requests)
    content = (data[i:i + 9] for i in range(0, len(data), 9)) if chunked else data
    answer = client.post(f"/e/{episode}/v1/chat/completions", content=content, headers={
        "content-type": "application/json", "content-encoding": encoding.removesuffix(" (raw)")})
    sent = app.state.requests[seen:]
    [record] = store.records(episode)
    assert {f["unit_id"] for f in record.findings} == UNIT_IDS
    if mode == "block":
        assert answer.status_code == 403 and sent == []
    else:
        assert answer.status_code == 200 and leaks(sent[0]) == [] and "content-encoding" not in sent[0]["headers"]


def _multipart() -> tuple[bytes, str]:
    boundary = "ec2auditboundary"
    part = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n{_line(RECORD)}\r\n"
            f"--{boundary}--\r\n").encode()
    return part, f"multipart/form-data; boundary={boundary}"


#: Bodies the guard cannot read as the JSON it judges: (body, Content-Type, Content-Encoding) → the status and a
#: word the one-line reason must hold. Refused, never forwarded unread.
UNREADABLE = {
    "not brotli": (b"\x1b\x0b\x00\xf8" + _body(), "application/json", "br", 400, "br"),
    "compress": (_body(), "application/json", "compress", 415, "'compress'"),
    "unknown coding": (_body(), "application/json", "x-snappy", 415, "'x-snappy'"),
    "gzip, then unknown": (gzip.compress(_body()), "application/json", "gzip, x-lz4", 415, "'x-lz4'"),
    "not gzip": (_body(), "application/json", "gzip", 400, "gzip"),
    "multipart": (*_multipart(), "", 400, "messages"),  # read since walk 13: a form is no chat request
    "form-urlencoded": ("purpose=" + _line(RECORD).replace(" ", "+"), "application/x-www-form-urlencoded", "", 400,
                        "messages"),  # read since walk 14: a form is no chat request
    "utf-16": (_body().decode().encode("utf-16"), "application/json; charset=utf-16", "", 400, "UTF-8"),
    "utf-8 bom": (b"\xef\xbb\xbf" + _body(), "application/json", "", 400, "BOM"),
}


@pytest.mark.parametrize("case", sorted(UNREADABLE))
def test_a_body_the_guard_cannot_read_is_refused_not_forwarded(proxy, case):
    mode, app, client, store = proxy
    data, content_type, encoding, status, word = UNREADABLE[case]
    episode, seen = f"unreadable-{case.replace(' ', '_').replace(',', '')}", len(app.state.requests)
    headers = {"content-type": content_type, **({"content-encoding": encoding} if encoding else {})}
    answer = client.post(f"/e/{episode}/v1/chat/completions", content=data, headers=headers)
    assert app.state.requests[seen:] == []
    [record] = store.records(episode)
    message = answer.json()["error"]["message"]
    assert answer.status_code == record.status == status and word in message and "\n" not in message
    assert record.error == message and leaks({"body": [record.request, message], "header_list": [], "query": ""}) == []


# --- near misses: forwarded untouched ------------------------------------------------------------------------

#: Texts a careless decoder reads a unit into: numbered lines and dump offsets next to a unit's digits, a fixed-
#: width table whose rows run into each other, letter-spaced words, braces that are no escapes.
TRAPS = ["     1\t1392288\n     2\t3376 shipped; order 13922883376 too",
         "ORDER-0000000000001392288336\n6000000000000000000000000AB\n0000000000000000000000000CD",
         "S A L E   E N D S   S O O N: 4 8 6 5 0 0 units at ١٣٩٢٢٨٨٣٣٧٦",
         "00000000: 3133 3932 3238 3833 3337 36         13922883376",
         "fn f() { let s = \"\\u{1F600}\"; } // 一三九二二八八三三七六 \\\n 139228 \\\n 83376"]


def _near_texts() -> dict[str, list[str]]:
    return {**{f"near-{name}": [make(NEAR)] for name, make in FORMS_4.items()},
            **{f"trap-{i}": [t] for i, t in enumerate(TRAPS)}}


@pytest.mark.parametrize("case", sorted(_near_texts()))
def test_near_misses_go_out_untouched(proxy, case):
    assert broken_near_misses(proxy, _near_texts()[case], case) == {}, f"{proxy[0]} {case}"
