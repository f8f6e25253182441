"""Government IDs by shape and context where Presidio's checks are too strict for pre-labels:
US SSN-shaped numbers (Presidio drops never-issued areas such as 666; a group of zeros, `000-00-0000`, is a
form's example everywhere), UK National Insurance numbers, Spanish DNI and NIE numbers (their check letter
decides), Nordic personal numbers after their name (`CPR`, `personnummer`: a birth date, then four or five
digits) and passport numbers next to the word passport.
"""

from __future__ import annotations

from ec2audit.annotate.recognizers.base import PatternRecognizer


def _ssn_ok(value: str) -> bool:
    """No group all zeros: the SSA never issues one, and forms show `000-00-0000` as the example."""
    return not any(set(group) == {"0"} for group in value.split("-"))


_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def dni_ok(value: str) -> bool:
    """A Spanish DNI (8 digits) or NIE (X/Y/Z and 7 digits, read as 0/1/2) whose letter is the number mod 23's."""
    value = value.replace("-", "").upper()
    number = str("XYZ".index(value[0])) + value[1:-1] if value[0] in "XYZ" else value[:-1]
    return number.isdigit() and _DNI_LETTERS[int(number) % 23] == value[-1]


def nordic_ok(value: str) -> bool:
    """A birth date first: DDMMYY (Denmark, Norway, Finland) or YYMMDD (Sweden)."""
    d = value[:6]
    day_first = 1 <= int(d[:2]) <= 31 and 1 <= int(d[2:4]) <= 12
    year_first = 1 <= int(d[2:4]) <= 12 and 1 <= int(d[4:6]) <= 31
    return day_first or year_first


RECOGNIZERS = [
    PatternRecognizer("ssn-shape", "US_SSN", "government_id", (
        (r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])", 0.55),
    ), validate=_ssn_ok),
    PatternRecognizer("uk-nino", "UK_NINO", "government_id", (
        (r"(?<![\w])[A-Z]{2}(?: \d{2} \d{2} \d{2} |\d{6})[A-D](?![\w])", 0.65),
    )),
    PatternRecognizer("es-dni", "ES_NIF", "government_id", (
        (r"(?<![\w-])(?:\d{8}|[XYZ]\d{7})-?[A-Z](?![\w-])", 0.7),
    ), validate=dni_ok),
    PatternRecognizer("nordic-personal-number", "NORDIC_PERSONAL_NUMBER", "government_id", (
        (r"(?i:\b(?:cpr(?:-nr\.?|-nummer)?|personnummer|personnr\.?|fødselsnummer|henkilötunnus|hetu)\b)"
         r"[^\n\d]{0,30}?(?P<value>\d{6}[-+A]?\d{4,5})(?![\w-])", 0.7),
    ), validate=nordic_ok),
    PatternRecognizer("passport", "PASSPORT", "government_id", (
        (r"(?i:passport)(?:\s*(?:no\.?|number|#|nr\.?))?\s*[:：#]?\s*(?P<value>(?=[A-Z0-9]*\d)[A-Z0-9]{6,9})(?![\w])",
         0.7),
        (r"护照(?:号码?)?\s*[:：]?\s*(?P<value>(?=[A-Z0-9]*\d)[A-Z0-9]{6,9})(?![\w])", 0.7),
        # "the passport number on the form is YB284716"
        (r"(?i:passport)(?:\s*(?:no\.?|number|#|nr\.?))?[^\n.;:\d]{1,30}?\b(?i:is|was|reads)\s+"
         r"(?P<value>(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6,9})(?![\w])", 0.6),
    )),
]
