"""The compile cache (`compiled.compile_units`): a later audit of the same units loads their compiled forms instead of
compiling them (and importing pypinyin) again, and never loads them for units, rules or code that changed."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import ec2audit
from ec2audit.detect import compiled
from ec2audit.detect.compiled import compile_units
from ec2audit.taxonomy import load_taxonomy
from ec2audit.units import read_units

UNITS = Path(__file__).parent / "data" / "leaks-handwritten" / "units.jsonl"  # Chinese names among them
_COMPILE = """
import json, sys
from ec2audit.detect import compiled
from ec2audit.units import read_units
calls, compile_unit = [], compiled.compile_unit
compiled.compile_unit = lambda *args: calls.append(1) or compile_unit(*args)
units = compiled.compile_units(read_units(sys.argv[1]))
syllables = sorted(compiled.given_name_syllables())
print(json.dumps({"compiled": len(calls), "pypinyin": "pypinyin" in sys.modules, "syllables": syllables,
                  "recognizers": "ec2audit.annotate.recognizers" in sys.modules,
                  "units": [[c.forms, c.digit_forms, c.alnum_forms, c.romanized, c.amount, c.needs_context,
                             c.context_words, c.public_prefix, c.road] for c in units]}))
"""


def _compile_in_child(home: Path) -> dict:
    env = {**os.environ, "EC2AUDIT_HOME": str(home)}
    return json.loads(subprocess.run([sys.executable, "-c", _COMPILE, str(UNITS)], env=env, check=True,
                                     capture_output=True, text=True).stdout)


def test_a_later_process_loads_the_compiled_units_privately_cached(tmp_path):
    first, second = _compile_in_child(tmp_path), _compile_in_child(tmp_path)
    assert (first["compiled"], second["compiled"]) == (63, 0)
    assert second["units"] == first["units"] and second["syllables"] == first["syllables"]
    assert any(romanized for _, _, _, romanized, *_ in second["units"]) and len(second["syllables"]) > 50
    assert not second["pypinyin"]  # the romanised names and the given names' syllables came from the cache
    assert "ghp_" in {prefix for *_, prefix, _ in second["units"]}  # a GitHub token's published prefix (h09)
    assert "tianlindong" in {road for *_, road in second["units"]}  # 田林东路 (h03), read without pypinyin
    assert first["recognizers"] and not second["recognizers"]  # the prefixes too: the recognizers are not loaded
    folder = tmp_path / "cache" / "compiled"
    [cached] = folder.glob("*.json")
    assert (folder.stat().st_mode & 0o777, cached.stat().st_mode & 0o777) == (0o700, 0o600)  # it holds the values


def test_changed_units_rules_or_damaged_files_compile_again(tmp_path, monkeypatch):
    monkeypatch.setenv("EC2AUDIT_HOME", str(tmp_path))
    units = read_units(UNITS)
    first = compile_units(units)
    renamed = compile_units([units[0].model_copy(update={"value": "沈佳明"}), *units[1:]])
    assert (first[0].forms[0], renamed[0].forms[0]) == ("沈佳怡", "沈佳明")
    assert renamed[0].romanized != first[0].romanized and renamed[1:] == first[1:]

    taxonomy = load_taxonomy()
    phone = taxonomy.rules(units[1].dimension)
    no_digits = dataclasses.replace(taxonomy, dimensions={
        **taxonomy.dimensions, phone.name: dataclasses.replace(phone, views=phone.views - {"digits"})})
    assert first[1].digit_forms == ("13757186420",) and compile_units(units, no_digits)[1].digit_forms == ()

    cached = compiled._cache_path(units, taxonomy)
    for damaged in ('{"units": [[1, 2]]', '{"units": [[1, 2]]}', "[]"):
        cached.write_text(damaged, encoding="utf-8")
        assert compile_units(units) == first
        assert len(json.loads(cached.read_bytes())["units"]) == len(units)  # written again, whole


def test_a_changed_line_of_code_is_another_version(tmp_path, monkeypatch):
    """The cache key holds every module of the package: a form or helper edited compiles the units again."""
    (tmp_path / "forms").mkdir()
    module = tmp_path / "forms" / "a_form.py"
    module.write_text("CUE = 'x'\n", encoding="utf-8")
    monkeypatch.setattr(ec2audit, "__file__", str(tmp_path / "__init__.py"))
    try:
        compiled._code_version.cache_clear()
        before = compiled._code_version()
        module.write_text("CUE = 'y'\n", encoding="utf-8")
        compiled._code_version.cache_clear()
        assert compiled._code_version() != before
    finally:
        monkeypatch.undo()
        compiled._code_version.cache_clear()
