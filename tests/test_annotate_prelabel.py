"""Pre-labelling without a server: structure from JSON/CSV/YAML, Presidio + ours, the CLI's files."""

from __future__ import annotations

import json
import os
import string
import subprocess
import sys

from click.testing import CliRunner

from ec2audit.annotate.agreement import agreement_report, span_f1
from ec2audit.annotate.labelstudio import (
    Annotation,
    config_labels,
    label_config,
    merge,
    to_js,
    to_py,
    units_from_annotations,
)
from ec2audit.annotate.prelabel import Prelabeler, Span, prelabel_texts
from ec2audit.annotate.workspace import make_document
from ec2audit.cli import main
from ec2audit.taxonomy import load_taxonomy
from ec2audit.units import read_units


def test_json_records_give_entities_and_fields():
    text = json.dumps({"employees": [{"id": "E7", "name": "Ann Lee", "contact": {"phone": "555-0199"}},
                                     {"name": "Bob Roe", "salary": "$120,000"}]}, indent=1)
    units = prelabel_texts([("staff.json", text)], "t1", use_presidio=False)
    got = {(u.entity_id, u.field, u.value, u.dimension, u.entity_name) for u in units}
    assert ("E7", "name", "Ann Lee", "person_name", "Ann Lee") in got
    assert ("E7", "contact.phone", "555-0199", "contact", "Ann Lee") in got
    assert ("staff.json#/employees/1", "salary", "$120,000", "financial", "Bob Roe") in got
    for u in units:
        assert text[u.source.start:u.source.end] == u.value


def test_csv_columns_and_yaml_keys():
    csv_text = "工号,姓名,手机,银行卡号\nA01,王芳,13912345678,6228480012345678\n"
    units = prelabel_texts([("员工.csv", csv_text)], "t2", use_presidio=False)
    assert {(u.entity_id, u.field, u.dimension) for u in units} >= {
        ("A01", "姓名", "person_name"), ("A01", "手机", "contact"), ("A01", "银行卡号", "financial")}
    yaml_text = "database:\n  host: pg01.prod.internal\n  password: 'Xk82!mq9Lz'\n"
    units = prelabel_texts([("config.yaml", yaml_text)], "t3", use_presidio=False)
    assert {(u.field, u.value, u.dimension) for u in units} == {
        ("host", "pg01.prod.internal", "network"), ("password", "Xk82!mq9Lz", "credential")}


def test_presidio_loads_without_torch_and_leaves_it_importable():
    """spaCy's NER needs neither torch nor transformers (330 MB): Presidio loads without them, and the
    semantic tier can still import both in the same process afterwards."""
    script = ("import sys\n"
              "from ec2audit.annotate.prelabel import presidio_analyzer\n"
              "engine = presidio_analyzer()\n"
              "assert 'torch' not in sys.modules and 'transformers' not in sys.modules, 'loaded'\n"
              "assert engine.analyzer_engine.nlp_engine.get_nlp('en').pipe_names == ['ner', 'lower_case_lemmas']\n"
              "import torch, transformers.utils\n"
              "print(torch.tensor([1, 2]).sum().item())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=os.environ)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3"]


def test_broken_json_falls_back_to_text():
    doc = make_document("t", "bad.json", '{"phone": "13922883366",')
    assert doc.fields and doc.fields[0].field == "phone"  # read as `key: value` lines instead


def test_presidio_and_ours_together():
    text = ("Dana Whitfield (SSN 219-09-9999) was diagnosed with type 2 diabetes; mail dana.w@example.com, "
            "key sk-proj-abcD3fGhIjkLmn0pQrStUvWx12, lives at 12 Main Street, Springfield, IL 62704.")
    with_presidio = {(u.value, u.dimension) for u in prelabel_texts([("note.txt", text)], "t")}
    assert {("Dana Whitfield", "person_name"), ("219-09-9999", "government_id"),
            ("dana.w@example.com", "contact"), ("type 2 diabetes", "health"),
            ("sk-proj-abcD3fGhIjkLmn0pQrStUvWx12", "credential"),
            ("12 Main Street, Springfield, IL 62704", "location")} <= with_presidio
    ours_only = {u.value for u in prelabel_texts([("note.txt", text)], "t", use_presidio=False)}
    assert {"Dana Whitfield", "type 2 diabetes", "219-09-9999"} <= ours_only  # census names, SSN shape


def test_duplicate_values_become_one_unit_and_fields_stay_unique():
    text = "call 13922883366 or 13922883366, else 13800138000"
    units = prelabel_texts([("a.txt", text)], "t", use_presidio=False)
    assert [(u.field, u.value) for u in units] == [("cn_mobile", "13922883366"), ("cn_mobile_2", "13800138000")]


def test_cli_prelabel_writes_labelstudio_tasks_and_units(tmp_path):
    ws = tmp_path / "task-x" / "workspace"
    ws.mkdir(parents=True)
    (ws / "mail.eml").write_text("From: ops@corp.example\nSubject: db\n\nThe host is 10.1.2.3, "
                                 "token: ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789\n", encoding="utf-8")
    (ws / "blob.log").write_bytes(b"\xff\xfe\x00binary")
    (ws / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    out, units_out = tmp_path / "tasks.json", tmp_path / "units.jsonl"
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(ws), "--out", str(out), "--units",
                                       str(units_out), "--no-presidio"])
    assert result.exit_code == 1, result.output  # the binary files were skipped and said so
    assert f"skipped {ws / 'blob.log'}: binary" in result.output
    assert f"skipped {ws / 'image.png'}: binary" in result.output
    tasks = json.loads(out.read_text())
    assert [t["data"]["key"] for t in tasks] == ["task-x:mail.eml"]
    labels = {r["value"]["text"]: r["value"]["labels"][0] for r in tasks[0]["predictions"][0]["result"]
              if r["type"] == "labels"}
    assert labels == {"ops@corp.example": "contact", "10.1.2.3": "network",
                      "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789": "credential"}
    assert {u.task_id for u in read_units(units_out)} == {"task-x"}
    assert oct(out.stat().st_mode & 0o777) == "0o600"


def test_cli_prelabel_without_presidio_finds_grouped_ibans_and_international_phones(tmp_path):
    ws = tmp_path / "task-eu" / "workspace"
    ws.mkdir(parents=True)
    (ws / "note.txt").write_text(
        "Pay DE47 3704 0044 0532 0130 77, not DE46 3704 0044 0532 0130 77. Call +44 20 7946 0958 or "
        "+33 1 42 68 53 00 (Berlin: +49 30 1234567), never +999 1234 5678.\n"
        "Built with v2.4.1+3.0.2 at 2024-03-02T10:00:00+01:00.\n",
        encoding="utf-8")
    out = tmp_path / "tasks.json"
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(ws), "--out", str(out), "--no-presidio"])
    assert result.exit_code == 0, result.output
    labels = {r["value"]["text"]: r["value"]["labels"][0] for r in json.loads(out.read_text())[0]["predictions"][0]
              ["result"] if r["type"] == "labels"}
    assert labels == {"DE47 3704 0044 0532 0130 77": "financial", "+44 20 7946 0958": "contact",
                      "+33 1 42 68 53 00": "contact", "+49 30 1234567": "contact"}
    helped = " ".join(CliRunner().invoke(main, ["annotate", "prelabel", "--help"]).output.split())
    assert "IBANs" in helped and "any with a +country code" in helped and "Only Presidio adds" in helped


def test_cli_to_labelstudio_places_units(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.md").write_text("# Notes\nPatient 王芳 has 糖尿病.\n", encoding="utf-8")
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps({"task_id": "ws", "entity_id": "P1", "field": "name", "value": "王芳",
                                 "dimension": "person_name"}, ensure_ascii=False) + "\n"
                     + json.dumps({"task_id": "ws", "entity_id": "P1", "field": "phone", "value": "555-0000",
                                   "dimension": "contact"}) + "\n", encoding="utf-8")
    out = tmp_path / "tasks.json"
    result = CliRunner().invoke(main, ["annotate", "to-labelstudio", str(units), "--workspace", str(ws),
                                       "--out", str(out)])
    assert result.exit_code == 1 and "ws/P1/phone: value not found" in result.output
    region = json.loads(out.read_text())[0]["predictions"][0]["result"]
    assert {(r["from_name"], json.dumps(r["value"], ensure_ascii=False)) for r in region} >= {
        ("label", json.dumps({"start": 16, "end": 18, "text": "王芳", "labels": ["person_name"]},
                             ensure_ascii=False))}


def test_utf16_offsets_round_trip():
    text = "a😀b张伟c"
    for i in range(len(text) + 1):
        assert to_py(text, to_js(text, i)) == i
    assert to_js(text, text.index("张")) == 4


def _ann(who, *spans, task="t"):
    text = string.ascii_letters
    return Annotation(f"{task}:f", task, "f", text, who, tuple(Span("f", s, e, text[s:e], d, "E", d)
                                                                for s, e, d in spans))


def test_merge_rules_and_agreement():
    a = _ann("a", (0, 5, "contact"), (10, 15, "health"))
    b = _ann("b", (0, 5, "contact"), (20, 25, "network"))
    c = _ann("c", (0, 5, "contact"), (10, 15, "health"))
    assert [s.start for s in merge([a, b, c])["t"]] == [0, 10]
    assert [s.start for s in merge([a, b], "reviewer", "b")["t"]] == [0, 20]
    other_task = _ann("a", (30, 35, "credential"), task="t2")  # same file name, another task
    units = units_from_annotations([a, other_task])
    assert {(u.task_id, u.value) for u in units} == {("t", "abcde"), ("t", "klmno"), ("t2", "EFGHI")}
    report = agreement_report([a, b, c])
    pairs = {tuple(p["annotators"]): p for p in report["pairs"]}
    assert pairs[("a", "c")]["span_f1"] == 1.0 and pairs[("a", "c")]["kappa"] == 1.0
    assert pairs[("a", "b")]["span_f1"] == 0.5
    assert span_f1(set(), set()) == 1.0


def test_labeling_config_shows_readable_names_and_carries_every_dimension():
    config = label_config()
    for name, dim in load_taxonomy().dimensions.items():
        assert f'<Label value="{dim.label}" alias="{name}"' in config  # people read the name, results carry the key
    assert config_labels() == set(load_taxonomy().dimensions)
    assert 'perRegion="true"' in config and 'granularity="symbol"' in config


def test_cli_prelabel_reads_hidden_files_and_names_what_it_leaves_out(tmp_path):
    ws = tmp_path / "repo"
    (ws / ".aws").mkdir(parents=True)
    (ws / ".git" / "refs").mkdir(parents=True)
    (ws / ".env").write_text("DB_PASSWORD=Xk82!mq9Lz\nOPENAI_API_KEY=sk-proj-abcD3fGhIjkLmn0pQrStUvWx12\n")
    (ws / ".env.production").write_text("ADMIN_PHONE=13922883366\n")
    (ws / ".aws" / "credentials").write_text("[default]\naws_access_key_id = AKIA2E0A8F3B244C9986\n")
    (ws / ".git" / "config").write_text("[remote]\n  token = ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789\n")
    (ws / ".git" / "refs" / "HEAD").write_text("ref: main\n")
    (ws / "README").write_text("nothing here\n")
    out = tmp_path / "tasks.json"
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(ws), "--out", str(out), "--no-presidio"])
    assert result.exit_code == 0, result.output  # a tool folder left out on purpose is not a skipped input
    assert f"skipped {ws / '.git'}/: tool folder, not data (2 files)" in result.output
    assert "4 files" in result.output
    tasks = {t["data"]["file"]: t for t in json.loads(out.read_text())}
    assert sorted(tasks) == [".aws/credentials", ".env", ".env.production", "README"]
    proposed = {r["value"]["text"] for t in tasks.values() for p in t.get("predictions", []) for r in p["result"]
                if r["type"] == "labels"}
    assert {"Xk82!mq9Lz", "sk-proj-abcD3fGhIjkLmn0pQrStUvWx12", "13922883366", "AKIA2E0A8F3B244C9986"} <= proposed
    assert "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789" not in proposed


def _export_with(tmp_path, result, annotator="ann@example.com"):
    text = "Daniel Craig lives at 12 Main Street."
    export = [{"id": 41, "data": {"text": text, "task_id": "t", "file": "n.txt", "key": "t:n.txt"},
               "annotations": [{"completed_by": {"id": 3, "email": annotator}, "result": result}]}]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    return path


def _region(rid, start, end, text, label, **typed):
    items = [{"id": rid, "from_name": "label", "to_name": "text", "type": "labels",
              "value": {"start": start, "end": end, "text": text, "labels": [label]}}]
    return items + [{"id": rid, "from_name": name, "to_name": "text", "type": "textarea",
                     "value": {"start": start, "end": end, "text": [value]}} for name, value in typed.items()]


def test_from_labelstudio_skips_regions_that_do_not_fit_and_keeps_the_rest(tmp_path):
    good = _region("ok", 22, 36, "12 Main Street", "location", entity="P1", field="address")
    cases = {
        "offsets 30–90 are outside the text": _region("r9", 30, 90, "x", "location"),
        "region r9 'aniel ' at 1–7: Label Studio shows 'Daniel' there, not the task's text":
            _region("r9", 1, 7, "Daniel", "person_name"),
        "region r9 'Daniel Craig' at 0–12: label 'Person name' is no dimension (it is the display name of "
        "'person_name'": _region("r9", 0, 12, "Daniel Craig", "Person name"),
    }
    for message, bad in cases.items():
        export = _export_with(tmp_path, bad + good)
        out = tmp_path / "u.jsonl"
        result = CliRunner().invoke(main, ["annotate", "from-labelstudio", str(export), "--out", str(out)])
        assert result.exit_code == 1, result.output  # done, but one span was left out: said, not aborted
        assert "not used: t:n.txt (Label Studio task 41), annotation by ann@example.com: " in result.output
        assert message in " ".join(result.output.split()) and "span skipped" in result.output
        assert "site-packages" not in result.output and "taxonomy.toml" not in result.output
        assert [(u.entity_id, u.value) for u in read_units(out)] == [("P1", "12 Main Street")]


def test_a_span_drawn_in_a_csv_row_belongs_to_the_row(tmp_path):
    text = "customer_id,name,city\nC-001,Ann Lee,Paris\nC-002,Bo Chen,Lyon\n"
    start = text.index("Bo Chen")
    export = tmp_path / "export.json"
    export.write_text(json.dumps([{"id": 7, "data": {"text": text, "task_id": "crm", "file": "customers.csv",
                                                    "key": "crm:customers.csv"},
                                   "annotations": [{"completed_by": 1, "result": _region(
                                       "r1", start, start + 7, "Bo Chen", "person_name")}]}]))
    out = tmp_path / "u.jsonl"
    result = CliRunner().invoke(main, ["annotate", "from-labelstudio", str(export), "--out", str(out)])
    assert result.exit_code == 0, result.output
    [unit] = read_units(out)
    assert (unit.entity_id, unit.field, unit.value) == ("C-002", "name", "Bo Chen")


def test_offsets_outside_the_bmp_are_utf16_both_ways(tmp_path):
    """An emoji and a CJK Extension B character (two UTF-16 units each) before the values: Label Studio's
    offsets must count them twice going out (to-labelstudio) and coming back (from-labelstudio)."""
    ws = tmp_path / "ws"
    ws.mkdir()
    text = "Note 😀 from 𠮷田: call 王芳 on 13800138000 📞 today\n"
    (ws / "note.txt").write_text(text, encoding="utf-8")
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps({"task_id": "ws", "entity_id": "P1", "field": f, "value": v,
                                         "dimension": d}, ensure_ascii=False) + "\n"
                             for f, v, d in (("name", "王芳", "person_name"), ("phone", "13800138000", "contact"))),
                     encoding="utf-8")
    tasks = tmp_path / "tasks.json"
    assert CliRunner().invoke(main, ["annotate", "to-labelstudio", str(units), "--workspace", str(ws),
                                     "--out", str(tasks)]).exit_code == 0
    exported = json.loads(tasks.read_text(encoding="utf-8"))
    utf16 = text.encode("utf-16-le")
    for region in (r for r in exported[0]["predictions"][0]["result"] if r["type"] == "labels"):
        v = region["value"]  # what a browser would select: JavaScript counts UTF-16 code units
        assert utf16[2 * v["start"]:2 * v["end"]].decode("utf-16-le") == v["text"]
    exported[0]["annotations"] = [{"completed_by": 1, "result": exported[0].pop("predictions")[0]["result"]}]
    tasks.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "back.jsonl"
    result = CliRunner().invoke(main, ["annotate", "from-labelstudio", str(tasks), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert {(u.value, u.source.start, u.source.end) for u in read_units(out)} == {
        ("王芳", text.index("王芳"), text.index("王芳") + 2),
        ("13800138000", text.index("1380"), text.index("1380") + 11)}


def test_predictions_only_export_says_so_and_can_be_taken(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.md").write_text("Patient 王芳 has 糖尿病.\n", encoding="utf-8")
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps({"task_id": "ws", "entity_id": "P1", "field": "dx", "value": "糖尿病",
                                 "dimension": "medical", "weight": 2.2}, ensure_ascii=False) + "\n", encoding="utf-8")
    tasks = tmp_path / "tasks.json"
    assert CliRunner().invoke(main, ["annotate", "to-labelstudio", str(units), "--workspace", str(ws),
                                     "--out", str(tasks)]).exit_code == 0
    out = tmp_path / "back.jsonl"
    result = CliRunner().invoke(main, ["annotate", "from-labelstudio", str(tasks), "--out", str(out)])
    assert "1 task has predictions but no annotations yet" in result.output and "--predictions" in result.output
    assert read_units(out) == []
    result = CliRunner().invoke(main, ["annotate", "from-labelstudio", str(tasks), "--out", str(out), "--predictions"])
    assert result.exit_code == 0, result.output
    [unit] = read_units(out)
    assert (unit.value, unit.dimension, unit.weight, unit.field) == ("糖尿病", "medical", 2.2, "dx")


def test_push_refuses_labels_the_config_lacks(tmp_path):
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([{"data": {"text": "x has flu", "key": "t:x"}, "predictions": [{"result": [
        {"id": "a", "from_name": "label", "to_name": "text", "type": "labels",
         "value": {"start": 6, "end": 9, "text": "flu", "labels": ["medical"]}}]}]}]))
    result = CliRunner().invoke(main, ["annotate", "push", str(tasks), "--url", "http://127.0.0.1:9",
                                       "--project", "p"], env={"LABEL_STUDIO_API_KEY": "unused"})
    assert result.exit_code == 2
    assert f"{tasks}" in result.output and "t:x: label 'medical' is not in the labelling config" in result.output


def test_a_port_left_in_time_wait_is_free_for_a_restart():
    import socket

    from ec2audit.annotate import server

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = listener.accept()
    accepted.close()  # the server side closes first: its end of the connection waits in TIME_WAIT
    client.recv(1)
    client.close()
    assert not server.port_free(port)  # still listening
    listener.close()
    assert server.port_free(port)  # only TIME_WAIT left: a restarted `serve` may listen again


def test_placeholders_are_never_labelled():
    text = ("姓名：<PERSON_1>；证件：<ID_1>；联系电话：<PHONE_1>\ncard: [CREDIT_CARD]\nphone: {{PHONE}}\n"
            "address: ${ADDRESS_PLACEHOLDER}\nssn: [SSN_001]\n")
    assert prelabel_texts([("form.txt", text)], "t", use_presidio=False) == []


def test_prelabel_with_presidio_keeps_to_cells_and_names(tmp_path):
    csv_text = ("Export of open invoices (filter: status=open)\n"
                "invoice,customer_name,amount,region\n"
                "INV-803008,Deanna Davis,\"$12,400.00\",eu-west-1\n")
    note = ("Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl\n"
            "Dialysis is scheduled on Monday.\n")
    units = prelabel_texts([("invoices.csv", csv_text), ("note.txt", note)], "t")
    names = {u.value for u in units if u.dimension == "person_name"}
    assert names == {"Deanna Davis"}
    assert not [u.value for u in units if u.source.file == "invoices.csv" and "," in u.value.replace("$12,400", "")]
    [deanna] = [u for u in units if u.value == "Deanna Davis"]
    assert (deanna.entity_id, deanna.field) == ("INV-803008", "customer_name")  # the header after a title line
    assert "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl" in {u.value for u in units}


def test_prelabel_headers_codes_and_streets_are_not_people_or_places(tmp_path):
    """Presidio's NER reads a CSV header, an identifier or a street as a place or a person; only values are."""
    csv_text = ("customer_id,name,address,phone\n"
                "C-1001,Marie Dubois,12 Rue de Rivoli Paris,+33 6 12 34 56 78\n"
                "C-1002,Jean Martin,5 Avenue Foch Lyon,+33 6 98 76 54 32\n")
    note = ("Meeting notes: Marie Dubois lives at 12 Rue de Rivoli, Paris. Her customer_id is C-1001.\n"
            "The parcel went to Calle Mayor 5 in Madrid and then to Via Roma 10.\n")
    units = prelabel_texts([("customers.csv", csv_text), ("notes.txt", note)], "t")
    labelled = {(u.value, u.dimension) for u in units}
    assert not {v for v, _ in labelled} & {"customer_id", "C-1001", "C-1002"}
    assert not [v for v, d in labelled if d == "person_name" and ("Rue" in v or "Via" in v or "Calle" in v)]
    assert {("12 Rue de Rivoli", "location"), ("Calle Mayor 5", "location"), ("Via Roma 10", "location"),
            ("12 Rue de Rivoli Paris", "location")} <= labelled
    assert [(u.entity_id, u.field) for u in units if u.value == "Jean Martin"] == [("C-1002", "name")]


def test_a_text_file_is_not_one_person():
    units = prelabel_texts([("notes.txt", "Emily Rutherford called about Marcus Delaney's phone 415-555-0132.")],
                           "t", use_presidio=False)
    assert {u.value for u in units if u.dimension == "person_name"} == {"Emily Rutherford", "Marcus Delaney"}
    assert all(u.entity_name is None for u in units)  # no single name spread over the file's values


def test_agreement_and_disagreements_from_an_export_file(tmp_path):
    text = "Ann Lee, phone 415-555-0132, has asthma."

    def region(value, label, n):
        start = text.index(value)
        return {"id": f"r{n}", "from_name": "label", "to_name": "text", "type": "labels",
                "value": {"start": start, "end": start + len(value), "text": value, "labels": [label]}}

    a = [region("Ann Lee", "person_name", 1), region("415-555-0132", "contact", 2), region("asthma", "health", 3)]
    b = [region("Ann Lee", "person_name", 1), region("415-555-0132", "financial", 2)]
    export = tmp_path / "export.json"
    export.write_text(json.dumps([{"id": 7, "data": {"text": text, "task_id": "t", "file": "n.txt", "key": "t:n.txt"},
                                   "annotations": [{"completed_by": {"email": "a@x.org"}, "result": a},
                                                   {"completed_by": {"email": "b@x.org"}, "result": b}]}]))
    report = tmp_path / "agreement.json"
    result = CliRunner().invoke(main, ["annotate", "agreement", str(export), "--report", str(report)])
    assert result.exit_code == 0, result.output
    [pair] = json.loads(report.read_text())["pairs"]
    assert (pair["spans_a"], pair["spans_b"], pair["shared"]) == (3, 2, 1)
    assert pair["dimensions"]["person_name"]["span_f1"] == 1.0 and pair["dimensions"]["health"]["span_f1"] == 0.0
    out = tmp_path / "disputes.jsonl"
    result = CliRunner().invoke(main, ["annotate", "disagreements", str(export), "--out", str(out)])
    assert result.exit_code == 0 and "2 disputed spans in 1 document\n" in result.output, result.output
    votes = {d["text"]: d["votes"] for d in map(json.loads, out.read_text().splitlines())}
    assert votes == {"415-555-0132": {"a@x.org": "contact", "b@x.org": "financial"},
                     "asthma": {"a@x.org": "health", "b@x.org": None}}
    review = CliRunner().invoke(main, ["annotate", "disagreements", str(export), "--push-review"])
    assert review.exit_code == 2 and "--push-review needs --url and --project" in review.output


def test_structure_inside_text_names_the_field_of_a_value():
    """A table pasted into a text file, JSON quoted in a transcript, an XML payment file: the column, key or tag
    says what a value is (a date of birth, a courier, a debtor's name), as it does in a .csv or .json file."""
    docs = [
        make_document("t", "claims.txt", "claim_id,claimant,dob,state\nC-20931,Nadia Ferreira,1984-11-27,CA\n"),
        make_document("t", "transcript.txt", '[tool_result] {"order": "SO-1", "courier": "马建军", "amount": 459.00}\n'
                                             '[assistant] 已联系派件员。\n'),
        make_document("t", "sepa.xml", '<Dbtr><Nm>Katrin Vogelsang</Nm></Dbtr><RmtInf><Ustrd>INV 22</Ustrd></RmtInf>'),
    ]
    spans = Prelabeler(use_presidio=False).label(docs)
    found = {(d.file, s.text, s.dimension, s.field) for d, ss in zip(docs, spans, strict=True) for s in ss}
    assert {("claims.txt", "1984-11-27", "other", "dob"), ("claims.txt", "Nadia Ferreira", "person_name", "claimant"),
            ("transcript.txt", "马建军", "person_name", "courier"),
            ("sepa.xml", "Katrin Vogelsang", "person_name", "Nm")} <= found
    assert [s.entity_id for s in spans[0] if s.text == "1984-11-27"] == ["C-20931"]  # the row's entity
    assert not [s for s in spans[0] if s.text in ("claim_id", "claimant", "dob")]  # the header names no value


def test_prelabel_cli_needs_health_context_for_a_one_word_condition(tmp_path):
    """`annotate prelabel` on a workspace with a clinic note and a build log: ICD-10-CM also names
    `deletions`, which `git diff --stat` prints; one word is a condition only where the text speaks of
    health, and a phrase (`rheumatoid arthritis`) is one anywhere."""
    workspace = tmp_path / "t9"
    workspace.mkdir()
    (workspace / "visit.md").write_text("Patient seen today; chest X-ray shows sarcoidosis.\n")
    (workspace / "build.log").write_text(
        "$ git diff --stat\n src/billing/invoice.py | 12 ++++++----\n 1 file changed, 6 insertions(+), 6 deletions(-)\n"
        "$ grep -r 'rheumatoid arthritis' fixtures/\n")
    units_path = tmp_path / "units.jsonl"
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(workspace), "--out", str(tmp_path / "ls.json"),
                                       "--units", str(units_path), "--no-presidio"])
    assert result.exit_code == 0, result.output
    health = sorted((u.entity_id, u.value) for u in read_units(units_path) if u.dimension == "health")
    assert health == [("build.log", "rheumatoid arthritis"), ("visit.md", "sarcoidosis")]
