"""The cascade's own decisions (which hit is kept, which pair reaches the judge, which units a payload is
matched against) and the exact tier's boundaries, on inputs whose answer is worked out by hand. The
paraphrase tiers are scripted STAND-INS here (a fixed shortlist, a judge answering from a table): the
real ones are tested in test_judge_*.py; what is tested here is what the cascade does with their answers."""

from __future__ import annotations

from functools import partial

import pytest

from ec2audit.detect import cascade as cascade_module
from ec2audit.detect.cascade import Cascade, best_hits, build_cascade, judge_windows
from ec2audit.detect.exact import _number_boundaries, _runs_on
from ec2audit.detect.exact import bounded as _bounded
from ec2audit.detect.finding import Finding, Hit
from ec2audit.detect.forms.near_verbatim import reads_as
from ec2audit.detect.forms.places import address_areas, address_parts
from ec2audit.detect.judge import Verdict
from ec2audit.detect.semantic import Match
from ec2audit.payloads import Payload, Segment
from ec2audit.units import make_unit

PHONE = make_unit({"task_id": "t1", "entity_id": "E1", "field": "phone", "value": "13922883366",
                   "dimension": "contact"})
SALARY = make_unit({"task_id": "t1", "entity_id": "E1", "field": "salary", "value": "205,000",
                    "dimension": "financial"})
OTHER_TASK = make_unit({"task_id": "t2", "entity_id": "E9", "field": "phone", "value": "13800001111",
                        "dimension": "contact"})
UNITS = [PHONE, SALARY, OTHER_TASK]


# --- best_hits ------------------------------------------------------------------------------------------

def test_best_hits_keeps_the_highest_grade_per_span_and_drops_what_a_better_hit_contains():
    hits = [Hit(0, 5, 16, "partial.masked", 0.7), Hit(0, 5, 16, "exact", 1.0),  # same span: 1.0 kept
            Hit(0, 8, 12, "partial.fragment", 0.3),  # inside the 1.0 hit: dropped
            Hit(0, 4, 17, "partial.near", 0.7),  # contains the 1.0 hit but grades lower: kept
            Hit(1, 8, 12, "exact", 1.0),  # another unit: never dropped for unit 0's hits
            Hit(0, 20, 24, "partial.fragment", 0.3), Hit(0, 20, 24, "partial.fragment", 0.3)]  # duplicates
    assert best_hits(hits) == [Hit(0, 4, 17, "partial.near", 0.7), Hit(0, 5, 16, "exact", 1.0),
                               Hit(1, 8, 12, "exact", 1.0), Hit(0, 20, 24, "partial.fragment", 0.3)]


def test_best_hits_keeps_a_hit_that_only_starts_inside_a_better_one():
    # (0, 2, 8) overlaps (0, 0, 5) but runs past its end: not contained, kept; equal grade inside: dropped
    hits = [Hit(0, 0, 5, "exact", 1.0), Hit(0, 2, 8, "partial", 0.7), Hit(0, 1, 5, "exact", 1.0),
            Hit(0, 0, 4, "partial", 0.3)]
    assert best_hits(hits) == [Hit(0, 0, 5, "exact", 1.0), Hit(0, 2, 8, "partial", 0.7)]
    # a lower grade seen first does not hide a higher one inside it
    assert best_hits([Hit(0, 0, 10, "p", 0.3), Hit(0, 2, 5, "e", 1.0)]) == [
        Hit(0, 0, 10, "p", 0.3), Hit(0, 2, 5, "e", 1.0)]
    assert best_hits([]) == []


# --- judge_windows ----------------------------------------------------------------------------------------

def m(start: int, end: int, unit: int = 0) -> Match:
    return Match(unit, 0.5, start, end)


def test_judge_windows_add_a_quarter_window_each_side_and_merge_overlaps():
    text = "x" * 1000
    # window 100 → margin 25: [100, 120) → [75, 145); [130, 140) → [105, 165) overlaps: merged
    [(lo, hi, group)] = judge_windows(text, [m(130, 140), m(100, 120)], 100)
    assert (lo, hi, [g.start for g in group]) == (75, 165, [100, 130])
    # far apart: two windows; clipped at the text's ends
    windows = judge_windows(text, [m(10, 20), m(900, 990)], 100)
    assert [(lo, hi) for lo, hi, _ in windows] == [(0, 45), (875, 1000)]
    # touching (lo == previous hi: [75, 135) and [135, 195)) still merges; one more character apart does not
    assert [(lo, hi) for lo, hi, _ in judge_windows(text, [m(100, 110), m(160, 170)], 100)] == [(75, 195)]
    assert [(lo, hi) for lo, hi, _ in judge_windows(text, [m(100, 110), m(161, 170)], 100)] == [(75, 135),
                                                                                               (136, 195)]


def test_judge_windows_stop_merging_at_three_windows_plus_margins():
    text = "x" * 2000
    # margin 25, a merged window may span at most 3·100 + 2·25 = 350 characters
    at_limit = judge_windows(text, [m(25, 30), m(50, 350)], 100)  # [0, 55) + [25, 375) → [0, 375)? 375 > 350
    assert [(lo, hi) for lo, hi, _ in at_limit] == [(0, 55), (25, 375)]
    inside = judge_windows(text, [m(25, 30), m(50, 325)], 100)  # [0, 350): exactly the limit, merged
    assert [(lo, hi) for lo, hi, _ in inside] == [(0, 350)]


# --- the cascade over payloads ------------------------------------------------------------------------------

def payload(*texts: str, task: str | None = None, pid: str = "p1") -> Payload:
    return Payload(pid, [Segment(i, "user", "user", t) for i, t in enumerate(texts)], task_id=task)


def test_a_payload_naming_its_task_is_matched_against_that_tasks_units_only():
    cascade = Cascade(UNITS)
    text = "Ana: 13922883366, Bo: 13800001111"
    assert {f.unit_id for f in cascade.scan(payload(text))} == {PHONE.id, OTHER_TASK.id}
    assert [f.unit_id for f in cascade.scan(payload(text, task="t1"))] == [PHONE.id]
    findings = cascade.scan(payload("nothing", "pay 205,000 to 13922883366", task="t1", pid="p7"))
    assert findings == [Finding(SALARY.id, "p7", 1, 4, 11, "205,000", "exact", 1.0, 1.0),
                        Finding(PHONE.id, "p7", 1, 15, 26, "13922883366", "exact", 1.0, 1.0)]


def test_scan_text_caches_each_text_and_filters_by_unit(monkeypatch):
    cascade = Cascade(UNITS)
    calls = []
    real = cascade.tier_hits
    monkeypatch.setattr(cascade, "tier_hits", lambda text: calls.append(text) or real(text))
    text = "13922883366 and 13800001111"
    assert [h.unit_index for h in cascade.scan_text(text)] == [0, 2]
    assert [h.unit_index for h in cascade.scan_text(text, {2})] == [2]
    assert cascade.scan_text(text, set()) == []
    assert calls == [text]  # scanned once
    monkeypatch.setattr(cascade_module, "_CACHE_SIZE", 2)
    cascade.scan_text("a")  # the cache is full now
    assert calls == [text, "a"]
    cascade.scan_text(text)  # used again: now the most recent
    cascade.scan_text("b")  # the least recently used text, "a", goes
    assert calls == [text, "a", "b"] and len(cascade._cache) == 2
    cascade.scan_text(text)
    cascade.scan_text("a")
    assert calls == [text, "a", "b", "a"]
    assert text not in cascade._cache  # keyed by digest: the cache holds no text alive


def test_a_literal_hit_decides_its_unit_for_the_later_tiers_of_that_text():
    cascade = Cascade([PHONE])
    # alone, the masked form is the partial tier's; after a literal hit nothing can grade the unit higher
    assert [(h.start, h.detector) for h in cascade.tier_hits("139****3366")] == [(0, "partial.masked")]
    hits = cascade.tier_hits("13922883366 or 139****3366")
    assert {h.detector for h in hits} <= {"exact", "exact.digits"} and {h.start for h in hits} == {0}


class ShortlistStandIn:
    """STAND-IN for the semantic tier: shortlists the pairs given per (text, unit) with fixed spans."""

    name, window = "semantic", 40

    def __init__(self, units, found: dict[tuple[str, int], tuple[int, int, float]], grade_threshold=None):
        self.units, self.found, self.grade_threshold, self.asked = list(units), found, grade_threshold, []

    def shortlist(self, texts, candidates):
        self.asked.append([(t, list(c)) for t, c in zip(texts, candidates, strict=True)])
        return [[Match(i, self.found[(t, i)][2], *self.found[(t, i)][:2]) for i in c if (t, i) in self.found]
                for t, c in zip(texts, candidates, strict=True)]

    def verdict(self, score):
        if self.grade_threshold is not None and score >= self.grade_threshold:
            return "semantic", 0.7
        return "candidate", 0.0


class JudgeStandIn:
    """STAND-IN for the LLM judge: a grade (and evidence) per unit, whatever the window."""

    def __init__(self, grades: dict[int, tuple[float, str]], units):
        self.grades, self.units, self.requests = grades, list(units), []

    def judge(self, requests, on_call=None, pack=False):
        self.requests += requests
        out = []
        for text, units in requests:
            verdicts = []
            for u in units:
                grade, evidence = self.grades[self.units.index(u)]
                start = text.find(evidence) if grade > 0 else -1
                verdicts.append(Verdict(grade, evidence, start, start + len(evidence) if grade > 0 else -1))
            out.append(verdicts)
        return out


PAY = "Her pay is a bit over 200k a year."
NOTE = "Parking permits renew in March."


def test_only_pairs_no_string_tier_decided_reach_the_shortlist_and_the_judge_grades_them():
    units = [PHONE, SALARY]
    semantic = ShortlistStandIn(units, {(PAY, 1): (11, 33, 0.8), (NOTE, 1): (0, 7, 0.4)})
    judge = JudgeStandIn({1: (0.7, "a bit over 200k a year")}, units)
    cascade = Cascade(units, semantic=semantic, judge=judge)
    found = cascade.scan(payload("call 13922883366", PAY, "13922883366 again"))
    # the phone, found literally in segment 0, is asked about in no segment; the salary in every one
    assert semantic.asked == [[("call 13922883366", [1]), (PAY, [1]), ("13922883366 again", [1])]]
    # the judge saw the window around the shortlisted span (margin 40 // 4 = 10, clipped to the text)
    assert [(text, [u.id for u in us]) for text, us in judge.requests] == [(PAY[1:], [SALARY.id])]
    assert found[-1] == Finding(SALARY.id, "p1", 1, 11, 33, "a bit over 200k a year", "judge", 0.7, 0.8)
    assert [f.detector for f in found] == ["exact", "exact", "judge"]  # string tiers' findings first


def test_a_judges_no_is_no_finding_and_without_a_judge_the_shortlist_writes_candidates():
    units = [PHONE, SALARY]
    found = {(PAY, 1): (11, 33, 0.8)}
    said_no = Cascade(units, semantic=ShortlistStandIn(units, found), judge=JudgeStandIn({1: (0.0, "")}, units))
    assert said_no.scan(payload(PAY)) == []
    candidates = Cascade(units, semantic=ShortlistStandIn(units, found)).scan(payload(PAY))
    assert candidates == [Finding(SALARY.id, "p1", 0, 11, 33, "a bit over 200k a year", "candidate", 0.0, 0.8)]
    graded = Cascade(units, semantic=ShortlistStandIn(units, found, grade_threshold=0.8)).scan(payload(PAY))
    assert [(f.detector, f.grade) for f in graded] == [("semantic", 0.7)]
    # nothing undecided: the shortlist is not even asked
    decided = ShortlistStandIn([PHONE], {})
    Cascade([PHONE], semantic=decided).scan(payload("13922883366"))
    assert decided.asked == []


def test_a_judge_answering_fewer_verdicts_than_asked_is_an_error_not_fewer_findings():
    units = [PHONE, SALARY]

    class OneShort(JudgeStandIn):  # one verdict fewer than the window's shortlisted units
        def judge(self, requests, on_call=None, pack=False):
            return [verdicts[:-1] for verdicts in super().judge(requests, on_call, pack)]

    class WindowShort(JudgeStandIn):  # no answer at all for the last window
        def judge(self, requests, on_call=None, pack=False):
            return super().judge(requests, on_call, pack)[:-1]

    for judge in (OneShort, WindowShort):
        cascade = Cascade(units, semantic=ShortlistStandIn(units, {(PAY, 1): (11, 33, 0.8)}),
                          judge=judge({1: (0.7, "a bit over 200k a year")}, units))
        with pytest.raises(ValueError):
            cascade.scan(payload(PAY))


def test_the_cascade_refuses_paraphrase_tiers_it_cannot_use():
    with pytest.raises(ValueError) as err:
        Cascade(UNITS, semantic=ShortlistStandIn([PHONE], {}))
    assert str(err.value) == "the semantic tier must be built over the cascade's units"
    with pytest.raises(ValueError) as err:
        Cascade(UNITS, judge=JudgeStandIn({}, UNITS))
    assert str(err.value) == "the judge needs a semantic tier to shortlist its pairs"
    plain = build_cascade(UNITS)
    assert plain.semantic is None and plain.judge is None and plain.units == UNITS


# --- the exact tier's boundaries --------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "start", "end", "bounded"), [
    ("3,200", 0, 5, True),
    ("x13,200", 2, 7, False),  # continues a word on the left
    ("3,200x", 0, 5, False),  # … on the right
    ("pay 3,200.5 now", 4, 9, False),  # a decimal goes on
    ("3,200,000", 0, 5, False),  # a longer grouped number
    ("3,200, 4,100", 0, 5, True),  # a list of numbers: each is one
    ("10.118.25.66", 3, 12, False),  # an address inside a longer one
    ("R1,118.25.66.173,", 3, 16, True),  # a CSV cell: R1 is no number
    ("1,118.25.66.173", 2, 15, True),  # no number reads "1,118.25.66.173"
    ("13,200", 3, 6, False),  # "200" of "13,200": the grouped number is 13,200
    ("a 13, 200", 6, 9, True),  # a comma and a space end a number
])
def test_a_literal_match_must_not_continue_a_word_or_a_number(text, start, end, bounded):
    assert _bounded(text, start, end) is bounded


@pytest.mark.parametrize(("digits", "start", "end", "ok"), [
    ("13922883366", 0, 11, True),
    ("139228833661", 0, 11, False),  # a longer number
    ("x13922883366", 1, 12, False),  # glued to a Latin letter
    ("张13922883366", 1, 12, True),  # not to a Han character
    ("+8613922883366", 3, 14, True),  # a country code in front
    ("+86113922883366", 4, 15, True),  # of up to three digits
    ("+861113922883366", 5, 16, False),
    ("8613922883366", 2, 13, False),  # digits in front but no "+"
])
def test_a_digit_match_must_not_continue_a_number_except_after_a_country_code(digits, start, end, ok):
    assert _number_boundaries(digits, start, end) is ok


@pytest.mark.parametrize(("text", "start", "end", "runs_on"), [
    ("ip 118.25.66.173 ok", 3, 16, False),
    ("10.118.25.66.173", 3, 16, True),  # a group before it
    ("118.25.66.17:3", 0, 12, True),  # … or after it
    ("x118.25.66.173", 1, 14, True),  # a word character
    ("118.25.66.173.", 0, 13, False),  # a full stop ending the sentence
    ("mac 00-1a-2b-3c-4d-5e. next", 4, 21, False),  # … and a sentence after it
    ("-118.25.66.173", 1, 14, False),
])
def test_an_identifier_must_not_run_on(text, start, end, runs_on):
    assert _runs_on(text, start, end) is runs_on


def test_the_merge_limit_is_measured_from_the_windows_own_start():
    text = "x" * 3000
    # the same two matches 1000 characters in: [1000, 1055) + [1025, 1350) spans exactly 350 → merged
    assert [(lo, hi) for lo, hi, _ in judge_windows(text, [m(1025, 1030), m(1050, 1325)], 100)] == [(1000, 1350)]
    assert len(judge_windows(text, [m(1025, 1030), m(1050, 1326)], 100)) == 2


def test_the_shortlist_is_asked_only_about_the_payloads_task_and_what_no_string_tier_found_there():
    units = [PHONE, SALARY, OTHER_TASK]
    semantic = ShortlistStandIn(units, {})
    Cascade(units, semantic=semantic).scan(payload("ends in 3366", PAY, task="t1"))
    # segment 0: the phone's 0.3 fragment decides the phone there (not the salary); segment 1: both undecided;
    # the other task's unit is never asked about
    assert semantic.asked == [[("ends in 3366", [1]), (PAY, [0, 1])]]


def test_the_judge_is_asked_for_packed_calls():
    units = [PHONE, SALARY]
    packs = []

    class Packing(JudgeStandIn):
        def judge(self, requests, on_call=None, pack=False):
            packs.append(pack)
            return super().judge(requests, on_call, pack)

    cascade = Cascade(units, semantic=ShortlistStandIn(units, {(PAY, 1): (11, 33, 0.8)}),
                      judge=Packing({1: (0.7, "a bit over 200k a year")}, units))
    cascade.scan(payload(PAY))
    assert packs == [True]


def test_build_cascade_takes_the_calibrated_shortlist_unless_told_otherwise(monkeypatch):
    from ec2audit.detect import semantic as semantic_module
    from ec2audit.detect.calibrate import Settings

    built = []

    class Recording(ShortlistStandIn):
        def __init__(self, units, **settings):
            super().__init__(units, {})
            built.append(dict(settings, units=units, tier=self))

    monkeypatch.setattr(semantic_module, "SemanticTier", Recording)
    settings = Settings(window=192, threshold=0.5, shortlist=0.3, judge_window=96, per_unit=1, batch_size=7,
                        model="minilm", candidate_threshold=0.2, grade_threshold=0.6)
    judge = JudgeStandIn({}, UNITS)
    for per_unit, expected in ((None, 1), (0, None), (3, 3)):
        cascade = build_cascade(UNITS, settings, judge, per_unit=per_unit)
        assert built[-1]["per_unit"] == expected and cascade.judge is judge and cascade.semantic is built[-1]["tier"]
    assert (built[-1]["window"], built[-1]["threshold"], built[-1]["grade_threshold"]) == (96, 0.3, 0.6)
    assert (built[-1]["batch_size"], built[-1]["model"], built[-1]["units"]) == (7, "minilm", UNITS)
    build_cascade(UNITS, settings)  # no judge: the candidates' threshold
    assert built[-1]["threshold"] == 0.2
    build_cascade(UNITS, Settings(window=192, threshold=0.5, shortlist=0.3))  # … when one was calibrated
    assert (built[-1]["threshold"], built[-1]["window"]) == (0.3, 192)


def _units(*rows: tuple[str, str, str, str]) -> list:
    return [make_unit({"task_id": "t1", "entity_id": e, "field": f, "value": v, "dimension": d}) for f, v, d, e in rows]


def named_hits(cascade: Cascade, text: str) -> list[tuple]:
    """(unit, evidence, detector, grade) of every hit: what a finding row shows."""
    return [(h.unit_index, text[h.start:h.end], h.detector, h.grade) for h in cascade.scan_text(text)]


def test_amounts_in_chinese_numerals_and_identifiers_without_separators_are_named_by_their_detector():
    cascade = Cascade(_units(("salary", "368,000", "financial", "E1"),
                             ("iban", "DE89 3704 0044 0532 0130 00", "financial", "E1"),
                             ("mac", "00:1A:2B:3C:4D:5E", "network", "E1")))
    found = partial(named_hits, cascade)

    assert found("年薪叁拾陆万捌仟元整") == [(0, "叁拾陆万捌仟", "exact.amount", 1.0)]
    assert found("pay 368000 USD") == [(0, "368000", "exact.amount", 1.0)]
    assert found("IBAN DE89370400440532013000 ok") == [(1, "DE89370400440532013000", "exact.alnum", 1.0)]
    assert found("mac 00-1a-2b-3c-4d-5e") == [(2, "00-1a-2b-3c-4d-5e", "exact.alnum", 1.0)]


# --- the partial tier: forms named by their detector, on values worked out by hand ----------------------------

def test_partial_forms_and_bank_accounts_are_named_by_their_detector():
    units = _units(("name", "Emily Rutherford", "person_name", "E"), ("name", "张大伟", "person_name", "Z"),
                   ("api_key", "sk-proj-9fQ2LmZx81VbN0aTy7", "credential", "S"),
                   ("email", "ann.lee77@lee-family.org", "contact", "A"),
                   ("iban", "NL75 RABO 0327 4195 86", "financial", "N"),
                   ("iban", "GB82 WEST 1234 5698 7654 32", "financial", "G"))
    cascade = Cascade(units)

    found = partial(named_hits, cascade)

    # the surname cut to its initial: masked, 0.7
    assert found("notes by Emily R. today") == [(0, "Emily R.", "partial.masked", 0.7)]
    # 2 of 张大伟's 3 characters show on both sides of the mask (2/3 ≥ 0.4): 0.7, the name inside its Han token
    assert found("负责人张*伟已到岗") == [(1, "负责人张*伟已到岗", "partial.masked", 0.7)]
    # the start of a key after "开头是" (12 of 25 characters): a fragment
    assert found("密钥开头是sk-proj-9fQ2，别外传") == [(2, "sk-proj-9fQ2", "partial.fragment", 0.3)]
    # a firm's own mail domain said as such narrows it down
    assert found("mail goes to lee-family.org domain") == [(3, "lee-family.org", "partial.fragment", 0.3)]
    # the account number inside the IBAN next to its bank's name (Rabobank): the IBAN follows, 1.0
    assert found("account 0327419586 at Rabobank") == [(4, "0327419586", "exact.account", 1.0)]
    # schwifty names no bank for WEST: a masked sort code ("XXXXXX") names none either
    assert [f for f in found("sort code XXXXXX, account 98765432") if f[3] == 1.0] == []


def test_a_title_of_the_other_sex_is_another_person():
    # Faker lists Emily as a woman's name only and John as a man's only
    units = _units(("name", "Emily Rutherford", "person_name", "E"), ("name", "John Smith", "person_name", "J"))
    cascade = Cascade(units)

    def found(text: str) -> list[tuple]:
        return [(h.unit_index, text[h.start:h.end], h.grade) for h in cascade.scan_text(text)]

    assert found("ask Ms. Rutherford") == [(0, "Ms. Rutherford", 0.3)]
    assert found("ask Mr. Rutherford") == []
    assert found("ask Mr. Smith") == [(1, "Mr. Smith", 0.3)]
    assert found("ask Mrs. Smith") == []


def test_a_typo_is_two_letters_swapped_in_a_long_word_only():
    assert reads_as("emily rutherford", "emily rutherfrod")  # ten letters, two swapped: a typo
    assert not reads_as("rose hill", "rsoe hill")  # four letters swapped make another word
    assert reads_as("rose hill", "rose hill")


def test_address_parts_and_areas():
    # the street without its number; a unit ("suite 1200") is no street; an empty chunk is skipped
    assert address_parts("12 oak street, suite 1200, columbus") == ["oak street"]
    assert address_parts("12 oak street,, columbus") == ["oak street"]
    # a fine postcode narrows the address down
    assert address_parts("oudegracht 214-b, 3511 nr utrecht") == ["oudegracht", "3511 nr"]
    # a city and a district with and without their suffix; "科技园10区" holds a number: no area
    assert address_areas("深圳市南山区科技园10区") == ["深圳市", "深圳", "南山区", "南山"]


def test_initials_are_no_given_name_but_the_surname_with_a_title_is_found():
    cascade = Cascade(_units(("name", "J.R. Ewing", "person_name", "E")))
    assert cascade.scan_text("J.R. said hi") == []
    assert [(h.start, h.end, h.grade) for h in cascade.scan_text("ask Mr. Ewing")] == [(4, 13, 0.3)]
