"""Tests written for the survivors of session 31's hand mutants in the code session 30 changed
(`benchmarks/hand_mutants.py`, `GROUPS_S31`; RESULTS.md, "Session 31: hand mutants in session 30's code"). Each
pins a behaviour a user sees that no earlier test held: the forms and the denials read as
`Cascade([unit]).scan_text(text)` (`test_detect_forms_s30._graded`, as session 30's own form tests do), the rest
through the CLI."""

from __future__ import annotations

import json

import pytest
from test_detect_forms_s30 import _graded
from test_new_user_walk_19 import _cli
from test_new_user_walk_22 import prelabelled

#: 200 lines of a log holding no form's cue (5,200 characters): a text this long (over `cues._SHORT`, 4,096) is read
#: by each form only on the lines around its cue's matches, as a big payload is
_PAD = "".join(f"ok {i:04d} routine heartbeat\n" for i in range(200))


# -- a record's keyed fields ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "text", "grade"), [
    # three records side by side (`},{` between): another record's pieces never join
    ("NY512738D", '[{"ni_prefix":"NY"},{"ni_digits":"512738"},{"ni_suffix":"D"}]', 0),
    # a date's pieces under keys of no stem (`day`, `month`, `year`): whose date, the keys do not say
    ("1979-11-02", '{"day": "02", "month": "11", "year": "1979"}', 0),
    # a month's name cut to four letters (`Sept`) is the month its first three name
    ("1979-09-02", '{"birth_day": "2", "birth_month": "Sept", "birth_year": "1979"}', 1.0),
])
def test_keyed_fields_join_only_within_one_record_under_one_stem(value, text, grade):
    """Pieces join only where one record's keys share a stem (`ni_`, `birth_`) and end in a piece's word; a month
    is read by its name or the name's first three letters (`Sept` → 09), so 2 Sept 1979 is 1979-09-02 (1.0)."""
    dimension, field = ("government_id", "ni") if value == "NY512738D" else ("other", "date_of_birth")
    assert _graded(value, dimension, text, field) == grade


def test_a_pretty_printed_records_pieces_on_lines_apart_join_in_a_long_text():
    """`ninoLetters: NY⏎ninoNumber: 512738⏎ninoSuffix: D` inside 10,400 characters of log: the cue words
    (letters, suffix) stand two lines apart, within `keyed_fields.cue_lines` (8), so the three lines are read
    together and joined: the NI number whole (1.0)."""
    text = _PAD + "ninoLetters: NY\nninoNumber: 512738\nninoSuffix: D\nstatus: open\n" + _PAD
    assert _graded("NY512738D", "government_id", text, "ni") == 1.0


# -- a name's particle, a plate's province -------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "text"), [
    ("Saoirse Ní Dhomhnaill", "signed by Ní Dhomhnaill, Saoirse"),  # a short word (by) before the particle
    ("Maria de Souza", "index: Souza, Maria de (1961)"),  # the particle after the given name, as an index sorts it
])
def test_a_names_particle_is_read_with_it_surname_first(value, text):
    """A name written surname first keeps its particle where the particle stands, before the surname (Ní) or after
    the given name (de), and no other short word (by): the name whole, reordered (1.0)."""
    assert _graded(value, "person_name", text, "full_name") == 1.0


@pytest.mark.parametrize(("text", "grade"), [
    ("gate log: GUANGDONG B D73K92 exited 18:02", 1.0),  # 粤 is Guangdong
    ("gate log: GUANGXI B D73K92 exited 18:02", 0),  # 桂's plate: another province
])
def test_a_guangdong_plate_is_written_out_with_its_own_provinces_name(text, grade):
    """粤BD73K92 with its province in pinyin: Guangdong (粤), not its neighbour Guangxi (桂)."""
    assert _graded("粤BD73K92", "government_id", text, "车牌号") == grade


# -- an amount denied ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["Never offered $312,000; that was our own figure.",  # the denial opening a sentence
                                  "We have not been offered $312,000 yet."])  # "been" between
def test_an_amount_denied_in_capitals_or_as_not_been_offered_is_no_leak(text):
    """The denial's words in any case, and "have not been offered" as "never offered": the amount denied (0;
    session 30's tests: "never offered $312,000" → 0, "They offered $312,000" → 1.0)."""
    assert _graded("$312,000 full and final", "financial", text, "offer") == 0


# -- pieces one space apart, the repr of UTF-16 bytes -------------------------------------------------------------


_EMAIL = "lena.hartmann@example.org"


@pytest.mark.parametrize(("value", "dimension", "text", "grade"), [
    (_EMAIL, "contact", "echo lena.hart mann@example.org", 1.0),  # two arguments one space apart: one string
    (_EMAIL, "contact", "cells:\tlena.hart\tmann@example.org\tok", 1.0),  # tab-apart pieces joining into it whole
    (_EMAIL, "contact", "cells: lena.hart  mann@example.org", 1.0),  # two spaces: column padding
    (_EMAIL, "contact", "echo lena.hart mann@example.organic", 0),  # the last piece runs on: another domain
    ("Qx7Lm2pKe9", "credential", "echo Qx7Lm 2pKe9", 1.0),  # a password's pieces
    ("Qx7Lm2pKe9", "credential", "echo qx7lm 2pke9", 0),  # ... in another case: another password
    ("K7Q2", "credential", "grid: K7 Q2 X9", 0),  # a value under 6 characters: a row of short pieces holds it
])
def test_pieces_one_space_apart_join_only_into_a_whole_value_of_six_characters_or_more(value, dimension, text, grade):
    """`spaced_pieces`: a run of whole pieces apart by blanks (spaces or tabs, walk 21) on one line is the value it
    joins into (1.0 here, the cascade's best); not a run whose last piece runs on into more letters, a secret's
    pieces in another case, nor a value shorter than 6 characters."""
    assert _graded(value, dimension, text, "f") == grade


@pytest.mark.parametrize("text", ["|Name: Lena Hartm|\r\n|ann|\r\n",  # saved with CRLF line ends
                                  _PAD + "|Name: Lena Hartm|\n|ann|\n" + _PAD])  # in a long log
def test_hexdumps_character_column_is_read_with_windows_line_ends_and_in_a_long_log(text):
    """`hexdump -C … | cut -c62-`: `|Name: Lena Hartm|⏎|ann|` reads `Name: Lena Hartmann`, the name whole (1.0),
    each line's `\\r` dropped before the lines are joined, and in a long log too, where only the lines around a
    whole sixteen-character line (the cue) are read: the short last line is one line on (`cue_lines` 1)."""
    assert _graded("Lena Hartmann", "person_name", text, "full_name") == 1.0


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-32-be"])
def test_the_repr_of_a_short_values_wide_bytes_is_read(codec):
    """`'NY512738D'.encode('utf-16-le')` (18 bytes, over the 8 a literal needs to be read as wide text) and
    `.encode('utf-32-be')` (big-endian, no byte order mark: each unit's first two bytes zero): the NI number
    whole (1.0)."""
    assert _graded("NY512738D", "government_id", "ni: " + repr("NY512738D".encode(codec)), "ni") == 1.0


def test_a_value_backwards_is_the_value_at_its_forms_confidence():
    """`rev` of the e-mail (`gro.elpmaxe@nnamtrah.anel`) and of a four-character Han name (`娜娜阳欧`, 3 characters
    or more where Han): each is its value (1.0), the e-mail's hit at `turned_values`' confidence 0.8 (a finding's
    `confidence`, as the audit writes it)."""
    from ec2audit.detect.cascade import Cascade
    from ec2audit.units import make_unit

    unit = make_unit({"task_id": "t", "entity_id": "e", "field": "email", "value": _EMAIL, "dimension": "contact"})
    hits = Cascade([unit]).scan_text("note: " + _EMAIL[::-1])
    assert [(h.detector, h.grade, h.confidence) for h in hits] == [("forms.reversed_values", 1.0, 0.8)]
    assert _graded("欧阳娜娜", "person_name", "倒序：娜娜阳欧", "name") == 1.0


def test_the_repr_of_utf16_bytes_of_several_lines_is_read():
    """`print('To: Lena Hartmann\\nPhone: +49 30 90182736\\n'.encode('utf-16'))`: the text's line breaks are
    characters of a text that prints, so the literal is read and the phone in it found whole (1.0)."""
    text = "print(" + repr("To: Lena Hartmann\nPhone: +49 30 90182736\n".encode("utf-16")) + ")"
    assert _graded("+49 30 90182736", "contact", text, "phone") == 1.0


# -- a spelling of two named items ------------------------------------------------------------------------------


def test_a_spelling_naming_two_items_on_its_line_is_read():
    """`capital R, capital H, 7, 4, 2, 9` on one line of a long log: six items, two of them named (`capital`), the
    least a run of `spelled_out` names (`_MIN_NAMED` 2, so its cue's `cue_least` 2: the line is a cue line): read
    as `RH7429`, the value whole (1.0)."""
    assert _graded("RH7429", "credential", _PAD + "read back: capital R, capital H, 7, 4, 2, 9\n" + _PAD,
                   "password") == 1.0


# -- a condition's initials and codes where the entity is (or is not) named ----------------------------------------

_COPD, _NAME, _ID = "chronic obstructive pulmonary disease", "Bartholomew Achebe-Lind", "NN-3021"


@pytest.mark.parametrize(("value", "text", "entity", "grade"), [
    (_COPD, "Handover: Bartholomew's COPD is stable overnight.", _ID, 1.0),  # his given name, possessive
    (_COPD, "Handover: Bartholomew COPD exacerbation, on 2 L O2", _ID, 1.0),  # the initials right after his name
    (_COPD, "Pt NN-30215 - COPD GOLD 3, home O2", _ID, 0),  # another record's id, holding his
    (_COPD, "Sister of Bartholomew Achebe-Lind: COPD since 2019", _ID, 0),  # a relative, the word capitalised
    (_COPD, "Bed 9: COPD exacerbation overnight", "bed", 0),  # a record id of no digits is no name to find
    (_COPD, "Bartholomew Achebe-Lind's sister has COPD", _ID, 0),  # a relative, named after him
    (_COPD, "Ward round done. Bartholomew seen at 9. Bed 4: COPD, on 2 L O2", _ID, 0),  # he is in the sentence before
    (_COPD, "Bed 4: COPD. Bartholomew Achebe-Lind is next on the list.", _ID, 0),  # ... or in the one after
])
def test_initials_are_the_entitys_by_his_name_or_his_records_whole_id(value, text, entity, grade):
    """COPD alone is Bartholomew Achebe-Lind's condition (1.0) where the sentence names him: his given name with
    "'s", or followed by the initials themselves (capitals: no family name of a namesake); not where it names a
    longer id holding his record's, a relative ("Sister", in capitals, is one), or an id without a digit, nor where
    he is named only in the sentence before or after."""
    assert _graded(value, "health", text, "dx", _NAME, entity) == grade


@pytest.mark.parametrize(("value", "text"), [
    ("major depressive disorder, recurrent, moderate", "Claim 7781, NN-9999: dx F33.1, 12 sessions approved"),
    ("obesity", "Bartholomew Achebe-Lind: dx E66.9 at intake"),  # "Obesity, unspecified": one word is many things
])
def test_a_code_of_another_record_or_of_a_one_word_description_is_no_diagnosis(value, text):
    """F33.1 said of another claimant's record (NN-9999, no word of the entity) and E66.9, whose description holds one
    content word (`icd_codes` reads descriptions of two or more): nothing (session 30's tests: F33.1 of the entity
    → 1.0)."""
    assert _graded(value, "health", text, "dx", _NAME, _ID) == 0


# -- a diagnosis's code, a long account ------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Claim 7781, Achebe-Lind B.: dx F33.9, 12 sessions approved",  # recurrent, unspecified: less than the value
    "Claim 7781, Achebe-Lind B.: dx F33.15, 12 sessions approved",  # a longer code holding F33.1
    "Claim 7781, Achebe-Lind B.: dx XF33.1, 12 sessions approved",  # a token holding it
])
def test_only_the_most_specific_code_standing_alone_is_the_diagnosis(text):
    """Major depressive disorder, recurrent, moderate is F33.1 (all its words); F33.9's words fit it too but say
    less, so only F33.1 is read for it, and only as a code of its own (session 30's test: F33.1 → 1.0)."""
    value = "major depressive disorder, recurrent, moderate"
    assert _graded(value, "health", text, "dx", "Bartholomew Achebe-Lind", "NN-3021") == 0


@pytest.mark.parametrize("text", ["ref 9330501987654321012", "ref 3305019876543210129"])
def test_a_long_account_with_a_digit_on_either_side_is_another_number(text):
    """The 18-digit account with one more digit before it, or after it: another number (0), each side checked
    apart (session 30's test put digits on both sides at once)."""
    assert _graded("中国建设银行杭州滨江支行 330501987654321012", "financial", text, "对公账户") == 0


# -- prose cut where OCR could read no further -------------------------------------------------------------------


def test_prose_cut_at_a_smudge_said_in_two_characters_is_graded():
    """`[模糊]` (smudged) alone, without `字迹` before it, says the cut as `[字迹模糊]` does: the value's first
    part shown, cut where the scan could read no further, is most of it (0.7, as session 30's test of `[字迹模糊]`)."""
    value = "慢性阻塞性肺疾病急性加重期，长期家庭氧疗"
    assert _graded(value, "health", "病史：慢性阻塞性肺疾病急性加重期，长[模糊]", "diagnosis") == 0.7


# -- figures of speech are no one's condition --------------------------------------------------------------------


def test_a_stroke_of_bad_luck_a_years_stroke_and_the_great_depression_are_no_ones_condition(tmp_path):
    """`annotate prelabel` of a patient's note in one line, a health word in it (Patient, Diagnosed): "a stroke of
    bad luck" (an idiom, with its adjective), "the stroke of 1911" (a year's event), "the Great Depression" (the
    economy's; ICD-10's one-word term "depression" read after "great") are nobody's health; asthma, diagnosed, is
    the one condition proposed."""
    text = ("Patient history: a stroke of bad luck got him the job; the stroke of 1911 is family lore; his "
            "grandparents lost the farm in the Great Depression. Diagnosed with asthma in 2019.\n")
    units = prelabelled(tmp_path, text)
    assert [u["value"] for u in units if u["dimension"] == "health"] == ["asthma"]


def test_discover_keeps_chinese_conditions_said_of_her_and_confirmed_as(tmp_path):
    """Two tool results of one OpenAI request log, each a condition in one sentence with no other health word:
    "她有精神分裂症" (she has …) and "去年确诊为阿尔茨海默病" (confirmed as … last year). By hand `--discover` finds
    2 values on the local side, both sent: 2 of 2 leaked, exposure 1.000."""
    log = tmp_path / "requests.jsonl"
    log.write_text(json.dumps({
        "session_id": "c3", "url": "https://api.openai.com/v1/chat/completions",
        "request": {"model": "gpt-4o", "messages": [
            {"role": "user", "content": "整理一下"},
            {"role": "tool", "tool_call_id": "x", "content": "家属说明：她有精神分裂症。"},
            {"role": "tool", "tool_call_id": "y", "content": "补充：去年确诊为阿尔茨海默病。"}]},
        "response": {"choices": [{"message": {"role": "assistant", "content": "好的"}}]}}, ensure_ascii=False) + "\n",
        encoding="utf-8")
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--json")
    assert code == 0, output
    [session] = json.loads(output[output.index("{"):])["sessions"]
    assert (session["units"], session["leaked"], session["exposure"]) == (2, 2, 1.0)


# -- prelabel's own outputs --------------------------------------------------------------------------------------


def test_prelabel_of_a_task_suite_never_reads_its_own_output_left_in_a_workspace(tmp_path):
    """A suite `tasks/clinic/t1/` (a `task.toml`, its workspace one note: a name, a phone), prelabelled twice with
    `--out` inside that workspace: both runs propose the same 2 units of task t1 from notes.txt, and the second
    names ls.json as its own output, not read."""
    task = tmp_path / "tasks" / "clinic" / "t1"
    (task / "workspace").mkdir(parents=True)
    (task / "task.toml").write_text('id = "t1"\n', encoding="utf-8")
    (task / "workspace" / "notes.txt").write_text("Maria Kessler, phone +1 415 555 0134.\n", encoding="utf-8")
    out, units_out = task / "workspace" / "ls.json", tmp_path / "auto.jsonl"
    for _ in range(2):
        code, output = _cli("annotate", "prelabel", tmp_path / "tasks", "--out", out, "--units", units_out,
                            "--no-presidio")
        assert code == 0, output
        units = [json.loads(line) for line in units_out.read_text(encoding="utf-8").splitlines()]
        assert sorted((u["task_id"], u["source"]["file"], u["value"]) for u in units) == [
            ("t1", "notes.txt", "+1 415 555 0134"), ("t1", "notes.txt", "Maria Kessler")], units
    assert "own output" in output, output


# -- Phoenix's spans table ---------------------------------------------------------------------------------------


def test_phoenix_spans_saved_as_a_json_array_are_read_in_time_order_each_trace_a_session(tmp_path):
    """`get_spans_dataframe().to_json(orient="records")` (a JSON array, the later span first) of two LLM spans
    naming no session: the phone sent at 19:33:20.5 UTC (epoch ms 1733600000500) in trace T1, the SSN at
    19:33:21.5 in trace T2, its input messages a JSON string as a column of text holds them. By hand: each trace is
    a session, each span its session's step 1, the calls numbered in time order (the phone's 0, the SSN's 1),
    the phone's call stamped 2024-12-07T19:33:20.500000+00:00. A third LLM span (T3, a second later) carries no
    messages: the audit says 3 model-call spans read, 2 with prompt content, 1 without, as it says of OpenTelemetry
    spans (content capture off?). A Parquet file of another tool's (a `span_id`, no `context.span_id`) is no spans
    table: named as no known log format."""
    from test_new_user_walk_20 import _UNITS
    from test_new_user_walk_22 import _phoenix_rows

    chain, llm = _phoenix_rows()
    first = {k: v for k, v in llm.items() if k != "attributes.session.id"} | {"context.trace_id": "T1"}
    later = first | {"context.trace_id": "T2", "context.span_id": "b1b2c3d4e5f60709", "start_time": 1733600001500,
                     "attributes.llm.input_messages": json.dumps(
                         [{"message.role": "user", "message.content": "Her SSN is 123-45-6789"}])}
    spans, units = tmp_path / "spans.json", tmp_path / "units.jsonl"
    empty = first | {"context.trace_id": "T3", "context.span_id": "c1b2c3d4e5f60700", "start_time": 1733600002500,
                     "attributes.llm.input_messages": None}
    spans.write_text(json.dumps([later, chain, first, empty]), encoding="utf-8")
    units.write_text("".join(json.dumps(u) + "\n" for u in _UNITS), encoding="utf-8")
    import polars as pl

    other = tmp_path / "other.parquet"  # Parquet of another tool's: a span id, but no spans table's columns
    pl.DataFrame({"span_id": ["a1b2c3d4e5f60708"], "name": ["ChatCompletion"]}).write_parquet(other)
    code, output = _cli("audit", other, "--units", units, "--json")
    [skipped] = json.loads(output[output.index("{"):])["skipped_files"]
    assert skipped["reason"].startswith("binary data, not a known log format"), skipped
    out = tmp_path / "findings.parquet"
    code, output = _cli("audit", spans, "--units", units, "--out", out)
    assert code == 0, output
    assert ("phoenix-spans: 3 model-call spans read, 2 carried prompt content, 1 carried none (content capture off?"
            in " ".join(output.split())), output
    rows = pl.read_parquet(out).sort("unit_id").select("unit_id", "session", "step", "call", "timestamp").rows()
    assert rows == [("t1/E1/phone", "T1", 1, 0, "2024-12-07T19:33:20.500000+00:00"),
                    ("t1/E1/ssn", "T2", 1, 1, "2024-12-07T19:33:21.500000+00:00")]


# -- the local judge's checks: an ID read out digit by digit -----------------------------------------------------


def test_an_id_read_out_digit_by_digit_with_oh_for_zero_is_read_as_its_digits():
    """"five-two-nine, eight-one, four-four-oh-six": each group's digits joined by hyphens, "oh" a zero among them
    as in "eight-oh-three", is read as 5-2-9, 8-1, 4-4-0-6 (Lorraine Beaudry's SSN, 529-81-4406), the text the
    checks then look for the value in."""
    from ec2audit.detect.value_checks import alpha_digits

    said = "Her social is five-two-nine, eight-one, four-four-oh-six."
    assert alpha_digits(said) == "Her social is 5-2-9, 8-1, 4-4-0-6."


def test_a_number_said_in_halves_without_a_hyphen_is_read_as_one():
    """"eleven eighty seven" (no hyphen in "eighty seven") is the house number 1187, as "eleven eighty-seven" is
    (session 30's test), never 1180 and 7."""
    from ec2audit.detect.value_checks import numbers

    assert numbers("Mail it to Priya Raman at eleven eighty seven Larkspur Lane, Boise.") == [1187.0]


# -- a store's unreadable records, and a store gone ----------------------------------------------------------------


def test_a_runs_episode_names_a_body_of_the_wrong_shape_by_its_error(tmp_path):
    """Episode ep1 of t1: r1 sends Maria's phone; r2's body was left as 46 characters of text (a JSON array cut
    off); r3's is a JSON object of the wrong shape (`"messages": 5`). A run's episode audit names r2 and r3 (r3 with
    the error its shape gave, TypeError) and still scores r1: exposure 1 · 1 / 4 = 0.25 (phone 1, SSN 3)."""
    from test_new_user_walk_20 import _UNITS
    from test_new_user_walk_22 import _chat, _store

    from ec2audit.intercept.store import read_records
    from ec2audit.run.episodes import audit_episode
    from ec2audit.tasks import Task
    from ec2audit.units import read_units

    units_path = tmp_path / "units.jsonl"
    units_path.write_text("".join(json.dumps(u) + "\n" for u in _UNITS), encoding="utf-8")
    store = _store(tmp_path / "cloud.sqlite", [("r1", _chat("Call Maria at +1 415 555 0134"), 200),
                                               ("r2", '[{"role": "user", "content": "Her SSN is 123-4', 200),
                                               ("r3", {"model": "gpt-4o", "messages": 5}, 200)])
    units = [u for u in read_units(units_path) if u.task_id == "t1"]
    task = Task(id="t1", scenario="s", title="t", language="en", instruction="", timeout=1, privacy_note=None,
                criteria=[], units=units)
    _, exposure, _, _, unread = audit_episode(task, "ep1", read_records(store))
    assert exposure == 0.25
    assert [u.split(" (")[0] for u in unread] == [f"record r{n}: request body not read" for n in (2, 3)]
    assert unread[1].startswith("record r3: request body not read (TypeError"), unread


def test_report_says_the_store_intercept_audit_read_is_gone(tmp_path):
    """`intercept audit STORE --out`, then the store moved away: `report` on the findings cannot read r1's call
    again, and says so naming the store (not there any more, give --payloads), its leak shown without context."""
    from test_new_user_walk_20 import _UNITS
    from test_new_user_walk_22 import _chat, _store

    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps(u) + "\n" for u in _UNITS), encoding="utf-8")
    store = _store(tmp_path / "cloud.sqlite", [("r1", _chat("Call Maria at +1 415 555 0134"), 200)])
    out = tmp_path / "findings.parquet"
    code, output = _cli("intercept", "audit", store, "--units", units, "--out", out)
    assert code == 0, output
    (tmp_path / "cloud.sqlite").rename(tmp_path / "moved.sqlite")
    code, output = _cli("report", out, "--out", tmp_path / "report.html")
    assert "cloud.sqlite: not there any more (give --payloads)" in " ".join(output.split()), output
