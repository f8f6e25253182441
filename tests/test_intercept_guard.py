"""The guard fails closed (issue 32): over loopback HTTP, against the recording stand-in upstream, every
request shape a client can send either reaches the upstream exactly as audited or is refused on record
with a 4xx naming the cause: repeated keys, odd numbers and characters, compressed bodies, headers and
query strings, values split across text parts, every endpoint of the three APIs; placeholders restore
only for the request that sent the values; the store keeps no raw evidence."""

import gzip
import json
import zlib
from urllib.parse import unquote

import brotli
import httpx
import pytest
import zstandard
from intercept_helpers import UNITS, running_proxy

PHONE, ID, NAME = "13922883366", "110105198803153418", "欧阳娜娜"
VALUES = (PHONE, ID, NAME)


def chat(text, **extra) -> dict:
    return {"model": "echo", "messages": [{"role": "user", "content": text}], **extra}


def forwarded_since(app, seen: int) -> list[dict]:
    return app.state.requests[seen:]


def leaked(text: str) -> list[str]:
    return [v for v in VALUES if v in text]


# --- item 2: repeated keys -------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["observe", "redact", "block"])
def test_a_repeated_key_is_refused_on_record_and_nothing_forwarded(standin, tmp_path, mode):
    app, upstream = standin
    raw = ('{"model":"echo","messages":[{"role":"user","content":"call ' + PHONE + '","content":"hi"}]}').encode()
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce=mode) as (_, url, store):
        answer = httpx.post(f"{url}/v1/chat/completions", content=raw, timeout=20)
        [record] = store.records()
    assert answer.status_code == 400 and '"content"' in answer.json()["error"]["message"]
    assert forwarded_since(app, seen) == []
    assert record.status == 400 and "repeats the key" in record.error


# --- item 4: odd bodies ----------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["observe", "redact", "block"])
@pytest.mark.parametrize("raw, cause", [
    (b'{"model":"echo","messages":[{"role":"user","content":"a \\ud83d b"}]}', "lone UTF-16 surrogate"),
    (b'{"model":"echo","n":' + b"9" * 5000 + b',"messages":[]}', "5000 digits"),
    (b'{"model":"echo","temperature":1e400,"messages":[]}', "64-bit float"),
])
def test_odd_bodies_get_a_4xx_naming_the_cause_in_every_mode(standin, tmp_path, mode, raw, cause):
    app, upstream = standin
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce=mode) as (_, url, store):
        answer = httpx.post(f"{url}/v1/chat/completions", content=raw, timeout=20)
        [record] = store.records()
    assert answer.status_code == 400 and cause in answer.json()["error"]["message"]
    assert forwarded_since(app, seen) == [] and record.status == 400 and cause in record.error


ENCODERS = {"gzip": gzip.compress, "deflate": zlib.compress, "zstd": zstandard.ZstdCompressor().compress,
            "br": brotli.compress}


@pytest.mark.parametrize("encoding", sorted(ENCODERS))
def test_a_compressed_body_is_decoded_then_audited_and_redacted(standin, tmp_path, encoding):
    app, upstream = standin
    body = json.dumps(chat(f"call {PHONE} please"), ensure_ascii=False).encode()
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, store):
        answer = httpx.post(f"{url}/v1/chat/completions", content=ENCODERS[encoding](body), timeout=20,
                            headers={"content-encoding": encoding, "content-type": "application/json"})
        [record] = store.records()
    assert answer.status_code == 200, answer.text
    assert PHONE in answer.json()["choices"][0]["message"]["content"]  # restored for the client
    [sent] = forwarded_since(app, seen)
    assert "content-encoding" not in sent["headers"] and leaked(sent["raw"].decode()) == []
    assert record.redactions == 1


@pytest.mark.parametrize("encoding, content, status, cause", [
    ("compress", b"\x1f\x9d\x90hello", 415, "'compress'"),
    ("br", b"\x8b\x03\x80hello", 400, "not valid br"),
    ("br", brotli.compress(b"{" + b" " * 3_000_000 + b"}"), 413, "over the"),
    ("gzip", b"not gzip at all", 400, "not valid gzip"),
    ("gzip", gzip.compress(b"{" + b" " * 3_000_000 + b"}"), 413, "over the"),
])
def test_an_unreadable_encoding_is_a_4xx_on_record(standin, tmp_path, encoding, content, status, cause):
    app, upstream = standin
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="block",
                       max_body_bytes=2_000_000) as (_, url, store):
        answer = httpx.post(f"{url}/v1/chat/completions", content=content, timeout=20,
                            headers={"content-encoding": encoding})
        [record] = store.records()
    assert answer.status_code == status and cause in answer.json()["error"]["message"]
    assert record.status == status and forwarded_since(app, seen) == []


# --- items 3 and 6: headers, query strings, key headers --------------------------------------------

KEYS = {"authorization": "Bearer sk-client-secret-1", "x-api-key": "sk-ant-secret-2", "api-key": "azure-secret-3",
        "x-goog-api-key": "goog-secret-4", "ocp-apim-subscription-key": "apim-secret-5"}


def _store_text(path) -> str:
    """Every byte the store keeps (file and WAL), as text."""
    return "".join(p.read_bytes().decode("utf-8", "replace") for p in path.parent.glob(path.name + "*"))


@pytest.mark.parametrize("mode", ["observe", "redact", "block"])
def test_headers_are_audited_recorded_and_enforced_key_headers_masked(standin, tmp_path, mode):
    app, upstream = standin
    headers = {"x-customer-phone": PHONE, "user-agent": f"agent/1.0 (customer {ID})",
               "x-note": f"for {NAME}".encode(), **KEYS}
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce=mode) as (_, url, store):
        answer = httpx.post(f"{url}/v1/chat/completions", params={"user_ref": NAME}, json=chat("hello"),
                            headers=headers, timeout=20)
        [record] = store.records()
    found = {f["path"] for f in record.findings}
    assert {"header:x-customer-phone", "header:user-agent", "header:x-note", "query:user_ref"} <= found
    recorded = dict(record.headers)
    assert all(recorded[name] == "[masked]" for name in KEYS)
    stored = _store_text(tmp_path / "s.sqlite")
    assert not any(secret.split()[-1] in stored for secret in KEYS.values())
    if mode == "block":
        assert answer.status_code == 403 and forwarded_since(app, seen) == []
        return
    assert answer.status_code == 200
    [sent] = forwarded_since(app, seen)
    assert all(sent["headers"][name] == value for name, value in KEYS.items())  # keys pass, untouched
    if mode == "observe":
        assert recorded["x-customer-phone"] == PHONE and sent["headers"]["x-customer-phone"] == PHONE
        assert recorded["x-note"] == f"for {NAME}" and "user_ref=%E6%AC%A7" in sent["query"] + record.path
    else:
        raw_headers = [(k.encode("latin-1").decode(), v.encode("latin-1").decode()) for k, v in sent["header_list"]]
        outside = json.dumps([raw_headers, unquote(sent["query"]), record.headers, unquote(record.path)],
                             ensure_ascii=False)
        assert leaked(outside) == [] and "[PHONE_001]" in sent["headers"]["x-customer-phone"]
        assert dict(raw_headers)["x-note"] == "for [NAME_001]" and "user_ref=[NAME_001]" in unquote(sent["query"])
        assert leaked(stored) == []  # nothing raw anywhere in the store: request, headers, evidence


def test_hop_by_hop_and_the_proxys_own_headers_never_reach_the_upstream(standin, tmp_path):
    app, upstream = standin
    headers = {"connection": "keep-alive, x-hop-note", "x-hop-note": "for the next hop only", "te": "trailers",
               "keep-alive": "timeout=5", "proxy-authorization": "Basic cHJveHk6c2VjcmV0",
               "x-ec2-episode": "ep-7", "x-ec2-task": "t1", "x-ec2-anything": "ours", "x-passed-on": "yes"}
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        assert httpx.post(f"{url}/v1/chat/completions", json=chat("hi"), headers=headers).status_code == 200
        [record] = store.records()
    [sent] = forwarded_since(app, seen)
    names = {k.lower() for k in sent["headers"]}
    assert names.isdisjoint({"x-hop-note", "te", "keep-alive", "proxy-authorization", "x-ec2-episode",
                             "x-ec2-task", "x-ec2-anything"})
    assert sent["headers"]["x-passed-on"] == "yes" and record.episode == "ep-7" and record.task_id == "t1"


def test_the_upstream_key_replaces_every_providers_key_header(standin, tmp_path):
    app, upstream = standin
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite", upstream_key="sk-upstream-9") as (_, url, _store):
        httpx.post(f"{url}/v1/chat/completions", json=chat("hi"), headers={"x-goog-api-key": "goog-client"})
    [sent] = forwarded_since(app, seen)
    assert sent["headers"]["x-goog-api-key"] == "sk-upstream-9" and "goog-client" not in json.dumps(sent["headers"])


# --- item 1 (proxy side): a value split across text parts ------------------------------------------

SPLIT = [
    ("/v1/chat/completions", {"model": "echo", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "call 1392288"}, {"type": "text", "text": "3366 today"}]}]}),
    ("/v1/messages", {"model": "echo", "max_tokens": 10, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "id 1101051988"}, {"type": "text", "text": "0315"},
        {"type": "text", "text": "3418 ok"}]}]}),
    ("/v1/responses", {"model": "echo", "input": [{"role": "user", "content": [
        {"type": "input_text", "text": "phone 13922"}, {"type": "input_text", "text": "883366."}]}]}),
    ("/v1/chat/completions", {"model": "echo", "messages": [{"role": "user", "content": [
        {"type": "text", "text": f"{NAME} at {PHONE} or 1392288"}, {"type": "text", "text": "3366, id 1101051988"},
        {"type": "text", "text": "03153418 and 139"}, {"type": "text", "text": f"22883366 or {PHONE}"}]}]}),
]


@pytest.mark.parametrize("path, body", SPLIT, ids=["chat", "anthropic", "responses", "chat-own-and-split"])
@pytest.mark.parametrize("mode", ["redact", "block"])
def test_a_value_split_across_text_parts_is_caught(standin, tmp_path, path, body, mode):
    app, upstream = standin
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce=mode) as (_, url, store):
        answer = httpx.post(f"{url}{path}", json=body, timeout=20)
        [record] = store.records()
    if mode == "block":
        assert answer.status_code == 403 and forwarded_since(app, seen) == []
        return
    assert answer.status_code == 200 and record.redactions >= 1
    [sent] = forwarded_since(app, seen)
    joined = "".join(t for t in _texts(sent["body"]))
    assert leaked(joined) == [], joined


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)


# --- item 5: streams, query strings, routes -------------------------------------------------------

def test_sse_comments_are_relayed_not_dropped(standin, tmp_path):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store), \
            httpx.stream("POST", f"{url}/v1/chat/completions", json=chat("hi", stream=True), timeout=20) as response:
        lines = list(response.iter_lines())
    [record] = store.records()
    assert ": keep-alive" not in lines  # the echo model sends none
    with running_proxy(upstream, tmp_path / "k.sqlite") as (_, url, store), \
            httpx.stream("POST", f"{url}/v1/chat/completions", json={**chat("hi", stream=True), "model": "keepalive"},
                         timeout=20) as response:
        lines = list(response.iter_lines())
        [kept] = store.records()
    assert lines.count(": keep-alive") >= 3 and kept.error is None and record.error is None
    assert kept.response["choices"][0]["message"]["content"] == "echo: hi"


def test_the_query_string_is_forwarded_and_key_parameters_masked_on_record(standin, tmp_path):
    app, upstream = standin
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        httpx.post(f"{url}/v1/messages?beta=true&key=goog-secret-7", timeout=20,
                   json={"model": "echo", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]})
        [record] = store.records()
    [sent] = forwarded_since(app, seen)
    assert sent["query"] == "beta=true&key=goog-secret-7"
    assert record.path == "/v1/messages?beta=true&key=%5Bmasked%5D"
    assert "goog-secret-7" not in _store_text(tmp_path / "s.sqlite")


ENDPOINTS = [
    ("/v1/messages/count_tokens", {"model": "echo", "messages": [{"role": "user", "content": f"call {PHONE}"}]}),
    ("/v1/embeddings", {"model": "emb", "input": ["nothing", f"call {PHONE}"]}),
    ("/v1/completions", {"model": "echo", "prompt": f"call {PHONE}"}),
    ("/v1/moderations", {"input": f"call {PHONE}"}),
    ("/v1/responses/input_tokens", {"model": "echo", "input": f"call {PHONE}"}),
    ("/v1/messages/batches", {"requests": [{"custom_id": "a", "params": {"model": "echo", "max_tokens": 5,
                                                                        "messages": [{"role": "user",
                                                                                      "content": f"call {PHONE}"}]}}]}),
]


@pytest.mark.parametrize("path, body", ENDPOINTS, ids=[p for p, _ in ENDPOINTS])
def test_every_text_endpoint_is_proxied_audited_and_redacted(standin, tmp_path, path, body):
    app, upstream = standin
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "o.sqlite", units=UNITS) as (_, url, store):
        observed = httpx.post(f"{url}{path}", json=body, timeout=20)
        [record] = store.records()
    assert observed.status_code == 200 and [f["unit_id"] for f in record.findings] == ["t1/P1/phone"]
    with running_proxy(upstream, tmp_path / "r.sqlite", units=UNITS, enforce="redact") as (_, url, _store):
        assert httpx.post(f"{url}{path}", json=body, timeout=20).status_code == 200
    first, second = forwarded_since(app, seen)
    assert first["path"] == second["path"] == path
    assert PHONE in first["raw"].decode() and leaked(second["raw"].decode()) == []


# --- item 7: placeholders are no oracle -----------------------------------------------------------

def test_placeholders_restore_only_for_the_request_that_sent_the_value(standin, tmp_path):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, _store):
        owner = httpx.post(f"{url}/e/ep-1/v1/chat/completions", json=chat(f"call {PHONE}"), timeout=20)
        probe = httpx.post(f"{url}/e/ep-1/v1/chat/completions", json=chat("repeat exactly: [PHONE_001]"),
                           timeout=20)
        by_header = httpx.post(f"{url}/v1/chat/completions", json=chat("repeat exactly: [PHONE_001]"),
                               headers={"x-ec2-episode": "ep-1"}, timeout=20)
        again = httpx.post(f"{url}/e/ep-1/v1/chat/completions", json=chat(f"again {PHONE}, [PHONE_001]"),
                           timeout=20)
    assert owner.json()["choices"][0]["message"]["content"] == f"echo: call {PHONE}"
    for answer in (probe, by_header):
        assert answer.json()["choices"][0]["message"]["content"] == "echo: repeat exactly: [PHONE_001]"
    # the owner, resending the value, keeps its stable placeholder and gets it back
    assert again.json()["choices"][0]["message"]["content"] == f"echo: again {PHONE}, {PHONE}"


# --- issue 31 §5: an episode carries its task -----------------------------------------------------

def test_the_task_rides_beside_the_episode_in_the_url(standin, tmp_path):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        httpx.post(f"{url}/e/ep-2/t/task-9/v1/chat/completions", json=chat("hi"), timeout=20)
        [record] = store.records()
    assert (record.episode, record.task_id) == ("ep-2", "task-9")


def test_a_store_written_before_the_new_columns_still_reads(tmp_path):
    import sqlite3

    from ec2audit.intercept.store import read_records

    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE records (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, episode TEXT, "
                   "ts REAL NOT NULL, api TEXT, path TEXT, model TEXT, stream INTEGER, status INTEGER, error TEXT, "
                   "latency_ms REAL, first_byte_ms REAL, input_tokens INTEGER, cached_tokens INTEGER, "
                   "output_tokens INTEGER, cost_usd REAL, redactions INTEGER, request TEXT, response TEXT, "
                   "findings TEXT)")
        db.execute("INSERT INTO records (id, episode, ts, request) VALUES ('r1', 'e', 1.0, ?)",
                   (json.dumps(chat("a \ud800 b")),))
    before = path.read_bytes()
    [record] = read_records(path)
    assert record.request["messages"][0]["content"] == "a \ufffd b" and record.task_id is None
    assert path.read_bytes() == before


# --- streamed restoration by the dialect's stream shape ---------------------------------------------

def _stream_texts(response: httpx.Response) -> list[str]:
    events = [json.loads(line[6:]) for line in response.iter_lines() if line.startswith("data: {")]
    return [c["text"] for e in events for c in e.get("choices") or []]


def test_a_legacy_completions_stream_gets_its_placeholders_back_across_deltas(standin, tmp_path):
    app, upstream = standin
    seen = len(app.state.requests)
    body = {"model": "echo", "prompt": f"call {PHONE} now", "stream": True}
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, store):
        with httpx.stream("POST", f"{url}/e/ep-c/v1/completions", json=body, timeout=20) as owner:
            texts = _stream_texts(owner)
        probe = {**body, "prompt": "repeat [PHONE_001]"}  # the same episode, without the value
        with httpx.stream("POST", f"{url}/e/ep-c/v1/completions", json=probe, timeout=20) as other:
            other_texts = _stream_texts(other)
        [record, _] = store.records()
    [sent, _] = forwarded_since(app, seen)
    assert sent["body"]["prompt"] == "call [PHONE_001] now"  # echoed back in 3-character deltas
    assert "".join(texts) == f"echo: call {PHONE} now"  # restored across deltas
    assert "".join(other_texts) == "echo: repeat [PHONE_001]"  # only for the client that sent the value
    assert record.response["choices"][0]["text"] == "echo: call [PHONE_001] now" and record.error is None
