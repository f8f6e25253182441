"""pypinyin (~50 MB of dictionaries) is read only while the units and the forms are compiled: a built cascade has let
it go, and what the compile read from it still decides — a Chinese address written out in English is found by its
road's pinyin, another road is not (`compiled.pinyin_loaded`, `forms.build_forms`)."""

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
print(json.dumps({"loaded": loaded, "hits": hits}))
"""


@pytest.fixture(scope="module")
def scanned(tmp_path_factory) -> tuple[bool, dict[str, list]]:
    """(pypinyin loaded once the cascade was built, each text's hits), from a fresh process with a compile cache of
    its own (the names compiled there, not read from a cache)."""
    texts = [text for text, _ in FOUND] + NOT_FOUND
    env = {**os.environ, "EC2AUDIT_HOME": str(tmp_path_factory.mktemp("home"))}
    out = subprocess.run([sys.executable, "-c", _SCAN, json.dumps([[_LANE, _ESTATE], texts])], env=env, check=True,
                         capture_output=True, text=True).stdout
    seen = json.loads(out)
    return seen["loaded"], dict(zip(texts, seen["hits"], strict=True))


@pytest.mark.parametrize(("text", "found"), FOUND)
def test_a_built_cascade_has_let_pypinyin_go_and_the_road_read_at_compile_still_decides(scanned, text, found):
    loaded, hits = scanned
    assert loaded is False
    assert ["forms.address_translation", 1.0, found] in hits[text]


@pytest.mark.parametrize("text", NOT_FOUND)
def test_with_pypinyin_let_go_another_road_is_no_hit(scanned, text):
    loaded, hits = scanned
    assert loaded is False
    assert [h for h in hits[text] if h[0] == "forms.address_translation"] == []
