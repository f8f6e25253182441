"""Contact details for the fast path without Presidio: e-mail addresses and North American phones.

Presidio has both (with context scoring); these keep `use_presidio=False` useful on logs and mail.
"""

from __future__ import annotations

from ec2audit.annotate.recognizers.base import PatternRecognizer

RECOGNIZERS = [
    PatternRecognizer("email", "EMAIL_ADDRESS", "contact", (
        (r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}(?![\w-])", 0.8),
    )),
    PatternRecognizer("phone-nanp", "PHONE_NUMBER", "contact", (
        (r"(?<![\w.-])(?:\+?1[ .-]?)?(?:\(\d{3}\) ?|\d{3}[.-])\d{3}[.-]\d{4}(?![\w-]|\.\d)", 0.6),
    )),
]
