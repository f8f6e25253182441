"""pypinyin (~50 MB of dictionaries) is read only while the units are compiled: a built cascade has let it go, a
later process that finds the units compiled (the compile cache) never imports it, and what the compile read still
decides — a Chinese address written out in English is found by its road's pinyin (`CompiledUnit.road`), another
road is not."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

_LANE = "上海市浦东新区张杨路1288弄7号602室"
_ESTATE = "杭州市余杭区良渚街道玉鸟路126号3幢1单元502室"
FOUND = [
    ("Courier pickup: Room 602, No. 7, Lane 1288 Zhangyang Road, Pudong New Area, Shanghai",
     "Room 602, No. 7, Lane 1288"),
    ("ship to Rm 602, No. 7, Lane 1288, Zhangyang Rd., Pudong", "Rm 602, No. 7, Lane 1288"),
    ("home: Room 502, Unit 1, Building 3, No. 126 Yuniao Road, Liangzhu", "Room 502, Unit 1, Building 3, No. 126"),
]
NOT_FOUND = [
    "Room 602, No. 7, Lane 1288 Xiangyang Road, Pudong",  # another road
    "Room 502, Unit 1, Building 3, No. 126 Yunhe Road",  # the estate's numbers on another road
]
_SCAN = """
import json, sys
imported = []
class Watch:  # notes every import of pypinyin, however short-lived
    def find_spec(self, name, path=None, target=None):
        if name == "pypinyin":
            imported.append(name)
sys.meta_path.insert(0, Watch())
from ec2audit.detect.cascade import Cascade
from ec2audit.units import make_unit
values, texts = json.loads(sys.argv[1])
units = [make_unit({"task_id": "t1", "entity_id": f"P{k}", "field": "home_address", "value": value,
                    "dimension": "location"}) for k, value in enumerate(values)]
# a Chinese name: the units' compile reads its pinyin too
units.append(make_unit({"task_id": "t1", "entity_id": "N", "field": "name", "value": "张伟明",
                        "dimension": "identity"}))
cascade = Cascade(units)
loaded = "pypinyin" in sys.modules
hits = [[(h.detector, h.grade, text[h.start:h.end]) for h in cascade.scan_text(text)] for text in texts]
print(json.dumps({"loaded": loaded, "imported": bool(imported), "hits": hits}))
"""


@pytest.fixture(scope="module")
def scanned(tmp_path_factory) -> list[dict]:
    """Two fresh processes with one compile cache (the first compiles the units, the second finds them compiled):
    each says whether pypinyin was ever imported, whether it is loaded once the cascade is built, and each text's
    hits."""
    texts = [text for text, _ in FOUND] + NOT_FOUND
    env = {**os.environ, "EC2AUDIT_HOME": str(tmp_path_factory.mktemp("home"))}
    runs = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", _SCAN, json.dumps([[_LANE, _ESTATE], texts])], env=env,
                             check=True, capture_output=True, text=True).stdout
        seen = json.loads(out)
        runs.append({**seen, "hits": dict(zip(texts, seen["hits"], strict=True))})
    return runs


def test_pypinyin_is_let_go_after_the_compile_and_never_imported_for_units_compiled_before(scanned):
    first, second = scanned
    assert (first["imported"], first["loaded"]) == (True, False)
    assert (second["imported"], second["loaded"]) == (False, False)


@pytest.mark.parametrize(("text", "found"), FOUND)
def test_the_road_read_at_compile_decides_and_comes_from_the_cache_without_pypinyin(scanned, text, found):
    assert not scanned[1]["imported"]
    for run in scanned:
        assert ["forms.address_translation", 1.0, found] in run["hits"][text]


@pytest.mark.parametrize("text", NOT_FOUND)
def test_another_road_is_no_hit_with_the_road_from_the_cache(scanned, text):
    assert not scanned[1]["imported"]
    for run in scanned:
        assert [h for h in run["hits"][text] if h[0] == "forms.address_translation"] == []
