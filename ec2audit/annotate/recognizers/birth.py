"""Dates of birth: a date right after a word that says it is one (`DOB: 03/14/1961`, `born on March 8, 1987`,
a vCard's `BDAY:1984-03-12`, `my date of birth is 1971-09-14`, `出生日期：1987年3月8日`), in the forms people
write dates. A date alone is not proposed: most dates in task data are when something happened, not when someone
was born.
"""

from __future__ import annotations

from ec2audit.annotate.recognizers.base import PatternRecognizer

_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
DATE = (r"(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}|\d{4}年\d{1,2}月\d{1,2}[日号]?"
        rf"|{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}|\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTH},? \d{{4}})")

RECOGNIZERS = [
    PatternRecognizer("date-of-birth", "DATE_OF_BIRTH", "other", (
        (rf"(?i:\b(?:DOB|D\.O\.B\.|date of birth|birth ?date|birthday|born(?: on)?|geboren(?: am)?|né(?:e)? le|"
         r"BDAY(?:;[\w=-]+)*)\b)(?:\s+(?:is|was)\b)?"
         rf"[\s:=\"'-]{{0,4}}(?P<value>{DATE})(?![\d])", 0.7),
        (rf"(?:出生日期|出生年月日|出生年月|生日|出生于|出生)[\s:：为是]{{0,3}}(?P<value>{DATE})(?![\d])", 0.7),
    )),
]
