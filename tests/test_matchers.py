"""The string tiers' matcher is an engine choice, never a findings choice: Vectorscan and the pure
Aho-Corasick fallback report the same occurrences, and the audit finds the same leaks with either."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ec2audit.cli import main
from ec2audit.detect.cascade import build_cascade
from ec2audit.detect.matchers import ENVIRONMENT, MATCHERS, available
from ec2audit.detect.patterns import PatternIndex
from ec2audit.payloads import payload_from_record
from ec2audit.units import read_units

DATA = Path(__file__).parent / "data"
SETS = sorted(DATA.glob("leaks-*"))


def test_both_matchers_are_installed():
    """The comparison below needs both engines: Vectorscan is a pinned dependency, not an option."""
    assert available() == ("aho-corasick", "vectorscan")


def _findings(folder: Path, matcher: str, monkeypatch: pytest.MonkeyPatch) -> list:
    """Every finding of every case of a set, each case read against all the set's units (not only its
    task's: more units, more overlapping matches)."""
    monkeypatch.setenv(ENVIRONMENT, matcher)
    cascade = build_cascade(read_units(folder / "units.jsonl"))
    cases = [json.loads(line) for line in (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line]
    return [f for case in cases for f in cascade.scan(payload_from_record(
        {"request": {"messages": [{"role": "user", "content": case["text"]}]}}, case["case_id"]))]


@pytest.mark.parametrize("folder", SETS, ids=[s.name for s in SETS])
def test_findings_are_the_same_with_either_matcher(folder, monkeypatch):
    vectorscan = _findings(folder, "vectorscan", monkeypatch)
    assert vectorscan == _findings(folder, "aho-corasick", monkeypatch)
    assert len(vectorscan) > 50  # the sets are leaks: a scan that found nothing would compare equal too


def _every_occurrence(patterns: list[str], text: str) -> list[tuple[int, int, int]]:
    """The definition, by brute force: every (pattern, start, end) with text[start:end] == pattern."""
    found = [(i, s, s + len(p)) for i, p in enumerate(patterns) for s in range(len(text)) if text.startswith(p, s)]
    return sorted(found, key=lambda m: (m[2], m[1]))


# CJK, digits, ASCII letters and separators, accented letters, emoji outside the BMP (4 UTF-8 bytes)
_ALPHABET = st.sampled_from([*"张伟明李子墨0123456789ab -.é", "😀", "𠀋", "👍🏽"])
_TEXTS = st.lists(_ALPHABET, max_size=60).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=_TEXTS, cuts=st.lists(st.tuples(st.integers(0, 60), st.integers(1, 6)), max_size=12),
       others=st.lists(_TEXTS.filter(bool), max_size=4))
def test_matchers_report_every_overlapping_occurrence_in_characters(text, cuts, others):
    """Patterns cut out of the text (so they overlap and nest) plus random ones; both matchers give
    exactly the brute-force list, offsets in characters."""
    patterns = list(dict.fromkeys([text[a:a + n] for a, n in cuts if text[a:a + n]] + others))
    if not patterns:
        return
    expected = _every_occurrence(patterns, text)
    for name in MATCHERS:
        assert MATCHERS[name](patterns).find(text) == expected, name


_ASCII_TEXTS = st.lists(st.sampled_from([*"0123456789ab -.?xé张", "😀", "\ud83d"]), max_size=60).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=_ASCII_TEXTS, cuts=st.lists(st.tuples(st.integers(0, 60), st.integers(1, 6)), max_size=12),
       others=st.lists(st.sampled_from(["12", "a1", "x?", "?", "-.", "é1"]), max_size=3))
def test_ascii_patterns_read_over_a_texts_bytes_are_every_occurrence_in_characters(text, cuts, others):
    """Patterns of ASCII characters only are read over the text's ASCII bytes, any other character one "?": the
    brute-force list still, around non-ASCII characters, lone surrogates and the text's own "?" (a pattern that
    holds one, or a non-ASCII character, is read as text)."""
    patterns = list(dict.fromkeys([text[a:a + n] for a, n in cuts if text[a:a + n].isascii() and text[a:a + n]]
                                  + others))
    if patterns:
        for name in MATCHERS:
            assert MATCHERS[name](patterns).find(text) == _every_occurrence(patterns, text), name


def test_a_lone_surrogate_is_one_character_to_either_matcher():
    """JSON may carry half an emoji ("\\ud83d"); the match after it keeps its character offsets."""
    text = "x\ud83d 张伟 ab"
    for name in MATCHERS:
        assert MATCHERS[name](["张伟", "ab"]).find(text) == [(0, 3, 5), (1, 6, 8)], name


def test_the_index_groups_kinds_and_units_alike_with_either_matcher():
    """PatternIndex on top: anchored texts (a leading space) and grouped kinds come out the same."""
    results = []
    for name in MATCHERS:
        index = PatternIndex(name)
        for unit, (key, kind) in enumerate([("张伟", "value"), (" 张", "surname"), ("伟", "gram"), ("😀1", "value")]):
            index.add(key, kind, unit)
        results.append(index.build().matches("张伟 x😀1 张伟"))
    assert results[0] == results[1]
    assert results[0]["surname"] == [(0, 1, (1,)), (6, 8, (1,))]
    assert results[0]["value"] == [(0, 2, (0,)), (4, 6, (3,)), (7, 9, (0,))]


def test_an_unknown_matcher_is_one_line_naming_the_variable(monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, "regex")
    logs = DATA / "logs"
    result = CliRunner().invoke(main, ["audit", str(logs / "requests"), "--units", str(logs / "units.jsonl")])
    assert result.exit_code == 2
    assert result.output.strip() == "error: EC2AUDIT_MATCHER=regex: no such matcher (known: aho-corasick, vectorscan)"


@pytest.mark.parametrize("matcher", ["vectorscan", "aho-corasick"])
def test_a_log_with_half_an_emoji_is_audited(matcher, tmp_path, monkeypatch):
    """A proxy logged a request cut inside an emoji (JSON "\\ud83d"); the leaks after it are still found,
    on their own characters, with either matcher."""
    monkeypatch.setenv(ENVIRONMENT, matcher)
    record = {"id": "r1", "url": "https://api.openai.com/v1/chat/completions", "session_id": "s1",
              "request": {"model": "gpt-5.4", "messages": [{"role": "user", "content":
                          "cut here \ud83d then call Marguerite Lindqvist at +1 415-555-0142"}]}}
    (tmp_path / "requests.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    out = tmp_path / "findings.jsonl"
    result = CliRunner().invoke(main, ["audit", str(tmp_path / "requests.jsonl"), "--units",
                                       str(DATA / "logs" / "units.jsonl"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    found = sorted((f["matched_text"], f["start"], f["end"]) for f in map(json.loads, out.read_text().splitlines()))
    assert found == [("+1 415-555-0142", 45, 60), ("Marguerite Lindqvist", 21, 41)]


def test_vectorscan_databases_are_cached_privately_and_loaded_again(tmp_path, monkeypatch):
    """The second build of one pattern set compiles nothing; the file is private (it holds unit values);
    a damaged file is compiled over, with the same matches."""
    import hyperscan

    from ec2audit.detect.matchers import VectorscanMatcher

    monkeypatch.setenv("EC2AUDIT_HOME", str(tmp_path))
    patterns, text = ["张伟", "+1 415-555-0142", "伟"], "call 张伟 at +1 415-555-0142"
    expected = VectorscanMatcher(patterns).find(text)
    folder = tmp_path / "cache" / "vectorscan"
    [cached] = folder.glob("*.db")
    assert (folder.stat().st_mode & 0o777, cached.stat().st_mode & 0o777) == (0o700, 0o600)

    def no_compile(*args, **kwargs):
        raise AssertionError("compiled again")
    with monkeypatch.context() as patch:
        patch.setattr(hyperscan, "Database", no_compile)
        assert VectorscanMatcher(patterns).find(text) == expected
        # the same set in another order (the tiers add some patterns from sets) is the same database
        assert VectorscanMatcher(patterns[::-1]).find(text) == [(2 - i, s, e) for i, s, e in expected]
        with pytest.raises(AssertionError, match="compiled again"):
            VectorscanMatcher([*patterns, "another"])

    cached.write_bytes(b"not a database")
    assert VectorscanMatcher(patterns).find(text) == expected
    assert hyperscan.loadb(cached.read_bytes(), hyperscan.HS_MODE_BLOCK)  # written again, whole
