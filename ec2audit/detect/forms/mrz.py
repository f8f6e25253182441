"""A passport's or visa's machine-readable zone (ICAO 9303), its second line pasted into a text: the document number,
nationality, date of birth, sex and expiry run together with check digits and `<` fillers
(`EV60312984POL8712246M3104095<<<<<<<<<<<<<<06`). A border officer reads it field by field; the tiers read the
fields set apart, the dates as ISO dates (a birth year of two digits in the century that puts it in the past, an
expiry in this one). Check digits are not verified: a hand-copied line gets them wrong and says the same."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

#: a TD3 or TD2 second line (ICAO 9303 parts 4 and 5): number, check, nationality, birth, check, sex, expiry, check
_LINE = re.compile(r"(?<![A-Z0-9<])([A-Z0-9<]{9})([0-9<])([A-Z<]{3})(\d{6})([0-9<])([MFX<])(\d{6})([0-9<])"
                   r"([A-Z0-9<]{7,16})?")


@register
class Mrz(Form):
    name = "mrz"
    cue = r"[0-9<][A-Z<]{3}[0-9]{7}[MFX<][0-9]{7}"
    cue_lines = 0

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _LINE.finditer(text):
            born, expires = _date(m[4], past=True), _date(m[7], past=False)
            if born is None or expires is None:
                continue
            number, optional = m[1].strip("<"), (m[9] or "").strip("<")
            fields = [number.replace("<", " "), m[2], m[3].strip("<"), born.isoformat(), m[5], m[6],
                      expires.isoformat(), m[8], *([optional.replace("<", " ")] if optional else [])]
            yield m.start(), m.end(), " " + " ".join(fields) + " "


def _date(yymmdd: str, past: bool) -> dt.date | None:
    """A date of two-digit year: a birth in the last hundred years, an expiry from 2000 on."""
    year = int(yymmdd[:2]) + 2000
    if past and year > dt.date.today().year:
        year -= 100
    try:
        return dt.date(year, int(yymmdd[2:4]), int(yymmdd[4:]))
    except ValueError:
        return None
