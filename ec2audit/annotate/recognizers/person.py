"""English person names from the US Census name lists (PyPI `names`): spaCy's small model misses
most names in logs, tables and e-mail headers (`From: Emily Rutherford <…>`, `HF-1041,Emily Rutherford`).

A name is a census first name, an optional second given name, an optional initial, optional particles
(`van der`, `de la`) and a capitalised last word that is a census surname (or follows a particle):
`Sophie van der Meulen`, `Marcus Delaney`. `May Report` is not one: `Report` is no surname. The census
knows few European surnames (`Marguerite Lindqvist`): Faker's lists of the European locales add theirs.
A name the census does not know (`Priyanka Raman`) is proposed after a key that names a person (`CN=`,
`candidate=`, `name:`), before a mailbox's address (`Priyanka Raman <p.raman@…>`) or as a copyright's holder
(`Copyright (c) 2024 Priyanka Raman`, `© 2023 Wei Zhang`, `SPDX-FileCopyrightText: 2023 Siobhán Ní Bhriain`).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from ec2audit.annotate.recognizers.base import PatternRecognizer

_PARTICLES = "van|der|den|de|la|le|von|di|du|da|del|dos|ter|al|bin|ben|mac"
#: Census first names that open English sentences far more often than they name anyone: `In August 2025`,
#: `My Lord`, `See Also`, `Many Thanks`, `Merry Christmas`.
_SENTENCE_OPENERS = frozenset({"IN", "MY", "SEE", "MANY", "MERRY"})


#: The names examples and forms use for anybody: never a person to protect.
PLACEHOLDER_NAMES = frozenset({"john doe", "jane doe", "john q. public", "张三", "李四", "王五", "赵六"})


@cache
def _census() -> tuple[frozenset[str], frozenset[str]]:
    """(first names, surnames), upper-case, from the lists the `names` package ships."""
    import names

    folder = Path(names.__file__).parent

    def read(*files: str) -> frozenset[str]:
        return frozenset(line.split(maxsplit=1)[0] for f in files
                         for line in (folder / f).read_text().splitlines() if line.strip())

    return read("dist.female.first", "dist.male.first"), read("dist.all.last") | _faker_surnames()


#: Locales whose surnames the US census lacks (a name's first word must still be a census first name).
_SURNAME_LOCALES = ("en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_PT", "pl_PL", "nl_NL", "sv_SE", "da_DK",
                    "no_NO", "fi_FI", "cs_CZ", "yo_NG")


def _faker_surnames() -> frozenset[str]:
    """Faker's surnames of `_SURNAME_LOCALES`, upper-case; only the ASCII ones, the only ones the pattern reads."""
    import importlib

    found: set[str] = set()
    for locale in _SURNAME_LOCALES:
        names = getattr(importlib.import_module(f"faker.providers.person.{locale}").Provider, "last_names", ())
        found.update(n.upper() for n in (names.keys() if isinstance(names, dict) else names)
                     if isinstance(n, str) and n.isascii() and n.isalpha())
    return frozenset(found)


def _census_name(value: str) -> bool:
    words = value.split()
    if len(words) < 2:  # what trimming left of `May Report`
        return False
    first, last = _census()
    particle = any(w in _PARTICLES.split("|") for w in words[1:-1])
    opener = words[0].upper()
    return opener in first and opener not in _SENTENCE_OPENERS and (particle or words[-1].upper() in last)


#: Where a sentence, a line or a list item starts: the place of an imperative's verb.
_SENTENCE_START = re.compile(r"(?:\A|[.!?:;][ \t]+|\n[ \t]*(?:[-*•>][ \t]+|\d+[.)][ \t]+)?|[\"'“‘(][ \t]*)\Z")


def _after_imperative(text: str, start: int, end: int) -> tuple[int, int]:
    """No candidate (an empty span) for a sentence's first word before a name (`Ping Dana Whitfield about the
    lease`, `Mark Dana Whitfield as paid`): an imperative's verb that the census also lists as a given name. The
    name after it is a candidate of its own (the pattern is looked for at every word)."""
    words = text[start:end].split(" ")
    second_given = len(words) >= 3 and words[1][0].isupper()  # not a particle: `From: Sophie van der Meulen`
    if second_given and _SENTENCE_START.search(text, max(0, start - 8), start) and _census_name(" ".join(words[1:])):
        return start, start
    return start, end


#: Keys whose value is a person wherever they stand: a calendar's `CN=`, a vCard's `FN:`, a log's `candidate=`,
#: `name:`, a git commit's `Author:` and its trailers (`Signed-off-by:`), a runbook's or a ticket's people
#: (`On-call:`, `Assignee:`).
_NAME_KEYS = (r"CN|(?-i:FN)|candidate|applicant|claimant|patient|customer|employee|attendee|organizer|full_?name|name|"
              r"author|committer|co-authored-by|signed-off-by|reviewed-by|reported-by|tested-by|acked-by|"
              r"on-?call|assignee|reporter|reviewer|maintainer|owner")
#: A mailbox's address after its display name (`Oluwaseun Adeyemi <seun@…>` in `git shortlog -sne`, a `From:`
#: header, a package's `author`; `Renée Dubois (renee@…)` in a forwarded mail), and git blame's date after its
#: author (`(Oluwaseun Adeyemi 2026-11-23 09:41:57 +0000  1)`): the words before are a person's name even where no
#: name list knows it.
NAME_AFTER = re.compile(r"[ \t]*<[^<>@\s]+@[^<>\s]+>|[ \t]*\([^()@\s]+@[^()\s]+\)|"
                        r"[ \t]+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}[ \t]+\d+\)")
#: A capitalised word of a name in any Latin script (`Tomás`, `Łukasz`, `Zoë`), its lower-case letters after the first.
_UPPER, _LOWER = "A-ZÀ-ÖØ-ÞĀ-Ž", "a-zß-öø-ÿā-ž"
_NAME_WORD = rf"[{_UPPER}][{_LOWER}]+"
_NAME_WORDS = rf"{_NAME_WORD}(?:['’-][{_UPPER}]?[{_LOWER}]+)*(?: {_NAME_WORD}(?:['’-][{_UPPER}]?[{_LOWER}]+)*){{1,3}}"
#: Words of a mailbox's display name that make it a role's or a program's, not a person's (`Reply To`,
#: `Dependabot Bot`, `GitHub Actions`, `Billing Team`).
_ROLE_WORDS = frozenset({
    "bot", "robot", "team", "support", "admin", "administrator", "reply", "noreply", "notifications", "notification",
    "service", "services", "build", "builds", "automation", "system", "info", "sales", "billing", "help", "desk",
    "helpdesk", "github", "gitlab", "actions", "dependabot", "renovate", "mailer", "daemon", "postmaster",
    "webmaster", "security", "alerts", "newsletter",
    # a company's or a project's (`Google LLC`, `The Linux Foundation`, `The Rust Project Developers`)
    "the", "llc", "inc", "ltd", "limited", "corp", "corporation", "company", "co", "gmbh", "ag", "bv", "plc",
    "foundation", "authors", "contributors", "developers", "project", "university", "institute", "software",
    "technologies", "technology", "labs", "systems", "group", "holdings", "partners", "community"})


@cache
def _english_words() -> frozenset[str]:
    """English's nouns, verbs, adjectives and adverbs: WordNet's index, as spaCy's English model (the
    `annotate` extra's) ships it for its lemmatizer, read without loading the model."""
    import importlib.util

    from ec2audit.annotate.prelabel import SPACY_MODEL
    from ec2audit.extras import require_extra

    require_extra("annotate")  # the model and srsly (spaCy's) come with it: one line where it is missing
    import srsly

    spec = importlib.util.find_spec(SPACY_MODEL)
    assert spec is not None and spec.origin  # require_extra found it
    (tables,) = Path(spec.origin).parent.glob("*/lemmatizer/lookups/lookups.bin")
    return frozenset(w for words in srsly.msgpack_loads(tables.read_bytes())["lemma_index"].values() for w in words)


def display_name_ok(value: str) -> bool:
    """A display name that is a person's: no role's or program's word in it, not only everyday words, and not
    only dictionary words unless it opens with a given name: `Red Hat`, `Weekly Digest`, `Hugging Face` are a
    company's, a newsletter's, a product's; `Rose Baker` and `Kofi Boateng` are people."""
    from ec2audit.detect.compiled import COMMON_WORDS

    words = [w.lower() for w in re.split(r"[ '’-]+", value) if w]
    if any(w in _ROLE_WORDS for w in words) or all(w in COMMON_WORDS for w in words):
        return False
    return words[0].upper() in _census()[0] or not all(w in _english_words() for w in words)


#: A copyright line up to its holder: `Copyright (c) 2019-2024`, `(C) 2021,`, `©`, `SPDX-FileCopyrightText: © 2023`,
#: `Copyright 2020-present`, `© 2024 by`.
_YEARS = r"\d{4}(?:[ \t]*[-–,][ \t]*(?:\d{4}|present|now))*,?[ \t]+(?:by[ \t]+)?"
_MARK = r"(?:(?i:\(c\))|©)[ \t]*"
#: `Copyright` needs a year or a mark after it (`Copyright Infringement Claims` is a heading), `(c)` and `©` a year
#: (`(c) Send The Report` is a list's third item); an SPDX tag nothing more.
_COPYRIGHT = (rf"(?:(?i:spdx-filecopyrighttext:)[ \t]*(?:{_MARK})?(?:{_YEARS})?"
              rf"|(?i:(?<![\w-])copyright)[ \t]+(?:{_MARK}(?:{_YEARS})?|{_YEARS})|{_MARK}{_YEARS})")
#: A holder's capitalised words, in any Latin script (`Tomasz Wiśniewski`, `Siobhán Ní Bhriain`), with particles
#: (`van der`); ` and contributors`, `<mail>` end it, and a company's suffix after it makes it none (`Kofi
#: Boateng, Inc.`, `Hugging Face Inc`).
_CAPITALISED = r"[A-ZÀ-ÖØ-ÞĀ-ž][^\W\d_]*(?:['’-][^\W\d_]+)*"
_HOLDER = rf"{_CAPITALISED}(?: (?:(?:{_PARTICLES}) )*{_CAPITALISED}){{1,3}}"
_COMPANY_AFTER = r"(?!,?[ \t]+(?i:inc|llc|ltd|limited|corp|corporation|co|gmbh|ag|bv|plc|labs|group|holdings)\b)"


def _holder_ok(value: str) -> bool:
    """A copyright's holder that is a person: no company's or role's words, not everyday words only (`Google
    LLC`, `The Authors`, `All Rights`), no placeholder."""
    return value.lower() not in PLACEHOLDER_NAMES and display_name_ok(value)


#: A title just before a value (`Dr. Kwame Mensah`): a given name and a surname after it are a person's even where
#: no name list knows them.
_TITLE = r"(?<![\w.])(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof)\.?[ \t]+"
TITLE_BEFORE = re.compile(rf"{_TITLE}$")
#: Such a key just before a value: the value is a person's name even where no name list knows it.
NAME_KEY_BEFORE = re.compile(rf"(?i:(?<![A-Za-z])(?:{_NAME_KEYS}))[ \t]*[=:][ \t]*[\"']?$")

RECOGNIZERS = [
    PatternRecognizer("person-after-key", "PERSON", "person_name", (
        (rf"(?i:(?:(?<![A-Za-z])|(?<=\\n))(?:{_NAME_KEYS}))[ \t]*[=:][ \t]*[\"']?"
         rf"(?P<value>{_NAME_WORD}(?:[ '-]{_NAME_WORD}){{1,3}})(?![\w@])", 0.55),
    ), validate=display_name_ok),  # `On-call: Platform Team` is a team's
    # looked for at every word, not after the last candidate: `Called Marguerite Lindqvist` is no name, but the
    # two words after `Called` are
    PatternRecognizer("person-census", "PERSON", "person_name", (
        (rf"(?<![\w.@-])(?=(?P<value>[A-Z][a-z]+(?: [A-Z][a-z]+)?(?: [A-Z]\.)?(?: (?:{_PARTICLES}))* "
         r"[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?)(?![\w@]))", 0.6),
    ), validate=_census_name, trim=r" [A-Z][a-z]+$",  # `Will Hartley Reviewed`: the last word is no surname
        bound=_after_imperative),
    # a title before a given name and a surname (`Contact: Ms. Amara Nwosu`, `Dr. Kwame Mensah reviewed`); a title
    # before a surname alone (`Ms. Whitfield`) is how someone is addressed, no name
    PatternRecognizer("person-after-title", "PERSON", "person_name", (
        (rf"{_TITLE}(?P<value>{_NAME_WORD} {_NAME_WORD})(?![\w@])", 0.55),
    ), validate=display_name_ok),
    PatternRecognizer("person-before-mailbox", "PERSON", "person_name", (
        (rf"(?<![\w.@-])(?P<value>{_NAME_WORDS})(?={NAME_AFTER.pattern})", 0.55),
    ), validate=display_name_ok),
    # a licence's or a source file's holder
    PatternRecognizer("person-copyright-holder", "PERSON", "person_name", (
        (rf"{_COPYRIGHT}(?P<value>{_HOLDER})(?![\w@]){_COMPANY_AFTER}", 0.55),
        # the year after the holder, after a mark (`Copyright Law Review 2023` is a journal): `© Priya Raman 2024`
        (rf"{_MARK}(?P<value>{_HOLDER}),?[ \t]+\d{{4}}\b", 0.55),
    ), validate=_holder_ok),
]
