"""Contact details for the fast path without Presidio: e-mail addresses, North American phones,
international numbers written with their `+` country code and national ones after a word for a phone.

Presidio has these (with context scoring); these keep `use_presidio=False` useful on logs and mail.
An international candidate counts only when `phonenumbers` (Google's libphonenumber metadata, which
Presidio also uses) parses it as a valid number of its country: versions and offsets (`+1.2.3`, `+01:00`) fail.
"""

from __future__ import annotations

import re

import phonenumbers

from ec2audit.annotate.recognizers.base import PatternRecognizer

#: The mail header before an `x@y.z` that is a message's id, no mailbox (`Message-ID: <CAF8x9…@mail.example.com>`).
MESSAGE_ID_HEADER = re.compile(
    r"(?:message-id|in-reply-to|references|thread-index|x-[\w-]*-id)\s*[:=]\s*[\"'<]?\s*$", re.I)


#: Words that introduce a phone number, in the languages our users write in (`call me on 655 482 193`).
_PHONE_WORDS = (r"phone|tel|telephone|mobile|cell|call (?:me|us|him|her) (?:on|at)|whatsapp|sms|"
                r"móvil|movil|teléfono|telefono|telefone|telemóvel|téléphone|portable|handy|telefon|"
                r"ring (?:meg|mig|mij) (?:på|op)|llámame al?|chiamami al|appelle-moi au|ruf mich an unter|"
                r"liga-me para|ligue para|电话|手机|座机|(?:my|his|her|their|your) number")


def _national_phone_ok(value: str) -> bool:
    """A national number (no `+`): seven to twelve digits, not a date or a decimal."""
    return 7 <= len(re.sub(r"\D", "", value)) <= 12 and not re.search(r"\d[.]\d{1,2}$|^\d{4}[-/.]\d\d[-/.]", value)


def _international_phone_ok(value: str) -> bool:
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
        (r"(?<![\w+.:/-])\+[1-9]\d{0,2}(?:[ .-]?(?:\(\d{1,5}\)|\d{1,5})){1,7}(?![\w+]|[.-]?\d)", 0.7),
    ), validate=_international_phone_ok, trim=r"[ .-](?:\(\d{1,5}\)|\d{1,5})$"),
    # without a country code a number is a phone only where a word says so
    PatternRecognizer("phone-after-word", "PHONE_NUMBER", "contact", (
        (rf"(?i:\b(?:{_PHONE_WORDS})(?:[_-]?(?:number|num|no|nr))?\b)[^\n\d+]{{0,12}}?"
         r"(?P<value>\(?\d[\d ().-]{5,16}\d)(?![\w-]|\.\d)", 0.5),
    ), validate=_national_phone_ok),
]
