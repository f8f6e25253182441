"""Hand mutants of session 22 (benchmarks/hand_mutants.py; RESULTS.md, "Hand mutants in the code changed in session
21"): planted one at a time in the code session 21 changed, each survivor a behaviour no test held. Each test here
kills one or more (named in its docstring by the table's ids), by what a user sees (CLI output, files, HTTP) or,
where the CLI cannot reach it, by what the library function gives."""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
from pathlib import Path

import pytest
from pytest import approx
from test_detect_batch import _cascades, _cue_scan
from test_detect_compile_cache import UNITS as CASE_UNITS
from test_detect_forms_walk_5 import _read
from test_intercept_forms_walk_2 import _send as exchange
from test_intercept_forms_walk_3 import RECORD
from test_intercept_forms_walk_9 import GUARDED_UNITS as WALK_9_UNITS
from test_intercept_forms_walk_9 import _tool_call, _written
from test_intercept_placing import TOKEN, _said, assert_placed
from test_intercept_placing import UNITS as PLACING_UNITS
from test_judge_learned_grader import stump
from test_mutation_kills_s20 import _spans
from test_new_user_walk_5 import _prelabel, _values
from test_new_user_walk_8 import _agent_log, _cli
from test_pricing_service_tier import _call

from ec2audit.annotate.recognizers.person import display_name_ok
from ec2audit.detect import compiled, learned_grader, matchers, views
from ec2audit.detect.cascade import Cascade
from ec2audit.detect.compiled import compile_units
from ec2audit.detect.forms.byte_lists import ByteLists
from ec2audit.detect.forms.ipv6 import Ipv6Spellings
from ec2audit.detect.forms.rtf_code_pages import RtfCodePages
from ec2audit.detect.forms.rtf_groups import RtfGroups
from ec2audit.detect.forms.scientific import ScientificNotation
from ec2audit.detect.patterns import PatternIndex
from ec2audit.errors import InputError
from ec2audit.intercept import redact
from ec2audit.intercept.pricing import Pricing, load_pricing
from ec2audit.intercept.redact import PLACEHOLDER
from ec2audit.intercept.usage import Usage
from ec2audit.payloads import Payload, Segment
from ec2audit.units import make_unit, read_units

#: what `proxy` guards: walk 9's record and IPv6 address, and the placing walk's keys
GUARDED_UNITS = [*WALK_9_UNITS, *(u for u in PLACING_UNITS if u.entity_id == "K")]

# --- intercept/usage.py, pricing.py: the service tier that served a call, web searches ----------------------------


def test_the_proxy_prices_a_call_at_the_tier_its_answer_names_else_the_one_asked(tmp_path):
    """`intercept serve` in front of a cloud that answers with the tier that served each call (`service_tier`),
    stopped by SIGTERM. By hand, 1,000 prompt and 100 output tokens each:
      gpt-5 asked `flex`, served at `default` (the answer says so): (1000 × 1.25 + 100 × 10) / 1e6 = $0.00225 (SU4:
        the request's tier first, $0.001125)
      gpt-5-mini asked `auto`, its answer naming no tier: the project's standard rate, (1000 × 0.25 + 100 × 2) / 1e6
        = $0.00045 (SU2: `auto` no standard tier, no price)
      gpt-5 asked `priority`, its answer's tier empty: (1000 × 2.50 + 100 × 20) / 1e6 = $0.0045 (SU3: the empty
        tier, no price)
      acme-ft-7b, which no price list knows, asked `flex` and served at `default`: the stop summary says `no price
        for the model`, not `… at the flex tier` (SI4: the tier read off the request alone)."""
    import httpx
    from intercept_helpers import serve_cli
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from ec2audit.intercept.server import serve_in_thread
    from ec2audit.intercept.store import read_records

    served = {"gpt-5:flex": {"service_tier": "default"}, "gpt-5-mini:auto": {},
              "gpt-5:priority": {"service_tier": ""}, "acme-ft-7b:flex": {"service_tier": "default"}}

    async def answer(request: Request) -> JSONResponse:
        body = await request.json()
        return JSONResponse({"id": "chatcmpl-1", "object": "chat.completion", "model": body["model"],
                             "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello"},
                                          "finish_reason": "stop"}],
                             "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}}
                            | served[f"{body['model']}:{body['service_tier']}"])

    cloud, stop = serve_in_thread(Starlette(routes=[Route("/v1/chat/completions", answer, methods=["POST"])]))
    store, log = tmp_path / "intercept.sqlite", tmp_path / "serve.log"
    try:
        proc, url = serve_cli(cloud + "/v1", store, log, "sk-upstream")
        try:
            for asked in served:
                model, tier = asked.split(":")
                httpx.post(f"{url}/v1/chat/completions", timeout=20, json={
                    "model": model, "service_tier": tier,
                    "messages": [{"role": "user", "content": "Hi"}]}).raise_for_status()
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0, log.read_text()
    finally:
        stop()
    costs = [(r.model, r.request["service_tier"], r.cost_usd) for r in read_records(store)]
    assert costs == [("gpt-5", "flex", approx(0.00225, abs=1e-15)), ("gpt-5-mini", "auto", approx(0.00045, abs=1e-15)),
                     ("gpt-5", "priority", approx(0.0045, abs=1e-15)), ("acme-ft-7b", "flex", None)]
    assert "  acme-ft-7b: 1 call, 1,000 input / 100 output tokens, USD unknown: no price for the model\n" \
        in log.read_text()


def test_a_logged_call_pays_its_web_searches_and_a_long_flex_prompt_its_flex_rate_above_the_bound(tmp_path):
    """`audit` of an OpenAI-shaped request log (a gateway's, LiteLLM's usage of a Claude call carries Anthropic's
    `server_tool_use`). By hand: claude-sonnet-4-5, 1,000 prompt and 100 output tokens, 2 web searches at $0.01:
    (1000 × 3 + 100 × 15) / 1e6 + 0.02 = $0.0245 (SU6: $0.0045, the searches dropped); gpt-5.5 at `flex`, 300,000
    prompt tokens, past LiteLLM's 272k bound, 100 output: (300000 × 5 + 100 × 22.5) / 1e6 = $1.50225, its
    `_above_272k_tokens_flex` rates (SP6: the standard rates above the bound, $3.0045)."""
    claude = _call("r1", "claude-sonnet-4-5", None, "default", 1000, 0, 100)
    claude["url"] = "https://litellm.internal.example/v1/chat/completions"
    claude["response"]["usage"]["server_tool_use"] = {"web_search_requests": 2}
    long_flex = _call("r2", "gpt-5.5", "flex", "flex", 300_000, 0, 100)
    (tmp_path / "requests.jsonl").write_text("".join(json.dumps(c) + "\n" for c in (claude, long_flex)),
                                             encoding="utf-8")
    code, output = _cli("audit", tmp_path, "--discover", "--no-presidio", "--json")
    assert code == 0, output
    costs = {r["model"].split("/")[-1]: round(r["cost_usd"], 8) for r in json.loads(output)["providers"]}
    assert costs == {"claude-sonnet-4-5": 0.0245, "gpt-5.5": 1.50225}


@pytest.mark.parametrize("table, field", [
    ('[models."m"]\ninput = 1.0\noutput = 2.0\nweb_search = -0.01\n', "models.m.web_search"),
    ('[models."m"]\ninput = 1.0\noutput = 2.0\nweb_search = true\n', "models.m.web_search"),
    ('[models."m"]\ninput = 1.0\noutput = 2.0\n[models."m".service_tier]\nflex = 0.5\n',
     "models.m.service_tier")])
def test_a_price_tables_bad_web_search_or_service_tier_is_a_one_line_error(tmp_path, table, field):
    """A negative or boolean search price (SP9) and a tier that is no table of prices (SP13) name the file and
    the field, as every other bad price does."""
    prices = tmp_path / "prices.toml"
    prices.write_text(table, encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_pricing(prices)
    assert field in str(error.value) and str(prices) in str(error.value)


def test_a_model_without_a_price_at_a_tier_is_warned_of_once(caplog):
    """Per model and tier, once (SP12: every call warned of again)."""
    pricing = Pricing()
    with caplog.at_level(logging.WARNING, logger="ec2audit.intercept"):
        for _ in range(3):
            assert pricing.price("gpt-4o", Usage(100, 0, 10, tier="flex")) is None
    assert [r.getMessage() for r in caplog.records].count(
        "no price for model 'gpt-4o' at the flex service tier in ec2audit's pricing.toml and LiteLLM's price map: "
        "cost recorded as null") == 1

# --- detect/compiled.py, matchers.store_cached: the compile cache -------------------------------------------------


def test_the_compile_cache_keeps_the_most_recently_used_files_of_its_kind(tmp_path, monkeypatch):
    """A folder of compiled units made world-readable is made private again (KM3); the units loaded from the cache
    equal those compiled (KC10: tuples, not JSON's lists) and count as used (KC7); a later compile keeps the 64 newest
    `.json` files (KM2) and leaves another writer's partial file alone (KM1)."""
    monkeypatch.setenv("EC2AUDIT_HOME", str(tmp_path))
    folder = tmp_path / "cache" / "compiled"
    folder.mkdir(parents=True)
    folder.chmod(0o755)
    units = read_units(CASE_UNITS)
    first = compile_units(units[:3])
    [used] = folder.glob("*.json")
    os.utime(used, (1000, 1000))
    partial = folder / "a.123.456.tmp"
    partial.write_bytes(b"{")
    os.utime(partial, (500, 500))
    for k in range(70):
        older = folder / f"{k:032x}.json"
        older.write_bytes(b"{}")
        os.utime(older, (2000 + k, 2000 + k))
    assert compile_units(units[:3]) == first  # loaded, and so touched
    compile_units(units[:2])  # another cache file, written: the folder pruned
    kept = {f.name for f in folder.glob("*.json")}
    assert len(kept) == 64 and used.name in kept and f"{69:032x}.json" in kept and f"{7:032x}.json" not in kept
    assert partial.exists()
    assert folder.stat().st_mode & 0o777 == 0o700


def test_a_file_another_process_pruned_sorts_as_the_oldest(tmp_path):
    """Ray workers compile the same units at once: one prunes a file another is sorting (KM4)."""
    assert matchers._modified(tmp_path / "gone.json") == 0.0


def test_another_python_is_another_version_of_the_code(monkeypatch):
    """Python's own version is in the cache key: its Unicode tables decide what a compile folds (KC12)."""
    compiled._code_version.cache_clear()
    try:
        before = compiled._code_version()
        monkeypatch.setattr(sys, "version", sys.version + " (another build)")
        compiled._code_version.cache_clear()
        assert compiled._code_version() != before
    finally:
        monkeypatch.undo()
        compiled._code_version.cache_clear()


# --- detect/cascade.py, cues.py: the batched cue pass, the seams between parts ---------------------------------

_RTF = "{\\rtf1\\ansi\\deff0 Tel: {\\rtlch\\fcs1 \\b\\insrsid7 139}{\\insrsid7 22883366}\\par}"


def test_in_a_batch_a_form_without_a_cue_still_reads_and_each_text_keeps_its_own_cues():
    """Word's RTF runs (`rtf_groups`, a form with no cue: the header stands far away) are read in a batch as alone
    (BQ5); a text ending in its cue (`%2540`), sixth of eleven, keeps that cue (BQ3: the joined texts' starts
    counted without the line break between them, a cue near a text's end went to the next text)."""
    scan = _cue_scan()
    rewrite = scan.rewriter(_cascades()[0]._rewriting)
    texts = ["ok"] * 5 + ["mail lena.hartmann%2540", _RTF] + ["fine"] * 4
    alone = {text: sorted(rewrite(text)) for text in texts}
    assert (23, 52, "139") in alone[_RTF] and (18, 23, "@") in alone["mail lena.hartmann%2540"]
    with scan.batch(texts):
        assert {text: sorted(rewrite(text)) for text in texts} == alone


def test_a_value_cut_across_two_parts_of_one_message_is_found_in_each_where_it_lies():
    """An audited message whose text parts cut a value (a tool result streamed in pieces): one finding in each part,
    on the characters it holds, the first part longer than the seam read of it (BC4: placed from the part's start);
    a 240-character token cut in two halves of 120, the most of each part the seam reads (BC5: one short); a part of
    another origin (a tool call's arguments) is no continuation (BC2)."""
    phone, token = "13922883366", "eyJ" + "k7Qm2xZp" * 29 + "Wq9ab"
    cascade = Cascade([make_unit({"task_id": "t1", "entity_id": "P1", "field": "phone", "value": phone,
                                  "dimension": "contact"}),
                       make_unit({"task_id": "t1", "entity_id": "P1", "field": "session_token", "value": token,
                                  "dimension": "credential"})])
    head = "Customer called from the front desk and left a number to ring back on; " * 3 + phone[:6]
    payload = Payload("p", [Segment(0, "tool", "text", head), Segment(0, "tool", "text", phone[6:] + " today"),
                            Segment(1, "tool", "text", token[:120]), Segment(1, "tool", "text", token[120:])])
    found = {(f.segment, f.start, f.end, f.matched_text) for f in cascade.scan(payload)}
    assert {(0, len(head) - 6, len(head), phone[:6]), (1, 0, 5, phone[6:]),
            (2, 0, 120, token[:120]), (3, 0, 120, token[120:])} <= found
    other = Payload("q", [Segment(0, "assistant", "text", "ring " + phone[:6]),
                          Segment(0, "assistant", "tool_call_args", phone[6:])])
    assert cascade.scan(other) == []


# --- intercept/redact.py: a joined text's spans over the pieces' own ---------------------------------------------


def test_a_tokens_own_hit_running_past_the_joins_reach_goes_out_nowhere(proxy):
    """The second turn's own hit of a token runs on past the stretch a join reads of it (`fields.JOIN_REACH`): its
    rest stays its own edit (RC5: dropped, the token's tail forwarded)."""
    assert_placed(proxy, _said("x " + TOKEN[:9], TOKEN[9:] + " y"))


def test_overlapping_spans_become_their_union_named_by_the_highest_ranked():
    """A span inside an earlier one that ends later is within the union, not its new end (RC3: the characters after
    it forwarded); the union takes the unit of its highest-ranked span (RC2: the lowest's)."""
    assert redact._union([(0, 20, 1, (20, 1)), (5, 10, 2, (5, 0))]) == [(0, 20, 1)]
    assert redact._union([(0, 10, 1, (10, 0)), (5, 30, 2, (25, 1))]) == [(0, 30, 2)]


# --- intercept/fields.py: an array that spells a text -------------------------------------------------------------


def test_a_value_spelled_in_characters_becomes_one_element_and_its_neighbours_stay(proxy):
    """`[..."call <phone> ok"]`: redact replaces exactly the phone's characters by one element, its placeholder, the
    space before it and after it kept (JS5: an edit's first element counted one early; JS6: its last one late). (Its
    UTF-8 bytes as numbers are one list the `byte_lists` form reads whole: one placeholder for all of them.)"""
    text = f"call {RECORD['phone']} ok"
    answer, sent, _ = exchange(proxy, "spelled-neighbours", _tool_call(list(text)))
    if proxy[0] == "block":
        assert answer.status_code == 403
        return
    written = _written(sent[0])
    assert (written[:5], written[6:]) == (list("call "), list(" ok")) and PLACEHOLDER.fullmatch(written[5])


# --- detect/learned_grader.py: loading the grader (checks-v12's learned-grader-v2) -----------------------------


def _grader_file(tmp_path, change) -> Path:
    data = stump(3.0, "check_graded").as_dict()  # a grader with trees
    change(data)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    return path


def _one_tree(data: dict) -> None:
    for key in ("feature", "split", "left", "right", "leaf", "value"):
        data[key] = data[key][0]


def _left_past_the_last(data: dict) -> None:
    data["left"][0][0] = len(data["left"][0])


@pytest.mark.parametrize("change", [_one_tree, _left_past_the_last], ids=["one-dimensional", "left-child-past"])
def test_a_grader_of_the_wrong_shape_or_a_child_past_the_last_node_is_refused(tmp_path, change):
    """Trees as one list (no tree axis, LV3) and a left child past the last node (LV2) are refused as malformed
    when loaded, not an IndexError at the first candidate."""
    with pytest.raises(InputError, match="malformed"):
        learned_grader.LearnedGrader.load(_grader_file(tmp_path, change))


def test_the_grader_loads_its_own_review_threshold():
    """The review band's floor is the file's `review_threshold`, below its grade threshold (LV4: the grade's)."""
    data = json.loads(learned_grader.GRADER_PATH.read_text())
    grader = learned_grader.LearnedGrader.load()
    assert (grader.threshold, grader.review_threshold) == (data["threshold"], data["review_threshold"])
    assert grader.review_threshold < grader.threshold


# --- the new forms: what each rewrites, and what it leaves --------------------------------------------------------

@pytest.mark.parametrize(("form", "text", "read"), [
    # a mantissa with more decimals than its exponent is no whole number: 1392288336.6 stays (NS2)
    (ScientificNotation, "x 1.3922883366E+09 y", "x 1.3922883366E+09 y"),
    # a mantissa inside a longer token, after `_` or `.` (NS3), and an exponent before a decimal part (NS5)
    (ScientificNotation, "build_4.86E+05 rev.4.86E+05", "build_4.86E+05 rev.4.86E+05"),
    (ScientificNotation, "v 4.86E+05.5", "v 4.86E+05.5"),
    (ScientificNotation, "salary 4.86E+05", "salary 486000"),
    # a destination's group (the font table) is no formatting around text (NG2); the words that open a line are
    # left, those inside it read as nothing (NG4)
    (RtfGroups, "{\\rtf1\\ansi{\\fonttbl Calibri;}}", "{\\rtf1\\ansi{\\fonttbl Calibri;}}"),
    (RtfGroups, "{\\rtf1\n\\pard\\plain 139\\b 2288\\b0 3366\\par\n}", "{\\rtf1\n\\pard13922883366\\par\n}"),
    # the code page the header declares (NC1: always GBK), and a `\\uN`'s fallback bytes left to `rtf` (NC2)
    (RtfCodePages, "{\\rtf1\\ansi\\ansicpg1251 \\'cf\\'e5\\'f2\\'f0}", "{\\rtf1\\ansi\\ansicpg1251 Петр}"),
    (RtfCodePages, "{\\rtf1\\ansi\\ansicpg936 \\u27431\\'c5\\'b7 \\'c5\\'b7}",
     "{\\rtf1\\ansi\\ansicpg936 \\u27431\\'c5\\'b7 欧}"),
    # two numbers are no list of bytes, seven are (NB1)
    (ByteLists, "size 72, 105", "size 72, 105"),
    (ByteLists, "bytes 72, 105, 32, 76, 101, 110, 97", "bytes Hi Lena"),
])
def test_a_new_form_reads_what_it_names_and_leaves_its_look_alikes(form, text, read):
    assert _read(form, text) == read


def test_an_ipv6_unit_written_in_brackets_reads_its_other_spellings():
    """A unit as a URL holds it (`[2001:db8::8a2e:370:7334]`): the address written in full, all 39 characters, reads
    as the unit's own spelling (NI2: the brackets kept, no address parsed, nothing read; NI4: a token of at most 29
    characters, no address in full)."""
    unit = make_unit({"task_id": "t1", "entity_id": "S", "field": "server_ip", "value": "[2001:db8::8a2e:370:7334]",
                      "dimension": "network"})
    form = Ipv6Spellings(compile_units([unit]), PatternIndex())
    for written in ("2001:0db8:0000:0000:0000:8a2e:0370:7334", "2001:0DB8:0000:0000:0000:8A2E:0370:7334"):
        text = f"ssh root@{written} now"  # in full, as a config file holds it; in upper case, as Windows prints it
        assert views._rewrite(text, list(form.rewrite(text)))[0] == "ssh root@2001:db8::8a2e:370:7334 now"


# --- annotate: a display name that is a person's ---------------------------------------------------------------

@pytest.mark.parametrize(("text", "values"), [
    # all dictionary words, opening with a given name the census knows: a person, by the mailbox and by the census
    # (AP1: dictionary words alone, nobody by the mailbox)
    ("From: Grace Hunter <grace.hunter@acme.io>", ["Grace Hunter", "Grace Hunter"]),
    # a given name no list knows before a surname that is a word: a person (AP2: one dictionary word, nobody)
    ("From: Kwame Hunter <kwame.hunter@acme.io>", ["Kwame Hunter"]),
    ("From: Red Hat <noreply@redhat.com>", []),
])
def test_a_mailboxs_display_name_of_words_is_a_person_where_it_opens_with_a_given_name(text, values):
    assert _spans("person", text) == values



def test_every_policy_number_after_its_word_is_discovered_as_a_record_number(tmp_path):
    """Two policy numbers in one call: the second unit's field is numbered (`…_2`) and is a record number too (AD1:
    by its numbered field, an account)."""
    log = _agent_log(tmp_path / "logs" / "req.json",
                     "Claim filed under policy no. 12345 last week; the old policy no. 67890 lapsed.")
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    found = {(f["evidence"], f["unit_id"].rsplit("/", 1)[1]) for f in json.loads(output)["leaked"]}
    assert found == {("12345", "record_number"), ("67890", "record_number_2")}


def test_a_list_of_people_ending_in_a_full_stop_is_each_person(tmp_path):
    """`Attendees: Amara Nwosu, Li Wei.`: the sentence's full stop ends the list, no part of the last name (AL9: the
    last item no name, the list one value)."""
    units = _prelabel(tmp_path, {"minutes.md": "Attendees: Amara Nwosu, Li Wei.\n"})
    assert _values(units) == [("person_name", "Amara Nwosu"), ("person_name", "Li Wei")]


def test_a_name_with_a_typographic_apostrophe_after_its_key_is_a_person(tmp_path):
    """`Patient: Dana O’Neil`, the apostrophe as a word processor's autocorrect writes it, is the person `Dana O'Neil`
    is. Found by AL3's survivor (a single name read by the list path was kept): before, `_name_like` knew only the
    ASCII apostrophe, and the name was no unit, though within a list of people it was."""
    units = _prelabel(tmp_path, {"notes.md": "Patient: Dana O’Neil\nReviewer: Amara Nwosu\n"})
    assert ("person_name", "Dana O’Neil") in _values(units)


def test_a_display_name_of_everyday_words_is_nobodys_even_after_a_given_name():
    """`Bill Pay <billing@…>`: both everyday words, so no person's, though `Bill` is a given name the census knows
    (P10, session 20's row re-targeted: the everyday-words rule dropped, the given name let it through)."""
    assert not display_name_ok("Bill Pay") and display_name_ok("Grace Hunter")
