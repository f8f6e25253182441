"""Content lines folded as vCard (RFC 6350 §3.2), iCalendar (RFC 5545 §3.1) and LDIF (RFC 2849) fold them: a
writer breaks a line longer than 75 octets anywhere, inside a value as often as not, and starts the next line with
one space or tab (`EMAIL:lena.hart<CRLF> mann@example.org`). A reader (a contacts app, a calendar, `ldapmodify`)
deletes the break and that one character; so do the tiers, inside such a document only: a `BEGIN:VCARD` …
`END:VCARD` (or VCALENDAR, VEVENT, VTODO, VJOURNAL) block, cut off or not, and an LDIF entry from its `dn:` line
to the empty line after it. A fold may cut an iCalendar escape (`\\,`, `\\n`) in two: the escape is read
whole, not as a shell's line continuation. Elsewhere a line break before an indented line is prose or code, and
stays."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# a vCard or iCalendar block to its END line (or the text's end, where a tool cut it off), and an LDIF entry to
# its empty line; each starts with a literal or a class, which the regex engine skips ahead to in C
_BLOCK = re.compile(r"[Bb](?i:EGIN:(VCARD|VCALENDAR|VEVENT|VTODO|VJOURNAL)\b.*?(?:END:\1\b|\Z))", re.S)
_ENTRY = re.compile(r"dn::? .*?(?:\r?\n\r?\n|\Z)", re.S)
_FOLD = re.compile(r"\r?\n[ \t]")


@register
class FoldedLines(Form):
    name = "folded_lines"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        documents = [m.span() for m in _BLOCK.finditer(text)] if "BEGIN:" in text or "begin:" in text else []
        if "dn:" in text:
            documents += [m.span() for m in _ENTRY.finditer(text) if not m.start() or text[m.start() - 1] == "\n"]
        for first, last in documents:
            for m in _FOLD.finditer(text, first, last):
                start, end = m.span()
                if text[start - 1] == "\\" and end < len(text):  # a fold inside an escape (`\\<fold>n`): the
                    yield start - 1, end + 1, "\\" + text[end]  # escape, whole, not a line continuation
                else:
                    yield start, end, ""
