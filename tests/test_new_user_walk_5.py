"""Session 16, fifth walk: `annotate prelabel` on a small workspace written as users write theirs (CSV,
JSON, Markdown, Chinese text), `report`, `intercept` and `judge --calibrate`, each figure checked against a
count made by hand."""

import json
from pathlib import Path

from click.testing import CliRunner

from ec2audit.cli import main


def _prelabel(tmp_path: Path, files: dict[str, str]) -> list[dict]:
    """The units `annotate prelabel --no-presidio --units` proposes for a workspace of `files`."""
    ws = tmp_path / "ws"
    ws.mkdir()
    for name, text in files.items():
        (ws / name).write_text(text, encoding="utf-8")
    units = tmp_path / "auto.jsonl"
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(ws), "--no-presidio", "--units", str(units),
                                       "--out", str(tmp_path / "ls.json")])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]


def _values(units: list[dict]) -> list[tuple[str, str]]:
    return sorted((u["dimension"], u["value"]) for u in units)


def test_a_card_followed_by_its_expiry_is_still_a_card(tmp_path):
    """`Card 4532 0151 1283 0366 12/27`: the card pattern's optional 1-3 digit tail took the expiry month,
    the 18 digits failed Luhn and the whole card was dropped. By hand: one financial unit, the 16 digits."""
    units = _prelabel(tmp_path, {"order.txt": "Card 4532 0151 1283 0366 12/27, billed monthly.\n"})
    assert _values(units) == [("financial", "4532 0151 1283 0366")]


def test_a_chinese_name_after_its_role_ends_before_the_particle(tmp_path):
    """`客户张伟的手机号是…`: after a role word the name was always a surname and two characters, so the unit
    was `张伟的` (the possessive particle taken as the given name), a value that occurs nowhere a leak would
    write it. By hand: person 张伟, contact 13812345678."""
    units = _prelabel(tmp_path, {"客户.txt": "客户张伟的手机号是13812345678，请回电。\n"})
    assert _values(units) == [("contact", "13812345678"), ("person_name", "张伟")]


def test_a_chinese_address_starts_at_its_province_not_at_the_verb_before_it(tmp_path):
    """`他住在广东省深圳市…` and `公司位于浙江省杭州市…`: any two to six characters before 省 counted as the
    province, so the units began `他住在` and `公司位于`; after 住在 a city began at 在 (`在北京市…`). By hand:
    three location units, each from its province or city to its house number."""
    units = _prelabel(tmp_path, {"地址.txt": "他住在广东省深圳市南山区科技园路1号。\n"
                                             "公司位于浙江省杭州市西湖区文三路5号。\n她住在北京市朝阳区建国路88号。\n"})
    assert _values(units) == [("location", "北京市朝阳区建国路88号"), ("location", "广东省深圳市南山区科技园路1号"),
                              ("location", "浙江省杭州市西湖区文三路5号")]


def test_a_version_number_is_no_ip_address(tmp_path):
    """Four-part versions in the private ranges (`10.2.3.4`, `192.168.1.10`) were proposed as internal IPs
    wherever they stood: after `version`, `build`, `v`, as a JSON `version` value, in a CSV `version` column.
    By hand: the two real addresses only, the service's 10.0.4.17 and the database's 192.168.1.20."""
    units = _prelabel(tmp_path, {
        "config.json": '{"service": {"ip": "10.0.4.17", "version": "10.2.3.4", "app_version": "10.1.1.1"}}\n',
        "CHANGELOG.md": "Deployed build 192.168.1.10 (firmware v10.0.0.1); the database is at 192.168.1.20.\n",
        "releases.csv": "service,version\nbilling,10.3.0.2\n"})
    assert _values(units) == [("network", "10.0.4.17"), ("network", "192.168.1.20")]


def test_a_key_named_line_that_lists_values_gives_the_values(tmp_path):
    """A `Key: value` line was one unit whatever it held: `Phone: 555-0100; fax (415) 555-0199.` one contact
    unit of both numbers and the period, `Contact: Dana Whitfield, +1 415-555-0199` a contact unit of the
    name and the phone, `Mobile: +1 212-555-0187.` a phone with the sentence's period. By hand: the phone
    555-0100 and the fax (415) 555-0199, the name Dana Whitfield, the phones +1 415-555-0199 and
    +1 212-555-0187; of `IP: 10.0.4.17/24, mask 255.255.255.0` the address alone."""
    units = _prelabel(tmp_path, {"contacts.md": "Phone: 555-0100; fax (415) 555-0199.\n"
                                                "Contact: Dana Whitfield, +1 415-555-0199\n"
                                                "Mobile: +1 212-555-0187.\n"
                                                "IP: 10.0.4.17/24, mask 255.255.255.0\n"})
    assert _values(units) == [("contact", "(415) 555-0199"), ("contact", "+1 212-555-0187"),
                              ("contact", "+1 415-555-0199"), ("contact", "555-0100"), ("network", "10.0.4.17/24"),
                              ("person_name", "Dana Whitfield")]


def _audit(*args: str) -> dict:
    result = CliRunner().invoke(main, ["audit", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_deepseeks_cache_hits_are_billed_at_its_cache_rate(tmp_path):
    """DeepSeek's API counts the prompt tokens read from its context cache as `prompt_cache_hit_tokens`
    (with `prompt_cache_miss_tokens`), not in `prompt_tokens_details`. By hand, deepseek-chat at $0.28 input,
    $0.028 cache hit, $0.42 output per million: 600·0.28 + 400·0.028 + 100·0.42 = 221.2 µ$; before, every
    prompt token was billed as a miss: 322 µ$, and 0 cached tokens shown."""
    log = tmp_path / "deepseek.jsonl"
    log.write_text(json.dumps({
        "id": "r1", "timestamp": "2026-11-03T10:00:00Z", "url": "https://api.deepseek.com/chat/completions",
        "session_id": "s1", "request": {"model": "deepseek-chat", "messages": [{"role": "user", "content": "Hi"}]},
        "response": {"model": "deepseek-chat", "usage": {
            "prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100,
            "prompt_cache_hit_tokens": 400, "prompt_cache_miss_tokens": 600}}}) + "\n")
    (row,) = _audit(str(log), "--discover", "--no-presidio")["providers"]
    assert (row["input_tokens"], row["cached_tokens"], row["output_tokens"]) == (1000, 400, 100)
    assert abs(row["cost_usd"] - 0.0002212) < 1e-12


def test_a_model_without_a_price_says_so_in_the_provider_table(tmp_path):
    """claude-sonnet-4-20250514 has no price in the pinned LiteLLM map, and a call that logged no usage cannot
    be priced: both rows showed a bare `-` under USD, read as nothing to pay. By hand: 100 input and 10
    output tokens of Claude, cost unknown (null in JSON, one unpriced call); the gpt-4o call, tokens and cost unknown
    (no usage: not 0 tokens, walk 19)."""
    def record(rid: str, url: str, model: str, response: dict) -> dict:
        return {"id": rid, "timestamp": "2026-11-03T10:00:00Z", "url": url, "session_id": "s1",
                "request": {"model": model, "max_tokens": 100, "messages": [{"role": "user", "content": "Hi"}]},
                "response": response}
    log = tmp_path / "requests.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in (
        record("r1", "https://api.anthropic.com/v1/messages", "claude-sonnet-4-20250514",
               {"type": "message", "usage": {"input_tokens": 100, "output_tokens": 10}}),
        record("r2", "https://api.openai.com/v1/chat/completions", "gpt-4o", {"object": "chat.completion"}))))
    rows = {r["model"]: r for r in _audit(str(log), "--discover", "--no-presidio")["providers"]}
    claude, gpt = rows["claude-sonnet-4-20250514"], rows["gpt-4o"]
    assert (claude["input_tokens"], claude["output_tokens"], claude["cost_usd"], claude["unpriced_calls"]) == (
        100, 10, None, 1)
    assert (gpt["input_tokens"], gpt["cost_usd"], gpt["unpriced_calls"]) == (None, None, 1)
    table = CliRunner().invoke(main, ["audit", str(log), "--discover", "--no-presidio"], env={"COLUMNS": "200"})
    lines = {line.split()[1]: line for line in table.output.splitlines() if line.strip().startswith("cloud ")}
    assert lines["anthropic/claude-sonnet-4-20250514"].rstrip().endswith("unknown: no price for the model")
    assert lines["openai/gpt-4o"].rstrip().endswith("unknown: no usage logged")


def test_report_says_a_cost_without_a_price_is_unknown_in_the_terminal_as_in_the_html(tmp_path):
    """`report` over an audit of one claude-sonnet-4-20250514 call (no price in the pinned map): the HTML
    said USD `unknown`, the terminal a dash. By hand: 1 call, 100 input, 10 output tokens, USD unknown in
    both, null in JSON."""
    log = tmp_path / "requests.jsonl"
    log.write_text(json.dumps({
        "id": "r1", "timestamp": "2026-11-03T10:00:00Z", "url": "https://api.anthropic.com/v1/messages",
        "session_id": "s1", "request": {"model": "claude-sonnet-4-20250514", "max_tokens": 100, "messages": [
            {"role": "user", "content": "Call Dana Whitfield on +1 415-555-0199."}]},
        "response": {"type": "message", "usage": {"input_tokens": 100, "output_tokens": 10}}}) + "\n")
    out = tmp_path / "out"
    out.mkdir()
    _audit(str(log), "--discover", "--no-presidio", "--out", str(out / "findings.parquet"))
    (row,) = json.loads(CliRunner().invoke(main, ["report", str(out), "--json"]).stdout)["strategies"]
    assert (row["cloud_calls"], row["cloud_input_tokens"], row["cloud_output_tokens"], row["cloud_usd"]) == (
        1, 100, 10, None)
    html = tmp_path / "report.html"
    shown = CliRunner().invoke(main, ["report", str(out), "--out", str(html)], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    (cost,) = [line for line in shown.output.splitlines() if "audit: findings.parquet" in line and "100" in line]
    assert cost.split("│")[-2].strip() == "unknown: no price for the model"  # why, as `audit` says (walk 9)
    assert '>unknown: no price for the model</td>' in html.read_text(encoding="utf-8")


def test_a_dotenv_export_names_its_key_and_urls_and_ssh_remotes_hold_no_mailbox(tmp_path):
    """`.env` files written for `source` put `export` before the key: the field was `export STRIPE_SECRET_KEY`,
    so the unit's id was too. A URL's user (`https://abc123@o1.ingest.sentry.io/42`, Sentry's DSN) and a git
    SSH remote (`git@github.com:acme/billing.git`) were proposed as e-mail addresses. By hand: the Stripe key
    under STRIPE_SECRET_KEY, the maintainer's address; nothing else."""
    units = _prelabel(tmp_path, {
        ".env": 'export STRIPE_SECRET_KEY="sk_live_51HqLyjWDarjtT1zdp7dcXuZkA9bYt2"\n'
                "SENTRY_DSN=https://abc123@o1.ingest.sentry.io/42\nLOG_LEVEL=debug\n",
        "README.md": "# Billing\nClone with `git clone git@github.com:acme/billing.git`.\n"
                     "Questions: mail dana.whitfield@acme.io.\n"})
    assert sorted((u["field"], u["value"]) for u in units) == [
        ("Questions", "dana.whitfield@acme.io"), ("STRIPE_SECRET_KEY", "sk_live_51HqLyjWDarjtT1zdp7dcXuZkA9bYt2")]


def test_an_order_number_shaped_like_a_phone_is_no_phone(tmp_path):
    """`Order #123-456-7890` and `INV#212-555-0187` are references; only Presidio's phones were checked for a
    code or a number sign before them, ours were proposed. A phone on the line under a signature's name is no
    code's. By hand: two phones, (212) 555-0187 and (415) 555-0134, and the name Kathy Goodman."""
    units = _prelabel(tmp_path, {"orders.md": "Order #123-456-7890 shipped; invoice INV#212-555-0187.\n"
                                              "Questions to the courier on (212) 555-0187.\n\nKathy Goodman\n"
                                              "(415) 555-0134\n"})
    assert _values(units) == [("contact", "(212) 555-0187"), ("contact", "(415) 555-0134"),
                              ("person_name", "Kathy Goodman")]


def test_a_chinese_address_with_spaces_around_its_numbers_keeps_them(tmp_path):
    """`上海市徐汇区漕溪北路 88 号 3 楼`: the house number and floor were only read written solid (`88号3楼`), so
    the unit ended at the street, a value shared by every house on it. By hand: one location unit, the street,
    house number and floor; `楼下` after a house number is downstairs, no floor."""
    units = _prelabel(tmp_path, {"纪要.md": "地点 上海市徐汇区漕溪北路 88 号 3 楼。\n"
                                            "取件在北京市海淀区中关村大街 27 号 楼下。\n"})
    assert _values(units) == [("location", "上海市徐汇区漕溪北路 88 号 3 楼"),
                              ("location", "北京市海淀区中关村大街 27 号")]


def test_each_key_of_a_line_of_several_pairs_names_its_own_value(tmp_path):
    """A line of several `key：value` pairs gave every value the line's first key: 陈静 and her phone were
    fields `快递单号` and `快递单号_2` (the parcel number's), Dana's phone and address `Name_2`, `Name_3`.
    By hand: 收件人 陈静, 电话 13912345678; Name Dana Whitfield, Phone +1 415-555-0199, Email dana@acme.io."""
    units = _prelabel(tmp_path, {"parcel.txt": "快递单号：SF1234567890123，收件人：陈静，电话：13912345678\n",
                                 "contact.txt": "Name: Dana Whitfield, Phone: +1 415-555-0199; Email: dana@acme.io\n"})
    assert sorted((u["field"], u["value"]) for u in units) == [
        ("Email", "dana@acme.io"), ("Name", "Dana Whitfield"), ("Phone", "+1 415-555-0199"),
        ("收件人", "陈静"), ("电话", "13912345678")]


def test_an_ssn_with_a_group_of_zeros_is_a_forms_example(tmp_path):
    """`000-00-0000` is what forms show as the format of an SSN; no group of zeros is ever issued. By hand,
    in a help text that names the format and one applicant's number: one government ID, 219-09-9999."""
    units = _prelabel(tmp_path, {"form-help.md": "Write the SSN as on the card (000-00-0000).\n"
                                                 "Applicant Maria Lopez gave 219-09-9999; 123-00-4567 was refused.\n"})
    assert [v for d, v in _values(units) if d == "government_id"] == ["219-09-9999"]


def test_a_key_named_value_ends_with_its_sentence(tmp_path):
    """`Salary: 85000 USD per year. Bonus €5,000.` was one financial unit of both sentences, and
    `diagnosis: type 2 diabetes with neuropathy.` kept the full stop, a value no leak writes so. By hand: the
    salary 85000 USD, the bonus €5,000, the condition without its full stop."""
    units = _prelabel(tmp_path, {"hr-note.md": "Salary: 85000 USD per year. Bonus €5,000.\n"
                                               "diagnosis: type 2 diabetes with neuropathy.\n"})
    assert _values(units) == [("financial", "85000 USD"), ("financial", "€5,000"),
                              ("health", "type 2 diabetes with neuropathy")]


def test_placeholder_names_are_nobody_in_prelabelling_too(tmp_path):
    """`audit --discover` knew John Doe and 张三 as anybody's names; `annotate prelabel` proposed them as
    people to protect. By hand, in a form's help and a CSV of one real customer: one name, Kim Lee."""
    units = _prelabel(tmp_path, {"help.md": "Example: Full name: John Doe. 示例：张三的手机号。Jane Doe called.\n",
                                 "customers.csv": "name,plan\nKim Lee,Pro\n"})
    assert [v for d, v in _values(units) if d == "person_name"] == ["Kim Lee"]


def test_each_item_of_a_key_named_list_is_a_unit(tmp_path):
    """`诊断：心力衰竭（呋塞米）；心房颤动（阿哌沙班）；既往史：双相情感障碍` was one health unit of the whole line, the
    next key (既往史) in it. By hand: 心力衰竭 (the recognizer's), 心房颤动（阿哌沙班） (an item it does not know,
    under the key 诊断) and 双相情感障碍 under 既往史. A comma in brackets parts nothing: the second patient's
    `1型糖尿病（2020年确诊，省儿童医院内分泌科）` is one unit."""
    line = "诊断：心力衰竭（呋塞米）；心房颤动（阿哌沙班）；既往史：双相情感障碍\n"
    units = _prelabel(tmp_path, {"records.md": line, "child.md": "诊断：1型糖尿病（2020年确诊，省儿童医院内分泌科）\n"})
    assert sorted((u["field"], u["value"]) for u in units) == [
        ("既往史", "双相情感障碍"), ("诊断", "1型糖尿病（2020年确诊，省儿童医院内分泌科）"), ("诊断", "心力衰竭"),
        ("诊断_2", "心房颤动（阿哌沙班）")]


def test_a_markdown_table_row_is_an_entity_and_its_header_names_the_fields(tmp_path):
    """A Markdown table of people gave every cell the file as entity and the recognizer's name as field
    (`cn_mobile`, `cn_mobile_2`): whose phone was lost. By hand: two entities, rows 3 and 4 of 名单.md, each
    with 姓名 and 手机, named for their 姓名; the README's on-call table likewise by Name and Phone."""
    units = _prelabel(tmp_path, {
        "名单.md": "| 姓名 | 手机 | 部门 |\n|------|------|------|\n| 王美玲 | 139 2288 3366 | 财务 |\n"
                   "| 陈志强 | 13812345678 | 运维 |\n",
        "README.md": "# On call\n\n| Name | Role | Phone |\n|:-----|:----:|------:|\n"
                     "| Tom Baker | On-call | (415) 555-0134 |\n"})
    assert sorted((u["entity_id"], u["field"], u["value"], u.get("entity_name")) for u in units) == [
        ("README.md:5", "Name", "Tom Baker", "Tom Baker"), ("README.md:5", "Phone", "(415) 555-0134", "Tom Baker"),
        ("名单.md:3", "姓名", "王美玲", "王美玲"), ("名单.md:3", "手机", "139 2288 3366", "王美玲"),
        ("名单.md:4", "姓名", "陈志强", "陈志强"), ("名单.md:4", "手机", "13812345678", "陈志强")]


def test_a_name_or_an_address_with_commas_and_full_stops_stays_one_value(tmp_path):
    """The other side of parting lists: a CSV's name with a title and an address with a unit and a town hold
    full stops and commas themselves. By hand: the name `Dr. Brandon Cummings MD` and the address `1456 Daniel
    Place Apt. 191, Juanport`, one unit each."""
    row = 'P-1,Dr. Brandon Cummings MD,"1456 Daniel Place Apt. 191, Juanport"\n'
    units = _prelabel(tmp_path, {"patients.csv": "patient_id,name,address\n" + row})
    assert _values(units) == [("location", "1456 Daniel Place Apt. 191, Juanport"),
                              ("person_name", "Dr. Brandon Cummings MD")]


def test_a_cell_that_says_a_value_is_on_file_is_no_value(tmp_path):
    """A CRM export's `on file` and `not provided` under phone, card and e-mail columns were proposed as a
    contact, a card and an address. By hand: two names only (no phone, card or e-mail is in the file)."""
    units = _prelabel(tmp_path, {"crm.csv": "name,phone,card_number,email\nAna Souza,on file,on file,not provided\n"
                                            "陈志强,暂无,未提供,无\n"})
    assert _values(units) == [("person_name", "Ana Souza"), ("person_name", "陈志强")]


def test_a_surname_with_a_title_is_how_someone_is_addressed_not_a_name(tmp_path):
    """`王总`, `李工` and `张姐` (the boss Wang, the engineer Li, sister Zhang) were proposed as people's names:
    a surname and a one-character title, no given name. By hand, in a chat log: one name, 陈静."""
    units = _prelabel(tmp_path, {"chat.md": "王总说合同明天签。李工、张姐也在。联系人：陈静，电话 139 1234 5678。\n"})
    assert [v for d, v in _values(units) if d == "person_name"] == ["陈静"]


def test_a_key_followed_by_a_pointer_elsewhere_gives_no_value(tmp_path):
    """`Diagnosis: see the attached letter` was proposed as a health unit (the key names the dimension, no value
    follows); likewise `诊断：详见附件`. By hand, in one intake note: the two real values, asthma and 高血压."""
    units = _prelabel(tmp_path, {"intake.md": "Diagnosis: see the attached letter\nPhone: ask reception\n"
                                              "Allergies: none known\n诊断：详见附件\n",
                                 "second.md": "Diagnosis: asthma\n诊断：高血压\n"})
    assert sorted(v for _, v in _values(units)) == ["asthma", "高血压"]
