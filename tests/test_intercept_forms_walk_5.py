"""The guard's fifth walk (session 17), walked as `test_intercept_forms_walk_4.py` walks: over loopback HTTP in
front of the scripted stand-in upstream, the third walk's customer record in every request position of the wire
APIs, streamed too, written as more tool output and more people write it: a man page's overstrike, a progress
line rewritten after `\\r`, column-aligned `kubectl get` output, TSV with quoted fields, markdown escaped as
Telegram's MarkdownV2 escapes it and emphasis on part of a value, LaTeX source (accent commands, thin spaces,
ties, `{,}`, break hints), string literals concatenated in Java, Python, SQL, PHP, Lua and VB, bash's `$'…'` and
printf's octal escapes, XML CDATA sections cut in two, a streamed answer's server-sent events with a tool call's
arguments cut into deltas, e-mail addresses defanged (`[@]`, `[.]`, `{at}`, `(.)`), digits read out as words with
"double" and "triple", digit groups apart by slashes and underscores (`486_000`), names written surname first
("Núñez, José"), a Chinese name with a middle dot and in pinyin with its tone marks, HTML character references
mixed into every value; and an address whose domain is an IDN, written in Punycode.

Judged as the fourth walk judges, on what the upstream RECEIVED read with every encoding of the earlier walks
and this one undone: redact forwards no value, block forwards nothing. Near misses go out untouched.

Out of scope (design.md, "The guard's forms"): a value in a PDF's text inside a `file` part's base64 (the guard
reads no PDF; the part's bytes are forwarded as the client sent them), and in an image's pixels."""

from __future__ import annotations

import base64
import functools
import json
import re

import pytest
from test_intercept_forms_walk import CELLS, _canonical, assert_held, leaked, walk_tests
from test_intercept_forms_walk_3 import (
    NEAR,
    RECORD,
    UNIT_IDS,
    UNITS,
    _ascii_folded,
    _more_decodings,
    broken_near_misses,
)
from test_intercept_forms_walk_4 import _halves, _line, _these_decodings

from ec2audit.units import make_unit

# --- the forms: a record → the text that carries it ----------------------------------------------------


def _overstrike(r: dict) -> str:
    """`man` output not piped through `col -b`: bold as `c\\bc`, underline as `_\\bc`, a value each way."""
    return "\n".join(f"{k}: " + "".join(f"{c}\b{c}" if i % 2 else f"_\b{c}" for c in v)
                     for i, (k, v) in enumerate(r.items()))


def _progress(r: dict) -> str:
    """A progress line rewritten after `\\r`: each value written half, then whole."""
    return "".join(f"\rexporting {k}: {_halves(v)[0]}\rexporting {k}: {v}" for k, v in r.items()) + "\n"


def _kubectl(r: dict) -> str:
    widths = {k: max(len(k), len(v)) + 3 for k, v in r.items()}
    return "".join(k.upper().ljust(widths[k]) for k in r) + "\n" + "".join(v.ljust(widths[k]) for k, v in r.items())


def _tsv(r: dict) -> str:
    return "\t".join(r) + "\n" + "\t".join(f'"{v}"' for v in r.values()) + "\n"


def _markdown_v2(r: dict) -> str:
    """Telegram's MarkdownV2: every `_*[]()~`>#+-=|{}.!` escaped."""
    return _line({k: re.sub(r"([_*\[\]()~`>#+\-=|{}.!])", r"\\\1", v) for k, v in r.items()})


def _emphasis(r: dict) -> str:
    """Emphasis on a value's second half (`**`, `*`, `~~`, a code span), `_`, `__` and `**` around whole values (a
    Chinese name's surname before `**` reads as a masked name, `欧**`: masked.py's form)."""
    marks = ["**", "*", "~~", "`", "***"]
    out = {k: "{0}{2}{1}{2}".format(*_halves(v), marks[i % 5]) for i, (k, v) in enumerate(r.items())}
    return _line({**out, "name": f"**{r['name']}**", "contact": f"_{r['contact']}_", "email": f"__{r['email']}__"})


_LATEX_ACCENTS = {"é": "\\'{e}", "ú": "\\'u", "ñ": "\\~{n}"}


def _latex(r: dict) -> str:
    p, n, i, s = r["phone"], r["national_id"], r["iban"], r["salary"]
    contact = "".join(_LATEX_ACCENTS.get(c, c) for c in r["contact"])
    mail = r["email"].replace(".", ".\\allowbreak{}")
    rows = {"Name": f"\\begin{{CJK}}{{UTF8}}{{gbsn}}{r['name']}\\end{{CJK}}", "Phone": f"{p[:3]}\\,{p[3:7]}\\,{p[7:]}",
            "E-mail": f"\\texttt{{{mail}}}", "ID": f"{n[:6]}~{n[6:14]}~{n[14:]}",
            "IBAN": "~".join(i[k:k + 4] for k in range(0, len(i), 4)), "Salary": f"\\${s[:3]}{{,}}{s[3:]}",
            "Key": f"\\verb|{r['api_key']}|", "Contact": contact}
    return "\\begin{tabular}{ll}\n" + "".join(f"{k} & {v} \\\\\n" for k, v in rows.items()) + "\\end{tabular}"


def _concatenated(r: dict) -> str:
    """Each value cut in two literals joined as Java, Python and C (across a line), SQL, PHP, Lua, VB write it."""
    joins = [' + ', '\n    ', ' || ', ' . ', ' .. ', ' & ', ' +\n    ', ' \n  ']
    return "\n".join("{0} = {3}{1}{3}{4}{3}{2}{3}".format(k, *_halves(v), "'" if i % 2 else '"', joins[i])
                     for i, (k, v) in enumerate(r.items()))


def _octal(r: dict) -> str:
    """printf's octal escapes for whole values, bash's `$'…'` (`printf %q` in the C locale) for the rest."""
    def every(v: str) -> str:
        return "".join(f"\\{b:03o}" for b in v.encode())

    def quoted(v: str) -> str:
        return "$'" + "".join(c if c.isascii() and c.isalnum() else "".join(f"\\{b:03o}" for b in c.encode())
                              for c in v) + "'"
    return "\n".join(f"printf '{every(v)}\\n'" if i % 2 else f"--{k}={quoted(v)}" for i, (k, v) in enumerate(r.items()))


def _cdata(r: dict) -> str:
    return "<c>" + "".join("<{0}><![CDATA[{1}]]><![CDATA[{2}]]></{0}>".format(k, *_halves(v)) for k, v in r.items()) \
        + "</c>"


def _sse(r: dict) -> str:
    """A captured chat completion stream: a tool call's JSON arguments in deltas of seven characters."""
    args = json.dumps(r, ensure_ascii=False)
    events = [{"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": args[i:i + 7]}}]}}]}
              for i in range(0, len(args), 7)]
    return "".join(f"data: {json.dumps(e, ensure_ascii=False)}\n\n" for e in events) + "data: [DONE]\n"


def _defanged(r: dict) -> str:
    e = r["email"]
    return _line({**r, "email": " / ".join([e.replace("@", "[@]").replace(".", "[.]"),
                                            e.replace("@", "[at]").replace(".", "(.)"),
                                            e.replace("@", "{at}").replace(".", "{dot}")])})


_WORDS = "zero one two three four five six seven eight nine".split()


def _spoken(r: dict) -> str:
    """Digits read out: repeats as "double" and "triple", a zero as "oh"."""
    def said(v: str) -> str:
        out = []
        for run in re.finditer(r"(\d)\1*", v):
            digit, count = _WORDS[int(run.group(1))], len(run.group())
            out += [f"triple {digit}"] * (count // 3) + [f"double {digit}"] * (count % 3 // 2)
            out += [digit] * (count % 3 % 2)
        return ", ".join(out)
    return _line({**r, "phone": said(r["phone"]), "national_id": said(r["national_id"]),
                  "salary": said(r["salary"]).replace("zero", "oh")})


def _separators(r: dict) -> str:
    p, n, i = r["phone"], r["national_id"], r["iban"]
    return _line({**r, "phone": f"{p[:3]}/{p[3:7]}/{p[7:]} or {p[:3]}_{p[3:7]}_{p[7:]}",
                  "national_id": f"{n[:6]}/{n[6:14]}/{n[14:]}",
                  "iban": "_".join(i[k:k + 4] for k in range(0, len(i), 4)),
                  "salary": f"{r['salary'][:3]}_{r['salary'][3:]}"})


def _names(r: dict) -> str:
    """Surname first, with a comma; a Chinese name with a middle dot (`·`, and Japanese `・`)."""
    given, surname = r["contact"].split()
    return _line({**r, "contact": f"{surname}, {given}", "name": f"{r['name'][:2]}·{r['name'][2:]}"}) + \
        f"\nsee also: {r['name'][:2]}・{r['name'][2:]}"


def _entities_mixed(r: dict) -> str:
    """HTML a scraper kept half-encoded: every third character a character reference, `.` and `@` named ones."""
    named = {".": "&period;", "@": "&commat;"}
    return _line({k: "".join(f"&#{ord(c)};" if i % 3 == 0 else named.get(c, c) for i, c in enumerate(v))
                  for k, v in r.items()})


_PINYIN = {"欧阳娜娜": "Ōuyáng Nànà", "欧阳娜": "Ōuyáng Nà"}


def _pinyin(r: dict) -> str:
    return _line({**r, "name": _PINYIN[r["name"]]})


FORMS_5 = {
    "overstrike": _overstrike, "progress_cr": _progress, "kubectl_columns": _kubectl, "tsv_quoted": _tsv,
    "markdown_v2": _markdown_v2, "markdown_emphasis": _emphasis, "latex": _latex, "concatenated": _concatenated,
    "octal_escapes": _octal, "cdata_split": _cdata, "sse_deltas": _sse, "email_defanged": _defanged,
    "spoken_repeats": _spoken, "slash_underscore_groups": _separators, "names_reordered": _names,
    "pinyin_tones": _pinyin, "html_entities_mixed": _entities_mixed,
}
FORMS = {name: functools.partial(lambda make: [make(RECORD)], make) for name, make in FORMS_5.items()}
#: Forms whose line breaks carry meaning (a header's value is flattened to one line)
ONE_LINE = {"overstrike", "progress_cr", "kubectl_columns", "tsv_quoted", "latex", "concatenated", "octal_escapes",
            "sse_deltas"}


# --- reading what the upstream received: the earlier walks' decodings and this walk's ----------------------

_STRUCK = re.compile(r".\x08", re.S)
_CDATA = re.compile(r"<!\[CDATA\[|\]\]>")
_COMMANDS = re.compile(r"\\(?:allowbreak|begin|end|texttt|verb)\b(?:\{\})?")
_DEFANGED = [(re.compile(r"[\[({]\s*(?:at|@)\s*[\])}]", re.I), "@"), (re.compile(r"[\[({]\s*(?:dot|\.)\s*[\])}]", re.I),
                                                                        ".")]
_REPEATED = re.compile(r"\b(double|triple) (\w+)")
_SAID = re.compile(r"\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b")
_DIGIT = {**{w: str(d) for d, w in enumerate(_WORDS)}, "oh": "0"}
_DATA = re.compile(r"^data: (\{.*\})$", re.M)


def _deltas(text: str) -> str:
    """A captured stream's tool call arguments, joined as a client joins them."""
    out = []
    for data in _DATA.findall(text):
        try:  # (what the guard forwarded may be no event of this shape any more)
            out += [c["function"]["arguments"] for choice in json.loads(data)["choices"]
                    for c in choice["delta"]["tool_calls"]]
        except (ValueError, KeyError, TypeError):
            continue
    return "".join(out)


def _digits_said(text: str) -> str:
    text = _REPEATED.sub(lambda m: " ".join([m.group(2)] * (2 if m.group(1) == "double" else 3)), text)
    return _SAID.sub(lambda m: _DIGIT[m.group()], text)


def _these(text: str) -> set[str]:
    plain = text
    for pattern, to in _DEFANGED:
        plain = pattern.sub(to, plain)
    return {_STRUCK.sub("", text), _CDATA.sub("", text), _COMMANDS.sub("", text), plain, _digits_said(text),
            _deltas(text)}


#: a reader recognises the contact written surname first, and the Chinese name in pinyin either way round
_READINGS = {"contact (reversed)": "Núñez José", "contact (reversed, unaccented)": "Nunez Jose",
             "name (pinyin)": "Ouyang Nana", "name (pinyin, given first)": "Nana Ouyang"}
_CANONICAL = {**{field: _canonical(value) for field, value in RECORD.items()},
              **{f"{field} (unaccented)": _canonical(_ascii_folded(value)) for field, value in RECORD.items()
                 if _ascii_folded(value) != value},
              **{reading: _canonical(value) for reading, value in _READINGS.items()}}


def leaks(sent: dict) -> list[str]:
    found = leaked(sent, _CANONICAL, lambda t: _more_decodings(t) | _these_decodings(t) | _these(t)
                   | {_ascii_folded(t)})
    return sorted({f.split(" (")[0] for f in found})


# --- the walk ------------------------------------------------------------------------------------------------

#: Cells where the guard does not hold yet: form → {(api, position, stream)}
KNOWN_GAPS: dict[str, set] = {}

#: The walk's cells of one form (`guard_forms_matrix.py --walk 5`) and its three tests (walk 1's `walk_tests`)
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)
__all__ = ["CELLS", "FORMS", "UNITS", "walk_form"]


# --- structural positions: a value in text a part carries encoded, and in a tool call's streamed arguments --------

def _structural(text: str) -> dict[str, tuple[str, dict]]:
    """name → (path under /v1, body) of a request carrying `text` base64-encoded as a text file in a media part,
    or a captured stream of it in a tool call's JSON arguments."""
    blob = base64.b64encode(text.encode()).decode()
    url = f"data:text/plain;base64,{blob}"
    return {
        "chat.image_url_text": ("/chat/completions", {"messages": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": url}}, {"type": "text", "text": "Hi."}]}]}),
        "chat.file_text": ("/chat/completions", {"messages": [{"role": "user", "content": [
            {"type": "file", "file": {"filename": "c.txt", "file_data": url}}]}]}),
        "responses.input_file_text": ("/responses", {"input": [{"role": "user", "content": [
            {"type": "input_file", "filename": "c.txt", "file_data": url}]}]}),
        "anthropic.document_text": ("/messages", {"max_tokens": 20, "messages": [{"role": "user", "content": [
            {"type": "document", "source": {"type": "base64", "media_type": "text/plain", "data": blob}}]}]}),
        "chat.tool_call_arguments": ("/chat/completions", {"messages": [
            {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
                "name": "save_log", "arguments": json.dumps({"log": text}, ensure_ascii=False)}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "saved"}]}),
    }


@pytest.mark.parametrize("form", ["sse_deltas", "overstrike", "latex"])
@pytest.mark.parametrize("position", sorted(_structural("")))
def test_a_value_in_an_encoded_part_or_streamed_arguments_holds(proxy, position, form):
    path, body = _structural(FORMS_5[form](RECORD))[position]
    assert_held(proxy, f"structural-{position}-{form}", f"/v1{path}", UNIT_IDS, leaks, json={"model": "echo", **body})


# --- an e-mail address whose domain is an IDN, as DNS and mail logs write it -----------------------------------

IDN = make_unit({"task_id": "t1", "entity_id": "P3", "field": "email", "value": "j.mueller@bücher.de",
                 "dimension": "contact"})
GUARDED_UNITS = [*UNITS, IDN]
IDN_TEXTS = ["Reply to j.mueller@xn--bcher-kva.de today.",
             "[Jörg](mailto:j.mueller@XN--BCHER-KVA.DE?subject=Invoice)",
             "postfix/smtp: to=<j.mueller@xn--bcher-kva.de>, relay=mx.xn--bcher-kva.de[203.0.113.5]:25"]
_ACE = re.compile(r"xn--([a-z0-9-]+)", re.I)


def _unpunycoded(text: str) -> str:
    return _ACE.sub(lambda m: m.group(1).lower().encode().decode("punycode"), text)


@pytest.mark.parametrize("text", IDN_TEXTS)
def test_an_address_with_an_idn_domain_in_punycode_is_caught(proxy, text):
    mode, app, client, store = proxy
    episode, seen = f"idn-{IDN_TEXTS.index(text)}", len(app.state.requests)
    answer = client.post(f"/e/{episode}/v1/chat/completions",
                         json={"model": "echo", "messages": [{"role": "user", "content": text}]})
    sent = app.state.requests[seen:]
    [record] = store.records(episode)
    assert {f["unit_id"] for f in record.findings} == {IDN.id}
    if mode == "block":
        assert answer.status_code == 403 and sent == []
    else:
        assert answer.status_code == 200 and record.redactions >= 1
        assert leaked(sent[0], {"idn": _canonical(IDN.value)}, lambda t: {t, _unpunycoded(t)}) == []


# --- near misses: forwarded untouched ------------------------------------------------------------------------

#: Texts a careless decoder reads a unit into: literals apart by a comma, emphasis on two numbers apart, a stream
#: whose strings are no deltas, a word "double" before no digit, a backspace at a line's start.
TRAPS = ['parts = ["1392288", "3366"]; print("1392288", "3366")',
         "**1392288** and **3366** are two order numbers",
         'data: {"delta": "1392288"}\n\ndata: {"id": "3366"}\n\n',
         "double-check it, triple the dose: room one two three four five six",
         "\bsk-proj-\b7fK2mQ9xL4vB8nR3tY6x and Ōuyáng Nà"]


def _near_texts() -> dict[str, list[str]]:
    return {**{f"near-{name}": [make(NEAR)] for name, make in FORMS_5.items()},
            **{f"trap-{i}": [t] for i, t in enumerate(TRAPS)}}


@pytest.mark.parametrize("case", sorted(_near_texts()))
def test_near_misses_go_out_untouched(proxy, case):
    assert broken_near_misses(proxy, _near_texts()[case], case) == {}, f"{proxy[0]} {case}"
