"""Two ways a file could reach the upstream past the guard, through the proxy over loopback HTTP in front of the
scripted stand-in (session 26, guard16):

- a resumable upload's session URL (`X-Goog-Upload-URL`, or an upload's `Location`) on a host other than the
  upstream's: handed on as it came, the client sent its file straight there. An enforcing proxy refuses the
  exchange now (502, the host named, recorded); a URL on the upstream's own origin is pointed at the proxy, and
  `observe` hands the other host's on as before.
"""

from __future__ import annotations

import pytest
from intercept_helpers import enforcing_client
from test_intercept_forms_walk_3 import RECORD, UNITS, _line


def _start(client, episode: str, name: str):
    return client.post(f"/e/{episode}/upload/v1beta/files", json={"file": {"display_name": name}},
                       headers={"x-goog-upload-protocol": "resumable", "x-goog-upload-command": "start"})


@pytest.fixture(params=["redact", "block"])
def enforcing(request, standin, tmp_path):
    """A proxy enforcing each mode in front of the stand-in: (mode, the stand-in app, client, store)."""
    app, upstream = standin
    with enforcing_client(upstream, tmp_path, UNITS, request.param) as (client, store):
        yield request.param, app, client, store


@pytest.mark.parametrize("name, header", [("fault-elsewhere", "x-goog-upload-url"),
                                          ("fault-location-elsewhere", "location")])
def test_an_upload_url_on_another_host_is_refused(standin, tmp_path, name, header):
    """The stand-in names the session on another host: an enforcing proxy answers a 502 naming it, never the URL,
    recorded; `observe` only records, the URL reaching the client as the upstream sent it."""
    app, upstream = standin
    for mode in ("redact", "block", "observe"):
        with enforcing_client(upstream, tmp_path / mode, UNITS, mode) as (client, store):
            answer = _start(client, "far", name)
            [record] = store.records("far")
        if mode == "observe":
            assert answer.status_code == record.status == 200
            assert answer.headers[header].startswith("https://upload.elsewhere.invalid/")
            continue
        assert answer.status_code == 502 and header not in answer.headers
        assert "upload.elsewhere.invalid" in answer.json()["error"]["message"]
        assert record.status == 502 and "another host (upload.elsewhere.invalid)" in record.error


def test_an_upload_location_on_the_upstreams_origin_is_pointed_at_the_proxy(enforcing):
    """A session named in `Location` on the upstream's own origin goes through the proxy: a value in the file sent
    there is found (redacted or blocked), as with `X-Goog-Upload-URL`."""
    mode, app, client, store = enforcing
    start = _start(client, "near-start", "fault-location")
    session = start.headers["location"]
    assert start.status_code == 200 and session.startswith(str(client.base_url) + "/e/near-start/upload/")
    content = _line(RECORD).encode()
    sent = client.post(session.replace("/e/near-start", "/e/near"), content=content,
                       headers={"x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": "0"})
    [record] = store.records("near")
    assert record.findings and sent.status_code == (403 if mode == "block" else 200)
    assert mode == "block" or RECORD["phone"].encode() not in app.state.requests[-1]["raw"]
