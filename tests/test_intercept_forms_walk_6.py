"""The guard's sixth walk (session 18), walked as `test_intercept_forms_walk_5.py` walks: over loopback HTTP in
front of the scripted stand-in upstream, the third walk's customer record.

First a value cut across two messages or two lists of one message: a tool result's first half ending one tool
message and its second half starting the next (or the user turn after it), two user turns, an Anthropic
`tool_result`'s text and the text part after it, a Responses `function_call_output` and the user message after
it, two user turns of Gemini and Bedrock (untyped text parts), an assistant's text and its tool call's first
argument. Near misses: numbers in neighbouring messages a
line break or a space apart, or with an assistant turn between, or on two sides of the conversation, are two
numbers, and go out untouched (design.md, "The guard's forms", says what is joined and what is not).

Then more forms real tool output carries, in every request position of the wire APIs, streamed too: contact cards
and calendar entries folded at their line length (vCard, iCalendar, an LDIF entry as `ldapsearch` prints it),
values as the hex of their bytes (psql's `bytea`, MySQL's `0x` literals, `xxd -p`), and forms the earlier walks'
decoders already read, walked here in every position: JSON's `\\uXXXX` escapes of CJK, `.env`/TOML quoting, a
`git log`, stack traces, a form-encoded body in a `curl -v` trace, a JWT whose payload carries the record,
logfmt's quoted values, RFC 2047 encoded words (B and Q), iCalendar's escapes.

Then the request envelope: a body compressed with brotli (`Content-Encoding: br`) is read and judged like gzip;
a brotli bomb past the body limit and a broken stream are refused with a one-line reason and never forwarded.

Judged as the earlier walks judge, on what the upstream RECEIVED, all its strings run together too (so a value
cut in two is read whole): redact forwards no value, block forwards nothing."""

from __future__ import annotations

import base64
import email.header
import functools
import json
import re
import urllib.parse

import brotli
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from intercept_helpers import json_strings
from test_intercept_forms_walk import CELLS, _canonical, assert_held, leaked, walk_tests
from test_intercept_forms_walk_2 import _send as exchange
from test_intercept_forms_walk_3 import NEAR, RECORD, UNIT_IDS, UNITS, _ascii_folded, _more_decodings
from test_intercept_forms_walk_3 import broken_near_misses as near_cells
from test_intercept_forms_walk_4 import _halves, _these_decodings
from test_intercept_forms_walk_5 import _CANONICAL as _READ_AS
from test_intercept_forms_walk_5 import _these as _walk_5_decodings

from ec2audit.detect.cascade import Cascade
from ec2audit.gateway.positions import ANTHROPIC, API_PATHS, CHAT, RESPONSES
from ec2audit.intercept.redact import EpisodeMap, Redactor

__all__ = ["CELLS", "CUT_CELLS", "FORMS", "UNITS", "cut_outcome", "walk_form"]


def _call(api: str) -> list[dict]:
    """An assistant turn calling two tools (the results follow)."""
    if api == CHAT:
        return [{"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{i}", "type": "function", "function": {"name": "read_crm", "arguments": "{}"}}
            for i in (1, 2)]}]
    if api == RESPONSES:
        return [{"type": "function_call", "call_id": f"call_{i}", "name": "read_crm", "arguments": "{}"}
                for i in (1, 2)]
    return [{"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": "read_crm",
                                               "input": {}} for i in (1, 2)]}]


def _result(api: str, i: int, text: str) -> dict:
    if api == CHAT:
        return {"role": "tool", "tool_call_id": f"call_{i}", "content": text}
    if api == RESPONSES:
        return {"type": "function_call_output", "call_id": f"call_{i}", "output": text}
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": text}]}


def _said_then_called(api: str, text: str, argument: str) -> list[dict]:
    """An assistant turn's text, then its tool call whose first argument is `argument`."""
    if api == CHAT:
        return [{"role": "assistant", "content": text, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "read_crm", "arguments": json.dumps({"note": argument}, ensure_ascii=False)}}]}]
    if api == RESPONSES:
        return [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]},
                {"type": "function_call", "call_id": "call_1", "name": "read_crm",
                 "arguments": json.dumps({"note": argument}, ensure_ascii=False)}]
    return [{"role": "assistant", "content": [{"type": "text", "text": text}, {
        "type": "tool_use", "id": "toolu_1", "name": "read_crm", "input": {"note": argument}}]}]


def _user(api: str, text: str) -> dict:
    return {"role": "user", "content": [{"type": "input_text", "text": text}] if api == RESPONSES else text}


#: How two texts `a`, `b` (read one after the other) sit in a request: name → (api, path, body)
def _placed(a: str, b: str) -> dict[str, tuple[str, dict]]:
    out: dict[str, tuple[str, dict]] = {}
    for api in (CHAT, RESPONSES, ANTHROPIC):
        key = "input" if api == RESPONSES else "messages"
        head = [_user(api, "Look the customer up.")]
        extra = {"max_tokens": 50} if api == ANTHROPIC else {}
        two = [_result(api, 1, a), _result(api, 2, b)]
        if api == ANTHROPIC:  # both results in the one user turn Anthropic takes them in, and in two turns
            out[f"{api}.tool_results_one_turn"] = (API_PATHS[api], {key: [*head, *_call(api), {
                "role": "user", "content": [two[0]["content"][0], two[1]["content"][0]]}], **extra})
            out[f"{api}.tool_result_then_text"] = (API_PATHS[api], {key: [*head, *_call(api), {
                "role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [
                    {"type": "text", "text": a}]}, {"type": "text", "text": b}]}], **extra})
        out[f"{api}.two_tool_results"] = (API_PATHS[api], {key: [*head, *_call(api), *two], **extra})
        out[f"{api}.tool_result_then_user"] = (API_PATHS[api], {key: [*head, *_call(api), two[0], _user(api, b)],
                                                                **extra})
        out[f"{api}.two_user_turns"] = (API_PATHS[api], {key: [_user(api, a), _user(api, b)], **extra})
        out[f"{api}.text_then_tool_call"] = (API_PATHS[api], {key: [*head, *_said_then_called(api, a, b),
                                                                     _result(api, 1, "ok")], **extra})
    out["gemini.two_user_turns"] = ("/models/gemini-2.0-flash:generateContent", {"contents": [
        {"role": "user", "parts": [{"text": a}]}, {"role": "user", "parts": [{"text": b}]}]})
    out["bedrock.two_user_turns"] = ("/model/anthropic.claude-3-5-sonnet/converse", {"messages": [
        {"role": "user", "content": [{"text": a}]}, {"role": "user", "content": [{"text": b}]}]})
    return out


PLACES = sorted(_placed("", ""))


def _cut(field: str) -> tuple[str, str]:
    """A tool result's line cut inside one of the record's values (a page of output, a chunk of a stream)."""
    first, second = _halves(RECORD[field])
    lines = [f"{k}: {v}" for k, v in RECORD.items() if k != field]
    return "customer P1\n" + "\n".join(lines) + f"\n{field}: {first}", f"{second}\nend of record"


def _send(proxy, episode: str, path: str, body: dict):
    """(answer, what the stand-in received, the store's row) of one request to the API's `path`."""
    return exchange(proxy, episode, body, f"/v1{path}")


def cut_outcome(proxy, place: str, field: str) -> str:
    """"held" where the guard finds every unit (the cut one across the cut) and forwards none, else what went
    wrong (`benchmarks/guard_forms_matrix.py --walk 6` counts them)."""
    mode = proxy[0]
    path, body = _placed(*_cut(field))[place]
    answer, sent, record = _send(proxy, f"cut-{place}-{field}", path, body)
    missed = sorted(u.rsplit("/", 1)[1] for u in UNIT_IDS - {f["unit_id"] for f in record.findings})
    if mode == "block":
        ok = answer.status_code == 403 and sent == [] and not missed
    else:
        together = _canonical("".join(_leaves(sent[0]["body"]))) if sent else ""
        ok = answer.status_code == 200 and not missed and leaked(sent[0], _CANONICAL) == [] \
            and not [f for f, v in _CANONICAL.items() if v in together]
    return "held" if ok else f"{answer.status_code} missed {missed}"


def _leaves(value):
    """The strings of a JSON value in order, JSON text read inside, without keys: the texts as the model reads
    them one after the other (an assistant's text, then its call's arguments)."""
    if isinstance(value, str):
        try:
            inner = json.loads(value)
        except ValueError:
            inner = None
        yield from _leaves(inner) if isinstance(inner, dict | list) else (value,)
    elif isinstance(value, dict | list):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _leaves(item)


CUT_CELLS = [(place, field) for place in PLACES for field in RECORD]


@pytest.mark.parametrize("place", PLACES)
def test_a_value_cut_across_two_messages_is_caught(proxy, place):
    """Each value cut in turn."""
    outcomes = {field: cut_outcome(proxy, place, field) for field in RECORD}
    assert {f: o for f, o in outcomes.items() if o != "held"} == {}


_CANONICAL = {field: _canonical(value) for field, value in RECORD.items()}

#: Two texts read one after the other that hold no unit: numbers a line break or a space apart, a name's halves
#: apart a line break, and one that ends where the next begins with a unit's digits (`1392288` + `3376`: the
#: near phone; the phone is 13922883366).
SEPARATE = {"line break": ("order 1392288\n", "3366 units shipped"),
            "space beside digits": ("order 1392288 ", "3366 units shipped"),
            "leading line break": ("order 1392288", "\n3366 units shipped"),
            "names a line apart": ("signed: José\n", "Núñez & Co. (reseller)"),
            "near digits": ("order 1392288", "3376 shipped")}


@pytest.mark.parametrize("case", sorted(SEPARATE))
def test_texts_apart_in_neighbouring_messages_go_out_untouched(proxy, case):
    broken = {}
    for place in PLACES:
        path, body = _placed(*SEPARATE[case])[place]
        answer, sent, record = _send(proxy, f"apart-{case.replace(' ', '_')}-{place}", path, body)
        strong = [f["matched_text"] for f in record.findings if f["grade"] >= 0.75]
        same = bool(sent) and set(json_strings(body)) <= set(json_strings(sent[0]["body"]))
        if not (answer.status_code == 200 and same and record.redactions == 0 and not strong):
            broken[place] = (answer.status_code, record.redactions, strong)
    assert broken == {}


def _across_sides(a: str, b: str) -> dict[str, dict]:
    """A unit's digits cut across the model's turn: not joined (the model answered in between)."""
    return {"user_then_assistant": {"messages": [_user(CHAT, a), {"role": "assistant", "content": b}]},
            "assistant_then_user": {"messages": [{"role": "assistant", "content": a}, _user(CHAT, b)]},
            "assistant_between": {"messages": [_user(CHAT, a), {"role": "assistant", "content": "Noted."},
                                               _user(CHAT, b)]},
            "result_then_call": {"messages": [_user(CHAT, "go"), *_call(CHAT)[:1], _result(CHAT, 1, a), {
                "role": "assistant", "content": b}]}}


@pytest.mark.parametrize("case", sorted(_across_sides("", "")))
def test_halves_on_two_sides_of_the_conversation_are_two_numbers(proxy, case):
    answer, sent, record = _send(proxy, f"sides-{case}", API_PATHS[CHAT],
                                 _across_sides("ref 1392288", "3366 is the batch")[case])
    assert answer.status_code == 200 and record.redactions == 0
    assert [f for f in record.findings if f["grade"] >= 0.75] == []


@pytest.mark.parametrize("parts", [False, True])
def test_a_value_cut_across_messages_is_replaced_where_it_starts(proxy, parts):
    """Redacted, the first text ends with the placeholder and the next lost the value's rest, and only that: the
    next text's own value further on is replaced where it stands. (Two messages, and two text parts of one.)"""
    mode, *_ = proxy
    first, second = _halves(RECORD["phone"])
    texts = [f"call {first}", f"{second} today, and mail {RECORD['email']} after"]
    messages = [{"role": "user", "content": [{"type": "text", "text": t} for t in texts]}] if parts else \
        [_user(CHAT, t) for t in texts]
    answer, sent, record = _send(proxy, f"cut-placed-{parts}", API_PATHS[CHAT], {"messages": messages})
    if mode == "block":
        assert answer.status_code == 403 and sent == []
        return
    forwarded = sent[0]["body"]["messages"]
    a, b = [p["text"] for p in forwarded[0]["content"]] if parts else [m["content"] for m in forwarded]
    assert re.fullmatch(r"call \[\w+\]", a) and re.fullmatch(r" today, and mail \[\w+\] after", b)
    assert sorted(f["path"] for f in record.findings) == (["/messages/0/content/0/text", "/messages/0/content/1/text"]
                                                          if parts else ["/messages/0/content", "/messages/1/content"])


_FILLER = st.lists(st.sampled_from(["call", "today", "ok", "the", "number", "is", "Lena", "see", "—", "为", "客户"]),
                   min_size=1, max_size=6).map(" ".join)
_REDACTOR: list[Redactor] = []


@settings(max_examples=60, deadline=None)
@given(before=_FILLER, after=_FILLER, field=st.sampled_from(["phone", "iban", "api_key", "national_id"]),
       cut=st.integers(3, 8), own=st.sampled_from(["", "email", "salary"]), parts=st.booleans())
def test_a_cut_value_is_placed_whatever_the_texts_around_it(before, after, field, cut, own, parts):
    """However a value is cut and whatever follows it in the next text (another value of its own too), the first
    text ends with one placeholder and the next starts right after the value, its own value replaced where it
    stands. (The redactor alone, no HTTP: the placing walk is what the proxy forwards.)"""
    if not _REDACTOR:
        _REDACTOR.append(Redactor(Cascade(UNITS)))
    value = RECORD[field]
    tail = f" and {RECORD[own]} too" if own else ""
    texts = [f"{before} {value[:cut]}", f"{value[cut:]} {after}{tail}"]
    messages = [{"role": "user", "content": [{"type": "text", "text": t} for t in texts]}] if parts else \
        [{"role": "user", "content": t} for t in texts]
    sent, rows, replaced = _REDACTOR[0].redact({"messages": messages}, EpisodeMap())
    out = [p["text"] for p in sent["messages"][0]["content"]] if parts else [m["content"] for m in sent["messages"]]
    assert re.fullmatch(re.escape(before) + r" \[\w+\]", out[0]), out
    assert re.fullmatch(re.escape(f" {after}") + (r" and \[\w+\] too" if own else ""), out[1]), out
    assert replaced == 1 + bool(own)


# --- more forms of tool output, in every position ---------------------------------------------------------------

def _line(r: dict) -> str:
    return "; ".join(f"{k}: {v}" for k, v in r.items())


def _vcard(r: dict) -> str:
    """vCard 3.0 as a contacts export writes it: a line past 75 octets folded (CRLF and a space), here inside
    every value."""
    lines = [f"X-{k.upper().replace('_', '-')}:" + "\r\n ".join(_halves(v)) for k, v in r.items()]
    return "BEGIN:VCARD\r\nVERSION:3.0\r\n" + "\r\n".join(lines) + "\r\nEND:VCARD\r\n"


def _ics(r: dict) -> str:
    """An iCalendar event: TEXT escapes (`\\,` `\\;` `\\n`) and lines folded with a tab, the file cut off before
    its END (a tool's output limit)."""
    text = "\\n".join(f"{k}\\: {v}" for k, v in r.items()).replace(",", "\\,").replace(";", "\\;")
    folded = "\r\n\t".join(text[i:i + 17] for i in range(0, len(text), 17))
    return f"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Call back\r\nDESCRIPTION:{folded}\r\n"


def _ldif(r: dict) -> str:
    """`ldapsearch` output: an entry's lines folded at 76 columns with a space, then the search's summary."""
    lines = [f"{k}: " + "\n ".join(_halves(v)) for k, v in r.items()]
    return "# extended LDIF\n\ndn: uid=p1,ou=people,dc=example,dc=org\n" + "\n".join(lines) + \
        "\n\n# search result\nsearch: 2\nresult: 0 Success\n"


def _bytea(r: dict) -> str:
    """psql's table of a `bytea` column (hex output)."""
    rows = [f" {k:<12}| \\x{v.encode().hex()}" for k, v in r.items()]
    return " field       | raw\n-------------+------\n" + "\n".join(rows) + f"\n({len(r)} rows)"


def _sql_hex(r: dict) -> str:
    """A MySQL dump with `--hex-blob`: each value a `0x…` literal."""
    return "INSERT INTO `customer` VALUES (" + ",".join(f"0x{v.encode().hex().upper()}" for v in r.values()) + ");"


def _xxd_plain(r: dict) -> str:
    """`xxd -p` of the record's file: 60 digits a line, values cut across lines."""
    digits = (_line(r) + "\n").encode().hex()
    return "$ xxd -p customer.txt\n" + "\n".join(digits[i:i + 60] for i in range(0, len(digits), 60))


def _json_ascii(r: dict) -> str:
    return json.dumps({"customer": r})  # ensure_ascii: 欧阳娜娜 as \\u6b27\\u9633…


def _env_toml(r: dict) -> str:
    env = "".join(f"{k.upper()}='{v}'\n" if i % 2 else f'export {k.upper()}="{v}"\n'
                  for i, (k, v) in enumerate(r.items()))
    toml = "".join(f'{k} = """{v}"""\n' if i % 2 else f"{k} = '{v}'\n" for i, (k, v) in enumerate(r.items()))
    return f"$ cat .env\n{env}$ cat config.toml\n[customer]\n{toml}"


def _git_log(r: dict) -> str:
    body = "\n".join(f"    {k}: {v}" for k, v in r.items() if k not in ("contact", "email"))
    return (f"commit 1f2e3d4c5b6a798897a6b5c4d3e2f1a0b9c8d7e6\nAuthor: {r['contact']} <{r['email']}>\n"
            f"Date:   Sat Dec 5 10:00:00 2026 +0000\n\n    Update customer P1\n\n{body}\n")


def _traces(r: dict) -> str:
    py = "".join(f'  File "crm.py", line {i}, in check\nValueError: invalid {k}: {v!r}\n' for i, (k, v) in
                 enumerate(r.items()) if i % 2)
    java = "".join(f"java.lang.IllegalArgumentException: bad {k} \"{v}\"\n\tat com.crm.Check.run(Check.java:{i})\n"
                   for i, (k, v) in enumerate(r.items()) if not i % 2)
    return "Traceback (most recent call last):\n" + py + java


def _curl_form(r: dict) -> str:
    body = urllib.parse.urlencode(r)
    return (f"> POST /crm/update HTTP/1.1\n> Content-Type: application/x-www-form-urlencoded\n> Content-Length: "
            f"{len(body)}\n>\n}} [{len(body)} bytes data]\n* upload completely sent off: {body}\n< HTTP/1.1 200 OK\n")


def _jwt(r: dict) -> str:
    def part(d: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(d, ensure_ascii=False).encode()).decode().rstrip("=")
    return f"Authorization: Bearer {part({'alg': 'HS256', 'typ': 'JWT'})}.{part({'sub': 'P1', **r})}.c2lnbmF0dXJl"


def _logfmt(r: dict) -> str:
    return "level=warn msg=\"customer updated\" " + " ".join(f'{k}="{v}"' for k, v in r.items())


def _encoded_words(r: dict) -> str:
    """Mail headers as a mail tool prints their raw source: B-encoded and Q-encoded words."""
    def q(v: str) -> str:
        return "=?UTF-8?Q?" + "".join(c if c.isascii() and c.isalnum() else "_" if c == " " else
                                      "".join(f"={b:02X}" for b in c.encode()) for c in v) + "?="
    return "".join(f"X-{k}: {email.header.Header(v, 'utf-8').encode() if i % 2 else q(v)}\n"
                   for i, (k, v) in enumerate(r.items()))


FORMS_6 = {"vcard_folded": _vcard, "icalendar_folded": _ics, "ldif_folded": _ldif, "psql_bytea": _bytea,
           "sql_hex_blob": _sql_hex, "xxd_plain": _xxd_plain, "json_ascii": _json_ascii, "env_toml": _env_toml,
           "git_log": _git_log, "stack_traces": _traces, "curl_form_body": _curl_form, "jwt": _jwt,
           "logfmt_quoted": _logfmt, "encoded_words": _encoded_words}
FORMS = {name: functools.partial(lambda make: [make(RECORD)], make) for name, make in FORMS_6.items()}
#: Forms whose line breaks carry meaning (a header's value is flattened to one line)
ONE_LINE = {"vcard_folded", "icalendar_folded", "ldif_folded", "xxd_plain"}

_HEX = re.compile(r"(?:\\x|0x)?((?:[0-9a-fA-F]{2}\s?){4,})")
_FOLD = re.compile(r"\r?\n[ \t]")
_ICS = re.compile(r"\\([,;n:])")


def _unhexed(text: str) -> str:
    def decoded(m: re.Match) -> str:
        try:
            return bytes.fromhex(m.group(1)).decode("utf-8")
        except ValueError:
            return m.group()
    return _HEX.sub(decoded, text)


def _these(text: str) -> set[str]:
    return {_unhexed(text), _unhexed(text.replace("\n", "")), _ICS.sub(r"\1", _FOLD.sub("", text)),
            _FOLD.sub("", text)}


def leaks(sent: dict) -> list[str]:
    found = leaked(sent, _READ_AS, lambda t: _more_decodings(t) | _these_decodings(t) | _walk_5_decodings(t)
                   | _these(t) | {_ascii_folded(t)})
    return sorted({f.split(" (")[0] for f in found})


#: Cells where the guard does not hold yet: form → {(api, position, stream)}
KNOWN_GAPS: dict[str, set] = {}

#: The walk's cells of one form (`guard_forms_matrix.py --walk 6`) and its three tests (walk 1's `walk_tests`)
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)


#: Texts in these forms that hold no unit (the third walk's near record), and hex and folds that are no text
TRAPS = ["sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 at 0x7ffd5a3b2c10",
         "BEGIN:VCARD\r\nNOTE:orders 1392288 and\r\n 3376 shipped\r\nEMAIL:lena.hartmann@exam\r\n ple.com\r\nEND:VCARD",
         "id 3133393232 and 0x20202020; git 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"]


@pytest.mark.parametrize("case", [*sorted(FORMS_6), *range(len(TRAPS))])
def test_near_misses_go_out_untouched(proxy, case):
    text = FORMS_6[case](NEAR) if isinstance(case, str) else TRAPS[case]
    assert near_cells(proxy, [text], f"near6-{case}") == {}


# --- brotli request bodies ---------------------------------------------------------------------------------

def _body() -> bytes:
    text = "\n".join(f"{k}: {v}" for k, v in RECORD.items())
    return json.dumps({"model": "echo", "messages": [{"role": "user", "content": text}]}, ensure_ascii=False).encode()


@pytest.mark.parametrize("encoding", ["br", "gzip, br", "br, zstd"])
def test_a_brotli_body_is_read_and_judged(proxy, encoding):
    import gzip

    import zstandard

    data = _body()
    for coding in encoding.split(", "):
        data = {"br": brotli.compress, "gzip": gzip.compress, "zstd": zstandard.ZstdCompressor().compress}[coding](data)
    sent = assert_held(proxy, f"br-{encoding.replace(', ', '+')}", "/v1/chat/completions", UNIT_IDS,
                       lambda forwarded: leaked(forwarded, _CANONICAL), content=data,
                       headers={"content-type": "application/json", "content-encoding": encoding})
    assert sent is None or "content-encoding" not in sent["headers"]


#: A brotli body the guard will not read: (body) → the status and a word of the one-line reason.
BAD_BROTLI = {
    "bomb": (brotli.compress(b'{"messages": "' + b"0" * 40_000_000 + b'"}'), 413, "over the"),
    "truncated": (brotli.compress(_body())[:-4], 400, "not valid br"),
    "not brotli": (_body(), 400, "not valid br"),
}


@pytest.mark.parametrize("case", sorted(BAD_BROTLI))
def test_a_brotli_body_past_the_limit_or_broken_is_refused(proxy, case):
    mode, app, client, store = proxy
    data, status, word = BAD_BROTLI[case]
    episode, seen = f"bad-br-{case.replace(' ', '_')}", len(app.state.requests)
    answer = client.post(f"/e/{episode}/v1/chat/completions", content=data,
                         headers={"content-type": "application/json", "content-encoding": "br"})
    assert app.state.requests[seen:] == []
    [record] = store.records(episode)
    message = answer.json()["error"]["message"]
    assert answer.status_code == record.status == status and word in message and "\n" not in message
