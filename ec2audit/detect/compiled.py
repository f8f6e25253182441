"""Units prepared once for matching: normalised forms, canonical views and false-positive guards; what a compile
derives is cached on disk per units, rules and code (`compile_units`), so a later audit of the same units skips it."""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
import re
import sys
import threading
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from functools import cache, cached_property
from importlib.metadata import version
from pathlib import Path
from typing import Any

from faker.providers.lorem.en_US import Provider as _EnglishWords

from ec2audit.detect.normalize import TextView, currency_of, normalize_text, parse_amount
from ec2audit.taxonomy import Dimension, Taxonomy, load_taxonomy
from ec2audit.units import Unit

#: Common English words: a unit whose value is one of them ("Will", "Rose") only counts with context.
COMMON_WORDS = frozenset(w.lower() for w in _EnglishWords.word_list)
CONTEXT_WINDOW = 40
#: A redaction placeholder such as `[PHONE_001]`, in normalised (case-folded) text.
PLACEHOLDER = re.compile(r"\[[a-z][a-z_]{0,40}_\d{1,6}\]")
PLACEHOLDER_LONGEST = 50
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]")
#: A Chinese personal name: two to four Han characters.
HAN_NAME = re.compile(r"[\u4e00-\u9fff]{2,4}")
_COMMON_SURNAMES = 120  # Faker's zh_CN surnames are in order of frequency


@cache
def han_given_name_chars() -> frozenset[str]:
    """Characters of Chinese given names (Faker's zh_CN lists): after a two-character name, one of them
    makes a longer name (张伟明 is not 张伟), any other character does not (张伟记录)."""
    from faker.providers.person.zh_CN import Provider

    return frozenset("".join([*Provider.first_names_male, *Provider.first_names_female]))


#: `given_name_syllables` as the compile cache holds it (`compile_units`): read so, pypinyin is not imported.
_cached_syllables: list[frozenset[str]] = []


@cache
def given_name_syllables() -> frozenset[str]:
    """The pinyin of those characters: after a romanised name, one of them, written as the name is, makes a
    longer name ("Zhang Wei Ming" is 张伟明, not 张伟)."""
    if _cached_syllables:
        return _cached_syllables[0]
    from pypinyin import lazy_pinyin

    return frozenset(lazy_pinyin("".join(sorted(han_given_name_chars()))))


@cache
def han_surname_chars() -> frozenset[str]:
    """The common one-character Chinese surnames (Faker's zh_CN list): before a given name, one of them
    makes another person's name (李子墨 for 子墨)."""
    from faker.providers.person.zh_CN import Provider

    return frozenset(k for k in list(Provider.last_names)[:_COMMON_SURNAMES] if len(k) == 1)


@cache
def is_word_char(ch: str) -> bool:
    """Letters and digits of space-separated scripts; CJK characters have no word boundaries."""
    return (ch.isalnum() or ch == "_") and not _CJK.match(ch)


@dataclass(frozen=True)
class CompiledUnit:
    unit: Unit
    rules: Dimension
    forms: tuple[str, ...]          # normalised value and aliases
    digit_forms: tuple[str, ...]    # digits-only forms (phones, IDs, cards), ≥ 6 digits
    alnum_forms: tuple[str, ...]    # separator-free forms of identifiers (IBANs, MACs, passports, IPs)
    romanized: tuple[str, ...]      # pinyin forms of a Chinese name
    amount: int | None              # amount in hundredths when the value is an amount
    needs_context: bool
    context_words: tuple[str, ...]  # words that must stand near a short or common value
    #: the published prefix a credential's normalised value starts with (`sk_live_`, `ghp_`, `akia`): every key of
    #: its kind shows it, so showing it shows nothing of this one; "" for other values. Compiled (and so cached)
    #: with the rest: reading it needs the annotate recognizers, which load with all their families (0.13 s)
    public_prefix: str
    #: the pinyin of the road a Chinese address value names, without spaces ("zhangyang" for 张杨路1288弄…), or None:
    #: how an address written out in English names it (`forms.address_translations`). Compiled with the names'
    #: readings, so a cached unit set never imports pypinyin for it
    road: str | None

    @cached_property
    def compact(self) -> str:
        """The value without separators, as masked forms are compared: "6222 0000 1234" → "622200001234",
        "3c:52:82" → "3c5282"."""
        return compact_form(self.forms[0])

    @cached_property
    def inflects(self) -> bool:
        """A single lower-case word of ≥ 5 letters (a condition, a drug, an allergen): its English plural
        ("penicillins", "migraines") names it too. Capitalised values are names: "Rosens" is another family."""
        value = self.unit.value.strip()
        return len(value) >= 5 and value.isalpha() and value.islower()

    @cached_property
    def currency(self) -> str | None:
        """The currency of an amount: the same number in another currency is another amount."""
        return currency_of(self.unit.value) if self.amount is not None else None

    @cached_property
    def han_name_of_two(self) -> bool:
        """A two-character Chinese name (张伟): a third Han character may make it another name."""
        return self.rules.fragment == "surname" and len(self.forms[0]) == 2 and bool(HAN_NAME.fullmatch(self.forms[0]))

    @cached_property
    def han_name(self) -> bool:
        """A Chinese personal name: written spaced out or romanised, it must end where the value ends."""
        return self.rules.fragment == "surname" and bool(HAN_NAME.fullmatch(self.forms[0]))

    def case_differs(self, found: str) -> bool:
        """A credential is case-sensitive: `found`, whose letters are the value's (or an alias's, or a piece of
        either) but for their case (`Qz#8vL2!mT6R` for `Qz#8vL2!mT6r`), is another secret. A hexadecimal value
        reads the same in either case."""
        if self.rules.name != "credential":
            return False
        letters = _ascii_letters(found)
        same = [r for r in (_ascii_letters(v) for v in (self.unit.value, *self.unit.aliases))
                if letters.lower() in r.lower() and not _HEX.fullmatch(r)]
        return bool(same) and not any(letters in r for r in same)

    def has_context(self, view: TextView, start: int, end: int) -> bool:
        lo, hi = max(0, start - CONTEXT_WINDOW), end + CONTEXT_WINDOW
        window = view.text[lo:start] + " " + view.text[end:hi]
        pattern = words_pattern(self.context_words)
        return bool(pattern and pattern.search(window))


_HEX = re.compile(r"[a-f]*|[A-F]*")  # the letters of a hexadecimal value, in one case


def _ascii_letters(text: str) -> str:
    return "".join(re.findall(r"[A-Za-z]", unicodedata.normalize("NFKC", text)))


def compact_form(text: str) -> str:
    """`text` without the separators a masked or split form drops: spaces, "-./():"."""
    return re.sub(r"[\s\-./():]", "", text)


def _digit_forms(value: str, rules: Dimension) -> tuple[str, ...]:
    if "digits" not in rules.views:
        return ()
    norm = normalize_text(value).strip()
    alnum = [c for c in norm if c.isalnum()]
    digits = "".join(c for c in alnum if c.isdigit())
    tail_x = norm.endswith("x") and len(digits) >= 14  # Chinese resident IDs may end in X
    if len(digits) < 6 or len(alnum) - len(digits) - int(tail_x) > 0:
        return ()
    forms = [digits + ("x" if tail_x else "")]
    if norm.startswith("+"):  # also without the country code: "+86 139…" is sent as "139…", and in the national
        # format, the trunk prefix 0 in its place: "+44 7700 900461" as "07700 900461"
        if m := re.match(r"\+(\d{1,3})[\s\-]", norm):
            national = forms[0][len(m.group(1)):]
            forms += [national, *(["0" + national] if not national.startswith("0") else [])]
    elif norm.startswith("0") and not norm.startswith("00") and len(digits) >= 9:
        forms.append(forms[0][1:])  # a national number after a country code: "07700 900418" as "+44 7700 900418"
    return tuple(f for f in forms if len(f) >= 6)


_IDENTIFIER = re.compile(r"[0-9a-z]+(?:[ \-.:/_]{1,3}[0-9a-z]+)*")
_ALNUM_SEPARATORS = re.compile(r"[ \-.:/_]")
_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_CHECK_CHARACTER = re.compile(r"([0-9a-z]{6,})\(([0-9a])\)")  # an HKID's, a Macau ID's: "k638204(7)", "1234567(8)"


def _alnum_forms(norm: str, rules: Dimension, digit_forms: tuple[str, ...]) -> tuple[str, ...]:
    """An identifier without its separators, as the alphanumeric view reads it; an IPv4 address also
    zero-padded ("010024008117")."""
    if "alnum" not in rules.views or digit_forms or not (_IDENTIFIER.fullmatch(norm) or " " not in norm):
        return ()
    alnum = _ALNUM_SEPARATORS.sub("", norm)  # a key or password keeps its symbols: "tiger1995#"
    if len(alnum) < 6 or sum(c.isdigit() for c in alnum) < 2:
        return ()
    if _IPV4.fullmatch(norm):
        return alnum, "".join(f"{int(g):03d}" for g in norm.split("."))
    if m := _CHECK_CHARACTER.fullmatch(alnum):  # the check character also written without its brackets
        return alnum, m[1] + m[2]
    return (alnum,)


_NUMERAL = re.compile(r"(?<![0-9a-z])(iv|i{1,3}|[1-4])(?![0-9a-z])")
_OTHER_NUMERAL = {"1": "i", "2": "ii", "3": "iii", "4": "iv", "i": "1", "ii": "2", "iii": "3", "iv": "4"}
_SCRIPT_EDGE = re.compile(r"(?<=[\u4e00-\u9fff])(?=[0-9a-z])|(?<=[0-9a-z])(?=[\u4e00-\u9fff])")


def numeral_forms(norm: str) -> list[str]:
    """A stage or type written in the other numerals ("1型糖尿病" = "I型糖尿病", "stage iii" = "stage 3"; NFKC
    reads "Ⅲ" as "iii"), and with a space where Han characters meet Latin ones ("乳腺癌 iii期")."""
    if not _NUMERAL.search(norm):
        return []
    forms = [norm, _NUMERAL.sub(lambda m: _OTHER_NUMERAL[m.group(1)], norm)]
    return forms[1:] + [spaced for f in forms for spaced in _spacings(f)]


def _spacings(form: str) -> list[str]:
    """`form` with a space at some of the places where Han characters meet Latin letters or digits."""
    edges = [m.start() for m in _SCRIPT_EDGE.finditer(form)][:3]
    out = []
    for mask in range(1, 2 ** len(edges)):
        chosen = [e for k, e in enumerate(edges) if mask >> k & 1]
        out.append(" ".join(form[a:b] for a, b in zip([0, *chosen], [*chosen, len(form)], strict=True)))
    return out


def ipv4_groups(text: str) -> list[int] | None:
    """The four numbers of a dotted IPv4 address, spaces around the dots allowed; None if not one."""
    groups = re.fullmatch(r"(\d{1,3})\s*\.\s*(\d{1,3})\s*\.\s*(\d{1,3})\s*\.\s*(\d{1,3})", text.strip())
    return [int(g) for g in groups.groups()] if groups else None


def _extra_forms(norm: str, cities: tuple[str, ...] = ()) -> list[str]:
    """Forms a reader recovers at once: Simplified characters (OpenCC), a percentage as a ratio and in
    words, an IPv4 address's reverse-DNS and cloud host names."""
    from ec2audit.detect.views import to_simplified

    forms = [to_simplified(norm)]
    if HAN_NAME.fullmatch(norm):  # a Chinese name spaced out: "张 静", "刘 建 国", "欧阳 娜娜", "欧 阳 娜 娜"
        split = 2 if len(norm) > 2 and norm[:2] in COMPOUND_SURNAMES else 1
        forms += list(dict.fromkeys([f"{norm[0]} {norm[1:]}", f"{norm[:split]} {norm[split:]}", " ".join(norm)]))
        # surname and given name in two cells of a row: a markdown table's, a CSV file's (not a name of two
        # characters: "张，伟" is prose as often, a full-width comma reads as ",")
        forms += [f"{norm[:split]}{cell}{norm[split:]}" for cell in (" | ", "|", *([","] if len(norm) > 2 else []))]
    if m := re.fullmatch(r"(\d+(?:\.\d+)?)\s*%", norm):
        number = Decimal(m.group(1))
        ratio = format((number / 100).normalize(), "f")
        forms += [ratio, f"{m.group(1)} %", f"{m.group(1)} percent", f"{m.group(1)} per cent", f"百分之{m.group(1)}"]
    if _IPV4.fullmatch(norm):
        forms.append(".".join(reversed(norm.split("."))) + ".in-addr.arpa")
        forms.append("ip-" + norm.replace(".", "-"))  # a cloud host name: ip-172-20-14-63.ec2.internal
    return forms + trade_names(norm, cities)


_LEGAL_SUFFIX = re.compile(r"(?:股份有限公司|有限责任公司|有限公司|集团公司|集团|公司)$"
                           r"|,? (?:inc|ltd|llc|gmbh|b\.?v|co\.?,? ltd|corp|plc|limited)\.?$")
# Words of trade that follow a Chinese firm's name (蓝鲸智联科技 is called 蓝鲸智联)
_TRADE_WORDS = re.compile(r"(?:微电子|电子|科技|技术|信息|网络|智能|软件|光电|贸易|实业|咨询|传媒|医药|生物)$")


_CITY = re.compile(r"[\u4e00-\u9fff]{2,3}?市")


@cache
def _cities() -> tuple[str, ...]:
    """Chinese city names (Faker's zh_CN list), longest first: the city a firm's registered name starts with."""
    from faker.providers.address.zh_CN import Provider

    return tuple(sorted(Provider.cities, key=len, reverse=True))


def trade_names(norm: str, cities: tuple[str, ...] = ()) -> list[str]:
    """The short names a firm goes by: without its legal form ("有限公司", "Ltd."), then without the city its
    registered name starts with (苏州澄湖微电子有限公司 → 澄湖微电子), then without its line of trade (蓝鲸智联).
    `cities`: more city names than Faker's list knows, e.g. those of the run's own addresses."""
    short = _LEGAL_SUFFIX.sub("", norm)
    if short == norm:
        return []
    names = [short]
    if _CJK.search(short):
        city = next((c for c in (*cities, *_cities()) if short.startswith(c)), None) \
            or (m := _CITY.match(short)) and m.group()
        if city:
            names.append(short[len(city):].removeprefix("市"))
            names.append(_TRADE_WORDS.sub("", names[-1]))
    return [n for n in dict.fromkeys(names) if len(n) >= 4 and n not in COMMON_WORDS]


# pypinyin reads words, not names: these surnames are read otherwise in a name (曾 is "zeng", not
# "ceng"), and these two-character surnames come first as one (欧阳修 is "Ouyang Xiu").
_SURNAME_READINGS = {"曾": "zeng", "单": "shan", "解": "xie", "查": "zha", "仇": "qiu", "区": "ou", "朴": "piao",
                     "覃": "qin", "盖": "ge", "乐": "yue", "缪": "miao", "翟": "zhai", "召": "shao", "种": "chong"}
COMPOUND_SURNAMES = frozenset({"欧阳", "司马", "上官", "诸葛", "东方", "皇甫", "令狐", "慕容", "司徒", "公孙",
                                "夏侯", "长孙", "宇文", "轩辕", "端木", "西门", "南宫", "独孤", "呼延"})


@cache
def _pinyin_forms(name: str) -> tuple[str, ...]:
    """How a Chinese name is written in Latin letters: surname and given name in either order, the
    given name joined or hyphenated ("wang xiaoyan", "xiaoyan wang", "wang xiao-yan", "wang, xiaoyan");
    ü as "v", "u" or "yu" ("lv", "lu", "lyu")."""
    from pypinyin import lazy_pinyin  # 0.2 s to import: only when a unit is a Chinese name

    split = 2 if len(name) > 2 and name[:2] in COMPOUND_SURNAMES else 1
    surname = _SURNAME_READINGS.get(name[:split]) or "".join(lazy_pinyin(name[:split]))
    given = lazy_pinyin(name[split:])
    forms = []
    for s in _u_spellings(surname):
        for g in (spelled for joined in ("".join(given), "-".join(given)) for spelled in _u_spellings(joined)):
            forms += [f"{s} {g}", f"{g} {s}", f"{s}, {g}"]
        forms.append(f"{s} {' '.join(given)}")  # syllable by syllable: "zhou zi mo"
    return tuple(dict.fromkeys(forms))


def _u_spellings(syllables: str) -> list[str]:
    return list(dict.fromkeys([syllables, syllables.replace("v", "u"), syllables.replace("v", "yu")]))


def compile_unit(unit: Unit, taxonomy: Taxonomy, cities: tuple[str, ...] = ()) -> CompiledUnit:
    rules = taxonomy.rules(unit.dimension)
    forms = tuple(dict.fromkeys(f for f in (normalize_text(v).strip() for v in (unit.value, *unit.aliases)) if f))
    forms = tuple(dict.fromkeys(forms + tuple(f for form in forms for f in _extra_forms(form, cities))))
    if "numerals" in rules.views:
        forms = tuple(dict.fromkeys(forms + tuple(f for form in forms for f in numeral_forms(form))))
    amount = parse_amount(unit.value) if "amount" in rules.views else None
    if amount is not None and amount < 100_000:  # below 1,000 an amount is just a number
        amount = None
    main = forms[0]
    needs_context = len(main) < rules.min_length or main in COMMON_WORDS
    context = [normalize_text(unit.field.replace("_", " "))]
    if unit.entity_name and normalize_text(unit.entity_name) != main:
        context.append(normalize_text(unit.entity_name))
    context.extend(rules.context)
    romanized = _pinyin_forms(main) if "pinyin" in rules.views and HAN_NAME.fullmatch(main) else ()
    digit_forms = _digit_forms(unit.value, rules)
    return CompiledUnit(unit, rules, forms, digit_forms, _alnum_forms(main, rules, digit_forms), romanized, amount,
                        needs_context, tuple(c for c in context if len(c) >= 2), _public_prefix(forms, rules),
                        _road_pinyin(main))


_ROAD = re.compile(r"(?:.*(?:市|区|县|镇|街道|乡))?([\u4e00-\u9fff]{1,6}?)(?:路|街|大道|巷)(?=\d)")


def _road_pinyin(form: str) -> str | None:
    m = _ROAD.match(form)
    if m is None:
        return None
    from pypinyin import lazy_pinyin  # let go after the compile (`_pinyin_loaded` in `compile_units`)

    return "".join(lazy_pinyin(m[1]))


def _public_prefix(forms: tuple[str, ...], rules: Dimension) -> str:
    if rules.name != "credential" or not forms:
        return ""
    from ec2audit.annotate.recognizers.secrets import public_key_prefix  # the recognizers load on first ask

    return public_key_prefix(forms[0])


@cache
def words_pattern(words: tuple[str, ...]) -> re.Pattern | None:
    """One regex for a word list; Latin words must stand alone ("age" is not in "page")."""
    alternatives = [rf"(?<!\w){re.escape(w)}(?!\w)" if w.isascii() else re.escape(w) for w in words]
    return re.compile("|".join(alternatives)) if alternatives else None


_ADDRESS_CITY = re.compile(r"(?:^|省|自治区)([\u4e00-\u9fff]{2,3}?)市")


def compile_units(units: list[Unit], taxonomy: Taxonomy | None = None) -> list[CompiledUnit]:
    """Every unit compiled, read from the compile cache when these units were compiled before with these rules
    and this code (`_cache_path`): the compile imports pypinyin and reads Faker's and OpenCC's tables, ~0.25 s
    of an audit's start that loading the cached forms skips."""
    taxonomy = taxonomy or load_taxonomy()
    path = _cache_path(units, taxonomy)
    if (cached := _read_cached(path, units, taxonomy)) is not None:
        return cached
    # the cities of the run's own addresses: the city a firm's registered name may start with
    cities = tuple(sorted({m.group(1) for u in units if taxonomy.rules(u.dimension).name == "location"
                           for m in _ADDRESS_CITY.finditer(u.value)}, key=len, reverse=True))
    with _pinyin_loaded():
        compiled = [compile_unit(u, taxonomy, cities) for u in units]
        syllables = sorted(given_name_syllables()) if any(c.romanized for c in compiled) else None
        # (read by the exact tier's romanised names: made while pypinyin is here)
    _write_cached(path, compiled, syllables)
    return compiled


#: The fields of a CompiledUnit that `compile_unit` derives (the rest: the unit and its rules), as cached.
_DERIVED = [f.name for f in dataclasses.fields(CompiledUnit)][2:]


#: the packages whose data a compile or a cached table reads (romanisation, names, Han variants, numerals, ICD-10-CM)
_DATA_PACKAGES = ("pypinyin", "Faker", "OpenCC", "cn2an", "simple-icd-10-cm")


@cache
def _code_version() -> str:
    """All a compile reads besides the units and their rules: this package's source (every module, so no
    helper is missed), Python's (its Unicode tables) and the versions of the packages whose data it reads."""
    import ec2audit

    key = hashlib.sha256(" ".join([sys.version, *(version(p) for p in _DATA_PACKAGES)]).encode())
    root = Path(ec2audit.__file__).parent
    for source in sorted(root.rglob("*.py")):
        key.update(f"{source.relative_to(root)} {source.stat().st_size} ".encode() + source.read_bytes())
    return key.hexdigest()


def cached_table(name: str, build: Callable[[], Any], valid: Callable[[Any], bool]) -> Any:
    """A table a process derives at start-up from the data of Python or a package (what OpenCC's t2s changes, the
    digits of Unicode): read from the cache (JSON under `layout().cache / "tables"`) where this code derived it before
    and it is `valid`, else built and cached. Keyed like the compile cache (`_code_version`: this package's source,
    Python's version and the packages' whose data the tables read), so a new version of either builds it again."""
    from ec2audit.detect.matchers import store_cached
    from ec2audit.resources import layout

    key = hashlib.sha256(f"{_code_version()} {name}".encode()).hexdigest()[:32]
    path = layout().cache / "tables" / f"{name}-{key}.json"
    try:
        table = json.loads(path.read_bytes())
        if valid(table):
            path.touch()  # kept among the most recently used
            return table
    except (OSError, ValueError):  # none yet, or one that does not read whole: built again
        pass
    table = build()
    try:
        store_cached(path.parent, path, json.dumps(table, ensure_ascii=False).encode("utf-8"))
    except (OSError, ValueError):  # a cache that cannot be written costs the derivation, nothing else
        pass
    return table


def _cache_path(units: list[Unit], taxonomy: Taxonomy) -> Path:
    """The compile cache's file for these units: keyed by the code's version and, per unit in order, the unit and
    its dimension's rules, so a changed unit, rule or line of code compiles again."""
    from ec2audit.resources import layout

    key = hashlib.sha256(_code_version().encode())
    for unit in units:
        rules = json.dumps(dataclasses.asdict(taxonomy.rules(unit.dimension)), default=sorted, sort_keys=True)
        key.update(f"{unit.model_dump_json()}\n{rules}\n".encode())
    return layout().cache / "compiled" / f"{key.hexdigest()[:32]}.json"


def _read_cached(path: Path, units: list[Unit], taxonomy: Taxonomy) -> list[CompiledUnit] | None:
    """The compiled units in `path`, or None when there are none (or it does not read whole: compiled over)."""
    try:
        data = json.loads(path.read_bytes())
        if len(data["units"]) != len(units):
            return None
        compiled = [CompiledUnit(unit, taxonomy.rules(unit.dimension), **_derived(row))
                    for unit, row in zip(units, data["units"], strict=True)]
        syllables = data["syllables"]
        path.touch()  # the most recently used are kept
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if syllables is not None and not _cached_syllables:
        _cached_syllables.append(frozenset(syllables))
    return compiled


def _derived(row: list) -> dict[str, Any]:
    """A cached unit's derived fields by name (`_DERIVED`'s order; JSON's lists as the tuples they were); a row of
    another length is another CompiledUnit's."""
    if len(row) != len(_DERIVED):
        raise ValueError("a cached unit of another shape")
    return {name: tuple(v) if isinstance(v, list) else v for name, v in zip(_DERIVED, row, strict=True)}


def _write_cached(path: Path, compiled: list[CompiledUnit], syllables: list[str] | None) -> None:
    from ec2audit.detect.matchers import store_cached

    data = {"units": [[getattr(c, name) for name in _DERIVED] for c in compiled], "syllables": syllables}
    try:
        store_cached(path.parent, path, json.dumps(data, ensure_ascii=False).encode("utf-8"))
    except OSError:  # a cache that cannot be written costs the compile, nothing else
        pass


_PINYIN = threading.Lock()
#: Compilations under way, and whether pypinyin was loaded before the first of them.
_pinyin_state = {"users": 0, "kept": False}


@contextmanager
def _pinyin_loaded() -> Iterator[None]:
    """pypinyin importable inside, and let go after when it was not loaded before: its dictionaries
    (the phrases' JSON, a segmenter over every phrase) are ~50 MB of a process that reads names and roads
    only while units are compiled — a tenth of the 64 MB dense audit's peak (RESULTS.md, issue 34). What it
    read stays (`_pinyin_forms`, `given_name_syllables` are cached, `CompiledUnit.road` is compiled); a later
    use imports it again."""
    with _PINYIN:
        if not _pinyin_state["users"]:
            _pinyin_state["kept"] = "pypinyin" in sys.modules
        _pinyin_state["users"] += 1
    try:
        yield
    finally:
        with _PINYIN:
            _pinyin_state["users"] -= 1
            if not _pinyin_state["users"] and not _pinyin_state["kept"] and "pypinyin" in sys.modules:
                for name in [m for m in sys.modules if m == "pypinyin" or m.startswith("pypinyin.")]:
                    del sys.modules[name]
                gc.collect()  # its modules' functions and globals hold each other: freed by a collection


def placeholder_spans(view: TextView) -> list[tuple[int, int]]:
    """Spans of redaction placeholders `[PHONE_001]` in a view: protection, never leakage."""
    return [m.span() for m in PLACEHOLDER.finditer(view.text)] if "[" in view.text else []
