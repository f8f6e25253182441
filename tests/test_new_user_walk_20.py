"""Session 28, twentieth walk: figures a new user reads off `intercept audit`, `audit`, `report` and the other
commands, on inputs written here as other tools write theirs, each checked against a count made by hand."""

import json

from test_new_user_walk_19 import _cli, _write_jsonl

_UNITS = [
    {"task_id": "t1", "entity_id": "E1", "entity_name": "Maria Kessler", "field": "phone", "value": "+1 415 555 0134",
     "dimension": "contact", "weight": 1.0},
    {"task_id": "t1", "entity_id": "E1", "entity_name": "Maria Kessler", "field": "ssn", "value": "123-45-6789",
     "dimension": "government_id", "weight": 3.0},
    {"task_id": "t2", "entity_id": "E2", "entity_name": "Wang Lei", "field": "email", "value": "wang.lei@corp-mail.cn",
     "dimension": "contact", "weight": 1.0},
]


def test_one_episode_naming_no_task_has_one_exposure_in_intercept_audit_report_and_audit(standin, tmp_path):
    """A proxy blocking the SSN in front of the stand-in; episode ep1 (`/e/ep1/v1`, no task) sends Maria's phone
    (forwarded) and her SSN (blocked, 403). The units file holds t1's phone (weight 1) and SSN (3) and t2's e-mail
    (1). By hand, ep1 names no task, so it is scored against the units found in its own calls, the blocked one
    included: phone 1.0 · 1 + SSN 0.0 · 3 over 1 + 3 = 0.25, 1 of 2 units leaked, in `intercept audit`, in `report`
    on its `--out` and in `audit STORE`. Before: `intercept audit` printed t1 0.25 and t2 0.0 (every task's
    units), `report` 1/5 = 0.2 (every unit), and `audit STORE` 1.0 (the blocked request's SSN never read)."""
    import httpx
    from intercept_helpers import running_proxy

    from ec2audit.units import read_units

    _, upstream = standin
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    ssn = [u for u in read_units(units) if u.field == "ssn"]
    store = tmp_path / "cloud.sqlite"
    with running_proxy(upstream, store, units=ssn, enforce="block") as (_, url, _), httpx.Client(timeout=30) as client:
        for text, status in (("Call Maria at +1 415 555 0134", 200), ("Her SSN is 123-45-6789", 403)):
            answer = client.post(f"{url}/e/ep1/v1/chat/completions",
                                 json={"model": "gpt-4o", "messages": [{"role": "user", "content": text}]})
            assert answer.status_code == status, answer.text
    out = tmp_path / "out" / "findings.parquet"
    code, output = _cli("intercept", "audit", store, "--units", units, "--out", out)
    assert code == 0, output
    row = next(line for line in output.splitlines() if "ep1" in line)
    assert row.split("│")[2:6] == [" units in its calls ", "     2 ", "           1 ", "    0.250 "], row
    code, output = _cli("report", out, "--json")
    assert code == 0, output
    [episode] = json.loads(output)["groups"]
    assert (episode["exposure"], episode["leaked_units"]) == (0.25, 1)
    code, output = _cli("audit", store, "--units", units, "--json")
    assert code == 0, output
    [session] = json.loads(output)["sessions"]
    assert (session["exposure"], session["units"], session["leaked"], session["scored_against"]) == (
        0.25, 2, 1, "units found in its own calls")


def test_a_runs_cloud_tokens_are_unknown_where_a_stream_was_cut_not_counted_0(standin, tmp_path):
    """Two cloud-only episodes of t1 through a real proxy in front of the stand-in, as a run's gateway sends them:
    r0 asks `What time is it?` (answered) and then streams a call the cloud cuts off (`fault-cut`: no usage came),
    r1 asks the same question only. The stand-in counts a token per 4 characters: 16 / 4 = 4 input tokens. By hand:
    r1's cloud input tokens 4; r0's unknown (one of its calls counted none), and so the strategy's total in
    `summary.json` and in `report`. Before: r0 read 4 (the cut call counted as 0 tokens sent), the total 8."""
    import httpx
    from intercept_helpers import running_proxy, wait_for_records

    from ec2audit.run.episodes import RECORD, EpisodeSpec, cloud_usage
    from ec2audit.run.record import EpisodeRecord
    from ec2audit.run.scheduler import write_results

    _, upstream = standin
    question = [{"role": "user", "content": "What time is it?"}]
    with running_proxy(upstream, tmp_path / "cloud.sqlite") as (_, url, store), httpx.Client(timeout=30) as client:
        for run, model, stream in ((0, "gpt-4o", False), (0, "fault-cut", True), (1, "gpt-4o", False)):
            try:
                client.post(f"{url}/e/t1.cloud-only.r{run}/t/t1/v1/chat/completions",
                            json={"model": model, "stream": stream, "messages": question}).read()
            except httpx.HTTPError:
                pass
        records = wait_for_records(store, 3)
    out = tmp_path / "run"
    for run in (0, 1):
        eid = f"t1.cloud-only.r{run}"
        record = EpisodeRecord(
            episode_id=eid, task_id="t1", scenario="office", strategy="cloud-only", variant="cloud-only", router=None,
            cloud_context=None, edge_model="edge", cloud_model="gpt-4o", run_index=run, status="ok", completion=1.0,
            criteria="{}", passed=True, **cloud_usage([r for r in records if r.episode == eid]), edge_calls=0,
            edge_input_tokens=0, edge_output_tokens=0, edge_flops=0.0, exposure=0.0, exposure_by_dimension=[],
            leaked_units="[]", routes="[]", asks=0, exit_code=0, error=None, duration_s=1.0, openclaw_s=1.0,
            openclaw_startup_s=None, isolation="{}")
        (out / "episodes" / eid).mkdir(parents=True)
        (out / "episodes" / eid / RECORD).write_text(json.dumps(record.to_dict()))
    write_results(out, [EpisodeSpec("t1", "cloud-only", run) for run in (0, 1)])
    episodes = {e["run_index"]: e for e in map(json.loads, (out / "episodes.jsonl").read_text().splitlines())}
    assert (episodes[0]["cloud_input_tokens"], episodes[1]["cloud_input_tokens"]) == (None, 4)
    assert json.loads((out / "summary.json").read_text())["cloud-only"]["cloud_input_tokens"] is None
    code, output = _cli("report", out, "--json")
    assert code == 0, output
    [row] = json.loads(output)["strategies"]
    assert (row["cloud_calls"], row["cloud_input_tokens"]) == (3, None)


def _litellm_record(number: int, text: str, prompt_tokens: int) -> dict:
    """A LiteLLM `StandardLoggingPayload` as a custom callback or a bucket logger writes it: id, messages, usage
    and LiteLLM's own cost ($0.003 a call), in session `sess-a`."""
    return {"id": f"chatcmpl-{number}", "call_type": "acompletion", "model": "gpt-4o", "custom_llm_provider": "openai",
            "api_base": "https://api.openai.com/v1", "messages": [{"role": "user", "content": text}],
            "response_cost": 0.003, "prompt_tokens": prompt_tokens, "completion_tokens": 50,
            "startTime": 1765100000 + number, "metadata": {"session_id": "sess-a"},
            "response": {"id": f"chatcmpl-{number}", "choices": [{"message": {"role": "assistant", "content": "ok"}}],
                         "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 50}}}


def test_the_same_litellm_calls_in_two_exports_are_counted_once(tmp_path):
    """One LiteLLM session of two calls (1,200 and 800 prompt tokens, $0.003 each), written by the callback as JSONL
    and by the bucket logger as a JSON array, both in the folder audited. By hand: 2 calls, 1,200 + 800 = 2,000
    input tokens, 2 × $0.003 = $0.006, and 2 records logged again, as the terminal's provider row shows them
    (`2,000` with its thousands separator, as `intercept serve` prints tokens). Before: 4 calls, 4000 tokens,
    $0.012."""
    records = [_litellm_record(0, "Call Maria at +1 415 555 0134", 1200), _litellm_record(1, "SSN 123-45-6789", 800)]
    folder = tmp_path / "litellm"
    folder.mkdir()
    _write_jsonl(folder / "callback.jsonl", records)
    (folder / "bucket-export.json").write_text(json.dumps(records))
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    code, output = _cli("audit", folder, "--units", units, "--json")
    assert code == 0, output
    summary = json.loads(output)
    [provider] = summary["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["cost_usd"]) == (2, 2000, 0.006)
    [coverage] = summary["coverage"]
    assert coverage["logged_again"] == 2
    code, output = _cli("audit", folder, "--units", units)
    assert code == 0, output
    row = next(line for line in output.splitlines() if "openai/gpt-4o" in line)
    assert row.split()[2:6] == ["2", "2,000", "100", "0.0060"], row


def test_a_langfuse_generation_in_its_observations_export_and_its_traces_export_is_one_call(tmp_path):
    """Langfuse's observations table (the public API's `{data, meta}` page) and its traces export with the same two
    GENERATION observations nested (600 and 400 input tokens, $0.002 each), both in the folder audited. By hand:
    2 calls, 1,000 input tokens, $0.004, 2 observations logged again. Before: 4 calls, 2,000 tokens, $0.008."""
    observations = [
        {"id": f"obs-{i}", "traceId": "trace-1", "type": "GENERATION", "startTime": f"2026-12-07T10:00:0{i}.000Z",
         "model": "gpt-4o", "input": [{"role": "user", "content": text}],
         "output": {"role": "assistant", "content": "ok"},
         "usage": {"input": tokens, "output": 40, "total": tokens + 40, "unit": "TOKENS"}, "calculatedTotalCost": 0.002}
        for i, (text, tokens) in enumerate([("Call Maria at +1 415 555 0134", 600), ("SSN 123-45-6789", 400)])]
    folder = tmp_path / "langfuse"
    folder.mkdir()
    (folder / "observations.json").write_text(json.dumps({"data": observations, "meta": {"page": 1, "totalItems": 2}}))
    (folder / "traces.json").write_text(json.dumps([{"id": "trace-1", "sessionId": "chat-42", "name": "agent",
                                                     "timestamp": "2026-12-07T10:00:00.000Z",
                                                     "observations": observations}]))
    code, output = _cli("audit", folder, "--units", _write_jsonl(tmp_path / "units.jsonl", _UNITS), "--json")
    assert code == 0, output
    summary = json.loads(output)
    [provider] = summary["providers"]
    assert (provider["calls"], provider["input_tokens"], provider["cost_usd"]) == (2, 1000, 0.004)
    assert [c["logged_again"] for c in summary["coverage"]] == [2]


def test_a_payment_processors_published_test_cards_are_nobodys_card(tmp_path):
    """A payments README as integrations write it: Stripe's declined test card `4000 0000 0000 0002` and its 3-D
    Secure card `4000 0027 6000 3184`, both Luhn-valid, then a customer's card on file. By hand: one card proposed,
    the customer's `5500 0055 5555 5559`; the two test cards are printed in every Stripe integration's docs, nobody's
    card, as AWS's `AKIAIOSFODNN7EXAMPLE` is nobody's key. Before: all three, so an agent that read the README
    scored 1.0 over three financial values where one was someone's."""
    from test_new_user_walk_5 import _prelabel

    found = _prelabel(tmp_path, {"README.md": (
        "# Payments\nIn test mode use the declined card 4000 0000 0000 0002 or the 3-D Secure card "
        "4000 0027 6000 3184, any future expiry.\n\nCustomer on file: Priya Raman, card 5500 0055 5555 5559.\n")})
    assert [u["value"] for u in found if u["dimension"] == "financial"] == ["5500 0055 5555 5559"]


_REVIEW = ("Design review notes for the patient portal redesign:\n"
           "- Set stroke width to 2px on the icons.\n"
           "- Fix the memory leak; the depression in the chart at 14:00 is the backup job.\n"
           "- Patient record for Omar Haddad: diagnosis Crohn's disease.\n"
           "Diagnosis:\nAsthma\n")


def test_a_medical_word_in_a_list_item_of_its_own_is_no_condition_by_its_neighbours_health_words(tmp_path):
    """A design review's list under a patient portal's heading: `stroke width`, a `depression in the chart`, then a
    patient's record with a diagnosis, and a form's `Diagnosis:` key alone above `Asthma`. By hand, `audit --discover`
    finds two conditions, Crohn's disease (several words) and Asthma (its key on the line before), each of which
    reached the cloud; `stroke` and `depression` have no health word in their own line, only in the heading and the
    next item. `annotate prelabel` proposes no `stroke` either (its ICD-10 terms read the same line), and still
    Asthma. Before: stroke and depression too, four conditions discovered, and `stroke` proposed."""
    from test_new_user_walk_5 import _prelabel

    proposed = [u["value"] for u in _prelabel(tmp_path, {"review.md": _REVIEW}) if u["dimension"] == "health"]
    assert "stroke" not in proposed and "Asthma" in proposed, proposed
    log = _write_jsonl(tmp_path / "log.jsonl", [{
        "session_id": "s1", "url": "https://api.openai.com/v1/chat/completions",
        "request": {"model": "gpt-4o", "messages": [{"role": "user", "content": "Summarise the review"},
                                                    {"role": "tool", "tool_call_id": "c1", "content": _REVIEW}]},
        "response": {"id": "x", "choices": [{"message": {"role": "assistant", "content": "ok"}}]}}])
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    assert sorted(leak["evidence"] for leak in json.loads(output)["leaked"] if leak["dimension"] == "health") == [
        "Asthma", "Crohn's disease"]
