"""Faults on either side of the interceptor: each gets the right answer to the client, a record that
names the error, and a proxy that keeps serving."""

import json
import socket
import time

import httpx
import openai
import pytest
from intercept_helpers import running_proxy, wait_for_records


def _client(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{url}/v1", api_key="sk-test", max_retries=0, timeout=20)


def _ask(client: openai.OpenAI, model: str, stream: bool = False):
    answer = client.chat.completions.create(model=model, messages=[{"role": "user", "content": "hi"}],
                                            stream=stream)
    return list(answer) if stream else answer


def _still_serves(client: openai.OpenAI) -> bool:
    return _ask(client, "echo").choices[0].message.content is not None


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_upstream_refusing_connections_gives_502(tmp_path):
    with running_proxy(f"http://127.0.0.1:{_closed_port()}/v1", tmp_path / "s.sqlite") as (_, url, store):
        with pytest.raises(openai.APIStatusError) as failed:
            _ask(_client(url), "echo")
        [record] = store.records()
    assert failed.value.status_code == 502 and "unreachable" in failed.value.message
    assert record.status == 502 and "unreachable" in record.error and record.request["model"] == "echo"


def test_upstream_timeout_gives_504(standin, tmp_path):
    app, upstream = standin
    seen = len(app.state.cancelled)
    with running_proxy(upstream, tmp_path / "s.sqlite", read_timeout=0.5) as (_, url, store):
        client = _client(url)
        with pytest.raises(openai.APIStatusError) as failed:
            _ask(client, "fault-hang")  # an answer that never comes: no race against a slow one
        assert _still_serves(client)
        first = store.records()[0]
    assert failed.value.status_code == 504 and first.status == 504 and "time" in first.error
    _wait_cancelled(app, seen)  # and the proxy hung up on the upstream


@pytest.mark.parametrize("stream", [False, True])
def test_upstream_5xx_is_passed_on(standin, tmp_path, stream):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        with pytest.raises(openai.InternalServerError) as failed:
            _ask(_client(url), "fault-500", stream)
        [record] = store.records()
    assert failed.value.status_code == 500 and failed.value.body["message"]  # the upstream's own error body
    assert record.status == 500 and record.error == "upstream answered 500"
    assert record.response["error"] == failed.value.body


def test_upstream_dropping_the_stream_raises_in_the_client(standin, tmp_path):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        client = _client(url)
        with pytest.raises(openai.APIError) as failed:
            _ask(client, "fault-cut", stream=True)
        assert _still_serves(client)
        broken = store.records()[0]
    assert "mid-stream" in failed.value.message
    assert broken.status == 200 and "broke mid-stream" in broken.error
    assert broken.response["choices"][0]["message"]["role"] == "assistant"  # what arrived is kept


def test_malformed_sse_event_is_dropped_and_recorded(standin, tmp_path):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        chunks = _ask(_client(url), "fault-malformed", stream=True)
        [record] = store.records()
    streamed = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert streamed == record.response["choices"][0]["message"]["content"] and streamed
    assert "malformed SSE event" in record.error


def test_client_disconnecting_mid_stream_is_recorded(standin, tmp_path):
    app, upstream = standin
    seen = len(app.state.cancelled)
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        body = {"model": "fault-hang", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
        with httpx.stream("POST", f"{url}/v1/chat/completions", json=body, timeout=10) as response:
            assert response.status_code == 200
            next(response.iter_raw())  # the first event arrives, then the upstream goes quiet
        [record] = wait_for_records(store, 1)
        assert _still_serves(_client(url))
    assert record.error == "client disconnected mid-stream: upstream call cancelled" and record.first_byte_ms > 0
    _wait_cancelled(app, seen)


def _wait_until(condition) -> None:
    """Poll for an event; the deadline only bounds how long a failing test hangs."""
    deadline = time.monotonic() + 20
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)


def _wait_cancelled(app, seen: int) -> None:
    """The stand-in saw its client (the proxy) close the call, well before any read timeout."""
    _wait_until(lambda: len(app.state.cancelled) > seen)
    assert len(app.state.cancelled) == seen + 1


def test_client_giving_up_before_the_answer_cancels_the_upstream_call(standin, tmp_path):
    """The client hangs up once the upstream has its call, as one whose timeout ran out then. Not a 0.5 s read
    timeout: a loaded machine's proxy (its pending record written first) could overrun that before forwarding,
    and the upstream never saw a call to cancel."""
    app, upstream = standin
    seen, asked = len(app.state.cancelled), len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        body = {"model": "fault-hang", "messages": [{"role": "user", "content": "hi"}]}
        raw = json.dumps(body).encode()
        with socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1]))) as client:
            client.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json"
                           b"\r\nContent-Length: %d\r\n\r\n%s" % (len(raw), raw))
            _wait_until(lambda: len(app.state.requests) > asked)
        [record] = wait_for_records(store, 1)
        assert _still_serves(_client(url))
    assert record.status == 499 and "upstream call cancelled" in record.error
    assert record.state == "complete" and record.request == body
    _wait_cancelled(app, seen)


@pytest.mark.parametrize("content,status,reason", [
    (b'{"model": "echo", "messages": [', 400, "not valid JSON"),
    (b'{"model": "echo", "messages": [{"role": "user", "content": "\xff\xfe"}]}', 400, "not UTF-8"),
    (b'["a", "list"]', 400, "must be a JSON object"),
    (b'{"model": "echo", "messages": [{"role": "user", "content": "' + b"x" * 5000 + b'"}]}', 413, "limit"),
])
def test_bad_requests_get_4xx(standin, tmp_path, content, status, reason):
    _, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite", max_body_bytes=4096) as (_, url, store):
        answer = httpx.post(f"{url}/v1/chat/completions", content=content,
                            headers={"content-type": "application/json"})
        chunked = httpx.post(f"{url}/v1/chat/completions", content=iter([content[:10], content[10:]]))
        records = store.records()
    assert answer.status_code == chunked.status_code == status
    assert reason in answer.json()["error"]["message"]
    assert [r.status for r in records] == [status, status] and all(reason in r.error for r in records)
    assert all(r.request is None for r in records)


def test_odd_bodies_are_refused_on_record_naming_the_cause(standin, tmp_path):
    """A lone surrogate is valid JSON but no Unicode text: refused with a 400 naming where, and recorded.
    A non-string model is refused, and recorded."""
    app, upstream = standin
    seen = len(app.state.requests)
    with running_proxy(upstream, tmp_path / "s.sqlite") as (_, url, store):
        surrogate = httpx.post(f"{url}/v1/chat/completions", content=b'{"model": "echo", "messages": '
                               b'[{"role": "user", "content": "a \\ud800 b"}]}')
        odd_model = httpx.post(f"{url}/v1/chat/completions", json={"model": {"a": 1}, "messages": []})
        first, second = store.records()
    assert surrogate.status_code == 400 and len(app.state.requests) == seen
    assert "lone UTF-16 surrogate" in surrogate.json()["error"]["message"]
    assert first.status == 400 and "/messages/0/content" in first.error
    assert odd_model.status_code == 400 and "model" in odd_model.json()["error"]["message"]
    assert second.status == 400 and "model" in second.error


def test_azure_api_key_header_is_replaced_like_the_others(standin, tmp_path):
    app, upstream = standin
    with running_proxy(upstream, tmp_path / "s.sqlite", upstream_key="sk-upstream-azure") as (_, url, _store):
        httpx.post(f"{url}/v1/chat/completions", headers={"api-key": "sk-client-azure"},
                   json={"model": "echo", "messages": [{"role": "user", "content": "hi"}]})
    headers = app.state.requests[-1]["headers"]
    assert headers["api-key"] == "sk-upstream-azure" and "sk-client-azure" not in json.dumps(headers)
