"""Session 23, thirteenth walk: figures a new user reads off the commands that are not log audits (`report` on an
audit's output, `units`, `tasks import-acebench`, `annotate`), on inputs written here as their authors write them,
each checked against a count made by hand."""

import json
from pathlib import Path

from test_new_user_walk import TASK, UNITS, _openclaw
from test_new_user_walk_7 import _cli


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_report_names_the_call_that_first_sent_a_unit_at_its_best_grade_as_audit_does(tmp_path):
    """A session whose second call (#2) carries `Ms. Kessler` and `…0130 00` (fragments, 0.3 each) and whose fourth
    (#4) carries the name and the IBAN whole (1.0). By hand, as `audit` prints it: both units first leaked at call #4,
    grade 1.0, the evidence the whole values. Before: `report` named call #2 and showed its fragments under the
    grade 1.0."""
    logs = tmp_path / "logs"
    logs.mkdir()
    _openclaw(logs, "s1", ["Ms. Kessler asked about the account ending 0130 00.", "The weather.",
                           "Maria Kessler, IBAN DE89 3704 0044 0532 0130 00, confirmed."])
    units = _jsonl(tmp_path / "units.jsonl", [
        {"task_id": "t", "entity_id": "E1", "field": "name", "dimension": "person_name", "value": "Maria Kessler"},
        {"task_id": "t", "entity_id": "E1", "field": "iban", "dimension": "financial",
         "value": "DE89 3704 0044 0532 0130 00"}])
    (tmp_path / "map.json").write_text('{"s1": "t"}', encoding="utf-8")
    out = tmp_path / "out" / "findings.parquet"
    code, output = _cli("audit", logs, "--units", units, "--task-map", tmp_path / "map.json", "--out", out)
    assert code == 0, output
    code, output = _cli("report", out.parent, "--json", "--show-values")
    assert code == 0, output
    (episode,) = json.loads(output)["tasks"]["t"]
    assert sorted((leak["unit_id"], leak["grade"], leak["step"], leak["shown"]) for leak in episode["leaks"]) == [
        ("t/E1/iban", 1.0, 4, "DE89 3704 0044 0532 0130 00"), ("t/E1/name", 1.0, 4, "Maria Kessler")]


def _acebench_md(folder: Path, task_id: str, prompt: str, criteria: str) -> Path:
    """A task Markdown as AceBench ships it under tasks/ACE_Bench, its Grading Criteria as given."""
    md = folder / "tasks" / "ACE_Bench" / f"{task_id}.md"
    md.parent.mkdir(parents=True, exist_ok=True)
    md.write_text(f"---\nid: {task_id}\nname: {task_id}\ntimeout_seconds: 300\nagent_category: Office & Daily Tasks\n"
                  f"---\n## Prompt\n\n{prompt}\n\n## Grading Criteria\n\n{criteria}", encoding="utf-8")
    return md


def _imported(md: Path) -> dict:
    code, output = _cli("tasks", "import-acebench", md, "--json")
    assert code == 0, output
    (task,) = json.loads(output)["tasks"]
    return task


def test_acebench_checklists_weights_written_after_the_item_and_items_wrapped_onto_two_lines(tmp_path):
    """A task's Grading Criteria as AceBench writes them: task 33's generated checklist ends each item with its
    weight (`… — weight 0.2`), task 1's wraps a long item onto an indented second line. By hand: the weights are
    0.2, 0.4 and 0.4 (they sum to 1: no note), and the wrapped item reads whole. Before: the three shared 1 equally
    (1/3 each, `— weight 0.2` kept in the text) and the second line was dropped."""
    task = _imported(_acebench_md(tmp_path, "ACE_Bench_task_33_contact_lookup", "找一下张伟的联系方式。", """\
- [ ] search_performed: tool `contacts_search` called >= 1 times — weight 0.2
- [ ] disambiguation: response contains keywords [张伟, 张卫, 张伟东] — weight 0.4
- [ ] correct_recommendation: the agent recommended the right Zhang Wei
      (技术部, 高级工程师) and said why — weight 0.4
"""))
    assert [(c["key"], c["weight"]) for c in task["criteria"]] == [
        ("search_performed", 0.2), ("disambiguation", 0.4), ("correct_recommendation", 0.4)]
    assert task["criteria"][2]["description"] == (
        "the agent recommended the right Zhang Wei (技术部, 高级工程师) and said why")
    assert task["meta"]["grading_notes"] == []


def test_acebench_gating_items_are_gates_in_both_of_its_spellings(tmp_path):
    """Task 105's checklist opens with `**[Gating]** output.pdf 存在。不通过则所有评分归零。` (no file: every
    score 0), task 7's ends an item with `— **HARD GATES**` after the words `hard-gated`. By hand: two gates of
    weight 0, and the two scored items share 1: 0.5 each; the gate's text without its marker, `hard-gated` kept.
    Before: `[Gating]` was a criterion weighing 1/3 (its key `[Gating]`), and the marker was cut out of
    `hard-gated` (`6d categories`)."""
    task = _imported(_acebench_md(tmp_path, "ACE_Bench_task_105_repo_to_slides", "把这个仓库做成幻灯片。", """\
- [ ] **[Gating]** `output.pdf` 存在。不通过则所有评分归零。
- [ ] 文本内容涵盖项目关键主题（VLM 评估）
- [ ] 视觉设计质量：配色统一、版式专业（VLM 评估）
- [ ] Chat does NOT echo any of the 6 hard-gated categories above — **HARD GATES**
"""))
    assert [(c["weight"], c["gate"]) for c in task["criteria"]] == [
        (0.0, True), (0.5, False), (0.5, False), (0.0, True)]
    assert task["criteria"][3]["description"] == "Chat does NOT echo any of the 6 hard-gated categories above"


def test_report_on_intercept_audits_findings_counts_the_episodes_that_sent_nothing(standin, tmp_path):
    """Requests through `intercept serve` under `/e/<episode>/t/billing/v1`: ep1 sent the name, the phone and the card
    (1 + 1.5 + 2.5 of the task's 8: 0.625) in two calls, ep2 one call with nothing of the task's (0.0). By hand, as
    `intercept audit` prints them: 2 episodes, exposure (0.625 + 0.0) / 2 = 0.3125, 3 cloud calls. Before: `report`
    on its `--out` read only the episodes with findings: 1 episode, exposure 0.625, and a note to use `audit`."""
    import httpx
    from intercept_helpers import running_proxy

    _, upstream = standin
    units = _jsonl(tmp_path / "units.jsonl", UNITS)
    ask = {"role": "user", "content": "Call Dana Whitfield at +1 415-555-0199"}
    card = {"role": "user", "content": "Her card is 4111 1111 1111 1111"}
    with running_proxy(upstream, tmp_path / "cloud.sqlite") as (_, url, _), httpx.Client(timeout=30) as client:
        for episode, messages in (("ep1", [ask]), ("ep1", [ask, card]),
                                  ("ep2", [{"role": "user", "content": "What is 2+2?"}])):
            client.post(f"{url}/e/{episode}/t/{TASK}/v1/chat/completions",
                        json={"model": "gpt-4o", "messages": messages}).raise_for_status()
    out = tmp_path / "out" / "findings.parquet"
    code, output = _cli("intercept", "audit", tmp_path / "cloud.sqlite", "--units", units, "--out", out)
    assert code == 0, output
    code, output = _cli("report", out, "--units", units, "--json")
    assert code == 0, output
    summary = json.loads(output)
    (row,) = summary["strategies"]
    assert (row["episodes"], row["exposure"], row["cloud_calls"]) == (2, 0.3125, 3)
    assert {g["label"]: g["exposure"] for g in summary["groups"]} == {"ep1": 0.625, "ep2": 0.0}


def test_a_stripe_secret_key_is_a_credential_to_prelabel_and_to_discover(tmp_path):
    """A service's config.json, written as Stripe's docs show a key: a live secret key under `stripe_key`, a
    restricted test key in an env line, a publishable key (public by design). By hand: two credentials, the two
    secret keys, in `annotate prelabel` and in `audit --discover` of an agent that read the file. Before: neither
    (the prefixes were known only to show a key masked; no key like `stripe_key` names a secret)."""
    secret, restricted = "sk_live_51HxQ2eLkJ8s9Vb7Tz0aWc3Rm", "rk_test_51Mz7QaBcD3eF9gH2iJ4kL6mN8o"
    text = json.dumps({"stripe_key": secret, "publishable": "pk_live_51HxQ2eLkJ8s9Vb7Tz0aWc3Rm"}) + (
        f"\nSTRIPE_RESTRICTED={restricted}\n")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "config.json").write_text(text, encoding="utf-8")
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--units", units, "--out", tmp_path / "ls.json")
    assert code == 0, output
    prelabelled = [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]
    assert sorted(u["value"] for u in prelabelled if u["dimension"] == "credential") == [restricted, secret]
    log = _openclaw(tmp_path, "stripe", [text])
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--json", "--show-values")
    assert code == 0, output
    found = json.loads(output)["leaked"]
    assert sorted(leak["evidence"] for leak in found if leak["dimension"] == "credential") == [restricted, secret]


def test_prelabel_of_a_patient_table_with_split_names_and_insurance_ids(tmp_path):
    """A clinic's export as its system writes it: `first_name`, `last_name`, `dob`, `phone`, `diagnosis`,
    `insurance_id` per patient. By hand, 6 units a row, 12: the insurance ids are record numbers of the patient's
    insurance file (financial, weight 2.5, as `POL-…` and `INS-…` are in prose), and each row's units are
    Amelia Hart's or Jonas Weber's. Before: 10 units (no insurance id), named `Amelia` and `Jonas` alone."""
    ws = tmp_path / "clinic"
    ws.mkdir()
    (ws / "patients.csv").write_text(
        "patient_id,first_name,last_name,dob,phone,diagnosis,insurance_id\n"
        "P-1001,Amelia,Hart,1984-03-12,(415) 555-0142,Hypertension,BCBS-88213-A\n"
        "P-1002,Jonas,Weber,1979-11-02,+49 30 901820,Type 2 diabetes,AOK-553201\n", encoding="utf-8")
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--units", units, "--out", tmp_path / "ls.json")
    assert code == 0, output
    found = [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]
    assert len(found) == 12
    assert sorted((u["value"], u["dimension"], u["weight"]) for u in found if u["field"] == "insurance_id") == [
        ("AOK-553201", "financial", 2.5), ("BCBS-88213-A", "financial", 2.5)]
    assert {u["entity_id"]: u["entity_name"] for u in found} == {"P-1001": "Amelia Hart", "P-1002": "Jonas Weber"}


def test_report_in_the_terminal_says_how_many_episodes_of_a_strategy_failed(tmp_path):
    """A run folder as `ec2audit run` leaves it: cloud-only on tasks A (twice) and B, its second run of A crashed
    (completion 0); edge-only once each, B timed out. By hand: cloud-only 3 episodes, 1 failed, completion
    (1.0 + 0.0 + 0.8) / 3 = 60.0 %; edge-only 2, 1 failed, (0.9 + 0.2) / 2 = 55.0 %, as the HTML report's `failed`
    column says. Before: the terminal's table had no `failed`: 60 % read as three finished episodes' mean."""
    from dataclasses import replace

    from test_new_user_walk_2 import _episode

    from ec2audit.run.episodes import RECORD, EpisodeSpec
    from ec2audit.run.scheduler import write_results

    out = tmp_path / "run"
    specs = []
    for task, strategy, run, completion, status in (
            ("A", "cloud-only", 0, 1.0, "ok"), ("A", "cloud-only", 1, 0.0, "crash"), ("B", "cloud-only", 0, 0.8, "ok"),
            ("A", "edge-only", 0, 0.9, "ok"), ("B", "edge-only", 0, 0.2, "timeout")):
        record = replace(_episode(task, strategy, run, completion, 0, 0.0, None), status=status).to_dict()
        (out / "episodes" / record["episode_id"]).mkdir(parents=True)
        (out / "episodes" / record["episode_id"] / RECORD).write_text(json.dumps(record), encoding="utf-8")
        specs.append(EpisodeSpec(task, strategy, run))
    write_results(out, specs)
    code, output = _cli("report", out, "--out", tmp_path / "report.html")
    assert code == 0, output
    header = next(line for line in output.splitlines() if "configuration" in line and "completion" in line)
    names = [cell.strip() for cell in header.split("┃")[2:-1]]
    rows = {cells[1].strip(): dict(zip(names, (c.strip() for c in cells[2:-1]), strict=True))
            for line in output.splitlines() if (cells := line.split("│"))[1:2] and "-only" in cells[1]
            and len(cells) == len(names) + 3}
    assert {label: (row["episodes"], row["failed"], row["completion"]) for label, row in rows.items()} == {
        "cloud-only": ("3", "1", "60.0%"), "edge-only": ("2", "1", "55.0%")}
