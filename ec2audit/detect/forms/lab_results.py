"""A lab result written as its test's code and a flag, or in words: "hepatitis B surface antigen positive" sent as
`"HBsAg": "POS"`, `HBsAg (+)`, `乙肝表面抗原阳性`, and back; "elevated PSA" as `PSA: H`, "HIV-1/2 antibody
non-reactive" as `HIV Ab negative`. The value is the finding (1.0) wherever any name of its test stands with a
flag of its result: after the name (with a colon, quotes, a bracket, "is", "test" between) or, in words, before it
("positive for HBsAg", "raised CRP"). Another test (`anti-HBs` for `HBsAg`, `hemoglobin` inside `glycated
hemoglobin`) or the other flag (`HBsAg: NEG`, "not detected") is no hit. A value holding more than a test and a
flag (a number, a date) is left to the other tiers."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "lab_results.test"

#: each test's names, codes and Chinese names as the text view reads them (lower case); a test is its first name
_TESTS = (
    ("hbsag", "hbs ag", "hbs-ag", "hepatitis b surface antigen", "hep b surface antigen", "hbv surface antigen",
     "乙肝表面抗原", "乙型肝炎表面抗原"),
    ("anti-hbs", "hbsab", "hbs ab", "anti hbs", "hepatitis b surface antibody", "hep b surface antibody",
     "乙肝表面抗体"),
    ("hbeag", "hbe ag", "hepatitis b e antigen", "乙肝e抗原"),
    ("anti-hbc", "hbcab", "hbc ab", "anti hbc", "hepatitis b core antibody", "乙肝核心抗体"),
    ("hcv ab", "anti-hcv", "anti hcv", "hcv antibody", "hepatitis c antibody", "hep c antibody", "丙肝抗体",
     "丙型肝炎抗体"),
    ("hcv rna", "hepatitis c rna", "hep c rna", "丙肝rna"),
    ("hiv", "hiv-1/2", "hiv 1/2", "hiv-1/2 ab", "hiv 1/2 ab", "hiv-1/2 antibody", "hiv 1/2 antibody", "hiv ab",
     "hiv antibody", "hiv ag/ab", "hiv test", "hiv antibody test", "human immunodeficiency virus", "艾滋病抗体",
     "hiv抗体", "艾滋病病毒抗体"),
    ("syphilis", "syphilis serology", "rpr", "vdrl", "tppa", "treponema pallidum", "梅毒", "梅毒抗体",
     "梅毒螺旋体抗体"),
    ("quantiferon", "quantiferon-tb gold", "igra", "t-spot", "t-spot.tb", "tb gold", "结核感染t细胞检测"),
    ("covid-19", "covid", "sars-cov-2", "covid pcr", "covid-19 pcr", "sars-cov-2 pcr", "新冠", "新冠核酸", "核酸"),
    ("pregnancy test", "hcg", "β-hcg", "beta-hcg", "beta hcg", "urine hcg", "serum hcg", "验孕", "妊娠试验"),
    ("drug screen", "urine drug screen", "uds", "tox screen", "toxicology screen", "尿检", "毒品检测"),
    ("hba1c", "a1c", "hb a1c", "hemoglobin a1c", "haemoglobin a1c", "glycated hemoglobin", "glycated haemoglobin",
     "glycosylated hemoglobin", "glycosylated haemoglobin", "糖化血红蛋白"),
    ("psa", "prostate-specific antigen", "prostate specific antigen", "前列腺特异性抗原"),
    ("tsh", "thyroid-stimulating hormone", "thyroid stimulating hormone", "thyrotropin", "促甲状腺激素", "促甲状腺素"),
    ("egfr", "gfr", "estimated gfr", "glomerular filtration rate", "estimated glomerular filtration rate",
     "肾小球滤过率", "估算肾小球滤过率"),
    ("inr", "pt/inr", "international normalized ratio", "international normalised ratio", "国际标准化比值"),
    ("crp", "hs-crp", "hscrp", "c-reactive protein", "c reactive protein", "c反应蛋白", "c-反应蛋白"),
    ("ana", "antinuclear antibody", "antinuclear antibodies", "anti-nuclear antibody", "抗核抗体"),
    ("troponin", "ctni", "ctnt", "hs-ctni", "hs-ctnt", "hs troponin", "肌钙蛋白"),
    ("ldl", "ldl-c", "ldl cholesterol", "low-density lipoprotein", "低密度脂蛋白"),
    ("alt", "sgpt", "alanine aminotransferase", "谷丙转氨酶", "丙氨酸氨基转移酶"),
    ("ast", "sgot", "aspartate aminotransferase", "谷草转氨酶", "天门冬氨酸氨基转移酶"),
    ("hemoglobin", "haemoglobin", "hgb", "血红蛋白"),
    ("ferritin", "serum ferritin", "铁蛋白"),
    ("d-dimer", "d dimer", "d-二聚体"),
)
_TEST_OF = {name: test[0] for test in _TESTS for name in test}
#: each result's flags, longest first where one starts another ("not detected" before "detected")
_FLAGS = {
    "positive": ("positive", "pos", "reactive", "detected", "+ve", "阳性", "(+)", "+"),
    "negative": ("negative", "neg", "non-reactive", "nonreactive", "non reactive", "not detected", "undetected",
                 "undetectable", "-ve", "阴性", "(-)", "-", "−"),
    "high": ("high", "h", "elevated", "raised", "increased", "above range", "偏高", "升高", "增高", "↑"),
    "low": ("low", "l", "decreased", "reduced", "below range", "偏低", "降低", "减低", "↓"),
}
_RESULT_OF = {flag: result for result, flags in _FLAGS.items() for flag in flags}
_SIGNS = "+−-"  # "-" last: a class of them ends with it
#: flags a sentence writes before the test ("positive for HBsAg", "elevated PSA")
_BEFORE = ("positive", "negative", "reactive", "non-reactive", "elevated", "raised", "high", "low", "decreased",
           "reduced")
_WORDS = "|".join(re.escape(f) for f in sorted(_RESULT_OF, key=len, reverse=True) if f not in _SIGNS)
#: what stands between a test's name and its flag: punctuation of a record, "is", "test", "结果为"
_BETWEEN = r"(?:[\s\"'`:=|,\-–(\[{>]|\b(?:test|result|screen|is|was|came back|returned)\b|检测|结果|为|呈|是)*"
#: a flag after the name: a word (not "positive for", someone else's), or a bare sign no word follows (a list's dash)
_FLAG_AFTER = re.compile(rf"{_BETWEEN}(?:(?P<flag>{_WORDS})(?![0-9a-z+\-−])(?!\s*for\b)"
                         rf"|(?P<sign>[{_SIGNS}])(?![0-9a-z+\-−]|\s*[-:]?\s*[0-9a-z\u4e00-\u9fff]))")
_FLAG_BEFORE = re.compile(rf"(?<![0-9a-z\-])(?P<flag>{'|'.join(_BEFORE)})\s+(?:for\s+)?(?:an?\s+|the\s+)?$")
_ANY_TEST = re.compile(rf"(?<![0-9a-z\-])(?:{'|'.join(map(re.escape, sorted(_TEST_OF, key=len, reverse=True)))})"
                       rf"(?![0-9a-z])")
_ANY_FLAG = re.compile(rf"(?<![0-9a-z+\-−])(?:{_WORDS}|[{_SIGNS}])(?![0-9a-z+\-−])")
_FILLER = re.compile(r"(?:\b(?:test|result|screen|screening|serology|status|level|for|is|was)\b"
                     r"|检测|结果|检查|筛查|为|呈|[\s:,.;=()\[\]])*")
_REACH = 30  # characters around a test's name its flag stands in


def lab_result(value: str) -> tuple[str, str] | None:
    """(test, result) of a value that is one test's name and one flag, fillers aside ("HBsAg: POS", "hepatitis
    B surface antigen positive", "positive for HCV antibody"); None for anything else."""
    norm = normalize_text(value).strip()
    test = _ANY_TEST.search(norm)
    if not test:
        return None
    rest = norm[:test.start()] + " " + norm[test.end():]
    flags = list(_ANY_FLAG.finditer(rest))
    if len(flags) != 1 or not _FILLER.fullmatch(rest[:flags[0].start()] + " " + rest[flags[0].end():]):
        return None
    return _TEST_OF[test.group()], _RESULT_OF[flags[0].group()]


@register
class LabResults(Form):
    name = "lab_results"
    kinds = (KIND,)

    def compile(self, index: PatternIndex) -> None:
        # context: the flag within `_REACH` characters on either side of the test's name
        self._results = {i: lab_result(cu.unit.value) for i, cu in enumerate(self.units)}
        names = {test[0]: test for test in _TESTS}
        self.compile_forms(index, {KIND: lambda cu: names[found[0]] if (found := lab_result(cu.unit.value)) else ()},
                           context=_REACH)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            found = _result_at(text, start, end)
            if found:
                span = view.view.to_original(start, end)
                for i in units:
                    if self._results[i] == found:
                        yield Hit(i, *span, "forms.lab_result", LITERAL)


def _result_at(text: str, start: int, end: int) -> tuple[str, str] | None:
    """(test, result) the text writes at a test's name that starts at `start`: the longest name there (`hemoglobin`
    inside `glycated hemoglobin` is the HbA1c's), its flag after it, else in words before it."""
    name = next((m for m in _ANY_TEST.finditer(text, max(0, start - _REACH), end + _REACH)
                 if m.start() <= start < m.end()), None)
    if name is None or name.start() != start:
        return None
    after = _FLAG_AFTER.match(text, name.end(), name.end() + _REACH)
    before = _FLAG_BEFORE.search(text, max(0, start - _REACH), start)
    flag = (after["flag"] or after["sign"]) if after else before["flag"] if before else None
    return (_TEST_OF[name.group()], _RESULT_OF[flag]) if flag else None
