"""A store's body of the wrong shape (mutants13's find, session 30): a blocked or a forwarded record whose request
is a JSON object the reader cannot walk (`"messages": 5`) is named with its reason, and the rest of the store is
read, by `audit STORE` as `intercept audit` already did. Before, `audit` stopped reading the whole store
("reading stopped (TypeError …)") and scored nothing of it."""

import json
import sqlite3

from test_new_user_walk_19 import _cli, _write_jsonl
from test_new_user_walk_20 import _UNITS
from test_new_user_walk_21 import _store_with_blocked_body


def test_a_blocked_body_of_the_wrong_shape_is_named_and_the_store_read(tmp_path):
    """ep1 (no task) sent Maria's phone (weight 1) in r1; r2, blocked, holds `{"messages": 5}`. By hand: r2 unread,
    the units found in ep1's calls are the phone alone, 1 of 1 leaked, exposure 1.000 over a lower bound of 1 unit;
    both commands name r2 with the error its shape gave and exit 1."""
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    store = _store_with_blocked_body(tmp_path / "cloud.sqlite", '{"model": "gpt-4o", "messages": 5}')
    code, output = _cli("audit", store, "--units", units, "--json")
    assert code == 1, output
    summary = json.loads(output[output.index("{"):])
    assert any("blocked record r2 of ep1: request body not read (TypeError" in s for s in summary["skipped"]), summary
    [session] = summary["sessions"]
    assert (session["units"], session["leaked"]) == (1, 1), session
    code, output = _cli("intercept", "audit", store, "--units", units)
    assert code == 1 and "blocked record r2 of ep1: request body not read (TypeError" in output, output


def test_a_forwarded_body_of_the_wrong_shape_is_named_and_the_rest_read(tmp_path):
    """The same store with r2's body good again and r1's (forwarded) made `{"messages": 5}`: r1 is named, and r2's
    blocked SSN is still read as ep1's call (ep1: its SSN, weight 3, found and unsent: 0 of 1 leaked, exposure 0)."""
    units = _write_jsonl(tmp_path / "units.jsonl", _UNITS)
    store = _store_with_blocked_body(
        tmp_path / "cloud.sqlite",
        json.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": "Her SSN is 123-45-6789"}]}))
    with sqlite3.connect(store) as db:
        db.execute("UPDATE records SET request = ? WHERE id = 'r1'", ('{"model": "gpt-4o", "messages": 5}',))
    code, output = _cli("audit", store, "--units", units, "--json")
    assert code == 1, output
    summary = json.loads(output[output.index("{"):])
    assert any("record r1: request body not read (TypeError" in s for s in summary["skipped"]), summary
    [session] = summary["sessions"]
    assert (session["units"], session["leaked"], session["exposure"]) == (1, 0, 0.0), session
