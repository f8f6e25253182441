"""Business confidential: organisations by their legal form (`苏州澄湖微电子有限公司`, `Acme Holdings Ltd`),
the figures a business keeps to itself (`budget ¥3.2M`, `项目总预算为人民币3280万元`, `valued at $48m`) and
the code names of its deals and projects (`Project Falcon`, `代号“青鸟”`).

An employer or a client company is business-confidential context; the legal-form suffix is what
makes a name a company name. An amount is a business figure when a word for one stands just before it
(a salary stays financial); a code name needs the word that introduces it.
"""

from __future__ import annotations

from ec2audit.annotate.recognizers.base import PatternRecognizer
from ec2audit.annotate.recognizers.finance import AMOUNT, amount_ok

_HAN = "\\u4e00-\\u9fff"
_ZH_FORM = "股份有限公司|有限责任公司|有限公司|集团公司|集团"
_EN_FORM = r"(?:Ltd|Limited|Inc|LLC|LLP|PLC|plc|GmbH|AG|B\.V\.|N\.V\.|S\.A\.|Co\., Ltd|Corp|Corporation)\.?"

_FIGURE_WORDS = (r"budget|revenue|turnover|sales|valuation|valued at|pre-money|post-money|ARR|MRR|EBITDA|profit"
                 r"|gross margin|contract value|deal (?:size|value)|purchase price|acquisition price|funding|"
                 r"raised|raise|investment|capex|opex|forecast|pipeline|"
                 r"预算|总预算|营收|营业收入|营业额|销售额|估值|融资|投资额|合同金额|合同额|合同总额|总价|报价|"
                 r"中标价|利润|净利润|毛利|成交额|交易额|采购额|回款")
_CODE_NAME_WORDS = r"Project|Operation|Codename|Code name|Code-name|Deal"
#: What follows "Project" in a README or a plan without naming a project (`Project License`, a badge's
#: text; `Project Templates`, `Project Contributors`, `Project Manager`).
_PROJECT_WORDS = frozenset(
    "license licence licenses templates template contributors contributor maintainers members team lead leads "
    "manager managers management status description overview homepage home website page pages links goals "
    "structure layout setup documentation docs details information info summary roadmap board report owner "
    "owners plan planning scope timeline files settings configuration config dependencies requirements "
    "support sponsors governance history background funding resources updates news name title".split())


def _code_name(value: str) -> bool:
    """A code name, not a word a document puts after "Project" (`Project License`)."""
    return value.split()[0].lower() not in _PROJECT_WORDS
_RATE_WORDS = (r"gross margin|net margin|operating margin|margin|growth rate|churn|conversion rate|win rate|"
               r"毛利率|净利率|利润率|增长率|增速|流失率|转化率|中标率|市场份额|market share")
_USCC_CHARS = "0123456789ABCDEFGHJKLMNPQRTUWXY"


def uscc_ok(value: str) -> bool:
    """China's unified social credit code (GB 32100-2015) by its shape: registering office and kind, a region
    code (11–82…), a letter among the last ten. Its check character is not required: task data is made up."""
    value = value.upper()
    return (len(value) == 18 and all(c in _USCC_CHARS for c in value) and value[2:8].isdigit()
            and 11 <= int(value[2:4]) <= 82 and any(c.isalpha() for c in value[8:]))


RECOGNIZERS = [
    PatternRecognizer("business-figure", "BUSINESS_FIGURE", "business", (
        (rf"(?i:(?<![A-Za-z])(?:{_FIGURE_WORDS})(?![a-z]))[^\n\d¥￥$€£]{{0,24}}?(?P<value>(?:[¥￥$€£]\s?)?{AMOUNT}"
         r"(?:元|\s?(?:USD|RMB|CNY|EUR))?)", 0.7),
    ), validate=amount_ok),
    PatternRecognizer("business-rate", "BUSINESS_FIGURE", "business", (
        (rf"(?i:(?<![A-Za-z])(?:{_RATE_WORDS})(?![a-z]))[^\n\d]{{0,16}}?(?P<value>\d{{1,3}}(?:\.\d{{1,2}})?\s?%)", 0.7),
    )),
    PatternRecognizer("uscc", "ORG_CREDIT_CODE", "business", (
        (r"(?<![0-9A-Za-z])[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}(?![0-9A-Za-z])", 0.8),
    ), validate=uscc_ok),
    PatternRecognizer("code-name", "CODE_NAME", "business", (
        (rf"\b(?:{_CODE_NAME_WORDS}) (?P<value>[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b", 0.5),
        (r"(?:代号|项目代号|内部代号|项目名称)[为是：:\s]*[“\"「『]?(?P<value>[\u4e00-\u9fffA-Za-z0-9]{2,8}?)"
         r"[”\"」』]", 0.5),
        (r"[“「『](?P<value>[\u4e00-\u9fff]{2,6})[”」』](?:项目|计划|行动)", 0.5),
    ), validate=_code_name),
    PatternRecognizer("company-zh", "ORGANIZATION", "business", (
        (rf"(?:(?<![{_HAN}])|(?<=[在于是为的与和及、：]))(?![在于是为的与和及])[{_HAN}]{{2,18}}?(?:{_ZH_FORM})", 0.6),
    )),
    # not the maker a public identifier names (an iCalendar's `PRODID:-//Google Inc//Google Calendar//EN`)
    PatternRecognizer("company-en", "ORGANIZATION", "business", (
        (rf"\b(?<!//)[A-Z][\w&'-]*(?: (?:[A-Z][\w&'-]*|&|and|of))*,? {_EN_FORM}(?![\w])", 0.6),
    )),
]
