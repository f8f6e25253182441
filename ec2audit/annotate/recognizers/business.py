"""Organisations by their legal form: `苏州澄湖微电子有限公司`, `Kestrel Biotech B.V.`, `Acme Holdings Ltd`.

An employer or a client company is business-confidential context; the legal-form suffix is what
makes a name a company name, so nothing else is proposed.
"""

from __future__ import annotations

from ec2audit.annotate.recognizers.base import PatternRecognizer

_HAN = "\\u4e00-\\u9fff"
_ZH_FORM = "股份有限公司|有限责任公司|有限公司|集团公司|集团"
_EN_FORM = r"(?:Ltd|Limited|Inc|LLC|LLP|PLC|plc|GmbH|AG|B\.V\.|N\.V\.|S\.A\.|Co\., Ltd|Corp|Corporation)\.?"

RECOGNIZERS = [
    PatternRecognizer("company-zh", "ORGANIZATION", "business", (
        (rf"(?:(?<![{_HAN}])|(?<=[在于是为的与和及、：]))(?![在于是为的与和及])[{_HAN}]{{2,18}}?(?:{_ZH_FORM})", 0.6),
    )),
    PatternRecognizer("company-en", "ORGANIZATION", "business", (
        (rf"\b[A-Z][\w&'-]*(?: (?:[A-Z][\w&'-]*|&|and|of))*,? {_EN_FORM}(?![\w])", 0.6),
    )),
]
