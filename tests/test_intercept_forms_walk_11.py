"""The guard's eleventh walk (session 22), walked as `test_intercept_forms_walk_9.py` walks: over loopback HTTP in
front of the scripted stand-in upstream, the third walk's customer record in every request position of the wire
APIs, streamed too, written as more tool output carries it, each of which forwarded values before:

- a file's bytes as `xxd -i` prints them, a C array twelve bytes a line, a value's bytes cut by a line's end;
- `git diff --word-diff-regex=.`: a value changed in one character, cut around its change (`1392288336[-5-]{+6+}`),
  the record's value on the new side of some lines and on the old side of others;
- PowerShell's `Format-List` on a Chinese console, a long value cut at the console's width under its column;
- a mail's Subject in RFC 2047 encoded words cut every 30 bytes, a character's bytes in two words, base64 and Q (the
  cells held before: each value the cut splits has a neighbour found in its words; a sender's name alone, cut inside
  a character, went out: `test_a_name_cut_inside_a_character_holds`).

Then a request's structure: a value cut into the chunks of a JSON array (`["+86 139", "2288 3366"]`, a base64 file as
its 76-character lines, a name as CSV cells) and a value cut across three messages or tool results (read two at a
time, it was never whole); and a logfmt line's `peer=2001:db8::…`, which the quoted-printable form read as `peer 01:…`
(its `=20`), hiding the address from the IPv6 form.

Judged as the earlier walks judge, on what the upstream RECEIVED read with every encoding of the earlier walks and
this one undone: redact forwards no value, block forwards nothing. Near misses go out untouched."""

from __future__ import annotations

import base64
import email.errors
import email.header
import functools
import ipaddress
import json
import re

import pytest
from test_intercept_forms_walk import CELLS, assert_held, leaked, walk_tests
from test_intercept_forms_walk_2 import _send as exchange
from test_intercept_forms_walk_2 import near_misses_test
from test_intercept_forms_walk_3 import (
    _CANONICAL,
    _PLAIN,
    NEAR,
    RECORD,
    UNIT_IDS,
    UNITS,
    _ascii_folded,
    _more_decodings,
)
from test_intercept_forms_walk_6 import _call, _result, _user
from test_intercept_forms_walk_8 import _line, _these
from test_intercept_forms_walk_9 import IPV6, IPV6_UNIT, _addresses, _these_9

from ec2audit.gateway.positions import ANTHROPIC, API_PATHS, CHAT, RESPONSES
from ec2audit.intercept.redact import PLACEHOLDER

__all__ = ["CELLS", "FORMS", "GROUPS", "UNITS", "walk_form"]

GUARDED_UNITS = [*UNITS, IPV6_UNIT]


# --- the forms: a record → the text that carries it ----------------------------------------------------------

def _xxd_i(r: dict) -> str:
    """`xxd -i record.txt`: the file's bytes as a C array, twelve a line."""
    data = (_line(r) + "\n").encode()
    rows = [", ".join(f"0x{b:02x}" for b in data[k:k + 12]) for k in range(0, len(data), 12)]
    return ("unsigned char record_txt[] = {\n  " + ",\n  ".join(rows) + "\n};\n"
            f"unsigned int record_txt_len = {len(data)};\n")


def _changed(v: str) -> str:
    """The value with its middle character another."""
    k = len(v) // 2
    return v[:k] + ("李" if not v[k].isascii() else "7" if v[k] != "7" else "8") + v[k + 1:]


def _word_diff(r: dict) -> str:
    """`git log -p --word-diff-regex=.` of a change to every field: the record's value is what came in on even lines
    and what went on odd ones."""
    def line(n: int, v: str) -> str:
        k = len(v) // 2
        new, old = (v, _changed(v)) if n % 2 == 0 else (_changed(v), v)
        return f"{v[:k]}[-{old[k]}-]{{+{new[k]}+}}{v[k + 1:]}"
    body = "".join(f" {k}: {line(n, v)}\n" for n, (k, v) in enumerate(r.items()))
    return ("commit 3f2a9c1\nAuthor: ops <ops@example.net>\n\n    update customer\n\ndiff --git a/c.yml b/c.yml\n"
            "--- a/c.yml\n+++ b/c.yml\n@@ -1,8 +1,8 @@\n" + body)


def _format_list(r: dict, width: int = 60) -> str:
    """`Get-CrmContact | Format-List` on a Chinese console `width` cells wide: names padded to one column, a value
    cut at the console's edge (a CJK character two cells) and run on under its column."""
    pad = max(map(len, r)) + 3
    out = []
    for k, v in {**r, "Notes": _line(r)}.items():
        line, cells = f"{k:<{pad - 3}} : ", pad
        for c in v:
            wide = 2 if "\u3000" <= c <= "\u9fff" else 1
            if cells + wide > width:
                out.append(line)
                line, cells = " " * pad, pad
            line, cells = line + c, cells + wide
        out.append(line)
    return "\r\n".join(["", *out, "", ""])


def _cut_words(r: dict, encoding: str) -> str:
    """A Subject a mailer encodes 30 bytes a word, whatever character the cut falls in."""
    data = ("Kunde: " + _line(r)).encode()
    pieces = [data[k:k + 30] for k in range(0, len(data), 30)]
    words = [f"=?UTF-8?B?{base64.b64encode(p).decode()}?=" if encoding == "B"
             else "=?UTF-8?Q?" + "".join(_q(b) for b in p) + "?=" for p in pieces]
    return "From: crm@example.net\r\nSubject: " + "\r\n ".join(words) + "\r\n"


def _q(byte: int) -> str:
    """A byte as a Q word writes it: an ASCII letter or digit as it is, a space as `_`, the rest `=XX`."""
    return chr(byte) if chr(byte).isalnum() and byte < 128 else "_" if byte == 32 else f"={byte:02X}"


FORMS_11 = {"xxd_i": _xxd_i, "word_diff": _word_diff, "format_list": _format_list,
            "encoded_words_cut_b": functools.partial(_cut_words, encoding="B"),
            "encoded_words_cut_q": functools.partial(_cut_words, encoding="Q")}
FORMS = {name: functools.partial(lambda make: [make(RECORD)], make) for name, make in FORMS_11.items()}
#: lines, each of them
ONE_LINE = set(FORMS_11)


# --- the reader: what the upstream received, read with this walk's encodings undone too -------------------------

_C_BYTES = re.compile(r"0x([0-9a-f]{2})(?:,\s*|(?=\s*\}))")
_WORDS = re.compile(r"(?:=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=\s*)+")
_CHANGED = re.compile(r"^[^\n]*(?:\[-|\{\+)[^\n]*", re.M)
_OLD, _NEW = re.compile(r"\{\+[^\n]*?\+\}|\[-|-\]"), re.compile(r"\[-[^\n]*?-\]|\{\+|\+\}")
_RUN_ON = re.compile(r"^[^\n]*(?:\r?\n {4,}[^\n]*)+", re.M)


def _header(words: str) -> str:
    try:
        return str(email.header.make_header(email.header.decode_header(words)))
    except (UnicodeDecodeError, LookupError, email.errors.HeaderParseError):
        return words


def _these_11(text: str) -> set[str]:
    """The stretches this walk's forms stand in, read (each a short text: the earlier walks' readers read every
    reading again, and a large body's text read whole that many times more takes seconds)."""
    changed = _CHANGED.findall(text)
    return {bytes.fromhex("".join(_C_BYTES.findall(text))).decode("utf-8", "replace"),
            "\n".join(_OLD.sub("", line) + "\n" + _NEW.sub("", line) for line in changed),
            "\n".join(re.sub(r"\r?\n {4,}", "", block) for block in _RUN_ON.findall(text)),
            "\n".join(_header(words) for words in _WORDS.findall(text))}


def leaks(sent: dict) -> list[str]:
    found = leaked(sent, {**_CANONICAL, **_PLAIN},
                   lambda t: _more_decodings(t) | _these(t) | _these_9(t) | _these_11(t) | {_ascii_folded(t)})
    return sorted({f.split(" (")[0] for f in found})


# --- the walk ------------------------------------------------------------------------------------------------

#: Cells where the guard does not hold yet (none)
KNOWN_GAPS: dict[str, set] = {}

#: The walk's cells of one form (`guard_forms_matrix.py --walk 11`) and its three tests (walk 1's `walk_tests`)
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)


test_near_misses_go_out_untouched = near_misses_test(FORMS_11, NEAR)


@pytest.mark.parametrize("encoding", ["B", "Q"])
def test_a_name_cut_inside_a_character_holds(proxy, encoding):
    """A sender's name in two encoded words, 阳's bytes in both (`=?UTF-8?B?5qyn6Q==?= =?UTF-8?B?mLPlqJzlqJw=?=`): read
    as one, as `email.header` reads them; found, replaced (redact) or refused (block)."""
    name = RECORD["name"].encode()
    words = [f"=?UTF-8?B?{base64.b64encode(p).decode()}?=" if encoding == "B"
             else "=?UTF-8?Q?" + "".join(_q(b) for b in p) + "?=" for p in (name[:4], name[4:])]
    text = f"From: {words[0]}\r\n {words[1]} <crm@example.net>\r\nSubject: Rechnung\r\n"
    body = {"model": "echo", "messages": [{"role": "user", "content": text}]}
    unit = {u for u in UNIT_IDS if u.endswith("/name")}
    assert_held(proxy, f"cut-name-{encoding}", "/v1/chat/completions", unit, leaks, json=body)


# --- a value cut into a JSON array's chunks --------------------------------------------------------------------

def _b64_lines(r: dict) -> list[str]:
    """A file's base64 as its 76-character lines (`base64` without `-w0`, MIME), split into an array."""
    encoded = base64.b64encode(_line(r).encode()).decode()
    return [encoded[k:k + 76] for k in range(0, len(encoded), 76)]


#: name → (the record → the array, the units it holds)
CHUNKS = {"phone groups": (lambda r: [f"+86 {r['phone'][:3]}", f"{r['phone'][3:7]} {r['phone'][7:]}"], {"phone"}),
          "email pieces": (lambda r: [r["email"][:9], r["email"][9:18], r["email"][18:]], {"email"}),
          "name cells": (lambda r: [r["name"][:2], r["name"][2:]], {"name"}),
          "base64 lines": (_b64_lines, set(RECORD))}


def _in_tool_call(data: list) -> dict:
    """A chat body whose history holds a tool call writing `data` (its arguments: JSON text, walked inside)."""
    arguments = json.dumps({"path": "/tmp/record", "chunks": data}, ensure_ascii=False)
    call = {"id": "call_1", "type": "function", "function": {"name": "write", "arguments": arguments}}
    return {"messages": [{"role": "user", "content": "Save the record."},
                         {"role": "assistant", "content": None, "tool_calls": [call]},
                         {"role": "tool", "tool_call_id": "call_1", "content": "saved"}]}


def _chunk_body(place: str, data: list) -> dict:
    if place == "tool call":
        return _in_tool_call(data)
    if place == "tool result (JSON text)":
        return {"messages": [{"role": "user", "content": "Read it."},
                             {"role": "user", "content": json.dumps({"chunks": data}, ensure_ascii=False)}]}
    return {"messages": [{"role": "user", "content": "Read it."}], "metadata": {"chunks": data}}


CHUNK_PLACES = ["tool call", "tool result (JSON text)", "metadata"]


def _written(sent: dict, place: str) -> list:
    body = sent["body"]
    if place == "tool call":
        return json.loads(body["messages"][1]["tool_calls"][0]["function"]["arguments"])["chunks"]
    if place == "tool result (JSON text)":
        return json.loads(body["messages"][1]["content"])["chunks"]
    return body["metadata"]["chunks"]


def chunk_outcome(proxy, place: str, kind: str) -> str:
    """"held" where the guard finds every unit the chunks hold and forwards none (redact keeps the array's length:
    the value's placeholder in the chunk where it starts, the chunks it covers emptied), else what went wrong."""
    make, fields = CHUNKS[kind]
    data = make(RECORD)
    units = {u for u in UNIT_IDS if u.rsplit("/", 1)[1] in fields}
    try:
        sent = assert_held(proxy, f"chunks-{place}-{kind}".replace(" ", "_"), "/v1/chat/completions", units, leaks,
                           json={"model": "echo", **_chunk_body(place, data)})
        if sent is not None:
            written = _written(sent, place)
            assert len(written) == len(data) and any(PLACEHOLDER.search(c) for c in written), written
    except AssertionError as e:
        return f"not held: {str(e)[:200]}"
    return "held"


CHUNK_CELLS = [(place, kind) for place in CHUNK_PLACES for kind in CHUNKS]


@pytest.mark.parametrize("place", CHUNK_PLACES)
def test_a_value_cut_into_an_arrays_chunks_holds(proxy, place):
    outcomes = {kind: chunk_outcome(proxy, place, kind) for kind in CHUNKS}
    assert {k: o for k, o in outcomes.items() if o != "held"} == {}


@pytest.mark.parametrize("kind", sorted(CHUNKS))
def test_chunks_of_a_near_miss_go_out_as_sent(proxy, kind):
    data = CHUNKS[kind][0](NEAR)
    answer, sent, record = exchange(proxy, f"chunks-near-{kind}".replace(" ", "_"), _in_tool_call(data))
    assert (answer.status_code, record.findings, record.redactions) == (200, [], 0)
    assert _written(sent[0], "tool call") == data


def test_an_arrays_separate_words_are_no_value(proxy):
    """Strings that only make a value run together across a comma's place go out as sent: `["1392288", "3376"]`
    is the near phone, and a list of tags joins into no unit."""
    data = {"orders": ["1392288", "3376"], "tags": ["lena", "hartmann", "example", "org"]}
    answer, sent, record = exchange(proxy, "chunks-apart", {"messages": [{"role": "user", "content": "x"}],
                                                             "metadata": data})
    assert (answer.status_code, record.findings, record.redactions) == (200, [], 0)
    assert sent[0]["body"]["metadata"] == data


# --- a value cut across three messages --------------------------------------------------------------------------

def _thirds(v: str) -> tuple[str, str, str]:
    k = len(v) // 3
    return v[:k], v[k:len(v) - k], v[len(v) - k:]


def _three(api: str, place: str, a: str, b: str, c: str) -> tuple[str, dict]:
    """(path, body) of three texts read one after the other: three user turns, or two tool results and the user
    turn after them."""
    key = "input" if api == RESPONSES else "messages"
    extra = {"max_tokens": 50} if api == ANTHROPIC else {}
    if place == "user turns":
        turns = [_user(api, a), _user(api, b), _user(api, c)]
    else:
        turns = [_user(api, "Look the customer up."), *_call(api), _result(api, 1, a), _result(api, 2, b),
                 _user(api, c)]
    return API_PATHS[api], {key: turns, **extra}


THREE_PLACES = ["user turns", "tool results then user"]
THREE_CELLS = [(api, place, field) for api in (CHAT, RESPONSES, ANTHROPIC) for place in THREE_PLACES
               for field in ("phone", "email", "iban", "api_key", "national_id")]


def three_outcome(proxy, api: str, place: str, field: str) -> str:
    """"held" where the value cut in three (a page's end and a short chunk between) is found and not forwarded."""
    first, middle, last = _thirds(RECORD[field])
    path, body = _three(api, place, f"customer P1\n{field}: {first}", middle, f"{last}\nend of record")
    unit = {u for u in UNIT_IDS if u.endswith("/" + field)}
    try:
        assert_held(proxy, f"three-{api}-{place}-{field}".replace(" ", "_"), "/v1" + path, unit, leaks,
                    json={"model": "echo", **body})
    except AssertionError as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("place", THREE_PLACES)
@pytest.mark.parametrize("api", [CHAT, RESPONSES, ANTHROPIC])
def test_a_value_cut_across_three_messages_holds(proxy, api, place):
    outcomes = {field: three_outcome(proxy, api, place, field) for field in ("phone", "email", "iban", "api_key",
                                                                                "national_id")}
    assert {k: o for k, o in outcomes.items() if o != "held"} == {}


def test_a_value_two_messages_hold_is_found_once_in_a_run_of_three(proxy):
    """`call 1392288`, `3366`, `ok`: the join of the first two finds the phone, the run of three reads it again; one
    finding, one placeholder, the third message as sent."""
    messages = [{"role": "user", "content": t} for t in ("call 1392288", "3366", "ok")]
    answer, sent, record = exchange(proxy, "three-once", {"messages": messages})
    assert [f["unit_id"].rsplit("/", 1)[1] for f in record.findings] == ["phone"]
    if proxy[0] == "redact":
        assert [m["content"] for m in sent[0]["body"]["messages"]] == ["call [PHONE_001]", "", "ok"]


def test_three_messages_of_a_near_miss_go_out_as_sent(proxy):
    """The near phone cut in three (`139`, `2288`, `3376`), and the phone's thirds a line break apart: no finding."""
    for n, texts in enumerate([("tel 139", "2288", "3376 ok"), ("tel 139\n", "2288", "3366 ok")]):
        messages = [{"role": "user", "content": t} for t in texts]
        answer, sent, record = exchange(proxy, f"three-near-{n}", {"messages": messages})
        assert (answer.status_code, record.findings, record.redactions) == (200, [], 0)
        assert sent[0]["body"]["messages"] == messages


# --- an IPv6 address in a logfmt line ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["level=info msg=connected peer=2001:db8::ff00:42:8329 port=443",
                                  "ts=2026-12-06T20:01:07Z src=2001:DB8::FF00:42:8329 dst=10.0.0.7 bytes=2048"])
def test_an_ipv6_unit_after_an_equals_sign_holds(proxy, text):
    """`=20` before `01:db8` is no quoted-printable space (none ends a line, the text declares no encoding): the
    address is read as the IPv6 form reads it, found, replaced (redact) or refused (block)."""
    answer, sent, record = exchange(proxy, f"logfmt-{text[:2]}", {"messages": [{"role": "user", "content": text}]})
    assert [f["unit_id"] for f in record.findings] == [IPV6_UNIT.id]
    if proxy[0] == "block":
        assert (answer.status_code, sent) == (403, [])
        return
    forwarded = json.dumps([sent[0]["body"], record.request], ensure_ascii=False)
    assert answer.status_code == 200 and record.redactions == 1
    assert ipaddress.IPv6Address(IPV6) not in _addresses(forwarded)


#: The walk's groups of cells beside its forms' (`benchmarks/guard_forms_matrix.py --walk 11` counts them).
GROUPS = {"array chunks": (CHUNK_CELLS, chunk_outcome), "three messages": (THREE_CELLS, three_outcome)}
