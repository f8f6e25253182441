"""Hand mutants of session 27 (benchmarks/hand_mutants.py, `GROUPS_S27`; RESULTS.md, "Session 27: hand mutants in
session 26's code"): planted one at a time in the code session 26 changed, each survivor a behaviour no test held.
Each test here kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files,
HTTP through the proxy) or, where the CLI cannot reach it, by what the library function gives."""

from __future__ import annotations

import datetime
import json
import shutil

import httpx
import pytest
from intercept_helpers import enforcing_client, running_proxy
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route
from test_detect_forms_s24 import _scan
from test_intercept_forms_walk_3 import NEAR, RECORD, UNITS, _line
from test_intercept_forms_walk_15 import _chunk, _dropped, _start, bounded
from test_intercept_upload_seams import PHONE, _part
from test_new_user_walk import _openclaw
from test_new_user_walk_7 import _cli
from test_new_user_walk_14 import _audited
from test_new_user_walk_17 import CHECKLIST, GEMINI_SESSION, HELICONE, _contact_units, _gemini_jsonl, _hybrid_task
from test_tasks_acebench import _acebench_replica

from ec2audit.intercept.server import serve_in_thread
from ec2audit.intercept.uploads import Held, HeldUploads

__all__ = ["UNITS", "bounded"]  # the units the `proxy` fixture guards (walk 3's record); walk 15's bounded proxy


# --- detect/forms: blood types, birth years, graded terms -------------------------------------------------------------


def test_a_blood_type_without_its_rh_factor_is_no_reading_of_a_group_with_one():
    """`AB型` alone names no Rh factor: it has no other notation to read (`AB negative` is not it), and a unit set
    holding it compiles (HBT1: the sign of a missing factor was looked up, and the compile failed)."""
    assert _scan("AB型", "health", "ABO/Rh: AB negative, kell negative", "blood_type") == []


@pytest.mark.parametrize(("value", "text", "found"), [
    ("AB型 Rh阴性", "donor card: Rh negative AB, kell negative", "Rh negative AB"),  # the factor first, in English
    ("B neg", "blood group B negative", "B negative"),  # a value that writes its factor `neg`
])
def test_a_blood_type_with_its_factor_first_or_as_neg_is_the_value(value, text, found):
    """The Rh factor written before the group in English (HBT7), and a value written `B neg` (HBT8: `neg` and `pos`
    no factor of the value, so no form of it)."""
    assert _scan(value, "health", text, "blood_type") == [("forms.blood_type", 1.0, found)]


def test_a_group_and_sign_that_a_longer_sign_follows_is_no_blood_type():
    """`A++` is a rating, not `A+` (HBT5: a sign after the form's own sign no longer ruled it out)."""
    assert _scan("A Rh阳性", "health", "the audit rated it A++ this year", "blood_type") == []
    assert _scan("A Rh阳性", "health", "donor is A+ this year", "blood_type") == [("forms.blood_type", 1.0, "A+")]


@pytest.mark.parametrize("field", ["dob", "patient_dob", "DOB"])
def test_a_birth_year_is_read_for_a_field_named_dob_in_any_case(field):
    """`dob`, `patient_dob`, `DOB` name a date of birth as `date_of_birth` does (HBY1: `dob` not a birth field; HBY6:
    `patient_dob` read with its underscore, no word `dob` in it)."""
    assert _scan("2008-02-29", "other", "born 2008, Lagos", field) == [("partial.fragment", 0.3, "born 2008")]


def test_a_year_that_more_digits_follow_is_no_birth_year():
    """`born 200812` is a cohort's year and month run together, not the year 2008 (HBY2: a digit after the year no
    longer ruled it out)."""
    assert _scan("2008-02-29", "other", "cohort born 200812 in Lagos", "date_of_birth") == []



def test_a_birth_years_finding_is_written_as_a_fragment_of_the_confidence_of_an_age(tmp_path):
    """`audit --out` of a session that sent `born 2008` for a date of birth 2008-02-29 writes one finding, a fragment
    (grade 0.3) of confidence 0.6, as an age is written (HBY5: written as certain, 1.0)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    _openclaw(logs, "s", ["Aisha Bello-Nwosu is 18 (born 2008), so she can sign the contract herself."])
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps({"task_id": "t", "entity_id": "P1", "field": "date_of_birth", "value": "2008-02-29",
                                 "dimension": "other"}) + "\n", encoding="utf-8")
    code, said = _cli("audit", logs, "--units", units, "--out", tmp_path / "findings.jsonl")
    rows = [json.loads(line) for line in (tmp_path / "findings.jsonl").read_text(encoding="utf-8").splitlines()]
    assert code == 0, said
    assert [(r["detector"], r["grade"], r["confidence"]) for r in rows] == [("partial.fragment", 0.3, 0.6)]



def test_a_birth_date_in_this_years_passport_zone_is_this_years():
    """A zone's birth year of two digits is read as the last hundred years': one equal to this year's two last digits
    is a child born this year (`YY0115` as YYYY-01-15, YYYY this year, computed as the reader computes it), not a
    hundred years ago (HV9: a year equal to this one taken as a century back, the date never read)."""
    year = datetime.date.today().year
    zone = f"EV60312984POL{year % 100:02d}01156M3104095<<<<<<<<<<<<<<06"
    assert [h[1] for h in _scan(f"{year}-01-15", "other", zone, "date_of_birth")] == [1.0]


def test_a_term_with_words_on_both_sides_of_its_grade_has_no_other_form():
    """`高血压3级很高危` (grade 3 hypertension, very high risk) says more than the term and its grade: `三级高血压` is
    a part of it, not the value (HGT1: the words before the grade taken for the term, the rest let go, and
    `三级高血压` read as the whole value, 1.0)."""
    assert _scan("高血压3级很高危", "health", "诊断：三级高血压", "diagnosis") == []


def test_a_grade_of_ten_is_read_in_either_numerals():
    """`十级伤残` (the tenth grade, the last of China's disability grades) written `伤残等级：10级` is the value
    (HGT2: only grades one to nine were read in Han numerals, so the value named no grade and had no other form)."""
    assert _scan("十级伤残", "health", "伤残等级：10级", "diagnosis") == [("forms.graded_term", 1.0, "伤残等级：10级")]



def test_a_grade_that_ends_a_longer_han_number_is_no_grade_of_the_term():
    """`十三级高血压` holds `三级高血压`, a form of `高血压3级`, after `十`: its number is thirteen, another number
    (HGT7: `十` no numeral before a grade, the form read inside it)."""
    assert _scan("高血压3级", "health", "记录：十三级高血压", "diagnosis") == []


def test_a_value_starting_with_a_province_but_no_plate_has_no_pinyin_form():
    """A plate is a province's character and a letter; `京123456` (a province's character and digits) is no plate,
    so `Jing 123456` is not it (HS5: any value starting with a province's character read as a plate)."""
    assert _scan("京123456", "other", "code Jing 123456", "license_plate") == []

# --- intercept/uploads.py: the held chunks' byte bound ----------------------------------------------------------------


def test_chunks_that_fill_the_byte_bound_exactly_are_all_held(bounded):
    """Under a 100-byte bound, a first chunk of exactly 100 bytes is held and the file forwarded whole with its last
    (HUP1: refused, 413); then two uploads' first chunks of 40 and 60 bytes, 100 in all, are both held, neither
    dropped, each forwarded whole (HUP2: the older dropped, its last chunk refused)."""
    mode, app, make = bounded
    whole, other = _line(NEAR).encode()[:130], ("notes: " + _line(NEAR)).encode()[:130]
    with make(held_upload_bytes=100) as (client, store):
        path = _start(client, "full-start")
        seen = len(app.state.requests)
        assert _chunk(client, "full", path, whole[:100], 0, last=False).status_code == 200
        assert _chunk(client, "full", path, whole[100:], 100, last=True).status_code == 200
        paths = [_start(client, "forty-start"), _start(client, "sixty-start")]
        assert _chunk(client, "forty", paths[0], whole[:40], 0, last=False).status_code == 200
        assert _chunk(client, "sixty", paths[1], other[:60], 0, last=False).status_code == 200
        assert _chunk(client, "forty", paths[0], whole[40:], 40, last=True).status_code == 200
        assert _chunk(client, "sixty", paths[1], other[60:], 60, last=True).status_code == 200
        assert [s["raw"] for s in app.state.requests[seen:] if s["raw"] in (whole, other)] == [whole, whole, other]
        assert _dropped(store, "forty") == [] and _dropped(store, "full") == []




def test_an_upload_dropped_and_sent_again_from_offset_0_in_chunks_completes(bounded):
    """Under a 100-byte bound, upload A's first 60 bytes are dropped to hold B's 60; A starts again from offset 0, in
    two chunks again (60, then the rest at offset 60): its drop is forgotten once it restarts, the file forwarded
    whole (HUP8: the drop remembered, A's second chunk refused 410 as a chunk of a dropped upload)."""
    mode, app, make = bounded
    a, b = _line(NEAR).encode()[:120], ("notes: " + _line(NEAR)).encode()[:120]
    with make(held_upload_bytes=100) as (client, store):
        paths = [_start(client, "again-a-start"), _start(client, "again-b-start")]
        assert _chunk(client, "again-a", paths[0], a[:60], 0, last=False).status_code == 200
        assert _chunk(client, "again-b", paths[1], b[:60], 0, last=False).status_code == 200
        assert len(_dropped(store, "again-a")) == 1
        seen = len(app.state.requests)
        assert _chunk(client, "again-a", paths[0], a[:60], 0, last=False).status_code == 200
        assert _chunk(client, "again-a", paths[0], a[60:], 60, last=True).status_code == 200
        assert [s["raw"] for s in app.state.requests[seen:]] == [a]


def test_an_upload_is_dropped_only_past_its_age_counted_from_its_latest_chunk():
    """`HeldUploads` on a clock the test sets (the proxy's is the machine's monotonic one, whose seconds a test cannot
    place): a 60-s bound, a chunk held at second 1,000 is kept at 1,060 (60 s old: not over the bound) and dropped
    at 1,061, why said (HUP5: dropped at 1,060; HUP4: its time never set, taken as second 0 and dropped at the first
    look)."""
    now = [1000.0]
    uploads = HeldUploads(60, 100, clock=lambda: now[0])
    uploads.hold(("path", "/upload/a"), Held(b"x" * 10, 0.0, "ep", None, None, "/upload/a"))
    now[0] = 1060.0
    assert uploads.expire() == []
    now[0] = 1061.0
    [(held, why)] = uploads.expire()
    assert held.data == b"x" * 10 and why == "dropped: no chunk for 61 s, over the 60-s bound"
    assert uploads.dropped(("path", "/upload/a")) == why and uploads.bytes == 0


def test_the_upload_sent_to_least_recently_is_dropped_first(bounded):
    """Three uploads' chunks of 30 bytes under a 100-byte bound, sent A, B, A again, C: A's last chunk came after B's,
    so B's is the least recently sent, and C's chunk (120 held in all) drops B, recorded, and A and C complete,
    each forwarded whole (HUP3: the upload held last was dropped, A, and B went on)."""
    mode, app, make = bounded
    files = {name: f"{name}: {_line(NEAR)}".encode()[:100] for name in "abc"}
    with make(held_upload_bytes=100) as (client, store):
        paths = {name: _start(client, f"lru-{name}-start") for name in "abc"}
        seen = len(app.state.requests)
        for name, at in [("a", 0), ("b", 0), ("a", 30), ("c", 0)]:
            assert _chunk(client, f"lru-{name}", paths[name], files[name][at:at + 30], at, last=False).status_code \
                == 200
        assert [name for name in "abc" if _dropped(store, f"lru-{name}")] == ["b"]
        for name, at in [("a", 60), ("c", 30)]:
            assert _chunk(client, f"lru-{name}", paths[name], files[name][at:], at, last=True).status_code == 200
        assert [s["raw"] for s in app.state.requests[seen:]] == [files["a"], files["c"]]


# --- logs/acebench_audit.py: the grader's log, and only it, named -----------------------------------------------------


@pytest.mark.parametrize("key", ["type", "sessionId"])
def test_a_request_log_with_a_key_other_formats_use_is_audited_as_requests(tmp_path, key):
    """A request log of one's own, a line a call (`{type | sessionId, model, messages}`): `type`, `model` and
    `messages` are three keys of AceBench's LLM-judge log, which also holds `output`, `error` and `latency_ms`;
    `sessionId` is a key of Gemini CLI's metadata line, which also holds `projectHash`. Either way the log is
    audited as requests: its 2 calls read and the address in the first found, exit 0 (HA4: taken for the grader's
    log and skipped; HG1: read as a Gemini CLI session of no message, nothing read)."""
    log = tmp_path / "requests.jsonl"
    log.write_text("".join(json.dumps({key: "s-1", "model": "gpt-4o", "messages": [
        {"role": "user", "content": text}]}) + "\n" for text in (
        "Email maria.kessler@example.com the summary.", "Thanks, that is all.")), encoding="utf-8")
    code, said, data = _audited(log, "--units", _contact_units(tmp_path / "units.jsonl"))
    assert code == 0, said
    assert (data["calls"], [leak["unit_id"] for leak in data["leaked"]]) == (2, ["t/P1/email"])


# --- acebench.py: a hybrid task's two channels ------------------------------------------------------------------------


def test_a_hybrid_tasks_shares_and_rubric_weights_are_normalised_and_a_rubric_of_no_weight_is_one_criterion(tmp_path):
    """Three hybrid tasks of 3 checklist items. By hand: shares written `automated: 40, llm_judge: 60` are 0.4 and
    0.6 of the score (each item 0.4 / 3 = 0.1333; HAB5: not normalised, 40 / 3 each); a rubric of two criteria of
    30 % each splits the judge's 0.6 equally, 0.3 each (HAB7: 0.3 × 0.6 = 0.18, the rest of the score nowhere); a
    rubric whose criteria weigh 0 % is one judge criterion of 0.6 (HAB4: divided by a zero total, the import
    failed)."""
    root = tmp_path / "AceBench"
    split = "grading_weights:\n  automated: {}\n  llm_judge: {}"
    _hybrid_task(root, 121, split.format(40, 60), CHECKLIST, "### Depth (Weight: 50%)\n\n### Clarity (Weight: 50%)\n")
    _hybrid_task(root, 122, split.format(0.4, 0.6), CHECKLIST, "### Depth (Weight: 30%)\n\n### Clarity (Weight: 30%)\n")
    _hybrid_task(root, 123, split.format(0.4, 0.6), CHECKLIST, "### Depth (Weight: 0%)\n")
    code, said = _cli("tasks", "import-acebench", root, "--json")
    tasks = {t["id"].split("_")[3]: [round(c["weight"], 4) for c in t["criteria"]]
             for t in json.loads(said[said.index("{"):])["tasks"]}
    assert tasks == {"121": [0.1333] * 3 + [0.3, 0.3], "122": [0.1333] * 3 + [0.3, 0.3], "123": [0.1333] * 3 + [0.6]}



def test_a_task_file_imported_from_inside_acebenchs_folder_needs_no_root_hint(tmp_path):
    """Walk 17's AceBench folder, task 103's workspace folder deleted, its task file imported by its own path (no
    `--root`): the AceBench folder above the file is found, so the line names the missing folder and the task and
    gives no `--root` hint (HAB11: only a `--root` given counted as found, the hint added though the folder was)."""
    root = tmp_path / "AceBench"
    _acebench_replica(root)
    shutil.rmtree(root / "workspace" / "ACE_Bench" / "task_103_scp_crawl")
    [md] = (root / "tasks").rglob("*task_103*.md")
    code, said = _cli("tasks", "import-acebench", md)
    line, = [line for line in said.splitlines() if "privacy_note" in line]
    assert line.endswith(f"its workspace folder {root / 'workspace' / 'ACE_Bench' / 'task_103_scp_crawl'} is "
                         "missing (task ACE_Bench_task_103_scp_crawl)"), line

# --- intercept/app.py: URLs the upstream names for the client's next request ------------------------------------------

_ELSEWHERE = "https://upload.elsewhere.invalid/upload/v1beta/files?upload_id=7"


async def _naming_upstream(request: Request):
    """An upstream whose answers name a URL for the client's next request, as the display name or model asks: an
    upload session on a port of the upstream's host one digit longer than its own (`port`), a protocol-relative URL
    on another host (`relative`); a multipart upload answered with `Location` elsewhere; a chat call redirected by a
    308 (`redirect-308`), or accepted (202) with a `Location` elsewhere to poll (`accepted`)."""
    body = await request.json()
    origin = f"{request.url.scheme}://{request.url.netloc}"
    name = (body.get("file") or {}).get("display_name") or body.get("model")
    if request.headers.get("x-goog-upload-command") == "start":
        url = {"port": f"{origin}1/upload/v1beta/files?upload_id=7", "relative": _ELSEWHERE[6:]}[name]
        return JSONResponse({}, headers={"x-goog-upload-url": url, "x-goog-upload-status": "active"})
    if request.headers.get("x-goog-upload-protocol") == "multipart":
        return JSONResponse({"file": {"name": "files/7"}}, headers={"location": _ELSEWHERE})
    if name == "redirect-308":
        return JSONResponse({}, 308, headers={"location": _ELSEWHERE})
    return JSONResponse({"id": "job-7", "status": "queued"}, 202, headers={"location": _ELSEWHERE})


def test_urls_the_upstream_names_elsewhere_are_refused_only_where_the_client_would_send_its_file_or_body(tmp_path):
    """In front of `_naming_upstream`, redact mode, requests holding no value. Refused (502, the host named, nothing
    handed on): an upload session on another port of the upstream's host, its URL starting with the upstream's
    origin string (HP16: taken for the upstream's own and rewritten into a broken proxy URL), one written
    protocol-relative, `//host/…` (HP17: handed on, the file would go there unguarded), a multipart upload's
    `Location` (HP20: only `x-goog-upload-command` made a request an upload) and a 308's (HP19: only a 307 resends
    the body). Handed on as sent: a 202's `Location` to poll, where no body goes (HP18: every answer's `Location`
    refused)."""
    upstream, stop = serve_in_thread(Starlette(routes=[Route("/{rest:path}", _naming_upstream, methods=["POST"])]))
    start = {"x-goog-upload-protocol": "resumable", "x-goog-upload-command": "start"}
    chat = {"messages": [{"role": "user", "content": _line(NEAR)}]}
    try:
        with running_proxy(upstream + "/v1", tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, store), \
                httpx.Client(base_url=url, timeout=30) as client:
            answers = {name: client.post(f"/e/{name}/upload/v1beta/files", headers=start,
                                         json={"file": {"display_name": name}}) for name in ("port", "relative")}
            answers["multipart"] = client.post("/e/multipart/upload/v1beta/files", json={"file": {"display_name": "n"}},
                                               headers={"x-goog-upload-protocol": "multipart"})
            answers["redirect-308"] = client.post("/e/redirect-308/v1/chat/completions",
                                                  json={**chat, "model": "redirect-308"})
            accepted = client.post("/e/accepted/v1/chat/completions", json={**chat, "model": "accepted"})
    finally:
        stop()
    port = upstream.rsplit(":", 1)[1]
    assert {name: (answer.status_code, "location" in answer.headers or "x-goog-upload-url" in answer.headers)
            for name, answer in answers.items()} == {name: (502, False) for name in answers}
    assert f"another host (127.0.0.1:{port}1)" in answers["port"].json()["error"]["message"]
    assert (accepted.status_code, accepted.headers["location"]) == (202, _ELSEWHERE)


# --- logs/gemini_cli.py: a message's parts as Gemini CLI writes them --------------------------------------------------


def test_a_gemini_cli_prompt_written_as_one_part_or_holding_code_is_read(tmp_path):
    """Walk 17's session with its prompt written as one part (`{"text": …}`, not a list) and a second prompt holding
    a code part (`executableCode`, written as JSON): by hand, the address in the first prompt leaks at call 1 (HG4:
    a single part read as no text) and the phone in the code part at call 2 (HG3: a part of another kind dropped)."""
    user, called, answer, info = GEMINI_SESSION["messages"]
    session = {**GEMINI_SESSION, "messages": [
        {**user, "content": {"text": "Email maria.kessler@example.com a summary."}},
        {**called, "toolCalls": []},
        {**user, "id": "6f1a-user", "content": [{"text": "Then run this:"}, {"executableCode": {
            "language": "PYTHON", "code": "call('+49 30 1234567')"}}]},
        answer]}
    chats = tmp_path / "chats"
    chats.mkdir()
    (chats / "session-2025-11-03T10-12-a1b2c3d4.json").write_text(json.dumps(session, indent=2), encoding="utf-8")
    code, said, data = _audited(chats, "--units", _contact_units(tmp_path / "units.jsonl"))
    assert code == 0, said
    assert sorted((leak["unit_id"], leak["step"]) for leak in data["leaked"]) == [("t/P1/email", 1), ("t/P1/phone", 2)]


def test_a_gemini_cli_jsonl_session_alone_is_its_session_with_each_message_as_last_written(tmp_path):
    """Walk 17's resumed session, its `.jsonl` audited alone (no `.json` beside it): the metadata line names the
    session (HG10: named after the file), and the tool-calling response, written first without its tokens and its
    tool's result, then again with them, is read as last written. By hand as walk 17: 2 calls, 18,300 in, 8,000
    cached, 210 out, $0.015975, the address leaking at call 1 and the phone at call 2 by `read_file` (HG9: the first
    writing kept, call 1 without usage and the file's phone never sent)."""
    chats = tmp_path / "chats"
    chats.mkdir()
    (chats / "session-2025-11-03T10-12-a1b2c3d4.jsonl").write_text(_gemini_jsonl(GEMINI_SESSION), encoding="utf-8")
    code, said, data = _audited(chats, "--units", _contact_units(tmp_path / "units.jsonl"))
    assert code == 0, said
    provider, = data["providers"]
    assert (provider["input_tokens"], provider["cached_tokens"], provider["output_tokens"]) == (18_300, 8_000, 210)
    assert provider["cost_usd"] == pytest.approx(0.015975)
    assert [s["session"] for s in data["sessions"]] == ["a1b2c3d4-1111-2222-3333-444455556666"]
    assert sorted((leak["unit_id"], leak["step"], leak["tool"]) for leak in data["leaked"]) == [
        ("t/P1/email", 1, None), ("t/P1/phone", 2, "read_file")]


# --- logs/openai_log.py: Helicone's session property ------------------------------------------------------------------


def test_a_helicone_export_keeping_its_session_in_properties_alone_keeps_its_sessions(tmp_path):
    """Walk 17's two Helicone calls exported with their session in `properties` only (no `request_properties`, an
    export that keeps it there alone): by hand, 2 sessions claim-1001 and claim-1002 of
    1 call and 1 leak each (HO4: only `request_properties` read, one session named after the file, 2 calls)."""
    export = tmp_path / "output.jsonl"
    export.write_text("".join(json.dumps({k: v for k, v in record.items() if k != "request_properties"}) + "\n"
                              for record in HELICONE), encoding="utf-8")
    code, said, data = _audited(export, "--units", _contact_units(tmp_path / "units.jsonl"))
    assert code == 0, said
    assert {s["session"]: (s["calls"], s["leaked"]) for s in data["sessions"]} == {
        "claim-1001": (1, 1), "claim-1002": (1, 1)}


# --- intercept/sse.py: a Responses API stream that fails --------------------------------------------------------------


async def _failing_responses(request: Request):
    """A Responses API stream that fails after it starts, as OpenAI sends it: `response.created`, then
    `response.failed` whose response holds the error."""
    events = [{"type": "response.created", "response": {"id": "resp_7", "status": "in_progress", "error": None}},
              {"type": "response.failed", "response": {"id": "resp_7", "status": "failed", "error": {
                  "code": "server_error", "message": "The model failed to generate a response."}}}]
    return StreamingResponse(iter([f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events]),
                             media_type="text/event-stream")


def test_a_responses_stream_that_fails_has_its_error_recorded(tmp_path):
    """The proxy relays a failed Responses stream as it came and its record names the error the failure holds
    (HSS2: only an `error` event was read, the record had no error); `response.created`'s `"error": null` is none."""
    upstream, stop = serve_in_thread(Starlette(routes=[Route("/v1/responses", _failing_responses, methods=["POST"])]))
    try:
        with running_proxy(upstream + "/v1", tmp_path / "s.sqlite", units=UNITS, enforce="redact") as (_, url, store), \
                httpx.Client(base_url=url, timeout=30) as client:
            with client.stream("POST", "/e/failed/v1/responses",
                               json={"model": "gpt-4.1", "stream": True, "input": "Say something long"}) as answer:
                text = answer.read().decode()
            [record] = store.records("failed")
    finally:
        stop()
    assert answer.status_code == 200 and "response.failed" in text
    assert record.error == "upstream sent an error mid-stream: The model failed to generate a response.", record.error


# --- units.py: what a file that is no units JSONL is named ---------------------------------------------------------


def test_a_two_column_csv_is_named_a_table_and_a_cut_json_line_naming_value_is_not(tmp_path):
    """`units check` of a CSV of two columns (`field,value`): exit 2, named a CSV table (HU5: a header of two cells
    was no table's, `:1: not valid JSON`). A JSONL whose first line is cut short after its `value` key holds commas
    and the word `value` too, but starts as JSON: `FILE:1: not valid JSON` (HU9: named a CSV table)."""
    table = tmp_path / "units.csv"
    table.write_text("field,value\nemail,maria.kessler@example.com\n", encoding="utf-8")
    code, said = _cli("units", "check", table)
    assert code == 2 and said.strip() == (f"error: {table}: a CSV table, not units JSONL (one JSON object a line, "
                                          "README §Units): write each row as one"), said
    cut = tmp_path / "units.jsonl"
    cut.write_text('{"value": "maria.kessler@example.com", "field": "email",\n', encoding="utf-8")
    code, said = _cli("units", "check", cut)
    assert code == 2 and said.startswith(f"error: {cut}:1: not valid JSON ("), said


# --- intercept/app.py: the Uploads API's seams, bounded, and never refused in observe -------------------------------


def test_a_part_after_one_whose_end_was_dropped_is_refused_and_observe_refuses_no_part(standin, tmp_path):
    """Redact mode holding part ends `held_upload_s=0` (each end dropped once any request comes after it): an
    upload's second part, none of a value in either, is refused 410, its seam not audited (HP6: ends never expired,
    the part forwarded; HP15: a dropped end not looked for, the same). `observe` records only: the phone cut across
    two parts goes out in both, answered 200 (HP7: the second refused 403 in observe too)."""
    app, upstream = standin
    with enforcing_client(upstream, tmp_path / "redact", UNITS, "redact", held_upload_s=0) as (client, store):
        assert _part(client, "aged-part-1", "upload_aged", "customer notes\n").status_code == 200
        refused = _part(client, "aged-part-2", "upload_aged", "thanks\n")
        assert refused.status_code == 410 and "the seam cannot be audited" in refused.json()["error"]["message"]
    with enforcing_client(upstream, tmp_path / "observe", UNITS, "observe") as (client, store):
        parts = ["customer notes\nphone: " + PHONE[:5], PHONE[5:] + "\nthanks\n"]
        answers = [_part(client, f"observed-{i}", "upload_observed", part) for i, part in enumerate(parts)]
        assert [a.status_code for a in answers] == [200, 200]
        assert app.state.requests[-1]["body"]["data"]["data"] == parts[1]


def test_a_value_starting_at_a_seam_is_redacted_and_a_refused_part_sent_again_is_refused_again(standin, tmp_path):
    """Redact mode. A part whose text starts with the phone, the previous part ending just before it: the value lies
    wholly in this part, which is redacted and forwarded as any part is (HSM1: taken for a value across the seam,
    refused 403). A part refused for a value across the seam, sent again as it was, is refused again: the previous
    part's end is kept (HP11: the end forgotten at the refusal, the retry forwarded with the rest of the phone)."""
    app, upstream = standin
    with enforcing_client(upstream, tmp_path, UNITS, "redact") as (client, store):
        assert _part(client, "edge-1", "upload_edge", "customer notes\nphone: ").status_code == 200
        edge = _part(client, "edge-2", "upload_edge", PHONE + "\nthanks\n")
        assert edge.status_code == 200 and PHONE not in app.state.requests[-1]["body"]["data"]["data"]
        assert _part(client, "cut-1", "upload_cut", "customer notes\nphone: " + PHONE[:5]).status_code == 200
        seen = len(app.state.requests)
        answers = [_part(client, f"cut-{n}", "upload_cut", PHONE[5:] + "\nthanks\n").status_code for n in (2, 3)]
        assert answers == [403, 403] and app.state.requests[seen:] == []


def test_a_value_across_a_seam_found_at_the_blocking_grade_exactly_is_refused(standin, tmp_path):
    """A proxy blocking at grade 1.0 (`block_grade`, "at this grade or above"): the phone cut across two parts is
    found whole, 1.0, so the second part is refused 403 (HSM2: only a grade above the bound refused it, none can be
    above 1.0, and the rest of the phone went out)."""
    app, upstream = standin
    with enforcing_client(upstream, tmp_path, UNITS, "redact", block_grade=1.0) as (client, store):
        assert _part(client, "exact-1", "upload_exact", "customer notes\nphone: " + PHONE[:5]).status_code == 200
        assert _part(client, "exact-2", "upload_exact", PHONE[5:] + "\nthanks\n").status_code == 403


def test_a_value_written_longer_than_any_value_is_still_read_across_a_seam(standin, tmp_path):
    """The national id (18 digits) written a digit at a time, 35 characters, cut after its 16th digit: 31 characters
    of it before the seam, more than the longest unit value (the API key, 28 bytes). The end kept of a part is
    four times that, so the id is read across the seam and the second part refused 403 (HP13: one time, 28 bytes
    kept, the id's first digits left out, the part forwarded with the rest of the id)."""
    spaced = " ".join(RECORD["national_id"])
    app, upstream = standin
    with enforcing_client(upstream, tmp_path, UNITS, "redact") as (client, store):
        assert _part(client, "long-1", "upload_long", "id card: " + spaced[:31]).status_code == 200
        assert _part(client, "long-2", "upload_long", spaced[31:] + "\nthanks\n").status_code == 403
