"""The local judge's learned grader (issue 37, session 20): a model over the cross-encoder's reading, the value
check's verdict and the free-text evidence decides the grade (gradient-boosted trees until learned-grader-v4, a
logistic regression since v5; the file holds either); `ec2audit judge --local-judge` grades with it unless told
`--no-learned-grader`; its file is rebuilt by judges/local-judge/learned_grader.py, the same data giving the
same file."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner
from test_judge_e5_cross import write_inputs

from ec2audit.cli import main
from ec2audit.detect import learned_grader
from ec2audit.detect.e5_judge import CrossEncoderJudge
from ec2audit.detect.finding import LITERAL, MOSTLY
from ec2audit.detect.judge import Verdict
from ec2audit.detect.value_checks import Reading
from ec2audit.errors import InputError
from ec2audit.units import make_unit

SCRIPT = learned_grader.GRADER_PATH.parent / "learned_grader.py"


def run_judge(tmp_path, *extra: str) -> dict:
    units, payloads, cal = write_inputs(tmp_path)
    result = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal), "--cache",
                                       str(tmp_path / "c.sqlite"), "--local-judge", "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_the_local_judge_grades_with_the_learned_grader_unless_told_not_to(tmp_path):
    """The default local judge's verdicts carry the grader's version (cached apart from the checks' alone);
    `--no-learned-grader` is the checks alone."""
    shipped = learned_grader.LearnedGrader.load()
    graded = run_judge(tmp_path)
    assert graded["judge"]["model"] == "e5-cross" and graded["judge"]["calls"] >= 1
    alone = run_judge(tmp_path, "--no-learned-grader")
    assert alone["judge"]["calls"] >= 1  # not answered from the grader's cached verdicts
    again = run_judge(tmp_path)
    assert again["judge"]["calls"] == 0 and again["judge"]["cached"] >= graded["judge"]["calls"]
    judge = CrossEncoderJudge(checks=True, grader=learned_grader.GRADER_PATH)
    assert judge.version.endswith("+" + shipped.version) and shipped.version == "learned-grader-v14"
    assert shipped.weights is not None and shipped.feature.size == 0  # since v5 a logistic regression


def test_the_learned_grader_goes_with_the_local_judges_checks(tmp_path):
    units, payloads, cal = write_inputs(tmp_path)
    for extra in (["--learned-grader"], ["--local-judge", "--no-value-checks", "--learned-grader"]):
        result = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal), *extra])
        assert result.exit_code == 2 and "--learned-grader" in result.output


@pytest.mark.parametrize("content", [None, "{not json", json.dumps({"version": "x"})])
def test_a_missing_or_wrong_grader_file_is_a_one_line_error(tmp_path, monkeypatch, content):
    bad = tmp_path / "learned-grader.json"
    if content is not None:
        bad.write_text(content)
    monkeypatch.setattr(learned_grader, "GRADER_PATH", bad)
    units, payloads, cal = write_inputs(tmp_path)
    result = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal),
                                       "--local-judge", "--cache", str(tmp_path / "c.sqlite")])
    assert result.exit_code != 0
    message = result.output.strip()
    assert len(message.splitlines()) == 1 and str(bad) in message and "learned_grader.py" in message


def test_a_grader_fitted_on_other_features_is_refused(tmp_path):
    data = json.loads(learned_grader.GRADER_PATH.read_text())
    data["names"][-1] = "a_feature_no_judge_reads"
    other = tmp_path / "g.json"
    other.write_text(json.dumps(data))
    with pytest.raises(InputError, match="other features"):
        learned_grader.LearnedGrader.load(other)


def stump(value: float, feature: str) -> learned_grader.LearnedGrader:
    """One tree of one split: `feature` at or under 0.5 -> -value, above -> +value."""
    f = learned_grader.names().index(feature)
    return learned_grader.LearnedGrader("t", tuple(learned_grader.names()), 0.0, np.array([[f, 0, 0]]),
                                        np.array([[0.5, 0.0, 0.0]]), np.array([[1, 0, 0]]), np.array([[2, 0, 0]]),
                                        np.array([[False, True, True]]), np.array([[0.0, -value, value]]), 0.8, 0.3)


def test_the_grader_grades_reviews_or_leaves_a_candidate_by_its_probability():
    """Above the grade threshold: the check's own verdict where it graded, else `MOSTLY` on the model's span;
    in the review band, or where the check graded or reviewed: left for a person; else nothing."""
    text = "Dana has been living with MS since 2021."
    reading = Reading(0.6, 0, 22, 0.83, 0.2)
    row = [0.0] * len(learned_grader.names())
    checked = Verdict(LITERAL, "MS", 26, 28)
    grader = stump(3.0, "check_graded")  # p = 0.95 where the check graded, 0.05 where not
    assert grader.decide([*row[:3], 1.0, *row[4:]], reading, checked, text) == checked
    assert grader.decide(row, reading, Verdict(0.0), text) == Verdict(0.0)
    unsure_check = Verdict(0.0, "MS", 26, 28, review=True)  # what the check left for review stays there
    assert grader.decide(row, reading, unsure_check, text) == unsure_check
    doubted = grader.decide(row, reading, Verdict(LITERAL, "MS", 26, 28), text)  # graded by the check, not by it
    assert doubted == Verdict(0.0, "MS", 26, 28, review=True)
    model = stump(3.0, "model_reviews")
    row[learned_grader.names().index("model_reviews")] = 1.0
    assert model.decide(row, reading, Verdict(0.0), text) == Verdict(MOSTLY, text[0:22], 0, 22)
    unsure = stump(0.5, "model_reviews")  # p = 0.62: the review band
    assert unsure.decide(row, reading, Verdict(0.0), text) == Verdict(0.0, text[0:22], 0, 22, review=True)


@pytest.fixture(scope="module")
def held_out(tmp_path_factory):
    """Splits 2 and 3's first 25 examples recorded once (the slow part: the cross-encoder reads each) and measured
    leaving one split out: (the readings' cache, the run, its `--verdicts`)."""
    folder = tmp_path_factory.mktemp("grader")
    splits = [str(learned_grader.GRADER_PATH.parent / f"handwritten-test-{n}.jsonl") for n in (2, 3)]
    cache, verdicts = folder / "rows.json", folder / "v.jsonl"
    result = subprocess.run([sys.executable, str(SCRIPT), "--files", *splits, "--limit", "25", "--cache", str(cache),
                             "--verdicts", str(verdicts)], check=True, capture_output=True, text=True)
    return cache, result, verdicts


def test_the_training_script_rebuilds_the_same_grader_from_the_same_data(held_out, tmp_path):
    """A small version of the shipped file (two splits' first examples): recorded once, fitted twice per model,
    the same bytes; the file loads and its numpy reading is what the script checked against scikit-learn: a
    logistic regression's weights and no trees, or the trees and no weights."""
    cache, _, _ = held_out
    for model in ("logistic", "trees"):
        first, second = tmp_path / "a.json", tmp_path / "b.json"
        for out in (first, second):
            subprocess.run([sys.executable, str(SCRIPT), "--cache", str(cache), "--out", str(out), "--model", model],
                           check=True, capture_output=True, text=True)
        assert first.read_bytes() == second.read_bytes()
        grader = learned_grader.LearnedGrader.load(first)
        assert grader.version == "learned-grader-v14" and 0.0 < grader.review_threshold <= grader.threshold <= 1.0
        assert grader.describe_threshold is not None and grader.describe_threshold <= grader.threshold  # since v13
        assert grader.names == tuple(learned_grader.names())  # the shipped update's second head read too (v11)
        assert (grader.weights is None) == (model == "trees") and (grader.feature.size > 0) == (model == "trees")


def test_a_linear_grader_reads_its_weights_and_a_wrong_length_is_refused(tmp_path):
    """A grader of weights alone (no trees): the probability is the logistic of the baseline plus each feature
    times its weight; weights of another length than the features are refused as malformed, one line."""
    names = learned_grader.names()
    data = stump(3.0, "check_graded").as_dict()
    for key in ("feature", "split", "left", "right", "leaf", "value"):
        data[key] = []
    data["baseline"], data["weights"] = -1.0, [0.0] * len(names)
    data["weights"][names.index("logit")] = 0.5
    path = tmp_path / "linear.json"
    path.write_text(json.dumps(data))
    grader = learned_grader.LearnedGrader.load(path)
    rows = np.zeros((2, len(names)))
    rows[1, names.index("logit")] = 4.0
    assert grader.probability(rows) == pytest.approx([1 / (1 + np.exp(1.0)), 1 / (1 + np.exp(-1.0))])
    data["weights"] = data["weights"][:-1]
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="malformed") as error:
        learned_grader.LearnedGrader.load(path)
    assert len(str(error.value).splitlines()) == 1 and str(path) in str(error.value)


def test_leave_one_split_out_writes_each_held_out_verdict(held_out):
    """`--verdicts`: one line per example of the splits left out, with the trees' probability and decision."""
    _, result, verdicts = held_out
    lines = [json.loads(line) for line in verdicts.read_text().splitlines()]
    assert len(lines) == 50 and {v["file"] for v in lines} == {"handwritten-test-2.jsonl", "handwritten-test-3.jsonl"}
    assert all(0.0 <= v["probability"] <= 1.0 and not (v["graded"] and v["review"]) for v in lines)
    assert "| handwritten-test-2.jsonl (25) |" in result.stdout


def test_leaving_the_last_rounds_out_and_forward_chaining_score_only_the_rounds(tmp_path):
    """`--rounds`: one grader fitted on the splits before the last two blind rounds scores only those (here
    split 33 against split 2's first examples); the splits it was fitted on are not scored. `--forward`: each
    blind round recorded is scored by a grader fitted on the splits before it only (split 2, not split 33)."""
    splits = [str(learned_grader.GRADER_PATH.parent / f"handwritten-test-{n}.jsonl") for n in (2, 33)]
    verdicts, cache = tmp_path / "v.jsonl", str(tmp_path / "rows.json")
    result = subprocess.run([sys.executable, str(SCRIPT), "--files", *splits, "--limit", "12", "--cache", cache,
                             "--verdicts", str(verdicts), "--rounds"], check=True, capture_output=True, text=True)
    lines = [json.loads(line) for line in verdicts.read_text().splitlines()]
    assert len(lines) == 12 and {v["file"] for v in lines} == {"handwritten-test-33.jsonl"}
    assert "| handwritten-test-33.jsonl (12) |" in result.stdout and "handwritten-test-2.jsonl (" not in result.stdout
    assert ("fitted without handwritten-test-31.jsonl, handwritten-test-32.jsonl, handwritten-test-33.jsonl, "
            "handwritten-test-34.jsonl") in result.stderr
    forward = subprocess.run([sys.executable, str(SCRIPT), "--cache", cache, "--forward"], check=True,
                             capture_output=True, text=True).stdout
    rounds = [line for line in forward.splitlines() if line.startswith("| handwritten-test-")]
    assert len(rounds) == 1 and rounds[0].startswith(
        "| handwritten-test-33.jsonl + handwritten-test-34.jsonl | 1 splits before it, threshold ")
    assert "| logistic |" in forward


def test_a_text_that_finds_nothing_about_a_condition_is_left_for_review():
    """A denial, a condition ruled out, a normal or negative result states no condition (session 23): the
    grader leaves such a text for review however sure its trees are; another kind of value is not so read."""
    hiv = make_unit({"task_id": "t", "entity_id": "P1", "entity_name": "Zhao Lei", "field": "dx",
                     "value": "HIV抗体阳性", "dimension": "health"})
    texts = ["赵磊 术前四项：乙肝表面抗原、丙肝抗体、HIV抗体均为阴性。",
             "Past history for Zhao Lei: CBC within normal limits, no evidence of any blood disease."]
    assert all(learned_grader.finds_nothing(hiv, t) for t in texts)
    assert not learned_grader.finds_nothing(hiv, "赵磊的HIV抗体检测结果为阳性，已转感染科。")
    deal = make_unit({"task_id": "t", "entity_id": "F1", "field": "plan", "value": "sale of the Lyon plant",
                      "dimension": "business"})
    assert not learned_grader.finds_nothing(deal, "The board denied the Lyon sale rumours.")
    wrist = make_unit({"task_id": "t", "entity_id": "P2", "entity_name": "Ana Ruiz", "field": "dx",
                       "value": "scaphoid fracture", "dimension": "health"})
    found_nothing = ["Ana Ruiz, ER note: CT of the right wrist negative.", "Ana Ruiz: no fracture of the scaphoid.",
                     "Intake form, Ana Ruiz: Any broken bones this year? -- No. Smoker? -- No.",
                     "Pre-op questionnaire: 'Recent fractures?' Ana Ruiz ticked No."]
    assert all(learned_grader.finds_nothing(wrist, t) for t in found_nothing)  # session 24's forms
    assert not learned_grader.finds_nothing(wrist, "Ana Ruiz broke her scaphoid skiing; no surgery so far.")
    awaited = ["Ana Ruiz: the wrist films are not back from radiology yet, call her Monday.",
               "The clinic wants Ana Ruiz's orthopaedic report; it hasn't arrived yet.",
               "阿娜·鲁伊斯的手腕片子还没出，明天再联系。"]
    assert all(learned_grader.finds_nothing(wrist, t) for t in awaited)  # session 24: a result not back
    stated = ["Ana Ruiz: scaphoid fracture confirmed, bone density testing pending.",
              "阿娜·鲁伊斯，舟骨骨折，不符合排除标准，可以入组。"]
    assert not any(learned_grader.finds_nothing(wrist, t) for t in stated)  # another result awaited, criteria
    drug = make_unit({"task_id": "t", "entity_id": "P3", "entity_name": "Walter Brinkley", "field": "meds",
                      "value": "metformin 500 mg twice daily", "dimension": "health"})
    never = ["Brinkley, Walter — per the fill history, he has never been prescribed metformin.",
             "Walter says he has never taken any diabetes pills.", "刘德明从未服用过二甲双胍。"]
    assert all(learned_grader.finds_nothing(drug, t) for t in never)  # session 24: a drug never taken
    taken = ["Walter Brinkley: no longer on metformin since March.", "Walter has been on metformin for years."]
    assert not any(learned_grader.finds_nothing(drug, t) for t in taken)
    text = texts[0]
    reading = Reading(0.9, 0, len(text), 0.83, 0.2)
    row = [0.0] * len(learned_grader.names())
    row[learned_grader.names().index("check_graded")] = 1.0
    checked = Verdict(MOSTLY, text[:10], 0, 10)
    grader = stump(3.0, "check_graded")
    assert grader.decide(row, reading, checked, text) == checked
    assert grader.decide(row, reading, checked, text, held=True) == Verdict(0.0, text[:10], 0, 10, review=True)


def test_a_pair_without_the_value_s_own_evidence_is_never_graded_on_the_grader_s_reading():
    """Session 25 (split 27's wrong grades): the grader does not grade on its own reading a text that finds a
    panel or a drug class empty, states the finding of another instance (another tooth, another numbered donor
    or subject, a roster of others' values), or holds none of the value's words, numbers or category cues and
    names no entity of it; a text that states the value, its entity or a description cue keeps its grade."""
    withheld = learned_grader.withheld
    gene = make_unit({"task_id": "t", "entity_id": "d", "entity_name": "Biobank donor BB-00931", "field": "finding",
                      "value": "BRCA2 pathogenic variant c.5946delT", "dimension": "health"})
    empty = ["Donor BB-00931: hereditary cancer panel negative — no pathogenic variants in BRCA1, BRCA2 or PALB2.",
             "No pathogenic variants were detected in BRCA1 or BRCA2 for donor BB-00931.",
             "BB-00931 的遗传性肿瘤检测：BRCA1/BRCA2 未检出致病变异。"]
    assert [withheld(gene, t) for t in empty] == ["nothing found"] * 3
    stated = ["Donor BB-00931: no variants in BRCA1; BRCA2 c.5946delT detected, pathogenic.",
              "Donor BB-00931 carries a pathogenic BRCA2 frameshift.",
              "供者BB-00931 检出 BRCA2 致病变异，BRCA1 未检出。",
              "Family note: donor BB-00931 and her cousin BB-00932 both carry the BRCA2 frameshift."]
    assert [withheld(gene, t) for t in stated] == [""] * 4
    others = ["Family cascade testing note: BB-00932 (donor's cousin) carries BRCA1 c.68_69delAG, pathogenic.",
              "Cascade list: BB-00940 and BB-00944 carry a BRCA2 variant."]
    assert [withheld(gene, t) for t in others] == ["another instance"] * 2
    drug = make_unit({"task_id": "t", "entity_id": "s", "entity_name": "Jayden Kowalczyk", "field": "medication",
                      "value": "methylphenidate 10 mg", "dimension": "health"})
    stopped = ["Jayden Kowalczyk: parent confirms he is no longer on any ADHD medication as of November.",
               "Jayden is not taking any stimulant medication this term.", "家长确认 Jayden 已停用所有多动症药物。"]
    assert [withheld(drug, t) for t in stopped] == ["nothing found"] * 3
    taking = ["Jayden Kowalczyk is no longer on methylphenidate at lunch, only in the morning.",
              "Jayden Kowalczyk takes his ADHD medication at the midday med pass."]
    assert [withheld(drug, t) for t in taking] == [""] * 2
    tooth = make_unit({"task_id": "t", "entity_id": "p", "entity_name": "Marisol Ocampo", "field": "diagnosis",
                       "value": "irreversible pulpitis, tooth #19", "dimension": "health"})
    assert withheld(tooth, "Marisol Ocampo — reversible pulpitis on #18 after a deep composite.") == "another instance"
    assert withheld(tooth, "Marisol Ocampo: pulpitis on tooth 18, recheck in 6 weeks.") == "another instance"
    same = ["Marisol Ocampo — irreversible pulpitis on #19, root canal booked.",
            "Marisol Ocampo: the pulp of her lower left molar is inflamed beyond saving.",
            "Marisol Ocampo: #19 and #18 both need work; 19 first."]
    assert [withheld(tooth, t) for t in same] == [""] * 3
    birth = make_unit({"task_id": "t", "entity_id": "c", "entity_name": "Priya Ramaswamy", "field": "dob",
                       "value": "1990-01-02", "dimension": "other"})
    roster = ('{"results": [{"name": "Kenji Aoyama", "dob": "1988-07-14"}, '
              '{"name": "Hannah Lisowski", "dob": "1991-05-19"}]}')
    assert withheld(birth, roster) == "another instance"
    assert withheld(birth, roster.replace("1991-05-19", "1990-01-02")) == ""  # hers among them
    assert withheld(birth, "Kenji Aoyama was born 1988-07-14, Priya two years later.") == ""  # one other date
    topics = ["Can you rewrite our new-patient intake form so the section on 'current diagnoses and treatment plan'"
              " is easier to read on a phone?", "Draft a short FAQ on how our clinic books follow-up visits."]
    assert [withheld(tooth, t) for t in topics] == ["no evidence"] * 2
    target = make_unit({"task_id": "t", "entity_id": "x", "entity_name": "Project Lantern", "field": "target",
                        "value": "Brightwell Dental Labs", "dimension": "business"})
    assert withheld(target, "Write a one-page template for our acquisition memos: overview, rationale, risks.") \
        == "no evidence"
    kept = ["Project Lantern: a small dental lab chain in Ohio is the one we are buying.",  # the entity named
            "Our target makes crowns for dentists — a dental lab in the Midwest.",  # a word of the value
            "写一份收购备忘录模板：目标公司概况、理由、风险。"]  # Chinese: never read so
    assert [withheld(target, t) for t in kept] == [""] * 3


def test_a_number_one_slip_away_or_a_placeholder_in_the_value_s_slot_is_never_graded():
    """Session 25 (blind splits 29/30's wrong grades): a text giving the value's number with two neighbouring
    digits swapped or one digit changed, and not the number, states another value; a text whose slot for the
    value holds a placeholder names the field, not the value. Neither is graded on the grader's reading; the
    number itself, a rounding, a number derived from another, a masked ID's own digits and a person's
    placeholder beside the value written out keep their grade."""
    withheld = learned_grader.withheld
    rate = make_unit({"task_id": "t", "entity_id": "L-1", "entity_name": "Blue Ridge Freight", "field": "rate",
                      "value": "$4,715 flat", "dimension": "business"})
    slips = ["Blue Ridge Freight confirmed $4,175 flat for Tuesday's pickup.",  # transposed
             "Blue Ridge Freight's rate con says $4,716 flat.",  # one digit off
             "蓝岭货运（Blue Ridge Freight）这单的运价是 $4,751 一口价。"]
    assert [withheld(rate, t) for t in slips] == ["another number"] * 3
    kept = ["Blue Ridge Freight confirmed $4,715 flat; the other lane was $4,175.",  # its own number too
            "Blue Ridge Freight: roughly $4,700 flat for this one.",  # a rounding
            "Blue Ridge Freight is $40 more than the $4,675 we paid last week."]  # derived from another
    assert [withheld(rate, t) for t in kept] == [""] * 3
    card = make_unit({"task_id": "t", "entity_id": "R-9", "entity_name": "周海燕", "field": "bank_card",
                      "value": "6217000010045583921", "dimension": "financial"})
    assert withheld(card, "周海燕的收款卡登记成了6217000010045583912，请核对。") == "another number"
    assert withheld(card, "周海燕的收款卡：6217 0000 1004 5583 921。") == ""  # the value in groups
    lab = make_unit({"task_id": "t", "entity_id": "P-3", "entity_name": "Dana Whitfield", "field": "ferritin",
                     "value": "14 ng/mL", "dimension": "health", "description": "serum ferritin before the infusion"})
    slots = ["De-identified: patient [NAME_1], ferritin: [LAB_VALUE_1] ng/mL; please explain iron infusions.",
             "Template: Dear {{patient_name}}, your ferritin result is {{ferritin}}.",
             "Patient Dana Whitfield — serum ferritin <REDACTED>, infusion booked."]
    assert [withheld(lab, t) for t in slots] == ["placeholder"] * 3
    kept = ["Patient [NAME_1], ferritin 14 ng/mL, infusion booked.",  # a person's slot; the value written
            "Dana Whitfield's ferritin: 14 ng/mL, token ***."]  # a lone mask beside another field
    assert [withheld(lab, t) for t in kept] == [""] * 2
    diagnosis = make_unit({"task_id": "t", "entity_id": "E-2", "entity_name": "梁淑芬", "field": "diagnosis",
                           "value": "左眼青光眼", "dimension": "health", "description": "眼科门诊诊断"})
    assert withheld(diagnosis, "病人 [PERSON_1]，诊断：[DIAGNOSIS_1]，请写一份病假证明。") == "placeholder"
    assert withheld(diagnosis, "病人 [PERSON_1]，诊断：左眼青光眼，请写一份病假证明。") == ""
    ident = make_unit({"task_id": "t", "entity_id": "I-4", "entity_name": "王建国", "field": "id_number",
                       "value": "110105196803124518", "dimension": "government_id"})
    assert withheld(ident, "姓名 王建国，身份证号 11010519680312****，申请已受理。") == ""  # its own digits shown


def test_a_list_whose_entity_s_row_states_none_of_the_finding_is_another_person_s():
    """Session 25 (splits 29/30): in a list, the rows naming the entity state no part of the value and other
    rows do — the finding is someone else's (a near name's, another patient's), never graded; the entity's own
    row stating it, or a text of fewer lines, keeps its grade."""
    sprain = make_unit({"task_id": "t", "entity_id": "P-7", "entity_name": "Halina Wrobel", "field": "diagnosis",
                        "value": "grade II sprain of the left anterior talofibular ligament", "dimension": "health"})
    caseload = ("Clinic list, Tuesday:\n09:00  H. Wrobel   — review, see referral\n"
                "09:30  H. Wróblewska — grade II sprain, right MCL\n10:00  T. Okafor — post-op week 4")
    assert learned_grader.withheld(sprain, caseload) == "another instance"
    assert learned_grader.withheld(sprain, caseload.replace("review, see referral", "left ATFL sprain, grade II")) == ""
    knee = make_unit({"task_id": "t", "entity_id": "S-1", "entity_name": "陈宇航", "field": "diagnosis",
                      "value": "左膝半月板撕裂", "dimension": "health"})
    roster = "今日康复排班：\n- 陈宇行：右膝半月板损伤，理疗\n- 陈宇航：复查，详见病历\n- 王磊：腰肌劳损"
    assert learned_grader.withheld(knee, roster) == "another instance"
    assert learned_grader.withheld(knee, "陈宇航：复查，详见病历。陈宇行：右膝半月板损伤。") == ""  # one line


def test_a_number_with_another_unit_or_a_diagnosis_found_not_to_fit_is_never_graded():
    """Session 28 (splits 37/38's wrong grades): a text giving the value's number with another unit of its measure
    and never with its own (a wife's 131 lb beside his 131 kg, 131斤) states another quantity; a consult that
    finds the diagnosis does not fit (不符合…的诊断, "does not meet criteria for") states no condition. Neither is
    graded on the grader's reading; the value's own unit in any spelling, the number converted, a number of
    another measure and another study's criteria keep their grade."""
    withheld = learned_grader.withheld
    weight = make_unit({"task_id": "t", "entity_id": "B-2", "entity_name": "Gideon Marchetti", "field": "weight",
                        "value": "131 kg", "dimension": "other"})
    others = ["Manifest, pax 3 MARCHETTI N (Mrs) 131 lb, compartment B.", "Gideon Marchetti 的行李登记：131斤。"]
    assert [withheld(weight, t) for t in others] == ["another unit"] * 2
    own = ["Gideon Marchetti weighs 131 kilos.", "Gideon Marchetti: 131 kg (289 lb), larger basket.",
           "Gideon Marchetti 体重131公斤。", "Gideon Marchetti, 131 minutes late, 131 kg."]
    assert [withheld(weight, t) for t in own] == [""] * 4
    bipolar = make_unit({"task_id": "t", "entity_id": "P-5", "entity_name": "邹嘉怡", "field": "diagnosis",
                         "value": "双相情感障碍I型", "dimension": "health"})
    unfit = ["会诊结论：邹嘉怡不符合双相情感障碍的诊断，考虑为适应障碍。", "邹嘉怡：双相情感障碍诊断不成立。",
             "Consult, Zou Jiayi: does not meet DSM-5 criteria for bipolar I; adjustment disorder."]
    assert [withheld(bipolar, t) for t in unfit] == ["nothing found"] * 3
    assert withheld(bipolar, "邹嘉怡，双相情感障碍I型，不符合排除标准，可以入组。") == ""
