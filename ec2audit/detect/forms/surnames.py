"""A name's family name with an honorific or title, in either script — "mr. smith", "dr smith", "ms van der
meulen", "tanaka女士" for Latin names; "张先生", "张总", "ms. zhang", "zhang先生" (the pinyin surname) for Chinese
ones — and "老钟", "小孙", how colleagues call one another, and a Latin family name after a word that says it is
one ("her surname was Vos", "last name: Vos", "née Vos"): a fragment of the name (0.3).
A relative's name (a mother's, a great-grandfather's) that shares the family name of the person the record is
about gives none: "吴先生" is 吴志强 himself, not his great-grandfather 吴茂松.

The name helpers the other name forms share (`latin_surname`, `han_surname`) live here."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence

from ec2audit.detect.compiled import COMPOUND_SURNAMES, HAN_NAME, CompiledUnit
from ec2audit.detect.finding import FRAGMENT, Hit
from ec2audit.detect.forms import Form, mentions, register, standalone
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

SURNAME, FAMILIAR = "surname", "familiar"


@register
class Surnames(Form):
    name = "surnames"
    kinds = (SURNAME, FAMILIAR)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        genders = entity_genders(self.units)
        shared = _shared_latin_surnames(self.units)

        def titled(cu: CompiledUnit) -> list[str]:
            if not _own_surname(cu):
                return []
            surname = latin_surname(cu.forms[0])
            words = _SURNAME_WORDS if surname and (cu.unit.task_id, surname) not in shared else []
            return _surname_patterns(cu, genders.get((cu.unit.task_id, cu.unit.entity_id))) + [
                f"{word} {surname}" for word in words]

        def familiar(cu: CompiledUnit) -> list[str]:
            if not (_own_surname(cu) and HAN_NAME.fullmatch(cu.forms[0])):
                return []
            return ["老" + han_surname(cu.forms[0]), "小" + han_surname(cu.forms[0])]

        # context: word boundaries, the character next to a familiar name
        self.compile_forms(index, {SURNAME: titled, FAMILIAR: familiar})

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        yield from mentions(view, SURNAME, decided, standalone, "partial.fragment", FRAGMENT, 0.5)
        yield from mentions(view, FAMILIAR, decided, _familiar, "partial.fragment", FRAGMENT, 0.4)


SURNAME_PARTICLES = frozenset({"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le", "ter",
                                "bin", "binti", "al", "el", "mac", "st", "o", "ó", "ní", "nic", "uí"})


def latin_surname(name: str) -> str | None:
    """The family name of a Latin "given [particles] family" name: "van der meulen" for Sophie van der Meulen, "ní
    bhraonáin" for Caoimhe Ní Bhraonáin (accented letters are Latin too)."""
    parts = name.split()
    if len(parts) < 2 or not all(c.isascii() or unicodedata.name(c, "").startswith("LATIN") for c in name):
        return None
    k = len(parts) - 1
    while k > 1 and parts[k - 1] in SURNAME_PARTICLES:
        k -= 1
    surname = " ".join(parts[k:])
    return surname if len(parts[-1]) >= 2 else None


_MALE_TITLES = frozenset({"mr", "sir", "lord", "herr", "sr", "señor", "pan", "先生", "哥", "叔", "大爷"})
_FEMALE_TITLES = frozenset({"mrs", "ms", "miss", "madam", "dame", "lady", "mme", "mlle", "frau", "sra", "srta",
                            "señora", "pani", "女士", "小姐", "太太", "夫人", "阿姨", "姐"})
_RESIDENT_ID = re.compile(r"\d{17}[\dx]")


def entity_genders(units: Sequence[CompiledUnit]) -> dict[tuple[str, str], str]:
    """What the task's own data says of a person's sex ("m" or "f"): the 17th digit of a Chinese resident ID
    (odd for men), else a given name that the name lists (Faker's) give to one sex only. "林先生" is then not
    林晓雯 when her ID says she is a woman."""
    from faker.providers.person.en_US import Provider

    out: dict[tuple[str, str], str] = {}
    for cu in units:
        key = (cu.unit.task_id, cu.unit.entity_id)
        if cu.rules.name == "government_id" and _RESIDENT_ID.fullmatch(cu.compact):
            out[key] = "m" if int(cu.compact[16]) % 2 else "f"
    for cu in units:
        key = (cu.unit.task_id, cu.unit.entity_id)
        if key not in out and cu.rules.fragment == "surname" and cu.unit.value.split()[0].isascii():
            given = cu.unit.value.split()[0]
            male, female = given in Provider.first_names_male, given in Provider.first_names_female
            if male != female:
                out[key] = "m" if male else "f"
    return out


def _surname_patterns(cu: CompiledUnit, gender: str | None = None) -> list[str]:
    """The family name with an honorific or title, in either script: "mr. smith", "dr smith", "ms van der
    meulen", "tanaka女士" for Latin names; "张先生", "张总", "ms. zhang", "zhang先生" (the pinyin surname) for
    Chinese ones.
    Titles of the other sex are left out when the task's data says the person's (`entity_genders`)."""
    name = cu.forms[0]
    other = _FEMALE_TITLES if gender == "m" else _MALE_TITLES if gender == "f" else frozenset()
    context = [h for h in cu.rules.context if h not in other]
    latin, han = [h for h in context if h.isascii()], [h for h in context if not h.isascii()]
    if HAN_NAME.fullmatch(name):
        surname = cu.romanized[0].split()[0] if cu.romanized else None
        family = han_surname(name)
        return [family + h for h in han] + ["姓" + family] + (
            [f"{h}{dot} {surname}" for h in latin for dot in ("", ".")] + [surname + h for h in han] if surname else [])
    surname = latin_surname(name)
    if surname is None:
        return []
    return [f"{h}{dot} {surname}" for h in latin for dot in ("", ".")] + [surname + h for h in han]


#: words that say the next one is a family name: it names whoever alone has it in the task
_SURNAME_WORDS = [f"{noun}{verb}" for noun in ("surname", "last name", "family name", "maiden name")
                  for verb in ("", " was", " is", ":", " was listed as", " is listed as")] + ["née", "nee"]


def _shared_latin_surnames(units: Sequence[CompiledUnit]) -> set[tuple[str, str]]:
    """(task, family name) of the Latin family names two people of a task share (a passport's "Surname: DUARTE"
    is the applicant's as much as his wife's)."""
    people: dict[tuple[str, str], set[str]] = {}
    for cu in units:
        names = [normalize_text(cu.unit.entity_name or "")] + ([cu.forms[0]] if cu.rules.fragment == "surname" else [])
        for name in names:
            if surname := latin_surname(name):
                people.setdefault((cu.unit.task_id, surname), set()).add(_given_name(name, cu.rules.context))
    return {key for key, given in people.items() if any(not _same_given(a, b) for a in given for b in given)}


def _own_surname(cu: CompiledUnit) -> bool:
    """Is this a person's name whose family name may be looked for alone (no relative of the record's person)?"""
    return cu.rules.fragment == "surname" and not _shares_entity_surname(cu)


def _shares_entity_surname(cu: CompiledUnit) -> bool:
    """Is this the name of someone else than the record's person, of the same family name?"""
    entity, name = normalize_text(cu.unit.entity_name or ""), cu.forms[0]
    if HAN_NAME.fullmatch(name):
        if not HAN_NAME.fullmatch(entity) or han_surname(entity) != han_surname(name):
            return False
        return not _same_given(name[len(han_surname(name)):], entity[len(han_surname(entity)):])
    if latin_surname(name) is None or latin_surname(entity) != latin_surname(name):
        return False
    return not _same_given(_given_name(name, cu.rules.context), _given_name(entity, cu.rules.context))


def _given_name(name: str, titles: tuple[str, ...]) -> str:
    """The first word of a Latin name that is no title ("ray" of "dr. ray delgado")."""
    return next((w for w in name.split() if w.rstrip(".") not in titles), "")


def _same_given(a: str, b: str) -> bool:
    """One person's given names: the same, or one the other's start ("ray" is raymond)."""
    return a.startswith(b) or b.startswith(a)


def han_surname(name: str) -> str:
    """The family name of a Chinese name: two characters for a compound surname (欧阳文博 → 欧阳), else one."""
    return name[:2] if len(name) > 2 and name[:2] in COMPOUND_SURNAMES else name[:1]


# a character that makes "老"/"小" + a surname a word of its own: 小孙子 (a grandson), 老钟表 (an old clock),
# 小黄瓜, 老陈醋, 小白兔, 小王子, 老林子
_FAMILIAR_WORD_AFTER = frozenset("子女儿孙表楼声菜瓜兔车鸭醋历驹干酒")
_FAMILIAR_WORD_BEFORE = frozenset("个座只口台")  # 一个老钟: a classifier before a thing


def _familiar(text: str, start: int, end: int) -> bool:
    """"老钟" or "小孙" (familiar for a colleague of that family) is the surname with a title, unless the
    characters around make it another word: a classifier before it, or a noun's character after it."""
    return not ((end < len(text) and text[end] in _FAMILIAR_WORD_AFTER)
                or (start and text[start - 1] in _FAMILIAR_WORD_BEFORE))
