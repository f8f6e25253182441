"""Text in base32 (RFC 4648): `base32 notes.txt` (GNU coreutils, lines of 76), Python's `b32encode`, `basenc
--base32hex` (the extended-hex alphabet, § 7), an onion address's or a CID's lower case; with its `=` padding or
without (as in URLs and otpauth links). A reader that decodes it reads the text; so do the tiers, where a run in
one case (whole lines of it joined) decodes, in either alphabet, to UTF-8 text that prints. A number (no letter)
and a lower-case word (no digit: prose is full of them) are not tried; an upper-case word or code
(`INTERNATIONAL`) is tried and fails: its length is none base32 has, or its bytes are no text."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

#: a run of upper-case letters and digits holding a letter, or of lower-case ones holding a letter and a digit,
#: standing alone (after a `key=` too), continued by whole lines of the same (a wrapped block), then its padding
_RUN = re.compile(r"(?<![A-Za-z0-9+/])(?:(?=[0-9]*[A-Z])[A-Z0-9]{8,}(?:\r?\n[A-Z0-9]{8,})*"
                  r"|(?=[a-z]*[0-9])(?=[0-9]*[a-z])[a-z0-9]{8,}(?:\r?\n[a-z0-9]{8,})*)={0,6}(?![A-Za-z0-9+/=])")
_PADDING = {0: 0, 2: 6, 4: 4, 5: 3, 7: 1}  # characters past a multiple of eight → the `=` that complete them
#: RFC 4648's base32hex alphabet → its base32 alphabet (`b32hexdecode` is Python 3.10's)
_FROM_HEX = str.maketrans("0123456789ABCDEFGHIJKLMNOPQRSTUV", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
_BASE32 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
_BASE32HEX = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUV")


def text_of(token: str) -> str | None:
    """The UTF-8 text that the base32 `token` (either alphabet, padded or not, in one case) encodes, where it is
    text that prints."""
    bare = token.rstrip("=")
    padding = _PADDING.get(len(bare) % 8)
    if padding is None or len(token) not in (len(bare), len(bare) + padding):
        return None
    bare = bare.upper()
    letters = set(bare)
    for alphabet, spelled in ((_BASE32, bare), (_BASE32HEX, bare.translate(_FROM_HEX))):
        if letters <= alphabet:
            try:
                decoded = base64.b32decode(spelled + "=" * padding).decode("utf-8")
            except (binascii.Error, UnicodeDecodeError):
                continue
            if all(c.isprintable() or c in "\t\n\r" for c in decoded):
                return decoded
    return None


@register
class Base32(Form):
    name = "base32"
    #: eight characters of a run, in lower case one of them a digit (at any of the eight places: prose's words are
    #: no cue); a run's first line holds them, a wrapped block's next lines too
    cue = "|".join(["[A-Z2-7]{8}", "[0-9A-V]{8}", *(
        "[0-9a-v]" * k + "[0-9]" + "[0-9a-v]" * (7 - k) for k in range(8))])
    cue_lines = 1

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _RUN.finditer(text):
            decoded = text_of(re.sub(r"\r?\n", "", m.group()))
            if decoded is not None:
                yield m.start(), m.end(), decoded
