"""The guard's seventeenth walk (session 27, guard17): what still went through, over loopback HTTP in front of the
scripted stand-in, judged on what the stand-in RECEIVED and on the store's row.

- a value cut across two OpenAI Uploads API parts where only a decoded view shows it (base64 or hex text cut inside
  a run, at any alignment): the seam of the two parts was read from where the kept end began and to where the next
  part's start was cut, so a run's groups fell wrong and it decoded to nothing; the seam is read at every alignment
  now (`intercept/seams.py`);
- a part cut inside a UTF-8 character (the SDK cuts a file every 64 MiB, whatever it holds): each part was no UTF-8
  text, so both were refused as unreadable, and where the seam fell inside a value's last character the value was not
  across it; the cut character's bytes are kept apart now (`form_data._utf8_cut`), the seam reads them whole;
- parts audited in the order they came, where `complete` names the order the file is made in: a value cut across
  two parts sent last-first went out; each seam of `complete`'s order is audited now, a part the proxy did not see
  answered refuses it (409);
- a 301, 302 or 303 (followed by httpx, so the OpenAI SDK, with a GET and every header the client set, unredacted)
  was handed on as it came, to the upstream or another host, past the guard; it is handled as a 307 is now (pointed
  at the proxy on the upstream's origin, refused on another host), on the model list's GET too;
- a file part whose media type declares a charset (`text/plain; charset=gbk`, Latin-1, UTF-16 without a byte order
  mark: refused as unreadable; UTF-7, whose text is ASCII: forwarded unread) is read in that charset now, and one
  that reads two ways (as UTF-8 and as its charset) refused, named; a URL-encoded body too;
- a JSON number with a fraction or an exponent (`110105198803153418.0`) was read as the float it parses to, whose
  17 digits no literal matched, while the body went out as written; it is read as written now (`fields.Number`).
"""

from __future__ import annotations

import base64
import functools
import urllib.parse

import httpx
import pytest
from intercept_helpers import enforcing_client
from test_intercept_forms_walk_3 import NEAR, RECORD, UNITS
from test_intercept_upload_seams import _part, enforcing, seam_outcome

__all__ = ["GROUPS", "UNITS", "enforcing"]

PHONE, NAME, NEAR_PHONE = RECORD["phone"], RECORD["name"], NEAR["phone"]
_NOTE = "Ticket 4471: the customer asked us to call back after five. " * 3


def _encoded_cut(phone: str, encode, group: int) -> tuple[str, str]:
    """A ticket's text, the phone in it, written by `encode` (base64, hex) and cut inside the phone's writing, off
    the encoding's groups (`group` characters): the kept end of the first part starts inside the run too (its text
    is longer than the seam's 100 bytes: 4 × the longest unit, the API key's 25)."""
    text = f"{_NOTE}phone: {phone}; thanks\n"
    written = encode(text.encode())
    at = (len(_NOTE) + len("phone: ") + 5) * len(written) // len(text) // group * group + group // 2
    return "attachment: " + written[:at], written[at:] + "\n"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _utf8_cut(name: str, index: int) -> tuple[bytes, bytes]:
    """A line naming `name`, its bytes cut after the first byte of the name's character at `index`."""
    data = f"客户: {name}\n".encode()
    at = data.index(name.encode()) + len(name[:index].encode()) + 1
    return data[:at], data[at:]


#: form → the file in parts with the value cut, and a near miss cut the same way (another phone; the near record's
#: shorter name, cut inside its last character)
CUT = {"base64_cut": (_encoded_cut(PHONE, _b64, 4), _encoded_cut(NEAR_PHONE, _b64, 4)),
       "hex_cut": (_encoded_cut(PHONE, bytes.hex, 2), _encoded_cut(NEAR_PHONE, bytes.hex, 2)),
       "utf8_last_character": (_utf8_cut(NAME, len(NAME) - 1), _utf8_cut(NEAR["name"], len(NEAR["name"]) - 1)),
       "utf8_first_character": (_utf8_cut(NAME, 0), _utf8_cut(NEAR["name"], 0))}
UNIT = {form: ("t1/P1/name", NAME) for form in CUT if form.startswith("utf8")}

cut_outcome = functools.partial(seam_outcome, cut=CUT, units=UNIT)


@pytest.mark.parametrize("form", sorted(CUT))
def test_a_value_cut_in_a_decoded_view_or_inside_a_character_refuses_the_second_part(enforcing, form):
    """`seam_outcome`: the first part forwarded, the second refused (403) naming the unit, recorded with its finding,
    never sent; the near miss's parts forwarded as they came; the whole file in one part handled as any form's."""
    assert cut_outcome(enforcing, form) == "held"


# --- the order `complete` names -------------------------------------------------------------------------------------

ORDER = {"written": (("customer notes\nphone: " + PHONE[:5], PHONE[5:] + "\nthanks\n"),
                     ("customer notes\nphone: " + NEAR_PHONE[:5], NEAR_PHONE[5:] + "\nthanks\n")),
         "base64_cut": CUT["base64_cut"], "utf8_last_character": CUT["utf8_last_character"]}


def order_outcome(proxy, form: str) -> str:
    """"held" where two parts sent last-first (neither holding the value, nor the seam of the order they came in)
    go out, and `complete` naming them first-first is refused (403) naming the unit, recorded, never sent; the near
    miss's `complete` is forwarded; one naming a part the proxy never saw answered is refused (409)."""
    mode, app, client, store = proxy
    (first, second), near = ORDER[form]
    unit = UNIT.get(form, ("t1/P1/phone", PHONE))[0]
    try:
        for name, (head, tail) in (("cut", (first, second)), ("near", near)):
            upload = f"order_{name}_{form}_{mode}"
            late, early = (_part(client, f"order-{name}-{form}-{k}", upload, data)
                           for k, data in ((2, tail), (1, head)))
            assert (late.status_code, early.status_code) == (200, 200), (late.text, early.text)
            seen = len(app.state.requests)
            made = client.post(f"/e/order-{name}-{form}/v1/uploads/{upload}/complete",
                               json={"part_ids": [early.json()["id"], late.json()["id"]]})
            [record] = store.records(f"order-{name}-{form}")
            if name == "cut":
                assert made.status_code == 403 and app.state.requests[seen:] == [], made.text
                assert unit in made.json()["error"]["message"]
                assert record.status == 403 and {f["unit_id"] for f in record.findings} == {unit}
            else:
                assert made.status_code == 200 and app.state.requests[-1]["path"].endswith(f"/{upload}/complete")
        seen = len(app.state.requests)
        unseen = client.post(f"/e/order-unseen-{form}/v1/uploads/order_unseen/complete",
                             json={"part_ids": ["part_never_sent"]})
        assert unseen.status_code == 409 and "part_never_sent" in unseen.json()["error"]["message"]
        assert app.state.requests[seen:] == []
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("form", sorted(ORDER))
def test_complete_in_another_order_than_the_parts_came_is_audited_seam_by_seam(enforcing, form):
    assert order_outcome(enforcing, form) == "held"


# --- redirects followed with a GET (301, 302, 303) ------------------------------------------------------------------

REDIRECTS = [(status, elsewhere) for status in ("301", "302", "303") for elsewhere in ("own", "elsewhere")]
_HEADER = "x-customer-phone"


def redirect_outcome(proxy, status: str, where: str) -> str:
    """"held" where a 301/302/303 to another host is refused (502 naming the host, no `Location`, recorded) and one on
    the upstream's own origin is pointed at the proxy (the client follows it there, never to the upstream with its
    headers as it wrote them). In redact mode the request carries the phone in a header, which the upstream gets
    redacted; in block mode no unit (one with a unit is refused before it is forwarded)."""
    mode, app, client, store = proxy
    episode = f"moved-{status}-{where}-{mode}"
    model = f"fault-redirect-{status}" + ("-elsewhere" if where == "elsewhere" else "")
    headers = {_HEADER: PHONE if mode == "redact" else "none"}
    try:
        answer = client.post(f"/e/{episode}/v1/chat/completions", headers=headers,
                             json={"model": model, "messages": [{"role": "user", "content": "call me back"}]})
        assert PHONE not in app.state.requests[-1]["headers"].get(_HEADER, "")
        _redirect_held(answer, store, episode, status, where, f"{client.base_url}/e/{episode}/v1/chat/completions")
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


def _redirect_held(answer, store, episode: str, status: str, where: str, own: str) -> None:
    """A redirect to another host refused (502 naming it, no `Location`, recorded); one on the upstream's own
    origin answered with its status and its `Location` pointed at the proxy (`own`)."""
    [record] = store.records(episode)
    if where == "elsewhere":
        assert answer.status_code == 502 and "location" not in answer.headers, answer.headers
        assert record.status == 502 and "another host (upload.elsewhere.invalid)" in record.error
    else:
        assert answer.status_code == int(status), answer.status_code
        assert answer.headers["location"] == own


def listing_outcome(proxy, status: str, where: str) -> str:
    """The same for the model list's GET (`/v1/models`), its redirect named to the stand-in in a header."""
    mode, app, client, store = proxy
    episode = f"listing-{status}-{where}-{mode}"
    script = f"fault-redirect-{status}" + ("-elsewhere" if where == "elsewhere" else "")
    try:
        answer = client.get(f"/e/{episode}/v1/models", headers={"x-standin-script": script})
        _redirect_held(answer, store, episode, status, where, f"{client.base_url}/e/{episode}/v1/models")
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize(("status", "where"), REDIRECTS)
def test_the_model_lists_redirect_is_handled_as_a_posts(enforcing, status, where):
    assert listing_outcome(enforcing, status, where) == "held"


@pytest.mark.parametrize(("status", "where"), REDIRECTS)
def test_a_redirect_followed_with_a_get_never_takes_the_headers_past_the_guard(enforcing, standin, tmp_path, status,
                                                                               where):
    """`observe` only records: another host's `Location` reaches the client as the upstream sent it."""
    assert redirect_outcome(enforcing, status, where) == "held"
    if where == "elsewhere":
        with enforcing_client(standin[1], tmp_path, UNITS, "observe") as (client, _):
            answer = client.post("/e/seen/v1/chat/completions", json={
                "model": f"fault-redirect-{status}-elsewhere", "messages": [{"role": "user", "content": "x"}]})
        assert answer.status_code == int(status)
        assert answer.headers["location"].startswith("https://upload.elsewhere.invalid/")


def test_an_sdk_client_following_a_302_comes_back_to_the_proxy(enforcing):
    """httpx as the OpenAI SDK builds it (`follow_redirects=True`): the 302 is followed with a GET, its header as the
    client set it, to the proxy, which serves no GET there (405): the stand-in gets no second request."""
    mode, app, client, store = enforcing
    with httpx.Client(base_url=str(client.base_url), follow_redirects=True, timeout=30) as sdk:
        seen = len(app.state.requests)
        answer = sdk.post("/e/followed/v1/chat/completions", headers={_HEADER: "none"},
                          json={"model": "fault-redirect-302", "messages": [{"role": "user", "content": "hi"}]})
    assert [r.status_code for r in answer.history] == [302] and answer.request.method == "GET"
    assert answer.url.port == client.base_url.port and answer.status_code == 405
    assert len(app.state.requests) == seen + 1


# --- a file part's declared charset ---------------------------------------------------------------------------------

#: charset → the file's text (its value: the contact's name, or the phone's owner's name in Han characters)
CHARSETS = {"iso-8859-1": ("contact", f"contact: {RECORD['contact']}\n"), "gbk": ("name", f"客户: {NAME}\n"),
            "utf-16le": ("name", f"客户: {NAME}\n"), "utf-7": ("name", f"客户: {NAME}\n")}
#: charsets whose text also reads as other UTF-8 text: refused, named, in both modes
TWO_WAYS = {"utf-7"}


def charset_outcome(proxy, charset: str) -> str:
    """"held" where a `/v1/files` upload whose text file declares `charset` is read in it: the value found (the
    record names its unit), redacted in the bytes forwarded (in that charset) or the upload blocked (403); a text that
    reads two ways refused (403) naming its charset, never sent; and a file of ASCII in that charset, which reads
    the same both ways, forwarded as it came."""
    mode, app, client, store = proxy
    field, text = CHARSETS[charset]
    value = RECORD[field]
    episode = f"charset-{charset}-{mode}"
    try:
        seen = len(app.state.requests)
        answer = client.post(f"/e/{episode}/v1/files", data={"purpose": "assistants"},
                             files={"file": ("notes.txt", text.encode(charset), f"text/plain; charset={charset}")})
        [record] = store.records(episode)
        if charset in TWO_WAYS:
            assert answer.status_code == 403 and charset in answer.json()["error"]["message"]
            assert app.state.requests[seen:] == []
        else:
            assert f"t1/P1/{field}" in {f["unit_id"] for f in record.findings}
            sent = [r["raw"] for r in app.state.requests[seen:]]
            assert (answer.status_code, sent) == (403, []) if mode == "block" else \
                answer.status_code == 200 and len(sent) == 1 and value.encode(charset) not in sent[0]
        plain = "build passed\n".encode(charset)  # (reads the same both ways, in UTF-7 too: forwarded as it came)
        answer = client.post(f"/e/{episode}-plain/v1/files", data={"purpose": "assistants"},
                             files={"file": ("n.txt", plain, f"text/plain; charset={charset}")})
        assert answer.status_code == 200 and plain in app.state.requests[-1]["raw"]
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("charset", sorted(CHARSETS))
def test_a_file_part_is_read_in_the_charset_it_declares(enforcing, charset):
    assert charset_outcome(enforcing, charset) == "held"

def urlencoded_outcome(proxy, charset: str) -> str:
    """The same for a URL-encoded body declaring `charset` (`application/x-www-form-urlencoded; charset=gbk`): read in
    it, the value found and redacted (percent-encoded in that charset) or blocked; one that reads two ways refused
    (400) naming its charset. Before, GBK, Latin-1 and UTF-16 were refused as not UTF-8, UTF-7 (ASCII) went out."""
    mode, app, client, store = proxy
    field, text = CHARSETS[charset]
    value = RECORD[field]
    episode = f"urlencoded-{charset}-{mode}"
    try:
        seen = len(app.state.requests)
        body = urllib.parse.urlencode([("model", "echo"), ("prompt", text)], encoding=charset).encode()
        answer = client.post(f"/e/{episode}/v1/completions", content=body,
                             headers={"content-type": f"application/x-www-form-urlencoded; charset={charset}"})
        [record] = store.records(episode)
        sent = [r["raw"] for r in app.state.requests[seen:]]
        if charset in TWO_WAYS:
            assert (answer.status_code, sent) == (400, []) and charset in answer.json()["error"]["message"]
        else:
            assert f"t1/P1/{field}" in {f["unit_id"] for f in record.findings or []}, answer.text
            assert (answer.status_code, sent) == (403, []) if mode == "block" else answer.status_code == 200 and \
                len(sent) == 1 and urllib.parse.quote_plus(value, encoding=charset).encode() not in sent[0]
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("charset", sorted(CHARSETS))
def test_a_urlencoded_body_is_read_in_the_charset_it_declares(enforcing, charset):
    assert urlencoded_outcome(enforcing, charset) == "held"


# --- numbers as written -----------------------------------------------------------------------------------------------

NATIONAL_ID, NEAR_ID = RECORD["national_id"], NEAR["national_id"]


#: place → (path, the raw body with the number written at `{}`): a JSON number with a fraction or an exponent, as
#: a tool writes a decimal column (`110105198803153418.0`); the float it parses to holds only 17 of its digits
NUMBERS = {
    "chat_metadata": ("/v1/chat/completions",
                      '{"model": "echo", "messages": [{"role": "user", "content": "hi"}], "metadata": {"id": %s}}'),
    "chat_tool_arguments": ("/v1/chat/completions",
                            '{"model": "echo", "messages": [{"role": "user", "content": "look it up"}, '
                            '{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", '
                            '"function": {"name": "lookup", "arguments": "{\\"id\\": %s}"}}]}, '
                            '{"role": "tool", "tool_call_id": "c1", "content": "found"}]}'),
    "anthropic_tool_use_input": ("/v1/messages",
                                 '{"model": "echo", "max_tokens": 64, "messages": [{"role": "user", "content": "x"}, '
                                 '{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "lookup", '
                                 '"input": {"id": %s}}]}, {"role": "user", "content": [{"type": "tool_result", '
                                 '"tool_use_id": "t1", "content": "found"}]}]}'),
    "gemini_function_response": ("/v1beta/models/echo:generateContent",
                                 '{"contents": [{"role": "user", "parts": [{"functionResponse": {"name": "lookup", '
                                 '"response": {"rows": [{"id": %s}]}}}]}]}'),
}
#: how the number is written: with a fraction, and with an exponent (its digits then read with the point moved)
WRITTEN = {"fraction": lambda n: n + ".0", "exponent": lambda n: f"{n[0]}.{n[1:]}e{len(n) - 1}"}
NUMBER_CELLS = [(place, written) for place in NUMBERS for written in WRITTEN]


def number_outcome(proxy, place: str, written: str) -> str:
    """"held" where the id written as a JSON number with a fraction or an exponent is found (the record names it),
    none of its digits run reach the upstream (redacted) or nothing does (blocked, 403); and the near record's id,
    written the same way, goes out as it was written."""
    mode, app, client, store = proxy
    path, body = NUMBERS[place]
    episode = f"number-{place}-{written}-{mode}"
    try:
        for number, near in ((NATIONAL_ID, False), (NEAR_ID, True)):
            seen = len(app.state.requests)
            text = WRITTEN[written](number)
            answer = client.post(f"/e/{episode}-{near}{path}", content=(body % text).encode(),
                                 headers={"content-type": "application/json"})
            sent = [r["raw"].decode() for r in app.state.requests[seen:]]
            [record] = store.records(f"{episode}-{near}")
            if near:
                assert answer.status_code == 200 and text in sent[0].replace("\\", ""), sent
                continue
            assert "t1/P1/national_id" in {f["unit_id"] for f in record.findings or []}
            assert (answer.status_code, sent) == (403, []) if mode == "block" else \
                answer.status_code == 200 and number[:12] not in sent[0].replace(".", ""), sent
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize(("place", "written"), NUMBER_CELLS)
def test_a_number_is_read_as_it_was_written(enforcing, place, written):
    assert number_outcome(enforcing, place, written) == "held"


def test_a_number_with_a_vast_exponent_is_read_as_written_without_writing_it_out():
    """`1e99999999` in a request is 100,000,000 digits written out: the walk reads it as it stands (no unit's
    number has an exponent past `_NUMBER_REACH`), so one request never makes the proxy allocate it. By hand: the
    written-out text alone is 100 MB; the reading keeps the peak under 1 MB."""
    import tracemalloc

    from ec2audit.intercept.fields import Number, number_text

    tracemalloc.start()
    try:
        texts = [number_text(Number(text)) for text in ("1e99999999", "2.5e-99999999")]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert texts == ["1e99999999", "2.5e-99999999"] and peak < 1_000_000, peak


#: The cells `benchmarks/guard_forms_matrix.py --walk 17` counts
GROUPS = {"seams in decoded views and characters": ([(form,) for form in sorted(CUT)], cut_outcome),
          "complete's order": ([(form,) for form in sorted(ORDER)], order_outcome),
          "redirects followed with a GET": (REDIRECTS, redirect_outcome),
          "the model list's redirects": (REDIRECTS, listing_outcome),
          "declared charsets": ([(charset,) for charset in sorted(CHARSETS)], charset_outcome),
          "URL-encoded charsets": ([(charset,) for charset in sorted(CHARSETS)], urlencoded_outcome),
          "numbers as written": (NUMBER_CELLS, number_outcome)}
