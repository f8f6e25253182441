"""The guard's fifteenth walk (session 26): the third walk's customer record in forms real tool output carries that
went out, in every request position of the wire APIs (walk 1's cells), and the fourteenth walk's leftovers:

- YAML with quoted keys (`yaml.dump(…, default_style='"')`: `"contact": "Jos\\xE9 N\\xFA\\xF1ez"⏎  "email": …`, a
  mapping nested or in a list, each line indented): `concatenation` joined each line's value to the next line's
  quoted key as Python's adjacent literals, so the `\\x`-escaped name ran into the key (`Núñezemail`); a literal
  that is a mapping's key (`"…":`) continues nothing now;
- base64 with no `=` in it (a text whose length is a multiple of three bytes; base64url as Node's
  `toString('base64url')` and Go's `RawURLEncoding` write it, unpadded): read only near a hint (`=`, "base64",
  "token"…); a token of 20 characters or more is read without one now;
- bytes in hex one separator apart (`od -An -tx1`, Go's `% x`, Python's `bytes.hex(":")`, `0x` each): no form read
  them (form `spaced_hex` now); a hex dump with upper-case digits, three spaces after its offset or a 4-digit one
  (PowerShell's `Format-Hex`, Wireshark's hex dump): `dumps` read only xxd's and hexdump's layout, so only the ASCII
  bytes of its character column were read, a value cut across lines or outside ASCII went out;
- a Gemini resumable upload abandoned after a chunk: its bytes stayed in the proxy's memory until it stopped; the
  held chunks are bounded by age and by total bytes now, the oldest dropped, the drop recorded, and a later chunk
  of a dropped upload refused (410), never forwarded unaudited;
- Azure OpenAI's paths (`/openai/deployments/{deployment}/chat/completions?api-version=…`, `/openai/v1/…`) got a
  404: never forwarded, nor usable through the proxy; read as OpenAI's dialects now (root `/openai`);
- an error the upstream sends mid-stream (Ollama's `{"error": …}` line, OpenAI's and Gemini's `{"error": {…}}`,
  Anthropic's and the Responses API's `error` events) was relayed but never copied to the record's `error`.

Judged as the earlier walks judge, over loopback HTTP in front of the scripted stand-in upstream, on what the
stand-in RECEIVED and on the store's row: redact forwards no value, block forwards nothing. Near misses (another
record of the same shape in each form, a fingerprint in colon hex, a MAC address, a table of two-digit numbers,
base64 of random bytes, Python literals continued across lines) go out untouched."""

from __future__ import annotations

import base64
import functools
import json
import re

import pytest
import yaml
from intercept_helpers import enforcing_client
from test_intercept_forms_walk import CELLS, walk_tests
from test_intercept_forms_walk_2 import near_misses_test
from test_intercept_forms_walk_3 import NEAR, RECORD, UNIT_IDS, UNITS, _line
from test_intercept_forms_walk_13 import leaks as leaks_13

__all__ = ["CELLS", "FORMS", "GROUPS", "UNITS", "walk_form"]


# --- the forms: a record → the text that carries it ----------------------------------------------------------------

def _yaml_nested(r: dict) -> str:
    """PyYAML with every scalar double-quoted, the record nested under a key: non-ASCII as `\\xE9`/`\\u6B27`."""
    return yaml.dump({"customer": r}, default_style='"')


def _yaml_list(r: dict) -> str:
    """The same, the record an item of a list (`- "api_key": …`, the other keys indented)."""
    return yaml.dump([r], default_style='"')


def _base64url(r: dict) -> str:
    """Node's `Buffer.from(text).toString('base64url')`: base64url, no padding."""
    return base64.urlsafe_b64encode(_line(r).encode()).decode().rstrip("=")


def _base64_whole(r: dict) -> str:
    """`base64 -w0` of a file whose length is a multiple of three bytes: no `=` at its end."""
    data = (_line(r) + "\n").encode()
    return base64.b64encode(data + b" " * (-len(data) % 3)).decode()


def _od(r: dict) -> str:
    """`od -An -tx1` of the record's line: sixteen bytes a line, each after a space."""
    data = _line(r).encode()
    return "".join("".join(f" {b:02x}" for b in data[i:i + 16]) + "\n" for i in range(0, len(data), 16))


def _ascii(chunk: bytes) -> str:
    return "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)


def _format_hex(r: dict) -> str:
    """Windows PowerShell's `Format-Hex` of the record's line: a header of columns, 8-digit offsets in upper case,
    sixteen bytes a line, the bytes as characters (outside ASCII, dots)."""
    data = _line(r).encode()
    head = "           " + " ".join(f"{k:02X}" for k in range(16)) + "\n\n"
    return head + "".join(f"{i:08X}   " + " ".join(f"{b:02X}" for b in data[i:i + 16]).ljust(47) + "  "
                          + _ascii(data[i:i + 16]) + "\n" for i in range(0, len(data), 16))


def _wireshark(r: dict) -> str:
    """Wireshark's "Copy as Hex Dump" of a packet's bytes: 4-digit offsets, sixteen bytes a line, then characters."""
    data = _line(r).encode()
    return "".join(f"{i:04x}  " + " ".join(f"{b:02x}" for b in data[i:i + 16]).ljust(47) + "   "
                   + _ascii(data[i:i + 16]) + "\n" for i in range(0, len(data), 16))


def _go_hex(r: dict) -> str:
    """Go's `fmt.Printf("% X", b)`: the bytes in upper-case hex, a space apart, on one line."""
    return " ".join(f"{b:02X}" for b in _line(r).encode())


def _colon_hex(r: dict) -> str:
    """Python's `data.hex(":")`."""
    return _line(r).encode().hex(":")


FORMS_15 = {"yaml_quoted_nested": _yaml_nested, "yaml_quoted_list": _yaml_list, "base64url_unpadded": _base64url,
            "base64_without_padding": _base64_whole, "od_hex_bytes": _od, "go_spaced_hex": _go_hex,
            "colon_hex": _colon_hex, "format_hex": _format_hex, "wireshark_hex_dump": _wireshark}
FORMS = {name: functools.partial(lambda make: [make(RECORD)], make) for name, make in FORMS_15.items()}
#: a header holds one line: these are several
ONE_LINE = {"yaml_quoted_nested", "yaml_quoted_list", "od_hex_bytes", "format_hex", "wireshark_hex_dump"}
#: Cells where the guard does not hold yet (none)
KNOWN_GAPS: dict[str, set] = {}

_SPACED = re.compile(r"(?:0[xX])?[0-9a-fA-F]{2}(?:(?:[ :]|\s+)(?:0[xX])?[0-9a-fA-F]{2}){7,}")
_TOKEN = re.compile(r"[A-Za-z0-9+/_-]{16,}")
_DUMP_LINE = re.compile(r"^[0-9a-fA-F]{4,16} +((?:[0-9a-fA-F]{2} )*[0-9a-fA-F]{2})", re.M)


def _these_15(text: str) -> set[str]:
    """Every run of hex bytes one separator apart decoded, a hex dump's lines' bytes decoded together, every base64
    token decoded with its padding put back."""
    out = {"\n".join(bytes.fromhex(re.sub(r"0[xX]|[^0-9a-fA-F]", "", m.group())).decode("utf-8", "replace")
                     for m in _SPACED.finditer(text)),
           bytes.fromhex("".join(m.group(1) for m in _DUMP_LINE.finditer(text)).replace(" ", "")).decode(
               "utf-8", "replace")}
    for m in _TOKEN.finditer(text):
        token = m.group().replace("-", "+").replace("_", "/")
        try:
            out.add(base64.b64decode(token + "=" * (-len(token) % 4)).decode("utf-8"))
        except ValueError:
            continue
    return out


def leaks(sent: dict) -> list[str]:
    """Walk 13's reader, and this walk's readings of every string sent."""
    found = set(leaks_13(sent))
    texts = [sent["query"], *(v for _, v in sent["header_list"]), json.dumps(sent["body"], ensure_ascii=False)]
    strings = _strings(sent["body"])
    for text in [*texts, *strings, "".join(strings)]:
        for reading in _these_15(text):
            found |= set(leaks_13({"body": {"t": reading}, "header_list": [], "query": ""}))
    return sorted(found)


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


#: The walk's cells of its forms (`guard_forms_matrix.py --walk 15`) and its three tests (walk 1's `walk_tests`)
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)

test_near_misses_go_out_untouched = near_misses_test(FORMS_15, NEAR)

#: Texts these forms' readings could take for a value, and must not: no finding, forwarded as sent
NEAR_TEXTS = {
    "fingerprint": "SHA256 Fingerprint=" + ":".join(f"{b:02X}" for b in bytes(range(200, 232))),
    "mac_address": "link/ether 3c:22:fb:13:92:28 brd ff:ff:ff:ff:ff:ff",
    "two_digit_table": "scores: 13 92 28 83 36 61 10 10 51 98 80 31",
    "random_base64": "nonce " + base64.b64encode(bytes(range(7, 250, 9))).decode().rstrip("="),
    "python_continued": 'send("lena.hart"\n     "mann@example.com", "José Nuño")',
    "yaml_near": yaml.dump({"customer": NEAR}, default_style='"'),
}


@pytest.mark.parametrize("near", sorted(NEAR_TEXTS))
def test_a_near_text_goes_out_untouched(proxy, near):
    mode, app, client, store = proxy
    text = NEAR_TEXTS[near]
    seen = len(app.state.requests)
    answer = client.post(f"/e/near15-{near}/v1/chat/completions",
                         json={"model": "echo", "messages": [{"role": "user", "content": text}]})
    [sent], [record] = app.state.requests[seen:], store.records(f"near15-{near}")
    assert (answer.status_code, record.findings, record.redactions) == (200, [], 0)
    assert sent["body"]["messages"][0]["content"] == text


def test_python_literals_continued_across_lines_are_still_joined(proxy):
    """A value cut into adjacent literals in source (`("lena.hart"⏎    "mann@example.org")`, a call's argument) is
    still read whole: only a literal that is a mapping's key starts anew."""
    mode, app, client, store = proxy
    text = 'notify(to=("lena.hart"\n            "mann@example.org"), body="hi")'
    answer = client.post("/e/continued/v1/chat/completions",
                         json={"model": "echo", "messages": [{"role": "user", "content": text}]})
    [record] = store.records("continued")
    assert {f["unit_id"] for f in record.findings} == {u.id for u in UNITS if u.field == "email"}
    assert answer.status_code == (403 if mode == "block" else 200)


# --- Azure OpenAI's paths -------------------------------------------------------------------------------------------

_AZURE_TEXT = _line(RECORD)
#: request → (path with its query, body, the dialect it is read as): `AzureOpenAI(azure_endpoint=<the proxy>)` sends
#: to a deployment with an `api-version`; the v1 API (`OpenAI(base_url=<endpoint>/openai/v1)`) to `/openai/v1/…`
AZURE = {
    "deployment.chat": ("/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21",
                        {"messages": [{"role": "user", "content": _AZURE_TEXT}]}, "openai-chat"),
    "deployment.chat.stream": ("/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21",
                               {"model": "echo", "stream": True,
                                "messages": [{"role": "user", "content": _AZURE_TEXT}]}, "openai-chat"),
    "deployment.embeddings": ("/openai/deployments/text-embedding-3-small/embeddings?api-version=2024-10-21",
                              {"input": ["Row 1", _AZURE_TEXT]}, "openai-embeddings"),
    "v1.responses": ("/openai/v1/responses", {"model": "gpt-4.1", "input": _AZURE_TEXT}, "openai-responses"),
}


def azure_outcome(proxy, request: str) -> str:
    """"held" where every unit is found and the request is read as its OpenAI dialect; in redact mode it reaches the
    stand-in at its own path and query with no value, stored so, a streamed answer's values restored for the client;
    in block mode it is refused with nothing forwarded (it got a 404 before, never forwarded nor usable)."""
    mode, app, client, store = proxy
    path, body, api = AZURE[request]
    episode = f"azure-{request.replace('.', '-')}"
    try:
        seen = len(app.state.requests)
        answer = client.post(f"/e/{episode}{path}", json=body)
        sent, [record] = app.state.requests[seen:], store.records(episode)
        assert {f["unit_id"] for f in record.findings} == UNIT_IDS and record.api == api, record.api
        if mode == "block":
            assert answer.status_code == 403 and sent == []
            return "held"
        [forwarded] = sent
        assert answer.status_code == 200 and leaks(forwarded) == [] and record.redactions >= 1
        assert f"{forwarded['path']}?{forwarded['query']}".rstrip("?") == path and record.path == path
        assert leaks({"body": record.request, "header_list": [], "query": ""}) == []
        if body.get("stream"):
            events = [json.loads(line[6:]) for line in answer.text.splitlines() if line.startswith("data: {")]
            text = "".join((c.get("delta") or {}).get("content") or "" for e in events for c in e.get("choices", []))
            assert _AZURE_TEXT in text, text
    except (AssertionError, TypeError, ValueError, KeyError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("request_", sorted(AZURE))
def test_a_value_in_an_azure_openai_request_is_held(proxy, request_):
    assert azure_outcome(proxy, request_) == "held"


def test_an_azure_request_without_a_value_is_forwarded_as_sent(proxy):
    mode, app, client, store = proxy
    path, body, api = AZURE["deployment.chat"]
    body = {"messages": [{"role": "user", "content": _line(NEAR)}]}
    seen = len(app.state.requests)
    answer = client.post(f"/e/azure-near{path}", json=body)
    [sent] = app.state.requests[seen:]
    assert answer.status_code == 200 and sent["body"] == body and f"{sent['path']}?{sent['query']}" == path


#: The walk's groups of cells (`benchmarks/guard_forms_matrix.py --walk 15` counts them)
GROUPS = {"Azure OpenAI paths": ([(request,) for request in AZURE], azure_outcome)}


# --- a resumable upload abandoned: its held chunks bounded -----------------------------------------------------------

def _start(client, episode: str) -> str:
    """A resumable upload's session path (under the proxy's root), its `start` sent as `episode`."""
    start = client.post(f"/e/{episode}/upload/v1beta/files", json={"file": {"display_name": "crm-export.txt"}},
                        headers={"x-goog-upload-protocol": "resumable", "x-goog-upload-command": "start"})
    return start.headers["x-goog-upload-url"].split(f"/e/{episode}", 1)[1]


def _chunk(client, episode: str, path: str, data: bytes, offset: int, last: bool):
    return client.post(f"/e/{episode}{path}", content=data, headers={
        "x-goog-upload-command": "upload, finalize" if last else "upload", "x-goog-upload-offset": str(offset)})


@pytest.fixture(params=["redact", "block"])
def bounded(request, standin, tmp_path):
    """A proxy holding resumable uploads' chunks `held_upload_s=0` (each dropped once any request comes after it)
    or `held_upload_bytes=100`, as the test asks (`bounded(**bounds)`): (mode, stand-in app, client, store)."""
    app, upstream = standin

    def make(**bounds):
        return enforcing_client(upstream, tmp_path, UNITS, request.param, **bounds)

    return request.param, app, make


def _dropped(store, episode: str) -> list:
    """The records of the episode's uploads dropped (not those of a chunk refused after)."""
    return [r for r in store.records(episode) if r.status == 410 and "bytes held, none forwarded" in (r.error or "")]


def test_an_abandoned_upload_is_dropped_past_its_age_and_a_later_chunk_refused(bounded):
    """A phone number cut across two chunks: the first is held, the upload abandoned past the age bound; the next
    request drops it (recorded: 410, none forwarded), and its second chunk is refused, not forwarded alone."""
    mode, app, make = bounded
    content = _line(RECORD).encode()
    cut = content.index(RECORD["phone"].encode()) + 5
    with make(held_upload_s=0) as (client, store):
        path = _start(client, "aged-start")
        seen = len(app.state.requests)
        first = _chunk(client, "aged", path, content[:cut], 0, last=False)
        later = _chunk(client, "aged", path, content[cut:], cut, last=True)
        assert first.status_code == 200 and later.status_code == 410
        assert "dropped" in later.json()["error"]["message"] and app.state.requests[seen:] == []
        [drop] = _dropped(store, "aged")
        [refused] = [r for r in store.records("aged") if r is not drop and r.id != drop.id]
        assert drop.request is None and f"{cut} bytes held" in drop.error and refused.status == 410
        # the file sent again whole, from offset 0, is read and audited as any upload
        again = _chunk(client, "aged-again", path, content, 0, last=True)
        [record] = store.records("aged-again")
        assert {f["unit_id"] for f in record.findings} == UNIT_IDS
        assert again.status_code == (403 if mode == "block" else 200)


def test_held_chunks_over_the_byte_bound_drop_the_oldest_upload(bounded):
    """Two uploads' first chunks, 60 bytes each, under a 100-byte bound: the older is dropped (recorded), its last
    chunk refused; the newer completes, forwarded whole."""
    mode, app, make = bounded
    older, newer = _line(RECORD).encode()[:120], _line(NEAR).encode()[:120]
    with make(held_upload_bytes=100) as (client, store):
        paths = [_start(client, "older-start"), _start(client, "newer-start")]
        seen = len(app.state.requests)
        assert _chunk(client, "older", paths[0], older[:60], 0, last=False).status_code == 200
        assert _chunk(client, "newer", paths[1], newer[:60], 0, last=False).status_code == 200
        assert len(_dropped(store, "older")) == 1
        refused = _chunk(client, "older", paths[0], older[60:], 60, last=True)
        done = _chunk(client, "newer", paths[1], newer[60:], 60, last=True)
        [sent] = app.state.requests[seen:]
        assert refused.status_code == 410 and done.status_code == 200 and sent["raw"] == newer
        too_big = _chunk(client, "big", _start(client, "big-start"), b"x" * 101, 0, last=False)
        assert too_big.status_code == 413 and app.state.requests[seen + 2:] == []


def test_uploads_within_the_bounds_are_held_and_forwarded_whole(bounded):
    """The default bounds: two uploads interleaved, chunk by chunk, each forwarded whole, nothing dropped."""
    mode, app, make = bounded
    files = [_line(NEAR).encode(), ("notes: " + _line(NEAR)).encode()]
    with make() as (client, store):
        paths = [_start(client, f"both-{i}-start") for i in range(2)]
        seen = len(app.state.requests)
        for i in range(2):
            assert _chunk(client, f"both-{i}", paths[i], files[i][:50], 0, last=False).status_code == 200
        for i in range(2):
            assert _chunk(client, f"both-{i}", paths[i], files[i][50:], 50, last=True).status_code == 200
        assert [s["raw"] for s in app.state.requests[seen:]] == files
        assert all(r.status == 200 for i in range(2) for r in store.records(f"both-{i}"))


# --- an error the upstream sends mid-stream ------------------------------------------------------------------------

#: stream → (path, request body): the stand-in's `fault-error` model sends the API's error event after two events
ERROR_STREAMS = {
    "ollama.chat": ("/api/chat", {"model": "fault-error", "messages": [{"role": "user", "content": "Hi there"}]}),
    "ollama.generate": ("/api/generate", {"model": "fault-error", "prompt": "Say something long"}),
    "openai.chat": ("/v1/chat/completions", {"model": "fault-error", "stream": True,
                                             "messages": [{"role": "user", "content": "Say something long"}]}),
    "anthropic.messages": ("/v1/messages", {"model": "fault-error", "stream": True, "max_tokens": 64,
                                            "messages": [{"role": "user", "content": "Say something long"}]}),
    "openai.responses": ("/v1/responses", {"model": "fault-error", "stream": True, "input": "Say something long"}),
    "gemini.stream": ("/v1beta/models/fault-error:streamGenerateContent?alt=sse",
                      {"contents": [{"role": "user", "parts": [{"text": "Say something long"}]}]}),
}


@pytest.mark.parametrize("stream", sorted(ERROR_STREAMS))
def test_an_error_sent_mid_stream_is_the_records_error(proxy, stream):
    mode, app, client, store = proxy
    path, body = ERROR_STREAMS[stream]
    episode = f"stream-error-{stream.replace('.', '-')}"
    with client.stream("POST", f"/e/{episode}{path}", json=body) as answer:
        text = answer.read().decode()
    [record] = store.records(episode)
    assert answer.status_code == 200 and "scripted stand-in error mid-stream" in text
    assert "upstream sent an error mid-stream: scripted stand-in error mid-stream" in (record.error or ""), record.error


@pytest.mark.parametrize("stream", ["ollama.chat", "openai.chat", "anthropic.messages"])
def test_a_stream_without_an_error_has_none_recorded(proxy, stream):
    mode, app, client, store = proxy
    path, body = ERROR_STREAMS[stream]
    episode = f"stream-fine-{stream.replace('.', '-')}"
    with client.stream("POST", f"/e/{episode}{path}", json={**body, "model": "echo"}) as answer:
        answer.read()
    [record] = store.records(episode)
    assert answer.status_code == 200 and record.error is None and record.stream
