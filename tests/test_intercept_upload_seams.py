"""Ways a file or a body could get past the guard, through the proxy over loopback HTTP in front of the
scripted stand-in (session 26, guard16):

- a resumable upload's session URL (`X-Goog-Upload-URL`, or an upload's `Location`) on a host other than the
  upstream's: handed on as it came, the client sent its file straight there. An enforcing proxy refuses the
  exchange now (502, the host named, recorded); a URL on the upstream's own origin is pointed at the proxy, and
  `observe` hands the other host's on as before;
- OpenAI's Uploads API (`/v1/uploads/{id}/parts`, each part a form with the file's bytes in `data`): a value cut
  across two parts reached the upstream in two parts, each audited alone. The end of each part is kept now and
  audited with the next part's start; a value across the seam refuses the later part (403, both enforcing modes:
  the earlier part is already sent, no redaction can take it back), recorded with its finding;
- a 307/308 redirect (the client sends the same body again to its `Location`): refused on another host, pointed at
  the proxy on the upstream's origin, as an upload's URL is (session 26, lead).
"""

from __future__ import annotations

import pytest
from intercept_helpers import enforcing_client
from test_intercept_forms_walk_3 import NEAR, RECORD, UNITS, _line

PHONE = RECORD["phone"]


def _start(client, episode: str, name: str):
    return client.post(f"/e/{episode}/upload/v1beta/files", json={"file": {"display_name": name}},
                       headers={"x-goog-upload-protocol": "resumable", "x-goog-upload-command": "start"})


@pytest.fixture(params=["redact", "block"])
def enforcing(request, standin, tmp_path):
    """A proxy enforcing each mode in front of the stand-in: (mode, the stand-in app, client, store)."""
    app, upstream = standin
    with enforcing_client(upstream, tmp_path, UNITS, request.param) as (client, store):
        yield request.param, app, client, store


#: the stand-in's script (the file's display name) → the header naming the session, and whether on another host
URLS = {"fault-elsewhere": ("x-goog-upload-url", True), "fault-location-elsewhere": ("location", True),
        "fault-location": ("location", False)}


def url_outcome(proxy, name: str) -> str:
    """"held" where a session on another host is refused (502 naming it, never the URL, recorded), and one named in
    an upload's `Location` on the upstream's origin is pointed at the proxy, a value in the file sent there found
    (redacted, or the file blocked), as with `X-Goog-Upload-URL`."""
    mode, app, client, store = proxy
    header, elsewhere = URLS[name]
    try:
        start = _start(client, f"{name}-start", name)
        if elsewhere:
            [record] = store.records(f"{name}-start")
            assert start.status_code == 502 and header not in start.headers, start.headers.get(header)
            assert "upload.elsewhere.invalid" in start.json()["error"]["message"]
            assert record.status == 502 and "another host (upload.elsewhere.invalid)" in record.error
            return "held"
        session = start.headers[header]
        assert start.status_code == 200 and session.startswith(f"{client.base_url}/e/{name}-start/upload/"), session
        sent = client.post(session.replace(f"/e/{name}-start", f"/e/{name}"), content=_line(RECORD).encode(),
                           headers={"x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": "0"})
        [record] = store.records(name)
        assert record.findings and sent.status_code == (403 if mode == "block" else 200)
        assert mode == "block" or PHONE.encode() not in app.state.requests[-1]["raw"]
    except (AssertionError, KeyError, ValueError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("name", sorted(URLS))
def test_an_upload_url_on_another_host_is_refused_and_the_upstreams_own_goes_through_the_proxy(enforcing, standin,
                                                                                            tmp_path, name):
    """`observe` only records: the other host's URL reaches the client as the upstream sent it."""
    assert url_outcome(enforcing, name) == "held"
    header, elsewhere = URLS[name]
    with enforcing_client(standin[1], tmp_path / "observe", UNITS, "observe") as (client, store):
        answer = _start(client, "seen", name)
    assert answer.status_code == 200 and answer.headers[header].startswith(
        "https://upload.elsewhere.invalid/" if elsewhere else f"{client.base_url}/e/seen/upload/")


# --- OpenAI's Uploads API: a value cut across two parts --------------------------------------------------------------

NEAR_PHONE, NAME = NEAR["phone"], RECORD["name"]
#: form → the file in parts with the phone number cut after its fifth digit, and a near miss in the same form
#: (another number cut at the same place, or one only starting like the phone's): as written, spaced, in a CSV row
CUT = {"written": (("customer notes\nphone: " + PHONE[:5], PHONE[5:] + "\nthanks\n"),
                   ("customer notes\nphone: " + NEAR_PHONE[:5], NEAR_PHONE[5:] + "\nthanks\n")),
       "spaced": (("call back on " + f"{PHONE[:3]} {PHONE[3:5]}", f"{PHONE[5:7]} {PHONE[7:]} before noon\n"),
                  ("call back on " + f"{PHONE[:3]} {PHONE[3:5]}", "-7 before noon\n")),
       "csv": (("id,phone,plan\n7," + PHONE[:5], PHONE[5:] + ",gold\n"),
               ("id,phone,plan\n7," + PHONE[:5] + "\n8,", "12,gold\n")),
       # (a name in Han characters cut after its second, the near miss the near record's shorter name)
       "han_name": (("客户: " + NAME[:2], NAME[2:] + "\n"), ("客户: " + NAME[:2], NEAR["name"][2:] + "\n")),
       # (the phone across three parts, the middle one shorter than the number)
       "three_parts": (("phone: " + PHONE[:3], PHONE[3:6], PHONE[6:] + "\n"),
                       ("phone: " + PHONE[:3], PHONE[3:6], NEAR_PHONE[6:] + "\n"))}
#: form → the unit cut, and its value (as redact must not forward it)
UNIT = {"han_name": ("t1/P1/name", NAME)}


def _part(client, episode: str, upload: str, data: str | bytes, filename: bool = True):
    """A part as the OpenAI SDK sends it (`data` a file) or as a plain form field; text as UTF-8, bytes as they are
    (a part cut inside a character: session 27's walk)."""
    data = data.encode() if isinstance(data, str) else data
    files = {"data": ("blob", data, "application/octet-stream") if filename else (None, data)}
    return client.post(f"/e/{episode}/v1/uploads/{upload}/parts", files=files)


def seam_outcome(proxy, form: str, cut: dict = CUT, units: dict = UNIT) -> str:
    """"held" where the first part goes out (none of the value in it is found alone) and the second is refused,
    naming the unit and why, recorded with its finding, the upstream never getting it; the near miss's two parts
    are forwarded; a value wholly inside a part is handled as any form's (redacted, or the part blocked); and
    `complete` forgets the upload's end."""
    mode, app, client, store = proxy
    (*firsts, second), near = cut[form]
    try:
        upload = f"upload_{form}_{mode}"
        unit, value = units.get(form, ("t1/P1/phone", PHONE))
        for first in firsts:
            assert _part(client, f"cut-{form}", upload, first).status_code == 200
        seen = len(app.state.requests)
        refused = _part(client, f"cut-{form}-2", upload, second, filename=form != "csv")
        assert refused.status_code == 403 and app.state.requests[seen:] == []
        assert unit in refused.json()["error"]["message"]
        assert "previous part is already sent" in refused.json()["error"]["message"]
        [record] = store.records(f"cut-{form}-2")
        assert record.status == 403 and {f["unit_id"] for f in record.findings} == {unit}
        for part in near:
            assert _part(client, f"near-{form}", f"near_{form}_{mode}", part).status_code == 200
            assert (part.encode() if isinstance(part, str) else part) in app.state.requests[-1]["raw"]
        whole = _part(client, f"whole-{form}", f"whole_{form}_{mode}", type(second)().join([*firsts, second]))
        [record] = store.records(f"whole-{form}")
        assert {f["unit_id"] for f in record.findings} == {unit}
        assert whole.status_code == (403 if mode == "block" else 200)
        assert mode == "block" or value not in app.state.requests[-1]["body"]["data"]["data"].replace(" ", "")
        client.post(f"/e/done/v1/uploads/{upload}/complete", json={"part_ids": ["part_1"]})
        assert _part(client, f"done-{form}", upload, second).status_code == 200
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("form", sorted(CUT))
def test_a_value_cut_across_two_upload_parts_refuses_the_second(enforcing, form):
    """Each form's cut value refused at the seam, its near miss forwarded (`seam_outcome`)."""
    assert seam_outcome(enforcing, form) == "held"


#: The cells `benchmarks/guard_forms_matrix.py --walk upload-seams` counts
GROUPS = {"upload URLs": ([(name,) for name in sorted(URLS)], url_outcome),
          "Uploads API seams": ([(form,) for form in sorted(CUT)], seam_outcome)}


# --- a redirect that keeps the body (307/308) ------------------------------------------------------------------------


@pytest.mark.parametrize("elsewhere", [True, False], ids=["another_host", "own_origin"])
def test_a_redirect_that_resends_the_body_never_takes_it_past_the_guard(enforcing, standin, tmp_path, elsewhere):
    """A 307 (or 308) makes the client send the same body again to its `Location`: httpx and the OpenAI SDK follow it
    with the request as the client wrote it, unredacted. On another host an enforcing proxy refuses it (502 naming the
    host, recorded, no `Location` handed on); on the upstream's own origin it is pointed at the proxy, so the body
    sent again is audited again. `observe` hands the other host's on as it came. (In block mode the body holds no
    unit: one with a unit is refused before it is forwarded.)"""
    mode, app, client, store = enforcing
    model = "fault-redirect-elsewhere" if elsewhere else "fault-redirect"
    text = f"call {PHONE} back" if mode == "redact" else "call me back tomorrow"
    body = {"model": model, "messages": [{"role": "user", "content": text}]}
    answer = client.post("/e/moved/v1/chat/completions", json=body)
    [record] = store.records("moved")
    if elsewhere:
        assert answer.status_code == 502 and "location" not in answer.headers
        assert "upload.elsewhere.invalid" in answer.json()["error"]["message"]
        assert record.status == 502 and "a redirect URL on another host (upload.elsewhere.invalid)" in record.error
        with enforcing_client(standin[1], tmp_path / "observe", UNITS, "observe") as (seen, _):
            handed = seen.post("/e/seen/v1/chat/completions", json=body)
        assert handed.status_code == 307 and handed.headers["location"].startswith("https://upload.elsewhere.invalid/")
    else:
        assert answer.status_code == 307 and PHONE not in app.state.requests[-1]["raw"].decode()
        assert answer.headers["location"] == f"{client.base_url}/e/moved/v1/chat/completions"
