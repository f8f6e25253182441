"""The start-up's derived tables cached (`compiled.cached_table`): what OpenCC's t2s changes and the digits of Unicode
are read from a file by a later process, which then neither runs `opencc_dict` nor loads OpenCC (until a text needs
converting), and reads the same tables; a damaged file is built again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

_TABLES = """
import json, resource, sys
from ec2audit.detect import views
from ec2audit.detect.forms import _digits
segments, changes = views._segments(), views._changes()
children = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"opencc": "opencc" in sys.modules, "children": children.ru_utime + children.ru_stime > 0,
                  "segments": [segments.cue.pattern, sorted(segments.keyed), segments.unkeyed.pattern],
                  "changes": [changes.characters, sorted(changes.pairs), changes.changed.pattern,
                              changes.first.pattern],
                  "digits": list(_digits()), "converted": views.to_simplified("這個電話號碼")}))
"""


def _tables_in_child(home: Path) -> dict:
    env = {**os.environ, "EC2AUDIT_HOME": str(home)}
    return json.loads(subprocess.run([sys.executable, "-c", _TABLES], env=env, check=True, capture_output=True,
                                     text=True).stdout)


def test_a_later_process_reads_the_tables_without_opencc_and_a_damaged_file_is_built_again(tmp_path):
    first = _tables_in_child(tmp_path)
    assert first["opencc"] and first["children"]  # derived: OpenCC loaded, its `opencc_dict` run
    assert first["converted"] == "这个电话号码" and 788 <= len(first["digits"]) and "٣" in map(chr, first["digits"])
    folder = tmp_path / "cache" / "tables"
    assert sorted(path.name.split("-")[0] for path in folder.glob("*.json")) == ["isdigit", "opencc"]
    assert {path.stat().st_mode & 0o777 for path in folder.glob("*.json")} == {0o600}

    second = _tables_in_child(tmp_path)
    assert second == {**first, "opencc": False, "children": False}  # the same tables; no OpenCC, no `opencc_dict`
    [t2s] = folder.glob("opencc-*.json")
    t2s.write_text(json.dumps({"phrases": []}), encoding="utf-8")  # valid JSON of another shape
    [digits] = folder.glob("isdigit-*.json")
    digits.write_text("[1, 2", encoding="utf-8")
    assert _tables_in_child(tmp_path) == first
    assert set(json.loads(t2s.read_bytes())) == {"phrases", "characters", "traditional", "alone"}  # written again


def test_without_a_text_to_convert_opencc_is_not_loaded(tmp_path):
    _tables_in_child(tmp_path)
    env = {**os.environ, "EC2AUDIT_HOME": str(tmp_path)}
    script = ("import sys; from ec2audit.detect import views; views.prepare(); "
              "print(views.to_simplified('plain text, 简体中文'), 'opencc' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], env=env, check=True, capture_output=True, text=True).stdout
    assert out.split() == ["plain", "text,", "简体中文", "False"]
