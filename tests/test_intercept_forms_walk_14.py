"""The guard's fourteenth walk (session 25): the third walk's customer record in the requests the proxy never
forwarded before, now read, audited and redacted or blocked:

- the wire APIs whose root is not `/v1` (`dialects.ROOTS`): Ollama's native `/api/chat`, `/api/generate`,
  `/api/embed` (Ollama Cloud: `https://ollama.com/api/…`) and Cohere's `/v2/chat`, `/v2/embed`, `/v2/rerank`, each
  in the request positions its API defines (messages, prompt, system, suffix, images, tools, documents, texts…),
  forwarded to the same path on the upstream's origin (they got a 404);
- Gemini's multipart upload (`/upload/v1beta/files?uploadType=multipart`, `multipart/related`: a JSON metadata part
  and the file's bytes), forwarded rebuilt in a boundary of its own (it got a 404, and a 400 under `/v1`);
- Gemini's resumable upload, google-genai's `files.upload`: the session URL the upstream answers the `start` with
  (`X-Goog-Upload-URL`) named the upstream, so the file's bytes went to it past the proxy; it names the proxy now,
  and the `upload` request's body, the file itself, is read as a form's file is;
- `application/x-www-form-urlencoded` bodies: their key/value pairs (they got a 400);
- (second part) Gemini's `/v1beta`, google-genai's default API version (`/v1beta/models/{m}:generateContent`,
  `:streamGenerateContent`, `:countTokens`, `:embedContent`, `:batchEmbedContents`, `cachedContents`): a 404, now
  read as `/v1`'s Gemini calls are, its usage and cost recorded alike;
- (second part) Ollama's default answer, an NDJSON stream: relayed whole, recorded as no JSON object, its
  placeholders never restored; read line by line now;
- (second part) a resumable upload sent in chunks: a value cut across two went out, half in each; the chunks are
  held until the last now, the file audited whole.

And a form tool output carries, in every request position of the wire APIs (walk 1's cells): a record's values
printed one JSON string a line, as `jq -a '.[]'` and a script's `print(json.dumps(value))` print them (non-ASCII as
`\\u` escapes). `concatenation` joined each line's string to the next as adjacent literals of source code, so the
decoded name ran into its neighbours (`…tY6wJosé Núñez`) and went out; a literal opening a line at its first column
is no continuation now. (Checked against the cascade and read already: quoted-printable bodies with soft line
breaks, a `git log -p` patch line wrapped by `fold`, Java's and Kotlin's `toString`, PHP's `serialize`, Perl's
`Data::Dumper` with `\\x{…}`, RTF's `\\'e9` and `\\uN?`, PyYAML's `yaml.dump` of a long note, `\\` line breaks
and all.)

Judged as the earlier walks judge, over loopback HTTP in front of the scripted stand-in upstream, on what the
stand-in RECEIVED (its own parsers' reading: Starlette's form parser, the standard library's MIME parser) and on the
store's row: redact forwards no value, block forwards nothing. A request without a value reaches the stand-in as it
was sent."""

from __future__ import annotations

import base64
import functools
import json
import urllib.parse

import pytest
from click.testing import CliRunner
from test_intercept_forms_walk import CELLS, assert_held, walk_tests
from test_intercept_forms_walk_2 import near_misses_test
from test_intercept_forms_walk_3 import NEAR, RECORD, UNIT_IDS, UNITS, _line
from test_intercept_forms_walk_13 import leaks

from ec2audit.cli import main
from ec2audit.intercept.redact import PLACEHOLDER
from ec2audit.units import write_units

__all__ = ["CELLS", "FORMS", "GROUPS", "UNITS", "walk_form"]


# --- the form: a record → the text that carries it ----------------------------------------------------------------

def _json_lines(r: dict) -> str:
    """`jq -a 'to_entries[] | .key, .value'` of the record: each key and value one JSON string a line, ASCII only."""
    return "".join(json.dumps(k) + "\n" + json.dumps(v) + "\n" for k, v in r.items())


def _json_values(r: dict) -> str:
    """A script's `for v in row.values(): print(json.dumps(v))`: each value one JSON string a line, ASCII only."""
    return "".join(json.dumps(v) + "\n" for v in r.values())


FORMS_14 = {"jq_ascii_lines": _json_lines, "json_dumps_lines": _json_values}
FORMS = {name: functools.partial(lambda make: [make(RECORD)], make) for name, make in FORMS_14.items()}
#: a header holds one line: these are several
ONE_LINE = set(FORMS_14)
#: Cells where the guard does not hold yet (none)
KNOWN_GAPS: dict[str, set] = {}

#: The walk's cells of its forms (`guard_forms_matrix.py --walk 14`) and its three tests (walk 1's `walk_tests`)
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)

test_near_misses_go_out_untouched = near_misses_test(FORMS_14, NEAR)


# --- the APIs outside /v1 ------------------------------------------------------------------------------------------

TEXT = _line(RECORD)
_B64 = base64.b64encode(TEXT.encode()).decode()


def _requests(text: str, b64: str) -> dict[str, tuple[str, dict]]:
    """request → (path, JSON body), `text` (or its base64 `b64`) in one position each."""
    ollama, cohere, gemini = "/api", "/v2", "/v1beta/models/gemini-2.5-flash"
    return {
        "ollama.chat.user": (f"{ollama}/chat", {"model": "gpt-oss:120b", "messages": [
            {"role": "user", "content": text}]}),
        "ollama.chat.tool": (f"{ollama}/chat", {"model": "gpt-oss:120b", "stream": False, "messages": [
            {"role": "user", "content": "Look the customer up."},
            {"role": "assistant", "content": "", "tool_calls": [
                {"function": {"name": "crm_lookup", "arguments": {"id": "P1"}}}]},
            {"role": "tool", "tool_name": "crm_lookup", "content": text}]}),
        "ollama.chat.images": (f"{ollama}/chat", {"model": "llava", "messages": [
            {"role": "user", "content": "Read this.", "images": [b64]}]}),
        "ollama.chat.tools": (f"{ollama}/chat", {"model": "qwen3", "messages": [{"role": "user", "content": "Hi"}],
                                                 "tools": [{"type": "function", "function": {
                                                     "name": "send", "description": f"Send to {text}",
                                                     "parameters": {"type": "object", "properties": {}}}}]}),
        "ollama.generate.prompt": (f"{ollama}/generate", {"model": "gpt-oss:20b", "prompt": text, "stream": False}),
        "ollama.generate.system": (f"{ollama}/generate", {"model": "gpt-oss:20b", "prompt": "Summarise.",
                                                          "system": text}),
        "ollama.generate.suffix": (f"{ollama}/generate", {"model": "codellama:code", "prompt": "def f():",
                                                          "suffix": f"# {text}"}),
        "ollama.embed.input": (f"{ollama}/embed", {"model": "embeddinggemma", "input": ["Row 1", text]}),
        "cohere.chat.user": (f"{cohere}/chat", {"model": "command-a-03-2025", "messages": [
            {"role": "user", "content": [{"type": "text", "text": text}]}]}),
        "cohere.chat.documents": (f"{cohere}/chat", {"model": "command-a-03-2025", "messages": [
            {"role": "user", "content": "Who is the customer?"}],
            "documents": [{"id": "crm-1", "data": {"title": "CRM row", "snippet": text}}]}),
        "cohere.chat.tool": (f"{cohere}/chat", {"model": "command-a-03-2025", "messages": [
            {"role": "user", "content": "Look the customer up."},
            {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {
                "name": "crm_lookup", "arguments": "{\"id\": \"P1\"}"}}], "tool_plan": "I will look it up."},
            {"role": "tool", "tool_call_id": "call_1", "content": [
                {"type": "document", "document": {"data": json.dumps({"row": text}, ensure_ascii=False)}}]}]}),
        "cohere.embed.texts": (f"{cohere}/embed", {"model": "embed-v4.0", "input_type": "search_document",
                                                   "embedding_types": ["float"], "texts": [text]}),
        "cohere.rerank.documents": (f"{cohere}/rerank", {"model": "rerank-v3.5", "query": "the customer's phone",
                                                         "documents": ["Unrelated.", text]}),
        **{f"gemini.v1beta.{name}": (f"{gemini}{path}", body) for name, (path, body) in {
            "generate.contents": (":generateContent", {"contents": [{"role": "user", "parts": [{"text": text}]}]}),
            "generate.system": (":generateContent", {"systemInstruction": {"parts": [{"text": text}]},
                                                     "contents": [{"role": "user", "parts": [{"text": "Hi"}]}]}),
            "stream.contents": (":streamGenerateContent", {"contents": [{"role": "user", "parts": [{"text": text}]}]}),
            "count_tokens": (":countTokens", {"contents": [{"parts": [{"text": text}]}]}),
            "embed": (":embedContent", {"content": {"parts": [{"text": text}]}}),
            "batch_embed": (":batchEmbedContents", {"requests": [
                {"model": "models/gemini-embedding-001", "content": {"parts": [{"text": text}]}}]}),
        }.items()},
        "gemini.v1beta.cached_contents": ("/v1beta/cachedContents", {
            "model": "models/gemini-2.5-flash", "contents": [{"role": "user", "parts": [{"text": text}]}]}),
    }


REQUESTS = _requests(TEXT, _B64)


def request_outcome(proxy, request: str) -> str:
    """"held" where the request has every unit found and, in redact mode, reaches the stand-in at its own path (the
    root kept) with no value and is stored so; in block mode is refused with nothing forwarded."""
    path, body = REQUESTS[request]
    try:
        sent = assert_held(proxy, f"root-{request.replace('.', '-')}", path, UNIT_IDS, leaks, json=body)
        if sent is not None:
            assert sent["path"] == path
            [record] = proxy[3].records(f"root-{request.replace('.', '-')}")
            assert record.path == path and leaks({"body": record.request, "header_list": [], "query": ""}) == []
    except (AssertionError, TypeError, ValueError) as e:  # (a 404 has no record: ValueError on unpacking)
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("request_", sorted(REQUESTS))
def test_a_value_in_an_api_outside_v1_is_held(proxy, request_):
    assert request_outcome(proxy, request_) == "held"


def test_an_api_outside_v1_is_recorded_as_its_dialect(proxy):
    mode, app, client, store = proxy
    client.post("/e/root-dialects/api/chat", json=REQUESTS["ollama.chat.user"][1])
    client.post("/e/root-dialects/v2/embed", json=REQUESTS["cohere.embed.texts"][1])
    client.post("/e/root-dialects/api/pull", json={"model": TEXT})  # a route no dialect names: generic
    assert sorted(r.api for r in store.records("root-dialects")) == ["cohere", "generic", "ollama"]


def test_a_gemini_v1beta_answer_has_its_usage_and_cost_recorded(proxy):
    """google-genai's default API version, `/v1beta`, is recorded as `/v1`'s Gemini calls are: the model named in
    the path, the answer's `usageMetadata` as tokens, the price of them."""
    mode, app, client, store = proxy
    body = {"contents": [{"role": "user", "parts": [{"text": "What is new today?"}]}]}
    for version in ("v1", "v1beta"):
        answer = client.post(f"/e/usage-{version}/{version}/models/gemini-2.5-flash:generateContent", json=body)
        assert answer.status_code == 200 and answer.json()["candidates"][0]["content"]["parts"][0]["text"]
    [v1], [v1beta] = store.records("usage-v1"), store.records("usage-v1beta")
    assert v1beta.path == "/v1beta/models/gemini-2.5-flash:generateContent" and v1beta.model == "gemini-2.5-flash"
    assert (v1beta.input_tokens, v1beta.cached_tokens, v1beta.output_tokens, v1beta.cost_usd) == (
        v1.input_tokens, v1.cached_tokens, v1.output_tokens, v1.cost_usd)
    assert v1beta.input_tokens > 0 and v1beta.cost_usd > 0


def test_intercept_audit_reads_the_apis_outside_v1(proxy, tmp_path):
    """`ec2audit intercept audit` re-reads every stored request of those APIs that reached the cloud (an Ollama
    `prompt` is no chat body; a blocked request reached nothing)."""
    mode, app, client, store = proxy
    for request in ("ollama.generate.prompt", "cohere.rerank.documents"):
        path, body = REQUESTS[request]
        client.post(f"/e/reaudit{path}", json=body)
    units = tmp_path / "units.jsonl"
    write_units(UNITS, units)
    result = CliRunner().invoke(main, ["intercept", "audit", str(store.path), "--units", str(units), "--episode",
                                       "reaudit", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["payloads"] == (0 if mode == "block" else 2)


@pytest.mark.parametrize("request_", sorted(REQUESTS))
def test_a_request_outside_v1_without_a_value_is_forwarded_as_sent(proxy, request_):
    mode, app, client, store = proxy
    path, body = _requests(_line(NEAR), base64.b64encode(_line(NEAR).encode()).decode())[request_]
    seen = len(app.state.requests)
    answer = client.post(f"/e/near-{request_.replace('.', '-')}{path}", json=body)
    [sent] = app.state.requests[seen:]
    assert answer.status_code == 200 and sent["path"] == path and sent["body"] == body


#: Ollama's answers as it streams them by default (NDJSON): api → (path, request, a line's text)
OLLAMA_STREAMS = {
    "chat": ("/api/chat", {"model": "gpt-oss:120b", "messages": [{"role": "user", "content": TEXT}]},
             lambda line: line["message"]["content"]),
    "generate": ("/api/generate", {"model": "gpt-oss:20b", "prompt": TEXT}, lambda line: line["response"]),
}


def ollama_stream_outcome(proxy, api: str) -> str:
    """"held" where block refuses the request, or redact forwards no value and the client gets its values back
    from the NDJSON lines (a placeholder cut across lines), the record keeping the answer assembled (placeholders,
    as the cloud sent it) and its tokens from the `done` line."""
    mode, app, client, store = proxy
    path, body, text_of = OLLAMA_STREAMS[api]
    episode = f"ollama-stream-{api}"
    try:
        if mode == "block":
            assert assert_held(proxy, episode, path, UNIT_IDS, leaks, json=body) is None
            return "held"
        seen = len(app.state.requests)
        answer = client.post(f"/e/{episode}{path}", json=body)
        [sent], [record] = app.state.requests[seen:], store.records(episode)
        lines = [json.loads(line) for line in answer.text.splitlines()]
        text = "".join(map(text_of, lines))
        assert answer.headers["content-type"].startswith("application/x-ndjson") and lines[-1]["done"] is True
        assert TEXT in text and not PLACEHOLDER.search(text) and leaks(sent) == [], text
        assert record.error is None and record.stream and record.redactions >= 1, record.error
        assert (record.input_tokens, record.output_tokens) == (lines[-1]["prompt_eval_count"],
                                                               lines[-1]["eval_count"])
        assert PLACEHOLDER.search(text_of(record.response)) and leaks({"body": record.response, "header_list": [],
                                                                       "query": ""}) == []
    except (AssertionError, TypeError, KeyError, ValueError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("api", sorted(OLLAMA_STREAMS))
def test_an_ollama_ndjson_stream_is_restored_line_by_line_and_its_tokens_recorded(proxy, api):
    assert ollama_stream_outcome(proxy, api) == "held"


# --- Gemini's multipart upload -------------------------------------------------------------------------------------

def _related(metadata: dict, content: bytes, boundary: str) -> bytes:
    """A `multipart/related` body as google-genai's multipart upload writes it."""
    return (f"--{boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n"
            f"{json.dumps(metadata, ensure_ascii=False)}\r\n--{boundary}\r\nContent-Type: text/plain\r\n\r\n"
            ).encode() + content + f"\r\n--{boundary}--\r\n".encode()


UPLOAD = "/upload/v1beta/files?uploadType=multipart"
#: upload → (file metadata, the file's bytes)
GEMINI_UPLOADS = {
    "file_bytes": ({"file": {"display_name": "crm-export.txt", "mime_type": "text/plain"}}, TEXT.encode()),
    "display_name": ({"file": {"display_name": f"{RECORD['name']} {RECORD['phone']}.txt"}}, b"see the name"),
}


def gemini_upload_outcome(proxy, upload: str) -> str:
    """"held" where every unit of the upload is found; in redact mode it reaches the stand-in's MIME parser as two
    parts, with no value, and is stored so; in block mode it is refused with nothing forwarded."""
    metadata, content = GEMINI_UPLOADS[upload]
    boundary = "genai-boundary-0b9c"
    found = {u.id for u in UNITS if u.value in json.dumps(metadata, ensure_ascii=False) + content.decode()}
    try:
        sent = assert_held(proxy, f"gemini-{upload}", UPLOAD, found, leaks,
                           content=_related(metadata, content, boundary),
                           headers={"content-type": f"multipart/related; boundary={boundary}"})
        if sent is not None:
            assert [p["content_type"] for p in sent["body"]["parts"]] == ["application/json", "text/plain"]
            assert json.loads(sent["body"]["parts"][0]["data"])["file"].keys() == metadata["file"].keys()
            assert sent["path"] == "/upload/v1beta/files" and sent["query"] == "uploadType=multipart"
            [record] = proxy[3].records(f"gemini-{upload}")
            assert record.api == "gemini-files"
            assert leaks({"body": record.request, "header_list": [], "query": ""}) == []
    except (AssertionError, TypeError, ValueError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("upload", sorted(GEMINI_UPLOADS))
def test_a_value_in_a_gemini_multipart_upload_is_held(proxy, upload):
    assert gemini_upload_outcome(proxy, upload) == "held"


def test_a_gemini_upload_without_a_value_is_forwarded_as_sent(proxy):
    mode, app, client, store = proxy
    metadata = {"file": {"display_name": "notes.txt"}}
    seen = len(app.state.requests)
    answer = client.post(f"/e/gemini-near{UPLOAD}", content=_related(metadata, _line(NEAR).encode(), "b1"),
                         headers={"content-type": "multipart/related; boundary=b1"})
    [sent] = app.state.requests[seen:]
    assert answer.status_code == 200 and int(sent["headers"]["content-length"]) == len(sent["raw"])
    assert sent["body"] == {"parts": [{"content_type": "application/json", "data": json.dumps(metadata)},
                                      {"content_type": "text/plain", "data": _line(NEAR)}]}


def _session(client, episode: str, metadata: dict) -> str:
    """The session URL of a resumable upload `start` sent through the proxy as `episode`."""
    start = client.post(f"/e/{episode}/upload/v1beta/files", json=metadata, headers={
        "x-goog-upload-protocol": "resumable", "x-goog-upload-command": "start",
        "x-goog-upload-header-content-type": "text/plain"})
    assert start.status_code == 200
    return start.headers["x-goog-upload-url"]


def resumable_upload_outcome(proxy, upload: str) -> str:
    """"held" where the session URL names the proxy (episode prefix kept) and the file sent to it is held: every unit
    found; in redact mode the stand-in gets the file with no value, in block mode nothing."""
    mode, app, client, store = proxy
    content = _line(RECORD).encode("utf-16" if upload == "utf16_file" else "utf-8")
    try:
        session = _session(client, f"resumable-start-{upload}", {"file": {"display_name": "crm-export.txt"}})
        own = f"{client.base_url}".rstrip("/") + f"/e/resumable-start-{upload}"
        assert session.startswith(own + "/upload/v1beta/files?upload_id="), session
        sent = assert_held(proxy, f"resumable-{upload}", session[len(own):], UNIT_IDS, leaks, content=content,
                           headers={"x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": "0"})
        if sent is not None:
            assert sent["query"].startswith("upload_id=") and "[NAME_" in sent["body"]["file"]
            [record] = store.records(f"resumable-{upload}")
            assert leaks({"body": record.request, "header_list": [], "query": ""}) == []
    except (AssertionError, TypeError, KeyError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


RESUMABLE = ("utf8_file", "utf16_file")


@pytest.mark.parametrize("upload", RESUMABLE)
def test_a_value_in_a_gemini_resumable_upload_is_held(proxy, upload):
    assert resumable_upload_outcome(proxy, upload) == "held"


def test_a_gemini_resumable_upload_without_a_value_is_forwarded_as_sent(proxy):
    mode, app, client, store = proxy
    session = _session(client, "resumable-near-start", {"file": {"display_name": "notes.txt"}})
    seen = len(app.state.requests)
    answer = client.post(session, content=_line(NEAR).encode(), headers={"x-goog-upload-command": "upload, finalize"})
    [sent] = app.state.requests[seen:]
    assert answer.status_code == 200 and sent["raw"] == _line(NEAR).encode()


def test_a_value_cut_across_two_chunks_of_a_resumable_upload_is_held(proxy):
    """google-genai sends a file over 8 MiB in chunks (`upload`, then `upload, finalize` at the next offset): a value
    cut across two chunks is audited in the whole file; redact forwards the file once, at offset 0, with no value;
    block forwards none of it."""
    mode, app, client, store = proxy
    content = TEXT.encode()
    cut = content.index(RECORD["phone"].encode()) + 5
    session = _session(client, "resumable-chunks-start", {"file": {"display_name": "crm-export.txt"}})
    path = session[len(f"{client.base_url}".rstrip("/") + "/e/resumable-chunks-start"):]
    seen = len(app.state.requests)
    first = client.post(f"/e/resumable-chunks{path}", content=content[:cut],
                        headers={"x-goog-upload-command": "upload", "x-goog-upload-offset": "0"})
    last = client.post(f"/e/resumable-chunks{path}", content=content[cut:],
                       headers={"x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": str(cut)})
    sent, [record] = app.state.requests[seen:], store.records("resumable-chunks")
    assert first.status_code == 200 and first.headers["x-goog-upload-status"] == "active"
    assert {f["unit_id"] for f in record.findings} == UNIT_IDS
    if mode == "block":
        assert last.status_code == 403 and sent == []
        return
    [whole] = sent
    assert last.status_code == 200 and leaks(whole) == [] and "[PHONE_" in whole["body"]["file"]
    assert (whole["headers"]["x-goog-upload-command"], whole["headers"]["x-goog-upload-offset"]) == (
        "upload, finalize", "0")


def test_a_resumable_upload_chunk_at_an_offset_not_held_is_refused(proxy):
    mode, app, client, store = proxy
    session = _session(client, "resumable-offset-start", {"file": {"display_name": "notes.txt"}})
    seen = len(app.state.requests)
    answer = client.post(session, content=b"notes", headers={"x-goog-upload-command": "upload, finalize",
                                                             "x-goog-upload-offset": "8388608"})
    assert answer.status_code == 400 and "offset 8388608" in answer.json()["error"]["message"]
    assert app.state.requests[seen:] == []


# --- URL-encoded bodies ----------------------------------------------------------------------------------------

#: body → (path, the pairs sent)
URLENCODED = {
    "values": ("/v1/completions", [("model", "echo"), ("prompt", TEXT)]),
    "keys": ("/v1/feedback", [(f"{field}={value}", "1") for field, value in RECORD.items()]),
    "repeated": ("/v1/embeddings", [("model", "echo"), ("input", "Row 1"), ("input", TEXT)]),
}


def urlencoded_outcome(proxy, body: str) -> str:
    """"held" where every unit is found; in redact mode the body reaches the stand-in's form parser with as many
    fields and no value, and is stored so; in block mode it is refused with nothing forwarded."""
    path, pairs = URLENCODED[body]
    try:
        sent = assert_held(proxy, f"urlencoded-{body}", path, UNIT_IDS, leaks, content=urllib.parse.urlencode(pairs),
                           headers={"content-type": "application/x-www-form-urlencoded"})
        if sent is not None:
            assert len(sent["body"]) == len(dict(pairs))
            [record] = proxy[3].records(f"urlencoded-{body}")
            assert leaks({"body": record.request, "header_list": [], "query": ""}) == []
    except (AssertionError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("body", sorted(URLENCODED))
def test_a_value_in_a_urlencoded_body_is_held(proxy, body):
    assert urlencoded_outcome(proxy, body) == "held"


def test_a_urlencoded_body_without_a_value_is_forwarded_as_sent(proxy):
    mode, app, client, store = proxy
    pairs = [("model", "echo"), ("input", "Row 1"), ("input", _line(NEAR)), ("flag", "")]
    seen = len(app.state.requests)
    answer = client.post("/e/urlencoded-near/v1/embeddings", content=urllib.parse.urlencode(pairs),
                         headers={"content-type": "application/x-www-form-urlencoded"})
    [sent] = app.state.requests[seen:]
    assert answer.status_code == 200 and sent["body"] == {"model": "echo", "input": ["Row 1", _line(NEAR)], "flag": ""}


def test_a_urlencoded_body_that_is_not_utf8_is_refused(proxy):
    mode, app, client, store = proxy
    seen = len(app.state.requests)
    answer = client.post("/e/urlencoded-latin1/v1/completions", content="prompt=Jos%E9+N%FA%F1ez",
                         headers={"content-type": "application/x-www-form-urlencoded"})
    [record] = store.records("urlencoded-latin1")
    assert answer.status_code == record.status == 400 and app.state.requests[seen:] == []
    assert "UTF-8" in answer.json()["error"]["message"]


#: The walk's groups of cells (`benchmarks/guard_forms_matrix.py --walk 14` counts them).
GROUPS = {"APIs outside /v1": ([(request,) for request in REQUESTS], request_outcome),
          "Gemini multipart uploads": ([(upload,) for upload in GEMINI_UPLOADS], gemini_upload_outcome),
          "Gemini resumable uploads": ([(upload,) for upload in RESUMABLE], resumable_upload_outcome),
          "URL-encoded bodies": ([(body,) for body in URLENCODED], urlencoded_outcome),
          "Ollama NDJSON streams": ([(api,) for api in OLLAMA_STREAMS], ollama_stream_outcome)}
