"""Chinese personal data: mobile numbers, 18-digit resident IDs (GB 11643 checksum), names.

Presidio's English models see none of these. Names are only proposed with a cue that a
person is meant (`姓名：`, or a common surname followed by 先生/女士/经理…), never from characters alone.
"""

from __future__ import annotations

from ec2audit.annotate.recognizers.base import PatternRecognizer, digits

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"
_SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
             "姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")
_HONORIFICS = "先生|女士|小姐|老师|医生|经理|总监|主任|教授|同学|律师"


def resident_id_ok(value: str) -> bool:
    """Mainland resident ID: 17 digits, then a check character (ISO 7064 MOD 11-2)."""
    body, check = value[:17], value[17:].upper()
    if len(value) != 18 or not body.isdigit():
        return False
    return _ID_CHECK[sum(int(d) * w for d, w in zip(body, _ID_WEIGHTS, strict=True)) % 11] == check


def _mobile_ok(value: str) -> bool:
    d = digits(value)
    return len(d) == 11 or (len(d) == 13 and d.startswith("86"))


RECOGNIZERS = [
    PatternRecognizer("cn-mobile", "CN_MOBILE", "contact", (
        (r"(?<![\d.])(?:\+?86[- ]?)?1[3-9]\d(?:[- ]?\d{4}){2}(?![\d.])", 0.85),
    ), validate=_mobile_ok),
    PatternRecognizer("cn-resident-id", "CN_RESIDENT_ID", "government_id", (
        (r"(?<![\dA-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx]"
         r"(?![\dA-Za-z])", 0.95),
    ), validate=resident_id_ok),
    PatternRecognizer("zh-person-name", "PERSON", "person_name", (
        (r"(?:姓名|联系人|收件人|患者|客户|员工)\s*[:：]\s*(?P<value>[\u4e00-\u9fff]{2,4})(?![\u4e00-\u9fff])", 0.7),
        (rf"(?P<value>[{_SURNAMES}][\u4e00-\u9fff]{{1,2}}?)(?:{_HONORIFICS})", 0.5),
    )),
]
