"""Health conditions in English and Chinese: Presidio has no recognizer for them at all.

A condition is a known term with its usual qualifiers (`type 2 diabetes`, `hypertension stage 2`,
`重度抑郁症`). Case matters where a word is also an ordinary verb (`AIDS` vs `aids`).
"""

from __future__ import annotations

import re

from ec2audit.annotate.recognizers.base import PatternRecognizer

_EN_TERMS = (
    "diabetes", "hypertension", "depression", "depressive disorder", "anxiety disorder", "panic disorder",
    "bipolar disorder", "schizophrenia", "asthma", "cancer", "carcinoma", "lymphoma", "leukemia", "leukaemia",
    "tumou?r", "hepatitis [abc]", "tuberculosis", "epilepsy", "kidney disease", "renal failure",
    "heart failure", "heart disease", "coronary artery disease", "arthritis", "multiple sclerosis",
    "alzheimer'?s disease", "parkinson'?s disease", "dementia", "autism", "adhd", "ptsd", "copd",
    "hiv", "allergic rhinitis", "migraine", "obesity", "anorexia nervosa", "bulimia", "eating disorder",
    "substance use disorder", "alcohol dependence", "opioid dependence", "infertility", "pregnan(?:t|cy)",
    "myocardial infarction", "heart attack", "(?:isch(?:a)?emic|h(?:a)?emorrhagic) stroke",
    "pneumonia", "sepsis", "lupus", "psoriasis", "glaucoma",
    "cataracts?", "gout", "an(?:a)?emia", "crohn'?s disease", "ulcerative colitis", "cirrhosis", "osteoporosis",
)
_EN_QUALIFIER = (r"(?:(?:type [12]|stage (?:[1-4]|i{1,3}|iv)|chronic|acute|severe|mild|moderate|major"
                 r"|generali[sz]ed|rheumatoid|allergic|metastatic|early[- ]onset|breast|lung|prostate"
                 r"|colon|liver|gastric|pancreatic|postpartum|clinical) )*")
_EN_TAIL = r"(?: (?:stage (?:[1-4]|i{1,3}|iv)|type [12])| with (?:" + "|".join(_EN_TERMS) + r"))?"
#: An operation on a body part names someone's treatment (`knee surgery`, `hip replacement`); a bare
#: `surgery` or `operation` does not.
_EN_PROCEDURES = (r"(?:knee|hip|back|spinal|spine|shoulder|heart|open-heart|bypass|brain|eye|cardiac|bariatric|"
                  r"hernia|cataract|gallbladder|acl|ankle|wrist|cancer|kidney|liver|lung) "
                  r"(?:surgery|operation|replacement|transplant)|bone marrow transplant|chemotherapy|dialysis")
#: A condition said of its holder as what they are (`I'm diabetic`, `she is epileptic`, `I'm a type 1 diabetic`):
#: the adjective alone is no one's (`diabetic-friendly recipes`), so only after its holder.
_EN_HOLDER_IS = r"\b(?:i['’]m|i am|i was|(?:he|she)(?:['’]s| is| was)|(?:they|we)(?:['’]re| are| were)) (?:an? )?"
_EN_ADJECTIVES = (r"(?:type [12] )?(?:pre-?)?diabetic|epileptic|asthmatic|an(?:a)?emic|autistic|schizophrenic|bipolar"
                  r"|hypertensive|co?eliac|anorexic|bulimic|hiv[- ]positive")
#: Words before a condition's name that make it no one's condition: an economy's (`the economic depression of 1929`,
#: `the Great Depression`) or the weather's (`a tropical depression`).
_NOT_A_PATIENTS = ("tropical", "economic", "great", "financial")
#: ... and what after it does so: an idiom (`a stroke of luck`), a year (`the depression of 1929`).
_FIGURE_AFTER = re.compile(r"^ of (?:(?:good |bad |sheer )?luck|genius|fortune|midnight|inspiration|brilliance|"
                           r"(?:the|a) (?:pen|brush)|(?:1[89]|20)\d\d)\b", re.I)
_NOT_AFTER = "".join(f"(?<!{w} )" for w in _NOT_A_PATIENTS)  # `health-en`'s lookbehinds
_FIGURE_BEFORE = re.compile(rf"\b(?:{'|'.join(_NOT_A_PATIENTS)})[ -]$", re.I)


def figure_of_speech(before: str, after: str) -> bool:
    """Whether a condition's name, `before` and `after` it the text around it, names no one's health: the
    economy's, the weather's, an idiom's (for the ICD-10 terms as for `health-en`'s)."""
    return bool(_FIGURE_BEFORE.search(before) or _FIGURE_AFTER.match(after))


#: What a condition names when it is followed by one of these words: a topic, not someone's health (`the cancer
#: classifier`, `the breast cancer dataset`, `Alzheimer's disease research`).
TOPIC_AFTER = re.compile(
    r"^['’]?s?[\s-]*(?:data(?:\s?sets?|base|\b)|corpus|benchmark|classifier|registry|research|awareness|"
    r"foundation|society|association|institute|charity|数据集|数据库|研究|基金会|协会)", re.I)
#: What makes `deletions` (ICD-10's Q93 chromosome deletions) a count of a change's removed lines: git's diffstat
#: (`6 deletions(-)`), a number just before (`45 deletions`, `-45 (deletions)`), a number after it as its key's
#: (GitHub's `"deletions": 45`), or a change's other counts near it (`additions`, `files changed`).
_DIFFSTAT_AFTER = re.compile(r"\([+-]\)")
_CHANGE_COUNT_BEFORE = re.compile(r"(?<![\w.])[-+−]?\d[\d,]*\s*\(?$")
_CHANGE_COUNT_AFTER = re.compile(r"[\"']?\s*[:=]\s*\d")
_CHANGE_COUNTS_AROUND = re.compile(r"(?i)\b(?:additions|insertions|changed[ _]files|files? changed|changes)\b")


def change_count(value: str, before: str, after: str) -> bool:
    """Whether `value`, with `before` and `after` the text around it, counts a change's lines (`12 deletions`),
    no one's condition."""
    if _DIFFSTAT_AFTER.match(after):
        return True
    return value.strip().lower() in ("deletion", "deletions") and bool(
        _CHANGE_COUNT_BEFORE.search(before) or _CHANGE_COUNT_AFTER.match(after)
        or _CHANGE_COUNTS_AROUND.search(before[-80:] + " " + after[:80]))


_ZH_TERMS = ("糖尿病", "高血压", "抑郁症", "抑郁障碍", "焦虑症", "焦虑障碍", "双相情感障碍", "精神分裂症", "哮喘",
             "白血病", "淋巴瘤", "肿瘤", "[肺胃肝肠乳腺宫颈食管胰腺甲状腺鼻咽前列腺]{1,3}癌", "乙肝", "丙肝",
             "肝炎", "肺结核", "癫痫", "肾病", "肾衰竭", "心力衰竭", "冠心病", "心脏病", "关节炎",
             "阿尔茨海默病", "帕金森病", "痴呆", "自闭症", "孤独症", "艾滋病", "HIV阳性", "过敏性鼻炎",
             "偏头痛", "肥胖症", "厌食症", "不孕不育", "怀孕", "脑卒中", "中风", "心肌梗死", "心肌梗塞", "心梗",
             "脑梗死", "脑梗", "脑出血", "肺炎", "败血症", "红斑狼疮", "银屑病", "青光眼", "白内障", "痛风",
             "贫血", "肝硬化", "骨质疏松", "胃溃疡", "恶性肿瘤", "甲亢", "甲减")
_ZH_QUALIFIER = (r"(?:[12一二]型|[一二三四1-4]级|[一二三四1-4]期|重度|中度|轻度|慢性|急性|晚期|早期|过敏性|广泛性"
                 r"|陈旧性|类风湿|原发性|继发性)*")

RECOGNIZERS = [
    PatternRecognizer("health-en", "HEALTH_CONDITION", "health", (
        (rf"(?i:\b{_NOT_AFTER}{_EN_QUALIFIER}(?:{'|'.join(_EN_TERMS)}){_EN_TAIL}\b)", 0.7),
        (r"\bAIDS\b", 0.7),
        (rf"(?i:\b(?:{_EN_PROCEDURES})\b)", 0.6),
        (rf"(?i:{_EN_HOLDER_IS}(?P<value>{_EN_ADJECTIVES})\b)", 0.7),
    )),
    PatternRecognizer("lab-value", "LAB_VALUE", "health", (
        (r"(?i:\b(?:hba1c|a1c|glycated ha?emoglobin)|糖化血红蛋白)[^\d\n]{0,20}?"
         r"(?P<value>\d{1,2}(?:\.\d{1,2})?\s?%)", 0.7),
    )),
    PatternRecognizer("allergy", "ALLERGY", "health", (
        (r"(?i:\b(?!(?:an?|the|no|any|known|food|drug|severe|mild|serious|an)\b)[a-z]+(?:-[a-z]+)? allerg(?:y|ies)\b)",
         0.6),
        (r"(?i:\ballergic to (?:[a-z]+ ){0,2}?[a-z]+)", 0.6),
    )),
    PatternRecognizer("health-zh", "HEALTH_CONDITION", "health", (
        (rf"{_ZH_QUALIFIER}(?:{'|'.join(_ZH_TERMS)})", 0.7),
    )),
]




def condition_names() -> list[str]:
    """The terms above as plain names, en and zh (the local judge's contrast for a diagnosis,
    `ec2audit.detect.value_checks`): an optional letter dropped, an alternative or a character class read
    as each of its choices, a repeated class (`[肺胃…]{1,3}癌`) as its organs."""
    names: list[str] = []
    todo = [re.sub(r"\(\?:\w\)\?|\w\?", "", t.replace("'?", "'")) for t in (*_EN_TERMS, *_ZH_TERMS)]
    while todo:
        term = todo.pop(0)
        if "{1,3}" in term:
            names += [organ + "癌" for organ in ("肺", "胃", "肝", "肠", "乳腺", "宫颈", "食管", "胰腺", "甲状腺",
                                                 "鼻咽", "前列腺")]
        elif m := re.search(r"\(\?:([^()]*)\)|\[(\w+)\]", term):
            choices = m.group(1).split("|") if m.group(1) is not None else list(m.group(2))
            todo += [term[:m.start()] + c + term[m.end():] for c in choices]
        else:
            names.append(term)
    return names
