"""Which candidate units found in agent logs are worth a person's reading, and the identifiers logs
carry that general-purpose recognizers miss.

The pre-labelling recognizers were built for documents; agent logs are mostly code, JSON, test
output and accessibility trees, where NER reads `StaticText`, `Python` or `session` as names and a
number such as `604800000` as an ID. A candidate is kept only when its value looks like what its
dimension holds: a person's name is two to four name-shaped words, one of them a known given
name (Faker's name lists for many locales); numbers must be long enough and not a
timestamp, a duration or a decimal; nothing that is a code token, a path, a redaction token
(`__OPENCLAW_REDACTED__`, `[REDACTED]`, `***`) or a hash. The text around a candidate counts too: a
Message-ID header makes an address a message id, and a one-word condition (ICD-10 names `Amelia` and
`deletions`) needs a health context. Each kept candidate's field says what its value is (`named`).
Added: chat senders, handles and ids from the channel envelopes agents receive (`[Telegram Ana
(@ana_s) id:123 …]`) and from OpenClaw's runtime context blocks (`Conversation info: ⟦openclaw:ctx⟧`
JSON, chat-history lines), names given as first and last name, dates of birth, and OS user names
from home folders (`/home/ana/`, `/Users/jdoe/`, `C:\\Users\\jdoe\\`).

The annotate recognizers this borrows from load with all their families (0.13 s), so they are imported in
the functions that read them: an audit of given units, which never discovers, does not pay for them.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator
from functools import cache

from ec2audit.detect.compiled import COMMON_WORDS, CONTEXT_WINDOW, compile_unit, words_pattern
from ec2audit.detect.normalize import normalize_text
from ec2audit.taxonomy import load_taxonomy
from ec2audit.units import Unit, make_unit

_REDACTED = re.compile(r"redact|masked|hidden|removed|censored|\*{3}|x{6}|•{3}|<secret>", re.I)
_CODE = re.compile(r"[{}\[\]<>=;`|\\]|\(\)|^\W|\w\.\w+\(|::|->|=>|^\$|\$\{|%[sd]|^[a-z]+[A-Z]\w*$")
_CAMEL = re.compile(r"[a-z][A-Z]")
_PROSE = re.compile(r"[^\W\d_]{2,}\s+[^\W\d_]{2,}")  # two words with a space between: a secret has no such
_HASH = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64}|[0-9a-f]{7,12})$", re.I)
_HAN_NAME = re.compile(r"^[\u4e00-\u9fff]{2,4}$")
_DIGITS = re.compile(r"\d")
_GLUED = re.compile(r"[,;]\s|@|[^\W\d_]{3,}\s+[^\W\d_]{3,}")
_EMAIL = re.compile(r"(?<![^\s|,;:=<(\"'])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_DUMMY_MAILBOXES = frozenset({"test", "user", "foo", "bar", "example", "noreply", "no-reply", "donotreply",
                              "do-not-reply", "nobody", "someone", "email", "mail", "admin", "root"})
#: A currency or a Chinese unit of amount in a value: it is a sum of money, not a bare number (`¥25,000`, `30万元`).
_AMOUNT_MARK = re.compile(r"[¥￥$€£]|[元万亿]|\b(?:USD|RMB|CNY|EUR|GBP)\b")
_DATE_SHAPED = re.compile(r"^(?:19|20)\d\d[-/.](?:0[1-9]|1[0-2])(?:[-/.]|$)")
_NOT_HOSTS = frozenset({"0.0.0.0", "127.0.0.1", "::", "::1", "localhost", "255.255.255.255"})
_EDGE_PUNCTUATION = "'\"`|,;:"
#: Words before a `#` that make the number an account's, not an issue's (`Account #12345678`).
_ACCOUNT_BEFORE = re.compile(r"(?i)\b(?:account|acct|card|policy|member|patient|customer|passport|licen[cs]e|"
                             r"routing|iban|ssn|id)\s*#\s?$")
#: Words before an id that make the number a CI run's, job's or build's (`(runner ubuntu-24.04, id 7731024598)`).
_RUN_BEFORE = re.compile(r"(?i)\b(?:run|job|build|pipeline|workflow|runner|deployment)s?"
                         r"(?:[ _-]?(?:id|#|no\.?|number)|\s+\S+,\s*id)[\"']?\s*[:=#]?\s*[\"']?\s*$")
#: A condition's holder just before it (`I have epilepsy`, `her diabetes`, `I'm diabetic`; in Chinese `她患有抑郁症`,
#: `我得了糖尿病`, `确诊为肺癌`, `他有哮喘`, with no space): someone's health, whatever surrounds it.
_HOLDER_BEFORE = re.compile(r"(?i)(?:(?:\b(?:i|he|she|they|we)\s+(?:have|has|had|live with|lives with|suffer from|"
                            r"suffers from)|\bdiagnosed with|\bliving with|\b(?:my|his|her|their|our)"
                            r"|\b(?:i['’]m|i am|(?:he|she)(?:['’]s| is)|(?:they|we)(?:['’]re| are))(?:\s+an?)?)\s+"
                            r"|(?:患有|患了|罹患|得了|确诊(?:为|了)?|[我你他她]们?有)\s*)$")
#: What a Chinese address names below a city: a street, a building, a room, a village.
_ZH_PLACE = re.compile(r"[路街道巷弄号栋幢室村镇乡]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
#: Short forms of given names that Faker's lists lack (`Will Hartley` in a git log).
_SHORT_GIVEN_NAMES = frozenset({"will", "rob", "matt", "pat", "meg", "jen", "ed", "nate", "zach", "gabe", "ollie",
                                "abby", "vicky"})
_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_DNS_NAME = re.compile(r"(?:[a-z0-9-]+\.)+[a-z]{2,}")
_BRACKETS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_BOT_MAILBOX = re.compile(r"(?:^|[-_.+])bot(?:$|[-_.+\[])|\[bot\]", re.I)
_SEPARATORS = frozenset(" \t\n|,;:=<>()[]'\"")
_CHAT_ENVELOPE = re.compile(
    r"\[(?:Telegram|WhatsApp|Signal|Discord|Slack|iMessage|Matrix|Teams|Messenger)\s+(?P<who>[^\]\n]{1,80}?)"
    r"(?:\s+\+\d+[smhd])?(?:\s+\d{4}-\d\d-\d\d[^\]]*)?\]")
_HANDLE = re.compile(r"\(@(?P<handle>[A-Za-z0-9_.]{3,32})\)")
_CHAT_ID = re.compile(r"\bid:(?P<id>-?\d{5,20})\b")
_HOME = re.compile(r"(?:/home/|/Users/|[A-Za-z]:\\\\?Users\\\\?)(?P<user>[A-Za-z][A-Za-z0-9._-]{1,31})(?=[/\\]|$|\s)")
#: A generated mailbox part (a message id's left side): long, with three capitals and three digits or more.
_GENERATED = re.compile(r"^(?=(?:[^A-Z]*[A-Z]){3})(?=(?:\D*\d){3})[A-Za-z0-9+=$_.-]{12,}$")
_CONTEXT_BLOCK = re.compile(r"^(?P<label>[^\n`]{1,160}?)(?::?[ \t]*⟦openclaw:ctx⟧|[ \t]*\(untrusted metadata\):)"
                            r"[ \t]*\n```json[ \t]*\n(?P<json>.*?)\n```", re.M | re.S)
_CHAT_LINES = re.compile(r"^[^\n`]{1,160}?⟦openclaw:ctx⟧[ \t]*\n(?!```)(?P<lines>(?:[^\n]+\n?)+)", re.M)
_LINE_DETAILS = re.compile(r"^(?:(?:#\S+|->#\S+|\[reply target\]|\d{4}-\d\d-\d\d|\d{1,2}:\d\d(?::\d\d)?|"
                           r"[A-Z]{2,5}|[A-Z]{3}[+-]\d{1,2}(?::?\d\d)?|[+-]\d\d:?\d\d)\s+)+")
_CHAT_LINE = re.compile(r"^(?P<sender>[^:\n#\[]{2,60}?): \S")
_SENDER_OBJECTS = frozenset({"sender", "from", "forwarded_from", "author", "user"})
_SENDER_NAMES = frozenset({"sender", "sender_label", "sender_name", "from", "forwarded_from", "reply_to_sender"})
_SENDER_HANDLES = frozenset({"sender_username", "forwarded_from_username", "username"})
_SENDER_IDS = frozenset({"sender_id", "forwarded_from_id"})
_LABEL_HANDLE = re.compile(r"\s*\(@([A-Za-z0-9_.]{3,32})\)")
_NAME_PAIR = re.compile(r"[\"']?first_?name[\"']?\s*[:=]\s*[\"'](?P<first>[^\"'\n]{2,40})[\"']\s*,\s*"
                        r"[\"']?(?:last_?name|surname|family_?name)[\"']?\s*[:=]\s*"
                        r"[\"'](?P<last>[^\"'\n]{2,40})[\"']", re.I)
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
_BIRTH_DATE = re.compile(
    r"(?:\b(?:dob|d\.o\.b\.?|date[ _-]?of[ _-]?birth|birth[ _-]?date|birthdate|birthday|born(?: on)?)\b|出生日期|生日)"
    r"[\"'\s:：=]*(?:(?:is|was|on)\s+)?(?P<date>\d{4}-\d\d-\d\d|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|"
    r"\d{1,2} " + _MONTH + r",? \d{4}|" + _MONTH + r" \d{1,2},? \d{4}|\d{4}年\d{1,2}月\d{1,2}日)", re.I)
#: A term glued to a path, a file extension or an identifier's other parts: code, not someone's health.
_IDENTIFIER_BEFORE = re.compile(r"[/\\_]$")
_IDENTIFIER_AFTER = re.compile(r"\.[A-Za-z]\w{0,4}\b|[_/\\]")
#: A diffstat's count (`6 deletions(-)`, `1 insertion(+)`): git's words, whatever the changed files are about.
_SYSTEM_USERS = frozenset({"root", "runner", "ubuntu", "admin", "user", "shared", "public", "default", "guest",
                           "openhands", "node", "app", "vscode", "codespace", "ec2-user", "administrator",
                           "all users", "default user", "linuxbrew", "git", "www-data", "nobody", "test"})


@cache
def _given_names() -> frozenset[str]:
    """Given names Faker knows, lower-cased, over the locales agent users write in."""
    import importlib

    words: set[str] = set()
    for locale in ("en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_PT", "pt_BR", "pl_PL", "nl_NL",
                   "sv_SE", "da_DK", "fi_FI", "cs_CZ", "tr_TR", "ru_RU", "ja_JP", "yo_NG", "en_IN", "zh_CN"):
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:
            continue
        for attribute in ("first_names", "first_names_male", "first_names_female", "first_romanized_names"):
            names = getattr(provider, attribute, ())
            words.update(n.lower() for n in (names.keys() if isinstance(names, dict) else names) if isinstance(n, str))
    return frozenset(words | _SHORT_GIVEN_NAMES)


def _plain(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()


def _keyed(unit: Unit) -> bool:
    """Whether the key the value was read under names its dimension (a table's `patient` or `diagnosis`
    column, a `"name":` key): the key is the context that says what the value is."""
    from ec2audit.annotate.prelabel import KEY_HINTS

    key = re.sub(r"\W+", "_", re.sub(r"(?:_part)?(?:_\d+)?$", "", unit.field)).strip("_").lower()
    named_by = load_taxonomy().resolve(key)
    return (KEY_HINTS.get(key) or getattr(named_by, "name", None)) == unit.dimension


def _name_shaped(word: str) -> bool:
    """A capital and lower-case letters (`Jean-Luc`, `Łukasz`, `Zoë`: in any cased script; not `McAdams`), or an
    initial (`J.`)."""
    if re.fullmatch(r"[^\W\d_]\.?", word):
        return word[0].isupper()
    first, *rest = re.split(r"[-'’]", word)
    return (len(first) > 1 and first.isalpha() and first[0].isupper() and first[1:].islower()
            and all(p.isalpha() and p[-1:].islower() and (p[1:].islower() or len(p) == 1) for p in rest))


def _name_rejection(value: str, keyed: bool = False) -> str | None:
    from ec2audit.annotate.recognizers.person import PLACEHOLDER_NAMES

    if _plain(value) in PLACEHOLDER_NAMES:
        return "a placeholder name (John Doe, 张三)"
    if _HAN_NAME.match(value):
        return None
    words = value.replace(",", " ").split()
    if len(words) < 2 or len(words) > 4:
        return "a person's name has two to four words"
    if not all(_name_shaped(w) for w in words):
        return "not name-shaped words"
    known = _given_names()
    if not keyed and not any(_plain(w.strip(".")) in known for w in words if len(w.strip(".")) > 1):
        return "no known given name, and no key (`patient`, `name`) says it is a name"
    return None


def _number_rejection(value: str, before: str = "") -> str | None:
    digits = re.sub(r"\D", "", value)
    if re.search(r"#\s?$", before) and not _ACCOUNT_BEFORE.search(before[-24:]):
        return "an issue or ticket number (`Closes: #1025796`)"
    if re.search(r"(?:https?://|www\.)\S*$", before):
        return "part of a URL"
    if _RUN_BEFORE.search(before[-48:]):
        return "a CI run's, job's or build's number"
    if re.search(r"\d\.\.\.?\d", value):
        return "a range (`cost=0.86..16.91` in a query plan)"
    if re.fullmatch(r"\d+\.\d+", value.strip()):
        return "a decimal number"
    if len(digits) < 7:
        return "too few digits"
    if re.fullmatch(r"1[5-9]\d{8}(?:\d{3})?", digits):
        return "a Unix timestamp"
    if re.fullmatch(r"\d+?0{4,}", digits):
        return "a round number (a duration or size)"
    return None


def _trimmed(value: str) -> str:
    """`value` without quotes, table bars and separators at its ends, nor brackets around it or whose
    partner is not inside it: `(+47 412 34 567` loses its `(`, `(614) 555-0187` keeps it."""
    while True:
        value = value.strip().strip(_EDGE_PUNCTUATION).strip()
        if value[:1] in _BRACKETS and value[-1] == _BRACKETS[value[0]]:
            value = value[1:-1]
        elif value[:1] in _BRACKETS and _BRACKETS[value[0]] not in value[1:]:
            value = value[1:]
        elif value[-1:] in _BRACKETS.values() and not any(o in value[:-1] for o, c in _BRACKETS.items()
                                                            if c == value[-1]):
            value = value[:-1]
        else:
            return value


def cleaned(unit: Unit) -> Unit:
    """The candidate without what a log's layout glued to it: quotes, unpaired brackets and table bars at its
    ends; an e-mail address alone when the value holds one (`Adeyemi|seun@example.com`)."""
    value = _trimmed(unit.value)
    email = _EMAIL.search(value) if unit.dimension == "contact" and "@" in value else None
    value = email[0] if email else value
    return unit if not value or value == unit.value else unit.model_copy(update={"value": value})


def _email_rejection(value: str, before: str) -> str | None:
    from ec2audit.annotate.recognizers.contact import MESSAGE_ID_HEADER, placeholder_mailbox

    mailbox = value.split("@")[0]
    if not _EMAIL.fullmatch(value) or len(re.findall(r"\d", mailbox)) >= 8:
        return "not an e-mail address (a message id?)"
    if MESSAGE_ID_HEADER.search(before[-40:]) or _GENERATED.search(mailbox):
        return "a message id, not a mailbox"
    mailbox, domain = value.lower().split("@", 1)
    if mailbox in _DUMMY_MAILBOXES or {"noreply", "no-reply"} & set(domain.split(".")) or placeholder_mailbox(value):
        return "a placeholder mailbox"
    return "a bot's mailbox" if _BOT_MAILBOX.search(mailbox) else None


def _health_rejection(value: str, before: str, after: str, keyed: bool = False) -> str | None:
    """A condition term is kept when it is several words (`type 2 diabetes`) or, one word, when the text
    around it speaks of health: ICD-10 also names `Amelia` and `deletions` (`git diff --stat`). A term that
    names a topic (`the breast cancer dataset`, `Alzheimer's disease research`) is nobody's condition."""
    from ec2audit.annotate.recognizers.health import TOPIC_AFTER, change_count
    from ec2audit.annotate.recognizers.icd import HEALTH_CONTEXT, statement

    if not re.search(r"[^\W\d_]{3,}", value):
        return "no words"
    if change_count(value, before, after):
        return "a count of a change's lines (`6 deletions(-)`, `\"deletions\": 45`), not someone's condition"
    if _IDENTIFIER_BEFORE.search(before) or _IDENTIFIER_AFTER.match(after):
        return "part of a file name or an identifier (`models/diabetes.py`, `asthma_risk`), not someone's condition"
    if TOPIC_AFTER.match(after):
        return "names a topic (a data set, research, an organisation), not someone's condition"
    if " " in value.strip() or keyed:  # a one-word `Asthma` in a `diagnosis` column is someone's condition
        return None
    if _plain(value) in _given_names():
        return "a given name"
    if _HOLDER_BEFORE.search(before[-40:]) and not re.fullmatch(r"[A-Z][a-z]+", value.strip()):
        return None  # `I have epilepsy`, `my ADHD`; `my Cancer horoscope` is a star sign
    return None if HEALTH_CONTEXT.search(statement(before, after)) else "one medical word, no health context around it"


def _findable(unit: Unit, before: str, after: str) -> bool:
    """Whether the audit can find the candidate where it was found: a value shorter than its dimension's
    minimum (`35%` after 毛利率) counts only next to a context word, which it would lack in every call,
    so it could never leak and would only lower the session's exposure. Without its text, assume so."""
    rules = load_taxonomy().rules(unit.dimension)
    main = normalize_text(unit.value).strip()
    if len(main) >= rules.min_length and main not in COMMON_WORDS or not (before or after):
        return True
    pattern = words_pattern(compile_unit(unit, load_taxonomy()).context_words)
    around = normalize_text(before[-CONTEXT_WINDOW:] + " " + after[:CONTEXT_WINDOW])
    return bool(pattern and pattern.search(around))


def rejection(unit: Unit, before: str = "", after: str = "") -> str | None:
    """Why a discovered candidate is not worth reading, or None to keep it; `before` and `after` are
    the text around it where it was found (a header name, a health context)."""
    from ec2audit.annotate.prelabel import VERSION_BEFORE
    from ec2audit.annotate.recognizers.contact import fictional_phone
    from ec2audit.annotate.recognizers.network import INTERNAL_HOST
    from ec2audit.annotate.recognizers.person import NAME_AFTER, NAME_KEY_BEFORE, TITLE_BEFORE, display_name_ok
    from ec2audit.annotate.recognizers.records import record_number

    value = unit.value.strip()
    if _REDACTED.search(value):
        return "a redaction token"
    if not _findable(unit, before, after):
        return "too short to be told from other text without a context word, and none stands near it"
    if _DATE_SHAPED.match(value) and unit.dimension != "location" and not _keyed(unit):  # a `dob` column's is kept
        return "a date or a dated reference number"
    if unit.dimension == "person_name":
        # `Author: Oluwaseun Adeyemi`, `Oluwaseun Adeyemi <seun@…>`: named a person by what is around it
        keyed = _keyed(unit) or bool(NAME_KEY_BEFORE.search(before[-40:]) or TITLE_BEFORE.search(before[-40:])) or bool(
            NAME_AFTER.match(after)) and display_name_ok(value)
        return _CODE.search(value) and "a code token" or _name_rejection(value, keyed)
    if unit.dimension in ("financial", "health") and record_number(value, before):
        return None  # `POL-88321-B`, `MRN 00482913`: its prefix says whose file it numbers
    if unit.dimension in ("contact", "government_id", "financial"):
        if "@" in value and unit.dimension == "contact":
            return _email_rejection(value, before)
        if _GLUED.search(value):
            return "several values glued together (a `key: value, …` line read whole)"
        if unit.dimension == "contact" and fictional_phone(value):
            return None  # Ofcom's drama numbers end in 0000 as often as not: a phone, not a round number
        if unit.dimension == "financial" and _AMOUNT_MARK.search(value) and _keyed(unit):
            return None  # `Salary: $182,500`, `月薪：¥25,000`: an amount its key names as pay, however few its digits
        return _number_rejection(value, before) if _DIGITS.search(value) else "no digits"
    if unit.dimension == "health":
        return _health_rejection(value, before, after, _keyed(unit))
    if unit.dimension == "credential":
        if _HASH.match(value):
            return "a hash or commit id"
        if _PROSE.search(value) and "-----BEGIN" not in value:
            return "words of a sentence, not a secret (`credential: sanitize the prompt (CVE-…)`)"
        if len(value) < 8 or not (_DIGITS.search(value) and re.search(r"[A-Za-z]", value)):
            return "too short or one kind of character for a secret"
        return None
    if unit.dimension == "network":
        if re.search(r"\s", value) or value.isalpha():
            return "words, not a host or an address (`Infrastructure: add proper configuration …`, `bytes`)"
        if _IPV4.fullmatch(value) and (re.match(r"[-~+]\d", after) or VERSION_BEFORE.search(before[-24:])):
            return "a version number (`alsa-ucm-conf (1.2.7.2-1)`, `version 4.3.0.38`)"
    if unit.dimension == "network" and value.lower() in _NOT_HOSTS:
        return "a local or unspecified address"
    if unit.dimension == "network" and _DNS_NAME.fullmatch(value.lower()) and not INTERNAL_HOST.search(value.lower()):
        return "a public service's host name"
    if unit.dimension == "location":
        if _CODE.search(value) or ":" in value:
            return "a code token"
        if any(value.count(o) != value.count(c) for o, c in ("()", "（）")):
            return "an unpaired bracket: text glued across a layout"
        if _HAN.search(value):  # Chinese writes an address without spaces: a street in it makes it one
            return None if _ZH_PLACE.search(value) else "no street, building or room: a city or a phrase"
        return None if " " in value or "," in value else "one word"
    return "a code token" if _CODE.search(value) or _CAMEL.search(value) else None


def contained(unit: Unit) -> list[Unit]:
    """Candidates inside a rejected one: an e-mail or a phone glued to a name by a log's layout
    (`João Pereira, joao@…, +351 253 555 019`) is still found, by ec2audit's own recognizers."""
    from ec2audit.annotate.recognizers import default_registry

    text = f" {unit.value} "  # a match counts only where the layout separates it from its neighbours
    inner = {text[m.start:m.end].strip(): m.dimension for m in default_registry().analyze(text)
             if m.end - m.start < len(unit.value) and text[m.start - 1] in _SEPARATORS and text[m.end] in _SEPARATORS}
    outer = unit.model_dump(exclude={"weight"})  # an inner value weighs what its own dimension weighs
    return [make_unit({**outer, "value": value, "dimension": dimension, "field": f"{unit.field}_part"})
            for value, dimension in inner.items() if value]


#: What follows a field's name where it was numbered within its entity or found inside another value.
_FIELD_NUMBER = re.compile(r"(?:_part)?(?:_\d+)?$")
_KIND_WORDS = ("email", "phone", "mobile", "tel", "address", "name")


def _kind(unit: Unit) -> str:
    """What a candidate's value is, in the word a field name would use."""
    from ec2audit.annotate.recognizers.records import RECORD_FIELDS, record_number

    value, dimension = unit.value.strip(), unit.dimension
    digits = len(_DIGITS.findall(value))
    found_as_record = _FIELD_NUMBER.sub("", unit.field) in RECORD_FIELDS  # `policy no. 12345`: by the word before
    if dimension in ("financial", "health") and (record_number(value) or found_as_record
                                                 or dimension == "health" and digits >= 4):
        return "record_number"  # `POL-88321-B`; a health value with digits is no condition (`MRN 00482913`)
    if dimension == "contact":
        phone = re.fullmatch(r"[+\d\s().-]+", value) and digits >= 7
        return "email" if "@" in value else "phone" if phone else "handle"
    if dimension == "financial":
        compact = value.replace(" ", "")
        if re.match(r"^[A-Z]{2}\d{2}[A-Z0-9]{8,}$", compact):
            return "iban"
        return "card" if 13 <= digits <= 19 else "account"
    if dimension == "network":
        return "ip_address" if re.fullmatch(r"[\d.:a-fA-F]+", value) and digits else "host"
    return {"person_name": "name", "location": "address", "health": "condition", "government_id": "id_number",
            "credential": "secret"}.get(dimension, dimension)


def _says(key: str, unit: Unit, kind: str) -> bool:
    """Whether a log's own key for a value says what it is: it names the kind (`home_address`,
    `phone_number`), or the value's dimension (`api_key`, `db_password`) without naming another kind."""
    from ec2audit.annotate.prelabel import KEY_HINTS
    from ec2audit.taxonomy import load_taxonomy

    key = key.lower()
    if kind in key:
        return True
    taxonomy = load_taxonomy()
    named_by = taxonomy.resolve(key) or taxonomy.resolve(key.rsplit("_", 1)[-1])  # `db_password`: its last word
    dimension = KEY_HINTS.get(key) or getattr(named_by, "name", None)
    return dimension == unit.dimension and not any(word in key for word in _KIND_WORDS)


def named(units: list[Unit]) -> list[Unit]:
    """Each candidate's field says what its value is: the log's own key when it does (`email`,
    `api_key`), else the kind of value (`From` → `name`, an address under `user_id` → `address`),
    numbered within its entity (`email`, `email_2`)."""
    used: set[tuple[str, str]] = set()
    out = []
    for unit in units:
        kind = _kind(unit)
        key = re.sub(r"\W+", "_", _FIELD_NUMBER.sub("", unit.field)).strip("_").lower()
        base = key if _says(key, unit, kind) else kind
        field, n = base, 1
        while (unit.entity_id, field) in used:
            n += 1
            field = f"{base}_{n}"
        used.add((unit.entity_id, field))
        out.append(unit if field == unit.field else unit.model_copy(update={"field": field}))
    return out


def _context_blocks(text: str) -> Iterator[object]:
    """The JSON of OpenClaw's runtime context blocks in a user message (`Conversation info ⟦openclaw:ctx⟧`,
    older `Sender (untrusted metadata):`), and whether each describes a sender as a whole."""
    for block in _CONTEXT_BLOCK.finditer(text):
        try:
            data = json.loads(block["json"])
        except json.JSONDecodeError:
            continue
        yield {"sender": data} if block["label"].strip().lower().startswith("sender") else data


def _history_senders(text: str) -> Iterator[str]:
    """Senders of the chat lines OpenClaw lists under a context label (`Chat history since last reply:
    ⟦openclaw:ctx⟧`, then `#812 2026-11-20 08:00 UTC Priya Raman: …` per line, up to a blank line)."""
    for block in _CHAT_LINES.finditer(text):
        for line in block["lines"].splitlines():
            sender = _CHAT_LINE.match(_LINE_DETAILS.sub("", line.strip()))
            if sender:
                yield sender["sender"].strip()


def _chat_people(data, found: dict[str, tuple[str, str]], in_sender: bool = False) -> None:
    """Senders' names, handles, ids and phones in a context block, a bot's left out."""
    if isinstance(data, list):
        for item in data:
            _chat_people(item, found, in_sender)
        return
    if not isinstance(data, dict) or data.get("is_bot") is True:
        return
    for key, value in data.items():
        key = key.lower()
        if isinstance(value, dict | list):
            _chat_people(value, found, key in _SENDER_OBJECTS)
            continue
        if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
            continue
        value = str(value).strip()
        if key in _SENDER_NAMES or in_sender and key in ("name", "label"):
            name = _LABEL_HANDLE.sub("", value).strip()
            if name and name.lower() != "unknown sender" and len(name.split()) <= 4 and not _CODE.search(name):
                found.setdefault(name, ("chat_sender", "person_name"))
            handle = _LABEL_HANDLE.search(value)
            if handle:
                found.setdefault(handle[1], ("chat_handle", "contact"))
        elif key in _SENDER_HANDLES or in_sender and key == "username":
            found.setdefault(value.lstrip("@"), ("chat_handle", "contact"))
        elif key in _SENDER_IDS or in_sender and key == "id":
            found.setdefault(value, ("chat_id", "contact"))
        elif in_sender and key == "e164":
            found.setdefault(value, ("chat_phone", "contact"))


def log_identifiers(texts: list[tuple[str, str]], session: str) -> list[Unit]:
    """Chat senders' names, handles and ids (channel envelopes and OpenClaw's runtime context blocks),
    first and last names given as two fields, dates of birth and OS user names in (source, text)
    pairs, as candidate units."""
    found: dict[str, tuple[str, str]] = {}
    for _, text in texts:
        for block in _context_blocks(text):
            _chat_people(block, found)
        for sender in _history_senders(text):
            if sender.lower() != "unknown sender" and len(sender.split()) <= 4 and not _CODE.search(sender):
                found.setdefault(sender, ("chat_sender", "person_name"))
        for pair in _NAME_PAIR.finditer(text):
            name = f"{pair['first']} {pair['last']}"
            if _name_rejection(name) is None:
                found.setdefault(name, ("full_name", "person_name"))
        for birth in _BIRTH_DATE.finditer(text):
            found.setdefault(birth["date"], ("date_of_birth", "other"))
        for envelope in _CHAT_ENVELOPE.finditer(text):
            who = envelope["who"]
            name = who.split("(", 1)[0].strip()
            if name and _name_rejection(name) is None:
                found.setdefault(name, ("chat_sender", "person_name"))
            for match, field in ((_HANDLE.search(who), "handle"), (_CHAT_ID.search(who), "id")):
                if match:
                    found.setdefault(match[1], (f"chat_{field}", "contact"))
        shortest = load_taxonomy().rules("contact").min_length
        for match in _HOME.finditer(text):
            # one shorter than a contact value's minimum is found only beside a word for a contact, never in a path:
            # a unit the audit could not find would only lower the session's exposure (`/home/ines/`)
            if match["user"].lower() not in _SYSTEM_USERS and len(match["user"]) >= shortest:
                found.setdefault(match["user"], ("os_user", "contact"))
    return [make_unit({"task_id": session, "entity_id": "LOG", "field": f"{field}_{i}", "value": value,
                       "dimension": dimension})
            for i, (value, (field, dimension)) in enumerate(found.items(), start=1)]
