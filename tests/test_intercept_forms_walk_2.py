"""The guard walk's leftovers (session 14, `test_intercept_forms_walk.py`'s "not caught" list), judged as the
walk judges: over loopback HTTP in front of the scripted stand-in upstream, on what the stand-in RECEIVED and on
the store's row."""

from __future__ import annotations

import base64
import binascii
import json
import re

import pytest
from intercept_helpers import json_strings
from test_intercept_forms_walk import FORMS, RECORD, UNIT_IDS, UNITS, leaked

from ec2audit.gateway.positions import ANTHROPIC, API_PATHS, APIS, CHAT, RESPONSES
from ec2audit.units import make_unit

OTHER = [make_unit({"task_id": "t1", "entity_id": "P2", "field": "name", "value": v, "dimension": "person_name"})
         for v in ("张伟",)]


GUARDED_UNITS = [*UNITS, *OTHER]


def _send(proxy, episode: str, body: dict, path: str = "/v1/chat/completions"):
    """(answer, what the stand-in received, the store's row) of one request."""
    mode, app, client, store = proxy
    seen = len(app.state.requests)
    answer = client.post(f"/e/{episode}{path}", json={"model": "echo", **body})
    [record] = store.records(episode)
    return answer, app.state.requests[seen:], record


def near_misses_test(forms: dict, near: dict):
    """The near-miss test every later walk runs over its forms, for its module to bind by name: another record of
    the same shape, written in each form, is forwarded as sent with no finding."""

    @pytest.mark.parametrize("form", sorted(forms))
    def test_near_misses_go_out_untouched(proxy, form):
        text = forms[form](near)
        answer, sent, record = _send(proxy, f"near-{form}", {"messages": [{"role": "user", "content": text}]})
        assert (answer.status_code, record.findings, record.redactions) == (200, [], 0)
        assert text in json_strings(sent[0]["body"])

    return test_near_misses_go_out_untouched


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


# --- 3. a value cut across two text parts with an image between them -------------------------------------

_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
IMAGES = {CHAT: {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{_PNG}"}},
          RESPONSES: {"type": "input_image", "image_url": f"data:image/png;base64,{_PNG}"},
          ANTHROPIC: {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": _PNG}}}


def _text_parts(api: str, content: list) -> list[str]:
    return [p["text"] for p in content if p["type"] in ("text", "input_text")]


@pytest.mark.parametrize("api", APIS)
def test_a_value_cut_across_text_parts_with_an_image_between(proxy, api):
    """Every value of the record cut in two, an image between the halves: the model reads the text parts run
    together, and so does the guard."""
    mode = proxy[0]
    kind = "input_text" if api == RESPONSES else "text"
    content = []
    for text in FORMS["split_parts"]():
        content += [{"type": kind, "text": text}, IMAGES[api]]
    body = {"messages": [{"role": "user", "content": content[:-1]}]} if api != RESPONSES else \
        {"input": [{"role": "user", "content": content[:-1]}]}
    if api == ANTHROPIC:
        body["max_tokens"] = 20
    answer, sent, record = _send(proxy, f"image-between-{api}", body, "/v1" + API_PATHS[api])
    assert {f["unit_id"] for f in record.findings} == UNIT_IDS
    if mode == "block":
        assert answer.status_code == 403 and sent == []
        return
    assert answer.status_code == 200 and record.redactions >= len(RECORD)
    [message] = sent[0]["body"]["input" if api == RESPONSES else "messages"]
    assert [p for p in message["content"] if p["type"] not in ("text", "input_text")] == [IMAGES[api]] * 7
    read = "".join(_text_parts(api, message["content"]))
    assert leaked({"body": [read], "header_list": [], "query": ""}) == [] and "[PHONE_001]" in read


def test_text_parts_without_a_split_value_are_found_as_before(proxy):
    """Parts read together add only what spans a cut: a value whole in one part is found once, there."""
    parts = [{"type": "text", "text": f"phone {RECORD['phone']}"}, IMAGES[CHAT], {"type": "text", "text": "ok"}]
    answer, sent, record = _send(proxy, "image-no-split", {"messages": [{"role": "user", "content": parts}]})
    assert [(f["path"], f["start"]) for f in record.findings] == \
        [("/messages/0/content/0/text", 6)]


# --- 4. base64 glued onto an id prefix ---------------------------------------------------------------------

_GLUED_B64 = re.compile(r"(?:call|file)[_-]([A-Za-z0-9+/_-]{8,}={0,2})")


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _after_prefixes(body) -> list[str]:
    """What the base64 runs after an id prefix in a body decode to (the walk's reader takes the prefix and
    the run for one token, which decodes to nothing)."""
    out = []
    for m in _GLUED_B64.finditer(json.dumps(body)):
        token = m.group(1).rstrip("=")
        try:
            out.append(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode())
        except (binascii.Error, ValueError):
            continue
    return out


def test_base64_glued_onto_an_id_prefix_is_read(proxy):
    """A tool-call id minted from the record (`call_<base64 of JSON>`, in the call and in its result) and a file
    id in the text (`file-<base64>`)."""
    mode = proxy[0]
    call_id = "call_" + _b64(json.dumps({k: RECORD[k] for k in ("phone", "national_id")}))
    text = "attached: file-" + _b64(f"{RECORD['email']} {RECORD['iban']}") + " (the customer's export)"
    body = {"messages": [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": call_id, "content": "ok"},
        {"role": "user", "content": text}]}
    assert leaked({"body": _after_prefixes(body), "header_list": [], "query": ""}) == \
        ["email", "iban", "national_id", "phone"]  # the check reads them
    answer, sent, record = _send(proxy, "id-prefixed", body)
    assert {f["unit_id"].rsplit("/", 1)[1] for f in record.findings} == {"email", "iban", "national_id", "phone"}
    if mode == "block":
        assert answer.status_code == 403 and sent == []
    else:
        assert answer.status_code == 200 and record.redactions >= 3
        assert leaked({"body": [*_after_prefixes(sent[0]["body"]), sent[0]["body"]], "header_list": [],
                       "query": ""}) == []


# --- 5. surname and given name in two cells of a row -------------------------------------------------------

CELLS = {"markdown": "| 姓 | 名 | 电话 |\n|---|---|---|\n| 欧阳 | 娜娜 | 139 2288 3366 |",
         "csv": "surname,given_name,phone\n欧阳,娜娜,13922883366\n"}


@pytest.mark.parametrize("table", sorted(CELLS))
def test_a_name_in_two_cells_of_a_row_is_caught(proxy, table):
    mode = proxy[0]
    answer, sent, record = _send(proxy, f"cells-{table}", {"messages": [{"role": "user", "content": CELLS[table]}]})
    assert {f["unit_id"].rsplit("/", 1)[1] for f in record.findings if f["grade"] >= 1.0} == {"name", "phone"}
    if mode == "block":
        assert answer.status_code == 403 and sent == []
    else:
        [message] = sent[0]["body"]["messages"]
        assert answer.status_code == 200 and "娜娜" not in message["content"] and leaked(sent[0]) == []


def test_cells_holding_another_persons_name_are_not_the_name(proxy):
    text = "| 姓 | 名 |\n|---|---|\n| 欧阳 | 娜娜娜 |\n| 张 | 伟明 |"
    answer, sent, record = _send(proxy, "cells-other", {"messages": [{"role": "user", "content": text}]})
    assert answer.status_code == 200 and [f for f in record.findings if f["grade"] >= 1.0] == []
    assert "| 张 | 伟明 |" in sent[0]["body"]["messages"][0]["content"]  # ("娜娜" alone is a fragment, 0.3)
