"""Session 30, twenty-second walk: figures a new user reads off `intercept audit`, `audit`, `report`, `run`'s
episodes and a Phoenix spans export, on inputs written here as other tools write theirs, each checked against a
count made by hand."""

import json
import sqlite3

import polars as pl
import pytest
from test_new_user_walk_19 import _cli, _write_jsonl
from test_new_user_walk_20 import _UNITS


def _store(path, requests: list[tuple[str, object, int]]) -> str:
    """A proxy's store of episode ep1 of task t1, as `intercept serve` writes it: per (record id, request, status) a
    gpt-4o record, forwarded (200: 100 input / 10 output tokens, $0.00035) or blocked (403, never sent)."""
    from ec2audit.intercept.record import BLOCKED, ProxyRecord
    from ec2audit.intercept.store import RecordStore

    store = RecordStore(path)
    for n, (rid, request, status) in enumerate(requests):
        sent = status == 200
        store.add(ProxyRecord(
            id=rid, episode="ep1", task_id="t1", ts=1.7e9 + n, api="openai-chat", path="/v1/chat/completions",
            model="gpt-4o", status=status, error=None if sent else f"{BLOCKED}: ssn",
            request=request if isinstance(request, dict) else {"model": "gpt-4o", "messages": []},
            response={"choices": [{"message": {"role": "assistant", "content": "ok"}}]} if sent else None,
            input_tokens=100 if sent else None, output_tokens=10 if sent else None,
            cost_usd=0.00035 if sent else None))
    store.close()
    with sqlite3.connect(path) as db:  # a body another tool (or a hand) left in the store as it is, not JSON
        for rid, request, _ in requests:
            if not isinstance(request, dict):
                db.execute("UPDATE records SET request = ? WHERE id = ?", (request, rid))
    return str(path)


def prelabelled(tmp_path, text: str) -> list[dict]:
    """The units `annotate prelabel --no-presidio` proposes (exit 0) for a note holding `text`."""
    (tmp_path / "note.txt").write_text(text, encoding="utf-8")
    code, output = _cli("annotate", "prelabel", tmp_path / "note.txt", "--units", tmp_path / "auto.jsonl",
                        "--no-presidio")
    assert code == 0, output
    return [json.loads(line) for line in (tmp_path / "auto.jsonl").read_text(encoding="utf-8").splitlines()]


def _chat(text: str) -> dict:
    return {"model": "gpt-4o", "messages": [{"role": "user", "content": text}]}


@pytest.fixture(scope="module")
def blocked_store(tmp_path_factory):
    """Maria's phone forwarded (r1), then her SSN blocked (r2); the units of t1 (phone 1, SSN 3) and t2."""
    folder = tmp_path_factory.mktemp("blocked")
    units = _write_jsonl(folder / "units.jsonl", _UNITS)
    store = _store(folder / "cloud.sqlite", [("r1", _chat("Call Maria at +1 415 555 0134"), 200),
                                             ("r2", _chat("Her SSN is 123-45-6789"), 403)])
    return folder, store, units


def test_a_blocked_request_is_no_call_in_intercept_audit_audit_and_report_alike(blocked_store, tmp_path):
    """One store: ep1 (task t1) made one call that reached the cloud (r1, the phone) and one request the proxy
    blocked (r2, the SSN: never sent). By hand: 1 call, 1 blocked, exposure 1 · 1 / (1 + 3) = 0.25, $0.00035 —
    in `intercept audit --json` (`blocked`: 1), its sessions table and `report` on its `--out` (calls 1), and
    `audit STORE` (calls 1). Before: `intercept audit`'s sessions table counted 2 calls (the blocked one too) and
    `report` showed ep1 with 2 calls where `audit STORE` said 1; its `--json` said nothing of the block."""
    _, store, units = blocked_store
    out = tmp_path / "io" / "findings.parquet"
    code, output = _cli("intercept", "audit", store, "--units", units, "--out", out, "--json")
    assert code == 0, output
    summary = json.loads(output[output.index("{"):])
    assert (summary["payloads"], summary["blocked"]) == (1, 1)
    [session] = pl.read_parquet(tmp_path / "io" / "findings.sessions.parquet").to_dicts()
    assert (session["calls"], session["cloud_calls"], session["exposure"]) == (1, 1, 0.25)
    code, output = _cli("report", out, "--json")
    [episode] = json.loads(output)["tasks"]["t1"]
    [group] = json.loads(output)["groups"]
    assert (episode["calls"], group["cloud_calls"], group["exposure"], group["cloud_usd"]) == (1, 1, 0.25, 0.00035)
    code, output = _cli("audit", store, "--units", units, "--json")
    [logged] = json.loads(output)["sessions"]
    assert (logged["calls"], logged["cloud_calls"], logged["exposure"]) == (1, 1, 0.25)


def test_report_finds_the_store_intercept_audit_read_from_any_folder(blocked_store, tmp_path, monkeypatch):
    """`intercept audit STORE --out out/findings.parquet`, then `report out/findings.parquet` with no `--payloads`,
    run from another folder: the findings name the store they came from, so the evidence of r1 is shown in its
    context ("Call Maria at", masked value) and no note asks for `--payloads`. The same for `audit STORE --out`
    given the store's relative path: report from elsewhere finds the store again. Before: "no payloads found (give
    --payloads …)" for the first, and "cloud.sqlite: not there any more" (a path relative to the audit's folder)
    for the second, though the store was there."""
    folder, store, units = blocked_store
    monkeypatch.chdir(folder)
    for command in (("intercept", "audit"), ("audit",)):
        out = tmp_path / command[0] / "findings.parquet"
        code, output = _cli(*command, "cloud.sqlite", "--units", "units.jsonl", "--out", out)
        assert code == 0, output
        monkeypatch.chdir(tmp_path)
        html = tmp_path / f"{command[0]}.html"
        code, output = _cli("report", out, "--out", html)
        assert code == 0 and "note" not in output, output
        assert "Call Maria at " in html.read_text(encoding="utf-8")
        monkeypatch.chdir(folder)


def test_a_run_episodes_unreadable_record_is_named_not_dropped(tmp_path):
    """A run's episode ep1 of t1 (phone 1, SSN 3) whose store holds r1 sending the phone and r2 whose body another
    tool left as text (a JSON array cut off): r2 cannot be read; r3, the SSN, was blocked. By hand the episode's
    exposure over what was read is 1 · 1 / 4 = 0.25, a lower bound, and r2 is named with why; 2 calls reached the
    cloud (r3 is none). Before: r2 was dropped without a word, the episode read 0.25 as the whole, and the episode's
    cloud calls were 3."""
    from ec2audit.intercept.store import read_records
    from ec2audit.run.episodes import audit_episode, cloud_usage
    from ec2audit.tasks import Task
    from ec2audit.units import read_units

    units = read_units(_write_jsonl(tmp_path / "units.jsonl", _UNITS))
    store = _store(tmp_path / "cloud.sqlite", [("r1", _chat("Call Maria at +1 415 555 0134"), 200),
                                               ("r2", '[{"role": "user", "content": "Her SSN is 123-4', 200),
                                               ("r3", _chat("Her SSN is 123-45-6789"), 403)])
    task = Task(id="t1", scenario="s", title="t", language="en", instruction="", timeout=1, privacy_note=None,
                criteria=[], units=[u for u in units if u.task_id == "t1"])
    records = read_records(store)
    _, exposure, _, leaked, unread = audit_episode(task, "ep1", records)
    assert (exposure, [u["unit_id"] for u in leaked]) == (0.25, ["t1/E1/phone"])
    assert unread == ["record r2: request body not read (stored as 46 characters of text, not a JSON object: "
                      "truncated, compressed or encoded?): what it sent is not audited, the exposure is at least "
                      "the figure given"]
    assert cloud_usage(records)["cloud_calls"] == 2


def _phoenix_rows() -> list[dict]:
    """Two rows of `px.Client().get_spans_dataframe()` as pandas saves them: the agent's CHAIN span and its LLM
    span (gpt-4o, session s1, 120 prompt / 5 completion tokens) whose input messages carry Maria's phone."""
    trace = "0af7651916cd43dd8448eb211c80319c"
    common = {"parent_id": None, "end_time": 1733600002000, "status_code": "OK", "status_message": "", "events": [],
              "context.trace_id": trace, "attributes.session.id": "s1"}
    return [
        common | {"name": "agent", "span_kind": "CHAIN", "start_time": 1733600000000,
                  "context.span_id": "ffb2c3d4e5f60708", "attributes.openinference.span.kind": "CHAIN",
                  "attributes.input.value": "Call Maria", "attributes.llm.model_name": None,
                  "attributes.llm.input_messages": None, "attributes.llm.token_count.prompt": None,
                  "attributes.llm.token_count.completion": None},
        common | {"name": "ChatCompletion", "span_kind": "LLM", "start_time": 1733600000500,
                  "parent_id": "ffb2c3d4e5f60708", "context.span_id": "a1b2c3d4e5f60708",
                  "attributes.openinference.span.kind": "LLM", "attributes.input.value": "{}",
                  "attributes.llm.model_name": "gpt-4o",
                  "attributes.llm.input_messages": [
                      {"message.role": "system", "message.content": "You are helpful."},
                      {"message.role": "user", "message.content": "Call Maria at +1 415 555 0134 about the invoice"}],
                  "attributes.llm.token_count.prompt": 120, "attributes.llm.token_count.completion": 5}]


@pytest.mark.parametrize("suffix", ["jsonl", "parquet"])
def test_phoenixs_spans_dataframe_saved_by_pandas_is_read(tmp_path, suffix):
    """Phoenix's spans table saved as JSON Lines (`to_json(orient="records", lines=True)`) or Parquet: one LLM span
    (the CHAIN span is no call) of session s1, naming no task, sending Maria's phone. By hand: 1 cloud call, s1
    scored over the units found in its calls, the phone alone, 1 of 1 leaked, exposure 1.000; 120 / 5 tokens at
    gpt-4o's $2.50 / $10 per million = $0.0003 + $0.00005 = $0.00035. Before: "not a known log format" (JSONL)
    and "binary data, not a known log format" (Parquet), exit 1."""
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    path = tmp_path / f"spans.{suffix}"
    if suffix == "jsonl":
        _write_jsonl(path, _phoenix_rows())
    else:
        pl.DataFrame(_phoenix_rows()).write_parquet(path)
    code, output = _cli("audit", path, "--units", units, "--json")
    assert code == 0, output
    summary = json.loads(output[output.index("{"):])
    assert (summary["calls"], summary["cloud_calls"]) == (1, 1)
    [session] = summary["sessions"]
    assert (session["session"], session["units"], session["leaked"], session["exposure"]) == ("s1", 1, 1, 1.0)
    [provider] = summary["providers"]
    assert (provider["input_tokens"], provider["output_tokens"], provider["cost_usd"]) == (120, 5, 0.00035)


def test_prelabel_of_the_current_folder_names_its_task_and_never_reads_its_own_output(tmp_path, monkeypatch):
    """`ec2audit annotate prelabel . --out ls.json --units auto.jsonl` run twice inside the workspace `clinic/`,
    whose one file has Maria Kessler (a name), her depression and her phone +1 415 555 0134. By hand: 3 units of task
    `clinic` (the folder's name), from notes.txt, both times; the second run names ls.json and auto.jsonl as its own
    output, not read (exit 0). Before: the task id was '' ("String should have at least 1 character", exit 2), and
    a second run read its own ls.json as the workspace, proposing its units over again from it."""
    workspace = tmp_path / "clinic"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("Patient note: Maria Kessler was diagnosed with depression in 2019; "
                                         "phone +1 415 555 0134.\n", encoding="utf-8")
    monkeypatch.chdir(workspace)
    for _ in range(2):
        code, output = _cli("annotate", "prelabel", ".", "--out", "ls.json", "--units", "auto.jsonl",
                            "--no-presidio")
        assert code == 0, output
        units = [json.loads(line) for line in (workspace / "auto.jsonl").read_text(encoding="utf-8").splitlines()]
        assert sorted((u["task_id"], u["source"]["file"], u["value"]) for u in units) == [
            ("clinic", "notes.txt", "+1 415 555 0134"), ("clinic", "notes.txt", "Maria Kessler"),
            ("clinic", "notes.txt", "depression")], units
    assert "skipped ls.json: this command's own output" in output, output


def test_a_depression_of_the_economy_and_a_stroke_of_luck_are_no_ones_condition(tmp_path):
    """A patient's note in one line: "Patient history: he grew up in the economic depression of 1929. Stroke of
    luck: his insurer paid. Diagnosed with depression in 2019; had a stroke in May." By hand (sentences of 64 and
    34 characters) the conditions are the second "depression" at 64 + 34 + len("Diagnosed with ") 15 = 113 and the
    last "stroke" at 113 + len("depression in 2019; had ") 24 + len("a ") 2 = 139; the economy's depression (44)
    and the idiom's Stroke (64) are no one's. Before: ICD-10's one-word terms, with "Patient"/"Diagnosed" in the line,
    proposed all four (`health-en` already passed over the economy's depression)."""
    text = ("Patient history: he grew up in the economic depression of 1929. Stroke of luck: his insurer paid. "
            "Diagnosed with depression in 2019; had a stroke in May.\n")
    units = prelabelled(tmp_path, text)
    health = sorted((u["source"]["start"], u["value"]) for u in units if u["dimension"] == "health")
    assert health == [(text.index("with depression") + 5, "depression"), (text.index("a stroke") + 2, "stroke")]
    assert [s for s, _ in health] == [113, 139]


def test_discover_keeps_a_chinese_condition_said_of_its_holder(tmp_path):
    """An OpenAI request log (as an SDK hook writes it) whose tool result, a family member's note, says
    "家属说明：她患有精神分裂症。" (she has schizophrenia): one condition, said of its holder as `she has …` is in
    English, with no other health word in the line. By hand: `--discover` finds 1 value on the local side, the
    tool result sent it, so 1 of 1 leaked, exposure 1.000. Before: the condition was dropped as "one medical word,
    no health context around it" (the holder patterns were English only), leaving nothing to score against."""
    log = _write_jsonl(tmp_path / "requests.jsonl", [{
        "session_id": "c2", "url": "https://api.openai.com/v1/chat/completions",
        "request": {"model": "gpt-4o", "messages": [
            {"role": "user", "content": "整理一下"},
            {"role": "tool", "tool_call_id": "x", "content": "家属说明：她患有精神分裂症。"}]},
        "response": {"choices": [{"message": {"role": "assistant", "content": "好的"}}]}}])
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--json")
    assert code == 0, output
    summary = json.loads(output[output.index("{"):])
    [session] = summary["sessions"]
    assert (session["units"], session["leaked"], session["exposure"]) == (1, 1, 1.0)
    assert [leak["dimension"] for leak in summary["leaked"]] == ["health"]


def test_a_short_chinese_diagnosis_counts_where_the_text_says_it_is_one(tmp_path):
    """Units of task t9 as the suite writes them: 高血压 (hypertension) and 哮喘 (asthma), field `diagnosis_0` /
    `diagnosis_1`, weight 2 each — three and two characters, under health's minimum of four, so each counts only
    next to a context word. Episode e1 sends "患者王晓燕，诊断：高血压，既往哮喘。" (patient …, diagnosis: …, history
    of …); e2 sends "今天讨论高血压的饮食建议。" (today: diet advice on hypertension, a topic). By hand: e1 leaks both,
    (2 + 2) / 4 = 1.000; e2 none, 0.000. Before: health had no context word, and a field name in English never
    stands in Chinese text, so e1 read 0.000 too ("no sensitive unit reached a cloud call")."""
    units = _write_jsonl(tmp_path / "units.jsonl", [
        {"task_id": "t9", "entity_id": "P1", "field": f"diagnosis_{i}", "value": value, "dimension": "health",
         "weight": 2.0} for i, value in enumerate(("高血压", "哮喘"))])
    log = _write_jsonl(tmp_path / "payloads.jsonl", [
        {"id": f"c{n}", "task_id": "t9", "episode": f"e{n}", "request": _chat(text)}
        for n, text in ((1, "患者王晓燕，诊断：高血压，既往哮喘。"), (2, "今天讨论高血压的饮食建议。"))])
    code, output = _cli("audit", log, "--units", units, "--json")
    assert code == 0, output
    sessions = {s["session"]: (s["leaked"], s["units"], s["exposure"]) for s in json.loads(output)["sessions"]}
    assert sessions == {"e1": (2, 2, 1.0), "e2": (0, 2, 0.0)}
