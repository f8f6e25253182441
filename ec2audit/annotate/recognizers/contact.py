"""Contact details for the fast path without Presidio: e-mail addresses, North American phones,
international numbers written with their `+` country code and national ones after a word for a phone.

Presidio has these (with context scoring); these keep `use_presidio=False` useful on logs and mail.
An international candidate counts only when `phonenumbers` (Google's libphonenumber metadata, which
Presidio also uses) parses it as a valid number of its country: versions and offsets (`+1.2.3`, `+01:00`) fail.
Numbers reserved for fiction are phones wherever they stand, though libphonenumber calls some invalid: North
America's 555-0100 to 555-0199 and Ofcom's drama ranges (`020 7946 0xxx`, `01632 960xxx`, `07700 900xxx`, …).
Benchmarks and examples (AceBench's tasks) write exactly these, so there they are the values to protect.
"""

from __future__ import annotations

import re

import phonenumbers

from ec2audit.annotate.recognizers.base import PatternRecognizer

#: The header before an `x@y.z` that is a message's or an event's id, no mailbox (`Message-ID:
#: <CAF8x9…@mail.example.com>`, Gmail's `<CAH+k=Yb…@mail.gmail.com>` whose `=` no address starts after; an
#: iCalendar event's `UID:7kukuq…@google.com`).
MESSAGE_ID_HEADER = re.compile(
    r"(?:message-id|in-reply-to|references|thread-index|x-[\w-]*-id|(?<![\w-])(?-i:UID))\s*[:=]\s*[\"'<]?[^\s\"'<>@]*$",
    re.I)


#: Domains reserved for documentation and tests (RFC 2606, 6761): `example.com`, `corp.example`, `*.test`.
_DOCUMENTATION_DOMAIN = re.compile(r"(?:^|\.)(?:example\.(?:com|net|org)|example|test|invalid|localhost)$")
#: A template's blank for a domain: `yourcompany.com`, `your-domain.org`, `mydomain.com`.
_BLANK_DOMAIN = re.compile(r"(?:(?:your|my)[-_]?(?:domain|company|org|organi[sz]ation|business|site|website|server)"
                           r"|domain|company)\.[a-z]{2,}(?:\.[a-z]{2})?")
#: The mailboxes a template writes at such a domain for "an address goes here" (`support@example.com`,
#: `you@example.com`): no one's. A person's (`maria.kessler@example.com`) or a team's there (`payroll@`) is what a
#: benchmark's or an example's data protects.
_TEMPLATE_MAILBOXES = frozenset({
    "support", "info", "help", "contact", "hello", "hi", "sales", "you", "your.name", "yourname", "your-name",
    "your.email", "youremail", "your-email", "your_email", "name", "email", "mail", "user", "username", "test",
    "foo", "bar", "someone", "somebody", "nobody", "admin", "root", "noreply", "no-reply", "webmaster",
    "postmaster", "me", "example"})


def placeholder_mailbox(value: str) -> bool:
    """An address a template writes for "an address goes here": one of its mailboxes at a domain reserved for
    documentation (`support@example.com` in an `.env.example`), or any mailbox at a blank domain
    (`admin@yourcompany.com`)."""
    mailbox, at, domain = value.strip().lower().rpartition("@")
    return bool(at) and (bool(_BLANK_DOMAIN.fullmatch(domain)) or (
        mailbox in _TEMPLATE_MAILBOXES and bool(_DOCUMENTATION_DOMAIN.search(domain))))


#: Words that introduce a phone number, in the languages our users write in (`call me on 655 482 193`, `ring me
#: on 06 12 34 56 78`, `text us at …`).
_PHONE_WORDS = (r"phone|tel|telephone|mobile|cell|(?:call|ring|text|reach) (?:me|us|him|her|them) (?:on|at)|"
                r"whatsapp|sms|"
                r"móvil|movil|teléfono|telefono|telefone|telemóvel|téléphone|portable|handy|telefon|"
                r"ring (?:meg|mig|mij) (?:på|op)|llámame al?|chiamami al|appelle-moi au|ruf mich an unter|"
                r"liga-me para|ligue para|电话|手机|座机|(?:my|his|her|their|your) number")


def _national_phone_ok(value: str) -> bool:
    """A national number (no `+`): seven to twelve digits, not a date or a decimal."""
    return 7 <= len(re.sub(r"\D", "", value)) <= 12 and not re.search(r"\d[.]\d{1,2}$|^\d{4}[-/.]\d\d[-/.]", value)


#: Ofcom's numbers for drama, national digits without their last three or four: London, the big cities,
#: Northern Ireland, Cardiff, the 01632 area, mobiles, freephone, premium rate, UK-wide.
_DRAMA_UK = ("02079460", "01134960", "01144960", "01154960", "01164960", "01174960", "01184960", "01214960",
             "01314960", "01414960", "01514960", "01614960", "02896496", "02920180", "01632960", "07700900",
             "08081570", "09098790", "03069990")


def fictional_phone(value: str) -> bool:
    """A number reserved for fiction: 555-0100 to 555-0199 (with or without an area code and +1), or one of
    Ofcom's drama ranges (national, or +44 with or without its `(0)`)."""
    d = re.sub(r"\D", "", value)
    if re.fullmatch(r"(?:1?\d{3})?55501\d\d", d):
        return True
    uk = "0" + d[2:].removeprefix("0") if value.lstrip().startswith("+44") else d
    return len(uk) == 11 and uk.startswith(_DRAMA_UK)


def _international_phone_ok(value: str) -> bool:
    if fictional_phone(value):
        return True
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(value, None))
    except phonenumbers.NumberParseException:
        return False


RECOGNIZERS = [
    # no mailbox: a URL's user (`https://abc123@o1.ingest.sentry.io/42`), an SSH remote (`git@github.com:acme/app`)
    PatternRecognizer("email", "EMAIL_ADDRESS", "contact", (
        (r"(?<![\w.+/-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}(?![\w-]|:[\w~.-]+/)", 0.8),
    )),
    PatternRecognizer("phone-nanp", "PHONE_NUMBER", "contact", (
        (r"(?<![\w.-])(?:\+?1[ .-]?)?(?:\(\d{3}\) ?|\d{3}[.-])\d{3}[.-]\d{4}(?![\w-]|\.\d)", 0.6),
    )),
    PatternRecognizer("phone-international", "PHONE_NUMBER", "contact", (
        # after a key's colon with no space (a vCard's `TEL;TYPE=WORK:+49 30 901820`), not after a time's
        (r"(?<![\w+./-])(?<!\d:)\+[1-9]\d{0,2}(?:[ .-]?(?:\(\d{1,5}\)|\d{1,5})){1,7}(?![\w+]|[.-]?\d)", 0.7),
    ), validate=_international_phone_ok, trim=r"[ .-](?:\(\d{1,5}\)|\d{1,5})$"),
    # a number reserved for fiction is one wherever it stands; a random 555-1234 is not
    PatternRecognizer("phone-fictional", "PHONE_NUMBER", "contact", (
        (r"(?<![\w.+-])(?:(?:\+?1[ .-]?)?(?:\(\d{3}\)|\d{3})[ .-]?555[ .-]?|555[ .-])01\d\d(?![\w-]|\.\d)", 0.6),
        (r"(?<![\w.+-])(?:\+44[ .-]?(?:\(0\)[ .-]?)?|\(?0)\d{2,4}\)?[ .-]?\d{3,4}[ .-]?\d{3,4}(?![\w-]|\.\d)", 0.6),
    ), validate=fictional_phone),
    # without a country code a number is a phone only where a word says so
    PatternRecognizer("phone-after-word", "PHONE_NUMBER", "contact", (
        (rf"(?i:\b(?:{_PHONE_WORDS})(?:[_-]?(?:number|num|no|nr))?\b)[^\n\d+]{{0,12}}?"
         r"(?P<value>\(?\d[\d ().-]{5,16}\d)(?![\w-]|\.\d)", 0.5),
    ), validate=_national_phone_ok),
]
