"""Hand mutants of session 28 (benchmarks/hand_mutants.py, `GROUPS_S28`; RESULTS.md, "Session 28: hand mutants in
session 27's code"): planted one at a time in the code session 27 changed, each survivor a behaviour no test held.
Each test here kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files,
HTTP through the proxy) or, where the CLI cannot reach it, by what the library function gives."""

from __future__ import annotations

import base64
import json
import re
import time
import urllib.parse

import pytest
from click.testing import CliRunner
from intercept_helpers import enforcing_client
from test_detect_forms_s24 import _scan
from test_intercept_forms_walk_3 import NEAR, RECORD, UNITS
from test_intercept_upload_seams import _part
from test_new_user_walk_19 import _UNITS, _call, _write_jsonl

from ec2audit.cli import main
from ec2audit.cli.intercept import _stopped
from ec2audit.intercept.fields import Number, number_text
from ec2audit.intercept.pricing import Pricing
from ec2audit.logs import audit as log_audit
from ec2audit.logs.audit import LogAudit

__all__ = ["UNITS"]  # the units the `proxy` fixture guards (walk 3's record)

PHONE, NEAR_PHONE = RECORD["phone"], NEAR["phone"]


def _audit_json(*args) -> dict:
    result = CliRunner().invoke(main, ["audit", *map(str, args), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --- logs/audit.py: a serial audit's calls written as it goes ---------------------------------------------------------

def test_a_serial_audit_writes_its_calls_as_it_goes_where_they_hold_no_findings(tmp_path, monkeypatch):
    """IAU2, IAU3: a session of 23 calls, only the last naming Maria's phone, audited serially with `SPILL_ROWS` 5:
    the calls are written 5 at a time though no finding row is held (by hand: parts of 5, 5, 5, 5 calls written as
    the 6th, 11th, 16th and 21st are read, the last 3 at the end: 23 in all, none over 5), and the summary is that of
    an audit that wrote nothing: 23 calls, 1 finding. (Written only at 5 finding rows: nothing written, all 23 held;
    past 5 held rather than at 5: parts of 6.)"""
    rows = [_call("s1", "gpt-4o-mini", f"status check {k}", {"prompt_tokens": 10, "completion_tokens": 2})
            for k in range(22)] + [_call("s1", "gpt-4o-mini", "Call Maria at +1 415 555 0134", None)]
    log = _write_jsonl(tmp_path / "requests.jsonl", rows)
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    held: list[tuple[int, int]] = []
    spill = LogAudit.spill_held

    def counted(self, prefix):
        held.append((len(self.calls), len(self.result.finding_rows)))
        spill(self, prefix)

    monkeypatch.setattr(LogAudit, "spill_held", counted)
    whole = _audit_json(log, "--units", units)
    assert held == []
    monkeypatch.setattr(log_audit, "SPILL_ROWS", 5)
    assert _audit_json(log, "--units", units) == whole and (whole["calls"], whole["findings"]) == (23, 1)
    assert held == [(5, 0), (5, 0), (5, 0), (5, 0), (3, 1)], held


# --- logs/report.py: the audit's first line counts in words -----------------------------------------------------------

def test_an_audit_of_one_call_against_one_unit_says_so_in_the_singular(tmp_path):
    """IRP4: `audit` of a log of one gpt-4o-mini call against one unit (Maria's phone): its first line reads
    `1 file read, 1 model call (1 cloud, 0 edge), 1 unit`, not `1 units`."""
    log = _write_jsonl(tmp_path / "requests.jsonl", [_call("s1", "gpt-4o-mini", "Call Maria at +1 415 555 0134", None)])
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS[:1])
    result = CliRunner().invoke(main, ["audit", log, "--units", units])
    assert result.exit_code == 0, result.output
    assert "1 file read, 1 model call (1 cloud, 0 edge), 1 unit\n" in result.output, result.output


def test_the_html_reports_strategy_table_says_tokens_nobody_counted_are_unknown(tmp_path):
    """IRH1: `report --out report.html` of an audit of one gpt-4o-mini call logged without its usage: the strategy
    table's row reads `1` cloud call and `unknown` input, cached and output tokens (no call counted any), not a dash."""
    log = _write_jsonl(tmp_path / "requests.jsonl", [_call("s1", "gpt-4o-mini", "Call Maria at +1 415 555 0134", None)])
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    for args in (["audit", log, "--units", units, "--out", tmp_path / "out" / "findings.parquet"],
                 ["report", tmp_path / "out", "--out", tmp_path / "report.html"]):
        result = CliRunner().invoke(main, [str(a) for a in args])
        assert result.exit_code == 0, result.output
    table = (tmp_path / "report.html").read_text().split('<table id="strategies"', 1)[1].split("</table>", 1)[0]
    head = re.findall(r"<th[^>]*>(.*?)</th>", table)
    row = dict(zip(head, re.findall(r"<td[^>]*>(.*?)</td>", table), strict=False))
    assert [row[h] for h in ("cloud calls", "cloud input tok", "cached tok", "output tok")] == [
        "1", "unknown", "unknown", "unknown"], row


# --- intercept/seams.py: the seam read at every alignment -------------------------------------------------------------

_NOTE = "Ticket 4471: the customer asked us to call back after five, twice. " * 3


def _b64_parts(phone: str, residue: int) -> tuple[str, str]:
    """A ticket naming `phone`, in base64, cut inside the phone's writing where the cut's offset in the run is
    `residue` modulo 4: the seam's text (the first part's last 100 bytes, the second's first 100, all of the run)
    starts `(4 - residue) % 4` characters before a group and holds 200 characters, so it reads the run only from
    that start and to 3 - ((200 - that) % 4)… characters before its end, both cut (`seams.views`)."""
    written = base64.b64encode(f"{_NOTE}phone: {phone}; thanks\n{_NOTE}".encode()).decode()
    at = (len(_NOTE) + len("phone: ") + 5) * 4 // 3 // 4 * 4 + residue
    return written[:at], written[at:]


def _parts_outcome(proxy, name: str, cut: tuple[str, str], near: tuple[str, str]) -> None:
    """The cut value's second part refused (403, naming the phone's unit, never sent); the near miss's both sent."""
    mode, app, client, store = proxy
    first, second = cut
    assert _part(client, f"{name}-1", f"{name}_{mode}", first).status_code == 200
    seen = len(app.state.requests)
    refused = _part(client, f"{name}-2", f"{name}_{mode}", second)
    assert refused.status_code == 403 and "t1/P1/phone" in refused.text and app.state.requests[seen:] == [], \
        refused.text
    for k, part in enumerate(near):
        assert _part(client, f"{name}-near", f"{name}_near_{mode}", part).status_code == 200, k
        assert part.encode() in app.state.requests[-1]["raw"]


@pytest.mark.parametrize("residue", [1, 3])
def test_a_base64_run_cut_off_its_groups_at_both_ends_of_the_seam_is_read(proxy, residue):
    """ISM4: an Uploads API file of base64 text cut in two parts inside the phone's writing, where the seam's text
    starts off a group (1 or 3 characters before one) and so ends off one too (200 characters: (200 - 3) % 4 = 1,
    (200 - 1) % 4 = 3 to trim): read only from a start cut and to an end cut both, the second part is refused; the
    near phone's parts go out. (Read from a cut start with the end left whole, or the other way round: forwarded.)"""
    _parts_outcome(proxy, f"b64_{residue}", _b64_parts(PHONE, residue), _b64_parts(NEAR_PHONE, residue))


def test_a_file_that_is_the_value_alone_cut_in_two_parts_is_read_whole(proxy):
    """ISM3: a file of the 11-digit phone alone, sent in two parts of 5 and 6 digits: the seam's text is the phone,
    11 characters, read whole only untrimmed (its views at the base64 alignments trim 3 at the end, or 1 to 3 at the
    start: no 11 digits); the second part is refused, the near phone's go out."""
    _parts_outcome(proxy, "alone", (PHONE[:5], PHONE[5:]), (NEAR_PHONE[:5], NEAR_PHONE[5:]))


# --- detect/forms: keyed pins, ratios, digit prefixes -----------------------------------------------------------------

@pytest.mark.parametrize(("value", "dimension", "text"), [
    ("731946#", "credential", "call 0-731946 then press hash"),  # IKP5: the end of a longer number, 0731946
    ("555-12-34", "contact", "dial 555-12 first"),  # IDP1: 5 of 7 digits (at least six shown)
    ("(503) 555-0147", "contact", "only (503) 555 was legible"),  # IDP2: 6 of 10 (two thirds, rounded up: 7)
    ("股东张伟持股100%", "business", "the battery is at 100% now"),  # IRA2: one share alone is no split
    ("9144 0300 7084", "business", "see contract 9144 0300 in the archive"),  # IDP4: no tail fragments
    ("4471", "contact", "ext. 44**"),  # IMA4: two of a short number shown, no credential's
])
def test_too_little_of_a_value_or_another_number_is_no_hit_of_the_new_forms(value, dimension, text):
    """What session 27's forms leave alone: a code read out with its key where the digits end a longer number
    (`0-731946`: not the code 731946#); the start of a grouped number showing fewer than six digits, or fewer than two
    thirds of them rounded up (10 digits: ⌈20 / 3⌉ = 7, so `(503) 555`'s 6 are too few; 7 digits: 6, so `555-12`'s 5
    are), or of a dimension whose fragments are no tail (a business's numbers: `fragment = "none"`); a single
    percentage, which splits nothing (`100%` of one holder is no ratio of shares); two characters of a short value
    masked to its length, which name a credential (a PIN) but not an extension (`44**` of 4471: under four shown)."""
    assert _scan(value, dimension, text, "f") == []


def test_complete_reads_a_value_across_three_parts_the_middle_one_shorter_than_a_seam(proxy):
    """IAP6: the phone cut across three Uploads API parts (its first 5 digits end the first, 3 digits are the whole
    second, the last 3 start the third), sent last-first (no seam of that order holds it): `complete` naming them in
    order is refused (403, the phone's unit, nothing sent), the second part being shorter than a seam, so the seam
    before the third reads the first's end and the second whole (`…13922` + `883` + `366…`)."""
    mode, app, client, store = proxy
    pieces = ("customer notes\nphone: " + PHONE[:5], PHONE[5:8], PHONE[8:] + "\nthanks\n")
    upload, ids = f"three_{mode}", {}
    for k in (2, 1, 0):
        answer = _part(client, f"three-{k}", upload, pieces[k])
        assert answer.status_code == 200, answer.text
        ids[k] = answer.json()["id"]
    seen = len(app.state.requests)
    made = client.post(f"/e/three-{mode}/v1/uploads/{upload}/complete", json={"part_ids": [ids[0], ids[1], ids[2]]})
    assert made.status_code == 403 and "t1/P1/phone" in made.text and app.state.requests[seen:] == [], made.text


def test_an_observing_proxy_hands_on_the_model_lists_redirect_to_another_host(standin, tmp_path):
    """IAP10: `--enforce observe` only records: the model list's GET answered with a 302 to another host reaches the
    client as the upstream sent it (302, its `Location` there), as a POST's does; the enforcing modes refuse it (walk
    17)."""
    with enforcing_client(standin[1], tmp_path, UNITS, "observe") as (client, _):
        answer = client.get("/e/listing/v1/models", headers={"x-standin-script": "fault-redirect-302-elsewhere"})
    assert answer.status_code == 302, answer.text
    assert answer.headers["location"].startswith("https://upload.elsewhere.invalid/")


# --- intercept/form_data.py: a URL-encoded body written back in its charset -------------------------------------------

def test_a_urlencoded_body_in_a_declared_charset_goes_out_in_that_charset(proxy):
    """IFD1: a URL-encoded completion request declaring `charset=gbk`, its prompt Chinese text naming nobody: the
    upstream gets a body that reads, in GBK as its header says, as the same two fields (the prompt's 7 characters
    percent-encoded 2 bytes each, `%C7%EB…`), not UTF-8's 3 bytes each, which GBK reads as other characters."""
    mode, app, client, store = proxy
    pairs = [("model", "echo"), ("prompt", "请在五点后回电")]
    answer = client.post(f"/e/gbk-form-{mode}/v1/completions", content=urllib.parse.urlencode(pairs, encoding="gbk"),
                         headers={"content-type": "application/x-www-form-urlencoded; charset=gbk"})
    assert answer.status_code == 200, answer.text
    sent = app.state.requests[-1]["raw"].decode("ascii")
    assert urllib.parse.parse_qsl(sent, encoding="gbk") == pairs and sent.count("%") == 14, sent


def test_a_relative_sharing_the_persons_surname_is_not_called_by_it():
    """ISN3: the record's person is 王建国 and a unit names his relative 王小红: `老王` or `小王` (Wang, familiarly)
    in a text is no fragment of the relative, whom the family name alone does not tell from him."""
    assert [_scan("王小红", "person_name", text, "name", entity_name="王建国") for text in (
        "小王明天来上班", "老王说他明天来")] == [[], []]


@pytest.mark.parametrize(("value", "dimension", "text", "found"), [
    ("330106198703081234", "government_id", "his ID number's first five are 33010", "33010"),  # ICF1
    ("330106198703081234", "government_id", "ID first 5: 33010", "33010"),  # ICF1
    ("王建国", "person_name", "小王明天来上班", "小王"),  # ISN2
])
def test_a_piece_the_new_forms_read_is_found_as_a_fragment(value, dimension, text, found):
    """What session 27's forms read: an identifier's start named by its count in English words or digits (`first
    five`, `first 5`: the first 5 of the id card's 18 digits); a person called by the familiar 小 or 老 before the
    surname (小王 of 王建国), a fragment (0.3)."""
    assert _scan(value, dimension, text, "id") == [("partial.fragment", 0.3, found)]


@pytest.mark.parametrize(("value", "dimension", "text", "found"), [
    ("ghp@proton.me", "contact", "it's golf hotel papa at proton dot me", "golf hotel papa at proton dot me"),  # ISE1
    ("云南省红河州元阳县新街镇土锅寨村五组", "location", "寄到红河元阳县新街镇土锅寨村五组",
     "红河元阳县新街镇土锅寨村五组"),  # IAD7: the prefecture 红河州 written without 州, before its county
])
def test_a_value_the_new_forms_read_is_found_whole_where_it_is_written(value, dimension, text, found):
    """An address spelled in the NATO alphabet (golf, hotel, papa: g, h, p) is the address (1.0); a Chinese address
    whose prefecture (`…州`) is written without its suffix before the county is the address from the prefecture on."""
    assert [(grade, span) for _, grade, span in _scan(value, dimension, text, "f")] == [(1.0, found)]


# --- intercept/form_data.py: a file's byte order mark and a JSONL file in its charset ---------------------------------

def _upload(proxy, name: str, data: bytes, content_type: str) -> bytes | None:
    """`/v1/files` of a file `name` of `data` declared as `content_type`: the bytes the upstream got of it (None
    where the proxy refused it)."""
    mode, app, client, store = proxy
    seen = len(app.state.requests)
    answer = client.post(f"/e/{name}-{mode}/v1/files", data={"purpose": "batch"},
                         files={"file": (name, data, content_type)})
    if answer.status_code != 200:
        return None
    [sent] = app.state.requests[seen:]
    return sent["raw"]


def test_a_file_is_read_by_its_byte_order_mark_and_a_jsonl_file_goes_out_in_its_charset(proxy):
    """IFD10: a text file that starts with UTF-8's byte order mark, its header declaring Latin-1 (a mislabel),
    naming nobody: read as the mark says, not as text that reads two ways (refused), so it goes out as it came.
    IFD11: a JSONL file of two lines in GBK (`application/jsonl; charset=gbk`) naming nobody: read as GBK text and
    forwarded as its bytes, not read as JSON lines and written back in UTF-8."""
    marked = "\ufeff客户说五点后回电\n".encode()
    sent = _upload(proxy, "marked.txt", marked, "text/plain; charset=iso-8859-1")
    assert sent is not None and marked in sent
    lines = '{"custom_id": "a", "note": "五点后回电"}\n{"custom_id": "b", "note": "明天再说"}\n'.encode("gbk")
    sent = _upload(proxy, "batch.jsonl", lines, "application/jsonl; charset=gbk")
    assert sent is not None and lines in sent


# --- cli/intercept.py: what a stopped interceptor says ----------------------------------------------------------------

def test_a_stopped_interceptor_counts_a_failed_calls_tokens_as_none_and_names_only_blocked_requests(proxy):
    """What `intercept serve` prints when stopped (`_stopped`, over the records of this test's requests): TT2 (ICI5
    before `metrics.token_total`), in redact mode, a call the upstream failed (500, no usage, billed nothing) sent
    no tokens anyone bills: `0 input / 0 output tokens`, not unknown; ICI8, in block mode, a run that only blocked a
    request (Maria's phone: 403) still says how to audit its store, whose records hold that refusal."""
    mode, app, client, store = proxy
    since = time.time()
    if mode == "redact":
        answer = client.post("/e/failed/v1/chat/completions",
                             json={"model": "fault-500", "messages": [{"role": "user", "content": "hello"}]})
        assert answer.status_code == 500
        said = _stopped(store.path, since, Pricing())
        assert "  fault-500: 1 call, 0 input / 0 output tokens, USD 0.0000" in said, said
    else:
        answer = client.post("/e/refused/v1/chat/completions", json={
            "model": "gpt-4o", "messages": [{"role": "user", "content": f"call me at {PHONE}"}]})
        assert answer.status_code == 403
        said = _stopped(store.path, since, Pricing())
        assert said.startswith("stopped: 0 calls recorded") and "1 request blocked (403)" in said, said
        assert f"audit them: ec2audit audit {store.path} --units FILE" in said, said


# --- intercept/fields.py: a number as written -------------------------------------------------------------------------

def test_a_number_with_an_exponent_is_read_in_its_digits_within_forty_characters():
    """IFL1, IFL3, IFL4: what the walk reads a JSON number with an exponent as: the id `1.10105198803153418e17` as its
    18 digits (`110105198803153418`, the exponent 17 within the reach), the phone `1.3922883366e10` as
    `13922883366`, not Python's `1.3922883366E+10`; `1.5e-39` written out is 42 characters (`0.` and 38 zeros before
    `15`), past the reach of 40: read as it stands."""
    assert [number_text(Number(t)) for t in ("1.10105198803153418e17", "1.3922883366e10", "1.5e-39")] == [
        "110105198803153418", "13922883366", "1.5e-39"]
