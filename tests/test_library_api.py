"""The library a user imports: one return type per concept (issue 31 §6), the figures checked by hand."""

from __future__ import annotations

import json

import polars as pl

import ec2audit
from ec2audit.audit import audit_file
from ec2audit.units import read_units


def _inputs(tmp_path):
    units = tmp_path / "units.jsonl"
    units.write_text("\n".join(json.dumps(u) for u in [
        {"task_id": "t1", "entity_id": "E1", "field": "phone", "value": "13922883366", "dimension": "contact",
         "weight": 3.0},
        {"task_id": "t1", "entity_id": "E1", "field": "email", "value": "ann.lee@example.org", "dimension": "contact",
         "weight": 1.0}]) + "\n")
    payloads = tmp_path / "payloads.jsonl"
    payloads.write_text("\n".join(json.dumps(r) for r in [
        {"id": "a1", "task_id": "t1", "episode": "leaky", "request": {"model": "gpt-5.4", "messages": [
            {"role": "user", "content": "Call Ann on 139-2288-3366 about the invoice."}]}},
        {"id": "b1", "task_id": "t1", "episode": "clean", "request": {"model": "gpt-5.4", "messages": [
            {"role": "user", "content": "Summarise the invoice policy."}]}}]) + "\n")
    return units, payloads


def test_exposure_is_a_dataframe_from_every_entry_point(tmp_path):
    units, payloads = _inputs(tmp_path)
    by_file = audit_file(payloads, read_units(units)).exposure()
    by_log = ec2audit.audit([payloads], units).exposure()
    assert isinstance(by_file, pl.DataFrame) and isinstance(by_log, pl.DataFrame)
    # by hand: the phone (weight 3) leaked literally, the e-mail (weight 1) did not: 3 / 4 in "leaky", 0 in "clean"
    file_rows = dict(by_file.select("group", "exposure").iter_rows())
    assert file_rows == {"leaky": 0.75, "clean": 0.0}
    log_rows = {g: e for g, d, e in by_log.select("group", "dimension", "exposure").iter_rows() if d is None}
    assert log_rows == {"leaky": 0.75, "clean": 0.0}
    sessions = ec2audit.audit([payloads], units).sessions_frame()
    assert sorted(sessions["session"].to_list()) == ["clean", "leaky"]


def test_read_logs_is_an_iterator_read_as_consumed(tmp_path):
    _, payloads = _inputs(tmp_path)
    logs = ec2audit.read_logs([payloads])
    assert iter(logs) is logs
    assert [p.id for p in logs] == ["a1", "b1"]
