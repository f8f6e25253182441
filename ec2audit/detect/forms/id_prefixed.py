"""Base64 glued onto an API id's prefix: a tool or agent that mints its own ids encodes what they name
(`call_eyJwaG9uZSI6…`, `file-MTM5MjI4ODMzNjY=`). The base64 alphabet holds `_` and `-`, so the prefix and
the run read as one token, which decodes to nothing; the rewrite reads the run after the prefix's separator
as the text it encodes (and what that encodes in turn, `views.decoded_text`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, any_case, register
from ec2audit.detect.views import Replacement, ascii_runs, base64_text, decoded_text

#: Id prefixes of the OpenAI and Anthropic APIs (and the agents that copy them), each with its separator.
PREFIXES = ("call_", "fc_", "toolu_", "msg_", "resp_", "run_", "step_", "thread_", "asst_", "batch_", "vs_",
            "file_", "file-", "chatcmpl-", "req_", "ft-", "org-", "user-", "sess_", "tool_")
_RUN = re.compile(r"(?<![A-Za-z0-9])(?:" + "|".join(re.escape(p) for p in PREFIXES)
                  + r")([A-Za-z0-9+/_-]{8,}={0,2})(?![\w+/=-])", re.IGNORECASE)
CUE = "id_prefixed.cue"
# Every match of `_RUN` lies in a maximal run of these characters, holds a separator and is at least the shortest
# prefix + 8 long; its look-arounds read one character either side. Under IGNORECASE the classes also take
# these four non-ASCII letters, which break the runs: a text holding one is read whole.
_MEMBERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_=-"
_LEAST = min(map(len, PREFIXES)) + 8
_FOLDING = ("\u0130", "\u0131", "\u017f", "\u212a")


@register
class IdPrefixed(Form):
    name = "id_prefixed"
    #: a prefix in any case; a match is one token, on one line
    cue = "|".join(any_case(prefix) for prefix in PREFIXES)
    cue_lines = 0

    def compile(self, index) -> None:
        for prefix in PREFIXES:
            index.add(prefix, CUE, -1)

    def wanted(self, matches) -> bool:
        return CUE in matches

    def rewrite(self, text: str) -> Iterator[Replacement]:
        for m in _matches(text):
            if (decoded := base64_text(m.group(1))) is not None:
                inner = decoded_text(decoded)
                # from the separator on, read as a space: the value is a word of its own, not glued to the prefix
                yield m.start(1) - 1, m.end(1), " " + (inner[0] if inner else decoded)


def _matches(text: str) -> Iterator[re.Match]:
    """`_RUN.finditer(text)`, read only in the runs that may hold a match (8 MB payload: 0.59 → 0.02 s)."""
    if any(ch in text for ch in _FOLDING):
        yield from _RUN.finditer(text)
        return
    for start, end in ascii_runs(text, _MEMBERS, _LEAST, holding="_-"):
        yield from _RUN.finditer(text, start, end + 1)
