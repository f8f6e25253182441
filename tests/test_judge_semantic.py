"""The shortlist model: multilingual e5 by default, MiniLM on request, scores centred on a background."""

from __future__ import annotations

import json

from click.testing import CliRunner
from test_judge_cli import small_set, write_inputs  # tests/ is on the path (pytest's prepend import mode)

from ec2audit.cli import main
from ec2audit.detect.calibrate import read_calibration
from ec2audit.detect.semantic import DEFAULT_MODEL, NO_CUE, SemanticTier
from ec2audit.units import make_unit

DIABETES = make_unit({"task_id": "t", "entity_id": "E1", "field": "diagnosis", "value": "type 2 diabetes",
                      "dimension": "health", "description": "chronic condition of high blood sugar"})
VISA = make_unit({"task_id": "t", "entity_id": "E2", "field": "visa_status", "value": "H-1B visa holder",
                  "dimension": "other", "description": "immigration status: temporary US work visa"})
# one payload's segments: tool-call boilerplate, a config file, Chinese text with and without the leak
TEXTS = ['{"path": "CHANGELOG.md"}', '{"queued":1}\n{"queued":2}\n{"queued":3}\n',
         "患者王芳，女，52岁。诊断：2型糖尿病，长期服用二甲双胍，每三个月复查糖化血红蛋白。",
         "会议纪要：第三季度预算评审定于周五下午三点，请各部门负责人提前提交汇总表格。",
         "Quick note for HR: Priya is here on a temporary US work visa sponsored by the company, renewal due in March.",
         "host = 10.30.237.223\napi_key = sk-Q49HZxkoCgmM3DTHERhkxsSwQZJDigqf\noncall = Tim Gomez"]


def best_texts(tier: SemanticTier) -> dict[int, int]:
    """unit → the one text of the payload its judge call would show."""
    kept = tier.shortlist(TEXTS, [[0, 1]] * len(TEXTS))
    return {m.unit_index: t for t, ms in enumerate(kept) for m in ms}


def test_the_default_model_finds_a_chinese_translation_among_boilerplate():
    assert DEFAULT_MODEL == "e5"
    tier = SemanticTier([DIABETES, VISA], threshold=-1.0, per_unit=1)
    assert best_texts(tier) == {0: 2, 1: 4}


def test_minilm_stays_available_for_english():
    tier = SemanticTier([DIABETES, VISA], threshold=-1.0, per_unit=1, model="minilm")
    assert best_texts(tier)[1] == 4


def test_scores_are_centred_so_boilerplate_scores_near_zero():
    tier = SemanticTier([DIABETES, VISA], prefilter=False)  # boilerplate shares no cue: the prefilter skips it
    [[diabetes, visa]] = tier.score(TEXTS[:1], [[0, 1]])
    [[leak]] = tier.score(TEXTS[2:3], [[0]])
    assert abs(diabetes.score) < leak.score and abs(visa.score) < leak.score


def test_calibration_records_its_model_and_audits_refuse_another(tmp_path):
    cal = tmp_path / "minilm.toml"
    result = CliRunner().invoke(main, ["judge", "--calibrate", "--no-judge", "--semantic-model", "minilm",
                                       "--set", str(small_set(tmp_path, 8)), "--calibration", str(cal),
                                       "--report", str(tmp_path / "r.md"), "--json"])
    assert result.exit_code == 0, result.output
    assert read_calibration(cal).model == "minilm"
    assert json.loads(result.output)["calibrated"]["semantic_model"] == "minilm"
    units, payloads, _ = write_inputs(tmp_path)
    refused = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal),
                                        "--no-judge", "--semantic-model", "e5"])
    assert refused.exit_code == 2 and "calibrated for semantic model 'minilm'" in refused.output
    audited = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal),
                                        "--no-judge", "--json"])
    assert audited.exit_code == 0, audited.output


def test_the_prefilter_scores_only_windows_sharing_a_cue():
    tier = SemanticTier([DIABETES, VISA])
    [[diabetes, visa]] = tier.score(TEXTS[:1], [[0, 1]])  # '{"path": "CHANGELOG.md"}' names no topic of theirs
    assert diabetes.score == visa.score == NO_CUE
    [[leak]] = tier.score(TEXTS[2:3], [[0]])  # 糖尿病 / 诊断: the health topic in Chinese
    assert leak.score > NO_CUE and TEXTS[2][leak.start:leak.end]


def test_a_calibration_file_from_before_the_setting_is_minilms(tmp_path):
    old = tmp_path / "old.toml"
    old.write_text("[semantic]\nwindow = 192\nthreshold = 0.156\nshortlist = 0.156\nbatch_size = 64\n")
    assert read_calibration(old).model == "minilm"
