"""Contact details for the fast path without Presidio: e-mail addresses, North American phones and
international numbers written with their `+` country code.

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
]
