"""Property (issue 32, "done when"): whatever request an agent sends — any of the APIs' endpoints, streamed or
not, a unit value at any position (system, user text, a value split across two text parts, tool arguments
and results, metadata, a header, a query parameter), repeated keys, odd numbers and characters, compressed
bodies — over loopback HTTP to the recording stand-in upstream:

  redact forwards no unit value; block forwards nothing that holds one; observe records exactly what it
  forwarded; every request gets a record and an answer below 500 (the upstream here never fails).

Bounded and derandomized. Forms only the detection issue teaches the detectors (escapes, glued labels,
zero-width characters) are in `test_detection_forms_are_redacted`, an expected failure until then."""

import gzip
import json
import zlib
from urllib.parse import unquote

import httpx
import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from intercept_helpers import UNITS, running_proxy, wait_for_records
from test_intercept_properties import SURFACES, leaks

SETTINGS = settings(max_examples=60, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))
filler = st.text(alphabet="abcyz ABC你好，。:_-", max_size=8)  # no digits, no mask characters
POSITIONS = ("system", "user", "split", "tool_args", "tool_result", "metadata", "header", "query", "nowhere")
ODD = ("none", "duplicate", "surrogate", "bigint")
ENCODINGS = {"identity": lambda b: b, "gzip": gzip.compress, "deflate": zlib.compress,
             "zstd": zstandard.ZstdCompressor().compress}


def _halves(value: str) -> tuple[str, str]:
    cut = max(1, len(value) // 2)
    return value[:cut], value[cut:]


@st.composite
def requests(draw):
    api = draw(st.sampled_from(["chat", "responses", "anthropic", "embeddings", "completions", "count_tokens"]))
    position = draw(st.sampled_from(POSITIONS))
    value = draw(st.sampled_from(SURFACES))
    before, after = draw(filler), draw(filler)
    secret = f"{before} {value} {after}"
    text = {p: (secret if p == position else draw(filler) or "ok") for p in POSITIONS}
    head, tail = _halves(value) if position == "split" else (draw(filler), draw(filler))
    parts = [{"type": "text", "text": f"{before} {head}"}, {"type": "text", "text": f"{tail} {after}"}]
    args = json.dumps({"note": text["tool_args"]}, ensure_ascii=False)
    stream = draw(st.booleans()) and api in ("chat", "responses", "anthropic")
    if api == "chat":
        path, body = "/v1/chat/completions", {"model": "echo", "messages": [
            {"role": "system", "content": text["system"]},
            {"role": "user", "content": [*parts, {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
                                         {"type": "text", "text": text["user"]}]},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "send", "arguments": args}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": text["tool_result"]}]}
    elif api == "responses":
        parts = [{**p, "type": "input_text"} for p in parts]
        path, body = "/v1/responses", {"model": "echo", "instructions": text["system"], "input": [
            {"role": "user", "content": [*parts, {"type": "input_text", "text": text["user"]}]},
            {"type": "function_call", "call_id": "call_1", "name": "send", "arguments": args},
            {"type": "function_call_output", "call_id": "call_1", "output": text["tool_result"]}]}
    elif api in ("anthropic", "count_tokens"):
        path = "/v1/messages" if api == "anthropic" else "/v1/messages/count_tokens"
        body = {"model": "echo", "max_tokens": 20, "system": text["system"], "messages": [
            {"role": "user", "content": [*parts, {"type": "text", "text": text["user"]}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "send",
                                               "input": json.loads(args)}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                          "content": text["tool_result"]}]}]}
    else:
        texts = [text["user"], text["system"], text["tool_result"], text["tool_args"],
                 parts[0]["text"] + parts[1]["text"]]
        path, body = (("/v1/embeddings", {"model": "emb", "input": texts}) if api == "embeddings"
                      else ("/v1/completions", {"model": "echo", "prompt": texts}))
    body["metadata"] = {"note": text["metadata"]}
    if stream:
        body["stream"] = True
    headers = {"x-agent-note": text["header"].strip().encode() or b"ok", "authorization": "Bearer sk-client"}
    params = {"ref": text["query"]}
    raw = json.dumps(body, ensure_ascii=False).encode()
    odd = draw(st.sampled_from(ODD))
    if odd == "duplicate":
        raw = raw.replace(b'"model":', b'"model": "echo", "model":', 1)
    elif odd == "surrogate":
        raw = raw.replace(b'"metadata": {"note": "', b'"metadata": {"note": "\\udc00', 1)
    elif odd == "bigint":
        raw = raw.replace(b'"metadata":', b'"n": ' + b"7" * 4400 + b', "metadata":', 1)
    encoding = draw(st.sampled_from(sorted(ENCODINGS)))
    if encoding != "identity":
        headers["content-encoding"] = encoding
    return path, ENCODINGS[encoding](raw), headers, params, position, odd


def _forwarded_text(sent: dict) -> list:
    """What the upstream received, decoded as it would read it: body, headers (UTF-8) and query."""
    raw_headers = [[k, v.encode("latin-1").decode("utf-8", "replace")] for k, v in sent["header_list"]]
    return [sent["body"], raw_headers, unquote(sent["query"])]


@pytest.fixture(scope="module", params=["observe", "redact", "block"])
def proxy(request, standin, tmp_path_factory):
    app, upstream = standin
    with running_proxy(upstream, tmp_path_factory.mktemp(request.param) / "s.sqlite", units=UNITS,
                       enforce=request.param) as (_, url, store), httpx.Client(base_url=url, timeout=30) as client:
        yield request.param, app, client, store


@SETTINGS
@given(case=requests())
def test_the_guard_holds_for_every_request_shape(proxy, case):
    mode, app, client, store = proxy
    path, content, headers, params, position, odd = case
    seen, records = len(app.state.requests), len(store.records())
    answer = client.post(path, content=content, headers=headers, params=params)
    sent = app.state.requests[seen:]
    assert answer.status_code < 500, answer.text
    assert len(wait_for_records(store, records + 1)) == records + 1  # every request, one record
    record = store.records()[-1]
    assert record.status == answer.status_code and record.state == "complete"
    if odd != "none":  # two readers could read it differently: refused, nothing forwarded
        assert answer.status_code == 400 and sent == [], answer.text
        return
    holds = position != "nowhere"
    if mode == "block" and holds:
        assert answer.status_code == 403 and sent == [], answer.text
        return
    assert answer.status_code == 200, answer.text
    [forwarded] = sent
    if mode == "redact":
        assert leaks(_forwarded_text(forwarded)) == [], (position, forwarded)
        assert (record.redactions > 0) == holds
    if mode == "observe":
        # the body as forwarded, less the usage the proxy asks for on a chat stream's behalf
        assert record.request == {k: v for k, v in forwarded["body"].items() if k != "stream_options"}
        recorded = {n: v for n, v in record.headers}
        assert recorded["x-agent-note"] == headers["x-agent-note"].decode()
        assert record.path.endswith("?" + forwarded["query"]) and bool(record.findings) == holds


#: Forms real tool output carries (issue 33, `detect/forms/`): the proxy redacts what `audit` finds.
ESCAPED = "stdout:\\n13922883366\\n"  # a literal backslash-n before and after, as tool output logs it
DETECTION_FORMS = {
    "escape": ESCAPED,
    "glued_label": "tel13922883366",
    "glued_suffix": "8613922883366@s.whatsapp.net",
    "zero_width": "139\u200b2288\u200b3366",
    "soft_hyphen": "139\u00ad2288\u00ad3366",
}


@pytest.mark.parametrize("form", sorted(DETECTION_FORMS))
def test_detection_forms_are_redacted(standin, tmp_path, form):
    app, upstream = standin
    seen = len(app.state.requests)
    body = {"model": "echo", "messages": [{"role": "tool", "tool_call_id": "c", "content": DETECTION_FORMS[form]}]}
    with running_proxy(upstream, tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, _store):
        assert httpx.post(f"{url}/v1/chat/completions", json=body, timeout=20).status_code == 200
    [sent] = app.state.requests[seen:]
    forwarded = sent["body"]["messages"][0]["content"]
    assert "1392288" not in forwarded.replace("\u200b", "").replace("\u00ad", "")
