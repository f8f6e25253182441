"""Record numbers that insurers, hospitals and membership schemes prefix with what they number: a policy
(`POL-88321-B`), a claim (`CLM-2026-004417`), an insurance file (`INS-20931-7`), a member (`MBR-5520193`), a
patient's medical record (`MRN 00482913`). Presidio has none of them, and each one names a person's file.

A prefix glued to its number by a hyphen is part of the id as it is written, so the unit is the whole token; a
prefix or a word before a separate number (`MRN 00482913`, `policy no. 88321`) is context, the unit is the
number. Four digits or more (five in a prefixed id): `CLM-12` is a row, not a claim, `INS-2093` an issue key as often.
"""

from __future__ import annotations

import re

from ec2audit.annotate.recognizers.base import PatternRecognizer, digits

#: (recognizer, entity, dimension, prefixes, words for the record)
#: No prefix a developer's text uses for something else: `PID 48213` is a process, `PAT-` a personal access token,
#: `SUB-`, `GRP-`, `MEM-` are issue keys as often as members.
_KINDS = (("insurance-number", "INSURANCE_NUMBER", "financial", r"INS|POL|CLM|MBR",
           r"policy|claim|member(?:ship)?|subscriber|insurance"),
          ("medical-record-number", "MEDICAL_RECORD_NUMBER", "health", r"MRN|EHR|EMR",
           r"medical record|patient|chart"))
#: The id after its prefix and a hyphen: digit groups, and letters only after a first digit (`-88321-B`).
_GLUED = r"-\d[\dA-Z]*(?:-[\dA-Z]+){0,3}"
#: A separate number (`00482913`, `4417-22`) after a word for it.
_NUMBER = r"[A-Z]{0,3}\d[\dA-Z]*(?:-[\dA-Z]+){0,3}"
#: The fields the recognizers propose a record number under (`insurance_number`, `medical_record_number`).
RECORD_FIELDS = frozenset(kind[1].lower() for kind in _KINDS)
_ALL_PREFIXES = "|".join(kind[3] for kind in _KINDS)
_ALL_WORDS = "|".join(kind[4] for kind in _KINDS)
_PREFIXED = re.compile(rf"(?:{_ALL_PREFIXES}){_GLUED}")
#: What says the number after a word is the record's: `policy no.`, `claim #`, `member ID:`. A word alone is not
#: enough (`the policy 2024 update`); a prefix is (`MRN 00482913`).
_MARKER = r"(?:\s*(?i:no\.?|nr\.?|number|num|id|#)\s*[:#]?|\s*[:#])"
_WORD_BEFORE = re.compile(rf"(?:^|[^\w-])(?:(?:{_ALL_PREFIXES})(?:{_MARKER})?|(?i:{_ALL_WORDS}){_MARKER})\s*$")
_DATE = re.compile(r"\d{4}-\d\d-\d\d|\d\d-\d\d-\d{4}")


def _long_enough(value: str) -> bool:
    """Four digits or more after a word for it, five in a prefixed id (`INS-2093` is as often an issue key in
    project INS as a file), and no date (`claim: 2026-03-01` is when, not which)."""
    return len(digits(value)) >= (5 if _PREFIXED.fullmatch(value) else 4) and not _DATE.fullmatch(value)


def record_number(value: str, before: str = "") -> bool:
    """Whether `value`, found after `before`, is such a record number: by its own prefix or the word before it."""
    return _long_enough(value) and bool(_PREFIXED.fullmatch(value) or
                                        re.fullmatch(_NUMBER, value) and _WORD_BEFORE.search(before[-40:]))


RECOGNIZERS = [
    PatternRecognizer(name, entity, dimension, (
        (rf"(?<![\w-])(?:{prefixes}){_GLUED}(?![\w-])", 0.6),
        (rf"(?<![\w-])(?:(?:{prefixes})(?:{_MARKER})?|(?i:{words}){_MARKER})\s*(?P<value>{_NUMBER})(?![\w-])", 0.6),
    ), validate=_long_enough)
    for name, entity, dimension, prefixes, words in _KINDS
]
