"""Hand mutants of session 29 (benchmarks/hand_mutants.py, `GROUPS_S29`; RESULTS.md, "Session 29: hand mutants in
session 28's code"): planted one at a time in the code session 28 changed, each survivor a behaviour no test held.
Each test here kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files,
HTTP through the proxy) or, where the CLI cannot reach it, by what the library function gives."""

from __future__ import annotations

import base64
import gzip
import json

from click.testing import CliRunner
from test_detect_forms_s24 import _scan
from test_intercept_forms_walk_3 import RECORD, UNITS, _line
from test_new_user_walk_19 import _UNITS, _write_jsonl

from ec2audit.cli import EXIT_SKIPPED, main

__all__ = ["UNITS"]  # the units the `proxy` fixture guards (walk 3's record)


def _cli_json(*args) -> dict:
    result = CliRunner().invoke(main, [*map(str, args), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _grade(value: str, dimension: str, text: str, field: str) -> float:
    """The highest grade of the one unit's hits in `text` (0 for none)."""
    return max((grade for _, grade, _ in _scan(value, dimension, text, field)), default=0.0)


# --- detect/forms: plate_parts' share, host_labels' one host ---------------------------------------------------------

def test_most_of_a_plate_is_more_than_sixty_percent_of_it_and_a_host_label_of_words_is_no_host():
    """QPP3: a piece of a 7-character plate near "plate" is most of it (0.7) from 5 characters (5/7 = 71 % > 60 %,
    `PIECE_SHARE`), not at 4 (57 %); (at a 50 % share 4 > 3.5 would count). QHL2: a host's first label counts only
    with a digit or a hyphen: `pg-prod-03` is one host (0.7), `mailserver` is a word many networks name a host.
    QHL3: and only the first label of a name of three labels or more: `norvale-7.com` is a registered domain, its
    first label the owner's name. QHL4: a label after a dot (`replica.pg-prod-03`) is a later label of another
    name."""
    assert [_grade("6TRJ244", "other", f"plate {piece} on the trailer", "vehicle_plate")
            for piece in ("6TRJ2", "6TRJ")] == [0.7, 0]
    assert [_grade(f"{label}.internal.norvale.net", "network", f"connection to {label} refused", "host")
            for label in ("pg-prod-03", "mailserver")] == [0.7, 0]
    assert _grade("norvale-7.com", "network", "a mail from norvale-7 today", "host") == 0
    assert _grade("pg-prod-03.internal.norvale.net", "network", "connection to replica.pg-prod-03 refused", "host") == 0


# --- detect/forms/truncated.py: a cut showing eight characters, the head the automaton holds --------------------------

def test_a_key_cut_after_nine_of_its_characters_is_a_fragment():
    """QTR1: walk 39/40's key (31 characters, no vendor prefix) cut after `gh_tok_9H`, 9 characters, and `...`: a
    fragment, 9/31 = 29 % of it (0.3); the cue is its first 8 characters (`_HEAD`), so any cut from there is read
    (a cue of 12 reads none shorter). QTR8: a GitHub token (`ghp_` and 37 characters of its own) cut after 17 of its
    own shows 17/37 = 46 %, a fragment (0.3), and after 19, 51 %, most of it (0.7): the published prefix is nobody's
    (counting it, 21/41 = 51 % would be most). QTR7: a one-token value with no digit, a hyphenated surname, cut in a
    letter's greeting is prose cut off, no hit."""
    assert _grade("gh_tok_9Hq2Lz7Wm4Xc8Vb3Nd6Rt1Yp5", "credential", "secret=gh_tok_9H... mismatch", "token") == 0.3
    token = "ghp_9Hq2Lz7Wm4Xc8Vb3Nd6Rt1Yp5Kd8s2LqW9vZr"
    assert [_grade(token, "credential", f"token={token[:4 + k]}... (truncated)", "token") for k in (17, 19)] == [
        0.3, 0.7]
    assert _grade("Achterberg-Nwosu-Lindqvist", "person_name", "Dear Ms Achterberg-Nwosu...", "name") == 0


# --- detect/forms/mime_bodies.py: a header block in any order, a part ending at its boundary --------------------------

_GBK_BODY = base64.encodebytes("客户：王秀英\n手机：13922883366\n".encode("gbk")).decode()


def test_a_mail_body_is_read_whatever_its_headers_order_and_up_to_its_boundary():
    """QMB4: a mail whose `Content-Transfer-Encoding: base64` comes before its `Content-Type: …; charset="gbk"`
    (headers are in any order): its GBK body is read, the phone in it found whole (1.0). QMB5: in a multipart mail,
    the GBK part's body ends at the next boundary line (`--b1`), and is read; run on to the text's end it is no
    base64."""
    first = ("From: desk@example.net\nMIME-Version: 1.0\nContent-Transfer-Encoding: base64\n"
             f'Content-Type: text/plain; charset="gbk"\n\n{_GBK_BODY}')
    parts = ('From: desk@example.net\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b1"\n\n--b1\n'
             f'Content-Type: text/plain; charset="gbk"\nContent-Transfer-Encoding: base64\n\n{_GBK_BODY}--b1\n'
             'Content-Type: text/plain; charset="us-ascii"\n\nsee attached\n--b1--\n')
    assert [_grade("13922883366", "contact", text, "phone") for text in (first, parts)] == [1.0, 1.0]


# --- detect/forms/separators.py: a plate's province romanised before a hyphen -----------------------------------------

def test_a_plates_province_romanised_before_a_hyphen_is_the_plate():
    """QSE2: `沪A·7K3M9` written `Hu-A·7K3M9` (a form with no Han input, a hyphen after the province) is the plate
    (1.0), as `Hu A·7K3M9` is."""
    assert [_grade("沪A·7K3M9", "other", f"parked: {plate}, white", "vehicle_plate")
            for plate in ("Hu-A·7K3M9", "Hu A·7K3M9")] == [1.0, 1.0]


# --- detect/value_checks.py: `another_unit`, the value's number with another unit of its measure ----------------------

def test_another_unit_is_one_of_the_values_measure_and_the_value_never_given_in_its_own():
    """What the learned grader withholds as "another unit" (`learned_grader.withheld`, the local judge's reason):
    QVC5, Mrs Marchetti's `131磅` (pounds, in Chinese) for his 131 kg is another quantity; QVC1, a text giving his
    131 kg and his wife's 131 lb gives the value too (not withheld); QVC2, a seat 131 cm from the aisle is a length,
    another measure than a weight (not withheld); QVC4, 175 `min` is no metre: a height of 175 cm is not withheld
    for `175 min late`."""
    from ec2audit.detect.learned_grader import withheld
    from ec2audit.units import make_unit

    def unit(field: str, value: str):
        return make_unit({"task_id": "t", "entity_id": "B-2", "entity_name": "Gideon Marchetti", "field": field,
                          "value": value, "dimension": "other"})

    weight, height = unit("weight", "131 kg"), unit("height", "175 cm")
    texts = ["Manifest: MARCHETTI N (Mrs) 131磅。", "Gideon Marchetti: 131 kg, his wife 131 lb.",
             "Gideon Marchetti, seat 131 cm from the aisle."]
    assert [withheld(weight, text) for text in texts] == ["another unit", "", ""]
    assert withheld(height, "Gideon Marchetti was 175 min late.") == ""


# --- intercept/shape.py: an `input` beside a stored prompt is still checked -------------------------------------------

def test_a_responses_request_naming_a_prompt_with_an_input_of_the_wrong_type_is_refused(proxy):
    """QSH3: a Responses request naming a stored prompt may leave out `input`, but one it sends is read, so it must
    be a string or an array: `input: 42` beside `prompt` is a 400 naming the field, nothing forwarded (as without
    the prompt). QSH4: a request with neither `input` nor a prompt, a response or a conversation to continue asks
    nothing: 400 too."""
    mode, app, client, store = proxy
    seen = len(app.state.requests)
    answer = client.post(f"/e/prompt-input-{mode}/v1/responses",
                         json={"model": "echo", "prompt": {"id": "pmpt_ticket"}, "input": 42})
    assert (answer.status_code, app.state.requests[seen:]) == (400, []), answer.text
    assert "input must be a string or an array, not int" in answer.text
    answer = client.post(f"/e/prompt-none-{mode}/v1/responses", json={"model": "echo"})
    assert (answer.status_code, app.state.requests[seen:]) == (400, []), answer.text


# --- intercept/media.py: a compressed file past the inflation limit ---------------------------------------------------

def test_a_gzip_inflating_past_the_limit_is_named_unread_not_read_in_part(proxy, monkeypatch):
    """QMD11: the record's line gzipped, sent as a chat file, with `UNZIPPED_LIMIT` set to 40 bytes (the line is
    longer): the reader stops at the limit and the file is named unread, as a zip bomb is (walk 8), forwarded as sent
    under the default policy, with no finding: never its first 40 bytes read as if they were the file. (Reading
    `limit` bytes and not one more never sees it is past the limit.)"""
    from ec2audit.intercept import media

    mode, app, client, store = proxy
    data = gzip.compress(_line(RECORD).encode())
    monkeypatch.setattr(media, "UNZIPPED_LIMIT", 40)
    assert len(_line(RECORD).encode()) > 40
    episode = f"gzip-over-limit-{mode}"
    b64 = base64.b64encode(data).decode()
    answer = client.post(f"/e/{episode}/v1/chat/completions", json={"model": "echo", "messages": [{"role": "user",
        "content": [{"type": "file", "file": {"filename": "notes.txt.gz",
                                              "file_data": f"data:application/gzip;base64,{b64}"}}]}]})
    [record] = store.records(episode)
    assert answer.status_code == 200, answer.text
    assert ([(u["media_type"], u["bytes"]) for u in record.unread], record.findings) == (
        [("application/gzip", len(data))], [])


# --- logs/base.py: `record_key`, a call logged again is the same call, not the same id --------------------------------

def test_two_litellm_calls_an_upstream_answered_with_one_id_are_two_calls(tmp_path):
    """QBA2: a self-hosted server behind LiteLLM answers every call with the id `chatcmpl-1`; the callback logged two
    calls (900 and 300 prompt tokens, $0.003 each) under it. By hand: 2 calls, 900 + 300 = 1,200 input tokens,
    $0.006, none logged again: a copy is the same id with the same request, model, usage and cost, not the same id
    alone (that read 1 call, 900 tokens)."""
    records = [{"id": "chatcmpl-1", "call_type": "acompletion", "model": "gpt-4o", "custom_llm_provider": "openai",
                "messages": [{"role": "user", "content": text}], "response_cost": 0.003, "prompt_tokens": tokens,
                "completion_tokens": 20, "startTime": 1765100000 + k, "metadata": {"session_id": "sess-a"},
                "response": {"id": "chatcmpl-1", "choices": [{"message": {"role": "assistant", "content": "ok"}}],
                             "usage": {"prompt_tokens": tokens, "completion_tokens": 20}}}
               for k, (text, tokens) in enumerate([("summarise the ticket", 900), ("draft a reply", 300)])]
    folder = tmp_path / "litellm"
    folder.mkdir()
    _write_jsonl(folder / "callback.jsonl", records)
    summary = _cli_json("audit", folder, "--units", _write_jsonl(tmp_path / "units.jsonl", _UNITS))
    [provider] = summary["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["cost_usd"]) == (2, 1200, 0.006)
    assert [c["logged_again"] for c in summary["coverage"]] == [0]


def test_a_damaged_gzip_in_a_workspace_is_named_with_its_kind(tmp_path):
    """QMD15: `annotate prelabel` over a workspace holding `notes.txt.gz` cut off halfway (a download stopped): the
    file is skipped (exit 1: done, an input skipped), saying why in the archive's own word, `unreadable gzip
    (EOFError)` (the media type's last part), not `application`."""
    ws = tmp_path / "ws"
    ws.mkdir()
    packed = gzip.compress(_line(RECORD).encode())
    (ws / "notes.txt.gz").write_bytes(packed[:len(packed) // 2])
    (ws / "README.md").write_text("Ticket export tools.\n")
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(ws), "--no-presidio", "--units",
                                       str(tmp_path / "auto.jsonl"), "--out", str(tmp_path / "ls.json")])
    assert result.exit_code == EXIT_SKIPPED, result.output
    assert "binary (application/gzip) whose text cannot be read (unreadable gzip (EOFError))" in result.output


# --- metrics.py, logs/audit.py: an episode naming no task counts a value two tasks hold once --------------------------

_SHARED = [
    {"task_id": "t1", "entity_id": "E1", "entity_name": "Maria Kessler", "field": "phone", "value": "+1 415 555 0134",
     "dimension": "contact", "weight": 1.0},
    {"task_id": "t2", "entity_id": "E1", "entity_name": "Maria Kessler", "field": "phone", "value": "+1 415 555 0134",
     "dimension": "contact", "weight": 1.0},
    {"task_id": "t2", "entity_id": "E2", "entity_name": "Wang Lei", "field": "email", "value": "wang.lei@corp-mail.cn",
     "dimension": "contact", "weight": 1.0}]


def test_an_episode_naming_no_task_counts_a_value_two_tasks_hold_once(standin, tmp_path):
    """QMT4, QLA7: Maria's phone is a unit of t1 and of t2 (the same client in two tasks); episode ep1, naming no
    task, sends it once through an observing proxy. By hand: ep1 is scored against the units found in its calls, and
    the phone is one value sent, not two: 1 unit, 1 leaked, exposure 1.0, in `intercept audit` (its table and the
    sessions table `--out` writes) and in `audit STORE` (each unit id counted: 2 units, 2 leaked). QCI2: the sessions
    table names no task for it (it matched none), not every task of the units."""
    import httpx
    from intercept_helpers import running_proxy, wait_for_records

    _, upstream = standin
    units = _write_jsonl(tmp_path / "units.jsonl", _SHARED)
    with running_proxy(upstream, tmp_path / "cloud.sqlite") as (_, url, store), httpx.Client(timeout=30) as client:
        answer = client.post(f"{url}/e/ep1/v1/chat/completions", json={
            "model": "gpt-4o", "messages": [{"role": "user", "content": "Call Maria at +1 415 555 0134"}]})
        assert answer.status_code == 200, answer.text
        wait_for_records(store, 1)
    out = tmp_path / "findings.jsonl"
    result = CliRunner().invoke(main, ["intercept", "audit", str(store.path), "--units", units, "--out", str(out)])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if "ep1" in line)
    assert row.split("│")[2:6] == [" units in its calls ", "     1 ", "           1 ", "    1.000 "], row
    [written] = map(json.loads, (tmp_path / "findings.sessions.jsonl").read_text().splitlines())
    assert (written["units"], written["scored_against"], written["tasks"]) == (1, "units found in its own calls", [])
    [session] = _cli_json("audit", store.path, "--units", units)["sessions"]
    assert (session["units"], session["leaked"], session["exposure"]) == (1, 1, 1.0)


# --- run/: an episode's and a run's cloud figures unknown where a call had no price or counted no tokens --------------

def _episode(eid: str, run: int, cloud: list):
    """An episode record of the cloud-only strategy from its calls' records, as `run_episode` writes one."""
    from ec2audit.run.episodes import cloud_usage
    from ec2audit.run.record import EpisodeRecord

    return EpisodeRecord(
        episode_id=eid, task_id="t1", scenario="office", strategy="cloud-only", variant="cloud-only", router=None,
        cloud_context=None, edge_model="edge", cloud_model="gpt-4o", run_index=run, status="ok", completion=1.0,
        criteria="{}", passed=True, **cloud_usage(cloud), edge_calls=0, edge_input_tokens=0, edge_output_tokens=0,
        edge_flops=0.0, exposure=0.0, exposure_by_dimension=[], leaked_units="[]", routes="[]", asks=0, exit_code=0,
        error=None, duration_s=1.0, openclaw_s=1.0, openclaw_startup_s=None, isolation="{}")


def test_a_cloud_cost_or_token_count_nobody_knows_is_unknown_per_episode_per_run_and_when_stopped(standin, tmp_path):
    """Through a real proxy, as a run's gateway sends them: episode r0 calls gpt-4o (priced) and `echo` (no price
    table knows it); r1 calls gpt-4o and streams a call the cloud cuts off (`fault-cut`: no usage came). By hand:
    QEP1, r0's `cloud_usd` is unknown (None), not gpt-4o's cost read as the whole, its calls 2; QSC2, the run's
    closing table's tokens cell for the strategy is `unknown` (r1's tokens are: one call counted none), not the rest
    summed; QCO2, `intercept serve`'s stop summary says `fault-cut: 1 call, unknown input / unknown output tokens`,
    never 0."""
    import time

    import httpx
    from intercept_helpers import running_proxy, wait_for_records
    from rich.console import Console

    from ec2audit.cli.intercept import _stopped
    from ec2audit.intercept.pricing import Pricing
    from ec2audit.run.scheduler import RunResult, summary_table

    _, upstream = standin
    since = time.time()
    question = [{"role": "user", "content": "What time is it?"}]
    with running_proxy(upstream, tmp_path / "cloud.sqlite") as (_, url, store), httpx.Client(timeout=30) as client:
        for run, model in ((0, "gpt-4o"), (0, "echo"), (1, "gpt-4o"), (1, "fault-cut")):
            try:
                client.post(f"{url}/e/t1.cloud-only.r{run}/t/t1/v1/chat/completions",
                            json={"model": model, "stream": model == "fault-cut", "messages": question}).read()
            except httpx.HTTPError:
                pass
        records = wait_for_records(store, 4)
    episodes = [_episode(f"t1.cloud-only.r{run}", run, [r for r in records if r.episode == f"t1.cloud-only.r{run}"])
                for run in (0, 1)]
    assert (episodes[0].cloud_calls, episodes[0].cloud_usd, episodes[1].cloud_input_tokens) == (2, None, None)
    console = Console(width=200, record=True)
    console.print(summary_table(RunResult(tmp_path, episodes, 2, 0)))
    [row] = [line for line in console.export_text().splitlines() if "cloud-only" in line]
    assert row.split("│")[5].strip() == "unknown", row
    said = _stopped(store.path, since, Pricing())
    assert "  fault-cut: 1 call, unknown input / unknown output tokens" in said, said


# --- annotate/recognizers/finance.py: UnionPay's published test card --------------------------------------------------

def test_unionpays_published_test_card_is_nobodys_card(tmp_path):
    """QFI5: a payments README for a Chinese checkout: Stripe's UnionPay test card `6200 0000 0000 0005` (Luhn-valid,
    four distinct digits: no run of one digit), then a customer's card on file. By hand: one card proposed, the
    customer's `5500 0055 5555 5559`."""
    from test_new_user_walk_5 import _prelabel

    found = _prelabel(tmp_path, {"README.md": (
        "# 银联支付\n测试模式请用银联测试卡 6200 0000 0000 0005，有效期任填。\n\n"
        "Customer on file: Priya Raman, card 5500 0055 5555 5559.\n")})
    assert [u["value"] for u in found if u["dimension"] == "financial"] == ["5500 0055 5555 5559"]
