"""The guard walk's leftovers (session 14, `test_intercept_forms_walk.py`'s "not caught" list), judged as the
walk judges: over loopback HTTP in front of the scripted stand-in upstream, on what the stand-in RECEIVED and on
the store's row."""

from __future__ import annotations

import httpx
import pytest
from intercept_helpers import running_proxy, standin_server
from test_intercept_forms_walk import RECORD, UNITS, leaked

from ec2audit.units import make_unit

OTHER = [make_unit({"task_id": "t1", "entity_id": "P2", "field": "name", "value": v, "dimension": "person_name"})
         for v in ("张伟",)]


@pytest.fixture(scope="module")
def standin():
    yield from standin_server()


@pytest.fixture(scope="module", params=["redact", "block"])
def proxy(request, standin, tmp_path_factory):
    app, upstream = standin
    with running_proxy(upstream, tmp_path_factory.mktemp(request.param) / "s.sqlite", units=[*UNITS, *OTHER],
                       enforce=request.param) as (_, url, store), httpx.Client(base_url=url, timeout=30) as client:
        yield request.param, app, client, store


def _send(proxy, episode: str, body: dict, path: str = "/v1/chat/completions"):
    """(answer, what the stand-in received, the store's row) of one request."""
    mode, app, client, store = proxy
    seen = len(app.state.requests)
    answer = client.post(f"/e/{episode}{path}", json={"model": "echo", **body})
    [record] = store.records(episode)
    return answer, app.state.requests[seen:], record


# --- 1. a spaced or romanised name inside a longer one is another person ---------------------------------

LONGER_NAMES = ["张 伟明", "张 伟 明", "Zhang Wei Ming", "ZHANG WEI-MING"]


@pytest.mark.parametrize("name", LONGER_NAMES)
def test_a_spaced_name_inside_a_longer_one_is_another_person(proxy, name):
    """张伟 (a unit) is not in 张 伟明: the request goes out as it came, and the record finds nothing."""
    text = f"审批人：{name}，请跟进。"
    answer, sent, record = _send(proxy, f"longer-{LONGER_NAMES.index(name)}",
                                 {"messages": [{"role": "user", "content": text}]})
    assert answer.status_code == 200 and record.findings == [] and record.redactions == 0
    assert [m["content"] for m in sent[0]["body"]["messages"]] == [text]


@pytest.mark.parametrize("name", ["张 伟", "张 伟 说", "Zhang Wei"])
def test_the_spaced_name_itself_is_still_caught(proxy, name):
    mode, *_ = proxy
    episode = f"itself-{name.replace(' ', '_')}"
    body = {"messages": [{"role": "user", "content": f"审批人：{name}，请跟进。"}]}
    answer, sent, record = _send(proxy, episode, body)
    assert {f["unit_id"].rsplit("/", 1)[1] for f in record.findings} == {"name"}
    assert any(f["unit_id"] in {u.id for u in OTHER} for f in record.findings)
    if mode == "block":
        assert answer.status_code == 403 and sent == []
    else:
        assert answer.status_code == 200 and "伟" not in str(sent[0]["body"]) and "Wei" not in str(sent[0]["body"])


# --- 2. the model list is a cloud-bound request: recorded, its headers audited, no key on disk ---------------

CLIENT_KEY = "sk-client-9Qe4Wd7Lm2Xr5Tz8"


def test_the_model_list_request_is_recorded(proxy):
    mode, app, client, store = proxy
    seen = len(app.state.listings)
    answer = client.get("/e/listing/v1/models", headers={
        "authorization": f"Bearer {CLIENT_KEY}", "x-api-key": CLIENT_KEY,
        "x-customer-note": f"{RECORD['phone']} {RECORD['email']}".encode()})
    listed = app.state.listings[seen:]
    [record] = store.records("listing")
    assert record.path == "/v1/models" and record.state == "complete" and record.status == answer.status_code
    assert {f["unit_id"].rsplit("/", 1)[1] for f in record.findings} == {"phone", "email"}
    headers = dict(map(tuple, record.headers))
    assert headers["authorization"] == headers["x-api-key"] == "[masked]"
    if mode == "block":
        assert answer.status_code == 403 and listed == [] and record.error.startswith("blocked by ec2audit")
    else:
        assert answer.status_code == 200 and answer.json()["data"] and len(listed) == 1
        assert leaked({"body": {}, "header_list": listed[0]["header_list"], "query": ""}) == []
        assert headers["x-customer-note"] == listed[0]["headers"]["x-customer-note"] == "[PHONE_001] [EMAIL_001]"
    on_disk = b"".join(p.read_bytes() for p in store.path.parent.glob(store.path.name + "*"))
    assert CLIENT_KEY.encode() not in on_disk  # a refused request is recorded as it came, but for its keys
    assert mode == "block" or RECORD["phone"].encode() not in on_disk  # nor the evidence, a pending row's too


def test_a_forwarded_request_leaves_no_value_on_disk(proxy):
    """Redact: the pending row written before forwarding holds the findings' evidence masked too (a row
    rewritten later may still stand in the database file's free pages)."""
    mode, app, client, store = proxy
    answer, sent, record = _send(proxy, "on-disk", {"messages": [{"role": "user", "content": RECORD["phone"]}]})
    assert [f["unit_id"].rsplit("/", 1)[1] for f in record.findings] == ["phone"]
    if mode == "redact":
        assert answer.status_code == 200 and leaked(sent[0]) == []
        on_disk = b"".join(p.read_bytes() for p in store.path.parent.glob(store.path.name + "*"))
        assert RECORD["phone"].encode() not in on_disk
