"""A value said inside a denial, at the guard and in the audit (session 29).

The string tiers read "the caller is not Caspian Ferreira-Holt" as no leak of the name (`detect.denials`: the
hand-written sets grade a denial 0.0), so an audit scores it as nothing sent. A guard that enforces must not forward
it all the same: the words of the value still leave. Over loopback HTTP in front of the scripted stand-in: redact
forwards a placeholder, block refuses with 403, and a proxy that observes records no finding, as `audit` does.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from intercept_helpers import enforcing_client

from ec2audit.cli import main
from ec2audit.units import make_unit

NAME = "Caspian Ferreira-Holt"
UNIT = make_unit({"task_id": "t1", "entity_id": "D7", "field": "donor_name", "value": NAME,
                  "dimension": "person_name"})
DENIAL = f"Checked the roster: donor 7718 is not {NAME}, the file was mislabelled."


def _send(standin, tmp_path, mode: str):
    app, upstream = standin
    seen = len(app.state.requests)
    with enforcing_client(upstream, tmp_path / mode, [UNIT], mode) as (client, store):
        answer = client.post("/v1/chat/completions", headers={"x-ec2-episode": f"deny-{mode}"},
                             json={"model": "echo", "messages": [{"role": "user", "content": DENIAL}]})
        [record] = store.records()
    return answer, "".join(r["raw"].decode() for r in app.state.requests[seen:]), record


@pytest.mark.parametrize("mode", ["redact", "block"])
def test_an_enforcing_guard_does_not_forward_a_value_said_in_a_denial(standin, tmp_path, mode):
    """The unit's name, once, after "is not": redact forwards the text with a placeholder in its place, block
    forwards nothing (403); either way the stand-in never receives the name and the record has its finding."""
    (tmp_path / mode).mkdir()
    answer, sent, record = _send(standin, tmp_path, mode)
    assert NAME not in sent
    assert answer.status_code == (403 if mode == "block" else 200)
    if mode == "redact":
        assert "donor 7718 is not" in sent
    assert [f["unit_id"] for f in record.findings] == [UNIT.id]


def test_an_observing_proxy_and_the_audit_score_a_denial_as_nothing_sent(standin, tmp_path):
    """Observe forwards the text as sent and records no finding; `audit` on the same request says no unit was
    sent (exposure 0 of its one unit in the task)."""
    (tmp_path / "observe").mkdir()
    answer, sent, record = _send(standin, tmp_path, "observe")
    assert answer.status_code == 200 and NAME in sent and record.findings == []
    log, units = tmp_path / "requests.jsonl", tmp_path / "units.jsonl"
    log.write_text(json.dumps({"id": "r1", "task_id": "t1", "body": {"model": "m", "messages": [
        {"role": "user", "content": DENIAL}]}}) + "\n", encoding="utf-8")
    units.write_text(json.dumps({"task_id": "t1", "entity_id": "D7", "field": "donor_name", "value": NAME,
                                 "dimension": "person_name"}) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["audit", str(log), "--units", str(units), "--json"])
    assert result.exit_code == 0, result.output
    [session] = json.loads(result.stdout)["sessions"]
    assert session["exposure"] == 0.0, session
