"""Session 24, fifteenth walk: what `annotate prelabel` and `audit --discover` propose on workspaces of kinds no walk
used before (a git repository's `.env` files, a Jupyter notebook, a support desk's JSON export, Terraform state,
Chinese meeting notes), written here as their tools write them, each unit checked against a count made by hand."""

import json
from pathlib import Path

from test_new_user_walk import _openclaw
from test_new_user_walk_7 import _cli


def _prelabelled(tmp_path: Path, files: dict[str, str]) -> list[dict]:
    """The units `annotate prelabel --no-presidio` proposes for a workspace of `files`."""
    ws = tmp_path / "ws"
    for name, text in files.items():
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text(text, encoding="utf-8")
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--no-presidio", "--units", units, "--out", tmp_path / "ls.json")
    assert code == 0, output
    return [json.loads(line) for line in units.read_text(encoding="utf-8").splitlines()]


def _discovered(tmp_path: Path, texts: list[str]) -> list[tuple[str, str]]:
    """(dimension, value) of what `audit --discover --no-presidio` finds in an agent's log that read `texts`."""
    log = _openclaw(tmp_path, "walk15", texts)
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--json", "--show-values")
    assert code == 0, output
    return sorted((leak["dimension"], leak["evidence"]) for leak in json.loads(output)["leaked"])


ENV_EXAMPLE = ("# Copy to .env and fill in\nAWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n"
               "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nPORT=8080\n")
ENV = ("AWS_ACCESS_KEY_ID=AKIA4J7QWERT5YUI6OPZ\nAWS_SECRET_ACCESS_KEY=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\n")


def test_the_aws_keys_documentation_prints_are_nobodys_and_the_env_files_keys_are(tmp_path):
    """A repository's `.env.example` holds the keys AWS's documentation prints (`AKIAIOSFODNN7EXAMPLE`, `…EXAMPLEKEY`),
    copied into every template; its `.env` holds the real pair. By hand: two credentials, the `.env`'s, in
    `prelabel` and in `--discover` of an agent that read both files. Before: four (the docs' pair too)."""
    real = ["AKIA4J7QWERT5YUI6OPZ", "h3Rk9vB2xLm7QpZ4tY8wN1cF6gJ0sD5aE3uI9oKr"]
    found = _prelabelled(tmp_path, {".env.example": ENV_EXAMPLE, ".env": ENV})
    assert sorted(u["value"] for u in found if u["dimension"] == "credential") == real
    assert _discovered(tmp_path, [ENV_EXAMPLE, ENV]) == [("credential", value) for value in real]


def test_a_host_under_a_companys_internal_zone_is_an_internal_host(tmp_path):
    """A `.env` whose database lives at `db.internal.acme-corp.net` (the company's internal zone under its own domain,
    not a `.internal` top level) beside a public API's host. By hand: two units, the password and the internal host,
    in `prelabel` and in `--discover`. Before: the password alone (the host was read as a public service's)."""
    env = "DATABASE_URL=postgres://app:Xk29vLq7TzPw@db.internal.acme-corp.net:5432/orders\n" \
          "PAYMENTS_API=https://api.stripe.com/v1\n"
    expected = [("credential", "Xk29vLq7TzPw"), ("network", "db.internal.acme-corp.net")]
    found = _prelabelled(tmp_path, {".env": env})
    assert sorted((u["dimension"], u["value"]) for u in found) == expected
    assert _discovered(tmp_path, [env]) == expected


NOTEBOOK = json.dumps({"cells": [
    {"cell_type": "code", "execution_count": 4, "metadata": {}, "outputs": [
        {"name": "stdout", "output_type": "stream", "text": ["accuracy 0.913, true positive rate 0.88\n"]}],
     "source": ["api_key = 'sk-proj-4fG7hJ2kL9mN3pQ8rS1tU6vW0xY5zA2b'\n", "print(evaluate(model))"]}],
    "metadata": {"language_info": {"name": "python", "version": "3.11.7"}}, "nbformat": 4, "nbformat_minor": 5},
    indent=1)


def test_a_key_quoted_in_a_notebooks_line_of_code_ends_at_its_closing_quote(tmp_path):
    """A Jupyter notebook whose cell sets `api_key = 'sk-proj-…'`: the file is JSON, so the line reads
    `"api_key = 'sk-proj-…'\\n",`. By hand: one credential, the key alone. Before: the key with `'\\n` glued to it, a
    value no call ever sends, in `prelabel` and in `--discover` of an agent that read the notebook."""
    key = "sk-proj-4fG7hJ2kL9mN3pQ8rS1tU6vW0xY5zA2b"
    found = _prelabelled(tmp_path, {"churn.ipynb": NOTEBOOK})
    assert [(u["value"], u["field"]) for u in found] == [(key, "api_key")]
    assert _discovered(tmp_path, [NOTEBOOK]) == [("credential", key)]


TICKETS = json.dumps({"tickets": [{
    "id": 88214, "status": "open", "subject": "Cannot log in after password reset",
    "requester": {"name": "Kenji Watanabe", "email": "kenji.watanabe@brightmail.com"},
    "comments": [{"author": "Kenji Watanabe",
                  "body": "I'm diabetic and the app's glucose log is gone after the reset. My date of birth is "
                          "1971-09-14 if you need it. The diabetic-friendly recipes tab still works."}]}]}, indent=2)


def test_a_condition_said_as_what_its_holder_is_and_a_birth_date_after_is_are_the_requesters(tmp_path):
    """A support desk's JSON export: a requester writes `I'm diabetic` and `My date of birth is 1971-09-14`, and
    mentions the app's `diabetic-friendly recipes` (no one's condition). By hand: four units, his name, mail,
    condition and birth date. Before: two in `prelabel` (neither the condition nor the date), and `--discover`
    missed the condition."""
    found = _prelabelled(tmp_path, {"zendesk_export.json": TICKETS})
    assert sorted((u["dimension"], u["value"]) for u in found) == [
        ("contact", "kenji.watanabe@brightmail.com"), ("health", "diabetic"), ("other", "1971-09-14"),
        ("person_name", "Kenji Watanabe")]
    assert ("health", "diabetic") in _discovered(tmp_path, [TICKETS])


def test_a_condition_naming_a_classifier_or_a_dataset_is_no_ones_health_in_prelabel_as_in_discover(tmp_path):
    """A release's notes: `false positive rate in the cancer classifier dropped`, `retrained on the asthma dataset`,
    then a patient's `I have epilepsy`. By hand: one unit, the epilepsy (discovery already left topics out).
    Before: `prelabel` proposed cancer and asthma too, for an annotator to strike out."""
    notes = ("Release 3.14.2: false positive rate in the cancer classifier dropped; retrained on the asthma dataset.\n"
             "Ticket 5531: 'I have epilepsy and the reminders stopped.'\n")
    found = _prelabelled(tmp_path, {"RELEASE_NOTES.md": notes})
    assert [(u["dimension"], u["value"]) for u in found] == [("health", "epilepsy")]


TFSTATE = json.dumps({"version": 4, "terraform_version": "1.6.6", "resources": [
    {"mode": "managed", "type": "aws_db_instance", "name": "orders", "instances": [{"attributes": {
        "address": "orders-prod.c9akciq32.eu-west-1.rds.amazonaws.com", "port": 5432, "password": "v8#Lq2!zR7pT4wX9",
        "tags": {"Owner": "Rafael Souza"}}}]},
    {"mode": "managed", "type": "aws_instance", "name": "bastion", "instances": [{"attributes": {
        "private_ip": "10.20.1.15", "instance_type": "t3.micro"}}]}]}, indent=2)


def test_a_terraform_states_values_are_named_by_their_keys_and_a_databases_address_is_no_place(tmp_path):
    """A `terraform.tfstate` (JSON under its own suffix): a database's `address` is its host name, a bastion's
    `private_ip` its address. By hand: three units, the password, the owner and the private IP, each under its key.
    Before: the host name proposed as a place (location) and every value under the line's first key
    (`instances`)."""
    found = _prelabelled(tmp_path, {"tf/terraform.tfstate": TFSTATE})
    assert sorted((u["dimension"], u["field"], u["value"]) for u in found) == [
        ("credential", "attributes.password", "v8#Lq2!zR7pT4wX9"),
        ("network", "attributes.private_ip", "10.20.1.15"),
        ("person_name", "attributes.tags.Owner", "Rafael Souza")]


def test_an_instance_type_is_no_drivers_licence_when_presidio_runs(tmp_path):
    """`annotate prelabel` as it runs by default, with Presidio, over an EC2 instance's description saved as JSON
    (`aws ec2 describe-instances` output cut down to one line): Presidio's driver's licence pattern reads `t3` in
    `"instance_type": "t3.micro"` after the addresses. By hand: two units, the private IP (ours) and the public one
    (Presidio's). Before: three, `t3` a government ID."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "bastion.json").write_text(json.dumps({
        "id": "i-0abcd1234efgh5678", "private_ip": "10.20.1.15", "public_ip": "52.31.204.17",
        "ami": "ami-0c55b159cbfafe1f0", "instance_type": "t3.micro"}), encoding="utf-8")
    units = tmp_path / "auto.jsonl"
    code, output = _cli("annotate", "prelabel", ws, "--units", units, "--out", tmp_path / "ls.json")
    assert code == 0, output
    assert sorted((json.loads(line)["dimension"], json.loads(line)["value"])
                  for line in units.read_text(encoding="utf-8").splitlines()) == [
        ("network", "10.20.1.15"), ("network", "52.31.204.17")]


MINUTES = """# 产品周会纪要 2024-06-12

参会人：刘建国、陈思远
- 客户回访：北京朝阳区建国路88号 SOHO 现代城 5 号楼 1203 室的客户反馈发票抬头错误，联系电话 13812345678。
- 登录失败时提示密码错误。

备注：测试账号 test01 / 密码 Passw0rd!2024
"""


def test_chinese_minutes_give_an_address_without_its_citys_shi_and_a_password_after_a_space(tmp_path):
    """Meeting notes in Chinese: a customer's address written `北京朝阳区…` (Beijing's 市 left out, as it usually is
    before a district) with the building's name in words apart, and a test account's `密码 Passw0rd!2024` (a space,
    no colon); `密码错误` (wrong password) is no value. By hand: five units, two attendees, the whole address, the
    phone and the password. Before: three (no address, no password), in `prelabel` and in `--discover`."""
    address = "北京朝阳区建国路88号 SOHO 现代城 5 号楼 1203 室"
    expected = [("contact", "13812345678"), ("credential", "Passw0rd!2024"), ("location", address),
                ("person_name", "刘建国"), ("person_name", "陈思远")]
    found = _prelabelled(tmp_path, {"2024-06-12-周会.md": MINUTES})
    assert sorted((u["dimension"], u["value"]) for u in found) == expected
    assert _discovered(tmp_path, [MINUTES]) == expected
