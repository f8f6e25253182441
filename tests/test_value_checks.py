"""The local judge's checks by value type (issue 37, session 14): what the judge decides by reading the value,
the cross-encoder's reading one input. Texts written for these tests (not from the dev or test splits)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.detect.calibrate import Settings, write_calibration
from ec2audit.detect.e5_judge import CrossEncoderJudge
from ec2audit.detect.finding import FRAGMENT, LITERAL, MOSTLY
from ec2audit.detect.value_checks import (
    Address,
    NumericCheck,
    Reading,
    binds,
    business_names,
    check_for,
    contrary,
    contrast_values,
    folded,
    near_miss,
    numbers,
    same_value,
    synonyms,
    translations,
    written_names,
)
from ec2audit.units import make_unit

SALARY = make_unit({"task_id": "t", "entity_id": "E1", "entity_name": "Nadia Ferreira", "field": "salary",
                    "value": "$137,250", "dimension": "financial", "description": "annual base salary"})


def grades(unit, texts: list[str], checks: bool = True):
    """The local judge's verdicts, with its value checks (`--local-judge`) or its model alone (`--no-value-checks`)."""
    judge = CrossEncoderJudge(checks=checks)
    return [v[0] for v in judge.judge([(t, [unit]) for t in texts])]


def test_numbers_in_words_shorthand_and_chinese_numerals():
    assert numbers("she makes one hundred thirty-seven thousand two hundred and fifty dollars") == [137250.0]
    assert numbers("a hundred and thirty-seven and a quarter") != [137250.0]
    assert numbers("a hundred and thirty-seven and a half thousand") == [137500.0]
    assert sorted(numbers("budget 1.2m, bonus 15k, raise 4.5%, rent 3.2万")) == [4.5, 15000.0, 32000.0, 1200000.0]
    assert numbers("月租七千五") == [7500.0] and numbers("年薪十三万七千二百五十元") == [137250.0]
    assert numbers("version v2.3.4") == []


def test_a_salary_in_words_is_graded_and_another_salary_is_not():
    """The judge grades a salary written in words as a leak, one given as an approximation partially, and
    never another salary of the same kind, whatever its model says; the model alone grades none of the
    word forms (it cannot read them)."""
    texts = ["Nadia's offer: one hundred thirty-seven thousand two hundred and fifty dollars a year.",
             "Nadia will make just under 140k in base pay.",
             "The salary band for Nadia's level runs to $152,000; the team median is $129,800.",
             "Nadia Ferreira 的年薪是十三万七千二百五十美元。"]
    literal, approximate, other, chinese = grades(SALARY, texts)
    assert literal.grade == LITERAL and chinese.grade == LITERAL
    assert approximate.grade == FRAGMENT
    assert other.grade == 0 and not other.review  # a veto: not even left for review
    assert not any(v.grade > 0 for v in grades(SALARY, [texts[0], texts[3]], checks=False))


def test_a_name_is_decided_by_the_string_tiers_and_a_near_name_is_a_veto():
    name = make_unit({"task_id": "t", "entity_id": "E1", "field": "name", "value": "赵雨桐",
                      "dimension": "person_name", "description": "患者姓名"})
    assert check_for(name).name == "identifier"
    pinyin, other = grades(name, ["Patient Zhao Yutong was discharged on Friday.", "患者赵雨彤周五出院。"])
    assert pinyin.grade > 0 and "Zhao Yutong" in pinyin.evidence
    assert other.grade == 0 and not other.review
    assert near_miss("赵雨桐", "患者赵雨彤周五出院") and not near_miss("赵雨桐", "患者李明周五出院")
    assert near_miss("4716 2093 5581 4470", "card 4716 2093 5581 4407")


def test_a_diagnosis_paraphrase_is_graded_and_another_condition_is_not():
    unit = make_unit({"task_id": "t", "entity_id": "E1", "entity_name": "Omar Haddad", "field": "diagnosis",
                      "value": "epilepsy", "dimension": "health", "description": "employee's neurological diagnosis"})
    assert check_for(unit).name == "free-text"
    paraphrase, other = grades(unit, [
        "Note from HR: Omar suffers from epileptic seizures.",
        "Omar tore a ligament in his knee playing squash and will use crutches for a month."])
    assert paraphrase.grade > 0 and paraphrase.evidence
    assert other.grade == 0  # the model alone is as sure of it as of the paraphrase (p 0.84)


def test_judge_cli_grades_a_salary_in_words_and_not_a_distractor(tmp_path):
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps(SALARY.model_dump(exclude={"source"})) + "\n")
    messages = [{"role": "user", "content": "Draft Nadia's offer letter: base pay of one hundred thirty-seven "
                                            "thousand two hundred and fifty dollars, start date 1 March."},
                {"role": "user", "content": "For comparison the previous hire in that role started at $118,400."}]
    payloads = tmp_path / "payloads.jsonl"
    payloads.write_text(json.dumps({"id": "call-1", "task_id": "t",
                                    "request": {"model": "gpt", "messages": messages}}) + "\n")
    cal = write_calibration(tmp_path / "cal.toml", Settings(window=96, threshold=0.0, shortlist=-1.0), {})
    out = tmp_path / "findings.jsonl"
    result = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal),
                                       "--local-judge", "--json", "--out", str(out)])  # checks: the default
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    graded = [r for r in rows if r["grade"] > 0]
    assert graded and {r["segment"] for r in graded} == {0}
    assert all(r["grade"] == LITERAL for r in graded)
    for flag in ("--value-checks", "--no-value-checks"):
        refused = CliRunner().invoke(main, ["judge", str(units), str(payloads), flag])
        assert refused.exit_code != 0 and "--no-value-checks go with --local-judge" in refused.output


def test_each_kind_of_value_gets_its_check():
    def kind(value: str, dimension: str = "other") -> str:
        return check_for(make_unit({"task_id": "t", "entity_id": "E", "field": "f", "value": value,
                                    "dimension": dimension})).name

    assert [kind(v) for v in ("$148,500", "每月8500元", "36.8万元", "8.4%", "£64,250")] == ["numeric"] * 5
    assert [kind(v) for v in ("NP7K42R9T", "6222024108375519268", "1985-03-14", "AKIA4QXRT7JM2WZKP9LD")] == \
        ["identifier"] * 4
    assert kind("Li Hua", "person_name") == "identifier"
    assert [kind(v) for v in ("type 1 diabetes", "pregnant, 14 weeks")] == ["free-text"] * 2
    assert kind("somewhere in the Cotswolds", "location") == "free-text"  # no house number: no components
    assert [kind(v, "location") for v in ("42 Baker Lane, Cambridge CB2 1TN", "成都天府软件园7栋")] == ["address"] * 2
    assert kind("closure of the Rotterdam warehouse", "business") == "business"
    assert kind("Project Nightingale", "business") == "free-text"  # no act to read


def test_another_diagnosis_is_not_graded_and_a_paraphrase_is():
    """The free-text check's contrast: a text naming another condition (migraine, hypertension, from the
    health recognizer's names) is nearer that condition than this one, so it is never graded, however sure
    the model is (p ≥ 0.74 for both, as for the paraphrase); the paraphrase is nearer this one, and graded."""
    unit = make_unit({"task_id": "t", "entity_id": "E2", "entity_name": "刘洋", "field": "诊断", "value": "癫痫",
                      "dimension": "health", "description": "员工诊断"})
    paraphrase, migraine, hypertension = grades(unit, ["刘洋是癫痫病人，偶尔会突然倒地抽搐，团建时不要安排他开车。",
                                                       "刘洋有偏头痛，偶尔会发作，团建时不要安排他开车。",
                                                       "刘洋有高血压，偶尔头晕，团建时不要安排他开车。"])
    assert paraphrase.grade > 0 and "癫痫" in paraphrase.evidence
    assert migraine.grade == 0 and hypertension.grade == 0
    assert "偏头痛" in contrast_values(unit) and "癫痫" not in contrast_values(unit)
    assert same_value("major depressive disorder", "depression")
    assert not same_value("bipolar disorder", "panic disorder")


def test_a_cached_verdict_is_reused_only_for_the_same_contrast(tmp_path):
    """The checks read the call's other values of the unit's kind, so the verdict cache holds a verdict for
    that unit set: a rerun with the same units is answered from the cache, one with another salary of the
    same kind beside it is judged again, and then cached for that set too."""
    other = make_unit({"task_id": "t", "entity_id": "E2", "entity_name": "Li Wei", "field": "salary",
                       "value": "$98,000", "dimension": "financial", "description": "annual base salary"})
    text = "Nadia's base pay is one hundred thirty-seven thousand two hundred and fifty dollars a year."

    def run(units):
        judge = CrossEncoderJudge(checks=True, cache_path=tmp_path / "verdicts.sqlite")
        try:
            verdicts = judge.judge([(text, units)])
            return verdicts[0][0], judge.usage
        finally:
            judge.close()

    first, usage = run([SALARY])
    assert first.grade == 1.0 and usage.cached == 0
    again, usage = run([SALARY])
    assert again.cached and again.grade == 1.0 and usage.cached == 1
    beside, usage = run([SALARY, other])
    assert not beside.cached and beside.grade == 1.0 and usage.cached == 0
    _, usage = run([SALARY, other])
    assert usage.cached == 2


def test_a_business_fact_is_read_by_its_name_and_act():
    """A business fact alone in its call (no other fact to contrast it with) is graded where a sentence names
    its site and states its act, and vetoed where one names the site with another act; a text that names
    neither is left to the free-text check, which grades no value without a contrast (review at most)."""
    closure = make_unit({"task_id": "t", "entity_id": "D6", "entity_name": "Ardent Foods", "field": "plan",
                         "value": "closure of the Antwerp plant", "dimension": "business",
                         "description": "unannounced site closure"})
    texts = ["Ops: we're shutting the Antwerp site down at the end of June, keep it quiet.",
             "内部消息：Ardent Foods 计划关闭安特卫普的工厂（Antwerp），六月底停产。",
             "Ops: we are expanding the Antwerp plant with a second line in June.",
             "Ops: a site decision is coming in June; the board pack has the details."]
    paraphrase, translation, expansion, vague = grades(closure, texts)
    assert contrast_values(closure) == ()
    assert paraphrase.grade > 0 and translation.grade > 0
    assert expansion.grade == 0 and not expansion.review  # a veto: its site, another act
    assert vague.grade == 0


def test_an_address_is_read_by_its_components():
    """An address with its house number and street (or postcode) is graded in any script; another house
    number on the same street or in the same postcode is another address (a veto), and the postcode alone
    is never graded."""
    home = make_unit({"task_id": "t", "entity_id": "T4", "entity_name": "Ruth Okafor", "field": "home_address",
                      "value": "23 Elm Grove, Bristol BS6 5QT", "dimension": "location",
                      "description": "tenant's home address"})
    texts = ["请把钥匙寄到英国布里斯托尔 Elm Grove 23号，邮编 BS6 5QT。",
             "Ruth lives at twenty-three Elm Grove in Bristol.",
             "Deliver the parcel to 41 Elm Grove, Bristol BS6 5QT, Ruth's neighbour.",
             "Ruth Okafor lives somewhere in BS6 5QT, near the park."]
    translation, words, neighbour, postcode = grades(home, texts)
    assert translation.grade > 0 and words.grade > 0
    assert neighbour.grade == 0 and not neighbour.review
    assert postcode.grade == 0
    flat = make_unit({"task_id": "t", "entity_id": "T5", "entity_name": "郑雅文", "field": "住址",
                      "value": "杭州市西湖区文三路259号7幢1502室", "dimension": "location", "description": "租客住址"})
    record = "租客,电话,住址\n郑雅文,13900001111,杭州市西湖区文三路259号7幢{}室\n"
    (ours,), (next_door,) = ([v] for v in grades(flat, [record.format(1502), record.format(1503)]))
    assert ours.grade > 0 and next_door.grade == 0 and not next_door.review


def test_a_translation_across_scripts_is_read_by_the_glossary():
    """A diagnosis in English stated in a Chinese text is graded: the glossary gives the value's Chinese name,
    so the contrast holds other conditions in both scripts and the clause is nearer this one; another
    condition in Chinese is not graded. A business fact's transliterated place (维也纳 for Vienna) names it."""
    unit = make_unit({"task_id": "t", "entity_id": "E3", "entity_name": "Owen Hale", "field": "diagnosis",
                      "value": "glaucoma", "dimension": "health", "description": "employee's diagnosis"})
    assert translations("Glaucoma") == ("青光眼",) and translations("severe glaucoma") == ("青光眼",)
    contrast = contrast_values(unit)
    assert "白内障" in contrast and "cataract" in contrast and "青光眼" not in contrast
    ours, other = grades(unit, ["Owen Hale 患有青光眼，视野越来越窄，夜里请别安排他开车。",
                                "Owen Hale 患有白内障，视线越来越模糊，夜里请别安排他开车。"])
    assert ours.grade > 0 and other.grade == 0
    sale = make_unit({"task_id": "t", "entity_id": "D7", "entity_name": "Ardent Foods", "field": "plan",
                      "value": "sale of the Vienna office", "dimension": "business",
                      "description": "unannounced divestiture"})
    (translated,) = grades(sale, ["保密：Ardent Foods 准备出售维也纳的办公室，下月签约。"])
    assert translated.grade > 0


def test_another_family_name_beside_the_name_is_a_veto():
    """A name found inside another person's name is not this person: a family-name part hyphened to it, or
    another surname (compound or not) before a Chinese given name; the name itself is still graded."""
    en = make_unit({"task_id": "t", "entity_id": "E1", "field": "full_name", "value": "Marta Kowalczyk",
                    "dimension": "person_name", "description": "employee's full name"})
    ours, hyphened, spelled = grades(en, ["Ask Marta Kowalczyk to sign the lease.",
                                          "Ask Marta Kowalczyk-Brandt from procurement to sign the lease.",
                                          "Ask Marta Kovalczyk-Brandt from procurement to sign the lease."])
    assert ours.grade > 0
    assert hyphened.grade == 0 and spelled.grade == 0
    zh = make_unit({"task_id": "t", "entity_id": "C1", "field": "姓名", "value": "刘志明",
                    "dimension": "person_name", "description": "员工姓名"})
    ours, compound = grades(zh, ["请刘志明明天来签合同。", "司马志明的报销单已经批了。"])
    assert ours.grade > 0 and compound.grade == 0


def test_the_house_number_on_another_named_street_is_a_veto():
    """This house number on another street the text names, in the same city or postcode, is another address."""
    home = make_unit({"task_id": "t", "entity_id": "T1", "entity_name": "Li Na", "field": "home_address",
                      "value": "88 Juniper Road, Austin, TX 78701", "dimension": "location",
                      "description": "tenant's home address"})
    ours, other = grades(home, ["Li Na lives at 88 Juniper Rd in Austin.",
                                "The warehouse is at 88 Congress Avenue, Austin, TX 78701."])
    assert ours.grade > 0 and other.grade == 0
    zh = make_unit({"task_id": "t", "entity_id": "T2", "entity_name": "孙浩", "field": "住址",
                    "value": "广州市天河区体育西路66号", "dimension": "location", "description": "租客住址"})
    ours, other = grades(zh, ["孙浩住在天河区体育西路66号。", "新门店开在广州市天河区珠江东路66号。"])
    assert ours.grade > 0 and other.grade == 0


def test_a_business_fact_named_with_an_act_outside_acts_is_not_graded():
    """A sentence that names the fact's site with an act `ACTS` has no word for (renovate) is not graded on
    the name, though the call has other facts to contrast it with; one with the fact's act still is."""
    def fact(field: str, value: str):
        return make_unit({"task_id": "t", "entity_id": "D7", "entity_name": "Halden Paper", "field": field,
                          "value": value, "dimension": "business", "description": "confidential plan"})
    closure = fact("plan", "close the Tampere mill next autumn")
    judge = CrossEncoderJudge(checks=True)
    ours, other = (v[0] for v in judge.judge([(t, [closure, fact("deal", "acquire Norsk Pulp")]) for t in [
        "Halden is shutting the Tampere mill next autumn; keep it quiet.",
        "Halden will renovate the Tampere mill next autumn."]]))
    assert ours.grade > 0 and other.grade == 0


def test_a_business_topic_is_not_graded_against_two_other_facts():
    """Against only two other facts of the company, a text about the fact's topic (pet-food divestitures)
    is left for review at most: two facts cannot tell the topic from this fact (`MIN_FACTS`)."""
    def fact(field: str, value: str):
        return make_unit({"task_id": "t", "entity_id": "D8", "entity_name": "Corvel Brands", "field": field,
                          "value": value, "dimension": "business", "description": "confidential plan"})
    units = [fact("plan", "sell the pet-food division to Mars"), fact("cuts", "cut 200 jobs in Leeds"),
             fact("site", "open a plant in Ohio")]
    judge = CrossEncoderJudge(checks=True)
    topics = [v[0] for v in judge.judge([(t, units) for t in [
        "Write an analysis of why food companies divest their pet-food divisions.",
        "Summarise divestitures in the pet-food sector."]])]
    assert not any(v.grade > 0 for v in topics)


def test_a_given_name_another_person_in_the_text_also_has_is_a_veto():
    """A lone given name is graded as a fragment of the name, unless the text names another person with that
    given name (then this one may be that person)."""
    unit = make_unit({"task_id": "t", "entity_id": "E1", "field": "full_name", "value": "Marta Kowalczyk",
                      "dimension": "person_name", "description": "employee's full name"})
    alone, shared = grades(unit, ["Marta called about the lease this morning.",
                                  "Marta Nowicka from legal called; tell Marta the lease is ready."])
    assert alone.grade > 0 and shared.grade == 0


def test_an_accented_name_is_read_as_latin_script():
    """A business fact whose name has an accent (Zürich) is read by its words, not as Chinese characters, so a
    text on the act's topic that names no site is not graded by the name rule; one naming the site and act is."""
    assert business_names("close the Zürich office in May") == ("zürich", "may")
    unit = make_unit({"task_id": "t", "entity_id": "D9", "entity_name": "Aldwin Bank", "field": "plan",
                      "value": "close the Zürich office in May", "dimension": "business",
                      "description": "unannounced closure"})
    ours, topic = grades(unit, ["We're shutting the Zürich office down in May, keep it quiet.",
                                "Explain how banks usually announce office closures to staff."])
    assert ours.grade > 0 and topic.grade == 0


def test_a_topic_without_the_value_written_needs_a_wider_margin():
    """Texts about a condition's clinic or specialty (no condition stated) read close to it in both models,
    just nearer it than any other condition: with the value not written out they are left for review
    (`UNWRITTEN`), while the condition written in another language is graded."""
    unit = make_unit({"task_id": "t", "entity_id": "E4", "entity_name": "李娜", "field": "诊断",
                      "value": "类风湿关节炎", "dimension": "health", "description": "员工诊断"})
    clinic, moved, written = grades(unit, ["帮我预约下周风湿免疫科的专家号。", "风湿科门诊下个月起搬到三号楼。",
                                           "Li Na has rheumatoid arthritis."])
    assert clinic.grade == 0 and clinic.review and moved.grade == 0 and moved.review
    assert written.grade > 0


DIABETES = make_unit({"task_id": "t", "entity_id": "P1", "entity_name": "Grace Liu", "field": "diagnosis",
                      "value": "type 2 diabetes", "dimension": "health", "description": "patient diagnosis"})


def test_a_condition_stated_about_nobody_or_about_another_person_is_not_graded():
    """Entity binding (checks-v8): a condition is this person's leak where the text ties it to her (names her,
    or speaks of "the patient"); the same words in general advice, in a template with a slot for a name, or
    about her mother are at most left for review."""
    texts = ["Grace Liu was diagnosed with type 2 diabetes last spring and now takes metformin.",
             "Health tip of the week: people with type 2 diabetes should check their feet every day.",
             "Template: Dear {patient_name}, your type 2 diabetes review is due; book a slot online.",
             "Grace came in for a flu jab; her mother has type 2 diabetes and lives alone."]
    ours, advice, template, mother = grades(DIABETES, texts)
    assert ours.grade > 0
    assert advice.grade == 0 and template.grade == 0 and mother.grade == 0


def test_a_number_about_another_named_person_is_not_graded():
    """A salary stated in the same sentence as another entity of the unit set (and not this one) is that
    person's: left for review, not graded; stated with her name it is graded."""
    other = make_unit({"task_id": "t", "entity_id": "E9", "entity_name": "Piotr Zielinski", "field": "salary",
                       "value": "$98,000", "dimension": "financial"})
    hers, his = (v[0] for v in CrossEncoderJudge(checks=True).judge([(t, [SALARY, other]) for t in (
        "Nadia Ferreira's base salary is $137,250.",
        "Nadia asked about the band. Piotr Zielinski's base salary is $137,250.")]))
    assert hers.grade > 0
    assert his.grade == 0


def test_a_closure_bound_to_another_site_is_not_graded():
    """A business fact's act counts in the clause that names its site: "Leeds closes, while Antwerp keeps its
    staff" states no closure of Antwerp."""
    closure = make_unit({"task_id": "t", "entity_id": "D6", "entity_name": "Ardent Foods", "field": "plan",
                         "value": "closure of the Antwerp plant", "dimension": "business"})
    (other_site,) = grades(closure, ["Ops: we're shutting the Leeds plant in June, while the Antwerp plant keeps "
                                     "all of its staff."])
    assert other_site.grade == 0


def test_an_address_by_its_city_or_district_alone_is_not_graded():
    """The city or district of an address without its street, house number or postcode is a neighbourhood:
    left for review even where the model is sure (a stand-in reading of p = 0.95: checks-v7 graded the city
    alone through the free-text check); the street and house number are graded."""
    home = make_unit({"task_id": "t", "entity_id": "T4", "entity_name": "Ruth Okafor", "field": "home_address",
                      "value": "23 Elm Grove, Bristol BS6 5QT", "dimension": "location"})
    other = make_unit({"task_id": "t", "entity_id": "T9", "entity_name": "Ana Ruiz", "field": "home_address",
                       "value": "7 Rue de Rivoli, Paris 75001", "dimension": "location"})
    city, ours = "Ruth Okafor: Bristol.", "Ruth Okafor: 23 Elm Grove."
    decide = check_for(home).decide
    city_verdict = decide(home, city, Reading(0.95, 0, len(city), 0.83, 0.18), (home, other))
    assert city_verdict.grade == 0 and city_verdict.review
    assert decide(home, ours, Reading(0.95, 0, len(ours), 0.83, 0.18), (home, other)).grade > 0
    assert Address.parse("杭州市西湖区文三路259号7幢1502室").localities == ("杭州市", "杭州", "西湖区", "西湖")


def test_a_given_name_inside_a_company_name_is_a_veto():
    name = make_unit({"task_id": "t", "entity_id": "E1", "field": "name", "value": "王晓燕",
                      "dimension": "person_name"})
    company, person = grades(name, ["供应商晓燕服装有限公司的发票已到。", "请晓燕明天把发票交给财务。"])
    assert company.grade == 0 and person.grade > 0


def test_well_known_condition_synonyms_are_the_value_written_out():
    """The synonym table beside the glossary: an abbreviation or a colloquial name is the value written out
    (the free-text check's narrow margin), in either script."""
    hepatitis = make_unit({"task_id": "t", "entity_id": "P2", "entity_name": "Omar Haddad", "field": "diagnosis",
                           "value": "hepatitis C", "dimension": "health"})
    assert {"hcv", "丙肝"} <= set(synonyms("Hepatitis C")) and "羊角风" in synonyms("epilepsy")
    assert "小三阳" in synonyms("hepatitis B carrier")
    assert "clinical depression" in synonyms("major depressive disorder")
    assert "hcv" in written_names(hepatitis) and "hcv" not in contrast_values(hepatitis)
    (abbreviation,) = grades(hepatitis, ["Omar is HCV positive and starts antiviral treatment next week."])
    assert abbreviation.grade > 0


def test_an_honorific_kin_word_after_the_surname_is_the_person_not_a_relative():
    """周阿姨 ("auntie Zhou") is how one calls 周敏, no relative of hers: her condition stays bound to her."""
    parkinson = make_unit({"task_id": "t", "entity_id": "P3", "entity_name": "周敏", "field": "诊断",
                           "value": "帕金森病", "dimension": "health"})
    assert binds(parkinson, "周阿姨得的是帕金森病，手抖得厉害，请安排一楼的房间。")
    assert not binds(parkinson, "周敏的母亲得的是帕金森病，请安排一楼的房间。")


def stand_in(text: str, probability: float) -> Reading:
    """A stand-in for the cross-encoder's reading (its thresholds as shipped): the checks decide on it."""
    return Reading(probability, 0, len(text), 0.83, 0.18)


def _grade(unit, text: str, probability: float = 0.6) -> float:
    """The checks' grade of `text` for `unit`, on a stand-in reading of `probability`."""
    return check_for(unit).decide(unit, text, stand_in(text, probability)).grade


def test_a_condition_written_by_another_name_needs_only_the_review_threshold():
    """A condition written out by a name the synonym table gives (an older name inside a parenthesis, a drug
    given for it alone) is graded where the model only leaves it for review (a stand-in reading of p = 0.3;
    checks-v8 needed 0.5); a name negated by its prefix ("non-insulin-dependent") is another condition."""
    type1 = make_unit({"task_id": "t", "entity_id": "P1", "entity_name": "Ines Brandt", "field": "diagnosis",
                       "value": "type 1 diabetes", "dimension": "health"})
    hiv = make_unit({"task_id": "t", "entity_id": "P2", "entity_name": "Tariq Osei", "field": "diagnosis",
                     "value": "HIV positive", "dimension": "health"})
    older = "Ines has had insulin-dependent (juvenile-onset) diabetes since she was six."
    drug = "Tariq's viral load stays undetectable on Biktarvy; next bloods in May."
    other = "Ines's file: non-insulin-dependent diabetes, diet only."
    assert check_for(type1).decide(type1, older, stand_in(older, 0.3)).grade > 0
    assert check_for(hiv).decide(hiv, drug, stand_in(drug, 0.3)).grade > 0
    assert check_for(type1).decide(type1, other, stand_in(other, 0.3)).grade == 0
    assert "小三阳" in synonyms("慢性乙型肝炎病毒携带者")  # read past its severity
    assert "hcv" not in written_names(DIABETES) and not binds(DIABETES, "mind the HCVs")


def test_digits_read_out_and_a_birth_month_are_the_identifier():
    """A phone number read out digit by digit (in English words or Chinese numerals, 幺 for one) is the number;
    a birth date in Chinese numerals is the date, its month and year without the day a part of it; the
    clinic's line one digit off and another year's birthday are not."""
    phone = make_unit({"task_id": "t", "entity_id": "P1", "entity_name": "Ines Brandt", "field": "phone",
                       "value": "+1 415 628 3307", "dimension": "contact"})
    mobile = make_unit({"task_id": "t", "entity_id": "P2", "entity_name": "周婷", "field": "手机",
                        "value": "+86 139 5521 7604", "dimension": "contact"})
    birth = make_unit({"task_id": "t", "entity_id": "P2", "entity_name": "周婷", "field": "出生日期",
                       "value": "1988-03-21", "dimension": "other"})

    def decide(unit, text):
        return check_for(unit).decide(unit, text, stand_in(text, 0.6))

    # checks-v10 reads "oh" as 0: "thirty-three oh seven" is 3307 as people say it (checks-v9 asserted it unread)
    assert decide(phone, "Ines says ring her on four one five, six two eight, thirty-three oh seven.").grade > 0
    assert decide(phone, "Ines says ring her on four one five, six two eight, thirty-three oh eight.").grade == 0
    assert decide(phone, "Ines says ring her on four one five, six two eight, three three zero seven.").grade > 0
    assert decide(phone, "Front desk: +1 415 628 3300.").grade == 0
    assert decide(mobile, "周婷的新号码是幺三九、五五二幺、七六零四。").grade > 0
    assert decide(birth, "周婷生于一九八八年三月二十一日。").grade > 0
    assert decide(birth, "Zhou Ting was born in March 1988, the insurer asked.").grade == FRAGMENT
    assert decide(birth, "Her son was born 2015-03-21.").grade == 0
    assert decide(birth, "We may meet in 1988 terms.").grade == 0


def test_a_given_name_before_a_firm_word_is_a_company():
    name = make_unit({"task_id": "t", "entity_id": "E1", "field": "name", "value": "林嘉豪",
                      "dimension": "person_name"})
    firm, person = "请联系嘉豪咨询的对接人续签合同。", "请嘉豪咨询一下律师再签合同。"
    assert check_for(name).decide(name, firm, stand_in(firm, 0.8)).grade == 0
    assert check_for(name).decide(name, person, stand_in(person, 0.8)).grade > 0


def test_a_business_fact_by_its_amount_or_told_by_its_company_is_graded():
    """A business fact's sum with its company's name is the fact, in words too; a fact stated by the company's
    own people ("we") is bound to it; an act done to another named site is not this site's
    ("we closed the Reno depot and moved its work to Fresno" closes no Fresno site)."""
    deal = make_unit({"task_id": "t", "entity_id": "B1", "entity_name": "Halden Foods", "field": "plan",
                      "value": "buying Corvo Bakeries for $54 million", "dimension": "business"})
    closure = make_unit({"task_id": "t", "entity_id": "B1", "entity_name": "Halden Foods", "field": "plan",
                         "value": "closing the Fresno warehouse in 2027", "dimension": "business"})
    zh = make_unit({"task_id": "t", "entity_id": "B2", "entity_name": "远川物流", "field": "计划",
                    "value": "明年关闭武汉仓库", "dimension": "business"})
    words = "The Corvo talks are nearly done: fifty-four million for all of their shops."
    invoice = "Corvo Bakeries invoice: $54,300 for May deliveries."
    other = "In 2019 we closed the Reno depot and moved its work to Fresno."
    other_zh = "前年已关闭长沙仓库，业务并入武汉。"
    ours_zh = "明年把武汉那边的仓库撤掉。"
    assert check_for(deal).decide(deal, words, stand_in(words, 0.7)).grade > 0
    assert check_for(deal).decide(deal, invoice, stand_in(invoice, 0.7)).grade == 0
    assert check_for(closure).decide(closure, other, stand_in(other, 0.7)).grade == 0
    assert check_for(zh).decide(zh, other_zh, stand_in(other_zh, 0.7)).grade == 0
    assert check_for(zh).decide(zh, ours_zh, stand_in(ours_zh, 0.7)).grade > 0
    assert binds(closure, "Heads-up: we shut the Fresno warehouse next year.")
    assert not binds(closure, "Heads-up: the Fresno warehouse shuts next year.")


def test_a_header_scale_a_transliterated_name_and_a_compiler_of_a_list():
    """A salary in a table whose header gives its unit ("base (USD k): 137.25") is the salary; an English name
    written in Chinese characters with the middle dot of foreign names (纳迪娅·费雷拉) is the name, a longer
    name read on past it (费雷拉斯) another; a person who compiles a list is not on it (left for review)."""
    row = "name: Nadia F. | level: P3 | base (USD k): 137.25 | bonus: 8%"
    assert check_for(SALARY).decide(SALARY, row, stand_in(row, 0.7)).grade > 0
    name = make_unit({"task_id": "t", "entity_id": "E1", "field": "name", "value": "Nadia Ferreira",
                      "dimension": "person_name"})
    ours, longer = "纳迪娅·费雷拉明天到北京开会。", "纳迪娅·费雷拉斯明天到北京开会。"
    assert check_for(name).decide(name, ours, stand_in(ours, 0.8)).grade > 0
    assert check_for(name).decide(name, longer, stand_in(longer, 0.8)).grade == 0
    listed = make_unit({"task_id": "t", "entity_id": "E2", "entity_name": "何静", "field": "状态",
                        "value": "被列入裁员名单", "dimension": "other"})
    assert not binds(listed, "何静负责汇总裁员名单，请各部门发给她。")
    assert binds(listed, "何静被列入了裁员名单，先别告诉她。")


def test_a_key_cut_short_and_a_host_s_first_label_are_part_of_it():
    key = make_unit({"task_id": "t", "entity_id": "K1", "field": "api_key", "value": "rk_live_9XbQ2mTa7LpWc4Vn8Hs1",
                     "dimension": "credential"})
    host = make_unit({"task_id": "t", "entity_id": "K1", "field": "db_host", "value": "mq-core-07.int.halden.io",
                      "dimension": "network"})
    cut, other = "Leak report: rk_live_9XbQ2mTa… found in a public gist.", "Use rk_test_4Hd8… for staging."
    label, next_door = "WARN: mq-core-07 unreachable on 5672.", "Promoted mq-core-08.int.halden.io to primary."
    assert check_for(key).decide(key, cut, stand_in(cut, 0.6)).grade == FRAGMENT
    assert check_for(key).decide(key, other, stand_in(other, 0.6)).grade == 0
    assert check_for(host).decide(host, label, stand_in(label, 0.6)).grade == MOSTLY  # `forms.host_labels` (0.7)
    assert check_for(host).decide(host, next_door, stand_in(next_door, 0.6)).grade == 0


def test_a_status_by_its_initials_is_written_out():
    """"on a PIP" writes "placed on a performance improvement plan" out (its initials in capitals): graded where
    the model only leaves it for review (a stand-in reading of p = 0.3); "pip install" and a manager walked
    through the process "in general terms" are not."""
    pip = make_unit({"task_id": "t", "entity_id": "E2", "entity_name": "Carla Mendes", "field": "status",
                     "value": "placed on a performance improvement plan", "dimension": "other"})
    other = make_unit({"task_id": "t", "entity_id": "E3", "entity_name": "Joel Park", "field": "status",
                       "value": "promoted to senior engineer", "dimension": "other"})
    ours, tool = "Carla is on a PIP until October; keep her off the Halden account.", "Carla ran pip install again."
    general = "Carla asked how it works when a report misses targets; I explained the PIP in general terms."
    assert check_for(pip).decide(pip, ours, stand_in(ours, 0.3), (pip, other)).grade > 0
    assert check_for(pip).decide(pip, tool, stand_in(tool, 0.3), (pip, other)).grade == 0
    assert check_for(pip).decide(pip, general, stand_in(general, 0.3), (pip, other)).grade == 0


def test_a_condition_denied_or_named_as_a_test_is_not_written_out():
    """"no history of HCV", "HCV negative", 乙肝五项 (a test panel) write the name but state no condition: with the
    model's stand-in reading of p = 0.3 (the written-out threshold) they are not graded."""
    hepatitis = make_unit({"task_id": "t", "entity_id": "P2", "entity_name": "Omar Haddad", "field": "diagnosis",
                           "value": "hepatitis C", "dimension": "health"})
    carrier = make_unit({"task_id": "t", "entity_id": "P4", "entity_name": "许涛", "field": "诊断",
                         "value": "乙肝病毒携带者", "dimension": "health"})
    for unit, text in ((hepatitis, "Omar's intake: no history of HCV, bloods normal."),
                       (hepatitis, "Omar's screen came back HCV negative."),
                       (carrier, "许涛入职体检要做乙肝五项。")):
        assert check_for(unit).decide(unit, text, stand_in(text, 0.3)).grade == 0, text
    stated = "Omar's screen came back HCV positive."
    assert check_for(hepatitis).decide(hepatitis, stated, stand_in(stated, 0.3)).grade > 0


def test_a_clinical_record_heading_refers_to_one_patient():
    """既往史 ("past medical history") heads one patient's record: a condition under it is bound to that
    patient with no name written; a health tip is not."""
    diabetes = make_unit({"task_id": "t", "entity_id": "P5", "entity_name": "邓丽君", "field": "诊断",
                          "value": "2型糖尿病", "dimension": "health"})
    assert binds(diabetes, "既往史：2型糖尿病 8 年，口服药控制。")
    assert not binds(diabetes, "健康小贴士：2型糖尿病要注意饮食。")


def test_a_dimension_named_by_its_alias_gets_that_dimension_s_checks():
    """AceBench's files name dimensions by the taxonomy's aliases (`name`, `email`, `address`, `medical`,
    `confidential`): each unit is checked as the dimension its alias stands for (`Unit.kind`). Before, a
    name or an e-mail under its alias was read as free text, an address without its components, a closure
    without its act, and a condition under `medical` graded as no condition."""
    def kind(value: str, dimension: str) -> str:
        return check_for(make_unit({"task_id": "t", "entity_id": "E", "field": "f", "value": value,
                                    "dimension": dimension})).name

    for value, dimension, alias in [("Li Hua", "person_name", "name"), ("ana.ruiz@example.org", "contact", "email"),
                                    ("42 Baker Lane, Cambridge CB2 1TN", "location", "address"),
                                    ("closure of the Rotterdam warehouse", "business", "confidential")]:
        assert kind(value, alias) == kind(value, dimension) != "free-text", (value, alias)
    text = ["Omar is HCV positive and starts antiviral treatment next week."]
    health, medical = ({"task_id": "t", "entity_id": "P2", "entity_name": "Omar Haddad", "field": "diagnosis",
                        "value": "hepatitis C", "dimension": d} for d in ("health", "medical"))
    assert [v.grade for v in grades(make_unit(medical), text)] == [v.grade for v in grades(make_unit(health), text)]
    assert grades(make_unit(medical), text)[0].grade > 0


def test_a_value_in_a_sentence_about_someone_named_by_a_relation_is_not_bound():
    """checks-v10: a sentence naming another person by their relation to someone ("her new hire, Tom Bell",
    何静组里的张凯, 内推的候选人 Leo Wu) states that person's value: the salary asked for the hire and the rating
    of a teammate are left for review, not graded; the entity's own are graded."""
    asked = "Nadia Ferreira asked for $137,250 for her new hire, Tom Bell; finance offered him less."
    own = "Nadia Ferreira's base salary is $137,250."
    assert check_for(SALARY).decide(SALARY, asked, stand_in(asked, 0.8)).grade == 0
    assert check_for(SALARY).decide(SALARY, own, stand_in(own, 0.8)).grade > 0
    rating = make_unit({"task_id": "t", "entity_id": "E2", "entity_name": "何静", "field": "绩效",
                        "value": "年度绩效 C，进入绩效改进计划", "dimension": "other"})
    assert not binds(rating, "何静组里的张凯今年绩效 C，已进入绩效改进计划。")
    assert not binds(SALARY, "Nadia Ferreira 内推的候选人 Leo Wu 期望年薪 $137,250。", specific=True)
    assert binds(rating, "何静今年绩效 C，已进入绩效改进计划。")


def test_a_general_question_or_a_notice_to_all_refers_to_no_one():
    """"no patient details … for someone newly diagnosed" and a notice to all staff (通知：…结果仅本人可见) refer to
    no one person: their "patient" and 本人 do not bind a condition; "the patient" in a record does. 乙肝两对半 is
    a test panel, not the condition written out."""
    assert not binds(DIABETES, "General question, no patient details: what should someone with type 2 diabetes eat?")
    assert binds(DIABETES, "The patient has type 2 diabetes, on diet control.")
    carrier = make_unit({"task_id": "t", "entity_id": "P4", "entity_name": "许涛", "field": "诊断",
                         "value": "乙肝病毒携带者", "dimension": "health"})
    assert not binds(carrier, "通知：体检可加做乙肝病毒携带者筛查，结果仅本人可见。")
    panel = "许涛入职体检要查乙肝两对半。"
    assert check_for(carrier).decide(carrier, panel, stand_in(panel, 0.3)).grade == 0


def test_pay_words_grand_and_a_hair_are_read_as_numbers():
    """A salary written with its pay words (税前月薪 18,200 元, 年薪 45 万元（含奖金）) is one number for the numeric
    check; "ninety grand", 五十多万 and "a hair over" are read as people say them."""
    monthly = make_unit({"task_id": "t", "entity_id": "E5", "entity_name": "赵敏", "field": "月薪",
                         "value": "税前月薪 18,200 元", "dimension": "financial"})
    yearly = make_unit({"task_id": "t", "entity_id": "E5", "entity_name": "赵敏", "field": "年薪",
                        "value": "年薪 45 万元（含奖金）", "dimension": "financial"})
    assert check_for(monthly).name == check_for(yearly).name == "numeric"
    under, english = "赵敏税前一个月不到两万。", "Zhao Min: monthly base RMB 18.2k pre-tax."
    assert check_for(monthly).decide(monthly, under, stand_in(under, 0.6)).grade == FRAGMENT
    assert check_for(monthly).decide(monthly, english, stand_in(english, 0.6)).grade == LITERAL
    assert numbers("她一年四十多万") == [400000.0] and numbers("ninety grand") == [90000.0]
    hair = "Nadia makes a hair over 135k."
    assert check_for(SALARY).decide(SALARY, hair, stand_in(hair, 0.6)).grade == FRAGMENT


def test_a_business_name_is_characters_and_a_colloquial_cut_is_a_cut():
    """The names of a Chinese business fact are its characters, not its numbers: a question about layoffs "of
    40 people" does not name 西南区's; 砍掉 is a cut."""
    cut = make_unit({"task_id": "t", "entity_id": "B3", "entity_name": "西南区客服部", "field": "计划",
                     "value": "2027 年西南区客服团队裁员 40%，约 60 人", "dimension": "business"})
    assert not any(re.search(r"\d", n) for n in business_names(cut.value))
    question, ours = "问一下：公司裁员 40 人以上要报备吗？", "西南客服团队明年要砍掉四成的人，先别往外说。"
    assert check_for(cut).decide(cut, question, stand_in(question, 0.8)).grade == 0
    assert check_for(cut).decide(cut, ours, stand_in(ours, 0.8)).grade > 0


def test_oh_for_zero_a_two_digit_year_and_a_secret_s_start():
    """"three three oh seven" reads 3307; "88 年的，生日是三月二十一号" is the birth date; a key or password given
    by its start ("starting rk_live_9XbQ", "Tz4! 开头") is part of it, a bare common prefix is not."""
    phone = make_unit({"task_id": "t", "entity_id": "P1", "entity_name": "Ines Brandt", "field": "phone",
                       "value": "+1 415 628 3307", "dimension": "contact"})
    birth = make_unit({"task_id": "t", "entity_id": "P2", "entity_name": "周婷", "field": "出生日期",
                       "value": "1988-03-21", "dimension": "other"})
    key = make_unit({"task_id": "t", "entity_id": "K1", "field": "api_key", "value": "rk_live_9XbQ2mTa7LpWc4Vn8Hs1",
                     "dimension": "credential"})
    password = make_unit({"task_id": "t", "entity_id": "K1", "field": "db_password", "value": "Tz4!kq9Lm#2v",
                          "dimension": "credential"})

    assert _grade(phone, "Ines: four one five, six two eight, three three oh seven.") > 0
    assert _grade(birth, "周婷是 88 年的，生日是三月二十一号。") > 0
    assert _grade(birth, "周婷的儿子 3 月 21 日生日。") == 0
    assert _grade(key, "The one starting rk_live_9XbQ is in the public gist.") == FRAGMENT
    assert _grade(key, "The one starting rk_live_ is in the public gist.") == 0
    assert _grade(password, "库密码是 Tz4! 开头的那个，去 1Password 搜。") == FRAGMENT


def test_a_pending_result_or_a_calendar_entry_states_no_value():
    """A background check whose result comes next week and a calendar entry for a review meeting name the
    value's subject, not the value: not bound where the value is not written out; the rating told is."""
    record = make_unit({"task_id": "t", "entity_id": "E6", "entity_name": "钱峰", "field": "背调",
                        "value": "因酒驾被吊销驾驶证", "dimension": "other"})
    rating = make_unit({"task_id": "t", "entity_id": "E7", "entity_name": "Hana Mori", "field": "review",
                        "value": "rated below expectations and placed on a 90-day improvement plan",
                        "dimension": "other"})
    assert not binds(record, "钱峰应聘的是货车司机，驾驶证要核验，背调下周出结果。")
    assert binds(record, "背调反馈：钱峰有一条和饮酒有关的交通处罚记录。")
    assert not binds(rating, "Calendar: year-end review — Hana Mori / line manager, Fri 11:00–11:30, room 2.")
    assert binds(rating, "Hana Mori fell short this year and HR started a formal improvement plan.")


def test_a_namesake_or_a_market_pattern_states_no_value_of_the_entity():
    """checks-v11: a sentence about someone with the entity's given name and another family name ("Nadia
    Costa"), or a Chinese name one character off (何静怡 for 何静宜), states that person's value, even where the
    next sentence names the entity; a value with full-width punctuation is written out as the text folds it;
    a sentence about many companies ("several acquisitions", 不少公司…普遍) is no one company's fact."""
    roster = "Payroll export — Nadia Costa: base $137,250 (band 4). Nadia Ferreira: on leave."
    assert not binds(SALARY, roster, specific=True)
    assert binds(SALARY, "Payroll export — Nadia Ferreira: base $137,250 (band 4).", specific=True)
    record = make_unit({"task_id": "t", "entity_id": "S1", "entity_name": "何静宜", "field": "处分",
                        "value": "上课使用手机，警告处分一次", "dimension": "other"})
    assert not binds(record, "教务处：何静怡（初二 1 班）上课使用手机，警告处分一次；何静宜无处分。")
    assert binds(record, "教务处：何静宜（初二 1 班）上课使用手机，警告处分一次。")
    deal = make_unit({"task_id": "t", "entity_id": "B1", "entity_name": "Quillcrest Ltd", "field": "m&a",
                      "value": "acquisition by Snowflake at $210M", "dimension": "business"})
    market, ours = ("Snowflake has made several acquisitions in the data space, most under $300M.",
                    "Quillcrest Ltd: the Snowflake acquisition is on track, term sheet next week.")
    assert check_for(deal).decide(deal, market, stand_in(market, 0.8)).grade == 0
    assert check_for(deal).decide(deal, ours, stand_in(ours, 0.8)).grade > 0


def test_a_denied_condition_or_the_other_side_of_a_lawsuit_is_not_graded():
    """checks-v11: a condition named only where it is denied (排除甲减: its abbreviation ruled out) and a lawsuit
    where the entity is the plaintiff, for a value that says it is sued, are left for review at most, whatever
    the model says; the suit as stated is not contrary."""
    thyroid = make_unit({"task_id": "t", "entity_id": "P7", "entity_name": "吴倩", "field": "诊断",
                         "value": "甲状腺功能减退", "dimension": "health"})
    checkup = "体检结论：吴倩 甲功三项正常，排除甲减，建议一年后复查。"
    assert check_for(thyroid).decide(thyroid, checkup, stand_in(checkup, 0.9)).grade == 0
    suit = make_unit({"task_id": "t", "entity_id": "L1", "entity_name": "Harriet Vance", "field": "litigation",
                      "value": "sued by a former landlord for unpaid rent", "dimension": "other"})
    sues = "Harriet Vance is the plaintiff: she filed a suit against her former landlord over the deposit."
    sued = "Harriet Vance is being sued by her former landlord, who says she left owing rent."
    assert check_for(suit).decide(suit, sues, stand_in(sues, 0.9)).grade == 0
    assert contrary(suit, sues) and not contrary(suit, sued)


def _health(value: str, name: str = "Walter Brinkley"):
    return make_unit({"task_id": "t", "entity_id": "P", "entity_name": name, "field": "f", "value": value,
                      "dimension": "health"})


@pytest.mark.parametrize(("value", "text"), [
    ("hairline fracture of the left fifth metatarsal",
     "Same week, separate incident: laborer Dmitri Kos — fracture of the right fifth metatarsal."),
    ("left distal radius fracture", "Comparable claim: Marcus Bell, right distal radius fracture after a ladder fall."),
    ("右侧第三、四肋骨骨折", "同月另一起：木工班李大勇 左侧第四肋骨骨折，工伤认定材料已提交。"),
    ("阿托伐他汀钙片 20mg 每晚一次", "配药单：刘德民 阿托伐他汀钙片 40mg qn ×28；刘德明 本次只取了氨氯地平。"),
    ("metformin 500 mg twice daily", "BRINKLEY, JUNE metformin ER 750 mg 2 tabs; BRINKLEY, WALTER atorvastatin 20 mg"),
    ("sertraline 100 mg once daily", "Refill queue: QUINTERO, LUIS sertraline 50 mg 1 tab daily #30 — ready."),
])
def test_another_side_or_strength_is_contrary_and_not_graded(value, text):
    """checks-v15 (splits 21, 25, 26): a finding on the other side of the body or a drug at another strength in
    the value's unit is another finding or prescription — left for review at most, whatever the model says."""
    unit = _health(value)
    assert contrary(unit, text)
    assert check_for(unit).decide(unit, text, stand_in(text, 0.95)).grade == 0


@pytest.mark.parametrize(("value", "text"), [
    ("hairline fracture of the left fifth metatarsal", "Wójcik: hairline crack in the left fifth metatarsal."),
    ("hairline fracture of the left fifth metatarsal", "to the clinic right after; a crack in the fifth metatarsal"),
    ("left distal radius fracture", "she broke the far end of the radius in her left forearm, right above the wrist"),
    ("右侧第三、四肋骨骨折", "医院拍片说右边第三根、第四根肋骨断了，住院一周左右。"),
    ("阿托伐他汀钙片 20mg 每晚一次", "他每天晚上吃一片20毫克的立普妥。"),
    ("metformin 500 mg twice daily", "Walter takes metformin 500mg BID and lisinopril 10 mg."),
    ("metformin 500 mg twice daily", "Walter is on metformin, twice a day."),  # no strength: nothing contradicts
])
def test_the_same_side_or_strength_or_none_stated_is_not_contrary(value, text):
    assert not contrary(_health(value), text)


def test_an_address_said_aloud_a_network_and_host_and_a_foreign_month_name():
    """checks-v11: an e-mail address said aloud ("lena dot park seventy-one at fastmail dot com"), an IPv4
    address given as its network and host (the 10.8.3.0/24 subnet, host 44; 172.16.5 网段，主机号 9) and a date
    with a French or Spanish month name are the value; the network with another host is not."""
    mail = make_unit({"task_id": "t", "entity_id": "P3", "entity_name": "Lena Park", "field": "email",
                      "value": "lena.park71@fastmail.com", "dimension": "contact"})
    host = make_unit({"task_id": "t", "entity_id": "H1", "entity_name": "ledger-db", "field": "ip",
                      "value": "10.8.3.44", "dimension": "network"})
    nas = make_unit({"task_id": "t", "entity_id": "H2", "entity_name": "人事部 NAS", "field": "ip",
                     "value": "172.16.5.9", "dimension": "network"})
    born = make_unit({"task_id": "t", "entity_id": "P4", "entity_name": "Chloé Marin", "field": "dob",
                      "value": "1987-10-02", "dimension": "other"})

    assert _grade(mail, "Send it to lena dot park seventy-one at fastmail dot com, her own inbox.") > 0
    assert _grade(host, "ledger-db sits on the 10.8.3.0/24 subnet, host 44.") > 0
    assert _grade(host, "ledger-db's replica is 10.8.3.46, same subnet, host 44 is down for now.") == 0
    assert _grade(nas, "人事部 NAS 在 172.16.5 网段，主机号 9。") > 0
    assert _grade(born, "Chloé Marin, née le 2 octobre 1987 à Nantes.") > 0
    assert _grade(born, "Chloé Marin, nacida el 2 de octubre de 1987.") > 0
    assert _grade(born, "Chloé Marin, arrivée le 2 octobre 2019.") == 0


def test_a_business_sum_approximated_across_a_decimal_point():
    """checks-v11: "around 0.2B" states a fact's "about $215M" (close, with an approximation cue), and a decimal
    point ends no sentence: the sum is read in the sentence that names the counterparty."""
    deal = make_unit({"task_id": "t", "entity_id": "B2", "entity_name": "Quillcrest Ltd", "field": "m&a",
                      "value": "in acquisition talks with Snowflake at about $215M", "dimension": "business"})
    notes = "Quillcrest staff notes: the Snowflake deal is moving, number on the table is around 0.2B."
    assert check_for(deal).decide(deal, notes, stand_in(notes, 0.8)).grade > 0


def test_a_treatment_s_condition_and_a_value_spaced_between_scripts_are_written_out():
    """checks-v11: "undergoing radiotherapy for prostate cancer" is written out where the text names prostate
    cancer (a condition by its form); "HIV 阳性" (a space between the scripts) has the synonym table's names
    (HIV-positive) as "HIV阳性" has."""
    treatment = make_unit({"task_id": "t", "entity_id": "P8", "entity_name": "Owen Hale", "field": "treatment",
                           "value": "undergoing radiotherapy for prostate cancer", "dimension": "health"})
    assert "prostate cancer" in written_names(treatment)
    assert "hiv-positive" in synonyms("HIV 阳性")
    assert written_names(make_unit({"task_id": "t", "entity_id": "P9", "field": "med", "value": "sertraline 100 mg",
                                    "dimension": "health"})) == ("sertraline 100 mg",)


def test_the_street_s_hundred_block_holding_the_house_is_the_address():
    """checks-v11: "the 2700 block of Alder Creek Road" holds 2745 Alder Creek Rd (graded); the 2800 block does
    not (another stretch of the street: not graded)."""
    home = make_unit({"task_id": "t", "entity_id": "P5", "entity_name": "Mara Quist", "field": "home",
                      "value": "2745 Alder Creek Rd, Eugene, OR 97405", "dimension": "location"})
    ours, other = ("Mara Quist lives on the 2700 block of Alder Creek Road.",
                   "Mara Quist lives on the 2800 block of Alder Creek Road.")
    assert check_for(home).decide(home, ours, stand_in(ours, 0.6)).grade > 0
    assert check_for(home).decide(home, other, stand_in(other, 0.6)).grade == 0


def test_chinese_shares_and_counted_hundreds_of_millions_are_numbers():
    """三个多亿 and 两个亿 are hundreds of millions said with a measure word, 七分之一 and 两成 shares (checks-v12);
    成 in a word (成都, 一成不变) is no share."""
    assert numbers("准备花三个多亿把它拿下") == [3e8] and numbers("两个亿人民币") == [2e8]
    assert [round(n, 1) for n in numbers("砍掉差不多七分之一的人")] == [14.3] and numbers("少了将近两成") == [20.0]
    assert numbers("成都的工厂") == [] and numbers("一成不变") == [] and numbers("三个人") == []


def test_a_foreign_name_in_chinese_characters_after_other_words_is_the_name():
    """The middle-dotted transliteration is read from where the name starts, not from the words before it
    (发给托马什·诺瓦克; checks-v12); another family name is still not the name."""
    name = make_unit({"task_id": "t", "entity_id": "E1", "field": "name", "value": "Tomasz Nowak",
                      "dimension": "person_name"})
    ours, other = "请把合同副本发给托马什·诺瓦克律师，抄送合伙人。", "请把合同副本发给托马什·布朗律师，抄送合伙人。"
    assert check_for(name).decide(name, ours, stand_in(ours, 0.8)).grade > 0
    assert check_for(name).decide(name, other, stand_in(other, 0.8)).grade == 0


def test_a_translation_s_european_numbers_and_a_condition_before_its_qualifier():
    """checks-v13: a salary a German text writes with dots between thousands, a price a French one writes with
    a decimal comma and its scale word, are the value; a condition's name before a bracketed qualifier in words
    is written out ("kein Penicillin"), one before a bracket with a number ("type 2") is not."""
    german = "Nadia Ferreira verdient derzeit 137.250 US-Dollar brutto im Jahr."
    assert check_for(SALARY).decide(SALARY, german, stand_in(german, 0.3)).grade == LITERAL
    assert 42.5e6 in numbers("le projet prévoit un prix de 42,5 millions de dollars")
    assert 3.5e9 in numbers("Kaufpreis 3,5 Mrd. Euro") and numbers("version 3.2.1") == [3.2]
    allergy = make_unit({"task_id": "t", "entity_id": "P1", "field": "allergy", "value": "penicillin (anaphylaxis)",
                         "dimension": "health"})
    assert "penicillin" in written_names(allergy)
    typed = make_unit({"task_id": "t", "entity_id": "P2", "field": "dx", "value": "diabetes (type 2)",
                       "dimension": "health"})
    assert "diabetes" not in written_names(typed)


def test_a_text_in_traditional_script_is_read_as_simplified():
    """checks-v14: the checks read a Traditional text folded to Simplified (their acts and place words are
    Simplified), and quote the evidence as the text writes it."""
    closure = make_unit({"task_id": "t", "entity_id": "D7", "entity_name": "星衡科技", "field": "plan",
                         "value": "关闭苏州工厂", "dimension": "business", "description": "unannounced site closure"})
    texts = ["内部消息：星衡科技计划年底关闭苏州的工厂，先别外传。",
             "內部消息：星衡科技計劃年底關閉蘇州的工廠，先別外傳。"]
    simplified, traditional = grades(closure, texts)
    assert simplified.grade > 0 and traditional.grade == simplified.grade
    assert traditional.evidence and traditional.evidence in texts[1] and traditional.evidence not in texts[0]


def test_an_amount_per_month_is_the_same_amount_per_year():
    """checks-v16 (split 23's $11,875 a month for $142,500 per year): where the value and the text state an amount
    per different periods, the numeric check reads the text's amount times 12 (or a twelfth); the same period
    with another amount, another monthly amount, or a value that states no period stays another value."""
    yearly = make_unit({"task_id": "t", "entity_id": "E1", "entity_name": "Priya Raman", "field": "salary",
                        "value": "$142,500 per year", "dimension": "financial"})
    monthly = make_unit({"task_id": "t", "entity_id": "E2", "entity_name": "孙磊", "field": "salary",
                         "value": "月薪38,500元", "dimension": "financial"})
    plain = make_unit({"task_id": "t", "entity_id": "E1", "entity_name": "Priya Raman", "field": "salary",
                       "value": "$142,500", "dimension": "financial"})

    def grade(unit, text: str) -> float:
        return NumericCheck().decide(unit, folded(text), Reading(0.9, 0, len(text), 0.83, 0.2)).grade

    said = [(yearly, "Priya was at $11,875 a month base with us, no change since her last review."),
            (yearly, "Priya Raman makes $11,875 monthly."), (monthly, "孙磊现在一年46.2万元。")]
    assert [grade(u, t) for u, t in said] == [MOSTLY] * 3
    other = [(yearly, "Priya was at $11,875 a year as an intern."), (yearly, "Priya makes $12,000 a month."),
             (plain, "Priya was at $11,875 a month base with us."), (monthly, "孙磊每月 38,000 元。")]
    assert [grade(u, t) for u, t in other] == [0.0] * 4


def test_a_birth_date_said_with_its_year_s_last_two_digits_is_graded_though_near_as_a_string():
    """Session 28 (split 38's miss): 09年5月22号 gives 2009年5月22日 whole as people say it, and is also near it as a
    string, which vetoed it before; another day, or another year's last two digits, is still not the value."""
    born = make_unit({"task_id": "t", "entity_id": "G-8", "entity_name": "伍子轩", "field": "date_of_birth",
                      "value": "2009年5月22日", "dimension": "other"})

    def grade(text: str) -> float:
        return check_for(born).decide(born, folded(text), stand_in(text, 0.2)).grade

    assert grade("806那个伍子轩是09年5月22号生的，还没满18岁。") == MOSTLY
    assert grade("806那个伍子轩是09年5月23号生的，还没满18岁。") == 0.0
    assert grade("806那个伍子轩是08年5月22号生的，还没满18岁。") == 0.0


def test_a_number_said_in_two_halves_or_digit_by_digit_with_hyphens():
    """checks-v19 (session 30): a house number, a price or a year said in two halves ("eleven eighty-seven" is
    1187, "twenty-eight fifty" 2850, "one-eighty-two K" 182,000) and an ID number read digit by digit with hyphens
    ("five-two-nine, eighty-one, forty-four oh six" is 529 81 4406) are the value; the same halves giving another
    house (1178) or a plain count ("twenty-one guns") are not read as it."""
    home = make_unit({"task_id": "t", "entity_id": "P5", "entity_name": "Priya Raman", "field": "home_address",
                      "value": "1187 Larkspur Lane, Boise, ID 83706", "dimension": "location"})
    rent = make_unit({"task_id": "t", "entity_id": "P6", "entity_name": "Dana Ruiz", "field": "rent",
                      "value": "$2,850", "dimension": "financial"})
    ssn = make_unit({"task_id": "t", "entity_id": "P7", "entity_name": "Lorraine Beaudry", "field": "ssn",
                     "value": "529-81-4406", "dimension": "government_id"})

    assert _grade(home, "Mail it to Priya Raman at eleven eighty-seven Larkspur Lane, Boise.", 0.3) > 0
    assert _grade(home, "Mail it to Priya Raman at eleven seventy-eight Larkspur Lane, Boise.", 0.3) == 0
    assert _grade(rent, "Dana Ruiz says her rent is twenty-eight fifty a month.", 0.3) == LITERAL
    assert numbers("Vexa's new deal: one-eighty-two K a year base") == [182000.0]
    assert numbers("a salute of twenty-one guns") == [21.0]
    assert _grade(ssn, "Her social is five-two-nine, eighty-one, forty-four oh six.", 0.3) > 0
