"""The proxy's placing walk (`redact.Redactor.detect`, `fields._join_pieces`): a value cut across texts the
model reads as one (two messages of one side, the text parts of one content list) is replaced whole, whatever
else was found in those texts first: a piece of the value standing alone in the next text (`forms.concatenation`'s
labelled pieces), another value, a join with a neighbouring text. The edits finally made to a text cover every
character of every hit placed in it, its own or a joined one's.

Over loopback HTTP in front of the scripted stand-in upstream, in both enforcing modes: redact forwards no run
of 4 of the value's characters and records as the request exactly what it forwarded; block forwards nothing.
The values are credentials of random characters behind common prefixes (the pieces form reads credentials), and
the third walk's record; each is cut where a single scan reads it whole, or in pieces of it (a token longer than
what a join reads of either text); cuts across three messages, read in chains since session 22, are walked by
`tests/test_intercept_forms_walk_11.py`. Named examples add a value placed by two joins and one
whose own hit starts before what a join reads."""

from __future__ import annotations

import itertools
import random
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_intercept_forms_walk_2 import _send
from test_intercept_forms_walk_3 import RECORD
from test_intercept_guard_properties import SETTINGS

from ec2audit.intercept.redact import PLACEHOLDER
from ec2audit.units import make_unit

_RNG = random.Random(21)
_KEY_CHARACTERS = string.ascii_letters + string.digits
KEYS = [prefix + "".join(_RNG.choices(_KEY_CHARACTERS, k=_RNG.randint(14, 36)))
        for prefix in ("sk-proj-", "ghp_", "AKIA", "sk_live_", "xoxb-", "")]
#: A token longer than the stretch a join reads of each text (`fields.JOIN_REACH`): cut far in, the first text's
#: own hit starts before that stretch.
TOKEN = "eyJ" + "".join(_RNG.choices(_KEY_CHARACTERS, k=256))
KEYS.append(TOKEN)
VALUES = [*KEYS, *(RECORD[f] for f in ("api_key", "phone", "iban", "email", "national_id"))]
UNITS = [*(make_unit({"task_id": "t1", "entity_id": "K", "field": f"key_{i}", "value": v, "dimension": "credential"})
           for i, v in enumerate(KEYS)),
         *(make_unit({"task_id": "t1", "entity_id": "P1", "field": f, "value": RECORD[f],
                      "dimension": {"api_key": "credential", "phone": "contact", "email": "contact",
                                    "iban": "financial", "national_id": "government_id"}[f]})
           for f in ("api_key", "phone", "iban", "email", "national_id"))]
CREDENTIALS = {*KEYS, RECORD["api_key"]}
RUN = 4  # characters of a value in a row that give part of it away


def _runs(value: str) -> set[str]:
    return {value[k:k + RUN] for k in range(len(value) - RUN + 1)}


_ANY_RUN = set().union(*map(_runs, VALUES))
#: Words around the values that share no run with any of them (a run the test finds is the value's).
_WORDS = [w for w in ("call", "today", "ok", "the", "key", "is", "see", "part", "then", "—", "为", "客户", "密钥",
                      "第一段", "第二段", "rest", "later", "Lena", "first half:", "and", "(", ")")
          if not _runs(w) & _ANY_RUN]
_words = st.lists(st.sampled_from(_WORDS), max_size=5).map(" ".join)
_episodes = itertools.count()


def _said(*texts) -> list[dict]:
    """User turns: a string each, or a list of text parts."""
    return [{"role": "user", "content": t if isinstance(t, str) else [{"type": "text", "text": p} for p in t]}
            for t in texts]


@st.composite
def cut_values(draw):
    """User turns that hold a value cut in two or three, and maybe a piece of it or another value after it."""
    value = draw(st.sampled_from(VALUES))
    parts = draw(st.booleans())  # the value's pieces in the text parts of one list, else two messages
    cuts = sorted(draw(st.sets(st.integers(1, len(value) - 1), min_size=1, max_size=2 if parts else 1)))
    pieces = [value[a:b] for a, b in zip((0, *cuts), (*cuts, len(value)), strict=True)]
    before, after = draw(_words), draw(_words)
    extra = draw(st.sampled_from(["", "piece", "other"]))  # the last text holds more: a piece alone, a value
    if extra == "piece" and value in CREDENTIALS:
        start = draw(st.integers(0, max(0, len(value) - 12)))
        after += " then " + value[start:start + draw(st.integers(12, max(12, len(value) - start)))]
    elif extra == "other":
        after += " and " + draw(st.sampled_from([v for v in VALUES if v != value])) + " too"
    texts = [f"{before} {pieces[0]}".lstrip(), *pieces[1:-1], f"{pieces[-1]} {after}".rstrip()]
    lead, follow = draw(_words), draw(_words)  # turns before and after, run on into the value's texts
    return _said(*[lead] * bool(lead), *([texts] if parts else texts), *[follow] * bool(follow))


def _texts(messages: list[dict], keep: bool = False) -> list[str]:
    """The texts of the messages in reading order, placeholders out unless `keep` (a run across one is no run)."""
    out = []
    for m in messages:
        for text in [m["content"]] if isinstance(m["content"], str) else [p["text"] for p in m["content"]]:
            out.append(text if keep else PLACEHOLDER.sub("\0", text))
    return out


def runs_forwarded(messages: list[dict]) -> list[str]:
    """The runs of `RUN` of a value's characters in the texts as forwarded, each and all read on together."""
    texts = _texts(messages)
    return sorted(r for r in _ANY_RUN if any(r in t for t in [*texts, "".join(texts)]))


KEY = RECORD["api_key"]
#: Cases the random ones seldom reach, by name.
EXAMPLES = {
    # walk 6's: the rest of the key stands alone in the next turn (a piece of it); the joined edit replaces it
    "piece in the next turn": _said("call " + KEY[:11], KEY[11:] + " call"),
    # the head of a turn's text parts is the tail of their run join and the head of the message join: both are
    # placed, each character once
    "two joins": _said("x " + KEY[:5], [KEY[5:20], KEY[20:] + " y"]),
    # the first turn's own hit starts before the stretch of it the join reads: its head stays its own edit
    "beyond the join's reach": _said("x " + TOKEN[:250], TOKEN[250:] + " y"),
    # a body the large lane reads (`lanes.LARGE_BODY`): detected and encoded in the worker process, placed here
    "in a large body": _said("ok " * 90_000 + "\n", "call " + KEY[:11], KEY[11:] + " call"),
}


def assert_placed(proxy, messages: list[dict]) -> None:
    """Redact forwards no run of a value and records what it forwarded; block forwards nothing."""
    mode = proxy[0]
    answer, sent, record = _send(proxy, f"placing-{next(_episodes)}", {"messages": messages})
    if mode == "block":
        assert answer.status_code == 403 and sent == []
        return
    assert answer.status_code == 200
    forwarded = sent[0]["body"]
    assert runs_forwarded(forwarded["messages"]) == [], forwarded["messages"]
    # recorded as forwarded is what was, and each span replaced is one placeholder there
    assert record.request == forwarded
    assert record.redactions == sum(len(PLACEHOLDER.findall(t)) for t in _texts(forwarded["messages"], keep=True))


@SETTINGS
@given(messages=cut_values())
def test_a_cut_value_goes_out_nowhere(proxy, messages):
    assert_placed(proxy, messages)


@pytest.mark.parametrize("case", sorted(EXAMPLES))
def test_a_value_placed_by_two_walks_goes_out_nowhere(proxy, case):
    assert_placed(proxy, EXAMPLES[case])
